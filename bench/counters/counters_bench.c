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
 * With two lcores or more, the main lcore is a reader: while the workers
 * run a pattern it reads their counters the way that pattern lets a
 * reader (fastmib_read() for fastmib's), so every figure comes with what a
 * concurrent reader got.
 *
 * Reports, per pattern, the median (and min..max over runs) overhead in TSC
 * cycles per counter update, the fraction of lost global updates, the
 * share of reads that got a consistent snapshot and the reader's median
 * and 99th-percentile latency.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_pause.h>

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
	enum reader_kind reader;
	double consistent[MAX_RUNS]; /* share of reads with a consistent snapshot */
	double rd_p50[MAX_RUNS], rd_p99[MAX_RUNS]; /* reader latency, ns */
	uint64_t reads[MAX_RUNS];
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
	{ "shared non-synchronized", run_nosync, T_SHARED, R_COUNTER },
	{ "shared spinlock", run_spinlock, T_SHARED, R_SHARED_SL },
	{ "shared atomics", run_atomic, T_SHARED, R_COUNTER },
	{ "shared buffered (chapter)", run_buffered, T_SHARED, R_SHARED_SL },
	{ "per core", run_percore, T_PERCORE, R_COUNTER },
	{ "per core spinlock", run_percore_sl, T_PERCORE_SL, R_SL },
	{ "per core spinlock, lock/burst", run_percore_sl_b, T_PERCORE_SL, R_SL },
	{ "per core seqcount", run_percore_sc, T_PERCORE_SC, R_SC },
	{ "per core seqcount, tx/burst", run_percore_sc_b, T_PERCORE_SC, R_SC },
	{ NULL, NULL, T_NONE, R_COUNTER },
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
		p->reader = d->reader;
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

/* ---- the reader lcore ---- */

/* Reader latencies in a log-scale histogram: 16 buckets per power of two
 * of TSC cycles (4.4 % wide), enough for a median and a 99th percentile. */
#define LAT_SUB 16
#define LAT_BUCKETS (64 * LAT_SUB)

struct reader_run {
	uint64_t reads, consistent;
	uint64_t hist[LAT_BUCKETS];
};

static unsigned
lat_bucket(uint64_t c)
{
	unsigned e;

	if (c < LAT_SUB)
		return (unsigned)c;
	e = 63u - (unsigned)__builtin_clzll(c); /* c in [2^e, 2^(e+1)) */
	return e * LAT_SUB + (unsigned)((c >> (e - 4)) & (LAT_SUB - 1));
}

/* The lower edge, in cycles, of bucket b. */
static double
lat_value(unsigned b)
{
	unsigned e = b / LAT_SUB, m = b % LAT_SUB;

	if (e < 4)
		return b;
	return (double)(1ull << e) * (1.0 + (double)m / LAT_SUB);
}

static double
lat_quantile(const struct reader_run *rr, double q)
{
	uint64_t want = (uint64_t)(q * (double)rr->reads), seen = 0;

	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		seen += rr->hist[b];
		if (seen > want)
			return lat_value(b) * 1e9 / (double)rte_get_tsc_hz();
	}
	return 0;
}

static struct fastmib_segment *
segment_of(enum total_src src, unsigned *global, unsigned *flow)
{
	switch (src) {
	case T_FM_PC:
		*global = BP_GROUP_PC_GLOBAL;
		*flow = BP_GROUP_PC_FLOW;
		return B->seg[FM_PC];
	case T_FM_SB:
		*global = BS_GROUP_SB_GLOBAL;
		*flow = BS_GROUP_SB_FLOW;
		return B->seg[FM_SB];
	case T_FM_AT:
		*global = BA_GROUP_AT_GLOBAL;
		*flow = BA_GROUP_AT_FLOW;
		return B->seg[FM_AT];
	case T_FM_MIXED:
		*global = BM_GROUP_PC_GLOBAL;
		*flow = BM_GROUP_PC_FLOW;
		return B->seg[FM_MIXED];
	default:
		return NULL;
	}
}

/*
 * One read of the two totals and one flow's two counters, as pattern
 * kind `k` lets a reader take it; 1 when the snapshot is consistent.
 * `lc` is a worker lcore (whose block the chapter's per-core readers
 * read), `f` a flow.
 */
