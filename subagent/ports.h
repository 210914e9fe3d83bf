/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * IF-MIB rows (ifTable, ifXTable) for the ethdev ports of DPDK
 * applications, read live over their telemetry sockets (telemetry.h,
 * ifmib.h). Used by every front end beside the segment set of core.h.
 *
 * Each configured application is a "ports source": a telemetry socket or
 * runtime directory, with an ifIndex base. Port P of the source with base B
 * is served at ifIndex B + P. A source without a base of its own gets
 * base + 100 * n, n being its position among the sources (0, 1, ...), and
 * then serves port ids 0..99 only.
 *
 * Rows are registered per port and table: one registration of
 * ifEntry.1.<ifIndex> with a range over the column sub-identifier (1..22),
 * one of ifXEntry.1.<ifIndex> (1..19). snmpd keeps its own IF-MIB rows for
 * the kernel's interfaces; a walk through snmpd gives both in OID order.
 * A port whose ifIndex is also a kernel interface's, or another source's,
 * is not served (logged), so nothing is shadowed.
 *
 * Values are read at request time: one telemetry query per port per PDU,
 * shared by the PDU's varbinds, and reused by later PDUs for at most
 * FASTMIB_PORTS_REUSE_NS (snmpd turns a GETBULK into one AgentX GetNext
 * per varbind). A periodic check (FASTMIB_PORTS_CHECK_MS) connects to
 * applications that appear, notices those that exit (their rows are
 * withdrawn), reads the port list, link state and counters so that
 * ifLastChange and ifCounterDiscontinuityTime follow what happens between
 * requests.
 *
 * Every wait for the application is bounded (the timeout, default
 * FASTMIB_PORTS_TIMEOUT_MS); an application that stops answering for
 * FASTMIB_PORTS_STALL_MS has its rows withdrawn until it answers again.
 * Single-threaded like the rest of the agent.
 */
#ifndef FASTMIB_AGENT_PORTS_H
#define FASTMIB_AGENT_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "telemetry.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default wait for an application's telemetry answer, milliseconds. */
#define FASTMIB_PORTS_TIMEOUT_MS  5u
#define FASTMIB_PORTS_TIMEOUT_MAX 1000u
/** Sources one set holds at most. */
#define FASTMIB_PORTS_MAX_SOURCES 32u
/** Period of the connect / exit / sampling check, milliseconds. */
#define FASTMIB_PORTS_CHECK_MS    500u
/** How long a reading may serve later PDUs, nanoseconds. */
#define FASTMIB_PORTS_REUSE_NS    1000000u
/** An application that has not answered for this long is taken as gone. */
#define FASTMIB_PORTS_STALL_MS    1500u

struct fastmib_ports;

/** Create an empty set. Returns 0 or -ENOMEM. */
int fastmib_ports_create(struct fastmib_ports **portsp);

/**
 * Are the rows served next to snmpd's own IF-MIB (AgentX subagent, snmpd
 * module: the default)? Then the ifIndex values of the kernel's interfaces
 * are left to snmpd. A standalone agent serves no kernel interface.
 */
void fastmib_ports_set_beside_kernel(struct fastmib_ports *ports, bool beside);

/**
 * Add a source "PATH[,BASE]" (see fastmib_port_source_parse()). The n-th
 * source added (from 0, also counting those with a base) gets base +
 * FASTMIB_IFINDEX_SPACING * n when it has no base of its own. Returns 0
 * (also for a source named again during a reload), -EINVAL, -EEXIST (named
 * twice), -ENOSPC, -ENOMEM.
 */
int fastmib_ports_add(struct fastmib_ports *ports, const char *spec);

/** ifIndex base of sources without their own (default FASTMIB_IFINDEX_BASE).
 * -EINVAL outside 1..FASTMIB_IFINDEX_MAX. */
int fastmib_ports_set_base(struct fastmib_ports *ports, uint32_t base);

/** Longest wait for one telemetry answer, 1..FASTMIB_PORTS_TIMEOUT_MAX ms. */
int fastmib_ports_set_timeout(struct fastmib_ports *ports, unsigned int ms);

/** Reload, as fastmib_agent_reload_begin()/end(): sources named again keep
 * their rows; sources whose base changed are served again at the new one. */
void fastmib_ports_reload_begin(struct fastmib_ports *ports);
unsigned int fastmib_ports_reload_end(struct fastmib_ports *ports);

/** Sources configured. */
unsigned int fastmib_ports_count(const struct fastmib_ports *ports);

/** Ports currently served (rows registered). */
unsigned int fastmib_ports_serving(const struct fastmib_ports *ports);

/**
 * Connect to the applications that run, register their rows, arm the
 * periodic check. Call after init_agent(). -EALREADY when started.
 */
int fastmib_ports_start(struct fastmib_ports *ports);

/** The periodic check, now. */
void fastmib_ports_check(struct fastmib_ports *ports);

/** Withdraw every row, close every connection, log the telemetry traffic,
 * free the set. NULL is ignored. */
void fastmib_ports_destroy(struct fastmib_ports *ports);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_AGENT_PORTS_H */
