/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of libfastmib against a real EAL (2 lcores): every storage
 * kind, presence, reset baselines, the flush policy and bounded reads.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "fastmib/fastmib.h"
#include "handle.h"
#include "seq_shim.h"
#include "test_schema.h"
#include "tutil.h"

static int
setup_opts(void **state, unsigned hint_limit)
{
	struct fastmib_opts o = { .hint_limit = hint_limit };

	return tu_setup(state, &ts_schema, &o, 0, "unit");
}

static int setup(void **state) { return setup_opts(state, 0); }
static int setup_h8(void **state) { return setup_opts(state, 8); }

/* A segment's discontinuity times start at its creation. */
static uint64_t
created_ns(struct fastmib_segment *seg)
{
	struct fastmib_info info;

	fastmib_info(seg, &info);
	return info.created_ns;
}

static void
test_roundtrip(void **state)
{
	struct tu_fixture *f = *state;
	const struct fastmib_schema *s = fastmib_schema(f->rd);
	struct fastmib_info a, b;

	assert_string_equal(s->module, "FASTMIB-TEST-MIB");
	assert_string_equal(s->prefix, "ts");
	assert_int_equal(s->oid_len, 9);
	assert_int_equal(s->oid[8], 77);
	assert_int_equal(s->percore_size, 448);
	assert_int_equal(s->shared_size, 1728);
	assert_int_equal(s->n_groups, TS_N_GROUPS);
	for (unsigned g = 0; g < TS_N_GROUPS; g++) {
		const struct fastmib_group_schema *x = &s->groups[g], *y = &ts_schema.groups[g];

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->description, y->description);
		assert_int_equal(x->arc, y->arc);
		assert_int_equal(x->storage, y->storage);
		assert_int_equal(x->n_indexes, y->n_indexes);
		assert_int_equal(x->all_rows, y->all_rows);
		assert_int_equal(x->n_rows, y->n_rows);
		assert_int_equal(x->row_size, y->row_size);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->n_counters, y->n_counters);
		for (unsigned k = 0; k < x->n_indexes; k++) {
			assert_string_equal(x->indexes[k].name, y->indexes[k].name);
			assert_int_equal(x->indexes[k].max, y->indexes[k].max);
		}
		for (unsigned c = 0; c < x->n_counters; c++) {
			assert_string_equal(x->counters[c].name, y->counters[c].name);
			assert_string_equal(x->counters[c].units, y->counters[c].units);
			assert_string_equal(x->counters[c].description, y->counters[c].description);
			assert_int_equal(x->counters[c].arc, y->counters[c].arc);
			assert_int_equal(x->counters[c].type, y->counters[c].type);
			assert_int_equal(x->counters[c].offset, y->counters[c].offset);
		}
	}
	fastmib_info(f->seg, &a);
	fastmib_info(f->rd, &b);
	assert_int_equal(a.format, FMS_FORMAT);
	assert_int_equal(a.generation, 1);
	assert_int_equal(a.n_slots, rte_lcore_count() + 4);
	assert_int_equal(a.writer_pid, getpid());
	assert_false(a.retired);
	assert_true(a.created_ns > 0);
	assert_int_equal(a.schema_hash, b.schema_hash);
	assert_int_equal(a.file_size, b.file_size);
	assert_false(fastmib_stale(f->rd));
	assert_int_equal(f->w->slot, 0); /* main lcore is first in RTE_LCORE_FOREACH */
}

static int
remote_add(void *arg)
{
	struct tu_fixture *f = arg;
	struct fastmib_writer *w = fastmib_writer(f->seg);

	if (w == NULL || w->slot != 1)
		return -1;
	fastmib_begin(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 10);
	fastmib_pc_add(w, TS_GLOBAL_BYTES, 15000);
	fastmib_pc_add(w, TS_GLOBAL_FLOWS, 1);
	fastmib_wb_add(w, TS_SESSION_PKTS(7), 1);
	fastmib_end(w);
	fastmib_atomic_add(w, TS_POOL_ALLOCS, 4);
	fastmib_flush(w);
	return 0;
}

