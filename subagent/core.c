/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib SNMP serving core: segment set, (re-)attach, one raw handler per
 * segment. See core.h for the OID layout and the threading rules.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "fastmib/reader.h"
#include "core.h"
#include "evhist.h"

/* Snapshots kept per handler call, so that several varbinds of one PDU
 * naming the same group or row see one consistent snapshot. */
#define FMA_SNAP_SLOTS 8

/* Longest OID suffix under the root that names an object instance:
 * 1.G.1.C.i1..i4. */
#define FMA_MAX_SUFFIX (4 + FASTMIB_MAX_INDEXES)

enum fma_kind {
	FMA_COUNTER = 1, /* a counter of the schema */
	FMA_RESET,       /* TruthValue reset object */
	FMA_DISCONT,     /* TimeStamp discontinuity object */
	FMA_EVENT,       /* event table column (R.4.1.1.C.number) */
	FMA_EVSTAT,      /* event statistics column (R.4.2.1.C.arc) */
};

/* Records copied per fastmib_events_poll() call, and per poll at most:
 * bounds the time one request or alarm spends copying (about 1 ms). */
#define FMA_EV_CHUNK 256u
#define FMA_EV_POLL_MAX 16384u

struct fma_col {
	uint32_t arc;
	uint8_t kind;    /* enum fma_kind */
	uint32_t counter; /* schema counter index (FMA_COUNTER only) */
};

struct fma_group {
	uint32_t arc;
	unsigned int id; /* schema group index */
	const struct fastmib_group_schema *gs;
	uint32_t n_cols;
	struct fma_col *cols; /* sorted by arc */
};

/* What an OID names. `group` NULL means a module-level or event object;
 * for those, `col` is NULL and `ecol` the column arc of FMA_EVENT /
 * FMA_EVSTAT, whose `row` is the event number / event arc. */
struct fma_ref {
	const struct fma_group *group;
	const struct fma_col *col;
	enum fma_kind kind;
	uint32_t row;
	uint32_t ecol;
};

/* Statistics row of one event, sorted by arc. */
struct fma_evstat {
	uint32_t arc;
	uint32_t event; /* schema event index */
};

/* Event log state of one attached segment whose model has events. */
struct fma_events {
	struct fastmib_event_cursor *cur;
	struct fastmib_evhist hist;
	struct fma_evstat *by_arc;
	uint32_t n_events;
	bool primed;          /* the copy made at attach is done */
	uint64_t dropped_seen; /* cursor drops already logged */
};

struct fma_snap {
	const struct fma_group *group;
	uint32_t row;
	int rc;
	uint64_t *values;
};

struct fma_seg {
	struct fastmib_agent *agent;
	char *path;
	struct fastmib_segment *seg;    /* NULL while not attached */
	bool writable;
	const struct fastmib_schema *schema;
	struct fma_group *groups;       /* sorted by arc */
	uint32_t n_groups;
	oid root[MAX_OID_LEN];
	size_t root_len;
	netsnmp_handler_registration *reg;
	/* per-call snapshot cache */
	struct fma_snap snaps[FMA_SNAP_SLOTS];
	unsigned int n_snaps, next_snap;
	uint64_t *snap_values;
	/* last attach failure, so that a retry every second logs only changes */
	int last_rc;
	char last_msg[256];
	/* named again since fastmib_agent_reload_begin() */
	bool confirmed;
	struct fma_events *ev;          /* NULL: no event log served */
	uint64_t stuck_logged;          /* CLOCK_MONOTONIC ns until which a stuck writer
					   is not logged again */
	/* resets prepared by the SET in progress (snmpd runs one at a time) */
	struct fastmib_reset_plan **plans;
	unsigned int n_plans, cap_plans;
};

struct fastmib_agent {
	uint64_t start_ns; /* realtime when agent uptime was 0 */
	struct fma_seg **segs;
	unsigned int n_segs;
	unsigned int alarm;
	unsigned int ev_alarm;
	uint32_t ev_history;
	/* notifications */
	unsigned int notify_rate, notify_burst;
	struct fastmib_agent_bucket bucket;
	uint64_t sent, suppressed, suppressed_logged;
	uint64_t suppress_log_ns; /* monotonic time of the last such log line */
	struct fastmib_event_rec *evbuf; /* FMA_EV_CHUNK records */
};

/* ---- schema index ---- */

static int
fma_cmp_col(const void *a, const void *b)
{
	const struct fma_col *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

static int
fma_cmp_group(const void *a, const void *b)
{
	const struct fma_group *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

static void
fma_free_index(struct fma_seg *s)
{
	for (uint32_t g = 0; g < s->n_groups; g++)
		free(s->groups[g].cols);
	free(s->groups);
	free(s->snap_values);
	s->groups = NULL;
	s->n_groups = 0;
	s->snap_values = NULL;
	s->n_snaps = 0;
}

/*
 * Sort groups and columns once per attach, so that every request is a
 * binary search. Also rejects what the OID layout cannot express, since a
 * segment is data from another process and is not trusted blindly.
 */
static int
fma_build_index(struct fma_seg *s, char *why, size_t whylen)
{
	const struct fastmib_schema *sc = s->schema;
	uint32_t max_counters = 1;

	if (sc->oid_len < 1 || sc->oid_len > FASTMIB_MAX_OID_LEN ||
	    sc->oid_len + FMA_MAX_SUFFIX > MAX_OID_LEN) {
		snprintf(why, whylen, "module root has %u arcs", sc->oid_len);
		return -EPROTO;
	}
	s->groups = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*s->groups));
	if (!s->groups)
		return -ENOMEM;
	s->n_groups = sc->n_groups;
	for (uint32_t g = 0; g < sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &sc->groups[g];
		struct fma_group *fg = &s->groups[g];

		fg->arc = gs->arc;
		fg->id = g;
		fg->gs = gs;
		if (gs->arc < 1 || gs->arc > FASTMIB_MAX_ARC ||
		    gs->n_indexes > FASTMIB_MAX_INDEXES ||
		    (gs->n_indexes == 0 && gs->n_rows != 1)) {
			snprintf(why, whylen, "group %s: bad arc or shape", gs->name);
			return -EPROTO;
		}
		fg->n_cols = gs->n_counters + 2;
		fg->cols = calloc(fg->n_cols, sizeof(*fg->cols));
		if (!fg->cols)
			return -ENOMEM;
		for (uint32_t c = 0; c < gs->n_counters; c++) {
			uint32_t arc = gs->counters[c].arc;

			if (arc < 1 || arc > FASTMIB_MAX_ARC) {
				snprintf(why, whylen, "counter %s.%s: arc %u",
					 gs->name, gs->counters[c].name, arc);
				return -EPROTO;
			}
			fg->cols[c] = (struct fma_col){ arc, FMA_COUNTER, c };
		}
		fg->cols[gs->n_counters] =
			(struct fma_col){ FASTMIB_ARC_RESET, FMA_RESET, 0 };
		fg->cols[gs->n_counters + 1] =
			(struct fma_col){ FASTMIB_ARC_DISCONT, FMA_DISCONT, 0 };
		qsort(fg->cols, fg->n_cols, sizeof(*fg->cols), fma_cmp_col);
		for (uint32_t c = 1; c < fg->n_cols; c++) {
			if (fg->cols[c].arc == fg->cols[c - 1].arc) {
				snprintf(why, whylen, "group %s: arc %u used twice",
					 gs->name, fg->cols[c].arc);
				return -EPROTO;
			}
		}
		if (gs->n_counters > max_counters)
			max_counters = gs->n_counters;
	}
	qsort(s->groups, s->n_groups, sizeof(*s->groups), fma_cmp_group);
	for (uint32_t g = 1; g < s->n_groups; g++) {
		if (s->groups[g].arc == s->groups[g - 1].arc) {
			snprintf(why, whylen, "group arc %u used twice",
				 s->groups[g].arc);
			return -EPROTO;
		}
	}
	s->snap_values = calloc((size_t)FMA_SNAP_SLOTS * max_counters,
				sizeof(uint64_t));
	if (!s->snap_values)
		return -ENOMEM;
	for (unsigned int i = 0; i < FMA_SNAP_SLOTS; i++)
		s->snaps[i].values = s->snap_values + (size_t)i * max_counters;
	s->root_len = sc->oid_len;
	for (uint32_t i = 0; i < sc->oid_len; i++)
		s->root[i] = sc->oid[i];
	return 0;
}

