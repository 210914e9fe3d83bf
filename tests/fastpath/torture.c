/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Torture: 3 writer lcores on 2 CPUs update every storage kind in
 * transactions while a separate reader process checks every snapshot and
 * resets rows, and the main lcore resets the scalar group. Afterwards
 * every raw counter must equal exactly its preset plus what was added, and
 * the last reset's baseline must lie between two raw snapshots taken
 * around it (so no increment after it was lost).
 *
 * The writers take turns between the API forms: the calls on the writer
 * (fastmib_begin(), fastmib_pc_add(), ...), the generated transaction form
 * of the same layout (tg_stats.h: tg_tx_begin(), row handles), and
 * transactions of one storage kind each (fastmib_tx_begin() with
 * FASTMIB_TX_PERCORE, then FASTMIB_TX_BUFFERED), as models without
 * shared-buffered or without per-core groups make them, and the two
 * documented per-burst patterns: a value prepared once with a short
 * transaction per packet (tg_tx_prepare(), tg_tx_open()), and a burst
 * counted after its work in one transaction.
 *
 * With `split`, the negative control: the transaction form's updates are
 * cut into two transactions (packets, then octets), which readers must
 * see; the reader is told to expect half transactions and fails if it
 * never sees one, and the checks of consistency after resets are off.
 * Usage: torture READER_EXE [READER_ROUNDS [split]]
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
#include "tg_stats.h"
#include "torture.h"
#include "tutil.h"

/* The generated model has the hand-written schema's layout. */
_Static_assert(TG_GROUP_GLOBAL == TS_GLOBAL && TG_GROUP_SESSION == TS_SESSION &&
	       TG_GROUP_POOL == TS_POOL && TG_GROUP_FLOW == TS_FLOW, "group ids");
_Static_assert(TG_FLOW_OFFSET == TS_FLOW_OFF && TG_FLOW_ROW_SIZE == TS_FLOW_ROW &&
	       TG_FLOW_ROWS == TS_FLOW_ROWS && TG_SESSION_OFFSET == TS_SESSION_OFF &&
	       TG_SESSION_ROW_SIZE == TS_SESSION_ROW && TG_POOL_OFFSET == TS_POOL_ALLOCS &&
	       TG_PERCORE_SIZE == 448 && TG_SHARED_SIZE == 1728, "layout");

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
static int split; /* the negative control: see the top of the file */

#define CHECK(cond, ...)                                              \
	do {                                                          \
		if (!(cond)) {                                        \
			fprintf(stderr, "torture: " __VA_ARGS__);     \
			fputc('\n', stderr);                          \
			failures++;                                   \
		}                                                     \
	} while (0)

/* One packet (1 of global, flow f, session s; 1500 octets each) with the
 * calls on the writer. */
static void
packet_calls(struct fastmib_writer *w, uint32_t f, uint32_t s)
{
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
}

/* The same with the generated transaction form: one transaction of every
 * kind, row handles for the tables. In split mode, packets and octets go
 * into two transactions, with a pause between them. */
static void
packet_tx(struct fastmib_writer *w, uint32_t f, uint32_t s)
{
	struct tg_tx tx = tg_tx_begin(w);
	struct tg_flow_ref fr = tg_tx_flow(&tx, f / TG_FLOW_QUEUE_MAX, f % TG_FLOW_QUEUE_MAX);
	struct tg_session_ref sr = tg_tx_session(&tx, s);

	tg_tx_global_pkts_add(&tx, 1);
	tg_flow_ref_pkts_add(fr, 1);
	tg_session_ref_pkts_add(sr, 1);
	tg_tx_pool_allocs_add(&tx, 1);
	if (split) {
		tg_tx_end(&tx);
		for (int i = 0; i < 20; i++)
			rte_pause();
		tx = tg_tx_begin(w);
	}
	tg_tx_global_bytes_add(&tx, TT_BYTES_PER_PKT);
	tg_flow_ref_bytes_add(fr, TT_BYTES_PER_PKT);
	tg_session_ref_bytes_add(sr, TT_BYTES_PER_PKT);
	tg_tx_pool_fails_add(&tx, 1);
	tg_tx_end(&tx);
}

/* One transaction per storage kind, as a per-core-only and a
 * buffered-only model make them (the generic form generated code uses). */
static void
packet_by_kind(struct fastmib_writer *w, uint32_t f, uint32_t s)
{
	struct fastmib_tx tx = fastmib_tx_begin(w, FASTMIB_TX_PERCORE);
	uint64_t *flow = fastmib_tx_pc(&tx, TS_FLOW_PKTS(f));

	fastmib_word_add(fastmib_tx_pc(&tx, TS_GLOBAL_PKTS), 1);
	fastmib_word_add(&flow[0], 1);
	fastmib_word_add(fastmib_tx_pc(&tx, TS_GLOBAL_BYTES), TT_BYTES_PER_PKT);
	fastmib_word_add(&flow[1], TT_BYTES_PER_PKT);
	fastmib_tx_end(&tx);
	tx = fastmib_tx_begin(w, FASTMIB_TX_BUFFERED);
	fastmib_wb_add(w, TS_SESSION_PKTS(s), 1);
	fastmib_wb_add(w, TS_SESSION_BYTES(s), TT_BYTES_PER_PKT);
	fastmib_tx_end(&tx);
	fastmib_word_atomic_add(fastmib_tx_shared(&tx, TS_POOL_ALLOCS), 1);
	fastmib_word_atomic_add(fastmib_tx_shared(&tx, TS_POOL_FAILS), 1);
}

/* A packet's updates on a value prepared once per writer: the short
 * transaction of the documented per-packet pattern. */