static void
test_every_kind(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	uint64_t v[3];

	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 7), 0);
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 2 * 5 + 4), 0);
	fastmib_begin(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 3);
	fastmib_pc_add(w, TS_GLOBAL_BYTES, 4500);
	fastmib_pc_add(w, TS_GLOBAL_FLOWS, 5);
	fastmib_pc_add(w, TS_GLOBAL_FLOWS, (uint64_t)-7); /* gauge _sub */
	fastmib_pc_add(w, TS_PORT_RX_PKTS(3), 2);
	fastmib_pc_add(w, TS_PORT_RX_BYTES(3), 128);
	fastmib_pc_add(w, TS_FLOW_PKTS(14), 9);
	fastmib_wb_add(w, TS_SESSION_PKTS(7), 11);
	fastmib_wb_add(w, TS_SESSION_BYTES(7), 1100);
	fastmib_end(w);
	fastmib_atomic_add(w, TS_POOL_ALLOCS, 6);
	fastmib_atomic_set(w, TS_POOL_IN_USE, 42);
	fastmib_atomic_add(w, TS_POOL_FAILS, (1ull << 32) + 5);

	/* Buffered ops are not visible before a flush. */
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 7, v), 0);
	assert_int_equal(v[0], 0);
	fastmib_flush(w);
	assert_int_equal(w->flushes, 1);
	assert_int_equal(w->n_ops, 0);

	assert_int_equal(tu_launch(remote_add, f, 1), 0);
	assert_int_equal(tu_wait(1), 0);

	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 13);
	assert_int_equal(v[1], 19500);
	assert_int_equal((int64_t)v[2], -1); /* signed sum: 5 - 7 + 1 */
	assert_int_equal(fastmib_read(f->rd, TS_PORT, 3, v), 0);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 128);
	assert_int_equal(fastmib_read(f->rd, TS_PORT, 2, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 14, v), 0);
	assert_int_equal(v[0], 9);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 7, v), 0);
	assert_int_equal(v[0], 12);
	assert_int_equal(v[1], 1100);
	assert_int_equal(fastmib_read(f->rd, TS_POOL, 0, v), 0);
	assert_int_equal(v[0], 10);
	assert_int_equal(v[1], 42);
	assert_int_equal(v[2], (1ull << 32) + 5);

	/* Errors. */
	assert_int_equal(fastmib_read(f->rd, TS_N_GROUPS, 0, v), -EINVAL);
	assert_int_equal(fastmib_read(f->rd, TS_PORT, TS_PORT_ROWS, v), -EINVAL);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 8, v), -ENOENT);
	assert_non_null(strstr(fastmib_last_error(), "not present"));
}

static void
test_presence(void **state)
{
	struct tu_fixture *f = *state;
	static const uint32_t rows[] = { 0, 63, 64, 99 };

	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 0), -ENOENT);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, rows[i]), 0);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 0), 0);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 1), 63);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 64), 64);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 65), 99);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 100), -ENOENT);
	assert_int_equal(fastmib_row_disable(f->seg, TS_SESSION, 63), 0);
	assert_int_equal(fastmib_row_disable(f->seg, TS_SESSION, 64), 0);
	assert_int_equal(fastmib_next_row(f->rd, TS_SESSION, 1), 99);
	assert_false(fastmib_row_present(f->rd, TS_SESSION, 64));
	assert_true(fastmib_row_present(f->rd, TS_SESSION, 99));
	/* Scalars have row 0; `rows: all` tables every row. */
	assert_true(fastmib_row_present(f->rd, TS_GLOBAL, 0));
	assert_int_equal(fastmib_next_row(f->rd, TS_GLOBAL, 0), 0);
	assert_int_equal(fastmib_next_row(f->rd, TS_GLOBAL, 1), -ENOENT);
	assert_int_equal(fastmib_next_row(f->rd, TS_PORT, 2), 2);
	assert_int_equal(fastmib_next_row(f->rd, TS_PORT, 4), -ENOENT);
	/* Bad calls. */
	assert_int_equal(fastmib_row_enable(f->seg, TS_GLOBAL, 0), -EINVAL);
	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 100), -EINVAL);
	assert_int_equal(fastmib_row_enable(f->seg, TS_PORT, 1), -EPERM);
	assert_non_null(strstr(fastmib_last_error(), "rows: all"));
	assert_int_equal(fastmib_row_enable(f->rd, TS_SESSION, 5), -EPERM);
	assert_int_equal(fastmib_row_disable(f->seg, TS_N_GROUPS, 0), -EINVAL);
}

