/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libfastmib's DPDK telemetry commands, asked over this process's own
 * telemetry socket as dpdk-telemetry.py asks them: real EAL with telemetry
 * on, real segments, answers parsed as JSON and compared with the values
 * written.
 *
 * The model is built here rather than generated, for shapes no example
 * has: a scalar group too wide for one answer, a table whose rows fill
 * the 16 KiB output long before DPDK's 256 entries, two-index rows, keyed
 * tables (an address and a number; a string and a MAC); and the state
 * objects of states_model.h, every type, in every kind of group.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <rte_eal.h>
#include <rte_lcore.h>

#include "fastmib/fastmib.h"
#include "fastmib/names.h"
#include "handle.h"
#include "states_model.h"
#include "tutil.h"
#include "telclient.h"

#define MAX_OUTPUT 16384 /* DPDK 22.11: max_output_len of the hello */

enum { G_KINDS, G_WIDE, G_ROWS, G_SPARSE, G_TUNNEL, G_NAMED, N_GROUPS };
#define WIDE_N FASTMIB_MAX_COUNTERS
#define ROWS_N 1000
#define ROWS_COUNTERS 8
#define TUNNEL_CAPACITY 2048

struct tunnel_key {
	struct fastmib_inet_address peer;
	uint32_t teid;
};

struct named_key {
	char if_name[17];
	uint8_t mac[6];
};

static struct fastmib_counter_schema kinds_c[3], wide_c[WIDE_N], rows_c[ROWS_COUNTERS],
	sparse_c[2], named_c[1];
static char wide_names[WIDE_N][FASTMIB_MAX_NAME + 1];
static char rows_names[ROWS_COUNTERS][FASTMIB_MAX_NAME + 1];
static struct fastmib_group_schema groups[N_GROUPS];
static struct fastmib_schema tt_schema;

static void
counter(struct fastmib_counter_schema *c, const char *name, uint32_t arc, uint32_t type)
{
	*c = (struct fastmib_counter_schema){ .name = name, .units = "", .description = "A counter.",
					      .arc = arc, .type = type };
}

static void
group(unsigned i, const char *name, uint32_t storage, struct fastmib_counter_schema *c,
      uint32_t n)
{
	groups[i] = (struct fastmib_group_schema){ .name = name, .description = "A group.",
						   .arc = i + 1, .storage = storage,
						   .n_rows = 1, .n_counters = n, .counters = c };
}

static void
build_schema(void)
{
	counter(&kinds_c[0], "octets", 1, FASTMIB_COUNTER64);
	counter(&kinds_c[1], "wraps", 2, FASTMIB_COUNTER32);
	counter(&kinds_c[2], "level", 3, FASTMIB_GAUGE32);
	group(G_KINDS, "kinds", FASTMIB_STORAGE_PER_CORE, kinds_c, 3);
	for (uint32_t i = 0; i < WIDE_N; i++) {
		snprintf(wide_names[i], sizeof(wide_names[i]), "counterWhoseNameIsAsLongAsMostModelsWouldNeverHaveIt%03u", i);
		counter(&wide_c[i], wide_names[i], i + 1, FASTMIB_COUNTER64);
	}
	group(G_WIDE, "wide", FASTMIB_STORAGE_PER_CORE, wide_c, WIDE_N);
	for (uint32_t i = 0; i < ROWS_COUNTERS; i++) {
		snprintf(rows_names[i], sizeof(rows_names[i]), "packetsOfKindNumber%u", i);
		counter(&rows_c[i], rows_names[i], i + 1, FASTMIB_COUNTER64);
	}
	group(G_ROWS, "rows", FASTMIB_STORAGE_PER_CORE, rows_c, ROWS_COUNTERS);
	groups[G_ROWS].n_indexes = 1;
	groups[G_ROWS].all_rows = 1;
	groups[G_ROWS].indexes[0] = (struct fastmib_index_schema){ .name = "rowId", .max = ROWS_N };
	groups[G_ROWS].n_rows = ROWS_N;
	counter(&sparse_c[0], "pkts", 1, FASTMIB_COUNTER64);
	counter(&sparse_c[1], "bytes", 2, FASTMIB_COUNTER64);
	group(G_SPARSE, "sparse", FASTMIB_STORAGE_SHARED_ATOMIC, sparse_c, 2);
	groups[G_SPARSE].n_indexes = 2;
	groups[G_SPARSE].indexes[0] = (struct fastmib_index_schema){ .name = "vrf", .max = 10 };
	groups[G_SPARSE].indexes[1] = (struct fastmib_index_schema){ .name = "queue", .max = 10 };
	groups[G_SPARSE].n_rows = 100;
	/* keyed: the C keys below are laid out as fastmib_key_layout() says */
	group(G_TUNNEL, "tunnel", FASTMIB_STORAGE_PER_CORE, sparse_c, 2);
	groups[G_TUNNEL].n_indexes = 2;
	groups[G_TUNNEL].indexes[0] = (struct fastmib_index_schema){
		.name = "peer", .type = FASTMIB_INDEX_INET_ADDRESS };
	groups[G_TUNNEL].indexes[1] = (struct fastmib_index_schema){
		.name = "teid", .type = FASTMIB_INDEX_UINT32 };
	groups[G_TUNNEL].n_rows = TUNNEL_CAPACITY;
	counter(&named_c[0], "frames", 1, FASTMIB_COUNTER64);
	group(G_NAMED, "named", FASTMIB_STORAGE_SHARED_ATOMIC, named_c, 1);
	groups[G_NAMED].n_indexes = 2;
	groups[G_NAMED].indexes[0] = (struct fastmib_index_schema){
		.name = "ifName", .type = FASTMIB_INDEX_STRING, .size = 16 };
	groups[G_NAMED].indexes[1] = (struct fastmib_index_schema){
		.name = "mac", .type = FASTMIB_INDEX_MAC };
	groups[G_NAMED].n_rows = 16;
	tt_schema = (struct fastmib_schema){
		.version = FASTMIB_MODEL_VERSION, .module = "TELEMETRY-TEST-MIB", .prefix = "tt",
		.oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 77 },
		.n_groups = N_GROUPS, .groups = groups,
	};
	fastmib_schema_lay_out(&tt_schema);
}

static uint64_t
offset_of(unsigned g, uint32_t row, uint32_t c)
{
	return groups[g].offset + (uint64_t)row * groups[g].row_size + groups[g].counters[c].offset;
}

static uint64_t
wide_value(uint32_t c)
{
	return 1000003ull * (c + 1);
}

