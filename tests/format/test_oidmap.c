/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the OID map (<fastmib/oidmap.h>), without any agent.
 *
 * An oracle lists every instance OID of a small schema straight from the
 * layout of docs/mib-layout.md (literal arcs, not the header's constants),
 * sorted in OID order, with the reference each one must resolve to. Probe
 * OIDs derived from every instance and object type (the OID itself, each
 * prefix, neighbours, arcs 0 and huge, deeper suffixes) must then get the
 * oracle's answer from fastmib_oidmap_resolve() and, inclusive or not,
 * fastmib_oidmap_next(); every instance must round-trip through
 * fastmib_oidmap_suffix(). Table rows and event records come from a fake
 * row source that counts its calls.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fastmib/oidmap.h"

#define MAX_OID 16 /* longest probe */

/* ---- schemas ---- */

#define CTR(n, a) { .name = n, .units = "", .description = "c", .arc = a, \
		    .type = FASTMIB_COUNTER64 }

static const struct fastmib_counter_schema c_tab2[] = { CTR("b", 2), CTR("a", 1) };
static const struct fastmib_counter_schema c_glob[] = { CTR("z", 3), CTR("x", 1), CTR("y", 2) };
static const struct fastmib_counter_schema c_tab1[] = { CTR("p", 1) };
static const struct fastmib_counter_schema c_tab3[] = { CTR("q", 999), CTR("r", 4), CTR("s", 5) };
static const struct fastmib_counter_schema c_empty[] = { CTR("e", 1) };
static const struct fastmib_counter_schema c_last[] = { CTR("l", 999) };

/* Groups in model order, which is not arc order. */
static const struct fastmib_group_schema g_mix[] = {
	{ .name = "tab2", .arc = 3, .n_indexes = 2, .indexes = { { .name = "i", .max = 3 }, { .name = "j", .max = 4 } },
	  .n_rows = 12, .n_counters = 2, .counters = c_tab2 },
	{ .name = "glob", .arc = 1, .n_rows = 1, .n_counters = 3, .counters = c_glob },
	{ .name = "tab1", .arc = 2, .n_indexes = 1, .all_rows = 1, .indexes = { { .name = "k", .max = 5 } },
	  .n_rows = 5, .n_counters = 1, .counters = c_tab1 },
	{ .name = "tab3", .arc = 7, .n_indexes = 3,
	  .indexes = { { .name = "u", .max = 2 }, { .name = "v", .max = 3 }, { .name = "w", .max = 2 } },
	  .n_rows = 12, .n_counters = 3, .counters = c_tab3 },
	{ .name = "empty", .arc = 5, .n_indexes = 1, .indexes = { { .name = "m", .max = 6 } },
	  .n_rows = 6, .n_counters = 1, .counters = c_empty },
	{ .name = "last", .arc = 999, .n_rows = 1, .n_counters = 1, .counters = c_last },
};

/* Events with 0..4 arguments, not in arc order. */
static const struct fastmib_event_schema e_mix[] = {
	{ .name = "none", .arc = 3, .n_args = 0 },
	{ .name = "one", .arc = 1, .n_args = 1 },
	{ .name = "two", .arc = 7, .n_args = 2 },
	{ .name = "three", .arc = 2, .n_args = 3 },
	{ .name = "four", .arc = 999, .n_args = 4 },
};

static const struct fastmib_schema s_mix = {
	.version = 1, .module = "MIX-MIB", .prefix = "mx",
	.oid_len = 3, .oid = { 1, 3, 6 },
	.n_groups = 6, .groups = g_mix, .n_events = 5, .events = e_mix,
};

/* Scalar groups only, no events. */
static const struct fastmib_counter_schema c_s1[] = { CTR("a", 2), CTR("b", 1) };
static const struct fastmib_counter_schema c_s2[] = { CTR("c", 7) };
static const struct fastmib_group_schema g_scalars[] = {
	{ .name = "s2", .arc = 4, .n_rows = 1, .n_counters = 1, .counters = c_s2 },
	{ .name = "s1", .arc = 1, .n_rows = 1, .n_counters = 2, .counters = c_s1 },
};
static const struct fastmib_schema s_scalars = {
	.version = 1, .module = "SC-MIB", .prefix = "sc", .oid_len = 1, .oid = { 1 },
	.n_groups = 2, .groups = g_scalars,
};

/* One `rows: present` table, which may be empty, and an event without arguments. */
static const struct fastmib_group_schema g_lone[] = {
	{ .name = "lone", .arc = 10, .n_indexes = 1, .indexes = { { .name = "n", .max = 3 } },
	  .n_rows = 3, .n_counters = 1, .counters = c_empty },
};
static const struct fastmib_event_schema e_lone[] = { { .name = "ev", .arc = 5 } };
static const struct fastmib_schema s_lone = {
	.version = 1, .module = "LONE-MIB", .prefix = "lo", .oid_len = 1, .oid = { 1 },
	.n_groups = 1, .groups = g_lone, .n_events = 1, .events = e_lone,
};

/* States beside counters (an inet-address takes two arcs), groups of
 * states only (no Reset or DiscontinuityTime), a `notify` state (then
 * R.2.6 NotificationsDropped). */
#define STATE(n, a, t) { .name = n, .units = "", .description = "s", .arc = a, .type = t }
static const struct fastmib_state_schema st_glob[] = {
	STATE("up", 5, FASTMIB_STATE_TRUTH_VALUE), STATE("peer", 3, FASTMIB_STATE_INET_ADDRESS),
	STATE("name", 9, FASTMIB_STATE_DISPLAY_STRING),
};
static const struct fastmib_state_schema st_only[] = {
	STATE("release", 2, FASTMIB_STATE_DISPLAY_STRING), STATE("boot", 1, FASTMIB_STATE_TIMESTAMP),
};
static const struct fastmib_enum_value ud[] = { { "up", 1 }, { "down", 2 } };
static const struct fastmib_state_schema st_tab[] = {
	{ .name = "link", .units = "", .description = "s", .arc = 2, .type = FASTMIB_STATE_ENUM,
	  .notify = 1, .n_values = 2, .values = ud },
	STATE("remote", 998, FASTMIB_STATE_INET_ADDRESS),
};
static const struct fastmib_group_schema g_states[] = {
	{ .name = "glob", .arc = 1, .n_rows = 1, .n_counters = 2, .counters = c_s1,
	  .n_states = 3, .states = st_glob },
	{ .name = "only", .arc = 2, .n_rows = 1, .n_states = 2, .states = st_only },
	{ .name = "tab", .arc = 3, .n_indexes = 1, .indexes = { { .name = "t", .max = 4 } },
	  .n_rows = 4, .n_counters = 1, .counters = c_tab1, .n_states = 2, .states = st_tab },
	{ .name = "otab", .arc = 4, .n_indexes = 1, .all_rows = 1,
	  .indexes = { { .name = "o", .max = 2 } }, .n_rows = 2, .n_states = 2,
	  .states = st_only },
};
static const struct fastmib_schema s_states = {
	.version = 1, .module = "ST-MIB", .prefix = "st", .oid_len = 1, .oid = { 1 },
	.n_groups = 4, .groups = g_states,
};

/* Histograms and peaks: a histogram's count and sum at its arc and the
 * next, its bucket table at R.1.(1000 G + H); in a scalar group, a
 * `rows: present` table and a keyed table whose string index makes
 * indexes of several lengths. */