static void
test_recycled_row(void **state)
{
	struct tu_fixture *f = *state;
	uint64_t v[2];

	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 5), 0);
	assert_int_equal(fastmib_discontinuity(f->rd, TS_FLOW, 5) > 0, 1);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(5), 10);
	fastmib_pc_add(f->w, TS_FLOW_BYTES(5), 1000);
	fastmib_end(f->w);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 5, v), 0);
	assert_int_equal(v[0], 10);
	assert_int_equal(fastmib_row_disable(f->seg, TS_FLOW, 5), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(5), 3); /* late update to a dead row */
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 5, v), -ENOENT);
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 5), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 5, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(5), 2);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 5, v), 0);
	assert_int_equal(v[0], 2);
	uint64_t raw[2];
	assert_int_equal(fastmib_read_raw(f->rd, TS_FLOW, 5, raw), 0);
	assert_int_equal(raw[0], 15);
	/* Enabling a present row keeps its baseline. */
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 5), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 5, v), 0);
	assert_int_equal(v[0], 2);
}

/*
 * A resetter holding the reset lock (frozen mid-reset, say) never delays
 * the creator: a row enable does not take that lock, and the recycled row
 * still reads 0. Resets meanwhile fail with -EBUSY and store nothing.
 */
static void
test_enable_beside_held_reset_lock(void **state)
{
	struct tu_fixture *f = *state;
	struct fms_reset *r = f->seg->reset_head;
	uint64_t v[2], disc;

	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 7), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(7), 10);
	assert_int_equal(fastmib_reset(f->rd, TS_FLOW, 7), 0);
	disc = fastmib_discontinuity(f->rd, TS_FLOW, 7);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(7), 4);

	__atomic_store_n(&r->owner_pid, (uint32_t)getpid(), __ATOMIC_RELEASE); /* alive */
	assert_int_equal(fastmib_reset(f->rd, TS_FLOW, 7), -EBUSY);
	assert_int_equal(fastmib_discontinuity(f->rd, TS_FLOW, 7), disc);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 7, v), 0);
	assert_int_equal(v[0], 4); /* nothing stored */

	assert_int_equal(fastmib_row_disable(f->seg, TS_FLOW, 7), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(7), 100); /* late update to a dead row */
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 7), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 7, v), 0);
	assert_int_equal(v[0], 0);
	assert_true(fastmib_discontinuity(f->rd, TS_FLOW, 7) >= disc);
	__atomic_store_n(&r->owner_pid, 0, __ATOMIC_RELEASE);
}

/*
 * Baselines follow the order of their snapshots, not of their stores: a
 * reset prepared before a row was recycled and committed after it leaves
 * the recycled row's baseline in place; one prepared after it wins.
 */
static void
test_baseline_order(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_reset_plan *p;
	uint64_t v[2];

	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 8), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(8), 50);
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_FLOW, 8, &p), 0); /* at 50 */
	assert_int_equal(fastmib_row_disable(f->seg, TS_FLOW, 8), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(8), 7);
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 8), 0); /* at 57 */
	fastmib_pc_add(f->w, TS_FLOW_PKTS(8), 3);
	assert_int_equal(fastmib_reset_commit(p), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 8, v), 0);
	assert_int_equal(v[0], 3); /* the enable's baseline (57), not the reset's (50) */

	assert_int_equal(fastmib_reset_prepare(f->rd, TS_FLOW, 8, &p), 0); /* at 60 */
	fastmib_pc_add(f->w, TS_FLOW_PKTS(8), 1);
	assert_int_equal(fastmib_reset_commit(p), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 8, v), 0);
	assert_int_equal(v[0], 1);
}

