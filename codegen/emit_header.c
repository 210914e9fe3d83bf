/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <prefix>_stats.h. Update functions compute constant offsets from macros
 * so that, inlined, an update is one add at a fixed address; the structs
 * are there to document the layout and let the compiler check it against
 * the schema constants through static assertions. Event functions fold
 * the rate into code: a constant compare for rates 1..8, none for 9, an
 * empty body for 0, so a filtered event costs one compare and branch.
 * A keyed table's key (emit_keys.c) and a group's states (emit_states.c)
 * are parts of their own.
 *
 * Every name the header defines is spelled by the names module
 * (<fastmib/names.h>; a state's, state_names.h): the module's own names
 * are made once below, a group's, counter's or event's where they are
 * written.
 */
#include "emit.h"

#include <string.h>

struct hnames {
	struct name_pool pool;  /* every name below, and those made on the way */
	const char *p;          /* ep: the prefix, in file names */
	const char *guard;      /* EP_STATS_H */
	const char *aligned_64; /* EP_ALIGNED_64 */
	const char *sassert;    /* EP_STATIC_ASSERT */
	const char *hash;       /* EP_SCHEMA_HASH */
	const char *schema;     /* ep_schema */
	const char *create, *attach;
	const char *percore_size, *shared_size; /* EP_PERCORE_SIZE, EP_SHARED_SIZE */
	const char *percore, *shared;           /* struct ep_percore, ep_shared */
	const char *tx;                         /* struct ep_tx */
	const char *tx_begin, *tx_end, *tx_prepare, *tx_open;
	const char *n_events;                   /* EP_N_EVENTS */
};

static void
hnames_init(struct hnames *h, const char *p)
{
	struct name_pool *np = &h->pool;

	pool_init(np, p);
	h->p = p;
	h->guard = pool_name(np, FASTMIB_C_HEADER_GUARD, NULL, NULL);
	h->aligned_64 = pool_name(np, FASTMIB_C_ALIGNED_64, NULL, NULL);
	h->sassert = pool_name(np, FASTMIB_C_STATIC_ASSERT, NULL, NULL);
	h->hash = pool_name(np, FASTMIB_C_SCHEMA_HASH, NULL, NULL);
	h->schema = pool_name(np, FASTMIB_C_SCHEMA, NULL, NULL);
	h->create = pool_name(np, FASTMIB_C_CREATE, NULL, NULL);
	h->attach = pool_name(np, FASTMIB_C_ATTACH, NULL, NULL);
	h->percore_size = pool_name(np, FASTMIB_C_PERCORE_SIZE, NULL, NULL);
	h->shared_size = pool_name(np, FASTMIB_C_SHARED_SIZE, NULL, NULL);
	h->percore = pool_name(np, FASTMIB_C_PERCORE_STRUCT, NULL, NULL);
	h->shared = pool_name(np, FASTMIB_C_SHARED_STRUCT, NULL, NULL);
	h->tx = pool_name(np, FASTMIB_C_TX_STRUCT, NULL, NULL);
	h->tx_begin = pool_name(np, FASTMIB_C_TX_BEGIN, NULL, NULL);
	h->tx_end = pool_name(np, FASTMIB_C_TX_END, NULL, NULL);
	h->tx_prepare = pool_name(np, FASTMIB_C_TX_PREPARE, NULL, NULL);
	h->tx_open = pool_name(np, FASTMIB_C_TX_OPEN, NULL, NULL);
	h->n_events = pool_name(np, FASTMIB_C_N_EVENTS, NULL, NULL);
}

/* Name `role` of group g (P_G_OFFSET, struct p_g_row...). */
static const char *
gname(struct hnames *h, enum fastmib_name_role role, const struct m_group *g)
{
	return pool_name(&h->pool, role, g->name, NULL);
}

/* Name `role` of counter k of group g (p_g_c_add()...). */
static const char *
kname(struct hnames *h, enum fastmib_name_role role, const struct m_group *g,
      const struct m_counter *k)
{
	return pool_name(&h->pool, role, g->name, k->name);
}

/* P_G_I_MAX: the size of index xi of group g. */
static const char *
index_max(struct hnames *h, const struct m_group *g, uint32_t xi)
{
	return pool_name(&h->pool, FASTMIB_C_INDEX_MAX, g->name, g->indexes[xi].name);
}

/* A model name as a member or parameter: snake_case. */
static const char *
snake(struct hnames *h, const char *name)
{
	return pool_snake(&h->pool, name);
}

/*
 * The row parameters of a table's update functions: its indexes, 0-based,
 * for a table of integer indexes; for a keyed table one, `row`, as its
 * insert function gave it. Each must stay below its bound.
 */
static uint32_t
n_row_params(const struct m_group *g)
{
	return g->keyed ? 1 : g->n_indexes;
}

static const char *
row_param(struct hnames *h, const struct m_group *g, uint32_t i)
{
	return g->keyed ? "row" : snake(h, g->indexes[i].name);
}

static const char *
row_param_bound(struct hnames *h, const struct m_group *g, uint32_t i)
{
	return g->keyed ? gname(h, FASTMIB_C_ROWS, g) : index_max(h, g, i);
}

/* The updates of a counter: add, sub (gauges), set (`set: true`); of a
 * histogram an observation; of a peak a value recorded. */
enum op { OP_ADD, OP_SUB, OP_SET, OP_OBSERVE, OP_PEAK, OP_LAST = OP_PEAK };

static const struct {
	const char *word;
	const char *verb;                    /* in comments */
	enum fastmib_name_role fn, tx_fn, ref_fn;
} ops[] = {
	[OP_ADD] = { "add", "+=", FASTMIB_C_ADD, FASTMIB_C_TX_ADD, FASTMIB_C_REF_ADD },
	[OP_SUB] = { "sub", "-=", FASTMIB_C_SUB, FASTMIB_C_TX_SUB, FASTMIB_C_REF_SUB },
	[OP_SET] = { "set", "=", FASTMIB_C_SET, FASTMIB_C_TX_SET, FASTMIB_C_REF_SET },
	[OP_OBSERVE] = { "observe", "observes", FASTMIB_C_OBSERVE, FASTMIB_C_TX_OBSERVE,
			 FASTMIB_C_REF_OBSERVE },
	[OP_PEAK] = { "peak", "raised to", FASTMIB_C_PEAK, FASTMIB_C_TX_PEAK,
		      FASTMIB_C_REF_PEAK },
};

static bool
counter_has(const struct m_counter *k, enum op op)
{
	switch (op) {
	case OP_OBSERVE:
		return k->type == FASTMIB_HISTOGRAM;
	case OP_PEAK:
		return k->type == FASTMIB_PEAK;
	default:
		break;
	}
	if (k->type == FASTMIB_HISTOGRAM || k->type == FASTMIB_PEAK)
		return false;
	return op == OP_ADD || (op == OP_SUB && k->type == FASTMIB_GAUGE32) ||
	       (op == OP_SET && k->set);
}

/* The operand parameter of an update: n for counters (a name the model
 * reserves), v for a histogram's or a peak's value (v_ when an index has
 * that name). */
static const char *
op_param(struct hnames *h, const struct m_group *g, enum op op);

/* "p_g_h_bucket(v), P_G_H_BUCKETS, v": what an observation `v` of
 * histogram k passes on (fastmib_hist_add()). */
static const char *
hist_args(struct hnames *h, const struct m_group *g, const struct m_counter *k, const char *v)
{
	struct strbuf a;

	sb_init(&a);
	sb_printf(&a, "%s(%s), %s, %s", kname(h, FASTMIB_C_BUCKET_FN, g, k), v,
		  kname(h, FASTMIB_C_BUCKETS, g, k), v);
	return pool_keep(&h->pool, sb_take(&a));
}

/* The arguments after the word an update passes on: n, or for sub its
 * two's complement (readers sum signed); a histogram's bucket of v, its
 * bucket count and v; a peak's v. */
static const char *
op_args(struct hnames *h, const struct m_group *g, const struct m_counter *k, enum op op)
{
	const char *v = op_param(h, g, op);

	switch (op) {
	case OP_SUB:
		return "(uint64_t)0 - n";
	case OP_OBSERVE:
		return hist_args(h, g, k, v);
	default:
		return v;
	}
}

static const char *
primitive(enum fastmib_storage s)
{
	switch (s) {
	case FASTMIB_STORAGE_PER_CORE:
		return "fastmib_pc_add";
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		return "fastmib_wb_add";
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		return "fastmib_atomic_add";
	}
	return "?";
}

static void
emit_prologue(const struct model *m, const struct hnames *h, struct strbuf *o)
{
	sb_printf(o, "/* %s_stats.h: counters of %s, generated by fastmib-gen from %s.\n"
		     " * Edit the model and regenerate; do not edit this file. */\n",
		  h->p, m->module, m->source);
	sb_printf(o, "#ifndef %s\n#define %s\n\n", h->guard, h->guard);
	sb_puts(o, "#include <stddef.h>\n#include <stdint.h>\n\n"
		   "#include <fastmib/fastmib.h>\n\n"
		   "#ifdef FASTMIB_DEBUG\n#include <assert.h>\n#endif\n\n");
	sb_printf(o, "#ifdef __cplusplus\n"
		     "#define %s alignas(64)\n"
		     "#define %s(e, msg) static_assert(e, msg)\n"
		     "extern \"C\" {\n"
		     "#else\n"
		     "#define %s _Alignas(64)\n"
		     "#define %s(e, msg) _Static_assert(e, msg)\n"
		     "#endif\n\n",
		  h->aligned_64, h->sassert, h->aligned_64, h->sassert);
	sb_printf(o, "extern const struct fastmib_schema %s;\n\n", h->schema);
}

/*
 * The schema's identity and create/attach wrappers that check it, so that
 * code compiled with this header never runs on a schema.c or a segment of
 * another model or version.
 */
static void
emit_identity(const struct model *m, const struct hnames *h, struct strbuf *o)
{
	sb_printf(o, "/* Identity of the schema: its fastmib_schema_hash(), which a segment\n"
		     " * created from it records. Any change of the model changes it. */\n"
		     "#define %s 0x%016llxull\n\n", h->hash, (unsigned long long)m->schema.hash);
	sb_printf(o, "/* fastmib_create() and fastmib_attach() for code compiled with this\n"
		     " * header: when %s or the segment comes from another model or\n"
		     " * version, they fail with -ESTALE and a message naming both schema\n"
		     " * hashes. */\n", h->schema);
	sb_printf(o, "static inline int\n%s(const char *path, const struct fastmib_opts *opts,\n"
		     "\tstruct fastmib_segment **segp)\n{\n"
		     "\treturn fastmib_create_checked(&%s, %s, path, opts, segp);\n}\n\n",
		  h->create, h->schema, h->hash);
	sb_printf(o, "static inline int\n%s(const char *path, int flags, "
		     "struct fastmib_segment **segp)\n{\n"
		     "\treturn fastmib_attach_checked(path, flags, %s,\n\t\t\"%s\", segp);\n}\n\n",
		  h->attach, h->hash, m->module);
}

static void
emit_constants(const struct model *m, struct hnames *h, struct strbuf *o)
{
	uint32_t gi, xi;

	sb_printf(o, "/* Group ids: positions in %s.groups, for fastmib_row_enable()\n"
		     " * and the reader API. */\n", h->schema);
	for (gi = 0; gi < m->n_groups; gi++)
		sb_printf(o, "#define %s %uu\n", gname(h, FASTMIB_C_GROUP_ID, &m->groups[gi]), gi);
	sb_puts(o, "\n/* Layout: byte offsets of groups within their storage area, bytes per\n"
		   " * row, and table sizes (SNMP index k runs 1..MAX, C index 0..MAX-1).\n"
		   " * Where ROW_SIZE is a power of two, the functions below write\n"
		   " * row * ROW_SIZE as a shift.");
	if (model_has_keyed(m))
		sb_puts(o, " A keyed table holds ROWS rows (its capacity);\n"
			   " * KEY_SIZE and the KEY_..._OFFSET constants lay out its key.");
	sb_puts(o, " */\n");
	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		for (xi = 0; xi < g->n_indexes; xi++)
			if (g->indexes[xi].type == FASTMIB_INDEX_INTEGER)
				sb_printf(o, "#define %s %uu\n", index_max(h, g, xi),
					  g->indexes[xi].max);
		if (g->table)
			sb_printf(o, "#define %s %uu\n", gname(h, FASTMIB_C_ROWS, g), g->n_rows);
		if (g->keyed)
			emit_key_constants(m, gi, &h->pool, o);
		if (!g->n_counters)
			continue; /* states only: nothing in a storage area */
		sb_printf(o, "#define %s %lluu\n", gname(h, FASTMIB_C_OFFSET, g),
			  (unsigned long long)g->offset);
		sb_printf(o, "#define %s %uu\n", gname(h, FASTMIB_C_ROW_SIZE, g), g->row_size);
		/* a histogram's buckets: its bounds and the unbounded last one */
		for (uint32_t ki = 0; ki < g->n_counters; ki++)
			if (g->counters[ki].type == FASTMIB_HISTOGRAM)
				sb_printf(o, "#define %s %uu\n",
					  kname(h, FASTMIB_C_BUCKETS, g, &g->counters[ki]),
					  g->counters[ki].n_bounds + 1);
	}
	sb_printf(o, "#define %s %lluu\n", h->percore_size,
		  (unsigned long long)m->percore_size);
	sb_printf(o, "#define %s %lluu\n\n", h->shared_size,
		  (unsigned long long)m->shared_size);
}

