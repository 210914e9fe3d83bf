/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib_schema_check(): each rule gives one fault with its exact
 * object, field, numbers and words; faults that follow from another are
 * not reported; fastmib_schema_lay_out() gives the documented layout.
 * The format library only: no EAL, no segment file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fastmib/reader.h"
#include "fastmib/schema.h"
#include "test_schema.h"

#define MAX_COUNTERS 4

/* A writable copy of a test schema. */
struct copy {
	struct fastmib_schema s;
	struct fastmib_group_schema g[TS_N_GROUPS];
	struct fastmib_counter_schema c[TS_N_GROUPS][MAX_COUNTERS];
	struct fastmib_event_schema e[TS_N_EVENTS];
};

static void
copy_of(const struct fastmib_schema *src, struct copy *c)
{
	memset(c, 0, sizeof(*c));
	c->s = *src;
	memcpy(c->g, src->groups, sizeof(c->g));
	for (uint32_t gi = 0; gi < TS_N_GROUPS; gi++) {
		assert_true(src->groups[gi].n_counters <= MAX_COUNTERS);
		memcpy(c->c[gi], src->groups[gi].counters,
		       src->groups[gi].n_counters * sizeof(c->c[gi][0]));
		c->g[gi].counters = c->c[gi];
	}
	c->s.groups = c->g;
	if (src->n_events) {
		memcpy(c->e, src->events, sizeof(c->e));
		c->s.events = c->e;
	}
}

struct seen {
	int n;
	struct fastmib_schema_fault f[8];
};

static int
collect(void *arg, const struct fastmib_schema_fault *f)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->f[s->n] = *f;
	s->n++;
	return 0;
}

/* Exactly one fault, checked field by field against `want`. */
static void
expect_one(const struct copy *c, const struct fastmib_schema_fault *want)
{
	struct seen s = { 0 };

	assert_int_equal(fastmib_schema_check(&c->s, collect, &s), -EINVAL);
	if (s.n != 1)
		fail_msg("%d faults, the first: %s", s.n, s.n ? s.f[0].message : "-");
	assert_int_equal(s.f[0].error, -EINVAL);
	assert_int_equal(s.f[0].object, want->object);
	assert_int_equal(s.f[0].field, want->field);
	assert_int_equal(s.f[0].problem, want->problem);
	assert_int_equal(s.f[0].group, want->group);
	assert_int_equal(s.f[0].counter, want->counter);
	assert_int_equal(s.f[0].index, want->index);
	assert_int_equal(s.f[0].event, want->event);
	assert_int_equal(s.f[0].arg, want->arg);
	assert_int_equal(s.f[0].first, want->first);
	assert_int_equal(s.f[0].value, want->value);
	assert_int_equal(s.f[0].lo, want->lo);
	assert_int_equal(s.f[0].hi, want->hi);
	assert_string_equal(s.f[0].message, want->message);
	/* Without a callback: the same fault, as the thread's last error. */
	assert_int_equal(fastmib_schema_check(&c->s, NULL, NULL), -EINVAL);
	assert_true(strncmp(fastmib_last_error(), "schema: ", 8) == 0);
	assert_string_equal(fastmib_last_error() + 8, want->message);
}

static void
test_valid(void **state)
{
	struct copy c;

	(void)state;
	assert_int_equal(fastmib_schema_check(&ts_schema, NULL, NULL), 0);
	assert_int_equal(fastmib_schema_check(&ts_ev_schema, NULL, NULL), 0);
	copy_of(&ts_ev_schema, &c);
	assert_int_equal(fastmib_schema_check(&c.s, collect, &(struct seen){ 0 }), 0);
}