static const uint64_t b3[] = { 10, 100, 1000 };
static const uint64_t b1[] = { 7 };
#define HIST(n, a, nb, b) { .name = n, .units = "", .description = "h", .arc = a, \
			    .type = FASTMIB_HISTOGRAM, .n_bounds = nb, .bounds = b }
#define PEAK(n, a) { .name = n, .units = "", .description = "p", .arc = a, \
		     .type = FASTMIB_PEAK }
static const struct fastmib_counter_schema c_hglob[] = {
	CTR("pkts", 1), HIST("lat", 5, 3, b3), PEAK("depth", 3), HIST("size", 998, 1, b1),
};
static const struct fastmib_counter_schema c_htab[] = { PEAK("burst", 2), HIST("lat", 4, 1, b1) };
static const struct fastmib_counter_schema c_hkey[] = { HIST("lat", 1, 3, b3), CTR("pkts", 3) };
static const struct fastmib_group_schema g_hist[] = {
	{ .name = "key", .arc = 7, .n_indexes = 2,
	  .indexes = { { .name = "who", .type = FASTMIB_INDEX_STRING, .size = 8 },
		       { .name = "q", .type = FASTMIB_INDEX_UINT32 } },
	  .n_rows = 8, .n_counters = 2, .counters = c_hkey },
	{ .name = "glob", .arc = 2, .n_rows = 1, .n_counters = 4, .counters = c_hglob },
	{ .name = "tab", .arc = 1, .n_indexes = 2,
	  .indexes = { { .name = "i", .max = 3 }, { .name = "j", .max = 2 } },
	  .n_rows = 6, .n_counters = 2, .counters = c_htab },
};
static const struct fastmib_schema s_hist = {
	.version = 1, .module = "HI-MIB", .prefix = "hi", .oid_len = 1, .oid = { 1 },
	.n_groups = 3, .groups = g_hist,
};

/* ---- fake row source ---- */

struct fake {
	const struct fastmib_schema *sc;
	/* per schema group: present rows of a `rows: present` table */
	const uint32_t *rows[8];
	uint32_t n_rows[8];
	/* per schema group of a keyed table: its keys' SNMP indexes, each
	 * FAKE_KEY_LEN sub-identifiers at most, their lengths and rows */
	const uint64_t (*key_idx)[8];
	const size_t *key_n;
	const uint32_t *key_row;
	uint32_t n_keys;
	unsigned int key_group;
	/* event history: ascending numbers and their argument counts */
	const uint64_t *nums;
	const uint32_t *args;
	uint32_t n_nums;
	unsigned int next_row_calls, present_calls, next_event_calls, event_calls;
};

static int64_t
fake_next_row(void *ctx, unsigned int group, uint32_t row)
{
	struct fake *f = ctx;

	f->next_row_calls++;
	assert_false(f->sc->groups[group].all_rows);
	assert_true(f->sc->groups[group].n_indexes > 0);
	for (uint32_t i = 0; i < f->n_rows[group]; i++)
		if (f->rows[group][i] >= row)
			return f->rows[group][i];
	return -1;
}

static bool
fake_row_present(void *ctx, unsigned int group, uint32_t row)
{
	struct fake *f = ctx;

	f->present_calls++;
	for (uint32_t i = 0; i < f->n_rows[group]; i++)
		if (f->rows[group][i] == row)
			return true;
	return false;
}

static int64_t
fake_next_event(void *ctx, uint64_t from, uint32_t min_args)
{
	struct fake *f = ctx;

	f->next_event_calls++;
	for (uint32_t i = 0; i < f->n_nums; i++)
		if (f->nums[i] >= from && f->args[i] >= min_args)
			return (int64_t)f->nums[i];
	return -1;
}

static bool
fake_event(void *ctx, uint64_t num, uint32_t *n_args)
{
	struct fake *f = ctx;

	f->event_calls++;
	for (uint32_t i = 0; i < f->n_nums; i++) {
		if (f->nums[i] == num) {
			*n_args = f->args[i];
			return true;
		}
	}
	return false;
}

static int64_t
fake_keyed_find(void *ctx, unsigned int group, const uint8_t *key, size_t len)
{
	struct fake *f = ctx;
	uint8_t k[FASTMIB_MAX_KEY_BYTES];

	f->next_row_calls++;
	for (uint32_t i = 0; group == f->key_group && i < f->n_keys; i++) {
		int kl = fastmib_key_of_index(&f->sc->groups[group], f->key_idx[i], f->key_n[i], k);

		assert_true(kl > 0);
		if ((size_t)kl == len && memcmp(k, key, len) == 0)
			return f->key_row[i];
	}
	return -1;
}

/* The key whose index comes first after idx[0..n) (or at it), by brute force. */
static int64_t
fake_keyed_next(void *ctx, unsigned int group, const uint64_t *idx, size_t n, bool inclusive,
		uint8_t *key, size_t *len)
{
	struct fake *f = ctx;
	const struct fastmib_group_schema *g = &f->sc->groups[group];
	int best = -1;
	uint8_t k[FASTMIB_MAX_KEY_BYTES], bk[FASTMIB_MAX_KEY_BYTES];
	int bl = 0;

	f->next_row_calls++;
	for (uint32_t i = 0; group == f->key_group && i < f->n_keys; i++) {
		int kl = fastmib_key_of_index(g, f->key_idx[i], f->key_n[i], k);
		int c = fastmib_key_cmp_index(g, k, (size_t)kl, idx, n);

		if (c < 0 || (c == 0 && !inclusive))
			continue;
		if (best < 0 || fastmib_key_cmp(k, (size_t)kl, bk, (size_t)bl) < 0) {
			best = (int)i;
			memcpy(bk, k, (size_t)kl);
			bl = kl;
		}
	}
	if (best < 0)
		return -1;
	memcpy(key, bk, (size_t)bl);
	*len = (size_t)bl;
	return f->key_row[best];
}

static struct fastmib_oid_rows
fake_rows(struct fake *f, bool with_present)
{
	struct fastmib_oid_rows r = {
		.ctx = f,
		.next_row = fake_next_row,
		.row_present = with_present ? fake_row_present : NULL,
		.next_event = fake_next_event,
		.event = fake_event,
		.keyed_find = fake_keyed_find,
		.keyed_next = fake_keyed_next,
	};

	return r;
}

/* Present rows of tab2 (3 x 4) and tab3 (2 x 3 x 2); `empty` has none. */
static const uint32_t mix_tab2_rows[] = { 0, 5, 6, 11 };
static const uint32_t mix_tab3_rows[] = { 1, 2, 7, 10, 11 };

/* Two event histories: a run of numbers, and the last numbers there are. */
static const uint64_t hist_low[] = { 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52 };
static const uint32_t hist_low_args[] = { 0, 1, 2, 3, 4, 4, 0, 2, 1, 3, 0, 0, 4 };
static const uint64_t hist_top[] = { 4294967293u, 4294967294u, 4294967295u };
static const uint32_t hist_top_args[] = { 4, 0, 1 };

static void
fake_mix(struct fake *f, const uint64_t *nums, const uint32_t *args, uint32_t n_nums)
{
	memset(f, 0, sizeof(*f));
	f->sc = &s_mix;
	f->rows[0] = mix_tab2_rows;
	f->n_rows[0] = 4;
	f->rows[3] = mix_tab3_rows;
	f->n_rows[3] = 5;
	f->nums = nums;
	f->args = args;
	f->n_nums = n_nums;
}

