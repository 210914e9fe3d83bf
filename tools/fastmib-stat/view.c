/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What of a segment is shown, and in which order: --match (groups,
 * counters and states), --sort and --top (rows of tables). Built from the options and
 * the segment's schema, once per attach, so that a bad name is reported
 * before anything is printed.
 */
/* qsort_r() and FNM_CASEFOLD are GNU extensions */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/*
 * The names a counter (or a state, or an index) answers to: its model
 * name, the model name qualified by its group ("flow.bytes": the same
 * counter name may be in several groups) and its MIB name ("epFlowBytes").
 */
struct names {
	char model[FASTMIB_MAX_NAME + 1];
	char qualified[2 * FASTMIB_MAX_NAME + 2];
	char mib[NAME_BUF];
};

static void
names_of(struct names *n, const struct fastmib_schema *sc,
	 const struct fastmib_group_schema *g, enum fastmib_name_role role,
	 const char *name)
{
	snprintf(n->model, sizeof(n->model), "%s", name);
	snprintf(n->qualified, sizeof(n->qualified), "%s.%s", g->name, name);
	fastmib_name(n->mib, sizeof(n->mib), role, sc->prefix, g->name, name);
}

static bool
names_equal(const struct names *n, const char *s)
{
	return strcmp(n->model, s) == 0 || strcmp(n->qualified, s) == 0 ||
	       strcmp(n->mib, s) == 0;
}

/*
 * Globs match case-insensitively: MIB names are camelCase, and
 * "*bytes*" should find epGlobalRxBytes as well as flow.bytes.
 */
static bool
glob(const char *pattern, const char *s)
{
	return fnmatch(pattern, s, FNM_CASEFOLD) == 0;
}

static bool
names_match(const struct names *n, const char *pattern)
{
	return glob(pattern, n->model) || glob(pattern, n->qualified) ||
	       glob(pattern, n->mib);
}

/* A group by its model name, its MIB node ("epFlow") or table ("epFlowTable"). */
static bool
group_matches(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	      const char *pattern)
{
	char mib[NAME_BUF];

	if (glob(pattern, g->name))
		return true;
	fastmib_name(mib, sizeof(mib), FASTMIB_MIB_SCALAR_NODE, sc->prefix, g->name, NULL);
	if (glob(pattern, mib))
		return true;
	fastmib_name(mib, sizeof(mib), FASTMIB_MIB_TABLE, sc->prefix, g->name, NULL);
	return g->n_indexes > 0 && glob(pattern, mib);
}

/* How messages end a list of what a name may be: "... or counter", and
 * in a model with states "..., counter or state". */
static const char *
or_counter(const struct fastmib_schema *sc)
{
	return fst_model_has_states(sc) ? ", counter or state" : " or counter";
}

/*
 * Is counter c a column (of a table) or a line (of a scalar list)? Every
 * kind is but a histogram, which is many numbers: it is shown as a block
 * of its own after its group (hist.c), and --output names it to show it.
 */
static bool
shown_kind(const struct fastmib_counter_schema *c)
{
	return c->type != FASTMIB_HISTOGRAM;
}

/* --match: which groups, counters and states; every pattern must find
 * something. A state answers to its names as a counter does (MIB names of
 * both are FASTMIB_MIB_COUNTER's). */
static int
apply_match(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v)
{
	for (uint32_t p = 0; p < o->n_match; p++) {
		bool used = false;

		for (uint32_t i = 0; i < sc->n_groups; i++) {
			const struct fastmib_group_schema *g = &sc->groups[i];
			bool whole = group_matches(sc, g, o->match[p]);
			struct names n;

			for (uint32_t c = 0; c < g->n_counters; c++) {
				names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->counters[c].name);
				if (whole || names_match(&n, o->match[p])) {
					v->g[i].counter[c] = true;
					used = true;
				}
			}
			for (uint32_t s = 0; s < g->n_states; s++) {
				names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->states[s].name);
				if (whole || names_match(&n, o->match[p])) {
					v->g[i].state[s] = true;
					used = true;
				}
			}
		}
		if (!used) {
			fprintf(stderr, "fastmib-stat: --match: '%s' matches no group%s of %s\n",
				o->match[p], or_counter(sc), sc->module);
			return -1;
		}
	}
	return 0;
}

