/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fast-path counter benchmark: the Statistics chapter's setup (about 1000
 * cycles of memory-free domain work per packet, two global and two
 * per-flow counters updated per packet, 1024 flows with flow-to-lcore
 * affinity), run for every counter pattern side by side in one process,
 * against a no-statistics baseline measured in the same runs.
 *
 *   fastmib-bench-counters [EAL options] -- [--packets N] [--runs R] [--work N]
 *                                           [--only TEXT] [--tsv]
 *
 * Reports, per pattern, the median (and min..max over runs) overhead in TSC
 * cycles per counter update, and the fraction of lost global updates.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "bench_util.h"
#include "counters_bench.h"
#include "bp_stats.h"
#include "bs_stats.h"
#include "ba_stats.h"
#include "bm_stats.h"

#define MAX_RUNS 64
#define MAX_PATTERNS 64

struct bench *B;

/* ---- the patterns: one update of 2 global + 2 flow counters ---- */

/* The plain update, for the patterns that synchronize around it. */
static inline __attribute__((always_inline)) void
ep_add(struct ep_stats *s, uint32_t f, uint64_t sz)
{
	s->total_pkts++;
	s->total_bytes += sz;
	s->flows[f].pkts++;
	s->flows[f].bytes += sz;
}

static inline __attribute__((always_inline)) void
upd_nosync(unsigned lc, uint32_t f, uint64_t sz)
{
	struct ep_stats *s = &B->shared;

	(void)lc;
	/* Deliberately racy: the chapter's "shared non synchronized". */
	*(volatile uint64_t *)&s->total_pkts += 1;
	*(volatile uint64_t *)&s->total_bytes += sz;
	*(volatile uint64_t *)&s->flows[f].pkts += 1;
	*(volatile uint64_t *)&s->flows[f].bytes += sz;
}

static inline __attribute__((always_inline)) void
upd_spinlock(unsigned lc, uint32_t f, uint64_t sz)
{
	(void)lc;
	rte_spinlock_lock(&B->shared_lock);
	ep_add(&B->shared, f, sz);
	rte_spinlock_unlock(&B->shared_lock);
}

static inline __attribute__((always_inline)) void
upd_atomic(unsigned lc, uint32_t f, uint64_t sz)
{
	struct ep_stats *s = &B->shared;

	(void)lc;
	__atomic_fetch_add(&s->total_pkts, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->total_bytes, sz, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->flows[f].pkts, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->flows[f].bytes, sz, __ATOMIC_RELAXED);
}

static void
wb_apply(struct wb *wb, int force)
{
	if (force || wb->n == WB_SIZE)
		rte_spinlock_lock(&B->shared_lock);
	else if (!rte_spinlock_trylock(&B->shared_lock))
		return;
	for (uint32_t i = 0; i < wb->n; i++)
		*wb->ops[i].counter += wb->ops[i].operand;
	rte_spinlock_unlock(&B->shared_lock);
	wb->n = 0;
	wb->hints = 0;
}

static inline __attribute__((always_inline)) void
wb_push(struct wb *wb, uint64_t *c, uint64_t v)
{
	wb->ops[wb->n].counter = c;
	wb->ops[wb->n].operand = v;
	wb->n++;
}

static inline __attribute__((always_inline)) void
upd_buffered(unsigned lc, uint32_t f, uint64_t sz)
{
	struct wb *wb = &B->wbs[lc];
	struct ep_stats *s = &B->shared;

	if (WB_SIZE - wb->n < UPDATES_PER_PKT)
		wb_apply(wb, 1);
	else if (wb->n > WB_SOFT)
		wb_apply(wb, 0);
	wb_push(wb, &s->total_pkts, 1);
	wb_push(wb, &s->total_bytes, sz);
	wb_push(wb, &s->flows[f].pkts, 1);
	wb_push(wb, &s->flows[f].bytes, sz);
}

