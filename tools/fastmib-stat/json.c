/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters as one JSON document (jansson), whole or streamed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* A word of the model format (fastmib_type_word()...), or "unknown". */
static json_t *
json_word(const char *word)
{
	return json_string(word ? word : "unknown");
}

/* The counters --match shows (all by default), by MIB name. */
static json_t *
json_counters(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	      const struct group_view *gv, const uint64_t *v)
{
	json_t *o = json_object();
	char name[NAME_BUF];

	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c])
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		/* Counter32 and Gauge32 values are 32-bit: always integers */
		json_object_set_new(o, name, g->counters[c].type == FASTMIB_COUNTER64 ?
				    json_u64(v[c]) : json_integer((json_int_t)v[c]));
	}
	return o;
}

/* One row of a table: its number, index values and counters. */
static json_t *
json_row(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	 const struct group_view *gv, uint32_t r, const uint64_t *v)
{
	json_t *row = json_object(), *ix = json_array();
	uint32_t idx[FASTMIB_MAX_INDEXES];

	fastmib_index_of_row(g, r, idx);
	for (uint32_t k = 0; k < g->n_indexes; k++)
		json_array_append_new(ix, json_integer(idx[k]));
	json_object_set_new(row, "row", json_integer(r));
	json_object_set_new(row, "index", ix);
	json_object_set_new(row, "counters", json_counters(sc, g, gv, v));
	return row;
}

/*
 * A group's object. A table's rows are those of `gs`, or, when `gs` has
 * none read but rows are present and `stream_mark` is given, that string:
 * the streaming output puts the rows there.
 */
static json_t *
json_group(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	   const struct group_view *gv, uint64_t max_rows, const struct group_snap *gs,
	   const char *stream_mark)
{
	json_t *o = json_object();
	char name[NAME_BUF];
	uint32_t *order, n;

	json_t *types = json_object();

	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c])
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		json_object_set_new(types, name, json_word(fastmib_type_word(g->counters[c].type)));
	}
	json_object_set_new(o, "storage", json_word(fastmib_storage_word(g->storage)));
	json_object_set_new(o, "table", json_boolean(g->n_indexes > 0));
	json_object_set_new(o, "types", types);
	if (g->n_indexes == 0) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_SCALAR_NODE,
			     sc->prefix, g->name, NULL);
		json_object_set_new(o, "mib", json_string(name));
		json_object_set_new(o, "counters",
				    gs->n_shown ? json_counters(sc, g, gv, gs->vals) :
						  json_object());
		return o;
	}

	json_t *idx_names = json_array(), *rows = json_array();

	fastmib_name(name, sizeof(name), FASTMIB_MIB_TABLE, sc->prefix, g->name, NULL);
	json_object_set_new(o, "mib", json_string(name));
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX,
			     sc->prefix, g->name, g->indexes[k].name);
		json_array_append_new(idx_names, json_string(name));
	}
	json_object_set_new(o, "indexes", idx_names);
	json_object_set_new(o, "rows_max", json_integer(g->n_rows));
	json_object_set_new(o, "rows_present", json_integer((json_int_t)gs->n_present));
	order = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*order));
	if (order == NULL) {
		json_decref(o);
		json_decref(rows);
		return NULL;
	}
	if (gs->rows == NULL && gs->n_present > 0 && stream_mark != NULL) {
		/* streamed: the rows come later, where this string is */
		json_decref(rows);
		free(order);
		json_object_set_new(o, "rows", json_string(stream_mark));
		return o;
	}
	/* JSON has no rates: --sort orders by value, even under --watch */
	n = view_order(gv, g, gs, NULL, 0, max_rows, order);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];

		json_array_append_new(rows, json_row(sc, g, gv, gs->rows[r],
						     &gs->vals[(size_t)r * g->n_counters]));
	}
	free(order);
	json_object_set_new(o, "rows", rows);
	return o;
}

/* The document; `marks` (streaming) names the string each streamed
 * table's rows replace, else NULL. */
static json_t *
json_doc_marked(struct fastmib_segment *seg, const char *path, const struct view *v,
		const struct snap *s, char (*marks)[32])
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	json_t *doc = json_object(), *groups = json_object();

	fastmib_info(seg, &info);
	json_object_set_new(doc, "module", json_string(sc->module));
	json_object_set_new(doc, "prefix", json_string(sc->prefix));
	json_object_set_new(doc, "segment", json_string(path));
	json_object_set_new(doc, "generation", json_u64(info.generation));
	json_object_set_new(doc, "writer", json_string(info.writer_running ? "running" : "gone"));
	json_object_set_new(doc, "time", json_real((double)s->wall.tv_sec +
						   (double)s->wall.tv_nsec / 1e9));
	/* a group --match hides is left out, as its counters are */
	for (uint32_t i = 0; i < sc->n_groups; i++)
		if (v->g[i].shown)
			json_object_set_new(groups, sc->groups[i].name,
					    json_group(sc, &sc->groups[i], &v->g[i],
						       v->max_rows, &s->g[i],
						       marks ? marks[i] : NULL));
	json_object_set_new(doc, "groups", groups);
	return doc;
}

