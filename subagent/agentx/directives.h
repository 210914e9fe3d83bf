/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's configuration files as they are read: its directives,
 * whose handlers Net-SNMP's reader calls, into the values being read
 * (fmx_cfg->reading); the errors counted meanwhile; and the two settings
 * taken from the -c files before Net-SNMP starts. What the values are
 * given to, and the reload, are config.h's.
 */
#ifndef FASTMIB_AGENTX_DIRECTIVES_H
#define FASTMIB_AGENTX_DIRECTIVES_H

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

/* Every directive of ours, as one list for Net-SNMP's read_config()
 * (the reload, and the fuzz target of the files). */
struct config_line *fmx_directives(void);

/* Count errors logged from now on (the configuration is being read):
 * main.c at start, fmx_reload() again. */
void fmx_count_errors_begin(struct fmx_settings *st);
unsigned int fmx_count_errors_end(struct fmx_settings *st);

#endif
