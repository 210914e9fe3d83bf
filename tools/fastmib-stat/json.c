/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters and states as one JSON document (jansson), whole or
 * streamed. */
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

/* Values of 64 bits (Counter64, peaks): json64's rule; the others are
 * 32-bit, always integers. */
static bool
is_64(uint32_t type)
{
	return type == FASTMIB_COUNTER64 || type == FASTMIB_PEAK;
}

/* The counters --match shows (all by default), by MIB name. */
static json_t *
json_counters(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	      const struct group_view *gv, const uint64_t *v)
{
	json_t *o = json_object();
	char name[NAME_BUF];

	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c] || g->counters[c].type == FASTMIB_HISTOGRAM)
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		/* Counter32 and Gauge32 values are 32-bit: always integers */
		json_object_set_new(o, name, is_64(g->counters[c].type) ?
				    fst_json_u64(v[c]) : json_integer((json_int_t)v[c]));
	}
	return o;
}

/* The histograms --match shows, by MIB name, each whole (hist.c) from the
 * row's words: those of the read its counters came from. */
static json_t *
json_hists(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	   const struct group_view *gv, const uint64_t *words)
{
	json_t *o = json_object();
	char name[NAME_BUF];

	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c] || g->counters[c].type != FASTMIB_HISTOGRAM)
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		json_object_set_new(o, name, fst_hist_json(&g->counters[c], words));
	}
	return o;
}

/* The states --match shows of row i of `gs`, by MIB name, each typed
 * (fst_state_json()); under --watch (`prev`: the group in the previous
 * document), with "changed": true when it changed since. */
static json_t *
json_states(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	    const struct group_view *gv, const struct group_snap *gs, uint32_t i,
	    const struct group_snap *prev)
{
	int64_t pi = prev ? fst_prev_row(prev, g, gs, i) : -1;
	json_t *o = json_object();
	char name[NAME_BUF];

	for (uint32_t s = 0; s < g->n_states; s++) {
		const struct fastmib_state_schema *st = &g->states[s];
		json_t *j;

		if (!gv->state[s])
			continue;
		j = fst_state_json(st, fst_snap_states(gs, g, i) + st->offset,
				   fst_snap_state_bad(gs, i, s), gs->mono_ns);
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix, g->name,
			     st->name);
		if (fst_state_changed(prev, pi, gs, i, g, s))
			json_object_set_new(j, "changed", json_true());
		json_object_set_new(o, name, j);
	}
	return o;
}

/*
 * A keyed row's "key": one entry per object of the table's INDEX clause,
 * named as it (an inet-address index is two: its InetAddressType, "ipv4"
 * or "ipv6", then the address), typed: integer and uint32 indexes numbers,
 * the others strings (fastmib_key_field_text()). The names are the
 * table's, made once; the values each row's.
 */
struct key_entry {
	bool is_number;
	uint32_t number;
	char text[FASTMIB_MAX_KEY_FIELD_TEXT];
};

/* The names of g's INDEX objects, in its order; their count. */
static uint32_t
index_object_names(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
		   char (*names)[NAME_BUF])
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		if (g->indexes[k].type == FASTMIB_INDEX_INET_ADDRESS)
			fastmib_name(names[n++], NAME_BUF, FASTMIB_MIB_INDEX_TYPE, sc->prefix,
				     g->name, g->indexes[k].name);
		fastmib_name(names[n++], NAME_BUF, FASTMIB_MIB_INDEX, sc->prefix, g->name,
			     g->indexes[k].name);
	}
	return n;
}

/* The values of key key[0..len), in the order of index_object_names(). */
static uint32_t
key_values(const struct fastmib_group_schema *g, const uint8_t *key, size_t len,
	   struct key_entry *e)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		struct fastmib_key_field f;

		/* a key read from the segment is valid: keep the shape anyway */
		if (fastmib_key_field(g, key, len, k, &f) < 0)
			memset(&f, 0, sizeof(f));
		if (f.type == FASTMIB_INDEX_INET_ADDRESS) {
			const char *w = fastmib_inet_type_word(f.number);

			e[n].is_number = false;
			snprintf(e[n++].text, sizeof(e->text), "%s", w ? w : "unknown");
		}
		e[n].is_number = f.octets == NULL;
		e[n].number = f.number;
		e[n].text[0] = '\0';
		if (f.octets != NULL)
			fastmib_key_field_text(&f, e[n].text, sizeof(e->text));
		n++;
	}
	return n;
}

