/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms and peaks in the model: a histogram's bounds, written as a
 * list (`bounds: [10, 100, 1000]`) or as a range of powers of two
 * (`log2: [4, 20]`: 2^4, 2^5, ..., 2^20); a peak takes neither. What the
 * bounds may be (how many, in which order), the storage kinds that hold
 * them and their arcs are the schema's rules (fastmib_schema_check()),
 * reported here at the YAML nodes they are about; a value is refused
 * while parsing only when it cannot be read at all.
 */
#include "model_hist.h"

#include <stdlib.h>
#include <string.h>

void
counter_kind_free(struct m_counter *k)
{
	free(k->bounds);
	free(k->bound_at);
	k->bounds = NULL;
	k->bound_at = NULL;
	k->n_bounds = 0;
}

/* `bounds: [b1, ..., bn]`: unsigned 64-bit integers. */
static bool
parse_bounds(struct loader *c, yaml_node_t *seq, struct m_counter *k)
{
	yaml_node_item_t *items;
	size_t n;
	bool ok = true;

	/* how many, and in which order, is the schema's rule */
	items = get_seq(c, seq, "bounds", 0, SIZE_MAX, &n);
	if (seq->type != YAML_SEQUENCE_NODE)
		return false;
	k->bounds = xcalloc(n ? n : 1, sizeof(*k->bounds));
	k->bound_at = xcalloc(n ? n : 1, sizeof(*k->bound_at));
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *b = node_get(c, items[i]);

		k->bound_at[i] = mark_of(b);
		ok &= get_uint(c, b, "bounds", 0, UINT64_MAX, &k->bounds[i]);
	}
	k->n_bounds = (uint32_t)n;
	return ok;
}

/* `log2: [lo, hi]`: the bounds 2^lo, 2^(lo+1), ..., 2^hi. How many that
 * makes is the schema's rule; each exponent must give a 64-bit bound. */
static bool
parse_log2(struct loader *c, yaml_node_t *seq, struct m_counter *k)
{
	yaml_node_item_t *items = seq->data.sequence.items.start;
	uint64_t lo, hi;

	if (seq->type != YAML_SEQUENCE_NODE || seq->data.sequence.items.top - items != 2) {
		err(c, seq, "`log2` must be a sequence of two integers, [lo, hi]: the bounds "
			    "2^lo, 2^(lo+1), ..., 2^hi");
		return false;
	}
	if (!get_uint(c, node_get(c, items[0]), "log2", 0, FASTMIB_MAX_LOG2, &lo) ||
	    !get_uint(c, node_get(c, items[1]), "log2", 0, FASTMIB_MAX_LOG2, &hi))
		return false;
	if (lo >= hi) {
		err(c, seq, "`log2` [%llu, %llu]: the first exponent must be below the second",
		    (unsigned long long)lo, (unsigned long long)hi);
		return false;
	}
	k->log2 = true;
	k->log2_lo = (uint32_t)lo;
	k->log2_hi = (uint32_t)hi;
	k->n_bounds = (uint32_t)(hi - lo + 1);
	k->bounds = xcalloc(k->n_bounds, sizeof(*k->bounds));
	for (uint32_t i = 0; i < k->n_bounds; i++)
		k->bounds[i] = 1ull << (lo + i);
	return true;
}

bool
parse_counter_kind(struct loader *c, yaml_node_t *type, yaml_node_t *bounds, yaml_node_t *log2,
		   struct m_counter *k)
{
	const char *what = k->name ? k->name : "this counter";

	if (type)
		k->type_at = mark_of(type);
	if (bounds)
		k->bounds_at = mark_of(bounds);
	if (log2)
		k->log2_at = mark_of(log2);
	if (k->type == 0)
		return true; /* an unknown type: said already */
	if (k->type != FASTMIB_HISTOGRAM) {
		if (!bounds && !log2)
			return true;
		err(c, bounds ? bounds : log2, "`%s` is only for histograms; `%s` is a %s",
		    bounds ? "bounds" : "log2", what, fastmib_type_word(k->type));
		return false;
	}
	if (bounds && log2) {
		err(c, log2, "a histogram takes `bounds` or `log2`, not both");
		return false;
	}
	if (!bounds && !log2) {
		err(c, type, "a histogram needs `bounds`, the upper bounds of its buckets (as in "
			     "`bounds: [10, 100, 1000]`), or `log2: [lo, hi]`, the bounds 2^lo, "
			     "2^(lo+1), ..., 2^hi");
		return false;
	}
	return bounds ? parse_bounds(c, bounds, k) : parse_log2(c, log2, k);
}

/* ---- faults ---- */

