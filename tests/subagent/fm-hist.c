/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A writer of the histograms test model (tests/codegen/models/
 * histograms.yaml, prefix hg) on lcores 1 and 2, whose observations the
 * SNMP tests choose (test_histograms.py):
 *
 *   fm-hist PATH
 *
 * creates the segment, inserts the flows (10.0.0.1, 7) and (2001:db8::1, 9)
 * (keys 0 and 1), says "ready" and takes commands on standard input, one a
 * line, words apart by tabs, each answered "ok" once done (tu_hold()):
 *
 *   obs L TARGET V...   on lcore L (1 or 2), one transaction per value V:
 *                       TARGET latency, burst (observe), queueDepth (peak);
 *                       size:P:W, peakBurst:P:W (the port row of SNMP
 *                       indexes P, W); gap:K, maxGap:K (flow key K)
 *   run P L...          observe at full speed on the lcores L, short
 *                       transactions, until `stop`: each observes the cycle
 *                       10, 20, 40, 100, 5000 into latency, 30 times it into
 *                       size of port (1, 1), it into gap of key 0, and
 *                       records it into every peak of those rows; P pauses
 *                       (rte_pause()) between two transactions, the least
 *                       of the work a data plane does between two bursts
 *                       (0: transactions back to back, which leaves a
 *                       reader of their rows no moment to copy them in)
 *   stop                end the full-speed observation; says "observed N",
 *                       N the transactions made since `run` (each one
 *                       observation into each of the three histograms)
 *
 * The segment stays when the input ends.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastmib/fastmib.h"
#include "hg_stats.h"
#include "tutil.h"

#include <rte_pause.h>

static const uint64_t cycle_v[] = { 10, 20, 40, 100, 5000 };

struct hist_writer {
	struct fastmib_segment *seg;
	uint32_t flow_row[2];
	/* one command's observations on one lcore */
	const char *target;
	char **values;
	int n_values;
	int rc;
	/* full speed */
	unsigned stop; /* atomic */
	unsigned gap;  /* pauses between two transactions */
	uint64_t done[RTE_MAX_LCORE]; /* transactions of each lcore's last run */
	bool running[RTE_MAX_LCORE];
};

static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 0);
	return *s && !*end ? 0 : -1;
}

/* The port row of SNMP indexes "P:W" after `name`, 0-based for the
 * generated functions. */
static int
port_of(const char *arg, uint32_t *p, uint32_t *w)
{
	unsigned a, b;

	if (sscanf(arg, "%u:%u", &a, &b) != 2 || a < 1 || a > 4 || b < 1 || b > 2)
		return -1;
	*p = a - 1;
	*w = b - 1;
	return 0;
}

/* One value into TARGET, in the transaction `tx`. */
static int
observe_one(struct hist_writer *hw, struct hg_tx *tx, const char *target, uint64_t v)
{
	const char *arg = strchr(target, ':');
	size_t len = arg ? (size_t)(arg - target) : strlen(target);
	uint32_t p, w;
	unsigned k;

#define IS(name) (len == strlen(name) && strncmp(target, name, len) == 0)
	if (IS("latency"))
		hg_tx_system_latency_observe(tx, v);
	else if (IS("burst"))
		hg_tx_system_burst_observe(tx, v);
	else if (IS("queueDepth"))
		hg_tx_system_queue_depth_peak(tx, v);
	else if (IS("size") && arg && port_of(arg + 1, &p, &w) == 0)
		hg_tx_port_size_observe(tx, p, w, v);
	else if (IS("peakBurst") && arg && port_of(arg + 1, &p, &w) == 0)
		hg_tx_port_peak_burst_peak(tx, p, w, v);
	else if (IS("gap") && arg && sscanf(arg + 1, "%u", &k) == 1 && k < 2)
		hg_tx_flow_gap_observe(tx, hw->flow_row[k], v);
	else if (IS("maxGap") && arg && sscanf(arg + 1, "%u", &k) == 1 && k < 2)
		hg_tx_flow_max_gap_peak(tx, hw->flow_row[k], v);
	else
		return -1;
#undef IS
	return 0;
}

static int
observe_values(void *arg)
{
	struct hist_writer *hw = arg;
	struct fastmib_writer *w = fastmib_writer(hw->seg);
	struct hg_tx tx;

	if (!w)
		return -1;
	tx = hg_tx_prepare(w);
	for (int i = 0; i < hw->n_values; i++) {
		uint64_t v;

		if (parse_u64(hw->values[i], &v) < 0)
			return -1;
		hg_tx_open(&tx);
		if (observe_one(hw, &tx, hw->target, v) < 0) {
			hg_tx_end(&tx);
			return -1;
		}
		hg_tx_end(&tx);
	}
	return 0;
}