static void
emit_area_struct(const struct model *m, struct hnames *h, struct strbuf *o, int shared)
{
	uint32_t gi;
	int any = 0;

	for (gi = 0; gi < m->n_groups; gi++)
		any |= m->groups[gi].n_counters &&
		       storage_is_shared(m->groups[gi].storage) == shared;
	if (!any) {
		sb_printf(o, "/* No %s group: the %s area is empty. */\n\n",
			  shared ? "shared" : "per-core", shared ? "shared" : "per-core");
		return;
	}
	if (shared)
		sb_puts(o, "/* The shared area: shared-buffered and shared-atomic groups. */\n");
	else
		sb_puts(o, "/* The per-core area: one instance per lcore. */\n");
	sb_puts(o, "/* After a table's rows, its scratch row: where an update with an index\n"
		   " * out of range goes (counted), so that no reader sees it. */\n");
	sb_printf(o, "struct %s {\n", shared ? h->shared : h->percore);
	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		if (!g->n_counters || storage_is_shared(g->storage) != shared)
			continue;
		sb_printf(o, "\t%s struct %s %s", h->aligned_64,
			  gname(h, FASTMIB_C_ROW_STRUCT, g), snake(h, g->name));
		if (g->table)
			sb_printf(o, "[%s + 1]", gname(h, FASTMIB_C_ROWS, g));
		sb_puts(o, ";\n");
	}
	sb_puts(o, "};\n\n");
}