static uint64_t
rows_value(uint32_t row, uint32_t c)
{
	return (uint64_t)row * 100 + c + 1;
}

/* ---- asking the telemetry socket ---- */

/*
 * The answer to `cmd`: its JSON document (owned by the caller), or NULL
 * with `why` saying what was wrong. Every answer must fit DPDK's output
 * limit. No cmocka assertion: threads other than the test's call it.
 */
static json_t *
tel_ask_doc(int fd, const char *cmd, char *why, size_t why_len)
{
	static __thread char buf[1 << 17];
	json_error_t err;
	json_t *doc;
	ssize_t n;

	if (send(fd, cmd, strlen(cmd), 0) != (ssize_t)strlen(cmd) ||
	    (n = recv(fd, buf, sizeof(buf), 0)) <= 0) {
		snprintf(why, why_len, "%s: %s", cmd, strerror(errno));
		return NULL;
	}
	if (n >= MAX_OUTPUT) {
		snprintf(why, why_len, "%s: %zd bytes, over the output limit", cmd, n);
		return NULL;
	}
	doc = json_loadb(buf, (size_t)n, 0, &err);
	if (doc == NULL)
		snprintf(why, why_len, "%s: not JSON (%s): %.*s", cmd, err.text, (int)n, buf);
	return doc;
}

/* The value of the answer to `cmd` (its one key), owned by the caller;
 * NULL for a JSON null (an unknown command). */
static json_t *
tel_ask(int fd, const char *fmt, ...)
{
	char cmd[512], why[1024];
	json_t *doc, *v;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	doc = tel_ask_doc(fd, cmd, why, sizeof(why));
	if (doc == NULL)
		fail_msg("%s", why);
	cmd[strcspn(cmd, ",")] = '\0';
	v = json_object_get(doc, cmd);
	assert_non_null(v);
	v = json_is_null(v) ? NULL : json_incref(v);
	json_decref(doc);
	return v;
}

/* Fail, showing the answer (its first part) that lacks `key`. */
static void
missing(const json_t *o, const char *key, const char *what)
{
	char *text = json_dumps(o, JSON_COMPACT);

	fail_msg("%s is not %s in %.600s", key, what, text ? text : "(null)");
}

static uint64_t
num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		missing(o, key, "a number");
	return (uint64_t)json_integer_value(v);
}

static const char *
str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		missing(o, key, "a string");
	return json_string_value(v);
}

static void
mib_counter(char *buf, size_t len, unsigned g, uint32_t c)
{
	fastmib_name(buf, len, FASTMIB_MIB_COUNTER, "tt", groups[g].name,
		     groups[g].counters[c].name);
}

static struct fastmib_segment *
create(const char *tag)
{
	struct fastmib_segment *seg = NULL;
	char path[256];

	tu_path(path, sizeof(path), tag);
	unlink(path);
	if (fastmib_create(&tt_schema, path, NULL, &seg) != 0)
		fail_msg("create: %s", fastmib_last_error());
	return seg;
}

static void
destroy(struct fastmib_segment *seg, const char *tag)
{
	char path[256];

	fastmib_close(seg);
	unlink(tu_path(path, sizeof(path), tag));
}

/* ---- tests ---- */

/* Before the first fastmib_create() the commands do not exist; then they
 * list exactly the segments open in this process. */
static void
test_segments(void **state)
{
	struct fastmib_segment *a, *b;
	char path[256];
	json_t *v, *s;
	int fd = tu_tel_connect();

	(void)state;
	assert_null(tel_ask(fd, "/fastmib/segments"));
	a = create("tel-a");
	b = create("tel-b");
	v = tel_ask(fd, "/fastmib/segments");
	assert_int_equal(json_object_size(v), 2);
	s = json_object_get(v, "0");
	assert_string_equal(str(s, "path"), tu_path(path, sizeof(path), "tel-a"));
	assert_string_equal(str(s, "module"), "TELEMETRY-TEST-MIB");
	assert_string_equal(str(s, "prefix"), "tt");
	assert_int_equal(num(s, "generation"), 1);
	assert_int_equal(num(s, "n_groups"), N_GROUPS);
	assert_int_equal(json_array_size(json_object_get(s, "groups")), N_GROUPS);
	for (unsigned g = 0; g < N_GROUPS; g++)
		assert_string_equal(json_string_value(json_array_get(json_object_get(s, "groups"), g)),
				    groups[g].name);
	assert_string_equal(str(json_object_get(v, "1"), "path"),
			    tu_path(path, sizeof(path), "tel-b"));
	json_decref(v);

	/* Closed: gone from the list; ids are not reused. */
	destroy(a, "tel-a");
	v = tel_ask(fd, "/fastmib/segments");
	assert_int_equal(json_object_size(v), 1);
	assert_non_null(json_object_get(v, "1"));
	json_decref(v);
	destroy(b, "tel-b");
	a = create("tel-a");
	v = tel_ask(fd, "/fastmib/segments");
	assert_int_equal(json_object_size(v), 1);
	assert_int_equal(num(json_object_get(v, "2"), "generation"), 1);
	json_decref(v);
	destroy(a, "tel-a");
	v = tel_ask(fd, "/fastmib/segments");
	assert_int_equal(json_object_size(v), 0);
	json_decref(v);
	close(fd);
}

/* Values as SNMP reports them, reset baselines subtracted. */
static void
test_scalar_values(void **state)
{
	struct fastmib_segment *seg = create("tel-kinds");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	json_t *v, *c;

	(void)state;
	assert_non_null(w);
	fastmib_begin(w);
	fastmib_pc_add(w, offset_of(G_KINDS, 0, 0), 123456789012345ull);
	fastmib_pc_add(w, offset_of(G_KINDS, 0, 1), (1ull << 32) + 7);
	fastmib_pc_add(w, offset_of(G_KINDS, 0, 2), (uint64_t)-5); /* a gauge below 0 */
	fastmib_end(w);
	v = tel_ask(fd, "/fastmib/group,kinds");
	assert_string_equal(str(v, "group"), "kinds");
	assert_string_equal(str(v, "mib"), "ttKinds");
	assert_string_equal(str(v, "storage"), "per-core");
	assert_int_equal(num(v, "cut"), 0);
	assert_int_equal(num(v, "best_effort"), 0);
	c = json_object_get(v, "counters");
	assert_int_equal(json_object_size(c), 3);
	assert_int_equal(num(c, "ttKindsOctets"), 123456789012345ull);
	assert_int_equal(num(c, "ttKindsWraps"), 7);   /* modulo 2^32 */
	assert_int_equal(num(c, "ttKindsLevel"), 0);   /* clamped */
	json_decref(v);

	/* A reset is subtracted (gauges are not reset); so is everything
	 * counted before it, by group name in MIB style too. */
	assert_int_equal(fastmib_reset(seg, G_KINDS, 0), 0);
	fastmib_begin(w);
	fastmib_pc_add(w, offset_of(G_KINDS, 0, 0), 5);
	fastmib_pc_add(w, offset_of(G_KINDS, 0, 2), 8);
	fastmib_end(w);
	v = tel_ask(fd, "/fastmib/group,ttKinds");
	c = json_object_get(v, "counters");
	assert_int_equal(num(c, "ttKindsOctets"), 5);
	assert_int_equal(num(c, "ttKindsWraps"), 0);
	assert_int_equal(num(c, "ttKindsLevel"), 3);
	json_decref(v);
	close(fd);
	destroy(seg, "tel-kinds");
}

