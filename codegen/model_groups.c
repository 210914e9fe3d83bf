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
	free(g->indexes);
	free(g->counters);
	free(g->name);
	free(g->description);
	memset(g, 0, sizeof(*g));
}

bool
storage_is_shared(enum fastmib_storage s)
{
	return s != FASTMIB_STORAGE_PER_CORE;
}

static bool
parse_index(struct loader *c, yaml_node_t *in, struct m_index *x)
{
	static const struct key keys[] = { { "name", true }, { "max", true },
					   { "port", false } };
	yaml_node_t *v[3];
	bool have_max = false;

	if (!get_keys(c, in, "index", keys, 3, v))
		return false;
	x->at = mark_of(in);
	if (v[0] && (x->name = get_name(c, v[0], "name")) != NULL) {
		x->name_at = mark_of(v[0]);
		if (strcmp(x->name, "w") == 0 || strcmp(x->name, "n") == 0) {
			err(c, v[0], "index `name` `%s` is reserved for a parameter "
				     "of the generated functions", x->name);
			free(x->name);
			x->name = NULL;
		}
	}
	if (v[1]) {
		x->max_at = mark_of(v[1]);
		have_max = get_u32(c, v[1], "max", &x->max);
	}
	/* a DPDK port id: only the snmp_exporter module uses it (nms.md) */
	if (v[2] && !get_bool(c, v[2], "port", &x->port))
		return false;
	return x->name && have_max;
}

static void
parse_table(struct loader *c, yaml_node_t *t, struct m_group *g)
{
	static const struct key keys[] = { { "indexes", true }, { "rows", false } };
	static const char *const rows_names[] = { "present", "all" };
	yaml_node_item_t *items;
	yaml_node_t *v[2];
	size_t n, i, r;

	g->table = true;
	g->all_rows = false;
	if (!get_keys(c, t, "table", keys, 2, v))
		return;
	if (v[1] && get_enum(c, v[1], "rows", rows_names, 2, &r))
		g->all_rows = r == 1;
	if (!v[0])
		return;
	g->indexes_at = mark_of(v[0]);
	/* At least one (a table without indexes is a scalar group); the
	 * schema's limit is checked with the rest of the schema. */
	items = get_seq(c, v[0], "indexes", 1, SIZE_MAX, &n);
	g->indexes = xcalloc(n ? n : 1, sizeof(*g->indexes));
	for (i = 0; i < n; i++) {
		struct m_index *x = &g->indexes[g->n_indexes];

		if (!parse_index(c, node_get(c, items[i]), x)) {
			free(x->name);
			memset(x, 0, sizeof(*x));
			continue;
		}
		g->n_indexes++;
	}
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
	uint32_t t;
	bool ok = true, have_arc = false;

	if (!get_keys(c, cn, "counter", keys, N, v))
		return false;
	k->at = mark_of(cn);
	if (v[NAME]) {
		k->name = get_name(c, v[NAME], "name");
		k->name_at = mark_of(v[NAME]);
	}
	if (v[OID]) {
		k->arc_at = mark_of(v[OID]);
		have_arc = get_u32(c, v[OID], "oid", &k->arc);
	}
	if (v[TYPE] && get_word(c, v[TYPE], "type", fastmib_type_word, &t))
		k->type = t;
	if (v[UNITS]) {
		k->units_at = mark_of(v[UNITS]);
		k->units = get_text(c, v[UNITS], "units", GEN_MAX_DESCRIPTION);
	} else {
		k->units = xstrdup("");
	}
	if (v[DESCR])
		k->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[SET]) {
		ok = get_bool(c, v[SET], "set", &k->set);
		if (ok && k->set && k->type &&
		    (k->type != FASTMIB_GAUGE32 ||
		     g->storage != FASTMIB_STORAGE_SHARED_ATOMIC)) {
			err(c, v[SET], "`set: true` needs a gauge32 counter in "
				       "shared-atomic storage; `%s` is %s in %s storage",
			    k->name ? k->name : "this counter", fastmib_type_word(k->type),
			    g->storage ? fastmib_storage_word(g->storage) : "unknown");
			ok = false;
		}
	}
	return ok && k->name && have_arc && k->type && k->units && k->description;
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
	size_t n, i;
	uint32_t s;
	bool ok = true, have_arc = false;

	if (!get_keys(c, gn, "group", keys, N, v))
		return false;
	g->at = mark_of(gn);
	g->all_rows = true;
	if (v[NAME]) {
		g->name = get_name(c, v[NAME], "name");
		g->name_at = mark_of(v[NAME]);
	}
	if (v[OID]) {
		g->arc_at = mark_of(v[OID]);
		have_arc = get_u32(c, v[OID], "oid", &g->arc);
	}
	if (v[STORAGE] && get_word(c, v[STORAGE], "storage", fastmib_storage_word, &s))
		g->storage = s;
	if (v[DESCR])
		g->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[TABLE]) {
		unsigned before = c->errors;

		parse_table(c, v[TABLE], g);
		ok = c->errors == before;
	}
	if (!v[COUNTERS])
		return false;
	g->counters_at = mark_of(v[COUNTERS]);
	/* How many is the schema's rule, checked with the rest of it. */
	items = get_seq(c, v[COUNTERS], "counters", 0, SIZE_MAX, &n);
	if (v[COUNTERS]->type != YAML_SEQUENCE_NODE)
		return false;
	g->counters = xcalloc(n ? n : 1, sizeof(*g->counters));
	for (i = 0; i < n; i++) {
		struct m_counter *k = &g->counters[g->n_counters];

		if (!parse_counter(c, node_get(c, items[i]), g, k)) {
			counter_free(k);
			ok = false;
			continue;
		}
		g->n_counters++;
	}
	return ok && g->name && have_arc && g->storage && g->description;
}

void
parse_groups(struct loader *c, yaml_node_t *seq, struct model *m)
{
	yaml_node_item_t *items;
	size_t n, i;

	m->groups_at = mark_of(seq);
	items = get_seq(c, seq, "groups", 0, SIZE_MAX, &n);
	m->groups = xcalloc(n ? n : 1, sizeof(*m->groups));
	for (i = 0; i < n; i++) {
		struct m_group *g = &m->groups[m->n_groups];

		if (!parse_group(c, node_get(c, items[i]), g)) {
			group_free(g);
			continue;
		}
		m->n_groups++;
	}
}
