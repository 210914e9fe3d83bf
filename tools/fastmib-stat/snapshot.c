/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Snapshots of every group, as the subagent takes them, and the values
 * and rates SNMP reports from them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* Next present row >= row, or -1; the same walk the subagent does. */
int64_t
next_row(struct fastmib_segment *seg, const struct fastmib_group_schema *g,
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
snap_free(struct snap *s)
{
	if (s->g == NULL)
		return;
	for (uint32_t i = 0; i < s->n_groups; i++) {
		free(s->g[i].rows);
		free(s->g[i].vals);
	}
	free(s->g);
	s->g = NULL;
}

int64_t
snap_range(struct fastmib_segment *seg, unsigned gi, uint32_t from, uint64_t max_rows,
	   bool count_rest, struct group_snap *gs)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	uint64_t raw[FASTMIB_MAX_COUNTERS];
	uint32_t cap = gs->n_shown;
	int64_t r;

	for (r = next_row(seg, g, gi, from); r >= 0; r = next_row(seg, g, gi, (uint32_t)r + 1)) {
		int rc;

		/* --rows caps table rows; a scalar group's one row is always shown */
		if (g->n_indexes > 0 && gs->n_shown >= max_rows) {
			if (!count_rest)
				return r; /* where the next range starts */
			if (fastmib_row_present(seg, gi, (uint32_t)r))
				gs->n_present++; /* counted for the header line */
			continue;
		}
		rc = fastmib_read(seg, gi, (uint32_t)r, raw);
		if (rc == -ENOENT) /* disabled between next_row and read */
			continue;
		if (rc < 0 && rc != -EBUSY)
			return rc == -1 ? -EIO : rc; /* -1 means "no more rows" */
		gs->n_present++;
		if (gs->n_shown == cap) {
			uint32_t ncap = cap ? 2 * cap : 16;
			uint32_t *rows = realloc(gs->rows, ncap * sizeof(*rows));
			uint64_t *vals = rows == NULL ? NULL :
				realloc(gs->vals, (size_t)ncap * g->n_counters *
					sizeof(*vals) + 1);

			if (rows != NULL)
				gs->rows = rows;
			if (vals == NULL)
				return -ENOMEM;
			gs->vals = vals;
			cap = ncap;
		}
		if (rc == -EBUSY)
			gs->n_bounded++;
		gs->rows[gs->n_shown] = (uint32_t)r;
		for (uint32_t c = 0; c < g->n_counters; c++)
			gs->vals[(size_t)gs->n_shown * g->n_counters + c] =
				fastmib_reported_value(g->counters[c].type, raw[c]);
		gs->n_shown++;
	}
	return -1;
}

uint64_t
count_present(struct fastmib_segment *seg, unsigned gi)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	uint64_t n = 0;

	if (g->n_indexes == 0 || g->all_rows)
		return g->n_rows;
	for (int64_t r = next_row(seg, g, gi, 0); r >= 0;
	     r = next_row(seg, g, gi, (uint32_t)r + 1))
		n++;
	return n;
}

static int
snap_group(struct fastmib_segment *seg, unsigned gi, uint64_t max_rows,
	   struct group_snap *gs)
{
	int64_t r;

	memset(gs, 0, sizeof(*gs));
	r = snap_range(seg, gi, 0, max_rows, true, gs);
	return r < -1 ? (int)r : 0;
}

int
snap_take(struct fastmib_segment *seg, const struct view *v, struct snap *s)
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
			snap_free(s);
			return rc;
		}
	}
	return 0;
}

/* Row `row` of a previous snapshot's group, or NULL (rows are sorted). */
const uint64_t *
prev_row_vals(const struct group_snap *p, uint32_t n_counters, uint32_t row)
{
	uint32_t lo = 0, hi = p->n_shown;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->rows[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n_shown && p->rows[lo] == row)
		return &p->vals[(size_t)lo * n_counters];
	return NULL;
}

/*
 * Per-second rate of a counter between two snapshots. Counter32 wraps like
 * its SNMP value; a Counter64 that went down was reset, so no rate.
 */
bool
rate_of(uint32_t type, uint64_t prev, uint64_t cur, double dt, double *rate)
{
	uint64_t d;

	if (type == FASTMIB_GAUGE32 || dt <= 0)
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