static int
read_once(enum reader_kind k, enum total_src src, unsigned lc, uint32_t f)
{
	uint64_t v[4] = { 0, 0, 0, 0 };
	unsigned global = 0, flow = 0;
	int ok = 1;

	switch (k) {
	case R_FM: {
		struct fastmib_segment *seg = segment_of(src, &global, &flow);

		ok = fastmib_read(seg, global, 0, v) == 0;
		ok &= fastmib_read(seg, flow, f, v + 2) == 0;
		break;
	}
	case R_SC: {
		struct ep_stats_sc *s = &B->percore_sc[lc];
		int t;

		for (t = 0; t < FASTMIB_READ_MAX_TRIES; t++) {
			uint32_t sn = rte_seqcount_read_begin(&s->sc);

			if (sn & 1) {
				rte_pause();
				continue;
			}
			v[0] = __atomic_load_n(&s->s.total_pkts, __ATOMIC_RELAXED);
			v[1] = __atomic_load_n(&s->s.total_bytes, __ATOMIC_RELAXED);
			v[2] = __atomic_load_n(&s->s.flows[f].pkts, __ATOMIC_RELAXED);
			v[3] = __atomic_load_n(&s->s.flows[f].bytes, __ATOMIC_RELAXED);
			if (!rte_seqcount_read_retry(&s->sc, sn))
				break;
		}
		ok = t < FASTMIB_READ_MAX_TRIES;
		break;
	}
	case R_SL:
	case R_SHARED_SL: {
		rte_spinlock_t *l = k == R_SL ? &B->percore_sl[lc].lock : &B->shared_lock;
		struct ep_stats *s = k == R_SL ? &B->percore_sl[lc].s : &B->shared;

		rte_spinlock_lock(l);
		v[0] = s->total_pkts;
		v[1] = s->total_bytes;
		v[2] = s->flows[f].pkts;
		v[3] = s->flows[f].bytes;
		rte_spinlock_unlock(l);
		break;
	}
	case R_COUNTER: {
		const struct ep_stats *s = src == T_PERCORE ? &B->percore[lc] : &B->shared;

		if (segment_of(src, &global, &flow) != NULL) {
			ok = fastmib_read(segment_of(src, &global, &flow), global, 0, v) == 0;
			break;
		}
		v[0] = __atomic_load_n(&s->total_pkts, __ATOMIC_RELAXED);
		v[1] = __atomic_load_n(&s->total_bytes, __ATOMIC_RELAXED);
		v[2] = __atomic_load_n(&s->flows[f].pkts, __ATOMIC_RELAXED);
		v[3] = __atomic_load_n(&s->flows[f].bytes, __ATOMIC_RELAXED);
		break;
	}
	}
	__asm__ volatile("" : : "r"(v[0] + v[1] + v[2] + v[3]));
	return ok;
}

/* Workers run the pattern through this, so the reader knows when to stop. */
static int
worker_main(void *fn)
{
	int rc = ((lcore_function_t *)fn)(NULL);

	__atomic_fetch_add(&B->done, 1, __ATOMIC_RELEASE);
	return rc;
}

/* The main lcore's part: read until every worker is done. */
static void
reader_main(const struct pattern *p, struct reader_run *rr)
{
	uint64_t rng = 0x243f6a8885a308d3ull;
	unsigned workers[RTE_MAX_LCORE], nw = 0, lc;

	RTE_LCORE_FOREACH_WORKER(lc)
		workers[nw++] = lc;
	while (__atomic_load_n(&B->done, __ATOMIC_ACQUIRE) < B->n_workers) {
		uint64_t r = xorshift(&rng), t0, t1;
		int ok;

		t0 = rte_rdtsc_precise();
		ok = read_once(p->reader, p->src, workers[r % nw], (uint32_t)(r >> 32) % N_FLOWS);
		t1 = rte_rdtsc_precise();
		rr->reads++;
		rr->consistent += (uint64_t)ok;
		rr->hist[lat_bucket(t1 - t0)]++;
	}
}

/*
 * One run of `fn` on every worker lcore; with a reader lcore, `p` (NULL:
 * none, the baseline) says what it reads meanwhile.
 */
