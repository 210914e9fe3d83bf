/* SPDX-License-Identifier: BSD-3-Clause */
/* Emitters: each renders one output file of a validated model into memory. */
#ifndef FASTMIB_GEN_EMIT_H
#define FASTMIB_GEN_EMIT_H

#include "fastmib/names.h"
#include "model.h"
#include "state_names.h"
#include "strbuf.h"

/* <prefix>_stats.h: layout constants, structs, inline update functions. */
void emit_header(const struct model *m, struct strbuf *out);
/* <prefix>_schema.c: the const struct fastmib_schema. */
void emit_schema(const struct model *m, struct strbuf *out);
/* <MODULE-NAME>.txt: the SMIv2 MIB module. */
void emit_mib(const struct model *m, struct strbuf *out);
/* What the snmp_exporter module walks besides the default (docs/nms.md). */
struct exporter_opts {
	bool event_table;          /* the event table: a row per logged record */
	uint32_t max_rows;         /* a table that can hold more rows is "large":
				      left out of the walk ... */
	const char *const *tables; /* ... unless its group is named here */
	size_t n_tables;
};

/* The default of exporter_opts.max_rows. */
#define EXPORTER_MAX_ROWS 1024u

/* A Prometheus snmp_exporter generator configuration (generator.yml) with
 * one module for the model. */
void emit_exporter(const struct model *m, const struct exporter_opts *o,
		   struct strbuf *out);
/* The module the MIB imports its root's parent from besides SNMPv2-SMI
 * (NET-SNMP-MIB for a root under netSnmp), or NULL: the MIB modules a MIB
 * compiler needs beside SNMPv2-SMI, SNMPv2-TC and SNMPv2-CONF. */
const char *mib_parent_module(const struct model *m);

/* ---- a keyed table's part of <prefix>_stats.h (emit_keys.c), group gi ---- */

struct name_pool;
/* P_G_KEY_I_OFFSET, P_G_KEY_SIZE: fastmib_key_layout() of its key. */
void emit_key_constants(const struct model *m, uint32_t gi, struct name_pool *np,
			struct strbuf *out);
/* struct p_g_key, and static assertions (macro `sassert`) that the
 * compiler lays it out as the constants say. */
void emit_key_struct(const struct model *m, uint32_t gi, struct name_pool *np,
		     const char *sassert, struct strbuf *out);
/* p_g_insert(), p_g_find(), p_g_remove(). */
void emit_key_functions(const struct model *m, uint32_t gi, struct name_pool *np,
			struct strbuf *out);

/* ---- a group's states in <prefix>_stats.h (emit_states.c), group gi ---- */

/*
 * The values of its enums (P_G_S_L), the layout of its state struct
 * (P_G_STATE_S_OFFSET, P_G_STATE_SIZE: fastmib_state_layout()'s), struct
 * p_g_state with static assertions (macro `sassert`) that the compiler
 * lays it out so, and the functions that set and get a row's states.
 */
void emit_states(const struct model *m, uint32_t gi, struct name_pool *np, const char *sassert,
		 struct strbuf *out);

/* ---- objects of a group in the MIB: of indexes, of states ---- */

/* An OBJECT-TYPE the MIB emitter writes as it is (put with its parent). */
struct mib_object {
	const char *name;        /* pGI, pGIType, pGS, pGSType */
	const char *seq_syntax;  /* its type in a table entry's SEQUENCE */
	const char *syntax;      /* its SYNTAX clause (may take several lines) */
	const char *units;       /* its UNITS, or NULL */
	const char *access;      /* its MAX-ACCESS */
	const char *description;
	const char *defval;      /* the value of its DEFVAL clause, or NULL */
	unsigned arc;            /* under the group's node or entry */
};

/* Free the heap strings of objects that mib_index_objects() or
 * mib_state_objects() made: name, syntax, description, defval
 * (emit_mib_object.c). */
void mib_objects_free(struct mib_object *v, size_t n);

/* Does an index of the model have type t? */
bool mib_uses_index_type(const struct model *m, enum fastmib_index_type t);
/* The index objects of table g, in arc order, into out (room for
 * 2 * FASTMIB_MAX_INDEXES); their number (emit_mib_index.c). */
size_t mib_index_objects(const char *prefix, const struct m_group *g, struct mib_object *out);
/* The descriptors of g's INDEX clause, in model order, an inet-address
 * index's InetAddressType object before its InetAddress: "a, b, c". */
void mib_index_clause(const char *prefix, const struct m_group *g, struct strbuf *out);

/* The objects of group g's states, in model order (an inet-address: its
 * InetAddressType, then its InetAddress), into out (room for 2 *
 * g->n_states); their number (emit_mib_states.c). */
