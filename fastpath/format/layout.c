/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The file layout of a segment, computed from the schema and the slot
 * count, and the image a writer starts a new file with. The areas and
 * what is allocated when are described in segment_format.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fms_util.h"
#include "segment_format.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

_Static_assert((FMS_PEAK_LOG & (FMS_PEAK_LOG - 1)) == 0, "peak log: a power of two");

/* Has the model a `notify` state (and so a state change log)? */
static bool
notify_states(const struct fastmib_schema *s)
{
	for (uint32_t i = 0; i < s->n_groups; i++)
		for (uint32_t k = 0; k < s->groups[i].n_states; k++)
			if (s->groups[i].states[k].notify)
				return true;
	return false;
}

/* Which words of a group's rows are peaks' (readers combine them by
 * maximum); whether the model has any. */
static bool
mark_peaks(const struct fastmib_schema *s, struct fms_layout *lay)
{
	bool any = false;

	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];

		for (uint32_t c = 0; c < g->n_counters; c++) {
			uint32_t w = fastmib_counter_word(&g->counters[c]);

			/* a checked schema: every word is within FASTMIB_MAX_ROW_WORDS */
			if (g->counters[c].type != FASTMIB_PEAK || w >= FASTMIB_MAX_ROW_WORDS)
				continue;
			lay->groups[i].peak_words[w / 64] |= 1ull << (w % 64);
			lay->groups[i].has_peaks = 1;
			any = true;
		}
	}
	return any;
}

/* Rows of a group that exist from creation on: their state records are
 * written then, the others when their row is inserted or enabled. */
static bool
rows_fixed(const struct fastmib_group_schema *g)
{
	return g->n_indexes == 0 || g->all_rows;
}

/* State records of a group's rows, at `*cur` on, for the groups with
 * states whose rows are (`fixed`) or are not fixed. */
static void
place_states(const struct fastmib_schema *s, struct fms_layout *lay, bool fixed, uint64_t *cur)
{
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];

		if (!g->n_states || rows_fixed(g) != fixed)
			continue;
		lay->groups[i].states = *cur;
		lay->groups[i].state_stride = ALIGN_UP(FMS_STATE_DATA + (uint64_t)g->state_size, 8);
		*cur += ALIGN_UP((uint64_t)g->n_rows * lay->groups[i].state_stride, FMS_CACHE_LINE);
	}
}

