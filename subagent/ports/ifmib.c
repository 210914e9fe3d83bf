/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IF-MIB columns of a DPDK port from a telemetry reading. See ifmib.h, and
 * docs/if-mib.md for the mapping in the operator's words.
 */
#include <string.h>

#include "ifmib.h"

static bool
has(const struct fme_port_reading *r, unsigned int parts)
{
	return r && (r->parts & parts) == parts;
}

static bool
has_stat(const struct fme_port_reading *r, enum fme_port_stat k)
{
	return has(r, FME_PORT_STATS) && (r->stats_have & (1u << k));
}

static bool
has_cast(const struct fme_port_reading *r, int k)
{
	return has(r, FME_PORT_XSTATS) && (r->cast_have & (1u << k));
}

void
fmp_ifmib_track_reset(struct fmp_ifmib_track *t, uint32_t now_cs)
{
	memset(t, 0, sizeof(*t));
	t->discontinuity = now_cs;
	t->last_change = now_cs;
}

int
fmp_ifmib_oper(const struct fme_port_reading *r)
{
	if (!has(r, FME_PORT_INFO | FME_PORT_LINK))
		return 0;
	/* a stopped port is down whatever its link says (RFC 2863: admin down
	 * means oper down) */
	return r->started && r->link_up ? FMP_IF_UP : FMP_IF_DOWN;
}

unsigned int
fmp_ifmib_track(struct fmp_ifmib_track *t, const struct fme_port_reading *r,
		    uint32_t now_cs)
{
	unsigned int seen = 0;
	bool disc = false;
	int oper;

	if (has(r, FME_PORT_STATS)) {
		unsigned int both = t->raw_have & r->stats_have;

		for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
			disc |= (both & (1u << k)) && r->stat[k] < t->raw[k];
		for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
			if (r->stats_have & (1u << k))
				t->raw[k] = r->stat[k];
		t->raw_have |= r->stats_have;
	}
	if (has(r, FME_PORT_XSTATS)) {
		unsigned int both = r->cast_have & t->cast_have;

		for (int k = 0; t->have_cast && k < FME_CAST_COUNT; k++)
			disc |= (both & (1u << k)) && r->cast[k] < t->cast[k];
		memcpy(t->cast, r->cast, sizeof(t->cast));
		t->cast_have = r->cast_have;
		t->have_cast = true;
	}
	if (disc) {
		t->discontinuity = now_cs;
		t->ucast_floor[0] = t->ucast_floor[1] = 0;
		seen |= FMP_IFMIB_DISCONTINUITY;
	}
	oper = fmp_ifmib_oper(r);
	if (oper) {
		if (t->oper && t->oper != oper) {
			t->last_change = now_cs;
			seen |= FMP_IFMIB_OPER;
		}
		t->oper = oper;
		t->admin = r->started ? FMP_IF_UP : FMP_IF_DOWN;
	}
	return seen;
}

const char *
fmp_ifmib_table_name(enum fmp_ifmib_table t)
{
	return t == FMP_IFTABLE ? "ifTable" : "ifXTable";
}

bool
fmp_ifmib_served(enum fmp_ifmib_table t, unsigned int col)
{
	if (col < 1 || col > fmp_ifmib_last_col(t))
		return false;
	return t != FMP_IFTABLE || (col != FMP_IF_IN_UNKNOWN_PROTOS &&
					col != FMP_IF_OUT_DISCARDS &&
					col != FMP_IF_OUT_QLEN);
}

bool
fmp_ifmib_writable(enum fmp_ifmib_table t, unsigned int col)
{
	return t == FMP_IFXTABLE && (col == FMP_IFX_ALIAS ||
					 col == FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE);
}

unsigned int
fmp_ifmib_cast_mask(enum fmp_ifmib_table t, unsigned int col)
{
	const unsigned int in = 1u << FME_CAST_IN_MCAST | 1u << FME_CAST_IN_BCAST;
	const unsigned int out = 1u << FME_CAST_OUT_MCAST | 1u << FME_CAST_OUT_BCAST;

	if (t == FMP_IFTABLE)
		return col == FMP_IF_IN_NUCAST_PKTS ? in
		       : col == FMP_IF_OUT_NUCAST_PKTS ? out : 0;
	switch (col) {
	case FMP_IFX_IN_MULTICAST_PKTS:
	case FMP_IFX_HC_IN_MULTICAST_PKTS:
		return 1u << FME_CAST_IN_MCAST;
	case FMP_IFX_IN_BROADCAST_PKTS:
	case FMP_IFX_HC_IN_BROADCAST_PKTS:
		return 1u << FME_CAST_IN_BCAST;
	case FMP_IFX_OUT_MULTICAST_PKTS:
	case FMP_IFX_HC_OUT_MULTICAST_PKTS:
		return 1u << FME_CAST_OUT_MCAST;
	case FMP_IFX_OUT_BROADCAST_PKTS:
	case FMP_IFX_HC_OUT_BROADCAST_PKTS:
		return 1u << FME_CAST_OUT_BCAST;
	default:
		return 0;
	}
}

