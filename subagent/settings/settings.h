/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The numeric settings of the serving core and their limits, in one table
 * that both front ends read: fastmib-agentx (command-line option and
 * configuration directive) and the snmpd module (its fastmib* directive).
 * A limit changes here and nowhere else; every "bad VALUE" message is
 * made by fma_setting_parse() from the same entry.
 */
#ifndef FMA_SETTINGS_H
#define FMA_SETTINGS_H

#include <stddef.h>

enum fma_setting {
	FMA_SETTING_PING,           /* AgentX ping interval, s (fastmib-agentx only) */
	FMA_SETTING_CHECK,          /* segment re-attach check period, s */
	FMA_SETTING_EV_HISTORY,     /* event records kept per segment */
	FMA_SETTING_NOTIFY_RATE,    /* notifications per second */
	FMA_SETTING_NOTIFY_BURST,   /* notifications at once */
	FMA_SETTING_IFINDEX_BASE,   /* first ifIndex of new devices of sources without one */
	FMA_SETTING_PORTS_TIMEOUT,  /* longest wait for a telemetry answer, ms */
	FMA_SETTING_PORTS_TRAP_RATE, /* linkUp/linkDown per second, 0 = none */
	FMA_SETTING_COUNT
};

struct fma_setting_spec {
	const char *token;        /* fastmib-agentx directive */
	const char *module_token; /* snmpd module directive, NULL if none */
	const char *option;       /* fastmib-agentx long option */
	const char *what;         /* for command-line messages */
	long min, max, def;
	const char *unit;         /* appended to the range in messages */
};

extern const struct fma_setting_spec fma_settings[FMA_SETTING_COUNT];

/*
 * `word` as setting `s`: a whole decimal number within the limits. On
 * error, -EINVAL and "bad NAME 'WORD' (MIN..MAXUNIT)" in msg, where NAME
 * is `name` (the directive or option the value came with).
 */
int fma_setting_parse(enum fma_setting s, const char *name, const char *word,
			  long *out, char *msg, size_t len);

/* The setting whose directive (fastmib-agentx's) is `token`, or FMA_SETTING_COUNT. */
enum fma_setting fma_setting_by_token(const char *token);

#endif /* FMA_SETTINGS_H */