/*
 * Lower bound of `arc` among the n elements of `size` bytes at `base`,
 * sorted by the uint32_t arc at byte `off` of each: the index of the first
 * element whose arc is >= arc (n if none). Groups, columns and event
 * statistics all keep such arrays, so one search serves them all.
 */
static uint32_t
fma_arc_lower_bound(const void *base, uint32_t n, size_t size, size_t off, uint64_t arc)
{
	const unsigned char *p = base;
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (*(const uint32_t *)(p + (size_t)mid * size + off) < arc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct fma_group *
fma_find_group(const struct fma_seg *s, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = fma_arc_lower_bound(s->groups, s->n_groups, sizeof(*s->groups),
					  offsetof(struct fma_group, arc), arc);

	if (pos)
		*pos = lo;
	return lo < s->n_groups && s->groups[lo].arc == arc ? &s->groups[lo] : NULL;
}

static const struct fma_col *
fma_find_col(const struct fma_group *g, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = fma_arc_lower_bound(g->cols, g->n_cols, sizeof(*g->cols),
					  offsetof(struct fma_col, arc), arc);

	if (pos)
		*pos = lo;
	return lo < g->n_cols && g->cols[lo].arc == arc ? &g->cols[lo] : NULL;
}

/* ---- rows ---- */

static bool
fma_present(const struct fma_seg *s, const struct fma_group *g, uint32_t row)
{
	if (g->gs->n_indexes == 0 || g->gs->all_rows)
		return true;
	return fastmib_row_present(s->seg, g->id, row);
}

/* First served row >= row, or -1. */
static int64_t
fma_next_present(const struct fma_seg *s, const struct fma_group *g, int64_t row)
{
	int64_t r;

	if (row < 0 || (uint64_t)row >= g->gs->n_rows)
		return -1;
	if (g->gs->all_rows)
		return row;
	r = fastmib_next_row(s->seg, g->id, (uint32_t)row);
	return r < 0 ? -1 : r;
}

/* ---- exact lookup (GET, SET) ---- */

enum fma_found {
	FMA_NO_OBJECT = 0,   /* no object type has this OID */
	FMA_NO_INSTANCE = 1, /* the object type exists, the instance does not */
	FMA_INSTANCE = 2,
};

/* ---- event log objects (R.4) ---- */

static const struct fma_evstat *
fma_evstat_find(const struct fma_events *ev, uint64_t arc, uint32_t *pos)
{
	uint32_t lo = fma_arc_lower_bound(ev->by_arc, ev->n_events, sizeof(*ev->by_arc),
					  offsetof(struct fma_evstat, arc), arc);

	if (pos)
		*pos = lo;
	return lo < ev->n_events && ev->by_arc[lo].arc == arc ? &ev->by_arc[lo] : NULL;
}

/* Arguments a column needs of a record: k for argument k, else 0. */
static uint32_t
fma_evcol_args(uint64_t col)
{
	return col >= FASTMIB_EVCOL_ARG1 ? (uint32_t)(col - FASTMIB_EVCOL_ARG1 + 1) : 0;
}

static bool
fma_evcol_ok(uint64_t col)
{
	return col >= FASTMIB_EVCOL_NAME && col <= FASTMIB_EVCOL_LAST;
}

static bool
fma_stcol_ok(uint64_t col)
{
	return col >= FASTMIB_STCOL_NAME && col <= FASTMIB_STCOL_DROPPED;
}

/* Exact lookup of suffix x[0..n) below R.4. */
static enum fma_found
fma_ev_resolve(const struct fma_seg *s, const uint64_t *x, size_t n,
	       struct fma_ref *ref)
{
	const struct fma_events *ev = s->ev;
	uint32_t n_args;

	if (!ev || n < 3 || x[1] != 1)
		return FMA_NO_OBJECT;
	ref->ecol = (uint32_t)x[2];
	if (x[0] == FASTMIB_ARC_EV_TABLE && fma_evcol_ok(x[2])) {
		ref->kind = FMA_EVENT;
		if (n != 4 || x[3] > FASTMIB_EVHIST_MAX_NUMBER ||
		    !fastmib_evhist_get(&ev->hist, x[3], &n_args) ||
		    n_args < fma_evcol_args(x[2]))
			return FMA_NO_INSTANCE;
		ref->row = (uint32_t)x[3];
		return FMA_INSTANCE;
	}
	if (x[0] == FASTMIB_ARC_EV_STATS && fma_stcol_ok(x[2])) {
		ref->kind = FMA_EVSTAT;
		if (n != 4 || !fma_evstat_find(ev, x[3], NULL))
			return FMA_NO_INSTANCE;
		ref->row = (uint32_t)x[3];
		return FMA_INSTANCE;
	}
	return FMA_NO_OBJECT;
}

/* Next event table instance after column/number suffix x[0..n) below the
 * entry (R.4.1.1). */
static bool
fma_ev_next_table(const struct fma_events *ev, const uint64_t *x, size_t n,
		  struct fma_ref *ref)
{
	uint64_t col = FASTMIB_EVCOL_NAME, from = 0;

	if (n > 0 && x[0] >= FASTMIB_EVCOL_NAME) {
		col = x[0];
		/* an instance is col.number: anything at or below col.k sorts
		 * before col.(k+1) */
		from = n == 1 ? 0 : x[1] + 1;
	}
	for (; col <= FASTMIB_EVCOL_LAST; col++, from = 0) {
		int64_t num;

		if (from > FASTMIB_EVHIST_MAX_NUMBER)
			continue;
		num = fastmib_evhist_next(&ev->hist, from, fma_evcol_args(col));
		if (num < 0)
			continue;
		ref->kind = FMA_EVENT;
		ref->ecol = (uint32_t)col;
		ref->row = (uint32_t)num;
		return true;
	}
	return false;
}

/* Next statistics instance after suffix x[0..n) below the entry (R.4.2.1). */
static bool
fma_ev_next_stats(const struct fma_events *ev, const uint64_t *x, size_t n,
		  struct fma_ref *ref)
{
	uint64_t col = FASTMIB_STCOL_NAME, from = 0;

	if (n > 0 && x[0] >= FASTMIB_STCOL_NAME) {
		col = x[0];
		from = n == 1 ? 0 : x[1] + 1;
	}
	for (; col <= FASTMIB_STCOL_DROPPED; col++, from = 0) {
		uint32_t pos;

		fma_evstat_find(ev, from, &pos);
		if (pos >= ev->n_events)
			continue;
		ref->kind = FMA_EVSTAT;
		ref->ecol = (uint32_t)col;
		ref->row = ev->by_arc[pos].arc;
		return true;
	}
	return false;
}

/* Next instance under R.4 after suffix x[0..n) below R.4 (x NULL: first). */
static bool
fma_ev_next(const struct fma_seg *s, const uint64_t *x, size_t n,
	    struct fma_ref *ref)
{
	const struct fma_events *ev = s->ev;

	if (!ev)
		return false;
	memset(ref, 0, sizeof(*ref));
	/* R.4.0 holds notification types only: no instance before R.4.1 */
	if (n == 0 || x[0] < FASTMIB_ARC_EV_TABLE)
		return fma_ev_next_table(ev, NULL, 0, ref) ||
		       fma_ev_next_stats(ev, NULL, 0, ref);
	if (x[0] == FASTMIB_ARC_EV_TABLE) {
		if (n == 1 || x[1] < 1)
			return fma_ev_next_table(ev, NULL, 0, ref) ||
			       fma_ev_next_stats(ev, NULL, 0, ref);
		if (x[1] == 1 && fma_ev_next_table(ev, x + 2, n - 2, ref))
			return true;
		return fma_ev_next_stats(ev, NULL, 0, ref);
	}
	if (x[0] == FASTMIB_ARC_EV_STATS) {
		if (n == 1 || x[1] < 1)
			return fma_ev_next_stats(ev, NULL, 0, ref);
		return x[1] == 1 && fma_ev_next_stats(ev, x + 2, n - 2, ref);
	}
	return false;
}

static size_t
fma_ev_oid(const struct fma_seg *s, const struct fma_ref *ref, oid *out)
{
	size_t n = s->root_len;

	memcpy(out, s->root, n * sizeof(oid));
	out[n++] = FASTMIB_ARC_EVENTS;
	out[n++] = ref->kind == FMA_EVENT ? FASTMIB_ARC_EV_TABLE : FASTMIB_ARC_EV_STATS;
	out[n++] = 1;
	out[n++] = ref->ecol;
	out[n++] = ref->row;
	return n;
}

static void
fma_set_c64(netsnmp_variable_list *vb, uint64_t v)
{
	struct counter64 c64 = { .high = v >> 32, .low = v & 0xffffffffu };

	snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
}

static void
fma_set_string(netsnmp_variable_list *vb, const char *str)
{
	size_t len = strlen(str);

	/* DisplayString: at most 255 octets */
	snmp_set_var_typed_value(vb, ASN_OCTET_STR, str, len > 255 ? 255 : len);
}

/* Value of one event table cell: record `rec` numbered `num`. */
static void
fma_ev_cell(const struct fastmib_schema *sc, const struct fastmib_event_rec *rec,
	    uint32_t col, netsnmp_variable_list *vb)
{
	const struct fastmib_event_schema *es = &sc->events[rec->event];
	uint8_t dt[FASTMIB_AGENT_DATETIME_LEN];

	switch (col) {
	case FASTMIB_EVCOL_NAME:
		fma_set_string(vb, es->name);
		break;
	case FASTMIB_EVCOL_ID:
		snmp_set_var_typed_integer(vb, ASN_UNSIGNED, es->arc);
		break;
	case FASTMIB_EVCOL_TIME:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, dt,
					 fastmib_agent_date_and_time(rec->time_ns, dt));
		break;
	case FASTMIB_EVCOL_LCORE:
		snmp_set_var_typed_integer(vb, ASN_UNSIGNED, rec->slot);
		break;
	case FASTMIB_EVCOL_LAG_CYCLES:
		fma_set_c64(vb, rec->lag);
		break;
	case FASTMIB_EVCOL_LAG_NS:
		fma_set_c64(vb, rec->lag_ns);
		break;
	default: /* arguments: the 64-bit value as stored (int32 sign-extended) */
		fma_set_c64(vb, rec->args[col - FASTMIB_EVCOL_ARG1]);
		break;
	}
}

static int
fma_ev_value(struct fma_seg *s, const struct fma_ref *ref, netsnmp_variable_list *vb)
{
	const struct fma_evstat *st;
	const struct fastmib_event_rec *rec;

	if (ref->kind == FMA_EVENT) {
		rec = fastmib_evhist_get(&s->ev->hist, ref->row, NULL);
		if (!rec)
			return -ENOENT;
		fma_ev_cell(s->schema, rec, ref->ecol, vb);
		return 0;
	}
	st = fma_evstat_find(s->ev, ref->row, NULL);
	if (!st)
		return -ENOENT;
	switch (ref->ecol) {
	case FASTMIB_STCOL_NAME:
		fma_set_string(vb, s->schema->events[st->event].name);
		break;
	case FASTMIB_STCOL_LOGGED:
		fma_set_c64(vb, fastmib_event_logged(s->seg, st->event));
		break;
	default:
		fma_set_c64(vb, fastmib_event_dropped(s->seg, st->event));
		break;
	}
	return 0;
}

static enum fma_found
fma_resolve(const struct fma_seg *s, const uint64_t *x, size_t n,
	    struct fma_ref *ref)
{
	const struct fma_group *g;
	int64_t row;

	memset(ref, 0, sizeof(*ref));
	if (n >= 1 && x[0] == FASTMIB_ARC_EVENTS)
		return fma_ev_resolve(s, x + 1, n - 1, ref);
	if (n >= 2 && x[0] == 2 && (x[1] == 1 || x[1] == 2)) {
		ref->kind = x[1] == 1 ? FMA_RESET : FMA_DISCONT;
		return n == 3 && x[2] == 0 ? FMA_INSTANCE : FMA_NO_INSTANCE;
	}
	if (n < 3 || x[0] != 1 || !(g = fma_find_group(s, x[1], NULL)))
		return FMA_NO_OBJECT;
	ref->group = g;
	if (g->gs->n_indexes == 0) {
		ref->col = fma_find_col(g, x[2], NULL);
		if (!ref->col)
			return FMA_NO_OBJECT;
		ref->kind = ref->col->kind;
		return n == 4 && x[3] == 0 ? FMA_INSTANCE : FMA_NO_INSTANCE;
	}
	if (n < 4 || x[2] != 1 || !(ref->col = fma_find_col(g, x[3], NULL)))
		return FMA_NO_OBJECT;
	ref->kind = ref->col->kind;
	row = fastmib_row_of_index(g->gs, x + 4, n - 4);
	if (row < 0 || !fma_present(s, g, (uint32_t)row))
		return FMA_NO_INSTANCE;
	ref->row = (uint32_t)row;
	return FMA_INSTANCE;
}

/* ---- next lookup (GETNEXT) ---- */

/* Next instance of a scalar group after suffix x[0..n) (below R.1.G). */
static bool
fma_next_scalar(const struct fma_group *g, const uint64_t *x, size_t n,
		struct fma_ref *ref)
{
	uint32_t ci = 0;

	if (n > 0) {
		const struct fma_col *c = fma_find_col(g, x[0], &ci);

		/* R.1.G.C itself precedes R.1.G.C.0; anything below it does not */
		if (c && n > 1)
			ci++;
	}
	if (ci >= g->n_cols)
		return false;
	ref->group = g;
	ref->col = &g->cols[ci];
	ref->kind = ref->col->kind;
	ref->row = 0;
	return true;
}

/* Next instance of a table group after suffix x[0..n) (below R.1.G). */
static bool
fma_next_table(const struct fma_seg *s, const struct fma_group *g,
	       const uint64_t *x, size_t n, struct fma_ref *ref)
{
	uint32_t ci = 0;
	int64_t row = -1;

	if (n > 0 && x[0] > 1)
		return false;
	if (n > 1 && x[0] == 1 && fma_find_col(g, x[1], &ci)) {
		/* inside column ci: the next row of it, else the next column */
		row = fma_next_present(s, g,
				       fastmib_agent_row_after(g->gs, x + 2, n - 2));
		if (row < 0)
			ci++;
	}
	if (row < 0) {
		/* every column serves the same rows: the first one, if any */
		row = fma_next_present(s, g, 0);
		if (row < 0)
			return false;
	}
	if (ci >= g->n_cols)
		return false;
	ref->group = g;
	ref->col = &g->cols[ci];
	ref->kind = ref->col->kind;
	ref->row = (uint32_t)row;
	return true;
}

static bool
fma_next_in_group(const struct fma_seg *s, const struct fma_group *g,
		  const uint64_t *x, size_t n, struct fma_ref *ref)
{
	if (g->gs->n_indexes == 0)
		return fma_next_scalar(g, x, n, ref);
	return fma_next_table(s, g, x, n, ref);
}

/* Next instance under R.1 after suffix x[0..n) (below R.1). */
static bool
fma_next_objects(const struct fma_seg *s, const uint64_t *x, size_t n,
		 struct fma_ref *ref)
{
	uint32_t gi = 0;

	if (n > 0) {
		const struct fma_group *g = fma_find_group(s, x[0], &gi);

		if (g) {
			if (fma_next_in_group(s, g, x + 1, n - 1, ref))
				return true;
			gi++;
		}
	}
	for (; gi < s->n_groups; gi++)
		if (fma_next_in_group(s, &s->groups[gi], NULL, 0, ref))
			return true;
	return false;
}

/* Next instance under R.2 after suffix x[0..n) (below R.2). */
static bool
fma_next_module(const uint64_t *x, size_t n, struct fma_ref *ref)
{
	uint64_t arc = 1;

	if (n > 0 && x[0] >= 1)
		arc = n == 1 ? x[0] : x[0] + 1;
	if (arc > 2)
		return false;
	memset(ref, 0, sizeof(*ref));
	ref->kind = arc == 1 ? FMA_RESET : FMA_DISCONT;
	return true;
}

/*
 * Smallest instance under R whose OID is greater than `name` (or equal,
 * when `inclusive`). The work is a few binary searches plus one
 * fastmib_next_row(), whatever the table size.
 */
static bool
fma_next(const struct fma_seg *s, const oid *name, size_t len, bool inclusive,
	 struct fma_ref *ref)
{
	uint64_t x[FMA_MAX_SUFFIX + 1];
	size_t n = 0, common = len < s->root_len ? len : s->root_len;

	for (size_t i = 0; i < common; i++) {
		if (name[i] < s->root[i])
			goto first;
		if (name[i] > s->root[i])
			return false;
	}
	if (len <= s->root_len)
		goto first;
	/* Deeper than any instance: only the first FMA_MAX_SUFFIX + 1 arcs
	 * matter for the order (a longer OID sorts after its prefix). */
	n = len - s->root_len;
	if (n > FMA_MAX_SUFFIX + 1)
		n = FMA_MAX_SUFFIX + 1;
	for (size_t i = 0; i < n; i++)
		x[i] = name[s->root_len + i];
	if (inclusive && fma_resolve(s, x, n, ref) == FMA_INSTANCE)
		return true;
	if (x[0] < 1)
		goto first;
	if (x[0] == 1) {
		if (fma_next_objects(s, x + 1, n - 1, ref))
			return true;
		return fma_next_module(NULL, 0, ref);
	}
	if (x[0] == 2 && fma_next_module(x + 1, n - 1, ref))
		return true;
	/* R.3 is conformance: no instances, on to the event log */
	if (x[0] < FASTMIB_ARC_EVENTS)
		return fma_ev_next(s, NULL, 0, ref);
	if (x[0] == FASTMIB_ARC_EVENTS)
		return fma_ev_next(s, x + 1, n - 1, ref);
	return false;
first:
	if (fma_next_objects(s, NULL, 0, ref))
		return true;
	return fma_next_module(NULL, 0, ref);
}

/* Full OID of a resolved instance; returns its length. */
static size_t
fma_ref_oid(const struct fma_seg *s, const struct fma_ref *ref, oid *out)
{
	size_t n = s->root_len;

	if (ref->kind == FMA_EVENT || ref->kind == FMA_EVSTAT)
		return fma_ev_oid(s, ref, out);
	memcpy(out, s->root, n * sizeof(oid));
	if (!ref->group) {
		out[n++] = 2;
		out[n++] = ref->kind == FMA_RESET ? 1 : 2;
		out[n++] = 0;
		return n;
	}
	out[n++] = 1;
	out[n++] = ref->group->arc;
	if (ref->group->gs->n_indexes == 0) {
		out[n++] = ref->col->arc;
		out[n++] = 0;
		return n;
	}
	out[n++] = 1;
	out[n++] = ref->col->arc;
	{
		uint32_t idx[FASTMIB_MAX_INDEXES];

		fastmib_index_of_row(ref->group->gs, ref->row, idx);
		for (uint32_t k = 0; k < ref->group->gs->n_indexes; k++)
			out[n++] = idx[k];
	}
	return n;
}

/* ---- values ---- */

static uint64_t
fma_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* fastmib_read(), which waits out a writer that is only preempted (see
 * reader.h); a writer it takes as stuck is logged once per hold-off. */
static int
fma_read(struct fma_seg *s, unsigned int group, uint32_t row, uint64_t *values)
{
	int rc = fastmib_read(s->seg, group, row, values);
	uint64_t now;

	if (rc == -EBUSY && (now = fma_clock_ns(CLOCK_MONOTONIC)) >= s->stuck_logged) {
		s->stuck_logged = now + FASTMIB_READ_HOLDOFF_NS;
		snmp_log(LOG_WARNING, "fastmib: %s: a writer stays inside a transaction; "
			 "best-effort values for the next second\n", s->path);
	}
	return rc;
}

static const struct fma_snap *
fma_snapshot(struct fma_seg *s, const struct fma_group *g, uint32_t row)
{
	struct fma_snap *sn;

	for (unsigned int i = 0; i < s->n_snaps; i++)
		if (s->snaps[i].group == g && s->snaps[i].row == row)
			return &s->snaps[i];
	sn = &s->snaps[s->next_snap];
	s->next_snap = (s->next_snap + 1) % FMA_SNAP_SLOTS;
	if (s->n_snaps < FMA_SNAP_SLOTS)
		s->n_snaps++;
	sn->group = g;
	sn->row = row;
	sn->rc = fma_read(s, g->id, row, sn->values);
	if (sn->rc == -EBUSY)
		DEBUGMSGTL(("fastmib", "%s: group %s row %" PRIu32
			    ": writer stalled, best-effort values\n",
			    s->path, g->gs->name, row));
	return sn;
}

/*
 * Realtime instant at which the agent's sysUpTime was 0. Net-SNMP 5.9
 * keeps its start time as a gettimeofday() value: taken from there, the
 * instant is the same however often it is computed, so a module re-loaded
 * by snmpd reports the same TimeStamps as before. The estimate from the
 * uptime (truncated to centiseconds) is the fallback should the library
 * ever keep another clock.
 */
static uint64_t
fma_agent_start_ns(void)
{
	const struct timeval *tv = netsnmp_get_agent_starttime();
	uint64_t now = fma_clock_ns(CLOCK_REALTIME);
	uint64_t up = (uint64_t)netsnmp_get_agent_uptime() * 10000000u;

	if (tv) {
		uint64_t s = (uint64_t)tv->tv_sec * 1000000000u +
			     (uint64_t)tv->tv_usec * 1000u;

		if (s <= now && now - s >= up && now - s - up < 1000000000u)
			return s;
	}
	return now - up;
}

/* Store the value of `ref` into `vb`. -ENOENT when the row went away. */
static int
fma_value(struct fma_seg *s, const struct fma_ref *ref, netsnmp_variable_list *vb)
{
	const struct fma_snap *sn;
	const struct fastmib_counter_schema *cs;
	uint64_t v;

	switch (ref->kind) {
	case FMA_RESET:
		snmp_set_var_typed_integer(vb, ASN_INTEGER, 2); /* false */
		return 0;
	case FMA_DISCONT:
		v = fastmib_discontinuity(s->seg, ref->group ? (int)ref->group->id : -1,
					  ref->row);
		snmp_set_var_typed_integer(
			vb, ASN_TIMETICKS,
			fastmib_agent_timestamp(v, s->agent->start_ns,
						netsnmp_get_agent_uptime()));
		return 0;
	case FMA_EVENT:
	case FMA_EVSTAT:
		return fma_ev_value(s, ref, vb);
	case FMA_COUNTER:
		break;
	}
	sn = fma_snapshot(s, ref->group, ref->row);
	if (sn->rc < 0 && sn->rc != -EBUSY)
		return sn->rc;
	cs = &ref->group->gs->counters[ref->col->counter];
	v = sn->values[ref->col->counter];
	switch (cs->type) {
	case FASTMIB_COUNTER32:
		snmp_set_var_typed_integer(vb, ASN_COUNTER, fastmib_agent_counter32(v));
		break;
	case FASTMIB_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE, fastmib_agent_gauge32(v));
		break;
	default: {
		struct counter64 c64 = { .high = v >> 32, .low = v & 0xffffffffu };

		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
		break;
	}
	}
	return 0;
}