/* One row of a table: its number, its SNMP index (a keyed table's: the
 * sub-identifiers of its key), its key (keyed tables), counters and, in a
 * group with states, its states (`prev`: json_states()'s). */
static json_t *
json_row(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	 const struct group_view *gv, const struct group_snap *gs, uint32_t i,
	 const struct group_snap *prev)
{
	json_t *row = json_object(), *ix = json_array();
	uint32_t r = gs->rows[i];

	json_object_set_new(row, "row", json_integer(r));
	if (fastmib_group_keyed(g)) {
		char names[2 * FASTMIB_MAX_INDEXES][NAME_BUF];
		struct key_entry e[2 * FASTMIB_MAX_INDEXES];
		uint64_t sub[FASTMIB_MAX_INDEX_SUBIDS];
		json_t *key = json_object();
		size_t len, n_sub;
		const uint8_t *k = fst_snap_key(gs, i, &len);
		uint32_t n = index_object_names(sc, g, names);

		n_sub = fastmib_key_to_index(g, k, len, sub);
		for (size_t j = 0; j < n_sub; j++)
			json_array_append_new(ix, json_integer((json_int_t)sub[j]));
		key_values(g, k, len, e);
		for (uint32_t j = 0; j < n; j++)
			json_object_set_new(key, names[j], e[j].is_number ?
					    json_integer(e[j].number) : json_string(e[j].text));
		json_object_set_new(row, "index", ix);
		json_object_set_new(row, "key", key);
	} else {
		uint32_t idx[FASTMIB_MAX_INDEXES];

		fastmib_index_of_row(g, r, idx);
		for (uint32_t k = 0; k < g->n_indexes; k++)
			json_array_append_new(ix, json_integer(idx[k]));
		json_object_set_new(row, "index", ix);
	}
	json_object_set_new(row, "counters", json_counters(sc, g, gv,
							   &gs->vals[(size_t)i * g->n_counters]));
	if (gv->hist)
		json_object_set_new(row, "histograms",
				    json_hists(sc, g, gv, fst_snap_words(gs, i)));
	if (g->n_states)
		json_object_set_new(row, "states", json_states(sc, g, gv, gs, i, prev));
	/* a writer stayed inside its transaction: values possibly torn */
	if (gs->busy[i])
		json_object_set_new(row, "best_effort", json_true());
	return row;
}

/*
 * A group's object. A table's rows are those of `gs`, or, when `gs` has
 * none read but rows are present and `stream_mark` is given, that string:
 * the streaming output puts the rows there. `prev`: the group in the
 * previous document of --watch, or NULL.
 */
static json_t *
json_group(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	   const struct group_view *gv, uint64_t max_rows, const struct group_snap *gs,
	   const struct group_snap *prev, const char *stream_mark)
{
	json_t *o = json_object();
	char name[NAME_BUF], idx_text[2 * FASTMIB_MAX_INDEXES][NAME_BUF];
	uint32_t *order, n;

	json_t *types = json_object();

	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c])
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		json_object_set_new(types, name, json_word(fastmib_type_word(g->counters[c].type)));
	}
	/* a group of states only has no storage */
	json_object_set_new(o, "storage", g->n_counters ?
				json_word(fastmib_storage_word(g->storage)) : json_null());
	json_object_set_new(o, "table", json_boolean(g->n_indexes > 0));
	json_object_set_new(o, "types", types);
	if (g->n_indexes == 0) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_SCALAR_NODE,
			     sc->prefix, g->name, NULL);
		json_object_set_new(o, "mib", json_string(name));
		json_object_set_new(o, "counters",
				    gs->n_shown ? json_counters(sc, g, gv, gs->vals) :
						  json_object());
		if (gv->hist)
			json_object_set_new(o, "histograms", gs->n_shown ?
					    json_hists(sc, g, gv, gs->words) : json_object());
		if (g->n_states)
			json_object_set_new(o, "states", gs->n_shown ?
					    json_states(sc, g, gv, gs, 0, prev) : json_object());
		if (gs->n_shown && gs->busy[0])
			json_object_set_new(o, "best_effort", json_true());
		return o;
	}

	json_t *idx_names = json_array(), *rows = json_array();

	fastmib_name(name, sizeof(name), FASTMIB_MIB_TABLE, sc->prefix, g->name, NULL);
	json_object_set_new(o, "mib", json_string(name));
	/* the INDEX clause: a keyed table's inet-address index is two objects */
	n = index_object_names(sc, g, idx_text);
	for (uint32_t k = 0; k < n; k++)
		json_array_append_new(idx_names, json_string(idx_text[k]));

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
	n = fst_view_order(gv, g, gs, NULL, 0, max_rows, order);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];

		json_array_append_new(rows, json_row(sc, g, gv, gs, r, prev));
	}
	free(order);
	json_object_set_new(o, "rows", rows);
	return o;
}

