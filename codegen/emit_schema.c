/* SPDX-License-Identifier: BSD-3-Clause */
/* <prefix>_schema.c: the schema libfastmib copies into the segment, emitted
 * from the schema the format library checked and laid out. Offsets and
 * sizes refer to the header's macros, so the header's static assertions
 * cover the schema as well. */
#include "emit.h"

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

static void
emit_counters(struct name_pool *np, const struct fastmib_group_schema *g, struct strbuf *o)
{
	sb_printf(o, "static const struct fastmib_counter_schema %s[] = {\n",
		  pool_name(np, FASTMIB_C_COUNTERS, g->name, NULL));
	for (uint32_t ki = 0; ki < g->n_counters; ki++) {
		const struct fastmib_counter_schema *k = &g->counters[ki];

		sb_puts(o, "\t{\n\t\t.name = ");
		put_str(o, k->name);
		sb_puts(o, ",\n\t\t.units = ");
		put_str(o, k->units);
		sb_puts(o, ",\n\t\t.description = ");
		put_str(o, k->description);
		sb_printf(o, ",\n\t\t.arc = %uu,\n\t\t.type = %s,\n\t\t.offset = %uu,\n\t},\n",
			  k->arc, type_enum(k->type), k->offset);
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
	sb_printf(o, ",\n\t\t.arc = %uu,\n\t\t.storage = %s,\n\t\t.n_indexes = %uu,\n"
		     "\t\t.all_rows = %uu,\n",
		  g->arc, storage_enum(g->storage), g->n_indexes, g->all_rows);
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
	sb_printf(o, "\t\t.row_size = %s,\n\t\t.offset = %s,\n"
		     "\t\t.n_counters = %uu,\n\t\t.counters = %s,\n\t},\n",
		  pool_name(np, FASTMIB_C_ROW_SIZE, g->name, NULL),
		  pool_name(np, FASTMIB_C_OFFSET, g->name, NULL), g->n_counters,
		  pool_name(np, FASTMIB_C_COUNTERS, g->name, NULL));
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
	for (uint32_t gi = 0; gi < s->n_groups; gi++)
		emit_counters(&np, &s->groups[gi], o);
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
