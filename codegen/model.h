/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counter model: what the YAML file says (names, texts, arcs, shapes,
 * with their positions in the file for messages), and the fastmib schema
 * built from it, which the format library checks and lays out.
 */
#ifndef FASTMIB_GEN_MODEL_H
#define FASTMIB_GEN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "fastmib/schema.h"

/* Position of a YAML node, 1-based, for error messages. */
struct mark {
	unsigned line;
	unsigned col;
};

struct m_counter {
	char *name;
	char *units;        /* "" when absent */
	char *description;  /* whitespace-normalised */
	uint32_t arc;       /* a histogram: its count's; arc + 1 its sum's */
	enum fastmib_type type;
	bool set;           /* generate a _set function */
	/* A histogram's bucket bounds: `bounds` as written, or for `log2:
	 * [lo, hi]` the powers of two 2^lo..2^hi (model_hist.c). */
	uint32_t n_bounds;
	uint64_t *bounds;
	bool log2;
	uint32_t log2_lo, log2_hi;
	struct mark *bound_at; /* where each of `bounds` is */
	uint32_t offset;    /* within the row, from the schema's layout */
	struct mark at;     /* the counter's mapping */
	struct mark name_at, arc_at, units_at, type_at, bounds_at, log2_at;
};

/* Words of a counter in its row (fastmib_counter_words() of its schema). */
static inline uint32_t
counter_words(const struct m_counter *k)
{
	return k->type == FASTMIB_HISTOGRAM ? k->n_bounds + 3 : 1;
}

struct m_index {
	char *name;
	uint32_t max;       /* FASTMIB_INDEX_INTEGER: 1..max; 0 for the others */
	uint32_t type;      /* enum fastmib_index_type */
	uint32_t size;      /* FASTMIB_INDEX_STRING: its most octets; 0 for the others */
	bool port;          /* the C index is a DPDK ethdev port id */
	struct mark at;     /* the index's mapping */
	struct mark name_at, max_at, type_at, size_at;
};

/*
 * A state object: a value of the data plane's state that the slow path
 * sets (docs/model.md, "States"). Its default is kept in its C form, the
 * bytes of its member of the generated state struct, which the schema
 * carries and the emitters render in their own syntax.
 */
struct m_state {
	char *name;
	char *units;        /* "" when absent */
	char *description;  /* whitespace-normalised */
	uint32_t arc;       /* an inet-address: its InetAddressType; arc + 1 its InetAddress */
	uint32_t type;      /* enum fastmib_state_type */
	uint32_t size;      /* strings: the most octets; 0 for the others */
	bool notify;
	bool has_range;     /* integer32, unsigned32: lo..hi */
	int64_t lo, hi;
	uint32_t n_values;  /* enum: labels and values, in model order */
	struct fastmib_enum_value *values;
	struct mark *value_at; /* where each label is */
	uint8_t *def;       /* the default in its C form; NULL: all zero (never for an enum) */
	uint32_t def_len;   /* strings: the length of the default as written */
	uint32_t offset;    /* in the group's state struct, from the schema's layout */
	struct mark at;     /* the state's mapping */
	struct mark name_at, arc_at, type_at, units_at, size_at, values_at, range_at;
	struct mark default_at, notify_at;
};

struct m_group {
	char *name;
	char *description;
	uint32_t arc;
	enum fastmib_storage storage;
	bool table;
	bool all_rows;
	bool keyed;         /* a table with an index of a `type` (fastmib_group_keyed()) */
	uint32_t capacity;  /* keyed tables: the most rows held at once */
	uint32_t n_indexes;
	struct m_index *indexes;
	uint32_t n_rows;    /* from the schema, like row_size and offset */
	uint32_t row_size;
	uint64_t offset;    /* within its storage area */
	uint32_t n_counters;
	struct m_counter *counters;
	uint32_t n_states;
	struct m_state *states;
	uint32_t state_size; /* of its state struct, from the schema's layout */
	struct mark at;     /* the group's mapping */
	struct mark name_at, arc_at, indexes_at, counters_at, capacity_at, states_at;
};

