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
 * Every function name carries the variant, for callgrind's toggles.
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

/* Calls on the writer, outside any transaction: per-burst transactions put
 * begin/end around the whole burst. */
static inline __attribute__((always_inline)) void
pc_calls(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	bp_pc_global_pkts_add(w, 1);
	bp_pc_global_bytes_add(w, sz);
	bp_pc_flow_pkts_add(w, f, 1);
	bp_pc_flow_bytes_add(w, f, sz);
}

#ifndef FASTMIB_PORTABLE_ADD /* only per-core adds differ between the builds */
static inline __attribute__((always_inline)) void
sb_calls(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	bs_sb_global_pkts_add(w, 1);
	bs_sb_global_bytes_add(w, sz);
	bs_sb_flow_pkts_add(w, f, 1);
	bs_sb_flow_bytes_add(w, f, sz);
}

static inline __attribute__((always_inline)) void
at_calls(struct fastmib_writer *w, uint32_t f, uint64_t sz)
{
	ba_at_global_pkts_add(w, 1);
	ba_at_global_bytes_add(w, sz);
	ba_at_flow_pkts_add(w, f, 1);
	ba_at_flow_bytes_add(w, f, sz);
}
#endif

/* The transaction form: scalars on the transaction, the flow through a row
 * handle (its address computed once for both counters). */
static inline __attribute__((always_inline)) void
pc_tx(struct bp_tx *tx, uint32_t f, uint64_t sz)
{
	struct bp_pc_flow_ref r = bp_tx_pc_flow(tx, f);

	bp_tx_pc_global_pkts_add(tx, 1);
	bp_tx_pc_global_bytes_add(tx, sz);
	bp_pc_flow_ref_pkts_add(r, 1);
	bp_pc_flow_ref_bytes_add(r, sz);
}

#ifndef FASTMIB_PORTABLE_ADD
static inline __attribute__((always_inline)) void
sb_tx(struct bs_tx *tx, uint32_t f, uint64_t sz)
{
	struct bs_sb_flow_ref r = bs_tx_sb_flow(tx, f);

	bs_tx_sb_global_pkts_add(tx, 1);
	bs_tx_sb_global_bytes_add(tx, sz);
	bs_sb_flow_ref_pkts_add(r, 1);
	bs_sb_flow_ref_bytes_add(r, sz);
}

static inline __attribute__((always_inline)) void
at_tx(struct ba_tx *tx, uint32_t f, uint64_t sz)
{
	struct ba_at_flow_ref r = ba_tx_at_flow(tx, f);

	ba_tx_at_global_pkts_add(tx, 1);
	ba_tx_at_global_bytes_add(tx, sz);
	ba_at_flow_ref_pkts_add(r, 1);
	ba_at_flow_ref_bytes_add(r, sz);
}

/* The per-core updates again, in the model with every storage kind: its
 * transactions also keep the write buffer's marks and flush hint. */
static inline __attribute__((always_inline)) void
mixed_tx(struct bm_tx *tx, uint32_t f, uint64_t sz)
{
	struct bm_pc_flow_ref r = bm_tx_pc_flow(tx, f);

	bm_tx_pc_global_pkts_add(tx, 1);
	bm_tx_pc_global_bytes_add(tx, sz);
	bm_pc_flow_ref_pkts_add(r, 1);
	bm_pc_flow_ref_bytes_add(r, sz);
}
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

/* Calls on the writer, a transaction per packet and per burst. */
DEFINE_FM(fm_pc_calls, FM_PC, NOTHING,
	  ({ fastmib_begin(w); pc_calls(w, f, sz); fastmib_end(w); }), NOTHING, NOTHING)
DEFINE_FM(fm_pc_calls_b, FM_PC, fastmib_begin(w), pc_calls(w, f, sz),
	  ({ fastmib_end(w); fastmib_begin(w); }), fastmib_end(w))
#ifndef FASTMIB_PORTABLE_ADD
DEFINE_FM(fm_sb_calls, FM_SB, NOTHING,
	  ({ fastmib_begin(w); sb_calls(w, f, sz); fastmib_end(w); }), NOTHING, NOTHING)
DEFINE_FM(fm_sb_calls_b, FM_SB, fastmib_begin(w), sb_calls(w, f, sz),
	  ({ fastmib_end(w); fastmib_begin(w); }), fastmib_end(w))
