/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Torture: 3 writer lcores on 2 CPUs update every storage kind in
 * transactions while a separate reader process checks every snapshot and
 * resets rows, and the main lcore resets the scalar group. Afterwards
 * every raw counter must equal exactly its preset plus what was added, and
 * the last reset's baseline must lie between two raw snapshots taken
 * around it (so no increment after it was lost).
 * Usage: torture READER_EXE [READER_ROUNDS]
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "torture.h"
#include "tutil.h"

extern char **environ;

struct worker {
	uint64_t tx;                     /* published with release after end */
	uint64_t session[TT_SESSIONS];
	uint64_t flow[TS_FLOW_ROWS];
	uint64_t flushes, misses;
} __attribute__((aligned(64)));

static struct fastmib_segment *seg;
static struct worker workers[RTE_MAX_LCORE];
static int stop;
static int failures;

#define CHECK(cond, ...)                                              \
	do {                                                          \
		if (!(cond)) {                                        \
			fprintf(stderr, "torture: " __VA_ARGS__);     \
			fputc('\n', stderr);                          \
			failures++;                                   \
		}                                                     \
	} while (0)

static int
writer_main(void *arg)
{
	struct worker *me = &workers[rte_lcore_id()];
	struct fastmib_writer *w = fastmib_writer(seg);
	uint64_t i = 0;

	(void)arg;
	if (w == NULL)
		return -1;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint32_t s = (uint32_t)((i * 7 + rte_lcore_id()) % TT_SESSIONS);
		uint32_t f = (uint32_t)(i % TS_FLOW_ROWS);

		fastmib_begin(w);
		fastmib_pc_add(w, TS_GLOBAL_PKTS, 1);
		fastmib_pc_add(w, TS_FLOW_PKTS(f), 1);
		fastmib_wb_add(w, TS_SESSION_PKTS(s), 1);
		fastmib_pc_add(w, TS_GLOBAL_BYTES, TT_BYTES_PER_PKT);
		fastmib_pc_add(w, TS_FLOW_BYTES(f), TT_BYTES_PER_PKT);
		fastmib_wb_add(w, TS_SESSION_BYTES(s), TT_BYTES_PER_PKT);
		fastmib_end(w);
		fastmib_atomic_add(w, TS_POOL_ALLOCS, 1);
		fastmib_atomic_add(w, TS_POOL_FAILS, 1);
		me->session[s]++;
		me->flow[f]++;
		__atomic_store_n(&me->tx, ++i, __ATOMIC_RELEASE);
	}
	fastmib_flush(w);
	me->flushes = w->flushes;
	me->misses = w->flush_misses;
	return 0;
}

static uint64_t
tx_total(void)
{
	uint64_t n = 0;
	unsigned l;

	RTE_LCORE_FOREACH_WORKER(l)
		n += __atomic_load_n(&workers[l].tx, __ATOMIC_ACQUIRE);
	return n;
}

/* Presets: one big first operand per row, from the main lcore. */
static void
preset(struct fastmib_writer *w)
{
	fastmib_begin(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, TT_PRESET_LOW);
	fastmib_pc_add(w, TS_GLOBAL_BYTES, TT_PRESET_LOW * TT_BYTES_PER_PKT);
	for (uint32_t r = 0; r < TS_FLOW_ROWS; r++) {
		fastmib_pc_add(w, TS_FLOW_PKTS(r), tt_preset(r));
		fastmib_pc_add(w, TS_FLOW_BYTES(r), tt_preset(r) * TT_BYTES_PER_PKT);
	}
	for (uint32_t r = 0; r < TT_SESSIONS; r++) {
		fastmib_wb_add(w, TS_SESSION_PKTS(r), tt_preset(r));
		fastmib_wb_add(w, TS_SESSION_BYTES(r), tt_preset(r) * TT_BYTES_PER_PKT);
	}
	fastmib_end(w);
	fastmib_atomic_add(w, TS_POOL_FAILS, (1ull << 32) - 10);
	fastmib_flush(w);
}

/* Reset the global group while writers run; the visible value right
 * after is bounded by the transactions published meanwhile. */
static int
reset_round(uint64_t *before, uint64_t *after)
{
	unsigned n_workers = rte_lcore_count() - 1;
	uint64_t v[3], c0, c1;
	int rc;

	c0 = tx_total();
	(void)fastmib_read_raw(seg, TS_GLOBAL, 0, before);
	rc = fastmib_reset(seg, TS_GLOBAL, 0);
	if (rc == -EBUSY)
		return 0; /* a writer was preempted mid-transaction; nothing changed */
	CHECK(rc == 0, "reset: %s", fastmib_last_error());
	rc = fastmib_read(seg, TS_GLOBAL, 0, v);
	(void)fastmib_read_raw(seg, TS_GLOBAL, 0, after);
	c1 = tx_total();
	CHECK(v[0] <= c1 - c0 + n_workers, "after reset %" PRIu64 " > %" PRIu64 " increments",
	      v[0], c1 - c0 + n_workers);
	CHECK(rc == -EBUSY || tt_consistent(v), "inconsistent value after reset");
	return 1;
}

