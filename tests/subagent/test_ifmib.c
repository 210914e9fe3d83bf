/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the IF-MIB mapping of DPDK ports: telemetry replies (as
 * DPDK 22.11's dpdk-testpmd sends them) parsed into readings, and every
 * column computed from a reading, with the history that gives
 * ifLastChange and ifCounterDiscontinuityTime.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ifmib.h"
#include "telemetry.h"

/* Replies of dpdk-testpmd on net_null ports, copied from a real run. */
static const char INFO_NULL0[] =
	"{\"name\":\"net_null0\",\"state\":1,\"nb_rx_queues\":1,\"nb_tx_queues\":1,"
	"\"port_id\":0,\"mtu\":1500,\"rx_mbuf_size_min\":2176,"
	"\"mac_addr\":\"92:F0:4A:1F:A7:53\",\"promiscuous\":1,\"scattered_rx\":0,"
	"\"all_multicast\":1,\"dev_started\":1,\"lro\":0,\"dev_configured\":1,"
	"\"rxq_state\":[1],\"txq_state\":[1],\"numa_node\":0,\"dev_flags\":64,"
	"\"rx_offloads\":0,\"tx_offloads\":0,\"ethdev_rss_hf\":0}";
static const char LINK_UP[] =
	"{\"status\":\"UP\",\"speed\":10000,\"duplex\":\"full-duplex\"}";
static const char LINK_DOWN[] = "{\"status\":\"DOWN\"}";
static const char STATS[] =
	"{\"ipackets\":45846496,\"opackets\":45431264,\"ibytes\":2934175744,"
	"\"obytes\":2907600896,\"imissed\":7,\"ierrors\":3,\"oerrors\":2,"
	"\"rx_nombuf\":5,\"q_ipackets\":[45846496,0],\"q_opackets\":[45431264,0]}";
static const char XSTATS_NULL[] =
	"{\"rx_good_packets\":45864096,\"tx_good_packets\":45448832,"
	"\"rx_good_bytes\":0,\"tx_good_bytes\":0,\"rx_missed_errors\":0,"
	"\"rx_errors\":0,\"tx_errors\":0,\"rx_mbuf_allocation_errors\":0,"
	"\"rx_q0_packets\":45864096,\"rx_q0_bytes\":0,\"rx_q0_errors\":0,"
	"\"tx_q0_packets\":45448832,\"tx_q0_bytes\":0}";

static json_t *
js(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	assert_non_null(j);
	return j;
}

static void
parse(int (*fn)(const json_t *, struct fastmib_port_reading *), const char *text,
      struct fastmib_port_reading *r, int want)
{
	json_t *j = js(text);

	assert_int_equal(fn(j, r), want);
	json_decref(j);
}

/* A reading of net_null0 with info, link (up), stats and xstats. */
static void
full_reading(struct fastmib_port_reading *r)
{
	memset(r, 0, sizeof(*r));
	parse(fastmib_port_parse_info, INFO_NULL0, r, 0);
	parse(fastmib_port_parse_link, LINK_UP, r, 0);
	parse(fastmib_port_parse_stats, STATS, r, 0);
	parse(fastmib_port_parse_xstats, XSTATS_NULL, r, 0);
}

static struct fastmib_ifv
value(enum fastmib_ifmib_table t, unsigned int col, const struct fastmib_port_reading *r,
      struct fastmib_ifmib_track *tr)
{
	struct fastmib_ifv v;

	fastmib_ifmib_value(t, col, 1000, r, tr, &v);
	return v;
}

static void
assert_num(struct fastmib_ifv v, enum fastmib_ifv_type type, uint64_t num)
{
	assert_int_equal(v.type, type);
	assert_int_equal(v.num, num);
}

static void
test_parse_list(void **state)
{
	uint16_t ids[4];
	json_t *j;

	(void)state;
	j = js("[3,0,1]");
	assert_int_equal(fastmib_port_parse_list(j, ids, 4), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(ids[2], 3);
	json_decref(j);
	j = js("[0,70000]");
	assert_int_equal(fastmib_port_parse_list(j, ids, 4), -EPROTO);
	json_decref(j);
	j = js("{\"a\":1}");
	assert_int_equal(fastmib_port_parse_list(j, ids, 4), -EPROTO);
	json_decref(j);
	assert_int_equal(fastmib_port_parse_list(json_null(), ids, 4), -EPROTO);
}

static void
test_parse_info_link_stats(void **state)
{
	struct fastmib_port_reading r;
	static const uint8_t mac[6] = { 0x92, 0xF0, 0x4A, 0x1F, 0xA7, 0x53 };

	(void)state;
	full_reading(&r);
	assert_int_equal(r.parts, FASTMIB_PORT_INFO | FASTMIB_PORT_LINK | FASTMIB_PORT_STATS |
			 FASTMIB_PORT_XSTATS);
	assert_string_equal(r.name, "net_null0");
	assert_int_equal(r.mtu, 1500);
	assert_true(r.mac_ok);
	assert_memory_equal(r.mac, mac, 6);
	assert_true(r.promiscuous);
	assert_true(r.started);
	assert_true(r.link_up);
	assert_true(r.speed_known);
	assert_int_equal(r.speed_mbps, 10000);
	assert_int_equal(r.ipackets, 45846496);
	assert_int_equal(r.obytes, 2907600896u);
	assert_int_equal(r.rx_nombuf, 5);
	/* net_null counts no multicast or broadcast */
	assert_int_equal(r.cast_have, 0);

	/* a down link has no speed */
	parse(fastmib_port_parse_link, LINK_DOWN, &r, 0);
	assert_false(r.link_up);
	assert_false(r.speed_known);
	assert_int_equal(r.speed_mbps, 0);
	/* up with RTE_ETH_SPEED_NUM_UNKNOWN */
	parse(fastmib_port_parse_link, "{\"status\":\"UP\",\"speed\":4294967295}", &r, 0);
	assert_true(r.link_up);
	assert_false(r.speed_known);

	/* what the application answers for a port it does not have */
	memset(&r, 0, sizeof(r));
	assert_int_equal(fastmib_port_parse_info(json_null(), &r), -EPROTO);
	assert_int_equal(fastmib_port_parse_stats(json_null(), &r), -EPROTO);
	parse(fastmib_port_parse_stats, "{\"ipackets\":-1}", &r, -EPROTO);
	assert_int_equal(r.parts, 0);
}

static void
test_parse_xstats_breakdown(void **state)
{
	struct fastmib_port_reading r;

	(void)state;
	/* port-wide names, as most physical NIC PMDs give them */
	memset(&r, 0, sizeof(r));
	parse(fastmib_port_parse_xstats,
	      "{\"rx_good_packets\":100,\"rx_multicast_packets\":7,"
	      "\"rx_broadcast_packets\":3,\"tx_multicast_packets\":2,"
	      "\"tx_broadcast_packets\":1,\"rx_q0_multicast_packets\":99}", &r, 0);
	assert_int_equal(r.cast_have, 0xf);
	assert_int_equal(r.cast[FASTMIB_CAST_IN_MCAST], 7); /* port-wide wins */
	assert_int_equal(r.cast[FASTMIB_CAST_IN_BCAST], 3);
	assert_int_equal(r.cast[FASTMIB_CAST_OUT_MCAST], 2);
	assert_int_equal(r.cast[FASTMIB_CAST_OUT_BCAST], 1);
	/* per-queue names (virtio) are summed */
	memset(&r, 0, sizeof(r));
	parse(fastmib_port_parse_xstats,
	      "{\"rx_q0_multicast_packets\":4,\"rx_q1_multicast_packets\":6,"
	      "\"rx_q12_broadcast_packets\":5,\"rx_q0_good_packets\":50,"
	      "\"rx_qx_multicast_packets\":1000,\"rx_multicast_bytes\":1000}", &r, 0);
	assert_int_equal(r.cast_have, (1u << FASTMIB_CAST_IN_MCAST) |
			 (1u << FASTMIB_CAST_IN_BCAST));
	assert_int_equal(r.cast[FASTMIB_CAST_IN_MCAST], 10);
	assert_int_equal(r.cast[FASTMIB_CAST_IN_BCAST], 5);
	/* a PMD's own unicast count */
	memset(&r, 0, sizeof(r));
	parse(fastmib_port_parse_xstats, "{\"rx_unicast_packets\":42}", &r, 0);
	assert_int_equal(r.cast_have, 1u << FASTMIB_CAST_IN_UCAST);
	assert_int_equal(r.cast[FASTMIB_CAST_IN_UCAST], 42);
}

static void
test_if_table(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;
	struct fastmib_ifv v;

	(void)state;
	full_reading(&r);
	fastmib_ifmib_track_reset(&tr, 0);
	fastmib_ifmib_track(&tr, &r, 0);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_INDEX, NULL, &tr), FASTMIB_IFV_INTEGER, 1000);
	v = value(FASTMIB_IFTABLE, FASTMIB_IF_DESCR, &r, &tr);
	assert_int_equal(v.type, FASTMIB_IFV_OCTETS);
	assert_int_equal(v.len, 9);
	assert_memory_equal(v.octets, "net_null0", 9);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_TYPE, NULL, &tr), FASTMIB_IFV_INTEGER, 6);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_MTU, &r, &tr), FASTMIB_IFV_INTEGER, 1500);
	/* 10 Gb/s does not fit: the maximum, as RFC 2863 says */
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_SPEED, &r, &tr), FASTMIB_IFV_GAUGE32,
		   UINT32_MAX);
	r.speed_mbps = 1000;
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_SPEED, &r, &tr), FASTMIB_IFV_GAUGE32,
		   1000000000u);
	r.speed_mbps = 10000;
	v = value(FASTMIB_IFTABLE, FASTMIB_IF_PHYS_ADDRESS, &r, &tr);
	assert_int_equal(v.type, FASTMIB_IFV_OCTETS);
	assert_int_equal(v.len, 6);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_ADMIN_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 1);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_OPER_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 1);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_LAST_CHANGE, &r, &tr), FASTMIB_IFV_TIMETICKS, 0);
	/* 32-bit counters are the 64-bit ones modulo 2^32 */
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_OCTETS, &r, &tr), FASTMIB_IFV_COUNTER32,
		   2934175744u);
	r.ibytes = (5ull << 32) + 17;
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_OCTETS, &r, &tr), FASTMIB_IFV_COUNTER32, 17);
	/* no breakdown: every packet is unicast, and there is no NUcast */
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_UCAST_PKTS, &r, &tr), FASTMIB_IFV_COUNTER32,
		   45846496);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_OUT_UCAST_PKTS, &r, &tr), FASTMIB_IFV_COUNTER32,
		   45431264);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_NUCAST_PKTS, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_DISCARDS, &r, &tr), FASTMIB_IFV_COUNTER32,
		   7 + 5);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_ERRORS, &r, &tr), FASTMIB_IFV_COUNTER32, 3);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_OUT_ERRORS, &r, &tr), FASTMIB_IFV_COUNTER32, 2);
	/* nothing in telemetry counts these */
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_UNKNOWN_PROTOS, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_OUT_DISCARDS, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_OUT_QLEN, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_SPECIFIC, NULL, &tr).type,
			 FASTMIB_IFV_OID_ZERO);
	/* without a reading, only the constants */
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_DESCR, NULL, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_OCTETS, NULL, &tr).type,
			 FASTMIB_IFV_NONE);
	for (unsigned int c = 0; c <= FASTMIB_IF_LAST + 1; c++) {
		bool none = c == 0 || c == FASTMIB_IF_IN_UNKNOWN_PROTOS ||
			    c == FASTMIB_IF_OUT_DISCARDS || c == FASTMIB_IF_OUT_QLEN ||
			    c > FASTMIB_IF_LAST;

		assert_int_equal(fastmib_ifmib_served(FASTMIB_IFTABLE, c), !none);
	}
	for (unsigned int c = 0; c <= FASTMIB_IFX_LAST + 1; c++)
		assert_int_equal(fastmib_ifmib_served(FASTMIB_IFXTABLE, c),
				 c >= 1 && c <= FASTMIB_IFX_LAST);
}

