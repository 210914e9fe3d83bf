/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <MODULE-NAME>.txt, an SMIv2 module. Layout (<fastmib/oidmap.h>, docs/mib-layout.md):
 *   R        <prefix>Mib MODULE-IDENTITY
 *   R.1      <prefix>Objects; group G at R.1.G
 *   R.2      <prefix>Control: ResetAll (1), DiscontinuityTime (2), WriterStatus (3),
 *            BestEffortReads (4), OutOfRangeUpdates (5)
 *   R.3      <prefix>Conformance: compliances (1), groups (2)
 *   R.4      <prefix>Events (models with events): notifications (0),
 *            event table (1), event statistics table (2)
 *   R.5      <prefix>Notifications (models with a notify state): R.5.0 theirs
 * Arcs above FASTMIB_MAX_ARC inside a group are reserved for the objects
 * the generator adds (reset, discontinuity time, index columns). A group's
 * states share its arcs with its counters (emit_mib_states.c).
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "fastmib/oidmap.h"
#include "single_names.h"
#include "state_names.h"

#define INDENT "        "
#define WIDTH  72

/* What a reset does to peaks, in the descriptions of the reset objects. */
#define PEAKS_RESET " Peaks start again from 0, and show only values recorded after the reset."

/*
 * Registered nodes a module root can hang from without implicit nodes
 * (smilint warns about `{ parent 1 2 3 }`). The longest prefix wins.
 */
static const struct parent {
	const char *name;
	const char *module;  /* NULL: ASN.1 built-in */
	uint32_t len;
	uint32_t oid[9];
} parents[] = {
	{ "ccitt", NULL, 1, { 0 } },
	{ "iso", NULL, 1, { 1 } },
	{ "joint-iso-ccitt", NULL, 1, { 2 } },
	{ "org", "SNMPv2-SMI", 2, { 1, 3 } },
	{ "dod", "SNMPv2-SMI", 3, { 1, 3, 6 } },
	{ "internet", "SNMPv2-SMI", 4, { 1, 3, 6, 1 } },
	{ "directory", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 1 } },
	{ "mgmt", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 2 } },
	{ "mib-2", "SNMPv2-SMI", 6, { 1, 3, 6, 1, 2, 1 } },
	{ "transmission", "SNMPv2-SMI", 7, { 1, 3, 6, 1, 2, 1, 10 } },
	{ "experimental", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 3 } },
	{ "private", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 4 } },
	{ "enterprises", "SNMPv2-SMI", 6, { 1, 3, 6, 1, 4, 1 } },
	{ "security", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 5 } },
	{ "snmpV2", "SNMPv2-SMI", 5, { 1, 3, 6, 1, 6 } },
	{ "snmpDomains", "SNMPv2-SMI", 6, { 1, 3, 6, 1, 6, 1 } },
	{ "snmpProxys", "SNMPv2-SMI", 6, { 1, 3, 6, 1, 6, 2 } },
	{ "snmpModules", "SNMPv2-SMI", 6, { 1, 3, 6, 1, 6, 3 } },
	{ "netSnmp", "NET-SNMP-MIB", 7, { 1, 3, 6, 1, 4, 1, 8072 } },
	{ "netSnmpObjects", "NET-SNMP-MIB", 8, { 1, 3, 6, 1, 4, 1, 8072, 1 } },
	{ "netSnmpEnumerations", "NET-SNMP-MIB", 8, { 1, 3, 6, 1, 4, 1, 8072, 3 } },
	{ "netSnmpModuleIDs", "NET-SNMP-MIB", 9, { 1, 3, 6, 1, 4, 1, 8072, 3, 1 } },
	{ "netSnmpAgentOIDs", "NET-SNMP-MIB", 9, { 1, 3, 6, 1, 4, 1, 8072, 3, 2 } },
	{ "netSnmpDomains", "NET-SNMP-MIB", 9, { 1, 3, 6, 1, 4, 1, 8072, 3, 3 } },
	{ "netSnmpNotificationPrefix", "NET-SNMP-MIB", 8, { 1, 3, 6, 1, 4, 1, 8072, 4 } },
	{ "netSnmpExperimental", "NET-SNMP-MIB", 8, { 1, 3, 6, 1, 4, 1, 8072, 9999 } },
	{ "netSnmpPlaypen", "NET-SNMP-MIB", 9, { 1, 3, 6, 1, 4, 1, 8072, 9999, 9999 } },
};

static const struct parent *
find_parent(const struct model *m)
{
	const struct parent *best = NULL;
	size_t i;

	for (i = 0; i < sizeof(parents) / sizeof(parents[0]); i++) {
		const struct parent *p = &parents[i];

		if (p->len >= m->oid_len ||
		    memcmp(p->oid, m->oid, p->len * sizeof(uint32_t)) != 0)
			continue;
		if (!best || p->len > best->len)
			best = p;
	}
	return best; /* never NULL: the first arc is 0..2 */
}

const char *
mib_parent_module(const struct model *m)
{
	const struct parent *p = find_parent(m);

	return p->module && strcmp(p->module, "SNMPv2-SMI") != 0 ? p->module : NULL;
}

/* Names used throughout; built once. */
struct mn {
	const struct model *m;
	const char *p;
	char *root, *objects, *control, *conformance, *compliances, *groups;
	char *events;
};


/* mib_put_description() of a text made as printf() makes it. */
static void __attribute__((format(printf, 2, 3)))
put_descriptionf(struct strbuf *o, const char *fmt, ...)
{
	struct strbuf t;
	va_list ap;

	sb_init(&t);
	va_start(ap, fmt);
	sb_vprintf(&t, fmt, ap);
	va_end(ap);
	mib_put_description(o, t.data);
	sb_free(&t);
}

static bool
uses_type(const struct model *m, enum fastmib_type t)
{
	uint32_t gi, ki;

	for (gi = 0; gi < m->n_groups; gi++)
		for (ki = 0; ki < m->groups[gi].n_counters; ki++)
			if (m->groups[gi].counters[ki].type == t)
				return true;
	return false;
}

static bool
uses_tables(const struct model *m)
{
	uint32_t gi;

	for (gi = 0; gi < m->n_groups; gi++)
		if (m->groups[gi].table)
			return true;
	return false;
}

/* Has the model a `notify` event (the event log's notifications)? */
static bool
events_notify(const struct model *m)
{
	uint32_t i;

	for (i = 0; i < m->n_events; i++)
		if (m->events[i].notify)
			return true;
	return false;
}

static void
put_import_list(struct strbuf *o, struct strbuf *list, const char *module)
{
	wrap_text(o, list->data, "    ", WIDTH, 1);
	sb_printf(o, "\n        FROM %s", module);
	sb_free(list);
	sb_init(list);
}

