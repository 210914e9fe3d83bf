/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's configuration: what the values are given to, and the
 * reload. How the files are read is directives.h's; where each value
 * lands and which source wins is values.h's.
 *
 * The files are read by Net-SNMP, as snmpd's are: at start through
 * init_snmp() (every directive, Net-SNMP's own included); on SIGHUP again,
 * this agent's directives only, into a fresh set of values that replaces
 * the one in force only if the files have no error.
 */
#ifndef FASTMIB_AGENTX_CONFIG_H
#define FASTMIB_AGENTX_CONFIG_H

#include <stdbool.h>

#include "values.h"

/*
 * Give the segment set and the ports what the values name (the command
 * line's first, then the files'), and the numeric settings. At start
 * (reload false) before the set is started; on reload between the sets'
 * reload_begin and reload_end. Returns 0, or -1 after a log message.
 */
int fmx_apply(struct fmx_settings *st, bool reload);

/* Once every file is read at start: the checks that need them all
 * (something to serve, a burst for a rate). -1 after a log message. */
int fmx_config_check(struct fmx_settings *st);

/*
 * SIGHUP: read the files again (this agent's directives only). With no
 * error, the new values replace the old and are applied; otherwise the
 * old stay in force and the log says why.
 */
void fmx_reload(struct fmx_settings *st);

#endif
