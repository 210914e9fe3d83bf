/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Schema validation: every rule a schema obeys (include/fastmib/schema.h),
 * whether fastmib-gen built it from a model (and reports faults at the
 * model's YAML positions), it was compiled into a writer, or a reader read
 * it back from a segment file (where it is untrusted input). A fault
 * carries its object, field and numbers as data, so each caller can word
 * it for its audience; the message here speaks in schema terms.
 *
 * Each object is checked alone first; an object whose name or arc is
 * broken is left out of the duplicate checks, one whose shape is broken
 * out of the overlap and area checks, so one mistake gives one fault.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/names.h"
#include "fms_util.h"
#include "segment_format.h"

struct checker {
	const struct fastmib_schema *s;
	fastmib_schema_fault_fn *fn;
	void *arg;
	int error;          /* of the first fault; 0 while there is none */
	bool stop;
	bool group_ok[FASTMIB_MAX_GROUPS];  /* every field: its place in an area counts */
	bool group_id_ok[FASTMIB_MAX_GROUPS]; /* name and arc: compared with others' */
	bool event_id_ok[FASTMIB_MAX_EVENTS];
};

/* Report *f worded by fmt; true when checking must stop. */
static bool __attribute__((format(printf, 3, 4)))
report(struct checker *k, struct fastmib_schema_fault *f, const char *fmt, ...)
{
	va_list ap;

	f->error = -EINVAL;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	if (k->error == 0) {
		k->error = f->error;
		fms_error(f->error, "schema: %s", f->message);
	}
	if (k->fn == NULL || k->fn(k->arg, f) != 0)
		k->stop = true;
	return k->stop;
}

/* A string field: present and at most `max` bytes. */
static bool
check_str(struct checker *k, struct fastmib_schema_fault f, const char *str,
	  size_t max, const char *owner, const char *what)
{
	size_t n;

	if (str == NULL) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: %s is missing", owner, what);
		return false;
	}
	n = strnlen(str, max + 1);
	if (n > max) {
		f.problem = FASTMIB_BAD_LENGTH;
		f.value = strlen(str);
		f.hi = max;
		report(k, &f, "%s: %s is %llu bytes long; the limit is %zu", owner, what,
		       (unsigned long long)f.value, max);
		return false;
	}
	return true;
}

/* A name: a string field of at most FASTMIB_MAX_NAME bytes whose syntax
 * `valid` (<fastmib/names.h>) accepts. */
static bool
check_name(struct checker *k, struct fastmib_schema_fault f, const char *str,
	   bool (*valid)(const char *), const char *owner, const char *what)
{
	if (!check_str(k, f, str, FASTMIB_MAX_NAME, owner, what))
		return false;
	if (valid(str))
		return true;
	f.problem = FASTMIB_BAD_SYNTAX;
	report(k, &f, "%s: %s '%s' is not a valid name", owner, what, str);
	return false;
}