/* ---- the oracle ---- */

struct oid {
	uint64_t v[MAX_OID];
	size_t len;
};

struct inst {
	struct oid oid;
	struct fastmib_oid_ref ref;
};

struct oracle {
	struct inst *inst;    /* every instance, in OID order */
	size_t n_inst;
	struct inst *objects; /* every accessible object type (OID without instance) */
	size_t n_objects;
	size_t cap_inst, cap_objects;
};

static int
oid_cmp(const struct oid *a, const struct oid *b)
{
	for (size_t i = 0; i < a->len && i < b->len; i++)
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? -1 : 1;
	return (a->len > b->len) - (a->len < b->len);
}

static int
inst_cmp(const void *a, const void *b)
{
	return oid_cmp(&((const struct inst *)a)->oid, &((const struct inst *)b)->oid);
}

static struct oid
oid_of(size_t n, const uint64_t *v)
{
	struct oid o = { .len = n };

	memcpy(o.v, v, n * sizeof(*v));
	return o;
}

static void
push(struct inst **arr, size_t *n, size_t *cap, struct oid o, struct fastmib_oid_ref ref)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*arr = realloc(*arr, *cap * sizeof(**arr));
		assert_non_null(*arr);
	}
	(*arr)[(*n)++] = (struct inst){ o, ref };
}

/* A reference to compare with (keyed tables' keys left empty). */
#define REF(k, g, c, r, col)                                                   \
	(&(struct fastmib_oid_ref){ .kind = (k), .group = (g), .counter = (c), \
				    .row = (r), .column = (col) })

static struct fastmib_oid_ref
ref_of(enum fastmib_oid_kind kind, int group, uint32_t counter, uint32_t row, uint32_t column)
{
	struct fastmib_oid_ref r = { .kind = kind, .group = group, .counter = counter,
				     .row = row, .column = column };

	return r;
}

static struct fastmib_oid_ref
ref_state(int group, uint32_t state, uint32_t part)
{
	struct fastmib_oid_ref r = { .kind = FASTMIB_OID_STATE, .group = group,
				     .counter = state, .part = part };

	return r;
}

/* Does the schema send notifications (a `notify` event or state)? */
static bool
notifies(const struct fastmib_schema *sc)
{
	for (uint32_t e = 0; e < sc->n_events; e++)
		if (sc->events[e].notify)
			return true;
	for (uint32_t g = 0; g < sc->n_groups; g++)
		for (uint32_t s = 0; s < sc->groups[g].n_states; s++)
			if (sc->groups[g].states[s].notify)
				return true;
	return false;
}

/* The instances of one column of a table (`tail`: a bucket number after the
 * index, 0 for none), v[0..n) the column's OID. */
static void
oracle_rows(struct oracle *o, const struct fake *f, int gi, uint64_t *v, size_t n,
	    uint64_t tail, struct fastmib_oid_ref ref)
{
	const struct fastmib_group_schema *g = &f->sc->groups[gi];

	if (fastmib_group_keyed(g)) {
		/* a row per key: its SNMP index as the fake holds it */
		for (uint32_t i = 0; (unsigned)gi == f->key_group && i < f->n_keys; i++) {
			size_t m = f->key_n[i];
			int kl = fastmib_key_of_index(g, f->key_idx[i], m, ref.key);

			assert_true(kl > 0);
			memcpy(v + n, f->key_idx[i], m * sizeof(uint64_t));
			if (tail)
				v[n + m++] = tail;
			ref.row = f->key_row[i];
			ref.key_len = (uint32_t)kl;
			push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(n + m, v), ref);
		}
		return;
	}
	for (uint32_t row = 0; row < g->n_rows; row++) {
		bool present = g->all_rows;
		uint32_t rest = row;

		for (uint32_t i = 0; i < f->n_rows[gi]; i++)
			present |= f->rows[gi][i] == row;
		if (!present)
			continue;
		/* the last index varies fastest; SNMP indexes are 1-based */
		for (uint32_t k = g->n_indexes; k-- > 0;) {
			v[n + k] = rest % g->indexes[k].max + 1;
			rest /= g->indexes[k].max;
		}
		if (tail)
			v[n + g->n_indexes] = tail;
		ref.row = row;
		push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(n + g->n_indexes + !!tail, v), ref);
	}
}

/* A histogram's bucket table R.1.(1000 G + H).1.C.<index>.b: columns 2
 * (its bounds) and 3 (its counts), buckets 1..bounds+1 of every row. */
static void
oracle_buckets(struct oracle *o, const struct fake *f, int gi, uint32_t c)
{
	const struct fastmib_group_schema *g = &f->sc->groups[gi];
	uint64_t v[MAX_OID];

	for (uint32_t col = 2; col <= 3; col++) {
		struct fastmib_oid_ref ref = ref_of(FASTMIB_OID_BUCKET, gi, c, 0, col);
		size_t n = 0;

		v[n++] = 1;
		v[n++] = 1000ull * g->arc + g->counters[c].arc;
		v[n++] = 1;
		v[n++] = col;
		push(&o->objects, &o->n_objects, &o->cap_objects, oid_of(n, v), ref);
		for (uint32_t b = 1; b <= g->counters[c].n_bounds + 1; b++) {
			ref.bucket = b - 1;
			if (g->n_indexes == 0) {
				v[n] = b;
				push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(n + 1, v), ref);
				continue;
			}
			oracle_rows(o, f, gi, v, n, b, ref);
		}
	}
}

/* A group object `arc` (counter arc, 1001 reset, 1002 discontinuity). */
static void
oracle_group_object(struct oracle *o, const struct fake *f, int gi, uint32_t col_arc,
		    struct fastmib_oid_ref ref)
{
	const struct fastmib_group_schema *g = &f->sc->groups[gi];
	uint64_t v[MAX_OID];
	size_t n = 0;

	v[n++] = 1;
	v[n++] = g->arc;
	if (g->n_indexes == 0) {
		v[n++] = col_arc;
		push(&o->objects, &o->n_objects, &o->cap_objects, oid_of(n, v), ref);
		v[n++] = 0;
		push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(n, v), ref);
		return;
	}
	v[n++] = 1;
	v[n++] = col_arc;
	push(&o->objects, &o->n_objects, &o->cap_objects, oid_of(n, v), ref);
	if (fastmib_group_keyed(g)) {
		oracle_rows(o, f, gi, v, n, 0, ref);
		return;
	}
	for (uint32_t row = 0; row < g->n_rows; row++) {
		bool present = g->all_rows;
		uint32_t rest = row;

		for (uint32_t i = 0; i < f->n_rows[gi]; i++)
			present |= f->rows[gi][i] == row;
		if (!present)
			continue;
		/* the last index varies fastest; SNMP indexes are 1-based */
		for (uint32_t k = g->n_indexes; k-- > 0;) {
			v[n + k] = rest % g->indexes[k].max + 1;
			rest /= g->indexes[k].max;
		}
		ref.row = row;
		push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(n + g->n_indexes, v), ref);
	}
}

