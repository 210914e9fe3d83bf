/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The index objects of a table's entry in the MIB: one per index, two for
 * an inet-address index (RFC 4001: its InetAddressType, then its
 * InetAddress), each with the syntax of its index type
 * (docs/mib-layout.md, "Index encoding"). Arcs are <fastmib/oidmap.h>'s.
 */
#include "emit.h"

#include <stdlib.h>

#include "fastmib/oidmap.h"
#include "single_names.h"

bool
mib_uses_index_type(const struct model *m, enum fastmib_index_type t)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t xi = 0; xi < m->groups[gi].n_indexes; xi++)
			if (m->groups[gi].indexes[xi].type == t)
				return true;
	return false;
}

/* The SEQUENCE syntax, the refined SYNTAX and the DESCRIPTION of index x's
 * object, or of its InetAddressType object (`type_object`). */
static void
describe(const struct m_group *g, const struct m_index *x, bool type_object,
	 const char *partner, struct mib_object *ob)
{
	struct strbuf syntax, text;

	sb_init(&syntax);
	sb_init(&text);
	if (type_object) {
		/* not subtyped to the two values used: RFC 4001 asks so */
		ob->seq_syntax = "InetAddressType";
		sb_puts(&syntax, "InetAddressType");
		sb_printf(&text, "The type of the address %s of the row's key: ipv4(1) or "
				 "ipv6(2), the only types the table holds.", partner);
		goto done;
	}
	switch (x->type) {
	case FASTMIB_INDEX_INTEGER:
		ob->seq_syntax = "Unsigned32";
		sb_printf(&syntax, "Unsigned32 (1..%u)", x->max);
		if (g->keyed)
			sb_printf(&text, "The %s of the row's key: an integer, 1..%u.", x->name,
				  x->max);
		else
			sb_printf(&text, "Index %s of the row: the value the application "
					 "uses, which starts at 0, plus one.", x->name);
		break;
	case FASTMIB_INDEX_UINT32:
		ob->seq_syntax = "Unsigned32";
		sb_puts(&syntax, "Unsigned32");
		sb_printf(&text, "The %s of the row's key: an unsigned 32-bit integer.",
			  x->name);
		break;
	case FASTMIB_INDEX_IPV4:
		ob->seq_syntax = "IpAddress";
		sb_puts(&syntax, "IpAddress");
		sb_printf(&text, "The %s of the row's key: an IPv4 address.", x->name);
		break;
	case FASTMIB_INDEX_INET_ADDRESS:
		ob->seq_syntax = "InetAddress";
		sb_puts(&syntax, "InetAddress (SIZE (4 | 16))");
		sb_printf(&text, "The %s of the row's key: an IPv4 address (4 octets) or "
				 "an IPv6 address (16 octets), as %s says.", x->name, partner);
		break;
	case FASTMIB_INDEX_MAC:
		ob->seq_syntax = "MacAddress";
		sb_puts(&syntax, "MacAddress");
		sb_printf(&text, "The %s of the row's key: a MAC address.", x->name);
		break;
	case FASTMIB_INDEX_STRING:
		ob->seq_syntax = "DisplayString";
		sb_printf(&syntax, "DisplayString (SIZE (1..%u))", x->size);
		sb_printf(&text, "The %s of the row's key: a string of 1 to %u characters.",
			  x->name, x->size);
		break;
	}
done:
	ob->syntax = sb_take(&syntax);
	ob->description = sb_take(&text);
}

/* The object of index xi, or of its type. */
static void
make(const char *prefix, const struct m_group *g, uint32_t xi, bool type_object,
     struct mib_object *ob)
{
	const struct m_index *x = &g->indexes[xi];
	enum fastmib_name_role role = type_object ? FASTMIB_MIB_INDEX_TYPE : FASTMIB_MIB_INDEX;
	enum fastmib_name_role other = type_object ? FASTMIB_MIB_INDEX : FASTMIB_MIB_INDEX_TYPE;
	char *partner = gen_name(other, prefix, g->name, x->name);

	*ob = (struct mib_object){ .name = gen_name(role, prefix, g->name, x->name),
				   .access = "not-accessible" };
	ob->arc = (type_object ? FASTMIB_ARC_INDEX_TYPE_FIRST : FASTMIB_ARC_INDEX_FIRST) + xi;
	describe(g, x, type_object, partner, ob);
	free(partner);
}

size_t
mib_index_objects(const char *prefix, const struct m_group *g, struct mib_object *out)
{
	size_t n = 0;

	/* arc order: the indexes, then the types of inet-address ones */
	for (uint32_t xi = 0; xi < g->n_indexes; xi++)
		make(prefix, g, xi, false, &out[n++]);
	for (uint32_t xi = 0; xi < g->n_indexes; xi++)
		if (g->indexes[xi].type == FASTMIB_INDEX_INET_ADDRESS)
			make(prefix, g, xi, true, &out[n++]);
	return n;
}

void
mib_index_clause(const char *prefix, const struct m_group *g, struct strbuf *o)
{
	for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
		const struct m_index *x = &g->indexes[xi];
		char *s;

		if (x->type == FASTMIB_INDEX_INET_ADDRESS) {
			s = gen_name(FASTMIB_MIB_INDEX_TYPE, prefix, g->name, x->name);
			sb_printf(o, "%s%s", xi ? ", " : "", s);
			free(s);
			sb_puts(o, ", ");
		} else if (xi) {
			sb_puts(o, ", ");
		}
		s = gen_name(FASTMIB_MIB_INDEX, prefix, g->name, x->name);
		sb_puts(o, s);
		free(s);
	}
}