/* What --output may name besides, in a model with histograms. */
static const char *
nor_histogram(const struct fastmib_schema *sc)
{
	for (uint32_t i = 0; i < sc->n_groups; i++)
		if (fastmib_group_has_type(&sc->groups[i], FASTMIB_HISTOGRAM))
			return ", nor a histogram,";
	return "";
}

/* Is `name` a column (index, counter or state) of table `g`? */
static bool
table_column(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	     const char *name, struct tcol *col)
{
	struct names n;

	if (g->n_indexes == 0)
		return false;
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		names_of(&n, sc, g, FASTMIB_MIB_INDEX, g->indexes[k].name);
		if (names_equal(&n, name)) {
			*col = (struct tcol){ .kind = TC_INDEX, .n = (uint16_t)k };
			return true;
		}
	}
	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!shown_kind(&g->counters[c]))
			continue;
		names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->counters[c].name);
		if (names_equal(&n, name)) {
			*col = (struct tcol){ .kind = TC_COUNTER, .n = (uint16_t)c };
			return true;
		}
	}
	for (uint32_t s = 0; s < g->n_states; s++) {
		names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->states[s].name);
		if (names_equal(&n, name)) {
			*col = (struct tcol){ .kind = TC_STATE, .n = (uint16_t)s };
			return true;
		}
	}
	return false;
}

/* Whether column `col` of group view `gv` is one --match shows. */
static bool
col_shown(const struct group_view *gv, struct tcol col)
{
	return col.kind == TC_INDEX || (col.kind == TC_COUNTER ? gv->counter[col.n] :
								 gv->state[col.n]);
}

const char *const fst_list_col_names[LC_N] = {
	[LC_NAME] = "NAME", [LC_VALUE] = "VALUE", [LC_UNITS] = "UNITS",
	[LC_RATE] = "RATE", [LC_TYPE] = "TYPE", [LC_DESCRIPTION] = "DESCRIPTION",
};

static void
add_list_col(struct view *v, enum list_col lc)
{
	for (uint32_t i = 0; i < v->n_list_cols; i++)
		if (v->list_cols[i] == lc)
			return; /* named twice: where it was first */
	v->list_cols[v->n_list_cols++] = lc;
}

static void
add_table_col(struct group_view *gv, struct tcol col)
{
	for (uint32_t i = 0; i < gv->n_cols; i++)
		if (gv->cols[i].kind == col.kind && gv->cols[i].n == col.n)
			return;
	gv->cols[gv->n_cols++] = col;
}

/* One --output word: a list column, or columns of tables. */
static int
output_word(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v,
	    const char *w)
{
	bool found = false;

	for (int lc = 0; lc < LC_N; lc++) {
		if (strcmp(w, fst_list_col_names[lc]) != 0)
			continue;
		if (lc == LC_RATE && o->watch <= 0) {
			fprintf(stderr, "fastmib-stat: --output: RATE goes with --watch\n");
			return -1;
		}
		add_list_col(v, (enum list_col)lc);
		return 0;
	}
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		struct tcol col;

		/* a histogram is shown as its block: named, it is kept */
		for (uint32_t c = 0; c < g->n_counters; c++) {
			struct names n;

			if (g->counters[c].type != FASTMIB_HISTOGRAM)
				continue;
			names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->counters[c].name);
			if (names_equal(&n, w)) {
				found = true;
				v->g[i].named[c] = true;
			}
		}
		if (!table_column(sc, g, w, &col))
			continue;
		found = true;
		if (col_shown(&v->g[i], col))
			add_table_col(&v->g[i], col);
	}
	if (!found) {
		fprintf(stderr, "fastmib-stat: --output: '%s' is neither a column of the "
			"lists (NAME, VALUE, UNITS, RATE, TYPE, DESCRIPTION) nor an index%s of a "
			"table%s of %s\n", w, or_counter(sc), nor_histogram(sc), sc->module);
		return -1;
	}
	return 0;
}