size_t mib_state_objects(const char *prefix, const struct m_group *g, struct mib_object *out);
/* R.5 and the NOTIFICATION-TYPEs of the model's notify states, in OID
 * order (models with a notify state). */
void mib_state_notifications(const struct model *m, struct strbuf *out);
/* The NOTIFICATION-GROUP of those; `groups` is the node of the groups. */
void mib_state_notification_group(const struct model *m, const char *groups,
				  struct strbuf *out);

/* The objects of group g's histograms (their Count, then their Sum at the
 * next arc) and peaks, in model order, into out (room for 2 *
 * g->n_counters); their number (emit_mib_hist.c). */
size_t mib_hist_objects(const char *prefix, const struct m_group *g, struct mib_object *out);
/* The bucket table of each histogram of group g, under <p>Objects. */
void mib_bucket_tables(const char *prefix, const struct m_group *g, struct strbuf *out);
/* ",\n  <p><G><H>BucketLe,\n  <p><G><H>BucketCount" per histogram of g: their
 * part of the group's OBJECT-GROUP. */
void mib_bucket_group_objects(const char *prefix, const struct m_group *g,
			      struct strbuf *out);

/* A module of textual conventions the MIB imports, and what it imports. */
struct mib_tc_module {
	const char *module;
	const char *names;      /* "InetAddressType, InetAddress" */
};

/* The modules of textual conventions the MIB imports besides SNMPv2-TC,
 * into out (room for 2), in the order its IMPORTS list them:
 * INET-ADDRESS-MIB (an inet-address index or state), HCNUM-TC (a gauge64
 * state); their number (emit_mib.c). */
size_t mib_tc_modules(const struct model *m, struct mib_tc_module *out);
/* An OBJECT-TYPE clause by clause, DESCRIPTION wrapped (emit_mib_object.c). */
void mib_put_object(struct strbuf *out, const struct mib_object *ob, const char *parent);
/* A DESCRIPTION clause of `text`, wrapped (emit_mib_object.c). */
void mib_put_description(struct strbuf *out, const char *text);

/* ---- shared helpers (emit_util.c) ---- */

/*
 * Word-wrap `text` at `width` columns, each line starting with `indent`.
 * A '\n' in `text` separates paragraphs (rendered as an empty line).
 * The first line is not indented when `first_indented` is false.
 */
void wrap_text(struct strbuf *out, const char *text, const char *indent,
	       size_t width, int first_indented);
/* `text` as a C block comment, wrapped at 76 columns, and a newline. */
void put_c_comment(struct strbuf *out, const char *text);
/* The same, indented by one tab (a struct member's). */
void put_c_comment_tab(struct strbuf *out, const char *text);
/* Text made safe inside a C block comment. */
void put_c_comment_text(struct strbuf *out, const char *text);
/* Text as the body of a C string literal (no surrounding quotes). */
void put_c_string(struct strbuf *out, const char *text);
/*
 * The static assertion (macro `sassert`) that member `member` of struct
 * `tag` is at offset `offset` (a macro), on one line when it fits in 80
 * columns, its message "WHAT: NAME offset"; and that the struct's size is
 * `size`, "WHAT size". A generated struct whose layout the library owns
 * (a key's, a row's states) is asserted so.
 */
void put_offset_assert(struct strbuf *out, const char *sassert, const char *tag,
		       const char *member, const char *offset, const char *what,
		       const char *name);
void put_size_assert(struct strbuf *out, const char *sassert, const char *tag,
		     const char *size, const char *what);
/* "NAME(P0, P1, ...)", every parameter after the first on a line of its
 * own when one line would exceed 80 columns. */
void put_c_prototype(struct strbuf *out, const char *name, const char *const *params,
		     size_t n);
/*
 * The generated names of one output file. Every C or MIB name an emitter
 * writes is spelled by the names module (<fastmib/names.h>, through
 * gen_name()); a pool keeps the names it made until pool_free(), so that
 * one format call can take several of them as arguments.
 */
struct name_pool {
	const char *prefix;
	char **names;
	size_t n, cap;
};

void pool_init(struct name_pool *np, const char *prefix);
/* Name `role` of the pool's prefix from model names a and b (NULL where
 * the role takes none), as fastmib_name() spells it. */
const char *pool_name(struct name_pool *np, enum fastmib_name_role role, const char *a,
		      const char *b);
/* Name `role` of a state (state_names.h) from model names a, b and c. */
const char *pool_state_name(struct name_pool *np, enum state_name_role role, const char *a,
			    const char *b, const char *c);
/* A model name in snake_case: a struct member or a parameter of the
 * generated code (fastmib_name_snake()). */
const char *pool_snake(struct name_pool *np, const char *name);
/* Keep heap string `s` (xmalloc'ed) with the pool's names; returns it. */
const char *pool_keep(struct name_pool *np, char *s);
void pool_free(struct name_pool *np);

#endif