static void
oracle_build(struct oracle *o, const struct fake *f)
{
	const struct fastmib_schema *sc = f->sc;

	memset(o, 0, sizeof(*o));
	for (uint32_t gi = 0; gi < sc->n_groups; gi++) {
		const struct fastmib_group_schema *g = &sc->groups[gi];

		for (uint32_t c = 0; c < g->n_counters; c++) {
			uint32_t arc = g->counters[c].arc;

			switch (g->counters[c].type) {
			case FASTMIB_HISTOGRAM:
				/* its count at its arc, its sum at the next */
				oracle_group_object(o, f, (int)gi, arc,
						    ref_of(FASTMIB_OID_HIST_COUNT, (int)gi, c, 0, 0));
				oracle_group_object(o, f, (int)gi, arc + 1,
						    ref_of(FASTMIB_OID_HIST_SUM, (int)gi, c, 0, 0));
				oracle_buckets(o, f, (int)gi, c);
				break;
			case FASTMIB_PEAK:
				oracle_group_object(o, f, (int)gi, arc,
						    ref_of(FASTMIB_OID_PEAK, (int)gi, c, 0, 0));
				break;
			default:
				oracle_group_object(o, f, (int)gi, arc,
						    ref_of(FASTMIB_OID_COUNTER, (int)gi, c, 0, 0));
			}
		}
		/* a state at its arc; an inet-address's type there, its address
		 * at the next */
		for (uint32_t s = 0; s < g->n_states; s++) {
			bool inet = g->states[s].type == FASTMIB_STATE_INET_ADDRESS;

			if (inet)
				oracle_group_object(o, f, (int)gi, g->states[s].arc,
						    ref_state((int)gi, s, 1));
			oracle_group_object(o, f, (int)gi, g->states[s].arc + inet,
					    ref_state((int)gi, s, 0));
		}
		if (g->n_counters == 0)
			continue;
		oracle_group_object(o, f, (int)gi, 1001,
				    ref_of(FASTMIB_OID_RESET, (int)gi, 0, 0, 0));
		oracle_group_object(o, f, (int)gi, 1002,
				    ref_of(FASTMIB_OID_DISCONT, (int)gi, 0, 0, 0));
	}
	/* R.2.1 ResetAll, R.2.2 DiscontinuityTime, R.2.3 WriterStatus,
	 * R.2.4 BestEffortReads, R.2.5 OutOfRangeUpdates, and in a model that
	 * notifies R.2.6 NotificationsDropped */
	for (uint64_t a = 1; a <= (notifies(sc) ? 6u : 5u); a++) {
		static const enum fastmib_oid_kind kind[] = {
			0, FASTMIB_OID_RESET, FASTMIB_OID_DISCONT, FASTMIB_OID_WRITER_STATUS,
			FASTMIB_OID_BEST_EFFORT, FASTMIB_OID_OUT_OF_RANGE,
			FASTMIB_OID_NOTIFS_DROPPED,
		};
		struct fastmib_oid_ref r = ref_of(kind[a], -1, 0, 0, 0);

		push(&o->objects, &o->n_objects, &o->cap_objects,
		     oid_of(2, (uint64_t[]){ 2, a }), r);
		push(&o->inst, &o->n_inst, &o->cap_inst, oid_of(3, (uint64_t[]){ 2, a, 0 }), r);
	}
	if (sc->n_events) {
		/* R.4.1.1.C.N: columns 2..7 for every record, 8..11 for arguments 1..4 */
		for (uint32_t col = 2; col <= 11; col++) {
			uint32_t need = col >= 8 ? col - 7 : 0;
			struct fastmib_oid_ref r = ref_of(FASTMIB_OID_EVENT, -1, 0, 0, col);

			push(&o->objects, &o->n_objects, &o->cap_objects,
			     oid_of(4, (uint64_t[]){ 4, 1, 1, col }), r);
			for (uint32_t i = 0; i < f->n_nums; i++) {
				if (f->args[i] < need)
					continue;
				r.row = (uint32_t)f->nums[i];
				push(&o->inst, &o->n_inst, &o->cap_inst,
				     oid_of(5, (uint64_t[]){ 4, 1, 1, col, f->nums[i] }), r);
			}
		}
		/* R.4.2.1.C.A: columns 2..4, one row per event */
		for (uint32_t col = 2; col <= 4; col++) {
			struct fastmib_oid_ref r = ref_of(FASTMIB_OID_EVSTAT, -1, 0, 0, col);

			push(&o->objects, &o->n_objects, &o->cap_objects,
			     oid_of(4, (uint64_t[]){ 4, 2, 1, col }), r);
			for (uint32_t e = 0; e < sc->n_events; e++) {
				r.row = e;
				push(&o->inst, &o->n_inst, &o->cap_inst,
				     oid_of(5, (uint64_t[]){ 4, 2, 1, col, sc->events[e].arc }),
				     r);
			}
		}
	}
	qsort(o->inst, o->n_inst, sizeof(*o->inst), inst_cmp);
	for (size_t i = 1; i < o->n_inst; i++)
		assert_true(inst_cmp(&o->inst[i - 1], &o->inst[i]) < 0);
}

static void
oracle_free(struct oracle *o)
{
	free(o->inst);
	free(o->objects);
}

/* First instance greater than (or equal to) p, or NULL. */
static const struct inst *
oracle_next(const struct oracle *o, const struct oid *p, bool inclusive)
{
	for (size_t i = 0; i < o->n_inst; i++) {
		int c = oid_cmp(&o->inst[i].oid, p);

		if (c > 0 || (inclusive && c == 0))
			return &o->inst[i];
	}
	return NULL;
}

static enum fastmib_oid_found
oracle_resolve(const struct oracle *o, const struct oid *p, const struct inst **what)
{
	for (size_t i = 0; i < o->n_inst; i++) {
		if (oid_cmp(&o->inst[i].oid, p) == 0) {
			*what = &o->inst[i];
			return FASTMIB_OID_INSTANCE;
		}
	}
	/* an object type whose OID is a prefix of p (p itself included) */
	for (size_t i = 0; i < o->n_objects; i++) {
		const struct oid *t = &o->objects[i].oid;

		if (t->len <= p->len && memcmp(t->v, p->v, t->len * sizeof(uint64_t)) == 0) {
			*what = &o->objects[i];
			return FASTMIB_OID_NO_INSTANCE;
		}
	}
	*what = NULL;
	return FASTMIB_OID_NO_OBJECT;
}

static void
assert_ref_equal(const struct fastmib_oid_ref *a, const struct fastmib_oid_ref *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->group, b->group);
	assert_int_equal(a->counter, b->counter);
	assert_int_equal(a->part, b->part);
	assert_int_equal(a->row, b->row);
	assert_int_equal(a->column, b->column);
	assert_int_equal(a->bucket, b->bucket);
	assert_int_equal(a->key_len, b->key_len);
	assert_memory_equal(a->key, b->key, a->key_len);
}

/* The object-type part of a reference: what NO_INSTANCE reports. */
static void
assert_type_equal(const struct fastmib_oid_ref *a, const struct fastmib_oid_ref *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->group, b->group);
	assert_int_equal(a->counter, b->counter);
	assert_int_equal(a->part, b->part);
	assert_int_equal(a->column, b->column);
}

static void
print_oid(const char *what, const struct oid *p)
{
	char buf[MAX_OID * 24] = "";
	size_t at = 0;

	for (size_t i = 0; i < p->len; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, ".%llu",
				       (unsigned long long)p->v[i]);
	print_message("%s %s\n", what, p->len ? buf : "(empty)");
}