static int
observe_full_speed(void *arg)
{
	struct hist_writer *hw = arg;
	struct fastmib_writer *w = fastmib_writer(hw->seg);
	struct hg_tx tx;
	uint64_t n = 0;

	if (!w)
		return -1;
	tx = hg_tx_prepare(w);
	while (!__atomic_load_n(&hw->stop, __ATOMIC_ACQUIRE)) {
		uint64_t v = cycle_v[n++ % (sizeof(cycle_v) / sizeof(cycle_v[0]))];

		hg_tx_open(&tx);
		hg_tx_system_latency_observe(&tx, v);
		hg_tx_system_queue_depth_peak(&tx, v);
		hg_tx_port_size_observe(&tx, 0, 0, 30 * v);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, v);
		hg_tx_flow_gap_observe(&tx, hw->flow_row[0], v);
		hg_tx_flow_max_gap_peak(&tx, hw->flow_row[0], v);
		hg_tx_end(&tx);
		for (unsigned i = 0; i < hw->gap; i++)
			rte_pause();
	}
	hw->done[rte_lcore_id()] = n;
	return 0;
}

static int
lcore_arg(const char *s)
{
	uint64_t l;

	return parse_u64(s, &l) == 0 && (l == 1 || l == 2) ? (int)l : -1;
}

/* Stop the full-speed lcores; the transactions they made, each one
 * observation into each histogram, into *total. */
static int
stop_all(struct hist_writer *hw, uint64_t *total)
{
	int rc = 0;

	*total = 0;
	__atomic_store_n(&hw->stop, 1, __ATOMIC_RELEASE);
	for (unsigned l = 1; l <= 2; l++)
		if (hw->running[l]) {
			rc |= tu_wait(l);
			hw->running[l] = false;
			*total += hw->done[l];
		}
	__atomic_store_n(&hw->stop, 0, __ATOMIC_RELEASE);
	return rc ? -1 : 0;
}

static int
apply(void *ctx, char **words, int n)
{
	struct hist_writer *hw = ctx;
	int l;

	if (n >= 4 && strcmp(words[0], "obs") == 0 && (l = lcore_arg(words[1])) > 0) {
		if (hw->running[l])
			return -1;
		hw->target = words[2];
		hw->values = words + 3;
		hw->n_values = n - 3;
		if (tu_launch(observe_values, hw, (unsigned)l) != 0)
			return -1;
		return tu_wait((unsigned)l);
	}
	if (n >= 3 && strcmp(words[0], "run") == 0) {
		uint64_t pauses;

		if (parse_u64(words[1], &pauses) < 0 || pauses > 1000000)
			return -1;
		hw->gap = (unsigned)pauses;
		for (int i = 2; i < n; i++) {
			if ((l = lcore_arg(words[i])) < 0 || hw->running[l] ||
			    tu_launch(observe_full_speed, hw, (unsigned)l) != 0)
				return -1;
			hw->running[l] = true;
		}
		return 0;
	}
	if (n == 1 && strcmp(words[0], "stop") == 0) {
		uint64_t total;
		int rc = stop_all(hw, &total);

		printf("observed %" PRIu64 "\n", total);
		return rc;
	}
	return -1;
}

int
main(int argc, char **argv)
{
	struct hg_flow_key keys[2] = {
		{ .peer = { 1, { 10, 0, 0, 1 } }, .teid = 7 },
		{ .peer = { 2, { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } }, .teid = 9 },
	};
	struct hist_writer hw = { 0 };

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		printf("usage: fm-hist PATH  (commands on standard input: see fm-hist.c)\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: fm-hist PATH\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tu_eal_init(argv[0], "0@0,1@1,2@0");
	unlink(argv[1]);
	if (hg_create(argv[1], NULL, &hw.seg) != 0 ||
	    hg_flow_insert(hw.seg, &keys[0], &hw.flow_row[0]) != 0 ||
	    hg_flow_insert(hw.seg, &keys[1], &hw.flow_row[1]) != 0) {
		fprintf(stderr, "fm-hist: %s\n", fastmib_last_error());
		return 1;
	}
	tu_hold(apply, &hw);
	stop_all(&hw, &(uint64_t){ 0 });
	fastmib_close(hw.seg);
	rte_eal_cleanup();
	return 0;
}
