/* SPDX-License-Identifier: BSD-3-Clause */
/* <prefix>_schema.c: the schema libfastmib copies into the segment, emitted
 * from the schema the format library checked and laid out. Offsets and
 * sizes refer to the header's macros, so the header's static assertions
 * cover the schema as well. A state's default is a member of the group's
 * state struct (the header's), written as C values: its bytes are the C
 * form on the machine that compiles it, whatever the generator's. */
#include "emit.h"

#include <ctype.h>
#include <string.h>

static const char *
type_enum(uint32_t t)
{
	switch (t) {
	case FASTMIB_COUNTER64:
		return "FASTMIB_COUNTER64";
	case FASTMIB_COUNTER32:
		return "FASTMIB_COUNTER32";
	case FASTMIB_GAUGE32:
		return "FASTMIB_GAUGE32";
	case FASTMIB_HISTOGRAM:
		return "FASTMIB_HISTOGRAM";
	case FASTMIB_PEAK:
		return "FASTMIB_PEAK";
	}
	return "0";
}

static const char *
storage_enum(uint32_t s)
{
	switch (s) {
	case FASTMIB_STORAGE_PER_CORE:
		return "FASTMIB_STORAGE_PER_CORE";
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		return "FASTMIB_STORAGE_SHARED_BUFFERED";
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		return "FASTMIB_STORAGE_SHARED_ATOMIC";
	}
	return "0";
}

static const char *
index_type_enum(uint32_t t)
{
	switch (t) {
	case FASTMIB_INDEX_INTEGER:
		return "FASTMIB_INDEX_INTEGER";
	case FASTMIB_INDEX_UINT32:
		return "FASTMIB_INDEX_UINT32";
	case FASTMIB_INDEX_IPV4:
		return "FASTMIB_INDEX_IPV4";
	case FASTMIB_INDEX_INET_ADDRESS:
		return "FASTMIB_INDEX_INET_ADDRESS";
	case FASTMIB_INDEX_MAC:
		return "FASTMIB_INDEX_MAC";
	case FASTMIB_INDEX_STRING:
		return "FASTMIB_INDEX_STRING";
	}
	return "0";
}

static void
put_str(struct strbuf *o, const char *s)
{
	sb_putc(o, '"');
	put_c_string(o, s);
	sb_putc(o, '"');
}

/* "\t{\n\t\t.name = ..., .units = ..., .description = ...,": how an entry
 * of a counter or state schema starts. */
static void
put_entry_texts(struct strbuf *o, const char *name, const char *units, const char *description)
{
	sb_puts(o, "\t{\n\t\t.name = ");
	put_str(o, name);
	sb_puts(o, ",\n\t\t.units = ");
	put_str(o, units);
	sb_puts(o, ",\n\t\t.description = ");
	put_str(o, description);
	sb_puts(o, ",\n");
}

/* The bounds of group g's histograms, an array each (p_g_h_bounds). */
static void
emit_bounds(struct name_pool *np, const struct fastmib_group_schema *g, struct strbuf *o)
{
	for (uint32_t ki = 0; ki < g->n_counters; ki++) {
		const struct fastmib_counter_schema *k = &g->counters[ki];

		if (k->type != FASTMIB_HISTOGRAM)
			continue;
		sb_printf(o, "static const uint64_t %s[%u] = {",
			  pool_name(np, FASTMIB_C_BOUNDS, g->name, k->name), k->n_bounds);
		for (uint32_t i = 0; i < k->n_bounds; i++)
			sb_printf(o, "%s%lluull,", i % 4 ? " " : "\n\t",
				  (unsigned long long)k->bounds[i]);
		sb_puts(o, "\n};\n\n");
	}
}

static void
emit_counters(struct name_pool *np, const struct fastmib_group_schema *g, struct strbuf *o)
{
	emit_bounds(np, g, o);
	sb_printf(o, "static const struct fastmib_counter_schema %s[] = {\n",
		  pool_name(np, FASTMIB_C_COUNTERS, g->name, NULL));
	for (uint32_t ki = 0; ki < g->n_counters; ki++) {
		const struct fastmib_counter_schema *k = &g->counters[ki];

		put_entry_texts(o, k->name, k->units, k->description);
		sb_printf(o, "\t\t.arc = %uu,\n\t\t.type = %s,\n\t\t.offset = %uu,\n",
			  k->arc, type_enum(k->type), k->offset);
		if (k->type == FASTMIB_HISTOGRAM)
			sb_printf(o, "\t\t.n_bounds = %uu,\n\t\t.log2 = %uu,\n\t\t.bounds = %s,\n",
				  k->n_bounds, k->log2,
				  pool_name(np, FASTMIB_C_BOUNDS, g->name, k->name));
		sb_puts(o, "\t},\n");
	}
	sb_puts(o, "};\n\n");
}

