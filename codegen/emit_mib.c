/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <MODULE-NAME>.txt, an SMIv2 module. Layout (docs/mib-layout.md):
 *   R        <prefix>Mib MODULE-IDENTITY
 *   R.1      <prefix>Objects; group G at R.1.G
 *   R.2      <prefix>Control: ResetAll (1), DiscontinuityTime (2)
 *   R.3      <prefix>Conformance: compliances (1), groups (2)
 * Arcs above FASTMIB_MAX_ARC inside a group are reserved for the objects
 * the generator adds (reset, discontinuity time, index columns).
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "names.h"

#define ARC_RESET          1001u
#define ARC_DISCONTINUITY  1002u
#define ARC_INDEX_BASE     1010u  /* index k (1-based) at 1010 + k */
#define ARC_CONTROL_GROUP  1000u  /* under <prefix>Groups, above group arcs */

#define INDENT "        "
#define WIDTH  72

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

/* Names used throughout; built once. */
struct mn {
	const struct model *m;
	const char *p;
	char *root, *objects, *control, *conformance, *compliances, *groups;
};

static char *
desc(const char *p, const char *a, const char *b, const char *c)
{
	return name_join(p, a, b, c, NULL);
}

static void
put_description(struct strbuf *o, const char *text)
{
	sb_puts(o, "    DESCRIPTION\n" INDENT "\"");
	wrap_text(o, text, INDENT, WIDTH, 0);
	sb_puts(o, "\"\n");
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

static void
emit_imports(const struct mn *n, const struct parent *par, struct strbuf *o)
{
	const struct model *m = n->m;

	sb_puts(o, "IMPORTS\n    MODULE-IDENTITY, OBJECT-TYPE");
	if (uses_type(m, FASTMIB_COUNTER64))
		sb_puts(o, ", Counter64");
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
	put_description(o, m->description);
	for (i = 0; i < m->n_revisions; i++) {
		sb_puts(o, "    REVISION     ");
		put_smi_date(o, m->revisions[i].date);
		sb_putc(o, '\n');
		put_description(o, m->revisions[i].description);
	}
	sb_printf(o, "    ::= { %s", par->name);
	for (i = par->len; i < m->oid_len; i++)
		sb_printf(o, " %u", m->oid[i]);
	sb_puts(o, " }\n\n");
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s 1 }\n", n->objects, n->root);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s 2 }\n", n->control, n->root);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s 3 }\n\n", n->conformance, n->root);
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
	}
	return "?";
}

/* Counters in OID order: SMI tools expect columns in SEQUENCE order. */
static int
cmp_arc(const void *a, const void *b)
{
	const struct m_counter *x = *(const struct m_counter *const *)a;
	const struct m_counter *y = *(const struct m_counter *const *)b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

static const struct m_counter **
sorted_counters(const struct m_group *g)
{
	const struct m_counter **v = xcalloc(g->n_counters, sizeof(*v));
	uint32_t i;

	for (i = 0; i < g->n_counters; i++)
		v[i] = &g->counters[i];
	qsort(v, g->n_counters, sizeof(*v), cmp_arc);
	return v;
}

static void
emit_counter(const struct mn *n, const struct m_group *g,
	     const struct m_counter *k, const char *parent, struct strbuf *o)
{
	char *name = desc(n->p, g->name, k->name, NULL);
	char *gdisc = desc(n->p, g->name, "DiscontinuityTime", NULL);
	char *mdisc = desc(n->p, "DiscontinuityTime", NULL, NULL);
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
	}
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n", name, smi_type(k->type));
	if (k->units[0])
		sb_printf(o, "    UNITS        \"%s\"\n", k->units);
	sb_puts(o, "    MAX-ACCESS   read-only\n    STATUS       current\n");
	put_description(o, text.data);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, k->arc);
	sb_free(&text);
	free(name);
	free(gdisc);
	free(mdisc);
}

static void
emit_reset_disc(const struct mn *n, const struct m_group *g, const char *parent,
		struct strbuf *o)
{
	char *reset = desc(n->p, g->name, "Reset", NULL);
	char *disc = desc(n->p, g->name, "DiscontinuityTime", NULL);
	char *all = desc(n->p, "ResetAll", NULL, NULL);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "Setting this object to true(1) resets the counters of %s: "
		      "from then on they count from zero. Gauges are not reset. "
		      "A reset records the current values as a baseline and never "
		      "stops the counting. Reading this object always returns false(2).",
		  g->table ? "this row" : "this group");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TruthValue\n"
		     "    MAX-ACCESS   read-write\n    STATUS       current\n", reset);
	put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, ARC_RESET);

	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "The value of sysUpTime on the most recent occasion at which "
		      "the counters of %s suffered a discontinuity, through %s or "
		      "%s. Zero if no such discontinuity has occurred since the last "
		      "re-initialization of the local management subsystem.",
		  g->table ? "this row" : "this group", reset, all);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TimeStamp\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", disc);
	put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, ARC_DISCONTINUITY);
	sb_free(&t);
	free(reset);
	free(disc);
	free(all);
}

