/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fast-path counter benchmark: the Statistics chapter's setup (about 1000
 * cycles of memory-free domain work per packet, two global and two
 * per-flow counters updated per packet, 1024 flows with flow-to-lcore
 * affinity), run for every counter pattern side by side in one process,
 * against a no-statistics baseline measured in the same runs.
 *
 *   fastmib-bench-counters [EAL options] -- [--packets N] [--runs R] [--work N]
 *                                           [--only TEXT]
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

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_seqcount.h>
#include <rte_spinlock.h>

#include "bench_util.h"
#include "bm_stats.h"

#define N_FLOWS 1024
#define BURST 32
#define UPDATES_PER_PKT 4
#define MAX_RUNS 64

/* ---- the chapter's data model ---- */

struct flow_ctr {
	uint64_t pkts;
	uint64_t bytes;
};

struct ep_stats {
	struct flow_ctr flows[N_FLOWS];
	uint64_t total_pkts;
	uint64_t total_bytes;
} __rte_cache_aligned;

struct ep_stats_sc {
	rte_seqcount_t sc;
	struct ep_stats s;
} __rte_cache_aligned;

struct ep_stats_sl {
	rte_spinlock_t lock;
	struct ep_stats s;
} __rte_cache_aligned;

/* Chapter-style per-lcore write buffer of (counter address, operand). */
#define WB_SIZE 1024
#define WB_SOFT (WB_SIZE / 2)
#define WB_HINTS 64

struct wb_op {
	uint64_t *counter;
	uint64_t operand;
};

struct wb {
	uint32_t n;
	uint32_t hints;
	struct wb_op ops[WB_SIZE];
} __rte_cache_aligned;

/* Everything the patterns update; per-lcore arrays indexed by lcore id. */
struct bench {
	struct ep_stats shared;
	rte_spinlock_t shared_lock __rte_cache_aligned;
	struct ep_stats percore[RTE_MAX_LCORE];
	struct ep_stats_sl percore_sl[RTE_MAX_LCORE];
	struct ep_stats_sc percore_sc[RTE_MAX_LCORE];
	struct wb wbs[RTE_MAX_LCORE];
	struct fastmib_segment *seg;
	uint64_t packets;
	unsigned int work;
	unsigned int n_workers;
	uint64_t cycles[RTE_MAX_LCORE]; /* per run, per lcore */
	uint32_t *bursts[RTE_MAX_LCORE]; /* per run, per lcore: cycles of each burst */
};

static struct bench *B;

