/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms as fastmib-stat shows them: a row's words, estimated
 * percentiles, the text block (buckets, count, sum, p50/p90/p99) and the
 * JSON object (bounds, buckets, count, sum). Every value of one histogram
 * comes from the words of one read of its row (fastmib_read()), so the
 * count shown is the sum of the buckets shown.
 */
#include <inttypes.h>
#include <string.h>

#include "stat.h"

uint32_t
fst_hist_row_words(const struct fastmib_group_schema *g)
{
	uint32_t n = 0;

	if (!fastmib_group_has_type(g, FASTMIB_HISTOGRAM))
		return 0;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		uint32_t end = fastmib_counter_word(&g->counters[c]) +
			       fastmib_counter_words(&g->counters[c]);

		if (end > n)
			n = end;
	}
	return n;
}

void
fst_hist_of(const struct fastmib_counter_schema *cs, const uint64_t *words, struct fst_hist *h)
{
	const uint64_t *w = words + fastmib_counter_word(cs);

	h->n_bounds = cs->n_bounds;
	h->bounds = cs->bounds;
	h->buckets = w;
	h->count = w[cs->n_bounds + 1];
	h->sum = w[cs->n_bounds + 2];
}

/*
 * As Prometheus' histogram_quantile() estimates: the rank q * count falls
 * in the first bucket whose cumulative count reaches it; the value is
 * interpolated linearly between that bucket's lower edge (the bound
 * before it, 0 for the first bucket) and its bound, by the rank's
 * position among the bucket's observations.
 */
enum fst_pct
fst_hist_percentile(const struct fst_hist *h, double q, double *v)
{
	double rank = q * (double)h->count, below = 0;

	if (h->count == 0)
		return FST_PCT_NONE;
	for (uint32_t b = 0; b < h->n_bounds; b++) {
		double n = (double)h->buckets[b];

		if (n > 0 && below + n >= rank) {
			double lo = b ? (double)h->bounds[b - 1] : 0, hi = (double)h->bounds[b];

			*v = lo + (hi - lo) * (rank - below) / n;
			return FST_PCT_VALUE;
		}
		below += n;
	}
	return FST_PCT_ABOVE;
}

/* "p50 128.0", or "p99 > 4096", or "p50 -" (no observation). */
static void
percentile_text(const struct fst_hist *h, double q, char *buf, size_t len)
{
	double v = 0;

	switch (fst_hist_percentile(h, q, &v)) {
	case FST_PCT_VALUE:
		snprintf(buf, len, "%.1f", v);
		break;
	case FST_PCT_ABOVE:
		snprintf(buf, len, "> %" PRIu64, h->bounds[h->n_bounds - 1]);
		break;
	default:
		snprintf(buf, len, "-");
	}
}

void
fst_hist_print(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	       const struct fastmib_counter_schema *cs, const char *row, const uint64_t *words,
	       bool human)
{
	static const double qs[] = { 0.5, 0.9, 0.99 };
	static const char *const qn[] = { "p50", "p90", "p99" };
	bool octets = human && fst_units_are_octets(cs->units);
	char name[NAME_BUF], cell[64];
	struct libscols_table *tb;
	struct fst_hist h;
	bool empty = true;

	fst_hist_of(cs, words, &h);
	fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix, g->name, cs->name);
	printf("  %s", name);
	if (cs->units[0])
		printf("[%s]", cs->units);
	if (row)
		printf(" of %s", row);
	fst_format_count(cell, sizeof(cell), h.count, human, false);
	printf(": count %s", cell);
	fst_format_count(cell, sizeof(cell), h.sum, human, octets);
	printf("  sum %s", cell);
	/* nothing observed (a table's rows often): its line alone */
	for (uint32_t b = 0; b <= h.n_bounds; b++)
		empty &= h.buckets[b] == 0;
	if (empty && h.count == 0 && h.sum == 0) {
		printf("\n");
		return;
	}
	for (int k = 0; k < 3; k++) {
		percentile_text(&h, qs[k], cell, sizeof(cell));
		printf("  %s %s", qn[k], cell);
	}
	printf("\n");
	tb = fst_cols_new_table();
	fst_cols_add_column(tb, "LE", true);
	fst_cols_add_column(tb, "COUNT", true);
	for (uint32_t b = 0; b <= h.n_bounds; b++) {
		struct libscols_line *ln = fst_cols_new_line(tb);

		if (b < h.n_bounds)
			fst_format_count(cell, sizeof(cell), h.bounds[b], false, false);
		else
			snprintf(cell, sizeof(cell), "> %" PRIu64, h.bounds[h.n_bounds - 1]);
		fst_cols_set(ln, 0, cell);
		fst_format_count(cell, sizeof(cell), h.buckets[b], human, false);
		fst_cols_set(ln, 1, cell);
	}
	fst_cols_print(tb, false, 4);
}

json_t *
fst_hist_json(const struct fastmib_counter_schema *cs, const uint64_t *words)
{
	json_t *o = json_object(), *bounds = json_array(), *buckets = json_array();
	struct fst_hist h;

	fst_hist_of(cs, words, &h);
	for (uint32_t b = 0; b < h.n_bounds; b++)
		json_array_append_new(bounds, fst_json_u64(h.bounds[b]));
	for (uint32_t b = 0; b <= h.n_bounds; b++)
		json_array_append_new(buckets, fst_json_u64(h.buckets[b]));
	json_object_set_new(o, "bounds", bounds);
	json_object_set_new(o, "buckets", buckets);
	json_object_set_new(o, "count", fst_json_u64(h.count));
	json_object_set_new(o, "sum", fst_json_u64(h.sum));
	return o;
}