size_t
mib_tc_modules(const struct model *m, struct mib_tc_module *out)
{
	size_t n = 0;

	if (mib_uses_index_type(m, FASTMIB_INDEX_INET_ADDRESS) ||
	    model_has_state_type(m, FASTMIB_STATE_INET_ADDRESS))
		out[n++] = (struct mib_tc_module){ "INET-ADDRESS-MIB",
						   "InetAddressType, InetAddress" };
	/* a gauge64 state, a peak, a histogram's bucket bounds */
	if (model_has_state_type(m, FASTMIB_STATE_GAUGE64) ||
	    model_has_counter_type(m, FASTMIB_HISTOGRAM) || model_has_counter_type(m, FASTMIB_PEAK))
		out[n++] = (struct mib_tc_module){ "HCNUM-TC", "CounterBasedGauge64" };
	return n;
}

/*
 * Imports of a model with events, keyed tables or states: more names, so
 * each list is wrapped. Each name only where the module uses it (smilint
 * -l 6 flags the others).
 */
static void
emit_wrapped_imports(const struct mn *n, const struct parent *par, struct strbuf *o)
{
	const struct model *m = n->m;
	bool notify = model_notifies(m), events = m->n_events > 0;
	struct mib_tc_module tc[2];
	size_t n_tc = mib_tc_modules(m, tc);
	struct strbuf l;

	sb_init(&l);
	sb_puts(o, "IMPORTS\n");
	sb_printf(&l, "MODULE-IDENTITY, OBJECT-TYPE%s, Counter64",
		  notify ? ", NOTIFICATION-TYPE" : "");
	if (uses_type(m, FASTMIB_COUNTER32))
		sb_puts(&l, ", Counter32");
	if (uses_type(m, FASTMIB_GAUGE32))
		sb_puts(&l, ", Gauge32");
	if (model_has_state_type(m, FASTMIB_STATE_INTEGER32))
		sb_puts(&l, ", Integer32");
	if (events || mib_uses_index_type(m, FASTMIB_INDEX_INTEGER) ||
	    mib_uses_index_type(m, FASTMIB_INDEX_UINT32) ||
	    model_has_state_type(m, FASTMIB_STATE_UNSIGNED32) ||
	    model_has_counter_type(m, FASTMIB_HISTOGRAM))
		sb_puts(&l, ", Unsigned32");
	if (model_has_state_type(m, FASTMIB_STATE_TIMETICKS))
		sb_puts(&l, ", TimeTicks");
	if (mib_uses_index_type(m, FASTMIB_INDEX_IPV4) || model_has_state_type(m, FASTMIB_STATE_IPV4))
		sb_puts(&l, ", IpAddress");
	if (par->module && strcmp(par->module, "SNMPv2-SMI") == 0)
		sb_printf(&l, ", %s", par->name);
	put_import_list(o, &l, "SNMPv2-SMI\n");
	sb_printf(&l, "%sTruthValue, TimeStamp", events ? "TEXTUAL-CONVENTION, " : "");
	if (events || mib_uses_index_type(m, FASTMIB_INDEX_STRING) ||
	    model_has_state_type(m, FASTMIB_STATE_DISPLAY_STRING))
		sb_puts(&l, ", DisplayString");
	if (events || model_has_state_type(m, FASTMIB_STATE_DATE_AND_TIME))
		sb_puts(&l, ", DateAndTime");
	if (mib_uses_index_type(m, FASTMIB_INDEX_MAC) || model_has_state_type(m, FASTMIB_STATE_MAC))
		sb_puts(&l, ", MacAddress");
	put_import_list(o, &l, "SNMPv2-TC\n");
	sb_printf(&l, "MODULE-COMPLIANCE, OBJECT-GROUP%s",
		  notify ? ", NOTIFICATION-GROUP" : "");
	put_import_list(o, &l, "SNMPv2-CONF");
	for (size_t i = 0; i < n_tc; i++) {
		sb_puts(o, "\n");
		sb_puts(&l, tc[i].names);
		put_import_list(o, &l, tc[i].module);
	}
	sb_free(&l);
	if (par->module && strcmp(par->module, "SNMPv2-SMI") != 0)
		sb_printf(o, "\n    %s\n        FROM %s", par->name, par->module);
	sb_puts(o, ";\n\n");
}

static void
emit_imports(const struct mn *n, const struct parent *par, struct strbuf *o)
{
	const struct model *m = n->m;

	if (m->n_events || model_has_keyed(m) || model_has_state_type(m, 0) ||
	    model_has_counter_type(m, FASTMIB_HISTOGRAM) || model_has_counter_type(m, FASTMIB_PEAK)) {
		emit_wrapped_imports(n, par, o);
		return;
	}

	/* Counter64: the model's counters, if any, and <p>BestEffortReads */
	sb_puts(o, "IMPORTS\n    MODULE-IDENTITY, OBJECT-TYPE, Counter64");
	if (uses_type(m, FASTMIB_COUNTER32))
		sb_puts(o, ", Counter32");
	if (uses_type(m, FASTMIB_GAUGE32))
		sb_puts(o, ", Gauge32");
	if (uses_tables(m))
		sb_puts(o, ", Unsigned32");
	if (par->module && strcmp(par->module, "SNMPv2-SMI") == 0)
		sb_printf(o, ",\n    %s", par->name);
	sb_puts(o, "\n        FROM SNMPv2-SMI\n"
		   "    TruthValue, TimeStamp\n        FROM SNMPv2-TC\n"
		   "    MODULE-COMPLIANCE, OBJECT-GROUP\n        FROM SNMPv2-CONF");
	if (par->module && strcmp(par->module, "SNMPv2-SMI") != 0)
		sb_printf(o, "\n    %s\n        FROM %s", par->name, par->module);
	sb_puts(o, ";\n\n");
}

static void
put_smi_date(struct strbuf *o, const char *date)
{
	sb_printf(o, "\"%.4s%.2s%.2s0000Z\"", date, date + 5, date + 8);
}