/* ---- event log: copying and notifications ---- */

static const oid fma_snmp_trap_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };

/* Add column `col` of record `num` to a notification's varbinds. */
static void
fma_notify_add(const struct fma_seg *s, netsnmp_variable_list **vars, uint32_t num,
	       const struct fastmib_event_rec *rec, uint32_t col)
{
	netsnmp_variable_list *vb;
	struct fma_ref ref = { .kind = FMA_EVENT, .ecol = col, .row = num };
	oid name[MAX_OID_LEN];
	size_t len = fma_ev_oid(s, &ref, name);

	vb = snmp_varlist_add_variable(vars, name, len, ASN_NULL, NULL, 0);
	if (vb)
		fma_ev_cell(s->schema, rec, col, vb);
}

/*
 * Send the NOTIFICATION-TYPE R.4.0.<arc> of record `num`: snmpTrapOID,
 * then the OBJECTS of the generated MIB (name, time, lcore, the event's
 * arguments), instantiated with the event number. Net-SNMP puts sysUpTime
 * first and hands it to the master agent (AgentX), to the trap sinks of
 * the configuration (standalone) or to snmpd's sinks (module).
 */
static void
fma_notify(struct fma_seg *s, uint32_t num, const struct fastmib_event_rec *rec)
{
	struct fastmib_agent *a = s->agent;
	const struct fastmib_event_schema *es = &s->schema->events[rec->event];
	netsnmp_variable_list *vars = NULL;
	oid trap[MAX_OID_LEN];
	size_t n = s->root_len;

	if (!fastmib_agent_bucket_take(&a->bucket, fma_clock_ns(CLOCK_MONOTONIC))) {
		a->suppressed++;
		return;
	}
	memcpy(trap, s->root, n * sizeof(oid));
	trap[n++] = FASTMIB_ARC_EVENTS;
	trap[n++] = FASTMIB_ARC_EV_NOTIFS;
	trap[n++] = es->arc;
	snmp_varlist_add_variable(&vars, fma_snmp_trap_oid,
				  OID_LENGTH(fma_snmp_trap_oid), ASN_OBJECT_ID,
				  trap, n * sizeof(oid));
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_NAME);
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_TIME);
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_LCORE);
	for (uint32_t k = 0; k < es->n_args && k < FASTMIB_MAX_EVENT_ARGS; k++)
		fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_ARG1 + k);
	send_v2trap(vars);
	snmp_free_varbind(vars);
	a->sent++;
	DEBUGMSGTL(("fastmib", "%s: notification %s, event number %" PRIu32 "\n",
		    s->path, es->name, num));
}

