/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fm-writer: test traffic for the SNMP system tests.
 *
 * Creates a segment of a test model (the example model unless built with
 * another FM_SCHEMA) and updates it from two lcores, driven by the schema
 * alone (every group, storage kind, counter type and index type), gives
 * the states of every present row their values of variant A
 * (fm-state-wire.h), then writes the exact values SNMP must report to a
 * JSON file: counters, histograms (each lcore observes one value, the
 * bound of a bucket chosen by row, counter and lcore), peaks (each lcore
 * records one, the maximum reported) and the module's objects as
 * net-snmp's tools print them ("objects"; the bucket bounds, which a
 * reset leaves, also in "levels"), states as their values on the wire
 * ("states": [{"oid", "group", "state", "row", "syntax", "value"}]).
 *
 * A keyed table gets keys 0 .. N-1 (--keys N, default 48, at most its
 * capacity) inserted before anything is written: key number n is a fixed
 * function of n (fm-keys.c), and the row's values are a function of n as
 * a row's values are of its row elsewhere. The expectations name each
 * key's instances by its SNMP index and list, per keyed table ("keyed"),
 * every key: its number, row, index (sub-identifiers), the key in words
 * and where its key record lies in the file ("layout" says where the
 * change logs and the header's keys area lie).
 *
 *   fill: add known amounts once, flush, write the expectations, exit; the
 *         segment stays (until unlinked) for the agent to serve.
 *   live: keep adding weight * k to every Counter64 of a group or row in one
 *         transaction, until SIGTERM/SIGINT; in per-core and shared-buffered
 *         storage each such set ("invariants") stays proportional to its
 *         weights in every snapshot. Shared-atomic storage promises each
 *         counter alone, not a group snapshot, so its sets ("monotonic")
 *         only never go backwards.
 *   events: fill, print "ready", then log event records on command, one
 *         command per line of standard input, and answer each with one JSON
 *         line listing the records it logged in order ({"event", "arc",
 *         "notify", "slot", "args"}); exits at "quit" or end of input. Records are
 *         logged whatever their rate (fastmib_event_log() directly), so the
 *         sequence is exact:
 *           script        every event of the model in model order, three
 *                         rounds: lcore 0, then lcore 1, then lcore 0 again
 *           flood N NAME  N records of event NAME from lcore 0
 *           stall         lcore 0 opens a transaction, adds 1 to the first
 *                         counter of the first per-core scalar group and
 *                         leaves it open, as a writer preempted or dead
 *                         mid-transaction would (answers [])
 *           release       ... and closes it (answers [])
 *           add GROUP COUNTER ROW N
 *                         lcore 0 adds N to counter COUNTER of row ROW
 *                         (0-based; 0 in a scalar group; the key number
 *                         in a keyed table) of group GROUP
 *                         (model names) in one transaction, flushed: a
 *                         step of known size (answers [])
 *           insert GROUP N
 *                         insert key number N into keyed table GROUP and
 *                         write its values (each counter's fill total, in
 *                         one transaction, then its states): answers
 *                         [{"group", "number", "row", "new": true, "index",
 *                         "key", "record", "objects", "states"}], or "new":
 *                         false (nothing written) for a key the table holds
 *           remove GROUP N
 *                         bring the row's gauges to zero (a level is the
 *                         application's: the library keeps a reused row's
 *                         gauges), then remove key number N: answers
 *                         [{"group", "number", "row", "index"}], or []
 *                         when the table does not hold it
 *           blink MS      for MS milliseconds, lcore 1 repeats: open a
 *                         transaction, add 1 to the first Counter64 of
 *                         that group, sleep 200 us, add 2 to the second,
 *                         close it, sleep 100 us: a writer preempted
 *                         mid-transaction most of the time (answers [] at
 *                         once; "join" answers [] when it is over)
 *           churn MS FROM TO
 *                         until "join" (at most MS milliseconds), lcore 1
 *                         repeats: in a keyed table drawn at random, key
 *                         number n drawn from FROM..TO-1 is removed if
 *                         present, else inserted with its values (as
 *                         remove and insert do), then 20 us of pause.
 *                         Answers at once, for every keyed table and n,
 *                         [{"group", "number", "index", "objects",
 *                         "states"}]: the key's instances and values while
 *                         present (its states those of a new row until
 *                         they are set, after its counters); the
 *                         keys left present stay ("remove" takes them)
 *
 * Usage: fm-writer fill|live|events SEGMENT EXPECT.json [--scale N]
 *                  [--rows sparse|all] [--keys N] [--file-prefix NAME]
 *                  [--group GROUP] [--mode OCTAL]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "fastmib/fastmib.h"
#include "fm-keys.h"
#include "fm-state-wire.h"

/* Built once per test model: FM_SCHEMA names its generated schema. */
#ifndef FM_SCHEMA
#define FM_SCHEMA ep_schema
#endif
extern const struct fastmib_schema FM_SCHEMA;

#define N_LCORES 2
#define DEFAULT_KEYS 48

static volatile sig_atomic_t stop_requested;

struct run {
	const struct fastmib_schema *sc;
	struct fastmib_segment *seg;
	bool live;
	bool events;
	bool all_rows;
	uint64_t scale;
	uint32_t n_keys;     /* keys inserted at start in each keyed table */
	uint32_t **key_num;  /* keyed tables: per row, its key's number + 1, 0 = none */
	int failed;
};

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Rows the writer enables in a `rows: present` table (sparse mode). */
static bool
sparse_row(uint32_t row, uint32_t n_rows)
{
	static const uint32_t picks[] = { 0, 1, 2, 5, 6, 100, 1000, 4095 };

	if (row == n_rows - 1)
		return true;
	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
		if (picks[i] == row)
			return true;
	return false;
}

static bool
row_enabled(const struct run *rn, uint32_t g, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];

	if (rn->key_num[g])
		return rn->key_num[g][row] != 0;
	if (gs->n_indexes == 0 || gs->all_rows || rn->all_rows)
		return true;
	return sparse_row(row, gs->n_rows);
}

/* What the values of row `row` of group g are a function of: the row, or
 * in a keyed table its key's number. */
static uint32_t
row_number(const struct run *rn, uint32_t g, uint32_t row)
{
	return rn->key_num[g] ? rn->key_num[g][row] - 1 : row;
}

/* The bucket of observation v in histogram cs, 0-based, found the slow
 * way (the first bound v does not exceed, else the unbounded last): the
 * test's own rule, not the generated code's. */
static uint32_t
bucket_of(const struct fastmib_counter_schema *cs, uint64_t v)
{
	uint32_t b = 0;

	while (b < cs->n_bounds && v > cs->bounds[b])
		b++;
	return b;
}

