/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Event log fast-path cost: TSC cycles per event call when the event is
 * filtered out (rate below the burst threshold: one compare and a branch),
 * when it is logged (one record of 4 args into the lcore's ring), and per
 * fastmib_event_burst() (threshold re-draw), each against an empty loop of
 * the same shape measured in the same run.
 *
 *   fastmib-bench-events [EAL options] -- [--events N] [--runs R] [--only NAME]
 *
 * Every loop iteration ends with a compiler memory barrier, as real packet
 * code between two events would: it keeps the compiler from hoisting the
 * threshold compare out of the loop, which would make "filtered" look free.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>

#include "bench_util.h"
#include "fastmib/fastmib.h"

#define MAX_RUNS 64

/* A minimal model: one counter, one always-on and one sampled event. */
static const struct fastmib_counter_schema ctr[] = {
	{ "pkts", "packets", "Packets.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
};
static const struct fastmib_group_schema grp[] = {
	{ .name = "global", .description = "Global.", .arc = 1,
	  .storage = FASTMIB_STORAGE_PER_CORE, .n_rows = 1, .row_size = 8, .offset = 0,
	  .n_counters = 1, .counters = ctr },
};
enum { EV_ALWAYS, EV_SAMPLED };
static const struct fastmib_event_schema evs[] = {
	[EV_ALWAYS] = { .name = "always", .description = "Rate 9.", .arc = 1, .level = 1,
			.rate = 9, .n_args = 4, .args = { "a", "b", "c", "d" } },
	[EV_SAMPLED] = { .name = "sampled", .description = "Rate 5.", .arc = 2, .level = 2,
			 .rate = 5, .n_args = 2, .args = { "a", "b" } },
};
static const struct fastmib_schema bench_schema = {
	.version = FASTMIB_MODEL_VERSION, .module = "FASTMIB-BENCH-EVENTS-MIB",
	.prefix = "be", .oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 78 },
	.percore_size = 64, .shared_size = 0, .n_groups = 1, .groups = grp,
	.n_events = 2, .events = evs,
};

/* What generated code emits for the two events. */
static inline void
be_event_always(struct fastmib_writer *w, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	fastmib_event_log(w, EV_ALWAYS, a, b, c, d);
}

static inline void
be_event_sampled(struct fastmib_writer *w, uint64_t a, uint64_t b)
{
	if (fastmib_event_on(w, 5))
		fastmib_event_log(w, EV_SAMPLED, a, b, 0, 0);
}

#define BARRIER() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) static void
run_base(struct fastmib_writer *w, uint64_t n)
{
	(void)w;
	for (uint64_t i = 0; i < n; i++)
		BARRIER();
}

/* Threshold 9: the rate-5 event is filtered out on every call. */
__attribute__((noinline)) static void
run_filtered(struct fastmib_writer *w, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		be_event_sampled(w, i, i * 3);
		BARRIER();
	}
}

__attribute__((noinline)) static void
run_logged(struct fastmib_writer *w, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		be_event_always(w, i, i * 3, ~i, 7);
		BARRIER();
	}
}

/* Threshold 1: the sampled event (2 args) is logged on every call. */
__attribute__((noinline)) static void
run_logged2(struct fastmib_writer *w, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		be_event_sampled(w, i, i * 3);
		BARRIER();
	}
}

__attribute__((noinline)) static void
run_burst(struct fastmib_writer *w, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		fastmib_event_burst(w);
		BARRIER();
	}
}

struct pattern {
	const char *name;
	void (*fn)(struct fastmib_writer *, uint64_t);
	unsigned threshold;
};

static const struct pattern patterns[] = {
	{ "filtered (rate 5, threshold 9)", run_filtered, 9 },
	{ "logged, 4 args (rate 9)", run_logged, 9 },
	{ "logged, 2 args (rate 5, threshold 1)", run_logged2, 1 },
	{ "fastmib_event_burst()", run_burst, 9 },
};
#define N_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))

static uint64_t
timed(void (*fn)(struct fastmib_writer *, uint64_t), struct fastmib_writer *w, uint64_t n)
{
	uint64_t t0 = rte_rdtsc_precise();

	fn(w, n);
	return rte_rdtsc_precise() - t0;
}

int
main(int argc, char **argv)
{
	uint64_t n = 1000000;
	unsigned runs = 9;
	const char *only = NULL;
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	char path[128];
	int c, rc = 0;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	static const struct option lo[] = {
		{ "events", required_argument, NULL, 'n' },
		{ "runs", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'n')
			n = strtoull(optarg, NULL, 10);
		else if (c == 'r')
			runs = (unsigned)atoi(optarg);
		else if (c == 'o')
			only = optarg;
		else
			return 2;
	}
	if (n == 0 || runs == 0 || runs > MAX_RUNS)
		return 2;
	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-%sevents-%d", bench_tag(),
		 (int)getpid());
	if (fastmib_create(&bench_schema, path, NULL, &seg) != 0 ||
	    (w = fastmib_writer(seg)) == NULL) {
		fprintf(stderr, "fastmib-bench-events: %s\n", fastmib_last_error());
		return 1;
	}
	printf("%-40s %10s %18s\n", "event call", "cycles", "(min..max)");
	for (unsigned p = 0; p < N_PATTERNS; p++) {
		double d[MAX_RUNS];

		if (only && strcmp(only, patterns[p].name) != 0)
			continue;
		for (unsigned r = 0; r < runs; r++) {
			uint64_t base, t;

			fastmib_event_threshold(w, patterns[p].threshold);
			base = timed(run_base, w, n);
			t = timed(patterns[p].fn, w, n);
			d[r] = ((double)t - (double)base) / (double)n;
		}
		qsort(d, runs, sizeof(d[0]), bench_cmp_double);
		printf("%-40s %10.1f %8.1f..%-8.1f\n", patterns[p].name, d[runs / 2], d[0],
		       d[runs - 1]);
	}
	/* The loops really logged: every rate-9 call, ring full, no reader. */
	if (!only) {
		uint64_t want = (uint64_t)runs * n;

		if (fastmib_event_logged(seg, EV_ALWAYS) != want ||
		    fastmib_event_logged(seg, EV_SAMPLED) != want) {
			fprintf(stderr, "fastmib-bench-events: logged %" PRIu64 "/%" PRIu64
				", expected %" PRIu64 " each\n", fastmib_event_logged(seg, EV_ALWAYS),
				fastmib_event_logged(seg, EV_SAMPLED), want);
			rc = 1;
		} else {
			rc = 0;
		}
	}
	printf("TSC %" PRIu64 " Hz, %" PRIu64 " calls x %u runs\n", rte_get_tsc_hz(), n, runs);
	fastmib_close(seg);
	unlink(path);
	rte_eal_cleanup();
	return rc > 0 ? 1 : 0;
}
