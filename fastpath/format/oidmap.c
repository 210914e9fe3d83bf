/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The OID map: which object instance an OID suffix below the module root
 * names, which instance follows it, and the suffix of an instance. See
 * <fastmib/oidmap.h> for the layout.
 *
 * Every "next" function below answers the same question for one subtree:
 * the smallest instance in it greater than the subtree's node followed by
 * the suffix x[0..n). An empty suffix stands for the node itself, which is
 * never an instance, so it asks for the subtree's first instance.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/oidmap.h"

/* Generator objects and the R.3.2 groups live above every model arc. */
_Static_assert(FASTMIB_MAX_ARC < FASTMIB_ARC_CONTROL_GROUP &&
	       FASTMIB_ARC_CONTROL_GROUP < FASTMIB_ARC_RESET &&
	       FASTMIB_ARC_DISCONT < FASTMIB_ARC_INDEX_FIRST,
	       "reserved arcs must stay above model arcs");
_Static_assert(FASTMIB_BUCKET_TABLE_GROUP > FASTMIB_MAX_ARC &&
	       (uint64_t)FASTMIB_BUCKET_TABLE_GROUP * FASTMIB_MAX_ARC + FASTMIB_MAX_ARC <= UINT32_MAX,
	       "bucket tables follow every group under R.1, at 32-bit arcs");
_Static_assert(FASTMIB_ARC_OBJECTS < FASTMIB_ARC_CONTROL &&
	       FASTMIB_ARC_CONTROL < FASTMIB_ARC_CONFORMANCE &&
	       FASTMIB_ARC_CONFORMANCE < FASTMIB_ARC_EVENTS,
	       "the subtrees below R are walked in this order");

/* Event numbers are Unsigned32 (1..4294967295). */
#define OM_MAX_EVENT_NUMBER UINT32_MAX

/* An object under a group (a column of a table), or under R.2. */
struct om_col {
	uint32_t arc;
	enum fastmib_oid_kind kind;
	uint32_t counter; /* schema index of the counter or state */
	uint32_t part;    /* an inet-address state: 1 its type object, 0 its address */
};

struct om_group {
	uint32_t arc;
	uint32_t id; /* schema index */
	const struct fastmib_group_schema *gs;
	uint32_t n_cols;
	const struct om_col *cols; /* by arc */
};

/* A histogram's bucket table under R.1, by arc. */
struct om_btable {
	uint32_t arc;               /* FASTMIB_BUCKET_TABLE_GROUP * group arc + histogram arc */
	uint32_t counter;           /* the histogram's schema index in its group */
	uint32_t n_buckets;         /* its bounds + 1 */
	const struct om_group *g;   /* its group (in the map's sorted groups) */
};

/* A row of the event statistics table: an event, by arc. */
struct om_event {
	uint32_t arc;
	uint32_t id; /* schema index */
};

struct fastmib_oidmap {
	const struct fastmib_schema *schema;
	uint32_t n_groups;
	struct om_group *groups; /* by arc */
	struct om_col *cols;     /* every group's columns, one block */
	uint32_t n_events;
	struct om_event *events; /* by arc */
	uint32_t n_control;      /* objects under R.2 of this model */
	uint32_t n_btables;
	struct om_btable *btables; /* by arc */
};

/* Objects under R.2, by arc; each has the one instance .0. The last one,
 * NotificationsDropped, only in a model that sends notifications. */
static const struct om_col om_module_objects[] = {
	{ FASTMIB_ARC_RESET_ALL, FASTMIB_OID_RESET, 0, 0 },
	{ FASTMIB_ARC_MODULE_DISCONT, FASTMIB_OID_DISCONT, 0, 0 },
	{ FASTMIB_ARC_WRITER_STATUS, FASTMIB_OID_WRITER_STATUS, 0, 0 },
	{ FASTMIB_ARC_BEST_EFFORT, FASTMIB_OID_BEST_EFFORT, 0, 0 },
	{ FASTMIB_ARC_OUT_OF_RANGE, FASTMIB_OID_OUT_OF_RANGE, 0, 0 },
	{ FASTMIB_ARC_NOTIFS_DROPPED, FASTMIB_OID_NOTIFS_DROPPED, 0, 0 },
};
#define OM_N_MODULE_OBJECTS \
	((uint32_t)(sizeof(om_module_objects) / sizeof(om_module_objects[0])))

/* What one lookup works with. */
struct om_walk {
	const struct fastmib_oidmap *map;
	const struct fastmib_oid_rows *rows;
	struct fastmib_oid_ref *ref;
};

/* ---- building ---- */

