/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * libfastmib: the writer. Fast-path counters of a DPDK application in a
 * self-describing shared-memory segment, read by other processes through
 * <fastmib/reader.h> (included here) without ever making a lcore wait.
 *
 * The rules a writer keeps:
 *
 *  1. One writer per thread. A lcore (an EAL thread, or a thread after
 *     rte_thread_register()) takes its `struct fastmib_writer` once with
 *     fastmib_writer() and is the only thread that uses it: every inline
 *     function below that takes a writer or a transaction is for that
 *     thread alone. fastmib_create(), row presence and keyed-table inserts
 *     and removes are for any thread of the creating process.
 *  2. Transactions hold updates, never work. Between an open
 *     (<prefix>_tx_begin(), <prefix>_tx_open(), fastmib_begin()) and its
 *     end the lcore's sequence number is odd, and every reader of its
 *     counters waits. Count a packet in a short transaction after (or
 *     around) its work, or count a burst after its work; never hold one
 *     across the work of a burst. A lcore inside one transaction longer
 *     than the readers' patience (50 ms) is reported stalled(3).
 *  3. Transactions do not nest. An open inside an open transaction is
 *     refused and counted (fastmib_tx_nested()), and its end changes
 *     nothing. A transaction is closed by the form that opened it.
 *  4. Indexes are 0-based and within their max; a keyed table's row is the
 *     one fastmib_key_insert() gave. Anything else lands in the table's
 *     scratch row, counted (fastmib_row_out_of_range()), and changes
 *     nothing any reader reads: a defect to fix, never data.
 *  5. Shared-buffered updates become visible at a flush: call
 *     fastmib_flush() when the lcore is idle (an empty receive burst).
 *
 * The template, for a model of prefix `ep` (docs/fastpath.md has more):
 *
 *     struct fastmib_segment *seg;          // once, after rte_eal_init()
 *     ep_create("/dev/shm/app", NULL, &seg);
 *
 *     struct fastmib_writer *w = fastmib_writer(seg);   // in each lcore
 *     struct ep_tx tx = ep_tx_prepare(w);
 *     for (;;) {
 *             n = rte_eth_rx_burst(port, queue, pkts, BURST);
 *             if (n == 0)
 *                     fastmib_flush(w);
 *             for (i = 0; i < n; i++) {
 *                     // ... the packet's work ...
 *                     ep_tx_open(&tx);
 *                     ep_tx_global_rx_pkts_add(&tx, 1);
 *                     ep_tx_port_rx_bytes_add(&tx, port, pkts[i]->pkt_len);
 *                     ep_tx_end(&tx);
 *             }
 *     }
 *
 * Storage kinds, as seen by a writer:
 *  - per-core: a single-writer add (fastmib_word_add()) into the lcore's own
 *    block, inside the lcore's sequence number's write section;
 *  - shared-buffered: (offset, operand) appended to the lcore's write
 *    buffer; applied to the shared area under the segment's seqlock by a
 *    flush; a transaction's operations are never split across two flushes
 *    (the buffer tells them by the lcore's sequence number, so a
 *    transaction that may buffer keeps it odd while open too);
 *  - shared-atomic: relaxed atomic add on the shared area (no transaction).
 *
 * Two forms of the update API, which may be mixed: calls on the writer
 * (fastmib_begin(w), `<prefix>_<group>_<counter>_add(w, ...)`,
 * fastmib_end(w)), each update finding the lcore's block through `w`; and
 * a transaction value (`<prefix>_tx_prepare()`, `_open()`, `_end()`, row
 * handles `<prefix>_tx_<group>(&tx, ...)`), which holds the block's address
 * in a register and does only the bookkeeping its transaction's updates
 * need: a transaction of per-core updates alone costs the same in a model
 * with shared-buffered groups as in one without (fastmib_tx_prepare(),
 * fastmib_tx_wb()).
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
#include <rte_cycles.h>

#include "fastmib/event_record.h"
#include "fastmib/reader.h"
#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Operations one write buffer holds. A transaction must not exceed it. */
#define FASTMIB_WB_SIZE 512

/** Options of fastmib_create(); NULL or zero fields mean the defaults. */
struct fastmib_opts {
	unsigned int mode;        /**< file permissions; 0 = 0640 */
	bool hugepages;           /**< back the file with hugetlbfs if available */
	unsigned int extra_threads; /**< writer slots for non-EAL threads; 0 = 4 */
	unsigned int hint_limit;  /**< fastmib_end() calls per flush attempt; 0 = 32 */
	unsigned int event_ring;  /**< event records per writer slot, a power of two
				       (16..1048576); 0 = FASTMIB_EVENT_RING */
	const char *group;        /**< group of the file, a name or a number, so that
				       a reader of that group (the agent's user) may
				       read it with `mode` 0640; NULL = the creator's
				       group (or the directory's, if set-group-id) */
};

