/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model as a fastmib schema: built once, laid out and checked by the
 * format library (the owner of the schema rules and the data layout), and
 * emitted as <prefix>_schema.c. A fault of the check is reported at the
 * YAML position of the node it is about, in the model's words.
 */
#include "model_schema.h"

#include <stdlib.h>
#include <string.h>

#include "model_hist.h"
#include "model_state_faults.h"
#include "strbuf.h"

static void
build(struct model *m)
{
	struct fastmib_schema *s = &m->schema;
	uint32_t n_counters = 0, ci = 0, n_states = 0, si = 0;

	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		n_counters += m->groups[gi].n_counters;
		n_states += m->groups[gi].n_states;
	}
	m->schema_groups = xcalloc(m->n_groups ? m->n_groups : 1, sizeof(*m->schema_groups));
	m->schema_counters = xcalloc(n_counters ? n_counters : 1, sizeof(*m->schema_counters));
	m->schema_states = xcalloc(n_states ? n_states : 1, sizeof(*m->schema_states));
	m->schema_events = xcalloc(m->n_events ? m->n_events : 1, sizeof(*m->schema_events));

	memset(s, 0, sizeof(*s));
	s->version = FASTMIB_MODEL_VERSION;
	s->module = m->module;
	s->prefix = m->prefix;
	s->oid_len = m->oid_len;
	memcpy(s->oid, m->oid, sizeof(s->oid));
	s->n_groups = m->n_groups;
	s->groups = m->schema_groups;
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];
		struct fastmib_group_schema *sg = &m->schema_groups[gi];
		uint64_t rows = 1;

		sg->name = g->name;
		sg->description = g->description;
		sg->arc = g->arc;
		sg->storage = g->storage;
		sg->n_indexes = g->n_indexes;
		sg->all_rows = g->table && g->all_rows;
		for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
			const struct m_index *x = &g->indexes[xi];

			if (xi < FASTMIB_MAX_INDEXES)
				sg->indexes[xi] = (struct fastmib_index_schema){
					x->name, x->max, x->type, x->size };
			/* beyond 2^32 rows, the check has its say anyway */
			if (rows <= UINT32_MAX)
				rows *= x->max;
		}
		/* a keyed table's rows: its capacity */
		sg->n_rows = g->keyed ? g->capacity
				      : rows <= UINT32_MAX ? (uint32_t)rows : UINT32_MAX;
		sg->n_counters = g->n_counters;
		sg->counters = &m->schema_counters[ci];
		for (uint32_t ki = 0; ki < g->n_counters; ki++, ci++) {
			const struct m_counter *k = &g->counters[ki];

			m->schema_counters[ci] = (struct fastmib_counter_schema){
				.name = k->name, .units = k->units,
				.description = k->description, .arc = k->arc,
				.type = k->type, .n_bounds = k->n_bounds, .log2 = k->log2,
				.bounds = k->bounds,
			};
		}
		sg->n_states = g->n_states;
		sg->states = g->n_states ? &m->schema_states[si] : NULL;
		for (uint32_t i = 0; i < g->n_states; i++, si++) {
			const struct m_state *st = &g->states[i];

			m->schema_states[si] = (struct fastmib_state_schema){
				.name = st->name, .units = st->units,
				.description = st->description, .arc = st->arc,
				.type = st->type, .size = st->size, .notify = st->notify,
				.has_range = st->has_range, .lo = st->lo, .hi = st->hi,
				.n_values = st->n_values, .values = st->values, .def = st->def,
			};
		}
	}
	s->n_events = m->n_events;
	s->events = m->n_events ? m->schema_events : NULL;
	for (uint32_t ei = 0; ei < m->n_events; ei++) {
		const struct m_event *e = &m->events[ei];
		struct fastmib_event_schema *se = &m->schema_events[ei];

		se->name = e->name;
		se->description = e->description;
		se->arc = e->arc;
		se->level = e->level;
		se->rate = e->rate;
		se->notify = e->notify;
		se->n_args = e->n_args;
		for (uint32_t ai = 0; ai < e->n_args && ai < FASTMIB_MAX_EVENT_ARGS; ai++) {
			se->args[ai] = e->args[ai].name;
			se->arg_types[ai] = e->args[ai].type;
		}
	}
	fastmib_schema_lay_out(s);
}

/* ---- faults, in the model's words ---- */

struct fault_msg {
	struct mark at;
	unsigned order;     /* detection order, for equal positions */
	char *text;
};

struct faults {
	struct model *m;
	struct fault_msg *v;
	size_t n, cap;
};

