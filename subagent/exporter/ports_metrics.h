/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ethdev ports of DPDK applications (--ports), exported as snmp_exporter's
 * stock if_mib module exports IF-MIB: the same metric names (ifHCInOctets,
 * ifOperStatus, ...), labels ifIndex, ifName, ifAlias, ifDescr, with the
 * ifIndex and ifAlias the agent gives the ports (its port map, read only).
 * Counters keep their IF-MIB names, without `_total`, in both formats: in
 * OpenMetrics their families are typed `unknown`, so that Prometheus stores
 * the names snmp_exporter's text gives it.
 */
#ifndef FME_PORTS_METRICS_H
#define FME_PORTS_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "sink.h"

struct fme_ports;

/*
 * Ports of the applications `specs` ("PATH[,BASE]", as the agent takes
 * them), ifIndex and ifAlias from the port map in `state_dir` (NULL: none;
 * new devices then take the ifIndex the agent would give them). 0, or a
 * negative errno after a log line naming the source.
 */
int fme_ports_create(char *const *specs, unsigned int n, const char *state_dir,
		     struct fme_ports **portsp);

/* fastmib-agentx's state directory where it exists, else NULL. */
const char *fme_ports_default_state_dir(void);

/* One reading of every port, given to `sink` (expo.h) family by family.
 * Readings take their turn: one telemetry connection per application.
 * 0, or -ENOMEM. */
int fme_ports_walk(struct fme_ports *ports, struct fme_sink *sink);

void fme_ports_destroy(struct fme_ports *ports);

#endif
