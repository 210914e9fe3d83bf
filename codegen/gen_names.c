/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated names of a model: the enumeration, and the check that
 * every MIB name fits the SMI limit and that no two model objects map to
 * one generated name (group `port` counter `queueRx` and group
 * `portQueue` counter `rx` would both give epPortQueueRx).
 */
#include "gen_names.h"

#include <stdlib.h>
#include <string.h>

#include "yaml_access.h"
#include "single_names.h"
#include "state_names.h"
#include "strbuf.h"

static const enum fastmib_name_role module_roles[] = {
	FASTMIB_MIB_ROOT, FASTMIB_MIB_OBJECTS, FASTMIB_MIB_CONTROL,
	FASTMIB_MIB_CONFORMANCE, FASTMIB_MIB_RESET_ALL, FASTMIB_MIB_DISCONTINUITY,
	FASTMIB_MIB_WRITER_STATUS, FASTMIB_MIB_BEST_EFFORT, FASTMIB_MIB_OUT_OF_RANGE,
	FASTMIB_MIB_COMPLIANCES, FASTMIB_MIB_GROUPS, FASTMIB_MIB_COMPLIANCE,
	FASTMIB_MIB_CONTROL_GROUP,
	FASTMIB_C_HEADER_GUARD, FASTMIB_C_ALIGNED_64, FASTMIB_C_STATIC_ASSERT,
	FASTMIB_C_PERCORE_SIZE, FASTMIB_C_SHARED_SIZE, FASTMIB_C_SCHEMA_HASH,
	FASTMIB_C_SCHEMA, FASTMIB_C_GROUPS, FASTMIB_C_CREATE, FASTMIB_C_ATTACH,
	FASTMIB_C_PERCORE_STRUCT, FASTMIB_C_SHARED_STRUCT,
	FASTMIB_C_TX_STRUCT, FASTMIB_C_TX_BEGIN, FASTMIB_C_TX_END,
	FASTMIB_C_TX_PREPARE, FASTMIB_C_TX_OPEN,
};

/* The event log's names, in models with events. */
static const enum fastmib_name_role event_log_roles[] = {
	FASTMIB_MIB_EVENTS, FASTMIB_MIB_EVENT_NOTIFICATIONS, FASTMIB_MIB_EVENT_TABLE,
	FASTMIB_MIB_EVENT_ENTRY, FASTMIB_MIB_EVENT_NUMBER, FASTMIB_MIB_EVENT_NAME,
	FASTMIB_MIB_EVENT_ID, FASTMIB_MIB_EVENT_TIME, FASTMIB_MIB_EVENT_LCORE,
	FASTMIB_MIB_EVENT_LAG_CYCLES, FASTMIB_MIB_EVENT_LAG_NS,
	FASTMIB_MIB_EVENT_ARG1, FASTMIB_MIB_EVENT_ARG2, FASTMIB_MIB_EVENT_ARG3,
	FASTMIB_MIB_EVENT_ARG4, FASTMIB_MIB_EVENT_STATS_TABLE,
	FASTMIB_MIB_EVENT_STATS_ENTRY, FASTMIB_MIB_EVENT_STATS_ID,
	FASTMIB_MIB_EVENT_STATS_NAME, FASTMIB_MIB_EVENT_STATS_LOGGED,
	FASTMIB_MIB_EVENT_STATS_DROPPED, FASTMIB_MIB_EVENT_GROUP,
	FASTMIB_MIB_EVENT_NOTIFICATION_GROUP,
	FASTMIB_MIB_TYPE_EVENT_ENTRY, FASTMIB_MIB_TYPE_EVENT_STATS_ENTRY,
	FASTMIB_MIB_TYPE_UNSIGNED64,
	FASTMIB_C_N_EVENTS, FASTMIB_C_EVENTS,
};

static const enum fastmib_name_role table_roles[] = {
	FASTMIB_MIB_TABLE, FASTMIB_MIB_ENTRY, FASTMIB_MIB_TYPE_ENTRY,
	FASTMIB_C_ROWS, FASTMIB_C_ROW_CHECKED_FN, FASTMIB_C_TX_ROW_FN,
	FASTMIB_C_REF_STRUCT,
};