static void
test_status(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;

	(void)state;
	full_reading(&r);
	/* link down: oper down, no speed; admin still up */
	parse(fastmib_port_parse_link, LINK_DOWN, &r, 0);
	fastmib_ifmib_track_reset(&tr, 0);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_OPER_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 2);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_ADMIN_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 1);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_SPEED, &r, &tr), FASTMIB_IFV_GAUGE32, 0);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HIGH_SPEED, &r, &tr), FASTMIB_IFV_GAUGE32, 0);
	/* a stopped port is down, whatever its link says */
	parse(fastmib_port_parse_link, LINK_UP, &r, 0);
	r.started = false;
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_ADMIN_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 2);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_OPER_STATUS, &r, &tr), FASTMIB_IFV_INTEGER, 2);
	/* without the link part, no oper status */
	r.parts &= ~(unsigned int)FASTMIB_PORT_LINK;
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_OPER_STATUS, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFTABLE, FASTMIB_IF_SPEED, &r, &tr).type,
			 FASTMIB_IFV_NONE);
}

static void
test_ifx_table(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;
	struct fastmib_ifv v;

	(void)state;
	full_reading(&r);
	fastmib_ifmib_track_reset(&tr, 0);
	v = value(FASTMIB_IFXTABLE, FASTMIB_IFX_NAME, &r, &tr);
	assert_int_equal(v.type, FASTMIB_IFV_OCTETS);
	assert_memory_equal(v.octets, "net_null0", 9);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_OCTETS, &r, &tr), FASTMIB_IFV_COUNTER64,
		   2934175744u);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_OUT_OCTETS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 2907600896u);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 45846496);
	for (unsigned int c = FASTMIB_IFX_IN_MULTICAST_PKTS; c <= FASTMIB_IFX_OUT_BROADCAST_PKTS; c++)
		assert_int_equal(value(FASTMIB_IFXTABLE, c, &r, &tr).type, FASTMIB_IFV_NONE);
	assert_int_equal(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_MULTICAST_PKTS, &r, &tr).type,
			 FASTMIB_IFV_NONE);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_LINK_UP_DOWN_TRAP_ENABLE, NULL, &tr),
		   FASTMIB_IFV_INTEGER, 2);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HIGH_SPEED, &r, &tr), FASTMIB_IFV_GAUGE32,
		   10000);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_PROMISCUOUS_MODE, &r, &tr),
		   FASTMIB_IFV_INTEGER, 1);
	/* a vdev has no connector; a PCI device has */
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_CONNECTOR_PRESENT, &r, &tr),
		   FASTMIB_IFV_INTEGER, 2);
	strcpy(r.name, "0000:03:00.1");
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_CONNECTOR_PRESENT, &r, &tr),
		   FASTMIB_IFV_INTEGER, 1);
	v = value(FASTMIB_IFXTABLE, FASTMIB_IFX_ALIAS, NULL, &tr);
	assert_int_equal(v.type, FASTMIB_IFV_OCTETS);
	assert_int_equal(v.len, 0);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_COUNTER_DISCONTINUITY_TIME, &r, &tr),
		   FASTMIB_IFV_TIMETICKS, 0);
}