/* The model key of a numeric or sequence field, as the user wrote it. */
static const char *
key_of(enum fastmib_schema_field f)
{
	switch (f) {
	case FASTMIB_FIELD_ARC:
		return "oid";
	case FASTMIB_FIELD_MAX:
		return "max";
	case FASTMIB_FIELD_SIZE:
		return "size";
	case FASTMIB_FIELD_LEVEL:
		return "level";
	case FASTMIB_FIELD_RATE:
		return "rate";
	case FASTMIB_FIELD_GROUPS:
		return "groups";
	case FASTMIB_FIELD_EVENTS:
		return "events";
	case FASTMIB_FIELD_COUNTERS:
		return "counters";
	case FASTMIB_FIELD_INDEXES:
		return "indexes";
	case FASTMIB_FIELD_ARGS:
		return "args";
	case FASTMIB_FIELD_UNITS:
		return "units";
	case FASTMIB_FIELD_STATES:
		return "states";
	case FASTMIB_FIELD_VALUES:
		return "values";
	default:
		return NULL;
	}
}

/* Where in the file: the node of the field when the model kept it, else
 * the object. */
static struct mark
fault_mark(const struct model *m, const struct fastmib_schema_fault *f)
{
	const struct m_group *g = f->object == FASTMIB_OBJ_GROUP ||
				  f->object == FASTMIB_OBJ_COUNTER ||
				  f->object == FASTMIB_OBJ_INDEX ? &m->groups[f->group] : NULL;
	const struct m_event *e = f->object == FASTMIB_OBJ_EVENT ||
				  f->object == FASTMIB_OBJ_ARG ? &m->events[f->event] : NULL;

	switch (f->object) {
	case FASTMIB_OBJ_SCHEMA:
		if (f->field == FASTMIB_FIELD_MODULE)
			return m->module_at;
		if (f->field == FASTMIB_FIELD_OID)
			return m->oid_at;
		if (f->field == FASTMIB_FIELD_GROUPS)
			return m->groups_at;
		if (f->field == FASTMIB_FIELD_EVENTS)
			return m->events_at;
		return m->prefix_at;
	case FASTMIB_OBJ_GROUP:
		if (f->problem == FASTMIB_BAD_DUPLICATE && f->field == FASTMIB_FIELD_ARC)
			return g->at;
		if (f->field == FASTMIB_FIELD_ARC)
			return g->arc_at;
		if (f->field == FASTMIB_FIELD_INDEXES)
			return g->indexes_at;
		if (f->field == FASTMIB_FIELD_COUNTERS)
			return g->counters_at.line ? g->counters_at : g->states_at;
		if (f->field == FASTMIB_FIELD_STATES)
			return g->states_at;
		if (f->field == FASTMIB_FIELD_N_ROWS && g->keyed)
			return g->capacity_at;
		return g->name_at;
	case FASTMIB_OBJ_COUNTER: {
		const struct m_counter *k = &g->counters[f->counter];

		if (f->problem == FASTMIB_BAD_DUPLICATE && f->field == FASTMIB_FIELD_ARC)
			return k->at;
		if (f->field == FASTMIB_FIELD_ARC)
			return k->arc_at;
		if (f->field == FASTMIB_FIELD_UNITS)
			return k->units_at;
		if (f->field == FASTMIB_FIELD_NAME)
			return k->name_at;
		return k->at;
	}
	case FASTMIB_OBJ_INDEX: {
		const struct m_index *x = &g->indexes[f->index];

		if (f->field == FASTMIB_FIELD_MAX)
			return x->max_at;
		if (f->field == FASTMIB_FIELD_SIZE)
			return x->size_at;
		if (f->field == FASTMIB_FIELD_INDEX_TYPE)
			return x->type_at;
		if (f->field == FASTMIB_FIELD_NAME)
			return x->name_at;
		return x->at;
	}
	case FASTMIB_OBJ_EVENT:
		if (f->problem == FASTMIB_BAD_DUPLICATE && f->field == FASTMIB_FIELD_ARC)
			return e->at;
		if (f->field == FASTMIB_FIELD_ARC)
			return e->arc_at;
		if (f->field == FASTMIB_FIELD_LEVEL)
			return e->level_at;
		if (f->field == FASTMIB_FIELD_RATE)
			return e->rate_at;
		if (f->field == FASTMIB_FIELD_ARGS)
			return e->args_at;
		if (f->field == FASTMIB_FIELD_NAME)
			return e->name_at;
		return e->at;
	case FASTMIB_OBJ_ARG:
		if (f->field == FASTMIB_FIELD_NAME)
			return e->args[f->arg].name_at;
		return e->args[f->arg].at;
	case FASTMIB_OBJ_STATE:
		return state_fault_mark(m, f);
	}
	return m->prefix_at;
}

