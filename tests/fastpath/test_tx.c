/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transaction form of the generated API (`<prefix>_tx_begin()`, row
 * handles) against a real EAL and segment: every storage kind read back
 * exactly with the reader API, row handles of multi-index tables, the
 * bookkeeping each model's transactions do (and do not do), per-core
 * transactions seen all or nothing, and buffered transactions flushed all
 * or nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "so_stats.h"
#include "tf_stats.h"
#include "tutil.h"
#include "vt_stats.h"

static int setup_vt(void **state) { return tu_setup(state, &vt_schema, NULL, 0, "tx-vt"); }
static int setup_tf(void **state) { return tu_setup(state, &tf_schema, NULL, 0, "tx-tf"); }
static int setup_so(void **state) { return tu_setup(state, &so_schema, NULL, 0, "tx-so"); }

static void
expect_row(struct fastmib_segment *rd, unsigned group, uint32_t row, unsigned n,
	   const uint64_t *want)
{
	uint64_t v[8] = { 0 };

	assert_int_equal(fastmib_read(rd, group, row, v), 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(v[i], want[i]);
}

/* Every storage kind of one model, through the transaction and through row
 * handles, read back exactly. */
static void
test_every_kind(void **state)
{
	struct tu_fixture *f = *state;
	struct vt_tx tx;
	struct vt_matrix_ref m;
	struct vt_sessions_ref s;
	struct vt_slots_ref sl;

	assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, vt_sessions_row(999)), 0);
	tx = vt_tx_begin(f->w);
	vt_tx_scalars_big_add(&tx, 1000);                 /* per-core scalars */
	vt_tx_scalars_small_add(&tx, 7);
	vt_tx_scalars_level_add(&tx, 5);
	vt_tx_scalars_level_sub(&tx, 2);
	m = vt_tx_matrix(&tx, 2, 4, 6);                    /* per-core table */
	vt_matrix_ref_hits_add(m, 3);
	vt_tx_matrix_hits_add(&tx, 2, 4, 6, 4);
	vt_tx_matrix_hits_add(&tx, 0, 1, 2, 9);
	s = vt_tx_sessions(&tx, 999);                      /* shared-buffered */
	vt_sessions_ref_pkts_add(s, 10);
	vt_sessions_ref_in_use_add(s, 3);
	vt_sessions_ref_in_use_sub(s, 1);
	vt_tx_sessions_pkts_add(&tx, 999, 5);
	vt_tx_state_events_add(&tx, 2);                    /* shared-atomic */
	vt_tx_state_active_set(&tx, 40);
	vt_tx_state_active_add(&tx, 2);
	vt_tx_state_active_sub(&tx, 1);
	sl = vt_tx_slots(&tx, 1, 2);
	vt_slots_ref_level_set(sl, 8);
	vt_slots_ref_level_sub(sl, 3);
	vt_tx_slots_level_add(&tx, 0, 0, 1);
	/* the calls on the writer still work inside, as part of it */
	vt_scalars_big_add(f->w, 24);
	vt_sessions_pkts_add(f->w, 999, 1);
	vt_tx_end(&tx);

	expect_row(f->rd, VT_GROUP_SCALARS, 0, 3, (const uint64_t[]){ 1024, 7, 3 });
	expect_row(f->rd, VT_GROUP_MATRIX, vt_matrix_row(2, 4, 6), 1, (const uint64_t[]){ 7 });
	expect_row(f->rd, VT_GROUP_MATRIX, vt_matrix_row(0, 1, 2), 1, (const uint64_t[]){ 9 });
	expect_row(f->rd, VT_GROUP_MATRIX, vt_matrix_row(0, 0, 0), 1, (const uint64_t[]){ 0 });
	expect_row(f->rd, VT_GROUP_STATE, 0, 2, (const uint64_t[]){ 41, 2 });
	expect_row(f->rd, VT_GROUP_SLOTS, vt_slots_row(1, 2), 1, (const uint64_t[]){ 5 });
	expect_row(f->rd, VT_GROUP_SLOTS, vt_slots_row(0, 0), 1, (const uint64_t[]){ 1 });
	/* buffered: nothing before a flush, everything after */
	expect_row(f->rd, VT_GROUP_SESSIONS, vt_sessions_row(999), 2, (const uint64_t[]){ 0, 0 });
	fastmib_flush(tx.t.w);
	expect_row(f->rd, VT_GROUP_SESSIONS, vt_sessions_row(999), 2, (const uint64_t[]){ 16, 2 });
}

