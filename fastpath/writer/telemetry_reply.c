/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts every answer of the telemetry commands is built of, and what
 * each costs: sizes of JSON text, error answers, empty containers, MIB
 * names as DPDK keeps them, a group's counters dict and a table's present
 * rows. Both commands' files build their answers with it, and it calls
 * neither: telemetry_commands.c calls telemetry_keyed.c, and both call
 * this file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>

#include "fastmib/names.h"
#include "telemetry_answer.h"

/* ---- answer sizes ---- */

size_t
fms_telcmd_str_size(const char *s)
{
	size_t n = 2;

	for (; *s; s++)
		n += *s == '"' || *s == '\\' ? 2 : (unsigned char)*s < 0x20 ? 6 : 1;
	return n;
}

size_t
fms_telcmd_u64_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

size_t
fms_telcmd_entry_size(const char *name, size_t value)
{
	return fms_telcmd_str_size(name) + 1 + value + 1;
}

bool
fms_telcmd_fits(size_t *left, size_t n)
{
	if (n > *left)
		return false;
	*left -= n;
	return true;
}

/* ---- parts of an answer ---- */

int
fms_telcmd_error(struct rte_tel_data *d, const char *fmt, ...)
{
	char msg[TEL_MAX_STR + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

struct rte_tel_data *
fms_telcmd_dict(void)
{
	struct rte_tel_data *t = rte_tel_data_alloc();

	if (t != NULL)
		rte_tel_data_start_dict(t);
	return t;
}

struct rte_tel_data *
fms_telcmd_str_array(void)
{
	struct rte_tel_data *t = rte_tel_data_alloc();

	if (t != NULL)
		rte_tel_data_start_array(t, RTE_TEL_STRING_VAL);
	return t;
}

void
fms_telcmd_name(char *buf, enum fastmib_name_role role, const char *prefix, const char *group,
		const char *name)
{
	fastmib_name(buf, TEL_NAME_LEN, role, prefix, group, name);
	if (strlen(buf) > TEL_MAX_STR)
		snprintf(buf, TEL_NAME_LEN, "%s", name);
}

int64_t
fms_telcmd_fit(uint32_t n, size_t (*cost)(const void *ctx, uint32_t k), const void *ctx,
	       size_t *left, bool partial, bool *cut)
{
	size_t need = 2;
	uint32_t k = 0;

	for (; k < n; k++) {
		size_t c = cost(ctx, k);

		if (need + c > *left)
			break;
		need += c;
	}
	if (k < n && !partial)
		return -1;
	*left -= need;
	if (k < n)
		*cut = true;
	return k;
}

/* What fms_telcmd_counters() and fms_telcmd_hists() walk: a group's
 * counters (or histograms) and the words of their row. */
struct counters {
	const struct fastmib_group_schema *g;
	const struct fms_telcmd_names *gn;
	const uint64_t *raw;
};

static uint64_t
counter_value(const struct counters *c, uint32_t k)
{
	const struct fastmib_counter_schema *cs = &c->g->counters[c->gn->of[k]];

	return fastmib_reported_value(cs->type, c->raw[fastmib_counter_word(cs)]);
}

static size_t
counter_cost(const void *ctx, uint32_t k)
{
	const struct counters *c = ctx;

	return c->gn->size[k] + fms_telcmd_u64_size(counter_value(c, k));
}

struct rte_tel_data *
fms_telcmd_counters(const struct fastmib_group_schema *g, const struct fms_telcmd_names *gn,
		    const uint64_t *raw, size_t *left, bool partial, bool *cut)
{
	const struct counters c = { g, gn, raw };
	int64_t n = fms_telcmd_fit(gn->n, counter_cost, &c, left, partial, cut);
	struct rte_tel_data *t;

	if (n < 0 || (t = fms_telcmd_dict()) == NULL)
		return NULL;
	for (uint32_t k = 0; k < (uint32_t)n; k++)
		rte_tel_data_add_dict_u64(t, gn->name[k], counter_value(&c, k));
	return t;
}

/* JSON text of an array of these numbers. */
static size_t
u64_array_size(const uint64_t *v, uint32_t n)
{
	size_t size = 2;

	for (uint32_t i = 0; i < n; i++)
		size += fms_telcmd_u64_size(v[i]) + 1;
	return size;
}

/* Histogram k's schema and words. */
static const uint64_t *
hist_words(const struct counters *c, uint32_t k, const struct fastmib_counter_schema **cs)
{
	*cs = &c->g->counters[c->gn->of[k]];
	return c->raw + fastmib_counter_word(*cs);
}

static size_t
hist_cost(const void *ctx, uint32_t k)
{
	const struct counters *c = ctx;
	const struct fastmib_counter_schema *cs;
	const uint64_t *w = hist_words(c, k, &cs);
	size_t body = 2 + fms_telcmd_entry_size("bounds", u64_array_size(cs->bounds, cs->n_bounds)) +
		      fms_telcmd_entry_size("buckets", u64_array_size(w, cs->n_bounds + 1)) +
		      fms_telcmd_entry_size("count", fms_telcmd_u64_size(w[cs->n_bounds + 1])) +
		      fms_telcmd_entry_size("sum", fms_telcmd_u64_size(w[cs->n_bounds + 2]));

	return c->gn->size[k] + body;
}

static struct rte_tel_data *
u64_array(const uint64_t *v, uint32_t n)
{
	struct rte_tel_data *a = rte_tel_data_alloc();

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
	for (uint32_t i = 0; i < n; i++)
		rte_tel_data_add_array_u64(a, v[i]);
	return a;
}

struct rte_tel_data *
fms_telcmd_hists(const struct fastmib_group_schema *g, const struct fms_telcmd_names *hn,
		 const uint64_t *raw, size_t *left, bool partial, bool *cut)
{
	const struct counters c = { g, hn, raw };
	int64_t n = fms_telcmd_fit(hn->n, hist_cost, &c, left, partial, cut);
	struct rte_tel_data *t;

	if (n < 0 || (t = fms_telcmd_dict()) == NULL)
		return NULL;
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		const struct fastmib_counter_schema *cs;
		const uint64_t *w = hist_words(&c, k, &cs);
		struct rte_tel_data *h = fms_telcmd_dict(), *b = u64_array(cs->bounds, cs->n_bounds),
				    *k_ = u64_array(w, cs->n_bounds + 1);

		if (h == NULL || b == NULL || k_ == NULL) {
			rte_tel_data_free(h);
			rte_tel_data_free(b);
			rte_tel_data_free(k_);
			rte_tel_data_free(t);
			return NULL;
		}
		/* every value from the one snapshot `raw`: count = sum of buckets */
		rte_tel_data_add_dict_container(h, "bounds", b, 0);
		rte_tel_data_add_dict_container(h, "buckets", k_, 0);
		rte_tel_data_add_dict_u64(h, "count", w[cs->n_bounds + 1]);
		rte_tel_data_add_dict_u64(h, "sum", w[cs->n_bounds + 2]);
		rte_tel_data_add_dict_container(t, hn->name[k], h, 0);
	}
	return t;
}

uint64_t
fms_telcmd_present_rows(struct fastmib_segment *seg, unsigned int gi)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	uint64_t n = 0;

	if (g->all_rows)
		return g->n_rows;
	for (int64_t r = fastmib_next_row(seg, gi, 0); r >= 0 && r < g->n_rows;
	     r = fastmib_next_row(seg, gi, (uint32_t)r + 1))
		n++;
	return n;
}