/* The value lcore `l` observes in histogram cs (counter c) of the row
 * numbered n in fill mode: the bound of a bucket that moves with the
 * row, the counter and the lcore (past the last bound in the unbounded
 * one), never 0, so that a fill writes every histogram once per lcore. */
static uint64_t
observation(const struct fastmib_counter_schema *cs, uint32_t n, uint32_t c, uint64_t l)
{
	uint32_t k = (uint32_t)((n + c + 2 * l) % (cs->n_bounds + 1));

	if (k == 0 && cs->bounds[0] == 0)
		k = 1;
	return k < cs->n_bounds ? cs->bounds[k] : cs->bounds[cs->n_bounds - 1] + 1 + n % 97;
}

/* Amount lcore `l` adds to counter `c` of the row numbered n (row_number())
 * of group `g` in fill mode; for a histogram the value it observes, for a
 * peak the value it records. */
static uint64_t
fill_amount(const struct run *rn, uint32_t g, uint32_t c, uint32_t n, uint64_t l)
{
	const struct fastmib_counter_schema *cs = &rn->sc->groups[g].counters[c];
	uint64_t base = rn->scale * (1000u * (g + 1) + 10u * (c + 1) + n % 997) +
			(l ? 7 : 0);

	switch (cs->type) {
	case FASTMIB_HISTOGRAM:
		return observation(cs, n, c, l);
	case FASTMIB_PEAK:
		/* lcore 1's the larger: the peak is the maximum, not a sum */
		return base;
	case FASTMIB_COUNTER32:
		/* the two lcores' sum crosses 2^32: reported modulo 2^32 */
		return base + (l == 0 ? 0xffffff00u : 0x200u);
	case FASTMIB_GAUGE32:
		/* up on one lcore, down on the other */
		return l == 0 ? 5000 + base : (uint64_t)-(int64_t)1200;
	default:
		/* exercise the high half of Counter64 on some rows */
		return base + (l == 0 && n % 5 == 0 ? (3ull << 32) : 0);
	}
}

static void
add(struct fastmib_writer *w, const struct fastmib_group_schema *g, uint32_t row,
    uint32_t c, uint64_t n)
{
	uint32_t off = (uint32_t)(g->offset + (uint64_t)row * g->row_size +
				  g->counters[c].offset);

	switch (g->storage) {
	case FASTMIB_STORAGE_PER_CORE:
		fastmib_pc_add(w, off, n);
		break;
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		fastmib_wb_add(w, off, n);
		break;
	default:
		fastmib_atomic_add(w, off, n);
		break;
	}
}

/* Counter c of row `row` takes `n`: added to a counter, observed by a
 * histogram, recorded by a peak (both per-core only). */
static void
record(struct fastmib_writer *w, const struct fastmib_group_schema *g, uint32_t row,
       uint32_t c, uint64_t n)
{
	const struct fastmib_counter_schema *cs = &g->counters[c];
	uint32_t off = (uint32_t)(g->offset + (uint64_t)row * g->row_size + cs->offset);

	if (cs->type == FASTMIB_HISTOGRAM)
		fastmib_pc_observe(w, off, bucket_of(cs, n), cs->n_bounds + 1, n);
	else if (cs->type == FASTMIB_PEAK)
		fastmib_pc_max(w, off, n);
	else
		add(w, g, row, c, n);
}

/* Amount added to counter `c` in live pass `k`: weight c + 1 times k on
 * every Counter64, nothing elsewhere. */
static uint64_t
live_amount(const struct run *rn, uint32_t g, uint32_t c, uint32_t n, uint64_t k)
{
	(void)n;
	return rn->sc->groups[g].counters[c].type == FASTMIB_COUNTER64 ? (c + 1) * k : 0;
}

/* One transaction per enabled row of every group, adding amount(..., arg)
 * to each of the row's counters; an amount of 0 is not written at all. */
static void
write_pass(const struct run *rn, struct fastmib_writer *w,
	   uint64_t (*amount)(const struct run *, uint32_t, uint32_t, uint32_t, uint64_t),
	   uint64_t arg)
{
	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];

		for (uint32_t row = 0; gs->n_counters && row < gs->n_rows; row++) {
			uint32_t num;

			if (!row_enabled(rn, g, row))
				continue;
			num = row_number(rn, g, row);
			fastmib_begin(w);
			for (uint32_t c = 0; c < gs->n_counters; c++) {
				uint64_t n = amount(rn, g, c, num, arg);

				if (n != 0)
					record(w, gs, row, c, n);
			}
			fastmib_end(w);
		}
	}
}

static int
worker(void *arg)
{
	struct run *rn = arg;
	struct fastmib_writer *w = fastmib_writer(rn->seg);
	unsigned l = rte_lcore_index((int)rte_lcore_id());
	const struct timespec pause = { 0, 200000 };

	if (!w) {
		fprintf(stderr, "fm-writer: lcore %u: %s\n", l, fastmib_last_error());
		rn->failed = 1;
		return -1;
	}
	if (!rn->live) {
		write_pass(rn, w, fill_amount, l);
		fastmib_flush(w);
		return 0;
	}
	while (!stop_requested) {
		write_pass(rn, w, live_amount, l + 1);
		fastmib_flush(w);
		/* leave CPU to the agent under test on a small machine */
		nanosleep(&pause, NULL);
	}
	fastmib_flush(w);
	return 0;
}

/*
 * The workers' end, as ThreadSanitizer can see it: rte_eal_mp_wait_lcore()
 * orders their writes before the main thread's reads with atomics of the
 * EAL, a library built without the sanitizer, so the main thread's frees
 * and fastmib_close() would be reported as races with the workers' last
 * writes. Each worker's release here and the main thread's acquire below
 * are that order made visible (and cost nothing outside the sanitizer).
 */
static unsigned int workers_done;

static int
worker_then_done(void *arg)
{
	int rc = worker(arg);

	__atomic_fetch_add(&workers_done, 1, __ATOMIC_RELEASE);
	return rc;
}

/* ---- expectations ---- */

/* Sub-identifiers of an instance suffix below the root, at most. */
#define MAX_SFX FASTMIB_MAX_INSTANCE_OID

static char *
oid_str(const struct fastmib_schema *sc, const uint32_t *sfx, size_t n)
{
	static char buf[MAX_SFX * 12 + 64];
	size_t len = 0;

	for (uint32_t i = 0; i < sc->oid_len; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u",
					i ? "." : "", sc->oid[i]);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, ".%u", sfx[i]);
	return buf;
}

static void
expect(json_t *arr, const char *oid, const char *type, uint64_t v)
{
	char num[32];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:s}", "oid", oid,
					     "type", type, "value", num));
}