/* A number field in lo..hi. */
static bool
check_range(struct checker *k, struct fastmib_schema_fault f, uint64_t v, uint64_t lo,
	    uint64_t hi, const char *owner, const char *what)
{
	if (v >= lo && v <= hi)
		return true;
	f.problem = FASTMIB_BAD_RANGE;
	f.value = v;
	f.lo = lo;
	f.hi = hi;
	report(k, &f, "%s: %s %llu out of range %llu..%llu", owner, what,
	       (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
	return false;
}

/* A count of entries in lo..hi. */
static bool
check_count(struct checker *k, struct fastmib_schema_fault f, uint64_t n, uint64_t lo,
	    uint64_t hi, const char *owner, const char *what)
{
	if (n >= lo && n <= hi)
		return true;
	f.problem = FASTMIB_BAD_COUNT;
	f.value = n;
	f.lo = lo;
	f.hi = hi;
	report(k, &f, "%s: %llu %s (%llu..%llu)", owner, (unsigned long long)n, what,
	       (unsigned long long)lo, (unsigned long long)hi);
	return false;
}

/* ---- duplicates ---- */

struct named {
	const char *name;
	uint32_t pos;
};

static int
cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * first[i] = 1 + position of the first object named like object i when
 * that is an earlier one, else 0. names[i] NULL leaves object i out.
 * n <= 256: every list of names in a schema is that short.
 */
static void
same_names(const char *const *names, uint32_t n, uint16_t *first)
{
	struct named v[256];
	uint32_t m = 0;

	memset(first, 0, n * sizeof(*first));
	for (uint32_t i = 0; i < n; i++)
		if (names[i])
			v[m++] = (struct named){ names[i], i };
	qsort(v, m, sizeof(*v), cmp_named);
	for (uint32_t i = 1, run = 0; i < m; i++) {
		if (strcmp(v[i].name, v[run].name) != 0)
			run = i;
		else
			first[v[i].pos] = (uint16_t)(v[run].pos + 1);
	}
}

/* Same for arcs 1..FASTMIB_MAX_ARC (0 leaves an object out). */
static void
same_arcs(const uint32_t *arcs, uint32_t n, uint16_t *first)
{
	uint16_t seen[FASTMIB_MAX_ARC + 1] = { 0 };

	for (uint32_t i = 0; i < n; i++) {
		first[i] = 0;
		if (arcs[i] == 0 || arcs[i] > FASTMIB_MAX_ARC)
			continue;
		if (seen[arcs[i]])
			first[i] = seen[arcs[i]];
		else
			seen[arcs[i]] = (uint16_t)(i + 1);
	}
}

/* ---- groups ---- */

static bool
check_index(struct checker *k, uint32_t gi, uint32_t xi, const char *gname)
{
	const struct fastmib_index_schema *x = &k->s->groups[gi].indexes[xi];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_INDEX, .group = gi,
					  .index = xi };
	char owner[FASTMIB_MAX_NAME + 32];

	snprintf(owner, sizeof(owner), "group %s: index %u", gname, xi + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, x->name, fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "group %s: index %s", gname, x->name);
	f.field = FASTMIB_FIELD_INDEX_TYPE;
	if (!check_range(k, f, x->type, FASTMIB_INDEX_INTEGER, FASTMIB_INDEX_STRING, owner,
			 "type"))
		return false;
	/* max: an integer index's range, 0 for the others; size: a string's */
	f.field = FASTMIB_FIELD_MAX;
	if (!check_range(k, f, x->max, x->type == FASTMIB_INDEX_INTEGER,
			 x->type == FASTMIB_INDEX_INTEGER ? FASTMIB_MAX_ROWS : 0, owner, "max"))
		return false;
	f.field = FASTMIB_FIELD_SIZE;
	return check_range(k, f, x->size, x->type == FASTMIB_INDEX_STRING,
			   x->type == FASTMIB_INDEX_STRING ? FASTMIB_MAX_STRING_INDEX : 0, owner,
			   "size");
}

/* Indexes, all_rows and n_rows: the rows of the group. */
static bool
check_rows(struct checker *k, uint32_t gi, const char *gname, const char *owner)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_GROUP, .group = gi };
	const char *names[FASTMIB_MAX_INDEXES];
	uint16_t first[FASTMIB_MAX_INDEXES];
	uint64_t rows = 1;
	uint32_t bucket;
	bool ok = true;

	f.field = FASTMIB_FIELD_INDEXES;
	if (!check_count(k, f, g->n_indexes, 0, FASTMIB_MAX_INDEXES, owner, "indexes"))
		return false;
	f.field = FASTMIB_FIELD_ALL_ROWS;
	if (!check_range(k, f, g->all_rows, 0, g->n_indexes ? 1 : 0, owner, "all_rows"))
		return false;
	for (uint32_t xi = 0; xi < g->n_indexes && !k->stop; xi++) {
		names[xi] = NULL;
		if (check_index(k, gi, xi, gname))
			names[xi] = g->indexes[xi].name;
		else
			ok = false;
	}
	if (!ok || k->stop)
		return false;
	same_names(names, g->n_indexes, first);
	for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
		struct fastmib_schema_fault d = { .object = FASTMIB_OBJ_INDEX, .group = gi,
						  .index = xi, .field = FASTMIB_FIELD_NAME,
						  .problem = FASTMIB_BAD_DUPLICATE };

		if (!first[xi])
			continue;
		d.first = first[xi] - 1u;
		report(k, &d, "%s: indexes %u and %u share the name %s", owner, d.first + 1,
		       xi + 1, names[xi]);
		return false;
	}
	/* a histogram's bucket table: its bucket number after the indexes */
	bucket = fastmib_group_has_type(g, FASTMIB_HISTOGRAM);
	if (k->s->oid_len + 4 + fastmib_index_max_subids(g) + bucket > FASTMIB_MAX_INSTANCE_OID) {
		f.field = FASTMIB_FIELD_INDEXES;
		f.problem = FASTMIB_BAD_RANGE;
		f.value = k->s->oid_len + 4 + fastmib_index_max_subids(g) + bucket;
		f.lo = 1;
		f.hi = FASTMIB_MAX_INSTANCE_OID;
		report(k, &f, "%s: its instance OIDs take up to %llu sub-identifiers (module "
			      "root, 4 arcs, the indexes%s); SNMP allows %u", owner,
		       (unsigned long long)f.value, bucket ? ", a bucket number" : "",
		       FASTMIB_MAX_INSTANCE_OID);
		return false;
	}
	if (fastmib_group_keyed(g)) {
		/* a keyed table holds n_rows rows (its capacity), present or not */
		f.field = FASTMIB_FIELD_ALL_ROWS;
		if (!check_range(k, f, g->all_rows, 0, 0, owner, "all_rows (a keyed table's "
				 "rows come and go)"))
			return false;
		f.field = FASTMIB_FIELD_N_ROWS;
		return check_range(k, f, g->n_rows, 1, FASTMIB_MAX_ROWS, owner, "capacity");
	}
	for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
		rows *= g->indexes[xi].max;
		if (rows > FASTMIB_MAX_ROWS) {
			f.field = FASTMIB_FIELD_INDEXES;
			f.problem = FASTMIB_BAD_RANGE;
			f.value = rows;
			f.lo = 1;
			f.hi = FASTMIB_MAX_ROWS;
			report(k, &f, "%s: table has more than %u rows (product of the index maxes)",
			       owner, FASTMIB_MAX_ROWS);
			return false;
		}
	}
	if (g->n_rows != rows) {
		f.field = FASTMIB_FIELD_N_ROWS;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = g->n_rows;
		f.lo = f.hi = rows;
		report(k, &f, "%s: n_rows %u, indexes give %llu", owner, g->n_rows,
		       (unsigned long long)rows);
		return false;
	}
	return true;
}

/* A histogram's bounds and a histogram's or a peak's storage: what its
 * type takes. */
