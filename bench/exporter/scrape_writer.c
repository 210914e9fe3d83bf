/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The scrape benchmark's application: creates a segment of
 * bench/exporter/small.yaml (65,536 rows) or, built with
 * SCRAPE_BIG, big.yaml (1,048,576 rows), enables the first ROWS rows of
 * its flow table and writes known values into them, then prints "ready"
 * and keeps the segment open until its standard input closes.
 *
 *   fastmib-bench-scrape-writer[-big] [EAL options] -- PATH [--rows N]
 *
 * Row r (0-based, SNMP index and label r + 1) holds, counter k = 1..4
 * (rxPkts, rxBytes, txPkts, txBytes): k * 2^32 + r + 1. Every value is
 * distinct, wider than 32 bits and below 2^53, so that snmp_exporter's
 * float64 samples hold it exactly too; the driver checks each one.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>

#include "bench_util.h"

#ifdef SCRAPE_BIG
#include "sy_stats.h"
#define SCRAPE(x) sy_##x
#define SCRAPE_ROWS SY_FLOW_ROWS
#define SCRAPE_GROUP SY_GROUP_FLOW
#else
#include "sx_stats.h"
#define SCRAPE(x) sx_##x
#define SCRAPE_ROWS SX_FLOW_ROWS
#define SCRAPE_GROUP SX_GROUP_FLOW
#endif

static int
fill(struct fastmib_segment *seg, uint32_t rows)
{
	struct fastmib_writer *w = fastmib_writer(seg);
	struct SCRAPE(tx) tx;

	if (w == NULL)
		return -1;
	tx = SCRAPE(tx_prepare)(w);
	for (uint32_t r = 0; r < rows; r++) {
		struct SCRAPE(flow_ref) c;

		if (fastmib_row_enable(seg, SCRAPE_GROUP, r) < 0)
			return -1;
		SCRAPE(tx_open)(&tx);
		c = SCRAPE(tx_flow)(&tx, r);
		SCRAPE(flow_ref_rx_pkts_add)(c, (1ull << 32) + r + 1);
		SCRAPE(flow_ref_rx_bytes_add)(c, (2ull << 32) + r + 1);
		SCRAPE(flow_ref_tx_pkts_add)(c, (3ull << 32) + r + 1);
		SCRAPE(flow_ref_tx_bytes_add)(c, (4ull << 32) + r + 1);
		SCRAPE(tx_end)(&tx);
	}
	fastmib_flush(w);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rows", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct fastmib_segment *seg;
	uint32_t rows = SCRAPE_ROWS;
	char line[16];
	int c;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r')
			return 2;
		rows = (uint32_t)strtoul(optarg, NULL, 0);
	}
	if (optind != argc - 1 || rows < 1 || rows > SCRAPE_ROWS) {
		fprintf(stderr, "usage: %s [EAL options] -- PATH [--rows 1..%u]\n", argv[0],
			SCRAPE_ROWS);
		return 2;
	}
	if (SCRAPE(create)(argv[optind], NULL, &seg) < 0) {
		fprintf(stderr, "create %s: %s\n", argv[optind], fastmib_last_error());
		return 1;
	}
	if (fill(seg, rows) < 0) {
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