struct run {
	const struct fastmib_oidmap *map;
	const struct fastmib_oid_rows *rows;
	struct fake *fake;
	const struct oracle *oracle;
	unsigned int max_next_row_calls;
	unsigned long probes;
};

/* One probe: resolve, next, next inclusive, each against the oracle. */
static void
check_probe(struct run *r, const struct oid *p)
{
	const struct inst *want;
	struct fastmib_oid_ref ref;
	enum fastmib_oid_found f, wf;
	uint64_t sfx[FASTMIB_OID_MAX_SUFFIX];

	r->probes++;
	wf = oracle_resolve(r->oracle, p, &want);
	f = fastmib_oidmap_resolve(r->map, r->rows, p->v, p->len, &ref);
	if (f != wf)
		print_oid("resolve differs at", p);
	assert_int_equal(f, wf);
	if (f == FASTMIB_OID_INSTANCE && (ref.row != want->ref.row || ref.kind != want->ref.kind))
		print_oid("resolve names another instance at", p);
	if (f == FASTMIB_OID_INSTANCE)
		assert_ref_equal(&ref, &want->ref);
	else if (f == FASTMIB_OID_NO_INSTANCE)
		assert_type_equal(&ref, &want->ref);

	for (int inclusive = 0; inclusive <= 1; inclusive++) {
		unsigned int max_calls;
		bool got;

		want = oracle_next(r->oracle, p, inclusive);
		r->fake->next_row_calls = 0;
		got = fastmib_oidmap_next(r->map, r->rows, p->v, p->len, inclusive, &ref);
		if (got != (want != NULL))
			print_oid(inclusive ? "next (inclusive) differs at" : "next differs at", p);
		assert_int_equal(got, want != NULL);
		/* without row_present(), the inclusive check takes one more */
		max_calls = r->max_next_row_calls + (inclusive && !r->rows->row_present);
		if (r->fake->next_row_calls > max_calls)
			print_oid("too many next_row() calls at", p);
		assert_true(r->fake->next_row_calls <= max_calls);
		if (!got)
			continue;
		if (ref.kind != want->ref.kind || ref.row != want->ref.row ||
		    ref.bucket != want->ref.bucket || ref.column != want->ref.column)
			print_oid(inclusive ? "next (inclusive) names another instance at"
					    : "next names another instance at", p);
		assert_ref_equal(&ref, &want->ref);
		assert_int_equal(fastmib_oidmap_suffix(r->map, &ref, sfx), want->oid.len);
		assert_memory_equal(sfx, want->oid.v, want->oid.len * sizeof(uint64_t));
	}
}

/* Probes derived from `o`: its prefixes, neighbours at every depth, deeper. */
static void
probe_around(struct run *r, const struct oid *o)
{
	static const uint64_t deep[] = { 0, 1, 2, 1001, UINT32_MAX, UINT64_MAX };

	for (size_t len = 0; len <= o->len; len++) {
		struct oid p = *o;

		p.len = len;
		check_probe(r, &p);
		if (len == o->len)
			break;
		/* o[0..len) followed by another arc than o[len] */
		{
			const uint64_t v = o->v[len];
			const uint64_t alt[] = { 0, v - 1, v + 1, UINT32_MAX,
						 (uint64_t)UINT32_MAX + 1, UINT64_MAX };

			p.len = len + 1;
			for (size_t i = 0; i < sizeof(alt) / sizeof(alt[0]); i++) {
				if (i == 1 && v == 0)
					continue;
				p.v[len] = alt[i];
				check_probe(r, &p);
			}
		}
	}
	/* deeper than the OID: one more arc, and a suffix longer than any instance */
	for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
		struct oid p = *o;

		p.v[p.len++] = deep[i];
		check_probe(r, &p);
		while (p.len < MAX_OID)
			p.v[p.len++] = deep[i];
		check_probe(r, &p);
	}
}

static const struct oid hand_probes[] = {
	{ { 0 }, 0 },
	{ { 0 }, 1 },
	{ { 3 }, 1 },
	{ { 3, 2, 1000 }, 3 },
	{ { 5 }, 1 },
	{ { UINT64_MAX }, 1 },
	{ { 4 }, 1 },
	{ { 4, 0 }, 2 },
	{ { 4, 0, 1 }, 3 },
	{ { 4, 3 }, 2 },
	{ { 4, 1, 2 }, 3 },
	{ { 4, 1, 1, 1, 40 }, 5 },  /* EventNumber: not-accessible */
	{ { 4, 2, 1, 1, 3 }, 5 },   /* EventStatsId: not-accessible */
	{ { 4, 1, 1, 12, 40 }, 5 }, /* past the last argument column */
	{ { 4, 2, 1, 5, 1 }, 5 },
	{ { 1, 0 }, 2 },
	{ { 1, 1000 }, 2 },
	{ { 1, 3, 1, 1011, 1, 1 }, 6 }, /* index column: not-accessible */
	{ { 1, 3, 2 }, 3 },
	{ { 1, 1, 1001 }, 3 },
	{ { 2, 0 }, 2 },
	{ { 2, 3, 0 }, 3 }, /* not (yet) an object */
	{ { 2, 3 }, 2 },
};