static bool
check_counter_kind(struct checker *k, struct fastmib_schema_fault f,
		   const struct fastmib_group_schema *g, const struct fastmib_counter_schema *c,
		   const char *owner)
{
	bool hist = c->type == FASTMIB_HISTOGRAM;

	if ((hist || c->type == FASTMIB_PEAK) && g->storage != FASTMIB_STORAGE_PER_CORE) {
		/* readers combine its lcores' words, and a peak's reset needs
		 * the lcore that writes it: per-core words, nothing else */
		f.field = FASTMIB_FIELD_STORAGE;
		f.problem = FASTMIB_BAD_STORAGE;
		f.value = g->storage;
		report(k, &f, "%s: a %s needs per-core storage, not %s", owner,
		       fastmib_type_word(c->type), fastmib_storage_word(g->storage));
		return false;
	}
	f.field = FASTMIB_FIELD_LOG2;
	if (!check_range(k, f, c->log2, 0, hist, owner, hist ? "log2" : "log2 (histograms only)"))
		return false;
	f.field = FASTMIB_FIELD_BOUNDS;
	if (!hist)
		return check_count(k, f, c->n_bounds, 0, 0, owner, "bounds (histograms only)");
	if (c->bounds == NULL) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: bounds are missing", owner);
		return false;
	}
	if (!check_count(k, f, c->n_bounds, c->log2 ? 2 : 1, FASTMIB_MAX_BOUNDS, owner, "bounds"))
		return false;
	for (uint32_t i = 1; i < c->n_bounds; i++) {
		if (c->bounds[i] > c->bounds[i - 1])
			continue;
		f.problem = FASTMIB_BAD_ORDER;
		f.first = i - 1;
		f.value = c->bounds[i];
		f.lo = c->bounds[i - 1];
		report(k, &f, "%s: bound %u, %llu, is not above bound %u, %llu", owner, i + 1,
		       (unsigned long long)f.value, i, (unsigned long long)f.lo);
		return false;
	}
	if (!c->log2)
		return true;
	/* 2^lo, 2^(lo+1), ..., each twice the one before */
	for (uint32_t i = 0; i < c->n_bounds; i++) {
		uint64_t b = c->bounds[i];

		if (i ? b / 2 == c->bounds[i - 1] && b % 2 == 0 : b && (b & (b - 1)) == 0)
			continue;
		f.field = FASTMIB_FIELD_LOG2;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = b;
		report(k, &f, "%s: log2, but bound %u, %llu, is not %s", owner, i + 1,
		       (unsigned long long)b, i ? "twice the one before" : "a power of two");
		return false;
	}
	return true;
}

/* A counter's own fields: name, texts, arc, type and what its type takes. */
static bool
check_counter(struct checker *k, uint32_t gi, uint32_t ci, const char *gname)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	const struct fastmib_counter_schema *c = &g->counters[ci];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_COUNTER, .group = gi,
					  .counter = ci };
	char owner[2 * FASTMIB_MAX_NAME + 32];

	snprintf(owner, sizeof(owner), "group %s: counter %u", gname, ci + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, c->name, fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "counter %s.%s", gname, c->name);
	f.field = FASTMIB_FIELD_UNITS;
	if (!check_str(k, f, c->units, FASTMIB_MAX_UNITS, owner, "units"))
		return false;
	f.field = FASTMIB_FIELD_DESCRIPTION;
	if (!check_str(k, f, c->description, FASTMIB_MAX_TEXT, owner, "description"))
		return false;
	f.field = FASTMIB_FIELD_TYPE;
	if (!check_range(k, f, c->type, FASTMIB_COUNTER64, FASTMIB_TYPE_LAST, owner, "type"))
		return false;
	f.field = FASTMIB_FIELD_ARC;
	/* a histogram takes two arcs (its count, its sum), the second within
	 * the range too */
	if (!check_range(k, f, c->arc, 1, FASTMIB_MAX_ARC - (c->type == FASTMIB_HISTOGRAM),
			 owner, "arc"))
		return false;
	return check_counter_kind(k, f, g, c, owner);
}

/* A counter's place: its words within the row (row_size checked). */
static bool
check_counter_place(struct checker *k, uint32_t gi, uint32_t ci, const char *gname)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	const struct fastmib_counter_schema *c = &g->counters[ci];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_COUNTER, .group = gi,
					  .counter = ci, .field = FASTMIB_FIELD_OFFSET,
					  .problem = FASTMIB_BAD_LAYOUT };

	f.value = c->offset;
	if (c->offset % 8 || c->offset >= g->row_size) {
		report(k, &f, "counter %s.%s: offset %u not an aligned word within the %u-byte "
			      "row", gname, c->name, c->offset, g->row_size);
		return false;
	}
	if (fastmib_counter_words(c) > (g->row_size - c->offset) / 8) {
		report(k, &f, "counter %s.%s: its %u words from offset %u run past the %u-byte "
			      "row", gname, c->name, fastmib_counter_words(c), c->offset,
		       g->row_size);
		return false;
	}
	return true;
}

/* The arcs counter c takes: its own, and a histogram the next (its sum). */
static uint32_t
counter_arcs(const struct fastmib_counter_schema *c)
{
	return c->type == FASTMIB_HISTOGRAM ? 2 : 1;
}

/*
 * Names, arcs (a histogram's two) and words (a histogram's every one) of
 * the counters of one group are distinct.
 */