static inline __attribute__((always_inline)) void
add_relaxed(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void
upd_percore(unsigned lc, uint32_t f, uint64_t sz)
{
	struct ep_stats *s = &B->percore[lc];

	add_relaxed(&s->total_pkts, 1);
	add_relaxed(&s->total_bytes, sz);
	add_relaxed(&s->flows[f].pkts, 1);
	add_relaxed(&s->flows[f].bytes, sz);
}

static inline __attribute__((always_inline)) void
upd_percore_sl(unsigned lc, uint32_t f, uint64_t sz)
{
	struct ep_stats_sl *s = &B->percore_sl[lc];

	rte_spinlock_lock(&s->lock);
	ep_add(&s->s, f, sz);
	rte_spinlock_unlock(&s->lock);
}

static inline __attribute__((always_inline)) void
upd_percore_sc(unsigned lc, uint32_t f, uint64_t sz)
{
	struct ep_stats_sc *s = &B->percore_sc[lc];

	rte_seqcount_write_begin(&s->sc);
	ep_add(&s->s, f, sz);
	rte_seqcount_write_end(&s->sc);
}

/* Inside a lock or write section held for the whole burst. */
static inline __attribute__((always_inline)) void
upd_percore_sl_nt(unsigned lc, uint32_t f, uint64_t sz)
{
	ep_add(&B->percore_sl[lc].s, f, sz);
}

static inline __attribute__((always_inline)) void
upd_percore_sc_nt(unsigned lc, uint32_t f, uint64_t sz)
{
	ep_add(&B->percore_sc[lc].s, f, sz);
}

static inline __attribute__((always_inline)) void
upd_none(unsigned lc, uint32_t f, uint64_t sz)
{
	(void)lc;
	/* Compute the flow and size like every pattern does, use neither. */
	__asm__ volatile("" : : "r"(f), "r"(sz));
}

/* ---- one loop per pattern, so every update is inlined ---- */

#define DEFINE_PLAIN(name, PRE, fn, BURST_END, POST)                          \
	static int run_##name(void *arg)                                      \
	{                                                                     \
		(void)arg;                                                    \
		PRE;                                                          \
		PKT_LOOP(fn(lc, f, sz), BURST_END);                           \
		POST;                                                         \
		return 0;                                                     \
	}

#define NOTHING (void)0

DEFINE_PLAIN(none, NOTHING, upd_none, NOTHING, NOTHING)
DEFINE_PLAIN(nosync, NOTHING, upd_nosync, NOTHING, NOTHING)
DEFINE_PLAIN(spinlock, NOTHING, upd_spinlock, NOTHING, NOTHING)
DEFINE_PLAIN(atomic, NOTHING, upd_atomic, NOTHING, NOTHING)
/* The chapter's hint: one call per burst, a try-flush every WB_HINTS
 * bursts; whatever is still buffered at the end is applied (not timed). */
DEFINE_PLAIN(buffered, NOTHING, upd_buffered,
	     ({ struct wb *wb = &B->wbs[lc];
		if (++wb->hints >= WB_HINTS) wb_apply(wb, 0); }),
	     wb_apply(&B->wbs[rte_lcore_id()], 1))
DEFINE_PLAIN(percore, NOTHING, upd_percore, NOTHING, NOTHING)
DEFINE_PLAIN(percore_sl, NOTHING, upd_percore_sl, NOTHING, NOTHING)
DEFINE_PLAIN(percore_sc, NOTHING, upd_percore_sc, NOTHING, NOTHING)
/* The same two per-core patterns with the lock or the write section taken
 * once per burst of 32 packets. */
DEFINE_PLAIN(percore_sl_b, rte_spinlock_lock(&B->percore_sl[rte_lcore_id()].lock),
	     upd_percore_sl_nt,
	     ({ rte_spinlock_unlock(&B->percore_sl[lc].lock);
		rte_spinlock_lock(&B->percore_sl[lc].lock); }),
	     rte_spinlock_unlock(&B->percore_sl[rte_lcore_id()].lock))
DEFINE_PLAIN(percore_sc_b, rte_seqcount_write_begin(&B->percore_sc[rte_lcore_id()].sc),
	     upd_percore_sc_nt,
	     ({ rte_seqcount_write_end(&B->percore_sc[lc].sc);
		rte_seqcount_write_begin(&B->percore_sc[lc].sc); }),
	     rte_seqcount_write_end(&B->percore_sc[rte_lcore_id()].sc))

/* ---- lost-update accounting ---- */

static uint64_t
total_pkts(enum total_src src)
{
	uint64_t sum = 0, v[2];
	unsigned lc;

	switch (src) {
	case T_NONE:
		return 0;
	case T_SHARED:
		return B->shared.total_pkts;
	case T_PERCORE:
	case T_PERCORE_SL:
	case T_PERCORE_SC:
		RTE_LCORE_FOREACH(lc) {
			sum += src == T_PERCORE ? B->percore[lc].total_pkts :
			       src == T_PERCORE_SL ? B->percore_sl[lc].s.total_pkts :
			       B->percore_sc[lc].s.total_pkts;
		}
		return sum;
	case T_FM_PC:
		return fastmib_read_raw(B->seg[FM_PC], BP_GROUP_PC_GLOBAL, 0, v) ? 0 : v[0];
	case T_FM_SB:
		return fastmib_read_raw(B->seg[FM_SB], BS_GROUP_SB_GLOBAL, 0, v) ? 0 : v[0];
	case T_FM_AT:
		return fastmib_read_raw(B->seg[FM_AT], BA_GROUP_AT_GLOBAL, 0, v) ? 0 : v[0];
	case T_FM_MIXED:
		return fastmib_read_raw(B->seg[FM_MIXED], BM_GROUP_PC_GLOBAL, 0, v) ? 0 : v[0];
	}
	return 0;
}

struct pattern {
	const char *name;
	lcore_function_t *fn;
	enum total_src src;
	double over[MAX_RUNS]; /* cycles per counter update, per run (trimmed) */
	double over_raw[MAX_RUNS]; /* same, whole run including preemptions */
	double excl[MAX_RUNS]; /* fraction of bursts left out of `over` */
	double lost[MAX_RUNS];
	int racy; /* loses updates by design */
	int selected;
};

/* The chapter's hand-written patterns; the generated ones follow, from
 * fm_patterns.c (both builds). */
static const struct pattern_def hand_written[] = {
	{ "shared non-synchronized", run_nosync, T_SHARED },
	{ "shared spinlock", run_spinlock, T_SHARED },
	{ "shared atomics", run_atomic, T_SHARED },
	{ "shared buffered (chapter)", run_buffered, T_SHARED },
	{ "per core", run_percore, T_PERCORE },
	{ "per core spinlock", run_percore_sl, T_PERCORE_SL },
	{ "per core spinlock, lock/burst", run_percore_sl_b, T_PERCORE_SL },
	{ "per core seqcount", run_percore_sc, T_PERCORE_SC },
	{ "per core seqcount, tx/burst", run_percore_sc_b, T_PERCORE_SC },
	{ NULL, NULL, T_NONE },
};

static struct pattern patterns[MAX_PATTERNS];
static unsigned n_patterns;

static void
add_patterns(const struct pattern_def *d)
{
	for (; d->name != NULL && n_patterns < MAX_PATTERNS; d++) {
		struct pattern *p = &patterns[n_patterns++];

		p->name = d->name;
		p->fn = d->fn;
		p->src = d->src;
		p->racy = d->fn == run_nosync;
	}
}

/* --only TEXT: the pattern named TEXT if there is one, else every pattern
 * whose name contains TEXT (all without --only). */
static void
select_patterns(const char *only)
{
	int exact = 0;

	for (unsigned i = 0; only != NULL && i < n_patterns; i++)
		exact |= strcmp(patterns[i].name, only) == 0;
	for (unsigned i = 0; i < n_patterns; i++)
		patterns[i].selected = only == NULL ||
			(exact ? strcmp(patterns[i].name, only) == 0 :
				 strstr(patterns[i].name, only) != NULL);
}

struct run_result {
	double raw;      /* cycles per packet, whole run */
	double trimmed;  /* cycles per packet, preempted bursts left out */
	double excluded; /* fraction of bursts left out */
};

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Other processes share these 2 CPUs: a burst during which the lcore was
 * preempted costs milliseconds instead of ~32k cycles. Bursts longer than
 * twice the median are left out of the trimmed figure; write-buffer
 * flushes (a few thousand cycles) stay well below that limit and count.
 */
static double
trimmed_mean(uint32_t *bt, uint64_t n, uint64_t *left_out)
{
	uint64_t limit, sum = 0, kept = 0;

	qsort(bt, n, sizeof(*bt), cmp_u32);
	limit = 2ull * bt[n / 2];
	for (uint64_t i = 0; i < n; i++)
		if (bt[i] <= limit) {
			sum += bt[i];
			kept++;
		}
	*left_out += n - kept;
	return (double)sum / (double)kept;
}

static struct run_result
run_once(lcore_function_t *fn)
{
	struct run_result r = { 0, 0, 0 };
	uint64_t n_bursts = B->packets / BURST, left_out = 0;
	unsigned lc;

	memset(B->cycles, 0, sizeof(B->cycles));
	rte_eal_mp_remote_launch(fn, NULL, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	RTE_LCORE_FOREACH(lc) {
		r.raw += (double)B->cycles[lc] / (double)B->packets;
		r.trimmed += trimmed_mean(B->bursts[lc], n_bursts, &left_out) / BURST;
	}
	r.raw /= B->n_workers;
	r.trimmed /= B->n_workers;
	r.excluded = (double)left_out / (double)(n_bursts * B->n_workers);
	return r;
}

static void
reset_state(void)
{
	memset(&B->shared, 0, sizeof(B->shared));
	memset(B->percore, 0, sizeof(B->percore));
	memset(B->percore_sl, 0, sizeof(B->percore_sl));
	memset(B->percore_sc, 0, sizeof(B->percore_sc));
	memset(B->wbs, 0, sizeof(B->wbs));
}

/*
 * Iterations of domain_work() that take about `cycles` TSC cycles here.
 * The TSC ticks at a fixed rate that need not be the core clock (on this
 * kind of VM the core runs faster), so the iteration count is measured
 * rather than assumed; best of several tries, to dodge preemption.
 */
static unsigned int
calibrate_work(uint64_t cycles)
{
	const unsigned int n = 100000;
	uint64_t best = UINT64_MAX, x = 1;

	for (int i = 0; i < 20; i++) {
		uint64_t t0 = rte_rdtsc_precise(), t;

		x = domain_work(x, n);
		t = rte_rdtsc_precise() - t0;
		if (t < best)
			best = t;
	}
	__asm__ volatile("" : : "r"(x));
	return (unsigned int)((double)cycles * n / (double)best + 0.5);
}

static void
usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [--packets N] [--runs R] [--work N] [--only TEXT]\n"
	       "                              [--tsv]\n"
	       "  --packets N  packets per worker lcore and run (default 1000000)\n"
	       "  --runs R     repetitions, median and spread reported (default 5)\n"
	       "  --work N     domain-work iterations per packet (default: as many as take\n"
	       "               1000 TSC cycles, measured at start)\n"
	       "  --only TEXT  run only the pattern named TEXT, or if none is, the patterns\n"
	       "               whose name contains TEXT\n"
	       "  --tsv        print the results as tab-separated values (name, median,\n"
	       "               min, max, untrimmed median, lost %%, left out %%)\n",
	       prog);
}

