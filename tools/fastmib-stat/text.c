/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The counters and states as text: a list per scalar group, a table per
 * table group, both laid out by libsmartcols, with the columns the view
 * chose.
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
/* A state's cell: its text and a watch mark. */
#define STATE_CELL (FST_STATE_TEXT + 1)

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

/*
 * State s of row i of `gs` as a cell: its text (states.c), "?" when it was
 * left out; under --watch "*" after it when it changed since row pi of
 * `prev`. Rates are counters' alone.
 */
static void
state_cell(char *buf, size_t len, const struct fastmib_group_schema *g, uint32_t s,
	   const struct group_snap *gs, uint32_t i, const struct group_snap *prev, int64_t pi)
{
	const struct fastmib_state_schema *st = &g->states[s];

	if (fst_snap_state_bad(gs, i, s))
		snprintf(buf, len, "?");
	else
		fst_state_text(st, fst_snap_states(gs, g, i) + st->offset, gs->mono_ns, buf,
			       len - 1);
	if (fst_state_changed(prev, pi, gs, i, g, s))
		strcat(buf, "*");
}

/* A list column's cell for a state: its MIB name, value, units, type and
 * description as a counter's; no rate. NULL: `cell` holds it. */
static const char *
state_list_cell(const struct frame *f, const struct fastmib_group_schema *g, uint32_t s,
		const struct group_snap *gs, const struct group_snap *prev, enum list_col lc,
		char *cell, size_t len)
{
	const struct fastmib_state_schema *st = &g->states[s];
	const char *word;

	switch (lc) {
	case LC_NAME:
		fastmib_name(cell, len, FASTMIB_MIB_COUNTER, f->sc->prefix, g->name, st->name);
		return NULL;
	case LC_VALUE:
		state_cell(cell, len, g, s, gs, 0, prev, prev ? fst_prev_row(prev, g, gs, 0) : -1);
		return NULL;
	case LC_UNITS:
		return st->units;
	case LC_TYPE:
		word = fastmib_state_type_word(st->type);
		return word ? word : "unknown";
	case LC_DESCRIPTION:
		return st->description;
	default:
		return "";
	}
}

/* How --reset names row i of table `gs`: "port.2.1", or a keyed table's
 * "flow/10.0.0.1,7". */
static void
row_name(const struct fastmib_group_schema *g, const struct group_snap *gs, uint32_t i,
	 char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", g->name);

	if (fastmib_group_keyed(g)) {
		size_t klen;
		const uint8_t *key = fst_snap_key(gs, i, &klen);

		if (n + 1 < len) {
			buf[n++] = '/';
			fastmib_key_text(g, key, klen, buf + n, len - n);
		}
	} else {
		uint32_t idx[FASTMIB_MAX_INDEXES];

		fastmib_index_of_row(g, gs->rows[i], idx);
		for (uint32_t k = 0; k < g->n_indexes && n < len; k++)
			n += (size_t)snprintf(buf + n, len - n, ".%" PRIu32, idx[k]);
	}
}

/*
 * The blocks of the histograms shown of row i of `gs` (hist.c), from the
 * row's words of the one read its other values came from; a table row's
 * named (`table`). Not in --raw, which prints the tables alone.
 */
static void
print_hists(const struct frame *f, const struct fastmib_group_schema *g,
	    const struct group_view *gv, const struct group_snap *gs, uint32_t i, bool table)
{
	char row[NAME_BUF + FASTMIB_MAX_KEY_TEXT + 2];

	if (!gv->hist || f->o->raw || i >= gs->n_shown)
		return;
	if (table)
		row_name(g, gs, i, row, sizeof(row));
	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (!gv->counter[c] || g->counters[c].type != FASTMIB_HISTOGRAM)
			continue;
		printf("\n");
		fst_hist_print(f->sc, g, &g->counters[c], table ? row : NULL,
			       fst_snap_words(gs, i), f->o->human);
	}
}

/* One line per counter shown, then per state shown, in the columns of
 * --output; then the histograms' blocks. */