/* The document; `prev` the previous one's snapshot (--watch) or NULL;
 * `marks` (streaming) names the string each streamed table's rows
 * replace, else NULL. */
static json_t *
json_doc_marked(struct fastmib_segment *seg, const char *path, const struct view *v,
		const struct snap *s, const struct snap *prev, char (*marks)[32])
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	json_t *doc = json_object(), *groups = json_object();

	fastmib_info(seg, &info);
	json_object_set_new(doc, "module", json_string(sc->module));
	json_object_set_new(doc, "prefix", json_string(sc->prefix));
	json_object_set_new(doc, "segment", json_string(path));
	json_object_set_new(doc, "generation", fst_json_u64(info.generation));
	json_object_set_new(doc, "writer", json_string(info.writer_running ? "running" : "gone"));
	json_object_set_new(doc, "time", json_real((double)s->wall.tv_sec +
						   (double)s->wall.tv_nsec / 1e9));
	/* a group --match hides is left out, as its counters are */
	for (uint32_t i = 0; i < sc->n_groups; i++)
		if (v->g[i].shown)
			json_object_set_new(groups, sc->groups[i].name,
					    json_group(sc, &sc->groups[i], &v->g[i],
						       v->max_rows, &s->g[i],
						       prev ? &prev->g[i] : NULL,
						       marks ? marks[i] : NULL));
	json_object_set_new(doc, "groups", groups);
	return doc;
}

json_t *
fst_json_doc(struct fastmib_segment *seg, const char *path, const struct view *v,
	     const struct snap *s, const struct snap *prev)
{
	return json_doc_marked(seg, path, v, s, prev, NULL);
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
	uint32_t n_objects;                      /* keyed tables: INDEX objects */
	char objects[2 * FASTMIB_MAX_INDEXES][NAME_BUF];
	const struct fastmib_schema *sc;         /* groups with states: whose */
	const struct group_view *gv;             /* states --match shows */
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
	rw->sc = sc;
	rw->gv = gv;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		char *k;

		/* a group with histograms is not streamed (fst_print_json_stream()) */
		if (!gv->counter[c] || g->counters[c].type == FASTMIB_HISTOGRAM)
			continue;
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix, g->name,
			     g->counters[c].name);
		k = malloc(strlen(name) + 5);
		if (k == NULL)
			return -ENOMEM;
		sprintf(k, "\"%s\": ", name);
		keys += strlen(k);
		rw->counter[rw->n_keys] = c;
		rw->c64[rw->n_keys] = is_64(g->counters[c].type);
		rw->key[rw->n_keys++] = k;
	}
	/* indentation, keys and at most 22 characters per value, per line;
	 * a keyed row's index (a line per sub-identifier) and its key (a line
	 * per INDEX object, each name and value escaped at worst) */
	rw->cap = keys + (size_t)(g->n_indexes + rw->n_keys + 8) * (size_t)(indent + 32) + 64;
	if (fastmib_group_keyed(g)) {
		rw->n_objects = index_object_names(sc, g, rw->objects);
		rw->cap += (size_t)fastmib_index_max_subids(g) * (size_t)(indent + 16) +
			   (size_t)rw->n_objects * (size_t)(indent + 16 + NAME_BUF +
							    2 * FASTMIB_MAX_KEY_FIELD_TEXT);
	}
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

