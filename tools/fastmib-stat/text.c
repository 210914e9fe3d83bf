/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counters as text: a list per scalar group, a table per table group,
 * both laid out by libsmartcols, with the columns the view chose.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* A cell: wide enough for any uint64_t, a rate, and a suffix, or for a
 * field of a key (a string of FASTMIB_MAX_STRING_INDEX characters). */
#define CELL 72
/* A column header: a MIB name and its units. */
#define HEAD (NAME_BUF + FASTMIB_MAX_UNITS + 8)

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
	/* the units matter to -H alone */
	fst_format_count(buf, len, v, f->o->human, f->o->human && fst_units_are_octets(cs->units));
}

/* The per-second rate of a counter as a cell: "-" without one. */
static void
rate_cell(char *buf, size_t len, const struct frame *f,
	  const struct fastmib_counter_schema *cs, const uint64_t *pv, uint64_t v)
{
	double rate;

	if (pv != NULL && fst_rate_of(cs->type, *pv, v, f->dt, &rate))
		fst_format_rate(buf, len, rate, f->o->human, fst_units_are_octets(cs->units));
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
	const uint64_t *pv = prev ? fst_prev_row_vals(prev, g, gs, 0) : NULL;
	struct libscols_table *tb;
	char cell[CELL > NAME_BUF ? CELL : NAME_BUF];

	if (!f->o->raw)
		printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	tb = fst_cols_new_table();
	for (uint32_t k = 0; k < v->n_list_cols; k++)
		fst_cols_add_column(tb, fst_list_col_names[v->list_cols[k]],
			   v->list_cols[k] == LC_VALUE || v->list_cols[k] == LC_RATE);
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		struct libscols_line *ln;

		if (!gv->counter[c])
			continue;
		ln = fst_cols_new_line(tb);
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
				snprintf(cell, sizeof(cell), "%s", fst_type_name(cs->type));
				break;
			default:
				/* a description may not fit a cell buffer: as it is */
				fst_cols_set(ln, k, cs->description);
				continue;
			}
			fst_cols_set(ln, k, cell);
		}
	}
	fst_cols_print(tb, f->o->raw, 2);
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

/* The column headers of a table: index names, counter names with units. */
static void
table_headers(const struct frame *f, const struct fastmib_group_schema *g,
	      const struct group_view *gv, bool rates, char (*heads)[HEAD])
{
	for (uint32_t k = 0; k < gv->n_cols; k++) {
		struct tcol col = gv->cols[k];

		if (col.index)
			fastmib_name(heads[k], HEAD, FASTMIB_MIB_INDEX, f->sc->prefix,
				     g->name, g->indexes[col.n].name);
		else
			counter_header(heads[k], HEAD, f->sc, g, &g->counters[col.n], rates);
	}
}

/* The cells of row i of `gs`: its index values (a keyed table's key, a
 * field a cell) and counters (rates with `pv` under --watch), in the
 * columns of --output. */
static void
table_cells(const struct frame *f, const struct fastmib_group_schema *g,
	    const struct group_view *gv, const struct group_snap *gs, uint32_t i,
	    const uint64_t *pv, bool rates, char (*cells)[CELL])
{
	const uint64_t *v = &gs->vals[(size_t)i * g->n_counters];
	uint32_t idx[FASTMIB_MAX_INDEXES];
	bool keyed = fastmib_group_keyed(g);

	if (!keyed)
		fastmib_index_of_row(g, gs->rows[i], idx);
	for (uint32_t k = 0; k < gv->n_cols; k++) {
		struct tcol col = gv->cols[k];
		const struct fastmib_counter_schema *cs = &g->counters[col.n];

		if (col.index && keyed) {
			struct fastmib_key_field kf;
			size_t len;
			const uint8_t *key = fst_snap_key(gs, i, &len);

			cells[k][0] = '\0';
			if (fastmib_key_field(g, key, len, col.n, &kf) == 0)
				fastmib_key_field_text(&kf, cells[k], CELL);
		} else if (col.index) {
			fst_format_count(cells[k], CELL, idx[col.n], false, false);
		} else if (!rates || cs->type == FASTMIB_GAUGE32) {
			value_cell(cells[k], CELL, f, cs, v[col.n]);
		} else {
			rate_cell(cells[k], CELL, f, cs, pv ? &pv[col.n] : NULL, v[col.n]);
		}
	}
}

