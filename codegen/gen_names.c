/* SPDX-License-Identifier: BSD-3-Clause */
/* Names the generator will emit: length limits and collisions. */
#include "model_load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "strbuf.h"

enum name_space { NS_MIB, NS_MIB_TYPE, NS_C_MACRO, NS_C_ORDINARY, NS_C_TAG };

struct gen_name {
	char *name;
	enum name_space ns;
	struct mark at;
	const char *what;   /* model object that produced it */
};

struct names {
	struct gen_name *v;
	size_t n, cap;
};

static const char *const ns_label[] = {
	"MIB descriptor", "MIB type name", "C macro", "C identifier", "C struct tag",
};

/* Register a generated name (takes ownership); MIB names must fit 64. */
static void
add_name(struct loader *c, struct names *ns, enum name_space space, char *name,
	 struct mark at, const char *what)
{
	if ((space == NS_MIB || space == NS_MIB_TYPE) &&
	    strlen(name) > FASTMIB_MAX_NAME)
		err_at(c, at, "generated %s `%s` for %s is %zu characters long; "
			      "the limit is %d: shorten the names",
		       ns_label[space], name, what, strlen(name), FASTMIB_MAX_NAME);
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 256;
		ns->v = xrealloc(ns->v, ns->cap * sizeof(*ns->v));
	}
	ns->v[ns->n].name = name;
	ns->v[ns->n].ns = space;
	ns->v[ns->n].at = at;
	ns->v[ns->n].what = what;
	ns->n++;
}

static int
cmp_name(const void *a, const void *b)
{
	const struct gen_name *x = a, *y = b;
	int r;

	if (x->ns != y->ns)
		return (int)x->ns - (int)y->ns;
	r = strcmp(x->name, y->name);
	if (r)
		return r;
	if (x->at.line != y->at.line)
		return x->at.line < y->at.line ? -1 : 1;
	return x->at.col < y->at.col ? -1 : x->at.col > y->at.col;
}

static char *__attribute__((format(printf, 1, 2)))
fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* Names of the event log objects; only models with events have them. */
static void
event_names(struct loader *c, struct model *m, struct names *ns, char **whats,
	    size_t *n_whats)
{
	static const char *const module_mib[] = {
		"Events", "EventNotifications", "EventTable", "EventEntry",
		"EventNumber", "EventName", "EventId", "EventTime", "EventLcore",
		"EventLagCycles", "EventLagNs", "EventArg1", "EventArg2",
		"EventArg3", "EventArg4", "EventStatsTable", "EventStatsEntry",
		"EventStatsId", "EventStatsName", "EventStatsLogged",
		"EventStatsDropped", "EventGroup", "EventNotificationGroup",
	};
	static const char *const module_types[] = {
		"EventEntry", "EventStatsEntry", "Unsigned64",
	};
	const char *p = m->prefix;
	char *P = name_upper(p);
	const char *mod = whats[0];
	size_t i;

	for (i = 0; i < sizeof(module_mib) / sizeof(module_mib[0]); i++)
		add_name(c, ns, NS_MIB, name_join(p, module_mib[i], NULL),
			 m->prefix_at, mod);
	for (i = 0; i < sizeof(module_types) / sizeof(module_types[0]); i++)
		add_name(c, ns, NS_MIB_TYPE, name_join("", p, module_types[i], NULL),
			 m->prefix_at, mod);
	add_name(c, ns, NS_C_MACRO, fmt("%s_N_EVENTS", P), m->prefix_at, mod);
	add_name(c, ns, NS_C_ORDINARY, fmt("%s_events", p), m->prefix_at, mod);

	for (i = 0; i < m->n_events; i++) {
		struct m_event *e = &m->events[i];
		char *es = name_snake(e->name), *eu = name_upper(e->name);
		struct strbuf w;

		sb_init(&w);
		sb_printf(&w, "event `%s`", e->name);
		whats[(*n_whats)++] = w.data;
		if (e->notify)
			add_name(c, ns, NS_MIB, name_join(p, e->name, "Notification", NULL),
				 e->name_at, w.data);
		add_name(c, ns, NS_C_MACRO, fmt("%s_EVENT_%s", P, eu), e->name_at, w.data);
		add_name(c, ns, NS_C_ORDINARY, fmt("%s_event_%s", p, es), e->name_at, w.data);
		free(es);
		free(eu);
	}
	free(P);
}

/*
 * Every name the generator will emit, per namespace: two model objects
 * must never map to one generated name (e.g. group `port` counter
 * `queueRx` and group `portQueue` counter `rx`).
 */
