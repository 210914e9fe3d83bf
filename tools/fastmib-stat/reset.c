/* SPDX-License-Identifier: BSD-3-Clause */
/* --reset: the whole segment, a group, or one table row. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stat.h"

/* "bad row ...": what the group's rows are written as. */
static void
bad_row(const char *target, const struct fastmib_group_schema *g)
{
	fprintf(stderr, "fastmib-stat: bad row '%s': %s takes %" PRIu32 " index value(s)",
		target, g->name, g->n_indexes);
	for (uint32_t i = 0; i < g->n_indexes; i++)
		fprintf(stderr, "%s %s 1..%" PRIu32, i ? "," : ":", g->indexes[i].name,
			g->indexes[i].max);
	fprintf(stderr, "\n");
}

/*
 * Parse "GROUP" or "GROUP.I1[.I2...]" (SNMP 1-based indexes) into a group
 * number and a 0-based row; *has_row tells whether a row was given.
 */
static int
parse_target(const struct fastmib_schema *sc, const char *t, int *group,
	     uint32_t *row, bool *has_row)
{
	const char *dot = strchr(t, '.');
	size_t len = dot ? (size_t)(dot - t) : strlen(t);
	char name[NAME_BUF];
	const struct fastmib_group_schema *g;
	int64_t r;

	snprintf(name, sizeof(name), "%.*s", (int)len, t);
	*group = len < sizeof(name) ? fastmib_group_by_name(sc, name) : -1;
	if (*group < 0) {
		fprintf(stderr, "fastmib-stat: no group '%.*s' in %s\n", (int)len, t,
			sc->module);
		return -EINVAL;
	}
	g = &sc->groups[*group];
	*has_row = dot != NULL;
	*row = 0;
	if (!dot)
		return 0;
	if (g->n_indexes == 0) {
		fprintf(stderr, "fastmib-stat: '%s' is a scalar group: no row index\n",
			g->name);
		return -EINVAL;
	}
	r = fastmib_row_of_text(g, dot + 1);
	if (r < 0) {
		bad_row(t, g);
		return -EINVAL;
	}
	*row = (uint32_t)r;
	return 0;
}

/*
 * A table as a whole: every row present now, all or nothing. Every row's
 * snapshot is taken first (a writer stuck mid-transaction makes that fail
 * with nothing stored), then all are stored. Returns rows reset or < 0.
 */
static int64_t
reset_table(struct fastmib_segment *seg, const struct fastmib_group_schema *g, int group)
{
	struct fastmib_reset_plan **plans = NULL, *p;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (int64_t r = next_row(seg, g, group, 0); r >= 0 && rc == 0;
	     r = next_row(seg, g, group, (uint32_t)r + 1)) {
		if (n == cap) {
			struct fastmib_reset_plan **more;

			cap = cap ? 2 * cap : 64;
			more = realloc(plans, cap * sizeof(*more));
			if (!more) {
				rc = -ENOMEM;
				break;
			}
			plans = more;
		}
		rc = fastmib_reset_prepare(seg, group, (uint32_t)r, &p);
		if (rc == -ENOENT) /* disabled meanwhile */
			rc = 0;
		else if (rc == 0)
			plans[n++] = p;
	}
	for (size_t i = 0; i < n; i++) {
		if (rc < 0)
			fastmib_reset_abort(plans[i]);
		else if (fastmib_reset_commit(plans[i]) < 0)
			rc = -EBUSY;
	}
	free(plans);
	return rc < 0 ? rc : (int64_t)n;
}

/*
 * Ask on the terminal before a reset: it cannot be undone, and an operator
 * who typed --reset for --rows (or the wrong segment) deserves a second
 * look. The question goes to stderr, so that stdout stays the report.
 */
static bool
confirmed(const char *question, const char *path)
{
	char *answer = NULL;
	size_t cap = 0;
	ssize_t n;
	bool yes;

	fprintf(stderr, "fastmib-stat: reset %s of %s? [y/N] ", question, path);
	fflush(stderr);
	n = getline(&answer, &cap, stdin);
	if (n < 0)
		fputc('\n', stderr); /* end of input: no, on a line of its own */
	while (n > 0 && isspace((unsigned char)answer[n - 1]))
		answer[--n] = '\0';
	yes = n > 0 && (strcasecmp(answer, "y") == 0 || strcasecmp(answer, "yes") == 0);
	free(answer);
	if (!yes)
		fprintf(stderr, "fastmib-stat: nothing reset\n");
	return yes;
}

/* Rows present now in table `group`, for the question. */
static uint64_t
present_rows(struct fastmib_segment *seg, const struct fastmib_group_schema *g,
	     int group)
{
	uint64_t n = 0;

	for (int64_t r = next_row(seg, g, group, 0); r >= 0;
	     r = next_row(seg, g, group, (uint32_t)r + 1))
		n++;
	return n;
}

/* Returns a process exit status. With `ask`, only after a yes. */
int
do_reset(struct fastmib_segment *seg, const char *path, const char *target,
	 bool quiet, bool ask)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	char question[2 * NAME_BUF + 64];
	int group, rc;
	uint32_t row;
	int64_t n;
	bool has_row;

	if (target == NULL) {
		snprintf(question, sizeof(question), "every counter (%s)", sc->module);
		if (ask && !confirmed(question, path))
			return EXIT_FAILURE;
		rc = fastmib_reset(seg, -1, 0);
		if (rc < 0)
			goto fail;
		if (!quiet)
			printf("reset %s: all counters\n", path);
		return 0;
	}
	if (parse_target(sc, target, &group, &row, &has_row) < 0)
		return EXIT_USAGE;

	const struct fastmib_group_schema *g = &sc->groups[group];

	if (g->n_indexes == 0 || has_row) {
		snprintf(question, sizeof(question), "%s '%s'", has_row ? "row" : "group",
			 target);
		if (ask && !confirmed(question, path))
			return EXIT_FAILURE;
		rc = fastmib_reset(seg, group, row);
		if (rc < 0)
			goto fail;
		if (!quiet)
			printf("reset %s: %s\n", path, target);
		return 0;
	}
	snprintf(question, sizeof(question), "every row of table '%s' (%" PRIu64
		 " present)", g->name, present_rows(seg, g, group));
	if (ask && !confirmed(question, path))
		return EXIT_FAILURE;
	n = reset_table(seg, g, group);
	if (n < 0)
		goto fail;
	if (!quiet)
		printf("reset %s: %s, %" PRId64 " row(s)\n", path, target, n);
	return 0;
fail:
	report_error(path, "reset");
	return EXIT_FAILURE;
}