static bool
check_counters_distinct(struct checker *k, uint32_t gi, const char *gname)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	const char *names[FASTMIB_MAX_COUNTERS];
	uint16_t first[FASTMIB_MAX_COUNTERS];
	uint16_t arc_owner[FASTMIB_MAX_ARC + 2] = { 0 };    /* 1 + position */
	uint16_t word_owner[FASTMIB_MAX_ROW_WORDS] = { 0 }; /* 1 + position */
	bool ok = true;

	for (uint32_t ci = 0; ci < g->n_counters; ci++)
		names[ci] = g->counters[ci].name;
	same_names(names, g->n_counters, first);
	for (uint32_t ci = 0; ci < g->n_counters && !k->stop; ci++) {
		const struct fastmib_counter_schema *c = &g->counters[ci];
		struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_COUNTER, .group = gi,
						  .counter = ci,
						  .problem = FASTMIB_BAD_DUPLICATE };
		uint32_t w = fastmib_counter_word(c);

		if (first[ci]) {
			f.field = FASTMIB_FIELD_NAME;
			f.first = first[ci] - 1u;
			report(k, &f, "group %s: counters %u and %u share the name %s", gname,
			       f.first + 1, ci + 1, c->name);
			ok = false;
		}
		for (uint32_t a = c->arc; a < c->arc + counter_arcs(c) && !k->stop; a++) {
			if (!arc_owner[a]) {
				arc_owner[a] = (uint16_t)(ci + 1);
				continue;
			}
			f.field = FASTMIB_FIELD_ARC;
			f.first = arc_owner[a] - 1u;
			f.value = a;
			report(k, &f, "counters %s.%s and %s.%s share arc %u", gname,
			       g->counters[f.first].name, gname, c->name, a);
			ok = false;
			break;
		}
		/* the words are within the row (check_counter_place()) */
		for (uint32_t i = w; i < w + fastmib_counter_words(c) && !k->stop; i++) {
			if (!word_owner[i]) {
				word_owner[i] = (uint16_t)(ci + 1);
				continue;
			}
			f.field = FASTMIB_FIELD_OFFSET;
			f.first = word_owner[i] - 1u;
			f.value = c->offset;
			report(k, &f, "counters %s.%s and %s.%s share offset %u", gname,
			       g->counters[f.first].name, gname, c->name, 8 * i);
			ok = false;
			break;
		}
	}
	return ok;
}

/* ---- states ---- */

/* The C form of a state without a default: all zero (the largest form). */
static const uint8_t zero_state[2 + FASTMIB_MAX_OCTET_STRING];

/* An enum's labels: names, each label and each value once. */
static bool
check_enum(struct checker *k, struct fastmib_schema_fault f,
	   const struct fastmib_state_schema *st, const char *owner)
{
	const char *labels[FASTMIB_MAX_ENUM_VALUES];
	uint16_t first[FASTMIB_MAX_ENUM_VALUES];

	f.field = FASTMIB_FIELD_VALUES;
	if (st->values == NULL && st->n_values) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: values are missing", owner);
		return false;
	}
	if (!check_count(k, f, st->n_values, 1, FASTMIB_MAX_ENUM_VALUES, owner, "values"))
		return false;
	for (uint32_t i = 0; i < st->n_values; i++) {
		if (!check_name(k, f, st->values[i].label, fastmib_name_is_model, owner, "label"))
			return false;
		labels[i] = st->values[i].label;
		for (uint32_t j = 0; j < i; j++)
			if (st->values[j].value == st->values[i].value) {
				f.problem = FASTMIB_BAD_DUPLICATE;
				f.first = j;
				f.value = (uint64_t)(int64_t)st->values[i].value;
				report(k, &f, "%s: labels %s and %s share the value %d", owner,
				       st->values[j].label, st->values[i].label,
				       st->values[i].value);
				return false;
			}
	}
	same_names(labels, st->n_values, first);
	for (uint32_t i = 0; i < st->n_values; i++)
		if (first[i]) {
			f.problem = FASTMIB_BAD_DUPLICATE;
			f.first = first[i] - 1u;
			report(k, &f, "%s: the label %s is listed twice", owner, labels[i]);
			return false;
		}
	return true;
}

/* What each type takes: size, range, units, values, notify. */
static bool
check_state_shape(struct checker *k, struct fastmib_schema_fault f,
		  const struct fastmib_state_schema *st, const char *owner)
{
	bool string = st->type == FASTMIB_STATE_DISPLAY_STRING ||
		      st->type == FASTMIB_STATE_OCTET_STRING;
	bool ranged = st->type == FASTMIB_STATE_INTEGER32 || st->type == FASTMIB_STATE_UNSIGNED32;
	bool number = ranged || st->type == FASTMIB_STATE_GAUGE64 ||
		      st->type == FASTMIB_STATE_TIMETICKS;
	uint32_t max_size = st->type == FASTMIB_STATE_DISPLAY_STRING ? FASTMIB_MAX_DISPLAY_STRING
			    : FASTMIB_MAX_OCTET_STRING;

	f.field = FASTMIB_FIELD_SIZE;
	if (!check_range(k, f, st->size, string, string ? max_size : 0, owner, "size"))
		return false;
	f.field = FASTMIB_FIELD_UNITS;
	if (!check_str(k, f, st->units, number ? FASTMIB_MAX_UNITS : 0, owner,
		       number ? "units" : "units (numbers only)"))
		return false;
	f.field = FASTMIB_FIELD_NOTIFY;
	if (!check_range(k, f, st->notify, 0, string ? 0 : 1, owner,
			 string ? "notify (not for strings)" : "notify"))
		return false;
	f.field = FASTMIB_FIELD_RANGE;
	if (!check_range(k, f, st->has_range, 0, ranged, owner, "has_range"))
		return false;
	if (st->has_range) {
		int64_t lo = st->type == FASTMIB_STATE_INTEGER32 ? INT32_MIN : 0;
		int64_t hi = st->type == FASTMIB_STATE_INTEGER32 ? INT32_MAX : UINT32_MAX;

		if (st->lo < lo || st->hi > hi || st->lo > st->hi) {
			f.problem = FASTMIB_BAD_RANGE;
			f.value = (uint64_t)st->lo;
			f.lo = (uint64_t)lo;
			f.hi = (uint64_t)hi;
			report(k, &f, "%s: range %lld..%lld not within %lld..%lld, or inverted",
			       owner, (long long)st->lo, (long long)st->hi, (long long)lo,
			       (long long)hi);
			return false;
		}
	}
	if (st->type == FASTMIB_STATE_ENUM)
		return check_enum(k, f, st, owner);
	f.field = FASTMIB_FIELD_VALUES;
	return check_count(k, f, st->n_values, 0, 0, owner, "values (enums only)");
}