/*
 * Copy the records logged since the last poll into the history, bounded
 * by FMA_EV_POLL_MAX per call (the rest waits for the next one). The copy
 * made at attach sends no notification: those records were logged before
 * this agent was watching, perhaps long ago.
 */
static void
fma_ev_poll(struct fma_seg *s)
{
	struct fma_events *ev = s->ev;
	struct fastmib_agent *a = s->agent;
	uint64_t restarts = ev->hist.restarts, dropped;
	unsigned int total = 0;

	while (total < FMA_EV_POLL_MAX) {
		int got = fastmib_events_poll(s->seg, ev->cur, a->evbuf, FMA_EV_CHUNK);

		if (got < 0) {
			DEBUGMSGTL(("fastmib", "%s: event poll: %s\n", s->path,
				    strerror(-got)));
			break;
		}
		for (int i = 0; i < got; i++) {
			const struct fastmib_event_rec *rec = &a->evbuf[i];
			const struct fastmib_event_schema *es;
			uint32_t num;

			if (rec->event >= s->schema->n_events)
				continue; /* not from a sound writer: skip it */
			es = &s->schema->events[rec->event];
			num = fastmib_evhist_push(&ev->hist, rec, es->n_args);
			if (ev->primed && es->notify)
				fma_notify(s, num, rec);
		}
		total += (unsigned int)got;
		if ((unsigned int)got < FMA_EV_CHUNK)
			break;
	}
	ev->primed = true;
	if (ev->hist.restarts != restarts)
		snmp_log(LOG_NOTICE, "fastmib: %s: event numbers exhausted, "
			 "history restarts at 1\n", s->path);
	dropped = fastmib_event_cursor_dropped(ev->cur);
	if (dropped != ev->dropped_seen) {
		DEBUGMSGTL(("fastmib", "%s: %" PRIu64 " event records overwritten "
			    "before they could be copied\n", s->path,
			    dropped - ev->dropped_seen));
		ev->dropped_seen = dropped;
	}
}

