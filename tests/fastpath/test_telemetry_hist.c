/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms and peaks in the DPDK telemetry command /fastmib/group, asked
 * over this process's own telemetry socket as dpdk-telemetry.py asks:
 * real EAL with telemetry on, a segment of the histograms test model
 * (tests/codegen/models/histograms.yaml, prefix hg), lcores 1 and 2
 * observing known values; every bound, bucket, count, sum and peak of the
 * answers compared with the buckets this file computes from the values.
 * Then lcore 1 observes at full speed while the answers keep coming: in
 * every answer each histogram's count is the sum of its buckets.
 */
#include <errno.h>
#include <inttypes.h>
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

#include "fastmib/fastmib.h"
#include "hg_stats.h"
#include "tutil.h"
#include "telclient.h"

#define MAX_OUTPUT 16384 /* DPDK 22.11: max_output_len of the hello */

static struct fastmib_segment *seg;
static char path[256];
static uint32_t flow_row;
static int fd = -1;

/* ---- asking the telemetry socket ---- */

/* The value of the answer to /fastmib/group,GROUP, owned by the caller. */
static json_t *
ask_group(const char *group)
{
	static char buf[1 << 17];
	char cmd[128];
	json_error_t err;
	json_t *doc, *v;
	ssize_t n;

	snprintf(cmd, sizeof(cmd), "/fastmib/group,%s", group);
	assert_int_equal(send(fd, cmd, strlen(cmd), 0), (ssize_t)strlen(cmd));
	n = recv(fd, buf, sizeof(buf), 0);
	assert_true(n > 0 && n < MAX_OUTPUT);
	doc = json_loadb(buf, (size_t)n, JSON_DECODE_INT_AS_REAL, &err);
	if (doc == NULL)
		fail_msg("%s: not JSON (%s): %.*s", cmd, err.text, (int)n, buf);
	v = json_incref(json_object_get(doc, "/fastmib/group"));
	json_decref(doc);
	assert_non_null(v);
	if (json_object_get(v, "error"))
		fail_msg("%s: %s", cmd, json_string_value(json_object_get(v, "error")));
	return v;
}

/*
 * A number of an answer. DPDK writes every u64 in full, and jansson takes
 * none above INT64_MAX as an integer: answers are read with every number
 * a double (JSON_DECODE_INT_AS_REAL), exact below 2^53, which every value
 * here is but the bound 2^64 - 1 (its double, 2^64, read back as it).
 */
static uint64_t
value(const json_t *v, const json_t *o, const char *what)
{
	double d = json_real_value(v);

	if (!json_is_real(v) || d < 0 || (d >= 9007199254740992.0 && d != 18446744073709551616.0)) {
		char *t = json_dumps(o, JSON_COMPACT);

		fail_msg("%s is not an exact number in %.600s", what, t ? t : "(null)");
	}
	return d == 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
}

static uint64_t
num(const json_t *o, const char *key)
{
	return value(json_object_get(o, key), o, key);
}

static uint64_t
elem(const json_t *a, size_t i)
{
	return value(json_array_get(a, i), a, "an element");
}

/* ---- what the answers must say ---- */

/* The bounds of histogram `name` of `group` in the model. */
static const struct fastmib_counter_schema *
hist_schema(unsigned group, const char *name)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[group];

	for (uint32_t c = 0; c < g->n_counters; c++)
		if (strcmp(g->counters[c].name, name) == 0)
			return &g->counters[c];
	fail_msg("no histogram %s", name);
	return NULL;
}

/* Histogram `h` of an answer against the values observed: bounds, each
 * bucket (the first whose bound the value does not exceed, else the last),
 * count, and the sum modulo 2^64. */
static void
expect_hist(const json_t *h, const struct fastmib_counter_schema *cs, const uint64_t *vals,
	    size_t n)
{
	const json_t *bounds = json_object_get(h, "bounds"), *buckets = json_object_get(h, "buckets");
	uint64_t want[FASTMIB_MAX_BOUNDS + 1] = { 0 }, sum = 0;

	assert_int_equal(json_array_size(bounds), cs->n_bounds);
	assert_int_equal(json_array_size(buckets), cs->n_bounds + 1);
	for (uint32_t b = 0; b < cs->n_bounds; b++)
		assert_true(elem(bounds, b) == cs->bounds[b]);
	for (size_t i = 0; i < n; i++) {
		uint32_t b = 0;

		while (b < cs->n_bounds && vals[i] > cs->bounds[b])
			b++;
		want[b]++;
		sum += vals[i];
	}
	for (uint32_t b = 0; b <= cs->n_bounds; b++)
		if (elem(buckets, b) != want[b])
			fail_msg("%s bucket %u: %" PRIu64 ", not %" PRIu64, cs->name, b,
				 elem(buckets, b), want[b]);
	assert_int_equal(num(h, "count"), n);
	assert_true(num(h, "sum") == sum);
}