/* Shared-atomic counters need no transaction. */
DEFINE_FM(fm_at_calls, FM_AT, NOTHING, at_calls(w, f, sz), NOTHING, NOTHING)
#endif

/* The transaction form, a transaction per packet and per burst. */
DEFINE_FM(fm_pc_tx, FM_PC, NOTHING,
	  ({ struct bp_tx tx = bp_tx_begin(w); pc_tx(&tx, f, sz); bp_tx_end(&tx); }),
	  NOTHING, NOTHING)
DEFINE_FM(fm_pc_tx_b, FM_PC, struct bp_tx tx = bp_tx_begin(w), pc_tx(&tx, f, sz),
	  ({ bp_tx_end(&tx); tx = bp_tx_begin(w); }), bp_tx_end(&tx))
#ifndef FASTMIB_PORTABLE_ADD
DEFINE_FM(fm_sb_tx, FM_SB, NOTHING,
	  ({ struct bs_tx tx = bs_tx_begin(w); sb_tx(&tx, f, sz); bs_tx_end(&tx); }),
	  NOTHING, NOTHING)
DEFINE_FM(fm_sb_tx_b, FM_SB, struct bs_tx tx = bs_tx_begin(w), sb_tx(&tx, f, sz),
	  ({ bs_tx_end(&tx); tx = bs_tx_begin(w); }), bs_tx_end(&tx))
DEFINE_FM(fm_at_tx, FM_AT, NOTHING,
	  ({ struct ba_tx tx = ba_tx_begin(w); at_tx(&tx, f, sz); ba_tx_end(&tx); }),
	  NOTHING, NOTHING)
DEFINE_FM(fm_at_tx_b, FM_AT, struct ba_tx tx = ba_tx_begin(w), at_tx(&tx, f, sz),
	  ({ ba_tx_end(&tx); tx = ba_tx_begin(w); }), ba_tx_end(&tx))
DEFINE_FM(fm_mixed_tx, FM_MIXED, NOTHING,
	  ({ struct bm_tx tx = bm_tx_begin(w); mixed_tx(&tx, f, sz); bm_tx_end(&tx); }),
	  NOTHING, NOTHING)
DEFINE_FM(fm_mixed_tx_b, FM_MIXED, struct bm_tx tx = bm_tx_begin(w), mixed_tx(&tx, f, sz),
	  ({ bm_tx_end(&tx); tx = bm_tx_begin(w); }), bm_tx_end(&tx))
#endif

/* The x86 build runs every pattern; the portable build only those whose
 * per-core adds the portable form changes. */
#define P(text, name, src) { "fastmib " text, FM_NAME(run_##name), src }
#ifdef FASTMIB_PORTABLE_ADD
#define SUFFIX ", portable"
const struct pattern_def fm_patterns_portable[] = {
	P("per-core, calls" SUFFIX, fm_pc_calls, T_FM_PC),
	P("per-core, calls" SUFFIX ", tx/burst", fm_pc_calls_b, T_FM_PC),
	P("per-core, tx form" SUFFIX, fm_pc_tx, T_FM_PC),
	P("per-core, tx form" SUFFIX ", tx/burst", fm_pc_tx_b, T_FM_PC),
	{ NULL, NULL, T_NONE },
};
#else
const struct pattern_def fm_patterns_x86[] = {
	P("per-core, calls", fm_pc_calls, T_FM_PC),
	P("per-core, calls, tx/burst", fm_pc_calls_b, T_FM_PC),
	P("per-core, tx form", fm_pc_tx, T_FM_PC),
	P("per-core, tx form, tx/burst", fm_pc_tx_b, T_FM_PC),
	P("shared-buffered, calls", fm_sb_calls, T_FM_SB),
	P("shared-buffered, calls, tx/burst", fm_sb_calls_b, T_FM_SB),
	P("shared-buffered, tx form", fm_sb_tx, T_FM_SB),
	P("shared-buffered, tx form, tx/burst", fm_sb_tx_b, T_FM_SB),
	P("shared-atomic, calls", fm_at_calls, T_FM_AT),
	P("shared-atomic, tx form", fm_at_tx, T_FM_AT),
	P("shared-atomic, tx form, tx/burst", fm_at_tx_b, T_FM_AT),
	P("per-core in mixed model, tx form", fm_mixed_tx, T_FM_MIXED),
	P("per-core in mixed model, tx form, tx/burst", fm_mixed_tx_b, T_FM_MIXED),
	{ NULL, NULL, T_NONE },
};
#endif
