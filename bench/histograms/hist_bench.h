/* SPDX-License-Identifier: BSD-3-Clause */
/* What the two files of the histograms benchmark share: the loops of
 * observe.c, which hist_bench.c times and checks and callgrind.sh counts. */
#ifndef FASTMIB_BENCH_HIST_H
#define FASTMIB_BENCH_HIST_H

#include <stdint.h>

#include <fastmib/fastmib.h>

/* The values of a loop: value i goes to row row[i] (drawn at random before
 * the loops, so that the compiler cannot fold the updates). */
struct obs_input {
	const uint32_t *row;
	const uint64_t *val;
};

/*
 * n transactions of one operation each, value i into row row[i] of the
 * flow table, on `w`, the main lcore's writer of the segment of the
 * loop's model: hist.yaml (octets, lat, few, many, top) or plain.yaml
 * (plain: its counter octets, in a model without histograms or peaks).
 * "calls": fastmib_begin(), the generated call on the writer
 * (<p>_flow_<x>_add/_observe/_peak(w, row, v)), fastmib_end(); "tx": the
 * transaction form, prepared once, a row handle per transaction and the
 * handle's call (<p>_flow_ref_<x>_...(r, v)).
 */
#define OBS_LOOPS(X) X(plain) X(octets) X(lat) X(few) X(many) X(top)
#define OBS_DECLARE(x)                                                           \
	void loop_calls_##x(struct fastmib_writer *w, struct obs_input in, uint32_t n); \
	void loop_tx_##x(struct fastmib_writer *w, struct obs_input in, uint32_t n);
OBS_LOOPS(OBS_DECLARE)
#undef OBS_DECLARE

#endif