/* Suppressed notifications: one log line a second at most. */
static void
fma_log_suppressed(struct fastmib_agent *a)
{
	uint64_t now;

	if (a->suppressed == a->suppressed_logged)
		return;
	now = fma_clock_ns(CLOCK_MONOTONIC);
	if (a->suppress_log_ns && now - a->suppress_log_ns < 1000000000u)
		return;
	snmp_log(LOG_WARNING, "fastmib: %" PRIu64 " notification(s) suppressed by "
		 "the rate limit (%u/s, burst %u); %" PRIu64 " in total\n",
		 a->suppressed - a->suppressed_logged, a->notify_rate,
		 a->notify_burst, a->suppressed);
	a->suppressed_logged = a->suppressed;
	a->suppress_log_ns = now;
}

void
fastmib_agent_poll_events(struct fastmib_agent *agent)
{
	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *s = agent->segs[i];

		if (s->seg && s->ev)
			fma_ev_poll(s);
	}
	fma_log_suppressed(agent);
}

static void
fma_ev_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fastmib_agent_poll_events(arg);
}

static void
fma_ev_free(struct fma_seg *s)
{
	if (!s->ev)
		return;
	if (s->ev->cur)
		fastmib_event_cursor_free(s->ev->cur);
	fastmib_evhist_free(&s->ev->hist);
	free(s->ev->by_arc);
	free(s->ev);
	s->ev = NULL;
}