/* ---- the writers ---- */

/* Known values: lcore 1's transaction (arg NULL), then lcore 2's. */
static int
observe_known(void *arg)
{
	struct hg_tx tx = hg_tx_begin(fastmib_writer(seg));

	if (arg == NULL) {
		hg_tx_system_pkts_add(&tx, 1500);
		hg_tx_system_latency_observe(&tx, 100);
		hg_tx_system_latency_observe(&tx, 5000);
		hg_tx_system_latency_observe(&tx, 20);
		hg_tx_system_burst_observe(&tx, 0);
		hg_tx_system_queue_depth_peak(&tx, 70);
		hg_tx_port_size_observe(&tx, 0, 0, 64);
		hg_tx_port_size_observe(&tx, 0, 0, 65);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, 5);
		hg_tx_port_size_observe(&tx, 3, 1, 1500);
	} else {
		hg_tx_system_latency_observe(&tx, 9000);
		hg_tx_system_latency_observe(&tx, 16);
		hg_tx_system_burst_observe(&tx, 100);
		hg_tx_system_queue_depth_peak(&tx, 55);
		hg_tx_port_size_observe(&tx, 0, 0, UINT64_MAX);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, 9);
		hg_tx_flow_gap_observe(&tx, flow_row, 0);
		hg_tx_flow_gap_observe(&tx, flow_row, 1000);
		hg_tx_flow_max_gap_peak(&tx, flow_row, 2000);
	}
	hg_tx_end(&tx);
	return 0;
}

static volatile int stop;

/* Rounds at full speed, one short transaction each, until `stop`. */
static int
observe_fast(void *arg)
{
	struct hg_tx tx = hg_tx_begin(fastmib_writer(seg));

	(void)arg;
	hg_tx_end(&tx);
	while (!stop) {
		hg_tx_open(&tx);
		hg_tx_system_pkts_add(&tx, 1);
		hg_tx_system_latency_observe(&tx, 100);
		hg_tx_system_latency_observe(&tx, 5000);
		hg_tx_system_burst_observe(&tx, 3);
		hg_tx_end(&tx);
	}
	return 0;
}

/* ---- tests ---- */

static void
test_known_values(void **state)
{
	static const uint64_t latency[] = { 100, 5000, 20, 9000, 16 }, burst[] = { 0, 100 },
			      size11[] = { 64, 65, UINT64_MAX }, size42[] = { 1500 },
			      gap[] = { 0, 1000 };
	json_t *a, *h, *rows, *row;
	char name[16];

	(void)state;
	assert_int_equal(tu_launch(observe_known, NULL, 1), 0);
	assert_int_equal(tu_wait(1), 0);
	assert_int_equal(tu_launch(observe_known, seg, 2), 0);
	assert_int_equal(tu_wait(2), 0);

	a = ask_group("system");
	assert_int_equal(num(json_object_get(a, "counters"), "hgSystemPkts"), 1500);
	assert_int_equal(num(json_object_get(a, "counters"), "hgSystemQueueDepth"), 70);
	assert_int_equal(json_object_size(json_object_get(a, "counters")), 2);
	h = json_object_get(a, "histograms");
	assert_int_equal(json_object_size(h), 2);
	expect_hist(json_object_get(h, "hgSystemLatency"),
		    hist_schema(HG_GROUP_SYSTEM, "latency"), latency, 5);
	expect_hist(json_object_get(h, "hgSystemBurst"), hist_schema(HG_GROUP_SYSTEM, "burst"),
		    burst, 2);
	assert_int_equal(num(a, "cut"), 0);
	assert_int_equal(num(a, "best_effort"), 0);
	json_decref(a);

	/* a dense table: every row's histogram, 2^64 - 1 in the bucket of
	 * that bound, the sum wrapped (64 + 65 + 2^64 - 1 = 128) */
	a = ask_group("port");
	rows = json_object_get(a, "rows");
	assert_int_equal(num(a, "rows_shown"), 8);
	assert_int_equal(num(a, "cut"), 0);
	row = json_object_get(rows, "1_1");
	assert_int_equal(num(json_object_get(row, "counters"), "hgPortPeakBurst"), 9);
	expect_hist(json_object_get(json_object_get(row, "histograms"), "hgPortSize"),
		    hist_schema(HG_GROUP_PORT, "size"), size11, 3);
	assert_int_equal(num(json_object_get(json_object_get(row, "histograms"), "hgPortSize"),
			     "sum"), 128);
	row = json_object_get(rows, "4_2");
	assert_int_equal(num(json_object_get(row, "counters"), "hgPortPeakBurst"), 0);
	expect_hist(json_object_get(json_object_get(row, "histograms"), "hgPortSize"),
		    hist_schema(HG_GROUP_PORT, "size"), size42, 1);
	row = json_object_get(rows, "2_1");
	expect_hist(json_object_get(json_object_get(row, "histograms"), "hgPortSize"),
		    hist_schema(HG_GROUP_PORT, "size"), NULL, 0);
	json_decref(a);

	/* a keyed table: its rows by row number, each with its key */
	a = ask_group("flow");
	snprintf(name, sizeof(name), "%" PRIu32, flow_row);
	row = json_object_get(json_object_get(a, "rows"), name);
	if (row == NULL) {
		char *t = json_dumps(a, JSON_COMPACT);

		fail_msg("no row %s in %.800s", name, t);
	}
	assert_string_equal(json_string_value(json_object_get(json_object_get(row, "key"),
							      "hgFlowPeer")), "10.0.0.1");
	assert_int_equal(num(json_object_get(row, "counters"), "hgFlowMaxGap"), 2000);
	expect_hist(json_object_get(json_object_get(row, "histograms"), "hgFlowGap"),
		    hist_schema(HG_GROUP_FLOW, "gap"), gap, 2);
	json_decref(a);
}