/** Default event records kept per writer slot (models with events only). */
#define FASTMIB_EVENT_RING 1024

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
	uint32_t *sn;              /**< this lcore's sequence number (in the segment) */
	struct fastmib_segment *seg;
	uint32_t n_ops;            /**< buffered operations */
	uint32_t tx_start;         /**< the first operation of transaction tx_sn */
	uint32_t tx_sn;            /**< *sn when tx_start was set (fastmib_wb_mark()) */
	uint32_t in_tx;            /**< 1 inside fastmib_begin()/fastmib_end() */
	uint32_t begin_close;      /**< fastmib_seq_enter()'s result, for fastmib_end() */
	uint32_t hints;            /**< fastmib_end() calls since the last flush */
	uint32_t hint_limit;
	uint32_t slot;             /**< writer slot in the segment */
	/** Peak resets published in the segment (its atomic request count),
	 *  or in a model without peaks &peak_seen: fastmib_peak_sync(). */
	const uint64_t *peak_requests;
	uint64_t peak_seen;        /**< *peak_requests when this lcore last applied them */
	uint64_t flushes;          /**< statistics: flushes applied */
	uint64_t flush_misses;     /**< statistics: try-flushes that found the lock taken */
	/* Event log (all NULL/0 when the model has no events). */
	struct fastmib_event_slotrec *ev_ring; /**< this slot's ring (in the segment) */
	uint64_t *ev_head_pub;     /**< published record number of the newest record */
	uint64_t *ev_logged;       /**< per event: records logged by this slot */
	uint64_t *ev_dropped;      /**< per event: records of it overwritten in this ring */
	uint64_t ev_head;          /**< private copy of *ev_head_pub */
	uint64_t ev_rng;           /**< xorshift64* state of the burst threshold */
	uint32_t ev_mask;          /**< ring records - 1 */
	uint32_t ev_threshold;     /**< 1..9: events of rate >= this are logged */
	struct fastmib_wb_op ops[FASTMIB_WB_SIZE];
};

/* ---- segment creation (slow path, fastpath/writer/create.c) ---- */

/**
 * Create (or re-create) the segment at `path` for `schema`, sized for the
 * lcores of this EAL instance plus opts->extra_threads. Call after
 * rte_eal_init(). Re-creating an existing segment gives it generation + 1.
 */
int fastmib_create(const struct fastmib_schema *schema, const char *path,
		   const struct fastmib_opts *opts, struct fastmib_segment **segp);

/**
 * fastmib_create(), for code compiled against one model: also refuses,
 * with -ESTALE and a message naming both schema hashes, a schema whose
 * hash (fastmib_schema_hash()) is not `expected_hash`, i.e. a
 * <prefix>_schema.c of another model or version than the
 * <prefix>_stats.h the calling code was compiled with. A generated
 * `<prefix>_create(path, opts, segp)` passes its `<PREFIX>_SCHEMA_HASH`.
 * `expected_hash` 0 checks nothing more than fastmib_create(), which
 * itself refuses (-ESTALE) a schema whose `hash` field is given and is
 * not the hash of what it describes.
 */
int fastmib_create_checked(const struct fastmib_schema *schema, uint64_t expected_hash,
			   const char *path, const struct fastmib_opts *opts,
			   struct fastmib_segment **segp);

/* ---- writers (fastpath/writer/writer.c, flush.c and inline below) ---- */

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
 * Slow path of a transaction opened inside an open one (a contract
 * breach): counts it in the writer's slot (fastmib-stat --info), logs it
 * at most once a second, and asserts in builds with FASTMIB_DEBUG. The
 * open is refused: the sequence number stays as the outer transaction
 * made it, and the matching end leaves it so. Not for direct use.
 */
void fastmib_tx_nested(struct fastmib_writer *w) __attribute__((cold, noinline));

/**
 * Slow path of a generated update whose table index is out of range:
 * counts it in the writer's slot (fastmib-stat --info, `<prefix>OutOfRange`
 * over SNMP), logs it at most once a second, and returns the group's
 * scratch row (fastmib_group_rows_held()), where the update then lands
 * without touching any row, group, slot or header a reader reads. (It
 * takes no index value: passing one would cost the fast path a register
 * copy per row handle.) Not for direct use: generated
 * `<prefix>_<group>_row_checked()` calls it.
 */
uint32_t fastmib_row_out_of_range(struct fastmib_writer *w, unsigned group)
	__attribute__((cold, noinline));


/*
 * The single-writer add. On x86-64 it is one `addq` to memory; elsewhere,
 * and wherever FASTMIB_PORTABLE_ADD is defined (before this header is
 * included, or with -D), it is a relaxed atomic load and a relaxed atomic
 * store. ThreadSanitizer builds always take the portable form, since TSan
 * does not see the accesses an asm statement makes.
 */
#if defined(__x86_64__) && !defined(FASTMIB_PORTABLE_ADD) && !defined(__SANITIZE_THREAD__)
#define FASTMIB_ADD_X86 1
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#undef FASTMIB_ADD_X86
#endif
#endif
#endif

/**
 * Add `n` to the 64-bit word at `p`, a word no other thread writes: a
 * counter of the calling lcore's own per-core block, or a shared counter
 * while holding the flush lock. Readers load the word concurrently (relaxed
 * atomic loads inside a seqcount read section), so the add must never show
 * them a torn value; it need not be an atomic read-modify-write, since
 * nobody else writes the word.
 *
 * x86-64: a single `addq` to memory, not locked. A concurrent reader is
 * safe because:
 *  - the word is 8-byte aligned (schema layout contract), and x86-64 makes
 *    aligned 8-byte loads and stores single-copy atomic: a reader sees the
 *    old or the new value, never a mix of both;
 *  - the add's load and store are not atomic together, which could lose an
 *    update only to another writer of the word, and there is none;
 *  - x86 stores become visible in program order (TSO), so inside a
 *    seqcount write section the add's store is seen after the odd sequence
 *    number and before the even one, all that the seqcount protocol needs;
 *  - the asm names the word as a memory operand ("+m"), so the compiler
 *    treats it as a load and a store of that word and keeps it between the
 *    seqcount's compiler barriers (the release fence after the odd store,
 *    the store-release of the even one), as it does for the portable form.
 * The portable form gives the same guarantees in C11 terms, at two more
 * instructions per update on x86.
 *
 * Memory ordering: none of its own (relaxed); the enclosing write section
 * (fastmib_tx_begin(), fastmib_begin(), a flush) orders it for readers.
 * Caller: the only thread that writes `*p`.
 */