static bool
check_state(struct checker *k, uint32_t gi, uint32_t si, const uint32_t *offsets)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	const struct fastmib_state_schema *st = &g->states[si];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_STATE, .group = gi,
					  .state = si };
	char owner[2 * FASTMIB_MAX_NAME + 32];

	snprintf(owner, sizeof(owner), "group %s: state %u", g->name, si + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, st->name, fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "state %s.%s", g->name, st->name);
	f.field = FASTMIB_FIELD_DESCRIPTION;
	if (!check_str(k, f, st->description, FASTMIB_MAX_TEXT, owner, "description"))
		return false;
	f.field = FASTMIB_FIELD_TYPE;
	if (!check_range(k, f, st->type, FASTMIB_STATE_TRUTH_VALUE, FASTMIB_STATE_TYPE_LAST,
			 owner, "type"))
		return false;
	f.field = FASTMIB_FIELD_ARC;
	/* an inet-address takes two arcs, the second within the range too */
	if (!check_range(k, f, st->arc, 1,
			 FASTMIB_MAX_ARC - (st->type == FASTMIB_STATE_INET_ADDRESS), owner, "arc"))
		return false;
	if (!check_state_shape(k, f, st, owner))
		return false;
	if (st->offset != offsets[si]) {
		f.field = FASTMIB_FIELD_OFFSET;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = st->offset;
		f.lo = f.hi = offsets[si];
		report(k, &f, "%s: offset %u, its type and the states before it give %u", owner,
		       st->offset, offsets[si]);
		return false;
	}
	if (st->def == NULL && st->type == FASTMIB_STATE_ENUM) {
		f.field = FASTMIB_FIELD_DEFAULT;
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: an enum needs a default (its first value)", owner);
		return false;
	}
	/* without one, the default is zero: it too must be a value the
	 * state's setters would take */
	if (fastmib_state_check(g->name, st, st->def ? st->def : zero_state) < 0) {
		f.field = FASTMIB_FIELD_DEFAULT;
		f.problem = FASTMIB_BAD_RANGE;
		report(k, &f, "%s: %s", owner, st->def ? "its default is not one of its values"
			       : "it starts at 0, outside its range: it needs a default");
		return false;
	}
	return true;
}

/* The states of a group, one by one, and their struct's size. */
static bool
check_states(struct checker *k, uint32_t gi, const char *owner)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_GROUP, .group = gi };
	uint32_t offsets[FASTMIB_MAX_STATES], size;
	bool ok = true;

	f.field = FASTMIB_FIELD_STATES;
	if (g->states == NULL && g->n_states) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: states are missing", owner);
		return false;
	}
	if (!check_count(k, f, g->n_states, 0, FASTMIB_MAX_STATES, owner, "states"))
		return false;
	fastmib_state_layout(g, offsets, &size);
	for (uint32_t si = 0; si < g->n_states && !k->stop; si++)
		ok &= check_state(k, gi, si, offsets);
	if (!ok || k->stop)
		return false;
	if (g->state_size != size) {
		f.field = FASTMIB_FIELD_STATE_SIZE;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = g->state_size;
		f.lo = f.hi = size;
		report(k, &f, "%s: state_size %u, its states give %u", owner, g->state_size, size);
		return false;
	}
	return true;
}

/*
 * The names of a group's states against each other and its counters',
 * their arcs (an inet-address's second one too) likewise: one OID, one
 * object.
 */
static bool
check_states_distinct(struct checker *k, uint32_t gi, const char *gname)
{
	const struct fastmib_group_schema *g = &k->s->groups[gi];
	const char *names[FASTMIB_MAX_COUNTERS + FASTMIB_MAX_STATES];
	uint16_t first[FASTMIB_MAX_COUNTERS + FASTMIB_MAX_STATES];
	uint32_t owner_of_arc[FASTMIB_MAX_ARC + 2] = { 0 }; /* 1 + position, counters first */
	uint32_t n = g->n_counters + g->n_states;

	for (uint32_t ci = 0; ci < g->n_counters; ci++) {
		const struct fastmib_counter_schema *c = &g->counters[ci];

		names[ci] = c->name;
		for (uint32_t a = c->arc; a < c->arc + counter_arcs(c); a++)
			owner_of_arc[a] = ci + 1;
	}
	for (uint32_t si = 0; si < g->n_states; si++)
		names[g->n_counters + si] = g->states[si].name;
	same_names(names, n, first);
	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct fastmib_state_schema *st = &g->states[si];
		struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_STATE, .group = gi,
						  .state = si, .problem = FASTMIB_BAD_DUPLICATE };
		uint32_t arcs = st->type == FASTMIB_STATE_INET_ADDRESS ? 2 : 1;

		if (first[g->n_counters + si]) {
			f.field = FASTMIB_FIELD_NAME;
			f.first = first[g->n_counters + si] - 1u;
			report(k, &f, "group %s: the name %s is %s's too", gname, st->name,
			       f.first < g->n_counters ? "a counter" : "another state");
			return false;
		}
		for (uint32_t a = st->arc; a < st->arc + arcs; a++) {
			uint32_t o = owner_of_arc[a];

			if (!o) {
				owner_of_arc[a] = g->n_counters + si + 1;
				continue;
			}
			f.field = FASTMIB_FIELD_ARC;
			f.first = o - 1;
			f.value = a;
			report(k, &f, "group %s: %s %s and state %s share arc %u", gname,
			       o <= g->n_counters ? "counter" : "state",
			       names[o - 1], st->name, a);
			return false;
		}
	}
	return true;
}