static void
emit_structs(const struct model *m, struct hnames *h, struct strbuf *o)
{
	uint32_t gi, ki;

	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];
		struct strbuf t;

		if (!g->n_counters) {
			if (g->keyed)
				emit_key_struct(m, gi, &h->pool, h->sassert, o);
			continue;
		}
		sb_init(&t);
		sb_printf(&t, "One row of group %s (%s%s): ", g->name,
			  fastmib_storage_word(g->storage),
			  g->keyed ? " keyed table" : g->table ? " table" : "");
		put_c_comment_text(&t, g->description);
		put_c_comment(o, t.data);
		sb_free(&t);
		sb_printf(o, "struct %s {\n", gname(h, FASTMIB_C_ROW_STRUCT, g));
		for (ki = 0; ki < g->n_counters; ki++) {
			const struct m_counter *k = &g->counters[ki];
			const char *c = snake(h, k->name);

			if (k->type != FASTMIB_HISTOGRAM) {
				sb_printf(o, "\tuint64_t %s;\n", c);
				continue;
			}
			/* its buckets, count and sum: <p><G><H>Bucket, Count and Sum
			 * in the MIB, so a clash of these is a clash there too */
			sb_printf(o, "\tuint64_t %s_bucket[%s];\n\tuint64_t %s_count;\n"
				     "\tuint64_t %s_sum;\n", c, kname(h, FASTMIB_C_BUCKETS, g, k),
				  c, c);
		}
		sb_puts(o, "};\n\n");
		if (g->keyed)
			emit_key_struct(m, gi, &h->pool, h->sassert, o);
	}
	emit_area_struct(m, h, o, 0);
	emit_area_struct(m, h, o, 1);

	sb_puts(o, "/* The structs above must match the schema offsets exactly. */\n");
	for (gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		if (!g->n_counters)
			continue;
		sb_printf(o, "%s(sizeof(struct %s) == %s,\n\t\"%s row size\");\n", h->sassert,
			  gname(h, FASTMIB_C_ROW_STRUCT, g), gname(h, FASTMIB_C_ROW_SIZE, g),
			  g->name);
		sb_printf(o, "%s(offsetof(struct %s, %s) == %s,\n\t\"%s offset\");\n",
			  h->sassert, storage_is_shared(g->storage) ? h->shared : h->percore,
			  snake(h, g->name), gname(h, FASTMIB_C_OFFSET, g), g->name);
	}
	if (m->percore_size)
		sb_printf(o, "%s(sizeof(struct %s) == %s,\n\t\"per-core area size\");\n",
			  h->sassert, h->percore, h->percore_size);
	if (m->shared_size)
		sb_printf(o, "%s(sizeof(struct %s) == %s,\n\t\"shared area size\");\n",
			  h->sassert, h->shared, h->shared_size);
	sb_puts(o, "\n");
}

/* ", uint32_t a, uint32_t b": the row parameters */
static void
put_index_params(struct hnames *h, const struct m_group *g, struct strbuf *o,
		 int leading_comma)
{
	for (uint32_t xi = 0; xi < n_row_params(g); xi++)
		sb_printf(o, "%suint32_t %s", (xi || leading_comma) ? ", " : "",
			  row_param(h, g, xi));
}

/* "a, b": the row parameters as call arguments. */
static void
put_index_args(struct hnames *h, const struct m_group *g, struct strbuf *o)
{
	for (uint32_t xi = 0; xi < n_row_params(g); xi++)
		sb_printf(o, "%s%s", xi ? ", " : "", row_param(h, g, xi));
}

/* "row (a, b)" (0-based indexes) or, for a keyed table, "row `row`": the
 * row the parameters name, in comments. */
static void
put_row_words(struct hnames *h, const struct m_group *g, struct strbuf *o)
{
	if (g->keyed) {
		sb_puts(o, "row `row`");
		return;
	}
	sb_puts(o, "row (");
	put_index_args(h, g, o);
	sb_puts(o, ")");
}

/* "static inline RET\nNAME(FIRST, uint32_t a, ..., LAST)\n", the parameters
 * after FIRST on a line of their own when one line would exceed 80. */
static void
put_signature(struct hnames *h, struct strbuf *o, const char *ret, const char *name,
	      const char *first, const struct m_group *g, const char *last)
{
	struct strbuf sig;

	sb_init(&sig);
	sb_printf(&sig, "%s(%s", name, first);
	put_index_params(h, g, &sig, 1);
	sb_printf(&sig, "%s%s)", last ? ", " : "", last ? last : "");
	if (sig.len > 80) {
		sb_free(&sig);
		sb_printf(&sig, "%s(%s,\n\t", name, first);
		put_index_params(h, g, &sig, 0);
		if (last)
			sb_printf(&sig, "%s%s", n_row_params(g) ? ", " : "", last);
		sb_puts(&sig, ")");
	}
	sb_printf(o, "static inline %s\n%s\n", ret, sig.data);
	sb_free(&sig);
}

static void
emit_row_helper(struct hnames *h, const struct m_group *g, struct strbuf *o)
{
	uint32_t xi;

	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "Row number of a %s row (0-based indexes, row-major, last index "
		      "fastest), as fastmib_row_enable() takes it. Indexes must be in "
		      "range (checked only with FASTMIB_DEBUG); updates use %s().",
		  g->name, gname(h, FASTMIB_C_ROW_CHECKED_FN, g));
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_printf(o, "static inline uint32_t\n%s(", gname(h, FASTMIB_C_ROW_FN, g));
	put_index_params(h, g, o, 0);
	sb_puts(o, ")\n{\n#ifdef FASTMIB_DEBUG\n");
	for (xi = 0; xi < g->n_indexes; xi++)
		sb_printf(o, "\tassert(%s < %s);\n", snake(h, g->indexes[xi].name),
			  index_max(h, g, xi));
	sb_puts(o, "#endif\n\treturn ");
	/* Horner form: ((i0 * M1) + i1) * M2 + i2 ... */
	for (xi = 1; xi < g->n_indexes; xi++)
		sb_putc(o, '(');
	for (xi = 0; xi < g->n_indexes; xi++) {
		const char *xs = snake(h, g->indexes[xi].name);

		if (xi == 0)
			sb_puts(o, xs);
		else
			sb_printf(o, " * %s + %s)", index_max(h, g, xi), xs);
	}
	sb_puts(o, ";\n}\n\n");
}

/*
 * p_g_row_checked(w, ...): the row an update goes to. An index out of
 * range sends it to the scratch row (fastmib_row_out_of_range() counts
 * it), never to another row: one compare per index and one predicted
 * branch, once per row handle.
 */