static void
print_scalar_group(const struct frame *f, const struct fastmib_group_schema *g,
		   const struct group_view *gv, const struct group_snap *gs,
		   const struct group_snap *prev)
{
	const struct fastmib_schema *sc = f->sc;
	const struct view *v = f->v;
	int64_t pi = prev ? fst_prev_row(prev, g, gs, 0) : -1;
	const uint64_t *pv = pi >= 0 ? fst_snap_vals(prev, g, (uint32_t)pi) : NULL;
	struct libscols_table *tb;
	char cell[CELL > NAME_BUF ? CELL : NAME_BUF];

	bool lines = false;

	if (!f->o->raw)
		printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	for (uint32_t c = 0; c < g->n_counters; c++)
		lines |= gv->counter[c] && g->counters[c].type != FASTMIB_HISTOGRAM;
	for (uint32_t s = 0; s < g->n_states; s++)
		lines |= gv->state[s];
	if (!lines || v->n_list_cols == 0) {
		print_hists(f, g, gv, gs, 0, false);
		return;
	}
	tb = fst_cols_new_table();
	for (uint32_t k = 0; k < v->n_list_cols; k++)
		fst_cols_add_column(tb, fst_list_col_names[v->list_cols[k]],
			   v->list_cols[k] == LC_VALUE || v->list_cols[k] == LC_RATE);
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		struct libscols_line *ln;

		if (!gv->counter[c] || cs->type == FASTMIB_HISTOGRAM)
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
				if (fst_is_level(cs->type))
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
	for (uint32_t s = 0; s < g->n_states; s++) {
		struct libscols_line *ln;
		char text[STATE_CELL];

		if (!gv->state[s])
			continue;
		ln = fst_cols_new_line(tb);
		for (uint32_t k = 0; k < v->n_list_cols; k++) {
			const char *t = state_list_cell(f, g, s, gs, prev, v->list_cols[k], text,
							sizeof(text));

			fst_cols_set(ln, k, t ? t : text);
		}
	}
	fst_cols_print(tb, f->o->raw, 2);
	print_hists(f, g, gv, gs, 0, false);
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
	bool per_s = rates && !fst_is_level(cs->type);

	if (n >= len)
		return;
	if (cs->units[0] != '\0' || per_s)
		snprintf(buf + n, len - n, "[%s%s]", cs->units, per_s ? "/s" : "");
}

/* A state column's header: its MIB name and its units in brackets. */
static void
state_header(char *buf, size_t len, const struct fastmib_schema *sc,
	     const struct fastmib_group_schema *g, const struct fastmib_state_schema *st)
{
	size_t n = fastmib_name(buf, len, FASTMIB_MIB_COUNTER, sc->prefix, g->name, st->name);

	if (n < len && st->units[0] != '\0')
		snprintf(buf + n, len - n, "[%s]", st->units);
}

/* Whether the table shows a counter: rates then, under --watch. */
static bool
shows_counters(const struct group_view *gv)
{
	for (uint32_t k = 0; k < gv->n_cols; k++)
		if (gv->cols[k].kind == TC_COUNTER)
			return true;
	return false;
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
		if (gv->key.kind == TC_INDEX)
			fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX, f->sc->prefix,
				     g->name, g->indexes[gv->key.n].name);
		else
			fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER, f->sc->prefix,
				     g->name, gv->key.kind == TC_COUNTER ?
						      g->counters[gv->key.n].name :
						      g->states[gv->key.n].name);
		printf(", by %s %s", name, gv->descending ? "descending" : "ascending");
	}
	printf("%s\n", prev && shows_counters(gv) ? ", counters per second" : "");
}

/*
 * The cells of one line of a table: n_cols cells of `width` bytes each, at
 * least CELL and HEAD (a cell holds a header too), wider for the texts of
 * the table's state columns.
 */
struct cells {
	char *buf;
	size_t width;
};

static char *
cell(const struct cells *c, uint32_t k)
{
	return c->buf + (size_t)k * c->width;
}

