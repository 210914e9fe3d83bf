/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The faults of states that fastmib_schema_check() finds (what each type
 * takes, sizes, ranges, labels, defaults, names and arcs shared with the
 * counters), at the YAML node they are about and in the model's words;
 * and the value a state starts with when the model gives none, which
 * must be one the state allows too.
 */
#include "model_state_faults.h"

#include <string.h>

static const struct m_state *
state_of(const struct model *m, const struct fastmib_schema_fault *f)
{
	return &m->groups[f->group].states[f->state];
}

/*
 * The later of the two enum entries a duplicate fault names, after the
 * earlier one, f->first: the first entry after it with the same value
 * (check_enum() looks for those first, and stops at one), or else with
 * the same label. *by_value says which.
 */
static uint32_t
later_entry(const struct m_state *s, const struct fastmib_schema_fault *f, bool *by_value)
{
	const struct fastmib_enum_value *a = &s->values[f->first];

	*by_value = true;
	for (uint32_t i = f->first + 1; i < s->n_values; i++)
		if (s->values[i].value == a->value)
			return i;
	*by_value = false;
	for (uint32_t i = f->first + 1; i < s->n_values; i++)
		if (strcmp(s->values[i].label, a->label) == 0)
			return i;
	return f->first;
}

/* The label longer than `hi` characters that a length fault names. */
static uint32_t
long_label(const struct m_state *s, uint64_t hi)
{
	for (uint32_t i = 0; i < s->n_values; i++)
		if (strlen(s->values[i].label) > hi)
			return i;
	return 0;
}

static struct mark
or_at(struct mark node, const struct m_state *s)
{
	return node.line ? node : s->at;
}

struct mark
state_fault_mark(const struct model *m, const struct fastmib_schema_fault *f)
{
	const struct m_state *s = state_of(m, f);
	bool by_value;

	switch (f->field) {
	case FASTMIB_FIELD_NAME:
		return s->name_at;
	case FASTMIB_FIELD_ARC:
		return f->problem == FASTMIB_BAD_DUPLICATE ? s->at : s->arc_at;
	case FASTMIB_FIELD_TYPE:
		return s->type_at;
	case FASTMIB_FIELD_SIZE:
		return or_at(s->size_at, s);
	case FASTMIB_FIELD_UNITS:
		return or_at(s->units_at, s);
	case FASTMIB_FIELD_NOTIFY:
		return or_at(s->notify_at, s);
	case FASTMIB_FIELD_RANGE:
		return or_at(s->range_at, s);
	case FASTMIB_FIELD_DEFAULT:
		/* no default written: its zero start is out of the range */
		return s->default_at.line ? s->default_at : or_at(s->range_at, s);
	case FASTMIB_FIELD_VALUES:
		if (f->problem == FASTMIB_BAD_DUPLICATE)
			return s->value_at[later_entry(s, f, &by_value)];
		if (f->problem == FASTMIB_BAD_LENGTH)
			return s->value_at[long_label(s, f->hi)];
		return or_at(s->values_at, s);
	default:
		return s->at;
	}
}

/* The default of s, an integer32 or unsigned32, in decimal. */
static long long
number_default(const struct m_state *s)
{
	int32_t i = 0;
	uint32_t u = 0;

	if (s->def && s->type == FASTMIB_STATE_INTEGER32)
		memcpy(&i, s->def, sizeof(i));
	else if (s->def)
		memcpy(&u, s->def, sizeof(u));
	return s->type == FASTMIB_STATE_INTEGER32 ? i : (long long)u;
}

static bool
default_text(const struct m_state *s, struct strbuf *t)
{
	switch (s->type) {
	case FASTMIB_STATE_INTEGER32:
	case FASTMIB_STATE_UNSIGNED32:
		if (!s->default_at.line)
			sb_printf(t, "`range` [%lld, %lld] does not hold 0, the value the state "
				     "starts with: give it a `default` within the range",
				  (long long)s->lo, (long long)s->hi);
		else
			sb_printf(t, "`default` %lld is outside `range` [%lld, %lld]",
				  number_default(s), (long long)s->lo, (long long)s->hi);
		return true;
	case FASTMIB_STATE_DISPLAY_STRING:
		sb_printf(t, "`default` is %u characters long; `size` is %u", s->def_len, s->size);
		return true;
	case FASTMIB_STATE_OCTET_STRING:
		sb_printf(t, "`default` is %u octets long; `size` is %u", s->def_len, s->size);
		return true;
	default:
		return false;
	}
}

/* "the counter at line 12", "the state at line 14": the object at
 * position `o` of a group's counters then states. */
static void
put_first(const struct m_group *g, uint32_t o, bool name, struct strbuf *t)
{
	if (o < g->n_counters)
		sb_printf(t, "the %s `%s` at line %u",
			  g->counters[o].type == FASTMIB_HISTOGRAM ? "histogram" :
			  g->counters[o].type == FASTMIB_PEAK ? "peak" : "counter",
			  g->counters[o].name,
			  (name ? g->counters[o].name_at : g->counters[o].at).line);
	else
		sb_printf(t, "the state `%s` at line %u", g->states[o - g->n_counters].name,
			  (name ? g->states[o - g->n_counters].name_at
				: g->states[o - g->n_counters].at).line);
}