static void
emit_row_checked(struct hnames *h, const struct m_group *g, struct strbuf *o)
{
	const char *wv = "w"; /* the model reserves it: no index is named so */
	struct strbuf first, cond;
	uint32_t xi;

	sb_init(&first);
	if (g->keyed)
		sb_printf(&first, "The row an update of a %s row goes to: `row`, or when it "
				  "is not below %s the group's scratch row, counted and "
				  "logged by fastmib_row_out_of_range(), so that no other row "
				  "changes.", g->name, gname(h, FASTMIB_C_ROWS, g));
	else
		sb_printf(&first, "The row an update of a %s row goes to: %s(), or when an "
				  "index is out of range the group's scratch row, counted and "
				  "logged by fastmib_row_out_of_range(), so that no other row "
				  "changes.", g->name, gname(h, FASTMIB_C_ROW_FN, g));
	put_c_comment(o, first.data);
	sb_free(&first);
	sb_init(&first);
	sb_printf(&first, "struct fastmib_writer *%s", wv);
	put_signature(h, o, "uint32_t", gname(h, FASTMIB_C_ROW_CHECKED_FN, g), first.data, g,
		      NULL);
	sb_free(&first);
	sb_init(&cond);
	for (xi = 0; xi < n_row_params(g); xi++)
		sb_printf(&cond, "%s%s >= %s", xi ? ") |\n\t\t     (" : "",
			  row_param(h, g, xi), row_param_bound(h, g, xi));
	if (n_row_params(g) > 1)
		sb_printf(o, "{\n\tif (unlikely((%s)))\n", cond.data);
	else
		sb_printf(o, "{\n\tif (unlikely(%s))\n", cond.data);
	sb_free(&cond);
	sb_printf(o, "\t\treturn fastmib_row_out_of_range(%s, %s);\n", wv,
		  gname(h, FASTMIB_C_GROUP_ID, g));
	if (g->keyed) {
		sb_printf(o, "\treturn %s;\n}\n\n", row_param(h, g, 0));
		return;
	}
	sb_printf(o, "\treturn %s(", gname(h, FASTMIB_C_ROW_FN, g));
	put_index_args(h, g, o);
	sb_puts(o, ");\n}\n\n");
}

/*
 * Byte offset of row `row` (a C expression) within its group, row *
 * ROW_SIZE: a shift when the row size is a power of two. Compilers fold
 * `row * 16 + OFFSET` into `(row + OFFSET / 16) * 16`, an add more before
 * the access; after a shift, OFFSET stays a displacement of the access.
 */
static void
put_row_bytes(struct strbuf *o, struct hnames *h, const struct m_group *g,
	      const char *row)
{
	unsigned shift = 0;

	while ((1u << shift) < g->row_size)
		shift++;
	if ((1u << shift) == g->row_size)
		sb_printf(o, "((size_t)%s << %u)", row, shift);
	else
		sb_printf(o, "(size_t)%s * %s", row, gname(h, FASTMIB_C_ROW_SIZE, g));
}

/*
 * A parameter or local name for functions that also take the group's row
 * parameters: `base`, or `base_` when one has that name (the model
 * reserves only `w` and `n`; a snake_case index never ends in `_`).
 */
static const char *
free_name(struct hnames *h, const struct m_group *g, const char *base)
{
	for (uint32_t xi = 0; xi < n_row_params(g); xi++) {
		if (strcmp(row_param(h, g, xi), base) == 0) {
			size_t len = strlen(base);
			char *s = xmalloc(len + 2);

			memcpy(s, base, len);
			memcpy(s + len, "_", 2);
			return pool_keep(&h->pool, s);
		}
	}
	return base;
}

static const char *
op_param(struct hnames *h, const struct m_group *g, enum op op)
{
	return op == OP_OBSERVE || op == OP_PEAK ? free_name(h, g, "v") : "n";
}

/* "uint64_t n": the operand parameter's declaration. */
static const char *
op_decl(struct hnames *h, const struct m_group *g, enum op op)
{
	struct strbuf d;

	sb_init(&d);
	sb_printf(&d, "uint64_t %s", op_param(h, g, op));
	return pool_keep(&h->pool, sb_take(&d));
}

/* "\tFN(FIRST, REST);\n", REST on a line of its own when one line would
 * exceed 80 columns (a tab counts 8). */
static void
put_call(struct strbuf *o, const char *fn, const char *first, const char *rest)
{
	size_t width = 8 + strlen(fn) + 1 + strlen(first) + 2 + strlen(rest) + 2;

	sb_printf(o, "\t%s(%s,%s%s);\n", fn, first, width > 80 ? "\n\t\t" : " ", rest);
}

/* Bounds of a histogram that its bucket function compares one by one
 * (a sum of compares, all independent); above, a branch-free binary
 * search over them padded to a power of two. */
#define SUM_OF_COMPARES_MAX 8

/*
 * The body of the bucket function of a histogram of bounds 2^lo..2^hi:
 * bucket b holds 2^(lo+b-1) < v <= 2^(lo+b), that is b = bitlen(v - 1) - lo
 * clamped to 0..hi - lo + 1. Written for the fewest instructions on the
 * fast path (an observation's cost over a counter update is mostly this):
 * v - 1 without wrapping at 0 (a compare and a subtract with borrow); the
 * upper clamp on that value, before the count of leading zeros (a compare
 * and a conditional move: 2^hi has bit length hi + 1, the last bucket);
 * the lower clamp folded into the operand, whose low lo bits set make its
 * bit length at least lo and the operand never 0 (what the builtin needs);
 * the result bsr + 1 - lo. With lo = 0 there are no low bits to set: the
 * operand is 2x | 1 (bit length bitlen(x) + 1, never 0), which cannot
 * overflow since hi <= 31 then (at most 32 bounds). No branch: the
 * compilers give cmp, sbb/adc, cmov, or, bsr (tests/codegen checks the
 * buckets at every edge and that no jump is left).
 */
static void
emit_log2_bucket(uint32_t lo, uint32_t hi, struct strbuf *o)
{
	sb_printf(o, "\tuint64_t x = v - (uint64_t)(v != 0); /* v - 1; 0 for v = 0 */\n\n"
		     "\tx = x < (1ull << %u) ? x : (1ull << %u); /* above 2^%u: the last bucket */\n",
		  hi, hi, hi);
	if (lo == 0)
		sb_puts(o, "\treturn (uint32_t)(63 - __builtin_clzll(x << 1 | 1));\n}\n\n");
	else
		sb_printf(o, "\treturn (uint32_t)(63 - __builtin_clzll(x | 0x%llxull)) - %uu;\n}\n\n",
			  (unsigned long long)((1ull << lo) - 1), lo - 1);
}

/*
 * p_g_h_bucket(v): the bucket of an observation. log2 bounds: a count of
 * leading zeros and a clamp (emit_log2_bucket()); a few bounds: the
 * number of bounds below v as a sum of compares; more: a binary search of
 * fixed steps. None has a loop or a branch that depends on v.
 */
