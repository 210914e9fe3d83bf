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
 * request.c puts the values into varbinds.
 *
 * docs/if-mib.md is the operator's description of the same mapping.
 */
#ifndef FMP_IFMIB_H
#define FMP_IFMIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ifEntry (1.3.6.1.2.1.2.2.1) and ifXEntry (1.3.6.1.2.1.31.1.1.1). */
#define FMP_IFMIB_IFENTRY   1, 3, 6, 1, 2, 1, 2, 2, 1
#define FMP_IFMIB_IFENTRY_LEN 9u
#define FMP_IFMIB_IFXENTRY  1, 3, 6, 1, 2, 1, 31, 1, 1, 1
#define FMP_IFMIB_IFXENTRY_LEN 10u
/** ifNumber (1.3.6.1.2.1.2.1), the scalar object without its instance. */
#define FMP_IFMIB_IFNUMBER      1, 3, 6, 1, 2, 1, 2, 1

enum fmp_ifmib_table {
	FMP_IFTABLE = 0,
	FMP_IFXTABLE = 1,
};

enum fmp_if_col {
	FMP_IF_INDEX = 1,
	FMP_IF_DESCR,
	FMP_IF_TYPE,
	FMP_IF_MTU,
	FMP_IF_SPEED,
	FMP_IF_PHYS_ADDRESS,
	FMP_IF_ADMIN_STATUS,
	FMP_IF_OPER_STATUS,
	FMP_IF_LAST_CHANGE,
	FMP_IF_IN_OCTETS,
	FMP_IF_IN_UCAST_PKTS,
	FMP_IF_IN_NUCAST_PKTS,
	FMP_IF_IN_DISCARDS,
	FMP_IF_IN_ERRORS,
	FMP_IF_IN_UNKNOWN_PROTOS,
	FMP_IF_OUT_OCTETS,
	FMP_IF_OUT_UCAST_PKTS,
	FMP_IF_OUT_NUCAST_PKTS,
	FMP_IF_OUT_DISCARDS,
	FMP_IF_OUT_ERRORS,
	FMP_IF_OUT_QLEN,
	FMP_IF_SPECIFIC,
	FMP_IF_LAST = FMP_IF_SPECIFIC,
};

enum fmp_ifx_col {
	FMP_IFX_NAME = 1,
	FMP_IFX_IN_MULTICAST_PKTS,
	FMP_IFX_IN_BROADCAST_PKTS,
	FMP_IFX_OUT_MULTICAST_PKTS,
	FMP_IFX_OUT_BROADCAST_PKTS,
	FMP_IFX_HC_IN_OCTETS,
	FMP_IFX_HC_IN_UCAST_PKTS,
	FMP_IFX_HC_IN_MULTICAST_PKTS,
	FMP_IFX_HC_IN_BROADCAST_PKTS,
	FMP_IFX_HC_OUT_OCTETS,
	FMP_IFX_HC_OUT_UCAST_PKTS,
	FMP_IFX_HC_OUT_MULTICAST_PKTS,
	FMP_IFX_HC_OUT_BROADCAST_PKTS,
	FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE,
	FMP_IFX_HIGH_SPEED,
	FMP_IFX_PROMISCUOUS_MODE,
	FMP_IFX_CONNECTOR_PRESENT,
	FMP_IFX_ALIAS,
	FMP_IFX_COUNTER_DISCONTINUITY_TIME,
	FMP_IFX_LAST = FMP_IFX_COUNTER_DISCONTINUITY_TIME,
};

/** The table's name in IF-MIB, as snmpd registers it: "ifTable", "ifXTable". */
const char *fmp_ifmib_table_name(enum fmp_ifmib_table t);

/** Highest column of a table. */
static inline unsigned int
fmp_ifmib_last_col(enum fmp_ifmib_table t)
{
	return t == FMP_IFTABLE ? FMP_IF_LAST : FMP_IFX_LAST;
}

/** ifType ethernetCsmacd(6). */
#define FMP_IFTYPE_ETHERNET 6
/** ifAdminStatus / ifOperStatus values. */
#define FMP_IF_UP   1
#define FMP_IF_DOWN 2
/** TruthValue. */
#define FMP_TRUE  1
#define FMP_FALSE 2

enum fmp_ifv_type {
	FMP_IFV_NONE = 0,   /**< no instance: nothing gives this value */
	FMP_IFV_INTEGER,
	FMP_IFV_COUNTER32,
	FMP_IFV_COUNTER64,
	FMP_IFV_GAUGE32,
	FMP_IFV_TIMETICKS,
	FMP_IFV_OCTETS,
	FMP_IFV_OID_ZERO,   /**< the OID 0.0 */
};

/** One column's value. `octets` points into the reading. */
struct fmp_ifv {
	enum fmp_ifv_type type;
	uint64_t num;
	const void *octets;
	size_t len;
};

