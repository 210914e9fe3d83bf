/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reader-side benchmark: what one consistent snapshot costs a reader (the
 * subagent, fastmib-stat), how that grows with the number of lcore slots,
 * what reading a whole 65,536-row table costs, and how often a reader has
 * to retry while a writer on another lcore hammers the very rows it reads.
 * Every figure is compared with a plain memcpy() of the same bytes, the
 * floor for any reader.
 *
 *   fastmib-bench-reader [EAL options] -- [--iters N] [--runs R] [--load-ms MS]
 *
 * Times are TSC cycles converted with rte_get_tsc_hz(); each figure is the
 * median over R runs (min..max shown).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "bench_util.h"
#include "bm_stats.h"
#include "ep_stats.h"

#define MAX_RUNS 32
#define MAX_COPY (1u << 21)

struct ctx {
	unsigned iters;         /* snapshots per timed loop */
	unsigned runs;
	unsigned load_ms;       /* duration of each loaded measurement */
	double ns_per_cycle;
	int stop;               /* written by main lcore, read by the writer */
	int writer_mode;        /* what the writer hammers, see writer_main() */
	int stalled;            /* set by a mode-2 writer once inside its transaction */
	uint64_t gap_cycles;    /* writer pause between transactions (packet work) */
	struct fastmib_segment *seg;
	uint64_t sink;          /* keeps copies and reads observable */
	uint64_t violations;    /* inconsistent snapshots seen: a library bug */
	uint8_t *copy_src;
	uint8_t *copy_dst;
};

static struct ctx *C;

static void
print_row(const char *what, const char *unit, struct bench_spread s, const char *extra)
{
	printf("  %-44s %10.1f %-4s (%.1f..%.1f) %s\n", what, s.med, unit, s.lo, s.hi,
	       extra ? extra : "");
}

/* ns per fastmib_read() of (group, row), median over runs. */
static struct bench_spread
time_read(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	uint64_t v[FASTMIB_MAX_COUNTERS];
	double per[MAX_RUNS];

	for (unsigned r = 0; r < C->runs; r++) {
		uint64_t t0 = rte_rdtsc_precise();

		for (unsigned i = 0; i < C->iters; i++) {
			if (fastmib_read(seg, group, row, v) != 0)
				abort(); /* a benchmark of a failing read is meaningless */
			C->sink += v[0];
		}
		per[r] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / C->iters;
	}
	return bench_spread(per, C->runs);
}

/* ns per memcpy() of `bytes`, the floor any reader pays. */
static struct bench_spread
time_memcpy(size_t bytes)
{
	double per[MAX_RUNS];

	for (unsigned r = 0; r < C->runs; r++) {
		uint64_t t0 = rte_rdtsc_precise();

		for (unsigned i = 0; i < C->iters; i++) {
			memcpy(C->copy_dst, C->copy_src, bytes);
			/* The copy must not be hoisted out of the loop. */
			__asm__ volatile("" : : "r"(C->copy_dst) : "memory");
		}
		per[r] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / C->iters;
	}
	return bench_spread(per, C->runs);
}

static struct fastmib_segment *
make_segment(const struct fastmib_schema *schema, unsigned extra, const char *tag)
{
	struct fastmib_opts o = { .extra_threads = extra };
	struct fastmib_segment *seg;
	char path[128];

	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-%sreader-%d-%s", bench_tag(),
		 (int)getpid(), tag);
	if (fastmib_create(schema, path, &o, &seg) < 0) {
		fprintf(stderr, "fastmib_create: %s\n", fastmib_last_error());
		exit(1);
	}
	unlink(path);
	return seg;
}