static int
fma_cmp_evstat(const void *a, const void *b)
{
	const struct fma_evstat *x = a, *y = b;

	return (x->arc > y->arc) - (x->arc < y->arc);
}

/*
 * Event state of a newly attached segment: statistics rows by arc, a new
 * history (numbers from 1) and a cursor at the oldest record the rings
 * hold, which the first poll copies without notifications.
 */
static int
fma_ev_attach(struct fma_seg *s, char *why, size_t whylen)
{
	const struct fastmib_schema *sc = s->schema;
	struct fma_events *ev;
	int rc;

	if (sc->n_events == 0)
		return 0;
	if (sc->n_events > FASTMIB_MAX_EVENTS) {
		snprintf(why, whylen, "%u events", sc->n_events);
		return -EPROTO;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	s->ev = ev;
	ev->by_arc = calloc(sc->n_events, sizeof(*ev->by_arc));
	if (!ev->by_arc)
		return -ENOMEM;
	ev->n_events = sc->n_events;
	for (uint32_t e = 0; e < sc->n_events; e++) {
		const struct fastmib_event_schema *es = &sc->events[e];

		if (es->arc < 1 || es->arc > FASTMIB_MAX_ARC ||
		    es->n_args > FASTMIB_MAX_EVENT_ARGS) {
			snprintf(why, whylen, "event %s: bad arc or arguments", es->name);
			return -EPROTO;
		}
		ev->by_arc[e] = (struct fma_evstat){ es->arc, e };
	}
	qsort(ev->by_arc, ev->n_events, sizeof(*ev->by_arc), fma_cmp_evstat);
	for (uint32_t e = 1; e < ev->n_events; e++) {
		if (ev->by_arc[e].arc == ev->by_arc[e - 1].arc) {
			snprintf(why, whylen, "event arc %u used twice",
				 ev->by_arc[e].arc);
			return -EPROTO;
		}
	}
	rc = fastmib_evhist_init(&ev->hist, s->agent->ev_history);
	if (rc < 0)
		return rc;
	rc = fastmib_event_cursor_new(s->seg, &ev->cur);
	if (rc < 0) {
		snprintf(why, whylen, "event cursor: %s", fastmib_last_error());
		return rc;
	}
	fma_ev_poll(s);
	return 0;
}

/* Might this request reach R.4 (so that it should see the newest records)? */
static bool
fma_touches_events(const struct fma_seg *s, int mode, netsnmp_request_info *requests)
{
	if (!s->ev || (mode != MODE_GET && mode != MODE_GETNEXT))
		return false;
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		const netsnmp_variable_list *vb = r->requestvb;

		if (r->processed)
			continue;
		if (vb->name_length <= s->root_len ||
		    netsnmp_oid_equals(vb->name, s->root_len, s->root, s->root_len) != 0)
			continue;
		/* a GETNEXT from R.2 or R.3 moves on into R.4 */
		if (vb->name[s->root_len] == FASTMIB_ARC_EVENTS ||
		    (mode == MODE_GETNEXT && vb->name[s->root_len] >= 2 &&
		     vb->name[s->root_len] < FASTMIB_ARC_EVENTS))
			return true;
	}
	return false;
}

/* ---- handler ---- */

static size_t
fma_suffix(const struct fma_seg *s, const netsnmp_variable_list *vb, uint64_t *x)
{
	size_t n;

	if (vb->name_length <= s->root_len ||
	    netsnmp_oid_equals(vb->name, s->root_len, s->root, s->root_len) != 0)
		return 0;
	n = vb->name_length - s->root_len;
	if (n > FMA_MAX_SUFFIX + 1)
		n = FMA_MAX_SUFFIX + 1; /* too long for any instance anyway */
	for (size_t i = 0; i < n; i++)
		x[i] = vb->name[s->root_len + i];
	return n;
}

static void
fma_get(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
	netsnmp_request_info *r)
{
	uint64_t x[FMA_MAX_SUFFIX + 1];
	size_t n = fma_suffix(s, r->requestvb, x);
	struct fma_ref ref;

	switch (fma_resolve(s, x, n, &ref)) {
	case FMA_INSTANCE:
		if (fma_value(s, &ref, r->requestvb) == 0)
			return;
		/* the row went away meanwhile */
		__attribute__((fallthrough));
	case FMA_NO_INSTANCE:
		netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
		return;
	case FMA_NO_OBJECT:
		netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
		return;
	}
}

static void
fma_getnext(struct fma_seg *s, netsnmp_request_info *r)
{
	oid name[MAX_OID_LEN];
	size_t len = r->requestvb->name_length;
	bool inclusive = r->inclusive;
	struct fma_ref ref;

	if (len > MAX_OID_LEN)
		len = MAX_OID_LEN;
	memcpy(name, r->requestvb->name, len * sizeof(oid));
	/* Bounded: a row found present may vanish before it is read; then
	 * look again after it. */
	for (int tries = 0; tries < 64; tries++) {
		if (!fma_next(s, name, len, inclusive, &ref))
			return; /* unanswered: the agent moves on past R */
		len = fma_ref_oid(s, &ref, name);
		inclusive = false;
		if (fma_value(s, &ref, r->requestvb) == 0) {
			snmp_set_var_objid(r->requestvb, name, len);
			return;
		}
	}
}

/* RESERVE1: every check, in the order of RFC 3416 section 4.2.5. */
static int
fma_set_check(const struct fma_seg *s, const netsnmp_variable_list *vb)
{
	uint64_t x[FMA_MAX_SUFFIX + 1];
	size_t n = fma_suffix(s, vb, x);
	struct fma_ref ref;
	enum fma_found f = fma_resolve(s, x, n, &ref);
	int err;

	if (f == FMA_NO_OBJECT || ref.kind != FMA_RESET)
		return SNMP_ERR_NOTWRITABLE;
	err = netsnmp_check_vb_truthvalue(vb);
	if (err != SNMP_ERR_NOERROR)
		return err;
	if (f != FMA_INSTANCE)
		return SNMP_ERR_NOCREATION;
	if (!s->writable)
		return SNMP_ERR_RESOURCEUNAVAILABLE;
	return SNMP_ERR_NOERROR;
}