/* Name and position of the earlier object a duplicate repeats. */
static void
first_of(const struct model *m, const struct fastmib_schema_fault *f, const char **name,
	 struct mark *at, struct mark *name_at)
{
	switch (f->object) {
	case FASTMIB_OBJ_GROUP:
		*name = m->groups[f->first].name;
		*at = m->groups[f->first].at;
		*name_at = m->groups[f->first].name_at;
		return;
	case FASTMIB_OBJ_COUNTER: {
		const struct m_counter *k = &m->groups[f->group].counters[f->first];

		*name = k->name;
		*at = k->at;
		*name_at = k->name_at;
		return;
	}
	case FASTMIB_OBJ_EVENT:
		*name = m->events[f->first].name;
		*at = m->events[f->first].at;
		*name_at = m->events[f->first].name_at;
		return;
	default:
		*name = "";
		*at = *name_at = (struct mark){ 0, 0 };
	}
}

static const char *
object_name(const struct model *m, const struct fastmib_schema_fault *f)
{
	switch (f->object) {
	case FASTMIB_OBJ_GROUP:
		return m->groups[f->group].name;
	case FASTMIB_OBJ_COUNTER:
		return m->groups[f->group].counters[f->counter].name;
	case FASTMIB_OBJ_INDEX:
		return m->groups[f->group].indexes[f->index].name;
	case FASTMIB_OBJ_EVENT:
		return m->events[f->event].name;
	case FASTMIB_OBJ_ARG:
		return m->events[f->event].args[f->arg].name;
	case FASTMIB_OBJ_STATE:
		return m->groups[f->group].states[f->state].name;
	case FASTMIB_OBJ_SCHEMA:
		break;
	}
	return m->module;
}

static void
duplicate_text(const struct model *m, const struct fastmib_schema_fault *f, struct strbuf *t)
{
	static const char *const kind[] = {
		[FASTMIB_OBJ_GROUP] = "group", [FASTMIB_OBJ_COUNTER] = "counter",
		[FASTMIB_OBJ_EVENT] = "event",
	};
	const char *in = f->object == FASTMIB_OBJ_COUNTER ? " in group" : "";
	const char *first_name;
	struct mark at, name_at;

	if (f->object == FASTMIB_OBJ_INDEX) {
		sb_printf(t, "duplicate index `name` `%s` in table",
			  m->groups[f->group].indexes[f->index].name);
		return;
	}
	if (f->object == FASTMIB_OBJ_ARG) {
		sb_printf(t, "duplicate argument `name` `%s` in event",
			  m->events[f->event].args[f->arg].name);
		return;
	}
	first_of(m, f, &first_name, &at, &name_at);
	if (f->field == FASTMIB_FIELD_NAME)
		sb_printf(t, "duplicate %s name `%s`%s (first at line %u)", kind[f->object],
			  first_name, in, name_at.line);
	else if (f->field == FASTMIB_FIELD_ARC)
		sb_printf(t, "duplicate %s oid %llu%s (`%s` at line %u has it)",
			  kind[f->object], (unsigned long long)f->value, in, first_name,
			  at.line);
	else
		sb_puts(t, f->message);
}

