/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reader process of the torture test. Links only fastmib_reader (no EAL),
 * attaches by path, and checks every snapshot: transactions never half
 * seen, no torn words, counters never go backwards, and baselines written
 * by its own concurrent resets are consistent.
 * With `split` (the torture test's negative control, whose writers cut
 * transactions in two on purpose), half transactions are expected: the
 * reader fails unless it sees at least one, and only on other errors.
 * Usage: torture_reader PATH N_ROUNDS [split]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "torture.h"

static int bad;
static int split;        /* half transactions are expected */
static long half_seen;   /* snapshots that showed one (split mode) */

static void
check(int ok, const char *what, unsigned group, uint32_t row, const uint64_t *v)
{
	if (ok)
		return;
	if (bad++ < 10)
		fprintf(stderr, "torture_reader: %s: group %u row %u: %" PRIu64 " %" PRIu64 "\n",
			what, group, row, v[0], v[1]);
}

/* What the reader saw of one row last. */
struct last {
	uint64_t v[2];
	bool seen;   /* a consistent read of the row came before */
};

/*
 * Monotonic modulo 2^64 from the row's first consistent read on: each
 * step is "small" (less than 2^63). Nothing is compared before that read:
 * the presets put odd rows' octets just below 2^64, so a zero "last"
 * would look 2^64 - 3e6 behind them until their first 2,000 packets wrap
 * the count, which a reader started early on a loaded machine can see.
 */
static void
forward(struct last *last, const uint64_t *now, unsigned group, uint32_t row)
{
	if (last->seen)
		check(now[0] - last->v[0] < (1ull << 63) && now[1] - last->v[1] < (1ull << 63),
		      "went backwards", group, row, now);
	last->v[0] = now[0];
	last->v[1] = now[1];
	last->seen = true;
}

static void
read_pair(struct fastmib_segment *seg, unsigned group, uint32_t row, struct last *last)
{
	uint64_t v[3];
	int rc = fastmib_read_raw(seg, group, row, v);

	/* -EBUSY: a writer lcore was preempted mid-transaction (4 lcores on
	 * 2 CPUs); the read was bounded and promises no snapshot. */
	check(rc == 0 || rc == -EBUSY, "raw read failed", group, row, v);
	if (rc == 0) {
		if (split)
			half_seen += !tt_consistent(v);
		else
			check(tt_consistent(v), "torn or half transaction (raw)", group, row, v);
		forward(last, v, group, row);
	}
	rc = fastmib_read(seg, group, row, v);
	check(rc == 0 || rc == -EBUSY, "read failed", group, row, v);
	if (rc == 0 && !split)
		check(tt_consistent(v), "inconsistent baseline", group, row, v);
}

int
main(int argc, char **argv)
{
	static struct last last_g, last_s[TT_SESSIONS], last_f[TS_FLOW_ROWS];
	struct fastmib_read_stats st;
	struct fastmib_segment *seg;
	uint64_t first = 0;
	long rounds, resets = 0, busy_resets = 0;

	if (argc != 3 && argc != 4)
		return 2;
	rounds = atol(argv[2]);
	split = argc == 4 && strcmp(argv[3], "split") == 0;
	if (fastmib_attach(argv[1], 0, &seg) != 0) {
		fprintf(stderr, "torture_reader: %s\n", fastmib_last_error());
		return 1;
	}
	for (long i = 0; i < rounds; i++) {
		uint32_t s = (uint32_t)(i % TT_SESSIONS), f = (uint32_t)(i % TS_FLOW_ROWS);

		read_pair(seg, TS_GLOBAL, 0, &last_g);
		read_pair(seg, TS_SESSION, s, &last_s[s]);
		read_pair(seg, TS_FLOW, f, &last_f[f]);
		if (i == 0)
			first = last_g.v[0];
		if (i % 1000 == 999) {
			int rc = fastmib_reset(seg, TS_SESSION, s);

			/* -EBUSY: a flusher stayed preempted inside its write
			 * section for the whole patience; nothing was changed. */
			check(rc == 0 || rc == -EBUSY, "reset failed", TS_SESSION, s, last_s[s].v);
			resets += rc == 0;
			busy_resets += rc == -EBUSY;
		}
	}
	check(last_g.v[0] != first, "no progress seen", TS_GLOBAL, 0, last_g.v);
	check(!split || half_seen > 0, "split transactions never seen half done", TS_GLOBAL, 0,
	      last_g.v);
	check(rounds < 1000 || resets > 0, "no reset done", TS_SESSION, 0, last_s[0].v);
	fastmib_read_stats(seg, &st);
	printf("torture_reader: %" PRIu64 " snapshots, %" PRIu64 " retries, %" PRIu64
	       " bounded, %ld resets (%ld busy), %d errors", st.reads, st.retries,
	       st.bounded, resets, busy_resets, bad);
	if (split)
		printf(", %ld half transactions seen (expected)", half_seen);
	printf("\n");
	fastmib_close(seg);
	return bad ? 1 : 0;
}
