/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libfastmib: fast-path counters in a self-describing shared-memory segment.
 *
 * Writers are DPDK lcores (EAL threads, or non-EAL threads after
 * rte_thread_register()). Each writer owns one `struct fastmib_writer`,
 * obtained once with fastmib_writer() and then used only by that thread.
 * Generated `<prefix>_<group>_<counter>_add()` functions call the inline
 * primitives below with offsets that are compile-time constants.
 *
 * Readers (the subagent, fastmib-stat, tests) are any thread of any process
 * that attached the segment; they never write counter data and never block
 * a writer.
 *
 * Storage kinds, as seen by a writer:
 *  - per-core: plain load + relaxed atomic store into the lcore's own block,
 *    inside the lcore's seqcount write section (fastmib_begin/end);
 *  - shared-buffered: (offset, operand) appended to the lcore's write
 *    buffer; applied to the shared area under the segment's seqlock by a
 *    flush; a transaction's operations are never split across two flushes;
 *  - shared-atomic: relaxed atomic add on the shared area (no transaction).
 *
 * All functions returning int return 0 or a negative errno value;
 * fastmib_last_error() then holds a message for humans.
 */
#ifndef FASTMIB_FASTMIB_H
#define FASTMIB_FASTMIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_seqcount.h>

#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Operations one write buffer holds. A transaction must not exceed it. */
#define FASTMIB_WB_SIZE 512

struct fastmib_segment;

/** Options of fastmib_create(); NULL or zero fields mean the defaults. */
struct fastmib_opts {
	unsigned int mode;        /**< file permissions; 0 = 0640 */
	bool hugepages;           /**< back the file with hugetlbfs if available */
	unsigned int extra_threads; /**< writer slots for non-EAL threads; 0 = 4 */
	unsigned int hint_limit;  /**< fastmib_end() calls per flush attempt; 0 = 32 */
};

/** One buffered operation: add `operand` to the 64-bit word at `offset`. */
struct fastmib_wb_op {
	uint64_t offset; /**< byte offset within the shared data area */
	uint64_t operand;
};

/**
 * A writer: one per lcore, private to its thread. Fields are public only so
 * that the update functions can be inlined; treat them as read-only.
 */
struct fastmib_writer {
	uint8_t *percore;          /**< this lcore's per-core data area */
	uint8_t *shared;           /**< the segment's shared data area */
	rte_seqcount_t *seq;       /**< this lcore's seqcount (in the segment) */
	struct fastmib_segment *seg;
	uint32_t n_ops;            /**< buffered operations */
	uint32_t tx_start;         /**< n_ops when the open transaction began */
	uint32_t in_tx;            /**< 1 inside fastmib_begin()/fastmib_end() */
	uint32_t hints;            /**< fastmib_end() calls since the last flush */
	uint32_t hint_limit;
	uint32_t slot;             /**< writer slot in the segment */
	uint64_t flushes;          /**< statistics: flushes applied */
	uint64_t flush_misses;     /**< statistics: try-flushes that found the lock taken */
	struct fastmib_wb_op ops[FASTMIB_WB_SIZE];
};

/* ---- segment life cycle (slow path, fastpath/segment.c) ---- */

/**
 * Create (or re-create) the segment at `path` for `schema`, sized for the
 * lcores of this EAL instance plus opts->extra_threads. Call after
 * rte_eal_init(). Re-creating an existing segment gives it generation + 1.
 */
int fastmib_create(const struct fastmib_schema *schema, const char *path,
		   const struct fastmib_opts *opts, struct fastmib_segment **segp);

/** fastmib_attach() flags. */
#define FASTMIB_ATTACH_RDONLY 0x1 /**< map everything read-only (no reset) */

/**
 * Map an existing segment. Counter data are always mapped read-only; the
 * reset-baseline area is writable unless FASTMIB_ATTACH_RDONLY. Validates
 * every header field and schema offset against the file size.
 */
int fastmib_attach(const char *path, int flags, struct fastmib_segment **segp);

/** Unmap; a creator also flushes every writer of this process first. */
void fastmib_close(struct fastmib_segment *seg);

/** The schema of the segment (for an attached segment, read from it). */
const struct fastmib_schema *fastmib_schema(const struct fastmib_segment *seg);

/** Message of the last failed call made by this thread. */
const char *fastmib_last_error(void);

/* ---- writers (fastpath/writer.c and inline below) ---- */

/**
 * The calling lcore's writer, created on first use. NULL (and a message in
 * fastmib_last_error()) when the thread has no lcore id or no slot is free.
 */