static int
om_fail(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
om_fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int
om_cmp_col(const void *a, const void *b)
{
	const struct om_col *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

/* Ties in model order, so that a message about a shared arc names the
 * groups the way the model lists them. */
static int
om_cmp_group(const void *a, const void *b)
{
	const struct om_group *x = a, *y = b;

	if (x->arc != y->arc)
		return (x->arc > y->arc) - (x->arc < y->arc);
	return (x->id > y->id) - (x->id < y->id);
}

static int
om_cmp_event(const void *a, const void *b)
{
	const struct om_event *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

/* The shape the row arithmetic of <fastmib/schema.h> relies on. */
static int
om_check_group(const struct fastmib_group_schema *gs, char *why, size_t whylen)
{
	uint64_t rows = 1;

	if (gs->arc < 1 || gs->arc > FASTMIB_MAX_ARC)
		return om_fail(why, whylen, "schema: group %s: arc %u outside 1..%u",
			       gs->name, gs->arc, FASTMIB_MAX_ARC);
	if (gs->n_indexes > FASTMIB_MAX_INDEXES)
		return om_fail(why, whylen, "schema: group %s: %u indexes (max %u)",
			       gs->name, gs->n_indexes, FASTMIB_MAX_INDEXES);
	for (uint32_t k = 0; k < gs->n_indexes && fastmib_group_keyed(gs); k++)
		rows = gs->n_rows; /* a keyed table: rows by key, up to its capacity */
	for (uint32_t k = 0; k < gs->n_indexes && !fastmib_group_keyed(gs); k++) {
		if (gs->indexes[k].max < 1)
			return om_fail(why, whylen, "schema: group %s: index %s has max 0",
				       gs->name, gs->indexes[k].name);
		rows *= gs->indexes[k].max;
		if (rows > FASTMIB_MAX_ROWS)
			return om_fail(why, whylen, "schema: group %s: more than %u rows",
				       gs->name, FASTMIB_MAX_ROWS);
	}
	if (gs->n_rows != rows)
		return om_fail(why, whylen, "schema: group %s: n_rows %u, indexes give %llu",
			       gs->name, gs->n_rows, (unsigned long long)rows);
	if (gs->n_counters > FASTMIB_MAX_COUNTERS || (gs->n_counters && !gs->counters))
		return om_fail(why, whylen, "schema: group %s: %u counters (max %u)",
			       gs->name, gs->n_counters, FASTMIB_MAX_COUNTERS);
	if (gs->n_states > FASTMIB_MAX_STATES || (gs->n_states && !gs->states))
		return om_fail(why, whylen, "schema: group %s: %u states (max %u)",
			       gs->name, gs->n_states, FASTMIB_MAX_STATES);
	return 0;
}

/* Columns a group has: its counters (a histogram two: its count and its
 * sum), its states (an inet-address two), and with counters its Reset and
 * DiscontinuityTime. */
static uint32_t
om_n_cols(const struct fastmib_group_schema *gs)
{
	uint32_t n = gs->n_counters + gs->n_states + (gs->n_counters ? 2 : 0);

	for (uint32_t c = 0; c < gs->n_counters; c++)
		n += gs->counters[c].type == FASTMIB_HISTOGRAM;
	for (uint32_t s = 0; s < gs->n_states; s++)
		n += gs->states[s].type == FASTMIB_STATE_INET_ADDRESS;
	return n;
}

/* Columns of group `gs` into cols[0..om_n_cols()), sorted by arc. */
static int
om_build_cols(const struct fastmib_group_schema *gs, struct om_col *cols, char *why,
	      size_t whylen)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < gs->n_counters; c++) {
		uint32_t arc = gs->counters[c].arc, type = gs->counters[c].type;
		bool hist = type == FASTMIB_HISTOGRAM;

		if (arc < 1 || arc + hist > FASTMIB_MAX_ARC)
			return om_fail(why, whylen, "schema: counter %s.%s: arc %u outside 1..%u",
				       gs->name, gs->counters[c].name, arc, FASTMIB_MAX_ARC);
		if (hist) {
			/* its count at its arc, its sum at the next */
			cols[n++] = (struct om_col){ arc, FASTMIB_OID_HIST_COUNT, c, 0 };
			cols[n++] = (struct om_col){ arc + 1, FASTMIB_OID_HIST_SUM, c, 0 };
			continue;
		}
		cols[n++] = (struct om_col){ arc, type == FASTMIB_PEAK ? FASTMIB_OID_PEAK
								     : FASTMIB_OID_COUNTER, c, 0 };
	}
	for (uint32_t s = 0; s < gs->n_states; s++) {
		const struct fastmib_state_schema *st = &gs->states[s];
		bool inet = st->type == FASTMIB_STATE_INET_ADDRESS;

		if (st->arc < 1 || st->arc + inet > FASTMIB_MAX_ARC)
			return om_fail(why, whylen, "schema: state %s.%s: arc %u outside 1..%u",
				       gs->name, st->name, st->arc, FASTMIB_MAX_ARC);
		/* an inet-address: its type object first, its address after */
		if (inet)
			cols[n++] = (struct om_col){ st->arc, FASTMIB_OID_STATE, s, 1 };
		cols[n++] = (struct om_col){ st->arc + inet, FASTMIB_OID_STATE, s, 0 };
	}
	if (gs->n_counters) {
		cols[n++] = (struct om_col){ FASTMIB_ARC_RESET, FASTMIB_OID_RESET, 0, 0 };
		cols[n++] = (struct om_col){ FASTMIB_ARC_DISCONT, FASTMIB_OID_DISCONT, 0, 0 };
	}
	qsort(cols, n, sizeof(*cols), om_cmp_col);
	for (uint32_t c = 1; c < n; c++)
		if (cols[c].arc == cols[c - 1].arc)
			return om_fail(why, whylen, "schema: group %s: arc %u used twice",
				       gs->name, cols[c].arc);
	return 0;
}

/* Does the model send notifications (a `notify` event or state)? */
static bool
om_notifies(const struct fastmib_schema *sc)
{
	for (uint32_t e = 0; e < sc->n_events; e++)
		if (sc->events[e].notify)
			return true;
	for (uint32_t g = 0; g < sc->n_groups; g++)
		for (uint32_t s = 0; s < sc->groups[g].n_states; s++)
			if (sc->groups[g].states[s].notify)
				return true;
	return false;
}

static int
om_build_events(struct fastmib_oidmap *map, char *why, size_t whylen)
{
	const struct fastmib_schema *sc = map->schema;

	if (sc->n_events == 0)
		return 0;
	if (sc->n_events > FASTMIB_MAX_EVENTS || !sc->events)
		return om_fail(why, whylen, "schema: %u events (max %u)", sc->n_events,
			       FASTMIB_MAX_EVENTS);
	map->events = calloc(sc->n_events, sizeof(*map->events));
	if (!map->events)
		return -ENOMEM;
	map->n_events = sc->n_events;
	for (uint32_t e = 0; e < sc->n_events; e++) {
		const struct fastmib_event_schema *es = &sc->events[e];

		if (es->arc < 1 || es->arc > FASTMIB_MAX_ARC)
			return om_fail(why, whylen, "schema: event %s: arc %u outside 1..%u",
				       es->name, es->arc, FASTMIB_MAX_ARC);
		if (es->n_args > FASTMIB_MAX_EVENT_ARGS)
			return om_fail(why, whylen, "schema: event %s: %u arguments (max %u)",
				       es->name, es->n_args, FASTMIB_MAX_EVENT_ARGS);
		map->events[e] = (struct om_event){ es->arc, e };
	}
	qsort(map->events, map->n_events, sizeof(*map->events), om_cmp_event);
	for (uint32_t e = 1; e < map->n_events; e++)
		if (map->events[e].arc == map->events[e - 1].arc)
			return om_fail(why, whylen, "schema: event arc %u used twice",
				       map->events[e].arc);
	return 0;
}

static int
om_cmp_btable(const void *a, const void *b)
{
	const struct om_btable *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

/* The bucket table of every histogram, after the groups are sorted (each
 * points at its group); arcs are distinct as group and histogram arcs are. */
static int
om_build_btables(struct fastmib_oidmap *map, char *why, size_t whylen)
{
	uint32_t n = 0;

	for (uint32_t g = 0; g < map->n_groups; g++)
		for (uint32_t c = 0; c < map->groups[g].gs->n_counters; c++)
			n += map->groups[g].gs->counters[c].type == FASTMIB_HISTOGRAM;
	if (n == 0)
		return 0;
	map->btables = calloc(n, sizeof(*map->btables));
	if (!map->btables)
		return -ENOMEM;
	for (uint32_t g = 0; g < map->n_groups; g++) {
		const struct fastmib_group_schema *gs = map->groups[g].gs;

		for (uint32_t c = 0; c < gs->n_counters; c++) {
			const struct fastmib_counter_schema *cs = &gs->counters[c];

			if (cs->type != FASTMIB_HISTOGRAM)
				continue;
			if (cs->n_bounds < 1 || cs->n_bounds > FASTMIB_MAX_BOUNDS)
				return om_fail(why, whylen, "schema: histogram %s.%s: %u bounds "
					       "(1..%u)", gs->name, cs->name, cs->n_bounds,
					       FASTMIB_MAX_BOUNDS);
			map->btables[map->n_btables++] = (struct om_btable){
				.arc = FASTMIB_BUCKET_TABLE_GROUP * gs->arc + cs->arc,
				.counter = c, .n_buckets = cs->n_bounds + 1, .g = &map->groups[g],
			};
		}
	}
	qsort(map->btables, map->n_btables, sizeof(*map->btables), om_cmp_btable);
	return 0;
}

static int
om_build(struct fastmib_oidmap *map, char *why, size_t whylen)
{
	const struct fastmib_schema *sc = map->schema;
	size_t n_cols = 0, at = 0;
	int rc;

	if (sc->oid_len < 1 || sc->oid_len > FASTMIB_MAX_OID_LEN)
		return om_fail(why, whylen, "schema: module root of %u arcs (1..%u)",
			       sc->oid_len, FASTMIB_MAX_OID_LEN);
	if (sc->n_groups > FASTMIB_MAX_GROUPS || (sc->n_groups && !sc->groups))
		return om_fail(why, whylen, "schema: %u groups (max %u)", sc->n_groups,
			       FASTMIB_MAX_GROUPS);
	for (uint32_t g = 0; g < sc->n_groups; g++) {
		if ((rc = om_check_group(&sc->groups[g], why, whylen)))
			return rc;
		n_cols += om_n_cols(&sc->groups[g]);
	}
	map->n_control = OM_N_MODULE_OBJECTS - !om_notifies(sc);
	map->groups = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*map->groups));
	map->cols = calloc(n_cols ? n_cols : 1, sizeof(*map->cols));
	if (!map->groups || !map->cols)
		return -ENOMEM;
	map->n_groups = sc->n_groups;
	for (uint32_t g = 0; g < sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &sc->groups[g];

		if ((rc = om_build_cols(gs, map->cols + at, why, whylen)))
			return rc;
		map->groups[g] = (struct om_group){
			.arc = gs->arc, .id = g, .gs = gs,
			.n_cols = om_n_cols(gs), .cols = map->cols + at,
		};
		at += om_n_cols(gs);
	}
	qsort(map->groups, map->n_groups, sizeof(*map->groups), om_cmp_group);
	for (uint32_t g = 1; g < map->n_groups; g++)
		if (map->groups[g].arc == map->groups[g - 1].arc)
			return om_fail(why, whylen, "schema: groups %s and %s share arc %u",
				       map->groups[g - 1].gs->name, map->groups[g].gs->name,
				       map->groups[g].arc);
	if ((rc = om_build_btables(map, why, whylen)))
		return rc;
	return om_build_events(map, why, whylen);
}