/* 256 counters of long names do not fit in 16 KiB: the answer keeps the
 * first ones, in order and exact, and says it was cut. */
static void
test_wide_scalar_cut(void **state)
{
	struct fastmib_segment *seg = create("tel-wide");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	char name[256];
	const char *key;
	json_t *v, *c, *x;
	uint32_t i = 0;

	(void)state;
	fastmib_begin(w);
	for (uint32_t k = 0; k < WIDE_N; k++)
		fastmib_pc_add(w, offset_of(G_WIDE, 0, k), wide_value(k));
	fastmib_end(w);
	v = tel_ask(fd, "/fastmib/group,wide");
	assert_int_equal(num(v, "cut"), 1);
	c = json_object_get(v, "counters");
	assert_true(json_object_size(c) > 100 && json_object_size(c) < WIDE_N);
	json_object_foreach(c, key, x) {
		mib_counter(name, sizeof(name), G_WIDE, i);
		assert_string_equal(key, name);
		assert_int_equal(json_integer_value(x), wide_value(i));
		i++;
	}
	json_decref(v);
	close(fd);
	destroy(seg, "tel-wide");
}

/* A table too big for one answer: pages of rows, each cut where the next
 * row would not fit, continued from `next`, together every row exactly. */
static void
test_rows_paging(void **state)
{
	struct fastmib_segment *seg = create("tel-rows");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	char name[256], next[32] = "";
	uint32_t seen = 0, pages = 0;
	uint64_t id = 0;

	(void)state;
	fastmib_begin(w);
	for (uint32_t r = 0; r < ROWS_N; r++)
		for (uint32_t k = 0; k < ROWS_COUNTERS; k++)
			fastmib_pc_add(w, offset_of(G_ROWS, r, k), rows_value(r, k));
	fastmib_end(w);
	for (;;) {
		/* later pages name the segment by its id, as a script would */
		json_t *v = next[0] ? tel_ask(fd, "/fastmib/group,%" PRIu64 ",rows,%s", id, next) :
				      tel_ask(fd, "/fastmib/group,rows");
		json_t *rows = json_object_get(v, "rows"), *row;
		const char *key;

		if (pages++ == 0)
			id = num(v, "segment");
		assert_int_equal(num(v, "segment"), id);
		assert_int_equal(num(v, "rows_max"), ROWS_N);
		assert_int_equal(num(v, "rows_present"), ROWS_N);
		assert_string_equal(json_string_value(json_array_get(json_object_get(v, "indexes"), 0)),
				    "ttRowsRowId");
		assert_int_equal(num(v, "rows_shown"), json_object_size(rows));
		/* the byte limit, not DPDK's 256 entries, ends these pages */
		assert_true(json_object_size(rows) < 100);
		assert_true(json_object_size(rows) > (num(v, "cut") ? 10 : 0));
		json_object_foreach(rows, key, row) {
			assert_int_equal(strtoul(key, NULL, 10), seen + 1); /* SNMP index */
			assert_int_equal(json_object_size(row), ROWS_COUNTERS);
			for (uint32_t k = 0; k < ROWS_COUNTERS; k++) {
				mib_counter(name, sizeof(name), G_ROWS, k);
				assert_int_equal(num(row, name), rows_value(seen, k));
			}
			seen++;
		}
		if (!num(v, "cut")) {
			assert_null(json_object_get(v, "next"));
			json_decref(v);
			break;
		}
		assert_int_equal(strtoul(str(v, "next"), NULL, 10), seen + 1);
		snprintf(next, sizeof(next), "%s", str(v, "next"));
		json_decref(v);
		assert_true(pages < ROWS_N);
	}
	assert_int_equal(seen, ROWS_N);
	assert_true(pages > 10);
	close(fd);
	destroy(seg, "tel-rows");
}

/* Rows of a `rows: present` table with two indexes: only present ones,
 * keyed by their SNMP indexes. */
static void
test_sparse_rows(void **state)
{
	struct fastmib_segment *seg = create("tel-sparse");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	const uint32_t r1 = 2 * 10 + 3, r2 = 99; /* (3, 4) and (10, 10) */
	json_t *v, *rows;

	(void)state;
	v = tel_ask(fd, "/fastmib/group,sparse");
	assert_int_equal(num(v, "rows_present"), 0);
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 0);
	json_decref(v);
	assert_int_equal(fastmib_row_enable(seg, G_SPARSE, r1), 0);
	assert_int_equal(fastmib_row_enable(seg, G_SPARSE, r2), 0);
	fastmib_atomic_add(w, offset_of(G_SPARSE, r1, 0), 3);
	fastmib_atomic_add(w, offset_of(G_SPARSE, r1, 1), 300);
	fastmib_atomic_add(w, offset_of(G_SPARSE, r2, 0), 4);
	v = tel_ask(fd, "/fastmib/group,sparse");
	assert_string_equal(str(v, "storage"), "shared-atomic");
	assert_int_equal(num(v, "rows_present"), 2);
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 2);
	assert_int_equal(num(json_object_get(rows, "3_4"), "ttSparsePkts"), 3);
	assert_int_equal(num(json_object_get(rows, "3_4"), "ttSparseBytes"), 300);
	assert_int_equal(num(json_object_get(rows, "10_10"), "ttSparsePkts"), 4);
	json_decref(v);
	/* From a row on, written as its key or with dots */
	v = tel_ask(fd, "/fastmib/group,sparse,3_5");
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 1);
	assert_non_null(json_object_get(rows, "10_10"));
	json_decref(v);
	v = tel_ask(fd, "/fastmib/group,sparse,3.4");
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 2);
	json_decref(v);
	close(fd);
	destroy(seg, "tel-sparse");
}

