/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters as one JSON document (jansson). */
#include <errno.h>
#include <stdlib.h>

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

static json_t *
json_group(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	   const struct group_view *gv, uint64_t max_rows, const struct group_snap *gs)
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
	uint32_t idx[FASTMIB_MAX_INDEXES];

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
	/* JSON has no rates: --sort orders by value, even under --watch */
	n = view_order(gv, g, gs, NULL, 0, max_rows, order);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];
		json_t *row = json_object(), *ix = json_array();

		fastmib_index_of_row(g, gs->rows[r], idx);
		for (uint32_t k = 0; k < g->n_indexes; k++)
			json_array_append_new(ix, json_integer(idx[k]));
		json_object_set_new(row, "row", json_integer(gs->rows[r]));
		json_object_set_new(row, "index", ix);
		json_object_set_new(row, "counters",
				    json_counters(sc, g, gv, &gs->vals[(size_t)r * g->n_counters]));
		json_array_append_new(rows, row);
	}
	free(order);
	json_object_set_new(o, "rows", rows);
	return o;
}

json_t *
json_doc(struct fastmib_segment *seg, const char *path, const struct view *v,
	 const struct snap *s)
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
						       v->max_rows, &s->g[i]));
	json_object_set_new(doc, "groups", groups);
	return doc;
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