int
fastmib_oidmap_new(const struct fastmib_schema *schema, struct fastmib_oidmap **mapp,
		   char *why, size_t whylen)
{
	struct fastmib_oidmap *map = calloc(1, sizeof(*map));
	int rc;

	*mapp = NULL;
	if (!map)
		return -ENOMEM;
	map->schema = schema;
	rc = om_build(map, why, whylen);
	if (rc < 0) {
		if (rc == -ENOMEM)
			om_fail(why, whylen, "schema: out of memory for the OID map");
		fastmib_oidmap_free(map);
		return rc;
	}
	*mapp = map;
	return 0;
}

void
fastmib_oidmap_free(struct fastmib_oidmap *map)
{
	if (!map)
		return;
	free(map->groups);
	free(map->cols);
	free(map->events);
	free(map->btables);
	free(map);
}

/* ---- searches ---- */

/*
 * Index of the first of the n elements (of `size` bytes, at `base`, sorted
 * by the uint32_t arc at their start) whose arc is >= `arc`; n if none.
 * Groups, columns and events all keep such arrays.
 */
static uint32_t
om_lower_bound(const void *base, uint32_t n, size_t size, uint64_t arc)
{
	const unsigned char *p = base;
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint32_t at;

		memcpy(&at, p + (size_t)mid * size, sizeof(at));
		if (at < arc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

_Static_assert(offsetof(struct om_col, arc) == 0 && offsetof(struct om_group, arc) == 0 &&
	       offsetof(struct om_event, arc) == 0 && offsetof(struct om_btable, arc) == 0,
	       "om_lower_bound reads the arc first");

static const struct om_col *
om_find_col(const struct om_col *cols, uint32_t n, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = om_lower_bound(cols, n, sizeof(*cols), arc);

	*pos = lo;
	return lo < n && cols[lo].arc == arc ? &cols[lo] : NULL;
}

static const struct om_group *
om_find_group(const struct fastmib_oidmap *map, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = om_lower_bound(map->groups, map->n_groups, sizeof(*map->groups), arc);

	*pos = lo;
	return lo < map->n_groups && map->groups[lo].arc == arc ? &map->groups[lo] : NULL;
}

static const struct om_btable *
om_find_btable(const struct fastmib_oidmap *map, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = om_lower_bound(map->btables, map->n_btables, sizeof(*map->btables), arc);

	*pos = lo;
	return lo < map->n_btables && map->btables[lo].arc == arc ? &map->btables[lo] : NULL;
}

static const struct om_event *
om_find_event(const struct fastmib_oidmap *map, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = om_lower_bound(map->events, map->n_events, sizeof(*map->events), arc);

	*pos = lo;
	return lo < map->n_events && map->events[lo].arc == arc ? &map->events[lo] : NULL;
}

/* ---- rows ---- */

static bool
om_table(const struct om_group *g)
{
	return g->gs->n_indexes > 0;
}

/* First present row >= `from` of table g, or -1. An answer outside
 * from..n_rows-1 is taken as none, so a confused source cannot make a
 * GETNEXT go backwards. */
static int64_t
om_next_row(const struct om_walk *w, const struct om_group *g, int64_t from)
{
	int64_t r;

	if (from < 0 || (uint64_t)from >= g->gs->n_rows)
		return -1;
	if (g->gs->all_rows)
		return from;
	r = w->rows->next_row(w->rows->ctx, g->id, (uint32_t)from);
	return r >= from && (uint64_t)r < g->gs->n_rows ? r : -1;
}

static bool
om_row_present(const struct om_walk *w, const struct om_group *g, uint32_t row)
{
	if (g->gs->all_rows)
		return true;
	if (w->rows->row_present)
		return w->rows->row_present(w->rows->ctx, g->id, row);
	return om_next_row(w, g, row) == row;
}

/* Arguments a record needs for an instance in event column `col`. */
static uint32_t
om_evcol_args(uint64_t col)
{
	return col >= FASTMIB_EVCOL_ARG1 ? (uint32_t)(col - FASTMIB_EVCOL_ARG1 + 1) : 0;
}

/* Smallest event number >= `from` with an instance in column `col`, or -1. */
static int64_t
om_next_event(const struct om_walk *w, uint64_t from, uint64_t col)
{
	int64_t num;

	if (from > OM_MAX_EVENT_NUMBER)
		return -1;
	num = w->rows->next_event(w->rows->ctx, from, om_evcol_args(col));
	return num >= 1 && (uint64_t)num >= from && num <= OM_MAX_EVENT_NUMBER ? num : -1;
}

/* ---- exact lookup ---- */

static void
om_ref_col(struct fastmib_oid_ref *ref, int group, const struct om_col *c)
{
	ref->kind = c->kind;
	ref->group = group;
	ref->counter = c->counter;
	ref->part = c->part;
}

/* Below R.1.A, A a bucket table's arc: 1.C.i1..in.b. */
static enum fastmib_oid_found
om_resolve_buckets(const struct om_walk *w, const uint64_t *x, size_t n)
{
	struct fastmib_oid_ref *ref = w->ref;
	const struct om_btable *t;
	const struct om_group *g;
	uint32_t pos;
	int64_t row;

	if (n < 3 || !(t = om_find_btable(w->map, x[0], &pos)) || x[1] != FASTMIB_ARC_ENTRY ||
	    x[2] < FASTMIB_BUCKETCOL_LE || x[2] > FASTMIB_BUCKETCOL_COUNT)
		return FASTMIB_OID_NO_OBJECT;
	g = t->g;
	ref->kind = FASTMIB_OID_BUCKET;
	ref->group = (int)g->id;
	ref->counter = t->counter;
	ref->column = (uint32_t)x[2];
	/* the row's index, then the bucket number */
	if (n < 4 || x[n - 1] < 1 || x[n - 1] > t->n_buckets)
		return FASTMIB_OID_NO_INSTANCE;
	ref->bucket = (uint32_t)(x[n - 1] - 1);
	if (!om_table(g))
		return n == 4 ? FASTMIB_OID_INSTANCE : FASTMIB_OID_NO_INSTANCE;
	if (fastmib_group_keyed(g->gs)) {
		int len = fastmib_key_of_index(g->gs, x + 3, n - 4, ref->key);

		if (len < 0 || w->rows->keyed_find == NULL ||
		    (row = w->rows->keyed_find(w->rows->ctx, g->id, ref->key, (size_t)len)) < 0 ||
		    (uint64_t)row >= g->gs->n_rows)
			return FASTMIB_OID_NO_INSTANCE;
		ref->key_len = (uint32_t)len;
		ref->row = (uint32_t)row;
		return FASTMIB_OID_INSTANCE;
	}
	row = fastmib_row_of_index(g->gs, x + 3, n - 4);
	if (row < 0 || !om_row_present(w, g, (uint32_t)row))
		return FASTMIB_OID_NO_INSTANCE;
	ref->row = (uint32_t)row;
	return FASTMIB_OID_INSTANCE;
}

/* Below R.1. */
static enum fastmib_oid_found
om_resolve_objects(const struct om_walk *w, const uint64_t *x, size_t n)
{
	const struct om_group *g;
	const struct om_col *c;
	uint32_t pos;
	int64_t row;

	if (n > 0 && x[0] > FASTMIB_MAX_ARC)
		return om_resolve_buckets(w, x, n);
	if (n < 2 || !(g = om_find_group(w->map, x[0], &pos)))
		return FASTMIB_OID_NO_OBJECT;
	if (!om_table(g)) {
		/* G.C.0 */
		if (!(c = om_find_col(g->cols, g->n_cols, x[1], &pos)))
			return FASTMIB_OID_NO_OBJECT;
		om_ref_col(w->ref, (int)g->id, c);
		return n == 3 && x[2] == FASTMIB_ARC_SCALAR_INSTANCE ? FASTMIB_OID_INSTANCE
								     : FASTMIB_OID_NO_INSTANCE;
	}
	/* G.1.C.i1..in */
	if (n < 3 || x[1] != FASTMIB_ARC_ENTRY ||
	    !(c = om_find_col(g->cols, g->n_cols, x[2], &pos)))
		return FASTMIB_OID_NO_OBJECT;
	om_ref_col(w->ref, (int)g->id, c);
	if (fastmib_group_keyed(g->gs)) {
		int len = fastmib_key_of_index(g->gs, x + 3, n - 3, w->ref->key);

		if (len < 0 || w->rows->keyed_find == NULL ||
		    (row = w->rows->keyed_find(w->rows->ctx, g->id, w->ref->key,
					       (size_t)len)) < 0 ||
		    (uint64_t)row >= g->gs->n_rows)
			return FASTMIB_OID_NO_INSTANCE;
		w->ref->key_len = (uint32_t)len;
		w->ref->row = (uint32_t)row;
		return FASTMIB_OID_INSTANCE;
	}
	row = fastmib_row_of_index(g->gs, x + 3, n - 3);
	if (row < 0 || !om_row_present(w, g, (uint32_t)row))
		return FASTMIB_OID_NO_INSTANCE;
	w->ref->row = (uint32_t)row;
	return FASTMIB_OID_INSTANCE;
}

/* Below R.2. */
static enum fastmib_oid_found
om_resolve_control(const struct om_walk *w, const uint64_t *x, size_t n)
{
	const struct om_col *c;
	uint32_t pos;

	if (n < 1 || !(c = om_find_col(om_module_objects, w->map->n_control, x[0], &pos)))
		return FASTMIB_OID_NO_OBJECT;
	om_ref_col(w->ref, -1, c);
	return n == 2 && x[1] == FASTMIB_ARC_SCALAR_INSTANCE ? FASTMIB_OID_INSTANCE
							     : FASTMIB_OID_NO_INSTANCE;
}

/* Below R.4: T.1.C.N, where T is the event table or the statistics table. */
static enum fastmib_oid_found
om_resolve_events(const struct om_walk *w, const uint64_t *x, size_t n)
{
	struct fastmib_oid_ref *ref = w->ref;
	const struct om_event *e;
	uint32_t n_args, pos;

	if (w->map->n_events == 0 || n < 3 || x[1] != FASTMIB_ARC_ENTRY)
		return FASTMIB_OID_NO_OBJECT;
	if (x[0] == FASTMIB_ARC_EV_TABLE && x[2] >= FASTMIB_EVCOL_NAME &&
	    x[2] <= FASTMIB_EVCOL_LAST) {
		ref->kind = FASTMIB_OID_EVENT;
		ref->column = (uint32_t)x[2];
		if (n != 4 || x[3] < 1 || x[3] > OM_MAX_EVENT_NUMBER ||
		    !w->rows->event(w->rows->ctx, x[3], &n_args) ||
		    n_args < om_evcol_args(x[2]))
			return FASTMIB_OID_NO_INSTANCE;
		ref->row = (uint32_t)x[3];
		return FASTMIB_OID_INSTANCE;
	}
	if (x[0] == FASTMIB_ARC_EV_STATS && x[2] >= FASTMIB_STCOL_NAME &&
	    x[2] <= FASTMIB_STCOL_DROPPED) {
		ref->kind = FASTMIB_OID_EVSTAT;
		ref->column = (uint32_t)x[2];
		if (n != 4 || !(e = om_find_event(w->map, x[3], &pos)))
			return FASTMIB_OID_NO_INSTANCE;
		ref->row = e->id;
		return FASTMIB_OID_INSTANCE;
	}
	return FASTMIB_OID_NO_OBJECT;
}

enum fastmib_oid_found
fastmib_oidmap_resolve(const struct fastmib_oidmap *map, const struct fastmib_oid_rows *rows,
		       const uint64_t *sfx, size_t n, struct fastmib_oid_ref *ref)
{
	const struct om_walk w = { map, rows, ref };

	memset(ref, 0, sizeof(*ref));
	ref->group = -1;
	if (n == 0)
		return FASTMIB_OID_NO_OBJECT;
	switch (sfx[0]) {
	case FASTMIB_ARC_OBJECTS:
		return om_resolve_objects(&w, sfx + 1, n - 1);
	case FASTMIB_ARC_CONTROL:
		return om_resolve_control(&w, sfx + 1, n - 1);
	case FASTMIB_ARC_EVENTS:
		return om_resolve_events(&w, sfx + 1, n - 1);
	default: /* R.3 holds no object types, only conformance statements */
		return FASTMIB_OID_NO_OBJECT;
	}
}

/* ---- next instance ---- */

/*
 * Among objects with the one instance .0 (sorted by arc): the index of the
 * first whose instance follows C.x, or `n_cols` when none does.
 */
static uint32_t
om_next_scalar(const struct om_col *cols, uint32_t n_cols, const uint64_t *x, size_t n)
{
	uint32_t ci = 0;

	/* C alone precedes C.0; anything longer below C does not */
	if (n > 0 && om_find_col(cols, n_cols, x[0], &ci) && n > 1)
		ci++;
	return ci;
}

/*
 * A keyed table's row after index idx[0..n) (at it or after, when
 * `inclusive`) into the reference, its key with it; false when none. An
 * answer outside the table is taken as none.
 */
static bool
om_next_keyed(const struct om_walk *w, const struct om_group *g, const uint64_t *idx,
	      size_t n, bool inclusive)
{
	size_t len = 0;
	int64_t row;

	if (w->rows->keyed_next == NULL)
		return false;
	row = w->rows->keyed_next(w->rows->ctx, g->id, idx, n, inclusive, w->ref->key, &len);
	if (row < 0 || (uint64_t)row >= g->gs->n_rows || len > FASTMIB_MAX_KEY_BYTES)
		return false;
	w->ref->row = (uint32_t)row;
	w->ref->key_len = (uint32_t)len;
	return true;
}

/* Below R.1.G of a keyed table: 1.C.<index> in column-major order. */
static bool
om_next_in_keyed_table(const struct om_walk *w, const struct om_group *g, const uint64_t *x,
		       size_t n)
{
	uint32_t ci = 0;
	bool found = false;

	if (n > 0 && x[0] > FASTMIB_ARC_ENTRY)
		return false;
	if (n > 1 && x[0] == FASTMIB_ARC_ENTRY &&
	    om_find_col(g->cols, g->n_cols, x[1], &ci)) {
		/* inside column ci: its next row, else the next column */
		found = om_next_keyed(w, g, x + 2, n - 2, false);
		if (!found)
			ci++;
	}
	if (ci >= g->n_cols)
		return false;
	/* every column holds the same rows: the first one, if any */
	if (!found && !om_next_keyed(w, g, NULL, 0, true))
		return false;
	om_ref_col(w->ref, (int)g->id, &g->cols[ci]);
	return true;
}

/* Below R.1.G of a table: 1.C.i1..in in column-major order. */
static bool
om_next_in_table(const struct om_walk *w, const struct om_group *g, const uint64_t *x,
		 size_t n)
{
	uint32_t ci = 0;
	int64_t row = -1;

	if (n > 0 && x[0] > FASTMIB_ARC_ENTRY)
		return false;
	if (n > 1 && x[0] == FASTMIB_ARC_ENTRY &&
	    om_find_col(g->cols, g->n_cols, x[1], &ci)) {
		/* inside column ci: its next row, else the next column */
		int64_t from = fastmib_oidmap_row_after(g->gs, x + 2, n - 2);

		row = om_next_row(w, g, from);
		if (row < 0 && from == 0)
			return false; /* not one row in the table */
		if (row < 0)
			ci++;
	}
	if (ci >= g->n_cols)
		return false;
	if (row < 0) {
		/* every column holds the same rows: the first one, if any */
		row = om_next_row(w, g, 0);
		if (row < 0)
			return false;
	}
	om_ref_col(w->ref, (int)g->id, &g->cols[ci]);
	w->ref->row = (uint32_t)row;
	return true;
}

/* Below R.1.G. */
static bool
om_next_in_group(const struct om_walk *w, const struct om_group *g, const uint64_t *x,
		 size_t n)
{
	uint32_t ci;

	if (om_table(g) && fastmib_group_keyed(g->gs))
		return om_next_in_keyed_table(w, g, x, n);
	if (om_table(g))
		return om_next_in_table(w, g, x, n);
	ci = om_next_scalar(g->cols, g->n_cols, x, n);
	if (ci >= g->n_cols)
		return false;
	om_ref_col(w->ref, (int)g->id, &g->cols[ci]);
	return true;
}

/* The bucket after bucket number `y` of a row (1-based): 1 for y = 0,
 * past the table's buckets (n + 1) from y = n on, whatever y is. */
static uint64_t
om_bucket_after(const struct om_btable *t, uint64_t y)
{
	return y < 1 ? 1 : y >= t->n_buckets ? (uint64_t)t->n_buckets + 1 : y + 1;
}

/*
 * In a bucket table's column, the first (row, bucket) whose cell suffix
 * (the row's index, the bucket number) follows y[0..m), into the
 * reference; false when none. Cells run row by row in the group's row
 * order (its OID order), bucket 1..n in each: after the row y names (a
 * row's index is never a prefix of another's: each index says where it
 * ends), its next bucket or the next row's first.
 */
static bool
om_next_bucket_cell(const struct om_walk *w, const struct om_btable *t, const uint64_t *y,
		    size_t m)
{
	const struct om_group *g = t->g;
	struct fastmib_oid_ref *ref = w->ref;
	uint64_t b = 1;     /* the bucket to take in the row found */
	size_t used = 0;    /* sub-identifiers of y that name a present row */
	int64_t row = -1, from;
	int len;

	if (!om_table(g)) {
		/* row 0: its buckets alone */
		if (m > 0)
			b = om_bucket_after(t, y[0]);
		if (b > t->n_buckets)
			return false;
		ref->row = 0;
		ref->bucket = (uint32_t)(b - 1);
		return true;
	}
	if (fastmib_group_keyed(g->gs)) {
		len = fastmib_key_of_index_prefix(g->gs, y, m, ref->key, &used);
		if (len >= 0 && w->rows->keyed_find != NULL &&
		    (row = w->rows->keyed_find(w->rows->ctx, g->id, ref->key, (size_t)len)) >= 0 &&
		    (uint64_t)row < g->gs->n_rows) {
			if (used < m)
				b = om_bucket_after(t, y[used]);
			if (b <= t->n_buckets) {
				ref->key_len = (uint32_t)len;
				ref->row = (uint32_t)row;
				ref->bucket = (uint32_t)(b - 1);
				return true;
			}
		} else {
			used = m; /* no row is named: the first after all of y */
		}
		if (!om_next_keyed(w, g, y, used, false))
			return false;
		ref->bucket = 0;
		return true;
	}
	if (m >= g->gs->n_indexes &&
	    (row = fastmib_row_of_index(g->gs, y, g->gs->n_indexes)) >= 0 &&
	    om_row_present(w, g, (uint32_t)row)) {
		if (m > g->gs->n_indexes)
			b = om_bucket_after(t, y[g->gs->n_indexes]);
		if (b <= t->n_buckets) {
			ref->row = (uint32_t)row;
			ref->bucket = (uint32_t)(b - 1);
			return true;
		}
	}
	/* the rows after the one y names or falls in (row_after() takes the
	 * indexes alone), or after y's prefix */
	from = fastmib_oidmap_row_after(g->gs, y, m);
	row = om_next_row(w, g, from);
	if (row < 0)
		return false;
	ref->row = (uint32_t)row;
	ref->bucket = 0;
	return true;
}

/* Below R.1.A of bucket table t: 1.C.<cell> for columns Le and Count. */
static bool
om_next_in_btable(const struct om_walk *w, const struct om_btable *t, const uint64_t *x,
		  size_t n)
{
	uint64_t col = FASTMIB_BUCKETCOL_LE;
	const uint64_t *y = NULL;
	size_t m = 0;

	if (n > 0 && x[0] > FASTMIB_ARC_ENTRY)
		return false;
	if (n > 1 && x[0] == FASTMIB_ARC_ENTRY && x[1] >= FASTMIB_BUCKETCOL_LE) {
		/* inside column x[1]: its cells after x[2..n) */
		col = x[1];
		y = x + 2;
		m = n - 2;
	}
	for (; col <= FASTMIB_BUCKETCOL_COUNT; col++, y = NULL, m = 0) {
		memset(w->ref, 0, sizeof(*w->ref));
		if (!om_next_bucket_cell(w, t, y, m)) {
			if (m == 0)
				return false; /* not one row: no column has a cell */
			continue;
		}
		w->ref->kind = FASTMIB_OID_BUCKET;
		w->ref->group = (int)t->g->id;
		w->ref->counter = t->counter;
		w->ref->column = (uint32_t)col;
		return true;
	}
	return false;
}

/* Below R.1: the groups (arcs 1..999), then the bucket tables. */
static bool
om_next_objects(const struct om_walk *w, const uint64_t *x, size_t n)
{
	const struct fastmib_oidmap *map = w->map;
	uint32_t gi = 0, ti = 0;

	if (n > 0 && x[0] > FASTMIB_MAX_ARC) {
		const struct om_btable *t = om_find_btable(map, x[0], &ti);

		gi = map->n_groups;
		if (t && om_next_in_btable(w, t, x + 1, n - 1))
			return true;
		if (t)
			ti++;
	} else if (n > 0) {
		const struct om_group *g = om_find_group(map, x[0], &gi);

		if (g && om_next_in_group(w, g, x + 1, n - 1))
			return true;
		if (g)
			gi++;
	}
	for (; gi < map->n_groups; gi++)
		if (om_next_in_group(w, &map->groups[gi], NULL, 0))
			return true;
	for (; ti < map->n_btables; ti++)
		if (om_next_in_btable(w, &map->btables[ti], NULL, 0))
			return true;
	return false;
}

/* Below R.2. */
static bool
om_next_control(const struct om_walk *w, const uint64_t *x, size_t n)
{
	uint32_t ci = om_next_scalar(om_module_objects, w->map->n_control, x, n);

	if (ci >= w->map->n_control)
		return false;
	om_ref_col(w->ref, -1, &om_module_objects[ci]);
	return true;
}

/*
 * Where a walk of column-major cells C.r (columns from `first_col` on)
 * resumes after the suffix C.x: column `*col`, from row `*from` on.
 */
static void
om_cell_start(const uint64_t *x, size_t n, uint64_t first_col, uint64_t *col,
	      uint64_t *from)
{
	*col = first_col;
	*from = 0;
	if (n == 0 || x[0] < first_col)
		return;
	*col = x[0];
	if (n == 1)
		return;
	/* a cell is C.r: anything at or below C.k sorts before C.(k+1) */
	if (x[1] >= UINT32_MAX) {
		(*col)++;
		return;
	}
	*from = x[1] + 1;
}

/* Below R.4.1.1: C.N, N the event number. */
static bool
om_next_event_cell(const struct om_walk *w, const uint64_t *x, size_t n)
{
	uint64_t col, from;

	om_cell_start(x, n, FASTMIB_EVCOL_NAME, &col, &from);
	for (; col <= FASTMIB_EVCOL_LAST; col++, from = 0) {
		int64_t num = om_next_event(w, from, col);

		if (num < 0)
			continue;
		w->ref->kind = FASTMIB_OID_EVENT;
		w->ref->column = (uint32_t)col;
		w->ref->row = (uint32_t)num;
		return true;
	}
	return false;
}

/* Below R.4.2.1: C.A, A the event arc. */
static bool
om_next_evstat_cell(const struct om_walk *w, const uint64_t *x, size_t n)
{
	uint64_t col, from;

	om_cell_start(x, n, FASTMIB_STCOL_NAME, &col, &from);
	for (; col <= FASTMIB_STCOL_DROPPED; col++, from = 0) {
		uint32_t pos;

		om_find_event(w->map, from, &pos);
		if (pos >= w->map->n_events)
			continue;
		w->ref->kind = FASTMIB_OID_EVSTAT;
		w->ref->column = (uint32_t)col;
		w->ref->row = w->map->events[pos].id;
		return true;
	}
	return false;
}

/* Below R.4.T, T the event table or the statistics table: 1.C.r. */
static bool
om_next_in_evtable(const struct om_walk *w, uint64_t table, const uint64_t *x, size_t n)
{
	bool inside = n > 1 && x[0] == FASTMIB_ARC_ENTRY;

	if (n > 0 && x[0] > FASTMIB_ARC_ENTRY)
		return false;
	if (table == FASTMIB_ARC_EV_TABLE)
		return om_next_event_cell(w, inside ? x + 1 : NULL, inside ? n - 1 : 0);
	if (table == FASTMIB_ARC_EV_STATS)
		return om_next_evstat_cell(w, inside ? x + 1 : NULL, inside ? n - 1 : 0);
	return false; /* R.4.0: notification types, no instances */
}

/* Below R.4. */
static bool
om_next_events(const struct om_walk *w, const uint64_t *x, size_t n)
{
	uint64_t t = FASTMIB_ARC_EV_NOTIFS;

	if (w->map->n_events == 0)
		return false;
	if (n > 0) {
		if (x[0] > FASTMIB_ARC_EV_STATS)
			return false;
		if (om_next_in_evtable(w, x[0], x + 1, n - 1))
			return true;
		t = x[0] + 1;
	}
	for (; t <= FASTMIB_ARC_EV_STATS; t++)
		if (om_next_in_evtable(w, t, NULL, 0))
			return true;
	return false;
}

/* Below R.A, A one of the subtrees of the module. */
static bool
om_next_in_subtree(const struct om_walk *w, uint64_t arc, const uint64_t *x, size_t n)
{
	switch (arc) {
	case FASTMIB_ARC_OBJECTS:
		return om_next_objects(w, x, n);
	case FASTMIB_ARC_CONTROL:
		return om_next_control(w, x, n);
	case FASTMIB_ARC_EVENTS:
		return om_next_events(w, x, n);
	default: /* R.3: conformance statements, no instances */
		return false;
	}
}

bool
fastmib_oidmap_next(const struct fastmib_oidmap *map, const struct fastmib_oid_rows *rows,
		    const uint64_t *sfx, size_t n, bool inclusive, struct fastmib_oid_ref *ref)
{
	const struct om_walk w = { map, rows, ref };
	uint64_t arc = FASTMIB_ARC_OBJECTS;

	/* No instance is longer than FASTMIB_OID_MAX_SUFFIX, so arcs past one
	 * more than that cannot change how a suffix compares with any. */
	if (n > FASTMIB_OID_MAX_SUFFIX + 1)
		n = FASTMIB_OID_MAX_SUFFIX + 1;
	if (inclusive && fastmib_oidmap_resolve(map, rows, sfx, n, ref) == FASTMIB_OID_INSTANCE)
		return true;
	memset(ref, 0, sizeof(*ref));
	ref->group = -1;
	if (n > 0 && sfx[0] >= FASTMIB_ARC_OBJECTS) {
		if (sfx[0] > FASTMIB_ARC_EVENTS)
			return false;
		if (om_next_in_subtree(&w, sfx[0], sfx + 1, n - 1))
			return true;
		arc = sfx[0] + 1;
	}
	for (; arc <= FASTMIB_ARC_EVENTS; arc++)
		if (om_next_in_subtree(&w, arc, NULL, 0))
			return true;
	return false;
}

/* ---- suffix of an instance ---- */

/* A table row's index into out (the keyed table's by its key); its length. */
static size_t
om_row_index(const struct fastmib_group_schema *gs, const struct fastmib_oid_ref *ref,
	     uint64_t *out)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];

	if (gs->n_indexes == 0)
		return 0;
	if (fastmib_group_keyed(gs))
		return fastmib_key_to_index(gs, ref->key, ref->key_len, out);
	fastmib_index_of_row(gs, ref->row, idx);
	for (uint32_t k = 0; k < gs->n_indexes; k++)
		out[k] = idx[k];
	return gs->n_indexes;
}