/* Row handles of multi-index tables address the row-major row of their
 * indexes: a shifted row size (vt matrix, 8 bytes, three indexes) and a
 * multiplied one (tf lane, 24 bytes, indexes named like parameters). */
static void
test_row_handles(void **state)
{
	struct tu_fixture *f = *state;
	struct vt_tx tx = vt_tx_begin(f->w);
	uint32_t x, y, z;

	for (x = 0; x < VT_MATRIX_X_MAX; x++)
		for (y = 0; y < VT_MATRIX_Y_MAX; y++)
			for (z = 0; z < VT_MATRIX_Z_MAX; z++)
				vt_matrix_ref_hits_add(vt_tx_matrix(&tx, x, y, z),
						       vt_matrix_row(x, y, z) + 1);
	vt_tx_end(&tx);
	for (uint32_t r = 0; r < VT_MATRIX_ROWS; r++)
		expect_row(f->rd, VT_GROUP_MATRIX, r, 1, (const uint64_t[]){ r + 1 });
}

static void
test_row_handles_tf(void **state)
{
	struct tu_fixture *f = *state;
	struct tf_tx tx = tf_tx_begin(f->w);

	for (uint32_t a = 0; a < TF_LANE_TX_MAX; a++)
		for (uint32_t b = 0; b < TF_LANE_R_MAX; b++) {
			struct tf_lane_ref r = tf_tx_lane(&tx, a, b);
			uint64_t n = tf_lane_row(a, b) + 1;

			tf_lane_ref_pkts_add(r, n);
			tf_lane_ref_bytes_add(r, 100 * n);
			tf_tx_lane_depth_add(&tx, a, b, n + 2);
			tf_lane_ref_depth_sub(r, 2);
		}
	tf_tx_totals_pkts_add(&tx, 3);
	tf_tx_totals_bytes_seen_on_every_queue_of_every_port_since_start_add(&tx, 300);
	tf_tx_totals_level_sub(&tx, 4);
	tf_tx_end(&tx);
	for (uint32_t r = 0; r < TF_LANE_ROWS; r++)
		expect_row(f->rd, TF_GROUP_LANE, r, 3,
			   (const uint64_t[]){ r + 1, 100 * (r + 1), r + 1 });
	expect_row(f->rd, TF_GROUP_TOTALS, 0, 3, (const uint64_t[]){ 3, 300, (uint64_t)-4 });
}

/*
 * A model without shared-buffered groups: its transactions touch no write
 * buffer state, and keep the lcore's sequence number odd while open (a
 * reader gives up, bounded) and even after, one step apart.
 */
static void
test_percore_only_bookkeeping(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	uint32_t sn0 = __atomic_load_n(w->sn, __ATOMIC_RELAXED);
	uint32_t hints0 = w->hints;
	struct tf_tx tx;
	uint64_t v[3];

	fastmib_set_read_patience(f->rd, 0);
	tx = tf_tx_begin(w);
	tf_tx_totals_pkts_add(&tx, 1);
	assert_int_equal(tx.t.kinds, FASTMIB_TX_PERCORE);
	assert_int_equal(__atomic_load_n(w->sn, __ATOMIC_RELAXED), sn0 + 1);
	assert_int_equal(w->in_tx, 0);
	assert_int_equal(fastmib_read(f->rd, TF_GROUP_TOTALS, 0, v), -EBUSY);
	tf_tx_totals_bytes_seen_on_every_queue_of_every_port_since_start_add(&tx, 1500);
	tf_tx_end(&tx);
	assert_int_equal(__atomic_load_n(w->sn, __ATOMIC_RELAXED), sn0 + 2);
	assert_int_equal(w->hints, hints0);
	assert_int_equal(w->n_ops, 0);
	expect_row(f->rd, TF_GROUP_TOTALS, 0, 2, (const uint64_t[]){ 1, 1500 });
}

/* A model with only shared-atomic groups: no seqcount, no buffer, values
 * visible at once. */
