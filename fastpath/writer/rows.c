/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Row presence of `rows: present` tables: the creator enables a row when
 * the thing it counts appears (a flow, a session) and disables it when it
 * goes. Presence is a two-level bitmap in the segment (a bit per row, and
 * a summary bit per 64-row word), so readers find the next present row in
 * O(1) amortized.
 */
#include <errno.h>

#include <rte_spinlock.h>

#include "seq_shim.h"
#include "writers.h"

/* Enabling a row may happen on the fast path (a new flow): it waits this
 * long at most for a writer inside its transaction. */
#define ENABLE_PATIENCE_NS 1000000ull

/*
 * Store the enable half of a row's record: its current value as the
 * baseline of the row that starts now. Threads of this process serialize
 * on a spinlock of their own (private memory, so no other process can
 * hold it); the write section of enable_seq has that one writer at a time.
 * No resetter is waited for: their stores go to the other half, and the
 * reader takes the half whose snapshot was taken later.
 *
 * A row that never had a record and counted nothing (a row enabled for
 * the first time) already reads zero: nothing is stored, and its record
 * stays unallocated, so a table of a million rows enabled once costs no
 * record memory. Otherwise the record's pages are allocated first, which
 * is where a full tmpfs makes the enable fail (-ENOSPC) rather than kill
 * the application with SIGBUS.
 *
 * The peaks of a row that starts again are reset: the holder of the
 * enable lock is the one writer of the enables' peak log, and names its
 * next entry in the half before it publishes it (fms_peak_publish()); each
 * lcore zeroes its words of the row before its next peak, in a
 * transaction.
 */
static int
store_enable_baseline(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	bool peaks = seg->lay.groups[group].has_peaks;
	uint64_t *half = fms_reset_row(seg, group, row) + fms_rec_half_words(g);
	rte_seqcount_t *sc = fms_rte_seqcount(&seg->reset_head->enable_seq);
	uint64_t raw[FASTMIB_MAX_ROW_WORDS], epoch, any = 0, entry = 0;
	int rc = fms_snap_baseline(seg, group, row, ENABLE_PATIENCE_NS, &epoch, raw);

	if (rc)
		return rc;
	for (uint32_t i = 0; i < g->n_counters; i++) {
		const struct fastmib_counter_schema *c = &g->counters[i];
		uint32_t w = fastmib_counter_word(c);

		if (c->type == FASTMIB_GAUGE32)
			continue;
		for (uint32_t k = w; k < w + fastmib_counter_words(c); k++)
			any |= raw[k];
	}
	if (any == 0 && !fms_row_stored(seg, group, row))
		return 0;
	if ((rc = fms_alloc_record(seg, group, row)))
		return rc;
	rte_spinlock_lock(&seg->writers->enable_lock);
	if (peaks)
		entry = fms_peak_next(seg, FMS_PEAK_ENABLES);
	rte_seqcount_write_begin(sc);
	for (uint32_t i = 0; i < g->n_counters; i++) {
		const struct fastmib_counter_schema *c = &g->counters[i];
		uint32_t w = fastmib_counter_word(c);

		if (c->type == FASTMIB_PEAK)
			__atomic_store_n(&half[FMS_REC_BASE + w], entry, __ATOMIC_RELAXED);
		if (c->type == FASTMIB_GAUGE32 || c->type == FASTMIB_PEAK)
			continue;
		for (uint32_t k = w; k < w + fastmib_counter_words(c); k++)
			__atomic_store_n(&half[FMS_REC_BASE + k], raw[k], __ATOMIC_RELAXED);
	}
	__atomic_store_n(&half[FMS_REC_TIME], fms_now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&half[FMS_REC_EPOCH], epoch, __ATOMIC_RELAXED);
	rte_seqcount_write_end(sc);
	fms_set_stored(seg, group, row);
	if (peaks)
		fms_peak_publish(seg, FMS_PEAK_ENABLES, entry, group, row);
	rte_spinlock_unlock(&seg->writers->enable_lock);
	return 0;
}

static int
presence_args(struct fastmib_segment *seg, unsigned group, uint32_t row,
	      uint64_t **words)
{
	const struct fastmib_group_schema *g;

	if (group >= seg->schema->n_groups)
		return fms_error(-EINVAL, "group %u does not exist", group);
	g = &seg->schema->groups[group];
	if (g->n_indexes == 0)
		return fms_error(-EINVAL, "group %s is scalar: it has no rows", g->name);
	if (row >= g->n_rows)
		return fms_error(-EINVAL, "group %s: row %u out of range (%u rows)", g->name,
				 row, g->n_rows);
	if (g->all_rows)
		return fms_error(-EPERM, "group %s has `rows: all`: rows cannot be toggled",
				 g->name);
	if (!seg->creator)
		return fms_error(-EPERM, "%s: only the creating process toggles rows", seg->path);
	*words = fms_presence(seg, group);
	return 0;
}

int
fastmib_row_enable(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	uint64_t *words = NULL, bit = 1ull << (row % 64);
	uint64_t nw;
	int rc = presence_args(seg, group, row, &words);

	if (rc)
		return rc;
	if (__atomic_load_n(&words[row / 64], __ATOMIC_ACQUIRE) & bit)
		return 0;
	/* Baseline and states first, then the bit (release): whoever sees the
	 * row present also sees its fresh baseline, so a recycled row reads
	 * 0, and its states' defaults. */
	if ((rc = store_enable_baseline(seg, group, row)) ||
	    (rc = fms_state_init_row(seg, group, row)))
		return rc;
	nw = seg->lay.groups[group].n_words;
	/*
	 * Sequentially consistent, like the four operations of row_disable:
	 * a disable that empties the word clears the summary bit and then
	 * re-reads the word; these orders guarantee that it either sees this
	 * row's bit or this enable sets the summary bit after its clear.
	 */
	__atomic_fetch_or(&words[row / 64], bit, __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&words[nw + row / 4096], 1ull << ((row / 64) % 64), __ATOMIC_SEQ_CST);
	return 0;
}

int
fastmib_row_disable(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	uint64_t *words = NULL, bit = 1ull << (row % 64), sbit, left;
	uint64_t nw;
	int rc = presence_args(seg, group, row, &words);

	if (rc)
		return rc;
	nw = seg->lay.groups[group].n_words;
	sbit = 1ull << ((row / 64) % 64);
	left = __atomic_and_fetch(&words[row / 64], ~bit, __ATOMIC_SEQ_CST);
	if (left == 0) {
		__atomic_fetch_and(&words[nw + row / 4096], ~sbit, __ATOMIC_SEQ_CST);
		/*
		 * A concurrent enable may have refilled the word meanwhile. The
		 * clear above must be ordered before this load (store-load
		 * order: SEQ_CST; free on x86, where the RMWs are locked).
		 */
		if (__atomic_load_n(&words[row / 64], __ATOMIC_SEQ_CST))
			__atomic_fetch_or(&words[nw + row / 4096], sbit, __ATOMIC_SEQ_CST);
	}
	return 0;
}
