/* SPDX-License-Identifier: BSD-3-Clause */
/* Events of the event log: ids, levels, rates and typed arguments. */
#include "model_events.h"

#include <stdlib.h>
#include <string.h>

#include "single_names.h"
#include "strbuf.h"

void
event_free(struct m_event *e)
{
	uint32_t i;

	for (i = 0; i < e->n_args; i++)
		free(e->args[i].name);
	free(e->args);
	free(e->name);
	free(e->description);
	memset(e, 0, sizeof(*e));
}

/*
 * An argument name becomes a parameter of the generated event function,
 * so it must not hide what the function body or signature refers to: the
 * writer `w`, the fastmib_* primitives, and typedef names (`*_t`, e.g.
 * `uint32T` would spell uint32_t).
 */
static bool
arg_name_reserved(const char *name)
{
	char *snake = name_snake(name);
	size_t n = strlen(snake);
	bool r = strcmp(snake, "w") == 0 || strncmp(snake, "fastmib_", 8) == 0 ||
		 (n >= 2 && strcmp(snake + n - 2, "_t") == 0);

	free(snake);
	return r;
}

static bool
parse_event_arg(struct loader *c, yaml_node_t *an, struct m_event_arg *a)
{
	static const struct key keys[] = { { "name", true }, { "type", true } };
	yaml_node_t *v[2];
	uint32_t t;

	if (!get_keys(c, an, "event argument", keys, 2, v))
		return false;
	a->at = mark_of(an);
	if (v[0] && (a->name = get_name(c, v[0], "name")) != NULL) {
		a->name_at = mark_of(v[0]);
		if (arg_name_reserved(a->name)) {
			err(c, v[0], "argument `name` `%s` is reserved: the generated "
				     "function uses `w`, `fastmib_*` and `*_t` names",
			    a->name);
			free(a->name);
			a->name = NULL;
		}
	}
	if (v[1] && get_word(c, v[1], "argument type", fastmib_arg_type_word, &t))
		a->type = (enum m_arg_type)t;
	return a->name && a->type;
}

static bool
parse_event(struct loader *c, yaml_node_t *en, struct m_event *e)
{
	enum { NAME, OID, LEVEL, RATE, DESCR, ARGS, NOTIFY, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "level", true },
		{ "rate", true }, { "description", true }, { "args", false },
		{ "notify", false },
	};
	yaml_node_t *v[N];
	yaml_node_item_t *items;
	size_t n, i;
	bool ok = true, have_arc = false, have_level = false, have_rate = false;

	if (!get_keys(c, en, "event", keys, N, v))
		return false;
	e->at = mark_of(en);
	if (v[NAME]) {
		e->name = get_name(c, v[NAME], "name");
		e->name_at = mark_of(v[NAME]);
	}
	if (v[OID]) {
		e->arc_at = mark_of(v[OID]);
		have_arc = get_u32(c, v[OID], "oid", &e->arc);
	}
	if (v[LEVEL]) {
		e->level_at = mark_of(v[LEVEL]);
		have_level = get_u32(c, v[LEVEL], "level", &e->level);
	}
	if (v[RATE]) {
		e->rate_at = mark_of(v[RATE]);
		have_rate = get_u32(c, v[RATE], "rate", &e->rate);
	}
	if (v[DESCR])
		e->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[NOTIFY])
		ok = get_bool(c, v[NOTIFY], "notify", &e->notify);
	if (v[ARGS]) {
		e->args_at = mark_of(v[ARGS]);
		/* At least one when given; at most is the schema's rule. */
		items = get_seq(c, v[ARGS], "args", 1, SIZE_MAX, &n);
		ok = ok && items != NULL;
		e->args = xcalloc(n ? n : 1, sizeof(*e->args));
		for (i = 0; i < n; i++) {
			struct m_event_arg *a = &e->args[e->n_args];

			if (!parse_event_arg(c, node_get(c, items[i]), a)) {
				free(a->name);
				memset(a, 0, sizeof(*a));
				ok = false;
				continue;
			}
			e->n_args++;
		}
	}
	return ok && e->name && have_arc && have_level && have_rate && e->description;
}

void
parse_events(struct loader *c, yaml_node_t *seq, struct model *m)
{
	yaml_node_item_t *items;
	size_t n, i;

	m->events_at = mark_of(seq);
	/* At least one when given; at most is the schema's rule. */
	items = get_seq(c, seq, "events", 1, SIZE_MAX, &n);
	m->events = xcalloc(n ? n : 1, sizeof(*m->events));
	for (i = 0; i < n; i++) {
		struct m_event *e = &m->events[m->n_events];

		if (!parse_event(c, node_get(c, items[i]), e)) {
			event_free(e);
			continue;
		}
		m->n_events++;
	}
}

/*
 * An event's lag runs from the closest earlier logged event of equal or
 * lower level. If a lower-level event that normally anchors it has a lower
 * rate, some bursts log the event without its anchor, and its lag silently
 * stretches back to an older one: warn, as the timeline's authors advise.
 * Rate 0 anchors are never logged, so they never make a lag ambiguous.
 */
void
check_event_rates(struct loader *c, const struct model *m)
{
	uint32_t i, j;

	for (i = 0; i < m->n_events; i++) {
		const struct m_event *e = &m->events[i], *worst = NULL;

		if (e->rate == 0) {
			diag_at(c, e->rate_at, "note", "event `%s` has rate 0: it is "
				"never logged and its function does nothing", e->name);
			continue;
		}
		for (j = 0; j < m->n_events; j++) {
			const struct m_event *f = &m->events[j];

			if (f->level < e->level && f->rate > 0 && f->rate < e->rate &&
			    (!worst || f->rate < worst->rate))
				worst = f;
		}
		if (worst)
			diag_at(c, e->rate_at, "warning",
				"event `%s` (level %u, rate %u) is logged more often "
				"than the lower-level event `%s` (level %u, rate %u): "
				"in bursts that log `%s` but not `%s`, its lag is "
				"measured from an older event; give it a rate of at "
				"most %u",
				e->name, e->level, e->rate, worst->name, worst->level,
				worst->rate, e->name, worst->name, worst->rate);
	}
}
