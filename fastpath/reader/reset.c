/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reset baselines. Nothing here writes counter data:
 * a reset stores, in the reset area, a consistent snapshot that readers
 * subtract, so the fast path is neither stopped nor slowed, and every
 * increment made after the snapshot shows up in later reads.
 *
 * Resetters (any process with a writable attach) serialize on the reset
 * lock, a compare-and-swap of `owner_pid` from 0 to their pid (reset_lock()
 * below); readers of baselines use the reset seqcount. Each row is
 * its own short write section, so a reset of a large table never keeps
 * readers retrying for long.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>
#include <time.h>

#include "guard.h"
#include "handle.h"
#include "seq_shim.h"

/*
 * How long one row's reset waits for a writer preempted inside its
 * transaction, or for another resetter, before giving up with -EBUSY.
 * The wait is in time, not in attempts: on an overcommitted machine a
 * preempted writer is off its CPU for whole scheduler slices (ms), and
 * yielding on another CPU does not bring it back any sooner. (Enabling a
 * row may happen on the fast path, so fastmib_row_enable() passes its own,
 * much shorter patience to fms_snap_baseline().)
 */
#define RESET_PATIENCE_NS 50000000ull

/* Between attempts: yield at first, then sleep so that a writer preempted
 * on this CPU gets it back. */
static void
backoff(unsigned attempt)
{
	static const struct timespec nap = { 0, 50000 };

	if (attempt < 64)
		sched_yield();
	else
		nanosleep(&nap, NULL);
}

/*
 * Take the reset lock without ever blocking for good: resetters live in
 * other processes (agent, fastmib-stat) and one may die holding it. The
 * lock is `owner_pid` itself, taken by a CAS from 0 to our pid, so there
 * is no moment at which it is held without a recorded holder. Once
 * `deadline` (CLOCK_MONOTONIC ns) has passed we look at the holder; if
 * that process is gone, one caller wins a CAS from its pid to ours and
 * inherits the lock. A holder that died inside a row's write section left
 * the sequence odd: it is made even again (that row keeps what the holder
 * managed to store, and readers stop retrying on it).
 * Only resetters take this lock; the creator's row enables never do.
 */