/*
 * ACTION: for true(1), take the reset's snapshots (false(2) is accepted and
 * does nothing). Everything that can fail fails here, where a failure is
 * answered commitFailed in every front end and no varbind has changed
 * anything yet; COMMIT then stores the baselines and cannot fail. (An
 * AgentX subagent runs COMMIT on the master's CleanupSet, whose outcome is
 * never reported: failing there would be answered noError.)
 */
static int
fma_set_action(struct fma_seg *s, const netsnmp_variable_list *vb)
{
	uint64_t x[FMA_MAX_SUFFIX + 1];
	size_t n = fma_suffix(s, vb, x);
	struct fastmib_reset_plan *plan;
	struct fma_ref ref;

	if (*vb->val.integer != 1)
		return SNMP_ERR_NOERROR;
	if (fma_resolve(s, x, n, &ref) != FMA_INSTANCE || ref.kind != FMA_RESET)
		return SNMP_ERR_COMMITFAILED;
	if (s->n_plans == s->cap_plans) {
		unsigned int cap = s->cap_plans ? 2 * s->cap_plans : 8;
		struct fastmib_reset_plan **p = realloc(s->plans, cap * sizeof(*p));

		if (!p)
			return SNMP_ERR_RESOURCEUNAVAILABLE;
		s->plans = p;
		s->cap_plans = cap;
	}
	if (fastmib_reset_prepare(s->seg, ref.group ? (int)ref.group->id : -1, ref.row,
				  &plan) < 0) {
		snmp_log(LOG_ERR, "fastmib: %s: reset failed: %s\n", s->path,
			 fastmib_last_error());
		return SNMP_ERR_COMMITFAILED;
	}
	s->plans[s->n_plans++] = plan;
	DEBUGMSGTL(("fastmib", "%s: reset %s row %" PRIu32 " prepared\n", s->path,
		    ref.group ? ref.group->gs->name : "(all)", ref.row));
	return SNMP_ERR_NOERROR;
}

/* COMMIT stores the prepared resets (once per handler call, not per
 * varbind); UNDO and FREE drop them. */
static void
fma_set_finish(struct fma_seg *s, bool commit)
{
	for (unsigned int i = 0; i < s->n_plans; i++) {
		if (!commit)
			fastmib_reset_abort(s->plans[i]);
		else if (fastmib_reset_commit(s->plans[i]) < 0)
			snmp_log(LOG_ERR, "fastmib: %s: reset failed: %s\n", s->path,
				 fastmib_last_error());
	}
	s->n_plans = 0;
}

static int
fma_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
	    netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct fma_seg *s = handler->myvoid;
	int err;

	(void)reginfo;
	/* snapshots are per request: a later request must read afresh */
	s->n_snaps = 0;
	s->next_snap = 0;
	if (s->seg && fma_touches_events(s, reqinfo->mode, requests))
		fma_ev_poll(s);
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		if (r->processed)
			continue;
		if (!s->seg) {
			/* not attached: nothing here for GET, move on for GETNEXT */
			if (reqinfo->mode == MODE_GET)
				netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
			else if (reqinfo->mode == MODE_SET_RESERVE1)
				netsnmp_set_request_error(reqinfo, r,
							  SNMP_ERR_RESOURCEUNAVAILABLE);
			continue;
		}
		switch (reqinfo->mode) {
		case MODE_GET:
			fma_get(s, reqinfo, r);
			break;
		case MODE_GETNEXT:
			fma_getnext(s, r);
			break;
		case MODE_SET_RESERVE1:
			err = fma_set_check(s, r->requestvb);
			if (err != SNMP_ERR_NOERROR)
				netsnmp_set_request_error(reqinfo, r, err);
			break;
		case MODE_SET_ACTION:
			err = fma_set_action(s, r->requestvb);
			if (err != SNMP_ERR_NOERROR)
				netsnmp_set_request_error(reqinfo, r, err);
			break;
		default: /* RESERVE2, COMMIT, FREE, UNDO: per call, below */
			break;
		}
	}
	/* a SET starts with RESERVE1 (drop what an aborted one left) and ends
	 * with COMMIT, FREE or UNDO */
	if (reqinfo->mode == MODE_SET_COMMIT)
		fma_set_finish(s, true);
	else if (reqinfo->mode == MODE_SET_RESERVE1 || reqinfo->mode == MODE_SET_FREE ||
		 reqinfo->mode == MODE_SET_UNDO)
		fma_set_finish(s, false);
	return SNMP_ERR_NOERROR;
}

/* ---- attach / register ---- */

static void
fma_log_failure(struct fma_seg *s, int rc, const char *msg)
{
	if (rc == s->last_rc && strcmp(msg, s->last_msg) == 0)
		return;
	s->last_rc = rc;
	snprintf(s->last_msg, sizeof(s->last_msg), "%s", msg);
	if (rc == -ENOENT)
		snmp_log(LOG_WARNING, "fastmib: %s: segment absent, waiting for it\n",
			 s->path);
	else
		snmp_log(LOG_ERR, "fastmib: %s: segment refused (%s), retrying\n",
			 s->path, msg);
}

static void
fma_unregister(struct fma_seg *s)
{
	if (s->reg) {
		netsnmp_unregister_handler(s->reg);
		s->reg = NULL;
	}
}

static void
fma_detach(struct fma_seg *s)
{
	fma_unregister(s);
	fma_set_finish(s, false); /* a SET cut short by the detach */
	fma_ev_free(s);
	if (s->seg)
		fastmib_close(s->seg);
	s->seg = NULL;
	s->schema = NULL;
	fma_free_index(s);
}

/* Two registrations where one root is a prefix of the other would split
 * the OID space between two segments: only the first is served. */
static const struct fma_seg *
fma_root_owner(const struct fma_seg *s)
{
	const struct fastmib_agent *a = s->agent;

	for (unsigned int i = 0; i < a->n_segs; i++) {
		const struct fma_seg *o = a->segs[i];
		size_t n = o->root_len < s->root_len ? o->root_len : s->root_len;

		if (o == s || !o->reg)
			continue;
		if (netsnmp_oid_equals(o->root, n, s->root, n) == 0)
			return o;
	}
	return NULL;
}

static int
fma_register(struct fma_seg *s)
{
	netsnmp_handler_registration *reg;
	int rc;

	reg = netsnmp_create_handler_registration(s->schema->module, fma_handler,
						  s->root, s->root_len,
						  HANDLER_CAN_RWRITE);
	if (!reg)
		return -ENOMEM;
	reg->handler->myvoid = s; /* no data_free: the core owns `s` */
	rc = netsnmp_register_handler(reg);
	if (rc != MIB_REGISTERED_OK)
		return -EADDRINUSE;
	s->reg = reg;
	return 0;
}