static bool
check_group(struct checker *k, uint32_t gi)
{
	const struct fastmib_schema *s = k->s;
	const struct fastmib_group_schema *g = &s->groups[gi];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_GROUP, .group = gi };
	char owner[FASTMIB_MAX_NAME + 16];
	uint64_t area;
	bool ok = true;

	snprintf(owner, sizeof(owner), "group %u", gi + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, g->name, fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "group %s", g->name);
	f.field = FASTMIB_FIELD_DESCRIPTION;
	if (!check_str(k, f, g->description, FASTMIB_MAX_TEXT, owner, "description"))
		return false;
	f.field = FASTMIB_FIELD_ARC;
	if (!check_range(k, f, g->arc, 1, FASTMIB_MAX_ARC, owner, "arc"))
		return false;
	k->group_id_ok[gi] = true;
	f.field = FASTMIB_FIELD_COUNTERS;
	if (g->counters == NULL && g->n_counters) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "%s: counters are missing", owner);
		return false;
	}
	/* a group of states only has no counters (at least one of either) */
	if (!check_count(k, f, g->n_counters, g->n_states ? 0 : 1, FASTMIB_MAX_COUNTERS, owner,
			 "counters"))
		return false;
	f.field = FASTMIB_FIELD_STORAGE;
	if (!check_range(k, f, g->storage, g->n_counters ? FASTMIB_STORAGE_PER_CORE : 0,
			 g->n_counters ? FASTMIB_STORAGE_SHARED_ATOMIC : 0, owner,
			 g->n_counters ? "storage" : "storage (a group of states only has none)"))
		return false;
	if (!check_rows(k, gi, g->name, owner) || !check_states(k, gi, owner))
		return false;
	if (g->n_counters == 0) {
		/* no data: no place in an area */
		if (g->row_size || g->offset) {
			f.field = FASTMIB_FIELD_ROW_SIZE;
			f.problem = FASTMIB_BAD_LAYOUT;
			f.value = g->row_size;
			report(k, &f, "%s: a group of states only has row_size 0 and offset 0",
			       owner);
			return false;
		}
		return check_states_distinct(k, gi, g->name);
	}
	for (uint32_t ci = 0; ci < g->n_counters && !k->stop; ci++)
		ok &= check_counter(k, gi, ci, g->name);
	if (!ok || k->stop)
		return false;
	if (g->row_size == 0 || g->row_size % 8) {
		f.field = FASTMIB_FIELD_ROW_SIZE;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = g->row_size;
		report(k, &f, "%s: bad row_size %u (a multiple of 8)", owner, g->row_size);
		return false;
	}
	if (g->row_size / 8 > FASTMIB_MAX_ROW_WORDS) {
		/* a row too long for a reader's buffer: histograms take many */
		f.field = FASTMIB_FIELD_ROW_SIZE;
		f.problem = FASTMIB_BAD_RANGE;
		f.value = g->row_size / 8;
		f.lo = 1;
		f.hi = FASTMIB_MAX_ROW_WORDS;
		report(k, &f, "%s: rows of %u words; the limit is %u", owner, g->row_size / 8,
		       FASTMIB_MAX_ROW_WORDS);
		return false;
	}
	for (uint32_t ci = 0; ci < g->n_counters && !k->stop; ci++)
		ok &= check_counter_place(k, gi, ci, g->name);
	if (!ok || k->stop || !check_counters_distinct(k, gi, g->name) ||
	    !check_states_distinct(k, gi, g->name))
		return false;
	area = g->storage == FASTMIB_STORAGE_PER_CORE ? s->percore_size : s->shared_size;
	if (g->offset % FMS_CACHE_LINE || g->offset > area ||
	    fastmib_group_bytes(g) > area - g->offset) {
		f.field = FASTMIB_FIELD_OFFSET;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = g->offset;
		report(k, &f, "%s: offset %llu + %llu rows x %u bytes outside its %llu-byte area "
			      "or not on a cache line", owner, (unsigned long long)g->offset,
		       (unsigned long long)fastmib_group_rows_held(g), g->row_size,
		       (unsigned long long)area);
		return false;
	}
	return true;
}

static int
cmp_offset(const void *a, const void *b)
{
	const struct fastmib_group_schema *x = *(const struct fastmib_group_schema *const *)a;
	const struct fastmib_group_schema *y = *(const struct fastmib_group_schema *const *)b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x > y) - (x < y); /* schema order: the later group is the one at fault */
}

/*
 * The groups of one area (`shared`: the shared area, else the per-core
 * one) do not overlap, and none ends beyond FASTMIB_MAX_AREA.
 */
static void
check_area(struct checker *k, bool shared)
{
	const struct fastmib_schema *s = k->s;
	const struct fastmib_group_schema *v[FASTMIB_MAX_GROUPS];
	uint64_t size = shared ? s->shared_size : s->percore_size;
	const char *label = shared ? "shared" : "per-core";
	struct fastmib_schema_fault f = {
		.field = shared ? FASTMIB_FIELD_SHARED_SIZE : FASTMIB_FIELD_PERCORE_SIZE,
	};
	uint32_t n = 0;

	for (uint32_t gi = 0; gi < s->n_groups; gi++) {
		const struct fastmib_group_schema *g = &s->groups[gi];
		uint64_t end = g->offset + fastmib_group_bytes(g);

		if (!k->group_ok[gi] || g->n_counters == 0 ||
		    (g->storage != FASTMIB_STORAGE_PER_CORE) != shared)
			continue;
		v[n++] = g;
		if (end > FASTMIB_MAX_AREA) {
			f.object = FASTMIB_OBJ_GROUP;
			f.group = gi;
			f.problem = FASTMIB_BAD_AREA;
			f.value = (end + FMS_CACHE_LINE - 1) / FMS_CACHE_LINE * FMS_CACHE_LINE;
			f.hi = FASTMIB_MAX_AREA;
			report(k, &f, "group %s makes the %s area %llu bytes; the limit is %llu",
			       g->name, label, (unsigned long long)f.value,
			       (unsigned long long)FASTMIB_MAX_AREA);
			return;
		}
	}
	if (size > FASTMIB_MAX_AREA) {
		f.problem = FASTMIB_BAD_RANGE;
		f.value = size;
		f.hi = FASTMIB_MAX_AREA;
		report(k, &f, "%s area of %llu bytes; the limit is %llu", label,
		       (unsigned long long)size, (unsigned long long)FASTMIB_MAX_AREA);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_offset);
	for (uint32_t i = 1; i < n; i++) {
		const struct fastmib_group_schema *a = v[i - 1], *b = v[i];

		if (a->offset + fastmib_group_bytes(a) > b->offset) {
			f.object = FASTMIB_OBJ_GROUP;
			f.group = (uint32_t)(b - s->groups);
			f.field = FASTMIB_FIELD_OFFSET;
			f.problem = FASTMIB_BAD_LAYOUT;
			f.value = b->offset;
			report(k, &f, "groups %s and %s overlap in the %s area", a->name,
			       b->name, label);
			return;
		}
	}
}

