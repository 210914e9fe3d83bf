/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fastmib patterns of the counter benchmark: generated code, in both
 * API forms (calls on the writer, and the transaction value with row
 * handles), with a transaction per packet or per burst.
 *
 * This file is compiled twice: with FM_VARIANT=x86 (the default build of
 * fastmib.h, one `addq` per per-core update on x86-64) and with
 * FM_VARIANT=portable plus FASTMIB_PORTABLE_ADD (relaxed atomic load and
 * store), so the two forms of the single-writer add run side by side.
 * Every function name carries the variant, for callgrind's toggles. Which
 * patterns a variant has goes by FM_PORTABLE_VARIANT, not by the add:
 * a ThreadSanitizer build takes the portable add in both (fastmib.h).
 */
#include "counters_bench.h"

#include "bp_stats.h"
#include "bs_stats.h"
#include "ba_stats.h"
#include "bm_stats.h"

#define FM_CAT(a, b) a##b
#define FM_XCAT(a, b) FM_CAT(a, b)
#define FM_NAME(x) FM_XCAT(x, FM_XCAT(_, FM_VARIANT))

/* ---- one packet's updates: 2 global, 2 per-flow counters ---- */

/*
 * name(w, f, sz): calls on the writer of the model of prefix p, whose
 * groups are g_global and g_flow, outside any transaction: per-burst
 * transactions put begin/end around the whole burst.
 */
#define DEFINE_CALLS(name, p, g)                                              \
	static inline __attribute__((always_inline)) void                     \
	name(struct fastmib_writer *w, uint32_t f, uint64_t sz)               \
	{                                                                     \
		p##_##g##_global_pkts_add(w, 1);                              \
		p##_##g##_global_bytes_add(w, sz);                            \
		p##_##g##_flow_pkts_add(w, f, 1);                             \
		p##_##g##_flow_bytes_add(w, f, sz);                           \
	}

/*
 * name(tx, f, sz): the transaction form of the same: the scalars on the
 * transaction, the flow through a row handle (its address computed once
 * for both counters).
 */