/* A JSON string of printable ASCII (a key's text): only '"' and '\\'
 * are escaped, as jansson escapes them. */
static void
rw_str(struct row_writer *rw, const char *t)
{
	rw->buf[rw->len++] = '"';
	for (; *t; t++) {
		if (*t == '"' || *t == '\\')
			rw->buf[rw->len++] = '\\';
		rw->buf[rw->len++] = *t;
	}
	rw->buf[rw->len++] = '"';
}

/* A keyed row's "key" object, its members at `in` + 2, and the comma. */
static void
rw_key(struct row_writer *rw, const struct fastmib_group_schema *g, const uint8_t *key,
       size_t len, int in)
{
	struct key_entry e[2 * FASTMIB_MAX_INDEXES];

	key_values(g, key, len, e);
	RW_LIT(rw, "\"key\": {\n");
	for (uint32_t j = 0; j < rw->n_objects; j++) {
		rw_spaces(rw, in + 2);
		rw_str(rw, rw->objects[j]);
		RW_LIT(rw, ": ");
		if (e[j].is_number)
			rw_u64(rw, e[j].number, false);
		else
			rw_str(rw, e[j].text);
		if (j + 1 < rw->n_objects)
			RW_LIT(rw, ",\n");
		else
			RW_LIT(rw, "\n");
	}
	rw_spaces(rw, in);
	RW_LIT(rw, "},\n");
}

/*
 * After a row's counters, its "states" member at column `in`: the object
 * json_states() makes, dumped as the whole document would dump it there
 * (each line after the first indented by `in`). 0, or -ENOMEM. Rows with
 * states cost a jansson object each, as the whole document's do.
 */
static int
rw_states(struct row_writer *rw, const struct fastmib_group_schema *g,
	  const struct group_snap *gs, uint32_t i, int in)
{
	json_t *o = json_states(rw->sc, g, rw->gv, gs, i, NULL);
	char *text = json_dumps(o, JSON_INDENT(2));
	size_t lines = 1, need;
	char *grown;

	json_decref(o);
	if (text == NULL)
		return -ENOMEM;
	for (const char *t = text; *t; t++)
		lines += *t == '\n';
	need = rw->len + strlen(text) + lines * (size_t)in + (size_t)in + 32;
	if (need > rw->cap) {
		grown = realloc(rw->buf, need);
		if (grown == NULL) {
			free(text);
			return -ENOMEM;
		}
		rw->buf = grown;
		rw->cap = need;
	}
	RW_LIT(rw, ",\n");
	rw_spaces(rw, in);
	RW_LIT(rw, "\"states\": ");
	for (const char *t = text; *t; t++) {
		rw->buf[rw->len++] = *t;
		if (*t == '\n')
			rw_spaces(rw, in);
	}
	free(text);
	return 0;
}

/* One row object, row i of `gs`, from its opening brace to its closing
 * one. 0, or -ENOMEM. */