/*
 * Answers while lcore 1 observes at full speed, until a thousand of them
 * saw the count move: in each, the latency count is the sum of its
 * buckets, its sum what they hold, the burst's sum what its count says,
 * and the latency count in step with the counter of the same
 * transactions. An answer that says it was read best effort (the writer
 * stayed inside past the read patience) vouches for nothing: left out.
 */
static void
test_consistent_full_speed(void **state)
{
	const struct fastmib_counter_schema *lat = hist_schema(HG_GROUP_SYSTEM, "latency");
	uint64_t last = 0, moved = 0, answers = 0, busy = 0;

	(void)state;
	stop = 0;
	assert_int_equal(tu_launch(observe_fast, NULL, 1), 0);
	while (moved < 1000) {
		json_t *a = ask_group("system"), *h = json_object_get(a, "histograms");
		json_t *l = json_object_get(h, "hgSystemLatency"), *b = json_object_get(h, "hgSystemBurst");
		const json_t *lb = json_object_get(l, "buckets");
		uint64_t pkts = num(json_object_get(a, "counters"), "hgSystemPkts"), total = 0;
		uint64_t count = num(l, "count");

		answers++;
		if (num(a, "best_effort")) {
			busy++;
			json_decref(a);
			continue;
		}
		for (uint32_t i = 0; i <= lat->n_bounds; i++)
			total += elem(lb, i);
		/* known 100, 5000, 20, 9000, 16, then 100 and 5000 a round */
		if (count != total ||
		    num(l, "sum") != 100 * elem(lb, 3) + 5000 * (elem(lb, 9) - 1) + 9036 ||
		    num(b, "sum") != 100 + 3 * (num(b, "count") - 2) ||
		    count != 5 + 2 * (pkts - 1500)) {
			char *t = json_dumps(a, JSON_COMPACT);

			stop = 1;
			tu_wait(1);
			fail_msg("answer %" PRIu64 " torn: %.1500s", answers, t);
		}
		moved += count != last;
		last = count;
		json_decref(a);
	}
	stop = 1;
	assert_int_equal(tu_wait(1), 0);
	printf("answers %" PRIu64 ", count moved in %" PRIu64 ", best effort %" PRIu64 "\n",
	       answers, moved, busy);
}

int
main(int argc, char **argv)
{
	struct hg_flow_key key = { .peer = { 1, { 10, 0, 0, 1 } }, .teid = 7 };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_consistent_full_speed),
	};
	int rc;

	(void)argc;
	tu_tel_eal_start(argv[0], "0@0,1@1,2@0");
	tu_path(path, sizeof(path), "telhist");
	unlink(path);
	if (hg_create(path, NULL, &seg) != 0 || hg_flow_insert(seg, &key, &flow_row) != 0) {
		fprintf(stderr, "%s: %s\n", argv[0], fastmib_last_error());
		return 1;
	}
	fd = tu_tel_connect();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	close(fd);
	fastmib_close(seg);
	unlink(path);
	tu_tel_eal_stop();
	return rc;
}
