/* SPDX-License-Identifier: BSD-3-Clause */
/* Write a valid segment of the test schema with events, its rings wrapped
 * (fuzzer seed). Usage: mkseed PATH */
#include <stdio.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "tutil.h"

int
main(int argc, char **argv)
{
	struct fastmib_opts o = { .extra_threads = 1, .event_ring = 16 };
	struct fastmib_segment *seg;
	struct fastmib_writer *w;

	if (argc != 2)
		return 2;
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (fastmib_create(&ts_ev_schema, argv[1], &o, &seg) != 0) {
		fprintf(stderr, "mkseed: %s\n", fastmib_last_error());
		return 1;
	}
	fastmib_row_enable(seg, TS_SESSION, 3);
	fastmib_row_enable(seg, TS_SESSION, 70);
	fastmib_row_enable(seg, TS_FLOW, 14);
	w = fastmib_writer(seg);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 5);
	fastmib_wb_add(w, TS_SESSION_PKTS(3), 7);
	for (uint64_t i = 1; i <= 20; i++)
		fastmib_event_log(w, (uint32_t)(i % TS_N_EVENTS), i, 2 * i, 0, 0);
	fastmib_close(seg);
	rte_eal_cleanup();
	return 0;
}
