/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counters as text: a list per scalar group, a table per table group,
 * both laid out by libsmartcols, with the columns the view chose.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* A value cell: wide enough for any uint64_t, a rate, and a suffix. */
#define CELL 48

/* What every part of one frame needs. */
struct frame {
	const struct fastmib_schema *sc;
	const struct stat_opts *o;
	const struct view *v;
	double dt; /* seconds since the previous frame's snapshot */
};

static void
value_cell(char *buf, size_t len, const struct frame *f,
	   const struct fastmib_counter_schema *cs, uint64_t v)
{
	format_count(buf, len, v, f->o->human, units_are_octets(cs->units));
}

/* The per-second rate of a counter as a cell: "-" without one. */
static void
rate_cell(char *buf, size_t len, const struct frame *f,
	  const struct fastmib_counter_schema *cs, const uint64_t *pv, uint64_t v)
{
	double rate;

	if (pv != NULL && rate_of(cs->type, *pv, v, f->dt, &rate))
		format_rate(buf, len, rate, f->o->human, units_are_octets(cs->units));
	else
		snprintf(buf, len, "-");
}

/* One line per counter shown, in the columns of --output. */
static void
print_scalar_group(const struct frame *f, const struct fastmib_group_schema *g,
		   const struct group_view *gv, const struct group_snap *gs,
		   const struct group_snap *prev)
{
	const struct fastmib_schema *sc = f->sc;
	const struct view *v = f->v;
	const uint64_t *pv = prev ? prev_row_vals(prev, g->n_counters, 0) : NULL;
	struct libscols_table *tb;
	char cell[CELL > NAME_BUF ? CELL : NAME_BUF];

	if (!f->o->raw)
		printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	tb = cols_new_table();
	for (uint32_t k = 0; k < v->n_list_cols; k++)
		cols_add_column(tb, list_col_names[v->list_cols[k]],
			   v->list_cols[k] == LC_VALUE || v->list_cols[k] == LC_RATE);
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		struct libscols_line *ln;

		if (!gv->counter[c])
			continue;
		ln = cols_new_line(tb);
		for (uint32_t k = 0; k < v->n_list_cols; k++) {
			switch (v->list_cols[k]) {
			case LC_NAME:
				fastmib_name(cell, sizeof(cell), FASTMIB_MIB_COUNTER,
					     sc->prefix, g->name, cs->name);
				break;
			case LC_VALUE:
				value_cell(cell, sizeof(cell), f, cs, gs->vals[c]);
				break;
			case LC_UNITS:
				snprintf(cell, sizeof(cell), "%s", cs->units);
				break;
			case LC_RATE:
				/* gauges are levels, not totals: no rate */
				cell[0] = '\0';
				if (cs->type == FASTMIB_GAUGE32)
					break;
				rate_cell(cell, sizeof(cell) - 2, f, cs, pv ? &pv[c] : NULL,
					  gs->vals[c]);
				if (strcmp(cell, "-") != 0)
					strcat(cell, "/s");
				break;
			case LC_TYPE:
				snprintf(cell, sizeof(cell), "%s", type_name(cs->type));
				break;
			default:
				/* a description may not fit a cell buffer: as it is */
				cols_set(ln, k, cs->description);
				continue;
			}
			cols_set(ln, k, cell);
		}
	}
	cols_print(tb, f->o->raw, 2);
}

/*
 * A counter column's header: its MIB name, then its units in brackets,
 * per second when the cells are rates ("epFlowBytes[octets/s]").
 */
static void
counter_header(char *buf, size_t len, const struct fastmib_schema *sc,
	       const struct fastmib_group_schema *g,
	       const struct fastmib_counter_schema *cs, bool rates)
{
	size_t n = fastmib_name(buf, len, FASTMIB_MIB_COUNTER, sc->prefix, g->name,
				cs->name);
	bool per_s = rates && cs->type != FASTMIB_GAUGE32;

	if (n >= len)
		return;
	if (cs->units[0] != '\0' || per_s)
		snprintf(buf + n, len - n, "[%s%s]", cs->units, per_s ? "/s" : "");
}