/* A table of integer indexes numbers its rows from them. */
static const enum fastmib_name_role dense_roles[] = { FASTMIB_C_ROW_FN };

/* A keyed table's rows come from its keys. */
static const enum fastmib_name_role keyed_roles[] = {
	FASTMIB_C_KEY_STRUCT, FASTMIB_C_KEY_SIZE, FASTMIB_C_KEY_INSERT, FASTMIB_C_KEY_FIND,
	FASTMIB_C_KEY_REMOVE,
};

static const enum fastmib_name_role group_roles[] = {
	FASTMIB_MIB_RESET, FASTMIB_MIB_GROUP_DISCONTINUITY, FASTMIB_MIB_OBJECT_GROUP,
	FASTMIB_C_GROUP_ID, FASTMIB_C_OFFSET, FASTMIB_C_ROW_SIZE, FASTMIB_C_COUNTERS,
	FASTMIB_C_ROW_STRUCT,
};

/* Of the names above, those of a group's counters: a group of states
 * only has none of them. */
static const enum fastmib_name_role counter_roles[] = {
	FASTMIB_C_ROW_CHECKED_FN, FASTMIB_C_TX_ROW_FN, FASTMIB_C_REF_STRUCT, FASTMIB_MIB_RESET,
	FASTMIB_MIB_GROUP_DISCONTINUITY, FASTMIB_C_OFFSET, FASTMIB_C_ROW_SIZE, FASTMIB_C_COUNTERS,
	FASTMIB_C_ROW_STRUCT,
};

/* The names of a group's states, and of each state. */
static const enum state_name_role group_state_roles[] = {
	SN_C_STATE_STRUCT, SN_C_STATE_SIZE, SN_C_STATE_SET, SN_C_STATE_GET, SN_C_STATES,
	SN_C_STATE_DEFAULT,
};

/* The state notifications' names, in models with a notify state. */
static const enum state_name_role state_notify_roles[] = {
	SN_MIB_NOTIFICATIONS, SN_MIB_STATE_NOTIFICATIONS, SN_MIB_STATE_NOTIFICATION_GROUP,
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct walk {
	const struct model *m;
	gen_name_fn *fn;
	void *arg;
};

static void
name(struct walk *w, enum fastmib_name_role role, const char *a, const char *b,
     struct name_owner o)
{
	char *s = gen_name(role, w->m->prefix, a, b);

	w->fn(w->arg, fastmib_name_space(role), s, &o);
	free(s);
}

static bool
counters_only(enum fastmib_name_role role)
{
	for (size_t i = 0; i < N_OF(counter_roles); i++)
		if (counter_roles[i] == role)
			return true;
	return false;
}

/* The names of `roles` of a; of a group of states only, those it has. */
static void
names(struct walk *w, const enum fastmib_name_role *roles, size_t n, const char *a,
      struct name_owner o)
{
	bool counters = o.kind != OWNER_GROUP || w->m->groups[o.group].n_counters;

	for (size_t i = 0; i < n; i++)
		if (counters || !counters_only(roles[i]))
			name(w, roles[i], a, NULL, o);
}

static void
state_name_of(struct walk *w, enum state_name_role role, const char *a, const char *b,
	      const char *c, struct name_owner o)
{
	char *s = state_name(role, w->m->prefix, a, b, c);

	w->fn(w->arg, state_name_space(role), s, &o);
	free(s);
}

/* The names of group gi's states. */
static void
state_names(struct walk *w, uint32_t gi)
{
	const struct m_group *g = &w->m->groups[gi];
	struct name_owner go = { OWNER_GROUP, gi, 0 };

	if (!g->n_states)
		return;
	for (size_t i = 0; i < N_OF(group_state_roles); i++)
		state_name_of(w, group_state_roles[i], g->name, NULL, NULL, go);
	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct m_state *s = &g->states[si];
		struct name_owner so = { OWNER_STATE, gi, si };

		state_name_of(w, SN_MIB_STATE, g->name, s->name, NULL, so);
		if (s->type == FASTMIB_STATE_INET_ADDRESS)
			state_name_of(w, SN_MIB_STATE_TYPE, g->name, s->name, NULL, so);
		if (s->notify)
			state_name_of(w, SN_MIB_STATE_CHANGE, g->name, s->name, NULL, so);
		state_name_of(w, SN_C_STATE_ONE_SET, g->name, s->name, NULL, so);
		state_name_of(w, SN_C_STATE_OFFSET, g->name, s->name, NULL, so);
		if (s->type != FASTMIB_STATE_ENUM)
			continue;
		state_name_of(w, SN_C_STATE_VALUES, g->name, s->name, NULL, so);
		for (uint32_t vi = 0; vi < s->n_values; vi++)
			state_name_of(w, SN_C_ENUM_VALUE, g->name, s->name, s->values[vi].label,
				      so);
	}
}