static void
expect_error(int fd, const char *cmd, const char *words)
{
	json_t *v = tel_ask(fd, "%s", cmd);
	const char *e = str(v, "error");

	if (strstr(e, words) == NULL)
		fail_msg("%s: error '%s' does not say '%s'", cmd, e, words);
	json_decref(v);
}

static void
test_errors(void **state)
{
	struct fastmib_segment *seg;
	int fd = tu_tel_connect();

	(void)state;
	expect_error(fd, "/fastmib/group,kinds", "no fastmib segment open");
	seg = create("tel-err");
	expect_error(fd, "/fastmib/group", "which group?");
	expect_error(fd, "/fastmib/group,nosuch", "no group 'nosuch'");
	expect_error(fd, "/fastmib/group,99,kinds", "no segment 99");
	expect_error(fd, "/fastmib/group,kinds,1", "scalar group");
	expect_error(fd, "/fastmib/group,sparse,4", "takes 2 index value(s)");
	expect_error(fd, "/fastmib/group,sparse,11_1", "bad row");
	expect_error(fd, "/fastmib/group,sparse,1_x", "bad row");
	expect_error(fd, "/fastmib/group,sparse,1_1,2", "too many parameters");
	expect_error(fd, "/fastmib/segments,0", "takes no parameters");
	close(fd);
	destroy(seg, "tel-err");
}

/* ---- keyed tables ---- */

static struct tunnel_key
tunnel_key(const char *addr, uint32_t teid)
{
	struct tunnel_key k;

	memset(&k, 0, sizeof(k));
	k.peer.type = strchr(addr, ':') ? 2 : 1;
	assert_int_equal(inet_pton(k.peer.type == 2 ? AF_INET6 : AF_INET, addr, k.peer.addr), 1);
	k.teid = teid;
	return k;
}

/* Insert `k` and give its row pkts and bytes. */
static uint32_t
tunnel_row(struct fastmib_segment *seg, struct fastmib_writer *w, struct tunnel_key k,
	   uint64_t pkts, uint64_t bytes)
{
	uint32_t row;

	if (fastmib_key_insert(seg, G_TUNNEL, &k, &row) != 0)
		fail_msg("insert: %s", fastmib_last_error());
	fastmib_begin(w);
	fastmib_pc_add(w, offset_of(G_TUNNEL, row, 0), pkts);
	fastmib_pc_add(w, offset_of(G_TUNNEL, row, 1), bytes);
	fastmib_end(w);
	return row;
}

/* Entry `i` of a JSON object, in the order of the answer; its name to
 * *name when not NULL. */
static json_t *
nth(json_t *o, size_t i, const char **name)
{
	void *it = json_object_iter(o);

	while (it != NULL && i-- > 0)
		it = json_object_iter_next(o, it);
	if (it == NULL)
		return NULL;
	if (name != NULL)
		*name = json_object_iter_key(it);
	return json_object_iter_value(it);
}

/* Row `i` of an answer: its key's `peer` text and `teid`, its counters. */
static void
expect_tunnel(json_t *rows, size_t i, const char *type, const char *peer, uint64_t teid,
	      uint64_t pkts, uint64_t bytes)
{
	json_t *row = nth(rows, i, NULL), *key = json_object_get(row, "key");
	json_t *c = json_object_get(row, "counters");

	if (row == NULL)
		fail_msg("no row %zu", i);
	assert_int_equal(json_object_size(row), 2);
	assert_int_equal(json_object_size(key), 3);
	assert_string_equal(str(key, "ttTunnelPeerType"), type);
	assert_string_equal(str(key, "ttTunnelPeer"), peer);
	assert_int_equal(num(key, "ttTunnelTeid"), teid);
	assert_int_equal(json_object_size(c), 2);
	assert_int_equal(num(c, "ttTunnelPkts"), pkts);
	assert_int_equal(num(c, "ttTunnelBytes"), bytes);
}

/* Rows by key, typed, in SNMP order whatever the order of the inserts;
 * from a key on; a removed key gone, its row serving the next key only. */
static void
test_keyed_rows(void **state)
{
	struct fastmib_segment *seg = create("tel-keyed");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	json_t *v, *rows, *ix;
	const char *name;
	uint64_t id;
	uint32_t r;

	(void)state;
	v = tel_ask(fd, "/fastmib/group,tunnel");
	assert_string_equal(str(v, "mib"), "ttTunnelTable");
	assert_int_equal(num(v, "rows_max"), TUNNEL_CAPACITY);
	assert_int_equal(num(v, "rows_present"), 0);
	assert_true(json_is_object(json_object_get(v, "rows")));
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 0);
	ix = json_object_get(v, "indexes"); /* the INDEX clause, in its order */
	assert_int_equal(json_array_size(ix), 3);
	assert_string_equal(json_string_value(json_array_get(ix, 0)), "ttTunnelPeerType");
	assert_string_equal(json_string_value(json_array_get(ix, 1)), "ttTunnelPeer");
	assert_string_equal(json_string_value(json_array_get(ix, 2)), "ttTunnelTeid");
	json_decref(v);

	tunnel_row(seg, w, tunnel_key("2001:db8::1", 1), 41, 4100);
	r = tunnel_row(seg, w, tunnel_key("10.0.0.2", 7), 21, 2100);
	tunnel_row(seg, w, tunnel_key("10.0.0.1", 3735928559u), 11, 1100);
	tunnel_row(seg, w, tunnel_key("9.1.1.1", 5), 1, 100);
	v = tel_ask(fd, "/fastmib/group,tunnel");
	assert_int_equal(num(v, "rows_present"), 4);
	assert_int_equal(num(v, "rows_shown"), 4);
	assert_int_equal(num(v, "cut"), 0);
	assert_null(json_object_get(v, "next"));
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 4);
	/* 9.1.1.1 before 10.0.0.1: the octets in order, IPv4 before IPv6 */
	expect_tunnel(rows, 0, "ipv4", "9.1.1.1", 5, 1, 100);
	expect_tunnel(rows, 1, "ipv4", "10.0.0.1", 3735928559u, 11, 1100);
	expect_tunnel(rows, 2, "ipv4", "10.0.0.2", 7, 21, 2100);
	expect_tunnel(rows, 3, "ipv6", "2001:db8::1", 1, 41, 4100);
	json_decref(v);

	/* FROM: a key, present or not, in the grammar of fastmib-stat --reset */
	v = tel_ask(fd, "/fastmib/group,tunnel,10.0.0.2,7");
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 2);
	expect_tunnel(rows, 0, "ipv4", "10.0.0.2", 7, 21, 2100);
	/* a key not in the table, with the segment id and the MIB name */
	id = num(v, "segment");
	json_decref(v);
	v = tel_ask(fd, "/fastmib/group,%" PRIu64 ",ttTunnel,10.0.0.2,8", id);
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 1);
	expect_tunnel(rows, 0, "ipv6", "2001:db8::1", 1, 41, 4100);
	json_decref(v);

	/* 10.0.0.2 removed, its row given to another key: that key alone */
	struct tunnel_key gone = tunnel_key("10.0.0.2", 7);

	assert_int_equal(fastmib_key_remove(seg, G_TUNNEL, &gone), 0);
	assert_int_equal(tunnel_row(seg, w, tunnel_key("::1", 9), 2, 3), r);
	v = tel_ask(fd, "/fastmib/group,tunnel,10.0.0.1,3735928560");
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 2);
	expect_tunnel(rows, 0, "ipv6", "::1", 9, 2, 3);
	nth(rows, 0, &name);
	assert_int_equal(strtoul(name, NULL, 10), r); /* the row it has */
	expect_tunnel(rows, 1, "ipv6", "2001:db8::1", 1, 41, 4100);
	json_decref(v);

	/* a key record a hostile hand rewrote: that row absent, no crash */
	fms_key_rec(seg, G_TUNNEL, r)->len = 4000;
	v = tel_ask(fd, "/fastmib/group,tunnel");
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 3);
	json_decref(v);
	close(fd);
	destroy(seg, "tel-keyed");
}