static void
emit_identity(const struct mn *n, const struct parent *par, struct strbuf *o)
{
	const struct model *m = n->m;
	uint32_t i;

	sb_printf(o, "%s MODULE-IDENTITY\n    LAST-UPDATED ", n->root);
	put_smi_date(o, m->revisions[0].date);
	sb_puts(o, "\n    ORGANIZATION\n" INDENT "\"");
	wrap_text(o, m->organization, INDENT, WIDTH, 0);
	sb_puts(o, "\"\n    CONTACT-INFO\n" INDENT "\"");
	wrap_text(o, m->contact, INDENT, WIDTH, 0);
	sb_puts(o, "\"\n");
	mib_put_description(o, m->description);
	for (i = 0; i < m->n_revisions; i++) {
		sb_puts(o, "    REVISION     ");
		put_smi_date(o, m->revisions[i].date);
		sb_putc(o, '\n');
		mib_put_description(o, m->revisions[i].description);
	}
	sb_printf(o, "    ::= { %s", par->name);
	for (i = par->len; i < m->oid_len; i++)
		sb_printf(o, " %u", m->oid[i]);
	sb_puts(o, " }\n\n");
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", n->objects, n->root,
		  FASTMIB_ARC_OBJECTS);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", n->control, n->root,
		  FASTMIB_ARC_CONTROL);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", n->conformance, n->root,
		  FASTMIB_ARC_CONFORMANCE);
	if (m->n_events)
		sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", n->events, n->root,
			  FASTMIB_ARC_EVENTS);
	if (model_notifies_states(m)) {
		char *s = state_name(SN_MIB_NOTIFICATIONS, n->p, NULL, NULL, NULL);

		sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", s, n->root,
			  FASTMIB_ARC_NOTIFICATIONS);
		free(s);
	}
	sb_puts(o, "\n");
}

/*
 * A group's objects under its node or entry, its counters and the objects
 * of its states, in OID order: SMI tools expect a table's columns in
 * SEQUENCE order.
 */
struct column {
	unsigned arc;
	const struct m_counter *k; /* a counter, or */
	const struct mib_object *s; /* an object of a state */
};

struct columns {
	struct column *v;
	size_t n;
	struct mib_object *states;
	size_t n_states;
	struct mib_object *hist;    /* histograms' counts and sums, peaks */
	size_t n_hist;
};

static int
cmp_column(const void *a, const void *b)
{
	const struct column *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

static void
columns_of(const struct mn *n, const struct m_group *g, struct columns *c)
{
	c->states = xcalloc(2 * g->n_states + 1, sizeof(*c->states));
	c->n_states = mib_state_objects(n->p, g, c->states);
	c->hist = xcalloc(2 * g->n_counters + 1, sizeof(*c->hist));
	c->n_hist = mib_hist_objects(n->p, g, c->hist);
	c->v = xcalloc(g->n_counters + c->n_states + c->n_hist + 1, sizeof(*c->v));
	c->n = 0;
	for (uint32_t i = 0; i < g->n_counters; i++)
		if (g->counters[i].type != FASTMIB_HISTOGRAM && g->counters[i].type != FASTMIB_PEAK)
			c->v[c->n++] = (struct column){ g->counters[i].arc, &g->counters[i], NULL };
	for (size_t i = 0; i < c->n_hist; i++)
		c->v[c->n++] = (struct column){ c->hist[i].arc, NULL, &c->hist[i] };
	for (size_t i = 0; i < c->n_states; i++)
		c->v[c->n++] = (struct column){ c->states[i].arc, NULL, &c->states[i] };
	/* arcs are unique in a group (the schema's rule): a total order */
	qsort(c->v, c->n, sizeof(*c->v), cmp_column);
}

static void
columns_free(struct columns *c)
{
	mib_objects_free(c->states, c->n_states);
	free(c->states);
	mib_objects_free(c->hist, c->n_hist);
	free(c->hist);
	free(c->v);
}

/* The descriptor of column c (heap). */
static char *
column_name(const struct mn *n, const struct m_group *g, const struct column *c)
{
	return c->k ? gen_name(FASTMIB_MIB_COUNTER, n->p, g->name, c->k->name)
		    : xstrdup(c->s->name);
}

static const char *
smi_type(enum fastmib_type t)
{
	switch (t) {
	case FASTMIB_COUNTER64:
		return "Counter64";
	case FASTMIB_COUNTER32:
		return "Counter32";
	case FASTMIB_GAUGE32:
		return "Gauge32";
	case FASTMIB_HISTOGRAM:
	case FASTMIB_PEAK:
		break;
	}
	return "?";
}

static void
emit_counter(const struct mn *n, const struct m_group *g,
	     const struct m_counter *k, const char *parent, struct strbuf *o)
{
	char *name = gen_name(FASTMIB_MIB_COUNTER, n->p, g->name, k->name);
	char *gdisc = gen_name(FASTMIB_MIB_GROUP_DISCONTINUITY, n->p, g->name, NULL);
	char *mdisc = gen_name(FASTMIB_MIB_DISCONTINUITY, n->p, NULL, NULL);
	struct strbuf text;

	sb_init(&text);
	sb_puts(&text, k->description);
	switch (k->type) {
	case FASTMIB_GAUGE32:
		sb_puts(&text, "\nThis gauge is not changed by a reset.");
		break;
	case FASTMIB_COUNTER32:
	case FASTMIB_COUNTER64:
		sb_printf(&text, "\nDiscontinuities in the value of this counter can "
				 "occur at re-initialization of the management system, "
				 "and at other times as indicated by the value of %s%s "
				 "and of %s.",
			  gdisc, g->table ? " of the same row" : "", mdisc);
		break;
	case FASTMIB_HISTOGRAM:
	case FASTMIB_PEAK:
		break;
	}
	mib_put_object(o, &(struct mib_object){
		.name = name, .syntax = smi_type(k->type), .units = k->units[0] ? k->units : NULL,
		.access = "read-only", .description = text.data, .arc = k->arc }, parent);
	sb_free(&text);
	free(name);
	free(gdisc);
	free(mdisc);
}

/* The objects of a group's columns, in OID order. */
static void
emit_columns(const struct mn *n, const struct m_group *g, const struct columns *c,
	     const char *parent, struct strbuf *o)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].k)
			emit_counter(n, g, c->v[i].k, parent, o);
		else
			mib_put_object(o, c->v[i].s, parent);
	}
}

static void
emit_reset_disc(const struct mn *n, const struct m_group *g, const char *parent,
		struct strbuf *o)
{
	char *reset = gen_name(FASTMIB_MIB_RESET, n->p, g->name, NULL);
	char *disc = gen_name(FASTMIB_MIB_GROUP_DISCONTINUITY, n->p, g->name, NULL);
	char *all = gen_name(FASTMIB_MIB_RESET_ALL, n->p, NULL, NULL);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "Setting this object to true(%d) resets the counters of %s: "
		      "from then on they count from zero. Gauges are not reset%s.%s "
		      "A reset records the current values as a baseline and never "
		      "stops the counting. Reading this object always returns false(%d).",
		  FASTMIB_TRUTH_TRUE, g->table ? "this row" : "this group",
		  g->n_states ? ", nor are states" : "",
		  group_has_counter_type(g, FASTMIB_PEAK) ? PEAKS_RESET : "", FASTMIB_TRUTH_FALSE);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TruthValue\n"
		     "    MAX-ACCESS   read-write\n    STATUS       current\n", reset);
	mib_put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, FASTMIB_ARC_RESET);

	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "The value of sysUpTime on the most recent occasion at which "
		      "the counters of %s suffered a discontinuity, through %s, "
		      "%s, %sor a new writer starting them from zero. Zero if no "
		      "such discontinuity has occurred since the last "
		      "re-initialization of the local management subsystem.",
		  g->table ? "this row" : "this group", reset, all,
		  g->table && !g->all_rows ? "the row appearing again, " : "");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TimeStamp\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", disc);
	mib_put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, FASTMIB_ARC_DISCONT);
	sb_free(&t);
	free(reset);
	free(disc);
	free(all);
}

