/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * IF-MIB (RFC 2863) columns of a DPDK ethdev port, computed from a
 * telemetry reading (<fastmib/ethdev/reading.h>) and what the agent keeps
 * of the port (its ifIndex, ifName, alias and notification setting from
 * the port map, its history): which columns exist, which parts of a
 * reading each one needs, what each one is worth, and the per-port history
 * that turns readings into ifLastChange and ifCounterDiscontinuityTime. No
 * Net-SNMP here, so that the mapping can be checked by unit tests;
 * port_rows.c puts the values into varbinds.
 *
 * docs/if-mib.md is the operator's description of the same mapping.
 */
#ifndef FASTMIB_IFMIB_H
#define FASTMIB_IFMIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ifEntry (1.3.6.1.2.1.2.2.1) and ifXEntry (1.3.6.1.2.1.31.1.1.1). */
#define FASTMIB_IFMIB_IFENTRY   1, 3, 6, 1, 2, 1, 2, 2, 1
#define FASTMIB_IFMIB_IFENTRY_LEN 9u
#define FASTMIB_IFMIB_IFXENTRY  1, 3, 6, 1, 2, 1, 31, 1, 1, 1
#define FASTMIB_IFMIB_IFXENTRY_LEN 10u

enum fastmib_ifmib_table {
	FASTMIB_IFTABLE = 0,
	FASTMIB_IFXTABLE = 1,
};

enum fastmib_if_col {
	FASTMIB_IF_INDEX = 1,
	FASTMIB_IF_DESCR,
	FASTMIB_IF_TYPE,
	FASTMIB_IF_MTU,
	FASTMIB_IF_SPEED,
	FASTMIB_IF_PHYS_ADDRESS,
	FASTMIB_IF_ADMIN_STATUS,
	FASTMIB_IF_OPER_STATUS,
	FASTMIB_IF_LAST_CHANGE,
	FASTMIB_IF_IN_OCTETS,
	FASTMIB_IF_IN_UCAST_PKTS,
	FASTMIB_IF_IN_NUCAST_PKTS,
	FASTMIB_IF_IN_DISCARDS,
	FASTMIB_IF_IN_ERRORS,
	FASTMIB_IF_IN_UNKNOWN_PROTOS,
	FASTMIB_IF_OUT_OCTETS,
	FASTMIB_IF_OUT_UCAST_PKTS,
	FASTMIB_IF_OUT_NUCAST_PKTS,
	FASTMIB_IF_OUT_DISCARDS,
	FASTMIB_IF_OUT_ERRORS,
	FASTMIB_IF_OUT_QLEN,
	FASTMIB_IF_SPECIFIC,
	FASTMIB_IF_LAST = FASTMIB_IF_SPECIFIC,
};

enum fastmib_ifx_col {
	FASTMIB_IFX_NAME = 1,
	FASTMIB_IFX_IN_MULTICAST_PKTS,
	FASTMIB_IFX_IN_BROADCAST_PKTS,
	FASTMIB_IFX_OUT_MULTICAST_PKTS,
	FASTMIB_IFX_OUT_BROADCAST_PKTS,
	FASTMIB_IFX_HC_IN_OCTETS,
	FASTMIB_IFX_HC_IN_UCAST_PKTS,
	FASTMIB_IFX_HC_IN_MULTICAST_PKTS,
	FASTMIB_IFX_HC_IN_BROADCAST_PKTS,
	FASTMIB_IFX_HC_OUT_OCTETS,
	FASTMIB_IFX_HC_OUT_UCAST_PKTS,
	FASTMIB_IFX_HC_OUT_MULTICAST_PKTS,
	FASTMIB_IFX_HC_OUT_BROADCAST_PKTS,
	FASTMIB_IFX_LINK_UP_DOWN_TRAP_ENABLE,
	FASTMIB_IFX_HIGH_SPEED,
	FASTMIB_IFX_PROMISCUOUS_MODE,
	FASTMIB_IFX_CONNECTOR_PRESENT,
	FASTMIB_IFX_ALIAS,
	FASTMIB_IFX_COUNTER_DISCONTINUITY_TIME,
	FASTMIB_IFX_LAST = FASTMIB_IFX_COUNTER_DISCONTINUITY_TIME,
};

/** Highest column of a table. */
static inline unsigned int
fastmib_ifmib_last_col(enum fastmib_ifmib_table t)
{
	return t == FASTMIB_IFTABLE ? FASTMIB_IF_LAST : FASTMIB_IFX_LAST;
}

/** ifType ethernetCsmacd(6). */
#define FASTMIB_IFTYPE_ETHERNET 6
/** ifAdminStatus / ifOperStatus values. */
#define FASTMIB_IF_UP   1
#define FASTMIB_IF_DOWN 2
/** TruthValue. */
#define FASTMIB_TRUE  1
#define FASTMIB_FALSE 2

enum fastmib_ifv_type {
	FASTMIB_IFV_NONE = 0,   /**< no instance: nothing gives this value */
	FASTMIB_IFV_INTEGER,
	FASTMIB_IFV_COUNTER32,
	FASTMIB_IFV_COUNTER64,
	FASTMIB_IFV_GAUGE32,
	FASTMIB_IFV_TIMETICKS,
	FASTMIB_IFV_OCTETS,
	FASTMIB_IFV_OID_ZERO,   /**< the OID 0.0 */
};

