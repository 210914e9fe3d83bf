/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libfastmib_reader: read, reset and follow the event log of a fastmib
 * segment from any process.
 *
 * This is what the SNMP agent, the snmpd module and fastmib-stat link. It
 * links no DPDK library and starts no EAL: a reader maps the segment file,
 * validates it as untrusted input (every header field, schema record and
 * offset against the file size) and then only loads from counter data.
 * Readers never make a writer wait: snapshots retry under the writers'
 * sequence numbers (see fastmib_read() for how long).
 *
 * The writer side (fastmib_create(), the inline update API) is
 * <fastmib/fastmib.h>, which includes this header.
 *
 * All functions returning int return 0 or a negative errno value;
 * fastmib_last_error() then holds a message for humans that names the
 * segment path and the field concerned.
 */
#ifndef FASTMIB_READER_H
#define FASTMIB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/oidmap.h" /* enum fastmib_writer_status */
#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A mapped segment: created by a writer, or attached by a reader. */
struct fastmib_segment;

/* ---- attach (fastpath/reader/attach.c) ---- */

/** fastmib_attach() flags. */
#define FASTMIB_ATTACH_RDONLY 0x1 /**< map everything read-only (no reset) */

/**
 * Map an existing segment. Counter data are always mapped read-only; the
 * reset-baseline area is writable unless FASTMIB_ATTACH_RDONLY. Validates
 * every header field and schema offset against the file size.
 */
int fastmib_attach(const char *path, int flags, struct fastmib_segment **segp);

/**
 * fastmib_attach(), for code compiled against one model: refuses, with
 * -ESTALE and a message naming the segment and both schema hashes (and
 * module names), a segment whose schema hash is not `expected_hash`,
 * i.e. one created from another model or another version of it. A
 * generated `<prefix>_attach(path, flags, segp)` passes its
 * `<PREFIX>_SCHEMA_HASH` and module name. `expected_hash` 0 checks
 * nothing; `expected_module` may be NULL.
 */
int fastmib_attach_checked(const char *path, int flags, uint64_t expected_hash,
			   const char *expected_module, struct fastmib_segment **segp);

/** Unmap; a creator also flushes every writer of this process first.
 * NULL is ignored. */
void fastmib_close(struct fastmib_segment *seg);

/** The schema of the segment (for an attached segment, read from it). */
const struct fastmib_schema *fastmib_schema(const struct fastmib_segment *seg);

/** Message of the last failed call made by this thread. */
const char *fastmib_last_error(void);

/* ---- snapshots (fastpath/reader/read.c) ---- */

/** Snapshot reads give up on one lcore block after this many attempts. */
#define FASTMIB_READ_MAX_TRIES 4096

/** Reader-side statistics of one attached segment handle. */
struct fastmib_read_stats {
	uint64_t reads;     /**< snapshots taken */
	uint64_t retries;   /**< extra attempts caused by concurrent writes */
	uint64_t bounded;   /**< snapshots that gave up (writer stalled) */
};

/** Default of fastmib_set_read_patience(): 50 ms. */
#define FASTMIB_READ_PATIENCE_NS 50000000ull
/** After a wait that ran out, reads of the handle answer at once for 1 s. */
#define FASTMIB_READ_HOLDOFF_NS 1000000000ull

/**
 * Read one consistent snapshot of a scalar group (row 0) or of one table
 * row: the sum over lcores minus the reset baseline, one uint64_t per
 * counter in schema order (gauges as two's-complement signed sums).
 *
 * A writer inside its transaction is waited for. A snapshot attempt gives
 * up on a lcore block after FASTMIB_READ_MAX_TRIES loads of an odd
 * sequence number (a few microseconds); the read is then tried again,
 * sleeping 20 us in between, for up to the handle's patience (default
 * FASTMIB_READ_PATIENCE_NS): a writer preempted mid-transaction on a busy
 * host is back within a scheduler slice, and a consistent answer is worth
 * that wait. A writer still inside is taken as stuck: the read returns
 * -EBUSY with best-effort values (each counter atomic, the transaction
 * possibly half applied), and for the next FASTMIB_READ_HOLDOFF_NS every
 * read of this handle that meets a writer inside returns so at once, so a
 * stuck lcore costs a walk of a table one wait, not one per row.
 *
 * Returns 0, -ENOENT for an absent row, -EINVAL for a bad group/row, or
 * -EBUSY as above. Caller: any thread; one handle may be shared.
 */
