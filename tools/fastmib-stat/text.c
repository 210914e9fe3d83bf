/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counters as text: a list per scalar group, a table per table group,
 * both laid out by libsmartcols.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "stat.h"

/* A value cell: wide enough for any uint64_t, a rate, and a suffix. */
#define CELL 48

/*
 * Print a table indented under its title. Rendering to a string first
 * keeps the layout independent of the terminal (the same bytes on a
 * terminal as in a pipe) and lets the cells of an empty last column go
 * without trailing blanks.
 */
static void
print_indented(struct libscols_table *tb)
{
	char *s = NULL;

	if (scols_print_table_to_string(tb, &s) != 0 || s == NULL) {
		free(s);
		return;
	}
	for (char *line = s, *next; line && *line; line = next) {
		size_t n;

		next = strchr(line, '\n');
		n = next ? (size_t)(next - line) : strlen(line);
		if (next)
			next++;
		while (n > 0 && line[n - 1] == ' ')
			n--;
		printf("  %.*s\n", (int)n, line);
	}
	free(s);
}

static struct libscols_table *
new_table(void)
{
	struct libscols_table *tb = scols_new_table();

	if (tb == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	return tb;
}

static void
add_column(struct libscols_table *tb, const char *name, bool right)
{
	if (scols_table_new_column(tb, name, 0, right ? SCOLS_FL_RIGHT : 0) == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
}

static struct libscols_line *
new_line(struct libscols_table *tb)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);

	if (ln == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	return ln;
}

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

/* The per-second rate of counter `c` of a row as a cell: "-" without one. */
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

/* One line per counter: its MIB name, value, units (and rate). */
static void
print_scalar_group(const struct frame *f, const struct fastmib_group_schema *g,
		   const struct group_view *gv, const struct group_snap *gs,
		   const struct group_snap *prev)
{
	const struct fastmib_schema *sc = f->sc;
	const uint64_t *pv = prev ? prev_row_vals(prev, g->n_counters, 0) : NULL;
	struct libscols_table *tb;
	char name[NAME_BUF], cell[CELL];

	printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	tb = new_table();
	add_column(tb, "NAME", false);
	add_column(tb, "VALUE", true);
	add_column(tb, "UNITS", false);
	if (prev != NULL)
		add_column(tb, "RATE", true);
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		struct libscols_line *ln;

		if (!gv->counter[c])
			continue;
		ln = new_line(tb);
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix, g->name,
			     cs->name);
		scols_line_set_data(ln, 0, name);
		value_cell(cell, sizeof(cell), f, cs, gs->vals[c]);
		scols_line_set_data(ln, 1, cell);
		scols_line_set_data(ln, 2, cs->units);
		if (prev == NULL)
			continue;
		/* gauges are levels, not totals: no rate */
		if (cs->type != FASTMIB_GAUGE32) {
			rate_cell(cell, sizeof(cell) - 2, f, cs, pv ? &pv[c] : NULL,
				  gs->vals[c]);
			if (strcmp(cell, "-") != 0)
				strcat(cell, "/s");
			scols_line_set_data(ln, 3, cell);
		}
	}
	print_indented(tb);
	scols_unref_table(tb);
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

/*
 * One line per row: index columns, then counters. With a previous snapshot
 * (--watch) counter cells are per-second rates, as ifstat shows them.
 */
static void
print_table_group(const struct frame *f, const struct fastmib_group_schema *g,
		  const struct group_view *gv, const struct group_snap *gs,
		  const struct group_snap *prev)
{
	const struct fastmib_schema *sc = f->sc;
	uint32_t nc = g->n_counters, ni = g->n_indexes, n, col;
	char name[NAME_BUF + FASTMIB_MAX_UNITS + 8], cell[CELL];
	uint32_t idx[FASTMIB_MAX_INDEXES];
	struct libscols_table *tb;
	uint32_t *order = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*order));

	if (order == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	n = view_order(gv, g, gs, prev, f->dt, f->v->max_rows, order);
	printf("%s: %" PRIu64 " of %" PRIu32 " rows present", g->name,
	       gs->n_present, g->n_rows);
	if (n < gs->n_present)
		printf(", %" PRIu32 " shown", n);
	if (gv->sorted) {
		if (gv->key.index)
			fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX, sc->prefix,
				     g->name, g->indexes[gv->key.n].name);
		else
			fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, sc->prefix,
				     g->name, g->counters[gv->key.n].name);
		printf(", by %s %s", name, gv->descending ? "descending" : "ascending");
	}
	printf("%s\n", prev ? ", counters per second" : "");
	if (n == 0) {
		free(order);
		return;
	}

	tb = new_table();
	for (uint32_t k = 0; k < ni; k++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX, sc->prefix, g->name,
			     g->indexes[k].name);
		add_column(tb, name, true);
	}
	for (uint32_t c = 0; c < nc; c++) {
		if (!gv->counter[c])
			continue;
		counter_header(name, sizeof(name), sc, g, &g->counters[c], prev != NULL);
		add_column(tb, name, true);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];
		const uint64_t *v = &gs->vals[(size_t)r * nc];
		const uint64_t *pv = prev ? prev_row_vals(prev, nc, gs->rows[r]) : NULL;
		struct libscols_line *ln = new_line(tb);

		fastmib_index_of_row(g, gs->rows[r], idx);
		for (uint32_t k = 0; k < ni; k++) {
			snprintf(cell, sizeof(cell), "%" PRIu32, idx[k]);
			scols_line_set_data(ln, k, cell);
		}
		col = ni;
		for (uint32_t c = 0; c < nc; c++) {
			const struct fastmib_counter_schema *cs = &g->counters[c];

			if (!gv->counter[c])
				continue;
			if (prev == NULL || cs->type == FASTMIB_GAUGE32)
				value_cell(cell, sizeof(cell), f, cs, v[c]);
			else
				rate_cell(cell, sizeof(cell), f, cs, pv ? &pv[c] : NULL, v[c]);
			scols_line_set_data(ln, col++, cell);
		}
	}
	print_indented(tb);
	scols_unref_table(tb);
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
	printf("%s  %s  generation %" PRIu64 "  writer %s\n", sc->module, o->path,
	       info.generation, info.writer_running ? "running" : "gone");
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		const struct group_snap *pg = prev ? &prev->g[i] : NULL;

		if (!v->g[i].shown)
			continue;
		printf("\n");
		if (g->n_indexes == 0)
			print_scalar_group(&f, g, &v->g[i], &s->g[i], pg);
		else
			print_table_group(&f, g, &v->g[i], &s->g[i], pg);
		bounded += s->g[i].n_bounded;
	}
	if (bounded)
		printf("\nnote: %" PRIu32 " snapshot(s) best-effort: a writer "
		       "stayed inside a transaction\n", bounded);
}