struct m_revision {
	char date[11];      /* YYYY-MM-DD */
	char *description;
};

/* Argument types of an event; every argument is stored as 64 bits. The
 * values are those of the schema, which readers use to show the word. */
enum m_arg_type {
	ARG_UINT32 = FASTMIB_ARG_UINT32,
	ARG_INT32 = FASTMIB_ARG_INT32,   /* sign-extended to 64 bits when logged */
	ARG_UINT64 = FASTMIB_ARG_UINT64,
};

struct m_event_arg {
	char *name;
	enum m_arg_type type;
	struct mark at;     /* the argument's mapping */
	struct mark name_at;
};

struct m_event {
	char *name;
	char *description;
	uint32_t arc;
	uint32_t level;     /* 0..9 */
	uint32_t rate;      /* 0..9 */
	bool notify;
	uint32_t n_args;
	struct m_event_arg *args;
	struct mark at;     /* the event's mapping */
	struct mark name_at, arc_at, level_at, rate_at, args_at;
};

struct model {
	char *source;       /* model file name without directories */
	char *module;
	char *prefix;
	uint32_t oid_len;   /* arcs written, even beyond the oid array */
	uint32_t oid[FASTMIB_MAX_OID_LEN];
	char *oid_text;     /* as written */
	char *organization;
	char *contact;
	char *description;
	uint32_t n_revisions;
	struct m_revision *revisions; /* newest first */
	uint32_t n_groups;
	struct m_group *groups;
	uint32_t n_events;
	struct m_event *events;  /* model order: the event index */
	uint64_t percore_size;
	uint64_t shared_size;
	struct mark module_at, prefix_at, oid_at, groups_at, events_at; /* values */

	/* The schema of the model: names and texts point into the model. */
	struct fastmib_schema schema;
	struct fastmib_group_schema *schema_groups;
	struct fastmib_counter_schema *schema_counters; /* all groups' */
	struct fastmib_state_schema *schema_states;     /* all groups' */
	struct fastmib_event_schema *schema_events;
};

/* Generator limit beyond schema.h: one description must fit a C string
 * literal every C11 compiler accepts (4095 bytes). */
#define GEN_MAX_DESCRIPTION 4000

/* Is a storage kind a shared one (buffered or atomic)? */
static inline bool
storage_is_shared(enum fastmib_storage s)
{
	return s != FASTMIB_STORAGE_PER_CORE;
}

/* Has the model a state of type t (0: of any type)? */
static inline bool
model_has_state_type(const struct model *m, uint32_t t)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t si = 0; si < m->groups[gi].n_states; si++)
			if (!t || m->groups[gi].states[si].type == t)
				return true;
	return false;
}

/* Has the model a `notify` state? */
static inline bool
model_notifies_states(const struct model *m)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t si = 0; si < m->groups[gi].n_states; si++)
			if (m->groups[gi].states[si].notify)
				return true;
	return false;
}

/* Does the model send notifications (a `notify` event or state)? */
static inline bool
model_notifies(const struct model *m)
{
	for (uint32_t ei = 0; ei < m->n_events; ei++)
		if (m->events[ei].notify)
			return true;
	return model_notifies_states(m);
}

/* Has the model a counter of type t (a histogram, a peak)? */
static inline bool
model_has_counter_type(const struct model *m, enum fastmib_type t)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t ki = 0; ki < m->groups[gi].n_counters; ki++)
			if (m->groups[gi].counters[ki].type == t)
				return true;
	return false;
}

/* Has group g a counter of type t? */
static inline bool
group_has_counter_type(const struct m_group *g, enum fastmib_type t)
{
	for (uint32_t ki = 0; ki < g->n_counters; ki++)
		if (g->counters[ki].type == t)
			return true;
	return false;
}

/* Has the model a keyed table (a table with an index of a `type`)? */
static inline bool
model_has_keyed(const struct model *m)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		if (m->groups[gi].keyed)
			return true;
	return false;
}

#endif