static void
emit_bucket_fn(struct hnames *h, const struct m_group *g, const struct m_counter *k,
	       struct strbuf *o)
{
	const char *fn = kname(h, FASTMIB_C_BUCKET_FN, g, k);
	uint32_t pow2 = 1;
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "The bucket of an observation v of %s.%s (0..%u): the first whose "
		      "bound v is at most, else the last, unbounded one. No loop and no "
		      "branch that depends on v.", g->name, k->name, k->n_bounds);
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_printf(o, "static inline uint32_t\n%s(uint64_t v)\n{\n", fn);
	if (k->log2) {
		emit_log2_bucket(k->log2_lo, k->log2_hi, o);
		return;
	}
	if (k->n_bounds <= SUM_OF_COMPARES_MAX) {
		sb_puts(o, "\treturn ");
		for (uint32_t i = 0; i < k->n_bounds; i++)
			sb_printf(o, "%s(uint32_t)(v > %lluull)", i == 0 ? "" : i % 3 ? " + " :
				  " +\n\t       ", (unsigned long long)k->bounds[i]);
		sb_puts(o, ";\n}\n\n");
		return;
	}
	while (pow2 < k->n_bounds)
		pow2 *= 2;
	sb_printf(o, "\tstatic const uint64_t bounds[%u] = {", pow2);
	for (uint32_t i = 0; i < pow2; i++) {
		if (i < k->n_bounds)
			sb_printf(o, "%s%lluull,", i % 4 ? " " : "\n\t\t",
				  (unsigned long long)k->bounds[i]);
		else
			sb_printf(o, "%sUINT64_MAX,", i % 4 ? " " : "\n\t\t");
	}
	/* a binary search written out: each step adds `half` or 0 as one
	 * compare says (setcc, conditional moves), so neither the steps nor
	 * the loads depend on a branch; past the bounds UINT64_MAX pads */
	sb_puts(o, "\n\t};\n\tuint32_t i = 0;\n\n");
	for (uint32_t half = pow2 / 2; half; half /= 2)
		sb_printf(o, "\ti += (uint32_t)(v > bounds[i + %u]) * %uu;\n", half - 1, half);
	sb_puts(o, "\treturn i + (uint32_t)(v > bounds[i]);\n}\n\n");
}

/* The comment above a counter's functions on the writer: a histogram's
 * bounds with it. */
static void
emit_counter_comment(const struct m_group *g, const struct m_counter *k, struct strbuf *o)
{
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "%s.%s (%s%s%s", g->name, k->name, fastmib_type_word(k->type),
		  k->units[0] ? ", " : "", k->units);
	if (k->log2)
		sb_printf(&t, "; bounds 2^%u..2^%u", k->log2_lo, k->log2_hi);
	for (uint32_t i = 0; !k->log2 && i < k->n_bounds; i++)
		sb_printf(&t, "%s%llu", i ? ", " : "; bounds ", (unsigned long long)k->bounds[i]);
	sb_puts(&t, "): ");
	put_c_comment_text(&t, k->description);
	put_c_comment(o, t.data);
	sb_free(&t);
}

/* The call of the calls on the writer for an update `op`. */
static const char *
writer_primitive(const struct m_group *g, enum op op)
{
	switch (op) {
	case OP_SET:
		return "fastmib_atomic_set";
	case OP_OBSERVE:
		return "fastmib_pc_observe";
	case OP_PEAK:
		return "fastmib_pc_max";
	default:
		return primitive(g->storage);
	}
}

/* p_g_c_add() and its kin: an update on the writer, in a transaction
 * opened with fastmib_begin() or none. */
static void
emit_update(struct hnames *h, const struct m_group *g, const struct m_counter *k,
	    enum op op, struct strbuf *o)
{
	const char *fn = writer_primitive(g, op);
	const char *offset = gname(h, FASTMIB_C_OFFSET, g);
	const char *rv = free_name(h, g, "row");
	struct strbuf first;

	put_signature(h, o, "void", kname(h, ops[op].fn, g, k), "struct fastmib_writer *w",
		      g, op_decl(h, g, op));
	sb_puts(o, "{\n");
	if (g->table) {
		sb_printf(o, "\tuint32_t %s = %s(w, ", rv, gname(h, FASTMIB_C_ROW_CHECKED_FN, g));
		put_index_args(h, g, o);
		/* size_t arithmetic: the constants fold into one displacement */
		sb_printf(o, ");\n\n\t%s(w, %s + ", fn, offset);
		put_row_bytes(o, h, g, rv);
		sb_printf(o, " + %uu,\n\t\t%s);\n", k->offset, op_args(h, g, k, op));
	} else if (op < OP_OBSERVE) {
		sb_printf(o, "\t%s(w, %s + %uu, %s);\n", fn, offset, k->offset,
			  op_args(h, g, k, op));
	} else {
		sb_init(&first);
		sb_printf(&first, "w, %s + %uu", offset, k->offset);
		put_call(o, fn, first.data, op_args(h, g, k, op));
		sb_free(&first);
	}
	sb_puts(o, "}\n\n");
}

/* ---- the transaction form: <prefix>_tx_begin(), row handles ---- */

/*
 * FASTMIB_TX_* kinds of the model's transactions: what every open and end
 * does. Per-core groups are read under the lcore's sequence number, and
 * shared-buffered ones are told apart in the write buffer by it; the rest
 * of the buffered bookkeeping is done by the buffered updates themselves
 * (fastmib_tx_wb()), so that a transaction of per-core updates costs the
 * same in a model with shared-buffered groups as in one without.
 * Shared-atomic groups need nothing.
 */
static void
put_tx_kinds(const struct model *m, struct strbuf *o)
{
	bool seq = false;

	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		seq |= m->groups[gi].storage == FASTMIB_STORAGE_PER_CORE ||
		       m->groups[gi].storage == FASTMIB_STORAGE_SHARED_BUFFERED;
	/* peaks need nothing at every open: their resets are applied before
	 * a transaction's first peak (fastmib_tx_peaks()) */
	sb_puts(o, seq ? "FASTMIB_TX_SEQ" : "0u");
}

/* "struct p_tx *TX": the first parameter of the transaction form. */
static const char *
tx_param(struct hnames *h, const char *tx)
{
	struct strbuf s;

	sb_init(&s);
	sb_printf(&s, "struct %s *%s", h->tx, tx);
	return pool_keep(&h->pool, s.data);
}

