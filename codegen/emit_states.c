/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's states in <prefix>_stats.h: the C form of each state type
 * (its member of `struct <p>_<g>_state`, the parameter of its setter), the
 * values of its enums, and the slow path's calls, each a wrapper of one
 * library call (<fastmib/fastmib.h>, "state objects"). Where each member
 * lies is fastmib_state_layout()'s to say (the library stores and reads
 * states with it): the generator writes the offsets it gives as macros and
 * asserts that the compiler lays the struct out the same way.
 */
#include "emit.h"

#include <string.h>

/* A group with states, and the names it uses all along. */
struct sg {
	const struct m_group *g;
	struct name_pool *np;
	const char *id;         /* P_GROUP_G */
	const char *tag;        /* p_g_state */
};

/* The member of state s: its declaration. */
static void
put_member(struct strbuf *o, const struct m_state *s, const char *member)
{
	switch (s->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		sb_printf(o, "\tbool %s;\n", member);
		break;
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		sb_printf(o, "\tint32_t %s;\n", member);
		break;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMESTAMP:
		sb_printf(o, "\tuint64_t %s;\n", member);
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		sb_printf(o, "\tint64_t %s;\n", member);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		sb_printf(o, "\tchar %s[%u + 1];\n", member, s->size);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		sb_printf(o, "\tstruct {\n\t\tuint16_t len;\n\t\tuint8_t octets[%u];\n\t} %s;\n",
			  s->size, member);
		break;
	case FASTMIB_STATE_IPV4:
		sb_printf(o, "\tuint8_t %s[4];\n", member);
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		sb_printf(o, "\tstruct fastmib_inet_address %s;\n", member);
		break;
	case FASTMIB_STATE_MAC:
		sb_printf(o, "\tuint8_t %s[6];\n", member);
		break;
	default: /* unsigned32, timeticks */
		sb_printf(o, "\tuint32_t %s;\n", member);
		break;
	}
}

/* What the member of state s holds, for its comment. */
static void
put_member_words(struct strbuf *t, const struct m_state *s)
{
	sb_printf(t, "%s (%s", s->name, fastmib_state_type_word(s->type));
	switch (s->type) {
	case FASTMIB_STATE_ENUM:
		sb_puts(t, ":");
		for (uint32_t i = 0; i < s->n_values; i++)
			sb_printf(t, "%s %s(%d)", i ? "," : "", s->values[i].label,
				  s->values[i].value);
		break;
	case FASTMIB_STATE_TIMETICKS:
		sb_puts(t, ", hundredths of a second");
		break;
	case FASTMIB_STATE_TIMESTAMP:
		sb_puts(t, ", fastmib_monotonic_ns() of the moment, 0 never");
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		sb_puts(t, ", nanoseconds since the Unix epoch, 0 unknown");
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		sb_printf(t, ", at most %u ASCII characters, NUL-terminated", s->size);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		sb_printf(t, ", the first len of octets, at most %u", s->size);
		break;
	case FASTMIB_STATE_IPV4:
		sb_puts(t, ", network order");
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		sb_puts(t, ", .type 0 unknown, 1 with an IPv4 address in .addr[0..3] or 2 with "
			   "an IPv6 address, network order");
		break;
	case FASTMIB_STATE_MAC:
		sb_puts(t, ", six octets in transmission order");
		break;
	default:
		break;
	}
	if (s->has_range)
		sb_printf(t, ", %lld..%lld", (long long)s->lo, (long long)s->hi);
	if (s->units[0])
		sb_printf(t, ", %s", s->units);
	sb_printf(t, "%s): ", s->notify ? ", notify" : "");
	put_c_comment_text(t, s->description);
}

/* An enum value as a C constant expression of type int (INT32_MIN has
 * no literal of its own). */
static void
put_int32(struct strbuf *o, int32_t v)
{
	if (v == INT32_MIN)
		sb_puts(o, "(-2147483647 - 1)");
	else if (v < 0)
		sb_printf(o, "(%d)", v);
	else
		sb_printf(o, "%d", v);
}