/* A libsmartcols table with the headers as right-aligned columns. */
static struct libscols_table *
new_table(const struct group_view *gv, char (*heads)[HEAD], const size_t *width)
{
	struct libscols_table *tb = fst_cols_new_table();
	char padded[HEAD + CELL];

	for (uint32_t k = 0; k < gv->n_cols; k++) {
		snprintf(padded, sizeof(padded), "%*s", width ? (int)width[k] : 0, heads[k]);
		fst_cols_add_column(tb, padded, true);
	}
	return tb;
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
	uint32_t n;
	char heads[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][HEAD];
	char cells[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][CELL];
	struct libscols_table *tb;
	uint32_t *order = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*order));

	if (order == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	n = fst_view_order(gv, g, gs, prev, f->dt, f->v->max_rows, order);
	if (!f->o->raw)
		print_title(f, g, gv, gs, prev, n);
	if (n == 0) {
		free(order);
		return;
	}
	table_headers(f, g, gv, prev != NULL, heads);
	tb = new_table(gv, heads, NULL);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];
		const uint64_t *pv = prev ? fst_prev_row_vals(prev, g, gs, r) : NULL;
		struct libscols_line *ln = fst_cols_new_line(tb);

		table_cells(f, g, gv, gs, r, pv, prev != NULL, cells);
		for (uint32_t k = 0; k < gv->n_cols; k++)
			fst_cols_set(ln, k, cells[k]);
	}
	fst_cols_print(tb, f->o->raw, 2);
	free(order);
}

/* Rows read and printed at a time by the streaming output. */
#define STREAM_ROWS 4096

/*
 * A cell as libsmartcols writes it, into dst (NULL: only counted): a
 * control character as \xHH, a backslash before an 'x' as \x5c (so that
 * no \x in a cell is read as an escape); with --raw every backslash and
 * every blank as \xHH too, so that the cell stays one field. Its length.
 * The rules libsmartcols (util-linux 2.38) applies to ASCII, which is all
 * a cell here holds (key strings, display-string states, numbers).
 */
static size_t
cell_out(char *dst, const char *s, bool raw)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool esc = c < 0x20 || c == 0x7f || (c == '\\' && (raw || s[1] == 'x')) ||
			   (raw && c == ' ');

		if (esc && dst) {
			memcpy(dst + n, "\\x", 2);
			dst[n + 2] = hex[c >> 4];
			dst[n + 3] = hex[c & 15];
		} else if (dst) {
			dst[n] = (char)c;
		}
		n += esc ? 4 : 1;
	}
	return n;
}

/*
 * One line of a streamed table, laid out as fst_cols_print() lays out a
 * libsmartcols table whose columns are all right-aligned: cells padded to
 * their column's width, one blank between columns, indented by two, no
 * trailing blank; with --raw, as libsmartcols' raw mode: one blank between
 * cells. Cells as cell_out() writes them. Written here because a million
 * lines through libsmartcols cost seconds in its width computations (every
 * cell measured as wide characters), for cells that are plain ASCII.
 */
static void
put_line(char (*cells)[CELL > HEAD ? CELL : HEAD], uint32_t n, const size_t *width, bool raw)
{
	char line[(FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS) * (CELL > HEAD ? CELL : HEAD) * 4];
	size_t len = 0;

	if (!raw) {
		memcpy(line, "  ", 2);
		len = 2;
	}
	for (uint32_t k = 0; k < n; k++) {
		size_t cl = cell_out(NULL, cells[k], raw);

		if (k > 0)
			line[len++] = ' ';
		for (size_t pad = !raw && cl < width[k] ? width[k] - cl : 0; pad > 0; pad--)
			line[len++] = ' ';
		len += cell_out(line + len, cells[k], raw);
	}
	line[len++] = '\n';
	fwrite(line, 1, len, stdout);
}

/*
 * A table group without a snapshot of every row: STREAM_ROWS rows read,
 * printed and forgotten at a time, so memory does not grow with the table.
 * Aligned output takes two passes over the rows: the first finds each
 * column's width, the second prints with those widths (a value that grew a
 * digit between the passes shifts its line alone).
 */