static struct run_result
run_once(lcore_function_t *fn, const struct pattern *p, struct reader_run *rr)
{
	struct run_result r = { 0, 0, 0 };
	uint64_t n_bursts = B->packets / BURST, left_out = 0;
	unsigned lc;

	memset(B->cycles, 0, sizeof(B->cycles));
	if (B->reader) {
		B->done = 0;
		RTE_LCORE_FOREACH_WORKER(lc)
			rte_eal_remote_launch(worker_main, (void *)fn, lc);
		if (p != NULL)
			reader_main(p, rr);
		rte_eal_mp_wait_lcore();
	} else {
		rte_eal_mp_remote_launch(fn, NULL, CALL_MAIN);
		rte_eal_mp_wait_lcore();
	}
	for (unsigned i = 0; i < B->n_workers; i++) {
		lc = B->lcore_of_worker[i];
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
	       "                              [--no-reader] [--tsv]\n"
	       "  --packets N  packets per worker lcore and run (default 1000000)\n"
	       "  --runs R     repetitions, median and spread reported (default 5)\n"
	       "  --work N     domain-work iterations per packet (default: as many as take\n"
	       "               1000 TSC cycles, measured at start)\n"
	       "  --only TEXT  run only the pattern named TEXT, or if none is, the patterns\n"
	       "               whose name contains TEXT\n"
	       "  --no-reader  every lcore is a worker (default with 2 lcores or more: the\n"
	       "               main lcore reads the workers' counters while they run)\n"
	       "  --tsv        print the results as tab-separated values (name, median,\n"
	       "               min, max, untrimmed median, lost %%, left out %%,\n"
	       "               consistent reads %% or -, reader p50 ns, reader p99 ns, reads)\n",
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
		{ "no-reader", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t packets = 1000000;
	unsigned runs = 5, work = 0;
	static double base[MAX_RUNS * MAX_PATTERNS];
	unsigned n_base = 0;
	int failed = 0, tsv = 0, no_reader = 0;
	const char *only = NULL;
	struct bench_spread bs;
	int c;

	if (bench_help_asked(argc, argv)) {
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
		case 'n': no_reader = 1; break;
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
	B->reader = !no_reader && rte_lcore_count() > 1;
	{
		unsigned lc;

		RTE_LCORE_FOREACH(lc) {
			if (B->reader && lc == rte_get_main_lcore())
				continue;
			B->worker_of_lcore[lc] = B->n_workers;
			B->lcore_of_worker[B->n_workers++] = lc;
			B->bursts[lc] = calloc(packets / BURST, sizeof(uint32_t));
			if (B->bursts[lc] == NULL)
				return 1;
		}
	}
	if (create_segment(FM_PC, &bp_schema) < 0 || create_segment(FM_SB, &bs_schema) < 0 ||
	    create_segment(FM_AT, &ba_schema) < 0 || create_segment(FM_MIXED, &bm_schema) < 0)
		return 1;

	printf("fastmib fast-path counter benchmark\n"
	       "  worker lcores %u, %s, packets per lcore %" PRIu64 ", runs %u, "
	       "%d counter updates per packet (2 global, 2 per flow), %d flows\n"
	       "  domain work %u iterations per packet, TSC %.3f GHz\n",
	       B->n_workers, B->reader ? "a reader lcore" : "no reader", packets, runs,
	       UPDATES_PER_PKT, N_FLOWS, work, (double)rte_get_tsc_hz() / 1e9);

	/* Each pattern run is paired with a baseline run just before it, so
	 * slow drifts of the machine (other load, frequency) cancel out. */
	for (unsigned r = 0; r < runs; r++) {
		for (unsigned i = 0; i < n_patterns; i++) {
			struct pattern *p = &patterns[i];
			static struct reader_run rr;
			struct run_result b, x;
			uint64_t before, after;

			if (!p->selected)
				continue;
			b = run_once(run_none, NULL, NULL);
			base[n_base++] = b.trimmed;
			reset_state();
			memset(&rr, 0, sizeof(rr));
			before = total_pkts(p->src);
			x = run_once(p->fn, p, &rr);
			after = total_pkts(p->src);
			p->reads[r] = rr.reads;
			p->consistent[r] = rr.reads ? (double)rr.consistent / (double)rr.reads : 0;
			p->rd_p50[r] = lat_quantile(&rr, 0.5);
			p->rd_p99[r] = lat_quantile(&rr, 0.99);
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
		printf("%-70s %10s %15s %10s %10s %9s %11s %9s %9s\n", "pattern", "cycles/upd",
		       "(min..max)", "untrimmed", "lost", "left out", "consistent",
		       "read p50", "read p99");
	for (unsigned i = 0; i < n_patterns; i++) {
		struct pattern *p = &patterns[i];
		double untrimmed, lost, excl, cons, p50, p99, reads = 0;
		char cons_s[16];

		if (!p->selected)
			continue;
		bs = bench_spread(p->over, runs);
		untrimmed = bench_spread(p->over_raw, runs).med;
		lost = bench_spread(p->lost, runs).med * 100.0;
		excl = bench_spread(p->excl, runs).med * 100.0;
		/* The worst run's share: one starved run is what a reader meets. */
		cons = bench_spread(p->consistent, runs).lo * 100.0;
		p50 = bench_spread(p->rd_p50, runs).med;
		p99 = bench_spread(p->rd_p99, runs).med;
		for (unsigned r = 0; r < runs; r++)
			reads += (double)p->reads[r];
		if (!B->reader)
			snprintf(cons_s, sizeof(cons_s), "-");
		else if (p->reader == R_COUNTER)
			snprintf(cons_s, sizeof(cons_s), "per counter");
		else
			snprintf(cons_s, sizeof(cons_s), "%.2f%%", cons);
		if (tsv)
			printf("%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.4f\t%.2f\t%s\t%.0f\t%.0f\t%.0f\n",
			       p->name, bs.med, bs.lo, bs.hi, untrimmed, lost, excl, cons_s, p50,
			       p99, reads);
		else
			printf("%-70s %10.1f %7.1f..%-7.1f %10.1f %9.4f%% %8.2f%% %11s %7.0fns "
			       "%7.0fns\n", p->name, bs.med, bs.lo, bs.hi, untrimmed, lost, excl,
			       cons_s, p50, p99);
	}
	for (unsigned m = 0; m < FM_N_MODELS; m++)
		fastmib_close(B->seg[m]);
	rte_eal_cleanup();
	return failed;
}