#define DEFINE_TX(name, p, g)                                                 \
	static inline __attribute__((always_inline)) void                     \
	name(struct p##_tx *tx, uint32_t f, uint64_t sz)                      \
	{                                                                     \
		struct p##_##g##_flow_ref r = p##_tx_##g##_flow(tx, f);       \
                                                                              \
		p##_tx_##g##_global_pkts_add(tx, 1);                          \
		p##_tx_##g##_global_bytes_add(tx, sz);                        \
		p##_##g##_flow_ref_pkts_add(r, 1);                            \
		p##_##g##_flow_ref_bytes_add(r, sz);                          \
	}

DEFINE_CALLS(pc_calls, bp, pc)
DEFINE_TX(pc_tx, bp, pc)
#ifndef FM_PORTABLE_VARIANT /* only per-core adds differ between the builds */
DEFINE_CALLS(sb_calls, bs, sb)
DEFINE_TX(sb_tx, bs, sb)
DEFINE_CALLS(at_calls, ba, at)
DEFINE_TX(at_tx, ba, at)
/* The per-core updates again, in the model with every storage kind and an
 * event: its transactions should do no more than the per-core model's. */
DEFINE_TX(mixed_tx, bm, pc)
#endif

/* ---- one loop per pattern ---- */

/*
 * run_<name>_<variant>(): the packet loop with `w` the lcore's writer of
 * segment `model`; PRE before the first packet, BODY per packet, BURST_END
 * after each burst, POST after the last; then whatever is buffered is
 * flushed (not timed).
 */
#define DEFINE_FM(name, model, PRE, BODY, BURST_END, POST)                    \
	static int FM_NAME(run_##name)(void *arg)                             \
	{                                                                     \
		struct fastmib_writer *w = fastmib_writer(B->seg[model]);     \
		(void)arg;                                                    \
		if (w == NULL)                                                \
			return -1;                                            \
		PRE;                                                          \
		PKT_LOOP(BODY, BURST_END);                                    \
		POST;                                                         \
		fastmib_flush(w);                                             \
		return 0;                                                     \
	}

#define NOTHING (void)0

/* run_<name>() and run_<name>_b(): `updates` by calls on the writer, in a
 * transaction per packet and in one per burst. */
#define DEFINE_FM_CALLS(name, model, updates)                                 \
	DEFINE_FM(name, model, NOTHING,                                       \
		  ({ fastmib_begin(w); updates(w, f, sz); fastmib_end(w); }), \
		  NOTHING, NOTHING)                                           \
	DEFINE_FM(name##_b, model, fastmib_begin(w), updates(w, f, sz),       \
		  ({ fastmib_end(w); fastmib_begin(w); }), fastmib_end(w))

/* run_<name>() and run_<name>_b(): `updates` in the transaction form of
 * the model of prefix p, a transaction per packet and one per burst. */
#define DEFINE_FM_TX(name, model, p, updates)                                 \
	DEFINE_FM(name, model, NOTHING,                                       \
		  ({ struct p##_tx tx = p##_tx_begin(w);                      \
		     updates(&tx, f, sz);                                     \
		     p##_tx_end(&tx); }),                                     \
		  NOTHING, NOTHING)                                           \
	DEFINE_FM(name##_b, model, struct p##_tx tx = p##_tx_begin(w),        \
		  updates(&tx, f, sz),                                        \
		  ({ p##_tx_end(&tx); tx = p##_tx_begin(w); }),               \
		  p##_tx_end(&tx))

/* run_<name>_p(): one transaction value for the whole run (its block
 * addresses loaded once), a short transaction per packet on it. */
#define DEFINE_FM_PKT(name, model, p, updates)                                \
	DEFINE_FM(name##_p, model, struct p##_tx tx = p##_tx_prepare(w),      \
		  ({ p##_tx_open(&tx); updates(&tx, f, sz); p##_tx_end(&tx); }), \
		  NOTHING, NOTHING)

/* run_<name>_a(): the burst counted after its work, in one short
 * transaction: the packet work runs outside any write section. */
#define DEFINE_FM_AFTER(name, model, p, updates)                              \
	DEFINE_FM(name##_a, model, NOTHING, NOTHING,                          \
		  ({ struct p##_tx tx = p##_tx_begin(w);                      \
		     for (unsigned int k = 0; k < BURST; k++)                 \
			     updates(&tx, rx[k].f, rx[k].sz);                 \
		     p##_tx_end(&tx); }),                                     \
		  NOTHING)

DEFINE_FM_CALLS(fm_pc_calls, FM_PC, pc_calls)
DEFINE_FM_TX(fm_pc_tx, FM_PC, bp, pc_tx)
DEFINE_FM_AFTER(fm_pc_tx, FM_PC, bp, pc_tx)
DEFINE_FM_PKT(fm_pc_tx, FM_PC, bp, pc_tx)
#ifndef FM_PORTABLE_VARIANT
DEFINE_FM_CALLS(fm_sb_calls, FM_SB, sb_calls)
DEFINE_FM_TX(fm_sb_tx, FM_SB, bs, sb_tx)
/* Shared-atomic counters need no transaction. */
DEFINE_FM(fm_at_calls, FM_AT, NOTHING, at_calls(w, f, sz), NOTHING, NOTHING)
DEFINE_FM_TX(fm_at_tx, FM_AT, ba, at_tx)
DEFINE_FM_TX(fm_mixed_tx, FM_MIXED, bm, mixed_tx)
DEFINE_FM_AFTER(fm_mixed_tx, FM_MIXED, bm, mixed_tx)
DEFINE_FM_PKT(fm_mixed_tx, FM_MIXED, bm, mixed_tx)
#endif

/* The x86 build runs every pattern; the portable build only those whose
 * per-core adds the portable form changes. */
#define P(text, name, src)                                                    \
	{ "fastmib " text, FM_NAME(run_##name), src, src == T_FM_AT ? R_COUNTER : R_FM }
#ifdef FM_PORTABLE_VARIANT
#define SUFFIX ", portable"
const struct pattern_def fm_patterns_portable[] = {
	P("per-core, calls" SUFFIX, fm_pc_calls, T_FM_PC),
	P("per-core, calls" SUFFIX ", tx/burst", fm_pc_calls_b, T_FM_PC),
	P("per-core, tx form" SUFFIX, fm_pc_tx, T_FM_PC),
	P("per-core, tx form" SUFFIX ", tx/burst", fm_pc_tx_b, T_FM_PC),
	P("per-core, tx form" SUFFIX ", burst counted after its work", fm_pc_tx_a, T_FM_PC),
	P("per-core, tx form" SUFFIX ", prepared, tx/packet", fm_pc_tx_p, T_FM_PC),
	{ NULL, NULL, T_NONE, R_COUNTER },
};
#else
/* Each per-core transaction pattern is followed by the same updates in the
 * model with every storage kind ("in mixed model"), so the two compare
 * side by side. */
const struct pattern_def fm_patterns_x86[] = {
	P("per-core, calls", fm_pc_calls, T_FM_PC),
	P("per-core, calls, tx/burst", fm_pc_calls_b, T_FM_PC),
	P("per-core, tx form", fm_pc_tx, T_FM_PC),
	P("per-core in mixed model, tx form", fm_mixed_tx, T_FM_MIXED),
	P("per-core, tx form, tx/burst", fm_pc_tx_b, T_FM_PC),
	P("per-core in mixed model, tx form, tx/burst", fm_mixed_tx_b, T_FM_MIXED),
	P("per-core, tx form, burst counted after its work", fm_pc_tx_a, T_FM_PC),
	P("per-core in mixed model, tx form, burst counted after its work", fm_mixed_tx_a,
	  T_FM_MIXED),
	P("per-core, tx form, prepared, tx/packet", fm_pc_tx_p, T_FM_PC),
	P("per-core in mixed model, tx form, prepared, tx/packet", fm_mixed_tx_p, T_FM_MIXED),
	P("shared-buffered, calls", fm_sb_calls, T_FM_SB),
	P("shared-buffered, calls, tx/burst", fm_sb_calls_b, T_FM_SB),
	P("shared-buffered, tx form", fm_sb_tx, T_FM_SB),
	P("shared-buffered, tx form, tx/burst", fm_sb_tx_b, T_FM_SB),
	P("shared-atomic, calls", fm_at_calls, T_FM_AT),
	P("shared-atomic, tx form", fm_at_tx, T_FM_AT),
	P("shared-atomic, tx form, tx/burst", fm_at_tx_b, T_FM_AT),
	{ NULL, NULL, T_NONE, R_COUNTER },
};
#endif