/* FASTMIB_STATE_*: the model's word in upper case, '-' as '_'
 * (<fastmib/schema.h> names them so). */
static void
put_state_type(struct strbuf *o, uint32_t type)
{
	sb_puts(o, "FASTMIB_STATE_");
	for (const char *w = fastmib_state_type_word(type); *w; w++)
		sb_putc(o, *w == '-' ? '_' : (char)toupper((unsigned char)*w));
}

/* "{ 0x0a, 0x1b }": octets in braces, eight a line when there are more
 * (in a member's initializer). */
static void
put_octets(struct strbuf *o, const uint8_t *v, size_t n)
{
	if (n <= 8) {
		sb_puts(o, "{ ");
		for (size_t i = 0; i < n; i++)
			sb_printf(o, "%s0x%02x", i ? ", " : "", v[i]);
		sb_puts(o, n ? " }" : "}");
		return;
	}
	sb_puts(o, "{");
	for (size_t i = 0; i < n; i++)
		sb_printf(o, "%s0x%02x,", i % 8 ? " " : "\n\t\t", v[i]);
	sb_puts(o, "\n\t}");
}

/* The C value of the default of state s (its C form decoded). */
static void
put_default(struct name_pool *np, const char *group, const struct fastmib_state_schema *s,
	    struct strbuf *o)
{
	const uint8_t *v = s->def;
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	uint16_t len;
	const struct fastmib_inet_address *a = (const void *)v;

	switch (s->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		sb_puts(o, v[0] ? "true" : "false");
		break;
	case FASTMIB_STATE_ENUM:
		memcpy(&i32, v, sizeof(i32));
		sb_puts(o, pool_state_name(np, SN_C_ENUM_VALUE, group, s->name,
					   fastmib_enum_label(s, i32)));
		break;
	case FASTMIB_STATE_INTEGER32:
		memcpy(&i32, v, sizeof(i32));
		if (i32 == INT32_MIN)
			sb_puts(o, "-2147483647 - 1");
		else
			sb_printf(o, "%d", i32);
		break;
	case FASTMIB_STATE_GAUGE64:
		memcpy(&u64, v, sizeof(u64));
		sb_printf(o, "%lluull", (unsigned long long)u64);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		sb_putc(o, '"');
		put_c_string(o, (const char *)v);
		sb_putc(o, '"');
		break;
	case FASTMIB_STATE_OCTET_STRING:
		memcpy(&len, v, sizeof(len));
		sb_printf(o, "{ %uu, ", len);
		put_octets(o, v + 2, len);
		sb_puts(o, " }");
		break;
	case FASTMIB_STATE_IPV4:
		sb_printf(o, "{ %u, %u, %u, %u }", v[0], v[1], v[2], v[3]);
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		sb_printf(o, "{ %uu, ", a->type);
		put_octets(o, a->addr, a->type == 1 ? 4 : sizeof(a->addr));
		sb_puts(o, " }");
		break;
	case FASTMIB_STATE_MAC:
		put_octets(o, v, 6);
		break;
	default: /* unsigned32, timeticks: the others have no default */
		memcpy(&u32, v, sizeof(u32));
		sb_printf(o, "%uu", u32);
		break;
	}
}

/* The states of group g: the values of its enums, its defaults, and its
 * state schemas. */