/* A string key with the characters that need escaping, in JSON and in
 * FROM, and a MAC. */
static void
test_keyed_strings(void **state)
{
	struct fastmib_segment *seg = create("tel-named");
	struct fastmib_writer *w = fastmib_writer(seg);
	static const char *const names[] = { "eth0", "a,b", "q\"uote", "back\\slash" };
	int fd = tu_tel_connect();
	json_t *v, *rows;
	uint32_t row;

	(void)state;
	for (uint32_t i = 0; i < 4; i++) {
		struct named_key k = { .mac = { 2, 0, 0, 0, 0xab, (uint8_t)i } };

		snprintf(k.if_name, sizeof(k.if_name), "%s", names[i]);
		assert_int_equal(fastmib_key_insert(seg, G_NAMED, &k, &row), 0);
		fastmib_atomic_add(w, offset_of(G_NAMED, row, 0), 100 + i);
	}
	v = tel_ask(fd, "/fastmib/group,named"); /* not JSON would fail here */
	rows = json_object_get(v, "rows");
	assert_int_equal(json_object_size(rows), 4);
	/* SNMP order: the length first ("a,b" of 3, "eth0" of 4, ...) */
	static const uint32_t order[] = { 1, 0, 2, 3 };
	for (uint32_t i = 0; i < 4; i++) {
		json_t *key = json_object_get(nth(rows, i, NULL), "key");
		char mac[32];

		snprintf(mac, sizeof(mac), "02:00:00:00:ab:%02x", order[i]);
		assert_string_equal(str(key, "ttNamedIfName"), names[order[i]]);
		assert_string_equal(str(key, "ttNamedMac"), mac);
		assert_int_equal(num(json_object_get(nth(rows, i, NULL), "counters"),
				     "ttNamedFrames"), 100 + order[i]);
	}
	json_decref(v);
	v = tel_ask(fd, "/fastmib/group,named,a\\,b,02:00:00:00:ab:01");
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 4);
	json_decref(v);
	v = tel_ask(fd, "/fastmib/group,named,a\\,b,02:00:00:00:ab:02");
	assert_int_equal(json_object_size(json_object_get(v, "rows")), 3);
	json_decref(v);
	close(fd);
	destroy(seg, "tel-named");
}

/* More rows than one answer holds: pages from "next", every key once, in
 * order. */
static void
test_keyed_paging(void **state)
{
	struct fastmib_segment *seg = create("tel-kpages");
	struct fastmib_writer *w = fastmib_writer(seg);
	int fd = tu_tel_connect();
	char cmd[256];
	uint32_t seen = 0, pages = 0;

	(void)state;
	/* inserted from the last to the first: SNMP order is not theirs */
	for (uint32_t i = TUNNEL_CAPACITY; i-- > 0;) {
		char a[32];

		snprintf(a, sizeof(a), "10.0.%u.%u", i / 256, i % 256);
		tunnel_row(seg, w, tunnel_key(a, i), i, 2ull * i);
	}
	snprintf(cmd, sizeof(cmd), "/fastmib/group,tunnel");
	for (;;) {
		json_t *v = tel_ask(fd, "%s", cmd), *rows = json_object_get(v, "rows");

		pages++;
		assert_int_equal(num(v, "rows_present"), TUNNEL_CAPACITY);
		assert_int_equal(num(v, "rows_shown"), json_object_size(rows));
		assert_true(json_object_size(rows) > 10);
		for (size_t i = 0; i < json_object_size(rows); i++) {
			char a[32];

			snprintf(a, sizeof(a), "10.0.%u.%u", seen / 256, seen % 256);
			expect_tunnel(rows, i, "ipv4", a, seen, seen, 2ull * seen);
			seen++;
		}
		if (!num(v, "cut")) {
			json_decref(v);
			break;
		}
		snprintf(cmd, sizeof(cmd), "/fastmib/group,tunnel,%s", str(v, "next"));
		json_decref(v);
		assert_true(pages < TUNNEL_CAPACITY);
	}
	assert_int_equal(seen, TUNNEL_CAPACITY);
	assert_true(pages > 10);
	close(fd);
	destroy(seg, "tel-kpages");
}

static void
test_keyed_errors(void **state)
{
	struct fastmib_segment *seg = create("tel-kerr");
	int fd = tu_tel_connect();

	(void)state;
	expect_error(fd, "/fastmib/group,tunnel,10.0.0.300,7",
		     "group tunnel: '10.0.0.300' is not an IPv4 address for index peer");
	expect_error(fd, "/fastmib/group,tunnel,10.0.0.1",
		     "it takes 2 field(s), joined by ',': peer (inet-address), teid (uint32)");
	expect_error(fd, "/fastmib/group,tunnel,10.0.0.1,7,8", "it takes 2 field(s)");
	expect_error(fd, "/fastmib/group,named,eth0,02:00:00:00:00", "is not a MAC address");
	close(fd);
	destroy(seg, "tel-kerr");
}