/* Every probe against schema `f->sc` with its present rows and events. */
static unsigned long
run_oracle(struct fake *f, bool with_present, unsigned int max_next_row_calls)
{
	struct fastmib_oidmap *map;
	struct fastmib_oid_rows rows = fake_rows(f, with_present);
	struct oracle o;
	char why[256] = "";
	struct run r;

	f->next_row_calls = f->present_calls = f->next_event_calls = f->event_calls = 0;
	assert_int_equal(fastmib_oidmap_new(f->sc, &map, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	oracle_build(&o, f);
	r = (struct run){ map, &rows, f, &o, max_next_row_calls, 0 };
	for (size_t i = 0; i < o.n_inst; i++)
		probe_around(&r, &o.inst[i].oid);
	for (size_t i = 0; i < o.n_objects; i++)
		probe_around(&r, &o.objects[i].oid);
	for (size_t i = 0; i < sizeof(hand_probes) / sizeof(hand_probes[0]); i++)
		probe_around(&r, &hand_probes[i]);
	if (!with_present)
		assert_int_equal(f->present_calls, 0);
	oracle_free(&o);
	fastmib_oidmap_free(map);
	return r.probes;
}

static unsigned long total_probes;

static void
test_oracle_mix(void **state)
{
	struct fake f;
	unsigned long n = 0;

	(void)state;
	/* at most 2 calls for the table a suffix falls in, +1 for `empty` */
	fake_mix(&f, hist_low, hist_low_args, 13);
	n += run_oracle(&f, true, 3);
	assert_true(f.present_calls > 0);
	fake_mix(&f, hist_low, hist_low_args, 13);
	n += run_oracle(&f, false, 3);
	fake_mix(&f, hist_top, hist_top_args, 3);
	n += run_oracle(&f, true, 3);
	fake_mix(&f, NULL, NULL, 0); /* empty event history */
	n += run_oracle(&f, true, 3);
	print_message("mix: %lu probes\n", n);
	total_probes += n;
}

static void
test_oracle_scalars(void **state)
{
	struct fake f = { .sc = &s_scalars };
	unsigned long n;

	(void)state;
	n = run_oracle(&f, true, 0);
	assert_int_equal(f.next_row_calls + f.present_calls + f.next_event_calls +
			 f.event_calls, 0);
	print_message("scalars: %lu probes\n", n);
	total_probes += n;
}

static void
test_oracle_lone_table(void **state)
{
	static const uint32_t some[] = { 1 };
	static const uint32_t all[] = { 0, 1, 2 };
	static const uint64_t one[] = { 7 };
	static const uint32_t zero[] = { 0 };
	struct fake f = { .sc = &s_lone };
	unsigned long n = 0;

	(void)state;
	n += run_oracle(&f, true, 2); /* no row at all: R.2 comes next */
	f.rows[0] = some;
	f.n_rows[0] = 1;
	f.nums = one;
	f.args = zero;
	f.n_nums = 1;
	n += run_oracle(&f, true, 2);
	f.rows[0] = all;
	f.n_rows[0] = 3;
	n += run_oracle(&f, false, 2);
	print_message("lone table: %lu probes\n", n);
	total_probes += n;
}

static void
test_oracle_states(void **state)
{
	static const uint32_t tab_rows[] = { 1, 3 };
	struct fake f = { .sc = &s_states };
	uint64_t sfx[3];
	struct fastmib_oidmap *map;
	unsigned long n = 0;

	(void)state;
	f.rows[2] = tab_rows;
	f.n_rows[2] = 2;
	n += run_oracle(&f, true, 2);
	n += run_oracle(&f, false, 2);
	f.n_rows[2] = 0; /* no row at all */
	n += run_oracle(&f, true, 2);
	/* the notification of state `link` of `tab`: R.5.0.(1000 * 3 + 2) */
	assert_int_equal(fastmib_oidmap_new(&s_states, &map, NULL, 0), 0);
	assert_int_equal(fastmib_oidmap_state_notification(map, 2, 0, sfx), 3);
	assert_memory_equal(sfx, ((uint64_t[]){ 5, 0, 3002 }), sizeof(sfx));
	fastmib_oidmap_free(map);
	print_message("states: %lu probes\n", n);
	total_probes += n;
}

static void
test_oracle_histograms(void **state)
{
	/* keys (who, q): ("ab", 1), ("ab", 7), ("b", 2), ("abc", 0), their
	 * indexes of 4, 4, 3 and 5 sub-identifiers */
	static const uint64_t idx[][8] = {
		{ 2, 97, 98, 1 }, { 2, 97, 98, 7 }, { 1, 98, 2 }, { 3, 97, 98, 99, 0 },
	};
	static const size_t idx_n[] = { 4, 4, 3, 5 };
	static const uint32_t key_rows[] = { 3, 0, 5, 1 };
	static const uint32_t tab_rows[] = { 1, 4 };
	struct fake f = { .sc = &s_hist };
	struct fastmib_oidmap *map;
	struct fastmib_oid_rows rows;
	struct fastmib_oid_ref ref;
	uint64_t sfx[FASTMIB_OID_MAX_SUFFIX];
	unsigned long n = 0;

	(void)state;
	f.rows[2] = tab_rows;
	f.n_rows[2] = 2;
	f.key_idx = idx;
	f.key_n = idx_n;
	f.key_row = key_rows;
	f.n_keys = 4;
	f.key_group = 0;
	n += run_oracle(&f, true, 3);
	n += run_oracle(&f, false, 4);
	f.n_rows[2] = 0; /* no row of `tab`, no key of `key` */
	f.n_keys = 0;
	n += run_oracle(&f, true, 3);

	/* by hand: bucket 3 of glob.lat (arc 5 of group 2) is R.1.2005.1.3.3 */
	f.n_rows[2] = 2;
	f.n_keys = 4;
	rows = fake_rows(&f, true);
	assert_int_equal(fastmib_oidmap_new(&s_hist, &map, NULL, 0), 0);
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 1, 2005, 1, 3, 3 }, 5,
						&ref),
			 FASTMIB_OID_INSTANCE);
	assert_int_equal(ref.kind, FASTMIB_OID_BUCKET);
	assert_int_equal(ref.group, 1);
	assert_int_equal(ref.counter, 1);
	assert_int_equal(ref.column, FASTMIB_BUCKETCOL_COUNT);
	assert_int_equal(ref.bucket, 2);
	/* its sum at arc 6, the peak at 3 */
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 1, 2, 6, 0 }, 4, &ref),
			 FASTMIB_OID_INSTANCE);
	assert_ref_equal(&ref, REF(FASTMIB_OID_HIST_SUM, 1, 1, 0, 0));
	/* bucket 2 of ("ab", 7) of key.lat, then ("abc", 0)'s first */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 7001, 1, 2, 2, 97, 98, 7, 4 },
					9, false, &ref));
	assert_int_equal(ref.row, 1);
	assert_int_equal(ref.bucket, 0);
	assert_int_equal(fastmib_oidmap_suffix(map, &ref, sfx), 10);
	assert_memory_equal(sfx, ((uint64_t[]){ 1, 7001, 1, 2, 3, 97, 98, 99, 0, 1 }),
			    10 * sizeof(uint64_t));
	/* past a bucket table's column, at once: its next column */
	assert_int_equal(fastmib_oidmap_column_end(map, &ref, sfx), 4);
	assert_memory_equal(sfx, ((uint64_t[]){ 1, 7001, 1, 3 }), 4 * sizeof(uint64_t));
	assert_true(fastmib_oidmap_next(map, &rows, sfx, 4, true, &ref));
	assert_int_equal(ref.column, FASTMIB_BUCKETCOL_COUNT);
	assert_int_equal(ref.row, 5); /* ("b", 2): the shortest index first */
	/* and past a table's column */
	ref = (struct fastmib_oid_ref){ .kind = FASTMIB_OID_PEAK, .group = 2, .counter = 0,
					.row = 4 };
	assert_int_equal(fastmib_oidmap_column_end(map, &ref, sfx), 4);
	assert_memory_equal(sfx, ((uint64_t[]){ 1, 1, 1, 3 }), 4 * sizeof(uint64_t));
	ref = (struct fastmib_oid_ref){ .kind = FASTMIB_OID_HIST_SUM, .group = 1, .counter = 1 };
	assert_int_equal(fastmib_oidmap_column_end(map, &ref, sfx), 3);
	assert_memory_equal(sfx, ((uint64_t[]){ 1, 2, 7 }), 3 * sizeof(uint64_t));
	fastmib_oidmap_free(map);
	print_message("histograms: %lu probes\n", n);
	total_probes += n;
}

/* ---- specific cases ---- */

