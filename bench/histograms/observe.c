/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The loops of the histograms benchmark, expanded from one source for
 * every operation: a counter update of the model without histograms or
 * peaks (plain), and of the model with them (octets), an observation of
 * its three histograms (lat: log2 bounds; few: 8 bounds; many: 32 bounds)
 * and a peak record (top). Each loop differs from the octets one only in
 * its operation, so that their difference is the operation's cost over a
 * counter update; callgrind counts each on its own (callgrind.sh), by
 * these functions' names. They are in a file of their own so that the
 * compiler of the timing code cannot inline or specialize them.
 */
#include "hist_bench.h"

#include "hb_stats.h"
#include "hp_stats.h"

#define DEFINE_LOOPS(x, p, call, ref_call)                                       \
	void loop_calls_##x(struct fastmib_writer *w, struct obs_input in,       \
			    uint32_t n)                                          \
	{                                                                        \
		for (uint32_t i = 0; i < n; i++) {                               \
			fastmib_begin(w);                                        \
			call(w, in.row[i], in.val[i]);                           \
			fastmib_end(w);                                          \
		}                                                                \
	}                                                                        \
                                                                                 \
	void loop_tx_##x(struct fastmib_writer *w, struct obs_input in,          \
			 uint32_t n)                                             \
	{                                                                        \
		struct p##_tx tx = p##_tx_prepare(w);                            \
                                                                                 \
		for (uint32_t i = 0; i < n; i++) {                               \
			struct p##_flow_ref r;                                   \
                                                                                 \
			p##_tx_open(&tx);                                        \
			r = p##_tx_flow(&tx, in.row[i]);                         \
			ref_call(r, in.val[i]);                                  \
			p##_tx_end(&tx);                                         \
		}                                                                \
	}

DEFINE_LOOPS(plain, hp, hp_flow_octets_add, hp_flow_ref_octets_add)
DEFINE_LOOPS(octets, hb, hb_flow_octets_add, hb_flow_ref_octets_add)
DEFINE_LOOPS(lat, hb, hb_flow_lat_observe, hb_flow_ref_lat_observe)
DEFINE_LOOPS(few, hb, hb_flow_few_observe, hb_flow_ref_few_observe)
DEFINE_LOOPS(many, hb, hb_flow_many_observe, hb_flow_ref_many_observe)
DEFINE_LOOPS(top, hb, hb_flow_top_peak, hb_flow_ref_top_peak)