/* Sum of what the lcores add to counter c of the row numbered n in fill mode. */
static uint64_t
fill_total(const struct run *rn, uint32_t g, uint32_t c, uint32_t n)
{
	uint64_t sum = 0;

	for (unsigned l = 0; l < N_LCORES; l++)
		sum += fill_amount(rn, g, c, n, l);
	return sum;
}

static uint64_t
expected_value(const struct run *rn, uint32_t g, uint32_t c, uint32_t n,
	       const char **type)
{
	uint64_t sum = fill_total(rn, g, c, n), max = 0;

	switch (rn->sc->groups[g].counters[c].type) {
	case FASTMIB_PEAK:
		/* CounterBasedGauge64: a Counter64 on the wire */
		*type = "Counter64";
		for (unsigned l = 0; l < N_LCORES; l++)
			if (fill_amount(rn, g, c, n, l) > max)
				max = fill_amount(rn, g, c, n, l);
		return max;
	case FASTMIB_COUNTER32:
		*type = "Counter32";
		return (uint32_t)sum;
	case FASTMIB_GAUGE32:
		*type = "Gauge32";
		if ((int64_t)sum < 0)
			return 0;
		return (int64_t)sum > (int64_t)UINT32_MAX ? UINT32_MAX : sum;
	default:
		*type = "Counter64";
		return sum;
	}
}

/* The SNMP index of key number n of keyed group gs into idx; its length,
 * 0 when the table cannot hold that key. */
static size_t
key_index(const struct fastmib_group_schema *gs, uint32_t n, uint64_t *idx)
{
	uint8_t key[FMK_KEY_BYTES];

	return fmk_key(gs, n, key) == 0 ? fmk_index(gs, key, idx) : 0;
}

/* The SNMP index of the row numbered `row` of table gs (in a keyed table
 * key number `row`) appended to sfx[n..]: the new length. */
static size_t
row_index(const struct fastmib_group_schema *gs, uint32_t row, uint32_t *sfx, size_t n)
{
	uint64_t idx[MAX_SFX];
	uint32_t dense[FASTMIB_MAX_INDEXES];
	size_t k, n_idx;

	if (fastmib_group_keyed(gs)) {
		n_idx = key_index(gs, row, idx);
	} else {
		fastmib_index_of_row(gs, row, dense);
		for (k = 0; k < gs->n_indexes; k++)
			idx[k] = dense[k];
		n_idx = gs->n_indexes;
	}
	for (k = 0; k < n_idx && n + k < MAX_SFX; k++)
		sfx[n + k] = (uint32_t)idx[k];
	return n + k;
}

/* Instance suffix (below the root) of column `arc` of group gs: of row
 * `row`, or in a keyed table of key number `row`. */
static size_t
instance(const struct fastmib_group_schema *gs, uint32_t arc, uint32_t row,
	 uint32_t *sfx)
{
	size_t n = 0;

	sfx[n++] = 1;
	sfx[n++] = gs->arc;
	if (gs->n_indexes == 0) {
		sfx[n++] = arc;
		sfx[n++] = 0;
		return n;
	}
	sfx[n++] = 1;
	sfx[n++] = arc;
	return row_index(gs, row, sfx, n);
}

/* Instance suffix of column `col` of bucket `b` (1-based) in the bucket
 * table of histogram cs of group gs, for the row numbered `row`:
 * R.1.(1000 G + H).1.col, the row's index (none in a scalar group), b. */
static size_t
bucket_instance(const struct fastmib_group_schema *gs, const struct fastmib_counter_schema *cs,
		uint32_t col, uint32_t row, uint32_t b, uint32_t *sfx)
{
	size_t n = 0;

	sfx[n++] = 1;
	sfx[n++] = FASTMIB_BUCKET_TABLE_GROUP * gs->arc + cs->arc;
	sfx[n++] = 1;
	sfx[n++] = col;
	if (gs->n_indexes)
		n = row_index(gs, row, sfx, n);
	if (n < MAX_SFX)
		sfx[n++] = b;
	return n;
}

/* Histogram c of the row numbered n of group g as SNMP must report it
 * after a fill: its Count and Sum at its arc and the next, each bucket's
 * BucketLe (the bound, which no reset changes: listed in `levels` too)
 * and BucketCount. */
static void
histogram_objects(const struct run *rn, uint32_t g, uint32_t c, uint32_t n, json_t *objs,
		  json_t *levels)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	const struct fastmib_counter_schema *cs = &gs->counters[c];
	uint64_t count[FASTMIB_MAX_BOUNDS + 1] = { 0 }, sum = 0;
	uint32_t sfx[MAX_SFX];

	for (unsigned l = 0; l < N_LCORES; l++) {
		uint64_t v = fill_amount(rn, g, c, n, l);

		count[bucket_of(cs, v)]++;
		sum += v;
	}
	expect(objs, oid_str(rn->sc, sfx, instance(gs, cs->arc, n, sfx)), "Counter64", N_LCORES);
	expect(objs, oid_str(rn->sc, sfx, instance(gs, cs->arc + 1, n, sfx)), "Counter64", sum);
	for (uint32_t b = 0; b <= cs->n_bounds; b++) {
		const char *le = oid_str(rn->sc, sfx, bucket_instance(gs, cs, 2, n, b + 1, sfx));

		expect(objs, le, "Counter64", b < cs->n_bounds ? cs->bounds[b] : UINT64_MAX);
		if (levels)
			json_array_append_new(levels, json_string(le));
		expect(objs, oid_str(rn->sc, sfx, bucket_instance(gs, cs, 3, n, b + 1, sfx)),
		       "Counter64", count[b]);
	}
}

/* Does the model send notifications (a `notify` event or state)? Then
 * the agent serves <p>NotificationsDropped. */
static bool
model_notifies(const struct fastmib_schema *sc)
{
	for (uint32_t e = 0; e < sc->n_events; e++)
		if (sc->events[e].notify)
			return true;
	for (uint32_t g = 0; g < sc->n_groups; g++)
		for (uint32_t k = 0; k < sc->groups[g].n_states; k++)
			if (sc->groups[g].states[k].notify)
				return true;
	return false;
}

/* Expected objects of the row numbered n (row_number()) of group g into
 * objs (every counter, the row's Reset and DiscontinuityTime: a group of
 * states only has none), and its Counter64s with their weights for the
 * live-mode sets into set. */
