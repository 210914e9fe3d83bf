/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Snapshots of every group, as the subagent takes them, and the values
 * and rates SNMP reports from them. Rows come in SNMP order: a keyed
 * table's by key, from one key to the next (fastmib_keyed_next()). A row
 * is its counters' snapshot and its states' publication, each read whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* Next present row >= row, or -1; the same walk the subagent does. */
int64_t
fst_next_row(struct fastmib_segment *seg, const struct fastmib_group_schema *g,
	     unsigned gi, uint32_t row)
{
	if (row >= g->n_rows)
		return -1;
	if (g->n_indexes == 0 || g->all_rows)
		return row;
	int64_t r = fastmib_next_row(seg, gi, row);

	return r < 0 ? -1 : r;
}

void
fst_group_snap_free(struct group_snap *gs)
{
	free(gs->rows);
	free(gs->vals);
	free(gs->words);
	free(gs->busy);
	free(gs->keys);
	free(gs->key_lens);
	free(gs->states);
	free(gs->bad);
	gs->rows = NULL;
	gs->vals = NULL;
	gs->words = NULL;
	gs->busy = NULL;
	gs->states = NULL;
	gs->bad = NULL;
	gs->keys = NULL;
	gs->key_lens = NULL;
}

void
fst_snap_free(struct snap *s)
{
	if (s->g == NULL)
		return;
	for (uint32_t i = 0; i < s->n_groups; i++)
		fst_group_snap_free(&s->g[i]);
	free(s->g);
	s->g = NULL;
}

const uint8_t *
fst_snap_key(const struct group_snap *gs, uint32_t i, size_t *len)
{
	*len = gs->key_lens[i];
	return gs->keys + (size_t)i * gs->key_stride;
}

const uint64_t *
fst_snap_vals(const struct group_snap *gs, const struct fastmib_group_schema *g, uint32_t i)
{
	return &gs->vals[(size_t)i * g->n_counters];
}

const uint8_t *
fst_snap_states(const struct group_snap *gs, const struct fastmib_group_schema *g, uint32_t i)
{
	return gs->states + (size_t)i * g->state_size;
}

const uint64_t *
fst_snap_words(const struct group_snap *gs, uint32_t i)
{
	return &gs->words[(size_t)i * gs->n_words];
}

bool
fst_is_level(uint32_t type)
{
	return type == FASTMIB_GAUGE32 || type == FASTMIB_PEAK;
}

bool
fst_snap_state_bad(const struct group_snap *gs, uint32_t i, uint32_t s)
{
	return gs->bad[(size_t)i * FASTMIB_STATE_MASK_WORDS + s / 64] >> (s % 64) & 1;
}

/* Room for one more row in `gs`. */
static int
grow(struct group_snap *gs, const struct fastmib_group_schema *g, uint32_t *cap)
{
	uint32_t ncap = *cap ? 2 * *cap : 16;
	uint32_t *rows = realloc(gs->rows, ncap * sizeof(*rows));
	uint64_t *vals;
	uint8_t *busy;

	if (rows == NULL)
		return -ENOMEM;
	gs->rows = rows;
	vals = realloc(gs->vals, (size_t)ncap * g->n_counters * sizeof(*vals) + 1);
	if (vals == NULL)
		return -ENOMEM;
	gs->vals = vals;
	busy = realloc(gs->busy, ncap);
	if (busy == NULL)
		return -ENOMEM;
	gs->busy = busy;
	if (gs->n_words) {
		uint64_t *w = realloc(gs->words, (size_t)ncap * gs->n_words * sizeof(*w));

		if (w == NULL)
			return -ENOMEM;
		gs->words = w;
	}
	if (g->n_states) {
		uint8_t *st = realloc(gs->states, (size_t)ncap * g->state_size);
		uint64_t *bad;

		if (st == NULL)
			return -ENOMEM;
		gs->states = st;
		bad = realloc(gs->bad, (size_t)ncap * FASTMIB_STATE_MASK_WORDS * sizeof(*bad));
		if (bad == NULL)
			return -ENOMEM;
		gs->bad = bad;
	}
	if (gs->key_stride) {
		uint8_t *keys = realloc(gs->keys, (size_t)ncap * gs->key_stride);
		uint16_t *lens;

		if (keys == NULL)
			return -ENOMEM;
		gs->keys = keys;
		lens = realloc(gs->key_lens, ncap * sizeof(*lens));
		if (lens == NULL)
			return -ENOMEM;
		gs->key_lens = lens;
	}
	*cap = ncap;
	return 0;
}