/** One column's value. `octets` points into the reading. */
struct fastmib_ifv {
	enum fastmib_ifv_type type;
	uint64_t num;
	const void *octets;
	size_t len;
};

/** ifLinkUpDownTrapEnable: enabled(1), disabled(2). */
#define FASTMIB_IF_TRAPS_ENABLED  FASTMIB_LINK_TRAPS_ENABLED
#define FASTMIB_IF_TRAPS_DISABLED FASTMIB_LINK_TRAPS_DISABLED

/**
 * What the agent remembers of one port of one application instance: the
 * raw counters of the last reading (to see them go backwards), the
 * operational status last seen and when it changed, the last
 * discontinuity, and the unicast counts last reported (they are
 * differences of counters read a few microseconds apart; see
 * fastmib_ifmib_track()). Times are TimeStamps: centiseconds of the
 * agent's uptime.
 */
struct fastmib_ifmib_track {
	unsigned int raw_have;  /**< bits of enum fastmib_port_stat in raw[] */
	uint64_t raw[FASTMIB_STAT_COUNT];
	bool have_cast;
	unsigned int cast_have;
	uint64_t cast[FASTMIB_CAST_COUNT];
	int oper;           /**< FASTMIB_IF_UP / DOWN, 0 before the first reading */
	int admin;          /**< the same for ifAdminStatus */
	uint32_t last_change;
	uint32_t discontinuity;
	uint64_t ucast_floor[2]; /**< in, out */
};

/** What a column's value needs besides a reading. */
struct fastmib_ifmib_port {
	uint32_t ifindex;
	const char *ifname;             /**< ifName and ifDescr */
	const char *device;             /**< ethdev name (ifConnectorPresent) */
	const uint8_t *alias;
	size_t alias_len;
	int link_traps;                 /**< ifLinkUpDownTrapEnable */
	struct fastmib_ifmib_track *track;
};

/**
 * A port whose counters start afresh at `now_cs` (first seen after the
 * agent started, or a new instance of the application): its discontinuity
 * time becomes `now_cs`, its history is forgotten. `now_cs` 0 is the
 * agent's start (a port already there then).
 */
void fastmib_ifmib_track_reset(struct fastmib_ifmib_track *t, uint32_t now_cs);

/** What fastmib_ifmib_track() saw change. */
enum fastmib_ifmib_change {
	FASTMIB_IFMIB_DISCONTINUITY = 1u << 0, /**< a counter went back */
	FASTMIB_IFMIB_OPER = 1u << 1,          /**< ifOperStatus changed */
};

/**
 * Take reading `r` (any parts) into the history at `now_cs`: a counter
 * lower than before advances the discontinuity time (and forgets the
 * history, as at a reset); a changed operational status sets the last
 * change time. Returns enum fastmib_ifmib_change bits.
 */
unsigned int fastmib_ifmib_track(struct fastmib_ifmib_track *t,
				 const struct fastmib_port_reading *r, uint32_t now_cs);

/** ifOperStatus of a reading with info and link parts (0 without them). */
int fastmib_ifmib_oper(const struct fastmib_port_reading *r);

/**
 * Has column `col` of table `t` a value for a DPDK port at all? Those
 * without (ifInUnknownProtos, ifOutDiscards, ifOutQLen) answer no
 * instance; the others answer while the port's application answers, the
 * constant ones included, so that a row is all there or not at all.
 */
bool fastmib_ifmib_served(enum fastmib_ifmib_table t, unsigned int col);

/**
 * Parts of a reading column `col` of table `t` needs (0: none, the agent
 * knows the value). `cast_have` is what the port's xstats are known to
 * break down, or -1 while that is not known (then xstats are read wherever
 * a breakdown could matter).
 */
unsigned int fastmib_ifmib_parts(enum fastmib_ifmib_table t, unsigned int col, int cast_have);

/** Is column `col` of table `t` writable (ifAlias, ifLinkUpDownTrapEnable)? */
bool fastmib_ifmib_writable(enum fastmib_ifmib_table t, unsigned int col);

/**
 * Value of column `col` of table `t` for port `p`, from reading `r` (NULL
 * or partial for columns that need nothing of it; see
 * fastmib_ifmib_parts()). FASTMIB_IFV_NONE when the column has no source
 * for this port. Unicast counts are raised to the history's floor, which
 * they then update.
 */
void fastmib_ifmib_value(enum fastmib_ifmib_table t, unsigned int col,
			 const struct fastmib_ifmib_port *p,
			 const struct fastmib_port_reading *r, struct fastmib_ifv *out);

/**
 * The breakdown counters (bits 1 << enum fastmib_port_cast) of which
 * column `col` needs at least one, 0 for a column that needs none: a port
 * whose xstats lack them has no instance in that column, which is known
 * without reading it again.
 */
unsigned int fastmib_ifmib_cast_mask(enum fastmib_ifmib_table t, unsigned int col);

/** Is `name` a PCI address ("0000:03:00.0"), i.e. a port of a PCI device? */
bool fastmib_ifmib_pci_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_IFMIB_H */