static void
emit_tx_model(const struct model *m, const struct hnames *h, struct strbuf *o)
{
	sb_printf(o, "/* ---- transactions: the fast form ---- */\n\n"
		     "/* A transaction value of this model on one lcore: it holds the lcore's\n"
		     " * block addresses, so each update below is one add (per-core), one\n"
		     " * buffer entry (shared-buffered) or one atomic add (shared-atomic) at a\n"
		     " * constant offset. t.w is the lcore's writer, for event calls and\n"
		     " * fastmib_flush(). One value may carry many short transactions:\n"
		     " * %s() once (per burst), then %s() ... %s() around\n"
		     " * each packet's updates. */\n"
		     "struct %s {\n\tstruct fastmib_tx t;\n};\n\n",
		  h->tx_prepare, h->tx_open, h->tx_end, h->tx);
	sb_printf(o, "/* A transaction value of this lcore with no transaction open\n"
		     " * (fastmib_tx_prepare(), with the bookkeeping every transaction of\n"
		     " * this model needs): loads the block addresses once. Caller: the\n"
		     " * writer's own thread (the lcore of fastmib_writer()). */\n"
		     "static inline struct %s\n%s(struct fastmib_writer *w)\n{\n"
		     "\tstruct %s tx;\n\n\ttx.t = fastmib_tx_prepare(w, ",
		  h->tx, h->tx_prepare, h->tx);
	put_tx_kinds(m, o);
	sb_puts(o, ");\n\treturn tx;\n}\n\n");
	sb_printf(o, "/* Open a transaction on a prepared or ended value (fastmib_tx_open():\n"
		     " * the seqcount write section, for per-core and shared-buffered\n"
		     " * groups; the first buffered update marks the write buffer). Updates\n"
		     " * of one scalar group or table row made until %s() are read\n"
		     " * all or nothing. Keep it to the updates, never packet work: readers\n"
		     " * of this lcore wait while it is open. One opened inside an open\n"
		     " * transaction is refused and counted. Caller: the writer's own\n"
		     " * thread. */\n"
		     "static inline void\n%s(struct %s *tx)\n{\n"
		     "\tfastmib_tx_open(&tx->t);\n}\n\n", h->tx_end, h->tx_open, h->tx);
	sb_printf(o, "/* %s() and %s() in one. */\n"
		     "static inline struct %s\n%s(struct fastmib_writer *w)\n{\n"
		     "\tstruct %s tx = %s(w);\n\n\t%s(&tx);\n\treturn tx;\n}\n\n",
		  h->tx_prepare, h->tx_open, h->tx, h->tx_begin, h->tx, h->tx_prepare,
		  h->tx_open);
	sb_printf(o, "/* Close the transaction (fastmib_tx_end(): the store-release of the\n"
		     " * even sequence number publishes every per-core update before it;\n"
		     " * buffered updates become flushable, with a flush attempted every\n"
		     " * hint_limit ends of transactions that made some). The value may open\n"
		     " * another one. Caller: the thread that opened it. */\n"
		     "static inline void\n%s(struct %s *tx)\n{\n"
		     "\tfastmib_tx_end(&tx->t);\n}\n\n", h->tx_end, h->tx);
}

/* What a counter update of this storage kind does, for comments. */
static const char *
tx_update_contract(enum fastmib_storage s, enum op op)
{
	if (op == OP_OBSERVE)
		return "its bucket, count and sum (fastmib_hist_add()) in this lcore's "
		       "block, published together with the rest of the transaction by "
		       "its seqcount";
	if (op == OP_PEAK)
		return "when larger (fastmib_word_max()) in this lcore's block, "
		       "published with the rest of the transaction by its seqcount, "
		       "after the peak resets published since (fastmib_tx_peaks(), "
		       "once per transaction)";
	if (s == FASTMIB_STORAGE_SHARED_ATOMIC && op == OP_SET)
		return "relaxed atomic store (fastmib_word_atomic_set()), atomic per "
		       "counter only";
	switch (s) {
	case FASTMIB_STORAGE_PER_CORE:
		return "fastmib_word_add() on this lcore's block, published with the "
		       "rest of the transaction by its seqcount";
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		return "buffered (fastmib_wb_push()), applied by a flush with the rest "
		       "of the transaction, whose operations fastmib_tx_wb() marked in "
		       "the write buffer";
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		return "relaxed atomic add (fastmib_word_atomic_add()), atomic per "
		       "counter only";
	}
	return "?";
}

/* "G.C OP n<where>: <contract>. Caller: ...", the comment of an update in
 * the transaction form. */
static void
put_tx_update_comment(struct hnames *h, const struct m_group *g,
		      const struct m_counter *k, enum op op, const char *param,
		      const char *where, struct strbuf *o)
{
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "%s.%s %s %s%s: %s. Caller: the transaction's thread, before %s().",
		  g->name, k->name, ops[op].verb, param, where,
		  tx_update_contract(g->storage, op), h->tx_end);
	put_c_comment(o, t.data);
	sb_free(&t);
}

/* The function of the transaction form that applies `op` to a word of
 * the per-core block. */
static const char *
word_primitive(enum op op)
{
	return op == OP_OBSERVE ? "fastmib_hist_add" : op == OP_PEAK ? "fastmib_word_max"
								      : "fastmib_word_add";
}

/*
 * The statement that updates counter `k` (byte `off` of the row), for
 * operation `op`: `row` is the per-core or shared-atomic row pointer, or
 * `w` and `base` the writer and byte offset of a buffered row (whose
 * handle made the transaction's mark: fastmib_tx_wb()).
 */
static void
put_tx_update(struct strbuf *o, const char *args, enum fastmib_storage s, enum op op,
	      uint32_t off, const char *row, const char *w, const char *base)
{
	struct strbuf first;

	switch (s) {
	case FASTMIB_STORAGE_PER_CORE:
		sb_init(&first);
		sb_printf(&first, "&%s[%u]", row, off / 8);
		put_call(o, word_primitive(op), first.data, args);
		sb_free(&first);
		break;
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		sb_printf(o, "\tfastmib_wb_push(%s, %s + %uu, %s);\n", w, base, off, args);
		break;
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		sb_printf(o, "\tfastmib_word_atomic_%s(&%s[%u], %s);\n",
			  op == OP_SET ? "set" : "add", row, off / 8, args);
		break;
	}
}

/* The update functions of counter `k` of a scalar group: on the
 * transaction, at a constant offset from its block address. */
static void
emit_tx_scalar_update(struct hnames *h, const struct m_group *g, const struct m_counter *k,
		      enum op op, struct strbuf *o)
{
	const char *offset = gname(h, FASTMIB_C_OFFSET, g);
	const char *arg = op_args(h, g, k, op);
	struct strbuf call;

	put_tx_update_comment(h, g, k, op, op_param(h, g, op), "", o);
	put_signature(h, o, "void", kname(h, ops[op].tx_fn, g, k), tx_param(h, "tx"), g,
		      op_decl(h, g, op));
	sb_puts(o, "{\n");
	/* a peak's resets are applied before the transaction's first peak */
	if (op == OP_PEAK)
		sb_puts(o, "\tfastmib_tx_peaks(&tx->t);\n");
	sb_init(&call);
	if (g->storage == FASTMIB_STORAGE_SHARED_BUFFERED)
		sb_printf(&call, "\tfastmib_tx_wb_add(&tx->t, %s + %uu,", offset, k->offset);
	else if (g->storage == FASTMIB_STORAGE_PER_CORE)
		sb_printf(&call, "\t%s(fastmib_tx_pc(&tx->t, %s + %uu),", word_primitive(op),
			  offset, k->offset);
	else
		sb_printf(&call, "\tfastmib_word_atomic_%s(fastmib_tx_shared(&tx->t, %s + %uu),",
			  op == OP_SET ? "set" : "add", offset, k->offset);
	/* one line when it fits in 80 columns (a tab counts 8) */
	sb_printf(o, "%s%s%s);\n", call.data,
		  call.len + 7 + 1 + strlen(arg) + 2 > 80 ? "\n\t\t" : " ", arg);
	sb_free(&call);
	sb_puts(o, "}\n\n");
}

