/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-histread SEGMENT: the histograms and peaks of a segment, read
 * with fastmib_read() through a read-only handle as any reader does, as
 * JSON on standard output: for each group with either, each present row
 *
 *   {"GROUP": [{"row": R, "histograms": {"NAME": {"bounds": [...],
 *     "buckets": [...], "count": N, "sum": S}}, "peaks": {"NAME": V}}]}
 *
 * Rows by number (a table's row-major position of its 0-based indexes).
 * For the system tests, until fastmib-stat prints histograms: exits 1 on
 * any error, with a message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fastmib/reader.h"
#include "fastmib/schema.h"

static json_t *
u64_array(const uint64_t *v, uint32_t n)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *
row_json(const struct fastmib_group_schema *g, uint32_t row, const uint64_t *words)
{
	json_t *hists = json_object(), *peaks = json_object();

	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		const uint64_t *w = &words[fastmib_counter_word(cs)];

		if (cs->type == FASTMIB_PEAK)
			json_object_set_new(peaks, cs->name, json_integer((json_int_t)w[0]));
		if (cs->type != FASTMIB_HISTOGRAM)
			continue;
		json_object_set_new(hists, cs->name, json_pack(
			"{s:o, s:o, s:I, s:I}", "bounds", u64_array(cs->bounds, cs->n_bounds),
			"buckets", u64_array(w, cs->n_bounds + 1),
			"count", (json_int_t)w[cs->n_bounds + 1],
			"sum", (json_int_t)w[cs->n_bounds + 2]));
	}
	return json_pack("{s:I, s:o, s:o}", "row", (json_int_t)row, "histograms", hists,
			 "peaks", peaks);
}

int
main(int argc, char **argv)
{
	struct fastmib_segment *seg;
	const struct fastmib_schema *s;
	json_t *doc = json_object();

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fastmib-histread SEGMENT\n"
		       "Print the histograms and peaks of every present row as JSON.\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("fastmib-histread (fastmib tests)\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: fastmib-histread SEGMENT\n");
		return 2;
	}
	if (fastmib_attach(argv[1], FASTMIB_ATTACH_RDONLY, &seg) < 0) {
		fprintf(stderr, "fastmib-histread: %s\n", fastmib_last_error());
		return 1;
	}
	s = fastmib_schema(seg);
	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		const struct fastmib_group_schema *g = &s->groups[gi];
		json_t *rows;

		if (!fastmib_group_has_type(g, FASTMIB_HISTOGRAM) &&
		    !fastmib_group_has_type(g, FASTMIB_PEAK))
			continue;
		rows = json_array();
		for (int64_t r = fastmib_next_row(seg, gi, 0); r >= 0;
		     r = fastmib_next_row(seg, gi, (uint32_t)r + 1)) {
			uint64_t words[FASTMIB_MAX_ROW_WORDS];
			int rc = fastmib_read(seg, gi, (uint32_t)r, words);

			if (rc == -ENOENT)
				continue; /* gone since fastmib_next_row() */
			if (rc < 0) {
				fprintf(stderr, "fastmib-histread: %s\n", fastmib_last_error());
				return 1;
			}
			json_array_append_new(rows, row_json(g, (uint32_t)r, words));
			if ((uint32_t)r + 1 >= g->n_rows)
				break;
		}
		json_object_set_new(doc, g->name, rows);
	}
	json_dumpf(doc, stdout, JSON_SORT_KEYS);
	printf("\n");
	json_decref(doc);
	fastmib_close(seg);
	return 0;
}