json_t *
json_doc(struct fastmib_segment *seg, const char *path, const struct view *v,
	 const struct snap *s)
{
	return json_doc_marked(seg, path, v, s, NULL);
}

/*
 * The rows of a streamed table, written as json_dumps() with JSON_INDENT(2)
 * writes json_row()'s objects (the output is the same bytes as the whole
 * document's), but straight into a buffer: for a million rows, building
 * and dumping a jansson object per row costs several times the reads.
 */
struct row_writer {
	char *buf;              /* one row */
	size_t len, cap;
	int indent;             /* column of the row's opening brace */
	uint32_t n_keys;
	const char *key[FASTMIB_MAX_COUNTERS];   /* "\"bgConnRxPkts\": " */
	uint32_t counter[FASTMIB_MAX_COUNTERS];  /* schema index of each key */
	bool c64[FASTMIB_MAX_COUNTERS];          /* Counter64: json64's rule */
};

static void
rw_put(struct row_writer *rw, const char *s, size_t n)
{
	memcpy(rw->buf + rw->len, s, n);
	rw->len += n;
}

/* A string literal, without counting its characters by hand. */
#define RW_LIT(rw, lit) rw_put((rw), (lit), sizeof(lit) - 1)

static void
rw_spaces(struct row_writer *rw, int n)
{
	memset(rw->buf + rw->len, ' ', (size_t)n);
	rw->len += (size_t)n;
}

static void
rw_u64(struct row_writer *rw, uint64_t v, bool quoted)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (quoted)
		rw->buf[rw->len++] = '"';
	while (n)
		rw->buf[rw->len++] = digits[--n];
	if (quoted)
		rw->buf[rw->len++] = '"';
}

static int
rw_init(struct row_writer *rw, const struct fastmib_schema *sc,
	const struct fastmib_group_schema *g, const struct group_view *gv, int indent)
{
	char name[NAME_BUF];
	size_t keys = 0;

	memset(rw, 0, sizeof(*rw));
	rw->indent = indent;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		char *k;

		if (!gv->counter[c])
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix, g->name,
			     g->counters[c].name);
		k = malloc(strlen(name) + 5);
		if (k == NULL)
			return -ENOMEM;
		sprintf(k, "\"%s\": ", name);
		keys += strlen(k);
		rw->counter[rw->n_keys] = c;
		rw->c64[rw->n_keys] = g->counters[c].type == FASTMIB_COUNTER64;
		rw->key[rw->n_keys++] = k;
	}
	/* indentation, keys and at most 22 characters per value, per line */
	rw->cap = keys + (size_t)(g->n_indexes + rw->n_keys + 8) * (size_t)(indent + 32) + 64;
	rw->buf = malloc(rw->cap);
	return rw->buf ? 0 : -ENOMEM;
}

static void
rw_free(struct row_writer *rw)
{
	for (uint32_t k = 0; k < rw->n_keys; k++)
		free((void *)(uintptr_t)rw->key[k]);
	free(rw->buf);
}

/* One row object, from its opening brace to its closing one. */
static void
rw_row(struct row_writer *rw, const struct fastmib_group_schema *g, uint32_t row,
       const uint64_t *v)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];
	int in = rw->indent;

	rw->len = 0;
	fastmib_index_of_row(g, row, idx);
	RW_LIT(rw, "{\n");
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "\"row\": ");
	rw_u64(rw, row, false);
	RW_LIT(rw, ",\n");
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "\"index\": [\n");
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		rw_spaces(rw, in + 4);
		rw_u64(rw, idx[k], false);
		if (k + 1 < g->n_indexes)
			RW_LIT(rw, ",\n");
		else
			RW_LIT(rw, "\n");
	}
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "],\n");
	rw_spaces(rw, in + 2);
	if (rw->n_keys == 0) {
		RW_LIT(rw, "\"counters\": {}\n");
	} else {
		RW_LIT(rw, "\"counters\": {\n");
		for (uint32_t k = 0; k < rw->n_keys; k++) {
			uint64_t x = v[rw->counter[k]];

			rw_spaces(rw, in + 4);
			rw_put(rw, rw->key[k], strlen(rw->key[k]));
			rw_u64(rw, x, rw->c64[k] && (json64_strings() || x > JSON_EXACT_MAX));
			if (k + 1 < rw->n_keys)
				RW_LIT(rw, ",\n");
			else
				RW_LIT(rw, "\n");
		}
		rw_spaces(rw, in + 2);
		RW_LIT(rw, "}\n");
	}
	rw_spaces(rw, in);
	RW_LIT(rw, "}");
}