static void
test_breakdown_columns(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;

	(void)state;
	full_reading(&r);
	parse(fastmib_port_parse_xstats,
	      "{\"rx_multicast_packets\":1000,\"rx_broadcast_packets\":846496,"
	      "\"tx_multicast_packets\":5,\"tx_broadcast_packets\":4294967301}", &r, 0);
	fastmib_ifmib_track_reset(&tr, 0);
	/* unicast = all less multicast and broadcast */
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 45846496 - 1000 - 846496);
	assert_num(value(FASTMIB_IFTABLE, FASTMIB_IF_IN_NUCAST_PKTS, &r, &tr), FASTMIB_IFV_COUNTER32,
		   1000 + 846496);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_IN_MULTICAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER32, 1000);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_BROADCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 846496);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_OUT_BROADCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER32, 5);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_OUT_BROADCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 4294967301u);
	/* more multicast than packets (read a moment later): 0, not a wrap */
	r.ipackets = 10;
	fastmib_ifmib_track_reset(&tr, 0);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 0);
}

static void
test_ucast_never_dips(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;

	(void)state;
	full_reading(&r);
	r.ipackets = 1000;
	r.cast[FASTMIB_CAST_IN_MCAST] = 100;
	r.cast_have = 1u << FASTMIB_CAST_IN_MCAST;
	fastmib_ifmib_track_reset(&tr, 0);
	fastmib_ifmib_track(&tr, &r, 10);
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 900);
	/* the multicast count read after more packets arrived than ipackets saw */
	r.ipackets = 1002;
	r.cast[FASTMIB_CAST_IN_MCAST] = 105;
	assert_false(fastmib_ifmib_track(&tr, &r, 20));
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 900);
	r.ipackets = 1010;
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 905);
	/* after a reset the floor goes too */
	r.ipackets = 50;
	r.cast[FASTMIB_CAST_IN_MCAST] = 10;
	assert_true(fastmib_ifmib_track(&tr, &r, 30));
	assert_num(value(FASTMIB_IFXTABLE, FASTMIB_IFX_HC_IN_UCAST_PKTS, &r, &tr),
		   FASTMIB_IFV_COUNTER64, 40);
}

