/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: the values of its configuration given to the segment
 * set and the ports, and the reload (config.h). The files are read by
 * directives.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "connect.h"
#include "directives.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

/* ---- applying, and reloading ---- */

static void
add_all(struct fmx_settings *st)
{
	const struct fmx_values *src[2] = { &st->cli, &st->files };
	int rc;

	for (int k = 0; k < 2; k++) {
		for (unsigned int i = 0; i < src[k]->n_segments; i++) {
			rc = fma_add(st->agent, src[k]->segments[i]);
			if (rc < 0 && rc != -EEXIST)
				snmp_log(LOG_ERR, APP ": segment %s: %s\n", src[k]->segments[i],
					 rc == -ENOSPC ? "too many segments" : strerror(-rc));
		}
		for (unsigned int i = 0; i < src[k]->n_ports; i++) {
			rc = fmp_ports_add(st->ports, src[k]->ports[i]);
			if (rc < 0 && rc != -EEXIST)
				snmp_log(LOG_ERR, APP ": ports %s: %s\n", src[k]->ports[i],
					 rc == -ENOSPC ? "too many applications" : strerror(-rc));
		}
	}
}

/* The value in force of s, else its default. */
static long
effective(const struct fmx_settings *st, enum fma_setting s)
{
	long v = fmx_setting(st, s);

	return v >= 0 ? v : fma_settings[s].def;
}

int
fmx_apply(struct fmx_settings *st, bool reload)
{
	long rate = effective(st, FMA_SETTING_NOTIFY_RATE);
	long burst = effective(st, FMA_SETTING_NOTIFY_BURST);

	if (reload) {
		fma_reload_begin(st->agent);
		fmp_ports_reload_begin(st->ports);
	}
	/* the base before the sources: it places those without their own */
	fmp_ports_config_base(st->ports, (uint32_t)effective(st, FMA_SETTING_IFINDEX_BASE));
	fmp_ports_config_timeout(st->ports, (unsigned int)effective(st, FMA_SETTING_PORTS_TIMEOUT));
	fmp_ports_config_link_trap_rate(st->ports,
				    (unsigned int)effective(st, FMA_SETTING_PORTS_TRAP_RATE));
	add_all(st);
	fma_config_event_history(st->agent,
					(unsigned int)effective(st, FMA_SETTING_EV_HISTORY));
	fma_config_notify_limit(st->agent, (unsigned int)rate, (unsigned int)burst);
	if (reload) {
		unsigned int dropped = fma_reload_end(st->agent);
		unsigned int pdropped = fmp_ports_reload_end(st->ports);

		snmp_log(LOG_INFO, APP ": configuration reloaded: %u segment(s) (%u no "
			 "longer served), %u ports source(s) (%u no longer served)\n",
			 fma_count(st->agent), dropped,
			 fmp_ports_count(st->ports), pdropped);
	}
	return 0;
}

/* What the values cannot be together; -1 after a log message. */
static int
check_values(const struct fmx_settings *st)
{
	long rate = effective(st, FMA_SETTING_NOTIFY_RATE);
	long burst = effective(st, FMA_SETTING_NOTIFY_BURST);

	if (rate > 0 && burst == 0) {
		snmp_log(LOG_ERR, APP ": a notification rate needs a burst of at least 1\n");
		return -1;
	}
	if (st->cli.n_segments + st->files.n_segments == 0 &&
	    st->cli.n_ports + st->files.n_ports == 0) {
		snmp_log(LOG_ERR, APP ": no segment and no --ports given\n");
		return -1;
	}
	return 0;
}

/* Settings that a running agent cannot take: say that they wait. */
static void
report_restart_only(const struct fmx_settings *st, const struct fmx_values *old)
{
	const struct fmx_values *v = &st->files;

	if (st->cli.num[FMA_SETTING_CHECK] < 0 && v->num[FMA_SETTING_CHECK] != old->num[FMA_SETTING_CHECK])
		snmp_log(LOG_WARNING, APP ": checkPeriod changed: it takes effect when the "
			 "agent restarts\n");
	if (!st->cli.agentx_socket && !st->listen.value &&
	    (v->agentx_socket ? !old->agentx_socket || strcmp(v->agentx_socket,
							      old->agentx_socket)
			      : old->agentx_socket != NULL))
		snmp_log(LOG_WARNING, APP ": agentxSocket changed: it is used from the "
			 "next connection to the master agent\n");
}

void
fmx_reload(struct fmx_settings *st)
{
	struct config_files own = { (char *)APP, fmx_directives(), NULL };
	struct fmx_values old = st->files, fresh;
	char *list, *file, *save = NULL;
	int warned = netsnmp_ds_get_boolean(NETSNMP_DS_LIBRARY_ID,
					    NETSNMP_DS_LIB_NO_TOKEN_WARNINGS);
	unsigned int errors;

	snmp_log(LOG_INFO, APP ": SIGHUP: reading the configuration again\n");
	memset(&fresh, 0, sizeof(fresh));
	fmx_values_reset(&fresh);
	st->reading = &fresh;
	st->reloading = true;
	/* Net-SNMP's own directives are read at start only: not ours to
	 * warn about here */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_NO_TOKEN_WARNINGS, 1);
	fmx_count_errors_begin(st);
	read_config_files_of_type(NORMAL_CONFIG, &own);
	if (st->config) {
		list = fmx_keep(st->config);
		for (file = strtok_r(list, ",", &save); file;
		     file = strtok_r(NULL, ",", &save)) {
			if (access(file, R_OK) < 0) {
				snmp_log(LOG_ERR, APP ": %s: %s\n", file, strerror(errno));
				st->config_errors++;
				continue;
			}
			read_config(file, own.start, NORMAL_CONFIG);
		}
		free(list);
	}
	errors = fmx_count_errors_end(st);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_NO_TOKEN_WARNINGS,
			       warned);
	st->reading = &st->files;
	st->reloading = false;
	st->files = fresh;
	if (errors == 0 && check_values(st) < 0)
		errors = 1;
	if (errors) {
		st->files = old;
		fmx_values_reset(&fresh);
		snmp_log(LOG_ERR, APP ": %u error(s) in the configuration; the one in "
			 "force is kept\n", errors);
		return;
	}
	report_restart_only(st, &old);
	fmx_values_reset(&old);
	fmx_apply(st, true);
}

/* At the end of the start's configuration read: the checks that need
 * every file. -1 stops the start. */
int
fmx_config_check(struct fmx_settings *st)
{
	return check_values(st);
}