static void
test_atomic_only(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	uint32_t sn0 = __atomic_load_n(w->sn, __ATOMIC_RELAXED);
	struct so_tx tx = so_tx_begin(w);

	assert_int_equal(tx.t.kinds, 0);
	so_tx_totals_events_add(&tx, 5);
	assert_int_equal(__atomic_load_n(w->sn, __ATOMIC_RELAXED), sn0);
	expect_row(f->rd, SO_GROUP_TOTALS, 0, 1, (const uint64_t[]){ 5 });
	so_tx_end(&tx);
	assert_int_equal(w->in_tx, 0);
	assert_int_equal(w->hints, 0);
}

/* In a model with every kind, the per-core part of an open transaction is
 * never read half done either. */
static void
test_percore_all_or_nothing(void **state)
{
	struct tu_fixture *f = *state;
	struct vt_tx tx;
	uint64_t v[3];

	fastmib_set_read_patience(f->rd, 0);
	tx = vt_tx_begin(f->w);
	/* shared-buffered groups add nothing to every open and end */
	assert_int_equal(tx.t.kinds, FASTMIB_TX_SEQ);
	vt_tx_scalars_big_add(&tx, 1);
	assert_int_equal(fastmib_read(f->rd, VT_GROUP_SCALARS, 0, v), -EBUSY);
	vt_tx_scalars_small_add(&tx, 1);
	vt_tx_end(&tx);
	expect_row(f->rd, VT_GROUP_SCALARS, 0, 2, (const uint64_t[]){ 1, 1 });
}

/*
 * Buffered transactions of the transaction form are flushed all or
 * nothing: a flush inside an open transaction, or a full buffer, applies
 * only the complete transactions before it.
 */
static void
test_buffered_all_or_nothing(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	const uint32_t row = vt_sessions_row(5);
	struct vt_sessions_ref s;
	struct vt_tx tx;
	int i;

	assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, row), 0);
	/* A complete transaction of 3 adds, then an open one of 100. */
	tx = vt_tx_begin(w);
	s = vt_tx_sessions(&tx, 5);
	for (i = 0; i < 3; i++)
		vt_sessions_ref_pkts_add(s, 1);
	vt_tx_end(&tx);
	tx = vt_tx_begin(w);
	s = vt_tx_sessions(&tx, 5);
	for (i = 0; i < 100; i++)
		vt_sessions_ref_pkts_add(s, 1);
	/* the handle marked the open transaction's first operation */
	assert_true(tx.t.buffered);
	assert_int_equal(w->tx_sn, __atomic_load_n(w->sn, __ATOMIC_RELAXED));
	assert_int_equal(w->tx_start, 3); /* after the complete one */
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 3 });
	vt_tx_end(&tx);
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 103 });

	/* The buffer fills up inside a transaction: the complete one before
	 * it is flushed, the open one stays whole. */
	tx = vt_tx_begin(w);
	for (i = 0; i < 100; i++)
		vt_tx_sessions_pkts_add(&tx, 5, 1);
	vt_tx_end(&tx);
	tx = vt_tx_begin(w);
	s = vt_tx_sessions(&tx, 5);
	for (i = 0; i < 500; i++)
		vt_sessions_ref_in_use_add(s, 1);
	assert_int_equal(w->n_ops, 500);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 2, (const uint64_t[]){ 203, 0 });
	vt_tx_end(&tx); /* more than half full: flushed by the end */
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 2, (const uint64_t[]){ 203, 500 });
	assert_int_equal(w->n_ops, 0);
}

/*
 * In the model with every storage kind, a transaction of per-core updates
 * pays for nothing else: the write buffer, its mark and the flush hint
 * stay as they were, the sequence number moves by two.
 */