size_t
fastmib_oidmap_suffix(const struct fastmib_oidmap *map, const struct fastmib_oid_ref *ref,
		      uint64_t *out)
{
	const struct fastmib_group_schema *gs;
	size_t n = 0;

	switch (ref->kind) {
	case FASTMIB_OID_EVENT:
	case FASTMIB_OID_EVSTAT:
		out[n++] = FASTMIB_ARC_EVENTS;
		out[n++] = ref->kind == FASTMIB_OID_EVENT ? FASTMIB_ARC_EV_TABLE
							  : FASTMIB_ARC_EV_STATS;
		out[n++] = FASTMIB_ARC_ENTRY;
		out[n++] = ref->column;
		out[n++] = ref->kind == FASTMIB_OID_EVENT ? ref->row
							  : map->schema->events[ref->row].arc;
		return n;
	default:
		break;
	}
	if (ref->kind == FASTMIB_OID_BUCKET) {
		gs = &map->schema->groups[ref->group];
		out[n++] = FASTMIB_ARC_OBJECTS;
		out[n++] = (uint64_t)FASTMIB_BUCKET_TABLE_GROUP * gs->arc +
			   gs->counters[ref->counter].arc;
		out[n++] = FASTMIB_ARC_ENTRY;
		out[n++] = ref->column;
		n += om_row_index(gs, ref, out + n);
		out[n++] = (uint64_t)ref->bucket + 1;
		return n;
	}
	if (ref->group < 0) {
		for (uint32_t i = 0; i < OM_N_MODULE_OBJECTS; i++) {
			if (om_module_objects[i].kind != ref->kind)
				continue;
			out[n++] = FASTMIB_ARC_CONTROL;
			out[n++] = om_module_objects[i].arc;
			out[n++] = FASTMIB_ARC_SCALAR_INSTANCE;
		}
		return n;
	}
	gs = &map->schema->groups[ref->group];
	out[n++] = FASTMIB_ARC_OBJECTS;
	out[n++] = gs->arc;
	if (gs->n_indexes > 0)
		out[n++] = FASTMIB_ARC_ENTRY;
	switch (ref->kind) {
	case FASTMIB_OID_RESET:
		out[n++] = FASTMIB_ARC_RESET;
		break;
	case FASTMIB_OID_DISCONT:
		out[n++] = FASTMIB_ARC_DISCONT;
		break;
	case FASTMIB_OID_STATE:
		/* an inet-address's address follows its type object */
		out[n++] = gs->states[ref->counter].arc +
			   (gs->states[ref->counter].type == FASTMIB_STATE_INET_ADDRESS &&
			    ref->part == 0);
		break;
	case FASTMIB_OID_HIST_SUM:
		/* a histogram's sum follows its count */
		out[n++] = gs->counters[ref->counter].arc + 1;
		break;
	default:
		out[n++] = gs->counters[ref->counter].arc;
		break;
	}
	if (gs->n_indexes == 0) {
		out[n++] = FASTMIB_ARC_SCALAR_INSTANCE;
		return n;
	}
	return n + om_row_index(gs, ref, out + n);
}