static void
row_objects(const struct run *rn, uint32_t g, uint32_t n, json_t *objs, json_t *set,
	    json_t *levels)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	uint32_t sfx[MAX_SFX];

	for (uint32_t c = 0; c < gs->n_counters; c++) {
		const char *type;
		uint64_t v;
		const char *oid;

		if (gs->counters[c].type == FASTMIB_HISTOGRAM) {
			if (objs)
				histogram_objects(rn, g, c, n, objs, levels);
			continue;
		}
		v = expected_value(rn, g, c, n, &type);
		oid = oid_str(rn->sc, sfx, instance(gs, gs->counters[c].arc, n, sfx));
		if (objs)
			expect(objs, oid, type, v);
		if (set && gs->counters[c].type == FASTMIB_COUNTER64)
			json_array_append_new(set, json_pack("[s, i]", oid, (json_int_t)(c + 1)));
	}
	if (!objs || gs->n_counters == 0)
		return;
	expect(objs, oid_str(rn->sc, sfx, instance(gs, 1001, n, sfx)), "INTEGER", 2);
	expect(objs, oid_str(rn->sc, sfx, instance(gs, 1002, n, sfx)), "Timeticks", 0);
}

/* The states of the row numbered n of group g as SNMP must report them
 * (variant A, fm-state-wire.h) into `states`: each instance's OID, wire
 * syntax and value. */
static void
row_states(const struct run *rn, uint32_t g, uint32_t n, json_t *states)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	static uint8_t data[FSW_ROW_BYTES];
	uint32_t sfx[MAX_SFX];

	fsw_row(gs, g, n, FSW_A, data);
	for (uint32_t s = 0; s < gs->n_states; s++) {
		const struct fastmib_state_schema *st = &gs->states[s];
		uint32_t parts = st->type == FASTMIB_STATE_INET_ADDRESS ? 2 : 1;

		/* an inet-address: its type (part 1) at its arc, its address
		 * (part 0) at the next */
		for (uint32_t k = 0; k < parts; k++) {
			uint32_t part = parts - 1 - k;

			json_array_append_new(states, json_pack(
				"{s:s, s:s, s:s, s:i, s:s, s:o}", "oid",
				oid_str(rn->sc, sfx, instance(gs, st->arc + k, n, sfx)),
				"group", gs->name, "state", st->name, "row", (int)n,
				"syntax", fsw_syntax(st, part),
				"value", fsw_value(st, part, data + st->offset)));
		}
	}
}

/* Key number n of keyed group g, held in row `row`, as the expectations
 * and the insert command describe it. */
static json_t *
key_entry(const struct run *rn, uint32_t g, uint32_t n, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	uint8_t key[FMK_KEY_BYTES];
	uint64_t idx[MAX_SFX];
	size_t len;
	json_t *index = json_array();

	fmk_key(gs, n, key);
	len = fmk_index(gs, key, idx);
	for (size_t i = 0; i < len; i++)
		json_array_append_new(index, json_integer((json_int_t)idx[i]));
	return json_pack("{s:s, s:i, s:i, s:o, s:o, s:o}", "group", gs->name,
			 "number", (int)n, "row", (int)row, "index", index,
			 "key", fmk_key_words(gs, key), "record", fmk_record(rn->seg, g, row));
}

/* Per keyed table: its arc, its indexes and every key it holds. */
static json_t *
keyed_tables(const struct run *rn)
{
	json_t *out = json_object();

	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];
		json_t *indexes = json_array(), *keys = json_array();

		if (!rn->key_num[g]) {
			json_decref(indexes);
			json_decref(keys);
			continue;
		}
		for (uint32_t k = 0; k < gs->n_indexes; k++) {
			const char *word = fastmib_index_type_word(gs->indexes[k].type);

			json_array_append_new(indexes, json_pack(
				"{s:s, s:s, s:i, s:i}", "name", gs->indexes[k].name,
				"type", word ? word : "integer", "max", (int)gs->indexes[k].max,
				"size", (int)gs->indexes[k].size));
		}
		for (uint32_t row = 0; row < gs->n_rows; row++)
			if (rn->key_num[g][row])
				json_array_append_new(keys, key_entry(rn, g,
								      rn->key_num[g][row] - 1, row));
		json_object_set_new(out, gs->name, json_pack("{s:i, s:o, s:o}", "arc",
							     (int)gs->arc, "indexes", indexes,
							     "keys", keys));
	}
	return out;
}

/* A few instances of rows that are not there, to probe: absent rows of a
 * sparse table, keys a keyed table does not hold. */
static void
absent_probes(const struct run *rn, uint32_t g, json_t *absent)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	uint32_t sfx[MAX_SFX];
	/* the first column, a counter's or (a group of states only) a state's */
	uint32_t arc = gs->n_counters ? gs->counters[0].arc : gs->states[0].arc;

	if (rn->key_num[g]) {
		for (uint32_t n = rn->n_keys; n < rn->n_keys + 4 && n < FMK_MAX_NUMBER; n++)
			if (key_index(gs, n, (uint64_t[MAX_SFX]){ 0 }) > 0)
				json_array_append_new(absent, json_string(
					oid_str(rn->sc, sfx, instance(gs, arc, n, sfx))));
		return;
	}
	for (uint32_t row = 0; row < gs->n_rows && row < 8; row++)
		if (!row_enabled(rn, g, row))
			json_array_append_new(absent, json_string(
				oid_str(rn->sc, sfx, instance(gs, arc, row, sfx))));
}

static json_t *
build_expectations(const struct run *rn)
{
	const struct fastmib_schema *sc = rn->sc;
	json_t *objs = json_array(), *absent = json_array(), *inv = json_array();
	json_t *mono = json_array(), *states = json_array(), *levels = json_array();
	struct fastmib_info info;

	for (uint32_t g = 0; g < sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &sc->groups[g];

		absent_probes(rn, g, absent);
		for (uint32_t row = 0; row < gs->n_rows; row++) {
			json_t *set = json_array();

			if (!row_enabled(rn, g, row)) {
				json_decref(set);
				continue;
			}
			row_objects(rn, g, row_number(rn, g, row), rn->live ? NULL : objs, set, levels);
			if (!rn->live)
				row_states(rn, g, row_number(rn, g, row), states);
			if (json_array_size(set) >= 2 && row < 4096)
				json_array_append_new(gs->storage ==
						      FASTMIB_STORAGE_SHARED_ATOMIC ?
						      mono : inv, set);
			else
				json_decref(set);
		}
	}
	if (!rn->live) {
		expect(objs, oid_str(sc, (uint32_t[]){ 2, 1, 0 }, 3), "INTEGER", 2);
		expect(objs, oid_str(sc, (uint32_t[]){ 2, 2, 0 }, 3), "Timeticks", 0);
		/* WriterStatus: fill mode exits once it has written this file,
		 * gone(2); events mode stays, running(1) */
		expect(objs, oid_str(sc, (uint32_t[]){ 2, 3, 0 }, 3), "INTEGER",
		       rn->events ? 1 : 2);
		/* BestEffortReads, OutOfRangeUpdates: no lcore stalls or
		 * misses a row here */
		expect(objs, oid_str(sc, (uint32_t[]){ 2, 4, 0 }, 3), "Counter64", 0);
		expect(objs, oid_str(sc, (uint32_t[]){ 2, 5, 0 }, 3), "Counter64", 0);
		/* NotificationsDropped, in a model that notifies: none yet */
		if (model_notifies(sc))
			expect(objs, oid_str(sc, (uint32_t[]){ 2, 6, 0 }, 3), "Counter64", 0);
		/* event statistics: one row per event, nothing logged yet (the
		 * event table itself is empty) */
		for (uint32_t e = 0; e < sc->n_events; e++) {
			char name[FASTMIB_MAX_NAME + 3];
			uint32_t arc = sc->events[e].arc;

			snprintf(name, sizeof(name), "\"%s\"", sc->events[e].name);
			json_array_append_new(objs, json_pack(
				"{s:s, s:s, s:s}", "oid",
				oid_str(sc, (uint32_t[]){ 4, 2, 1, 2, arc }, 5),
				"type", "STRING", "value", name));
			expect(objs, oid_str(sc, (uint32_t[]){ 4, 2, 1, 3, arc }, 5),
			       "Counter64", 0);
			expect(objs, oid_str(sc, (uint32_t[]){ 4, 2, 1, 4, arc }, 5),
			       "Counter64", 0);
		}
	}
	fastmib_info(rn->seg, &info);
	return json_pack("{s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "module", sc->module, "prefix", sc->prefix,
			 "root", oid_str(sc, NULL, 0),
			 "generation", (json_int_t)info.generation,
			 "objects", objs, "states", states, "levels", levels,
			 "absent", absent, "invariants", inv,
			 "monotonic", mono, "keyed", keyed_tables(rn),
			 "layout", fmk_layout(rn->seg));
}