static void
test_track(void **state)
{
	struct fastmib_port_reading r;
	struct fastmib_ifmib_track tr;

	(void)state;
	full_reading(&r);
	fastmib_ifmib_track_reset(&tr, 0);
	assert_false(fastmib_ifmib_track(&tr, &r, 100));
	assert_int_equal(tr.discontinuity, 0);
	assert_int_equal(tr.last_change, 0);
	/* counters going up: nothing happens */
	r.ipackets += 10;
	r.imissed += 1;
	assert_false(fastmib_ifmib_track(&tr, &r, 200));
	/* the link goes down: last change now */
	parse(fastmib_port_parse_link, LINK_DOWN, &r, 0);
	fastmib_ifmib_track(&tr, &r, 300);
	assert_int_equal(tr.last_change, 300);
	fastmib_ifmib_track(&tr, &r, 400); /* no change, no new time */
	assert_int_equal(tr.last_change, 300);
	/* any counter lower than before: a discontinuity */
	r.ierrors = 0;
	assert_true(fastmib_ifmib_track(&tr, &r, 500));
	assert_int_equal(tr.discontinuity, 500);
	/* and its new values are the reference from now on */
	assert_false(fastmib_ifmib_track(&tr, &r, 600));
	assert_int_equal(tr.discontinuity, 500);
	/* a breakdown counter going back counts too */
	r.cast[FASTMIB_CAST_OUT_BCAST] = 9;
	r.cast_have = 1u << FASTMIB_CAST_OUT_BCAST;
	fastmib_ifmib_track(&tr, &r, 700);
	r.cast[FASTMIB_CAST_OUT_BCAST] = 8;
	assert_true(fastmib_ifmib_track(&tr, &r, 800));
	assert_int_equal(tr.discontinuity, 800);
	/* a reading without stats (not read) says nothing about counters */
	r.parts = FASTMIB_PORT_INFO | FASTMIB_PORT_LINK;
	r.ipackets = 0;
	assert_false(fastmib_ifmib_track(&tr, &r, 900));
	/* a new instance of the application */
	fastmib_ifmib_track_reset(&tr, 1000);
	assert_int_equal(tr.discontinuity, 1000);
	assert_int_equal(tr.last_change, 1000);
	assert_false(tr.have);
}