/* Unicast columns: the difference of all packets and the breakdown, or
 * the PMD's own count: xstats matter where a breakdown may exist. */
static unsigned int
ucast_parts(bool in, int cast_have)
{
	const unsigned int need = in ? (1u << FME_CAST_IN_UCAST | 1u << FME_CAST_IN_MCAST |
					1u << FME_CAST_IN_BCAST)
				     : (1u << FME_CAST_OUT_UCAST |
					1u << FME_CAST_OUT_MCAST |
					1u << FME_CAST_OUT_BCAST);

	return FME_PORT_STATS |
	       (cast_have < 0 || ((unsigned int)cast_have & need) ? FME_PORT_XSTATS : 0);
}

unsigned int
fmp_ifmib_parts(enum fmp_ifmib_table t, unsigned int col, int cast_have)
{
	unsigned int mask = fmp_ifmib_cast_mask(t, col);

	if (!fmp_ifmib_served(t, col))
		return 0;
	if (mask)
		return cast_have >= 0 && !((unsigned int)cast_have & mask) ? 0
		       : FME_PORT_XSTATS;
	if (t == FMP_IFTABLE) {
		switch (col) {
		case FMP_IF_MTU:
		case FMP_IF_PHYS_ADDRESS:
		case FMP_IF_ADMIN_STATUS:
			return FME_PORT_INFO;
		case FMP_IF_SPEED:
			return FME_PORT_LINK;
		case FMP_IF_OPER_STATUS:
		case FMP_IF_LAST_CHANGE:
			/* the history is brought up to date by the reading */
			return FME_PORT_INFO | FME_PORT_LINK;
		case FMP_IF_IN_UCAST_PKTS:
			return ucast_parts(true, cast_have);
		case FMP_IF_OUT_UCAST_PKTS:
			return ucast_parts(false, cast_have);
		case FMP_IF_IN_OCTETS:
		case FMP_IF_IN_DISCARDS:
		case FMP_IF_IN_ERRORS:
		case FMP_IF_OUT_OCTETS:
		case FMP_IF_OUT_ERRORS:
			return FME_PORT_STATS;
		default:
			return 0; /* ifIndex, ifDescr, ifType, ifSpecific */
		}
	}
	switch (col) {
	case FMP_IFX_HC_IN_OCTETS:
	case FMP_IFX_HC_OUT_OCTETS:
		return FME_PORT_STATS;
	case FMP_IFX_HC_IN_UCAST_PKTS:
		return ucast_parts(true, cast_have);
	case FMP_IFX_HC_OUT_UCAST_PKTS:
		return ucast_parts(false, cast_have);
	case FMP_IFX_HIGH_SPEED:
		return FME_PORT_LINK;
	case FMP_IFX_PROMISCUOUS_MODE:
		return FME_PORT_INFO;
	case FMP_IFX_COUNTER_DISCONTINUITY_TIME:
		/* a reset shows in the counters: they are read for it, so that a
		 * request sees it with them, or before them */
		return FME_PORT_STATS |
		       (cast_have != 0 ? FME_PORT_XSTATS : 0);
	default:
		/* ifName, ifLinkUpDownTrapEnable, ifConnectorPresent, ifAlias:
		 * known to the agent */
		return 0;
	}
}

bool
fmp_ifmib_pci_name(const char *s)
{
	/* DDDD:BB:DD.F in hexadecimal, nothing after it */
	static const char shape[] = "xxxx:xx:xx.x";

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++) {
		char c = s[i];
		bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			   (c >= 'A' && c <= 'F');

		if (shape[i] == 'x' ? !hex : c != shape[i])
			return false;
	}
	return true;
}

/*
 * Unicast packets: the PMD's own count where it gives one, else all packets
 * less the multicast and broadcast ones it reports (snmpd's convention for
 * kernel interfaces). The parts of that difference come from one reading
 * but not from one instant, so it could dip by a few packets between two
 * readings: it is never reported below what was reported before.
 */
static bool
ucast(const struct fme_port_reading *r, struct fmp_ifmib_track *tr, bool in,
      uint64_t *out)
{
	int u = in ? FME_CAST_IN_UCAST : FME_CAST_OUT_UCAST;
	int m = in ? FME_CAST_IN_MCAST : FME_CAST_OUT_MCAST;
	int b = in ? FME_CAST_IN_BCAST : FME_CAST_OUT_BCAST;
	enum fme_port_stat all = in ? FME_STAT_IPACKETS : FME_STAT_OPACKETS;
	uint64_t v, other = 0, *floor = &tr->ucast_floor[in ? 0 : 1];

	if (has_cast(r, u)) {
		v = r->cast[u];
	} else if (has_stat(r, all)) {
		v = r->stat[all];
		if (has_cast(r, m))
			other += r->cast[m];
		if (has_cast(r, b))
			other += r->cast[b];
		v = v > other ? v - other : 0;
	} else {
		return false;
	}
	if (v < *floor)
		v = *floor;
	*floor = v;
	*out = v;
	return true;
}