static int
write_expectations(const struct run *rn, const char *path)
{
	char tmp[4096];
	json_t *doc = build_expectations(rn);
	int rc;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	rc = json_dump_file(doc, tmp, JSON_INDENT(1));
	json_decref(doc);
	/* rename: a reader polling for the file never sees half of it */
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0)
		fprintf(stderr, "fm-writer: cannot write %s\n", path);
	return rc;
}

/* ---- keys of keyed tables ---- */

/* The keyed table named `name`, or -1. */
static int
keyed_group(const struct run *rn, const char *name)
{
	for (uint32_t g = 0; g < rn->sc->n_groups; g++)
		if (rn->key_num[g] && strcmp(rn->sc->groups[g].name, name) == 0)
			return (int)g;
	return -1;
}

/* Insert key number n into keyed table g: its row into *row; 0 for a new
 * key, 1 for a key the table held, -1 (message on stderr) for an error. */
static int
insert_key(const struct run *rn, uint32_t g, uint32_t n, uint32_t *row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	uint8_t key[FMK_KEY_BYTES];
	uint32_t held;

	if (n >= FMK_MAX_NUMBER || fmk_key(gs, n, key) != 0)
		return -1;
	if (fastmib_key_insert(rn->seg, g, key, row) < 0) {
		fprintf(stderr, "fm-writer: %s\n", fastmib_last_error());
		return -1;
	}
	held = rn->key_num[g][*row];
	if (held == n + 1)
		return 1;
	if (held != 0) {
		fprintf(stderr, "fm-writer: group %s: key numbers %u and %u make the same "
			"key\n", gs->name, held - 1, n);
		return -1;
	}
	rn->key_num[g][*row] = n + 1;
	return 0;
}

/* The row of key number n in keyed table g: 0, -ENOENT, or another error. */
static int
find_key(const struct run *rn, uint32_t g, uint32_t n, uint32_t *row)
{
	uint8_t key[FMK_KEY_BYTES];

	if (n >= FMK_MAX_NUMBER || fmk_key(&rn->sc->groups[g], n, key) != 0)
		return -EINVAL;
	return fastmib_key_find(rn->seg, g, key, row);
}

/* One transaction of this lcore adding to each counter of row `row` what
 * the lcores add in fill mode altogether, applied at once. */
static int
write_totals(const struct run *rn, uint32_t g, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	struct fastmib_writer *w = fastmib_writer(rn->seg);

	if (!w)
		return -1;
	fastmib_begin(w);
	for (uint32_t c = 0; c < gs->n_counters; c++) {
		uint32_t num = row_number(rn, g, row);
		uint64_t n = fill_total(rn, g, c, num);
		uint32_t t = gs->counters[c].type;

		if (t == FASTMIB_HISTOGRAM || t == FASTMIB_PEAK) {
			/* what each lcore observes or records, not a total */
			for (unsigned l = 0; l < N_LCORES; l++)
				record(w, gs, row, c, fill_amount(rn, g, c, num, l));
		} else if (n != 0) {
			add(w, gs, row, c, n);
		}
	}
	fastmib_end(w);
	fastmib_flush(w);
	return 0;
}

/* The states of row `row` of group g to their values of variant A, in one
 * publication. */
static int
write_states(const struct run *rn, uint32_t g, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	static uint8_t data[FSW_ROW_BYTES];

	if (gs->n_states == 0)
		return 0;
	fsw_row(gs, g, row_number(rn, g, row), FSW_A, data);
	if (fastmib_state_set(rn->seg, g, row, data) < 0) {
		fprintf(stderr, "fm-writer: %s\n", fastmib_last_error());
		return -1;
	}
	return 0;
}

/* A new key's row: its counters' totals, then its states (a reader between
 * the two sees the counters with the states a row starts with). */
static int
write_row(const struct run *rn, uint32_t g, uint32_t row)
{
	return write_totals(rn, g, row) == 0 && write_states(rn, g, row) == 0 ? 0 : -1;
}

/* Bring the gauges of row `row` back to zero, as an application does
 * whose levels go with the key. */
static int
gauges_to_zero(const struct run *rn, uint32_t g, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	struct fastmib_writer *w = fastmib_writer(rn->seg);
	uint64_t v[FASTMIB_MAX_COUNTERS];

	if (!w || fastmib_read(rn->seg, g, row, v) < 0)
		return -1;
	fastmib_begin(w);
	for (uint32_t c = 0; c < gs->n_counters; c++) {
		uint64_t x = v[fastmib_counter_word(&gs->counters[c])];

		if (gs->counters[c].type == FASTMIB_GAUGE32 && x != 0)
			add(w, gs, row, c, (uint64_t)0 - x);
	}
	fastmib_end(w);
	fastmib_flush(w);
	return 0;
}

/* Remove key number n from keyed table g, its gauges brought to zero
 * first (the application's levels go with the key): its row into *row;
 * 0, -ENOENT when the table does not hold it, -1 (message) on error. */