static void
emit_enum_values(struct sg *x, const struct m_state *s, struct strbuf *o)
{
	sb_printf(o, "/* Values of %s.%s. */\n", x->g->name, s->name);
	for (uint32_t i = 0; i < s->n_values; i++) {
		sb_printf(o, "#define %s ", pool_state_name(x->np, SN_C_ENUM_VALUE, x->g->name,
							    s->name, s->values[i].label));
		put_int32(o, s->values[i].value);
		sb_puts(o, "\n");
	}
	sb_puts(o, "\n");
}

static const char *
offset_name(struct sg *x, const struct m_state *s)
{
	return pool_state_name(x->np, SN_C_STATE_OFFSET, x->g->name, s->name, NULL);
}

static void
emit_struct(struct sg *x, const char *sassert, struct strbuf *o)
{
	const struct m_group *g = x->g;
	const char *size = pool_state_name(x->np, SN_C_STATE_SIZE, g->name, NULL, NULL);
	struct strbuf t;

	sb_printf(o, "/* The layout of the states of %s %s: fastmib_state_layout()'s. */\n",
		  g->table ? "a row of" : "group", g->name);
	for (uint32_t si = 0; si < g->n_states; si++)
		sb_printf(o, "#define %s %uu\n", offset_name(x, &g->states[si]),
			  g->states[si].offset);
	sb_printf(o, "#define %s %uu\n\n", size, g->state_size);
	sb_init(&t);
	sb_printf(&t, "The states of %s %s: one member per state, in model order, laid "
		      "out as fastmib_state_layout() says (asserted below). The slow path "
		      "sets them; readers read them whole%s.", g->table ? "a row of" : "group",
		  g->name, g->n_counters ? ", with the counters" : "");
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_printf(o, "struct %s {\n", x->tag);
	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct m_state *s = &g->states[si];

		sb_init(&t);
		put_member_words(&t, s);
		put_c_comment_tab(o, t.data);
		sb_free(&t);
		put_member(o, s, pool_snake(x->np, s->name));
	}
	sb_puts(o, "};\n\n");
	sb_init(&t);
	sb_printf(&t, "%s state", g->name);
	for (uint32_t si = 0; si < g->n_states; si++)
		put_offset_assert(o, sassert, x->tag, pool_snake(x->np, g->states[si].name),
				  offset_name(x, &g->states[si]), t.data, g->states[si].name);
	put_size_assert(o, sassert, x->tag, size, t.data);
	sb_free(&t);
}

/*
 * "static inline int\nNAME(struct fastmib_segment *seg[, uint32_t row],
 * PARAM...)\n{\n\treturn CALL(seg, P_GROUP_G, row, ARGS);\n}\n\n": a
 * setter or the getter. A scalar group's row is 0.
 */
static void
put_function(struct sg *x, struct strbuf *o, const char *name, const char *const *params,
	     size_t n, const char *call, const char *args)
{
	const char *all[4] = { "struct fastmib_segment *seg", "uint32_t row" };
	struct strbuf c;
	size_t k = x->g->table ? 2 : 1;

	for (size_t i = 0; i < n; i++)
		all[k++] = params[i];
	sb_puts(o, "static inline int\n");
	put_c_prototype(o, name, all, k);
	sb_init(&c);
	sb_printf(&c, "\treturn %s(seg, %s, %s,", call, x->id, x->g->table ? "row" : "0u");
	/* the arguments on the line when it fits in 80 columns (a tab is 8) */
	sb_printf(o, "\n{\n%s%s%s);\n}\n\n", c.data, 7 + c.len + 1 + strlen(args) + 2 > 80 ?
						    "\n\t\t" : " ", args);
	sb_free(&c);
}

