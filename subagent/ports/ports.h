/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * IF-MIB rows (ifTable, ifXTable) for the ethdev ports of DPDK
 * applications, read live over their telemetry sockets (the ethdev
 * library, <fastmib/ethdev/...>), beside the segments of the serving core
 * in every front end. docs/if-mib.md describes the behaviour for
 * operators, ports_priv.h the files.
 *
 * Each configured application is a "ports source": a telemetry socket or
 * runtime directory, with the base its new devices take their ifIndex
 * from. Which ifIndex, ifName, ifAlias and ifLinkUpDownTrapEnable a port
 * has is the port map's rule (<fastmib/ethdev/portmap.h>), kept by device
 * in the state directory.
 *
 * How the rows reach the agent depends on the front end (the mode): in
 * snmpd (module) the ports' handler joins snmpd's own ifTable and ifXTable
 * handlers, and the kernel's interfaces and the ports are one table; as an
 * AgentX subagent each column of a run of consecutive ifIndex values is a
 * registration of its own (snmpd keeps its table and splits it around
 * them); the standalone agent registers the two tables.
 *
 * Values are read at request time, one reading of a port per PDU at most:
 * every varbind of a PDU that names a port shares it. When the application
 * answers late, the port's last reading serves if it is younger than
 * FMP_PORTS_MAX_AGE_MS, else the varbind answers genErr: never a
 * silent gap. A late reply is not lost: when it comes it is the port's
 * reading, dated by when its command was sent. A periodic check
 * (FMP_PORTS_CHECK_MS) connects to applications that appear, notices
 * those that exit (their rows are withdrawn), reads the port list, link
 * states and counters, and sends linkUp/linkDown.
 *
 * Every wait for an application is bounded (the timeout, default
 * FMP_PORTS_TIMEOUT_MS). An application that replies, however late,
 * is alive and keeps its rows; they are withdrawn when it closes the
 * connection or breaks the protocol, or when it sends nothing at all for
 * FMP_PORTS_STALL_MS while replies are owed (stopped, stuck), until
 * it answers again. Single-threaded like the rest of the agent.
 */
#ifndef FMP_PORTS_H
#define FMP_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/ethdev/portmap.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default wait for an application's telemetry answer, milliseconds. */
#define FMP_PORTS_TIMEOUT_MS  5u
#define FMP_PORTS_TIMEOUT_MAX 1000u
/** Applications (sources) served at most. */
#define FMP_PORTS_MAX_SOURCES 32u
/** Period of the connect / exit / sampling check, milliseconds. */
#define FMP_PORTS_CHECK_MS    500u
/** The oldest reading served when an answer is late, milliseconds. */
#define FMP_PORTS_MAX_AGE_MS  1000u
/** An application that has sent nothing for this long while replies are
 * owed is taken as gone (stopped, stuck), milliseconds. */
#define FMP_PORTS_STALL_MS    1500u
/** A connection without a hello for this long is logged, milliseconds. */
#define FMP_PORTS_HELLO_MS    1000u
/** Default limit of linkUp/linkDown notifications per second (and burst). */
#define FMP_PORTS_TRAP_RATE   10u
#define FMP_PORTS_TRAP_RATE_MAX 1000000u

/** The front end the rows are served by. */
enum fmp_ports_mode {
	FMP_PORTS_AGENTX = 0,   /**< a subagent of snmpd (default) */
	FMP_PORTS_MODULE,       /**< inside snmpd */
	FMP_PORTS_STANDALONE,   /**< an agent of its own: no kernel interface */
};

struct fmp_ports;

/** Create the ports, with no source yet. Returns 0 or -ENOMEM. */
int fmp_ports_create(struct fmp_ports **portsp);

/** Which front end serves the rows; before fmp_ports_start(). */
void fmp_ports_config_mode(struct fmp_ports *ports, enum fmp_ports_mode mode);

/**
 * Add a source "PATH[,BASE]" (see fme_port_source_parse()). Returns 0
 * (also for a source named again during a reload), -EINVAL, -EEXIST (named
 * twice), -ENOSPC, -ENOMEM.
 */
int fmp_ports_add(struct fmp_ports *ports, const char *spec);

/** Base of new ifIndex values of sources without their own (default
 * FME_IFINDEX_BASE). -EINVAL outside 1..FME_IFINDEX_MAX. */
int fmp_ports_config_base(struct fmp_ports *ports, uint32_t base);

/** Longest wait for one telemetry answer, 1..FMP_PORTS_TIMEOUT_MAX ms. */
int fmp_ports_config_timeout(struct fmp_ports *ports, unsigned int ms);

/**
 * linkUp/linkDown notifications per second at most, with a burst of as
 * many (0: none at all). -EINVAL above FMP_PORTS_TRAP_RATE_MAX.
 */
int fmp_ports_config_link_trap_rate(struct fmp_ports *ports, unsigned int per_s);

/**
 * The state directory, where the port map is kept (NULL: nowhere, the map
 * lives as long as the agent). Read at fmp_ports_start(); later calls
 * apply to the next start.
 */
int fmp_ports_config_state_dir(struct fmp_ports *ports, const char *dir);

/** Reload, as fma_reload_begin()/end(): sources named again keep
 * their rows; a base that changed applies to devices not in the map yet.
 * Returns the number of sources dropped. */
void fmp_ports_reload_begin(struct fmp_ports *ports);
unsigned int fmp_ports_reload_end(struct fmp_ports *ports);

/** Sources configured. */
unsigned int fmp_ports_count(const struct fmp_ports *ports);

/**
 * Read the port map, connect to the applications that run, serve their
 * rows, arm the periodic check. Call after init_agent() (and in snmpd,
 * once its configuration is read). -EALREADY when started.
 */
int fmp_ports_start(struct fmp_ports *ports);

/** Withdraw every row, close every connection, log the telemetry traffic,
 * free everything. NULL is ignored. */
void fmp_ports_destroy(struct fmp_ports *ports);

#ifdef __cplusplus
}
#endif

#endif /* FMP_PORTS_H */
