/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups: storage, table shape and counters. */
#include "model_load.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static void
counter_free(struct m_counter *k)
{
	free(k->name);
	free(k->units);
	free(k->description);
	memset(k, 0, sizeof(*k));
}

void
group_free(struct m_group *g)
{
	uint32_t j;

	for (j = 0; j < g->n_counters; j++)
		counter_free(&g->counters[j]);
	for (j = 0; j < g->n_indexes; j++)
		free(g->indexes[j].name);
	free(g->counters);
	free(g->name);
	free(g->description);
	memset(g, 0, sizeof(*g));
}

static const char *const type_names[] = { "counter64", "counter32", "gauge32" };
static const enum fastmib_type type_values[] = {
	FASTMIB_COUNTER64, FASTMIB_COUNTER32, FASTMIB_GAUGE32,
};
static const char *const storage_names[] = {
	"per-core", "shared-buffered", "shared-atomic",
};
static const enum fastmib_storage storage_values[] = {
	FASTMIB_STORAGE_PER_CORE, FASTMIB_STORAGE_SHARED_BUFFERED,
	FASTMIB_STORAGE_SHARED_ATOMIC,
};

bool
storage_is_shared(enum fastmib_storage s)
{
	return s != FASTMIB_STORAGE_PER_CORE;
}

static void
parse_table(struct loader *c, yaml_node_t *t, struct m_group *g)
{
	static const struct key keys[] = { { "indexes", true }, { "rows", false } };
	static const struct key ikeys[] = { { "name", true }, { "max", true } };
	static const char *const rows_names[] = { "present", "all" };
	yaml_node_item_t *items;
	yaml_node_t *v[2];
	uint64_t rows = 1;
	size_t n, i, j, r;

	g->table = true;
	g->all_rows = false;
	if (!get_keys(c, t, "table", keys, 2, v))
		return;
	if (v[1] && get_enum(c, v[1], "rows", rows_names, 2, &r))
		g->all_rows = r == 1;
	if (!v[0])
		return;
	items = get_seq(c, v[0], "indexes", 1, FASTMIB_MAX_INDEXES, &n);
	for (i = 0; i < n; i++) {
		yaml_node_t *in = node_get(c, items[i]);
		struct m_index *x = &g->indexes[g->n_indexes];
		yaml_node_t *iv[2];
		uint64_t max = 0;

		if (!get_keys(c, in, "index", ikeys, 2, iv))
			continue;
		x->at = mark_of(in);
		if (iv[0] && (x->name = get_name(c, iv[0], "name")) != NULL) {
			if (strcmp(x->name, "w") == 0 || strcmp(x->name, "n") == 0) {
				err(c, iv[0], "index `name` `%s` is reserved for a parameter "
					      "of the generated functions", x->name);
				free(x->name);
				x->name = NULL;
			}
			for (j = 0; x->name && j < g->n_indexes; j++) {
				if (strcmp(g->indexes[j].name, x->name) == 0) {
					err(c, iv[0], "duplicate index `name` `%s` in table",
					    x->name);
					free(x->name);
					x->name = NULL;
				}
			}
		}
		if (iv[1] && get_uint(c, iv[1], "max", 1, FASTMIB_MAX_ROWS, &max))
			x->max = (uint32_t)max;
		if (!x->name || !x->max) {
			free(x->name);
			x->name = NULL;
			rows = 0;
			continue;
		}
		rows *= max;
		if (rows > FASTMIB_MAX_ROWS) {
			err(c, v[0], "table has more than %u rows (product of the index "
				     "`max` values); the limit is %u",
			    FASTMIB_MAX_ROWS, FASTMIB_MAX_ROWS);
			free(x->name);
			x->name = NULL;
			rows = 0;
			break;
		}
		g->n_indexes++;
	}
	g->n_rows = (uint32_t)rows;
}