static void
test_examples(void **state)
{
	struct fake f;
	struct fastmib_oidmap *map;
	struct fastmib_oid_rows rows;
	struct fastmib_oid_ref ref;
	uint64_t sfx[FASTMIB_OID_MAX_SUFFIX];

	(void)state;
	fake_mix(&f, hist_low, hist_low_args, 13);
	rows = fake_rows(&f, true);
	assert_int_equal(fastmib_oidmap_new(&s_mix, &map, NULL, 0), 0);

	/* tab2.a at (2, 2): row 1 * 4 + 1 = 5, present */
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 1, 3, 1, 1, 2, 2 },
						6, &ref),
			 FASTMIB_OID_INSTANCE);
	assert_ref_equal(&ref, REF(FASTMIB_OID_COUNTER, 0, 1, 5, 0));
	/* row (1, 2) = 1 is absent: a writable column, no instance */
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 1, 3, 1, 1001, 1, 2 },
						6, &ref),
			 FASTMIB_OID_NO_INSTANCE);
	assert_int_equal(ref.kind, FASTMIB_OID_RESET);
	assert_int_equal(ref.group, 0);
	/* after the last row of tab2.a comes the first of tab2.b */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 3, 1, 1, 3, 4 }, 6, false,
					&ref));
	assert_int_equal(fastmib_oidmap_suffix(map, &ref, sfx), 6);
	assert_memory_equal(sfx, ((uint64_t[]){ 1, 3, 1, 2, 1, 1 }), 6 * sizeof(uint64_t));
	/* ResetAll, DiscontinuityTime, WriterStatus, BestEffortReads,
	 * OutOfRangeUpdates, then the event table */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 999, 1002, 0 }, 4, false,
					&ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_RESET, -1, 0, 0, 0));
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 2, 2, 0 }, 3, false, &ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_WRITER_STATUS, -1, 0, 0, 0));
	assert_int_equal(fastmib_oidmap_suffix(map, &ref, sfx), 3);
	assert_memory_equal(sfx, ((uint64_t[]){ 2, 3, 0 }), 3 * sizeof(uint64_t));
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 2, 3, 0 }, 3, false, &ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_BEST_EFFORT, -1, 0, 0, 0));
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 2, 4, 0 }, 3, false, &ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_OUT_OF_RANGE, -1, 0, 0, 0));
	assert_int_equal(fastmib_oidmap_suffix(map, &ref, sfx), 3);
	assert_memory_equal(sfx, ((uint64_t[]){ 2, 5, 0 }), 3 * sizeof(uint64_t));
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 2, 5, 0 }, 3, false, &ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_EVENT, -1, 0, 40, FASTMIB_EVCOL_NAME));
	/* argument 4: only records 44, 45 and 52 have four */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 4, 1, 1, 11, 45 }, 5, false,
					&ref));
	assert_int_equal(ref.row, 52);
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 4, 1, 1, 11, 46 }, 5,
						&ref),
			 FASTMIB_OID_NO_INSTANCE);
	/* statistics rows by arc: "four" (arc 999) is the last one, schema index 4 */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 4, 2, 1, 4, 7 }, 5, false,
					&ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_EVSTAT, -1, 0, 4, FASTMIB_STCOL_DROPPED));
	assert_false(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 4, 2, 1, 4, 999 }, 5, false,
					 &ref));
	/* notification types at R.4.0.A */
	assert_int_equal(fastmib_oidmap_notification(map, 2, sfx), 3);
	assert_memory_equal(sfx, ((uint64_t[]){ 4, 0, 7 }), 3 * sizeof(uint64_t));
	fastmib_oidmap_free(map);
}

static void
test_reaches_events(void **state)
{
	struct fastmib_oidmap *map, *plain;

	(void)state;
	assert_int_equal(fastmib_oidmap_new(&s_mix, &map, NULL, 0), 0);
	assert_int_equal(fastmib_oidmap_new(&s_scalars, &plain, NULL, 0), 0);
	assert_true(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 4, 1 }, 2, false));
	assert_true(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 4 }, 1, true));
	assert_true(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 2, 2, 0 }, 3, true));
	assert_true(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 3 }, 1, true));
	assert_false(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 2, 2, 0 }, 3, false));
	assert_false(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 1, 7 }, 2, true));
	assert_false(fastmib_oidmap_reaches_events(map, (uint64_t[]){ 5 }, 1, true));
	assert_false(fastmib_oidmap_reaches_events(map, NULL, 0, true));
	assert_false(fastmib_oidmap_reaches_events(plain, (uint64_t[]){ 4, 1 }, 2, false));
	fastmib_oidmap_free(map);
	fastmib_oidmap_free(plain);
}

/* A 2^24-row table with its first and last rows present. */
struct sparse {
	uint32_t last;
	unsigned int calls;
};

static int64_t
sparse_next_row(void *ctx, unsigned int group, uint32_t row)
{
	struct sparse *s = ctx;

	(void)group;
	s->calls++;
	if (row == 0)
		return 0;
	return row <= s->last ? (int64_t)s->last : -1;
}

static void
test_getnext_never_walks_rows(void **state)
{
	static const struct fastmib_group_schema big[] = {
		{ .name = "big", .arc = 1, .n_indexes = 4,
		  .indexes = { { .name = "a", .max = 64 }, { .name = "b", .max = 64 }, { .name = "c", .max = 64 }, { .name = "d", .max = 64 } },
		  .n_rows = 1u << 24, .n_counters = 2, .counters = c_s1 },
	};
	static const struct fastmib_schema sc = {
		.version = 1, .module = "BIG-MIB", .prefix = "bg", .oid_len = 1, .oid = { 1 },
		.n_groups = 1, .groups = big,
	};
	struct sparse s = { .last = (1u << 24) - 1 };
	struct fastmib_oid_rows rows = { .ctx = &s, .next_row = sparse_next_row };
	struct fastmib_oidmap *map;
	struct fastmib_oid_ref ref;

	(void)state;
	assert_int_equal(fastmib_oidmap_new(&sc, &map, NULL, 0), 0);
	/* from row 0 of column b to the last row: one call */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, 8,
					false, &ref));
	assert_int_equal(ref.row, s.last);
	assert_int_equal(s.calls, 1);
	/* past the last row of the whole table: no call, on to the next column */
	s.calls = 0;
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 1, 1, 1, 64, 64, 64, 64 },
					8, false, &ref));
	assert_int_equal(ref.row, 0);
	assert_int_equal(ref.counter, 0); /* "a", arc 2 */
	assert_int_equal(s.calls, 1);
	/* rows 0 and 5 only: from row 5 of column b (arc 1) to row 0 of column
	 * a (arc 2), two calls */
	s.last = 5;
	s.calls = 0;
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 1, 1, 1, 1, 1, 1, 6 }, 8,
					false, &ref));
	assert_int_equal(ref.row, 0);
	assert_int_equal(ref.counter, 0);
	assert_int_equal(s.calls, 2);
	/* exact lookup without row_present: one call */
	s.calls = 0;
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, (uint64_t[]){ 1, 1, 1, 2, 9, 9, 9, 9 },
						8, &ref),
			 FASTMIB_OID_NO_INSTANCE);
	assert_int_equal(s.calls, 1);
	fastmib_oidmap_free(map);
}

/* A source that answers rows before the one asked for, or past the table. */
static int64_t
confused_next_row(void *ctx, unsigned int group, uint32_t row)
{
	(void)ctx;
	(void)group;
	return row > 1 ? 0 : 1000;
}

static void
test_confused_source_never_goes_back(void **state)
{
	struct fastmib_oid_rows rows = { .next_row = confused_next_row };
	struct fastmib_oidmap *map;
	struct fastmib_oid_ref ref;

	(void)state;
	assert_int_equal(fastmib_oidmap_new(&s_lone, &map, NULL, 0), 0);
	/* no row of `lone` is believed: R.2.1.0 is next */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 10, 1, 1, 2 }, 5, false,
					&ref));
	assert_ref_equal(&ref, REF(FASTMIB_OID_RESET, -1, 0, 0, 0));
	fastmib_oidmap_free(map);
}

/* ---- what the layout cannot express ---- */