/* Cells for the columns of `gv`; exits when memory runs out. */
static void
cells_new(struct cells *c, const struct fastmib_group_schema *g, const struct group_view *gv)
{
	c->width = CELL > HEAD ? CELL : HEAD;
	for (uint32_t k = 0; k < gv->n_cols; k++)
		if (gv->cols[k].kind == TC_STATE &&
		    fst_state_text_size(&g->states[gv->cols[k].n]) + 1 > c->width)
			c->width = fst_state_text_size(&g->states[gv->cols[k].n]) + 1;
	c->buf = malloc((gv->n_cols ? gv->n_cols : 1) * c->width);
	if (c->buf == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
}

/* The column headers of a table: index names, counter and state names
 * with units. */
static void
table_headers(const struct frame *f, const struct fastmib_group_schema *g,
	      const struct group_view *gv, bool rates, const struct cells *heads)
{
	for (uint32_t k = 0; k < gv->n_cols; k++) {
		struct tcol col = gv->cols[k];

		if (col.kind == TC_INDEX)
			fastmib_name(cell(heads, k), HEAD, FASTMIB_MIB_INDEX, f->sc->prefix,
				     g->name, g->indexes[col.n].name);
		else if (col.kind == TC_COUNTER)
			counter_header(cell(heads, k), HEAD, f->sc, g, &g->counters[col.n], rates);
		else
			state_header(cell(heads, k), HEAD, f->sc, g, &g->states[col.n]);
	}
}

/* The cells of row i of `gs`: its index values (a keyed table's key, a
 * field a cell), counters (rates under --watch, from row pi of `prev`)
 * and states, in the columns of --output. */
static void
table_cells(const struct frame *f, const struct fastmib_group_schema *g,
	    const struct group_view *gv, const struct group_snap *gs, uint32_t i,
	    const struct group_snap *prev, int64_t pi, bool rates, const struct cells *cells)
{
	const uint64_t *v = fst_snap_vals(gs, g, i);
	const uint64_t *pv = pi >= 0 ? fst_snap_vals(prev, g, (uint32_t)pi) : NULL;
	uint32_t idx[FASTMIB_MAX_INDEXES];
	bool keyed = fastmib_group_keyed(g);

	if (!keyed)
		fastmib_index_of_row(g, gs->rows[i], idx);
	for (uint32_t k = 0; k < gv->n_cols; k++) {
		struct tcol col = gv->cols[k];
		/* a counter's, for the counter columns alone (a group of states
		 * only has none) */
		const struct fastmib_counter_schema *cs =
			col.kind == TC_COUNTER ? &g->counters[col.n] : NULL;
		char *c = cell(cells, k);

		if (col.kind == TC_STATE) {
			state_cell(c, cells->width, g, col.n, gs, i, prev, pi);
		} else if (col.kind == TC_INDEX && keyed) {
			struct fastmib_key_field kf;
			size_t len;
			const uint8_t *key = fst_snap_key(gs, i, &len);

			c[0] = '\0';
			if (fastmib_key_field(g, key, len, col.n, &kf) == 0)
				fastmib_key_field_text(&kf, c, CELL);
		} else if (col.kind == TC_INDEX) {
			fst_format_count(c, CELL, idx[col.n], false, false);
		} else if (!rates || fst_is_level(cs->type)) {
			value_cell(c, CELL, f, cs, v[col.n]);
		} else {
			rate_cell(c, CELL, f, cs, pv ? &pv[col.n] : NULL, v[col.n]);
		}
	}
}

/* A libsmartcols table with the headers as right-aligned columns. */
static struct libscols_table *
new_table(const struct group_view *gv, const struct cells *heads)
{
	struct libscols_table *tb = fst_cols_new_table();

	for (uint32_t k = 0; k < gv->n_cols; k++)
		fst_cols_add_column(tb, cell(heads, k), true);
	return tb;
}

/*
 * One line per row shown, in the view's order: the columns of --output
 * (index columns, then counters, then states by default). With a
 * previous snapshot (--watch) counter cells are per-second rates, as
 * ifstat shows them, and a state that changed is marked.
 */
static void
print_table_group(const struct frame *f, const struct fastmib_group_schema *g,
		  const struct group_view *gv, const struct group_snap *gs,
		  const struct group_snap *prev)
{
	uint32_t n;
	struct cells heads, cells;
	struct libscols_table *tb;
	uint32_t *order = malloc((gs->n_shown ? gs->n_shown : 1) * sizeof(*order));

	if (order == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	n = fst_view_order(gv, g, gs, prev, f->dt, f->v->max_rows, order);
	if (!f->o->raw)
		print_title(f, g, gv, gs, prev, n);
	if (n == 0 || gv->n_cols == 0) {
		for (uint32_t i = 0; i < n; i++)
			print_hists(f, g, gv, gs, order[i], true);
		free(order);
		return;
	}
	cells_new(&heads, g, gv);
	cells_new(&cells, g, gv);
	table_headers(f, g, gv, prev != NULL, &heads);
	tb = new_table(gv, &heads);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = order[i];
		int64_t pi = prev ? fst_prev_row(prev, g, gs, r) : -1;
		struct libscols_line *ln = fst_cols_new_line(tb);

		table_cells(f, g, gv, gs, r, prev, pi, prev != NULL, &cells);
		for (uint32_t k = 0; k < gv->n_cols; k++)
			fst_cols_set(ln, k, cell(&cells, k));
	}
	fst_cols_print(tb, f->o->raw, 2);
	for (uint32_t i = 0; i < n; i++)
		print_hists(f, g, gv, gs, order[i], true);
	free(heads.buf);
	free(cells.buf);
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
 * cells. Cells as cell_out() writes them, the line in `line` (room for
 * every cell escaped at its longest). Written here because a million
 * lines through libsmartcols cost seconds in its width computations (every
 * cell measured as wide characters), for cells that are plain ASCII.
 */
static void
put_line(const struct cells *cells, uint32_t n, const size_t *width, bool raw, char *line)
{
	size_t len = 0;

	if (!raw) {
		memcpy(line, "  ", 2);
		len = 2;
	}
	for (uint32_t k = 0; k < n; k++) {
		size_t cl = cell_out(NULL, cell(cells, k), raw);

		if (k > 0)
			line[len++] = ' ';
		for (size_t pad = !raw && cl < width[k] ? width[k] - cl : 0; pad > 0; pad--)
			line[len++] = ' ';
		len += cell_out(line + len, cell(cells, k), raw);
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
	size_t width[TCOLS_MAX];
	struct group_snap gs = { .n_present = fst_count_present(seg, gi) };
	uint64_t shown = gs.n_present < f->v->max_rows ? gs.n_present : f->v->max_rows;
	uint32_t bounded = 0;
	struct cells cells;
	char *line;
	int rc = 0;

	if (!f->o->raw)
		print_title(f, g, gv, &gs, NULL, (uint32_t)shown);
	if (shown == 0)
		return 0;
	cells_new(&cells, g, gv);
	line = malloc((size_t)gv->n_cols * (4 * cells.width + 1) + 3);
	if (line == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		exit(EXIT_FAILURE);
	}
	for (int pass = f->o->raw ? 1 : 0; pass < 2 && rc == 0; pass++) {
		struct row_cursor cur = { 0 };
		uint64_t done = 0;
		int more = 1;

		if (pass == 0 || f->o->raw) {
			table_headers(f, g, gv, false, &cells); /* a cell holds a header */
			for (uint32_t k = 0; k < gv->n_cols; k++)
				width[k] = strlen(cell(&cells, k));
			if (f->o->raw)
				put_line(&cells, gv->n_cols, width, true, line);
		}
		while (more > 0 && done < f->v->max_rows) {
			uint64_t want = f->v->max_rows - done;

			gs.n_shown = 0;
			more = fst_snap_range(seg, gi, &cur,
					      want < STREAM_ROWS ? want : STREAM_ROWS, false, &gs);
			if (more < 0) {
				rc = more;
				break;
			}
			if (gs.n_shown == 0)
				break;
			if (pass == 1)
				bounded += gs.n_bounded;
			gs.n_bounded = 0;
			for (uint32_t i = 0; i < gs.n_shown; i++) {
				table_cells(f, g, gv, &gs, i, NULL, -1, false, &cells);
				for (uint32_t k = 0; pass == 0 && k < gv->n_cols; k++) {
					size_t n = cell_out(NULL, cell(&cells, k), false);

					if (n > width[k])
						width[k] = n;
				}
				if (pass == 1)
					put_line(&cells, gv->n_cols, width, f->o->raw, line);
			}
			done += gs.n_shown;
		}
		if (pass == 0 && rc == 0) {
			/* the header line, now that the widths are known */
			table_headers(f, g, gv, false, &cells);
			put_line(&cells, gv->n_cols, width, false, line);
		}
	}
	free(line);
	free(cells.buf);
	fst_group_snap_free(&gs);
	return rc < 0 ? rc : (int)bounded;
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
		if (v->g[i].hist) {
			/* a histogram's block follows its table: the rows shown
			 * (--rows) are read first, once */
			struct group_snap gs = { 0 };
			struct row_cursor cur = { 0 };

			rc = fst_snap_range(seg, i, &cur, v->max_rows, true, &gs);
			if (rc >= 0)
				print_table_group(&f, g, &v->g[i], &gs, NULL);
			bounded += gs.n_bounded;
			fst_group_snap_free(&gs);
			if (rc < 0)
				return rc;
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