static void
emit_state_schemas(struct name_pool *np, const struct fastmib_group_schema *g, struct strbuf *o)
{
	const char *defaults = pool_state_name(np, SN_C_STATE_DEFAULT, g->name, NULL, NULL);
	bool any_default = false;

	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct fastmib_state_schema *s = &g->states[si];

		any_default |= s->def != NULL;
		if (s->type != FASTMIB_STATE_ENUM)
			continue;
		sb_printf(o, "static const struct fastmib_enum_value %s[] = {\n",
			  pool_state_name(np, SN_C_STATE_VALUES, g->name, s->name, NULL));
		for (uint32_t i = 0; i < s->n_values; i++) {
			sb_puts(o, "\t{ ");
			put_str(o, s->values[i].label);
			sb_printf(o, ", %s },\n", pool_state_name(np, SN_C_ENUM_VALUE, g->name,
								  s->name, s->values[i].label));
		}
		sb_puts(o, "};\n\n");
	}
	if (any_default) {
		sb_printf(o, "static const struct %s %s = {\n",
			  pool_state_name(np, SN_C_STATE_STRUCT, g->name, NULL, NULL), defaults);
		for (uint32_t si = 0; si < g->n_states; si++) {
			if (!g->states[si].def)
				continue;
			sb_printf(o, "\t.%s = ", pool_snake(np, g->states[si].name));
			put_default(np, g->name, &g->states[si], o);
			sb_puts(o, ",\n");
		}
		sb_puts(o, "};\n\n");
	}
	sb_printf(o, "static const struct fastmib_state_schema %s[] = {\n",
		  pool_state_name(np, SN_C_STATES, g->name, NULL, NULL));
	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct fastmib_state_schema *s = &g->states[si];

		put_entry_texts(o, s->name, s->units, s->description);
		sb_printf(o, "\t\t.arc = %uu,\n\t\t.type = ", s->arc);
		put_state_type(o, s->type);
		sb_puts(o, ",\n");
		if (s->size)
			sb_printf(o, "\t\t.size = %uu,\n", s->size);
		if (s->notify)
			sb_puts(o, "\t\t.notify = 1u,\n");
		if (s->has_range)
			sb_printf(o, "\t\t.has_range = 1u,\n\t\t.lo = %lld,\n\t\t.hi = %lld,\n",
				  (long long)s->lo, (long long)s->hi);
		if (s->n_values)
			sb_printf(o, "\t\t.n_values = %uu,\n\t\t.values = %s,\n", s->n_values,
				  pool_state_name(np, SN_C_STATE_VALUES, g->name, s->name, NULL));
		if (s->def)
			sb_printf(o, "\t\t.def = &%s.%s,\n", defaults, pool_snake(np, s->name));
		sb_printf(o, "\t\t.offset = %s,\n\t},\n",
			  pool_state_name(np, SN_C_STATE_OFFSET, g->name, s->name, NULL));
	}
	sb_puts(o, "};\n\n");
}

static void
emit_group(struct name_pool *np, const struct fastmib_group_schema *g, struct strbuf *o)
{
	sb_puts(o, "\t{\n\t\t.name = ");
	put_str(o, g->name);
	sb_puts(o, ",\n\t\t.description = ");
	put_str(o, g->description);
	sb_printf(o, ",\n\t\t.arc = %uu,\n", g->arc);
	if (g->n_counters)
		sb_printf(o, "\t\t.storage = %s,\n", storage_enum(g->storage));
	sb_printf(o, "\t\t.n_indexes = %uu,\n\t\t.all_rows = %uu,\n", g->n_indexes, g->all_rows);
	if (g->n_indexes) {
		sb_puts(o, "\t\t.indexes = {\n");
		for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
			const struct fastmib_index_schema *x = &g->indexes[xi];
			const char *max = x->type == FASTMIB_INDEX_INTEGER ?
				pool_name(np, FASTMIB_C_INDEX_MAX, g->name, x->name) : "0u";

			/* every field: clang's -Wmissing-field-initializers (in
			 * -Wextra) refuses fewer */
			sb_puts(o, "\t\t\t{ ");
			put_str(o, x->name);
			sb_printf(o, ", %s, %s, %uu },\n", max, index_type_enum(x->type), x->size);
		}
		sb_puts(o, "\t\t},\n");
		sb_printf(o, "\t\t.n_rows = %s,\n", pool_name(np, FASTMIB_C_ROWS, g->name, NULL));
	} else {
		sb_puts(o, "\t\t.n_rows = 1u,\n");
	}
	/* a group of states only has no place in a storage area */
	if (g->n_counters)
		sb_printf(o, "\t\t.row_size = %s,\n\t\t.offset = %s,\n"
			     "\t\t.n_counters = %uu,\n\t\t.counters = %s,\n",
			  pool_name(np, FASTMIB_C_ROW_SIZE, g->name, NULL),
			  pool_name(np, FASTMIB_C_OFFSET, g->name, NULL), g->n_counters,
			  pool_name(np, FASTMIB_C_COUNTERS, g->name, NULL));
	if (g->n_states)
		sb_printf(o, "\t\t.n_states = %uu,\n\t\t.states = %s,\n\t\t.state_size = %s,\n",
			  g->n_states, pool_state_name(np, SN_C_STATES, g->name, NULL, NULL),
			  pool_state_name(np, SN_C_STATE_SIZE, g->name, NULL, NULL));
	sb_puts(o, "\t},\n");
}

static const char *
arg_type_enum(uint32_t t)
{
	switch (t) {
	case FASTMIB_ARG_UINT32:
		return "FASTMIB_ARG_UINT32";
	case FASTMIB_ARG_INT32:
		return "FASTMIB_ARG_INT32";
	case FASTMIB_ARG_UINT64:
		return "FASTMIB_ARG_UINT64";
	}
	return "0";
}

