/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Create a segment of the histograms test model (tests/codegen/models/
 * histograms.yaml, prefix hg) holding known values, for the readers that
 * leave histograms and peaks out (fastmib-stat, the serving agent):
 *
 *   mkhist PATH [--lcores | --spin]
 *
 * From the main lcore, one transaction each: system.pkts 1500,
 * port.rxPkts of row (1, 0) 25 and of row (3, 1) 7, flow.pkts 9 of key
 * (10.0.0.1, 7), pool.allocs 12; and beside them observations of every
 * histogram (latency 100 and 5000, burst 3, size 1500, gap 1000) and a
 * value of every peak (queueDepth 40, peakBurst 32, maxGap 1000). The
 * writer exits: the segment keeps the values.
 *
 * --lcores: then lcores 1 and 2, one after the other, one transaction
 * each, observe and record (row (0, 0) is SNMP row 1.1):
 *   lcore 1: latency 20, 20, 3000; burst 0, 1; queueDepth 70;
 *            size (0, 0) 64, 65; peakBurst (0, 0) 5
 *   lcore 2: latency 9000, 16; burst 100; queueDepth 55;
 *            size (0, 0) 2^64 - 1 (its sum wraps to 128); peakBurst
 *            (0, 0) 9; gap 0; maxGap 2000
 *
 * --spin: then lcore 1 observes at full speed, one short transaction a
 * round (pkts + 1, latency 100 and 5000, burst 3, size (1, 0) 1500, gap
 * 1000, queueDepth the round number), until its standard input ends; it
 * writes "ready" once the first round is done. In every consistent read
 * each histogram's count is the sum of its buckets, its sum the values
 * its buckets hold, and system's latency count 2 * pkts - 2998.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fastmib/fastmib.h"
#include "hg_stats.h"
#include "tutil.h"

static struct fastmib_segment *seg;
static uint32_t flow_row;
static volatile int stop;

/* --lcores: lcore 1's transaction, then lcore 2's. */
static int
lcore_values(void *arg)
{
	struct hg_tx tx = hg_tx_begin(fastmib_writer(seg));

	if (arg == NULL) {
		hg_tx_system_latency_observe(&tx, 20);
		hg_tx_system_latency_observe(&tx, 20);
		hg_tx_system_latency_observe(&tx, 3000);
		hg_tx_system_burst_observe(&tx, 0);
		hg_tx_system_burst_observe(&tx, 1);
		hg_tx_system_queue_depth_peak(&tx, 70);
		hg_tx_port_size_observe(&tx, 0, 0, 64);
		hg_tx_port_size_observe(&tx, 0, 0, 65);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, 5);
	} else {
		hg_tx_system_latency_observe(&tx, 9000);
		hg_tx_system_latency_observe(&tx, 16);
		hg_tx_system_burst_observe(&tx, 100);
		hg_tx_system_queue_depth_peak(&tx, 55);
		hg_tx_port_size_observe(&tx, 0, 0, UINT64_MAX);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, 9);
		hg_tx_flow_gap_observe(&tx, flow_row, 0);
		hg_tx_flow_max_gap_peak(&tx, flow_row, 2000);
	}
	hg_tx_end(&tx);
	return 0;
}

/* --spin: rounds at full speed until `stop`. */
static int
lcore_spin(void *arg)
{
	struct hg_tx tx = hg_tx_begin(fastmib_writer(seg));

	(void)arg;
	hg_tx_end(&tx);
	for (uint64_t round = 1; !stop; round++) {
		hg_tx_open(&tx);
		hg_tx_system_pkts_add(&tx, 1);
		hg_tx_system_latency_observe(&tx, 100);
		hg_tx_system_latency_observe(&tx, 5000);
		hg_tx_system_burst_observe(&tx, 3);
		hg_tx_system_queue_depth_peak(&tx, round);
		hg_tx_port_size_observe(&tx, 1, 0, 1500);
		hg_tx_flow_gap_observe(&tx, flow_row, 1000);
		hg_tx_end(&tx);
		if (round == 1) {
			printf("ready\n");
			fflush(stdout);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct hg_flow_key key = { .peer = { 1, { 10, 0, 0, 1 } }, .teid = 7 };
	bool lcores = argc == 3 && strcmp(argv[2], "--lcores") == 0;
	bool spin = argc == 3 && strcmp(argv[2], "--spin") == 0;
	const char *path = argv[1];
	struct fastmib_writer *w;
	struct hg_tx tx;
	uint32_t row;

	if (argc != 2 && !lcores && !spin) {
		fprintf(stderr, "usage: mkhist PATH [--lcores | --spin]\n");
		return 2;
	}
	tu_eal_init(argv[0], "0@0,1@1,2@0");
	unlink(path);
	if (hg_create(path, NULL, &seg) != 0 || !(w = fastmib_writer(seg)) ||
	    hg_flow_insert(seg, &key, &row) != 0) {
		fprintf(stderr, "mkhist: %s\n", fastmib_last_error());
		return 1;
	}
	flow_row = row;
	tx = hg_tx_begin(w);
	hg_tx_system_pkts_add(&tx, 1500);
	hg_tx_system_latency_observe(&tx, 100);
	hg_tx_system_latency_observe(&tx, 5000);
	hg_tx_system_burst_observe(&tx, 3);
	hg_tx_system_queue_depth_peak(&tx, 40);
	hg_tx_end(&tx);
	hg_tx_open(&tx);
	hg_tx_port_rx_pkts_add(&tx, 1, 0, 25);
	hg_tx_port_rx_pkts_add(&tx, 3, 1, 7);
	hg_tx_port_size_observe(&tx, 1, 0, 1500);
	hg_tx_port_peak_burst_peak(&tx, 1, 0, 32);
	hg_tx_flow_pkts_add(&tx, row, 9);
	hg_tx_flow_gap_observe(&tx, row, 1000);
	hg_tx_flow_max_gap_peak(&tx, row, 1000);
	hg_tx_pool_allocs_add(&tx, 12);
	hg_tx_end(&tx);
	if (lcores) {
		if (tu_launch(lcore_values, NULL, 1) != 0 || tu_wait(1) != 0 ||
		    tu_launch(lcore_values, seg, 2) != 0 || tu_wait(2) != 0) {
			fprintf(stderr, "mkhist: lcores 1 and 2 did not run\n");
			return 1;
		}
	} else if (spin) {
		char buf[64];

		if (tu_launch(lcore_spin, NULL, 1) != 0) {
			fprintf(stderr, "mkhist: lcore 1 did not run\n");
			return 1;
		}
		while (fread(buf, 1, sizeof(buf), stdin) > 0)
			;
		stop = 1;
		tu_wait(1);
	}
	fastmib_close(seg);
	rte_eal_cleanup();
	return 0;
}