/*
 * The rows of table group gi, a range at a time, as the elements of the
 * array that replaces its mark; `indent` is the column of the "rows" key.
 */
static int
stream_rows(struct fastmib_segment *seg, const struct view *v, unsigned gi, int indent)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	const struct fastmib_group_schema *g = &sc->groups[gi];
	struct group_snap gs = { 0 };
	struct row_writer rw;
	uint64_t done = 0;
	int64_t next = 0;

	if (rw_init(&rw, sc, g, &v->g[gi], indent + 2) < 0) {
		rw_free(&rw);
		return -ENOMEM;
	}
	putchar('[');
	while (next >= 0 && done < v->max_rows) {
		uint64_t want = v->max_rows - done;

		gs.n_shown = 0;
		next = snap_range(seg, gi, (uint32_t)next, want < 4096 ? want : 4096, false, &gs);
		if (next < -1)
			break;
		for (uint32_t i = 0; i < gs.n_shown; i++) {
			rw_row(&rw, g, gs.rows[i], &gs.vals[(size_t)i * g->n_counters]);
			printf("%s\n%*s", done + i ? "," : "", indent + 2, "");
			fwrite(rw.buf, 1, rw.len, stdout);
		}
		done += gs.n_shown;
		if (gs.n_shown == 0)
			break;
	}
	rw_free(&rw);
	free(gs.rows);
	free(gs.vals);
	if (done)
		printf("\n%*s", indent, "");
	putchar(']');
	return next < -1 ? (int)next : 0;
}

int
print_json_stream(struct fastmib_segment *seg, const char *path, const struct view *v)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	char (*marks)[32] = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*marks));
	struct snap s = { .n_groups = sc->n_groups };
	char *text = NULL, *at;
	int rc = 0;

	s.g = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*s.g));
	if (marks == NULL || s.g == NULL) {
		free(marks);
		free(s.g);
		return -ENOMEM;
	}
	clock_gettime(CLOCK_REALTIME, &s.wall);
	for (uint32_t i = 0; i < sc->n_groups && rc == 0; i++) {
		if (!v->g[i].shown)
			continue;
		if (sc->groups[i].n_indexes == 0) {
			int64_t r = snap_range(seg, i, 0, 1, false, &s.g[i]);

			rc = r < -1 ? (int)r : 0;
			continue;
		}
		s.g[i].n_present = count_present(seg, i);
		/* a string no path or name can hold: control characters */
		snprintf(marks[i], sizeof(marks[i]), "\x01rows %u\x01", i);
	}
	if (rc == 0) {
		json_t *doc = json_doc_marked(seg, path, v, &s, marks);

		text = json_dumps(doc, JSON_INDENT(2));
		json_decref(doc);
		rc = text ? 0 : -ENOMEM;
	}
	at = text;
	for (uint32_t i = 0; rc == 0 && i < sc->n_groups; i++) {
		char quoted[48], *hit, *line;

		if (marks[i][0] == '\0' || s.g[i].n_present == 0)
			continue;
		/* jansson writes the control characters as \u0001 */
		snprintf(quoted, sizeof(quoted), "\"\\u0001rows %u\\u0001\"", i);
		hit = strstr(at, quoted);
		if (hit == NULL)
			continue;
		for (line = hit; line > text && line[-1] != '\n'; line--)
			;
		fwrite(at, 1, (size_t)(hit - at), stdout);
		rc = stream_rows(seg, v, i, (int)strspn(line, " "));
		at = hit + strlen(quoted);
	}
	if (rc == 0) {
		fputs(at, stdout);
		putchar('\n');
	}
	free(text);
	snap_free(&s);
	free(marks);
	return rc;
}

int
print_json(json_t *doc, bool compact)
{
	size_t flags = compact ? JSON_COMPACT : JSON_INDENT(2);
	int rc = json_dumpf(doc, stdout, flags);

	json_decref(doc);
	putchar('\n');
	return rc == 0 ? 0 : -EIO;
}