struct fastmib_writer *fastmib_writer(struct fastmib_segment *seg);

/** Apply every buffered operation now (takes the seqlock, may spin). */
void fastmib_flush(struct fastmib_writer *w);

/** Apply buffered operations if the seqlock is free; never spins. */
void fastmib_try_flush(struct fastmib_writer *w);

/** Slow path of fastmib_wb_add(): buffer full. Not for direct use. */
void fastmib_wb_overflow(struct fastmib_writer *w);

/** Slow path of fastmib_end(): hint limit reached. Not for direct use. */
void fastmib_end_hint(struct fastmib_writer *w);

/**
 * Open a transaction on this lcore. Per-core updates made until
 * fastmib_end() are seen by readers all or nothing; shared-buffered
 * updates are flushed all or nothing. Transactions do not nest.
 *
 * Memory ordering: rte_seqcount_write_begin() makes the sequence number odd
 * before (release fence) any store of the transaction becomes visible.
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_begin(struct fastmib_writer *w)
{
	rte_seqcount_write_begin(w->seq);
	w->tx_start = w->n_ops;
	w->in_tx = 1;
}

/**
 * Close the transaction. The store-release of the even sequence number
 * orders every store of the transaction before it. Every `hint_limit`
 * calls, and whenever the write buffer is more than half full, a
 * non-blocking flush is attempted; after 4 * `hint_limit` calls without
 * success the flush waits for the lock (see docs/fastpath.md for the
 * resulting visibility bound).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_end(struct fastmib_writer *w)
{
	rte_seqcount_write_end(w->seq);
	w->in_tx = 0;
	w->tx_start = w->n_ops;
	if (unlikely(++w->hints >= w->hint_limit || w->n_ops > FASTMIB_WB_SIZE / 2))
		fastmib_end_hint(w);
}

/**
 * Per-core storage: add `n` to the word at `offset` of this lcore's block.
 * Single writer, so a plain load suffices; the relaxed atomic store keeps a
 * concurrent reader from seeing a torn value. Use inside a transaction for
 * group consistency.
 */
static inline void
fastmib_pc_add(struct fastmib_writer *w, uint32_t offset, uint64_t n)
{
	uint64_t *p = (uint64_t *)(void *)(w->percore + offset);

	__atomic_store_n(p, *p + n, __ATOMIC_RELAXED);
}

/** Shared-buffered storage: schedule an add of `n` at `offset`. */
static inline void
fastmib_wb_add(struct fastmib_writer *w, uint32_t offset, uint64_t n)
{
	struct fastmib_wb_op *op;

	if (unlikely(w->n_ops == FASTMIB_WB_SIZE))
		fastmib_wb_overflow(w);
	op = &w->ops[w->n_ops++];
	op->offset = offset;
	op->operand = n;
}