/* The row handle of a table group: its struct and ep_tx_<group>(). */
static void
emit_tx_ref(struct hnames *h, const struct m_group *g, struct strbuf *o)
{
	const char *ref = gname(h, FASTMIB_C_REF_STRUCT, g);
	const char *handle = gname(h, FASTMIB_C_TX_ROW_FN, g);
	const char *offset = gname(h, FASTMIB_C_OFFSET, g);
	const char *txp = free_name(h, g, "tx"), *rv = free_name(h, g, "r");
	int buffered = g->storage == FASTMIB_STORAGE_SHARED_BUFFERED;
	struct strbuf ret, t;

	sb_init(&t);
	if (g->storage == FASTMIB_STORAGE_PER_CORE)
		sb_printf(&t, "A row of %s in this lcore's per-core block, from %s(): "
			      "`row` points at the row, so each counter update is one add at "
			      "a constant displacement.", g->name, handle);
	else if (buffered)
		sb_printf(&t, "A row of %s, from %s(): the writer and the row's byte "
			      "offset in the shared area, for buffered updates (the handle "
			      "marked the transaction in the write buffer: fastmib_tx_wb()).",
			  g->name, handle);
	else
		sb_printf(&t, "A row of %s in the shared area, from %s(): `row` points "
			      "at the row, for atomic updates at constant displacements.",
			  g->name, handle);
	sb_printf(&t, " Valid until %s() of its transaction, on that "
		      "transaction's thread.", h->tx_end);
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_printf(o, "struct %s {\n", ref);
	if (buffered)
		sb_puts(o, "\tstruct fastmib_writer *w;\n\tsize_t offset;\n");
	else
		sb_puts(o, "\tuint64_t *row;\n");
	/* a peak applies the peak resets first, once per transaction: the
	 * handle carries the transaction for it, so that an update of any
	 * other counter of the row pays nothing for peaks (inlined, the
	 * member costs nothing where no peak reads it) */
	if (group_has_counter_type(g, FASTMIB_PEAK))
		sb_puts(o, "\tstruct fastmib_tx *tx;\n");
	sb_puts(o, "};\n\n");

	sb_init(&t);
	sb_puts(&t, "The handle of ");
	put_row_words(h, g, &t);
	if (g->keyed)
		sb_printf(&t, " of %s (as %s() gave it)", g->name,
			  gname(h, FASTMIB_C_KEY_INSERT, g));
	else
		sb_printf(&t, " of %s (0-based indexes)", g->name);
	sb_printf(&t, ": the row's address is computed once here, after one range check "
		      "(%s()). %s Caller: the transaction's thread.",
		  gname(h, FASTMIB_C_ROW_CHECKED_FN, g),
		  buffered ? "The first handle or buffered update of a transaction marks "
			     "where its operations start in the write buffer "
			     "(fastmib_tx_wb(): no ordering)." :
		  group_has_counter_type(g, FASTMIB_PEAK) ?
			     "No memory access, no ordering; the handle carries the "
			     "transaction for its peaks (the first peak of a transaction "
			     "applies the peak resets published since: fastmib_tx_peaks())." :
			     "No memory access, no ordering.");
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_init(&ret);
	sb_printf(&ret, "struct %s", ref);
	put_signature(h, o, ret.data, handle, tx_param(h, txp), g, NULL);
	sb_free(&ret);
	sb_printf(o, "{\n\tstruct %s %s;\n\n", ref, rv);
	if (buffered) {
		sb_printf(o, "\t%s.w = fastmib_tx_wb(&%s->t);\n\t%s.offset = %s +\n\t\t",
			  rv, txp, rv, offset);
	} else {
		if (group_has_counter_type(g, FASTMIB_PEAK))
			sb_printf(o, "\t%s.tx = &%s->t;\n", rv, txp);
		sb_printf(o, "\t%s.row = fastmib_tx_%s(&%s->t, %s +\n\t\t",
			  rv, g->storage == FASTMIB_STORAGE_PER_CORE ? "pc" : "shared", txp,
			  offset);
	}
	sb_init(&t);
	sb_printf(&t, "%s(%s->t.w, ", gname(h, FASTMIB_C_ROW_CHECKED_FN, g), txp);
	put_index_args(h, g, &t);
	sb_puts(&t, ")");
	put_row_bytes(o, h, g, t.data);
	sb_free(&t);
	sb_puts(o, buffered ? ";\n" : ");\n");
	sb_printf(o, "\treturn %s;\n}\n\n", rv);
}

/* Counter `k` of a table row: through a handle, and on the transaction
 * with the indexes (a handle made and used at once). */
static void
emit_tx_row_update(struct hnames *h, const struct m_group *g, const struct m_counter *k,
		   enum op op, struct strbuf *o)
{
	const char *ref_fn = kname(h, ops[op].ref_fn, g, k);
	const char *handle = gname(h, FASTMIB_C_TX_ROW_FN, g);
	const char *txp = free_name(h, g, "tx");
	struct strbuf t;

	/* the handle's function takes no index: its operand is plainly named */
	const char *rv = op == OP_OBSERVE || op == OP_PEAK ? "v" : "n";
	const char *ref_args = op == OP_OBSERVE ? hist_args(h, g, k, rv) : op_args(h, g, k, op);

	if (op == OP_SUB)
		ref_args = "(uint64_t)0 - n";
	put_tx_update_comment(h, g, k, op, rv, " in the handle's row", o);
	sb_printf(o, "static inline void\n%s(struct %s r, uint64_t %s)\n{\n", ref_fn,
		  gname(h, FASTMIB_C_REF_STRUCT, g), rv);
	/* a peak's resets are applied before the transaction's first peak */
	if (op == OP_PEAK)
		sb_puts(o, "\tfastmib_tx_peaks(r.tx);\n");
	put_tx_update(o, op == OP_PEAK ? rv : ref_args, g->storage, op, k->offset, "r.row",
		      "r.w", "r.offset");
	sb_puts(o, "}\n\n");

	sb_init(&t);
	sb_printf(&t, "%s.%s %s %s in ", g->name, k->name, ops[op].verb, op_param(h, g, op));
	put_row_words(h, g, &t);
	sb_printf(&t, ": %s() on %s(); same contract.", ref_fn, handle);
	put_c_comment(o, t.data);
	sb_free(&t);
	put_signature(h, o, "void", kname(h, ops[op].tx_fn, g, k), tx_param(h, txp), g,
		      op_decl(h, g, op));
	sb_printf(o, "{\n\t%s(%s(%s, ", ref_fn, handle, txp);
	put_index_args(h, g, o);
	sb_printf(o, "), %s);\n}\n\n", op_param(h, g, op));
}

/*
 * The update functions of every group, in one of the two forms: on the
 * writer (p_g_c_add(w, ...), after a table's row number function, or a
 * keyed table's key functions) or on a transaction (p_tx_g_c_add(&tx,
 * ...), after a table's row handle).
 */