/* Segments closed while another thread keeps asking about them: each
 * answer is whole (an error or the group), never a read of an unmapped
 * segment. */
struct churn {
	int fd;
	int stop;               /* atomic */
	unsigned long rows, errors;
	char bad[1024];         /* the first wrong answer */
};

static void
churn_check(struct churn *c, const char *cmd)
{
	json_t *doc = tel_ask_doc(c->fd, cmd, c->bad, sizeof(c->bad));
	json_t *v = json_object_get(doc, "/fastmib/group"), *rows = json_object_get(v, "rows");

	if (doc == NULL)
		return;
	if (strcmp(cmd, "/fastmib/segments") != 0) {
		if (rows != NULL && json_object_size(rows) == 10)
			c->rows++;
		else if (json_is_string(json_object_get(v, "error")))
			c->errors++;
		else
			snprintf(c->bad, sizeof(c->bad), "%s: unexpected answer", cmd);
	}
	json_decref(doc);
}

static void *
asker(void *arg)
{
	struct churn *c = arg;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) && c->bad[0] == '\0') {
		churn_check(c, "/fastmib/group,rows,991");
		churn_check(c, "/fastmib/segments");
	}
	return NULL;
}

static void
test_close_while_asked(void **state)
{
	struct churn c = { .fd = tu_tel_connect() };
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, asker, &c), 0);
	for (int i = 0; i < 300 || __atomic_load_n(&c.rows, __ATOMIC_RELAXED) == 0 ||
			__atomic_load_n(&c.errors, __ATOMIC_RELAXED) == 0; i++) {
		struct fastmib_segment *seg = create("tel-churn");

		usleep(i % 3 ? 100 : 1000);
		destroy(seg, "tel-churn");
		usleep(200);
		if (i > 20000 || c.bad[0])
			break;
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	close(c.fd);
	if (c.bad[0])
		fail_msg("%s", c.bad);
	assert_true(c.rows > 0 && c.errors > 0);
}

/* ---- state objects: the model of states_model.h ---- */

static struct fastmib_segment *
create_states(const char *tag)
{
	struct fastmib_segment *seg = NULL;
	char path[256];

	tu_path(path, sizeof(path), tag);
	unlink(path);
	if (fastmib_create(sm_schema(), path, NULL, &seg) != 0)
		fail_msg("create: %s", fastmib_last_error());
	return seg;
}

static void
set_state(struct fastmib_segment *seg, unsigned g, uint32_t row, unsigned s, const void *v)
{
	if (fastmib_state_set_one(seg, g, row, s, v) != 0)
		fail_msg("set: %s", fastmib_last_error());
}

/* `got` is the JSON of `fmt` (printf-like), keys in any order. */
static void
expect_json(const json_t *got, const char *fmt, ...)
{
	char want[8192];
	json_error_t err;
	json_t *w;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if ((w = json_loads(want, 0, &err)) == NULL)
		fail_msg("the expectation is not JSON (%s): %s", err.text, want);
	if (!json_equal(got, w)) {
		char *text = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);

		fail_msg("got %s\nwant %s", text ? text : "(null)", want);
	}
	json_decref(w);
}

/* Every type in a scalar group's answer, typed as fastmib-stat --json
 * types it where DPDK's data model can carry it: a truth-value 0 or 1,
 * 64-bit numbers whole, a date before the epoch as its signed digits, a
 * string escaped by DPDK (which leaves out a control character other than
 * a tab or line end: counted), a timestamp's age in ns. */
static void
test_states_scalar(void **state)
{
	struct fastmib_segment *seg = create_states("tel-states");
	int fd = tu_tel_connect();
	int32_t oper = 3, temp = -50;
	uint32_t version = 42, uptime = 8640123;
	uint64_t peak = INT64_MAX, since = fastmib_monotonic_ns() - 2000000000ull, elapsed;
	int64_t started = -1500000000123ll;
	bool enabled = false;
	uint8_t addr[4] = { 192, 168, 1, 9 }, mac[6] = { 2, 0xab, 0xcd, 0, 0, 1 };
	struct fastmib_inet_address remote = { .type = 2 };
	json_t *v, *st, *ago;

	(void)state;
	inet_pton(AF_INET6, "2001:db8::1", remote.addr);
	set_state(seg, SM_GLOBAL, 0, SM_OPER, &oper);
	assert_int_equal(fastmib_state_set_text(seg, SM_GLOBAL, 0, SM_LABEL, "eth0\t\"up\"\x01"), 0);
	set_state(seg, SM_GLOBAL, 0, SM_VERSION, &version);
	set_state(seg, SM_GLOBAL, 0, SM_PEAK, &peak);
	set_state(seg, SM_GLOBAL, 0, SM_SINCE, &since);
	set_state(seg, SM_GLOBAL, 0, SM_STARTED, &started);
	set_state(seg, SM_GLOBAL, 0, SM_ENABLED, &enabled);
	set_state(seg, SM_GLOBAL, 0, SM_ADDR, addr);
	set_state(seg, SM_GLOBAL, 0, SM_MAC, mac);
	set_state(seg, SM_GLOBAL, 0, SM_REMOTE, &remote);
	assert_int_equal(fastmib_state_set_octets(seg, SM_GLOBAL, 0, SM_BLOB, "\x00\xff\x10", 3), 0);
	set_state(seg, SM_GLOBAL, 0, SM_UPTIME, &uptime);
	set_state(seg, SM_GLOBAL, 0, SM_TEMP, &temp);
	v = tel_ask(fd, "/fastmib/group,vwGlobal");
	elapsed = fastmib_monotonic_ns() - since;
	assert_string_equal(str(v, "storage"), "per-core");
	assert_int_equal(num(v, "cut"), 0);
	expect_json(json_object_get(v, "counters"), "{\"vwGlobalPkts\": 0, \"vwGlobalDrops\": 0}");
	st = json_object_get(v, "states");
	/* the age: at least the 2 s set, at most until the answer came */
	ago = json_object_get(json_object_get(st, "vwGlobalSince"), "ago_ns");
	assert_true(json_is_integer(ago));
	assert_in_range((uint64_t)json_integer_value(ago), 2000000000ull, elapsed);
	json_object_del(json_object_get(st, "vwGlobalSince"), "ago_ns");
	expect_json(st, "{"
		"\"vwGlobalOperState\": {\"type\": \"enum\", \"value\": 3, \"label\": \"testing\"},"
		"\"vwGlobalLabel\": {\"type\": \"display-string\", \"value\": \"eth0\\t\\\"up\\\"\","
		"                    \"dropped\": 1},"
		"\"vwGlobalVersion\": {\"type\": \"unsigned32\", \"value\": 42},"
		"\"vwGlobalPeak\": {\"type\": \"gauge64\", \"value\": 9223372036854775807},"
		"\"vwGlobalSince\": {\"type\": \"timestamp\", \"value\": %" PRIu64 "},"
		"\"vwGlobalStarted\": {\"type\": \"date-and-time\", \"value\": \"-1500000000123\"},"
		"\"vwGlobalEnabled\": {\"type\": \"truth-value\", \"value\": 0},"
		"\"vwGlobalAddr\": {\"type\": \"ipv4\", \"value\": \"192.168.1.9\"},"
		"\"vwGlobalMac\": {\"type\": \"mac\", \"value\": \"02:ab:cd:00:00:01\"},"
		"\"vwGlobalRemote\": {\"type\": \"inet-address\", \"value\": \"2001:db8::1\","
		"                     \"addressType\": \"ipv6\"},"
		"\"vwGlobalBlob\": {\"type\": \"octet-string\", \"value\": \"00ff10\"},"
		"\"vwGlobalUptime\": {\"type\": \"timeticks\", \"value\": 8640123},"
		"\"vwGlobalTemp\": {\"type\": \"integer32\", \"value\": -50}}", since);
	/* in model order, after the counters */
	assert_string_equal(json_object_iter_key(json_object_iter(st)), "vwGlobalOperState");
	json_decref(v);
	/* a date after the epoch is a number; a timestamp never set has no age */
	started = 1795000000123456789ll;
	since = 0;
	set_state(seg, SM_GLOBAL, 0, SM_STARTED, &started);
	set_state(seg, SM_GLOBAL, 0, SM_SINCE, &since);
	v = tel_ask(fd, "/fastmib/group,vwGlobal");
	st = json_object_get(v, "states");
	expect_json(json_object_get(st, "vwGlobalStarted"),
		    "{\"type\": \"date-and-time\", \"value\": 1795000000123456789}");
	expect_json(json_object_get(st, "vwGlobalSince"), "{\"type\": \"timestamp\", \"value\": 0}");
	json_decref(v);
	close(fd);
	destroy(seg, "tel-states");
}