/* The next row of the table at `*cur` or after, without moving past it:
 * its number, its key (keyed tables) in key[0..*len); -1 after the last. */
static int64_t
peek(struct fastmib_segment *seg, unsigned gi, const struct fastmib_group_schema *g,
     const struct row_cursor *cur, uint8_t *key, size_t *len)
{
	int64_t r;

	if (!fastmib_group_keyed(g))
		return fst_next_row(seg, g, gi, cur->row);
	r = fastmib_keyed_next(seg, gi, cur->idx, cur->n, !cur->past, key, len);
	return r == -ENOENT ? -1 : r;
}

/* Move `*cur` past row r (key key[0..len) in a keyed table). */
static void
step(const struct fastmib_group_schema *g, struct row_cursor *cur, int64_t r,
     const uint8_t *key, size_t len)
{
	if (fastmib_group_keyed(g)) {
		cur->n = fastmib_key_to_index(g, key, len, cur->idx);
		cur->past = true;
	} else {
		cur->row = (uint32_t)r + 1;
	}
}

/*
 * The states of row r (key key[0..len) in a keyed table) into row
 * gs->n_shown of `gs`, one publication: fastmib_state_read() for the key
 * the row was found by. A setter that stayed inside its section gives no
 * value: every state is left out. 0, -ENOENT (the row went, or holds
 * another key), or < 0.
 */
static int
read_states(struct fastmib_segment *seg, unsigned gi, const struct fastmib_group_schema *g,
	    int64_t r, const uint8_t *key, size_t len, struct group_snap *gs)
{
	uint8_t *out = gs->states + (size_t)gs->n_shown * g->state_size;
	uint64_t *bad = gs->bad + (size_t)gs->n_shown * FASTMIB_STATE_MASK_WORDS;
	int rc = fastmib_group_keyed(g) ?
			 fastmib_keyed_state_read(seg, gi, (uint32_t)r, key, len, out, bad) :
			 fastmib_state_read(seg, gi, (uint32_t)r, out, bad);

	if (rc != -EBUSY)
		return rc;
	memset(out, 0, g->state_size);
	memset(bad, 0, FASTMIB_STATE_MASK_WORDS * sizeof(*bad));
	for (uint32_t s = 0; s < g->n_states; s++)
		bad[s / 64] |= 1ull << (s % 64);
	return 0;
}

int
fst_snap_range(struct fastmib_segment *seg, unsigned gi, struct row_cursor *cur,
	       uint64_t max_rows, bool count_rest, struct group_snap *gs)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	bool keyed = fastmib_group_keyed(g);
	uint64_t raw[FASTMIB_MAX_ROW_WORDS];
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint32_t cap = gs->n_shown;
	size_t len = 0;
	int64_t r;

	gs->key_stride = keyed ? fastmib_key_max_bytes(g) : 0;
	gs->n_words = fst_hist_row_words(g);
	gs->mono_ns = fastmib_monotonic_ns();
	while ((r = peek(seg, gi, g, cur, key, &len)) >= 0) {
		int rc = 0, src;

		/* --rows caps table rows; a scalar group's one row is always shown */
		if (g->n_indexes > 0 && gs->n_shown >= max_rows) {
			if (!count_rest)
				return 1; /* the next range starts at this row */
			/* counted for the header line: a key found is a row */
			if (keyed || fastmib_row_present(seg, gi, (uint32_t)r))
				gs->n_present++;
			step(g, cur, r, key, len);
			continue;
		}
		/* a group of states only has no counters to read */
		if (g->n_counters)
			rc = keyed ? fastmib_keyed_read(seg, gi, (uint32_t)r, key, len, raw)
				   : fastmib_read(seg, gi, (uint32_t)r, raw);
		step(g, cur, r, key, len);
		if (rc == -ENOENT) /* gone (or given to another key) since found */
			continue;
		if (rc < 0 && rc != -EBUSY)
			return rc;
		if (gs->n_shown == cap && (src = grow(gs, g, &cap)) < 0)
			return src;
		if (g->n_states && (src = read_states(seg, gi, g, r, key, len, gs)) < 0) {
			if (src == -ENOENT) /* gone since its counters were read */
				continue;
			return src;
		}
		gs->n_present++;
		if (rc == -EBUSY)
			gs->n_bounded++;
		gs->busy[gs->n_shown] = rc == -EBUSY;
		gs->rows[gs->n_shown] = (uint32_t)r;
		if (keyed) {
			memcpy(gs->keys + (size_t)gs->n_shown * gs->key_stride, key, len);
			gs->key_lens[gs->n_shown] = (uint16_t)len;
		}
		/* a histogram's value (--sort, --top) is its count; its words are
		 * kept whole, from this same read: count and buckets agree */
		for (uint32_t c = 0; c < g->n_counters; c++) {
			const struct fastmib_counter_schema *cs = &g->counters[c];
			uint32_t w = fastmib_counter_word(cs) +
				     (cs->type == FASTMIB_HISTOGRAM ? cs->n_bounds + 1 : 0);

			gs->vals[(size_t)gs->n_shown * g->n_counters + c] =
				fastmib_reported_value(cs->type, raw[w]);
		}
		if (gs->n_words)
			memcpy(gs->words + (size_t)gs->n_shown * gs->n_words, raw,
			       gs->n_words * sizeof(*raw));
		gs->n_shown++;
	}
	return r < -1 ? (int)r : 0;
}