static bool
parse_counter(struct loader *c, yaml_node_t *cn, struct m_group *g,
	      struct m_counter *k)
{
	enum { NAME, OID, TYPE, UNITS, DESCR, SET, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "type", true },
		{ "units", false }, { "description", true }, { "set", false },
	};
	yaml_node_t *v[N];
	uint64_t arc = 0;
	size_t t = 0;
	bool ok = true;

	if (!get_keys(c, cn, "counter", keys, N, v))
		return false;
	k->at = mark_of(cn);
	if (v[NAME]) {
		k->name = get_name(c, v[NAME], "name");
		k->name_at = mark_of(v[NAME]);
	}
	if (v[OID] && get_uint(c, v[OID], "oid", 1, FASTMIB_MAX_ARC, &arc))
		k->arc = (uint32_t)arc;
	if (v[TYPE] && get_enum(c, v[TYPE], "type", type_names, 3, &t))
		k->type = type_values[t];
	k->units = v[UNITS] ? get_text(c, v[UNITS], "units", FASTMIB_MAX_UNITS)
			    : xstrdup("");
	if (v[DESCR])
		k->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[SET]) {
		ok = get_bool(c, v[SET], "set", &k->set);
		if (ok && k->set && k->type &&
		    (k->type != FASTMIB_GAUGE32 ||
		     g->storage != FASTMIB_STORAGE_SHARED_ATOMIC)) {
			err(c, v[SET], "`set: true` needs a gauge32 counter in "
				       "shared-atomic storage; `%s` is %s in %s storage",
			    k->name ? k->name : "this counter", type_names[t],
			    g->storage ? storage_names[g->storage - 1] : "unknown");
			ok = false;
		}
	}
	return ok && k->name && k->arc && k->type && k->units && k->description;
}

static bool
parse_group(struct loader *c, yaml_node_t *gn, struct m_group *g)
{
	enum { NAME, OID, STORAGE, DESCR, TABLE, COUNTERS, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "storage", true },
		{ "description", true }, { "table", false }, { "counters", true },
	};
	yaml_node_t *v[N];
	yaml_node_item_t *items;
	uint64_t arc = 0;
	size_t s, n, i, j;
	bool ok = true;

	if (!get_keys(c, gn, "group", keys, N, v))
		return false;
	g->at = mark_of(gn);
	g->n_rows = 1;
	g->all_rows = true;
	if (v[NAME]) {
		g->name = get_name(c, v[NAME], "name");
		g->name_at = mark_of(v[NAME]);
	}
	if (v[OID] && get_uint(c, v[OID], "oid", 1, FASTMIB_MAX_ARC, &arc))
		g->arc = (uint32_t)arc;
	if (v[STORAGE] && get_enum(c, v[STORAGE], "storage", storage_names, 3, &s))
		g->storage = storage_values[s];
	if (v[DESCR])
		g->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[TABLE]) {
		unsigned before = c->errors;

		parse_table(c, v[TABLE], g);
		ok = c->errors == before;
	}
	if (!v[COUNTERS])
		return false;
	items = get_seq(c, v[COUNTERS], "counters", 1, FASTMIB_MAX_COUNTERS, &n);
	if (!items)
		return false;
	g->counters = xcalloc(n, sizeof(*g->counters));
	for (i = 0; i < n; i++) {
		struct m_counter *k = &g->counters[g->n_counters];

		if (!parse_counter(c, node_get(c, items[i]), g, k)) {
			counter_free(k);
			ok = false;
			continue;
		}
		for (j = 0; j < g->n_counters; j++) {
			if (strcmp(g->counters[j].name, k->name) == 0) {
				err_at(c, k->name_at, "duplicate counter name `%s` in "
						      "group (first at line %u)",
				       k->name, g->counters[j].name_at.line);
				ok = false;
			}
			if (g->counters[j].arc == k->arc) {
				err_at(c, k->at, "duplicate counter oid %u in group "
						 "(`%s` at line %u has it)",
				       k->arc, g->counters[j].name, g->counters[j].at.line);
				ok = false;
			}
		}
		g->n_counters++;
	}
	return ok && g->name && g->arc && g->storage && g->description;
}

void
parse_groups(struct loader *c, yaml_node_t *seq, struct model *m)
{
	yaml_node_item_t *items;
	size_t n, i, j;

	items = get_seq(c, seq, "groups", 1, FASTMIB_MAX_GROUPS, &n);
	m->groups = xcalloc(n, sizeof(*m->groups));
	for (i = 0; i < n; i++) {
		struct m_group *g = &m->groups[m->n_groups];

		if (!parse_group(c, node_get(c, items[i]), g)) {
			group_free(g);
			continue;
		}
		for (j = 0; j < m->n_groups; j++) {
			if (strcmp(m->groups[j].name, g->name) == 0)
				err_at(c, g->name_at, "duplicate group name `%s` "
						      "(first at line %u)",
				       g->name, m->groups[j].name_at.line);
			if (m->groups[j].arc == g->arc)
				err_at(c, g->at, "duplicate group oid %u (`%s` at "
						 "line %u has it)",
				       g->arc, m->groups[j].name, m->groups[j].at.line);
		}
		m->n_groups++;
	}
}