void
check_names(struct loader *c, struct model *m)
{
	static const char *const module_mib[] = {
		"Mib", "Objects", "Control", "Conformance", "ResetAll",
		"DiscontinuityTime", "Compliances", "Groups", "Compliance",
		"ControlGroup",
	};
	struct names ns = { NULL, 0, 0 };
	const char *p = m->prefix;
	struct mark prefix_at = m->prefix_at;
	char *P = name_upper(p);
	char **whats;
	size_t n_whats = 0, i;
	uint32_t gi, ki, xi;

	whats = xcalloc((size_t)m->n_groups * (FASTMIB_MAX_COUNTERS + FASTMIB_MAX_INDEXES + 1) +
			m->n_events + 1, sizeof(*whats));
	whats[n_whats++] = xstrdup("the module");
	for (i = 0; i < sizeof(module_mib) / sizeof(module_mib[0]); i++)
		add_name(c, &ns, NS_MIB, name_join(p, module_mib[i], NULL),
			 prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_STATS_H", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_ALIGNED_64", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_STATIC_ASSERT", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_PERCORE_SIZE", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_SHARED_SIZE", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_ORDINARY, fmt("%s_schema", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_ORDINARY, fmt("%s_groups", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_TAG, fmt("%s_percore", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_TAG, fmt("%s_shared", p), prefix_at, whats[0]);

	for (gi = 0; gi < m->n_groups; gi++) {
		struct m_group *g = &m->groups[gi];
		char *gs = name_snake(g->name), *gu = name_upper(g->name);
		struct strbuf w;
		const char *gw;

		sb_init(&w);
		sb_printf(&w, "group `%s`", g->name);
		gw = whats[n_whats++] = w.data;
		if (g->table) {
			add_name(c, &ns, NS_MIB, name_join(p, g->name, "Table", NULL), g->name_at, gw);
			add_name(c, &ns, NS_MIB, name_join(p, g->name, "Entry", NULL), g->name_at, gw);
			add_name(c, &ns, NS_MIB_TYPE, name_join("", p, g->name, "Entry", NULL),
				 g->name_at, gw);
			add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_ROWS", P, gu), g->name_at, gw);
			add_name(c, &ns, NS_C_ORDINARY, fmt("%s_%s_row", p, gs), g->name_at, gw);
		} else {
			add_name(c, &ns, NS_MIB, name_join(p, g->name, NULL), g->name_at, gw);
		}
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "Reset", NULL), g->name_at, gw);
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "DiscontinuityTime", NULL),
			 g->name_at, gw);
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "Group", NULL), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_GROUP_%s", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_OFFSET", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_ROW_SIZE", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_ORDINARY, fmt("%s_%s_counters", p, gs), g->name_at, gw);
		add_name(c, &ns, NS_C_TAG, fmt("%s_%s_row", p, gs), g->name_at, gw);

		for (xi = 0; xi < g->n_indexes; xi++) {
			struct m_index *x = &g->indexes[xi];
			char *xu = name_upper(x->name);

			sb_init(&w);
			sb_printf(&w, "index `%s` of group `%s`", x->name, g->name);
			whats[n_whats++] = w.data;
			add_name(c, &ns, NS_MIB, name_join(p, g->name, x->name, NULL), x->at, w.data);
			add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_%s_MAX", P, gu, xu),
				 x->at, w.data);
			free(xu);
		}
		for (ki = 0; ki < g->n_counters; ki++) {
			struct m_counter *k = &g->counters[ki];
			char *ks = name_snake(k->name);
			char *fn = fmt("%s_%s_%s", p, gs, ks);

			sb_init(&w);
			sb_printf(&w, "counter `%s` of group `%s`", k->name, g->name);
			whats[n_whats++] = w.data;
			add_name(c, &ns, NS_MIB, name_join(p, g->name, k->name, NULL),
				 k->name_at, w.data);
			add_name(c, &ns, NS_C_ORDINARY, fmt("%s_add", fn), k->name_at, w.data);
			if (k->type == FASTMIB_GAUGE32)
				add_name(c, &ns, NS_C_ORDINARY, fmt("%s_sub", fn),
					 k->name_at, w.data);
			if (k->set)
				add_name(c, &ns, NS_C_ORDINARY, fmt("%s_set", fn),
					 k->name_at, w.data);
			free(fn);
			free(ks);
		}
		free(gs);
		free(gu);
	}

	if (m->n_events)
		event_names(c, m, &ns, whats, &n_whats);

	qsort(ns.v, ns.n, sizeof(*ns.v), cmp_name);
	for (i = 1; i < ns.n; i++) {
		struct gen_name *a = &ns.v[i - 1], *b = &ns.v[i];

		if (a->ns == b->ns && strcmp(a->name, b->name) == 0)
			err_at(c, b->at, "generated %s `%s` of %s clashes with the one "
					 "of %s (line %u): rename one of them",
			       ns_label[b->ns], b->name, b->what, a->what, a->at.line);
	}
	for (i = 0; i < ns.n; i++)
		free(ns.v[i].name);
	free(ns.v);
	for (i = 0; i < n_whats; i++)
		free(whats[i]);
	free(whats);
	free(P);
}