static void
emit_updates(const struct model *m, struct hnames *h, struct strbuf *o, bool tx)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		/* a group of states only: its rows, no update */
		if (!g->n_counters && (tx || !g->table))
			continue;
		sb_printf(o, "/* ---- group %s: %s%s%s ---- */\n\n", g->name,
			  g->n_counters ? fastmib_storage_word(g->storage) : "states only,",
			  g->keyed ? " keyed table" : g->table ? " table" : "",
			  tx ? ", transaction form" : "");
		if (g->table && tx) {
			emit_tx_ref(h, g, o);
		} else if (g->table) {
			if (g->keyed)
				emit_key_functions(m, gi, &h->pool, o);
			else
				emit_row_helper(h, g, o);
			if (g->n_counters)
				emit_row_checked(h, g, o);
		}
		for (uint32_t ki = 0; ki < g->n_counters; ki++) {
			const struct m_counter *k = &g->counters[ki];

			if (!tx && k->type == FASTMIB_HISTOGRAM)
				emit_bucket_fn(h, g, k, o);
			if (!tx)
				emit_counter_comment(g, k, o);
			for (enum op op = OP_ADD; op <= OP_LAST; op++) {
				if (!counter_has(k, op))
					continue;
				if (!tx)
					emit_update(h, g, k, op, o);
				else if (g->table)
					emit_tx_row_update(h, g, k, op, o);
				else
					emit_tx_scalar_update(h, g, k, op, o);
			}
		}
	}
}

static const char *
arg_c_type(enum m_arg_type t)
{
	switch (t) {
	case ARG_UINT32:
		return "uint32_t";
	case ARG_INT32:
		return "int32_t";
	case ARG_UINT64:
		return "uint64_t";
	}
	return "?";
}

/* "fn(struct fastmib_writer *w, uint32_t port, ...)"; one parameter per
 * line when that would exceed 80 columns. */
static void
put_event_signature(struct hnames *h, const char *fn, const struct m_event *e,
		    struct strbuf *o)
{
	const char *params[1 + FASTMIB_MAX_EVENT_ARGS] = { "struct fastmib_writer *w" };
	uint32_t i;

	for (i = 0; i < e->n_args && i < FASTMIB_MAX_EVENT_ARGS; i++) {
		struct strbuf p;

		sb_init(&p);
		sb_printf(&p, "%s %s", arg_c_type(e->args[i].type), snake(h, e->args[i].name));
		params[1 + i] = pool_keep(&h->pool, sb_take(&p));
	}
	put_c_prototype(o, fn, params, 1 + i);
}

/*
 * The call of fastmib_event_log(): the four 64-bit words a record carries
 * are the arguments in order, int32 sign-extended so that readers see the
 * two's complement 64-bit value, unused words zero. `ind` is the
 * indentation (tabs) of the call.
 */
static void
put_event_call(struct hnames *h, const struct m_event *e, const char *ind,
	       struct strbuf *o)
{
	const char *words[FASTMIB_MAX_EVENT_ARGS];
	struct strbuf call;
	size_t width;
	uint32_t i;
	int pass;

	for (i = 0; i < FASTMIB_MAX_EVENT_ARGS; i++) {
		struct strbuf wd;

		if (i >= e->n_args) {
			words[i] = "0";
			continue;
		}
		words[i] = snake(h, e->args[i].name);
		if (e->args[i].type == ARG_INT32) {
			sb_init(&wd);
			sb_printf(&wd, "(uint64_t)(int64_t)%s", words[i]);
			words[i] = pool_keep(&h->pool, wd.data);
		}
	}
	for (pass = 0; pass < 2; pass++) {
		sb_init(&call);
		sb_printf(&call, "fastmib_event_log(w, %s",
			  pool_name(&h->pool, FASTMIB_C_EVENT_ID, e->name, NULL));
		for (i = 0; i < FASTMIB_MAX_EVENT_ARGS; i++)
			sb_printf(&call, ",%s%s%s", pass ? "\n\t" : " ",
				  pass ? ind : "", words[i]);
		sb_puts(&call, ");\n");
		width = 8 * strlen(ind) + call.len;
		if (pass == 1 || width <= 81)
			break;
		sb_free(&call);
	}
	sb_printf(o, "%s%s", ind, call.data);
	sb_free(&call);
}

static void
emit_event(struct hnames *h, const struct m_event *e, struct strbuf *o)
{
	struct strbuf t;
	uint32_t i;

	sb_init(&t);
	sb_printf(&t, "%s (level %u, rate %u%s): ", e->name, e->level, e->rate,
		  e->notify ? ", notify" : "");
	put_c_comment_text(&t, e->description);
	if (e->n_args) {
		sb_puts(&t, " Arguments:");
		for (i = 0; i < e->n_args; i++)
			sb_printf(&t, " %s (%s)%s", e->args[i].name,
				  fastmib_arg_type_word(e->args[i].type),
				  i + 1 < e->n_args ? "," : ".");
	}
	put_c_comment(o, t.data);
	sb_free(&t);
	sb_puts(o, "static inline void\n");
	put_event_signature(h, pool_name(&h->pool, FASTMIB_C_EVENT_FN, e->name, NULL), e, o);
	sb_puts(o, "\n{\n");
	if (e->rate == 0) {
		/* never logged: keep the call sites, compile to nothing */
		sb_puts(o, "\t(void)w;\n");
		for (i = 0; i < e->n_args; i++)
			sb_printf(o, "\t(void)%s;\n", snake(h, e->args[i].name));
	} else {
		const char *ind = "\t";

		if (e->rate < 9) {
			sb_printf(o, "\tif (fastmib_event_on(w, %uu))\n", e->rate);
			ind = "\t\t";
		}
		put_event_call(h, e, ind, o);
	}
	sb_puts(o, "}\n\n");
}

/* The states of every group that has some: the slow path's part. */
static void
emit_group_states(const struct model *m, struct hnames *h, struct strbuf *o)
{
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		if (m->groups[gi].n_states)
			emit_states(m, gi, &h->pool, h->sassert, o);
}

static void
emit_events(const struct model *m, struct hnames *h, struct strbuf *o)
{
	uint32_t i;

	if (!m->n_events)
		return;
	sb_printf(o, "/* ---- event log ---- */\n\n"
		     "/* Event indexes: positions in %s.events (model order), as the\n"
		     " * reader API reports them. */\n", h->schema);
	for (i = 0; i < m->n_events; i++)
		sb_printf(o, "#define %s %uu\n",
			  pool_name(&h->pool, FASTMIB_C_EVENT_ID, m->events[i].name, NULL), i);
	sb_printf(o, "#define %s %uu\n\n", h->n_events, m->n_events);
	sb_puts(o, "/* Log functions. Rates 1..8 cost one compare and branch when the\n"
		   " * burst's threshold filters the event out; rate 9 always logs; rate 0\n"
		   " * never does. Call fastmib_event_burst(w) once per burst to re-draw\n"
		   " * the threshold. Caller: the writer's own thread only. */\n\n");
	for (i = 0; i < m->n_events; i++)
		emit_event(h, &m->events[i], o);
}

void
emit_header(const struct model *m, struct strbuf *o)
{
	struct hnames h;

	hnames_init(&h, m->prefix);
	emit_prologue(m, &h, o);
	emit_identity(m, &h, o);
	emit_constants(m, &h, o);
	emit_structs(m, &h, o);
	emit_updates(m, &h, o, false);
	emit_tx_model(m, &h, o);
	emit_updates(m, &h, o, true);
	emit_events(m, &h, o);
	emit_group_states(m, &h, o);
	sb_printf(o, "#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", h.guard);
	pool_free(&h.pool);
}