static const struct m_counter *
counter_of(const struct model *m, const struct fastmib_schema_fault *f)
{
	return &m->groups[f->group].counters[f->counter];
}

/* "the histogram `lat` at line 20 takes oids 5 and 6", "`pkts` at line 18 has it". */
static void
put_arc_owner(const struct m_counter *k, struct strbuf *t)
{
	if (k->type == FASTMIB_HISTOGRAM)
		sb_printf(t, "the histogram `%s` at line %u takes oids %u and %u", k->name,
			  k->at.line, k->arc, k->arc + 1);
	else
		sb_printf(t, "`%s` at line %u has it", k->name, k->at.line);
}

/* A counter's fault about its kind: bounds, log2, storage, arcs. */
static bool
counter_fault(const struct model *m, const struct fastmib_schema_fault *f, struct mark *at,
	      struct strbuf *t)
{
	const struct m_group *g = &m->groups[f->group];
	const struct m_counter *k = counter_of(m, f);
	unsigned long long v = f->value, lo = f->lo, hi = f->hi;

	switch (f->field) {
	case FASTMIB_FIELD_BOUNDS:
		if (f->problem == FASTMIB_BAD_ORDER && f->first + 1 < k->n_bounds && k->bound_at) {
			*at = k->bound_at[f->first + 1];
			sb_printf(t, "`bounds` must be strictly increasing: %llu comes after %llu",
				  v, lo);
			return true;
		}
		if (f->problem != FASTMIB_BAD_COUNT)
			return false;
		if (k->log2) {
			*at = k->log2_at;
			sb_printf(t, "`log2` [%u, %u] makes %llu bounds; the limit is %llu",
				  k->log2_lo, k->log2_hi, v, hi);
		} else if (v < lo) {
			*at = k->bounds_at;
			sb_printf(t, "`bounds` must have at least %llu entr%s", lo,
				  lo == 1 ? "y" : "ies");
		} else {
			*at = k->bounds_at;
			sb_printf(t, "`bounds` has %llu entries; the limit is %llu", v, hi);
		}
		return true;
	case FASTMIB_FIELD_STORAGE:
		*at = k->type_at;
		sb_printf(t, "a %s is kept per lcore: it needs per-core storage, and group `%s` "
			     "is %s", fastmib_type_word(k->type), g->name,
			  fastmib_storage_word(g->storage));
		return true;
	case FASTMIB_FIELD_ARC:
		if (f->problem == FASTMIB_BAD_RANGE && k->type == FASTMIB_HISTOGRAM) {
			*at = k->arc_at;
			sb_printf(t, "a histogram takes oids `oid` (its count) and `oid` + 1 (its "
				     "sum): `oid` must be in %llu..%llu, not %llu", lo, hi, v);
			return true;
		}
		if (f->problem != FASTMIB_BAD_DUPLICATE)
			return false;
		if (k->type == FASTMIB_HISTOGRAM && v == k->arc + 1u) {
			/* the later histogram's second arc is taken */
			*at = k->at;
			sb_printf(t, "histogram `%s` takes oids %u and %llu: %llu is taken by ",
				  k->name, k->arc, v, v);
			{
				const struct m_counter *o = &g->counters[f->first];

				if (o->type == FASTMIB_HISTOGRAM)
					sb_printf(t, "the histogram `%s` at line %u", o->name,
						  o->at.line);
				else
					sb_printf(t, "the counter `%s` at line %u", o->name,
						  o->at.line);
			}
			return true;
		}
		if (g->counters[f->first].type != FASTMIB_HISTOGRAM ||
		    v != g->counters[f->first].arc + 1u)
			return false;
		/* an earlier histogram's second arc */
		*at = k->at;
		sb_printf(t, "duplicate counter oid %llu in group (", v);
		put_arc_owner(&g->counters[f->first], t);
		sb_puts(t, ")");
		return true;
	default:
		return false;
	}
}

bool
hist_fault(const struct model *m, const struct fastmib_schema_fault *f, struct mark *at,
	   struct strbuf *t)
{
	const struct m_group *g;

	if (f->object == FASTMIB_OBJ_COUNTER)
		return counter_fault(m, f, at, t);
	if (f->object != FASTMIB_OBJ_GROUP || f->field != FASTMIB_FIELD_ROW_SIZE ||
	    f->problem != FASTMIB_BAD_RANGE)
		return false;
	g = &m->groups[f->group];
	*at = g->counters_at;
	sb_printf(t, "the counters of group `%s` take %llu words of a row; the limit is %llu "
		     "(a histogram takes its bounds + 3, any other counter 1)", g->name,
		  (unsigned long long)f->value, (unsigned long long)f->hi);
	return true;
}