static void
test_arcs(void **state)
{
	struct copy c;

	(void)state;
	copy_of(&ts_schema, &c);
	c.g[TS_PORT].arc = 1000;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_RANGE, .group = TS_PORT, .value = 1000, .lo = 1,
		.hi = 999, .message = "group port: arc 1000 out of range 1..999" });

	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].arc = c.g[TS_PORT].arc;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_FLOW, .first = TS_PORT,
		.value = 2, .message = "groups port and flow share arc 2" });

	copy_of(&ts_schema, &c);
	c.c[TS_POOL][2].arc = 0;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_RANGE, .group = TS_POOL, .counter = 2, .lo = 1,
		.hi = 999, .message = "counter pool.fails: arc 0 out of range 1..999" });

	copy_of(&ts_schema, &c);
	c.c[TS_POOL][2].arc = 1;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_POOL, .counter = 2,
		.first = 0, .value = 1,
		.message = "counters pool.allocs and pool.fails share arc 1" });

	copy_of(&ts_ev_schema, &c);
	c.e[TS_EV_INNER].arc = c.e[TS_EV_TOP].arc;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_EVENT, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_DUPLICATE, .event = TS_EV_INNER, .first = TS_EV_TOP,
		.value = 1, .message = "events top and inner share arc 1" });
}

static void
test_names(void **state)
{
	struct copy c;

	(void)state;
	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].name = "port";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_FLOW, .first = TS_PORT,
		.message = "groups 2 and 5 share the name port" });

	copy_of(&ts_schema, &c);
	c.c[TS_GLOBAL][2].name = "pkts";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_GLOBAL, .counter = 2,
		.message = "group global: counters 1 and 3 share the name pkts" });

	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].indexes[1].name = "vrf";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_INDEX, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_FLOW, .index = 1,
		.message = "group flow: indexes 1 and 2 share the name vrf" });

	copy_of(&ts_ev_schema, &c);
	c.e[TS_EV_OUTER].args[3] = "b";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_ARG, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_DUPLICATE, .event = TS_EV_OUTER, .arg = 3, .first = 1,
		.message = "event outer: args 2 and 4 share the name b" });

	/* The syntax of <fastmib/names.h>, for every kind of name. */
	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].name = "Flow";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_SYNTAX, .group = TS_FLOW,
		.message = "group 5: name 'Flow' is not a valid name" });

	copy_of(&ts_schema, &c);
	c.c[TS_GLOBAL][2].name = "active_flows";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_SYNTAX, .group = TS_GLOBAL, .counter = 2,
		.message = "group global: counter 3: name 'active_flows' is not a valid name" });

	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].indexes[0].name = "9vrf";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_INDEX, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_SYNTAX, .group = TS_FLOW, .index = 0,
		.message = "group flow: index 1: name '9vrf' is not a valid name" });

	copy_of(&ts_ev_schema, &c);
	c.e[TS_EV_OUTER].args[3] = "";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_ARG, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_SYNTAX, .event = TS_EV_OUTER, .arg = 3,
		.message = "event outer: arg 4: name '' is not a valid name" });

	copy_of(&ts_ev_schema, &c);
	c.e[TS_EV_INNER].name = "in-ner";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_EVENT, .field = FASTMIB_FIELD_NAME,
		.problem = FASTMIB_BAD_SYNTAX, .event = TS_EV_INNER,
		.message = "event 3: name 'in-ner' is not a valid name" });

	copy_of(&ts_schema, &c);
	c.c[TS_PORT][1].units = "packets per second, averaged over a minute";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_UNITS,
		.problem = FASTMIB_BAD_LENGTH, .group = TS_PORT, .counter = 1, .value = 42,
		.hi = 32, .message = "counter port.rxBytes: units is 42 bytes long; the limit is 32" });
}