/*
 * --output COLUMNS, the columns of the text output in their order: the
 * lists of scalar groups take the keywords, tables their own index,
 * counter and state columns (by default the indexes, the counters, then
 * the states). What has no column left is not shown: "--output
 * flowId,bytes" is the flow table alone. A table shows its index columns
 * first unless some are named: a row must be told from the others.
 */
static int
apply_output(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v)
{
	char *copy, *w, *next;
	int rc = 0;

	if (o->output == NULL) {
		add_list_col(v, LC_NAME);
		add_list_col(v, LC_VALUE);
		add_list_col(v, LC_UNITS);
		if (o->watch > 0)
			add_list_col(v, LC_RATE);
		for (uint32_t i = 0; i < sc->n_groups; i++) {
			const struct fastmib_group_schema *g = &sc->groups[i];

			for (uint32_t k = 0; k < g->n_indexes; k++)
				add_table_col(&v->g[i], (struct tcol){ TC_INDEX, (uint16_t)k });
			for (uint32_t c = 0; g->n_indexes && c < g->n_counters; c++)
				if (v->g[i].counter[c] && shown_kind(&g->counters[c]))
					add_table_col(&v->g[i], (struct tcol){ TC_COUNTER, (uint16_t)c });
			for (uint32_t s = 0; g->n_indexes && s < g->n_states; s++)
				if (v->g[i].state[s])
					add_table_col(&v->g[i], (struct tcol){ TC_STATE, (uint16_t)s });
		}
		return 0;
	}
	if ((copy = strdup(o->output)) == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		return -1;
	}
	for (w = copy; w != NULL && rc == 0; w = next) {
		if ((next = strchr(w, ',')) != NULL)
			*next++ = '\0';
		if (*w == '\0') {
			fprintf(stderr, "fastmib-stat: --output: an empty column name in "
				"'%s'\n", o->output);
			rc = -1;
		} else {
			rc = output_word(sc, o, v, w);
		}
	}
	free(copy);
	for (uint32_t i = 0; i < sc->n_groups && rc == 0; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		struct group_view *gv = &v->g[i];
		bool values = false, indexes = false;

		for (uint32_t c = 0; c < g->n_counters; c++)
			if (g->counters[c].type == FASTMIB_HISTOGRAM)
				gv->counter[c] &= gv->named[c];

		for (uint32_t k = 0; k < gv->n_cols; k++) {
			values |= gv->cols[k].kind != TC_INDEX;
			indexes |= gv->cols[k].kind == TC_INDEX;
		}
		if (!values) {
			gv->n_cols = 0;
		} else if (!indexes) {
			memmove(&gv->cols[g->n_indexes], gv->cols, gv->n_cols * sizeof(gv->cols[0]));
			for (uint32_t k = 0; k < g->n_indexes; k++)
				gv->cols[k] = (struct tcol){ TC_INDEX, (uint16_t)k };
			gv->n_cols += g->n_indexes;
		}
	}
	return rc;
}

/*
 * --sort [+|-]COLUMN: every table that has the column. Counters and the
 * states that are numbers sort largest first (what a top list wants),
 * indexes and the other states (strings, addresses) smallest first; a '+'
 * or '-' says ascending or descending instead.
 */