static void
fma_try_attach(struct fma_seg *s)
{
	struct fastmib_info info;
	char why[256] = "";
	const struct fma_seg *owner;
	int rc;

	rc = fastmib_attach(s->path, 0, &s->seg);
	s->writable = true;
	if (rc == -EACCES || rc == -EPERM || rc == -EROFS) {
		rc = fastmib_attach(s->path, FASTMIB_ATTACH_RDONLY, &s->seg);
		s->writable = false;
	}
	if (rc < 0) {
		s->seg = NULL;
		fma_log_failure(s, rc, fastmib_last_error());
		return;
	}
	s->schema = fastmib_schema(s->seg);
	rc = fma_build_index(s, why, sizeof(why));
	if (rc == 0)
		rc = fma_ev_attach(s, why, sizeof(why));
	if (rc == 0 && (owner = fma_root_owner(s)) != NULL) {
		snprintf(why, sizeof(why), "module %s: its root is already served "
			 "for %s", s->schema->module, owner->path);
		rc = -EADDRINUSE;
	}
	if (rc == 0) {
		rc = fma_register(s);
		if (rc < 0)
			snprintf(why, sizeof(why), "module %s: cannot register its root",
				 s->schema->module);
	}
	if (rc < 0) {
		fma_log_failure(s, rc, why[0] ? why : strerror(-rc));
		fma_detach(s);
		return;
	}
	fastmib_info(s->seg, &info);
	s->last_rc = 0;
	s->last_msg[0] = '\0';
	snmp_log(LOG_INFO, "fastmib: %s: serving %s (generation %" PRIu64 "%s)\n",
		 s->path, s->schema->module, info.generation,
		 s->writable ? "" : ", read-only: resets refused");
	if (s->ev)
		snmp_log(LOG_INFO, "fastmib: %s: event log of %u event(s), history "
			 "of %u records, %u record(s) found\n", s->path,
			 s->schema->n_events, s->ev->hist.cap, s->ev->hist.n);
}

void
fastmib_agent_check(struct fastmib_agent *agent)
{
	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *s = agent->segs[i];

		if (s->seg && fastmib_stale(s->seg)) {
			snmp_log(LOG_INFO, "fastmib: %s: segment replaced or removed\n",
				 s->path);
			fma_detach(s);
		}
	}
	/* after every detach, so that a root freed this round can be taken */
	for (unsigned int i = 0; i < agent->n_segs; i++)
		if (!agent->segs[i]->seg)
			fma_try_attach(agent->segs[i]);
}

static void
fma_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fastmib_agent_check(arg);
}

/* ---- set life cycle ---- */

int
fastmib_agent_create(struct fastmib_agent **agentp)
{
	struct fastmib_agent *a = calloc(1, sizeof(*a));

	if (a)
		a->evbuf = calloc(FMA_EV_CHUNK, sizeof(*a->evbuf));
	if (!a || !a->evbuf) {
		free(a);
		*agentp = NULL;
		return -ENOMEM;
	}
	a->ev_history = FASTMIB_AGENT_EVENT_HISTORY;
	a->notify_rate = FASTMIB_AGENT_NOTIFY_RATE;
	a->notify_burst = FASTMIB_AGENT_NOTIFY_BURST;
	fastmib_agent_bucket_init(&a->bucket, a->notify_rate, a->notify_burst,
				  fma_clock_ns(CLOCK_MONOTONIC));
	*agentp = a;
	return 0;
}

int
fastmib_agent_set_event_history(struct fastmib_agent *agent, unsigned int n)
{
	if (n < 1 || n > FASTMIB_AGENT_EVENT_HISTORY_MAX)
		return -EINVAL;
	agent->ev_history = n;
	return 0;
}

int
fastmib_agent_set_notify_limit(struct fastmib_agent *agent, unsigned int per_s,
			       unsigned int burst)
{
	if (per_s && !burst)
		return -EINVAL;
	if (per_s > 1000000u || burst > 1000000u)
		return -EINVAL;
	agent->notify_rate = per_s;
	agent->notify_burst = burst;
	fastmib_agent_bucket_init(&agent->bucket, per_s, burst, fma_clock_ns(CLOCK_MONOTONIC));
	return 0;
}

void
fastmib_agent_notify_counts(const struct fastmib_agent *agent, uint64_t *sent,
			    uint64_t *suppressed)
{
	*sent = agent->sent;
	*suppressed = agent->suppressed;
}

int
fastmib_agent_add(struct fastmib_agent *agent, const char *path)
{
	struct fma_seg **segs, *s;

	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *o = agent->segs[i];

		if (strcmp(o->path, path) == 0) {
			if (o->confirmed)
				return -EEXIST;
			o->confirmed = true; /* named again in a reload */
			return 0;
		}
	}
	if (agent->n_segs >= FASTMIB_AGENT_MAX_SEGMENTS)
		return -ENOSPC;
	segs = realloc(agent->segs, (agent->n_segs + 1) * sizeof(*segs));
	if (!segs)
		return -ENOMEM;
	agent->segs = segs;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return -ENOMEM;
	}
	s->agent = agent;
	s->confirmed = true;
	agent->segs[agent->n_segs++] = s;
	return 0;
}

static void
fma_seg_free(struct fma_seg *s)
{
	fma_detach(s);
	free(s->plans);
	free(s->path);
	free(s);
}

void
fastmib_agent_reload_begin(struct fastmib_agent *agent)
{
	for (unsigned int i = 0; i < agent->n_segs; i++)
		agent->segs[i]->confirmed = false;
}

unsigned int
fastmib_agent_reload_end(struct fastmib_agent *agent)
{
	unsigned int kept = 0, dropped = 0;

	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *s = agent->segs[i];

		if (s->confirmed) {
			agent->segs[kept++] = s;
			continue;
		}
		snmp_log(LOG_INFO, "fastmib: %s: no longer configured, not served\n",
			 s->path);
		fma_seg_free(s);
		dropped++;
	}
	agent->n_segs = kept;
	/* a root given up just now may be taken by a segment that waited */
	if (agent->alarm)
		fastmib_agent_check(agent);
	return dropped;
}

unsigned int
fastmib_agent_count(const struct fastmib_agent *agent)
{
	return agent->n_segs;
}

unsigned int
fastmib_agent_serving(const struct fastmib_agent *agent)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < agent->n_segs; i++)
		n += agent->segs[i]->reg != NULL;
	return n;
}

int
fastmib_agent_start(struct fastmib_agent *agent, unsigned int period_s)
{
	if (agent->alarm)
		return -EALREADY;
	/* TimeStamps are agent uptimes: taken relative to the agent's start */
	agent->start_ns = fma_agent_start_ns();
	fastmib_agent_check(agent);
	agent->alarm = snmp_alarm_register(period_s ? period_s
					   : FASTMIB_AGENT_CHECK_PERIOD,
					   SA_REPEAT, fma_alarm, agent);
	if (!agent->alarm)
		return -ENOMEM;
	{
		struct timeval tv = { 0, FASTMIB_AGENT_EVENT_PERIOD_MS * 1000 };

		agent->ev_alarm = snmp_alarm_register_hr(tv, SA_REPEAT, fma_ev_alarm,
							 agent);
	}
	return agent->ev_alarm ? 0 : -ENOMEM;
}

void
fastmib_agent_destroy(struct fastmib_agent *agent)
{
	if (!agent)
		return;
	if (agent->alarm)
		snmp_alarm_unregister(agent->alarm);
	if (agent->ev_alarm)
		snmp_alarm_unregister(agent->ev_alarm);
	agent->suppress_log_ns = 0; /* the last count, whenever the one before */
	fma_log_suppressed(agent);
	for (unsigned int i = 0; i < agent->n_segs; i++)
		fma_seg_free(agent->segs[i]);
	free(agent->segs);
	free(agent->evbuf);
	free(agent);
}