static void
emit_scalar_group(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	char *node = desc(n->p, g->name, NULL, NULL);
	const struct m_counter **v = sorted_counters(g);
	uint32_t i;

	sb_printf(o, "-- Group %s (%s storage)\n\n", g->name, storage_name(g->storage));
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s %u }\n\n", node, n->objects, g->arc);
	for (i = 0; i < g->n_counters; i++)
		emit_counter(n, g, v[i], node, o);
	emit_reset_disc(n, g, node, o);
	free(v);
	free(node);
}

static void
emit_table_group(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	char *table = desc(n->p, g->name, "Table", NULL);
	char *entry = desc(n->p, g->name, "Entry", NULL);
	char *type = name_join("", n->p, g->name, "Entry", NULL);
	char *reset = desc(n->p, g->name, "Reset", NULL);
	char *disc = desc(n->p, g->name, "DiscontinuityTime", NULL);
	const struct m_counter **v = sorted_counters(g);
	char *idx[FASTMIB_MAX_INDEXES];
	struct strbuf t;
	uint32_t i;

	for (i = 0; i < g->n_indexes; i++)
		idx[i] = desc(n->p, g->name, g->indexes[i].name, NULL);

	sb_printf(o, "-- Group %s (%s storage, table)\n\n", g->name,
		  storage_name(g->storage));
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       SEQUENCE OF %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  table, type);
	put_description(o, g->description);
	sb_printf(o, "    ::= { %s %u }\n\n", n->objects, g->arc);

	sb_init(&t);
	sb_printf(&t, "The counters of one row of %s. ", table);
	if (g->all_rows)
		sb_puts(&t, "Every row exists, for every value of each index.");
	else
		sb_puts(&t, "A row exists while the application has it enabled.");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
		  entry, type);
	put_description(o, t.data);
	sb_free(&t);
	sb_puts(o, "    INDEX        { ");
	for (i = 0; i < g->n_indexes; i++)
		sb_printf(o, "%s%s", i ? ", " : "", idx[i]);
	sb_printf(o, " }\n    ::= { %s 1 }\n\n", table);

	sb_printf(o, "%s ::= SEQUENCE {\n", type);
	for (i = 0; i < g->n_counters; i++) {
		char *col = desc(n->p, g->name, v[i]->name, NULL);

		sb_printf(o, "    %-*s %s,\n", 40, col, smi_type(v[i]->type));
		free(col);
	}
	sb_printf(o, "    %-*s TruthValue,\n", 40, reset);
	sb_printf(o, "    %-*s TimeStamp", 40, disc);
	for (i = 0; i < g->n_indexes; i++)
		sb_printf(o, ",\n    %-*s Unsigned32", 40, idx[i]);
	sb_puts(o, "\n}\n\n");

	for (i = 0; i < g->n_counters; i++)
		emit_counter(n, g, v[i], entry, o);
	emit_reset_disc(n, g, entry, o);
	for (i = 0; i < g->n_indexes; i++) {
		sb_init(&t);
		sb_printf(&t, "Index %s of the row: the value the application uses, "
			      "which starts at 0, plus one.", g->indexes[i].name);
		sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       Unsigned32 (1..%u)\n"
			     "    MAX-ACCESS   not-accessible\n    STATUS       current\n",
			  idx[i], g->indexes[i].max);
		put_description(o, t.data);
		sb_printf(o, "    ::= { %s %u }\n\n", entry, ARC_INDEX_BASE + i + 1);
		sb_free(&t);
		free(idx[i]);
	}
	free(v);
	free(table);
	free(entry);
	free(type);
	free(reset);
	free(disc);
}

static void
emit_control(const struct mn *n, struct strbuf *o)
{
	char *all = desc(n->p, "ResetAll", NULL, NULL);
	char *disc = desc(n->p, "DiscontinuityTime", NULL, NULL);

	sb_puts(o, "-- Module-wide control\n\n");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TruthValue\n"
		     "    MAX-ACCESS   read-write\n    STATUS       current\n", all);
	put_description(o, "Setting this object to true(1) resets every counter of "
			   "this module, in every group and row: from then on they "
			   "count from zero. Gauges are not reset. A reset records the "
			   "current values as a baseline and never stops the counting. "
			   "Reading this object always returns false(2).");
	sb_printf(o, "    ::= { %s 1 }\n\n", n->control);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       TimeStamp\n"
		     "    MAX-ACCESS   read-only\n    STATUS       current\n", disc);
	{
		struct strbuf t;

		sb_init(&t);
		sb_printf(&t, "The value of sysUpTime on the most recent occasion at "
			      "which every counter of this module suffered a "
			      "discontinuity through %s. Zero if no such discontinuity "
			      "has occurred since the last re-initialization of the "
			      "local management subsystem.", all);
		put_description(o, t.data);
		sb_free(&t);
	}
	sb_printf(o, "    ::= { %s 2 }\n\n", n->control);
	free(all);
	free(disc);
}