static void
test_reset(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_segment *ro, *again;
	uint64_t v[3], t0, t1;

	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 100);
	fastmib_pc_add(f->w, TS_GLOBAL_BYTES, 150000);
	fastmib_pc_add(f->w, TS_GLOBAL_FLOWS, 7);
	fastmib_end(f->w);
	assert_int_equal(fastmib_discontinuity(f->rd, TS_GLOBAL, 0), created_ns(f->rd)); /* never reset */
	t0 = fms_now_ns();
	/* From the attached (non-creator) handle. */
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), 0);
	t1 = fastmib_discontinuity(f->rd, TS_GLOBAL, 0);
	assert_true(t1 >= t0 && t1 <= fms_now_ns());
	assert_int_equal(fastmib_read(f->seg, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
	assert_int_equal(v[2], 7); /* gauges are state, not reset */
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 5);
	fastmib_end(f->w);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 5);

	/* Read-only handles cannot reset. */
	assert_int_equal(fastmib_attach(f->path, FASTMIB_ATTACH_RDONLY, &ro), 0);
	assert_int_equal(fastmib_reset(ro, TS_GLOBAL, 0), -EPERM);
	assert_non_null(strstr(fastmib_last_error(), "read-only"));
	assert_int_equal(fastmib_read(ro, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 5);
	fastmib_close(ro);

	/* Baselines live in the segment: they survive close + re-attach. */
	fastmib_close(f->rd);
	assert_int_equal(fastmib_attach(f->path, 0, &again), 0);
	f->rd = again;
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 5);
	assert_int_equal(v[1], 0);

	/* Table row reset, absent row, module reset. */
	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 3), 0);
	fastmib_wb_add(f->w, TS_SESSION_PKTS(3), 9);
	fastmib_atomic_add(f->w, TS_POOL_ALLOCS, 4);
	fastmib_atomic_add(f->w, TS_POOL_IN_USE, 2);
	fastmib_flush(f->w);
	assert_int_equal(fastmib_reset(f->rd, TS_SESSION, 4), -ENOENT);
	assert_int_equal(fastmib_reset(f->rd, TS_SESSION, 3), 0);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 3, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(fastmib_discontinuity(f->rd, -1, 0), created_ns(f->rd)); /* never reset */
	assert_int_equal(fastmib_reset(f->rd, -1, 0), 0);
	assert_true(fastmib_discontinuity(f->rd, -1, 0) >= t1);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(fastmib_read(f->rd, TS_POOL, 0, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 2);
	assert_int_equal(fastmib_reset(f->rd, TS_N_GROUPS, 0), -EINVAL);
}

/* hint_limit 8: buffered updates show after exactly 8 fastmib_end() calls. */
static void
test_visibility(void **state)
{
	struct tu_fixture *f = *state;
	uint64_t v[2];

	assert_int_equal(f->w->hint_limit, 8);
	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 1), 0);
	for (int i = 1; i <= 7; i++) {
		fastmib_begin(f->w);
		fastmib_wb_add(f->w, TS_SESSION_PKTS(1), 1);
		fastmib_end(f->w);
	}
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 1, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(f->w->flushes, 0);
	fastmib_begin(f->w);
	fastmib_wb_add(f->w, TS_SESSION_PKTS(1), 1);
	fastmib_end(f->w);
	assert_int_equal(f->w->flushes, 1);
	assert_int_equal(f->w->hints, 0);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 1, v), 0);
	assert_int_equal(v[0], 8);
}

static int lock_release;

static int
hold_flush_lock(void *arg)
{
	struct tu_fixture *f = arg;
	rte_seqlock_t *l = fms_rte_seqlock(&f->seg->shared_head->lock);

	rte_seqlock_write_lock(l);
	__atomic_store_n(&lock_release, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&lock_release, __ATOMIC_ACQUIRE) != 2)
		rte_pause();
	rte_seqlock_write_unlock(l);
	return 0;
}