/* A dependent multiply-add chain (~4 core cycles per iteration), no memory. */
static inline __attribute__((always_inline)) uint64_t
domain_work(uint64_t x, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static inline uint64_t
xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

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

static inline __attribute__((always_inline)) void
upd_none(unsigned lc, uint32_t f, uint64_t sz)
{
	(void)lc;
	/* Compute the flow and size like every pattern does, use neither. */
	__asm__ volatile("" : : "r"(f), "r"(sz));
}

/* fastmib, generated code. The updates alone, outside any transaction:
 * per-burst transactions put begin/end around the whole burst. */
static inline __attribute__((always_inline)) void
upd_fm_pc_nt(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	bm_pc_global_pkts_add(w, 1);
	bm_pc_global_bytes_add(w, sz);
	bm_pc_flow_pkts_add(w, f, 1);
	bm_pc_flow_bytes_add(w, f, sz);
}

static inline __attribute__((always_inline)) void
upd_fm_sb_nt(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	bm_sb_global_pkts_add(w, 1);
	bm_sb_global_bytes_add(w, sz);
	bm_sb_flow_pkts_add(w, f, 1);
	bm_sb_flow_bytes_add(w, f, sz);
}

/* One transaction per packet. */
static inline __attribute__((always_inline)) void
upd_fm_pc(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	fastmib_begin(w);
	upd_fm_pc_nt(w, f, sz);
	fastmib_end(w);
}

static inline __attribute__((always_inline)) void
upd_fm_sb(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	fastmib_begin(w);
	upd_fm_sb_nt(w, f, sz);
	fastmib_end(w);
}

/* Shared-atomic counters need no transaction. */
static inline __attribute__((always_inline)) void
upd_fm_at(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	bm_at_global_pkts_add(w, 1);
	bm_at_global_bytes_add(w, sz);
	bm_at_flow_pkts_add(w, f, 1);
	bm_at_flow_bytes_add(w, f, sz);
}

/* ---- one loop per pattern, so every update is inlined ---- */

static unsigned int
worker_index(void)
{
	return rte_lcore_index(rte_lcore_id());
}

#define PKT_LOOP(BODY, BURST_END)                                             \
	do {                                                                  \
		unsigned int lc = rte_lcore_id();                             \
		unsigned int wi = worker_index();                             \
		uint64_t rng = 0x9e3779b97f4a7c15ull * (wi + 1);              \
		uint64_t x = wi;                                              \
		const uint64_t n_pkts = B->packets;                           \
		const unsigned int work = B->work;                            \
		const unsigned int nw = B->n_workers;                         \
		const uint32_t my_flows = N_FLOWS / nw;                       \
		uint32_t *bt = B->bursts[lc];                                 \
		uint64_t t0 = rte_rdtsc_precise(), tb = t0;                   \
		for (uint64_t p = 0; p < n_pkts; p += BURST) {                \
			for (unsigned int k = 0; k < BURST; k++) {            \
				uint64_t r = xorshift(&rng);                  \
				uint32_t f = (uint32_t)(r % my_flows) * nw + wi; \
				uint64_t sz = 64 + (r >> 54);                 \
				x = domain_work(x, work);                     \
				BODY;                                         \
			}                                                     \
			BURST_END;                                            \
			uint64_t te = rte_rdtsc();                            \
			bt[p / BURST] = (uint32_t)(te - tb);                  \
			tb = te;                                              \
		}                                                             \
		B->cycles[lc] = rte_rdtsc_precise() - t0;                     \
		__asm__ volatile("" : : "r"(x));                              \
		(void)lc;                                                     \
	} while (0)

#define DEFINE_PLAIN(name, fn, burst_end, post)                               \
	static int run_##name(void *arg)                                      \
	{                                                                     \
		(void)arg;                                                    \
		PKT_LOOP(fn(lc, f, sz), burst_end);                           \
		post;                                                         \
		return 0;                                                     \
	}

#define DEFINE_FM(name, fn, pre, burst_end, post)                             \
	static int run_##name(void *arg)                                      \
	{                                                                     \
		struct fastmib_writer *w = fastmib_writer(B->seg);            \
		(void)arg;                                                    \
		if (w == NULL)                                                \
			return -1;                                            \
		pre;                                                          \
		PKT_LOOP(fn(w, f, sz), burst_end);                            \
		post;                                                         \
		fastmib_flush(w);                                             \
		return 0;                                                     \
	}

DEFINE_PLAIN(none, upd_none, (void)0, (void)0)
DEFINE_PLAIN(nosync, upd_nosync, (void)0, (void)0)
DEFINE_PLAIN(spinlock, upd_spinlock, (void)0, (void)0)
DEFINE_PLAIN(atomic, upd_atomic, (void)0, (void)0)
/* The chapter's hint: one call per burst, a try-flush every WB_HINTS
 * bursts; whatever is still buffered at the end is applied (not timed). */
DEFINE_PLAIN(buffered, upd_buffered,
	     ({ struct wb *wb = &B->wbs[lc];
		if (++wb->hints >= WB_HINTS) wb_apply(wb, 0); }),
	     wb_apply(&B->wbs[rte_lcore_id()], 1))
DEFINE_PLAIN(percore, upd_percore, (void)0, (void)0)
DEFINE_PLAIN(percore_sl, upd_percore_sl, (void)0, (void)0)
DEFINE_PLAIN(percore_sc, upd_percore_sc, (void)0, (void)0)
DEFINE_FM(fm_pc, upd_fm_pc, (void)0, (void)0, (void)0)
DEFINE_FM(fm_sb, upd_fm_sb, (void)0, (void)0, (void)0)
DEFINE_FM(fm_at, upd_fm_at, (void)0, (void)0, (void)0)
/* One transaction per burst of 32 packets. */
DEFINE_FM(fm_pc_b, upd_fm_pc_nt, fastmib_begin(w),
	  ({ fastmib_end(w); fastmib_begin(w); }), fastmib_end(w))
DEFINE_FM(fm_sb_b, upd_fm_sb_nt, fastmib_begin(w),
	  ({ fastmib_end(w); fastmib_begin(w); }), fastmib_end(w))

/* ---- lost-update accounting ---- */

enum total_src { T_NONE, T_SHARED, T_PERCORE, T_PERCORE_SL, T_PERCORE_SC,
		 T_FM_PC, T_FM_SB, T_FM_AT };

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
		return fastmib_read_raw(B->seg, BM_GROUP_PC_GLOBAL, 0, v) ? 0 : v[0];
	case T_FM_SB:
		return fastmib_read_raw(B->seg, BM_GROUP_SB_GLOBAL, 0, v) ? 0 : v[0];
	case T_FM_AT:
		return fastmib_read_raw(B->seg, BM_GROUP_AT_GLOBAL, 0, v) ? 0 : v[0];
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
};