int fastmib_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
		 uint64_t *values);

/** Same as fastmib_read() without subtracting the reset baseline. */
int fastmib_read_raw(struct fastmib_segment *seg, unsigned group, uint32_t row,
		     uint64_t *values);

/** Is the row present (row 0 of a scalar group, every in-range row of a
 * `rows: all` table; false for a bad group or row)? */
bool fastmib_row_present(const struct fastmib_segment *seg, unsigned group,
			 uint32_t row);

/**
 * First present row >= `row` (as fastmib_row_present() sees rows: every
 * row of a `rows: all` table, row 0 of a scalar group), -ENOENT when none
 * is, -EINVAL for a bad group. O(1) amortized (two-level presence bitmap).
 */
int64_t fastmib_next_row(const struct fastmib_segment *seg, unsigned group,
			 uint32_t row);

void fastmib_read_stats(const struct fastmib_segment *seg,
			struct fastmib_read_stats *st);

/**
 * How long reads of this handle wait for a writer inside its transaction
 * (see fastmib_read()); 0 returns -EBUSY after the bounded attempts, at
 * once. For a shell tool that would rather show best-effort values now.
 */
void fastmib_set_read_patience(struct fastmib_segment *seg, uint64_t ns);

/* ---- keyed tables (fastpath/reader/keys.c) ---- */

/*
 * A keyed table's rows are found by key (docs/model.md, "Keyed tables").
 * Keys are order keys here (fastmib_key_encode() and its kin in
 * <fastmib/schema.h> turn them into C keys, SNMP indexes and text). Each
 * handle keeps the keys of every keyed table it looked at in order: the
 * first lookup builds that from the segment (O(n log n)), every later one
 * applies what changed since, then searches (O(log n)). Caller: any
 * thread; one handle may be shared.
 */

/** The present row whose order key is key[0..len), or -ENOENT; -EINVAL
 *  for a group that is not a keyed table. */
int64_t fastmib_keyed_find(struct fastmib_segment *seg, unsigned group, const uint8_t *key,
			   size_t len);

/**
 * The present row whose SNMP index comes first after idx[0..n) in OID
 * order (at it or after, when `inclusive`), or -ENOENT when none does;
 * idx may be anything (part of an index, values out of range). Its order
 * key goes to key (FASTMIB_MAX_KEY_BYTES), its length to *len: the key
 * the row had when it was found, the one to report it by.
 */
int64_t fastmib_keyed_next(struct fastmib_segment *seg, unsigned group, const uint64_t *idx,
			   size_t n, bool inclusive, uint8_t *key, size_t *len);

/** The order key of present row `row`: 0, or -ENOENT (absent: never
 *  inserted, removed, or its record not a key of the table). */
int fastmib_row_key(struct fastmib_segment *seg, unsigned group, uint32_t row, uint8_t *key,
		    size_t *len);

/**
 * fastmib_read() of row `row` of a keyed table for the key it was found by,
 * key[0..len): -ENOENT when the row is absent or holds another key by the
 * end of the read (removed and given to another key since it was found),
 * so that no key is ever shown with another key's values. Else as
 * fastmib_read() (0, -EBUSY with best-effort values, -EINVAL).
 */
int fastmib_keyed_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
		       const uint8_t *key, size_t len, uint64_t *values);

/* ---- states (fastpath/reader/states.c) ---- */

/** Words of the bit mask fastmib_state_read() marks left-out states in. */
#define FASTMIB_STATE_MASK_WORDS ((FASTMIB_MAX_STATES + 63) / 64)

/**
 * The states of row `row` of `group` (0 for a scalar group), whole, from
 * one publication: a set of the whole row, or of one state, is never seen
 * half done, and every state comes from the same moment. Into `out`, the
 * group's state_size bytes in its struct's layout (the generated
 * `struct <p>_<g>_state`). The segment is untrusted: a state whose value
 * the model does not allow (fastmib_state_check()) is zeroed in `out` and,
 * when `bad` is not NULL, marked in bad[0..FASTMIB_STATE_MASK_WORDS) (bit
 * i for state i): readers leave it out.
 *
 * A setter inside its section is waited for (its section is a copy), up
 * to the handle's read patience (fastmib_set_read_patience()); one that
 * stays inside makes the read fail: states are never served torn.
 *
 * Returns 0, -ENOENT (the row is not present), -EINVAL (no such group,
 * row, or a group without states), -EBUSY, -EIO (the segment faulted).
 * Caller: any thread of any process with the segment attached.
 */