/* While another lcore holds the lock: try, miss, and after 4 x hint_limit
 * calls wait for it. A read meanwhile is bounded (-EBUSY). */
static void
test_policy_contended(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_read_stats st0, st1;
	uint64_t v[2];
	const uint32_t h = 8;

	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 2), 0);
	lock_release = 0;
	assert_int_equal(tu_launch(hold_flush_lock, f, 1), 0);
	while (__atomic_load_n(&lock_release, __ATOMIC_ACQUIRE) != 1)
		rte_pause();
	for (uint32_t i = 1; i < 4 * h; i++) {
		fastmib_begin(f->w);
		fastmib_wb_add(f->w, TS_SESSION_PKTS(2), 1);
		fastmib_wb_add(f->w, TS_SESSION_BYTES(2), 1500);
		fastmib_end(f->w);
	}
	assert_int_equal(f->w->flushes, 0);
	assert_int_equal(f->w->flush_misses, 3 * h); /* calls h .. 4h-1 */
	fastmib_set_read_patience(f->rd, 0); /* the bounded attempts alone */
	fastmib_read_stats(f->rd, &st0);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 2, v), -EBUSY);
	fastmib_read_stats(f->rd, &st1);
	assert_int_equal(st1.bounded, st0.bounded + 1);
	assert_int_equal(st1.reads, st0.reads + 1);
	assert_true(st1.retries >= st0.retries + FASTMIB_READ_MAX_TRIES - 1);
	__atomic_store_n(&lock_release, 2, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	fastmib_begin(f->w);
	fastmib_wb_add(f->w, TS_SESSION_PKTS(2), 1);
	fastmib_wb_add(f->w, TS_SESSION_BYTES(2), 1500);
	fastmib_end(f->w); /* call 4h: blocking flush */
	assert_int_equal(f->w->flushes, 1);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 2, v), 0);
	assert_int_equal(v[0], 4 * h);
	assert_int_equal(v[1], 1500 * 4 * h);
}

/* A full buffer inside a transaction flushes only complete transactions. */
static void
test_overflow_keeps_transactions(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_writer *w = f->w;
	uint64_t v[2];

	assert_int_equal(fastmib_row_enable(f->seg, TS_SESSION, 9), 0);
	fastmib_begin(w);
	for (int i = 0; i < 100; i++)
		fastmib_wb_add(w, TS_SESSION_PKTS(9), 1);
	fastmib_end(w);
	fastmib_begin(w);
	for (int i = 0; i < 500; i++)
		fastmib_wb_add(w, TS_SESSION_BYTES(9), 1);
	/* Overflow at 512 flushed the first transaction only. */
	assert_int_equal(w->flushes, 1);
	assert_int_equal(w->n_ops, 500);
	assert_int_equal(w->tx_start, 0);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 9, v), 0);
	assert_int_equal(v[0], 100);
	assert_int_equal(v[1], 0);
	fastmib_flush(w); /* inside the transaction: nothing to flush */
	assert_int_equal(w->flushes, 1);
	fastmib_end(w);   /* more than half full: try_flush */
	assert_int_equal(w->flushes, 2);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 9, v), 0);
	assert_int_equal(v[1], 500);

	/* An oversized transaction (caller bug) is split, never lost. */
	fastmib_begin(w);
	for (int i = 0; i < 600; i++)
		fastmib_wb_add(w, TS_SESSION_PKTS(9), 1);
	fastmib_end(w);
	fastmib_flush(w);
	assert_int_equal(fastmib_read(f->rd, TS_SESSION, 9, v), 0);
	assert_int_equal(v[0], 700);
	assert_int_equal(w->n_ops, 0);
}

/*
 * Row control and resets from inside the calling lcore's own transaction:
 * the snapshot must not wait for that (never ending) transaction. Updates
 * made before the call belong to the old row or the old period, those
 * after it show up.
 */