/* "-- Group g (per-core storage, keyed table)": a group's banner. */
static void
put_banner(const struct m_group *g, struct strbuf *o)
{
	sb_printf(o, "-- Group %s (", g->name);
	if (g->n_counters)
		sb_printf(o, "%s storage", fastmib_storage_word(g->storage));
	else
		sb_puts(o, "states only");
	if (g->table)
		sb_printf(o, ", %stable", g->keyed ? "keyed " : "");
	sb_puts(o, ")\n\n");
}

static void
emit_scalar_group(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	char *node = gen_name(FASTMIB_MIB_SCALAR_NODE, n->p, g->name, NULL);
	struct columns c;

	columns_of(n, g, &c);
	put_banner(g, o);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n\n", node, n->objects, g->arc);
	emit_columns(n, g, &c, node, o);
	if (g->n_counters)
		emit_reset_disc(n, g, node, o);
	mib_bucket_tables(n->p, g, o);
	columns_free(&c);
	free(node);
}

/* "The counters of one row of pGTable. The table is keyed: ..." */
static void
put_entry_text(const struct m_group *g, const char *table, struct strbuf *t)
{
	sb_printf(t, "The %s of one row of %s. ",
		  !g->n_states ? "counters" : g->n_counters ? "counters and states" : "states",
		  table);
	if (g->keyed)
		sb_printf(t, "The table is keyed: a row exists from the time the "
			     "application inserts its key until it removes it, and the "
			     "table holds at most %u rows at once.", g->n_rows);
	else if (g->all_rows)
		sb_puts(t, "Every row exists, for every value of each index.");
	else
		sb_puts(t, "A row exists while the application has it enabled.");
}

static void
put_sequence_line(struct strbuf *o, size_t *k, const char *name, const char *syntax)
{
	sb_printf(o, "%s    %-*s %s", (*k)++ ? ",\n" : "", 40, name, syntax);
}

static void
emit_table_group(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	char *table = gen_name(FASTMIB_MIB_TABLE, n->p, g->name, NULL);
	char *entry = gen_name(FASTMIB_MIB_ENTRY, n->p, g->name, NULL);
	char *type = gen_name(FASTMIB_MIB_TYPE_ENTRY, n->p, g->name, NULL);
	char *reset = gen_name(FASTMIB_MIB_RESET, n->p, g->name, NULL);
	char *disc = gen_name(FASTMIB_MIB_GROUP_DISCONTINUITY, n->p, g->name, NULL);
	struct mib_object idx[2 * FASTMIB_MAX_INDEXES];
	size_t n_idx = mib_index_objects(n->p, g, idx), k = 0, i;
	struct columns c;
	struct strbuf t;

	columns_of(n, g, &c);
	put_banner(g, o);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       SEQUENCE OF %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  table, type);
	mib_put_description(o, g->description);
	sb_printf(o, "    ::= { %s %u }\n\n", n->objects, g->arc);

	sb_init(&t);
	put_entry_text(g, table, &t);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  entry, type);
	mib_put_description(o, t.data);
	sb_free(&t);
	sb_init(&t);
	mib_index_clause(n->p, g, &t);
	/* on one line when it fits, else one descriptor a line */
	if (strlen("    INDEX        { ") + t.len + 2 <= WIDTH) {
		sb_printf(o, "    INDEX        { %s }\n", t.data);
	} else {
		sb_puts(o, "    INDEX        {\n");
		wrap_text(o, t.data, INDENT "  ", 0, 1);
		sb_puts(o, "\n    }\n");
	}
	sb_free(&t);
	sb_printf(o, "    ::= { %s %u }\n\n", table, FASTMIB_ARC_ENTRY);

	sb_printf(o, "%s ::= SEQUENCE {\n", type);
	for (i = 0; i < c.n; i++) {
		char *col = column_name(n, g, &c.v[i]);

		put_sequence_line(o, &k, col, c.v[i].k ? smi_type(c.v[i].k->type)
						       : c.v[i].s->seq_syntax);
		free(col);
	}
	if (g->n_counters) {
		put_sequence_line(o, &k, reset, "TruthValue");
		put_sequence_line(o, &k, disc, "TimeStamp");
	}
	for (i = 0; i < n_idx; i++)
		put_sequence_line(o, &k, idx[i].name, idx[i].seq_syntax);
	sb_puts(o, "\n}\n\n");

	emit_columns(n, g, &c, entry, o);
	if (g->n_counters)
		emit_reset_disc(n, g, entry, o);
	for (i = 0; i < n_idx; i++)
		mib_put_object(o, &idx[i], entry);
	mib_bucket_tables(n->p, g, o);
	mib_objects_free(idx, n_idx);
	columns_free(&c);
	free(table);
	free(entry);
	free(type);
	free(reset);
	free(disc);
}

/* <p>NotificationsDropped, in models that notify. */
static void
emit_notifications_dropped(const struct mn *n, struct strbuf *o)
{
	char *name = state_name(SN_MIB_NOTIFICATIONS_DROPPED, n->p, NULL, NULL, NULL);

	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       Counter64\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", name);
	put_descriptionf(o, "The number of this module's notifications that the agent did "
			    "not send: those beyond its rate limit%s. Discontinuities in "
			    "the value of this counter can occur at re-initialization of "
			    "the management system.", model_notifies_states(n->m) ?
			 ", and changes of states that the writer's log of changes "
			 "overwrote before the agent read them" : "");
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_NOTIFS_DROPPED);
	free(name);
}