static int
reset_lock(struct fastmib_segment *seg, uint64_t deadline)
{
	struct fms_reset *r = seg->reset_head;
	uint32_t me = (uint32_t)getpid(), owner = 0;

	for (unsigned a = 0;; a++) {
		owner = 0;
		if (__atomic_compare_exchange_n(&r->owner_pid, &owner, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		if (a >= 16 && fms_mono_ns() > deadline)
			break;
		if (a >= 16)
			backoff(a - 16);
	}
	if (owner != me && kill((pid_t)owner, 0) < 0 && errno == ESRCH &&
	    __atomic_compare_exchange_n(&r->owner_pid, &owner, me, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		if (__atomic_load_n(&r->lock.count.sn, __ATOMIC_RELAXED) & 1)
			rte_seqcount_write_end(fms_rte_seqcount(&r->lock.count));
		return 0;
	}
	return fms_error(-EBUSY, "%s: the reset lock is held (by pid %u)", seg->path, owner);
}

static int
reset_unlock(struct fastmib_segment *seg)
{
	__atomic_store_n(&seg->reset_head->owner_pid, 0, __ATOMIC_RELEASE);
	return 0;
}

/*
 * A consistent raw snapshot of one row that will become a baseline. The
 * epoch is drawn first (a relaxed fetch_add suffices: the snapshot's
 * loads come after it in program order and, for the order between two
 * snapshotters, only the atomicity of the counter matters), so a baseline
 * whose snapshot started later always carries the higher epoch. A bounded
 * snapshot (a writer preempted mid-transaction) is not consistent, so it
 * is never used: we back off so the writer can finish, and try again.
 */
int
fms_snap_baseline(struct fastmib_segment *seg, unsigned group, uint32_t row,
		  uint64_t patience_ns, uint64_t *epoch, uint64_t *raw)
{
	uint32_t own = FMS_NO_SLOT;
	uint64_t deadline;

	*epoch = __atomic_add_fetch(&seg->reset_head->epoch, 1, __ATOMIC_RELAXED);
	if (fms_read_raw_row_own(seg, group, row, raw, NULL, own) == 0)
		return 0;
	/* Busy: perhaps the caller's own slot, inside its own transaction.
	 * Waiting for it would wait for ourselves, and its stores so far
	 * precede the snapshot in program order, so taking them in is exact.
	 * Looked up only now: it costs two system calls, and a key insert
	 * snapshots a row every time. */
	own = fms_own_slot(seg);
	deadline = fms_mono_ns() + patience_ns;
	for (unsigned a = 0;; a++) {
		if (fms_read_raw_row_own(seg, group, row, raw, NULL, own) == 0)
			return 0;
		if (fms_mono_ns() > deadline)
			break;
		backoff(a);
	}
	return fms_error(-EBUSY, "group %s row %u: a writer stayed inside a transaction; "
			 "reset not done", seg->schema->groups[group].name, row);
}

/*
 * Store `raw` as the reset half of the row's record, with discontinuity
 * time `now`, in one write section of the reset seqlock; the caller holds
 * the reset lock and allocated the record (fms_alloc_record()). Gauges
 * keep a zero baseline: they are state, not totals. The baselines are
 * skipped when the record already holds a newer epoch: another reset
 * whose snapshot came after ours has stored since. A row of peaks gets
 * `peak_entry` (not 0), the entry of the resetters' peak log that resets
 * them, in place of its peak words' baselines whatever the epochs say:
 * the entry is applied either way, and a row names the newest that
 * reset it. Then the row is marked stored (release), so readers load the
 * record from now on.
 */
static void
store_row(struct fastmib_segment *seg, unsigned group, uint32_t row, const uint64_t *raw,
	  uint64_t epoch, uint64_t now, uint64_t peak_entry)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	rte_seqcount_t *sc = fms_rte_seqcount(&seg->reset_head->lock.count);
	uint64_t *rec = fms_reset_row(seg, group, row);
	bool newer = __atomic_load_n(&rec[FMS_REC_EPOCH], __ATOMIC_RELAXED) > epoch;

	if (newer && !peak_entry)
		return;
	rte_seqcount_write_begin(sc);
	for (uint32_t i = 0; i < g->n_counters; i++) {
		const struct fastmib_counter_schema *c = &g->counters[i];
		uint32_t w = fastmib_counter_word(c);

		/* this half has no other writer: the lock holder's */
		if (c->type == FASTMIB_PEAK &&
		    peak_entry > __atomic_load_n(&rec[FMS_REC_BASE + w], __ATOMIC_RELAXED))
			__atomic_store_n(&rec[FMS_REC_BASE + w], peak_entry, __ATOMIC_RELAXED);
		if (newer || c->type == FASTMIB_GAUGE32 || c->type == FASTMIB_PEAK)
			continue;
		for (uint32_t k = w; k < w + fastmib_counter_words(c); k++)
			__atomic_store_n(&rec[FMS_REC_BASE + k], raw[k], __ATOMIC_RELAXED);
	}
	if (!newer) {
		__atomic_store_n(&rec[FMS_REC_TIME], now, __ATOMIC_RELAXED);
		__atomic_store_n(&rec[FMS_REC_EPOCH], epoch, __ATOMIC_RELAXED);
	}
	rte_seqcount_write_end(sc);
	fms_set_stored(seg, group, row);
}

/*
 * Whether a snapshot must become a stored record. A row whose record was
 * never stored has a zero baseline; a snapshot of all zeros would store
 * the same, so a reset of the whole segment skips such rows and their
 * records stay unallocated (their discontinuity time is the module's,
 * which that reset advances). A reset of one row always stores, for the
 * row's own time, and so does a row of peaks: its record names the reset
 * (a lcore may record a peak between the snapshot and the commit).
 */
static bool
needs_record(const struct fastmib_segment *seg, unsigned group, uint32_t row,
	     const uint64_t *raw, bool whole_segment)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];

	if (!whole_segment || fms_row_stored(seg, group, row) || seg->lay.groups[group].has_peaks)
		return true;
	for (uint32_t i = 0; i < g->n_counters; i++) {
		const struct fastmib_counter_schema *c = &g->counters[i];
		uint32_t w = fastmib_counter_word(c);

		if (c->type == FASTMIB_GAUGE32)
			continue;
		for (uint32_t k = w; k < w + fastmib_counter_words(c); k++)
			if (raw[k] != 0)
				return true;
	}
	return false;
}

/* One row of a plan; its raw snapshot is plan->values[off ...]. */
struct plan_row {
	uint32_t group;
	uint32_t row;
	uint64_t epoch;  /* drawn just before the snapshot */
	size_t off;
};

struct fastmib_reset_plan {
	struct fastmib_segment *seg;
	int group;              /* -1: the whole segment */
	uint64_t now;           /* discontinuity time the commit stores */
	struct plan_row *rows;
	size_t n_rows, cap_rows;
	uint64_t *values;
	size_t n_values, cap_values;
};

void
fastmib_reset_abort(struct fastmib_reset_plan *plan)
{
	if (!plan)
		return;
	free(plan->rows);
	free(plan->values);
	free(plan);
}