static void
print_title(const struct frame *f, const struct fastmib_group_schema *g,
	    const struct group_view *gv, const struct group_snap *gs,
	    const struct group_snap *prev, uint32_t n)
{
	char name[NAME_BUF];

	printf("%s: %" PRIu64 " of %" PRIu32 " rows present", g->name, gs->n_present,
	       g->n_rows);
	if (n < gs->n_present)
		printf(", %" PRIu32 " shown", n);
	if (gv->sorted) {
		if (gv->key.index)
			fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX, f->sc->prefix,
				     g->name, g->indexes[gv->key.n].name);
		else
			fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, f->sc->prefix,
				     g->name, g->counters[gv->key.n].name);
		printf(", by %s %s", name, gv->descending ? "descending" : "ascending");
	}
	printf("%s\n", prev ? ", counters per second" : "");
}

/*
 * One line per row shown, in the view's order: the columns of --output
 * (index columns, then counters by default). With a previous snapshot
 * (--watch) counter cells are per-second rates, as ifstat shows them.
 */
static void
print_table_group(const struct frame *f, const struct fastmib_group_schema *g,
		  const struct group_view *gv, const struct group_snap *gs,
		  const struct group_snap *prev)
{
	const struct fastmib_schema *sc = f->sc;
	uint32_t nc = g->n_counters, n;
	char name[NAME_BUF + FASTMIB_MAX_UNITS + 8], cell[CELL];
	uint32_t idx[FASTMIB_MAX_INDEXES];
	struct libscols_table *tb;
	uint32_t *order = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*order));

	if (order == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	n = view_order(gv, g, gs, prev, f->dt, f->v->max_rows, order);
	if (!f->o->raw)
		print_title(f, g, gv, gs, prev, n);
	if (n == 0) {
		free(order);
		return;
	}
	tb = cols_new_table();
	for (uint32_t k = 0; k < gv->n_cols; k++) {
		struct tcol col = gv->cols[k];

		if (col.index)
			fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX, sc->prefix,
				     g->name, g->indexes[col.n].name);
		else
			counter_header(name, sizeof(name), sc, g, &g->counters[col.n],
				       prev != NULL);
		cols_add_column(tb, name, true);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];
		const uint64_t *v = &gs->vals[(size_t)r * nc];
		const uint64_t *pv = prev ? prev_row_vals(prev, nc, gs->rows[r]) : NULL;
		struct libscols_line *ln = cols_new_line(tb);

		fastmib_index_of_row(g, gs->rows[r], idx);
		for (uint32_t k = 0; k < gv->n_cols; k++) {
			struct tcol col = gv->cols[k];
			const struct fastmib_counter_schema *cs = &g->counters[col.n];

			if (col.index)
				snprintf(cell, sizeof(cell), "%" PRIu32, idx[col.n]);
			else if (prev == NULL || cs->type == FASTMIB_GAUGE32)
				value_cell(cell, sizeof(cell), f, cs, v[col.n]);
			else
				rate_cell(cell, sizeof(cell), f, cs, pv ? &pv[col.n] : NULL,
					  v[col.n]);
			cols_set(ln, k, cell);
		}
	}
	cols_print(tb, f->o->raw, 2);
	free(order);
}

void
print_text(struct fastmib_segment *seg, const struct stat_opts *o, const struct view *v,
	   const struct snap *s, const struct snap *prev)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct frame f = { .sc = sc, .o = o, .v = v };
	struct fastmib_info info;
	uint32_t bounded = 0;

	fastmib_info(seg, &info);
	if (prev != NULL)
		f.dt = (double)(s->at.tv_sec - prev->at.tv_sec) +
		       (double)(s->at.tv_nsec - prev->at.tv_nsec) / 1e9;
	/* --raw is tables only: what a script parses */
	if (!o->raw)
		printf("%s  %s  generation %" PRIu64 "  writer %s\n", sc->module, o->path,
		       info.generation, info.writer_running ? "running" : "gone");
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		const struct group_snap *pg = prev ? &prev->g[i] : NULL;

		if (!v->g[i].shown)
			continue;
		if (!o->raw)
			printf("\n");
		if (g->n_indexes == 0)
			print_scalar_group(&f, g, &v->g[i], &s->g[i], pg);
		else
			print_table_group(&f, g, &v->g[i], &s->g[i], pg);
		bounded += s->g[i].n_bounded;
	}
	if (bounded)
		fprintf(o->raw ? stderr : stdout, "%snote: %" PRIu32 " snapshot(s) "
			"best-effort: a writer stayed inside a transaction\n",
			o->raw ? "fastmib-stat: " : "\n", bounded);
}
