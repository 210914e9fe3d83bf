/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counter updates of the states benchmark, expanded from one source
 * for each of two models that differ only in the states of their group:
 * bno (plain.yaml) and bst (states.yaml). Whatever states change in the
 * generated counter code shows as a difference between the two expansions;
 * callgrind counts each loop on its own (bench/states/callgrind.sh), by
 * these functions' names. They are in a file of their own so that the
 * compiler of the timing code cannot inline or specialize them.
 */
#include "states_bench.h"

#include "bno_stats.h"
#include "bst_stats.h"

#define DEFINE_UPDATES(p)                                                        \
	void loop_upd_calls_##p(struct fastmib_writer *w, struct upd_packets pk, \
				uint32_t n)                                      \
	{                                                                        \
		for (uint32_t i = 0; i < n; i++) {                               \
			fastmib_begin(w);                                        \
			p##_tunnel_pkts_add(w, pk.flow[i], 1);                   \
			p##_tunnel_bytes_add(w, pk.flow[i], pk.size[i]);         \
			fastmib_end(w);                                          \
		}                                                                \
	}                                                                        \
                                                                                 \
	void loop_upd_tx_##p(struct fastmib_writer *w, struct upd_packets pk,    \
			     uint32_t n)                                         \
	{                                                                        \
		struct p##_tx tx = p##_tx_prepare(w);                            \
                                                                                 \
		for (uint32_t i = 0; i < n; i++) {                               \
			struct p##_tunnel_ref r;                                 \
                                                                                 \
			p##_tx_open(&tx);                                        \
			r = p##_tx_tunnel(&tx, pk.flow[i]);                      \
			p##_tunnel_ref_pkts_add(r, 1);                           \
			p##_tunnel_ref_bytes_add(r, pk.size[i]);                 \
			p##_tx_end(&tx);                                         \
		}                                                                \
	}

DEFINE_UPDATES(bno)
DEFINE_UPDATES(bst)