static void
emit_control(const struct mn *n, struct strbuf *o)
{
	char *all = gen_name(FASTMIB_MIB_RESET_ALL, n->p, NULL, NULL);
	char *disc = gen_name(FASTMIB_MIB_DISCONTINUITY, n->p, NULL, NULL);
	char *status = gen_name(FASTMIB_MIB_WRITER_STATUS, n->p, NULL, NULL);
	char *best = gen_name(FASTMIB_MIB_BEST_EFFORT, n->p, NULL, NULL);
	char *oor = gen_name(FASTMIB_MIB_OUT_OF_RANGE, n->p, NULL, NULL);

	sb_puts(o, "-- Module-wide control\n\n");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TruthValue\n"
		     "    MAX-ACCESS   read-write\n    STATUS       current\n", all);
	put_descriptionf(o, "Setting this object to true(%d) resets every counter of "
			    "this module, in every group and row: from then on they "
			    "count from zero. Gauges are not reset.%s A reset records the "
			    "current values as a baseline and never stops the counting. "
			    "Reading this object always returns false(%d).",
			 FASTMIB_TRUTH_TRUE,
			 model_has_counter_type(n->m, FASTMIB_PEAK) ? PEAKS_RESET : "",
			 FASTMIB_TRUTH_FALSE);
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_RESET_ALL);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TimeStamp\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", disc);
	{
		struct strbuf t;

		sb_init(&t);
		sb_printf(&t, "The value of sysUpTime on the most recent occasion at "
			      "which every counter of this module suffered a "
			      "discontinuity, through %s or a new writer starting "
			      "them from zero. Zero if no such discontinuity "
			      "has occurred since the last re-initialization of the "
			      "local management subsystem.", all);
		mib_put_description(o, t.data);
		sb_free(&t);
	}
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_MODULE_DISCONT);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       INTEGER { running(%d), gone(%d), "
		     "stalled(%d) }\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", status,
		  FASTMIB_WRITER_RUNNING, FASTMIB_WRITER_GONE, FASTMIB_WRITER_STALLED);
	put_descriptionf(o, "Whether the process that writes these counters is "
			    "running: running(%d) while it lives with its counters "
			    "open, gone(%d) once it has exited (however it ended) or "
			    "closed them, within two seconds. The counters of a writer "
			    "that is gone stay readable: they are its last values, no "
			    "longer growing. A new writer starts the counters again "
			    "from zero, which every DiscontinuityTime object of this "
			    "module shows. stalled(%d): the writer runs, but one of its "
			    "threads has stayed inside one update transaction for "
			    "longer than the agent waits for a consistent read (50 "
			    "milliseconds by default): that thread is stopped or hung, "
			    "and so, most likely, is the traffic it handles. Values "
			    "read meanwhile are served best effort and counted in %s.",
			 FASTMIB_WRITER_RUNNING, FASTMIB_WRITER_GONE,
			 FASTMIB_WRITER_STALLED, best);
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_WRITER_STATUS);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       Counter64\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", best);
	mib_put_description(o, "The number of times the agent served counters of this module "
			   "without a consistent snapshot, because a writer thread stayed "
			   "inside its update transaction for longer than the agent waits: "
			   "each such value is exact per counter but may show part of one "
			   "transaction. It grows while the writer is stalled(3). Kept "
			   "with the counters, so it survives a restart of the agent; it "
			   "starts from zero with a new writer.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_BEST_EFFORT);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       Counter64\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", oor);
	mib_put_description(o, "The number of counter updates the writer made with a table "
			   "index out of range. Such an update changes no counter of this "
			   "module: it goes to a scratch row that is never served. A value "
			   "above zero means a defect in the writing program (an SNMP "
			   "index passed where a zero-based one was expected, say); the "
			   "writer also logs it. It starts from zero with a new writer.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->control, FASTMIB_ARC_OUT_OF_RANGE);
	if (model_notifies(n->m))
		emit_notifications_dropped(n, o);
	free(all);
	free(disc);
	free(status);
	free(best);
	free(oor);
}

/* ---- event log (R.4) ---- */

/* An OBJECT-TYPE without INDEX; `units` may be NULL. */
static void
put_object(struct strbuf *o, const char *name, const char *syntax,
	   const char *units, const char *access, const char *text,
	   const char *parent, unsigned arc)
{
	mib_put_object(o, &(struct mib_object){ .name = name, .syntax = syntax, .units = units,
						.access = access, .description = text,
						.arc = arc }, parent);
}

/* Accessible columns of the two event tables, in OID order. */
static const enum fastmib_name_role event_objects[] = {
	FASTMIB_MIB_EVENT_NAME, FASTMIB_MIB_EVENT_ID, FASTMIB_MIB_EVENT_TIME,
	FASTMIB_MIB_EVENT_LCORE, FASTMIB_MIB_EVENT_LAG_CYCLES, FASTMIB_MIB_EVENT_LAG_NS,
	FASTMIB_MIB_EVENT_ARG1, FASTMIB_MIB_EVENT_ARG2, FASTMIB_MIB_EVENT_ARG3,
	FASTMIB_MIB_EVENT_ARG4, FASTMIB_MIB_EVENT_STATS_NAME,
	FASTMIB_MIB_EVENT_STATS_LOGGED, FASTMIB_MIB_EVENT_STATS_DROPPED,
};

/* "1 burstStart, 2 burstEnd, ..." in arc order. */
static void
put_event_ids(const struct model *m, struct strbuf *t)
{
	uint32_t arc, i, k = 0;

	for (arc = 1; arc <= FASTMIB_MAX_ARC && k < m->n_events; arc++)
		for (i = 0; i < m->n_events; i++)
			if (m->events[i].arc == arc)
				sb_printf(t, "%s%u %s", k++ ? ", " : "", arc,
					  m->events[i].name);
}

static void
emit_event_tc(const struct mn *n, struct strbuf *o)
{
	char *tc = gen_name(FASTMIB_MIB_TYPE_UNSIGNED64, n->p, NULL, NULL);

	sb_printf(o, "%s ::= TEXTUAL-CONVENTION\n    DISPLAY-HINT \"d\"\n"
		     "    STATUS       current\n", tc);
	mib_put_description(o, "An unsigned 64-bit quantity that is not a counter: it "
			   "may increase or decrease from one reading to the next "
			   "(a duration, an argument of an event). It is carried as "
			   "Counter64 because SMIv2 has no 64-bit gauge, in the manner "
			   "of CounterBasedGauge64 (RFC 2856); the monotonic and "
			   "discontinuity semantics of Counter64 do not apply.");
	sb_puts(o, "    SYNTAX       Counter64\n\n");
	free(tc);
}

/* "epEventArg1 is port (uint32), epEventArg2 is ..." */
static void
put_arg_types(char *const *arg, const struct m_event *e, struct strbuf *t)
{
	uint32_t j;

	for (j = 0; j < e->n_args; j++)
		sb_printf(t, "%s%s is %s (%s)", j ? ", " : "", arg[j],
			  e->args[j].name, fastmib_arg_type_word(e->args[j].type));
}

