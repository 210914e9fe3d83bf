/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups: storage, table shape, counters and states. */
#include "model_groups.h"

#include <stdlib.h>
#include <string.h>

#include "model_hist.h"
#include "model_states.h"
#include "strbuf.h"

static void
counter_free(struct m_counter *k)
{
	counter_kind_free(k);
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
	for (j = 0; j < g->n_states; j++)
		state_free(&g->states[j]);
	for (j = 0; j < g->n_indexes; j++)
		free(g->indexes[j].name);
	free(g->indexes);
	free(g->counters);
	free(g->states);
	free(g->name);
	free(g->description);
	memset(g, 0, sizeof(*g));
}

/*
 * An index: `{ name, max }` (an integer 1..max) or `{ name, type }` with
 * `size` for a string. *typed is set when the index has a `type`, valid or
 * not: its table is then keyed, whatever else is wrong with it.
 */
static bool
parse_index(struct loader *c, yaml_node_t *in, struct m_index *x, bool *typed)
{
	enum { NAME, MAX, TYPE, SIZE, PORT, N };
	static const struct key keys[N] = {
		{ "name", true }, { "max", false }, { "type", false }, { "size", false },
		{ "port", false },
	};
	yaml_node_t *v[N];
	const char *what;
	bool ok = true, type_ok = false;

	if (!get_keys(c, in, "index", keys, N, v))
		return false;
	x->at = mark_of(in);
	if (v[NAME] && (x->name = get_name(c, v[NAME], "name")) != NULL) {
		x->name_at = mark_of(v[NAME]);
		if (strcmp(x->name, "w") == 0 || strcmp(x->name, "n") == 0) {
			err(c, v[NAME], "index `name` `%s` is reserved for a parameter "
					"of the generated functions", x->name);
			free(x->name);
			x->name = NULL;
		}
	}
	what = x->name ? x->name : "";
	*typed = v[TYPE] != NULL;
	if (v[TYPE]) {
		x->type_at = mark_of(v[TYPE]);
		type_ok = get_word(c, v[TYPE], "index type", fastmib_index_type_word, &x->type);
		ok = type_ok;
	}
	if (v[MAX]) {
		x->max_at = mark_of(v[MAX]);
		if (v[TYPE]) {
			err(c, v[MAX], "index `%s` has a `type`: `max` is only for integer "
				       "indexes (`{ name, max }`)", what);
			ok = false;
		} else if (!get_u32(c, v[MAX], "max", &x->max)) {
			ok = false;
		}
	} else if (!v[TYPE]) {
		err(c, in, "index `%s` needs `max` (an integer index, 1..max) or `type` "
			   "(uint32, ipv4, inet-address, mac or string)", what);
		ok = false;
	}
	if (v[SIZE]) {
		x->size_at = mark_of(v[SIZE]);
		if (type_ok && x->type == FASTMIB_INDEX_STRING) {
			/* its range is the schema's rule */
			ok &= get_u32(c, v[SIZE], "size", &x->size);
		} else if (type_ok || !v[TYPE]) {
			err(c, v[SIZE], "index `%s`: `size` is only for indexes of `type: "
					"string`", what);
			ok = false;
		}
	} else if (type_ok && x->type == FASTMIB_INDEX_STRING) {
		err(c, v[TYPE], "index `%s` of `type: string` needs `size`: the most "
				"octets of its values, 1..%d", what, FASTMIB_MAX_STRING_INDEX);
		ok = false;
	}
	/* a DPDK port id: only the snmp_exporter module uses it (nms.md) */
	if (v[PORT] && v[TYPE]) {
		err(c, v[PORT], "index `%s` has a `type`: `port` is only for integer "
				"indexes (`{ name, max }`)", what);
		ok = false;
	} else if (v[PORT] && !get_bool(c, v[PORT], "port", &x->port)) {
		ok = false;
	}
	return x->name && ok;
}

/*
 * The rows of a table: `rows` and `capacity`. A keyed table holds at most
 * `capacity` rows, each there from its key's insertion to its removal
 * (`rows: present`, the default); a table of integer indexes has one row
 * per value of its indexes. `typed`: the name of the first index with a
 * `type` ("" when it has no valid name), or NULL when there is none.
 */
static void
check_table_rows(struct loader *c, yaml_node_t *t, yaml_node_t *rows, yaml_node_t *capacity,
		 struct m_group *g, const char *typed)
{
	struct strbuf why;

	if (!typed) {
		if (capacity)
			err(c, capacity, "`capacity` is only for keyed tables (tables with an "
					 "index of a `type`): this table has one row per value "
					 "of its indexes, up to their `max`");
		return;
	}
	g->keyed = true;
	sb_init(&why);
	if (*typed)
		sb_printf(&why, "index `%s` has a `type`", typed);
	else
		sb_puts(&why, "an index has a `type`");
	if (rows && g->all_rows) {
		err(c, rows, "`rows: all` is not possible in a keyed table (%s): its rows "
			     "come and go with their keys; leave `rows` out or write "
			     "`rows: present`", why.data);
		g->all_rows = false;
	}
	if (!capacity)
		err(c, t, "keyed table (%s) needs `capacity`: the most rows it holds at "
			  "once, 1..%u", why.data, FASTMIB_MAX_ROWS);
	sb_free(&why);
}

