/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings table shared by fastmib-agentx and the snmpd module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core.h"
#include "ports.h"
#include "settings.h"

const struct fma_setting_spec fma_settings[FMA_SETTING_COUNT] = {
	[FMA_SETTING_PING] = { "pingInterval", NULL, "ping", "ping interval", 1, 3600, 2, " s" },
	[FMA_SETTING_CHECK] = { "checkPeriod", NULL, "check-period", "check period", 1, 3600,
			FMA_CHECK_PERIOD, " s" },
	[FMA_SETTING_EV_HISTORY] = { "eventHistory", "fastmibEventHistory", "event-history",
			     "event history", 1, FMA_EVENT_HISTORY_MAX,
			     FMA_EVENT_HISTORY, "" },
	[FMA_SETTING_NOTIFY_RATE] = { "notifyRate", "fastmibNotifyRate", "notify-rate",
			      "notification rate", 0, 1000000, FMA_NOTIFY_RATE, "/s" },
	[FMA_SETTING_NOTIFY_BURST] = { "notifyBurst", "fastmibNotifyRate", "notify-burst",
			       "notification burst", 0, 1000000, FMA_NOTIFY_BURST,
			       "" },
	[FMA_SETTING_IFINDEX_BASE] = { "ifIndexBase", "fastmibIfIndexBase", "ifindex-base",
			       "ifIndex base", 1, FME_IFINDEX_MAX, FME_IFINDEX_BASE, "" },
	[FMA_SETTING_PORTS_TIMEOUT] = { "portsTimeout", "fastmibPortsTimeout", "ports-timeout",
				"timeout", 1, FMP_PORTS_TIMEOUT_MAX,
				FMP_PORTS_TIMEOUT_MS, " ms" },
	[FMA_SETTING_PORTS_TRAP_RATE] = { "portsLinkTrapRate", "fastmibPortsLinkTrapRate",
				  "ports-link-trap-rate", "linkUp/linkDown rate", 0,
				  FMP_PORTS_TRAP_RATE_MAX, FMP_PORTS_TRAP_RATE, "/s" },
};

int
fma_setting_parse(enum fma_setting s, const char *name, const char *word,
		      long *out, char *msg, size_t len)
{
	const struct fma_setting_spec *n = &fma_settings[s];
	char *end;
	long v;

	errno = 0;
	v = strtol(word, &end, 10);
	if (errno || end == word || *end || v < n->min || v > n->max) {
		snprintf(msg, len, "bad %s '%s' (%ld..%ld%s)", name, word, n->min, n->max,
			 n->unit);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

enum fma_setting
fma_setting_by_token(const char *token)
{
	int i;

	for (i = 0; i < FMA_SETTING_COUNT; i++)
		if (!strcasecmp(token, fma_settings[i].token))
			break;
	return (enum fma_setting)i;
}