static void
test_layout_rules(void **state)
{
	struct copy c;

	(void)state;
	copy_of(&ts_schema, &c);
	c.c[TS_GLOBAL][1].offset = 0;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_OFFSET,
		.problem = FASTMIB_BAD_DUPLICATE, .group = TS_GLOBAL, .counter = 1,
		.message = "counters global.pkts and global.bytes share offset 0" });

	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].offset = TS_PORT_OFF;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_OFFSET,
		.problem = FASTMIB_BAD_LAYOUT, .group = TS_FLOW, .value = TS_PORT_OFF,
		.message = "groups port and flow overlap in the per-core area" });

	/* A broken row size hides the counter offsets it makes wrong. */
	copy_of(&ts_schema, &c);
	c.g[TS_SESSION].row_size = 8;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_OFFSET,
		.problem = FASTMIB_BAD_LAYOUT, .group = TS_SESSION, .counter = 1, .value = 8,
		.message = "counter session.bytes: offset 8 not an aligned word within the 8-byte row" });

	copy_of(&ts_schema, &c);
	c.g[TS_FLOW].n_rows = 16;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_N_ROWS,
		.problem = FASTMIB_BAD_LAYOUT, .group = TS_FLOW, .value = 16, .lo = 15,
		.hi = 15, .message = "group flow: n_rows 16, indexes give 15" });

	copy_of(&ts_schema, &c);
	c.s.percore_size = 100;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_PERCORE_SIZE,
		.problem = FASTMIB_BAD_LAYOUT, .value = 100,
		.message = "area sizes 100 (per-core) and 1728 (shared) must be cache-line multiples" });
}

static void
test_module(void **state)
{
	struct copy c;

	(void)state;
	copy_of(&ts_schema, &c);
	c.s.oid_len = 1;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_OID,
		.problem = FASTMIB_BAD_COUNT, .value = 1, .lo = 2, .hi = FASTMIB_MAX_OID_LEN,
		.message = "module: 1 arcs in the root OID (2..32)" });

	copy_of(&ts_schema, &c);
	c.s.oid[0] = 1;
	c.s.oid[1] = 40;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_OID,
		.problem = FASTMIB_BAD_RANGE, .value = 40,
		.message = "module: root OID 1.40...: the first arc must be 0..2, "
			   "the second 0..39 under 0 and 1" });

	copy_of(&ts_schema, &c);
	c.s.module = NULL;
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_MODULE,
		.problem = FASTMIB_BAD_MISSING, .message = "module: module name is missing" });

	copy_of(&ts_schema, &c);
	c.s.module = "FASTMIB-TEST-";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_MODULE,
		.problem = FASTMIB_BAD_SYNTAX,
		.message = "module: module name 'FASTMIB-TEST-' is not a valid name" });

	copy_of(&ts_schema, &c);
	c.s.prefix = "tS";
	expect_one(&c, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_SCHEMA, .field = FASTMIB_FIELD_PREFIX,
		.problem = FASTMIB_BAD_SYNTAX,
		.message = "module: prefix 'tS' is not a valid name" });
}

/* Independent faults are all reported, in schema order; the callback can
 * stop the check. */
static void
test_several(void **state)
{
	struct seen s = { 0 };
	struct copy c;

	(void)state;
	copy_of(&ts_ev_schema, &c);
	c.g[TS_PORT].arc = 1000;
	c.c[TS_POOL][0].type = 9;
	c.e[TS_EV_SAMPLED].level = 10;
	assert_int_equal(fastmib_schema_check(&c.s, collect, &s), -EINVAL);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.f[0].message, "group port: arc 1000 out of range 1..999");
	assert_string_equal(s.f[1].message, "counter pool.allocs: type 9 out of range 1..5");
	assert_string_equal(s.f[2].message, "event sampled: level 10 out of range 0..9");
	assert_string_equal(fastmib_last_error(),
			    "schema: group port: arc 1000 out of range 1..999");
}

