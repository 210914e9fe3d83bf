/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * States in the MIB: the object of each state (two for an inet-address,
 * RFC 4001's InetAddressType right before its InetAddress), read-only,
 * with the SMI syntax of its type and a DEFVAL of the value it starts with
 * wherever SMIv2 allows one (not for CounterBasedGauge64, a Counter64);
 * and the notification of each `notify` state, under R.5.0, with their
 * NOTIFICATION-GROUP. Arcs are <fastmib/oidmap.h>'s; docs/mib-layout.md,
 * "State objects", says the same for people.
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "fastmib/oidmap.h"

#define WIDTH  72
#define INDENT "        "

/* Where the SYNTAX clause's value starts: "    SYNTAX       ". */
#define SYNTAX_COLUMN 17

/* The C form of the value state s starts with: its default, or zeros. */
static const uint8_t *
start_value(const struct m_state *s)
{
	static const uint8_t zero[FASTMIB_MAX_OCTET_STRING + 2];

	return s->def ? s->def : zero;
}

static void
put_hex(struct strbuf *o, const uint8_t *v, size_t n)
{
	sb_putc(o, '\'');
	for (size_t i = 0; i < n; i++)
		sb_printf(o, "%02x", v[i]);
	sb_puts(o, "'H");
}

static int
cmp_value(const void *a, const void *b)
{
	const struct fastmib_enum_value *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* INTEGER { a(1), b(2) }, ascending by value whatever the model's order:
 * on the SYNTAX line when it fits, else one label a line. */
static void
put_enum_syntax(struct strbuf *o, const struct m_state *s)
{
	struct fastmib_enum_value *v = xcalloc(s->n_values, sizeof(*v));
	struct strbuf line;

	memcpy(v, s->values, s->n_values * sizeof(*v));
	qsort(v, s->n_values, sizeof(*v), cmp_value);
	sb_init(&line);
	sb_puts(&line, "INTEGER {");
	for (uint32_t i = 0; i < s->n_values; i++)
		sb_printf(&line, "%s %s(%d)", i ? "," : "", v[i].label, v[i].value);
	sb_puts(&line, " }");
	if (SYNTAX_COLUMN + line.len <= WIDTH) {
		sb_puts(o, line.data);
	} else {
		sb_puts(o, "INTEGER {");
		for (uint32_t i = 0; i < s->n_values; i++)
			sb_printf(o, "%s\n%*s%s(%d)", i ? "," : "", SYNTAX_COLUMN + 4, "",
				  v[i].label, v[i].value);
		sb_printf(o, "\n%*s}", SYNTAX_COLUMN, "");
	}
	sb_free(&line);
	free(v);
}

/* "Integer32 (-10..10)": a number type, refined by the state's range. */
static void
put_ranged(struct strbuf *o, const char *type, const struct m_state *s)
{
	sb_puts(o, type);
	if (s->has_range)
		sb_printf(o, " (%lld..%lld)", (long long)s->lo, (long long)s->hi);
}

/*
 * The syntax, SEQUENCE type and DEFVAL of the object of state s (of its
 * InetAddress, for an inet-address), and what its DESCRIPTION adds to the
 * model's.
 */
static void
describe(const struct m_state *s, struct mib_object *ob, struct strbuf *syntax,
	 struct strbuf *defval, struct strbuf *more)
{
	const uint8_t *v = start_value(s);
	int32_t i32;
	uint32_t u32;
	uint16_t len;

	switch (s->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		ob->seq_syntax = "TruthValue";
		sb_puts(syntax, "TruthValue");
		sb_puts(defval, v[0] ? "true" : "false");
		break;
	case FASTMIB_STATE_ENUM:
		ob->seq_syntax = "INTEGER";
		put_enum_syntax(syntax, s);
		memcpy(&i32, v, sizeof(i32));
		sb_puts(defval, fastmib_enum_label(&(struct fastmib_state_schema){
			.n_values = s->n_values, .values = s->values }, i32));
		break;
	case FASTMIB_STATE_INTEGER32:
		ob->seq_syntax = "Integer32";
		put_ranged(syntax, "Integer32", s);
		memcpy(&i32, v, sizeof(i32));
		sb_printf(defval, "%d", i32);
		break;
	case FASTMIB_STATE_UNSIGNED32:
		ob->seq_syntax = "Unsigned32";
		put_ranged(syntax, "Unsigned32", s);
		memcpy(&u32, v, sizeof(u32));
		sb_printf(defval, "%u", u32);
		break;
	case FASTMIB_STATE_GAUGE64:
		/* a Counter64 underneath: SMIv2 gives it no DEFVAL */
		ob->seq_syntax = "CounterBasedGauge64";
		sb_puts(syntax, "CounterBasedGauge64");
		break;
	case FASTMIB_STATE_TIMETICKS:
		ob->seq_syntax = "TimeTicks";
		sb_puts(syntax, "TimeTicks");
		memcpy(&u32, v, sizeof(u32));
		sb_printf(defval, "%u", u32);
		break;
	case FASTMIB_STATE_TIMESTAMP:
		ob->seq_syntax = "TimeStamp";
		sb_puts(syntax, "TimeStamp");
		sb_puts(defval, "0");
		sb_puts(more, "\nThe value of sysUpTime at that moment; 0 if it has not "
			      "happened.");
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		ob->seq_syntax = "DateAndTime";
		sb_puts(syntax, "DateAndTime");
		sb_puts(defval, "'0000000000000000'H");
		sb_puts(more, "\nIn UTC; '0000000000000000'H while unknown.");
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		ob->seq_syntax = "DisplayString";
		sb_printf(syntax, "DisplayString (SIZE (0..%u))", s->size);
		sb_printf(defval, "\"%s\"", (const char *)v);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		ob->seq_syntax = "OCTET STRING";
		sb_printf(syntax, "OCTET STRING (SIZE (0..%u))", s->size);
		memcpy(&len, v, sizeof(len));
		put_hex(defval, v + 2, len);
		break;
	case FASTMIB_STATE_IPV4:
		ob->seq_syntax = "IpAddress";
		sb_puts(syntax, "IpAddress");
		put_hex(defval, v, 4);
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		ob->seq_syntax = "InetAddress";
		sb_puts(syntax, "InetAddress (SIZE (0 | 4 | 16))");
		put_hex(defval, ((const struct fastmib_inet_address *)(const void *)v)->addr,
			v[0] == 1 ? 4 : v[0] == 2 ? 16 : 0);
		break;
	case FASTMIB_STATE_MAC:
		ob->seq_syntax = "MacAddress";
		sb_puts(syntax, "MacAddress");
		put_hex(defval, v, 6);
		break;
	}
}

/* The InetAddressType object of inet-address state s, `address` its
 * InetAddress object. */
static void
make_type_object(const char *prefix, const struct m_group *g, const struct m_state *s,
		 const char *address, struct mib_object *ob)
{
	const char *type = fastmib_inet_type_word(start_value(s)[0]);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "The type of the address in %s: unknown(0) while there is none, ipv4(1) "
		      "or ipv6(2).", address);
	*ob = (struct mib_object){
		.name = state_name(SN_MIB_STATE_TYPE, prefix, g->name, s->name, NULL),
		/* not subtyped to the values used: RFC 4001 asks so */
		.seq_syntax = "InetAddressType", .syntax = xstrdup("InetAddressType"),
		.access = "read-only", .description = sb_take(&t),
		.defval = xstrdup(type ? type : "unknown"), .arc = s->arc,
	};
}

static void
make_object(const char *prefix, const struct m_group *g, const struct m_state *s,
	    struct mib_object *ob)
{
	struct strbuf syntax, defval, text;
	char *change = state_name(SN_MIB_STATE_CHANGE, prefix, g->name, s->name, NULL);
	char *type = state_name(SN_MIB_STATE_TYPE, prefix, g->name, s->name, NULL);

	*ob = (struct mib_object){
		.name = state_name(SN_MIB_STATE, prefix, g->name, s->name, NULL),
		.units = s->units[0] ? s->units : NULL, .access = "read-only",
		.arc = s->type == FASTMIB_STATE_INET_ADDRESS ? s->arc + 1 : s->arc,
	};
	sb_init(&syntax);
	sb_init(&defval);
	sb_init(&text);
	sb_puts(&text, s->description);
	describe(s, ob, &syntax, &defval, &text);
	if (s->type == FASTMIB_STATE_INET_ADDRESS)
		sb_printf(&text, "\nIts type is %s's; empty while unknown.", type);
	if (s->notify)
		sb_printf(&text, "\nA change of its value is sent as %s.", change);
	ob->syntax = sb_take(&syntax);
	ob->defval = defval.len ? sb_take(&defval) : NULL;
	sb_free(&defval);
	ob->description = sb_take(&text);
	free(change);
	free(type);
}

size_t
mib_state_objects(const char *prefix, const struct m_group *g, struct mib_object *out)
{
	size_t n = 0;

	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct m_state *s = &g->states[si];

		if (s->type == FASTMIB_STATE_INET_ADDRESS) {
			char *address = state_name(SN_MIB_STATE, prefix, g->name, s->name, NULL);

			make_type_object(prefix, g, s, address, &out[n++]);
			free(address);
		}
		make_object(prefix, g, s, &out[n++]);
	}
	return n;
}

