/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Create a segment of the histograms test model (tests/codegen/models/
 * histograms.yaml, prefix hg) holding known values, for the readers that
 * leave histograms and peaks out (fastmib-stat, the serving agent):
 *
 *   mkhist PATH
 *
 * From the main lcore, one transaction each: system.pkts 1500,
 * port.rxPkts of row (1, 0) 25 and of row (3, 1) 7, flow.pkts 9 of key
 * (10.0.0.1, 7), pool.allocs 12; and beside them observations of every
 * histogram (latency 100 and 5000, burst 3, size 1500, gap 1000) and a
 * value of every peak (queueDepth 40, peakBurst 32, maxGap 1000). The
 * writer exits: the segment keeps the values.
 */
#include <stdio.h>
#include <unistd.h>

#include "fastmib/fastmib.h"
#include "hg_stats.h"
#include "tutil.h"

int
main(int argc, char **argv)
{
	struct hg_flow_key key = { .peer = { 1, { 10, 0, 0, 1 } }, .teid = 7 };
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	struct hg_tx tx;
	uint32_t row;

	if (argc != 2) {
		fprintf(stderr, "usage: mkhist PATH\n");
		return 2;
	}
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (hg_create(argv[1], NULL, &seg) != 0 || !(w = fastmib_writer(seg)) ||
	    hg_flow_insert(seg, &key, &row) != 0) {
		fprintf(stderr, "mkhist: %s\n", fastmib_last_error());
		return 1;
	}
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
	fastmib_close(seg);
	rte_eal_cleanup();
	return 0;
}
