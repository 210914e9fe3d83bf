/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory benchmark's application: creates a segment of bench/memory/
 * big.yaml (1,048,576 rows of eight Counter64, per-core), enables every
 * row, and has every lcore add to every counter of every row in
 * transactions, so that each lcore's block is written through. Then it
 * prints "ready" and waits until its standard input closes, keeping the
 * segment open for the measurements.
 *
 *   fastmib-bench-memory-writer [EAL options] -- PATH
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "bench_util.h"
#include "bg_stats.h"

static struct fastmib_segment *seg;

static int
fill(void *arg)
{
	struct fastmib_writer *w = fastmib_writer(seg);
	struct bg_tx tx;

	(void)arg;
	if (w == NULL) {
		fprintf(stderr, "fastmib_writer: %s\n", fastmib_last_error());
		return -1;
	}
	tx = bg_tx_prepare(w);
	for (uint32_t r = 0; r < BG_CONN_ROWS; r++) {
		struct bg_conn_ref c;

		bg_tx_open(&tx);
		c = bg_tx_conn(&tx, r);
		bg_conn_ref_rx_pkts_add(c, 1);
		bg_conn_ref_rx_bytes_add(c, 64);
		bg_conn_ref_tx_pkts_add(c, 1);
		bg_conn_ref_tx_bytes_add(c, 64);
		bg_conn_ref_drops_add(c, r & 1);
		bg_conn_ref_errors_add(c, r & 3);
		bg_conn_ref_retries_add(c, r & 7);
		bg_conn_ref_resets_add(c, r);
		bg_tx_end(&tx);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char line[16];
	int rc = 0;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	if (argc != 2) {
		fprintf(stderr, "usage: fastmib-bench-memory-writer [EAL options] -- PATH\n");
		return 2;
	}
	if (bg_create(argv[1], NULL, &seg) < 0) {
		fprintf(stderr, "bg_create: %s\n", fastmib_last_error());
		return 1;
	}
	for (uint32_t r = 0; r < BG_CONN_ROWS && rc == 0; r++)
		rc = fastmib_row_enable(seg, BG_GROUP_CONN, r);
	if (rc == 0) {
		unsigned lc;

		RTE_LCORE_FOREACH_WORKER(lc)
			rte_eal_remote_launch(fill, NULL, lc);
		rc = fill(NULL);
		RTE_LCORE_FOREACH_WORKER(lc)
			rc |= rte_eal_wait_lcore(lc);
	}
	if (rc != 0) {
		fprintf(stderr, "fill: %s\n", fastmib_last_error());
		fastmib_close(seg);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL)
		;
	fastmib_close(seg);
	rte_eal_cleanup();
	return 0;
}
