/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What of a segment is shown, and in which order: --match (groups and
 * counters), --sort and --top (rows of tables). Built from the options and
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
 * The names a counter (or an index) answers to: its model name, the model
 * name qualified by its group ("flow.bytes": the same counter name may be
 * in several groups) and its MIB name ("epFlowBytes").
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

/* --match: which groups and counters; every pattern must find something. */
static int
apply_match(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v)
{
	for (uint32_t p = 0; p < o->n_match; p++) {
		bool used = false;

		for (uint32_t i = 0; i < sc->n_groups; i++) {
			const struct fastmib_group_schema *g = &sc->groups[i];
			bool whole = group_matches(sc, g, o->match[p]);

			for (uint32_t c = 0; c < g->n_counters; c++) {
				struct names n;

				names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->counters[c].name);
				if (whole || names_match(&n, o->match[p])) {
					v->g[i].counter[c] = true;
					used = true;
				}
			}
		}
		if (!used) {
			fprintf(stderr, "fastmib-stat: --match: '%s' matches no group or "
				"counter of %s\n", o->match[p], sc->module);
			return -1;
		}
	}
	return 0;
}

/* Is `name` a column (index or counter) of table `g`? */
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
			*col = (struct tcol){ .index = true, .n = (uint16_t)k };
			return true;
		}
	}
	for (uint32_t c = 0; c < g->n_counters; c++) {
		names_of(&n, sc, g, FASTMIB_MIB_COUNTER, g->counters[c].name);
		if (names_equal(&n, name)) {
			*col = (struct tcol){ .index = false, .n = (uint16_t)c };
			return true;
		}
	}
	return false;
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
		if (gv->cols[i].index == col.index && gv->cols[i].n == col.n)
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
		struct tcol col;

		if (!table_column(sc, &sc->groups[i], w, &col))
			continue;
		found = true;
		if (col.index || v->g[i].counter[col.n])
			add_table_col(&v->g[i], col);
	}
	if (!found) {
		fprintf(stderr, "fastmib-stat: --output: '%s' is neither a column of the "
			"lists (NAME, VALUE, UNITS, RATE, TYPE, DESCRIPTION) nor an index or "
			"counter of a table of %s\n", w, sc->module);
		return -1;
	}
	return 0;
}

/*
 * --output COLUMNS, the columns of the text output in their order: the
 * lists of scalar groups take the keywords, tables their own index and
 * counter columns. What has no column left is not shown: "--output
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
				add_table_col(&v->g[i], (struct tcol){ true, (uint16_t)k });
			for (uint32_t c = 0; g->n_indexes && c < g->n_counters; c++)
				if (v->g[i].counter[c])
					add_table_col(&v->g[i], (struct tcol){ false, (uint16_t)c });
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
		bool counters = false, indexes = false;

		for (uint32_t k = 0; k < gv->n_cols; k++) {
			counters |= !gv->cols[k].index;
			indexes |= gv->cols[k].index;
		}
		if (!counters) {
			gv->n_cols = 0;
		} else if (!indexes) {
			memmove(&gv->cols[g->n_indexes], gv->cols, gv->n_cols * sizeof(gv->cols[0]));
			for (uint32_t k = 0; k < g->n_indexes; k++)
				gv->cols[k] = (struct tcol){ true, (uint16_t)k };
			gv->n_cols += g->n_indexes;
		}
	}
	return rc;
}

/*
 * --sort [+|-]COLUMN: every table that has the column. Counters sort
 * largest first (what a top list wants), indexes smallest first; a '+'
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
		gv->descending = dir ? dir < 0 : !gv->key.index;
	}
	if (!found) {
		fprintf(stderr, "fastmib-stat: --sort: '%s' is no index or counter of a "
			"table of %s\n", name, sc->module);
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
	for (uint32_t i = 0; i < sc->n_groups; i++)
		for (uint32_t c = 0; c < sc->groups[i].n_counters; c++)
			v->g[i].counter[c] = o->n_match == 0;
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
			if (first < 0 && gv->counter[c])
				first = (int)c;
		}
		/* the text shows no list without list columns, no table without counters */
		if (!o->json && (g->n_indexes ? gv->n_cols == 0 : v->n_list_cols == 0))
			gv->shown = false;
		if (!gv->shown || g->n_indexes == 0) {
			gv->sorted = false;
			continue;
		}
		/* --top without a --sort column: by the first counter shown */
		for (uint32_t k = 0; !o->json && k < gv->n_cols; k++)
			if (!gv->cols[k].index) {
				first = gv->cols[k].n;
				break;
			}
		if (o->top && !gv->sorted) {
			gv->sorted = true;
			gv->descending = true;
			gv->key = (struct tcol){ .index = false, .n = (uint16_t)first };
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
 * (keyed tables: that index's part of the key), or none ("-"). */
struct key {
	uint64_t u;
	double d;
	const uint8_t *part;
	uint32_t part_len;
	bool none;
	uint32_t pos;
};

struct order_ctx {
	bool rates;
	bool parts;
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
	else if (!a->none)
		c = (a->u > b->u) - (a->u < b->u);
	if (ctx->descending)
		c = -c;
	/* ties in SNMP order, so that the output is the same every time */
	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

uint32_t
fst_view_order(const struct group_view *gv, const struct fastmib_group_schema *g,
	       const struct group_snap *gs, const struct group_snap *prev, double dt,
	       uint64_t max_rows, uint32_t *order)
{
	uint32_t n = gs->n_shown < max_rows ? gs->n_shown : (uint32_t)max_rows;
	const struct fastmib_counter_schema *cs;
	struct order_ctx ctx;
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
	cs = gv->key.index ? NULL : &g->counters[gv->key.n];
	/* under --watch the cells are rates (gauges keep their value): sort those */
	ctx.rates = prev != NULL && cs != NULL && cs->type != FASTMIB_GAUGE32;
	ctx.parts = cs == NULL && fastmib_group_keyed(g);
	ctx.descending = gv->descending;
	for (uint32_t r = 0; r < gs->n_shown; r++) {
		struct key *k = &keys[r];

		k->pos = r;
		k->none = false;
		if (ctx.parts) {
			struct fastmib_key_field f;
			size_t len;
			const uint8_t *key = fst_snap_key(gs, r, &len);

			/* a key read from the segment is valid: none is a defect */
			k->none = fastmib_key_field(g, key, len, gv->key.n, &f) < 0;
			k->part = k->none ? NULL : f.part;
			k->part_len = k->none ? 0 : f.part_len;
		} else if (cs == NULL) {
			uint32_t idx[FASTMIB_MAX_INDEXES];

			fastmib_index_of_row(g, gs->rows[r], idx);
			k->u = idx[gv->key.n];
		} else if (ctx.rates) {
			const uint64_t *pv = fst_prev_row_vals(prev, g, gs, r);

			k->none = pv == NULL ||
				  !fst_rate_of(cs->type, pv[gv->key.n],
					       gs->vals[(size_t)r * g->n_counters + gv->key.n],
					       dt, &k->d);
		} else {
			k->u = gs->vals[(size_t)r * g->n_counters + gv->key.n];
		}
	}
	qsort_r(keys, gs->n_shown, sizeof(*keys), cmp_keys, &ctx);
	for (uint32_t r = 0; r < n; r++)
		order[r] = keys[r].pos;
	free(keys);
	return n;
}