static int
remove_key(const struct run *rn, uint32_t g, uint32_t n, uint32_t *row)
{
	uint8_t key[FMK_KEY_BYTES];
	int rc;

	if (n >= FMK_MAX_NUMBER || fmk_key(&rn->sc->groups[g], n, key) != 0)
		return -1;
	rc = fastmib_key_find(rn->seg, g, key, row);
	if (rc == -ENOENT)
		return rc;
	if (rc < 0 || gauges_to_zero(rn, g, *row) != 0 ||
	    fastmib_key_remove(rn->seg, g, key) < 0) {
		fprintf(stderr, "fm-writer: %s\n", fastmib_last_error());
		return -1;
	}
	rn->key_num[g][*row] = 0;
	return 0;
}

/* insert GROUP N, remove GROUP N: see the top of the file. */
static int
key_command(const struct run *rn, const char *args, bool insert, json_t *out)
{
	char gname[64];
	unsigned long n;
	uint32_t row;
	json_t *e;
	int g, rc;

	if (sscanf(args, "%63s %lu", gname, &n) != 2 || (g = keyed_group(rn, gname)) < 0 ||
	    n >= FMK_MAX_NUMBER)
		return -1;
	if (insert) {
		if ((rc = insert_key(rn, (uint32_t)g, (uint32_t)n, &row)) < 0 ||
		    (rc == 0 && write_row(rn, (uint32_t)g, row) != 0))
			return -1;
		e = key_entry(rn, (uint32_t)g, (uint32_t)n, row);
		json_object_set_new(e, "new", json_boolean(rc == 0));
		if (rc == 0) {
			json_t *objs = json_array(), *states = json_array();

			row_objects(rn, (uint32_t)g, (uint32_t)n, objs, NULL, NULL);
			row_states(rn, (uint32_t)g, (uint32_t)n, states);
			json_object_set_new(e, "objects", objs);
			json_object_set_new(e, "states", states);
		}
		json_array_append_new(out, e);
		return 0;
	}
	rc = remove_key(rn, (uint32_t)g, (uint32_t)n, &row);
	if (rc == -ENOENT)
		return 0; /* nothing to remove: [] */
	if (rc < 0)
		return -1;
	e = key_entry(rn, (uint32_t)g, (uint32_t)n, row);
	json_object_del(e, "key");
	json_object_del(e, "record");
	json_array_append_new(out, e);
	return 0;
}

/* Keys 0 .. n_keys - 1 in every keyed table (at most its capacity). */
static int
insert_first_keys(struct run *rn)
{
	rn->key_num = calloc(rn->sc->n_groups, sizeof(*rn->key_num));
	if (!rn->key_num)
		return -1;
	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];
		uint32_t row;

		if (!fastmib_group_keyed(gs))
			continue;
		rn->key_num[g] = calloc(gs->n_rows, sizeof(**rn->key_num));
		if (!rn->key_num[g])
			return -1;
		for (uint32_t n = 0; n < rn->n_keys && n < gs->n_rows; n++)
			if (insert_key(rn, g, n, &row) != 0)
				return -1;
	}
	return 0;
}

static void
free_keys(struct run *rn)
{
	if (!rn->key_num)
		return;
	for (uint32_t g = 0; g < rn->sc->n_groups; g++)
		free(rn->key_num[g]);
	free(rn->key_num);
	rn->key_num = NULL;
}

/* ---- events mode ---- */

/* What one round of the script logs as argument k of event e: small
 * values, one with the high half of 64 bits set, one negative int32
 * sign-extended to 64 bits as the generated functions store it. */
static uint64_t
script_arg(uint32_t round, uint32_t e, uint32_t k)
{
	if (round == 1 && k == 0 && e == 0)
		return (5ull << 32) | 77u;
	if (round == 2 && k == 1)
		return (uint64_t)(int64_t)-5;
	return 1000u * (round + 1) + 10u * (e + 1) + k;
}

struct log_job {
	const struct run *rn;
	json_t *out;        /* array of logged records, appended in order */
	uint32_t round;
	uint32_t event;     /* flood: event index */
	uint64_t count;     /* flood: records; 0: one script round */
};

static void
log_one(const struct log_job *job, struct fastmib_writer *w, uint32_t e,
	const uint64_t *a)
{
	const struct fastmib_event_schema *es = &job->rn->sc->events[e];
	json_t *args = json_array();

	fastmib_event_log(w, e, a[0], a[1], a[2], a[3]);
	for (uint32_t k = 0; k < es->n_args; k++) {
		char num[32];

		snprintf(num, sizeof(num), "%" PRIu64, a[k]);
		json_array_append_new(args, json_string(num));
	}
	json_array_append_new(job->out, json_pack("{s:s, s:i, s:b, s:i, s:o}",
						  "event", es->name,
						  "arc", (int)es->arc,
						  "notify", (int)es->notify,
						  "slot", (int)w->slot, "args", args));
}

static int
log_job_run(void *arg)
{
	struct log_job *job = arg;
	struct fastmib_writer *w = fastmib_writer(job->rn->seg);
	uint64_t a[FASTMIB_MAX_EVENT_ARGS];

	if (!w)
		return -1;
	if (job->count) {
		for (uint64_t i = 0; i < job->count; i++) {
			for (uint32_t k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++)
				a[k] = k == 0 ? i + 1 : k;
			log_one(job, w, job->event, a);
		}
		return 0;
	}
	for (uint32_t e = 0; e < job->rn->sc->n_events; e++) {
		for (uint32_t k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++)
			a[k] = k < job->rn->sc->events[e].n_args
			       ? script_arg(job->round, e, k) : 0;
		log_one(job, w, e, a);
	}
	return 0;
}

/* The script: rounds 0 and 2 on this (main) lcore, round 1 on the other,
 * each finished before the next begins, so TSC order is logging order. */
static int
events_script(const struct run *rn, json_t *out)
{
	unsigned int other = rte_get_next_lcore(rte_lcore_id(), 1, 0);

	for (uint32_t round = 0; round < 3; round++) {
		struct log_job job = { .rn = rn, .out = out, .round = round };

		if (round == 1) {
			if (rte_eal_remote_launch(log_job_run, &job, other) != 0 ||
			    rte_eal_wait_lcore(other) != 0)
				return -1;
		} else if (log_job_run(&job) != 0) {
			return -1;
		}
	}
	return 0;
}

static int
events_flood(const struct run *rn, json_t *out, const char *args)
{
	char name[FASTMIB_MAX_NAME + 1];
	unsigned long long n;

	if (sscanf(args, "%llu %64s", &n, name) != 2)
		return -1;
	for (uint32_t e = 0; e < rn->sc->n_events; e++) {
		if (strcmp(rn->sc->events[e].name, name) == 0) {
			struct log_job job = { .rn = rn, .out = out, .event = e,
					       .count = n };

			return log_job_run(&job);
		}
	}
	return -1;
}

