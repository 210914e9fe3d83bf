/* SPDX-License-Identifier: BSD-3-Clause */
/* Tables laid out by libsmartcols, the way every text table here is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cols.h"

static void
out_of_memory(void)
{
	fprintf(stderr, "fastmib-stat: out of memory\n");
	exit(EXIT_FAILURE);
}

struct libscols_table *
fst_cols_new_table(void)
{
	struct libscols_table *tb = scols_new_table();

	if (tb == NULL)
		out_of_memory();
	return tb;
}

void
fst_cols_add_column(struct libscols_table *tb, const char *name, bool right)
{
	if (scols_table_new_column(tb, name, 0, right ? SCOLS_FL_RIGHT : 0) == NULL)
		out_of_memory();
}

struct libscols_line *
fst_cols_new_line(struct libscols_table *tb)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);

	if (ln == NULL)
		out_of_memory();
	return ln;
}

void
fst_cols_set(struct libscols_line *ln, size_t col, const char *data)
{
	if (scols_line_set_data(ln, col, data) != 0)
		out_of_memory();
}

/*
 * Raw: one space between cells, blanks inside a cell escaped as \x20, for
 * scripts. Otherwise rendered to a string first, which keeps the layout
 * independent of the terminal (the same bytes on a terminal as in a pipe,
 * nothing cut to its width) and lets an empty last cell go without
 * trailing blanks.
 */
void
fst_cols_print(struct libscols_table *tb, bool raw, int indent)
{
	char *s = NULL;

	fflush(stdout); /* libsmartcols writes to stdout through its own calls */
	if (raw) {
		scols_table_enable_raw(tb, 1);
		scols_print_table(tb);
		scols_unref_table(tb);
		return;
	}
	if (scols_print_table_to_string(tb, &s) == 0 && s != NULL) {
		for (char *line = s, *next; *line; line = next) {
			size_t n;

			next = strchr(line, '\n');
			n = next ? (size_t)(next - line) : strlen(line);
			next = next ? next + 1 : line + n;
			while (n > 0 && line[n - 1] == ' ')
				n--;
			printf("%*s%.*s\n", indent, "", (int)n, line);
		}
	}
	free(s);
	scols_unref_table(tb);
}
