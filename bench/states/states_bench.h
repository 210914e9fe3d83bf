/* SPDX-License-Identifier: BSD-3-Clause */
/* What the two files of the states benchmark share: the counter update
 * loops of updates.c, which states_bench.c times and checks. */
#ifndef FASTMIB_BENCH_STATES_H
#define FASTMIB_BENCH_STATES_H

#include <stdint.h>

#include <fastmib/fastmib.h>

/* The packets of an update loop: packet i goes to row flow[i] and counts
 * size[i] octets (drawn at random before the loops, as an mbuf would carry
 * them, so that the compiler cannot fold the updates). */
struct upd_packets {
	const uint32_t *flow;
	const uint32_t *size;
};

/*
 * n packets, each a transaction of the tunnel row's two updates (pkts and
 * octets) on `w`, the main lcore's writer of a segment of the model named
 * by the suffix: bno (plain.yaml, no states) or bst (states.yaml, the same
 * group with states). "calls": fastmib_begin(), the generated calls on the
 * writer, fastmib_end(); "tx": the transaction form, prepared once, a row
 * handle per packet.
 */
void loop_upd_calls_bno(struct fastmib_writer *w, struct upd_packets p, uint32_t n);
void loop_upd_calls_bst(struct fastmib_writer *w, struct upd_packets p, uint32_t n);
void loop_upd_tx_bno(struct fastmib_writer *w, struct upd_packets p, uint32_t n);
void loop_upd_tx_bst(struct fastmib_writer *w, struct upd_packets p, uint32_t n);

#endif