/* ---- notifications ---- */

/* A notify state, and where its notification is. */
struct notif {
	const struct m_group *g;
	const struct m_state *s;
	uint32_t arc;               /* under R.5.0 */
};

static int
cmp_notif(const void *a, const void *b)
{
	const struct notif *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

/* The model's notify states in OID order, into *out (heap); their number. */
static size_t
notifs(const struct model *m, struct notif **out)
{
	size_t n = 0, cap = 0;

	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		cap += m->groups[gi].n_states;
	*out = xcalloc(cap + 1, sizeof(**out));
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t si = 0; si < m->groups[gi].n_states; si++)
			if (m->groups[gi].states[si].notify)
				(*out)[n++] = (struct notif){
					&m->groups[gi], &m->groups[gi].states[si],
					FASTMIB_STATE_NOTIF_GROUP * m->groups[gi].arc +
					m->groups[gi].states[si].arc };
	qsort(*out, n, sizeof(**out), cmp_notif);
	return n;
}

static void
emit_notification(const struct model *m, const struct notif *x, const char *node,
		  const char *dropped, struct strbuf *o)
{
	char *name = state_name(SN_MIB_STATE_CHANGE, m->prefix, x->g->name, x->s->name, NULL);
	char *object = state_name(SN_MIB_STATE, m->prefix, x->g->name, x->s->name, NULL);
	struct strbuf t;

	sb_printf(o, "%s NOTIFICATION-TYPE\n    OBJECTS      {\n", name);
	if (x->s->type == FASTMIB_STATE_INET_ADDRESS) {
		char *type = state_name(SN_MIB_STATE_TYPE, m->prefix, x->g->name, x->s->name,
					NULL);

		sb_printf(o, INDENT "  %s,\n", type);
		free(type);
	}
	sb_printf(o, INDENT "  %s\n    }\n    STATUS       current\n", object);
	sb_init(&t);
	sb_printf(&t, "%s\nSent when the application changes %s%s to a new value, which "
		      "the notification carries%s. Changes are sent in the order they were "
		      "made; those the agent does not send are counted in %s.",
		  x->s->description, object, x->g->table ? " of a row" : "",
		  x->g->table ? ", the row's index as its instance" : "", dropped);
	mib_put_description(o, t.data);
	sb_free(&t);
	sb_printf(o, "    ::= { %s %u }\n\n", node, x->arc);
	free(name);
	free(object);
}