static void
emit_event_notifications(const struct mn *n, struct strbuf *o)
{
	const struct model *m = n->m;
	char *node = gen_name(FASTMIB_MIB_EVENT_NOTIFICATIONS, n->p, NULL, NULL);
	char *name = gen_name(FASTMIB_MIB_EVENT_NAME, n->p, NULL, NULL);
	char *time = gen_name(FASTMIB_MIB_EVENT_TIME, n->p, NULL, NULL);
	char *lcore = gen_name(FASTMIB_MIB_EVENT_LCORE, n->p, NULL, NULL);
	char *table = gen_name(FASTMIB_MIB_EVENT_TABLE, n->p, NULL, NULL);
	char *arg[FASTMIB_MAX_EVENT_ARGS];
	uint32_t i, j;

	for (j = 0; j < FASTMIB_MAX_EVENT_ARGS; j++)
		arg[j] = gen_name(FASTMIB_MIB_EVENT_ARG1 + j, n->p, NULL, NULL);

	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n\n", node, n->events,
		  FASTMIB_ARC_EV_NOTIFS);
	for (i = 0; i < m->n_events; i++) {
		const struct m_event *e = &m->events[i];
		struct strbuf t;
		char *nt;

		if (!e->notify)
			continue;
		nt = gen_name(FASTMIB_MIB_NOTIFICATION, n->p, e->name, NULL);
		sb_printf(o, "%s NOTIFICATION-TYPE\n    OBJECTS      {\n"
			     INDENT "  %s,\n" INDENT "  %s,\n" INDENT "  %s",
			  nt, name, time, lcore);
		for (j = 0; j < e->n_args; j++)
			sb_printf(o, ",\n" INDENT "  %s", arg[j]);
		sb_puts(o, "\n    }\n    STATUS       current\n");
		sb_init(&t);
		sb_printf(&t, "%s\nSent when the fast path logs event %s (id %u); the "
			      "agent limits how many it sends per second. The "
			      "variables are columns of the event's row in %s, "
			      "instance: its event number.",
			  e->description, e->name, e->arc, table);
		if (e->n_args) {
			sb_puts(&t, " ");
			put_arg_types(arg, e, &t);
			sb_puts(&t, ".");
		}
		mib_put_description(o, t.data);
		sb_free(&t);
		sb_printf(o, "    ::= { %s %u }\n\n", node, e->arc);
		free(nt);
	}
	free(node);
	free(name);
	free(time);
	free(lcore);
	free(table);
	for (j = 0; j < FASTMIB_MAX_EVENT_ARGS; j++)
		free(arg[j]);
}

/* SEQUENCE { ... } of a table type; `cols` and `syntax` in column order. */
static void
put_sequence(const struct mn *n, struct strbuf *o, const char *type,
	     const enum fastmib_name_role *cols, const char *const *syntax, size_t n_cols)
{
	size_t i;

	sb_printf(o, "%s ::= SEQUENCE {\n", type);
	for (i = 0; i < n_cols; i++) {
		char *c = gen_name(cols[i], n->p, NULL, NULL);

		sb_printf(o, "    %-*s %s%s\n", 40, c, syntax[i], i + 1 < n_cols ? "," : "");
		free(c);
	}
	sb_puts(o, "}\n\n");
}

static void
emit_event_table(const struct mn *n, const char *u64, struct strbuf *o)
{
	static const enum fastmib_name_role cols[] = {
		FASTMIB_MIB_EVENT_NUMBER, FASTMIB_MIB_EVENT_NAME, FASTMIB_MIB_EVENT_ID,
		FASTMIB_MIB_EVENT_TIME, FASTMIB_MIB_EVENT_LCORE,
		FASTMIB_MIB_EVENT_LAG_CYCLES, FASTMIB_MIB_EVENT_LAG_NS,
		FASTMIB_MIB_EVENT_ARG1, FASTMIB_MIB_EVENT_ARG2,
		FASTMIB_MIB_EVENT_ARG3, FASTMIB_MIB_EVENT_ARG4,
	};
	const char *syntax[] = {
		"Unsigned32", "DisplayString", "Unsigned32", "DateAndTime",
		"Unsigned32", u64, u64, u64, u64, u64, u64,
	};
	char *table = gen_name(FASTMIB_MIB_EVENT_TABLE, n->p, NULL, NULL);
	char *entry = gen_name(FASTMIB_MIB_EVENT_ENTRY, n->p, NULL, NULL);
	char *type = gen_name(FASTMIB_MIB_TYPE_EVENT_ENTRY, n->p, NULL, NULL);
	char *stats = gen_name(FASTMIB_MIB_EVENT_STATS_TABLE, n->p, NULL, NULL);
	char *c[11];
	struct strbuf t;
	unsigned i;

	for (i = 0; i < 11; i++)
		c[i] = gen_name(cols[i], n->p, NULL, NULL);

	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       SEQUENCE OF %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  table, type);
	mib_put_description(o, "The most recent records of the event log of this "
			   "module, oldest first. Each lcore logs sampled, "
			   "time-stamped events into its own ring; the agent copies "
			   "new records from every ring, merges them by time, and "
			   "numbers them 1, 2, 3... in that order. The table keeps the "
			   "last records the agent copied (256 unless configured "
			   "otherwise); a record overwritten in its ring before the "
			   "agent copied it never appears.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->events, FASTMIB_ARC_EV_TABLE);

	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  entry, type);
	mib_put_description(o, "One record of the event log.");
	sb_printf(o, "    INDEX        { %s }\n    ::= { %s %u }\n\n", c[0], table,
		  FASTMIB_ARC_ENTRY);
	put_sequence(n, o, type, cols, syntax, 11);

	put_object(o, c[0], "Unsigned32 (1..4294967295)", NULL, "not-accessible",
		   "The number the agent gave this record: 1 for the first record "
		   "it copied, then one more for each record, in time order. "
		   "Numbers are never reused while the agent runs.", entry,
		   FASTMIB_EVCOL_NUMBER);
	put_object(o, c[1], "DisplayString", NULL, "read-only",
		   "The name of the event, as in the model.", entry, FASTMIB_EVCOL_NAME);
	sb_init(&t);
	sb_printf(&t, "The id of the event: its index in %s. The events of this "
		      "module are ", stats);
	put_event_ids(n->m, &t);
	sb_puts(&t, ".");
	put_object(o, c[2], "Unsigned32 (1..999)", NULL, "read-only", t.data, entry,
		   FASTMIB_EVCOL_ID);
	sb_free(&t);
	put_object(o, c[3], "DateAndTime", NULL, "read-only",
		   "When the event was logged: the time stamp counter value of the "
		   "record converted to wall-clock time, in UTC: the 11-octet "
		   "form with direction '+' and a zero offset from UTC.", entry,
		   FASTMIB_EVCOL_TIME);
	put_object(o, c[4], "Unsigned32", NULL, "read-only",
		   "The writer slot (one per lcore or registered thread) whose "
		   "ring held the record.", entry, FASTMIB_EVCOL_LCORE);
	sb_init(&t);
	sb_printf(&t, "The lag of the record: time stamp counter cycles since the "
		      "closest earlier record of the same writer slot whose event "
		      "has an equal or lower level. 0 when that record was not "
		      "available to the agent (overwritten, or logged before the "
		      "agent started copying).");
	put_object(o, c[5], u64, "cycles", "read-only", t.data, entry,
		   FASTMIB_EVCOL_LAG_CYCLES);
	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "The lag of the record (see %s) in nanoseconds.", c[5]);
	put_object(o, c[6], u64, "nanoseconds", "read-only", t.data, entry,
		   FASTMIB_EVCOL_LAG_NS);
	sb_free(&t);
	for (i = 0; i < FASTMIB_MAX_EVENT_ARGS; i++) {
		sb_init(&t);
		sb_printf(&t, "Argument %u of the event, as logged; the model names "
			      "the arguments of each event and their types. An "
			      "int32 argument is reported as its two's complement "
			      "64-bit value (-1 reads 18446744073709551615). A "
			      "record of an event with fewer arguments has no "
			      "instance of this column.", i + 1);
		put_object(o, c[7 + i], u64, NULL, "read-only", t.data, entry,
			   FASTMIB_EVCOL_ARG1 + i);
		sb_free(&t);
	}
	for (i = 0; i < 11; i++)
		free(c[i]);
	free(table);
	free(entry);
	free(type);
	free(stats);
}