/* A histogram's names: its count's and sum's objects, its bucket table,
 * its C constants and functions (none of a counter's: it has no object
 * of its own name, and no _add). */
static const enum fastmib_name_role hist_roles[] = {
	FASTMIB_MIB_HIST_COUNT, FASTMIB_MIB_HIST_SUM, FASTMIB_MIB_BUCKET_TABLE,
	FASTMIB_MIB_BUCKET_ENTRY, FASTMIB_MIB_BUCKET, FASTMIB_MIB_BUCKET_LE,
	FASTMIB_MIB_BUCKET_COUNT, FASTMIB_MIB_TYPE_BUCKET_ENTRY,
	FASTMIB_C_BUCKETS, FASTMIB_C_BUCKET_FN, FASTMIB_C_BOUNDS, FASTMIB_C_OBSERVE,
	FASTMIB_C_TX_OBSERVE,
};

static void
hist_names(struct walk *w, const struct m_group *g, const struct m_counter *k,
	   struct name_owner ko)
{
	for (size_t i = 0; i < N_OF(hist_roles); i++)
		name(w, hist_roles[i], g->name, k->name, ko);
	if (g->table)
		name(w, FASTMIB_C_REF_OBSERVE, g->name, k->name, ko);
}

void
model_names(const struct model *m, gen_name_fn *fn, void *arg)
{
	struct walk w = { m, fn, arg };
	struct name_owner module = { OWNER_MODULE, 0, 0 };

	names(&w, module_roles, N_OF(module_roles), NULL, module);
	if (model_notifies(m))
		state_name_of(&w, SN_MIB_NOTIFICATIONS_DROPPED, NULL, NULL, NULL, module);
	for (size_t i = 0; model_notifies_states(m) && i < N_OF(state_notify_roles); i++)
		state_name_of(&w, state_notify_roles[i], NULL, NULL, NULL, module);
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];
		struct name_owner go = { OWNER_GROUP, gi, 0 };

		if (g->table)
			names(&w, table_roles, N_OF(table_roles), g->name, go);
		else
			name(&w, FASTMIB_MIB_SCALAR_NODE, g->name, NULL, go);
		if (g->keyed)
			names(&w, keyed_roles, N_OF(keyed_roles), g->name, go);
		else if (g->table)
			names(&w, dense_roles, N_OF(dense_roles), g->name, go);
		names(&w, group_roles, N_OF(group_roles), g->name, go);
		for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
			const struct m_index *x = &g->indexes[xi];
			struct name_owner xo = { OWNER_INDEX, gi, xi };

			name(&w, FASTMIB_MIB_INDEX, g->name, x->name, xo);
			if (x->type == FASTMIB_INDEX_INET_ADDRESS)
				name(&w, FASTMIB_MIB_INDEX_TYPE, g->name, x->name, xo);
			if (x->type == FASTMIB_INDEX_INTEGER)
				name(&w, FASTMIB_C_INDEX_MAX, g->name, x->name, xo);
			if (g->keyed)
				name(&w, FASTMIB_C_KEY_OFFSET, g->name, x->name, xo);
		}
		for (uint32_t ki = 0; ki < g->n_counters; ki++) {
			const struct m_counter *k = &g->counters[ki];
			struct name_owner ko = { OWNER_COUNTER, gi, ki };

			if (k->type == FASTMIB_HISTOGRAM) {
				hist_names(&w, g, k, ko);
				continue;
			}
			name(&w, FASTMIB_MIB_COUNTER, g->name, k->name, ko);
			if (k->type == FASTMIB_PEAK) {
				name(&w, FASTMIB_C_PEAK, g->name, k->name, ko);
				name(&w, FASTMIB_C_TX_PEAK, g->name, k->name, ko);
				if (g->table)
					name(&w, FASTMIB_C_REF_PEAK, g->name, k->name, ko);
				continue;
			}
			name(&w, FASTMIB_C_ADD, g->name, k->name, ko);
			name(&w, FASTMIB_C_TX_ADD, g->name, k->name, ko);
			if (g->table)
				name(&w, FASTMIB_C_REF_ADD, g->name, k->name, ko);
			if (k->type == FASTMIB_GAUGE32) {
				name(&w, FASTMIB_C_SUB, g->name, k->name, ko);
				name(&w, FASTMIB_C_TX_SUB, g->name, k->name, ko);
				if (g->table)
					name(&w, FASTMIB_C_REF_SUB, g->name, k->name, ko);
			}
			if (k->set) {
				name(&w, FASTMIB_C_SET, g->name, k->name, ko);
				name(&w, FASTMIB_C_TX_SET, g->name, k->name, ko);
				if (g->table)
					name(&w, FASTMIB_C_REF_SET, g->name, k->name, ko);
			}
		}
		state_names(&w, gi);
	}
	if (m->n_events == 0)
		return;
	names(&w, event_log_roles, N_OF(event_log_roles), NULL, module);
	for (uint32_t ei = 0; ei < m->n_events; ei++) {
		const struct m_event *e = &m->events[ei];
		struct name_owner eo = { OWNER_EVENT, 0, ei };

		if (e->notify)
			name(&w, FASTMIB_MIB_NOTIFICATION, e->name, NULL, eo);
		name(&w, FASTMIB_C_EVENT_ID, e->name, NULL, eo);
		name(&w, FASTMIB_C_EVENT_FN, e->name, NULL, eo);
	}
}