/* The first per-core scalar group, or NULL. */
static const struct fastmib_group_schema *
first_per_core_scalar(const struct run *rn)
{
	for (uint32_t g = 0; g < rn->sc->n_groups; g++)
		if (rn->sc->groups[g].n_indexes == 0 &&
		    rn->sc->groups[g].storage == FASTMIB_STORAGE_PER_CORE)
			return &rn->sc->groups[g];
	return NULL;
}

/* stall / release: one transaction of the main lcore left open. */
static int
stall(const struct run *rn, bool open)
{
	struct fastmib_writer *w = fastmib_writer(rn->seg);
	const struct fastmib_group_schema *gs;

	if (!w || (w->in_tx != 0) == open)
		return -1;
	if (!open) {
		fastmib_end(w);
		fastmib_flush(w);
		return 0;
	}
	gs = first_per_core_scalar(rn);
	if (!gs)
		return -1;
	fastmib_begin(w);
	add(w, gs, 0, 0, 1);
	return 0;
}

/* add GROUP COUNTER ROW N: one known step of one counter, visible at once. */
static int
add_step(const struct run *rn, const char *args)
{
	struct fastmib_writer *w = fastmib_writer(rn->seg);
	char gname[64], cname[64];
	unsigned long long n;
	unsigned long row;

	if (!w || sscanf(args, "%63s %63s %lu %llu", gname, cname, &row, &n) != 4)
		return -1;
	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];
		uint32_t r;

		if (strcmp(gs->name, gname) != 0)
			continue;
		/* a keyed table's row is its key's */
		if (rn->key_num[g] && row <= UINT32_MAX &&
		    find_key(rn, g, (uint32_t)row, &r) == 0)
			row = r;
		else if (rn->key_num[g] || row >= gs->n_rows)
			return -1;
		for (uint32_t c = 0; c < gs->n_counters; c++) {
			if (strcmp(gs->counters[c].name, cname) != 0)
				continue;
			fastmib_begin(w);
			record(w, gs, (uint32_t)row, c, n);
			fastmib_end(w);
			fastmib_flush(w);
			return 0;
		}
	}
	return -1;
}

/* The other lcore's job (blink, churn): launched by its command, waited
 * for by "join", which ends a churn at once (a blink runs its time). */
static bool other_running;
static int other_stop; /* atomic */

static unsigned int
other_lcore(void)
{
	return rte_get_next_lcore(rte_lcore_id(), 1, 0);
}

static int
other_launch(lcore_function_t *fn, void *arg)
{
	if (other_running)
		return -1;
	__atomic_store_n(&other_stop, 0, __ATOMIC_RELAXED);
	if (rte_eal_remote_launch(fn, arg, other_lcore()) != 0)
		return -1;
	other_running = true;
	return 0;
}

static int
other_join(void)
{
	if (!other_running)
		return -1;
	__atomic_store_n(&other_stop, 1, __ATOMIC_RELAXED);
	other_running = false;
	return rte_eal_wait_lcore(other_lcore()) == 0 ? 0 : -1;
}

struct blink_job {
	const struct run *rn;
	uint64_t ms;
};

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int
blink_run(void *arg)
{
	const struct blink_job *job = arg;
	const struct fastmib_group_schema *gs = first_per_core_scalar(job->rn);
	struct fastmib_writer *w = fastmib_writer(job->rn->seg);
	const struct timespec hold = { 0, 200000 }, gap = { 0, 100000 };
	uint32_t c[2], n = 0;

	for (uint32_t i = 0; gs && i < gs->n_counters && n < 2; i++)
		if (gs->counters[i].type == FASTMIB_COUNTER64)
			c[n++] = i;
	if (!w || n < 2)
		return -1;
	for (uint64_t end = mono_ms() + job->ms; mono_ms() < end;) {
		fastmib_begin(w);
		add(w, gs, 0, c[0], 1);
		nanosleep(&hold, NULL);
		add(w, gs, 0, c[1], 2);
		fastmib_end(w);
		nanosleep(&gap, NULL);
	}
	return 0;
}

static int
blink(const struct run *rn, const char *args)
{
	static struct blink_job job;
	unsigned long long ms;

	if (other_running || sscanf(args, "%llu", &ms) != 1)
		return -1;
	job = (struct blink_job){ .rn = rn, .ms = ms };
	return other_launch(blink_run, &job);
}

struct churn_job {
	const struct run *rn;
	uint64_t ms;
	uint32_t from, to;
};

/* Until "join" (or ms): in a keyed table drawn at random, key number n
 * drawn from from..to-1 is removed if present, else inserted with its
 * values, as remove and insert do; a pause of 20 us between two. */
static int
churn_run(void *arg)
{
	const struct churn_job *job = arg;
	const struct run *rn = job->rn;
	const struct timespec gap = { 0, 20000 };
	uint32_t keyed[FASTMIB_MAX_GROUPS], n_keyed = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (uint32_t g = 0; g < rn->sc->n_groups; g++)
		if (rn->key_num[g])
			keyed[n_keyed++] = g;
	for (uint64_t end = mono_ms() + job->ms;
	     n_keyed && mono_ms() < end && !__atomic_load_n(&other_stop, __ATOMIC_RELAXED);) {
		uint32_t g, n, row;
		int rc;

		x ^= x << 13; /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		g = keyed[x % n_keyed];
		n = job->from + (uint32_t)((x >> 16) % (job->to - job->from));
		rc = remove_key(rn, g, n, &row);
		if (rc == -ENOENT)
			rc = insert_key(rn, g, n, &row) < 0 || write_row(rn, g, row) ? -1 : 0;
		if (rc < 0)
			return -1;
		nanosleep(&gap, NULL);
	}
	return 0;
}

/* churn MS FROM TO: answers at once, for every keyed table and key number
 * of FROM..TO-1, the key's index and the objects it has while present. */
static int
churn(const struct run *rn, const char *args, json_t *out)
{
	static struct churn_job job;
	unsigned long long ms;
	unsigned long from, to;

	if (other_running || sscanf(args, "%llu %lu %lu", &ms, &from, &to) != 3 ||
	    from >= to || to > FMK_MAX_NUMBER)
		return -1;
	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];

		for (uint32_t n = (uint32_t)from; rn->key_num[g] && n < to; n++) {
			uint64_t idx[MAX_SFX];
			size_t len = key_index(gs, n, idx);
			json_t *index = json_array(), *objs = json_array();
			json_t *states = json_array();

			if (len == 0) {
				json_decref(index);
				json_decref(objs);
				json_decref(states);
				return -1;
			}
			for (size_t i = 0; i < len; i++)
				json_array_append_new(index, json_integer((json_int_t)idx[i]));
			row_objects(rn, g, n, objs, NULL, NULL);
			row_states(rn, g, n, states);
			json_array_append_new(out, json_pack("{s:s, s:i, s:o, s:o, s:o}", "group",
							     gs->name, "number", (int)n,
							     "index", index, "objects", objs,
							     "states", states));
		}
	}
	job = (struct churn_job){ .rn = rn, .ms = ms, .from = (uint32_t)from,
				  .to = (uint32_t)to };
	return other_launch(churn_run, &job);
}