/*
 * Every row of `group` must hold its preset plus exactly what the writers
 * added to it; each writer's per-row tally is the uint64_t array at byte
 * `tally` of its struct worker.
 */
static void
check_rows(const char *what, unsigned int group, uint32_t n_rows, size_t tally)
{
	for (uint32_t r = 0; r < n_rows; r++) {
		uint64_t v[3] = { 0 }, want = tt_preset(r);
		unsigned int l;

		RTE_LCORE_FOREACH_WORKER(l)
			want += ((const uint64_t *)((const char *)&workers[l] + tally))[r];
		CHECK(fastmib_read_raw(seg, group, r, v) == 0 && v[0] == want && tt_consistent(v),
		      "%s row %u: %" PRIu64 " != %" PRIu64, what, r, v[0], want);
	}
}

int
main(int argc, char **argv)
{
	char path[256], rounds[32];
	char *rargv[4];
	uint64_t before[3], after[3], v[3], raw[3], total = 0;
	struct fastmib_writer *w;
	pid_t pid;
	int status = 0, resets = 0;
	unsigned l;

	if (argc < 2)
		return 2;
	snprintf(rounds, sizeof(rounds), "%s", argc > 2 ? argv[2] : "600000");
	tu_eal_init(argv[0], "0@0,1@0,2@1,3@1");
	tu_path(path, sizeof(path), "torture");
	unlink(path);
	if (fastmib_create(&ts_schema, path, NULL, &seg) != 0) {
		fprintf(stderr, "torture: %s\n", fastmib_last_error());
		return 1;
	}
	for (uint32_t r = 0; r < TT_SESSIONS; r++)
		fastmib_row_enable(seg, TS_SESSION, r);
	for (uint32_t r = 0; r < TS_FLOW_ROWS; r++)
		fastmib_row_enable(seg, TS_FLOW, r);
	w = fastmib_writer(seg);
	preset(w);
	/* The presets are counted values, not a reset: start baselines at 0. */
	CHECK(fastmib_reset(seg, -1, 0) == 0, "module reset");
	CHECK(fastmib_read(seg, TS_GLOBAL, 0, v) == 0 && v[0] == 0, "module reset value");

	RTE_LCORE_FOREACH_WORKER(l)
		tu_launch(writer_main, NULL, l);
	while (tx_total() == 0)
		rte_pause();

	/* posix_spawn execs at once: no code of ours runs in an EAL child. */
	rargv[0] = argv[1];
	rargv[1] = path;
	rargv[2] = rounds;
	rargv[3] = NULL;
	if (posix_spawn(&pid, argv[1], NULL, NULL, rargv, environ) != 0) {
		fprintf(stderr, "torture: cannot spawn %s\n", argv[1]);
		return 1;
	}
	while (waitpid(pid, &status, WNOHANG) == 0)
		resets += reset_round(before, after);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "reader failed (status %d)", status);
	/* One more reset while writers still run, then stop them. */
	while (!reset_round(before, after))
		;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	RTE_LCORE_FOREACH_WORKER(l)
		CHECK(tu_wait(l) == 0, "writer %u failed", l);

	/* Exact totals. */
	total = tx_total();
	CHECK(fastmib_read_raw(seg, TS_GLOBAL, 0, raw) == 0, "final raw read");
	CHECK(raw[0] == TT_PRESET_LOW + total, "global pkts %" PRIu64 " != %" PRIu64,
	      raw[0], TT_PRESET_LOW + total);
	CHECK(tt_consistent(raw), "global bytes");
	check_rows("flow", TS_FLOW, TS_FLOW_ROWS, offsetof(struct worker, flow));
	check_rows("session", TS_SESSION, TT_SESSIONS, offsetof(struct worker, session));
	CHECK(fastmib_read_raw(seg, TS_POOL, 0, v) == 0 && v[0] == total &&
	      v[2] == (uint64_t)(1ull << 32) - 10 + total, "pool %" PRIu64 " %" PRIu64, v[0], v[2]);
	/* The last baseline b: before <= b <= after, and read == raw - b. */
	CHECK(fastmib_read(seg, TS_GLOBAL, 0, v) == 0, "final read");
	CHECK(raw[0] - v[0] >= before[0] && raw[0] - v[0] <= after[0],
	      "baseline %" PRIu64 " outside [%" PRIu64 ", %" PRIu64 "]", raw[0] - v[0],
	      before[0], after[0]);
	CHECK(total > 100000, "only %" PRIu64 " transactions", total);
	RTE_LCORE_FOREACH_WORKER(l)
		CHECK(workers[l].flushes > 0, "lcore %u never flushed", l);

	printf("torture: %" PRIu64 " transactions, %d resets, flushes/misses:", total, resets);
	RTE_LCORE_FOREACH_WORKER(l)
		printf(" %" PRIu64 "/%" PRIu64, workers[l].flushes, workers[l].misses);
	printf(", %d failures\n", failures);
	fastmib_close(seg);
	unlink(path);
	rte_eal_cleanup();
	return failures ? 1 : 0;
}