static int
create_segment(enum fm_model m, const struct fastmib_schema *schema)
{
	char path[128];

	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-%s%d-%s", bench_tag(), (int)getpid(),
		 schema->prefix);
	if (fastmib_create(schema, path, NULL, &B->seg[m]) < 0) {
		fprintf(stderr, "fastmib_create: %s\n", fastmib_last_error());
		return -1;
	}
	unlink(path); /* mapped; the file itself is not needed */
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "packets", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'r' },
		{ "work", required_argument, NULL, 'w' },
		{ "only", required_argument, NULL, 'o' },
		{ "tsv", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t packets = 1000000;
	unsigned runs = 5, work = 0;
	static double base[MAX_RUNS * MAX_PATTERNS];
	unsigned n_base = 0;
	int failed = 0, tsv = 0;
	const char *only = NULL;
	struct bench_spread bs;
	int c;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(argv[0]);
			return 0;
		}
	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': packets = strtoull(optarg, NULL, 0); break;
		case 'r': runs = (unsigned)atoi(optarg); break;
		case 'w': work = (unsigned)atoi(optarg); break;
		case 'o': only = optarg; break;
		case 't': tsv = 1; break;
		default: usage("fastmib-bench-counters"); return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || packets < BURST) {
		fprintf(stderr, "runs must be 1..%d and packets >= %d\n", MAX_RUNS, BURST);
		return 2;
	}
	packets -= packets % BURST;
	if (work == 0)
		work = calibrate_work(1000);
	add_patterns(hand_written);
	add_patterns(fm_patterns_x86);
	add_patterns(fm_patterns_portable);
	select_patterns(only);

	B = aligned_alloc(64, (sizeof(*B) + 63) & ~(size_t)63);
	if (B == NULL)
		return 1;
	memset(B, 0, sizeof(*B));
	rte_spinlock_init(&B->shared_lock);
	B->packets = packets;
	B->work = work;
	B->n_workers = rte_lcore_count();
	{
		unsigned lc;

		RTE_LCORE_FOREACH(lc) {
			B->bursts[lc] = calloc(packets / BURST, sizeof(uint32_t));
			if (B->bursts[lc] == NULL)
				return 1;
		}
	}
	if (create_segment(FM_PC, &bp_schema) < 0 || create_segment(FM_SB, &bs_schema) < 0 ||
	    create_segment(FM_AT, &ba_schema) < 0 || create_segment(FM_MIXED, &bm_schema) < 0)
		return 1;

	printf("fastmib fast-path counter benchmark\n"
	       "  worker lcores %u, packets per lcore %" PRIu64 ", runs %u, "
	       "%d counter updates per packet (2 global, 2 per flow), %d flows\n"
	       "  domain work %u iterations per packet, TSC %.3f GHz\n",
	       B->n_workers, packets, runs, UPDATES_PER_PKT, N_FLOWS, work,
	       (double)rte_get_tsc_hz() / 1e9);

	/* Each pattern run is paired with a baseline run just before it, so
	 * slow drifts of the machine (other load, frequency) cancel out. */
	for (unsigned r = 0; r < runs; r++) {
		for (unsigned i = 0; i < n_patterns; i++) {
			struct pattern *p = &patterns[i];
			struct run_result b, x;
			uint64_t before, after;

			if (!p->selected)
				continue;
			b = run_once(run_none);
			base[n_base++] = b.trimmed;
			reset_state();
			before = total_pkts(p->src);
			x = run_once(p->fn);
			after = total_pkts(p->src);
			p->over[r] = (x.trimmed - b.trimmed) / UPDATES_PER_PKT;
			p->over_raw[r] = (x.raw - b.raw) / UPDATES_PER_PKT;
			p->excl[r] = x.excluded;
			p->lost[r] = 1.0 - (double)(after - before) /
				     ((double)packets * B->n_workers);
			if (!p->racy && after - before != packets * B->n_workers) {
				fprintf(stderr, "error: %s counted %" PRIu64 " of %" PRIu64
					" packets\n", p->name, after - before,
					packets * B->n_workers);
				failed = 1;
			}
		}
	}

	if (n_base == 0) {
		fprintf(stderr, "no pattern matches --only %s\n", only);
		return 2;
	}
	bs = bench_spread(base, n_base);
	printf("  baseline (no statistics): %.0f cycles per packet (%.0f..%.0f)\n\n", bs.med,
	       bs.lo, bs.hi);
	if (!tsv)
		printf("%-52s %10s %15s %10s %10s %9s\n", "pattern", "cycles/upd", "(min..max)",
		       "untrimmed", "lost", "left out");
	for (unsigned i = 0; i < n_patterns; i++) {
		struct pattern *p = &patterns[i];
		double untrimmed, lost, excl;

		if (!p->selected)
			continue;
		bs = bench_spread(p->over, runs);
		untrimmed = bench_spread(p->over_raw, runs).med;
		lost = bench_spread(p->lost, runs).med * 100.0;
		excl = bench_spread(p->excl, runs).med * 100.0;
		if (tsv)
			printf("%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.4f\t%.2f\n", p->name, bs.med, bs.lo,
			       bs.hi, untrimmed, lost, excl);
		else
			printf("%-52s %10.1f %7.1f..%-7.1f %10.1f %9.4f%% %8.2f%%\n", p->name,
			       bs.med, bs.lo, bs.hi, untrimmed, lost, excl);
	}
	for (unsigned m = 0; m < FM_N_MODELS; m++)
		fastmib_close(B->seg[m]);
	rte_eal_cleanup();
	return failed;
}
