/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the IF-MIB mapping of DPDK ports: every column computed
 * from a reading (telemetry replies as DPDK 22.11's dpdk-testpmd sends
 * them) and what the agent keeps of a port, with the history that gives
 * ifLastChange and ifCounterDiscontinuityTime, and the parts of a reading
 * each column needs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "fastmib/ethdev/reading.h"
#include "ifmib.h"

#include "replies.h"

/* A reading of net_null0 with info, link (up), stats and xstats. */
static void
full_reading(struct fme_port_reading *r)
{
	memset(r, 0, sizeof(*r));
	parse(fme_port_parse_info, INFO_NULL0, r, 0);
	parse(fme_port_parse_link, LINK_UP, r, 0);
	parse(fme_port_parse_stats, STATS, r, 0);
	parse(fme_port_parse_xstats, XSTATS_NULL, r, 0);
}

/* The port as the agent knows it: ifIndex 1000, ifName "rte/net_null0". */
static uint8_t alias[64];
static size_t alias_len;
static int link_traps = FME_LINK_TRAPS_ENABLED;
static const char *device = "net_null0";

static struct fmp_ifv
value(enum fmp_ifmib_table t, unsigned int col, const struct fme_port_reading *r,
      struct fmp_ifmib_track *tr)
{
	const struct fmp_ifmib_port p = {
		.ifindex = 1000, .ifname = "rte/net_null0", .device = device, .alias = alias,
		.alias_len = alias_len, .link_traps = link_traps, .track = tr,
	};
	struct fmp_ifv v;

	fmp_ifmib_value(t, col, &p, r, &v);
	return v;
}

static void
assert_num(struct fmp_ifv v, enum fmp_ifv_type type, uint64_t num)
{
	assert_int_equal(v.type, type);
	assert_int_equal(v.num, num);
}

static void
test_if_table(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;
	struct fmp_ifv v;

	(void)state;
	full_reading(&r);
	fmp_ifmib_track_reset(&tr, 0);
	fmp_ifmib_track(&tr, &r, 0);
	assert_num(value(FMP_IFTABLE, FMP_IF_INDEX, NULL, &tr), FMP_IFV_INTEGER, 1000);
	/* ifDescr is the ifName, known without a reading */
	v = value(FMP_IFTABLE, FMP_IF_DESCR, NULL, &tr);
	assert_int_equal(v.type, FMP_IFV_OCTETS);
	assert_int_equal(v.len, 13);
	assert_memory_equal(v.octets, "rte/net_null0", 13);
	assert_num(value(FMP_IFTABLE, FMP_IF_TYPE, NULL, &tr), FMP_IFV_INTEGER, 6);
	assert_num(value(FMP_IFTABLE, FMP_IF_MTU, &r, &tr), FMP_IFV_INTEGER, 1500);
	/* 10 Gb/s does not fit: the maximum, as RFC 2863 says */
	assert_num(value(FMP_IFTABLE, FMP_IF_SPEED, &r, &tr), FMP_IFV_GAUGE32,
		   UINT32_MAX);
	r.speed_mbps = 1000;
	assert_num(value(FMP_IFTABLE, FMP_IF_SPEED, &r, &tr), FMP_IFV_GAUGE32,
		   1000000000u);
	r.speed_mbps = 10000;
	v = value(FMP_IFTABLE, FMP_IF_PHYS_ADDRESS, &r, &tr);
	assert_int_equal(v.type, FMP_IFV_OCTETS);
	assert_int_equal(v.len, 6);
	assert_num(value(FMP_IFTABLE, FMP_IF_ADMIN_STATUS, &r, &tr), FMP_IFV_INTEGER, 1);
	assert_num(value(FMP_IFTABLE, FMP_IF_OPER_STATUS, &r, &tr), FMP_IFV_INTEGER, 1);
	assert_num(value(FMP_IFTABLE, FMP_IF_LAST_CHANGE, &r, &tr), FMP_IFV_TIMETICKS, 0);
	/* 32-bit counters are the 64-bit ones modulo 2^32 */
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_OCTETS, &r, &tr), FMP_IFV_COUNTER32,
		   2934175744u);
	r.stat[FME_STAT_IBYTES] = (5ull << 32) + 17;
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_OCTETS, &r, &tr), FMP_IFV_COUNTER32, 17);
	/* no breakdown: every packet is unicast, and there is no NUcast */
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_UCAST_PKTS, &r, &tr), FMP_IFV_COUNTER32,
		   45846496);
	assert_num(value(FMP_IFTABLE, FMP_IF_OUT_UCAST_PKTS, &r, &tr), FMP_IFV_COUNTER32,
		   45431264);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_IN_NUCAST_PKTS, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_DISCARDS, &r, &tr), FMP_IFV_COUNTER32,
		   7 + 5);
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_ERRORS, &r, &tr), FMP_IFV_COUNTER32, 3);
	assert_num(value(FMP_IFTABLE, FMP_IF_OUT_ERRORS, &r, &tr), FMP_IFV_COUNTER32, 2);
	/* nothing in telemetry counts these */
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_IN_UNKNOWN_PROTOS, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_OUT_DISCARDS, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_OUT_QLEN, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_SPECIFIC, NULL, &tr).type,
			 FMP_IFV_OID_ZERO);
	/* without a reading, only what the agent knows */
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_IN_OCTETS, NULL, &tr).type,
			 FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_MTU, NULL, &tr).type,
			 FMP_IFV_NONE);
	/* a counter the reading could not take has no value; the others have */
	r.stats_have &= ~(1u << FME_STAT_IMISSED);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_IN_DISCARDS, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_ERRORS, &r, &tr), FMP_IFV_COUNTER32, 3);
	for (unsigned int c = 0; c <= FMP_IF_LAST + 1; c++) {
		bool none = c == 0 || c == FMP_IF_IN_UNKNOWN_PROTOS ||
			    c == FMP_IF_OUT_DISCARDS || c == FMP_IF_OUT_QLEN ||
			    c > FMP_IF_LAST;

		assert_int_equal(fmp_ifmib_served(FMP_IFTABLE, c), !none);
	}
	for (unsigned int c = 0; c <= FMP_IFX_LAST + 1; c++)
		assert_int_equal(fmp_ifmib_served(FMP_IFXTABLE, c),
				 c >= 1 && c <= FMP_IFX_LAST);
}