/** ifLinkUpDownTrapEnable: enabled(1), disabled(2). */
#define FMP_IF_TRAPS_ENABLED  FME_LINK_TRAPS_ENABLED
#define FMP_IF_TRAPS_DISABLED FME_LINK_TRAPS_DISABLED

/**
 * What the agent remembers of one port of one application instance: the
 * raw counters of the last reading (to see them go backwards), the
 * operational status last seen and when it changed, the last
 * discontinuity, and the unicast counts last reported (they are
 * differences of counters read a few microseconds apart; see
 * fmp_ifmib_track()). Times are TimeStamps: centiseconds of the
 * agent's uptime.
 */
struct fmp_ifmib_track {
	unsigned int raw_have;  /**< bits of enum fme_port_stat in raw[] */
	uint64_t raw[FME_STAT_COUNT];
	bool have_cast;
	unsigned int cast_have;
	uint64_t cast[FME_CAST_COUNT];
	int oper;           /**< FMP_IF_UP / DOWN, 0 before the first reading */
	int admin;          /**< the same for ifAdminStatus */
	uint32_t last_change;
	uint32_t discontinuity;
	uint64_t ucast_floor[2]; /**< in, out */
};

/** What a column's value needs besides a reading. */
struct fmp_ifmib_port {
	uint32_t ifindex;
	const char *ifname;             /**< ifName and ifDescr */
	const char *device;             /**< ethdev name (ifConnectorPresent) */
	const uint8_t *alias;
	size_t alias_len;
	int link_traps;                 /**< ifLinkUpDownTrapEnable */
	struct fmp_ifmib_track *track;
};

/**
 * A port whose counters start afresh at `now_cs` (first seen after the
 * agent started, or a new instance of the application): its discontinuity
 * time becomes `now_cs`, its history is forgotten. `now_cs` 0 is the
 * agent's start (a port already there then).
 */
void fmp_ifmib_track_reset(struct fmp_ifmib_track *t, uint32_t now_cs);

/** What fmp_ifmib_track() saw change. */
enum fmp_ifmib_change {
	FMP_IFMIB_DISCONTINUITY = 1u << 0, /**< a counter went back */
	FMP_IFMIB_OPER = 1u << 1,          /**< ifOperStatus changed */
};

/**
 * Take reading `r` (any parts) into the history at `now_cs`: a counter
 * lower than before advances the discontinuity time (and forgets the
 * history, as at a reset); a changed operational status sets the last
 * change time. Returns enum fmp_ifmib_change bits.
 */
unsigned int fmp_ifmib_track(struct fmp_ifmib_track *t,
				 const struct fme_port_reading *r, uint32_t now_cs);

/** ifOperStatus of a reading with info and link parts (0 without them). */
int fmp_ifmib_oper(const struct fme_port_reading *r);

/**
 * Has column `col` of table `t` a value for a DPDK port at all? Those
 * without (ifInUnknownProtos, ifOutDiscards, ifOutQLen) answer no
 * instance; the others answer while the port's application answers, the
 * constant ones included, so that a row is all there or not at all.
 */
bool fmp_ifmib_served(enum fmp_ifmib_table t, unsigned int col);

/**
 * Parts of a reading column `col` of table `t` needs (0: none, the agent
 * knows the value). `cast_have` is what the port's xstats are known to
 * break down, or -1 while that is not known (then xstats are read wherever
 * a breakdown could matter).
 */
unsigned int fmp_ifmib_parts(enum fmp_ifmib_table t, unsigned int col, int cast_have);

/** Is column `col` of table `t` writable (ifAlias, ifLinkUpDownTrapEnable)? */
bool fmp_ifmib_writable(enum fmp_ifmib_table t, unsigned int col);

/**
 * Value of column `col` of table `t` for port `p`, from reading `r` (NULL
 * or partial for columns that need nothing of it; see
 * fmp_ifmib_parts()). FMP_IFV_NONE when the column has no source
 * for this port. Unicast counts are raised to the history's floor, which
 * they then update.
 */
void fmp_ifmib_value(enum fmp_ifmib_table t, unsigned int col,
			 const struct fmp_ifmib_port *p,
			 const struct fme_port_reading *r, struct fmp_ifv *out);

/**
 * The breakdown counters (bits 1 << enum fme_port_cast) of which
 * column `col` needs at least one, 0 for a column that needs none: a port
 * whose xstats lack them has no instance in that column, which is known
 * without reading it again.
 */
unsigned int fmp_ifmib_cast_mask(enum fmp_ifmib_table t, unsigned int col);

/** Is `name` a PCI address ("0000:03:00.0"), i.e. a port of a PCI device?
 * (ifmib.c's own rule, exported for its unit test.) */
bool fmp_ifmib_pci_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* FMP_IFMIB_H */