void
owner_describe(const struct model *m, const struct name_owner *o, struct strbuf *out)
{
	const struct m_group *g = o->kind == OWNER_MODULE || o->kind == OWNER_EVENT ?
				  NULL : &m->groups[o->group];

	switch (o->kind) {
	case OWNER_MODULE:
		sb_puts(out, "the module");
		break;
	case OWNER_GROUP:
		sb_printf(out, "group `%s`", g->name);
		break;
	case OWNER_INDEX:
		sb_printf(out, "index `%s` of group `%s`", g->indexes[o->item].name,
			  g->name);
		break;
	case OWNER_COUNTER:
		sb_printf(out, "%s `%s` of group `%s`",
			  g->counters[o->item].type == FASTMIB_HISTOGRAM ? "histogram" :
			  g->counters[o->item].type == FASTMIB_PEAK ? "peak" : "counter",
			  g->counters[o->item].name, g->name);
		break;
	case OWNER_STATE:
		sb_printf(out, "state `%s` of group `%s`", g->states[o->item].name, g->name);
		break;
	case OWNER_EVENT:
		sb_printf(out, "event `%s`", m->events[o->item].name);
		break;
	}
}

struct mark
owner_mark(const struct model *m, const struct name_owner *o)
{
	switch (o->kind) {
	case OWNER_GROUP:
		return m->groups[o->group].name_at;
	case OWNER_INDEX:
		return m->groups[o->group].indexes[o->item].at;
	case OWNER_COUNTER:
		return m->groups[o->group].counters[o->item].name_at;
	case OWNER_STATE:
		return m->groups[o->group].states[o->item].name_at;
	case OWNER_EVENT:
		return m->events[o->item].name_at;
	case OWNER_MODULE:
		break;
	}
	return m->prefix_at;
}