static void
test_status(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;

	(void)state;
	full_reading(&r);
	/* link down: oper down, no speed; admin still up */
	parse(fme_port_parse_link, LINK_DOWN, &r, 0);
	fmp_ifmib_track_reset(&tr, 0);
	assert_num(value(FMP_IFTABLE, FMP_IF_OPER_STATUS, &r, &tr), FMP_IFV_INTEGER, 2);
	assert_num(value(FMP_IFTABLE, FMP_IF_ADMIN_STATUS, &r, &tr), FMP_IFV_INTEGER, 1);
	assert_num(value(FMP_IFTABLE, FMP_IF_SPEED, &r, &tr), FMP_IFV_GAUGE32, 0);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HIGH_SPEED, &r, &tr), FMP_IFV_GAUGE32, 0);
	/* a stopped port is down, whatever its link says */
	parse(fme_port_parse_link, LINK_UP, &r, 0);
	r.started = false;
	assert_num(value(FMP_IFTABLE, FMP_IF_ADMIN_STATUS, &r, &tr), FMP_IFV_INTEGER, 2);
	assert_num(value(FMP_IFTABLE, FMP_IF_OPER_STATUS, &r, &tr), FMP_IFV_INTEGER, 2);
	/* without the link part, no oper status */
	r.parts &= ~(unsigned int)FME_PORT_LINK;
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_OPER_STATUS, &r, &tr).type,
			 FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFTABLE, FMP_IF_SPEED, &r, &tr).type,
			 FMP_IFV_NONE);
}

static void
test_ifx_table(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;
	struct fmp_ifv v;

	(void)state;
	full_reading(&r);
	fmp_ifmib_track_reset(&tr, 0);
	v = value(FMP_IFXTABLE, FMP_IFX_NAME, NULL, &tr);
	assert_int_equal(v.type, FMP_IFV_OCTETS);
	assert_int_equal(v.len, 13);
	assert_memory_equal(v.octets, "rte/net_null0", 13);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_OCTETS, &r, &tr), FMP_IFV_COUNTER64,
		   2934175744u);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_OUT_OCTETS, &r, &tr),
		   FMP_IFV_COUNTER64, 2907600896u);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 45846496);
	for (unsigned int c = FMP_IFX_IN_MULTICAST_PKTS; c <= FMP_IFX_OUT_BROADCAST_PKTS; c++)
		assert_int_equal(value(FMP_IFXTABLE, c, &r, &tr).type, FMP_IFV_NONE);
	assert_int_equal(value(FMP_IFXTABLE, FMP_IFX_HC_IN_MULTICAST_PKTS, &r, &tr).type,
			 FMP_IFV_NONE);
	/* the port's own setting, enabled(1) unless set otherwise */
	assert_num(value(FMP_IFXTABLE, FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE, NULL, &tr),
		   FMP_IFV_INTEGER, 1);
	link_traps = FME_LINK_TRAPS_DISABLED;
	assert_num(value(FMP_IFXTABLE, FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE, NULL, &tr),
		   FMP_IFV_INTEGER, 2);
	link_traps = FME_LINK_TRAPS_ENABLED;
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HIGH_SPEED, &r, &tr), FMP_IFV_GAUGE32,
		   10000);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_PROMISCUOUS_MODE, &r, &tr),
		   FMP_IFV_INTEGER, 1);
	/* a vdev has no connector; a PCI device has */
	assert_num(value(FMP_IFXTABLE, FMP_IFX_CONNECTOR_PRESENT, &r, &tr),
		   FMP_IFV_INTEGER, 2);
	device = "0000:03:00.1";
	assert_num(value(FMP_IFXTABLE, FMP_IFX_CONNECTOR_PRESENT, NULL, &tr),
		   FMP_IFV_INTEGER, 1);
	device = "net_null0";
	v = value(FMP_IFXTABLE, FMP_IFX_ALIAS, NULL, &tr);
	assert_int_equal(v.type, FMP_IFV_OCTETS);
	assert_int_equal(v.len, 0);
	memcpy(alias, "uplink-A", 8);
	alias_len = 8;
	v = value(FMP_IFXTABLE, FMP_IFX_ALIAS, NULL, &tr);
	assert_int_equal(v.len, 8);
	assert_memory_equal(v.octets, "uplink-A", 8);
	alias_len = 0;
	assert_num(value(FMP_IFXTABLE, FMP_IFX_COUNTER_DISCONTINUITY_TIME, &r, &tr),
		   FMP_IFV_TIMETICKS, 0);
}

