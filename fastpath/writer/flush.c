/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Write-buffer flushes (shared-buffered storage). No EAL calls: the
 * buffers and the seqlock live in the segment and the writer struct.
 *
 * A flush applies buffered (offset, operand) pairs to the shared area
 * inside one write section of the shared seqlock, so a reader sees either
 * none or all of the pairs applied by that flush. Only complete
 * transactions are flushed; the open transaction's pairs stay buffered
 * (moved to the front) until its end.
 */
#include <string.h>

#include "seq_shim.h"
#include "writers.h"

static inline rte_seqlock_t *
flush_lock(const struct fastmib_writer *w)
{
	return fms_rte_seqlock(&w->seg->shared_head->lock);
}

/*
 * Pairs that may be applied now: everything but those of the open
 * transaction. A transaction is open while the lcore's sequence number is
 * odd, and its pairs start at tx_start if its first buffered update made
 * the mark (fastmib_wb_mark(): tx_sn is then its number); if none did, it
 * has no pairs yet. The number is the writer's own, loaded relaxed.
 *
 * Outside a transaction the mark takes the even number: a mark left by a
 * transaction whose end did not look at the buffer (the transaction form
 * with buffered updates on the writer only) then cannot name a later
 * transaction once the 32-bit number wraps around to it, 2^31
 * transactions on. Every flush the flush hint or an idle lcore makes is
 * outside a transaction.
 */
static inline uint32_t
flushable(struct fastmib_writer *w)
{
	uint32_t s = __atomic_load_n(w->sn, __ATOMIC_RELAXED);

	if (!(s & 1)) {
		w->tx_sn = s;
		return w->n_ops;
	}
	return s == w->tx_sn ? w->tx_start : w->n_ops;
}

/*
 * Caller holds the seqlock's write section. The lock makes the caller the
 * only writer of the shared words, so each add is fastmib_word_add(): one
 * unlocked add on x86-64, a relaxed load and store elsewhere, never torn
 * for a concurrent reader (see fastmib.h) and visible to ThreadSanitizer in
 * its builds. Four operations per iteration: a flush applies dozens to
 * hundreds of them, and the loop control would otherwise cost as much as
 * the adds.
 */
static void
apply(struct fastmib_writer *w, uint32_t n)
{
	uint8_t *shared = w->shared;
	const struct fastmib_wb_op *op = w->ops, *end4 = w->ops + (n & ~3u), *end = w->ops + n;

#define APPLY_ONE(o) fastmib_word_add((uint64_t *)(void *)(shared + (o).offset), (o).operand)
	for (; op != end4; op += 4) {
		APPLY_ONE(op[0]);
		APPLY_ONE(op[1]);
		APPLY_ONE(op[2]);
		APPLY_ONE(op[3]);
	}
	for (; op != end; op++)
		APPLY_ONE(op[0]);
#undef APPLY_ONE
}

/* After applying the first n pairs: keep the rest at the front. */
static void
retire_ops(struct fastmib_writer *w, uint32_t n)
{
	uint32_t rest = w->n_ops - n;

	if (rest)
		memmove(w->ops, w->ops + n, rest * sizeof(w->ops[0]));
	w->n_ops = rest;
	w->tx_start -= w->tx_start >= n ? n : w->tx_start;
	w->flushes++;
	w->hints = 0;
}

static void
flush_n(struct fastmib_writer *w, uint32_t n)
{
	rte_seqlock_t *l = flush_lock(w);

	rte_seqlock_write_lock(l);
	apply(w, n);
	rte_seqlock_write_unlock(l);
	retire_ops(w, n);
}

void
fastmib_flush(struct fastmib_writer *w)
{
	uint32_t n = flushable(w);

	if (n == 0) {
		w->hints = 0;
		return;
	}
	flush_n(w, n);
}

void
fastmib_try_flush(struct fastmib_writer *w)
{
	rte_seqlock_t *l = flush_lock(w);
	uint32_t n = flushable(w);

	if (n == 0) {
		w->hints = 0;
		return;
	}
	if (!rte_spinlock_trylock(&l->lock)) {
		w->flush_misses++;
		return;
	}
	rte_seqcount_write_begin(&l->count);
	apply(w, n);
	rte_seqlock_write_unlock(l);
	retire_ops(w, n);
}

/*
 * Buffer full. Outside a transaction, or with complete transactions ahead
 * of the open one, flush what may be flushed. A single transaction larger
 * than FASTMIB_WB_SIZE cannot be kept whole: that is a caller bug, and we
 * split it rather than lose updates.
 */
void
fastmib_wb_overflow(struct fastmib_writer *w)
{
	uint32_t n = flushable(w);

	if (n == 0)
		n = w->n_ops; /* oversized transaction: split */
	flush_n(w, n);
}

/*
 * fastmib_end() slow path, entered when `hints` reached `hint_limit` or
 * the buffer is more than half full. Try without spinning; after
 * 4 * hint_limit fastmib_end() calls without success, wait for the lock.
 */
void
fastmib_end_hint(struct fastmib_writer *w)
{
	if (w->n_ops == 0) {
		w->hints = 0;
		return;
	}
	if (w->hints >= 4 * w->hint_limit)
		fastmib_flush(w);
	else
		fastmib_try_flush(w);
}