/* 1. One snapshot, as a function of the number of lcore slots. */
static void
bench_snapshot(void)
{
	static const unsigned extras[] = { 1, 3, 7 };
	char buf[64];

	printf("\n-- one consistent snapshot (fastmib_read), idle writers; ns per call\n");
	for (unsigned k = 0; k < sizeof(extras) / sizeof(extras[0]); k++) {
		struct fastmib_segment *seg;
		struct fastmib_info info;
		char tag[16];

		snprintf(tag, sizeof(tag), "s%u", extras[k]);
		seg = make_segment(&bm_schema, extras[k], tag);
		fastmib_info(seg, &info);
		printf(" %u lcore slots (%u EAL lcores + %u extra)\n", info.n_slots,
		       rte_lcore_count(), extras[k]);
		print_row("per-core scalar group (2 counters)", "ns",
			  time_read(seg, BM_GROUP_PC_GLOBAL, 0), NULL);
		print_row("per-core table row (2 counters)", "ns",
			  time_read(seg, BM_GROUP_PC_FLOW, 7), NULL);
		snprintf(buf, sizeof(buf), "[%u x 16 B]", info.n_slots);
		print_row("  memcpy of the same bytes", "ns",
			  time_memcpy((size_t)info.n_slots * 16), buf);
		print_row("shared-buffered scalar group", "ns",
			  time_read(seg, BM_GROUP_SB_GLOBAL, 0), NULL);
		print_row("shared-buffered table row", "ns",
			  time_read(seg, BM_GROUP_SB_FLOW, 7), NULL);
		print_row("shared-atomic scalar group", "ns",
			  time_read(seg, BM_GROUP_AT_GLOBAL, 0), NULL);
		print_row("  memcpy of the same bytes", "ns", time_memcpy(16), "[16 B]");
		fastmib_close(seg);
	}
}

/* 2. The example's 65,536-row flow table, every row present, read the way
 * an SNMP walk does: next present row, then one snapshot of it. */
static void
bench_table(void)
{
	struct fastmib_segment *seg = make_segment(&ep_schema, 1, "ep");
	const uint32_t rows = EP_FLOW_ROWS;
	uint64_t v[FASTMIB_MAX_COUNTERS];
	double per[MAX_RUNS], cp[MAX_RUNS];
	struct bench_spread walk;
	size_t bytes = (size_t)rows * EP_FLOW_ROW_SIZE;
	char buf[64];

	for (uint32_t r = 0; r < rows; r++)
		if (fastmib_row_enable(seg, EP_GROUP_FLOW, r) < 0) {
			fprintf(stderr, "fastmib_row_enable: %s\n", fastmib_last_error());
			exit(1);
		}
	for (unsigned k = 0; k < C->runs; k++) {
		uint64_t t0 = rte_rdtsc_precise(), n = 0;

		for (int64_t r = fastmib_next_row(seg, EP_GROUP_FLOW, 0); r >= 0;
		     r = fastmib_next_row(seg, EP_GROUP_FLOW, (uint32_t)r + 1)) {
			if (fastmib_read(seg, EP_GROUP_FLOW, (uint32_t)r, v) != 0)
				abort();
			C->sink += v[0];
			n++;
		}
		per[k] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / 1e3;
		if (n != rows) {
			fprintf(stderr, "walked %" PRIu64 " rows, expected %u\n", n, rows);
			exit(1);
		}
		t0 = rte_rdtsc_precise();
		memcpy(C->copy_dst, C->copy_src, bytes);
		__asm__ volatile("" : : "r"(C->copy_dst) : "memory");
		cp[k] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / 1e3;
	}
	printf("\n-- whole flow table of the example model: %u rows x %u counters, "
	       "shared-buffered, all present\n", rows, 2u);
	walk = bench_spread(per, C->runs);
	snprintf(buf, sizeof(buf), "[%.1f ns per row]", walk.med * 1e3 / rows);
	print_row("next_row + fastmib_read, every row", "us", walk, buf);
	snprintf(buf, sizeof(buf), "[%zu B]", bytes);
	print_row("  memcpy of the same bytes", "us", bench_spread(cp, C->runs), buf);
	fastmib_close(seg);
}

/*
 * 3. Reads under maximum write load. The writer lcore runs one of:
 *   0: per-core transactions on pcGlobal + pcFlow row 7, back to back;
 *   1: shared-buffered transactions on sbGlobal + sbFlow row 7, each
 *      flushed at once (the seqlock is taken as often as possible);
 *   2: one per-core transaction that stays open until told to stop (a
 *      writer preempted or stopped mid-transaction), see bench_stalled();
 * with `gap_cycles` of waiting between transactions: 0 is the worst case
 * (the writer is inside its write section nearly all the time), 1000 is
 * the packet rate of the fast-path benchmark.
 */