static void
check_groups(struct checker *k)
{
	const struct fastmib_schema *s = k->s;
	const char *names[FASTMIB_MAX_GROUPS];
	uint32_t arcs[FASTMIB_MAX_GROUPS];
	uint16_t first_name[FASTMIB_MAX_GROUPS], first_arc[FASTMIB_MAX_GROUPS];

	for (uint32_t gi = 0; gi < s->n_groups && !k->stop; gi++) {
		k->group_ok[gi] = check_group(k, gi);
		names[gi] = k->group_id_ok[gi] ? s->groups[gi].name : NULL;
		arcs[gi] = k->group_id_ok[gi] ? s->groups[gi].arc : 0;
	}
	if (k->stop)
		return;
	same_names(names, s->n_groups, first_name);
	same_arcs(arcs, s->n_groups, first_arc);
	for (uint32_t gi = 0; gi < s->n_groups && !k->stop; gi++) {
		struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_GROUP, .group = gi,
						  .problem = FASTMIB_BAD_DUPLICATE };

		if (first_name[gi]) {
			f.field = FASTMIB_FIELD_NAME;
			f.first = first_name[gi] - 1u;
			report(k, &f, "groups %u and %u share the name %s", f.first + 1, gi + 1,
			       names[gi]);
		}
		if (first_arc[gi] && !k->stop) {
			f.field = FASTMIB_FIELD_ARC;
			f.first = first_arc[gi] - 1u;
			f.value = arcs[gi];
			report(k, &f, "groups %s and %s share arc %u", s->groups[f.first].name,
			       names[gi], arcs[gi]);
		}
	}
}

/* ---- events ---- */

static bool
check_arg(struct checker *k, uint32_t ei, uint32_t ai, const char *ename)
{
	const struct fastmib_event_schema *e = &k->s->events[ei];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_ARG, .event = ei, .arg = ai };
	char owner[2 * FASTMIB_MAX_NAME + 32];

	snprintf(owner, sizeof(owner), "event %s: arg %u", ename, ai + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, e->args[ai], fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "event %s: arg %s", ename, e->args[ai]);
	/* 0 is "not given" (stored as uint64); only a read-back schema has to
	 * name a type, see fms_schema_deserialize(). */
	f.field = FASTMIB_FIELD_TYPE;
	return check_range(k, f, e->arg_types[ai], 0, FASTMIB_ARG_UINT64, owner, "type");
}

static bool
check_event(struct checker *k, uint32_t ei)
{
	const struct fastmib_event_schema *e = &k->s->events[ei];
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_EVENT, .event = ei };
	const char *names[FASTMIB_MAX_EVENT_ARGS];
	uint16_t first[FASTMIB_MAX_EVENT_ARGS];
	char owner[FASTMIB_MAX_NAME + 16];
	bool ok = true;

	snprintf(owner, sizeof(owner), "event %u", ei + 1);
	f.field = FASTMIB_FIELD_NAME;
	if (!check_name(k, f, e->name, fastmib_name_is_model, owner, "name"))
		return false;
	snprintf(owner, sizeof(owner), "event %s", e->name);
	f.field = FASTMIB_FIELD_DESCRIPTION;
	if (!check_str(k, f, e->description, FASTMIB_MAX_TEXT, owner, "description"))
		return false;
	f.field = FASTMIB_FIELD_ARC;
	if (!check_range(k, f, e->arc, 1, FASTMIB_MAX_ARC, owner, "arc"))
		return false;
	k->event_id_ok[ei] = true;
	f.field = FASTMIB_FIELD_LEVEL;
	if (!check_range(k, f, e->level, 0, FASTMIB_EVENT_RATE_MAX, owner, "level"))
		return false;
	f.field = FASTMIB_FIELD_RATE;
	if (!check_range(k, f, e->rate, 0, FASTMIB_EVENT_RATE_MAX, owner, "rate"))
		return false;
	f.field = FASTMIB_FIELD_NOTIFY;
	if (!check_range(k, f, e->notify, 0, 1, owner, "notify"))
		return false;
	f.field = FASTMIB_FIELD_ARGS;
	if (!check_count(k, f, e->n_args, 0, FASTMIB_MAX_EVENT_ARGS, owner, "args"))
		return false;
	for (uint32_t ai = 0; ai < e->n_args && !k->stop; ai++) {
		names[ai] = NULL;
		if (check_arg(k, ei, ai, e->name))
			names[ai] = e->args[ai];
		else
			ok = false;
	}
	if (!ok || k->stop)
		return false;
	same_names(names, e->n_args, first);
	for (uint32_t ai = 0; ai < e->n_args; ai++) {
		struct fastmib_schema_fault d = { .object = FASTMIB_OBJ_ARG, .event = ei,
						  .arg = ai, .field = FASTMIB_FIELD_NAME,
						  .problem = FASTMIB_BAD_DUPLICATE };

		if (!first[ai])
			continue;
		d.first = first[ai] - 1u;
		report(k, &d, "%s: args %u and %u share the name %s", owner, d.first + 1,
		       ai + 1, names[ai]);
		return false;
	}
	return true;
}

