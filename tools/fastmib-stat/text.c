/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters as text: a list per scalar group, a table per table group. */
#include <inttypes.h>
#include <string.h>

#include "stat.h"

static void
print_scalar_group(const struct fastmib_schema *sc,
		   const struct fastmib_group_schema *g,
		   const struct group_snap *gs, const struct group_snap *prev,
		   double dt)
{
	char name[NAME_BUF];
	size_t width = 0;
	const uint64_t *pv = prev ? prev_row_vals(prev, g->n_counters, 0) : NULL;

	for (uint32_t c = 0; c < g->n_counters; c++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		if (strlen(name) > width)
			width = strlen(name);
	}
	printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		double rate;

		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, cs->name);
		printf("  %-*s = %" PRIu64, (int)width, name, gs->vals[c]);
		if (pv != NULL && rate_of(cs->type, pv[c], gs->vals[c], dt, &rate))
			printf("  (%.0f/s)", rate);
		printf("\n");
	}
}

static int
digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * One line per row: index columns, then counters. With a previous snapshot
 * (--watch) counter cells are per-second rates, as ifstat shows them.
 */
static void
print_table_group(const struct fastmib_schema *sc,
		  const struct fastmib_group_schema *g,
		  const struct group_snap *gs, const struct group_snap *prev,
		  double dt)
{
	uint32_t nc = g->n_counters, ni = g->n_indexes;
	int width[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS];
	char name[NAME_BUF];
	uint32_t idx[FASTMIB_MAX_INDEXES];

	printf("%s: %" PRIu64 " of %" PRIu32 " rows present", g->name,
	       gs->n_present, g->n_rows);
	if (gs->n_shown < gs->n_present)
		printf(", %" PRIu32 " shown", gs->n_shown);
	printf("%s\n", prev ? ", counters per second" : "");
	if (gs->n_shown == 0)
		return;

	for (uint32_t k = 0; k < ni; k++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX,
			     sc->prefix, g->name, g->indexes[k].name);
		width[k] = (int)strlen(name);
		if (digits(g->indexes[k].max) > width[k])
			width[k] = digits(g->indexes[k].max);
	}
	for (uint32_t c = 0; c < nc; c++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		width[ni + c] = (int)strlen(name);
		for (uint32_t r = 0; r < gs->n_shown; r++) {
			int d = digits(gs->vals[(size_t)r * nc + c]);

			if (d > width[ni + c])
				width[ni + c] = d;
		}
	}

	printf(" ");
	for (uint32_t k = 0; k < ni; k++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_INDEX,
			     sc->prefix, g->name, g->indexes[k].name);
		printf(" %*s", width[k], name);
	}
	for (uint32_t c = 0; c < nc; c++) {
		fastmib_name(name, sizeof(name), FASTMIB_MIB_COUNTER,
			     sc->prefix, g->name, g->counters[c].name);
		printf(" %*s", width[ni + c], name);
	}
	printf("\n");

	for (uint32_t r = 0; r < gs->n_shown; r++) {
		const uint64_t *v = &gs->vals[(size_t)r * nc];
		const uint64_t *pv = prev ? prev_row_vals(prev, nc, gs->rows[r]) : NULL;

		fastmib_index_of_row(g, gs->rows[r], idx);
		printf(" ");
		for (uint32_t k = 0; k < ni; k++)
			printf(" %*" PRIu32, width[k], idx[k]);
		for (uint32_t c = 0; c < nc; c++) {
			double rate;

			if (prev == NULL || g->counters[c].type == FASTMIB_GAUGE32)
				printf(" %*" PRIu64, width[ni + c], v[c]);
			else if (pv && rate_of(g->counters[c].type, pv[c], v[c], dt, &rate))
				printf(" %*.0f", width[ni + c], rate);
			else
				printf(" %*s", width[ni + c], "-");
		}
		printf("\n");
	}
}

void
print_text(struct fastmib_segment *seg, const char *path, const struct snap *s,
	   const struct snap *prev)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	double dt = 0;
	uint32_t bounded = 0;

	fastmib_info(seg, &info);
	if (prev != NULL)
		dt = (double)(s->at.tv_sec - prev->at.tv_sec) +
		     (double)(s->at.tv_nsec - prev->at.tv_nsec) / 1e9;
	printf("%s  %s  generation %" PRIu64 "  writer %s\n", sc->module, path,
	       info.generation, info.writer_running ? "running" : "gone");
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		const struct group_snap *pg = prev ? &prev->g[i] : NULL;

		printf("\n");
		if (g->n_indexes == 0)
			print_scalar_group(sc, g, &s->g[i], pg, dt);
		else
			print_table_group(sc, g, &s->g[i], pg, dt);
		bounded += s->g[i].n_bounded;
	}
	if (bounded)
		printf("\nnote: %" PRIu32 " snapshot(s) best-effort: a writer "
		       "stayed inside a transaction\n", bounded);
}