static void
test_lay_out(void **state)
{
	struct fastmib_counter_schema a[3] = {
		{ "a1", "", "A1.", 1, FASTMIB_COUNTER64, 99, 0, 0, NULL },
		{ "a2", "", "A2.", 2, FASTMIB_COUNTER64, 99, 0, 0, NULL },
		{ "a3", "", "A3.", 3, FASTMIB_GAUGE32, 99, 0, 0, NULL },
	};
	struct fastmib_counter_schema b[1] = { { "b1", "", "B1.", 1, FASTMIB_COUNTER64, 99, 0, 0, NULL } };
	struct fastmib_counter_schema t[2] = {
		{ "t1", "", "T1.", 1, FASTMIB_COUNTER64, 99, 0, 0, NULL },
		{ "t2", "", "T2.", 2, FASTMIB_COUNTER32, 99, 0, 0, NULL },
	};
	struct fastmib_group_schema g[3] = {
		{ .name = "a", .description = "A.", .arc = 1,
		  .storage = FASTMIB_STORAGE_PER_CORE, .n_rows = 1, .n_counters = 3,
		  .counters = a },
		{ .name = "b", .description = "B.", .arc = 2,
		  .storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_rows = 1, .n_counters = 1,
		  .counters = b },
		{ .name = "t", .description = "T.", .arc = 3,
		  .storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
		  .indexes = { { .name = "i", .max = 5 } }, .n_rows = 5, .n_counters = 2, .counters = t },
	};
	struct fastmib_schema s = {
		.version = FASTMIB_MODEL_VERSION, .module = "LAYOUT-MIB", .prefix = "lo",
		.oid_len = 2, .oid = { 1, 3 }, .n_groups = 3, .groups = g,
	};

	(void)state;
	fastmib_schema_lay_out(&s);
	assert_int_equal(a[0].offset, 0);
	assert_int_equal(a[1].offset, 8);
	assert_int_equal(a[2].offset, 16);
	assert_int_equal(g[0].row_size, 24);
	assert_int_equal(g[0].offset, 0);
	assert_int_equal(b[0].offset, 0);
	assert_int_equal(g[1].row_size, 8);
	assert_int_equal(g[1].offset, 0);
	assert_int_equal(t[1].offset, 8);
	assert_int_equal(g[2].row_size, 16);
	assert_int_equal(g[2].offset, 64);          /* the next cache line after a's 24 bytes */
	assert_int_equal(s.percore_size, 192);      /* 64 + 5 x 16 = 144, rounded up */
	assert_int_equal(s.shared_size, 64);
	assert_int_equal(fastmib_schema_check(&s, NULL, NULL), 0);
}

/* A schema of histograms and peaks: a scalar group (a counter, a
 * histogram of bounds, a peak), a table (a log2 histogram, a peak) and a
 * shared-atomic group, laid out by fastmib_schema_lay_out(). */
static const uint64_t lat_bounds[3] = { 10, 100, 1000 };
static const uint64_t size_bounds[4] = { 64, 128, 256, 512 };

struct hist_schema {
	struct fastmib_schema s;
	struct fastmib_group_schema g[3];
	struct fastmib_counter_schema sc[3], tc[2], ac[1];
	struct fastmib_state_schema st[1];
	uint64_t bounds[40];
};

static void
hist_schema(struct hist_schema *h)
{
	memset(h, 0, sizeof(*h));
	h->sc[0] = (struct fastmib_counter_schema){ "pkts", "", "Packets.", 1, FASTMIB_COUNTER64,
						    0, 0, 0, NULL };
	h->sc[1] = (struct fastmib_counter_schema){ "latency", "ns", "Latency.", 2,
						    FASTMIB_HISTOGRAM, 0, 3, 0, lat_bounds };
	h->sc[2] = (struct fastmib_counter_schema){ "depth", "", "Deepest.", 4, FASTMIB_PEAK, 0,
						    0, 0, NULL };
	h->tc[0] = (struct fastmib_counter_schema){ "size", "octets", "Sizes.", 1,
						    FASTMIB_HISTOGRAM, 0, 4, 1, size_bounds };
	h->tc[1] = (struct fastmib_counter_schema){ "burst", "", "Burst.", 3, FASTMIB_PEAK, 0, 0,
						    0, NULL };
	h->ac[0] = (struct fastmib_counter_schema){ "errors", "", "Errors.", 1, FASTMIB_COUNTER64,
						    0, 0, 0, NULL };
	h->st[0] = (struct fastmib_state_schema){ .name = "mode", .units = "",
						  .description = "Mode.", .arc = 9,
						  .type = FASTMIB_STATE_UNSIGNED32 };
	h->g[0] = (struct fastmib_group_schema){
		.name = "global", .description = "G.", .arc = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_rows = 1, .n_counters = 3,
		.counters = h->sc, .n_states = 1, .states = h->st };
	h->g[1] = (struct fastmib_group_schema){
		.name = "port", .description = "P.", .arc = 2,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
		.indexes = { { .name = "portId", .max = 4 } }, .n_rows = 4, .n_counters = 2,
		.counters = h->tc };
	h->g[2] = (struct fastmib_group_schema){
		.name = "rare", .description = "R.", .arc = 3,
		.storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_rows = 1, .n_counters = 1,
		.counters = h->ac };
	h->s = (struct fastmib_schema){
		.version = FASTMIB_MODEL_VERSION, .module = "HIST-MIB", .prefix = "hs",
		.oid_len = 2, .oid = { 1, 3 }, .n_groups = 3, .groups = h->g,
	};
	fastmib_schema_lay_out(&h->s);
}

