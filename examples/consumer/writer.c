/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The smallest fastmib application: starts EAL, creates the segment of
 * counters.yaml at the path given after `--`, counts a known number of
 * packets, and leaves the segment for a reader.
 *
 *   cx-writer [EAL options] -- SEGMENT [PACKETS]
 *
 * Counts PACKETS (default 1000) packets of 64 octets, packet i on port
 * i % 4, one transaction per packet.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>

#include "cx_stats.h"

int
main(int argc, char **argv)
{
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	unsigned long packets = 1000;
	int n = rte_eal_init(argc, argv);

	if (n < 0) {
		fprintf(stderr, "cx-writer: cannot start EAL\n");
		return 1;
	}
	argc -= n;
	argv += n;
	if (argc < 2) {
		fprintf(stderr, "usage: cx-writer [EAL options] -- SEGMENT [PACKETS]\n");
		return 2;
	}
	if (argc > 2)
		packets = strtoul(argv[2], NULL, 10);
	if (fastmib_create(&cx_schema, argv[1], NULL, &seg) < 0) {
		fprintf(stderr, "cx-writer: %s\n", fastmib_last_error());
		return 1;
	}
	w = fastmib_writer(seg);
	for (unsigned long i = 0; i < packets; i++) {
		fastmib_begin(w);
		cx_totals_pkts_add(w, 1);
		cx_totals_bytes_add(w, 64);
		cx_port_pkts_add(w, (uint32_t)(i % CX_PORT_PORT_ID_MAX), 1);
		fastmib_end(w);
	}
	fastmib_close(seg); /* the file stays for readers */
	rte_eal_cleanup();
	printf("cx-writer: counted %lu packets into %s\n", packets, argv[1]);
	return 0;
}