/* The message of a fault in the model's words; the library's otherwise. */
static void
fault_text(const struct model *m, const struct fastmib_schema_fault *f, struct strbuf *t)
{
	const char *key = key_of(f->field);
	unsigned long long v = f->value, lo = f->lo, hi = f->hi;

	if (f->object == FASTMIB_OBJ_STATE && state_fault_text(m, f, t)) {
		/* in the words of states */
	} else if (f->field == FASTMIB_FIELD_OID && f->problem == FASTMIB_BAD_RANGE) {
		sb_printf(t, "module `oid` `%s`: the first arc must be 0..2, the second "
			     "0..39 under 0 and 1", m->oid_text);
	} else if (f->field == FASTMIB_FIELD_OID) {
		sb_printf(t, "module `oid` `%s` must be a dotted numeric OID of 2..%d arcs, "
			     "such as 1.3.6.1.4.1.8072.9999.42", m->oid_text, FASTMIB_MAX_OID_LEN);
	} else if (f->problem == FASTMIB_BAD_DUPLICATE) {
		duplicate_text(m, f, t);
	} else if (f->problem == FASTMIB_BAD_AREA) {
		sb_printf(t, "group `%s` makes the %s storage area %llu bytes; the limit is %llu",
			  m->groups[f->group].name,
			  f->field == FASTMIB_FIELD_SHARED_SIZE ? "shared" : "per-core", v, hi);
	} else if (f->field == FASTMIB_FIELD_INDEXES && f->problem == FASTMIB_BAD_RANGE &&
		   f->hi == FASTMIB_MAX_ROWS) {
		sb_printf(t, "table has more than %llu rows (product of the index `max` "
			     "values); the limit is %llu", hi, hi);
	} else if (f->field == FASTMIB_FIELD_INDEXES && f->problem == FASTMIB_BAD_RANGE &&
		   f->hi == FASTMIB_MAX_INSTANCE_OID) {
		sb_printf(t, "the instance OIDs of this table take up to %llu sub-identifiers "
			     "(the module `oid`, 4 arcs and the longest index%s); SNMP allows "
			     "%llu: give string indexes a smaller `size`, or the module a "
			     "shorter `oid`", v,
			  group_has_counter_type(&m->groups[f->group], FASTMIB_HISTOGRAM) ?
			  ", and a histogram's bucket number" : "", hi);
	} else if (f->field == FASTMIB_FIELD_N_ROWS && f->problem == FASTMIB_BAD_RANGE &&
		   m->groups[f->group].keyed) {
		sb_printf(t, "`capacity` must be in %llu..%llu, not %llu", lo, hi, v);
	} else if (f->field == FASTMIB_FIELD_COUNTERS && f->problem == FASTMIB_BAD_COUNT &&
		   v < lo && !m->groups[f->group].counters_at.line) {
		sb_puts(t, "`states` must have at least 1 entry in a group without counters");
	} else if (f->problem == FASTMIB_BAD_LENGTH && f->field == FASTMIB_FIELD_MODULE) {
		sb_printf(t, "module `name` `%s` is longer than %llu characters", m->module, hi);
	} else if (f->problem == FASTMIB_BAD_LENGTH && f->field == FASTMIB_FIELD_NAME) {
		sb_printf(t, "`name` `%s` is longer than %llu characters", object_name(m, f), hi);
	} else if (f->problem == FASTMIB_BAD_LENGTH && key) {
		sb_printf(t, "`%s` is %llu characters long; the limit is %llu", key, v, hi);
	} else if (f->problem == FASTMIB_BAD_RANGE && key) {
		sb_printf(t, "`%s` must be in %llu..%llu, not %llu", key, lo, hi, v);
	} else if (f->problem == FASTMIB_BAD_COUNT && key && v < lo) {
		sb_printf(t, "`%s` must have at least %llu entr%s", key, lo, lo == 1 ? "y" : "ies");
	} else if (f->problem == FASTMIB_BAD_COUNT && key) {
		sb_printf(t, "`%s` has %llu entries; the limit is %llu", key, v, hi);
	} else {
		sb_puts(t, f->message);
	}
}

static int
collect(void *arg, const struct fastmib_schema_fault *f)
{
	struct faults *fs = arg;
	struct strbuf t;
	struct mark at;

	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 16;
		fs->v = xrealloc(fs->v, fs->cap * sizeof(*fs->v));
	}
	sb_init(&t);
	/* histograms and peaks: in their words, at their nodes */
	if (!hist_fault(fs->m, f, &at, &t)) {
		fault_text(fs->m, f, &t);
		at = fault_mark(fs->m, f);
	}
	fs->v[fs->n] = (struct fault_msg){ at, (unsigned)fs->n, sb_take(&t) };
	fs->n++;
	return 0;
}

static int
cmp_fault(const void *a, const void *b)
{
	const struct fault_msg *x = a, *y = b;

	if (x->at.line != y->at.line)
		return x->at.line < y->at.line ? -1 : 1;
	if (x->at.col != y->at.col)
		return x->at.col < y->at.col ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void
build_schema(struct loader *c, struct model *m)
{
	struct faults fs = { m, NULL, 0, 0 };

	build(m);
	fastmib_schema_check(&m->schema, collect, &fs);
	/* In file order, as the parser reports its own errors (qsort() must
	 * not be given the NULL of an empty list). */
	if (fs.n > 1)
		qsort(fs.v, fs.n, sizeof(*fs.v), cmp_fault);
	for (size_t i = 0; i < fs.n; i++) {
		err_at(c, fs.v[i].at, "%s", fs.v[i].text);
		free(fs.v[i].text);
	}
	free(fs.v);
	if (c->errors)
		return;
	/* What the emitters of the header read: the schema's layout. */
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		struct m_group *g = &m->groups[gi];
		const struct fastmib_group_schema *sg = &m->schema.groups[gi];

		g->n_rows = sg->n_rows;
		g->row_size = sg->row_size;
		g->offset = sg->offset;
		for (uint32_t ki = 0; ki < g->n_counters; ki++)
			g->counters[ki].offset = sg->counters[ki].offset;
		for (uint32_t si = 0; si < g->n_states; si++)
			g->states[si].offset = sg->states[si].offset;
		g->state_size = sg->state_size;
	}
	m->percore_size = m->schema.percore_size;
	m->shared_size = m->schema.shared_size;
	m->schema.hash = fastmib_schema_hash(&m->schema);
}

void
schema_free(struct model *m)
{
	free(m->schema_groups);
	free(m->schema_counters);
	free(m->schema_states);
	free(m->schema_events);
	memset(&m->schema, 0, sizeof(m->schema));
	m->schema_groups = NULL;
	m->schema_counters = NULL;
	m->schema_states = NULL;
	m->schema_events = NULL;
}
