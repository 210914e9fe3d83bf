/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-stat --ports: the ethdev ports of DPDK applications, read over
 * their telemetry sockets, as fastmib-agentx serves them in IF-MIB.
 */
#ifndef FASTMIB_STAT_PORTS_H
#define FASTMIB_STAT_PORTS_H

#include <stdbool.h>
#include <stdio.h>

/** Does the command line ask for ports (a --ports option)? */
bool stat_ports_wanted(int argc, char **argv);

/** Run `fastmib-stat --ports ...`; returns the exit status. */
int stat_ports_main(int argc, char **argv);

/** --watch's SECONDS, for both kinds of command line (args.c): a number
 * in (0, 86400]; 0, or -EINVAL. */
int parse_watch_seconds(const char *s, double *v);

/** The --ports lines of `fastmib-stat --help`. */
void stat_ports_usage(FILE *f);

#endif /* FASTMIB_STAT_PORTS_H */