void
mib_state_notifications(const struct model *m, struct strbuf *o)
{
	char *parent = state_name(SN_MIB_NOTIFICATIONS, m->prefix, NULL, NULL, NULL);
	char *node = state_name(SN_MIB_STATE_NOTIFICATIONS, m->prefix, NULL, NULL, NULL);
	char *dropped = state_name(SN_MIB_NOTIFICATIONS_DROPPED, m->prefix, NULL, NULL, NULL);
	struct notif *v;
	size_t n = notifs(m, &v);

	sb_puts(o, "-- State notifications\n\n");
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n\n", node, parent,
		  FASTMIB_ARC_STATE_NOTIFS);
	for (size_t i = 0; i < n; i++)
		emit_notification(m, &v[i], node, dropped, o);
	free(v);
	free(parent);
	free(node);
	free(dropped);
}

void
mib_state_notification_group(const struct model *m, const char *groups, struct strbuf *o)
{
	char *name = state_name(SN_MIB_STATE_NOTIFICATION_GROUP, m->prefix, NULL, NULL, NULL);
	struct notif *v;
	size_t n = notifs(m, &v);

	sb_printf(o, "%s NOTIFICATION-GROUP\n    NOTIFICATIONS {\n", name);
	for (size_t i = 0; i < n; i++) {
		char *nt = state_name(SN_MIB_STATE_CHANGE, m->prefix, v[i].g->name, v[i].s->name,
				      NULL);

		sb_printf(o, "%s" INDENT "  %s", i ? ",\n" : "", nt);
		free(nt);
	}
	sb_puts(o, "\n    }\n    STATUS       current\n");
	mib_put_description(o, "The notifications of the states the model marks with notify.");
	sb_printf(o, "    ::= { %s %u }\n\n", groups, FASTMIB_ARC_STATE_NOTIFICATION_GROUP);
	free(v);
	free(name);
}