static void
test_sources(void **state)
{
	char path[64];
	uint32_t base;

	(void)state;
	assert_int_equal(fastmib_port_source_parse("/var/run/dpdk/rte", path, sizeof(path),
						   &base), 0);
	assert_string_equal(path, "/var/run/dpdk/rte");
	assert_int_equal(base, 0);
	assert_int_equal(fastmib_port_source_parse("/run/a,2000", path, sizeof(path), &base), 0);
	assert_string_equal(path, "/run/a");
	assert_int_equal(base, 2000);
	/* a comma not followed by digits only belongs to the path */
	assert_int_equal(fastmib_port_source_parse("/run/a,b", path, sizeof(path), &base), 0);
	assert_string_equal(path, "/run/a,b");
	assert_int_equal(base, 0);
	assert_int_equal(fastmib_port_source_parse(",5", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fastmib_port_source_parse("/a,0", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fastmib_port_source_parse("/a,2147483648", path, sizeof(path), &base),
			 -EINVAL);
	assert_int_equal(fastmib_port_source_parse("/a,2147483647", path, sizeof(path), &base), 0);
	assert_int_equal(fastmib_port_source_parse("", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fastmib_port_source_parse(
		"/a/very/long/path/that/does/not/fit/into/sixty/four/octets/at/all", path,
		sizeof(path), &base), -ENAMETOOLONG);
	/* base, base + 100, ...; a source's own base wins */
	assert_int_equal(fastmib_port_source_base(0, 1000, 0), 1000);
	assert_int_equal(fastmib_port_source_base(0, 1000, 2), 1200);
	assert_int_equal(fastmib_port_source_base(7, 1000, 2), 7);
	assert_int_equal(fastmib_port_source_base(0, 2147483600u, 1), 2147483647u);
}

static void
test_pci_names(void **state)
{
	(void)state;
	assert_true(fastmib_ifmib_pci_name("0000:03:00.0"));
	assert_true(fastmib_ifmib_pci_name("0000:af:1f.7"));
	assert_false(fastmib_ifmib_pci_name("net_null0"));
	assert_false(fastmib_ifmib_pci_name("0000:03:00.0_representor_vf1"));
	assert_false(fastmib_ifmib_pci_name("0000:03:00"));
	assert_false(fastmib_ifmib_pci_name("0000-03:00.0"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_info_link_stats),
		cmocka_unit_test(test_parse_xstats_breakdown),
		cmocka_unit_test(test_if_table),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_ifx_table),
		cmocka_unit_test(test_breakdown_columns),
		cmocka_unit_test(test_ucast_never_dips),
		cmocka_unit_test(test_track),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_pci_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