/* Multicast + broadcast, when the PMD reports at least one of them. */
static bool
nucast(const struct fme_port_reading *r, bool in, uint64_t *v)
{
	int m = in ? FME_CAST_IN_MCAST : FME_CAST_OUT_MCAST;
	int b = in ? FME_CAST_IN_BCAST : FME_CAST_OUT_BCAST;

	if (!has_cast(r, m) && !has_cast(r, b))
		return false;
	*v = (has_cast(r, m) ? r->cast[m] : 0) + (has_cast(r, b) ? r->cast[b] : 0);
	return true;
}

static void
set_num(struct fmp_ifv *out, enum fmp_ifv_type type, uint64_t v)
{
	out->type = type;
	out->num = type == FMP_IFV_COUNTER32 ? (uint32_t)v : v;
}

static void
set_stat(struct fmp_ifv *out, const struct fme_port_reading *r,
	 enum fme_port_stat k, enum fmp_ifv_type type)
{
	if (has_stat(r, k))
		set_num(out, type, r->stat[k]);
}

static void
set_cast(struct fmp_ifv *out, const struct fme_port_reading *r, int k,
	 enum fmp_ifv_type type)
{
	if (has_cast(r, k))
		set_num(out, type, r->cast[k]);
}

static void
set_octets(struct fmp_ifv *out, const void *s, size_t len)
{
	out->type = FMP_IFV_OCTETS;
	out->octets = s;
	out->len = len;
}

static uint64_t
clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : v;
}

static void
if_value(unsigned int col, const struct fmp_ifmib_port *p,
	 const struct fme_port_reading *r, struct fmp_ifv *out)
{
	bool info = has(r, FME_PORT_INFO);
	uint64_t v;

	switch (col) {
	case FMP_IF_INDEX:
		set_num(out, FMP_IFV_INTEGER, p->ifindex);
		break;
	case FMP_IF_DESCR:
		set_octets(out, p->ifname, strlen(p->ifname));
		break;
	case FMP_IF_TYPE:
		set_num(out, FMP_IFV_INTEGER, FMP_IFTYPE_ETHERNET);
		break;
	case FMP_IF_MTU:
		if (info)
			set_num(out, FMP_IFV_INTEGER, r->mtu > INT32_MAX ? INT32_MAX : r->mtu);
		break;
	case FMP_IF_SPEED:
		/* bits/s, saturated: ifHighSpeed carries faster links */
		if (has(r, FME_PORT_LINK))
			set_num(out, FMP_IFV_GAUGE32,
				r->speed_mbps > UINT32_MAX / 1000000u ? UINT32_MAX
				: r->speed_mbps * 1000000u);
		break;
	case FMP_IF_PHYS_ADDRESS:
		if (info && r->mac_ok)
			set_octets(out, r->mac, sizeof(r->mac));
		break;
	case FMP_IF_ADMIN_STATUS:
		if (info)
			set_num(out, FMP_IFV_INTEGER, r->started ? FMP_IF_UP : FMP_IF_DOWN);
		break;
	case FMP_IF_OPER_STATUS:
		if (fmp_ifmib_oper(r))
			set_num(out, FMP_IFV_INTEGER, (uint64_t)fmp_ifmib_oper(r));
		break;
	case FMP_IF_LAST_CHANGE:
		set_num(out, FMP_IFV_TIMETICKS, p->track->last_change);
		break;
	case FMP_IF_IN_OCTETS:
		set_stat(out, r, FME_STAT_IBYTES, FMP_IFV_COUNTER32);
		break;
	case FMP_IF_IN_UCAST_PKTS:
		if (ucast(r, p->track, true, &v))
			set_num(out, FMP_IFV_COUNTER32, v);
		break;
	case FMP_IF_IN_NUCAST_PKTS:
		if (nucast(r, true, &v))
			set_num(out, FMP_IFV_COUNTER32, v);
		break;
	case FMP_IF_IN_DISCARDS:
		/* dropped for want of room: in the NIC (imissed) or of mbufs */
		if (has_stat(r, FME_STAT_IMISSED) && has_stat(r, FME_STAT_RX_NOMBUF))
			set_num(out, FMP_IFV_COUNTER32,
				r->stat[FME_STAT_IMISSED] + r->stat[FME_STAT_RX_NOMBUF]);
		break;
	case FMP_IF_IN_ERRORS:
		set_stat(out, r, FME_STAT_IERRORS, FMP_IFV_COUNTER32);
		break;
	case FMP_IF_OUT_OCTETS:
		set_stat(out, r, FME_STAT_OBYTES, FMP_IFV_COUNTER32);
		break;
	case FMP_IF_OUT_UCAST_PKTS:
		if (ucast(r, p->track, false, &v))
			set_num(out, FMP_IFV_COUNTER32, v);
		break;
	case FMP_IF_OUT_NUCAST_PKTS:
		if (nucast(r, false, &v))
			set_num(out, FMP_IFV_COUNTER32, v);
		break;
	case FMP_IF_OUT_ERRORS:
		set_stat(out, r, FME_STAT_OERRORS, FMP_IFV_COUNTER32);
		break;
	case FMP_IF_SPECIFIC:
		/* deprecated; 0.0 is its defined "nothing more specific" */
		out->type = FMP_IFV_OID_ZERO;
		break;
	default:
		/* ifInUnknownProtos, ifOutDiscards, ifOutQLen: DPDK counts none */
		break;
	}
}

