/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry replies of dpdk-testpmd on net_null ports (DPDK 22.11, copied
 * from a real run), parsed as the agent parses replies: what the unit
 * tests of the ethdev library and of the IF-MIB columns start from.
 */
#ifndef FASTMIB_TEST_PORTS_REPLIES_H
#define FASTMIB_TEST_PORTS_REPLIES_H

#include <string.h>

#include <jansson.h>

#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/reading.h"

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

/* Parsed as the client parses replies. */
static inline json_t *
js(const char *text)
{
	json_t *j = fme_tel_json_load(text, strlen(text));

	assert_non_null(j);
	return j;
}

/* Part parser `fn` on reply `text` gives `want`. */
static inline void
parse(int (*fn)(const json_t *, struct fme_port_reading *), const char *text,
      struct fme_port_reading *r, int want)
{
	json_t *j = js(text);

	assert_int_equal(fn(j, r), want);
	json_decref(j);
}

#endif