static void
test_enable_inside_own_tx(void **state)
{
	struct tu_fixture *f = *state;
	uint64_t v[3];

	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(3), 5); /* late update of the old flow */
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 3), 0);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(3), 7);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 4);
	assert_int_equal(fastmib_reset(f->seg, TS_GLOBAL, 0), 0);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 2);
	fastmib_end(f->w);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 3, v), 0);
	assert_int_equal(v[0], 7);
	assert_int_equal(v[1], 0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 2);
	assert_int_equal(fastmib_read_raw(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 6);
}

/* A writer stuck inside a transaction: reads give up, bounded. */
static void
test_stalled_writer(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_read_stats st;
	uint64_t v[3];

	fastmib_set_read_patience(f->rd, 0); /* the bounded attempts alone */
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 1);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), -EBUSY);
	assert_non_null(strstr(fastmib_last_error(), "inside its transaction"));
	assert_int_equal(v[0], 1); /* best effort */
	fastmib_read_stats(f->rd, &st);
	assert_int_equal(st.bounded, 1);
	assert_int_equal(st.reads, 1);
	assert_int_equal(st.retries, FASTMIB_READ_MAX_TRIES - 1);
	/* Per-core groups of other lcores are unaffected only if no slot is
	 * odd; the shared-atomic group never is. */
	assert_int_equal(fastmib_read(f->rd, TS_POOL, 0, v), 0);
	fastmib_end(f->w);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 1);
}

/* Lcore 1's writer: opens a transaction, adds to pkts, then either naps
 * `nap_ms` (a writer preempted mid-transaction) or, with nap_ms 0, waits
 * for `tx_release`; then adds to bytes and closes it. */
static int tx_state; /* 1: inside; 2: released */
static unsigned tx_nap_ms;

static int
hold_transaction(void *arg)
{
	struct tu_fixture *f = arg;
	struct fastmib_writer *w = fastmib_writer(f->seg);
	struct timespec nap = { 0, (long)tx_nap_ms * 1000000 };

	if (w == NULL)
		return -1;
	fastmib_begin(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 1);
	__atomic_store_n(&tx_state, 1, __ATOMIC_RELEASE);
	if (tx_nap_ms)
		nanosleep(&nap, NULL);
	else
		while (__atomic_load_n(&tx_state, __ATOMIC_ACQUIRE) != 2)
			rte_pause();
	fastmib_pc_add(w, TS_GLOBAL_BYTES, 100);
	fastmib_end(w);
	return 0;
}

static void
start_holder(struct tu_fixture *f, unsigned nap_ms)
{
	tx_nap_ms = nap_ms;
	__atomic_store_n(&tx_state, 0, __ATOMIC_RELAXED);
	assert_int_equal(tu_launch(hold_transaction, f, 1), 0);
	while (__atomic_load_n(&tx_state, __ATOMIC_ACQUIRE) != 1)
		rte_pause();
}

/*
 * The reader waits out a writer preempted inside its transaction: with its
 * default patience the read sees the whole transaction; with none it gives
 * up at once with the transaction half applied (the negative control).
 */
static void
test_read_waits_for_preempted_writer(void **state)
{
	struct tu_fixture *f = *state;
	uint64_t v[3];

	start_holder(f, 20);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[1], 100);
	assert_int_equal(tu_wait(1), 0);

	fastmib_set_read_patience(f->rd, 0);
	start_holder(f, 20);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), -EBUSY);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 100);
	assert_int_equal(tu_wait(1), 0);
}

/*
 * A writer that stays inside: the read gives up after its patience, and
 * for the hold-off after that, reads of the handle give up after their
 * bounded attempts alone (one snapshot each), so a stuck lcore costs a
 * walk one wait, not one per row.
 */
