/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the translation units of the fast-path counter benchmark: the
 * benchmark state, the packet loop every pattern runs, and how a unit
 * hands its patterns to main(). The generated-code patterns live in
 * fm_patterns.c, compiled twice (x86 single add, and the portable form).
 */
#ifndef FASTMIB_COUNTERS_BENCH_H
#define FASTMIB_COUNTERS_BENCH_H

#include <stdint.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_seqcount.h>
#include <rte_spinlock.h>

#include "fastmib/fastmib.h"

#define N_FLOWS 1024
#define BURST 32
#define UPDATES_PER_PKT 4

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

/* The segments of the generated patterns, one model each: per-core only,
 * shared-buffered only, shared-atomic only (so each transaction does only
 * its own kind's bookkeeping), and one model with all three kinds. */
enum fm_model { FM_PC, FM_SB, FM_AT, FM_MIXED, FM_N_MODELS };

/* Everything the patterns update; per-lcore arrays indexed by lcore id. */
struct bench {
	struct ep_stats shared;
	rte_spinlock_t shared_lock __rte_cache_aligned;
	struct ep_stats percore[RTE_MAX_LCORE];
	struct ep_stats_sl percore_sl[RTE_MAX_LCORE];
	struct ep_stats_sc percore_sc[RTE_MAX_LCORE];
	struct wb wbs[RTE_MAX_LCORE];
	struct fastmib_segment *seg[FM_N_MODELS];
	uint64_t packets;
	unsigned int work;
	unsigned int n_workers;
	int reader;                 /* the main lcore reads while workers run */
	unsigned int done;          /* atomic; workers finished with this run */
	unsigned int worker_of_lcore[RTE_MAX_LCORE]; /* 0..n_workers-1 */
	unsigned int lcore_of_worker[RTE_MAX_LCORE];
	uint64_t cycles[RTE_MAX_LCORE]; /* per run, per lcore */
	uint32_t *bursts[RTE_MAX_LCORE]; /* per run, per lcore: cycles of each burst */
};

extern struct bench *B;

/* Where a pattern's global packet count can be read back, to check that
 * no update was lost. */
enum total_src { T_NONE, T_SHARED, T_PERCORE, T_PERCORE_SL, T_PERCORE_SC,
		 T_FM_PC, T_FM_SB, T_FM_AT, T_FM_MIXED };

/*
 * What the reader lcore does while a pattern runs, so that every figure
 * comes with what a concurrent reader got:
 *  R_FM: fastmib_read() of the pattern's segment (the agent's read), a
 *        global group snapshot and a flow row in turn;
 *  R_SC: the chapter's seqcount read of a worker's block, bounded as
 *        fastmib's (FASTMIB_READ_MAX_TRIES attempts);
 *  R_SL: the chapter's spinlock, taken by the reader;
 *  R_COUNTER: no group snapshot exists (atomic or unsynchronized words):
 *        the reader loads the words, consistent per counter only.
 */
enum reader_kind { R_COUNTER, R_FM, R_SC, R_SL, R_SHARED_SL };

/* One pattern as a translation unit offers it. */
struct pattern_def {
	const char *name;
	lcore_function_t *fn;
	enum total_src src;
	enum reader_kind reader;
};

/* fm_patterns.c, compiled with the x86 single add and with the portable
 * form: the generated-code patterns of each build, NULL-terminated. */
extern const struct pattern_def fm_patterns_x86[];
extern const struct pattern_def fm_patterns_portable[];

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

/* One received packet as the loop sees it: what rte_eth_rx_burst() leaves
 * in an mbuf for the per-packet work (the flow it belongs to, its size). */
struct pkt {
	uint32_t f;
	uint32_t sz;
};

/*
 * The packet loop of every pattern, shaped like a DPDK lcore's: a burst of
 * BURST packets is received into `rx` (their flows and sizes drawn at
 * random, the flow one this lcore owns), then each packet gets the domain
 * work, then BODY with `f` and `sz` in scope; BURST_END runs after the
 * burst's packets, with `rx` in scope (counting the burst after its work),
 * and the burst's duration is recorded. One loop per pattern, so every
 * update is inlined.
 */
#define PKT_LOOP(BODY, BURST_END)                                             \
	do {                                                                  \
		unsigned int lc = rte_lcore_id();                             \
		unsigned int wi = B->worker_of_lcore[lc];                     \
		uint64_t rng = 0x9e3779b97f4a7c15ull * (wi + 1);              \
		uint64_t x = wi;                                              \
		const uint64_t n_pkts = B->packets;                           \
		const unsigned int work = B->work;                            \
		const unsigned int nw = B->n_workers;                         \
		const uint32_t my_flows = N_FLOWS / nw;                       \
		uint32_t *bt = B->bursts[lc];                                 \
		struct pkt rx[BURST];                                         \
		uint64_t t0 = rte_rdtsc_precise(), tb = t0;                   \
		for (uint64_t p = 0; p < n_pkts; p += BURST) {                \
			for (unsigned int k = 0; k < BURST; k++) {            \
				uint64_t r = xorshift(&rng);                  \
				rx[k].f = (uint32_t)(r % my_flows) * nw + wi; \
				rx[k].sz = (uint32_t)(64 + (r >> 54));        \
			}                                                     \
			__asm__ volatile("" : : "r"(rx) : "memory");          \
			for (unsigned int k = 0; k < BURST; k++) {            \
				uint32_t f = rx[k].f;                         \
				uint64_t sz = rx[k].sz;                       \
				x = domain_work(x + f + sz, work);            \
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
		(void)rx;                                                     \
	} while (0)

#endif
