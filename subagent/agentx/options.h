/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's command line: snmpd's options where snmpd has them
 * (-f, -x, -L, -A, -D, -d, -p, -u, -g, -c, -C, -H, -v), a long option for
 * each numeric setting of settings.h, --help. What they set goes to the
 * command line's values (values.h), which win over the files'.
 */
#ifndef FASTMIB_AGENTX_OPTIONS_H
#define FASTMIB_AGENTX_OPTIONS_H

#include "values.h"

/*
 * Read the command line into st, the segments named after the options
 * included. Returns -1 to go on, else the exit status: 0 after --help or
 * --version, 1 after a message on stderr. Called by main() once.
 */
int fmx_parse_args(int argc, char **argv, struct fmx_settings *st);

#endif