static void
emit_event_stats(const struct mn *n, struct strbuf *o)
{
	static const enum fastmib_name_role cols[] = {
		FASTMIB_MIB_EVENT_STATS_ID, FASTMIB_MIB_EVENT_STATS_NAME,
		FASTMIB_MIB_EVENT_STATS_LOGGED, FASTMIB_MIB_EVENT_STATS_DROPPED,
	};
	static const char *const syntax[] = {
		"Unsigned32", "DisplayString", "Counter64", "Counter64",
	};
	static const char *const disc =
		" Discontinuities in the value of this counter occur at "
		"re-initialization of the management system and when the fast "
		"path re-creates its segment.";
	char *table = gen_name(FASTMIB_MIB_EVENT_STATS_TABLE, n->p, NULL, NULL);
	char *entry = gen_name(FASTMIB_MIB_EVENT_STATS_ENTRY, n->p, NULL, NULL);
	char *type = gen_name(FASTMIB_MIB_TYPE_EVENT_STATS_ENTRY, n->p, NULL, NULL);
	char *c[4];
	struct strbuf t;
	unsigned i;

	for (i = 0; i < 4; i++)
		c[i] = gen_name(cols[i], n->p, NULL, NULL);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       SEQUENCE OF %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  table, type);
	mib_put_description(o, "Per event of the model: records logged and records "
			   "dropped, summed over every lcore.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->events, FASTMIB_ARC_EV_STATS);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  entry, type);
	mib_put_description(o, "The statistics of one event.");
	sb_printf(o, "    INDEX        { %s }\n    ::= { %s %u }\n\n", c[0], table,
		  FASTMIB_ARC_ENTRY);
	put_sequence(n, o, type, cols, syntax, 4);

	sb_init(&t);
	sb_puts(&t, "The id of the event (its oid arc in the model): ");
	put_event_ids(n->m, &t);
	sb_puts(&t, ".");
	put_object(o, c[0], "Unsigned32 (1..999)", NULL, "not-accessible", t.data,
		   entry, FASTMIB_STCOL_ID);
	sb_free(&t);
	put_object(o, c[1], "DisplayString", NULL, "read-only",
		   "The name of the event, as in the model.", entry, FASTMIB_STCOL_NAME);
	sb_init(&t);
	sb_printf(&t, "Records of this event written into the rings.%s", disc);
	put_object(o, c[2], "Counter64", NULL, "read-only", t.data, entry,
		   FASTMIB_STCOL_LOGGED);
	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "Records of this event overwritten in the rings by newer "
		      "records: the ring of a busy lcore keeps only its latest "
		      "records.%s", disc);
	put_object(o, c[3], "Counter64", NULL, "read-only", t.data, entry,
		   FASTMIB_STCOL_DROPPED);
	sb_free(&t);
	for (i = 0; i < 4; i++)
		free(c[i]);
	free(table);
	free(entry);
	free(type);
}

static void
emit_events(const struct mn *n, struct strbuf *o)
{
	char *u64 = gen_name(FASTMIB_MIB_TYPE_UNSIGNED64, n->p, NULL, NULL);

	sb_puts(o, "-- Event log\n\n");
	emit_event_tc(n, o);
	if (events_notify(n->m))
		emit_event_notifications(n, o);
	emit_event_table(n, u64, o);
	emit_event_stats(n, o);
	free(u64);
}

