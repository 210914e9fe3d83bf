/* SPDX-License-Identifier: BSD-3-Clause */
/* --reset: the whole segment, a group, or one table row (by its index, or
 * in a keyed table by its key). */
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

/* What --reset names: a group, and maybe one of its rows. */
struct target {
	int group;
	bool has_row;
	uint32_t row;                       /* a table of integer indexes */
	uint8_t key[FASTMIB_MAX_KEY_BYTES]; /* a keyed table: the row's key */
	size_t key_len;
};

/*
 * Parse "GROUP", "GROUP.I1[.I2...]" (SNMP 1-based indexes) or, for a
 * keyed table, "GROUP/KEY" (fastmib_key_of_text()).
 */
static int
parse_target(const struct fastmib_schema *sc, const char *t, struct target *tg)
{
	size_t len = strcspn(t, "./");
	const char *sep = t[len] ? t + len : NULL;
	char name[NAME_BUF], shape[FASTMIB_MAX_INDEXES * (FASTMIB_MAX_NAME + 24)];
	const struct fastmib_group_schema *g;
	int64_t r;
	int n;

	memset(tg, 0, sizeof(*tg));
	snprintf(name, sizeof(name), "%.*s", (int)len, t);
	tg->group = len < sizeof(name) ? fastmib_group_by_name(sc, name) : -1;
	if (tg->group < 0) {
		fprintf(stderr, "fastmib-stat: no group '%.*s' in %s\n", (int)len, t,
			sc->module);
		return -EINVAL;
	}
	g = &sc->groups[tg->group];
	if (g->n_counters == 0) {
		/* states are set by the application, never reset by a reader */
		fprintf(stderr, "fastmib-stat: '%s' is a group of states only: it has no "
			"counters to reset\n", g->name);
		return -EINVAL;
	}
	tg->has_row = sep != NULL;
	if (!sep)
		return 0;
	if (g->n_indexes == 0) {
		fprintf(stderr, "fastmib-stat: '%s' is a scalar group: no row index\n",
			g->name);
		return -EINVAL;
	}
	if (!fastmib_group_keyed(g)) {
		if (*sep == '/') {
			fprintf(stderr, "fastmib-stat: '%s' is not a keyed table: name its row "
				"by index, %s.I1[.I2...]\n", g->name, g->name);
			return -EINVAL;
		}
		r = fastmib_row_of_text(g, sep + 1);
		if (r < 0) {
			bad_row(t, g);
			return -EINVAL;
		}
		tg->row = (uint32_t)r;
		return 0;
	}
	if (*sep == '.') {
		fastmib_key_shape(g, shape, sizeof(shape));
		fprintf(stderr, "fastmib-stat: '%s' is a keyed table: name its row by key, "
			"%s/KEY, KEY its fields joined by ',': %s\n", g->name, g->name, shape);
		return -EINVAL;
	}
	n = fastmib_key_of_text(g, sep + 1, tg->key);
	if (n < 0) {
		fprintf(stderr, "fastmib-stat: %s\n", fastmib_last_error());
		return -EINVAL;
	}
	tg->key_len = (size_t)n;
	return 0;
}

/*
 * The row of a keyed table that holds key key[0..len), reset: its
 * snapshot is taken, then the row is checked to hold the key still before
 * the baseline is stored (a row given to another key meanwhile is not
 * that key's). A row removed and given to another key after the check
 * was enabled after the snapshot: its newer baseline stays
 * (fastmib_reset_commit()). 0, -ENOENT (no such key), or < 0.
 */
static int
reset_key(struct fastmib_segment *seg, int group, const uint8_t *key, size_t len)
{
	for (int tries = 0; tries < 100; tries++) {
		struct fastmib_reset_plan *plan;
		uint8_t now[FASTMIB_MAX_KEY_BYTES];
		size_t now_len;
		int64_t row = fastmib_keyed_find(seg, (unsigned)group, key, len);
		int rc;

		if (row < 0)
			return (int)row;
		rc = fastmib_reset_prepare(seg, group, (uint32_t)row, &plan);
		if (rc == -ENOENT)
			continue; /* removed since found: find it again */
		if (rc < 0)
			return rc;
		if (fastmib_row_key(seg, (unsigned)group, (uint32_t)row, now, &now_len) == 0 &&
		    now_len == len && memcmp(now, key, len) == 0)
			return fastmib_reset_commit(plan);
		fastmib_reset_abort(plan);
	}
	return -EBUSY; /* the key keeps moving: as busy as a stuck writer */
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

	for (int64_t r = fst_next_row(seg, g, group, 0); r >= 0 && rc == 0;
	     r = fst_next_row(seg, g, group, (uint32_t)r + 1)) {
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

/* Returns a process exit status. With `ask`, only after a yes. */
int
fst_do_reset(struct fastmib_segment *seg, const char *path, const char *target,
	     bool quiet, bool ask)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	char question[NAME_BUF + FASTMIB_MAX_KEY_TEXT + 64];
	struct target tg;
	int rc;
	int64_t n;

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
	if (parse_target(sc, target, &tg) < 0)
		return EXIT_USAGE;

	const struct fastmib_group_schema *g = &sc->groups[tg.group];

	if (g->n_indexes == 0 || tg.has_row) {
		snprintf(question, sizeof(question), "%s '%s'", tg.has_row ? "row" : "group",
			 target);
		if (ask && !confirmed(question, path))
			return EXIT_FAILURE;
		if (tg.key_len) {
			rc = reset_key(seg, tg.group, tg.key, tg.key_len);
			if (rc == -ENOENT) {
				fprintf(stderr, "fastmib-stat: %s: group %s holds no key '%s'\n",
					path, g->name, strchr(target, '/') + 1);
				return EXIT_FAILURE;
			}
		} else {
			rc = fastmib_reset(seg, tg.group, tg.row);
		}
		if (rc < 0)
			goto fail;
		if (!quiet)
			printf("reset %s: %s\n", path, target);
		return 0;
	}
	snprintf(question, sizeof(question), "every row of table '%s' (%" PRIu64
		 " present)", g->name, fst_count_present(seg, (unsigned)tg.group));
	if (ask && !confirmed(question, path))
		return EXIT_FAILURE;
	n = reset_table(seg, g, tg.group);
	if (n < 0)
		goto fail;
	if (!quiet)
		printf("reset %s: %s, %" PRId64 " row(s)\n", path, target, n);
	return 0;
fail:
	fst_report_error(path, "reset");
	return EXIT_FAILURE;
}