/* A dense table's rows {"counters", "states"}; a value the model does not
 * allow left out ("bad"); a row whose setter stays inside its section has
 * every state left out, never one torn. */
static void
test_states_rows(void **state)
{
	struct fastmib_segment *seg = create_states("tel-states");
	struct fastmib_inet_address peer = { .type = 1, .addr = { 10, 0, 0, 2 } };
	struct fms_state_rec *rec;
	int fd = tu_tel_connect();
	int32_t up = 1, nine = 9;
	uint32_t speed = 25000;
	json_t *v, *rows;

	(void)state;
	assert_int_equal(fastmib_row_enable(seg, SM_PORT, 0), 0);
	assert_int_equal(fastmib_row_enable(seg, SM_PORT, 2), 0);
	set_state(seg, SM_PORT, 0, SM_LINK, &up);
	set_state(seg, SM_PORT, 0, SM_SPEED, &speed);
	assert_int_equal(fastmib_state_set_text(seg, SM_PORT, 0, SM_NAME, "eth0"), 0);
	set_state(seg, SM_PORT, 0, SM_PEER, &peer);
	rec = fms_state_rec(seg, SM_PORT, 2);
	memcpy(rec->data + sm_schema()->groups[SM_PORT].states[SM_LINK].offset, &nine, 4);
	v = tel_ask(fd, "/fastmib/group,vwPort");
	assert_int_equal(num(v, "rows_shown"), 2);
	assert_int_equal(num(v, "cut"), 0);
	rows = json_object_get(v, "rows");
	expect_json(rows, "{"
		"\"1\": {\"counters\": {\"vwPortPkts\": 0}, \"states\": {"
		"  \"vwPortLink\": {\"type\": \"enum\", \"value\": 1, \"label\": \"up\"},"
		"  \"vwPortSpeed\": {\"type\": \"unsigned32\", \"value\": 25000},"
		"  \"vwPortName\": {\"type\": \"display-string\", \"value\": \"eth0\"},"
		"  \"vwPortPeer\": {\"type\": \"inet-address\", \"value\": \"10.0.0.2\","
		"                  \"addressType\": \"ipv4\"}}},"
		"\"3\": {\"counters\": {\"vwPortPkts\": 0}, \"states\": {"
		"  \"vwPortLink\": {\"type\": \"enum\", \"bad\": 1},"
		"  \"vwPortSpeed\": {\"type\": \"unsigned32\", \"value\": 0},"
		"  \"vwPortName\": {\"type\": \"display-string\", \"value\": \"\"},"
		"  \"vwPortPeer\": {\"type\": \"inet-address\", \"value\": \"\","
		"                  \"addressType\": \"unknown\"}}}}");
	json_decref(v);
	/* row 0's setter "died" inside its section */
	rec = fms_state_rec(seg, SM_PORT, 0);
	rec->lock.count.sn |= 1;
	v = tel_ask(fd, "/fastmib/group,vwPort,1");
	expect_json(json_object_get(json_object_get(v, "rows"), "1"),
		    "{\"counters\": {\"vwPortPkts\": 0}, \"states\": {"
		    "  \"vwPortLink\": {\"type\": \"enum\", \"bad\": 1},"
		    "  \"vwPortSpeed\": {\"type\": \"unsigned32\", \"bad\": 1},"
		    "  \"vwPortName\": {\"type\": \"display-string\", \"bad\": 1},"
		    "  \"vwPortPeer\": {\"type\": \"inet-address\", \"bad\": 1}}}");
	json_decref(v);
	rec->lock.count.sn++;
	close(fd);
	destroy(seg, "tel-states");
}

/* A keyed table whose rows with their states fill answers: each answer
 * under the output limit and cut between rows, "next" the first key left
 * out, every row's states exact page after page, one row per key. */
