/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The numeric settings of the serving core and their limits, in one table
 * that both front ends read: fastmib-agentx (command-line option and
 * configuration directive) and the snmpd module (its fastmib* directive).
 * A limit changes here and nowhere else; every "bad VALUE" message is
 * made by fastmib_setting_parse() from the same entry.
 */
#ifndef FASTMIB_AGENT_SETTINGS_H
#define FASTMIB_AGENT_SETTINGS_H

#include <stddef.h>

enum fastmib_setting {
	FMS_PING,           /* AgentX ping interval, s (fastmib-agentx only) */
	FMS_CHECK,          /* segment re-attach check period, s */
	FMS_EV_HISTORY,     /* event records kept per segment */
	FMS_NOTIFY_RATE,    /* notifications per second */
	FMS_NOTIFY_BURST,   /* notifications at once */
	FMS_IFINDEX_BASE,   /* ifIndex base of --ports sources without one */
	FMS_PORTS_TIMEOUT,  /* longest wait for a telemetry answer, ms */
	FMS_COUNT
};

struct fastmib_setting_spec {
	const char *token;        /* fastmib-agentx directive */
	const char *module_token; /* snmpd module directive, NULL if none */
	const char *option;       /* fastmib-agentx long option */
	const char *what;         /* for command-line messages */
	long min, max, def;
	const char *unit;         /* appended to the range in messages */
};

extern const struct fastmib_setting_spec fastmib_settings[FMS_COUNT];

/*
 * `word` as setting `s`: a whole decimal number within the limits. On
 * error, -EINVAL and "bad NAME 'WORD' (MIN..MAXUNIT)" in msg, where NAME
 * is `name` (the directive or option the value came with).
 */
int fastmib_setting_parse(enum fastmib_setting s, const char *name, const char *word,
			  long *out, char *msg, size_t len);

/* The setting whose directive (fastmib-agentx's) is `token`, or FMS_COUNT. */
enum fastmib_setting fastmib_setting_by_token(const char *token);

#endif /* FASTMIB_AGENT_SETTINGS_H */