static int
apply_sort(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v)
{
	const char *name = o->sort;
	int dir = 0;
	bool found = false;

	if (name[0] == '+' || name[0] == '-')
		dir = *name++ == '+' ? 1 : -1;
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		struct group_view *gv = &v->g[i];

		if (!table_column(sc, &sc->groups[i], name, &gv->key))
			continue;
		found = true;
		gv->sorted = true;
		gv->descending = dir ? dir < 0 :
			gv->key.kind == TC_COUNTER ||
			(gv->key.kind == TC_STATE &&
			 fst_state_is_number(&sc->groups[i].states[gv->key.n]));
	}
	if (!found) {
		fprintf(stderr, "fastmib-stat: --sort: '%s' is no index%s of a table of %s\n",
			name, or_counter(sc), sc->module);
		return -1;
	}
	return 0;
}

int
fst_view_build(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v)
{
	memset(v, 0, sizeof(*v));
	v->n_groups = sc->n_groups;
	v->g = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*v->g));
	if (v->g == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		return EXIT_FAILURE;
	}
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		for (uint32_t c = 0; c < sc->groups[i].n_counters; c++)
			v->g[i].counter[c] = o->n_match == 0;
		for (uint32_t s = 0; s < sc->groups[i].n_states; s++)
			v->g[i].state[s] = o->n_match == 0;
	}
	if (apply_match(sc, o, v) < 0 || (!o->json && apply_output(sc, o, v) < 0) ||
	    (o->sort && apply_sort(sc, o, v) < 0)) {
		fst_view_free(v);
		return EXIT_USAGE;
	}
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		struct group_view *gv = &v->g[i];
		int first = -1;

		for (uint32_t c = 0; c < g->n_counters; c++) {
			gv->shown |= gv->counter[c];
			gv->hist |= gv->counter[c] && !shown_kind(&g->counters[c]);
			if (first < 0 && gv->counter[c])
				first = (int)c;
		}
		for (uint32_t s = 0; s < g->n_states; s++)
			gv->shown |= gv->state[s];
		/* a table's index columns alone say nothing: none then */
		bool values = false;

		for (uint32_t k = 0; k < gv->n_cols; k++)
			values |= gv->cols[k].kind != TC_INDEX;
		if (!values)
			gv->n_cols = 0;
		/* the text shows no list without list columns, no table without
		 * counters or states: a histogram's block is shown alone then */
		if (!o->json && (g->n_indexes ? gv->n_cols == 0 : v->n_list_cols == 0)) {
			gv->shown = gv->hist;
			gv->n_cols = 0;
		}
		if (!gv->shown || g->n_indexes == 0) {
			gv->sorted = false;
			continue;
		}
		/* --top without a --sort column: by the first counter shown (a
		 * table without one keeps SNMP order) */
		for (uint32_t k = 0; !o->json && k < gv->n_cols; k++)
			if (gv->cols[k].kind == TC_COUNTER) {
				first = gv->cols[k].n;
				break;
			}
		if (o->top && !gv->sorted && first >= 0) {
			gv->sorted = true;
			gv->descending = true;
			gv->key = (struct tcol){ .kind = TC_COUNTER, .n = (uint16_t)first };
		}
		v->all_rows |= gv->sorted;
	}
	v->max_rows = o->top ? o->top : o->max_rows;
	return 0;
}

void
fst_view_free(struct view *v)
{
	free(v->g);
	v->g = NULL;
}

/* A row's sort key: a value, or a rate (--watch), or a field of its key
 * (keyed tables: that index's part of the key), or a state's value, or
 * none ("-", or a state left out). */
struct key {
	uint64_t u;
	double d;
	const uint8_t *part;
	uint32_t part_len;
	const uint8_t *state;
	bool none;
	uint32_t pos;
};

struct order_ctx {
	bool rates;
	bool parts;
	const struct fastmib_state_schema *st; /* sorting by this state */
	bool descending;
};

