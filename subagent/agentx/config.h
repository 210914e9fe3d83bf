/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's configuration files: its directives, the two of them
 * read before Net-SNMP starts, what the values are given to, and the
 * reload. Where each value lands and which source wins is values.h's.
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
 * listen and persistentDir/stateDir decide how Net-SNMP is started (the
 * agent's role, where its state is read from), so main() takes them from
 * the -c files before it starts, unless the command line set them.
 * Returns 0, or -1 after a message naming the file and line.
 */
int fmx_config_early(struct fmx_settings *st);

/* The directives, registered with Net-SNMP before init_snmp() (main.c). */
void fmx_register_directives(void);

/* Count errors logged from now on (the configuration is being read):
 * main.c at start, fmx_reload() again. */
void fmx_count_errors_begin(struct fmx_settings *st);
unsigned int fmx_count_errors_end(struct fmx_settings *st);

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