int fastmib_state_read(struct fastmib_segment *seg, unsigned group, uint32_t row, void *out,
		       uint64_t *bad);

/**
 * fastmib_state_read() of row `row` of a keyed table for the key it was
 * found by, key[0..len): -ENOENT when the row holds another key by the
 * end of the read, so that no key is shown with another key's states.
 */
int fastmib_keyed_state_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
			     const uint8_t *key, size_t len, void *out, uint64_t *bad);

/** Bytes of the value a state change carries: every state a model may
 *  mark `notify` (not the strings) fits. */
#define FASTMIB_STATE_CHANGE_VALUE 24

/** One change of a `notify` state, as the creator's setter made it. */
struct fastmib_state_change {
	uint64_t number;        /**< 0, 1, 2, ... in the order of the sets */
	uint64_t time_ns;       /**< fastmib_monotonic_ns() of the set */
	uint32_t group, state;  /**< schema positions */
	uint32_t row;
	uint32_t key_len;       /**< keyed tables: the row's order key at the set */
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint8_t value[FASTMIB_STATE_CHANGE_VALUE]; /**< the new value, the state's C form */
};

/**
 * The number the next change will have: where a reader that starts now
 * begins (changes made before it attached are not its to send).
 */
uint64_t fastmib_state_changes_head(const struct fastmib_segment *seg);

/**
 * The changes from number *next on, at most `max`, into out[]; *next
 * moves past them. Changes the log overwrote before they were read (it
 * keeps the last 1024) are skipped and counted into *lost. Returns how
 * many were copied (0 in a model without `notify` states), or -EIO.
 * Caller: one thread per cursor.
 */
int fastmib_state_changes(struct fastmib_segment *seg, uint64_t *next,
			  struct fastmib_state_change *out, unsigned int max, uint64_t *lost);

/* ---- reset (fastpath/reader/reset.c; any process with a writable attach) ---- */

/**
 * Reset a scalar group (row ignored), one table row, or (group < 0) the
 * whole segment: record a consistent snapshot as the new baseline and the
 * current CLOCK_REALTIME as discontinuity time. Never touches counter data,
 * so no increment made after the snapshot is lost. Gauges are not reset.
 * A writer inside its own open transaction may reset: its updates before
 * the call fall before the snapshot. Waits up to 50 ms per row for a writer
 * that is inside a transaction, then returns -EBUSY and changes nothing.
 * The same as fastmib_reset_prepare() followed by fastmib_reset_commit().
 */
int fastmib_reset(struct fastmib_segment *seg, int group, uint32_t row);

/** A reset whose snapshots are taken but not yet stored. */
struct fastmib_reset_plan;

/**
 * First half of a reset, for callers that must know it will succeed
 * before making it visible (an SNMP SET of several varbinds): take the
 * consistent snapshots of every row concerned, store nothing. The part
 * that can fail (-EBUSY after the 50 ms patience, -EPERM, -EINVAL,
 * -ENOENT, -ENOMEM) fails here, leaving `*plan` NULL. The snapshot instant
 * is the reset instant: increments made after it count after the reset.
 */
int fastmib_reset_prepare(struct fastmib_segment *seg, int group, uint32_t row,
			  struct fastmib_reset_plan **plan);

/**
 * Store the plan's baselines and discontinuity times, then free it. All or
 * nothing: the resetters' lock is taken first, and if another live
 * process keeps it for 50 ms the call fails with -EBUSY and stores
 * nothing. A row whose baseline another reset (or a re-enable) with a
 * later snapshot replaced keeps that newer one. Call it from the thread
 * that prepared the plan, or after synchronising with it, and before
 * fastmib_close() of the handle it was prepared on.
 */
int fastmib_reset_commit(struct fastmib_reset_plan *plan);

/**
 * fastmib_reset_commit() of several plans of one segment under one hold
 * of the lock: every plan is stored, or (-EBUSY, -EINVAL for plans of
 * two segments) none. Frees every plan either way.
 */
int fastmib_reset_commit_all(struct fastmib_reset_plan **plans, size_t n);

/** Drop a prepared reset without storing anything; NULL is ignored. */
void fastmib_reset_abort(struct fastmib_reset_plan *plan);

/**
 * Now, in nanoseconds: fastmib_time_ns() on CLOCK_REALTIME, the clock of
 * every time stamp a segment holds (discontinuities, creation, event
 * records); fastmib_monotonic_ns() on CLOCK_MONOTONIC, for intervals. The
 * libraries, the agent and the tools read the clocks through these.
 */
