/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Writer for the SNMP benchmark: creates a segment of the example model,
 * makes every flow-table row present with known values, then applies
 * updates on request so that the driver can time how soon SNMP sees them.
 *
 *   fastmib-bench-filler [EAL options] -- SEGMENT [--rows N]
 *
 * Row r (0-based) starts with pkts = r + 1 and bytes = 100 * (r + 1);
 * epGlobalRxPkts starts at 1. Then, one command per stdin line:
 *   flow ROW N   add N packets (and 100 * N bytes) to flow ROW, flushed
 *   global N     add N to global rxPkts (a per-core transaction)
 * each answered by "ok" once the update is visible to readers. "ready" is
 * printed after the fill; end of input ends the program (the segment file
 * stays for the readers; the driver removes it).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "bench_util.h"
#include "ep_stats.h"

static int
fill(struct fastmib_segment *seg, struct fastmib_writer *w, uint32_t rows)
{
	for (uint32_t r = 0; r < rows; r++) {
		if (fastmib_row_enable(seg, EP_GROUP_FLOW, r) < 0)
			return -1;
		fastmib_begin(w);
		ep_flow_pkts_add(w, r, r + 1);
		ep_flow_bytes_add(w, r, 100ull * (r + 1));
		fastmib_end(w);
	}
	fastmib_begin(w);
	ep_global_rx_pkts_add(w, 1);
	fastmib_end(w);
	fastmib_flush(w);
	return 0;
}

static int
serve(struct fastmib_writer *w, uint32_t rows)
{
	char line[128];
	unsigned long long a, b;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "flow %llu %llu", &a, &b) == 2 && a < rows) {
			fastmib_begin(w);
			ep_flow_pkts_add(w, (uint32_t)a, b);
			ep_flow_bytes_add(w, (uint32_t)a, 100 * b);
			fastmib_end(w);
			fastmib_flush(w);
		} else if (sscanf(line, "global %llu", &a) == 1) {
			fastmib_begin(w);
			ep_global_rx_pkts_add(w, a);
			fastmib_end(w);
		} else {
			fprintf(stderr, "bad command: %s", line);
			return 2;
		}
		printf("ok\n");
		fflush(stdout);
	}
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
	struct fastmib_writer *w;
	uint32_t rows = EP_FLOW_ROWS;
	int ret, c;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r')
			return 2;
		rows = (uint32_t)strtoul(optarg, NULL, 0);
	}
	if (optind != argc - 1 || rows < 1 || rows > EP_FLOW_ROWS) {
		fprintf(stderr, "usage: fastmib-bench-filler [EAL] -- SEGMENT [--rows 1..%u]\n",
			EP_FLOW_ROWS);
		return 2;
	}
	if (fastmib_create(&ep_schema, argv[optind], NULL, &seg) < 0 ||
	    (w = fastmib_writer(seg)) == NULL || fill(seg, w, rows) < 0) {
		fprintf(stderr, "fastmib-bench-filler: %s\n", fastmib_last_error());
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	ret = serve(w, rows);
	fastmib_close(seg);
	rte_eal_cleanup();
	return ret;
}
