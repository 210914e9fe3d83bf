/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms and peaks in the MIB. A histogram H of group G is its count
 * and its sum (Counter64) among the group's objects, at its arc and the
 * next, and a table of its buckets, <p><G><H>BucketTable at
 * R.1.(1000 G + H), indexed by the group's indexes (none for a scalar
 * group) and the bucket number: each bucket's upper bound
 * (CounterBasedGauge64, the last one's 18446744073709551615) and its
 * count (Counter64, not cumulative). A peak is one object of the group,
 * a CounterBasedGauge64 (HCNUM-TC). Arcs are <fastmib/oidmap.h>'s;
 * docs/mib-layout.md, "Histograms and peaks", says the same for people.
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "fastmib/oidmap.h"
#include "single_names.h"

#define WIDTH  72
#define INDENT "        "

/* What a discontinuity of a counter of group g means, for descriptions. */
static void
put_discontinuities(const char *p, const struct m_group *g, struct strbuf *t)
{
	char *gdisc = gen_name(FASTMIB_MIB_GROUP_DISCONTINUITY, p, g->name, NULL);
	char *mdisc = gen_name(FASTMIB_MIB_DISCONTINUITY, p, NULL, NULL);

	sb_printf(t, "Discontinuities in the value of this counter can occur at "
		     "re-initialization of the management system, and at other times as "
		     "indicated by the value of %s%s and of %s.",
		  gdisc, g->table ? " of the same row" : "", mdisc);
	free(gdisc);
	free(mdisc);
}

/* "10, 100, 1000" or "2^4, 2^5, ..., 2^20": a histogram's bounds. */
static void
put_bounds(const struct m_counter *k, struct strbuf *t)
{
	if (k->log2) {
		sb_printf(t, "the powers of two 2^%u (%llu) to 2^%u (%llu)", k->log2_lo,
			  (unsigned long long)k->bounds[0], k->log2_hi,
			  (unsigned long long)k->bounds[k->n_bounds - 1]);
		return;
	}
	for (uint32_t i = 0; i < k->n_bounds; i++)
		sb_printf(t, "%s%llu", i ? ", " : "", (unsigned long long)k->bounds[i]);
}

/* A heap copy of a generated name of counter k. */
static char *
kname(const char *p, enum fastmib_name_role role, const struct m_group *g,
      const struct m_counter *k)
{
	return gen_name(role, p, g->name, k->name);
}

size_t
mib_hist_objects(const char *p, const struct m_group *g, struct mib_object *out)
{
	size_t n = 0;

	for (uint32_t ki = 0; ki < g->n_counters; ki++) {
		const struct m_counter *k = &g->counters[ki];
		const char *units = k->units[0] ? k->units : NULL;
		char *table;
		struct strbuf t;

		if (k->type == FASTMIB_PEAK) {
			sb_init(&t);
			sb_printf(&t, "%s\nThe largest value recorded since the last reset of "
				      "%s, over every writer thread (a high-water mark); 0 "
				      "before any. A reset sets it to 0, after which it "
				      "shows only values recorded after the reset: it is a "
				      "gauge, which a reset may lower.", k->description,
				  g->table ? "this row" : "this group");
			out[n++] = (struct mib_object){
				.name = kname(p, FASTMIB_MIB_COUNTER, g, k),
				.seq_syntax = "CounterBasedGauge64",
				.syntax = xstrdup("CounterBasedGauge64"), .units = units,
				.access = "read-only", .description = sb_take(&t), .arc = k->arc,
			};
			continue;
		}
		if (k->type != FASTMIB_HISTOGRAM)
			continue;
		table = kname(p, FASTMIB_MIB_BUCKET_TABLE, g, k);
		sb_init(&t);
		sb_printf(&t, "%s\nThe number of values observed by this histogram: the "
			      "sum of the counts of its buckets in %s.\n", k->description,
			  table);
		put_discontinuities(p, g, &t);
		out[n++] = (struct mib_object){
			.name = kname(p, FASTMIB_MIB_HIST_COUNT, g, k), .seq_syntax = "Counter64",
			.syntax = xstrdup("Counter64"), .access = "read-only",
			.description = sb_take(&t), .arc = k->arc,
		};
		sb_init(&t);
		sb_printf(&t, "The sum of the values observed by histogram %s (%s), modulo "
			      "2^64; divided by the count, their mean.\n", k->name, table);
		put_discontinuities(p, g, &t);
		out[n++] = (struct mib_object){
			.name = kname(p, FASTMIB_MIB_HIST_SUM, g, k), .seq_syntax = "Counter64",
			.syntax = xstrdup("Counter64"), .units = units, .access = "read-only",
			.description = sb_take(&t), .arc = k->arc + 1,
		};
		free(table);
	}
	return n;
}

static void
put_sequence_line(struct strbuf *o, size_t *k, const char *name, const char *syntax)
{
	sb_printf(o, "%s    %-*s %s", (*k)++ ? ",\n" : "", 40, name, syntax);
}

/* The bucket table of histogram k of group g. */
static void
emit_bucket_table(const char *p, const struct m_group *g, const struct m_counter *k,
		  struct strbuf *o)
{
	char *objects = gen_name(FASTMIB_MIB_OBJECTS, p, NULL, NULL);
	char *table = kname(p, FASTMIB_MIB_BUCKET_TABLE, g, k);
	char *entry = kname(p, FASTMIB_MIB_BUCKET_ENTRY, g, k);
	char *type = kname(p, FASTMIB_MIB_TYPE_BUCKET_ENTRY, g, k);
	char *bucket = kname(p, FASTMIB_MIB_BUCKET, g, k);
	char *le = kname(p, FASTMIB_MIB_BUCKET_LE, g, k);
	char *count = kname(p, FASTMIB_MIB_BUCKET_COUNT, g, k);
	char *rows = gen_name(g->table ? FASTMIB_MIB_TABLE : FASTMIB_MIB_SCALAR_NODE, p, g->name,
			      NULL);
	char *hcount = kname(p, FASTMIB_MIB_HIST_COUNT, g, k);
	const char *units = k->units[0] ? k->units : NULL;
	struct strbuf t, idx;
	size_t n = 0;

	sb_printf(o, "-- Histogram %s of group %s: its buckets\n\n", k->name, g->name);
	sb_init(&t);
	sb_printf(&t, "%s\nThe buckets of histogram %s, %s %s. A value v observed "
		      "is counted in the first bucket whose upper bound b has v <= b, "
		      "or in the last bucket, which has none. The bounds are ",
		  k->description, k->name, g->table ? "for each row of" : "of", rows);
	put_bounds(k, &t);
	sb_puts(&t, ".");
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       SEQUENCE OF %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n", table, type);
	mib_put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", objects,
		  FASTMIB_BUCKET_TABLE_GROUP * g->arc + k->arc);
	sb_free(&t);

	sb_init(&t);
	sb_printf(&t, "One bucket of histogram %s%s: the rows of this table are those "
		      "of %s, each with its %u buckets.", k->name,
		  g->table ? " of one row" : "", rows, k->n_bounds + 1);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       %s\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n", entry, type);
	mib_put_description(o, t.data);
	sb_free(&t);
	sb_init(&idx);
	mib_index_clause(p, g, &idx);
	sb_printf(&idx, "%s%s", g->n_indexes ? ", " : "", bucket);
	if (strlen("    INDEX        { ") + idx.len + 2 <= WIDTH) {
		sb_printf(o, "    INDEX        { %s }\n", idx.data);
	} else {
		sb_puts(o, "    INDEX        {\n");
		wrap_text(o, idx.data, INDENT "  ", 0, 1);
		sb_puts(o, "\n    }\n");
	}
	sb_free(&idx);
	sb_printf(o, "    ::= { %s %u }\n\n", table, FASTMIB_ARC_ENTRY);

	sb_printf(o, "%s ::= SEQUENCE {\n", type);
	put_sequence_line(o, &n, bucket, "Unsigned32");
	put_sequence_line(o, &n, le, "CounterBasedGauge64");
	put_sequence_line(o, &n, count, "Counter64");
	sb_puts(o, "\n}\n\n");

	sb_init(&t);
	sb_printf(&t, "The number of the bucket, 1 to %u: bucket 1 has the lowest "
		      "bound, bucket %u none.", k->n_bounds + 1, k->n_bounds + 1);
	sb_printf(o, "%s OBJECT-TYPE\n    SYNTAX       Unsigned32 (1..%u)\n"
		     "    MAX-ACCESS   not-accessible\n    STATUS       current\n", bucket,
		  k->n_bounds + 1);
	mib_put_description(o, t.data);
	sb_printf(o, "    ::= { %s %u }\n\n", entry, FASTMIB_BUCKETCOL_BUCKET);
	sb_free(&t);

	sb_init(&t);
	sb_printf(&t, "The upper bound of the bucket: the largest value it counts. The "
		      "last bucket has none, and reads 18446744073709551615. It does not "
		      "change while the module does.");
	mib_put_object(o, &(struct mib_object){
		.name = le, .syntax = "CounterBasedGauge64", .units = units,
		.access = "read-only", .description = t.data, .arc = FASTMIB_BUCKETCOL_LE },
		entry);
	sb_free(&t);
	sb_init(&t);
	sb_printf(&t, "The number of values observed in this bucket (not cumulative: "
		      "the buckets of a row add up to %s).\n", hcount);
	put_discontinuities(p, g, &t);
	mib_put_object(o, &(struct mib_object){
		.name = count, .syntax = "Counter64", .access = "read-only",
		.description = t.data, .arc = FASTMIB_BUCKETCOL_COUNT }, entry);
	sb_free(&t);
	free(objects);
	free(table);
	free(entry);
	free(type);
	free(bucket);
	free(le);
	free(count);
	free(rows);
	free(hcount);
}

void
mib_bucket_tables(const char *p, const struct m_group *g, struct strbuf *o)
{
	for (uint32_t ki = 0; ki < g->n_counters; ki++)
		if (g->counters[ki].type == FASTMIB_HISTOGRAM)
			emit_bucket_table(p, g, &g->counters[ki], o);
}

void
mib_bucket_group_objects(const char *p, const struct m_group *g, struct strbuf *o)
{
	for (uint32_t ki = 0; ki < g->n_counters; ki++) {
		const struct m_counter *k = &g->counters[ki];
		char *le, *count;

		if (k->type != FASTMIB_HISTOGRAM)
			continue;
		le = kname(p, FASTMIB_MIB_BUCKET_LE, g, k);
		count = kname(p, FASTMIB_MIB_BUCKET_COUNT, g, k);
		sb_printf(o, ",\n" INDENT "  %s,\n" INDENT "  %s", le, count);
		free(le);
		free(count);
	}
}
