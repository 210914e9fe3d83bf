/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A lcore applies peak resets (segment_format.h, "Peak resets"):
 * fastmib_peak_catch_up(), the slow path of fastmib_peak_sync(), runs
 * inside the lcore's write section when the segment's request count moved
 * since it last looked. For each of the two logs it zeroes its own peak
 * words of the rows of the entries after its slot's acknowledgement and
 * then stores the acknowledgement; the section's close publishes both at
 * once. Only this lcore writes these words, so plain relaxed stores do.
 *
 * Readers take a slot's peak word of a row only when the slot has
 * acknowledged the entries the row's record names, so an entry applied
 * late hides this lcore's peaks of the row meanwhile, never shows the
 * values from before the reset.
 */
#include "writers.h"

/* This lcore's peak words of row `row` of group `gi` set to 0. */
static void
zero_row(struct fastmib_writer *w, uint32_t gi, uint32_t row)
{
	const struct fastmib_group_schema *g = &w->seg->schema->groups[gi];
	uint64_t *words = (uint64_t *)(void *)(w->percore + g->offset +
					       (uint64_t)row * g->row_size);

	for (uint32_t c = 0; c < g->n_counters; c++)
		if (g->counters[c].type == FASTMIB_PEAK)
			__atomic_store_n(&words[fastmib_counter_word(&g->counters[c])], 0,
					 __ATOMIC_RELAXED);
}

/* Every row of group gi (a group with peaks): its rows, not the scratch
 * row, which no reader reads. */
static void
zero_group(struct fastmib_writer *w, uint32_t gi)
{
	for (uint32_t r = 0; r < w->seg->schema->groups[gi].n_rows; r++)
		zero_row(w, gi, r);
}

/*
 * Apply one entry. It comes from a file other processes write: a group
 * or row out of range is skipped, so that a damaged log never makes this
 * lcore store outside its block.
 */
static void
apply_entry(struct fastmib_writer *w, uint64_t entry)
{
	const struct fastmib_schema *s = w->seg->schema;
	uint32_t gi = (uint32_t)(entry >> 32), row = (uint32_t)entry;

	if (gi == FMS_PEAK_ALL) {
		for (uint32_t i = 0; i < s->n_groups; i++)
			if (w->seg->lay.groups[i].has_peaks)
				zero_group(w, i);
		return;
	}
	if (gi >= s->n_groups || !w->seg->lay.groups[gi].has_peaks)
		return;
	if (row == FMS_PEAK_ALL)
		zero_group(w, gi);
	else if (row < s->groups[gi].n_rows)
		zero_row(w, gi, row);
}

/*
 * More than the log holds came since the acknowledgement `ack`: zero every
 * row whose record names a later entry of log `log`. Records name their
 * entries before the entries are published (fms_peak_publish()), so every
 * entry up to the head loaded with acquire before this scan is named in
 * its rows; an entry published during the scan is past the head this
 * lcore acknowledges, and is applied at a later call.
 */
static void
scan_records(struct fastmib_writer *w, int log, uint64_t ack)
{
	struct fastmib_segment *seg = w->seg;
	const struct fastmib_schema *s = seg->schema;

	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		const struct fastmib_group_schema *g = &s->groups[gi];
		const struct fms_group_layout *gl = &seg->lay.groups[gi];
		uint64_t at = FMS_REC_BASE, half = fms_rec_half_words(g);
		uint32_t c = 0;

		if (!gl->has_peaks || (log == FMS_PEAK_ENABLES && fms_rec_words(g) == half))
			continue;
		while (g->counters[c].type != FASTMIB_PEAK)
			c++;
		at += fastmib_counter_word(&g->counters[c]) + (log == FMS_PEAK_ENABLES ? half : 0);
		for (uint32_t r = 0; r < g->n_rows; r++) {
			/* a record never stored names nothing, and may be a hole */
			if (!fms_row_stored(seg, gi, r))
				continue;
			if (__atomic_load_n(fms_reset_row(seg, gi, r) + at, __ATOMIC_RELAXED) > ack)
				zero_row(w, gi, r);
		}
	}
}

/*
 * The entries of log `log` after this slot's acknowledgement, applied and
 * acknowledged. They are copied first and checked not overwritten since
 * (the log's writer stores entry head + 1 before moving the head, over
 * the entry FMS_PEAK_LOG before it), then applied: a torn copy is never
 * applied, the records are scanned instead.
 */
static void
catch_up_log(struct fastmib_writer *w, int log)
{
	struct fms_peak_log *l = &fms_peaks(w->seg)->log[log];
	uint64_t *ack = &fms_slot(w->seg, w->slot)->peak_ack[log];
	uint64_t mine = __atomic_load_n(ack, __ATOMIC_RELAXED);
	uint64_t head = __atomic_load_n(&l->head, __ATOMIC_ACQUIRE);
	uint64_t copy[FMS_PEAK_LOG];
	uint64_t n = head - mine;

	if (head <= mine)
		return;
	if (n < FMS_PEAK_LOG) {
		for (uint64_t i = 0; i < n; i++)
			copy[i] = __atomic_load_n(&l->entry[(mine + 1 + i) % FMS_PEAK_LOG],
						  __ATOMIC_RELAXED);
		/* the copies' loads before the head's second load */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&l->head, __ATOMIC_RELAXED) - mine < FMS_PEAK_LOG) {
			for (uint64_t i = 0; i < n; i++)
				apply_entry(w, copy[i]);
			__atomic_store_n(ack, head, __ATOMIC_RELAXED);
			return;
		}
	}
	scan_records(w, log, mine);
	__atomic_store_n(ack, head, __ATOMIC_RELAXED);
}

void
fastmib_peak_catch_up(struct fastmib_writer *w)
{
	/* acquire: a raised count was published after the heads it counts */
	uint64_t seen = __atomic_load_n(w->peak_requests, __ATOMIC_ACQUIRE);

	catch_up_log(w, FMS_PEAK_RESETS);
	catch_up_log(w, FMS_PEAK_ENABLES);
	w->peak_seen = seen;
}

void
fms_peaks_writer_init(struct fastmib_writer *w, bool fresh)
{
	struct fms_peaks *pk = fms_peaks(w->seg);
	struct fms_slot *sl = fms_slot(w->seg, w->slot);

	if (pk == NULL) {
		/* no peaks: fastmib_peak_sync() compares a word with itself */
		w->peak_requests = &w->peak_seen;
		w->peak_seen = 0;
		return;
	}
	w->peak_requests = &pk->requests;
	if (!fresh) {
		/* a slot that was written: its acknowledgements stand, and the
		 * first application looks at the logs */
		w->peak_seen = __atomic_load_n(&pk->requests, __ATOMIC_ACQUIRE) - 1;
		return;
	}
	/* a region just allocated holds zeros: nothing to zero for the
	 * entries so far (the count first: a later entry moves it again) */
	w->peak_seen = __atomic_load_n(&pk->requests, __ATOMIC_ACQUIRE);
	for (int log = 0; log < 2; log++)
		__atomic_store_n(&sl->peak_ack[log],
				 __atomic_load_n(&pk->log[log].head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELAXED);
}