static void
expect_refused(const struct fastmib_schema *sc, const char *msg)
{
	struct fastmib_oidmap *map = (void *)1;
	char why[256] = "";

	assert_int_equal(fastmib_oidmap_new(sc, &map, why, sizeof(why)), -EINVAL);
	assert_null(map);
	assert_string_equal(why, msg);
}

static void
test_refused(void **state)
{
	struct fastmib_group_schema g[2] = { g_scalars[0], g_scalars[1] };
	struct fastmib_counter_schema c[2] = { c_s1[0], c_s1[1] };
	struct fastmib_event_schema e[2] = { e_mix[0], e_mix[1] };
	struct fastmib_schema sc = s_scalars;

	(void)state;
	sc.groups = g;
	g[1].counters = c;

	sc.oid_len = 0;
	expect_refused(&sc, "schema: module root of 0 arcs (1..32)");
	sc.oid_len = 33;
	expect_refused(&sc, "schema: module root of 33 arcs (1..32)");
	sc.oid_len = 1;

	g[0].arc = 1000;
	expect_refused(&sc, "schema: group s2: arc 1000 outside 1..999");
	g[0].arc = 0;
	expect_refused(&sc, "schema: group s2: arc 0 outside 1..999");
	g[0].arc = 1;
	expect_refused(&sc, "schema: groups s2 and s1 share arc 1");
	g[0].arc = 4;

	c[1].arc = 2;
	expect_refused(&sc, "schema: group s1: arc 2 used twice");
	c[1].arc = 1000;
	expect_refused(&sc, "schema: counter s1.b: arc 1000 outside 1..999");
	c[1].arc = 1;

	g[0].n_rows = 2;
	expect_refused(&sc, "schema: group s2: n_rows 2, indexes give 1");
	g[0] = g_lone[0];
	g[0].n_indexes = 5;
	expect_refused(&sc, "schema: group lone: 5 indexes (max 4)");
	g[0].n_indexes = 1;
	g[0].indexes[0].max = 0;
	expect_refused(&sc, "schema: group lone: index n has max 0");
	g[0].n_indexes = 2;
	g[0].indexes[0].max = 8192;
	g[0].indexes[1] = (struct fastmib_index_schema){ .name = "o", .max = 8192 };
	expect_refused(&sc, "schema: group lone: more than 16777216 rows");
	g[0] = g_scalars[0];

	sc.events = e;
	sc.n_events = 2;
	e[1].arc = 3;
	expect_refused(&sc, "schema: event arc 3 used twice");
	e[1].arc = 1000;
	expect_refused(&sc, "schema: event one: arc 1000 outside 1..999");
	e[1].arc = 1;
	e[1].n_args = 5;
	expect_refused(&sc, "schema: event one: 5 arguments (max 4)");
	e[1].n_args = 1;

	/* and the same schema, repaired, is accepted */
	{
		struct fastmib_oidmap *map;

		assert_int_equal(fastmib_oidmap_new(&sc, &map, NULL, 0), 0);
		fastmib_oidmap_free(map);
	}
}

/* ---- rows and their indexes (<fastmib/schema.h>) ---- */

/* A 3 x 4 x 2 table: rows are numbered with the last index fastest. */
static const struct fastmib_group_schema table3 = {
	.name = "t",
	.arc = 7,
	.n_indexes = 3,
	.indexes = { { .name = "a", .max = 3 }, { .name = "b", .max = 4 }, { .name = "c", .max = 2 } },
	.n_rows = 24,
};

static void
test_row_of_and_index_of_are_inverse(void **state)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];

	(void)state;
	for (uint32_t row = 0; row < table3.n_rows; row++) {
		uint64_t w[3];

		fastmib_index_of_row(&table3, row, idx);
		for (int k = 0; k < 3; k++)
			w[k] = idx[k];
		assert_int_equal(fastmib_row_of_index(&table3, w, 3), row);
	}
	fastmib_index_of_row(&table3, 23, idx);
	assert_int_equal(idx[0], 3);
	assert_int_equal(idx[1], 4);
	assert_int_equal(idx[2], 2);
	fastmib_index_of_row(&table3, 9, idx); /* 1*8 + 0*2 + 1 */
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 1);
	assert_int_equal(idx[2], 2);
}

static void
test_row_of_rejects(void **state)
{
	(void)state;
	assert_int_equal(fastmib_row_of_index(&table3, (uint64_t[]){ 1, 1 }, 2), -1);
	assert_int_equal(fastmib_row_of_index(&table3, (uint64_t[]){ 0, 1, 1 }, 3), -1);
	assert_int_equal(fastmib_row_of_index(&table3, (uint64_t[]){ 1, 5, 1 }, 3), -1);
	assert_int_equal(fastmib_row_of_index(&table3, (uint64_t[]){ 1, 1, 1, 1 }, 4),
			 -1);
}

/* ---- row lower bound in OID order ---- */

/* Reference: the first row whose index OID sorts after `sfx`, by brute force. */
static int64_t
row_after_brute(const uint64_t *sfx, size_t n)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];

	for (uint32_t row = 0; row < table3.n_rows; row++) {
		int cmp = 0;

		fastmib_index_of_row(&table3, row, idx);
		for (size_t k = 0; k < 3 && k < n && cmp == 0; k++)
			cmp = idx[k] < sfx[k] ? -1 : idx[k] > sfx[k];
		if (cmp == 0)
			cmp = 3 > n ? 1 : -1; /* a prefix sorts first */
		if (cmp > 0)
			return row;
	}
	return -1;
}

static void
test_row_after_matches_oid_order(void **state)
{
	uint64_t sfx[4];
	unsigned checked = 0;

	(void)state;
	/* every suffix of length 0..4 with arcs 0..5 */
	for (size_t n = 0; n <= 4; n++) {
		unsigned total = 1;

		for (size_t k = 0; k < n; k++)
			total *= 6;
		for (unsigned v = 0; v < total; v++) {
			unsigned x = v;

			for (size_t k = 0; k < n; k++, x /= 6)
				sfx[k] = x % 6;
			assert_int_equal(fastmib_oidmap_row_after(&table3, sfx, n),
					 row_after_brute(sfx, n));
			checked++;
		}
	}
	assert_int_equal(checked, 1 + 6 + 36 + 216 + 1296);
	/* huge arcs do not overflow */
	sfx[0] = UINT64_MAX;
	assert_int_equal(fastmib_oidmap_row_after(&table3, sfx, 1), -1);
	sfx[0] = 2;
	sfx[1] = UINT64_MAX;
	assert_int_equal(fastmib_oidmap_row_after(&table3, sfx, 2), 16);
}

static void
test_total(void **state)
{
	(void)state;
	print_message("%lu probes in all, each checked by resolve, next and "
		      "next inclusive\n", total_probes);
	assert_true(total_probes > 10000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oracle_mix),
		cmocka_unit_test(test_oracle_scalars),
		cmocka_unit_test(test_oracle_lone_table),
		cmocka_unit_test(test_oracle_states),
		cmocka_unit_test(test_oracle_histograms),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_reaches_events),
		cmocka_unit_test(test_getnext_never_walks_rows),
		cmocka_unit_test(test_confused_source_never_goes_back),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_row_of_and_index_of_are_inverse),
		cmocka_unit_test(test_row_of_rejects),
		cmocka_unit_test(test_row_after_matches_oid_order),
		cmocka_unit_test(test_total),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