static inline void
fastmib_word_add(uint64_t *p, uint64_t n)
{
#ifdef FASTMIB_ADD_X86
	__asm__ volatile("addq %1, %0" : "+m"(*p) : "er"(n) : "cc");
#else
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
#endif
}

/**
 * Shared-atomic storage: add `n` to the word at `p` with a relaxed atomic
 * read-modify-write (a locked add on x86). Any number of writers.
 * Memory ordering: relaxed; readers get per-counter atomicity only.
 * Caller: any writer thread, inside or outside a transaction.
 */
static inline void
fastmib_word_atomic_add(uint64_t *p, uint64_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

/**
 * Shared-atomic storage: store `v` (gauge `set`) with a relaxed atomic
 * store. Memory ordering: relaxed. Caller: any writer thread.
 */
static inline void
fastmib_word_atomic_set(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* ---- histograms and peaks: per-core words (what generated code calls) ---- */

/**
 * Raise the word at `p` to `v` when `v` is larger: a peak of this lcore's
 * own block, a word no other thread writes. A load and, for a new
 * maximum only, a store: after the first observations a new maximum is
 * rare, so the branch is predicted and the line stays clean for readers.
 * Relaxed atomic load and store: never torn for a reader; a second writer
 * could lose a maximum, and there is none.
 * Memory ordering: none of its own; the enclosing write section orders it
 * for readers, who take the maximum over lcores (fastmib_read()).
 * Caller: the only thread that writes `*p`.
 */
static inline void
fastmib_word_max(uint64_t *p, uint64_t v)
{
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/**
 * One observation `v` into a histogram's words at `h` (of this lcore's
 * block): bucket `bucket` + 1, the count (at h[n_buckets]) + 1, the sum
 * (at h[n_buckets + 1]) + v, three fastmib_word_add(). Inside a
 * transaction, a reader sees all three or none: the count is then the sum
 * of the buckets in every read.
 * Memory ordering: that of fastmib_word_add(). Caller: the owning thread.
 */
static inline void
fastmib_hist_add(uint64_t *h, uint32_t bucket, uint32_t n_buckets, uint64_t v)
{
	fastmib_word_add(&h[bucket], 1);
	fastmib_word_add(&h[n_buckets], 1);
	fastmib_word_add(&h[n_buckets + 1], v);
}

/**
 * The bucket of `v` in a histogram whose n_bounds bounds are 2^lo, ...,
 * 2^(lo + n_bounds - 1): 0 for v <= 2^lo, b for 2^(lo+b-1) < v <= 2^(lo+b),
 * n_bounds (the unbounded bucket) above the last bound. ceil(log2(v)) is
 * the bit length of v - 1, from one count of leading zeros (the `| 1`
 * keeps its operand non-zero; v <= 1 gives 0), then clamped to 0..n_bounds:
 * no loop and no branch (conditional moves), whatever v is. Generated code
 * passes lo and n_bounds as constants.
 */
static inline uint32_t
fastmib_log2_bucket(uint64_t v, uint32_t lo, uint32_t n_bounds)
{
	uint64_t x = v - (v != 0);
	int bits = 64 - __builtin_clzll(x | 1) - (x == 0);
	int b = bits - (int)lo;

	b = b < 0 ? 0 : b;
	return (uint32_t)(b > (int)n_bounds ? (int)n_bounds : b);
}

/**
 * Slow path of fastmib_peak_sync() (fastpath/writer/peaks.c): apply the
 * peak resets published since this lcore last did, zeroing its peak words
 * of the rows they name, and acknowledge them in its slot. Called inside
 * the lcore's write section. Not for direct use.
 */
void fastmib_peak_catch_up(struct fastmib_writer *w) __attribute__((cold, noinline));

/**
 * Inside a transaction's write section (the sequence odd), before its
 * first peak (fastmib_tx_peaks(), fastmib_pc_max()) or at its open
 * (fastmib_begin(), FASTMIB_TX_PEAKS): apply the peak resets published
 * since this lcore last looked. A reset
 * of a peak cannot be a baseline (a maximum cannot be taken back), so the
 * lcore that writes the word zeroes it; readers take a lcore's peak words
 * only once it has acknowledged the row's last reset, and the zeroing and
 * the acknowledgement become visible together at the close. The fast path
 * pays one relaxed load of the segment's request count and a compare,
 * predicted not taken, per transaction that records peaks, never per
 * update; in a model without peaks the count is the writer's own
 * peak_seen.
 * Memory ordering: relaxed; a request missed here is applied at the next
 * call, and until then readers leave this lcore's peaks of those rows out.
 * fastmib_peak_catch_up() orders its own loads (acquire).
 * Caller: the writer's own thread, inside its open transaction.
 */
static inline void
fastmib_peak_sync(struct fastmib_writer *w)
{
	if (unlikely(__atomic_load_n(w->peak_requests, __ATOMIC_RELAXED) != w->peak_seen))
		fastmib_peak_catch_up(w);
}

/*
 * The writer side of a lcore's sequence number (its slot's, in the
 * segment: the protocol of DPDK's rte_seqcount, whose readers the reader
 * library runs on it), for transactions: a single writer, so a plain
 * read-modify-write is enough. On x86-64 each step is one instruction on the word in memory:
 * `bts $0` makes an even number odd and reports (carry) a number that was
 * odd already, i.e. a transaction already open; `add` closes it. The
 * "memory" clobbers are the compiler barriers of rte_seqcount_write_begin()
 * and _end(): no store of the transaction is moved out of the section, and
 * x86 (TSO) makes stores visible in program order, so a reader that sees
 * an even number sees every store before it. Elsewhere, the same protocol
 * in C11 atomics (a release fence after the odd store, a store-release of
 * the even one).
 */
#if defined(FASTMIB_ADD_X86)
#define FASTMIB_SEQ_X86 1
#endif

/**
 * Make the sequence at `sn` odd: a transaction opens. Returns what the
 * matching fastmib_seq_leave() needs to close it (x86-64: the number to
 * add, 1; elsewhere: the even number to store), or, when the sequence was
 * odd already (a transaction is open: the nested open is refused and
 * counted through fastmib_tx_nested()), what leaves it unchanged.
 * Memory ordering: release (no later store of the transaction becomes
 * visible before the odd number). Caller: the sequence's only writer.
 */
static inline uint32_t
fastmib_seq_enter(struct fastmib_writer *w, uint32_t *sn)
{
#ifdef FASTMIB_SEQ_X86
	bool was_odd;

	__asm__ volatile("btsl $0, %0" : "+m"(*sn), "=@ccc"(was_odd) : : "memory");
	if (unlikely(was_odd)) {
		fastmib_tx_nested(w);
		return 0;
	}
	return 1;
#else
	uint32_t v = __atomic_load_n(sn, __ATOMIC_RELAXED);

	if (unlikely(v & 1)) {
		fastmib_tx_nested(w);
		return v;
	}
	__atomic_store_n(sn, v + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return v + 2;
#endif
}

/**
 * Close the transaction fastmib_seq_enter() opened, with what it returned
 * (`close`): the sequence turns even again, or, after a refused open,
 * stays as it was.
 * Memory ordering: release (every store of the transaction is visible to
 * a reader that loads the even number with acquire).
 * Caller: the sequence's only writer.
 */
static inline void
fastmib_seq_leave(uint32_t *sn, uint32_t close)
{
#ifdef FASTMIB_SEQ_X86
	__asm__ volatile("addl %1, %0" : "+m"(*sn) : "ri"(close) : "memory", "cc");
#else
	__atomic_store_n(sn, close, __ATOMIC_RELEASE);
#endif
}

/* ---- calls on the writer: fastmib_begin(), updates by offset, fastmib_end() ---- */

/**
 * Shared-buffered storage: note where the open transaction's operations
 * start in the write buffer, before its first one is appended. A
 * transaction is named by this lcore's sequence number `*sn`, odd while
 * it is open whichever form opened it (the transaction form of a model
 * with shared-buffered groups opens it for this alone): `tx_sn` is the
 * number whose operations start at `tx_start`. So the first operation of
 * each transaction (and of each stretch outside one) moves the mark and
 * the others find it in place, whatever form, and in whatever order, the
 * transaction's updates come; a transaction value's open and end never
 * touch the buffer. A flush inside the transaction (a full buffer,
 * fastmib_flush()) applies only the operations before the mark
 * (flushable(), fastpath/writer/flush.c).
 * Memory ordering: none: a relaxed load of a word only this thread
 * writes. Caller: the writer's own thread only.
 */
static inline void
fastmib_wb_mark(struct fastmib_writer *w, const uint32_t *sn)
{
	uint32_t s = __atomic_load_n(sn, __ATOMIC_RELAXED);

	if (s != w->tx_sn) {
		w->tx_sn = s;
		w->tx_start = w->n_ops;
	}
}

/**
 * Open a transaction on this lcore. Per-core updates made until
 * fastmib_end() are seen by readers all or nothing; shared-buffered
 * updates are flushed all or nothing. Transactions do not nest (a begin
 * inside an open transaction is refused and counted: fastmib_tx_nested()),
 * and one opened here is closed by fastmib_end(), never by
 * fastmib_tx_end(). Keep it short: the updates only, never packet work
 * (a reader waits for the lcore to leave it; see docs/fastpath.md).
 *
 * Memory ordering: fastmib_seq_enter() makes the sequence number odd
 * before (release) any store of the transaction becomes visible; inside
 * it, fastmib_peak_sync() applies the peak resets published since.
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_begin(struct fastmib_writer *w)
{
	w->begin_close = fastmib_seq_enter(w, w->sn);
	fastmib_peak_sync(w);
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
	fastmib_seq_leave(w->sn, w->begin_close);
	w->in_tx = 0;
	if (unlikely(++w->hints >= w->hint_limit || w->n_ops > FASTMIB_WB_SIZE / 2))
		fastmib_end_hint(w);
}

/**
 * Per-core storage: add `n` to the word at byte `offset` of this lcore's
 * block (fastmib_word_add(): single writer, never torn for a reader). Use
 * inside a transaction for group consistency.
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_pc_add(struct fastmib_writer *w, size_t offset, uint64_t n)
{
	fastmib_word_add((uint64_t *)(void *)(w->percore + offset), n);
}

/**
 * Per-core storage: a peak at byte `offset` of this lcore's block raised
 * to `v` (fastmib_word_max()). Inside a transaction the peak resets
 * published since this lcore last looked are applied first
 * (fastmib_peak_sync(), which fastmib_begin() did already; a transaction
 * value applies them at its first peak, so a call on the writer inside
 * its transaction cannot count on it). Outside one nothing may be
 * applied, since the zeroing and its acknowledgement must be published
 * together: a peak recorded there counts from the lcore's next
 * application on.
 * Memory ordering: a relaxed load of the lcore's own sequence number
 * (odd: a transaction is open, whichever form opened it).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_pc_max(struct fastmib_writer *w, size_t offset, uint64_t v)
{
	if (__atomic_load_n(w->sn, __ATOMIC_RELAXED) & 1)
		fastmib_peak_sync(w);
	fastmib_word_max((uint64_t *)(void *)(w->percore + offset), v);
}

/**
 * Per-core storage: an observation `v` of the histogram whose words start
 * at byte `offset` of this lcore's block (fastmib_hist_add()). Inside a
 * transaction, so that readers see its three words together.
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_pc_observe(struct fastmib_writer *w, size_t offset, uint32_t bucket,
		   uint32_t n_buckets, uint64_t v)
{
	fastmib_hist_add((uint64_t *)(void *)(w->percore + offset), bucket, n_buckets, v);
}

/**
 * Shared-buffered storage: append (offset, operand) to the write buffer,
 * with the transaction's mark already made (fastmib_wb_mark(); the
 * transaction form's fastmib_tx_wb() makes it once per transaction).
 * Memory ordering: none (writer-private buffer).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_wb_push(struct fastmib_writer *w, size_t offset, uint64_t n)
{
	struct fastmib_wb_op *op;

	if (unlikely(w->n_ops == FASTMIB_WB_SIZE))
		fastmib_wb_overflow(w);
	op = &w->ops[w->n_ops++];
	op->offset = offset;
	op->operand = n;
}

/**
 * Shared-buffered storage: schedule an add of `n` to the word at byte
 * `offset` of the shared area. Nothing is visible until a flush applies
 * it; inside a transaction (of either form), never apart from the rest of
 * the transaction. A call on the writer cannot know whether a transaction
 * value opened one (an open tells nothing but the sequence number), so
 * each call checks the mark (fastmib_wb_mark(): a load of the sequence
 * number, a compare and a predicted branch), the price of the
 * transaction form's opens and ends costing nothing for the kinds they
 * do not update (docs/benchmarks.md).
 * Memory ordering: none (writer-private buffer).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_wb_add(struct fastmib_writer *w, size_t offset, uint64_t n)
{
	fastmib_wb_mark(w, w->sn);
	fastmib_wb_push(w, offset, n);
}

/** Shared-atomic storage: fastmib_word_atomic_add() at byte `offset`. */
static inline void
fastmib_atomic_add(struct fastmib_writer *w, size_t offset, uint64_t n)
{
	fastmib_word_atomic_add((uint64_t *)(void *)(w->shared + offset), n);
}

/** Shared-atomic storage: fastmib_word_atomic_set() at byte `offset`. */
static inline void
fastmib_atomic_set(struct fastmib_writer *w, size_t offset, uint64_t v)
{
	fastmib_word_atomic_set((uint64_t *)(void *)(w->shared + offset), v);
}

/* ---- transactions as values (what generated `<prefix>_tx_*` calls use) ---- */

/*
 * fastmib_tx_prepare() `kinds`: the bookkeeping every transaction of the
 * value does. What depends on the updates a transaction makes is done by
 * those updates: the first shared-buffered one through the value
 * (fastmib_tx_wb()) marks the write buffer and makes the end count a
 * flush hint, so a transaction of per-core updates alone does neither,
 * in any model.
 */
#define FASTMIB_TX_SEQ 0x1u      /**< the lcore's sequence number, odd while open */
#define FASTMIB_TX_HINT 0x2u     /**< a flush hint at every end (fastmib_tx_end()) */
/** Per-core groups: read under the sequence number. */
#define FASTMIB_TX_PERCORE FASTMIB_TX_SEQ
/** Shared-buffered updates made on the writer (fastmib_wb_add()) in the
 *  value's transactions: the sequence number names the transaction in the
 *  buffer, and every end counts a flush hint, since those updates cannot
 *  tell the value they were made. */
#define FASTMIB_TX_BUFFERED (FASTMIB_TX_SEQ | FASTMIB_TX_HINT)
/** Peaks (per-core): their resets applied at every open (fastmib_peak_sync()),
 *  for hand-written code that records peaks by calls on the writer inside
 *  the value's transactions; generated peak updates through the value
 *  apply them at their transaction's first (fastmib_tx_peaks()). */
#define FASTMIB_TX_PEAKS 0x4u
#define FASTMIB_TX_ALL (FASTMIB_TX_PERCORE | FASTMIB_TX_BUFFERED | FASTMIB_TX_PEAKS)

/**
 * A transaction of one lcore: a value on the caller's stack, so the
 * compiler keeps the block addresses in registers for every update instead
 * of reloading them from the writer after each store. Generated code wraps
 * it in `struct <prefix>_tx`. Fields are public for inlining only.
 *
 * One value may carry many transactions: fastmib_tx_prepare() loads the
 * addresses once (per burst, say), then fastmib_tx_open() and
 * fastmib_tx_end() bracket each short transaction (per packet, say) at the
 * cost of the sequence number's two stores.
 *
 * `buffered` is what makes the buffered bookkeeping cost nothing where a
 * transaction makes no buffered update: cleared by the open, set by the
 * first buffered update (fastmib_tx_wb()), read by the end. The value
 * lives in registers when the calls are inlined, so the compiler knows
 * the flag at each point of a loop and drops the end's test where no
 * buffered update can have set it.
 */
struct fastmib_tx {
	struct fastmib_writer *w; /**< this lcore's writer (events, fastmib_flush()) */
	uint8_t *percore;         /**< this lcore's per-core block */
	uint8_t *shared;          /**< the segment's shared data area */
	uint32_t *sn;             /**< this lcore's sequence number */
	uint32_t close;           /**< fastmib_seq_enter()'s result, for fastmib_tx_end() */
	uint32_t kinds;           /**< FASTMIB_TX_* of every transaction of the value */
	bool buffered;            /**< the open transaction buffered through the value */
	bool peaks;               /**< the open transaction applied the peak resets */
};

/**
 * A transaction value of this lcore, with the block addresses loaded and
 * no transaction open yet: open one with fastmib_tx_open(). Only the
 * bookkeeping `kinds` asks for is done at every open and end: generated
 * `<prefix>_tx_prepare()` passes FASTMIB_TX_SEQ as a constant when its
 * model has per-core or shared-buffered groups (0 for shared-atomic
 * ones only), and FASTMIB_TX_PEAKS when it has peaks, so the rest
 * compiles away; its buffered updates do their own part
 * (fastmib_tx_wb()). Hand-written code passes
 * FASTMIB_TX_PERCORE, or FASTMIB_TX_ALL when it also makes buffered
 * updates with fastmib_wb_add() on the writer.
 * No memory access but loads of the writer's fields. Caller: the writer's
 * own thread only; the value stays valid as long as the writer does.
 */
static inline struct fastmib_tx
fastmib_tx_prepare(struct fastmib_writer *w, unsigned int kinds)
{
	struct fastmib_tx tx;

	tx.w = w;
	tx.percore = w->percore;
	tx.shared = w->shared;
	tx.sn = w->sn;
	tx.close = 0;
	tx.kinds = kinds;
	tx.buffered = false;
	tx.peaks = false;
	return tx;
}

/**
 * Open a transaction on a prepared (or ended) transaction value. Updates
 * made until fastmib_tx_end() are read all or nothing, per scalar group
 * and per table row. Keep it to the updates: never packet work, which
 * would make every reader of this lcore's counters wait for it.
 *
 * FASTMIB_TX_SEQ, memory ordering (fastmib_seq_enter()): the lcore's
 * sequence number turns odd before (release) any later store of the
 * transaction becomes visible. A transaction already open on this lcore
 * (through any value, or fastmib_begin()) makes this one refused and
 * counted (fastmib_tx_nested()); its updates then belong to the open one,
 * the buffered ones too, since the number that names it in the write
 * buffer stays the open one's.
 *
 * FASTMIB_TX_PEAKS: inside the section just opened, the peak resets
 * published since this lcore last looked are applied (fastmib_peak_sync());
 * without it, at the transaction's first peak through the value
 * (fastmib_tx_peaks()).
 *
 * The write buffer is not touched: the transaction's first buffered
 * update marks where its operations start (fastmib_wb_mark()), so that a
 * flush before fastmib_tx_end() (a full buffer, a fastmib_flush()) applies
 * only the complete transactions before it.
 *
 * The calls on the writer (fastmib_pc_add(), generated
 * `<prefix>_<group>_<counter>_add(w, ...)`) may be used inside.
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_tx_open(struct fastmib_tx *tx)
{
	if (tx->kinds & FASTMIB_TX_SEQ)
		tx->close = fastmib_seq_enter(tx->w, tx->sn);
	tx->peaks = (tx->kinds & FASTMIB_TX_PEAKS) != 0;
	if (tx->peaks)
		fastmib_peak_sync(tx->w);
	tx->buffered = false;
}

/**
 * fastmib_tx_prepare() and fastmib_tx_open() in one: a transaction value
 * with its first transaction open.
 */
static inline struct fastmib_tx
fastmib_tx_begin(struct fastmib_writer *w, unsigned int kinds)
{
	struct fastmib_tx tx = fastmib_tx_prepare(w, kinds);

	fastmib_tx_open(&tx);
	return tx;
}

/**
 * Close the transaction opened on `tx`. The value may open another one.
 *
 * FASTMIB_TX_SEQ, memory ordering (fastmib_seq_leave()): the release
 * store of the next even sequence number orders every store of the
 * transaction before it; a reader that loads that number with acquire sees
 * them all, and one that saw any of them half done retries. The buffered
 * operations of the transaction become flushable with it: the number that
 * named them in the buffer is no longer the open one.
 *
 * After a buffered update through the value (or with FASTMIB_TX_HINT),
 * then: every `hint_limit` such ends, or with the buffer more than half
 * full, a flush is attempted as by fastmib_end(). A transaction of other
 * updates only does nothing more than close the sequence number.
 * Caller: the thread that opened it.
 */
static inline void
fastmib_tx_end(struct fastmib_tx *tx)
{
	struct fastmib_writer *w = tx->w;

	if (tx->kinds & FASTMIB_TX_SEQ)
		fastmib_seq_leave(tx->sn, tx->close);
	if ((tx->kinds & FASTMIB_TX_HINT) || tx->buffered) {
		if (unlikely(++w->hints >= w->hint_limit || w->n_ops > FASTMIB_WB_SIZE / 2))
			fastmib_end_hint(w);
	}
}

/**
 * The word at byte `offset` of this lcore's per-core block, for
 * fastmib_word_add(); generated row handles are such pointers, so a counter
 * update is one add at a constant displacement. Caller: the owning thread.
 */
static inline uint64_t *
fastmib_tx_pc(const struct fastmib_tx *tx, size_t offset)
{
	return (uint64_t *)(void *)(tx->percore + offset);
}

/**
 * The word at byte `offset` of the shared area, for fastmib_word_atomic_add()
 * and fastmib_word_atomic_set() (shared-atomic groups only: shared-buffered
 * words are written by flushes alone).
 */
static inline uint64_t *
fastmib_tx_shared(const struct fastmib_tx *tx, size_t offset)
{
	return (uint64_t *)(void *)(tx->shared + offset);
}

/**
 * The writer, for shared-buffered updates of the open transaction
 * (fastmib_wb_push(), or a generated row handle's): the first call in a
 * transaction marks where its operations start in the write buffer
 * (fastmib_wb_mark(), found in place if a call on the writer in the same
 * transaction made it already) and makes fastmib_tx_end() count a flush
 * hint; later calls are a test of a flag the compiler usually knows.
 * Needs FASTMIB_TX_SEQ in the value's kinds: the mark names the open
 * transaction by the sequence number.
 * Memory ordering: none (fastmib_wb_mark()). Caller: the transaction's
 * thread, between open and end.
 */
static inline struct fastmib_writer *
fastmib_tx_wb(struct fastmib_tx *tx)
{
	if (!tx->buffered) {
		fastmib_wb_mark(tx->w, tx->sn);
		tx->buffered = true;
	}
	return tx->w;
}

/**
 * Peaks (per-core): before the open transaction's first peak through the
 * value (a generated `<prefix>_tx_<group>_<peak>_peak()`, or the row
 * handle of a group with peaks), apply the peak resets published since
 * this lcore last looked (fastmib_peak_sync()); later calls are a test of
 * a flag the compiler usually knows. So a transaction that records no
 * peak pays nothing for them, even in a model with peaks, and one that
 * does applies the resets before its first peak, as an open did.
 * Memory ordering: that of fastmib_peak_sync(), inside the transaction's
 * write section (the value's FASTMIB_TX_SEQ: a model with peaks has
 * per-core groups), whose close publishes the zeroing and its
 * acknowledgement together. Caller: the transaction's thread, between
 * open and end.
 */
static inline void
fastmib_tx_peaks(struct fastmib_tx *tx)
{
	if (!tx->peaks) {
		fastmib_peak_sync(tx->w);
		tx->peaks = true;
	}
}

/** Shared-buffered storage: fastmib_wb_push() of `n` to byte `offset` of
 *  the shared area, as part of the transaction open on `tx`. */
static inline void
fastmib_tx_wb_add(struct fastmib_tx *tx, size_t offset, uint64_t n)
{
	fastmib_wb_push(fastmib_tx_wb(tx), offset, n);
}

/* ---- event log: writers (inline below) ---- */

/**
 * Is an event of `rate` (0..9) logged in the current burst of this lcore?
 * One compare against the threshold drawn by the last fastmib_event_burst():
 * rate 9 is always logged and rate 0 never (the threshold is 1..9), which
 * generated code resolves at compile time.
 * Caller: the writer's own thread only.
 */
static inline bool
fastmib_event_on(const struct fastmib_writer *w, unsigned rate)
{
	return rate >= w->ev_threshold;
}

/** Part of fastmib_event_log(): count a record overwritten by a newer one. */
static inline void
fastmib_event_count_drop(struct fastmib_writer *w, uint32_t old_event)
{
	uint64_t *d = &w->ev_dropped[old_event];

	__atomic_store_n(d, *d + 1, __ATOMIC_RELAXED);
}

/**
 * Append one record {TSC, event_index, a0..a3} to this lcore's ring,
 * overwriting the oldest record when the ring is full. No lock and no
 * atomic read-modify-write: the slot has a single writer.
 *
 * Memory ordering (the seqcount protocol, per record):
 *  1. relaxed store seq = 0 (record invalid), then a release fence, so the
 *     invalidation is ordered before every field store that follows: a
 *     reader that copies any new field and then issues an acquire fence is
 *     guaranteed to see seq != its expected record number on re-check;
 *  2. relaxed stores of tsc, event and args (no torn 64-bit words);
 *  3. store-release seq = n: a reader that loads n with acquire sees all
 *     fields of record n;
 *  4. store-release of the slot's head = n, so a reader that reads head
 *     with acquire finds records up to n complete (unless overwritten
 *     since, which step 1 makes detectable).
 * The per-event logged/dropped counters are relaxed stores of load + 1
 * (single writer); readers may see them a little ahead of or behind the
 * ring. Requires a model with events (the generator only emits calls then).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_event_log(struct fastmib_writer *w, uint32_t event_index, uint64_t a0,
		  uint64_t a1, uint64_t a2, uint64_t a3)
{
	uint64_t n = w->ev_head + 1;
	struct fastmib_event_slotrec *r = &w->ev_ring[n & w->ev_mask];
	uint64_t *lg = &w->ev_logged[event_index];

	if (likely(n > (uint64_t)w->ev_mask + 1))
		fastmib_event_count_drop(w, r->event);
	__atomic_store_n(&r->seq, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&r->tsc, rte_rdtsc(), __ATOMIC_RELAXED);
	__atomic_store_n(&r->event, event_index, __ATOMIC_RELAXED);
	__atomic_store_n(&r->args[0], a0, __ATOMIC_RELAXED);
	__atomic_store_n(&r->args[1], a1, __ATOMIC_RELAXED);
	__atomic_store_n(&r->args[2], a2, __ATOMIC_RELAXED);
	__atomic_store_n(&r->args[3], a3, __ATOMIC_RELAXED);
	__atomic_store_n(&r->seq, n, __ATOMIC_RELEASE);
	__atomic_store_n(w->ev_head_pub, n, __ATOMIC_RELEASE);
	__atomic_store_n(lg, *lg + 1, __ATOMIC_RELAXED);
	w->ev_head = n;
}

/**
 * Start a burst: re-draw this lcore's threshold t in 1..9 with
 * P(t <= r) = 5^(r-9), so an event of rate r is logged in a fraction
 * 5^(r-9) of bursts (rate 8 in 1/5, rate 7 in 1/25, ... rate 1 in
 * 1/390625). Uses a per-writer xorshift64* generator: a few multiplies and
 * at most 8 compares, no memory shared with any other thread.
 * Before the first call the threshold is 9 (only rate-9 events).
 * Caller: the writer's own thread only.
 */
static inline void
fastmib_event_burst(struct fastmib_writer *w)
{
	uint64_t x = w->ev_rng;
	uint32_t u, p = 78125; /* 5^7 */
	unsigned t = FASTMIB_EVENT_RATE_MAX;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	w->ev_rng = x;
	/* u uniform in [0, 5^8): the top 32 bits scaled by multiply-shift. */
	u = (uint32_t)((((x * 0x2545f4914f6cdd1dull) >> 32) * 390625ull) >> 32);
	while (u < p && t > 1) {
		t--;
		p /= 5;
	}
	w->ev_threshold = t;
}

/**
 * Set this lcore's threshold directly (1 logs every rate 1..9, 9 only
 * rate 9) until the next fastmib_event_burst(): for debugging and tests.
 */
static inline void
fastmib_event_threshold(struct fastmib_writer *w, unsigned t)
{
	w->ev_threshold = t < 1 ? 1 : t > FASTMIB_EVENT_RATE_MAX ? FASTMIB_EVENT_RATE_MAX : t;
}

/* ---- row control (fastpath/writer/rows.c; application, any thread) ---- */

/**
 * Mark table row `row` (0-based, row-major over the indexes) present.
 * Enabling a row that was absent records its current value as the row's
 * reset baseline, so a recycled row starts at zero. A writer may call it
 * inside its own open transaction: its updates made before the call count
 * as the old row's, those after it as the new row's. Creator only; also
 * returns -EBUSY when another lcore stays inside a transaction for 1 ms
 * (see fastmib_reset()). Never waits on another process: a resetter that
 * holds the reset lock, even one frozen mid-reset, does not delay it (its
 * baseline goes to a half of the row's record that resetters never write,
 * and the snapshot taken later wins). Threads of this process enabling
 * rows at once serialize briefly on a lock of the process's own. A row
 * of a group with states starts with their defaults.
 */
int fastmib_row_enable(struct fastmib_segment *seg, unsigned group, uint32_t row);
int fastmib_row_disable(struct fastmib_segment *seg, unsigned group, uint32_t row);

/* ---- keyed tables (fastpath/writer/keys.c; creator, any thread) ---- */

/**
 * The row of C key `key` (the generated `struct <prefix>_<group>_key`) in
 * keyed table `group`, added if it is not there: a free row is made
 * present, with its current counts as its baseline (a reused row starts at
 * zero, as fastmib_row_enable() does) and its states' defaults, and its key
 * stored for readers.
 * -ENOSPC when the table holds its capacity already, -EINVAL for a key
 * that cannot be an index (an empty or too long string, an address type
 * other than 1 or 2, an integer index out of range) or a group that is
 * not keyed, -EPERM outside the creating process. O(1) expected. The row
 * is what the fast path counts with: `<prefix>_tx_<group>(&tx, row)`.
 * Caller: any thread of the creating process (they serialize on a lock of
 * its own; the fast path never takes it).
 */
int fastmib_key_insert(struct fastmib_segment *seg, unsigned group, const void *key,
		       uint32_t *row);

/** The row of `key`: 0, or -ENOENT when it is not in the table. */
int fastmib_key_find(struct fastmib_segment *seg, unsigned group, const void *key,
		     uint32_t *row);

/**
 * Take `key` out of the table: its row is absent to readers at once and
 * free for a later insert, which starts it at zero. 0, or -ENOENT.
 * Updates still made to the row's number are counted and never served.
 */
int fastmib_key_remove(struct fastmib_segment *seg, unsigned group, const void *key);

/* ---- state objects (fastpath/writer/states.c; creator, any thread) ---- */

/*
 * The generated `<p>_<g>_state_set()`, `<p>_<g>_<s>_set()` and
 * `<p>_<g>_state_get()` call these; an application calls those. A set
 * publishes in one step: readers (fastmib_state_read()) see the row's
 * states before or after it, never half of it, and a set of one state
 * leaves the others as they are. Two threads setting one row serialize on
 * its lock, the last complete set wins; a setter never waits for a reader
 * and no lcore's counter update ever waits for a setter. A set that
 * changes a `notify` state appends the change to the segment's change log
 * (in the order of the sets), which serving agents send as notifications.
 *
 * Each returns 0; -EINVAL for a value the model does not allow (an enum
 * value not listed, outside the range, a string longer than its size or
 * not ASCII, an address type other than 0, 1, 2: nothing is changed and
 * fastmib_last_error() names the state), a group without states or a row
 * out of range; -ENOENT for a row not present (a `rows: present` row not
 * enabled, a keyed row removed); -EPERM outside the creating process.
 */

/** Every state of row `row` (0 in a scalar group) from `st`, the group's
 *  state struct (state_size bytes). */
int fastmib_state_set(struct fastmib_segment *seg, unsigned group, uint32_t row, const void *st);

/** State `state` (its position in the group) from `value`, its C form. */
int fastmib_state_set_one(struct fastmib_segment *seg, unsigned group, uint32_t row,
			  unsigned state, const void *value);

/** A display-string state from NUL-terminated `text`. */
int fastmib_state_set_text(struct fastmib_segment *seg, unsigned group, uint32_t row,
			   unsigned state, const char *text);

/** An octet-string state from octets[0..len). */
int fastmib_state_set_octets(struct fastmib_segment *seg, unsigned group, uint32_t row,
			     unsigned state, const void *octets, size_t len);

/** The row's states into `st` (state_size bytes): fastmib_state_read(). */
int fastmib_state_get(struct fastmib_segment *seg, unsigned group, uint32_t row, void *st);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_FASTMIB_H */