static void
test_percore_pays_only_its_own(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	struct vt_tx tx = vt_tx_prepare(w);
	uint32_t sn0, hints0, tx_sn0, tx_start0, ops0;

	/* a buffered update outside any transaction leaves a mark */
	vt_sessions_pkts_add(w, 1, 1);
	sn0 = __atomic_load_n(w->sn, __ATOMIC_RELAXED);
	hints0 = w->hints;
	tx_sn0 = w->tx_sn;
	tx_start0 = w->tx_start;
	ops0 = w->n_ops;
	for (int i = 0; i < 10; i++) {
		vt_tx_open(&tx);
		vt_tx_scalars_big_add(&tx, 1);
		vt_matrix_ref_hits_add(vt_tx_matrix(&tx, 1, 2, 3), 1);
		assert_false(tx.t.buffered);
		vt_tx_end(&tx);
	}
	assert_int_equal(__atomic_load_n(w->sn, __ATOMIC_RELAXED), sn0 + 20);
	assert_int_equal(w->hints, hints0);
	assert_int_equal(w->tx_sn, tx_sn0);
	assert_int_equal(w->tx_start, tx_start0);
	assert_int_equal(w->n_ops, ops0);
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SCALARS, 0, 1, (const uint64_t[]){ 10 });
	expect_row(f->rd, VT_GROUP_MATRIX, vt_matrix_row(1, 2, 3), 1, (const uint64_t[]){ 10 });
}

/*
 * Buffered updates made by calls on the writer inside a transaction of
 * the transaction form, alone or after and before ones through the value
 * (the forms may be mixed): a flush inside the transaction applies only
 * the complete ones before it, whichever form made its first operation;
 * likewise inside fastmib_begin(), and after a transaction whose
 * buffered updates had no operation flushed (its mark left behind).
 */
static void
test_buffered_mixed_forms(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	const uint32_t row = vt_sessions_row(7);
	struct vt_tx tx = vt_tx_prepare(w);
	uint64_t done = 0;

	assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, row), 0);
	fastmib_flush(w);
	for (int order = 0; order < 4; order++) {
		/* a complete transaction of 2, then the open one of 5 */
		vt_tx_open(&tx);
		vt_sessions_pkts_add(w, 7, 1);
		vt_tx_sessions_pkts_add(&tx, 7, 1);
		vt_tx_end(&tx);
		done += 2;
		if (order == 3) {
			fastmib_begin(w);
		} else {
			vt_tx_open(&tx);
			/* per-core first: the buffer is not marked by it */
			vt_tx_scalars_big_add(&tx, 1);
		}
		for (int i = 0; i < 5; i++) {
			if (order == 0 || order == 3 || (order == 1 && i > 0) ||
			    (order == 2 && i == 0))
				vt_sessions_pkts_add(w, 7, 1);
			else
				vt_tx_sessions_pkts_add(&tx, 7, 1);
		}
		fastmib_flush(w);
		expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ done });
		assert_int_equal(w->n_ops, 5);
		if (order == 3)
			fastmib_end(w);
		else
			vt_tx_end(&tx);
		done += 5;
		fastmib_flush(w);
		expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ done });
	}
}

/* A transaction opened inside an open one is refused: its buffered
 * updates belong to the open one, and are flushed with it. */
static void
test_buffered_nested_belongs_to_outer(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	const uint32_t row = vt_sessions_row(8);
	struct vt_tx outer, inner;

	assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, row), 0);
	fastmib_flush(w);
	outer = vt_tx_begin(w);
	vt_tx_sessions_pkts_add(&outer, 8, 1);
	inner = vt_tx_begin(w); /* refused, counted */
	vt_tx_sessions_pkts_add(&inner, 8, 10);
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 0 });
	vt_tx_end(&inner);
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 0 });
	vt_tx_end(&outer);
	fastmib_flush(w);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 11 });
}

/* Every hint_limit ends a flush is attempted, as with fastmib_end(). */
static void
test_buffered_flush_hint(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	const uint32_t row = vt_sessions_row(6);
	uint64_t flushes = w->flushes;

	assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, row), 0);
	fastmib_flush(w);
	for (uint32_t i = 1; i < w->hint_limit; i++) {
		struct vt_tx tx = vt_tx_begin(w);

		vt_tx_sessions_pkts_add(&tx, 6, 1);
		vt_tx_end(&tx);
	}
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ 0 });
	{
		struct vt_tx tx = vt_tx_begin(w);

		vt_tx_sessions_pkts_add(&tx, 6, 1);
		vt_tx_end(&tx);
	}
	assert_int_equal(w->flushes, flushes + 1);
	expect_row(f->rd, VT_GROUP_SESSIONS, row, 1, (const uint64_t[]){ w->hint_limit });
}