/* Accessible objects of a group, in OID order. */
static void
put_group_objects(const struct mn *n, const struct m_group *g, struct strbuf *o)
{
	const struct m_counter **v = sorted_counters(g);
	char *s;
	uint32_t i;

	for (i = 0; i < g->n_counters; i++) {
		s = desc(n->p, g->name, v[i]->name, NULL);
		sb_printf(o, "%s" INDENT "  %s", i ? ",\n" : "", s);
		free(s);
	}
	s = desc(n->p, g->name, "Reset", NULL);
	sb_printf(o, ",\n" INDENT "  %s", s);
	free(s);
	s = desc(n->p, g->name, "DiscontinuityTime", NULL);
	sb_printf(o, ",\n" INDENT "  %s", s);
	free(s);
	free(v);
}

static void
emit_conformance(const struct mn *n, struct strbuf *o)
{
	const struct model *m = n->m;
	char *cgroup = desc(n->p, "ControlGroup", NULL, NULL);
	char *compliance = desc(n->p, "Compliance", NULL, NULL);
	uint32_t gi;

	sb_puts(o, "-- Conformance\n\n");
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s 1 }\n", n->compliances, n->conformance);
	sb_printf(o, "%s OBJECT IDENTIFIER ::= { %s 2 }\n\n", n->groups, n->conformance);

	sb_printf(o, "%s MODULE-COMPLIANCE\n    STATUS       current\n", compliance);
	put_description(o, "The compliance statement for agents that implement "
			   "this module: every group is mandatory.");
	sb_printf(o, "    MODULE       -- this module\n    MANDATORY-GROUPS {\n"
		     INDENT "  %s", cgroup);
	for (gi = 0; gi < m->n_groups; gi++) {
		char *s = desc(n->p, m->groups[gi].name, "Group", NULL);

		sb_printf(o, ",\n" INDENT "  %s", s);
		free(s);
	}
	sb_printf(o, "\n    }\n    ::= { %s 1 }\n\n", n->compliances);

	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];
		char *s = desc(n->p, g->name, "Group", NULL);
		struct strbuf t;

		sb_printf(o, "%s OBJECT-GROUP\n    OBJECTS {\n", s);
		put_group_objects(n, g, o);
		sb_puts(o, "\n    }\n    STATUS       current\n");
		sb_init(&t);
		sb_printf(&t, "The objects of group %s.", g->name);
		put_description(o, t.data);
		sb_free(&t);
		sb_printf(o, "    ::= { %s %u }\n\n", n->groups, g->arc);
		free(s);
	}
	{
		char *all = desc(n->p, "ResetAll", NULL, NULL);
		char *disc = desc(n->p, "DiscontinuityTime", NULL, NULL);

		sb_printf(o, "%s OBJECT-GROUP\n    OBJECTS {\n" INDENT "  %s,\n"
			     INDENT "  %s\n    }\n    STATUS       current\n",
			  cgroup, all, disc);
		put_description(o, "The module-wide reset and discontinuity objects.");
		sb_printf(o, "    ::= { %s %u }\n\n", n->groups, ARC_CONTROL_GROUP);
		free(all);
		free(disc);
	}
	free(cgroup);
	free(compliance);
}

void
emit_mib(const struct model *m, struct strbuf *o)
{
	const struct parent *par = find_parent(m);
	struct mn n = { .m = m, .p = m->prefix };
	uint32_t gi;

	n.root = desc(m->prefix, "Mib", NULL, NULL);
	n.objects = desc(m->prefix, "Objects", NULL, NULL);
	n.control = desc(m->prefix, "Control", NULL, NULL);
	n.conformance = desc(m->prefix, "Conformance", NULL, NULL);
	n.compliances = desc(m->prefix, "Compliances", NULL, NULL);
	n.groups = desc(m->prefix, "Groups", NULL, NULL);

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
	emit_conformance(&n, o);
	sb_puts(o, "END\n");
	free(n.root);
	free(n.objects);
	free(n.control);
	free(n.conformance);
	free(n.compliances);
	free(n.groups);
}