static void
test_breakdown_columns(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;

	(void)state;
	full_reading(&r);
	parse(fme_port_parse_xstats,
	      "{\"rx_multicast_packets\":1000,\"rx_broadcast_packets\":846496,"
	      "\"tx_multicast_packets\":5,\"tx_broadcast_packets\":4294967301}", &r, 0);
	fmp_ifmib_track_reset(&tr, 0);
	/* unicast = all less multicast and broadcast */
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 45846496 - 1000 - 846496);
	assert_num(value(FMP_IFTABLE, FMP_IF_IN_NUCAST_PKTS, &r, &tr), FMP_IFV_COUNTER32,
		   1000 + 846496);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_IN_MULTICAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER32, 1000);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_BROADCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 846496);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_OUT_BROADCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER32, 5);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_OUT_BROADCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 4294967301u);
	/* more multicast than packets (read a moment later): 0, not a wrap */
	r.stat[FME_STAT_IPACKETS] = 10;
	fmp_ifmib_track_reset(&tr, 0);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 0);
}

static void
test_ucast_never_dips(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;

	(void)state;
	full_reading(&r);
	r.stat[FME_STAT_IPACKETS] = 1000;
	r.cast[FME_CAST_IN_MCAST] = 100;
	r.cast_have = 1u << FME_CAST_IN_MCAST;
	fmp_ifmib_track_reset(&tr, 0);
	fmp_ifmib_track(&tr, &r, 10);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 900);
	/* the multicast count read after more packets arrived than ipackets saw */
	r.stat[FME_STAT_IPACKETS] = 1002;
	r.cast[FME_CAST_IN_MCAST] = 105;
	assert_false(fmp_ifmib_track(&tr, &r, 20));
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 900);
	r.stat[FME_STAT_IPACKETS] = 1010;
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 905);
	/* after a reset the floor goes too */
	r.stat[FME_STAT_IPACKETS] = 50;
	r.cast[FME_CAST_IN_MCAST] = 10;
	assert_int_equal(fmp_ifmib_track(&tr, &r, 30), FMP_IFMIB_DISCONTINUITY);
	assert_num(value(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FMP_IFV_COUNTER64, 40);
}