/* Snapshot one row into the plan. */
static int
plan_row(struct fastmib_reset_plan *p, unsigned group, uint32_t row)
{
	uint32_t n = p->seg->schema->groups[group].row_size / 8;
	uint64_t epoch;
	int rc;

	if (p->n_rows == p->cap_rows) {
		size_t cap = p->cap_rows ? 2 * p->cap_rows : 16;
		struct plan_row *r = realloc(p->rows, cap * sizeof(*r));

		if (!r)
			return fms_error(-ENOMEM, "reset: out of memory");
		p->rows = r;
		p->cap_rows = cap;
	}
	if (p->n_values + n > p->cap_values) {
		size_t cap = p->cap_values ? 2 * p->cap_values : 64;
		uint64_t *v;

		while (cap < p->n_values + n)
			cap *= 2;
		v = realloc(p->values, cap * sizeof(*v));
		if (!v)
			return fms_error(-ENOMEM, "reset: out of memory");
		p->values = v;
		p->cap_values = cap;
	}
	FMS_GUARDED(p->seg, rc, fms_snap_baseline(p->seg, group, row, RESET_PATIENCE_NS,
						  &epoch, p->values + p->n_values), -EIO);
	if (rc)
		return rc;
	/* Allocated now, so that storing it later cannot fail. */
	if (!needs_record(p->seg, group, row, p->values + p->n_values, p->group < 0))
		return 0;
	FMS_GUARDED(p->seg, rc, fms_alloc_record(p->seg, group, row), -EIO);
	if (rc)
		return rc;
	p->rows[p->n_rows++] = (struct plan_row){ group, row, epoch, p->n_values };
	p->n_values += n;
	return 0;
}

/* Every present row of a group (absent rows get a fresh baseline when
 * enabled). */
static int
plan_group(struct fastmib_reset_plan *p, unsigned group)
{
	const struct fastmib_group_schema *g = &p->seg->schema->groups[group];

	for (int64_t r = fastmib_next_row(p->seg, group, 0); r >= 0;
	     r = (uint64_t)r + 1 < g->n_rows ? fastmib_next_row(p->seg, group, (uint32_t)r + 1)
					    : -ENOENT) {
		int rc = plan_row(p, group, (uint32_t)r);

		if (rc)
			return rc;
	}
	return 0;
}

int
fastmib_reset_prepare(struct fastmib_segment *seg, int group, uint32_t row,
		      struct fastmib_reset_plan **plan)
{
	const struct fastmib_group_schema *g = NULL;
	struct fastmib_reset_plan *p;
	int rc = 0;