static int
writer_main(void *arg)
{
	struct fastmib_writer *w = fastmib_writer(C->seg);
	uint64_t n = 0;

	(void)arg;
	if (w == NULL)
		return -1;
	if (C->writer_mode == 2) {
		fastmib_begin(w);
		bm_pc_global_pkts_add(w, 1);
		__atomic_store_n(&C->stalled, 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&C->stop, __ATOMIC_RELAXED))
			rte_pause();
		bm_pc_global_bytes_add(w, 100);
		fastmib_end(w);
		return 0;
	}
	while (!__atomic_load_n(&C->stop, __ATOMIC_RELAXED)) {
		for (unsigned i = 0; i < 64; i++, n++) {
			if (C->gap_cycles) {
				uint64_t until = rte_rdtsc() + C->gap_cycles;

				while (rte_rdtsc() < until)
					rte_pause();
			}
			fastmib_begin(w);
			if (C->writer_mode == 0) {
				bm_pc_global_pkts_add(w, 1);
				bm_pc_global_bytes_add(w, 100);
				bm_pc_flow_pkts_add(w, 7, 1);
				bm_pc_flow_bytes_add(w, 7, 100);
			} else {
				bm_sb_global_pkts_add(w, 1);
				bm_sb_global_bytes_add(w, 100);
				bm_sb_flow_pkts_add(w, 7, 1);
				bm_sb_flow_bytes_add(w, 7, 100);
			}
			fastmib_end(w);
			if (C->writer_mode == 1)
				fastmib_flush(w);
		}
	}
	fastmib_flush(w);
	return 0;
}

static void
bench_loaded_one(const char *what, int mode, unsigned group, uint32_t row)
{
	double per[MAX_RUNS], rpr[MAX_RUNS];
	struct bench_spread retries;
	uint64_t bounded = 0, torn = 0, total = 0;
	unsigned wl = rte_get_next_lcore(-1, 1, 0);
	char buf[96];

	C->writer_mode = mode;
	for (unsigned k = 0; k < C->runs; k++) {
		struct fastmib_read_stats s0, s1;
		uint64_t v[FASTMIB_MAX_COUNTERS], t0, t_end, n = 0;
		int rc;

		__atomic_store_n(&C->stop, 0, __ATOMIC_RELAXED);
		rte_eal_remote_launch(writer_main, NULL, wl);
		fastmib_read_stats(C->seg, &s0);
		t0 = rte_rdtsc_precise();
		t_end = t0 + rte_get_tsc_hz() / 1000 * C->load_ms;
		do {
			rc = fastmib_read(C->seg, group, row, v);
			if (rc == -EBUSY)
				bounded++;
			else if (rc != 0)
				abort();
			/* Both transactions add 100 bytes per packet: a consistent
			 * snapshot always has bytes == 100 * pkts. A read that gave
			 * up (-EBUSY) promises only untorn words, not consistency. */
			if (rc == 0 && v[1] != 100 * v[0])
				torn++;
			n++;
		} while (rte_rdtsc() < t_end);
		per[k] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / (double)n;
		total += n;
		fastmib_read_stats(C->seg, &s1);
		rpr[k] = (double)(s1.retries - s0.retries) / (double)(s1.reads - s0.reads);
		__atomic_store_n(&C->stop, 1, __ATOMIC_RELAXED);
		rte_eal_wait_lcore(wl);
	}
	retries = bench_spread(rpr, C->runs);
	snprintf(buf, sizeof(buf), "[retries/read %.2f (%.2f..%.2f), gave up %" PRIu64
		 " of %" PRIu64 ", inconsistent %" PRIu64 "]", retries.med, retries.lo,
		 retries.hi, bounded, total, torn);
	print_row(what, "ns", bench_spread(per, C->runs), buf);
	C->violations += torn;
}

/*
 * 4. The price of the bound: a writer stuck inside its transaction makes
 * every read of its rows give up. Time one such read (all attempts spent
 * on one slot) and check that it does give up.
 */