static void
test_track(void **state)
{
	struct fme_port_reading r;
	struct fmp_ifmib_track tr;

	(void)state;
	full_reading(&r);
	fmp_ifmib_track_reset(&tr, 0);
	assert_false(fmp_ifmib_track(&tr, &r, 100));
	assert_int_equal(tr.discontinuity, 0);
	assert_int_equal(tr.last_change, 0);
	/* counters going up: nothing happens */
	r.stat[FME_STAT_IPACKETS] += 10;
	r.stat[FME_STAT_IMISSED] += 1;
	assert_false(fmp_ifmib_track(&tr, &r, 200));
	/* the link goes down: last change now */
	parse(fme_port_parse_link, LINK_DOWN, &r, 0);
	assert_int_equal(fmp_ifmib_track(&tr, &r, 300), FMP_IFMIB_OPER);
	assert_int_equal(tr.last_change, 300);
	assert_int_equal(tr.oper, FMP_IF_DOWN);
	assert_int_equal(tr.admin, FMP_IF_UP);
	fmp_ifmib_track(&tr, &r, 400); /* no change, no new time */
	assert_int_equal(tr.last_change, 300);
	/* any counter lower than before: a discontinuity */
	r.stat[FME_STAT_IERRORS] = 0;
	assert_int_equal(fmp_ifmib_track(&tr, &r, 500), FMP_IFMIB_DISCONTINUITY);
	assert_int_equal(tr.discontinuity, 500);
	/* and its new values are the reference from now on */
	assert_false(fmp_ifmib_track(&tr, &r, 600));
	assert_int_equal(tr.discontinuity, 500);
	/* a breakdown counter going back counts too */
	r.cast[FME_CAST_OUT_BCAST] = 9;
	r.cast_have = 1u << FME_CAST_OUT_BCAST;
	fmp_ifmib_track(&tr, &r, 700);
	r.cast[FME_CAST_OUT_BCAST] = 8;
	assert_int_equal(fmp_ifmib_track(&tr, &r, 800), FMP_IFMIB_DISCONTINUITY);
	assert_int_equal(tr.discontinuity, 800);
	/* a reading without stats (not read) says nothing about counters */
	r.parts = FME_PORT_INFO | FME_PORT_LINK;
	r.stat[FME_STAT_IPACKETS] = 0;
	assert_false(fmp_ifmib_track(&tr, &r, 900));
	/* a new instance of the application */
	fmp_ifmib_track_reset(&tr, 1000);
	assert_int_equal(tr.discontinuity, 1000);
	assert_int_equal(tr.last_change, 1000);
	assert_int_equal(tr.raw_have, 0);
}

static void
test_parts(void **state)
{
	(void)state;
	/* what the agent knows needs no reading */
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_NAME, -1), 0);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_ALIAS, -1), 0);
	assert_int_equal(fmp_ifmib_parts(FMP_IFTABLE, FMP_IF_INDEX, -1), 0);
	assert_int_equal(fmp_ifmib_parts(FMP_IFTABLE, FMP_IF_IN_UNKNOWN_PROTOS, -1), 0);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HC_IN_OCTETS, -1),
			 FME_PORT_STATS);
	assert_int_equal(fmp_ifmib_parts(FMP_IFTABLE, FMP_IF_OPER_STATUS, 0),
			 FME_PORT_INFO | FME_PORT_LINK);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HIGH_SPEED, 0),
			 FME_PORT_LINK);
	/* the history's times come with what moves them */
	assert_int_equal(fmp_ifmib_parts(FMP_IFTABLE, FMP_IF_LAST_CHANGE, 0),
			 FME_PORT_INFO | FME_PORT_LINK);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE,
					     FMP_IFX_COUNTER_DISCONTINUITY_TIME, 0),
			 FME_PORT_STATS);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE,
					     FMP_IFX_COUNTER_DISCONTINUITY_TIME, -1),
			 FME_PORT_STATS | FME_PORT_XSTATS);
	/* unicast: xstats while a breakdown may exist, stats alone without */
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, -1),
			 FME_PORT_STATS | FME_PORT_XSTATS);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS, 0),
			 FME_PORT_STATS);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS,
					     1 << FME_CAST_OUT_MCAST), FME_PORT_STATS);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_HC_IN_UCAST_PKTS,
					     1 << FME_CAST_IN_BCAST),
			 FME_PORT_STATS | FME_PORT_XSTATS);
	/* a breakdown column of a port known to have none needs nothing */
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_IN_MULTICAST_PKTS, 0),
			 0);
	assert_int_equal(fmp_ifmib_parts(FMP_IFXTABLE, FMP_IFX_IN_MULTICAST_PKTS, -1),
			 FME_PORT_XSTATS);
	/* only ifAlias and ifLinkUpDownTrapEnable are writable */
	for (unsigned int c = 0; c <= FMP_IFX_LAST + 1; c++) {
		assert_int_equal(fmp_ifmib_writable(FMP_IFXTABLE, c),
				 c == FMP_IFX_ALIAS ||
				 c == FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE);
		assert_false(fmp_ifmib_writable(FMP_IFTABLE, c));
	}
}

static void
test_pci_names(void **state)
{
	(void)state;
	assert_true(fmp_ifmib_pci_name("0000:03:00.0"));
	assert_true(fmp_ifmib_pci_name("0000:af:1f.7"));
	assert_false(fmp_ifmib_pci_name("net_null0"));
	assert_false(fmp_ifmib_pci_name("0000:03:00.0_representor_vf1"));
	assert_false(fmp_ifmib_pci_name("0000:03:00"));
	assert_false(fmp_ifmib_pci_name("0000-03:00.0"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_if_table),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_ifx_table),
		cmocka_unit_test(test_breakdown_columns),
		cmocka_unit_test(test_ucast_never_dips),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_pci_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