static void
check_events(struct checker *k)
{
	const struct fastmib_schema *s = k->s;
	const char *names[FASTMIB_MAX_EVENTS];
	uint32_t arcs[FASTMIB_MAX_EVENTS];
	uint16_t first_name[FASTMIB_MAX_EVENTS], first_arc[FASTMIB_MAX_EVENTS];

	for (uint32_t ei = 0; ei < s->n_events && !k->stop; ei++) {
		check_event(k, ei);
		names[ei] = k->event_id_ok[ei] ? s->events[ei].name : NULL;
		arcs[ei] = k->event_id_ok[ei] ? s->events[ei].arc : 0;
	}
	if (k->stop)
		return;
	same_names(names, s->n_events, first_name);
	same_arcs(arcs, s->n_events, first_arc);
	for (uint32_t ei = 0; ei < s->n_events && !k->stop; ei++) {
		struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_EVENT, .event = ei,
						  .problem = FASTMIB_BAD_DUPLICATE };

		if (first_name[ei]) {
			f.field = FASTMIB_FIELD_NAME;
			f.first = first_name[ei] - 1u;
			report(k, &f, "events %u and %u share the name %s", f.first + 1, ei + 1,
			       names[ei]);
		}
		if (first_arc[ei] && !k->stop) {
			f.field = FASTMIB_FIELD_ARC;
			f.first = first_arc[ei] - 1u;
			f.value = arcs[ei];
			report(k, &f, "events %s and %s share arc %u", s->events[f.first].name,
			       names[ei], arcs[ei]);
		}
	}
}

/* ---- the module ---- */

/*
 * Module-level fields; false when groups and events are not to be
 * checked: they cannot be read, or their offsets would be judged against
 * broken area sizes.
 */
static bool
check_module(struct checker *k)
{
	const struct fastmib_schema *s = k->s;
	struct fastmib_schema_fault f = { .object = FASTMIB_OBJ_SCHEMA };
	const char *owner = "module";
	bool ok = true;

	f.field = FASTMIB_FIELD_VERSION;
	if (s->version != FASTMIB_MODEL_VERSION) {
		f.problem = FASTMIB_BAD_RANGE;
		f.value = s->version;
		f.lo = f.hi = FASTMIB_MODEL_VERSION;
		report(k, &f, "model version %u, expected %u", s->version,
		       FASTMIB_MODEL_VERSION);
		return false;
	}
	f.field = FASTMIB_FIELD_MODULE;
	check_name(k, f, s->module, fastmib_name_is_module, owner, "module name");
	f.field = FASTMIB_FIELD_PREFIX;
	if (!k->stop)
		check_name(k, f, s->prefix, fastmib_name_is_prefix, owner, "prefix");
	f.field = FASTMIB_FIELD_OID;
	if (!k->stop && check_count(k, f, s->oid_len, 2, FASTMIB_MAX_OID_LEN, owner,
				    "arcs in the root OID") &&
	    (s->oid[0] > 2 || (s->oid[0] < 2 && s->oid[1] > 39))) {
		f.problem = FASTMIB_BAD_RANGE;
		f.value = s->oid[0] > 2 ? s->oid[0] : s->oid[1];
		report(k, &f, "module: root OID %u.%u...: the first arc must be 0..2, "
			      "the second 0..39 under 0 and 1", s->oid[0], s->oid[1]);
	}
	if (!k->stop && (s->percore_size % FMS_CACHE_LINE || s->shared_size % FMS_CACHE_LINE)) {
		f.field = s->percore_size % FMS_CACHE_LINE ? FASTMIB_FIELD_PERCORE_SIZE
							   : FASTMIB_FIELD_SHARED_SIZE;
		f.problem = FASTMIB_BAD_LAYOUT;
		f.value = s->percore_size % FMS_CACHE_LINE ? s->percore_size : s->shared_size;
		report(k, &f, "area sizes %llu (per-core) and %llu (shared) must be "
			      "cache-line multiples", (unsigned long long)s->percore_size,
		       (unsigned long long)s->shared_size);
		ok = false;
	}
	f.field = FASTMIB_FIELD_GROUPS;
	if (!k->stop && s->groups == NULL && s->n_groups) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "module: groups are missing");
		return false;
	}
	if (k->stop || !check_count(k, f, s->n_groups, 1, FASTMIB_MAX_GROUPS, owner, "groups"))
		return false;
	f.field = FASTMIB_FIELD_EVENTS;
	if (!k->stop && s->events == NULL && s->n_events) {
		f.problem = FASTMIB_BAD_MISSING;
		report(k, &f, "module: events are missing");
		return false;
	}
	if (k->stop || !check_count(k, f, s->n_events, 0, FASTMIB_MAX_EVENTS, owner, "events"))
		return false;
	return ok && !k->stop;
}

int
fastmib_schema_check(const struct fastmib_schema *s, fastmib_schema_fault_fn *fn, void *arg)
{
	struct checker *k;
	int rc;

	if (s == NULL)
		return fms_error(-EINVAL, "schema: NULL");
	k = calloc(1, sizeof(*k));
	if (k == NULL)
		return fms_error(-ENOMEM, "schema: out of memory");
	k->s = s;
	k->fn = fn;
	k->arg = arg;
	if (check_module(k)) {
		check_groups(k);
		if (!k->stop)
			check_events(k);
		if (!k->stop)
			check_area(k, false);
		if (!k->stop)
			check_area(k, true);
	}
	rc = k->error;
	free(k);
	return rc;
}

int
fms_schema_check(const struct fastmib_schema *s)
{
	return fastmib_schema_check(s, NULL, NULL);
}