static void
emit_events(struct name_pool *np, const struct fastmib_schema *s, struct strbuf *o)
{
	const char *events = pool_name(np, FASTMIB_C_EVENTS, NULL, NULL);

	sb_printf(o, "static const struct fastmib_event_schema %s[] = {\n", events);
	for (uint32_t i = 0; i < s->n_events; i++) {
		const struct fastmib_event_schema *e = &s->events[i];

		sb_puts(o, "\t{\n\t\t.name = ");
		put_str(o, e->name);
		sb_puts(o, ",\n\t\t.description = ");
		put_str(o, e->description);
		sb_printf(o, ",\n\t\t.arc = %uu,\n\t\t.level = %uu,\n\t\t.rate = %uu,\n"
			     "\t\t.notify = %uu,\n\t\t.n_args = %uu,\n",
			  e->arc, e->level, e->rate, e->notify, e->n_args);
		if (e->n_args) {
			sb_puts(o, "\t\t.args = { ");
			for (uint32_t j = 0; j < e->n_args; j++) {
				sb_puts(o, j ? ", " : "");
				put_str(o, e->args[j]);
			}
			sb_puts(o, " },\n\t\t.arg_types = { ");
			for (uint32_t j = 0; j < e->n_args; j++)
				sb_printf(o, "%s%s", j ? ", " : "", arg_type_enum(e->arg_types[j]));
			sb_puts(o, " },\n");
		}
		sb_puts(o, "\t},\n");
	}
	sb_printf(o, "};\n\n%s(sizeof(%s) / sizeof(%s[0]) == %s,\n\t\"event count\");\n\n",
		  pool_name(np, FASTMIB_C_STATIC_ASSERT, NULL, NULL), events, events,
		  pool_name(np, FASTMIB_C_N_EVENTS, NULL, NULL));
}

/* A schema.c compiled with the header of another model or version would
 * mix two layouts: refuse to build it. */
static void
emit_same_model(struct name_pool *np, const struct fastmib_schema *s, struct strbuf *o)
{
	sb_printf(o, "\n%s(%s == 0x%016llxull,\n"
		     "\t\"%s_schema.c and %s_stats.h come from different models: "
		     "regenerate both\");\n",
		  pool_name(np, FASTMIB_C_STATIC_ASSERT, NULL, NULL),
		  pool_name(np, FASTMIB_C_SCHEMA_HASH, NULL, NULL), (unsigned long long)s->hash,
		  s->prefix, s->prefix);
}

void
emit_schema(const struct model *m, struct strbuf *o)
{
	const struct fastmib_schema *s = &m->schema;
	const char *p = s->prefix;
	struct name_pool np;
	const char *groups;

	pool_init(&np, p);
	groups = pool_name(&np, FASTMIB_C_GROUPS, NULL, NULL);
	sb_printf(o, "/* %s_schema.c: schema of %s, generated by fastmib-gen from %s.\n"
		     " * Edit the model and regenerate; do not edit this file. */\n"
		     "#include \"%s_stats.h\"\n\n",
		  p, s->module, m->source, p);
	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		if (s->groups[gi].n_counters)
			emit_counters(&np, &s->groups[gi], o);
		if (s->groups[gi].n_states)
			emit_state_schemas(&np, &s->groups[gi], o);
	}
	sb_printf(o, "static const struct fastmib_group_schema %s[] = {\n", groups);
	for (uint32_t gi = 0; gi < s->n_groups; gi++)
		emit_group(&np, &s->groups[gi], o);
	sb_puts(o, "};\n\n");
	if (s->n_events)
		emit_events(&np, s, o);

	sb_printf(o, "const struct fastmib_schema %s = {\n"
		     "\t.version = FASTMIB_MODEL_VERSION,\n\t.module = ",
		  pool_name(&np, FASTMIB_C_SCHEMA, NULL, NULL));
	put_str(o, s->module);
	sb_puts(o, ",\n\t.prefix = ");
	put_str(o, s->prefix);
	sb_printf(o, ",\n\t.oid_len = %uu,\n\t.oid = { ", s->oid_len);
	for (uint32_t i = 0; i < s->oid_len; i++)
		sb_printf(o, "%s%uu", i ? ", " : "", s->oid[i]);
	sb_printf(o, " },\n\t.percore_size = %s,\n"
		     "\t.shared_size = %s,\n"
		     "\t.n_groups = %uu,\n\t.groups = %s,\n",
		  pool_name(&np, FASTMIB_C_PERCORE_SIZE, NULL, NULL),
		  pool_name(&np, FASTMIB_C_SHARED_SIZE, NULL, NULL), s->n_groups, groups);
	if (s->n_events)
		sb_printf(o, "\t.n_events = %s,\n\t.events = %s,\n",
			  pool_name(&np, FASTMIB_C_N_EVENTS, NULL, NULL),
			  pool_name(&np, FASTMIB_C_EVENTS, NULL, NULL));
	sb_printf(o, "\t.hash = 0x%016llxull,\n};\n", (unsigned long long)s->hash);
	emit_same_model(&np, s, o);
	pool_free(&np);
}