/* ---- the check ---- */

static const char *const space_label[] = {
	[FASTMIB_NS_MIB] = "MIB descriptor",
	[FASTMIB_NS_MIB_TYPE] = "MIB type name",
	[FASTMIB_NS_C_MACRO] = "C macro",
	[FASTMIB_NS_C_ORDINARY] = "C identifier",
	[FASTMIB_NS_C_TAG] = "C struct tag",
};

struct taken {
	char *name;
	enum fastmib_name_space space;
	struct mark at;
	struct name_owner owner;
};

struct check {
	struct loader *c;
	const struct model *m;
	struct taken *v;
	size_t n, cap;
};

/* MIB names must fit the SMI limit; every name is kept for the clash test. */
static void
take(void *arg, enum fastmib_name_space space, const char *name, const struct name_owner *o)
{
	struct check *k = arg;
	struct mark at = owner_mark(k->m, o);

	if ((space == FASTMIB_NS_MIB || space == FASTMIB_NS_MIB_TYPE) &&
	    strlen(name) > FASTMIB_MAX_NAME) {
		struct strbuf what;

		sb_init(&what);
		owner_describe(k->m, o, &what);
		err_at(k->c, at, "generated %s `%s` for %s is %zu characters long; "
				 "the limit is %d: shorten the names",
		       space_label[space], name, what.data, strlen(name), FASTMIB_MAX_NAME);
		sb_free(&what);
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 256;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	k->v[k->n++] = (struct taken){ xstrdup(name), space, at, *o };
}

static int
cmp_taken(const void *a, const void *b)
{
	const struct taken *x = a, *y = b;
	int r;

	if (x->space != y->space)
		return (int)x->space - (int)y->space;
	r = strcmp(x->name, y->name);
	if (r)
		return r;
	if (x->at.line != y->at.line)
		return x->at.line < y->at.line ? -1 : 1;
	return x->at.col < y->at.col ? -1 : x->at.col > y->at.col;
}

void
check_names(struct loader *c, struct model *m)
{
	struct check k = { c, m, NULL, 0, 0 };

	model_names(m, take, &k);
	qsort(k.v, k.n, sizeof(*k.v), cmp_taken);
	for (size_t i = 1; i < k.n; i++) {
		const struct taken *a = &k.v[i - 1], *b = &k.v[i];
		struct strbuf wa, wb;

		if (a->space != b->space || strcmp(a->name, b->name) != 0)
			continue;
		sb_init(&wa);
		sb_init(&wb);
		owner_describe(m, &a->owner, &wa);
		owner_describe(m, &b->owner, &wb);
		err_at(c, b->at, "generated %s `%s` of %s clashes with the one of %s "
				 "(line %u): rename one of them",
		       space_label[b->space], b->name, wb.data, wa.data, a->at.line);
		sb_free(&wa);
		sb_free(&wb);
	}
	for (size_t i = 0; i < k.n; i++)
		free(k.v[i].name);
	free(k.v);
}

/* ---- fastmib-gen --names ---- */

static const char *const space_word[] = {
	[FASTMIB_NS_MIB] = "mib",
	[FASTMIB_NS_MIB_TYPE] = "mib-type",
	[FASTMIB_NS_C_MACRO] = "c-macro",
	[FASTMIB_NS_C_ORDINARY] = "c-identifier",
	[FASTMIB_NS_C_TAG] = "c-tag",
};

struct printing {
	const struct model *m;
	FILE *f;
};

static void
print_one(void *arg, enum fastmib_name_space space, const char *name,
	  const struct name_owner *o)
{
	struct printing *p = arg;
	struct strbuf what;

	sb_init(&what);
	owner_describe(p->m, o, &what);
	fprintf(p->f, "%s\t%s\t%s\n", space_word[space], name, what.data);
	sb_free(&what);
}

void
print_names(const struct model *m, FILE *f)
{
	struct printing p = { m, f };

	model_names(m, print_one, &p);
}