	*plan = NULL;
	if (fms_faulted(seg))
		return fms_faulted_error(seg);
	if (!seg->reset_writable)
		return fms_error(-EPERM, "%s: attached read-only, cannot reset", seg->path);
	if (group >= 0 && (unsigned)group >= seg->schema->n_groups)
		return fms_error(-EINVAL, "group %d does not exist", group);
	if (group >= 0 && (g = &seg->schema->groups[group])->n_indexes > 0) {
		if (row >= g->n_rows)
			return fms_error(-EINVAL, "group %s: row %u out of range (%u rows)",
					 g->name, row, g->n_rows);
		if (!fastmib_row_present(seg, (unsigned)group, row))
			return fms_error(-ENOENT, "group %s: row %u is not present", g->name,
					 row);
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return fms_error(-ENOMEM, "reset: out of memory");
	p->seg = seg;
	p->group = group;
	p->now = fms_now_ns();
	if (group < 0) {
		for (unsigned i = 0; i < seg->schema->n_groups && rc == 0; i++)
			rc = plan_group(p, i);
	} else if (g->n_indexes == 0) {
		rc = plan_group(p, (unsigned)group);
	} else {
		rc = plan_row(p, (unsigned)group, row);
	}
	if (rc) {
		fastmib_reset_abort(p);
		return rc;
	}
	*plan = p;
	return 0;
}

/* Does the plan reset peaks: a group of peaks, or all of a model with some? */
static bool
plan_resets_peaks(const struct fastmib_reset_plan *plan)
{
	const struct fastmib_segment *seg = plan->seg;

	return plan->group < 0 ? seg->lay.peaks != 0
			       : seg->lay.groups[plan->group].has_peaks != 0;
}

/*
 * Store one plan; the caller holds the reset lock, so it is the one
 * writer of the resetters' peak log. A plan that resets peaks names its
 * entry in its rows' records first, then publishes it (fms_peak_publish()):
 * a lcore zeroes its words of those rows before its next peak, in a
 * transaction.
 */
static void
store_plan(const struct fastmib_reset_plan *plan)
{
	struct fastmib_segment *seg = plan->seg;
	rte_seqcount_t *sc = fms_rte_seqcount(&seg->reset_head->lock.count);
	uint64_t peak_entry = plan_resets_peaks(plan) ? fms_peak_next(seg, FMS_PEAK_RESETS) : 0;

	for (size_t i = 0; i < plan->n_rows; i++) {
		const struct plan_row *r = &plan->rows[i];

		store_row(seg, r->group, r->row, plan->values + r->off, r->epoch, plan->now,
			  seg->lay.groups[r->group].has_peaks ? peak_entry : 0);
	}
	if (peak_entry)
		fms_peak_publish(seg, FMS_PEAK_RESETS, peak_entry,
				 plan->group < 0 ? FMS_PEAK_ALL : (uint32_t)plan->group,
				 plan->group < 0 || plan->n_rows != 1 ? FMS_PEAK_ALL
									 : plan->rows[0].row);
	rte_seqcount_write_begin(sc);
	if (plan->group < 0) {
		for (unsigned i = 0; i < seg->schema->n_groups; i++)
			__atomic_store_n(fms_reset_group(seg, i), plan->now, __ATOMIC_RELAXED);
		__atomic_store_n(&seg->reset_head->module_ns, plan->now, __ATOMIC_RELAXED);
	} else if (seg->schema->groups[plan->group].n_indexes == 0) {
		__atomic_store_n(fms_reset_group(seg, (unsigned)plan->group), plan->now,
				 __ATOMIC_RELAXED);
	}
	rte_seqcount_write_end(sc);
}

static int
store_plans(struct fastmib_reset_plan **plans, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_plan(plans[i]);
	return 0;
}

int
fastmib_reset_commit_all(struct fastmib_reset_plan **plans, size_t n)
{
	struct fastmib_segment *seg = n ? plans[0]->seg : NULL;
	int rc = 0;

	for (size_t i = 1; i < n; i++)
		if (plans[i]->seg != seg)
			rc = fms_error(-EINVAL, "fastmib_reset_commit_all: plans of two segments");
	if (rc == 0 && n && fms_faulted(seg))
		rc = fms_faulted_error(seg);
	if (rc == 0 && n)
		FMS_GUARDED(seg, rc, reset_lock(seg, fms_mono_ns() + RESET_PATIENCE_NS), -EIO);
	if (rc == 0 && n) {
		int unlocked;

		FMS_GUARDED(seg, rc, store_plans(plans, n), -EIO);
		FMS_GUARDED(seg, unlocked, reset_unlock(seg), -EIO);
		(void)unlocked; /* a lock in a file that shrank is gone with it */
	}
	for (size_t i = 0; i < n; i++)
		fastmib_reset_abort(plans[i]);
	return rc;
}

int
fastmib_reset_commit(struct fastmib_reset_plan *plan)
{
	return fastmib_reset_commit_all(&plan, 1);
}

int
fastmib_reset(struct fastmib_segment *seg, int group, uint32_t row)
{
	struct fastmib_reset_plan *plan;
	int rc = fastmib_reset_prepare(seg, group, row, &plan);

	return rc ? rc : fastmib_reset_commit(plan);
}

/* The later of two times. */
static inline uint64_t
later(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * The time of the latest discontinuity stored for the module (group < 0),
 * a group, or a row: a row's own reset or enable, its group's, or a reset
 * of the whole segment, whichever came last.
 */
static uint64_t
latest_stored(const struct fastmib_segment *seg, int group, uint32_t row)
{
	const struct fastmib_group_schema *g;
	uint64_t base[FASTMIB_MAX_ROW_WORDS], time = 0, t;

	t = __atomic_load_n(&seg->reset_head->module_ns, __ATOMIC_RELAXED);
	if (group < 0)
		return t;
	t = later(t, __atomic_load_n(fms_reset_group(seg, (unsigned)group), __ATOMIC_RELAXED));
	g = &seg->schema->groups[group];
	if (g->n_indexes == 0)
		return t;
	/* The reader's own handle is not changed: only its statistics are. */
	if (fms_read_baseline((struct fastmib_segment *)(uintptr_t)seg, (unsigned)group, row,
			      base, &time, NULL) < 0)
		return t;
	return later(t, time);
}

static uint64_t
fastmib_discontinuity_mapped(const struct fastmib_segment *seg, int group, uint32_t row)
{
	uint64_t t;

	if (group >= 0 && (unsigned)group >= seg->schema->n_groups)
		return 0;
	if (group >= 0 && seg->schema->groups[group].n_indexes > 0 &&
	    row >= seg->schema->groups[group].n_rows)
		return 0;
	t = latest_stored(seg, group, row);
	return t > seg->hdr->created_ns ? t : seg->hdr->created_ns;
}

FMS_GUARDED_ENTRY(uint64_t, fastmib_discontinuity,
		  (const struct fastmib_segment *seg, int group, uint32_t row),
		  (seg, group, row), 0, 0)