size_t
fastmib_oidmap_column_end(const struct fastmib_oidmap *map, const struct fastmib_oid_ref *ref,
			  uint64_t *out)
{
	size_t col;

	fastmib_oidmap_suffix(map, ref, out);
	switch (ref->kind) {
	case FASTMIB_OID_EVENT:
	case FASTMIB_OID_EVSTAT:
	case FASTMIB_OID_BUCKET:
		col = 4; /* R.4.T.1.C, R.1.A.1.C */
		break;
	default:
		/* R.2.A, R.1.G.C, R.1.G.1.C */
		col = ref->group < 0 ? 2 : map->schema->groups[ref->group].n_indexes ? 4 : 3;
		break;
	}
	out[col - 1]++;
	return col;
}

size_t
fastmib_oidmap_notification(const struct fastmib_oidmap *map, uint32_t event, uint64_t *out)
{
	out[0] = FASTMIB_ARC_EVENTS;
	out[1] = FASTMIB_ARC_EV_NOTIFS;
	out[2] = map->schema->events[event].arc;
	return 3;
}

size_t
fastmib_oidmap_state_notification(const struct fastmib_oidmap *map, uint32_t group,
				  uint32_t state, uint64_t *out)
{
	const struct fastmib_group_schema *gs = &map->schema->groups[group];

	out[0] = FASTMIB_ARC_NOTIFICATIONS;
	out[1] = FASTMIB_ARC_STATE_NOTIFS;
	out[2] = (uint64_t)FASTMIB_STATE_NOTIF_GROUP * gs->arc + gs->states[state].arc;
	return 3;
}