static int
stream_table_group(struct fastmib_segment *seg, const struct frame *f, unsigned gi)
{
	const struct fastmib_group_schema *g = &f->sc->groups[gi];
	const struct group_view *gv = &f->v->g[gi];
	char cells[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][CELL > HEAD ? CELL : HEAD];
	size_t width[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS];
	struct group_snap gs = { .n_present = fst_count_present(seg, gi) };
	uint64_t shown = gs.n_present < f->v->max_rows ? gs.n_present : f->v->max_rows;
	uint32_t bounded = 0;

	if (!f->o->raw)
		print_title(f, g, gv, &gs, NULL, (uint32_t)shown);
	if (shown == 0)
		return 0;
	for (int pass = f->o->raw ? 1 : 0; pass < 2; pass++) {
		struct row_cursor cur = { 0 };
		uint64_t done = 0;
		int more = 1;

		if (pass == 0 || f->o->raw) {
			char heads[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][HEAD];

			table_headers(f, g, gv, false, heads);
			for (uint32_t k = 0; k < gv->n_cols; k++) {
				width[k] = strlen(heads[k]);
				memcpy(cells[k], heads[k], sizeof(heads[k])); /* a cell holds a header */
			}
			if (f->o->raw)
				put_line(cells, gv->n_cols, width, true);
		}
		while (more > 0 && done < f->v->max_rows) {
			uint64_t want = f->v->max_rows - done;

			gs.n_shown = 0;
			more = fst_snap_range(seg, gi, &cur,
					      want < STREAM_ROWS ? want : STREAM_ROWS, false, &gs);
			if (more < 0) {
				fst_group_snap_free(&gs);
				return more;
			}
			if (gs.n_shown == 0)
				break;
			if (pass == 1)
				bounded += gs.n_bounded;
			gs.n_bounded = 0;
			for (uint32_t i = 0; i < gs.n_shown; i++) {
				char row[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][CELL];

				table_cells(f, g, gv, &gs, i, NULL, false, row);
				for (uint32_t k = 0; k < gv->n_cols; k++) {
					size_t n = cell_out(NULL, row[k], false);

					if (pass == 0 && n > width[k])
						width[k] = n;
					memcpy(cells[k], row[k], strlen(row[k]) + 1);
				}
				if (pass == 1)
					put_line(cells, gv->n_cols, width, f->o->raw);
			}
			done += gs.n_shown;
		}
		if (pass == 0) {
			/* the header line, now that the widths are known */
			char heads[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS][HEAD];

			table_headers(f, g, gv, false, heads);
			for (uint32_t k = 0; k < gv->n_cols; k++)
				memcpy(cells[k], heads[k], sizeof(heads[k])); /* a cell holds a header */
			put_line(cells, gv->n_cols, width, false);
		}
	}
	fst_group_snap_free(&gs);
	return (int)bounded;
}

/* The header line of the text output. */
static void
print_heading(struct fastmib_segment *seg, const struct stat_opts *o)
{
	struct fastmib_info info;

	fastmib_info(seg, &info);
	/* --raw is tables only: what a script parses */
	if (!o->raw)
		printf("%s  %s  generation %" PRIu64 "  writer %s\n", fastmib_schema(seg)->module,
		       o->path, info.generation, info.writer_running ? "running" : "gone");
}

/* The closing note on values read best effort. */
static void
print_bounded_note(const struct stat_opts *o, uint32_t bounded)
{
	if (bounded)
		fprintf(o->raw ? stderr : stdout, "%snote: %" PRIu32 " snapshot(s) "
			"best-effort: a writer stayed inside a transaction\n",
			o->raw ? "fastmib-stat: " : "\n", bounded);
}

int
fst_print_text_stream(struct fastmib_segment *seg, const struct stat_opts *o,
		      const struct view *v)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct frame f = { .sc = sc, .o = o, .v = v };
	uint32_t bounded = 0;

	print_heading(seg, o);
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		int rc;

		if (!v->g[i].shown)
			continue;
		if (!o->raw)
			printf("\n");
		if (g->n_indexes == 0) {
			struct group_snap gs = { 0 };
			struct row_cursor cur = { 0 };

			rc = fst_snap_range(seg, i, &cur, 1, false, &gs);
			if (rc < 0) {
				fst_group_snap_free(&gs);
				return rc;
			}
			print_scalar_group(&f, g, &v->g[i], &gs, NULL);
			bounded += gs.n_bounded;
			fst_group_snap_free(&gs);
			continue;
		}
		fflush(stdout);
		if ((rc = stream_table_group(seg, &f, i)) < 0)
			return rc;
		bounded += (uint32_t)rc;
	}
	print_bounded_note(o, bounded);
	return 0;
}

void
fst_print_text(struct fastmib_segment *seg, const struct stat_opts *o, const struct view *v,
	       const struct snap *s, const struct snap *prev)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct frame f = { .sc = sc, .o = o, .v = v };
	uint32_t bounded = 0;

	if (prev != NULL)
		f.dt = (double)(s->at.tv_sec - prev->at.tv_sec) +
		       (double)(s->at.tv_nsec - prev->at.tv_nsec) / 1e9;
	print_heading(seg, o);
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
	print_bounded_note(o, bounded);
}