static void
ifx_value(unsigned int col, const struct fmp_ifmib_port *p,
	  const struct fme_port_reading *r, struct fmp_ifv *out)
{
	uint64_t v;

	switch (col) {
	case FMP_IFX_NAME:
		set_octets(out, p->ifname, strlen(p->ifname));
		break;
	case FMP_IFX_IN_MULTICAST_PKTS:
		set_cast(out, r, FME_CAST_IN_MCAST, FMP_IFV_COUNTER32);
		break;
	case FMP_IFX_IN_BROADCAST_PKTS:
		set_cast(out, r, FME_CAST_IN_BCAST, FMP_IFV_COUNTER32);
		break;
	case FMP_IFX_OUT_MULTICAST_PKTS:
		set_cast(out, r, FME_CAST_OUT_MCAST, FMP_IFV_COUNTER32);
		break;
	case FMP_IFX_OUT_BROADCAST_PKTS:
		set_cast(out, r, FME_CAST_OUT_BCAST, FMP_IFV_COUNTER32);
		break;
	case FMP_IFX_HC_IN_OCTETS:
		set_stat(out, r, FME_STAT_IBYTES, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_HC_IN_UCAST_PKTS:
		if (ucast(r, p->track, true, &v))
			set_num(out, FMP_IFV_COUNTER64, v);
		break;
	case FMP_IFX_HC_IN_MULTICAST_PKTS:
		set_cast(out, r, FME_CAST_IN_MCAST, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_HC_IN_BROADCAST_PKTS:
		set_cast(out, r, FME_CAST_IN_BCAST, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_HC_OUT_OCTETS:
		set_stat(out, r, FME_STAT_OBYTES, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_HC_OUT_UCAST_PKTS:
		if (ucast(r, p->track, false, &v))
			set_num(out, FMP_IFV_COUNTER64, v);
		break;
	case FMP_IFX_HC_OUT_MULTICAST_PKTS:
		set_cast(out, r, FME_CAST_OUT_MCAST, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_HC_OUT_BROADCAST_PKTS:
		set_cast(out, r, FME_CAST_OUT_BCAST, FMP_IFV_COUNTER64);
		break;
	case FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE:
		set_num(out, FMP_IFV_INTEGER, (uint64_t)p->link_traps);
		break;
	case FMP_IFX_HIGH_SPEED:
		if (has(r, FME_PORT_LINK))
			set_num(out, FMP_IFV_GAUGE32, clamp32(r->speed_mbps));
		break;
	case FMP_IFX_PROMISCUOUS_MODE:
		if (has(r, FME_PORT_INFO))
			set_num(out, FMP_IFV_INTEGER, r->promiscuous ? FMP_TRUE : FMP_FALSE);
		break;
	case FMP_IFX_CONNECTOR_PRESENT:
		set_num(out, FMP_IFV_INTEGER,
			fmp_ifmib_pci_name(p->device) ? FMP_TRUE : FMP_FALSE);
		break;
	case FMP_IFX_ALIAS:
		set_octets(out, p->alias_len ? (const void *)p->alias : "", p->alias_len);
		break;
	case FMP_IFX_COUNTER_DISCONTINUITY_TIME:
		set_num(out, FMP_IFV_TIMETICKS, p->track->discontinuity);
		break;
	default:
		break;
	}
}

void
fmp_ifmib_value(enum fmp_ifmib_table t, unsigned int col,
		    const struct fmp_ifmib_port *p, const struct fme_port_reading *r,
		    struct fmp_ifv *out)
{
	memset(out, 0, sizeof(*out));
	if (t == FMP_IFTABLE)
		if_value(col, p, r, out);
	else
		ifx_value(col, p, r, out);
}