static void
test_read_stuck_writer_holdoff(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_read_stats st0, st1, st2;
	uint64_t v[3];

	fastmib_set_read_patience(f->rd, 2000000); /* 2 ms, to keep the test short */
	start_holder(f, 0);
	fastmib_read_stats(f->rd, &st0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), -EBUSY);
	fastmib_read_stats(f->rd, &st1);
	assert_true(st1.reads - st0.reads > 1); /* it did try again */
	for (int i = 0; i < 100; i++)
		assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), -EBUSY);
	fastmib_read_stats(f->rd, &st2);
	assert_int_equal(st2.reads - st1.reads, 100);
	assert_int_equal(st2.bounded - st1.bounded, 100);
	__atomic_store_n(&tx_state, 2, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[1], 100);
}

/*
 * A reset waits out a writer inside its transaction for its whole
 * patience (50 ms), then changes nothing; a module reset gives up at the
 * first row it cannot snapshot, leaving even the rows the writer does not
 * block as they were.
 */
static void
test_reset_patience(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_read_stats st0, st1, st2;
	uint64_t v[3], t0, module;

	for (uint32_t r = 0; r < TS_FLOW_ROWS; r++)
		assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, r), 0);
	fastmib_atomic_add(f->w, TS_POOL_ALLOCS, 3);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 5);
	fastmib_end(f->w);
	fastmib_begin(f->w); /* and stays open */
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 1);

	fastmib_read_stats(f->rd, &st0);
	t0 = fms_mono_ns();
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), -EBUSY);
	assert_true(fms_mono_ns() - t0 >= 50000000u); /* 50 ms */
	assert_non_null(strstr(fastmib_last_error(), "stayed inside a transaction"));
	assert_int_equal(fastmib_discontinuity(f->rd, TS_GLOBAL, 0), created_ns(f->rd)); /* never reset */
	fastmib_read_stats(f->rd, &st1);
	assert_true(st1.bounded - st0.bounded >= 2);

	assert_int_equal(fastmib_reset(f->rd, -1, 0), -EBUSY);
	fastmib_read_stats(f->rd, &st2);
	module = st2.bounded - st1.bounded;
	/*
	 * Only the global row is waited for: after 65 attempts separated by
	 * yields, each attempt follows a sleep of at least 50 us, so 50 ms
	 * allow at most 1000 more (and one after the deadline). Waiting again
	 * for each of the 4 port and 15 flow rows would take far more.
	 */
	assert_true(module <= 65 + 1000 + 1);
	assert_int_equal(fastmib_discontinuity(f->rd, -1, 0), created_ns(f->rd)); /* never reset */
	assert_int_equal(fastmib_discontinuity(f->rd, TS_POOL, 0), created_ns(f->rd)); /* never reset */
	assert_int_equal(fastmib_read(f->rd, TS_POOL, 0, v), 0);
	assert_int_equal(v[0], 3);

	fastmib_end(f->w);
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), 0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 0);
}

/*
 * A reset in two halves: the snapshot instant is the reset instant, an
 * aborted plan changes nothing, and a plan never overwrites a baseline
 * stored after its snapshot (another reset, a recycled row).
 */
static void
test_reset_plan(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_reset_plan *p, *q;
	uint64_t v[3];

	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 10);
	fastmib_end(f->w);
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_GLOBAL, 0, &p), 0);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 4);
	fastmib_end(f->w);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 14); /* nothing stored yet */
	assert_int_equal(fastmib_discontinuity(f->rd, TS_GLOBAL, 0), created_ns(f->rd)); /* never reset */
	assert_int_equal(fastmib_reset_commit(p), 0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 4); /* counted after the snapshot */
	assert_true(fastmib_discontinuity(f->rd, TS_GLOBAL, 0) > 0);

	assert_int_equal(fastmib_reset_prepare(f->rd, -1, 0, &p), 0);
	fastmib_reset_abort(p);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 4);
	fastmib_reset_abort(NULL);

	/* p prepared first, q reset meanwhile: q's newer baseline stays. */
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_GLOBAL, 0, &p), 0);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 2);
	fastmib_end(f->w);
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_GLOBAL, 0, &q), 0);
	assert_int_equal(fastmib_reset_commit(q), 0);
	assert_int_equal(fastmib_reset_commit(p), 0);
	assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 0);

	/* A row recycled between prepare and commit reads as new. */
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 2), 0);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(2), 7);
	fastmib_end(f->w);
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_FLOW, 2, &p), 0);
	assert_int_equal(fastmib_row_disable(f->seg, TS_FLOW, 2), 0);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_FLOW_PKTS(2), 1); /* the old flow's last packet */
	fastmib_end(f->w);
	assert_int_equal(fastmib_row_enable(f->seg, TS_FLOW, 2), 0);
	assert_int_equal(fastmib_reset_commit(p), 0);
	assert_int_equal(fastmib_read(f->rd, TS_FLOW, 2, v), 0);
	assert_int_equal(v[0], 0);

	/* Errors come from prepare and leave no plan. */
	p = (struct fastmib_reset_plan *)1;
	assert_int_equal(fastmib_reset_prepare(f->rd, TS_FLOW, 3, &p), -ENOENT);
	assert_null(p);
	assert_int_equal(fastmib_reset_prepare(f->rd, 99, 0, &p), -EINVAL);
	assert_null(p);
}