/** Shared-atomic storage: relaxed atomic add of `n` at `offset`. */
static inline void
fastmib_atomic_add(struct fastmib_writer *w, uint32_t offset, uint64_t n)
{
	uint64_t *p = (uint64_t *)(void *)(w->shared + offset);

	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/** Shared-atomic storage: relaxed atomic store (gauge `set`). */
static inline void
fastmib_atomic_set(struct fastmib_writer *w, uint32_t offset, uint64_t v)
{
	uint64_t *p = (uint64_t *)(void *)(w->shared + offset);

	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* ---- row control (application, any thread) ---- */

/**
 * Mark table row `row` (0-based, row-major over the indexes) present.
 * Enabling a row that was absent records its current value as the row's
 * reset baseline, so a recycled row starts at zero.
 */
int fastmib_row_enable(struct fastmib_segment *seg, unsigned group, uint32_t row);
int fastmib_row_disable(struct fastmib_segment *seg, unsigned group, uint32_t row);

/* ---- readers (fastpath/read.c) ---- */

/** Snapshot reads give up on one lcore block after this many attempts. */
#define FASTMIB_READ_MAX_TRIES 4096

/** Reader-side statistics of one attached segment handle. */
struct fastmib_read_stats {
	uint64_t reads;     /**< snapshots taken */
	uint64_t retries;   /**< extra attempts caused by concurrent writes */
	uint64_t bounded;   /**< snapshots that gave up (writer stalled) */
};

/**
 * Read one consistent snapshot of a scalar group (row 0) or of one table
 * row: the sum over lcores minus the reset baseline, one uint64_t per
 * counter in schema order (gauges as two's-complement signed sums).
 * Returns 0, -ENOENT for an absent row, -EINVAL for a bad group/row, or
 * -EBUSY when a writer kept its sequence number odd for
 * FASTMIB_READ_MAX_TRIES attempts: `values` then holds a best-effort
 * (per-counter atomic, possibly mid-transaction) result.
 */
int fastmib_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
		 uint64_t *values);

/** Same as fastmib_read() without subtracting the reset baseline. */
int fastmib_read_raw(struct fastmib_segment *seg, unsigned group, uint32_t row,
		     uint64_t *values);

/** Is the row present (always true for scalar groups and `rows: all`)? */
bool fastmib_row_present(const struct fastmib_segment *seg, unsigned group,
			 uint32_t row);

/**
 * First present row >= `row` of a table group, or -ENOENT. O(1) amortized
 * (two-level presence bitmap).
 */
int64_t fastmib_next_row(const struct fastmib_segment *seg, unsigned group,
			 uint32_t row);

void fastmib_read_stats(const struct fastmib_segment *seg,
			struct fastmib_read_stats *st);

/* ---- reset (fastpath/reset.c; any process with a writable attach) ---- */

/**
 * Reset a scalar group (row ignored), one table row, or (group < 0) the
 * whole segment: record a consistent snapshot as the new baseline and the
 * current CLOCK_REALTIME as discontinuity time. Never touches counter data,
 * so no increment made after the snapshot is lost. Gauges are not reset.
 */
int fastmib_reset(struct fastmib_segment *seg, int group, uint32_t row);

/**
 * Discontinuity time in ns since the epoch (CLOCK_REALTIME) of the module
 * (group < 0), of a scalar group, or of a table row; 0 when never reset.
 */
uint64_t fastmib_discontinuity(const struct fastmib_segment *seg, int group,
			       uint32_t row);

/* ---- header information (fastmib-stat --info, subagent re-attach) ---- */

struct fastmib_info {
	uint32_t format;       /**< segment format version */
	uint64_t schema_hash;
	uint64_t generation;
	uint64_t created_ns;   /**< CLOCK_REALTIME at creation */
	uint32_t writer_pid;
	uint32_t n_slots;      /**< per-lcore blocks */
	uint64_t file_size;
	bool retired;          /**< the creator re-created or removed the segment */
};

void fastmib_info(const struct fastmib_segment *seg, struct fastmib_info *info);

/**
 * Has the segment at the attached path been replaced or removed since this
 * handle attached (different inode, retired header)? Readers poll this and
 * re-attach.
 */
bool fastmib_stale(const struct fastmib_segment *seg);

/* ---- event log: readers (fastpath/events.c) ---- */

/** One event record as copied out of a lcore's ring by a reader. */
struct fastmib_event_rec {
	uint64_t seq;        /**< record number within its slot, from 1, monotonic */
	uint64_t tsc;        /**< TSC when logged */
	uint64_t time_ns;    /**< CLOCK_REALTIME ns, converted from tsc */
	uint64_t lag;        /**< cycles since the closest earlier record of equal or
				  lower level on the same slot; 0 when not in the copy */
	uint32_t event;      /**< index into fastmib_schema()->events */
	uint32_t slot;       /**< writer slot (lcore) that logged it */
	uint64_t args[FASTMIB_MAX_EVENT_ARGS];
};

struct fastmib_event_cursor;

/** A reader position in every slot's ring, starting at the oldest record kept. */
int fastmib_event_cursor_new(struct fastmib_segment *seg,
			     struct fastmib_event_cursor **curp);
void fastmib_event_cursor_free(struct fastmib_event_cursor *cur);

/**
 * Copy up to `max` records logged since the cursor's position, merged over
 * slots in TSC order, and advance the cursor past them. Never returns a
 * torn record. Returns the number copied (0 when none) or a negative errno.
 */
int fastmib_events_poll(struct fastmib_segment *seg, struct fastmib_event_cursor *cur,
			struct fastmib_event_rec *out, unsigned int max);

/** Records overwritten in the rings before this cursor could copy them. */
uint64_t fastmib_event_cursor_dropped(const struct fastmib_event_cursor *cur);

/** Records of event `event` logged so far, summed over slots. */
uint64_t fastmib_event_logged(const struct fastmib_segment *seg, unsigned int event);

/** Records of event `event` overwritten in the rings by newer ones. */
uint64_t fastmib_event_dropped(const struct fastmib_segment *seg, unsigned int event);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_FASTMIB_H */