int
fms_layout_compute(const struct fastmib_schema *s, uint32_t n_slots,
		   uint64_t page_size, uint32_t event_ring, struct fms_layout *lay)
{
	uint64_t off, cur;

	memset(lay, 0, sizeof(*lay));
	lay->groups = calloc(s->n_groups, sizeof(*lay->groups));
	if (lay->groups == NULL)
		return fms_error(-ENOMEM, "out of memory");
	lay->page_size = page_size;
	lay->schema_len = fms_schema_serialized_len(s);
	off = FMS_HEADER_SIZE;
	lay->schema = (struct fms_area){ off, lay->schema_len };
	off += ALIGN_UP(lay->schema_len, FMS_CACHE_LINE);
	lay->slots = (struct fms_area){ off, (uint64_t)n_slots * sizeof(struct fms_slot) };
	off += lay->slots.len;
	lay->shared = (struct fms_area){ off, FMS_CACHE_LINE + s->shared_size };
	off += lay->shared.len;

	lay->presence.off = off;
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];
		uint64_t nw = (g->n_rows + 63) / 64, ns = (nw + 63) / 64;

		if (g->n_indexes == 0 || g->all_rows)
			continue;
		lay->groups[i].presence = off;
		lay->groups[i].n_words = nw;
		off += ALIGN_UP((nw + ns) * 8, FMS_CACHE_LINE);
		if (fastmib_group_keyed(g)) {
			lay->groups[i].key_log = off;
			off += ALIGN_UP(sizeof(struct fms_key_log), FMS_CACHE_LINE);
		}
	}
	lay->presence.len = off - lay->presence.off;

	lay->state_fixed.off = off;
	if (notify_states(s)) {
		lay->state_log = off;
		off += ALIGN_UP(sizeof(struct fms_state_log), FMS_CACHE_LINE);
	}
	place_states(s, lay, true, &off);
	lay->state_fixed.len = off - lay->state_fixed.off;

	lay->reset.off = ALIGN_UP(off, page_size);
	cur = lay->reset.off + sizeof(struct fms_reset);
	lay->observations = cur;
	cur += ALIGN_UP(8ull * n_slots, FMS_CACHE_LINE);
	for (uint32_t i = 0; i < s->n_groups; i++)
		lay->groups[i].time = cur + 8ull * i;
	cur += ALIGN_UP(8ull * s->n_groups, FMS_CACHE_LINE);
	for (uint32_t i = 0; i < s->n_groups; i++) {
		lay->groups[i].stored = cur;
		cur += ALIGN_UP((s->groups[i].n_rows + 63) / 64 * 8, FMS_CACHE_LINE);
	}
	if (mark_peaks(s, lay)) {
		lay->peaks = cur;
		cur += ALIGN_UP(sizeof(struct fms_peaks), FMS_CACHE_LINE);
	}
	lay->allocated = cur;
	cur = ALIGN_UP(cur, page_size);
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];

		lay->groups[i].reset = cur;
		cur += ALIGN_UP((uint64_t)g->n_rows * fms_rec_words(g) * 8, FMS_CACHE_LINE);
	}
	lay->reset.len = ALIGN_UP(cur - lay->reset.off, page_size);

	lay->keys.off = lay->reset.off + lay->reset.len;
	cur = lay->keys.off;
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];

		if (!fastmib_group_keyed(g))
			continue;
		lay->groups[i].keys = cur;
		lay->groups[i].key_stride = ALIGN_UP(sizeof(struct fms_key_rec) +
						     fastmib_key_max_bytes(g), 8);
		cur += ALIGN_UP((uint64_t)g->n_rows * lay->groups[i].key_stride, FMS_CACHE_LINE);
	}
	lay->keys.len = ALIGN_UP(cur - lay->keys.off, page_size);

	lay->states.off = lay->keys.off + lay->keys.len;
	cur = lay->states.off;
	place_states(s, lay, false, &cur);
	lay->states.len = ALIGN_UP(cur - lay->states.off, page_size);

	lay->data.off = lay->states.off + lay->states.len;
	lay->slot_events = ALIGN_UP(s->percore_size, page_size);
	if (s->n_events) {
		lay->event_ring = event_ring;
		lay->event_counters = FMS_CACHE_LINE +
				      ALIGN_UP(16ull * s->n_events, FMS_CACHE_LINE);
		lay->event_stride = lay->event_counters +
				    (uint64_t)event_ring * sizeof(struct fastmib_event_slotrec);
	}
	lay->slot_stride = lay->slot_events + ALIGN_UP(lay->event_stride, page_size);
	if (lay->slot_stride == 0)
		lay->slot_stride = page_size; /* a model of shared groups only */
	lay->data.len = (uint64_t)n_slots * lay->slot_stride;
	lay->file_size = lay->data.off + lay->data.len;
	return 0;
}

void
fms_image_init(uint8_t *base, const struct fms_layout *lay,
	       const struct fastmib_schema *s, uint32_t n_slots,
	       uint32_t n_eal_slots, uint64_t generation,
	       const struct fms_clock *clock)
{
	struct fms_header *h = (void *)base;

	/* The file is fresh (zero-filled); only non-zero state is written. */
	/* Sequence numbers and locks start at zero, as the fresh file has them
	 * (segment_format.h). */
	fms_schema_serialize(s, base + lay->schema.off);
	/* the states of the rows that exist from now on start as their defaults */
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];

		if (!g->n_states || !rows_fixed(g))
			continue;
		for (uint32_t r = 0; r < g->n_rows; r++)
			fms_state_defaults(g, base + lay->groups[i].states +
					      (uint64_t)r * lay->groups[i].state_stride +
					      FMS_STATE_DATA);
	}

	h->format = FMS_FORMAT;
	h->header_size = FMS_HEADER_SIZE;
	h->schema_hash = fms_fnv1a(base + lay->schema.off, lay->schema.len);
	h->generation = generation;
	h->created_ns = fms_now_ns();
	h->writer_pid = (uint32_t)getpid();
	h->n_slots = n_slots;
	h->n_eal_slots = n_eal_slots;
	h->file_size = lay->file_size;
	h->slot_stride = lay->slot_stride;
	h->page_size = lay->page_size;
	h->schema = lay->schema;
	h->slots = lay->slots;
	h->shared = lay->shared;
	h->presence = lay->presence;
	h->reset = lay->reset;
	h->keys = lay->keys;
	h->state_fixed = lay->state_fixed;
	h->states = lay->states;
	h->data = lay->data;
	h->slot_events = lay->slot_events;
	h->fixed_size = lay->allocated;
	h->event_stride = lay->event_stride;
	h->event_ring = lay->event_ring;
	h->tsc_hz = clock->tsc_hz;
	h->ref_tsc = clock->ref_tsc;
	h->ref_ns = clock->ref_ns;
	/* Magic last, store-release: whoever sees it sees a complete header. */
	uint64_t magic;

	memcpy(&magic, FMS_MAGIC, sizeof(magic));
	__atomic_store_n((uint64_t *)(void *)h->magic, magic, __ATOMIC_RELEASE);
}