static int
cmp_keys(const void *pa, const void *pb, void *pctx)
{
	const struct key *a = pa, *b = pb;
	const struct order_ctx *ctx = pctx;
	int c = 0;

	/* a row without a rate has nothing to compare: last either way */
	if (a->none != b->none)
		return a->none ? 1 : -1;
	if (!a->none && ctx->rates)
		c = (a->d > b->d) - (a->d < b->d);
	else if (!a->none && ctx->parts) /* SNMP order of that index */
		c = fastmib_key_cmp(a->part, a->part_len, b->part, b->part_len);
	else if (!a->none && ctx->st)
		c = fst_state_cmp(ctx->st, a->state, b->state);
	else if (!a->none)
		c = (a->u > b->u) - (a->u < b->u);
	if (ctx->descending)
		c = -c;
	/* ties in SNMP order, so that the output is the same every time */
	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Row r's sort key in `k`, by the view's key column. */
static void
key_of(const struct group_view *gv, const struct fastmib_group_schema *g,
       const struct group_snap *gs, const struct group_snap *prev, double dt,
       const struct order_ctx *ctx, uint32_t r, struct key *k)
{
	const struct fastmib_counter_schema *cs =
		gv->key.kind == TC_COUNTER ? &g->counters[gv->key.n] : NULL;

	k->pos = r;
	k->none = false;
	if (ctx->parts) {
		struct fastmib_key_field f;
		size_t len;
		const uint8_t *key = fst_snap_key(gs, r, &len);

		/* a key read from the segment is valid: none is a defect */
		k->none = fastmib_key_field(g, key, len, gv->key.n, &f) < 0;
		k->part = k->none ? NULL : f.part;
		k->part_len = k->none ? 0 : f.part_len;
	} else if (ctx->st) {
		k->state = fst_snap_states(gs, g, r) + ctx->st->offset;
		k->none = fst_snap_state_bad(gs, r, gv->key.n);
	} else if (cs == NULL) {
		uint32_t idx[FASTMIB_MAX_INDEXES];

		fastmib_index_of_row(g, gs->rows[r], idx);
		k->u = idx[gv->key.n];
	} else if (ctx->rates) {
		int64_t p = fst_prev_row(prev, g, gs, r);

		k->none = p < 0 ||
			  !fst_rate_of(cs->type, fst_snap_vals(prev, g, (uint32_t)p)[gv->key.n],
				       fst_snap_vals(gs, g, r)[gv->key.n], dt, &k->d);
	} else {
		k->u = fst_snap_vals(gs, g, r)[gv->key.n];
	}
}

uint32_t
fst_view_order(const struct group_view *gv, const struct fastmib_group_schema *g,
	       const struct group_snap *gs, const struct group_snap *prev, double dt,
	       uint64_t max_rows, uint32_t *order)
{
	uint32_t n = gs->n_shown < max_rows ? gs->n_shown : (uint32_t)max_rows;
	struct order_ctx ctx = { .descending = gv->descending };
	struct key *keys;

	if (!gv->sorted || g->n_indexes == 0) {
		for (uint32_t r = 0; r < n; r++)
			order[r] = r;
		return n;
	}
	keys = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*keys));
	if (keys == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	/* under --watch counter cells are rates (gauges keep their value):
	 * sort those; states have no rates, they sort by value */
	ctx.rates = prev != NULL && gv->key.kind == TC_COUNTER &&
		    !fst_is_level(g->counters[gv->key.n].type);
	ctx.parts = gv->key.kind == TC_INDEX && fastmib_group_keyed(g);
	ctx.st = gv->key.kind == TC_STATE ? &g->states[gv->key.n] : NULL;
	for (uint32_t r = 0; r < gs->n_shown; r++)
		key_of(gv, g, gs, prev, dt, &ctx, r, &keys[r]);
	qsort_r(keys, gs->n_shown, sizeof(*keys), cmp_keys, &ctx);
	for (uint32_t r = 0; r < n; r++)
		order[r] = keys[r].pos;
	free(keys);
	return n;
}