uint64_t fastmib_time_ns(void);
uint64_t fastmib_monotonic_ns(void);

/**
 * Discontinuity time in ns since the epoch (CLOCK_REALTIME) of the module
 * (group < 0), of a scalar group, or of a table row: its last reset, or
 * the re-enable of a recycled row, or, when later, the creation of the
 * segment (a re-created segment counts from zero again, so every object
 * of it has a new discontinuity). 0 for a bad group or row.
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
	uint64_t tsc_hz;       /**< TSC rate of the creator (event timestamps) */
	uint32_t event_ring;   /**< event records per slot; 0 without events */
	bool writer_running;   /**< fastmib_writer_running() */
};

void fastmib_info(const struct fastmib_segment *seg, struct fastmib_info *info);

/**
 * Has the segment at the attached path been replaced or removed since this
 * handle attached (different inode, retired header)? Readers poll this and
 * re-attach.
 */
bool fastmib_stale(const struct fastmib_segment *seg);

/**
 * Is the process that created the segment still running with it open?
 * False once it exited (however it died) or closed the segment: the
 * counters then are history, still readable. Exact and immediate: the
 * creator holds a lock on the file that the kernel releases with it.
 */
bool fastmib_writer_running(const struct fastmib_segment *seg);

/* ---- writer health (fastpath/reader/health.c) ---- */

/** One writer slot (lcore) as readers see it. */
struct fastmib_slot_info {
	uint32_t lcore;        /**< owning lcore id, or UINT32_MAX for a free slot */
	uint32_t pid;          /**< process of the owner */
	uint32_t tid;          /**< thread that took the slot's writer; 0 = none yet */
	bool ready;            /**< a thread claimed it: its counters exist */
	bool in_tx;            /**< inside a transaction now */
	uint64_t in_tx_ns;     /**< inside this one transaction for at least this long
				    (as readers observed it; 0 when not inside) */
	uint64_t out_of_range; /**< updates whose index was out of range (to the
				    scratch row) */
	uint64_t nested;       /**< transactions opened inside an open one (refused) */
};

/**
 * Slot `slot` (0 .. fastmib_info().n_slots - 1). How long a lcore has been
 * inside one transaction is observed, not recorded by the fast path (that
 * would cost it a clock read per transaction): the first reader to see a
 * lcore inside a transaction notes when (in the segment, if this handle
 * may write its reset area, else in this process), and later looks at the
 * same transaction measure from there. 0, or -EINVAL for a bad slot.
 */
int fastmib_slot_info(struct fastmib_segment *seg, uint32_t slot,
		      struct fastmib_slot_info *info);

/**
 * FASTMIB_WRITER_GONE when the creator is not running
 * (fastmib_writer_running()); FASTMIB_WRITER_STALLED when a lcore has
 * stayed inside one transaction longer than the handle's read patience
 * (fastmib_set_read_patience(), default 50 ms); else RUNNING. A lcore seen
 * inside a transaction for the first time is watched for up to the
 * patience before the answer, so one call is enough to tell. `slot`, when
 * not NULL, gets the stalled slot (the one inside longest).
 */
enum fastmib_writer_status fastmib_writer_status(struct fastmib_segment *seg,
						 uint32_t *slot);

/**
 * Values handed out best effort: reads of this segment, by handles that
 * may write its reset area (the agent's), that returned -EBUSY because a
 * writer stayed inside its transaction. Kept in the segment.
 */
uint64_t fastmib_best_effort_reads(const struct fastmib_segment *seg);

/** Updates whose table index was out of range, over every slot. */
uint64_t fastmib_out_of_range_updates(const struct fastmib_segment *seg);

/* ---- event log (fastpath/reader/events.c) ---- */

/** One event record as copied out of a lcore's ring by a reader. */
struct fastmib_event_rec {
	uint64_t seq;        /**< record number within its slot, from 1, monotonic */
	uint64_t tsc;        /**< TSC when logged */
	uint64_t time_ns;    /**< CLOCK_REALTIME ns, converted from tsc */
	uint64_t lag;        /**< cycles since the closest earlier record of equal or
				  lower level on the same slot; 0 when not in the copy */
	uint64_t lag_ns;     /**< lag converted to ns with the segment's TSC rate */
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

#endif /* FASTMIB_READER_H */