/* Command loop of the events mode; 0 at "quit" or end of input. */
static int
events_loop(const struct run *rn)
{
	char line[256];

	while (fgets(line, sizeof(line), stdin)) {
		json_t *out = json_array();
		int rc;
		char *text;

		line[strcspn(line, "\r\n")] = '\0';
		if (strcmp(line, "quit") == 0) {
			json_decref(out);
			break;
		}
		if (strcmp(line, "script") == 0)
			rc = events_script(rn, out);
		else if (strncmp(line, "flood ", 6) == 0)
			rc = events_flood(rn, out, line + 6);
		else if (strcmp(line, "stall") == 0 || strcmp(line, "release") == 0)
			rc = stall(rn, line[0] == 's');
		else if (strncmp(line, "blink ", 6) == 0)
			rc = blink(rn, line + 6);
		else if (strncmp(line, "churn ", 6) == 0)
			rc = churn(rn, line + 6, out);
		else if (strcmp(line, "join") == 0)
			rc = other_join();
		else if (strncmp(line, "add ", 4) == 0)
			rc = add_step(rn, line + 4);
		else if (strncmp(line, "insert ", 7) == 0 || strncmp(line, "remove ", 7) == 0)
			rc = key_command(rn, line + 7, line[0] == 'i', out);
		else
			rc = -1;
		if (rc != 0) {
			fprintf(stderr, "fm-writer: command '%s' failed\n", line);
			json_decref(out);
			return 1;
		}
		text = json_dumps(out, JSON_COMPACT);
		printf("%s\n", text);
		fflush(stdout);
		free(text);
		json_decref(out);
	}
	return 0;
}

/* ---- main ---- */

/* At exit: the EAL's runtime directory, empty without shared configuration
 * and telemetry, which DPDK would leave behind (one per run). */
static void
remove_runtime_dir(void)
{
	rmdir(rte_eal_get_runtime_dir());
}

static int
start_eal(const char *prog, const char *prefix)
{
	char fp[256];
	char *eal_argv[] = {
		(char *)prog, "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
		"-m", "64", "-l", "0-1", fp, "--log-level", "lib.eal:error", NULL,
	};

	snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
	atexit(remove_runtime_dir);
	return rte_eal_init((int)(sizeof(eal_argv) / sizeof(eal_argv[0])) - 1,
			    eal_argv);
}

static void
usage(void)
{
	fprintf(stderr, "usage: fm-writer fill|live|events SEGMENT EXPECT.json "
		"[--scale N] [--rows sparse|all] [--keys N] [--file-prefix NAME]\n"
		"[--group GROUP] [--mode OCTAL]\n");
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scale", required_argument, NULL, 's' },
		{ "rows", required_argument, NULL, 'r' },
		{ "file-prefix", required_argument, NULL, 'p' },
		{ "group", required_argument, NULL, 'g' },
		{ "mode", required_argument, NULL, 'm' },
		{ "keys", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	struct run rn = { .sc = &FM_SCHEMA, .scale = 1, .n_keys = DEFAULT_KEYS };
	struct fastmib_opts fo = { 0 };
	char prefix[64];
	int c, rc;

	snprintf(prefix, sizeof(prefix), "fmw%d", (int)getpid());
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's')
			rn.scale = strtoull(optarg, NULL, 10);
		else if (c == 'r')
			rn.all_rows = strcmp(optarg, "all") == 0;
		else if (c == 'p')
			snprintf(prefix, sizeof(prefix), "%s", optarg);
		else if (c == 'g')
			fo.group = optarg;
		else if (c == 'm')
			fo.mode = (unsigned int)strtoul(optarg, NULL, 8);
		else if (c == 'k')
			rn.n_keys = (uint32_t)strtoul(optarg, NULL, 10);
		else {
			usage();
			return 2;
		}
	}
	if (argc - optind != 3 || (strcmp(argv[optind], "fill") &&
				   strcmp(argv[optind], "live") &&
				   strcmp(argv[optind], "events"))) {
		usage();
		return 2;
	}
	rn.live = strcmp(argv[optind], "live") == 0;
	rn.events = strcmp(argv[optind], "events") == 0;
	if (start_eal(argv[0], prefix) < 0 || rte_lcore_count() != N_LCORES) {
		fprintf(stderr, "fm-writer: EAL init failed\n");
		return 1;
	}
	rc = fastmib_create(rn.sc, argv[optind + 1], &fo, &rn.seg);
	if (rc < 0) {
		fprintf(stderr, "fm-writer: %s: %s\n", argv[optind + 1],
			fastmib_last_error());
		return 1;
	}
	if (insert_first_keys(&rn) != 0) {
		fprintf(stderr, "fm-writer: cannot insert the first keys\n");
		return 1;
	}
	for (uint32_t g = 0; g < rn.sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn.sc->groups[g];

		if (gs->n_indexes == 0 || gs->all_rows || rn.key_num[g])
			continue;
		for (uint32_t row = 0; row < gs->n_rows; row++)
			if (row_enabled(&rn, g, row) &&
			    fastmib_row_enable(rn.seg, g, row) < 0) {
				fprintf(stderr, "fm-writer: %s\n", fastmib_last_error());
				return 1;
			}
	}
	for (uint32_t g = 0; g < rn.sc->n_groups; g++)
		for (uint32_t row = 0; row < rn.sc->groups[g].n_rows; row++)
			if (row_enabled(&rn, g, row) && write_states(&rn, g, row) != 0)
				return 1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (rn.live && write_expectations(&rn, argv[optind + 2]) != 0)
		return 1;
	if (rn.live) {
		printf("ready\n");
		fflush(stdout);
	}
	rte_eal_mp_remote_launch(worker_then_done, &rn, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	/* every worker has returned: this acquire only makes it visible */
	while (__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE) != rte_lcore_count())
		;
	if (rn.failed)
		return 1;
	if (!rn.live && write_expectations(&rn, argv[optind + 2]) != 0)
		return 1;
	if (rn.events) {
		printf("ready\n");
		fflush(stdout);
		rc = events_loop(&rn);
		if (other_running && other_join() != 0) /* the segment outlives its job */
			rc = 1;
		free_keys(&rn);
		fastmib_close(rn.seg);
		rte_eal_cleanup();
		return rc;
	}
	free_keys(&rn);
	fastmib_close(rn.seg);
	rte_eal_cleanup();
	if (!rn.live) {
		printf("ready\n");
		fflush(stdout);
	}
	return 0;
}