bool
fastmib_oidmap_reaches_events(const struct fastmib_oidmap *map, const uint64_t *sfx,
			      size_t n, bool next)
{
	if (map->n_events == 0 || n == 0)
		return false;
	/* R.1 always ends before R.2, which always has instances: only a
	 * GETNEXT from R.2 or R.3 moves on into R.4 */
	return sfx[0] == FASTMIB_ARC_EVENTS ||
	       (next && sfx[0] >= FASTMIB_ARC_CONTROL && sfx[0] < FASTMIB_ARC_EVENTS);
}

int64_t
fastmib_oidmap_row_after(const struct fastmib_group_schema *g, const uint64_t *sfx, size_t n)
{
	uint64_t prefix = 0; /* row number of the indexes matched so far */

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		uint64_t max = g->indexes[k].max;
		uint64_t stride = 1;

		for (uint32_t j = k + 1; j < g->n_indexes; j++)
			stride *= g->indexes[j].max;
		if (k >= n) /* shorter suffix: every completion is greater */
			return (int64_t)(prefix * max * stride);
		if (sfx[k] < 1)
			return (int64_t)(prefix * max * stride);
		if (sfx[k] > max) {
			/* past this subtree: first row of the next prefix */
			uint64_t row = (prefix + 1) * max * stride;

			return row < g->n_rows ? (int64_t)row : -1;
		}
		prefix = prefix * max + (sfx[k] - 1);
	}
	/* the suffix names a row (or something inside it): the next row */
	return prefix + 1 < g->n_rows ? (int64_t)(prefix + 1) : -1;
}