/* ---- contract breaches: out-of-range indexes, nested transactions ---- */

/* Every row of every group of the vt model, as the reader sees it now:
 * rc 0 for each, values into `all` (8 words per row). */
static void
read_all(struct fastmib_segment *rd, uint64_t *all)
{
	const struct fastmib_schema *sc = fastmib_schema(rd);
	size_t at = 0;

	for (unsigned g = 0; g < sc->n_groups; g++) {
		for (uint32_t r = 0; r < sc->groups[g].n_rows; r++, at += 8) {
			memset(&all[at], 0, 8 * sizeof(*all));
			if (!fastmib_row_present(rd, g, r))
				continue;
			assert_int_equal(fastmib_read(rd, g, r, &all[at]), 0);
		}
	}
}

static size_t
rows_of(const struct fastmib_schema *sc)
{
	size_t n = 0;

	for (unsigned g = 0; g < sc->n_groups; g++)
		n += sc->groups[g].n_rows;
	return n;
}

/*
 * Updates whose index is out of range, at max, max + 1000 and UINT32_MAX,
 * for every index of every table and through every generated form (calls
 * on the writer, row handles, the transaction's indexed calls, each storage
 * kind): no other counter of the segment changes, every row still reads
 * with rc 0, and each is counted once per row computed.
 */
static void
test_out_of_range(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	static const uint64_t bad[] = { 0, 1000, UINT32_MAX }; /* max + bad, at most UINT32_MAX */
	const size_t n = rows_of(&vt_schema) * 8;
	uint64_t *before = calloc(n, 8), *after = calloc(n, 8), counted = 0;
	struct fastmib_slot_info si;
	struct vt_tx tx;

	assert_non_null(before);
	assert_non_null(after);
	/* something in every row, so that a stray write would show */
	for (uint32_t s = 0; s < 1000; s += 7)
		assert_int_equal(fastmib_row_enable(f->seg, VT_GROUP_SESSIONS, s), 0);
	tx = vt_tx_begin(w);
	vt_tx_scalars_big_add(&tx, 11);
	for (uint32_t x = 0; x < 3; x++)
		for (uint32_t y = 0; y < 5; y++)
			for (uint32_t z = 0; z < 7; z++)
				vt_tx_matrix_hits_add(&tx, x, y, z, 100 * x + 10 * y + z + 1);
	for (uint32_t s = 0; s < 1000; s += 7)
		vt_tx_sessions_pkts_add(&tx, s, s + 1);
	for (uint32_t a = 0; a < 2; a++)
		for (uint32_t b = 0; b < 3; b++)
			vt_tx_slots_level_set(&tx, a, b, 10 * a + b + 1);
	vt_tx_end(&tx);
	fastmib_flush(w);
	read_all(f->rd, before);

	for (unsigned k = 0; k < 3; k++) {
#define BAD(max) ((uint32_t)((max) + bad[k] > UINT32_MAX ? UINT32_MAX : (max) + bad[k]))
		uint32_t x = BAD(VT_MATRIX_X_MAX), y = BAD(VT_MATRIX_Y_MAX);
		uint32_t z = BAD(VT_MATRIX_Z_MAX), sid = BAD(VT_SESSIONS_SESSION_ID_MAX);
		uint32_t sl = BAD(VT_SLOTS_SLOT_MAX), ln = BAD(VT_SLOTS_LANE_MAX);
#undef BAD

		/* calls on the writer: a row computed per call */
		vt_matrix_hits_add(w, x, 0, 0, 5);
		vt_matrix_hits_add(w, 0, y, 0, 5);
		vt_matrix_hits_add(w, 0, 0, z, 5);
		vt_sessions_pkts_add(w, sid, 5);
		vt_sessions_in_use_sub(w, sid, 5);
		vt_slots_level_set(w, sl, 0, 5);
		vt_slots_level_add(w, 0, ln, 5);
		counted += 7;
		/* the transaction form: handles, and indexed calls */
		tx = vt_tx_begin(w);
		vt_matrix_ref_hits_add(vt_tx_matrix(&tx, 2, y, 6), 5);
		vt_tx_matrix_hits_add(&tx, x, y, z, 5);
		vt_sessions_ref_pkts_add(vt_tx_sessions(&tx, sid), 5);
		vt_tx_sessions_in_use_add(&tx, sid, 5);
		vt_slots_ref_level_sub(vt_tx_slots(&tx, sl, ln), 5);
		vt_tx_slots_level_set(&tx, 1, ln, 5);
		vt_tx_end(&tx);
		counted += 6;
	}
	fastmib_flush(w);
	read_all(f->rd, after);
	assert_memory_equal(before, after, n * 8);
	assert_int_equal(fastmib_out_of_range_updates(f->rd), counted);
	assert_int_equal(fastmib_slot_info(f->rd, w->slot, &si), 0);
	assert_int_equal(si.out_of_range, counted);
	assert_false(si.in_tx);
	free(before);
	free(after);
}

