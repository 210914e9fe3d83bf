/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The data layout fastmib-gen gives a model (include/fastmib/schema.h):
 * the one place that decides where a model's counters live (a histogram's
 * buckets, count and sum one after the other), and where its
 * states are in their struct (by fastmib_state_layout()). The generated
 * header's offsets and structs, and the schema it describes, come from it.
 */
#include "fms_util.h"
#include "segment_format.h"

static uint64_t
cache_lines(uint64_t bytes)
{
	return (bytes + FMS_CACHE_LINE - 1) / FMS_CACHE_LINE * FMS_CACHE_LINE;
}

/* Bytes of `words` words, counted wide: a histogram of more bounds than
 * allowed must not wrap a row into a size the check would take for a
 * valid one (it says what is wrong with the bounds). */
static uint32_t
word_bytes(uint64_t words)
{
	return words <= UINT32_MAX / 8 ? (uint32_t)(8 * words) : UINT32_MAX & ~7u;
}

void
fastmib_schema_lay_out(struct fastmib_schema *s)
{
	uint64_t end[2] = { 0, 0 }; /* per-core, shared */

	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		/* The caller built these arrays: they are writable. */
		struct fastmib_group_schema *g = (struct fastmib_group_schema *)&s->groups[gi];
		struct fastmib_counter_schema *c = (struct fastmib_counter_schema *)g->counters;
		int area = g->storage != FASTMIB_STORAGE_PER_CORE;
		uint64_t words = 0;

		/* more states than a group may have: left unlaid, for the
		 * schema check to report */
		if (g->n_states && g->n_states <= FASTMIB_MAX_STATES) {
			struct fastmib_state_schema *st = (struct fastmib_state_schema *)g->states;
			uint32_t off[FASTMIB_MAX_STATES];

			fastmib_state_layout(g, off, &g->state_size);
			for (uint32_t si = 0; si < g->n_states; si++)
				st[si].offset = off[si];
		}
		if (g->n_counters == 0) {
			/* states only: no data */
			g->row_size = 0;
			g->offset = 0;
			continue;
		}
		for (uint32_t ci = 0; ci < g->n_counters; ci++) {
			c[ci].offset = word_bytes(words);
			words += fastmib_counter_words(&c[ci]);
		}
		g->row_size = word_bytes(words);
		g->offset = cache_lines(end[area]);
		end[area] = g->offset + fastmib_group_bytes(g);
	}
	s->percore_size = cache_lines(end[0]);
	s->shared_size = cache_lines(end[1]);
}