/* An arc of state s that another object of its group has. */
static void
arc_text(const struct m_group *g, const struct m_state *s, const struct fastmib_schema_fault *f,
	 struct strbuf *t)
{
	const struct m_state *o = f->first >= g->n_counters ? &g->states[f->first - g->n_counters]
							    : NULL;
	uint32_t arc = (uint32_t)f->value;

	if (arc != s->arc) {
		/* the second arc of this inet-address */
		sb_printf(t, "inet-address state `%s` takes oids %u and %u: %u is taken by ",
			  s->name, s->arc, s->arc + 1, arc);
		put_first(g, f->first, false, t);
	} else if (f->first < g->n_counters &&
		   g->counters[f->first].type == FASTMIB_HISTOGRAM &&
		   g->counters[f->first].arc != arc) {
		/* a histogram's second arc (its sum's) */
		sb_printf(t, "duplicate state oid %u in group (the histogram `%s` at line %u "
			     "takes oids %u and %u)", arc, g->counters[f->first].name,
			  g->counters[f->first].at.line, arc - 1, arc);
	} else if (o && o->type == FASTMIB_STATE_INET_ADDRESS && o->arc != arc) {
		sb_printf(t, "duplicate state oid %u in group (the inet-address state `%s` at "
			     "line %u takes oids %u and %u)", arc, o->name, o->at.line, o->arc,
			  o->arc + 1);
	} else {
		sb_printf(t, "duplicate state oid %u in group (", arc);
		put_first(g, f->first, false, t);
		sb_puts(t, " has it)");
	}
}

static bool
values_text(const struct m_state *s, const struct fastmib_schema_fault *f, struct strbuf *t)
{
	const char *word = fastmib_state_type_word(s->type);
	bool by_value;
	uint32_t i;

	if (s->type != FASTMIB_STATE_ENUM) {
		sb_printf(t, "a state of type %s has no `values` (enums only)", word);
		return true;
	}
	if (f->problem == FASTMIB_BAD_LENGTH) {
		sb_printf(t, "label `%s` is longer than %llu characters",
			  s->values[long_label(s, f->hi)].label, (unsigned long long)f->hi);
		return true;
	}
	if (f->problem != FASTMIB_BAD_DUPLICATE)
		return false; /* a count */
	i = later_entry(s, f, &by_value);
	if (by_value)
		sb_printf(t, "duplicate value %d in `values` (label `%s` at line %u has it)",
			  s->values[i].value, s->values[f->first].label,
			  s->value_at[f->first].line);
	else
		sb_printf(t, "duplicate label `%s` in `values` (first at line %u)",
			  s->values[i].label, s->value_at[f->first].line);
	return true;
}

bool
state_fault_text(const struct model *m, const struct fastmib_schema_fault *f, struct strbuf *t)
{
	const struct m_group *g = &m->groups[f->group];
	const struct m_state *s = state_of(m, f);
	const char *word = fastmib_state_type_word(s->type);

	switch (f->field) {
	case FASTMIB_FIELD_NAME:
		if (f->problem != FASTMIB_BAD_DUPLICATE)
			return false;
		sb_printf(t, "duplicate state name `%s` in group (", s->name);
		put_first(g, f->first, true, t);
		sb_puts(t, " has it)");
		return true;
	case FASTMIB_FIELD_ARC:
		if (f->problem == FASTMIB_BAD_DUPLICATE)
			arc_text(g, s, f, t);
		else if (s->type == FASTMIB_STATE_INET_ADDRESS)
			sb_printf(t, "`oid` must be in %llu..%llu, not %u: an inet-address state "
				     "takes two oids, `oid` (its InetAddressType) and `oid` + 1 "
				     "(its InetAddress)", (unsigned long long)f->lo,
				  (unsigned long long)f->hi, s->arc);
		else
			return false;
		return true;
	case FASTMIB_FIELD_SIZE:
		if (f->hi)
			return false;
		sb_printf(t, "a state of type %s has no `size` (strings only)", word);
		return true;
	case FASTMIB_FIELD_UNITS:
		if (f->hi)
			return false;
		sb_printf(t, "a state of type %s has no `units` (numbers only)", word);
		return true;
	case FASTMIB_FIELD_NOTIFY:
		sb_printf(t, "a state of type %s cannot `notify` (strings never do)", word);
		return true;
	case FASTMIB_FIELD_RANGE:
		if (!s->has_range || f->hi == 0)
			sb_printf(t, "a state of type %s has no `range` (integer32 and "
				     "unsigned32 states may have one)", word);
		else if (s->lo > s->hi)
			sb_printf(t, "`range` [%lld, %lld] is inverted: the lower bound comes first",
				  (long long)s->lo, (long long)s->hi);
		else
			sb_printf(t, "`range` [%lld, %lld] is not within the values of %s, "
				     "%lld..%lld", (long long)s->lo, (long long)s->hi, word,
				  (long long)(int64_t)f->lo, (long long)(int64_t)f->hi);
		return true;
	case FASTMIB_FIELD_VALUES:
		return values_text(s, f, t);
	case FASTMIB_FIELD_DEFAULT:
		return default_text(s, t);
	default:
		return false;
	}
}