static int
rw_row(struct row_writer *rw, const struct fastmib_group_schema *g,
       const struct group_snap *gs, uint32_t i)
{
	const uint64_t *v = &gs->vals[(size_t)i * g->n_counters];
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
	const uint8_t *key = NULL;
	int in = rw->indent;
	size_t n, len = 0;

	rw->len = 0;
	if (fastmib_group_keyed(g)) {
		key = fst_snap_key(gs, i, &len);
		n = fastmib_key_to_index(g, key, len, idx);
	} else {
		uint32_t x[FASTMIB_MAX_INDEXES];

		fastmib_index_of_row(g, gs->rows[i], x);
		for (n = 0; n < g->n_indexes; n++)
			idx[n] = x[n];
	}
	RW_LIT(rw, "{\n");
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "\"row\": ");
	rw_u64(rw, gs->rows[i], false);
	RW_LIT(rw, ",\n");
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "\"index\": [\n");
	for (size_t k = 0; k < n; k++) {
		rw_spaces(rw, in + 4);
		rw_u64(rw, idx[k], false);
		if (k + 1 < n)
			RW_LIT(rw, ",\n");
		else
			RW_LIT(rw, "\n");
	}
	rw_spaces(rw, in + 2);
	RW_LIT(rw, "],\n");
	rw_spaces(rw, in + 2);
	if (key != NULL) {
		rw_key(rw, g, key, len, in + 2);
		rw_spaces(rw, in + 2);
	}
	if (rw->n_keys == 0) {
		RW_LIT(rw, "\"counters\": {}");
	} else {
		RW_LIT(rw, "\"counters\": {\n");
		for (uint32_t k = 0; k < rw->n_keys; k++) {
			uint64_t x = v[rw->counter[k]];

			rw_spaces(rw, in + 4);
			rw_put(rw, rw->key[k], strlen(rw->key[k]));
			rw_u64(rw, x, rw->c64[k] && (fst_json64_strings() || x > JSON_EXACT_MAX));
			if (k + 1 < rw->n_keys)
				RW_LIT(rw, ",\n");
			else
				RW_LIT(rw, "\n");
		}
		rw_spaces(rw, in + 2);
		RW_LIT(rw, "}");
	}
	if (g->n_states && rw_states(rw, g, gs, i, in + 2) < 0)
		return -ENOMEM;
	if (gs->busy[i]) { /* json_row()'s member, in its place */
		RW_LIT(rw, ",\n");
		rw_spaces(rw, in + 2);
		RW_LIT(rw, "\"best_effort\": true");
	}
	RW_LIT(rw, "\n");
	rw_spaces(rw, in);
	RW_LIT(rw, "}");
	return 0;
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
	struct row_cursor cur = { 0 };
	struct row_writer rw;
	uint64_t done = 0;
	int more = 1;

	if (rw_init(&rw, sc, g, &v->g[gi], indent + 2) < 0) {
		rw_free(&rw);
		return -ENOMEM;
	}
	putchar('[');
	while (more > 0 && done < v->max_rows) {
		uint64_t want = v->max_rows - done;

		gs.n_shown = 0;
		more = fst_snap_range(seg, gi, &cur, want < 4096 ? want : 4096, false, &gs);
		if (more < 0)
			break;
		for (uint32_t i = 0; i < gs.n_shown; i++) {
			if (rw_row(&rw, g, &gs, i) < 0) {
				more = -ENOMEM;
				break;
			}
			printf("%s\n%*s", done + i ? "," : "", indent + 2, "");
			fwrite(rw.buf, 1, rw.len, stdout);
		}
		if (more < 0)
			break;
		done += gs.n_shown;
		if (gs.n_shown == 0)
			break;
	}
	rw_free(&rw);
	fst_group_snap_free(&gs);
	if (done)
		printf("\n%*s", indent, "");
	putchar(']');
	return more < 0 ? more : 0;
}

int
fst_print_json_stream(struct fastmib_segment *seg, const char *path, const struct view *v)
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
		if (sc->groups[i].n_indexes == 0 || v->g[i].hist) {
			struct row_cursor cur = { 0 };

			/* a table with histograms: its rows shown, read at once
			 * (a row's histograms are many words: no row writer) */
			rc = fst_snap_range(seg, i, &cur, sc->groups[i].n_indexes ? v->max_rows : 1,
					    sc->groups[i].n_indexes > 0, &s.g[i]);
			continue;
		}
		s.g[i].n_present = fst_count_present(seg, i);
		/* a string no path or name can hold: control characters */
		snprintf(marks[i], sizeof(marks[i]), "\x01rows %u\x01", i);
	}
	if (rc == 0) {
		json_t *doc = json_doc_marked(seg, path, v, &s, NULL, marks);

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
	fst_snap_free(&s);
	free(marks);
	return rc;
}

int
fst_print_json(json_t *doc, bool compact)
{
	size_t flags = compact ? JSON_COMPACT : JSON_INDENT(2);
	int rc = json_dumpf(doc, stdout, flags);

	json_decref(doc);
	putchar('\n');
	return rc == 0 ? 0 : -EIO;
}