static void
parse_table(struct loader *c, yaml_node_t *t, struct m_group *g)
{
	enum { INDEXES, ROWS, CAPACITY, N };
	static const struct key keys[N] = {
		{ "indexes", true }, { "rows", false }, { "capacity", false },
	};
	static const char *const rows_names[] = { "present", "all" };
	char *typed = NULL;     /* see check_table_rows() */
	yaml_node_item_t *items;
	yaml_node_t *v[N];
	size_t n, i, r;

	g->table = true;
	g->all_rows = false;
	if (!get_keys(c, t, "table", keys, N, v))
		return;
	if (v[ROWS] && get_enum(c, v[ROWS], "rows", rows_names, 2, &r))
		g->all_rows = r == 1;
	if (v[CAPACITY]) {
		/* its range is the schema's rule */
		g->capacity_at = mark_of(v[CAPACITY]);
		get_u32(c, v[CAPACITY], "capacity", &g->capacity);
	}
	if (!v[INDEXES])
		return;
	g->indexes_at = mark_of(v[INDEXES]);
	/* At least one (a table without indexes is a scalar group); the
	 * schema's limit is checked with the rest of the schema. */
	items = get_seq(c, v[INDEXES], "indexes", 1, SIZE_MAX, &n);
	g->indexes = xcalloc(n ? n : 1, sizeof(*g->indexes));
	for (i = 0; i < n; i++) {
		struct m_index *x = &g->indexes[g->n_indexes];
		yaml_node_t *in = node_get(c, items[i]);
		bool has_type = false, ok = parse_index(c, in, x, &has_type);

		if (has_type && !typed)
			typed = xstrdup(x->name ? x->name : "");
		if (!ok) {
			free(x->name);
			memset(x, 0, sizeof(*x));
			continue;
		}
		g->n_indexes++;
	}
	if (n)
		check_table_rows(c, t, v[ROWS], v[CAPACITY], g, typed);
	free(typed);
}

static bool
parse_counter(struct loader *c, yaml_node_t *cn, struct m_group *g,
	      struct m_counter *k)
{
	enum { NAME, OID, TYPE, UNITS, DESCR, SET, BOUNDS, LOG2, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "type", true },
		{ "units", false }, { "description", true }, { "set", false },
		{ "bounds", false }, { "log2", false },
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
	ok &= parse_counter_kind(c, v[TYPE], v[BOUNDS], v[LOG2], k);
	if (v[UNITS]) {
		k->units_at = mark_of(v[UNITS]);
		k->units = get_text(c, v[UNITS], "units", GEN_MAX_DESCRIPTION);
	} else {
		k->units = xstrdup("");
	}
	if (v[DESCR])
		k->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[SET]) {
		bool set_ok = get_bool(c, v[SET], "set", &k->set);

		ok &= set_ok;
		if (set_ok && k->set && k->type &&
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

/* The counters of group g: false when they cannot be read. */
static bool
parse_counters(struct loader *c, yaml_node_t *seq, struct m_group *g)
{
	yaml_node_item_t *items;
	size_t n, i;
	bool ok = true;

	g->counters_at = mark_of(seq);
	/* How many is the schema's rule, checked with the rest of it. */
	items = get_seq(c, seq, "counters", 0, SIZE_MAX, &n);
	if (seq->type != YAML_SEQUENCE_NODE)
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
	return ok;
}

/*
 * A group has counters, states or both. Storage is where counters live:
 * a group with counters needs it, a group of states only has none.
 */
static bool
check_group_kind(struct loader *c, yaml_node_t *gn, yaml_node_t *storage, yaml_node_t *counters,
		 yaml_node_t *states)
{
	if (!counters && !states) {
		err(c, gn, "missing key `counters` or `states` in group");
		return false;
	}
	if (counters && !storage) {
		err(c, gn, "missing key `storage` in group");
		return false;
	}
	if (!counters && storage) {
		err(c, storage, "`storage` is only for groups with counters: a group of "
				"states only has none");
		return false;
	}
	return true;
}

static bool
parse_group(struct loader *c, yaml_node_t *gn, struct m_group *g)
{
	enum { NAME, OID, STORAGE, DESCR, TABLE, COUNTERS, STATES, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "storage", false },
		{ "description", true }, { "table", false }, { "counters", false },
		{ "states", false },
	};
	yaml_node_t *v[N];
	uint32_t s;
	bool ok = true, have_arc = false, kind_ok;

	if (!get_keys(c, gn, "group", keys, N, v))
		return false;
	kind_ok = check_group_kind(c, gn, v[STORAGE], v[COUNTERS], v[STATES]);
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
	if (kind_ok && v[STORAGE] &&
	    get_word(c, v[STORAGE], "storage", fastmib_storage_word, &s))
		g->storage = s;
	if (v[DESCR])
		g->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[TABLE]) {
		unsigned before = c->errors;

		parse_table(c, v[TABLE], g);
		ok = c->errors == before;
	}
	if (v[COUNTERS])
		ok &= parse_counters(c, v[COUNTERS], g);
	if (v[STATES]) {
		unsigned before = c->errors;

		parse_states(c, v[STATES], g);
		ok &= c->errors == before;
	}
	return ok && kind_ok && g->name && have_arc && (g->storage || !v[COUNTERS]) &&
	       g->description;
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