static void
packet_prepared(struct tg_tx *tx, uint32_t f, uint32_t s)
{
	struct tg_flow_ref fr;
	struct tg_session_ref sr;

	tg_tx_open(tx);
	fr = tg_tx_flow(tx, f / TG_FLOW_QUEUE_MAX, f % TG_FLOW_QUEUE_MAX);
	sr = tg_tx_session(tx, s);
	tg_tx_global_pkts_add(tx, 1);
	tg_tx_global_bytes_add(tx, TT_BYTES_PER_PKT);
	tg_flow_ref_pkts_add(fr, 1);
	tg_flow_ref_bytes_add(fr, TT_BYTES_PER_PKT);
	tg_session_ref_pkts_add(sr, 1);
	tg_session_ref_bytes_add(sr, TT_BYTES_PER_PKT);
	tg_tx_pool_allocs_add(tx, 1);
	tg_tx_pool_fails_add(tx, 1);
	tg_tx_end(tx);
}

/* The documented per-burst pattern: the burst's packets are counted after
 * their work, all in one short transaction. */
#define TT_BURST 8
struct burst {
	uint32_t n;
	uint32_t f[TT_BURST], s[TT_BURST];
};

static void
burst_commit(struct fastmib_writer *w, struct burst *b)
{
	struct tg_tx tx = tg_tx_begin(w);

	for (uint32_t k = 0; k < b->n; k++) {
		struct tg_flow_ref fr = tg_tx_flow(&tx, b->f[k] / TG_FLOW_QUEUE_MAX,
						   b->f[k] % TG_FLOW_QUEUE_MAX);

		tg_tx_global_pkts_add(&tx, 1);
		tg_tx_global_bytes_add(&tx, TT_BYTES_PER_PKT);
		tg_flow_ref_pkts_add(fr, 1);
		tg_flow_ref_bytes_add(fr, TT_BYTES_PER_PKT);
		tg_tx_session_pkts_add(&tx, b->s[k], 1);
		tg_tx_session_bytes_add(&tx, b->s[k], TT_BYTES_PER_PKT);
		tg_tx_pool_allocs_add(&tx, 1);
		tg_tx_pool_fails_add(&tx, 1);
	}
	tg_tx_end(&tx);
	b->n = 0;
}

static int
writer_main(void *arg)
{
	struct worker *me = &workers[rte_lcore_id()];
	struct fastmib_writer *w = fastmib_writer(seg);
	struct burst burst = { .n = 0 };
	struct tg_tx prepared;
	uint64_t i = 0;

	(void)arg;
	if (w == NULL)
		return -1;
	prepared = tg_tx_prepare(w);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint32_t s = (uint32_t)((i * 7 + rte_lcore_id()) % TT_SESSIONS);
		uint32_t f = (uint32_t)(i % TS_FLOW_ROWS);

		switch (i % 5) {
		case 0:
			packet_calls(w, f, s);
			break;
		case 1:
			packet_tx(w, f, s);
			break;
		case 2:
			packet_by_kind(w, f, s);
			break;
		case 3:
			packet_prepared(&prepared, f, s);
			break;
		default:
			burst.f[burst.n] = f;
			burst.s[burst.n++] = s;
			if (burst.n == TT_BURST)
				burst_commit(w, &burst);
			break;
		}
		me->session[s]++;
		me->flow[f]++;
		/* packets whose updates are committed: not those of the burst
		 * being collected */
		__atomic_store_n(&me->tx, ++i - burst.n, __ATOMIC_RELEASE);
	}
	if (burst.n)
		burst_commit(w, &burst);
	__atomic_store_n(&me->tx, i, __ATOMIC_RELEASE);
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
 * after is bounded by the packets published meanwhile. */
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
	/* each writer may have committed one transaction (a burst, at most)
	 * that it has not published yet */
	CHECK(v[0] <= c1 - c0 + n_workers * TT_BURST, "after reset %" PRIu64 " > %" PRIu64
	      " increments", v[0], c1 - c0 + n_workers * TT_BURST);
	CHECK(split || rc == -EBUSY || tt_consistent(v), "inconsistent value after reset");
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
	char *rargv[5];
	uint64_t before[3], after[3], v[3], raw[3], total = 0;
	struct fastmib_writer *w;
	pid_t pid;
	int status = 0, resets = 0;
	unsigned l;

	if (argc < 2)
		return 2;
	snprintf(rounds, sizeof(rounds), "%s", argc > 2 ? argv[2] : "600000");
	split = argc > 3 && strcmp(argv[3], "split") == 0;
	tu_eal_init(argv[0], "0@0,1@0,2@1,3@1");
	tu_path(path, sizeof(path), "torture");
	unlink(path);
	if (fastmib_create(&tg_schema, path, NULL, &seg) != 0) {
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
	rargv[3] = split ? "split" : NULL;
	rargv[4] = NULL;
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
	CHECK(split || total > 100000, "only %" PRIu64 " packets", total);
	RTE_LCORE_FOREACH_WORKER(l)
		CHECK(workers[l].flushes > 0, "lcore %u never flushed", l);

	printf("torture: %" PRIu64 " packets%s, %d resets, flushes/misses:", total,
	       split ? " (transaction form split in two)" : "", resets);
	RTE_LCORE_FOREACH_WORKER(l)
		printf(" %" PRIu64 "/%" PRIu64, workers[l].flushes, workers[l].misses);
	printf(", %d failures\n", failures);
	fastmib_close(seg);
	unlink(path);
	rte_eal_cleanup();
	return failures ? 1 : 0;
}