/* The copy-based expect_one() for a hist_schema. */
static void
expect_hist(const struct hist_schema *h, const struct fastmib_schema_fault *want)
{
	struct copy c;

	memset(&c, 0, sizeof(c));
	c.s = h->s;
	expect_one(&c, want);
}

static void
test_histograms(void **state)
{
	struct hist_schema h;

	(void)state;
	hist_schema(&h);
	/* words: pkts 0, latency buckets 1..4, count 5, sum 6, depth 7 */
	assert_int_equal(h.sc[1].offset, 8);
	assert_int_equal(h.sc[2].offset, 56);
	assert_int_equal(h.g[0].row_size, 64);
	assert_int_equal(fastmib_counter_words(&h.sc[1]), 6);
	assert_int_equal(h.tc[1].offset, 56);
	assert_int_equal(h.g[1].row_size, 64);
	assert_int_equal(fastmib_schema_check(&h.s, NULL, NULL), 0);
	assert_true(fastmib_group_has_type(&h.g[0], FASTMIB_HISTOGRAM));
	assert_false(fastmib_group_has_type(&h.g[2], FASTMIB_PEAK));

	hist_schema(&h);
	memcpy(h.bounds, (uint64_t[]){ 10, 100, 100 }, 3 * sizeof(uint64_t));
	h.sc[1].bounds = h.bounds;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_BOUNDS,
		.problem = FASTMIB_BAD_ORDER, .counter = 1, .first = 1, .value = 100, .lo = 100,
		.message = "counter global.latency: bound 3, 100, is not above bound 2, 100" });

	hist_schema(&h);
	for (uint32_t i = 0; i < 33; i++)
		h.bounds[i] = i;
	h.sc[1].bounds = h.bounds;
	h.sc[1].n_bounds = 33;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_BOUNDS,
		.problem = FASTMIB_BAD_COUNT, .counter = 1, .value = 33, .lo = 1, .hi = 32,
		.message = "counter global.latency: 33 bounds (1..32)" });

	hist_schema(&h);
	h.sc[1].bounds = NULL;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_BOUNDS,
		.problem = FASTMIB_BAD_MISSING, .counter = 1,
		.message = "counter global.latency: bounds are missing" });

	/* log2: powers of two, each twice the one before */
	hist_schema(&h);
	memcpy(h.bounds, (uint64_t[]){ 64, 128, 512, 1024 }, 4 * sizeof(uint64_t));
	h.tc[0].bounds = h.bounds;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_LOG2,
		.problem = FASTMIB_BAD_LAYOUT, .group = 1, .value = 512,
		.message = "counter port.size: log2, but bound 3, 512, is not twice the one before" });
	hist_schema(&h);
	memcpy(h.bounds, (uint64_t[]){ 3, 6, 12, 24 }, 4 * sizeof(uint64_t));
	h.tc[0].bounds = h.bounds;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_LOG2,
		.problem = FASTMIB_BAD_LAYOUT, .group = 1, .value = 3,
		.message = "counter port.size: log2, but bound 1, 3, is not a power of two" });
	hist_schema(&h);
	h.sc[2].log2 = 1;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_LOG2,
		.problem = FASTMIB_BAD_RANGE, .counter = 2, .value = 1,
		.message = "counter global.depth: log2 (histograms only) 1 out of range 0..0" });
	hist_schema(&h);
	h.sc[0].n_bounds = 2;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_BOUNDS,
		.problem = FASTMIB_BAD_COUNT, .value = 2,
		.message = "counter global.pkts: 2 bounds (histograms only) (0..0)" });

	/* per-core storage only */
	hist_schema(&h);
	h.ac[0].type = FASTMIB_PEAK;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_STORAGE,
		.problem = FASTMIB_BAD_STORAGE, .group = 2, .value = FASTMIB_STORAGE_SHARED_ATOMIC,
		.message = "counter rare.errors: a peak needs per-core storage, not shared-atomic" });
	hist_schema(&h);
	h.g[1].storage = FASTMIB_STORAGE_SHARED_BUFFERED;
	h.tc[1].type = FASTMIB_COUNTER64;
	fastmib_schema_lay_out(&h.s);
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_STORAGE,
		.problem = FASTMIB_BAD_STORAGE, .group = 1, .value = FASTMIB_STORAGE_SHARED_BUFFERED,
		.message = "counter port.size: a histogram needs per-core storage, not "
			   "shared-buffered" });

	/* two arcs: the count's and the sum's */
	hist_schema(&h);
	h.sc[2].arc = 3;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_DUPLICATE, .counter = 2, .first = 1, .value = 3,
		.message = "counters global.latency and global.depth share arc 3" });
	hist_schema(&h);
	h.st[0].arc = 3;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_STATE, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_DUPLICATE, .first = 1, .value = 3,
		.message = "group global: counter latency and state mode share arc 3" });
	hist_schema(&h);
	h.sc[1].arc = 999;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_ARC,
		.problem = FASTMIB_BAD_RANGE, .counter = 1, .value = 999, .lo = 1, .hi = 998,
		.message = "counter global.latency: arc 999 out of range 1..998" });

	/* words: a histogram's overlapping the next counter's, and past the row */
	hist_schema(&h);
	h.sc[2].offset = 48;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_OFFSET,
		.problem = FASTMIB_BAD_DUPLICATE, .counter = 2, .first = 1, .value = 48,
		.message = "counters global.latency and global.depth share offset 48" });
	hist_schema(&h);
	h.sc[1].offset = 24;
	h.sc[2].offset = 0;
	h.sc[0].offset = 16;
	expect_hist(&h, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_COUNTER, .field = FASTMIB_FIELD_OFFSET,
		.problem = FASTMIB_BAD_LAYOUT, .counter = 1, .value = 24,
		.message = "counter global.latency: its 6 words from offset 24 run past the "
			   "64-byte row" });
}