static void
bench_stalled(void)
{
	unsigned wl = rte_get_next_lcore(-1, 1, 0);
	const unsigned n = 2000;
	double per[MAX_RUNS];
	uint64_t v[FASTMIB_MAX_COUNTERS];

	C->writer_mode = 2;
	for (unsigned k = 0; k < C->runs; k++) {
		uint64_t t0;

		__atomic_store_n(&C->stop, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&C->stalled, 0, __ATOMIC_RELAXED);
		rte_eal_remote_launch(writer_main, NULL, wl);
		while (!__atomic_load_n(&C->stalled, __ATOMIC_ACQUIRE))
			rte_pause();
		t0 = rte_rdtsc_precise();
		for (unsigned i = 0; i < n; i++) {
			if (fastmib_read(C->seg, BM_GROUP_PC_GLOBAL, 0, v) != -EBUSY) {
				fprintf(stderr, "a read of a stalled writer's row did not give up\n");
				exit(1);
			}
			C->sink += v[0];
		}
		per[k] = (double)(rte_rdtsc_precise() - t0) * C->ns_per_cycle / 1e3 / n;
		__atomic_store_n(&C->stop, 1, __ATOMIC_RELAXED);
		rte_eal_wait_lcore(wl);
	}
	printf("\n-- writer stalled inside a transaction: every read gives up\n");
	print_row("per-core scalar group, one bounded read", "us",
		  bench_spread(per, C->runs), "[FASTMIB_READ_MAX_TRIES attempts]");
}

static void
bench_loaded(void)
{
	if (rte_lcore_count() < 2) {
		printf("\n-- reads under write load: skipped (needs a second lcore)\n");
		return;
	}
	C->seg = make_segment(&bm_schema, 1, "load");
	printf("\n-- reads under maximum write load (writer lcore hammering the rows read); "
	       "ns per fastmib_read\n");
	for (int k = 0; k < 2; k++) {
		C->gap_cycles = k == 0 ? 0 : 1000;
		printf(" writer: %s\n", k == 0 ? "back-to-back transactions (worst case)" :
		       "one transaction per 1000 TSC cycles (a packet of the fast-path benchmark)");
		bench_loaded_one("per-core scalar group", 0, BM_GROUP_PC_GLOBAL, 0);
		bench_loaded_one("per-core table row", 0, BM_GROUP_PC_FLOW, 7);
		bench_loaded_one("shared-buffered scalar group (flush per tx)", 1,
				 BM_GROUP_SB_GLOBAL, 0);
		bench_loaded_one("shared-buffered table row (flush per tx)", 1,
				 BM_GROUP_SB_FLOW, 7);
	}
	bench_stalled();
	fastmib_close(C->seg);
	C->seg = NULL;
}

static void
usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [--iters N] [--runs R] [--load-ms MS]\n"
	       "  --iters N    snapshots per timed loop (default 200000)\n"
	       "  --runs R     repetitions; median (min..max) reported (default 5)\n"
	       "  --load-ms MS length of each loaded measurement (default 200)\n",
	       prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iters", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'r' },
		{ "load-ms", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx ctx = { .iters = 200000, .runs = 5, .load_ms = 200 };
	int c;

	if (bench_help_asked(argc, argv)) {
		usage(argv[0]);
		return 0;
	}
	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'i': ctx.iters = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'r': ctx.runs = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'l': ctx.load_ms = (unsigned)strtoul(optarg, NULL, 0); break;
		default: usage("fastmib-bench-reader"); return 2;
		}
	}
	if (ctx.runs < 1 || ctx.runs > MAX_RUNS || ctx.iters < 1 || ctx.load_ms < 1) {
		fprintf(stderr, "runs must be 1..%d, iters and load-ms >= 1\n", MAX_RUNS);
		return 2;
	}
	ctx.ns_per_cycle = 1e9 / (double)rte_get_tsc_hz();
	ctx.copy_src = aligned_alloc(64, MAX_COPY);
	ctx.copy_dst = aligned_alloc(64, MAX_COPY);
	if (ctx.copy_src == NULL || ctx.copy_dst == NULL)
		return 1;
	memset(ctx.copy_src, 1, MAX_COPY);
	memset(ctx.copy_dst, 0, MAX_COPY);
	C = &ctx;

	printf("fastmib reader benchmark: TSC %.3f GHz, %u EAL lcores, %u runs\n",
	       (double)rte_get_tsc_hz() / 1e9, rte_lcore_count(), ctx.runs);
	bench_snapshot();
	bench_table();
	bench_loaded();
	printf("\n(checksum %" PRIu64 ")\n", ctx.sink);
	free(ctx.copy_src);
	free(ctx.copy_dst);
	rte_eal_cleanup();
	if (ctx.violations) {
		fprintf(stderr, "error: %" PRIu64 " inconsistent snapshots\n", ctx.violations);
		return 1;
	}
	return 0;
}
