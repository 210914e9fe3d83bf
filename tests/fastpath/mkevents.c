/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Create a segment of the test model with a known event log for the
 * fastmib-stat tests: RECORDS records cycling top, outer, inner (levels
 * 0, 1, 2), record i (from 1) with args (i, 10 * i, -i, -i) where -i is
 * the int32 sign-extended as a generated function logs it (c is int32, d
 * uint64: the same word shows as -i and 2^64 - i), logged from lcore 1
 * with a 16-record ring, so RECORDS > 16 wraps.
 * Usage: mkevents PATH RECORDS
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_launch.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "tutil.h"

static struct fastmib_segment *seg;
static unsigned long records;

static int
log_main(void *arg)
{
	struct fastmib_writer *w = fastmib_writer(seg);

	(void)arg;
	if (w == NULL)
		return -1;
	for (unsigned long i = 1; i <= records; i++) {
		uint64_t neg = (uint64_t)(int64_t)-(int32_t)i;

		fastmib_event_log(w, (uint32_t)((i - 1) % 3), i, 10 * i, neg, neg);
		rte_delay_us_block(1);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fastmib_opts o = { .event_ring = 16 };
	int rc;

	if (argc != 3)
		return 2;
	records = strtoul(argv[2], NULL, 10);
	tu_eal_init(argv[0], "0-1");
	unlink(argv[1]);
	if (fastmib_create(&ts_ev_schema, argv[1], &o, &seg) != 0) {
		fprintf(stderr, "mkevents: %s\n", fastmib_last_error());
		return 1;
	}
	tu_launch(log_main, NULL, 1);
	rc = tu_wait(1);
	fastmib_close(seg);
	rte_eal_cleanup();
	return rc ? 1 : 0;
}