/*
 * A transaction opened inside an open one, by either form, is refused and
 * counted: the sequence number stays odd until the outer transaction ends,
 * so a reader never sees the outer one half done.
 */
static void
test_nested_begin_refused(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	struct fastmib_slot_info si;
	struct vt_tx outer, inner;
	uint64_t v[3];

	outer = vt_tx_begin(w);
	vt_tx_scalars_big_add(&outer, 1);
	inner = vt_tx_begin(w);                    /* refused */
	vt_tx_scalars_big_add(&inner, 1);
	vt_tx_end(&inner);                         /* leaves the sequence odd */
	assert_int_equal(fastmib_slot_info(f->rd, w->slot, &si), 0);
	assert_true(si.in_tx);
	assert_int_equal(si.nested, 1);
	fastmib_set_read_patience(f->rd, 0);
	assert_int_equal(fastmib_read(f->rd, VT_GROUP_SCALARS, 0, v), -EBUSY);
	fastmib_begin(w);                          /* refused too */
	vt_scalars_big_add(w, 1);
	fastmib_end(w);
	assert_int_equal(fastmib_slot_info(f->rd, w->slot, &si), 0);
	assert_true(si.in_tx);
	assert_int_equal(si.nested, 2);
	vt_tx_scalars_big_add(&outer, 1);
	vt_tx_end(&outer);
	assert_int_equal(fastmib_slot_info(f->rd, w->slot, &si), 0);
	assert_false(si.in_tx);
	assert_int_equal(fastmib_read(f->rd, VT_GROUP_SCALARS, 0, v), 0);
	assert_int_equal(v[0], 4);
	/* the value prepared once opens many short transactions */
	outer = vt_tx_prepare(w);
	for (int i = 0; i < 10; i++) {
		vt_tx_open(&outer);
		vt_tx_scalars_big_add(&outer, 1);
		vt_tx_end(&outer);
	}
	assert_int_equal(fastmib_read(f->rd, VT_GROUP_SCALARS, 0, v), 0);
	assert_int_equal(v[0], 14);
	assert_int_equal(fastmib_slot_info(f->rd, w->slot, &si), 0);
	assert_int_equal(si.nested, 2);
}

/*
 * No sequence number follows a slot's counter data: even a write past the
 * end of the block, from outside the generated API, leaves every reader
 * reading with rc 0 (the slot headers are a table of their own).
 */
static void
test_stray_write_after_block(void **state)
{
	struct tu_fixture *f = *state;
	const size_t n = rows_of(&vt_schema) * 8;
	uint64_t *all = calloc(n, 8);

	assert_non_null(all);
	memset(f->w->percore + VT_PERCORE_SIZE, 0xff, 4096 - VT_PERCORE_SIZE % 4096);
	read_all(f->rd, all);
	free(all);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_kind, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_row_handles, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_row_handles_tf, setup_tf, tu_teardown),
		cmocka_unit_test_setup_teardown(test_percore_only_bookkeeping, setup_tf,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_atomic_only, setup_so, tu_teardown),
		cmocka_unit_test_setup_teardown(test_percore_all_or_nothing, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_buffered_all_or_nothing, setup_vt,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_percore_pays_only_its_own, setup_vt,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_buffered_mixed_forms, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_buffered_nested_belongs_to_outer, setup_vt,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_buffered_flush_hint, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_out_of_range, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_nested_begin_refused, setup_vt, tu_teardown),
		cmocka_unit_test_setup_teardown(test_stray_write_after_block, setup_vt,
						tu_teardown),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