/* A resetter that died holding the reset lock does not block resets forever. */
static void
test_dead_resetter(void **state)
{
	struct tu_fixture *f = *state;
	struct fms_reset *r = f->seg->reset_head;

	rte_seqcount_write_begin(fms_rte_seqcount(&r->lock.count)); /* as a resetter would... */
	r->owner_pid = (uint32_t)getpid(); /* ...that is alive */
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), -EBUSY);
	assert_non_null(strstr(fastmib_last_error(), "reset lock is held"));
	r->owner_pid = 0x7ffffff0; /* beyond pid_max: no such process */
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), 0);
	assert_int_equal(r->lock.count.sn % 2, 0);
	assert_int_equal(r->owner_pid, 0);
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), 0);
	/* Died after closing its write section, before releasing the lock. */
	r->owner_pid = 0x7ffffff0;
	assert_int_equal(fastmib_reset(f->rd, TS_GLOBAL, 0), 0);
	assert_int_equal(r->lock.count.sn % 2, 0);
	assert_int_equal(r->owner_pid, 0);
}

static void *
thread_writer(void *arg)
{
	struct tu_fixture *f = arg;
	struct fastmib_writer *w = fastmib_writer(f->seg);
	intptr_t ok;

	/* Without an lcore id: refused with a hint. */
	ok = w == NULL && strstr(fastmib_last_error(), "rte_thread_register") != NULL;
	if (!ok || rte_thread_register() != 0)
		return (void *)0;
	w = fastmib_writer(f->seg);
	if (w == NULL || w->slot < rte_lcore_count() - 1)
		return (void *)0;
	fastmib_begin(w);
	fastmib_pc_add(w, TS_PORT_RX_PKTS(0), 77);
	fastmib_end(w);
	rte_thread_unregister();
	return (void *)1;
}

static void
test_non_eal_thread(void **state)
{
	struct tu_fixture *f = *state;
	pthread_t t;
	void *ok;
	uint64_t v[2];

	assert_int_equal(pthread_create(&t, NULL, thread_writer, f), 0);
	assert_int_equal(pthread_join(t, &ok), 0);
	assert_ptr_equal(ok, (void *)1);
	assert_int_equal(fastmib_read(f->rd, TS_PORT, 0, v), 0);
	assert_int_equal(v[0], 77);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_every_kind, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_presence, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_recycled_row, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_reset, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_visibility, setup_h8, tu_teardown),
		cmocka_unit_test_setup_teardown(test_policy_contended, setup_h8, tu_teardown),
		cmocka_unit_test_setup_teardown(test_overflow_keeps_transactions, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_stalled_writer, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_enable_inside_own_tx, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_non_eal_thread, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_dead_resetter, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_reset_patience, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_read_waits_for_preempted_writer, setup,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_read_stuck_writer_holdoff, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_reset_plan, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_enable_beside_held_reset_lock, setup,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_baseline_order, setup, tu_teardown),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
