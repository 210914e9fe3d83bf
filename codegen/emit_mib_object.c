/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One object of the MIB, clause by clause: an OBJECT-TYPE as the emitters
 * of groups, indexes and states describe it (struct mib_object), and the
 * DESCRIPTION clause every definition of the module writes, wrapped at 72
 * columns. Below the MIB's emitters, which all call it.
 */
#include "emit.h"

#include <stdlib.h>

#define INDENT "        "
#define WIDTH  72

void
mib_put_description(struct strbuf *o, const char *text)
{
	sb_puts(o, "    DESCRIPTION\n" INDENT "\"");
	wrap_text(o, text, INDENT, WIDTH, 0);
	sb_puts(o, "\"\n");
}

void
mib_put_object(struct strbuf *o, const struct mib_object *ob, const char *parent)
{
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n", ob->name, ob->syntax);
	if (ob->units)
		sb_printf(o, "    UNITS        \"%s\"\n", ob->units);
	sb_printf(o, "    MAX-ACCESS   %s\n    STATUS       current\n", ob->access);
	mib_put_description(o, ob->description);
	if (ob->defval)
		sb_printf(o, "    DEFVAL       { %s }\n", ob->defval);
	sb_printf(o, "    ::= { %s %u }\n\n", parent, ob->arc);
}

void
mib_objects_free(struct mib_object *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((void *)v[i].name);
		free((void *)v[i].syntax);
		free((void *)v[i].description);
		free((void *)v[i].defval);
	}
}