static void
test_states_keyed_paging(void **state)
{
	struct fastmib_segment *seg = create_states("tel-states");
	int fd = tu_tel_connect();
	char note[SM_NOTE_SIZE + 1], want[SM_NOTE_SIZE + 1], name[17];
	uint32_t seen = 0, pages = 0;
	json_t *v = NULL;

	(void)state;
	for (uint32_t k = 0; k < SM_TUNNEL_CAPACITY; k++) {
		uint32_t teid = 1000 - k, row; /* inserted in reverse SNMP order */
		int32_t link = 1 + k % 2;

		assert_int_equal(fastmib_key_insert(seg, SM_TUNNEL, &teid, &row), 0);
		memset(note, 'a' + (char)(k % 26), SM_NOTE_SIZE);
		note[SM_NOTE_SIZE] = '\0';
		snprintf(name, sizeof(name), "t%u", teid);
		assert_int_equal(fastmib_state_set_text(seg, SM_TUNNEL, row, SM_NOTE, note), 0);
		assert_int_equal(fastmib_state_set_text(seg, SM_TUNNEL, row, SM_NAME, name), 0);
		set_state(seg, SM_TUNNEL, row, SM_LINK, &link);
	}
	for (bool more = true; more; pages++) {
		const char *next = v ? str(v, "next") : NULL;
		json_t *rows, *row;
		const char *key;
		void *it;

		if (v == NULL) {
			v = tel_ask(fd, "/fastmib/group,vwTunnel");
		} else {
			char cmd[64];

			snprintf(cmd, sizeof(cmd), "/fastmib/group,vwTunnel,%s", next);
			json_decref(v);
			v = tel_ask(fd, "%s", cmd);
		}
		rows = json_object_get(v, "rows");
		assert_int_equal(num(v, "rows_shown"), json_object_size(rows));
		for (it = json_object_iter(rows); it; it = json_object_iter_next(rows, it)) {
			uint32_t teid = 1000 - (SM_TUNNEL_CAPACITY - 1) + seen, k = 1000 - teid;

			key = json_object_iter_key(it);
			row = json_object_iter_value(it);
			(void)key;
			assert_int_equal(num(json_object_get(row, "key"), "vwTunnelTeid"), teid);
			memset(want, 'a' + (char)(k % 26), SM_NOTE_SIZE);
			want[SM_NOTE_SIZE] = '\0';
			snprintf(name, sizeof(name), "t%u", teid);
			expect_json(json_object_get(row, "states"), "{"
				"\"vwTunnelLink\": {\"type\": \"enum\", \"value\": %d, \"label\": \"%s\"},"
				"\"vwTunnelSpeed\": {\"type\": \"unsigned32\", \"value\": 0},"
				"\"vwTunnelName\": {\"type\": \"display-string\", \"value\": \"%s\"},"
				"\"vwTunnelPeer\": {\"type\": \"inet-address\", \"value\": \"\","
				"                   \"addressType\": \"unknown\"},"
				"\"vwTunnelNote\": {\"type\": \"display-string\", \"value\": \"%s\"}}",
				1 + (int)(k % 2), k % 2 ? "down" : "up", name, want);
			seen++;
		}
		more = num(v, "cut") == 1;
		assert_true(more == (json_object_get(v, "next") != NULL));
	}
	json_decref(v);
	assert_int_equal(seen, SM_TUNNEL_CAPACITY);
	assert_true(pages > 1); /* the states filled more than one answer */
	close(fd);
	destroy(seg, "tel-states");
}

/* A group of states only: no storage, no counters; a text longer than a
 * DPDK string is cut there and says so, an octet string with its length. */
static void
test_states_only(void **state)
{
	struct fastmib_segment *seg = create_states("tel-states");
	int fd = tu_tel_connect();
	char motd[SM_MOTD_SIZE + 1], hex[2 * SM_CERT_SIZE + 1];
	uint8_t cert[SM_CERT_SIZE];
	json_t *v;

	(void)state;
	for (int i = 0; i < SM_MOTD_SIZE; i++)
		motd[i] = (char)('A' + i % 26);
	motd[SM_MOTD_SIZE] = '\0';
	for (int i = 0; i < SM_CERT_SIZE; i++) {
		cert[i] = (uint8_t)(i * 7);
		snprintf(hex + 2 * i, 3, "%02x", cert[i]);
	}
	assert_int_equal(fastmib_state_set_text(seg, SM_INFO, 0, SM_MOTD, motd), 0);
	assert_int_equal(fastmib_state_set_octets(seg, SM_INFO, 0, SM_CERT, cert, SM_CERT_SIZE),
			 0);
	v = tel_ask(fd, "/fastmib/group,vwInfo");
	assert_null(json_object_get(v, "storage"));
	assert_string_equal(str(v, "mib"), "vwInfo");
	assert_int_equal(num(v, "cut"), 0);
	expect_json(json_object_get(v, "counters"), "{}");
	expect_json(json_object_get(v, "states"), "{"
		"\"vwInfoRelease\": {\"type\": \"display-string\", \"value\": \"1.0\"},"
		"\"vwInfoReady\": {\"type\": \"truth-value\", \"value\": 0},"
		"\"vwInfoMotd\": {\"type\": \"display-string\", \"value\": \"%.127s\", \"cut\": 1},"
		"\"vwInfoCert\": {\"type\": \"octet-string\", \"value\": \"%.126s\", \"cut\": 1,"
		"                 \"length\": %d}}", motd, hex, SM_CERT_SIZE);
	json_decref(v);
	/* DPDK's help of the command says so */
	v = tel_ask(fd, "/help,/fastmib/group");
	assert_string_equal(str(v, "/fastmib/group"),
			    "Counters and states of a group. Params: [segment,]group[,from]");
	json_decref(v);
	close(fd);
	destroy(seg, "tel-states");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_scalar_values),
		cmocka_unit_test(test_wide_scalar_cut),
		cmocka_unit_test(test_rows_paging),
		cmocka_unit_test(test_sparse_rows),
		cmocka_unit_test(test_keyed_rows),
		cmocka_unit_test(test_keyed_strings),
		cmocka_unit_test(test_keyed_paging),
		cmocka_unit_test(test_keyed_errors),
		cmocka_unit_test(test_states_scalar),
		cmocka_unit_test(test_states_rows),
		cmocka_unit_test(test_states_keyed_paging),
		cmocka_unit_test(test_states_only),
		cmocka_unit_test(test_close_while_asked),
	};
	int rc;

	(void)argc;
	build_schema();
	tu_tel_eal_start(argv[0], "0");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_tel_eal_stop();
	return rc;
}
