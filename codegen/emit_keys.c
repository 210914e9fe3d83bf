/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A keyed table's part of <prefix>_stats.h: its C key and the three calls
 * that map keys to rows. Where each member of the key lies is
 * fastmib_key_layout()'s to say (the library reads keys with it): the
 * generator writes the offsets it gives as macros and asserts that the
 * compiler lays the struct out the same way, so a disagreement stops the
 * build instead of corrupting keys.
 */
#include "emit.h"

#include <string.h>

/* The member of index x: its declaration and what it holds. */
static void
put_member(struct strbuf *o, const char *member, const struct m_index *x)
{
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "%s (", x->name);
	switch (x->type) {
	case FASTMIB_INDEX_INTEGER:
		sb_printf(&t, "integer): 1..%u, the SNMP index value", x->max);
		break;
	case FASTMIB_INDEX_UINT32:
		sb_puts(&t, "uint32): any value");
		break;
	case FASTMIB_INDEX_IPV4:
		sb_puts(&t, "ipv4): the address, network order");
		break;
	case FASTMIB_INDEX_INET_ADDRESS:
		sb_puts(&t, "inet-address): .type 1 with the IPv4 address in .addr[0..3], or "
			    "2 with the IPv6 address in .addr; network order");
		break;
	case FASTMIB_INDEX_MAC:
		sb_puts(&t, "mac): the six octets, in transmission order");
		break;
	case FASTMIB_INDEX_STRING:
		sb_printf(&t, "string): 1..%u printable ASCII characters, NUL-terminated",
			  x->size);
		break;
	}
	put_c_comment_tab(o, t.data);
	sb_free(&t);
	switch (x->type) {
	case FASTMIB_INDEX_IPV4:
		sb_printf(o, "\tuint8_t %s[4];\n", member);
		break;
	case FASTMIB_INDEX_INET_ADDRESS:
		sb_printf(o, "\tstruct fastmib_inet_address %s;\n", member);
		break;
	case FASTMIB_INDEX_MAC:
		sb_printf(o, "\tuint8_t %s[6];\n", member);
		break;
	case FASTMIB_INDEX_STRING:
		sb_printf(o, "\tchar %s[%u + 1];\n", member, x->size);
		break;
	default:
		sb_printf(o, "\tuint32_t %s;\n", member);
		break;
	}
}

static void
key_layout(const struct model *m, uint32_t gi, uint32_t *offsets, uint32_t *size)
{
	fastmib_key_layout(&m->schema.groups[gi], offsets, size);
}

void
emit_key_constants(const struct model *m, uint32_t gi, struct name_pool *np, struct strbuf *o)
{
	const struct m_group *g = &m->groups[gi];
	uint32_t offsets[FASTMIB_MAX_INDEXES], size;

	key_layout(m, gi, offsets, &size);
	for (uint32_t xi = 0; xi < g->n_indexes; xi++)
		sb_printf(o, "#define %s %uu\n",
			  pool_name(np, FASTMIB_C_KEY_OFFSET, g->name, g->indexes[xi].name),
			  offsets[xi]);
	sb_printf(o, "#define %s %uu\n", pool_name(np, FASTMIB_C_KEY_SIZE, g->name, NULL), size);
}

void
emit_key_struct(const struct model *m, uint32_t gi, struct name_pool *np, const char *sassert,
		struct strbuf *o)
{
	const struct m_group *g = &m->groups[gi];
	const char *key = pool_name(np, FASTMIB_C_KEY_STRUCT, g->name, NULL);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "The key of a %s row: one member per index, in model order. Its "
		      "layout is fastmib_key_layout()'s, asserted below; bytes no member "
		      "value uses (padding, after a string's NUL) are ignored.", g->name);
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_printf(o, "struct %s {\n", key);
	for (uint32_t xi = 0; xi < g->n_indexes; xi++)
		put_member(o, pool_snake(np, g->indexes[xi].name), &g->indexes[xi]);
	sb_puts(o, "};\n\n");
	sb_init(&t);
	sb_printf(&t, "%s key", g->name);
	for (uint32_t xi = 0; xi < g->n_indexes; xi++)
		put_offset_assert(o, sassert, key, pool_snake(np, g->indexes[xi].name),
				  pool_name(np, FASTMIB_C_KEY_OFFSET, g->name, g->indexes[xi].name),
				  t.data, g->indexes[xi].name);
	put_size_assert(o, sassert, key, pool_name(np, FASTMIB_C_KEY_SIZE, g->name, NULL), t.data);
	sb_free(&t);
}

/* "static inline int\nNAME(struct fastmib_segment *seg, const struct KEY *key[,
 * uint32_t *row])" and its body, the call of the library. */
static void
put_key_function(struct strbuf *o, const char *name, const char *key, bool with_row,
		 const char *call, const char *group_id)
{
	struct strbuf k;
	const char *params[3] = { "struct fastmib_segment *seg", NULL, "uint32_t *row" };

	sb_init(&k);
	sb_printf(&k, "const struct %s *key", key);
	params[1] = k.data;
	sb_puts(o, "static inline int\n");
	put_c_prototype(o, name, params, with_row ? 3 : 2);
	sb_printf(o, "\n{\n\treturn %s(seg, %s, key%s);\n}\n\n", call, group_id,
		  with_row ? ", row" : "");
	sb_free(&k);
}

void
emit_key_functions(const struct model *m, uint32_t gi, struct name_pool *np, struct strbuf *o)
{
	const struct m_group *g = &m->groups[gi];
	const char *key = pool_name(np, FASTMIB_C_KEY_STRUCT, g->name, NULL);
	const char *id = pool_name(np, FASTMIB_C_GROUP_ID, g->name, NULL);
	const char *insert = pool_name(np, FASTMIB_C_KEY_INSERT, g->name, NULL);
	const char *find = pool_name(np, FASTMIB_C_KEY_FIND, g->name, NULL);
	const char *rm = pool_name(np, FASTMIB_C_KEY_REMOVE, g->name, NULL);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "The rows of %s, a keyed table of at most %s rows: %s() gives the "
		      "row of a key, taking a free row for a new key; the update functions "
		      "below take that row. These are slow-path calls "
		      "(fastmib_key_insert(), fastmib_key_find(), fastmib_key_remove() "
		      "say what they cost and return): make them when a key appears or "
		      "goes, and keep the row for the fast path.",
		  g->name, pool_name(np, FASTMIB_C_ROWS, g->name, NULL), insert);
	put_c_comment(o, t.data);
	sb_free(&t);
	put_key_function(o, insert, key, true, "fastmib_key_insert", id);
	sb_init(&t);
	sb_printf(&t, "The row of a key that %s holds, into *row: 0, or -ENOENT when "
		      "it does not hold the key.", g->name);
	put_c_comment(o, t.data);
	sb_free(&t);
	put_key_function(o, find, key, true, "fastmib_key_find", id);
	sb_init(&t);
	sb_printf(&t, "Remove a key and its row from %s: the row leaves the table, and "
		      "%s() may give it to another key.", g->name, insert);
	put_c_comment(o, t.data);
	sb_free(&t);
	put_key_function(o, rm, key, false, "fastmib_key_remove", id);
}
