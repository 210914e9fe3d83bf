/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's states: name, arc, type and what the type takes (values,
 * range, size, units, notify, default). What each type allows (which keys,
 * sizes, ranges, counts, unique labels and values) is the schema's rule,
 * reported at these nodes when the schema is checked (model_state_faults.c);
 * here a value is refused only when it cannot be read at all.
 */
#include "model_states.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void
state_free(struct m_state *s)
{
	for (uint32_t i = 0; i < s->n_values; i++)
		free((char *)s->values[i].label);
	free(s->values);
	free(s->value_at);
	free(s->def);
	free(s->name);
	free(s->units);
	free(s->description);
	memset(s, 0, sizeof(*s));
}

/* `values: { up: 1, down: 2 }`: labels and their numbers, in model order. */
static bool
parse_values(struct loader *c, yaml_node_t *map, struct m_state *s)
{
	yaml_node_pair_t *p;
	size_t n;
	bool ok = true;

	s->values_at = mark_of(map);
	if (map->type != YAML_MAPPING_NODE) {
		err(c, map, "`values` must be a mapping of labels to numbers, as in "
			    "`{ up: 1, down: 2 }`, not %s", kind_name(map));
		return false;
	}
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	s->values = xcalloc(n ? n : 1, sizeof(*s->values));
	s->value_at = xcalloc(n ? n : 1, sizeof(*s->value_at));
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node_get(c, p->key), *v = node_get(c, p->value);
		char *label = get_label(c, k, "label");
		int64_t value;

		if (!label) {
			ok = false;
			continue;
		}
		if (!get_int(c, v, label, INT32_MIN, INT32_MAX, &value)) {
			free(label);
			ok = false;
			continue;
		}
		s->value_at[s->n_values] = mark_of(k);
		s->values[s->n_values++] = (struct fastmib_enum_value){ label, (int32_t)value };
	}
	return ok;
}

/* `range: [lo, hi]`: within the type and in order is the schema's rule. */
static bool
parse_range(struct loader *c, yaml_node_t *seq, struct m_state *s)
{
	yaml_node_item_t *items = seq->data.sequence.items.start;

	s->range_at = mark_of(seq);
	if (seq->type != YAML_SEQUENCE_NODE || seq->data.sequence.items.top - items != 2) {
		err(c, seq, "`range` must be a sequence of two integers, [lo, hi]");
		return false;
	}
	s->has_range = get_int(c, node_get(c, items[0]), "range", INT64_MIN, INT64_MAX, &s->lo) &&
		       get_int(c, node_get(c, items[1]), "range", INT64_MIN, INT64_MAX, &s->hi);
	return s->has_range;
}

/* The most octets of a string type's values, or 0 for other types. */
static uint32_t
string_max(uint32_t type)
{
	return type == FASTMIB_STATE_DISPLAY_STRING ? FASTMIB_MAX_DISPLAY_STRING
	       : type == FASTMIB_STATE_OCTET_STRING ? FASTMIB_MAX_OCTET_STRING : 0;
}

static bool
parse_state(struct loader *c, yaml_node_t *sn, struct m_state *s)
{
	enum { NAME, OID, TYPE, DESCR, VALUES, RANGE, SIZE, UNITS, DEFAULT, NOTIFY, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "type", true }, { "description", true },
		{ "values", false }, { "range", false }, { "size", false },
		{ "units", false }, { "default", false }, { "notify", false },
	};
	yaml_node_t *v[N];
	bool ok = true, have_arc = false, have_type = false;

	if (!get_keys(c, sn, "state", keys, N, v))
		return false;
	s->at = mark_of(sn);
	if (v[NAME]) {
		s->name = get_name(c, v[NAME], "name");
		s->name_at = mark_of(v[NAME]);
	}
	if (v[OID]) {
		s->arc_at = mark_of(v[OID]);
		have_arc = get_u32(c, v[OID], "oid", &s->arc);
	}
	if (v[TYPE]) {
		s->type_at = mark_of(v[TYPE]);
		have_type = get_word(c, v[TYPE], "state type", fastmib_state_type_word, &s->type);
	}
	if (v[DESCR])
		s->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[UNITS]) {
		s->units_at = mark_of(v[UNITS]);
		s->units = get_text(c, v[UNITS], "units", GEN_MAX_DESCRIPTION);
	} else {
		s->units = xstrdup("");
	}
	if (v[NOTIFY]) {
		s->notify_at = mark_of(v[NOTIFY]);
		ok &= get_bool(c, v[NOTIFY], "notify", &s->notify);
	}
	if (v[SIZE]) {
		s->size_at = mark_of(v[SIZE]);
		ok &= get_u32(c, v[SIZE], "size", &s->size);
	} else if (have_type && string_max(s->type)) {
		err(c, v[TYPE], "a state of type %s needs `size`: the most octets of its values, "
				"1..%u", fastmib_state_type_word(s->type), string_max(s->type));
		ok = false;
	}
	if (v[RANGE])
		ok &= parse_range(c, v[RANGE], s);
	if (v[VALUES]) {
		ok &= parse_values(c, v[VALUES], s);
	} else if (have_type && s->type == FASTMIB_STATE_ENUM) {
		err(c, v[TYPE], "an enum state needs `values`: its labels and their numbers, "
				"as in `values: { up: 1, down: 2 }`");
		ok = false;
	}
	if (v[DEFAULT])
		s->default_at = mark_of(v[DEFAULT]);
	/* the default's form is the type's, and it needs the size and labels */
	if (ok && have_type)
		ok = parse_state_default(c, v[DEFAULT], s);
	return ok && s->name && have_arc && have_type && s->units && s->description;
}

void
parse_states(struct loader *c, yaml_node_t *seq, struct m_group *g)
{
	yaml_node_item_t *items;
	size_t n;

	g->states_at = mark_of(seq);
	/* The schema's limit, checked here already: fastmib_schema_lay_out()
	 * lays out no more states than that (the schema check would say the
	 * same words). */
	items = get_seq(c, seq, "states", 0, FASTMIB_MAX_STATES, &n);
	g->states = xcalloc(n ? n : 1, sizeof(*g->states));
	for (size_t i = 0; i < n; i++) {
		struct m_state *s = &g->states[g->n_states];

		if (!parse_state(c, node_get(c, items[i]), s)) {
			state_free(s);
			continue;
		}
		g->n_states++;
	}
}