/* The one-state setter of state si: its parameters and how it calls. */
static void
emit_one_setter(struct sg *x, uint32_t si, struct strbuf *o)
{
	const struct m_state *s = &x->g->states[si];
	const char *name = pool_state_name(x->np, SN_C_STATE_ONE_SET, x->g->name, s->name, NULL);
	const char *params[2] = { NULL, NULL };
	const char *call = "fastmib_state_set_one";
	const char *value = "&value";
	struct strbuf t, a;
	size_t n = 1;

	switch (s->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		params[0] = "bool value";
		break;
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		params[0] = "int32_t value";
		break;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMESTAMP:
		params[0] = "uint64_t value";
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		params[0] = "int64_t value";
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		params[0] = "const char *value";
		call = "fastmib_state_set_text";
		value = "value";
		break;
	case FASTMIB_STATE_OCTET_STRING:
		params[0] = "const void *octets";
		params[1] = "size_t len";
		n = 2;
		call = "fastmib_state_set_octets";
		value = "octets, len";
		break;
	case FASTMIB_STATE_IPV4:
		params[0] = "const uint8_t value[4]";
		value = "value";
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		params[0] = "const struct fastmib_inet_address *value";
		value = "value";
		break;
	case FASTMIB_STATE_MAC:
		params[0] = "const uint8_t value[6]";
		value = "value";
		break;
	default: /* unsigned32, timeticks */
		params[0] = "uint32_t value";
		break;
	}
	sb_init(&t);
	sb_printf(&t, "%s.%s of %s, the row's other states unchanged (%s()).", x->g->name,
		  s->name, x->g->table ? "row `row`" : "the group", call);
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_init(&a);
	sb_printf(&a, "%uu, %s", si, value);
	put_function(x, o, name, params, n, call, a.data);
	sb_free(&a);
}

/* What `row` is, what the calls return and who may call them. */
static void
emit_calls_comment(struct sg *x, struct strbuf *o)
{
	const struct m_group *g = x->g;
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "The states of %s, set by the slow path: every state of ", g->name);
	if (g->keyed)
		sb_printf(&t, "a row (the row %s() gave)",
			  pool_name(x->np, FASTMIB_C_KEY_INSERT, g->name, NULL));
	else if (g->table)
		sb_printf(&t, "a row (the row %s() gives for its indexes)",
			  pool_name(x->np, FASTMIB_C_ROW_FN, g->name, NULL));
	else
		sb_puts(&t, "the group");
	sb_printf(&t, " at once with %s(), one state with the setter named after it, the "
		      "others unchanged; %s() reads them whole. A set is published in one "
		      "step: readers see the states before it or after it, never half of it. "
		      "They return 0, -EINVAL for a value the model does not allow (nothing "
		      "changes; fastmib_last_error() names the state)%s, -EPERM outside the "
		      "process that created the segment. Callers: any thread of that process, "
		      "lcores included; a setter never waits for a reader nor makes a counter "
		      "update wait, two setters of one row take turns.",
		  pool_state_name(x->np, SN_C_STATE_SET, g->name, NULL, NULL),
		  pool_state_name(x->np, SN_C_STATE_GET, g->name, NULL, NULL),
		  g->keyed ? ", -ENOENT for a row whose key was removed"
		  : g->table && !g->all_rows ? ", -ENOENT for a row not enabled" : "");
	put_c_comment(o, t.data);
	sb_free(&t);
}

void
emit_states(const struct model *m, uint32_t gi, struct name_pool *np, const char *sassert,
	    struct strbuf *o)
{
	const struct m_group *g = &m->groups[gi];
	struct sg x = { g, np, pool_name(np, FASTMIB_C_GROUP_ID, g->name, NULL),
			pool_state_name(np, SN_C_STATE_STRUCT, g->name, NULL, NULL) };
	struct strbuf t;
	const char *st[1];

	sb_printf(o, "/* ---- group %s: states ---- */\n\n", g->name);
	for (uint32_t si = 0; si < g->n_states; si++)
		if (g->states[si].type == FASTMIB_STATE_ENUM)
			emit_enum_values(&x, &g->states[si], o);
	emit_struct(&x, sassert, o);
	emit_calls_comment(&x, o);
	sb_init(&t);
	sb_printf(&t, "const struct %s *st", x.tag);
	st[0] = t.data;
	put_function(&x, o, pool_state_name(np, SN_C_STATE_SET, g->name, NULL, NULL), st, 1,
		     "fastmib_state_set", "st");
	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "struct %s *out", x.tag);
	st[0] = t.data;
	put_function(&x, o, pool_state_name(np, SN_C_STATE_GET, g->name, NULL, NULL), st, 1,
		     "fastmib_state_get", "out");
	sb_free(&t);
	for (uint32_t si = 0; si < g->n_states; si++)
		emit_one_setter(&x, si, o);
}