uint64_t
fst_count_present(struct fastmib_segment *seg, unsigned gi)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	struct row_cursor cur = { 0 };
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint64_t n = 0;
	size_t len;
	int64_t r;

	if (g->n_indexes == 0 || g->all_rows)
		return g->n_rows;
	while ((r = peek(seg, gi, g, &cur, key, &len)) >= 0) {
		step(g, &cur, r, key, len);
		n++;
	}
	return n;
}

static int
snap_group(struct fastmib_segment *seg, unsigned gi, uint64_t max_rows,
	   struct group_snap *gs)
{
	struct row_cursor cur = { 0 };
	int rc;

	memset(gs, 0, sizeof(*gs));
	rc = fst_snap_range(seg, gi, &cur, max_rows, true, gs);
	return rc < 0 ? rc : 0;
}

int
fst_snap_take(struct fastmib_segment *seg, const struct view *v, struct snap *s)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	uint64_t max_rows = v == NULL || v->all_rows ? UINT64_MAX : v->max_rows;

	s->n_groups = sc->n_groups;
	s->g = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*s->g));
	if (s->g == NULL)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &s->at);
	clock_gettime(CLOCK_REALTIME, &s->wall);
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		int rc;

		/* a group --match hides is not read at all: no cost */
		if (v != NULL && !v->g[i].shown)
			continue;
		rc = snap_group(seg, i, max_rows, &s->g[i]);
		if (rc < 0) {
			fst_snap_free(s);
			return rc;
		}
	}
	return 0;
}

int64_t
fst_prev_row(const struct group_snap *p, const struct fastmib_group_schema *g,
	     const struct group_snap *gs, uint32_t i)
{
	bool keyed = fastmib_group_keyed(g);
	uint32_t lo = 0, hi = p->n_shown;
	const uint8_t *key = NULL;
	size_t len = 0, plen;

	if (keyed)
		key = fst_snap_key(gs, i, &len);
	/* both in SNMP order: by key (a row may have had another key then),
	 * or by row number */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const uint8_t *pk = keyed ? fst_snap_key(p, mid, &plen) : NULL;

		if (keyed ? fastmib_key_cmp(pk, plen, key, len) < 0 : p->rows[mid] < gs->rows[i])
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->n_shown)
		return -1;
	if (keyed) {
		const uint8_t *pk = fst_snap_key(p, lo, &plen);

		if (fastmib_key_cmp(pk, plen, key, len) != 0)
			return -1;
	} else if (p->rows[lo] != gs->rows[i]) {
		return -1;
	}
	return lo;
}

bool
fst_state_changed(const struct group_snap *p, int64_t pi, const struct group_snap *gs,
		  uint32_t i, const struct fastmib_group_schema *g, uint32_t s)
{
	const struct fastmib_state_schema *st = &g->states[s];
	bool was_bad, bad = fst_snap_state_bad(gs, i, s);

	if (p == NULL || pi < 0)
		return false;
	was_bad = fst_snap_state_bad(p, (uint32_t)pi, s);
	return was_bad != bad ||
	       (!bad && !fst_state_equal(st, fst_snap_states(p, g, (uint32_t)pi) + st->offset,
					 fst_snap_states(gs, g, i) + st->offset));
}

/*
 * Per-second rate of a counter between two snapshots. Counter32 wraps like
 * its SNMP value; a Counter64 that went down was reset, so no rate.
 */
bool
fst_rate_of(uint32_t type, uint64_t prev, uint64_t cur, double dt, double *rate)
{
	uint64_t d;

	if (fst_is_level(type) || dt <= 0)
		return false;
	if (type == FASTMIB_COUNTER32)
		d = (cur - prev) & UINT32_MAX;
	else if (cur >= prev)
		d = cur - prev;
	else
		return false;
	*rate = (double)d / dt;
	return true;
}