/* Rows of more words than a reader's buffer: 8 histograms of 32 bounds. */
static void
test_row_words(void **state)
{
	struct fastmib_counter_schema c[8];
	uint64_t bounds[32];
	char names[8][8];
	struct fastmib_group_schema g = {
		.name = "wide", .description = "W.", .arc = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_rows = 1, .n_counters = 8, .counters = c,
	};
	struct copy cp;

	(void)state;
	for (uint32_t i = 0; i < 32; i++)
		bounds[i] = 1ull << i;
	for (uint32_t i = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "h%u", i);
		c[i] = (struct fastmib_counter_schema){ names[i], "", "H.", 2 * i + 1,
							FASTMIB_HISTOGRAM, 0, 32, 1, bounds };
	}
	memset(&cp, 0, sizeof(cp));
	cp.s = (struct fastmib_schema){
		.version = FASTMIB_MODEL_VERSION, .module = "WIDE-MIB", .prefix = "wd",
		.oid_len = 2, .oid = { 1, 3 }, .n_groups = 1, .groups = &g,
	};
	fastmib_schema_lay_out(&cp.s);
	assert_int_equal(g.row_size, 8 * 8 * 35);
	expect_one(&cp, &(struct fastmib_schema_fault){
		.object = FASTMIB_OBJ_GROUP, .field = FASTMIB_FIELD_ROW_SIZE,
		.problem = FASTMIB_BAD_RANGE, .value = 280, .lo = 1, .hi = 256,
		.message = "group wide: rows of 280 words; the limit is 256" });
	g.n_counters = 7;
	fastmib_schema_lay_out(&cp.s);
	assert_int_equal(fastmib_schema_check(&cp.s, NULL, NULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_arcs),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_layout_rules),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_lay_out),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_row_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