static struct pattern patterns[] = {
	{ .name = "shared non-synchronized", .fn = run_nosync, .src = T_SHARED, .racy = 1 },
	{ .name = "shared spinlock", .fn = run_spinlock, .src = T_SHARED },
	{ .name = "shared atomics", .fn = run_atomic, .src = T_SHARED },
	{ .name = "shared buffered (chapter)", .fn = run_buffered, .src = T_SHARED },
	{ .name = "per core", .fn = run_percore, .src = T_PERCORE },
	{ .name = "per core spinlock", .fn = run_percore_sl, .src = T_PERCORE_SL },
	{ .name = "per core seqcount", .fn = run_percore_sc, .src = T_PERCORE_SC },
	{ .name = "fastmib per-core", .fn = run_fm_pc, .src = T_FM_PC },
	{ .name = "fastmib shared-buffered", .fn = run_fm_sb, .src = T_FM_SB },
	{ .name = "fastmib shared-atomic", .fn = run_fm_at, .src = T_FM_AT },
	{ .name = "fastmib per-core, tx/burst", .fn = run_fm_pc_b, .src = T_FM_PC },
	{ .name = "fastmib shared-buffered, tx/burst", .fn = run_fm_sb_b, .src = T_FM_SB },
};
#define N_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))

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
	       "  --packets N  packets per worker lcore and run (default 1000000)\n"
	       "  --runs R     repetitions, median and spread reported (default 5)\n"
	       "  --work N     domain-work iterations per packet (default: as many as take\n"
	       "               1000 TSC cycles, measured at start)\n"
	       "  --only TEXT  run only the patterns whose name contains TEXT\n",
	       prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "packets", required_argument, NULL, 'p' },
		{ "runs", required_argument, NULL, 'r' },
		{ "work", required_argument, NULL, 'w' },
		{ "only", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t packets = 1000000;
	unsigned runs = 5, work = 0;
	char path[64];
	static double base[MAX_RUNS * 16];
	unsigned n_base = 0;
	int failed = 0;
	const char *only = NULL;
	struct bench_spread bs;
	int ret, c;

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

	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-%d", (int)getpid());
	ret = fastmib_create(&bm_schema, path, NULL, &B->seg);
	if (ret < 0) {
		fprintf(stderr, "fastmib_create: %s\n", fastmib_last_error());
		return 1;
	}
	unlink(path); /* mapped; the file itself is not needed */

	printf("fastmib fast-path counter benchmark\n"
	       "  worker lcores %u, packets per lcore %" PRIu64 ", runs %u, "
	       "%d counter updates per packet (2 global, 2 per flow), %d flows\n"
	       "  domain work %u iterations per packet, TSC %.3f GHz\n",
	       B->n_workers, packets, runs, UPDATES_PER_PKT, N_FLOWS, work,
	       (double)rte_get_tsc_hz() / 1e9);

	/* Each pattern run is paired with a baseline run just before it, so
	 * slow drifts of the machine (other load, frequency) cancel out. */
	for (unsigned r = 0; r < runs; r++) {
		for (unsigned i = 0; i < N_PATTERNS; i++) {
			struct pattern *p = &patterns[i];
			struct run_result b, x;
			uint64_t before, after;

			if (only != NULL && strstr(p->name, only) == NULL)
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

	bs = bench_spread(base, n_base);
	printf("  baseline (no statistics): %.0f cycles per packet (%.0f..%.0f)\n\n", bs.med,
	       bs.lo, bs.hi);
	printf("%-34s %10s %15s %10s %10s %9s\n", "pattern", "cycles/upd", "(min..max)",
	       "untrimmed", "lost", "left out");
	for (unsigned i = 0; i < N_PATTERNS; i++) {
		struct pattern *p = &patterns[i];

		if (only != NULL && strstr(p->name, only) == NULL)
			continue;
		bs = bench_spread(p->over, runs);
		printf("%-34s %10.1f %7.1f..%-7.1f %10.1f %9.4f%% %8.2f%%\n", p->name, bs.med,
		       bs.lo, bs.hi, bench_spread(p->over_raw, runs).med,
		       bench_spread(p->lost, runs).med * 100.0,
		       bench_spread(p->excl, runs).med * 100.0);
	}
	fastmib_close(B->seg);
	rte_eal_cleanup();
	return failed;
}