/* The event log's conformance groups (models with events only). */
static void
emit_event_groups(const struct mn *n, struct strbuf *o)
{
	const struct model *m = n->m;
	char *s = gen_name(FASTMIB_MIB_EVENT_GROUP, n->p, NULL, NULL);
	size_t i;
	uint32_t k = 0;

	sb_printf(o, "%s OBJECT-GROUP\n    OBJECTS {\n", s);
	for (i = 0; i < sizeof(event_objects) / sizeof(event_objects[0]); i++) {
		char *c = gen_name(event_objects[i], n->p, NULL, NULL);

		sb_printf(o, "%s" INDENT "  %s", i ? ",\n" : "", c);
		free(c);
	}
	sb_puts(o, "\n    }\n    STATUS       current\n");
	mib_put_description(o, "The event log: recent records and per-event statistics.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->groups, FASTMIB_ARC_EVENT_GROUP);
	free(s);
	if (!events_notify(m))
		return;
	s = gen_name(FASTMIB_MIB_EVENT_NOTIFICATION_GROUP, n->p, NULL, NULL);
	sb_printf(o, "%s NOTIFICATION-GROUP\n    NOTIFICATIONS {\n", s);
	for (i = 0; i < m->n_events; i++) {
		char *nt;

		if (!m->events[i].notify)
			continue;
		nt = gen_name(FASTMIB_MIB_NOTIFICATION, n->p, m->events[i].name, NULL);
		sb_printf(o, "%s" INDENT "  %s", k++ ? ",\n" : "", nt);
		free(nt);
	}
	sb_puts(o, "\n    }\n    STATUS       current\n");
	mib_put_description(o, "The notifications sent for events the model marks "
			   "with notify.");
	sb_printf(o, "    ::= { %s %u }\n\n", n->groups,
		  FASTMIB_ARC_EVENT_NOTIFICATION_GROUP);
	free(s);
}

/* Accessible objects of a group, in OID order. */
static void
put_group_objects(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	struct columns c;
	char *s;
	size_t i;

	columns_of(n, g, &c);
	for (i = 0; i < c.n; i++) {
		s = column_name(n, g, &c.v[i]);
		sb_printf(o, "%s" INDENT "  %s", i ? ",\n" : "", s);
		free(s);
	}
	columns_free(&c);
	if (!g->n_counters)
		return;
	s = gen_name(FASTMIB_MIB_RESET, n->p, g->name, NULL);
	sb_printf(o, ",\n" INDENT "  %s", s);
	free(s);
	s = gen_name(FASTMIB_MIB_GROUP_DISCONTINUITY, n->p, g->name, NULL);
	sb_printf(o, ",\n" INDENT "  %s", s);
	free(s);
	mib_bucket_group_objects(n->p, g, o);
}

static void
emit_conformance(const struct mn *n, struct strbuf *o)
{
	const struct model *m = n->m;
	char *cgroup = gen_name(FASTMIB_MIB_CONTROL_GROUP, n->p, NULL, NULL);
	char *compliance = gen_name(FASTMIB_MIB_COMPLIANCE, n->p, NULL, NULL);
	uint32_t gi;

	sb_puts(o, "-- Conformance\n\n");
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n", n->compliances, n->conformance,
		  FASTMIB_ARC_COMPLIANCES);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n\n", n->groups, n->conformance,
		  FASTMIB_ARC_CONF_GROUPS);

	sb_printf(o, "%s MODULE-COMPLIANCE\n    STATUS       current\n", compliance);
	mib_put_description(o, "The compliance statement for agents that implement "
			   "this module: every group is mandatory.");
	sb_printf(o, "    MODULE       -- this module\n    MANDATORY-GROUPS {\n"
		     INDENT "  %s", cgroup);
	for (gi = 0; gi < m->n_groups; gi++) {
		char *s = gen_name(FASTMIB_MIB_OBJECT_GROUP, n->p, m->groups[gi].name, NULL);

		sb_printf(o, ",\n" INDENT "  %s", s);
		free(s);
	}
	if (m->n_events) {
		char *s = gen_name(FASTMIB_MIB_EVENT_GROUP, n->p, NULL, NULL);

		sb_printf(o, ",\n" INDENT "  %s", s);
		free(s);
	}
	if (events_notify(m)) {
		char *s = gen_name(FASTMIB_MIB_EVENT_NOTIFICATION_GROUP, n->p, NULL, NULL);

		sb_printf(o, ",\n" INDENT "  %s", s);
		free(s);
	}
	if (model_notifies_states(m)) {
		char *s = state_name(SN_MIB_STATE_NOTIFICATION_GROUP, n->p, NULL, NULL, NULL);

		sb_printf(o, ",\n" INDENT "  %s", s);
		free(s);
	}
	sb_printf(o, "\n    }\n    ::= { %s %u }\n\n", n->compliances, FASTMIB_ARC_COMPLIANCE);

	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];
		char *s = gen_name(FASTMIB_MIB_OBJECT_GROUP, n->p, g->name, NULL);
		struct strbuf t;

		sb_printf(o, "%s OBJECT-GROUP\n    OBJECTS {\n", s);
		put_group_objects(n, g, o);
		sb_puts(o, "\n    }\n    STATUS       current\n");
		sb_init(&t);
		sb_printf(&t, "The objects of group %s.", g->name);
		mib_put_description(o, t.data);
		sb_free(&t);
		sb_printf(o, "    ::= { %s %u }\n\n", n->groups, g->arc);
		free(s);
	}
	{
		char *all = gen_name(FASTMIB_MIB_RESET_ALL, n->p, NULL, NULL);
		char *disc = gen_name(FASTMIB_MIB_DISCONTINUITY, n->p, NULL, NULL);
		char *status = gen_name(FASTMIB_MIB_WRITER_STATUS, n->p, NULL, NULL);
		char *best = gen_name(FASTMIB_MIB_BEST_EFFORT, n->p, NULL, NULL);
		char *oor = gen_name(FASTMIB_MIB_OUT_OF_RANGE, n->p, NULL, NULL);
		char *dropped = state_name(SN_MIB_NOTIFICATIONS_DROPPED, n->p, NULL, NULL, NULL);

		sb_printf(o, "%s OBJECT-GROUP\n    OBJECTS {\n" INDENT "  %s,\n"
			     INDENT "  %s,\n" INDENT "  %s,\n" INDENT "  %s,\n"
			     INDENT "  %s",
			  cgroup, all, disc, status, best, oor);
		if (model_notifies(m))
			sb_printf(o, ",\n" INDENT "  %s", dropped);
		sb_puts(o, "\n    }\n    STATUS       current\n");
		free(dropped);
		mib_put_description(o, "The module-wide reset, discontinuity and writer "
				   "health objects.");
		sb_printf(o, "    ::= { %s %u }\n\n", n->groups, FASTMIB_ARC_CONTROL_GROUP);
		free(all);
		free(disc);
		free(status);
		free(best);
		free(oor);
	}
	if (m->n_events)
		emit_event_groups(n, o);
	if (model_notifies_states(m))
		mib_state_notification_group(m, n->groups, o);
	free(cgroup);
	free(compliance);
}

void
emit_mib(const struct model *m, struct strbuf *o)
{
	const struct parent *par = find_parent(m);
	struct mn n = { .m = m, .p = m->prefix };
	uint32_t gi;

	n.root = gen_name(FASTMIB_MIB_ROOT, m->prefix, NULL, NULL);
	n.objects = gen_name(FASTMIB_MIB_OBJECTS, m->prefix, NULL, NULL);
	n.control = gen_name(FASTMIB_MIB_CONTROL, m->prefix, NULL, NULL);
	n.conformance = gen_name(FASTMIB_MIB_CONFORMANCE, m->prefix, NULL, NULL);
	n.compliances = gen_name(FASTMIB_MIB_COMPLIANCES, m->prefix, NULL, NULL);
	n.groups = gen_name(FASTMIB_MIB_GROUPS, m->prefix, NULL, NULL);
	n.events = gen_name(FASTMIB_MIB_EVENTS, m->prefix, NULL, NULL);

	sb_printf(o, "-- %s: generated by fastmib-gen from %s.\n"
		     "-- Edit the model and regenerate; do not edit this file.\n\n"
		     "%s DEFINITIONS ::= BEGIN\n\n",
		  m->module, m->source, m->module);
	emit_imports(&n, par, o);
	emit_identity(&n, par, o);
	for (gi = 0; gi < m->n_groups; gi++) {
		if (m->groups[gi].table)
			emit_table_group(&n, &m->groups[gi], o);
		else
			emit_scalar_group(&n, &m->groups[gi], o);
	}
	emit_control(&n, o);
	if (m->n_events)
		emit_events(&n, o);
	if (model_notifies_states(m))
		mib_state_notifications(m, o);
	emit_conformance(&n, o);
	sb_puts(o, "END\n");
	free(n.root);
	free(n.objects);
	free(n.control);
	free(n.conformance);
	free(n.compliances);
	free(n.groups);
	free(n.events);
}
