/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keyed tables: what inserting and removing keys costs the application, at
 * 1k, 64k and 1M keys present, and a segment to walk over SNMP beside an
 * integer-indexed table of the same size (bench/keys/bench_keys.py).
 *
 *   fastmib-bench-keys [EAL options] -- cost [--ops N]
 *   fastmib-bench-keys [EAL options] -- fill SEGMENT [--rows N]
 *
 * cost: a table keyed by (inet-address, uint32) of capacity 1,048,576 +
 *   the churn; at each size, fills it to the size, then times N removes of
 *   random present keys each followed by an insert of a new key (the churn
 *   of a flow table), and N finds; prints ns per operation (median of 5
 *   rounds and min..max).
 * fill: two tables of N rows (default 65,536), counters pkts = r + 1 and
 *   bytes = 100 (r + 1): `keyed` by (peer inet-address, teid uint32), half
 *   IPv4 (10.x.y.z) and half IPv6 (2001:db8::x), and `dense` by an integer
 *   index 1..N; prints "ready" and keeps the segment until stdin closes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>

#include "bench_util.h"
#include "fastmib/fastmib.h"

#define MAX_ROWS (1u << 20)

struct tunnel_key {
	struct fastmib_inet_address peer;
	uint32_t teid;
};

static struct fastmib_counter_schema counters[2] = {
	{ "pkts", "packets", "Packets.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "bytes", "octets", "Octets.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};
static struct fastmib_group_schema groups[2];
static struct fastmib_schema schema;

#define KEYED 0
#define DENSE 1

static void
make_schema(uint32_t keyed_rows, uint32_t dense_rows)
{
	groups[KEYED] = (struct fastmib_group_schema){
		.name = "keyed", .description = "Keyed by peer and teid.", .arc = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 2,
		.indexes = { { .name = "peer", .type = FASTMIB_INDEX_INET_ADDRESS },
			     { .name = "teid", .type = FASTMIB_INDEX_UINT32 } },
		.n_rows = keyed_rows, .n_counters = 2, .counters = counters };
	groups[DENSE] = (struct fastmib_group_schema){
		.name = "dense", .description = "Indexed 1..N.", .arc = 2,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
		.indexes = { { .name = "slot", .max = dense_rows } }, .n_rows = dense_rows,
		.n_counters = 2, .counters = counters };
	schema = (struct fastmib_schema){ .version = FASTMIB_MODEL_VERSION,
					  .module = "FASTMIB-BENCH-KEYS-MIB", .prefix = "bk",
					  .oid_len = 9,
					  .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 47 },
					  .n_groups = 2, .groups = groups };
	fastmib_schema_lay_out(&schema);
}

/* Key i: IPv4 10.x.y.z for even i, IPv6 2001:db8::x for odd i. */
static struct tunnel_key
key_of(uint64_t i)
{
	struct tunnel_key k;

	memset(&k, 0, sizeof(k));
	if (i % 2 == 0) {
		k.peer.type = 1;
		k.peer.addr[0] = 10;
		k.peer.addr[1] = (uint8_t)(i >> 17);
		k.peer.addr[2] = (uint8_t)(i >> 9);
		k.peer.addr[3] = (uint8_t)(i >> 1);
	} else {
		k.peer.type = 2;
		k.peer.addr[0] = 0x20;
		k.peer.addr[1] = 0x01;
		k.peer.addr[2] = 0x0d;
		k.peer.addr[3] = 0xb8;
		for (int b = 0; b < 8; b++)
			k.peer.addr[8 + b] = (uint8_t)(i >> (8 * (7 - b)));
	}
	k.teid = (uint32_t)(i * 2654435761u);
	return k;
}

static uint64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
cost(uint32_t ops)
{
	static const uint32_t sizes[] = { 1024, 65536, MAX_ROWS };
	char path[96];
	struct fastmib_segment *seg;
	uint64_t next = 0; /* keys 0..next-1 were inserted */
	uint32_t present = 0, r;
	/* the ids of the keys present, in any order: victims are drawn here */
	uint64_t *ids = calloc(MAX_ROWS, sizeof(*ids));

	if (ids == NULL)
		return 1;

	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-keys-%d", (int)getpid());
	make_schema(MAX_ROWS + ops, 16);
	if (fastmib_create(&schema, path, NULL, &seg) < 0) {
		fprintf(stderr, "fastmib_create: %s\n", fastmib_last_error());
		return 1;
	}
	unlink(path);
	printf("keys present  remove+insert ns/key (min..max)  find ns/key (min..max)\n");
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		double churn[5], find[5];

		for (; present < sizes[si]; present++, next++) {
			struct tunnel_key k = key_of(next);

			ids[present] = next;

			if (fastmib_key_insert(seg, KEYED, &k, &r) < 0) {
				fprintf(stderr, "insert: %s\n", fastmib_last_error());
				return 1;
			}
		}
		for (int round = 0; round < 5; round++) {
			uint64_t rng = 0x9e3779b97f4a7c15ull * (round + 1), t0, t1;

			/* remove a present key (one of the last `present`), insert a new one */
			t0 = now_ns();
			for (uint32_t i = 0; i < ops; i++) {
				uint32_t v;
				struct tunnel_key k;

				rng ^= rng << 13;
				rng ^= rng >> 7;
				rng ^= rng << 17;
				v = (uint32_t)(rng % present);
				k = key_of(ids[v]);
				if (fastmib_key_remove(seg, KEYED, &k) < 0) {
					fprintf(stderr, "remove: %s\n", fastmib_last_error());
					return 1;
				}
				ids[v] = next;
				k = key_of(next++);
				if (fastmib_key_insert(seg, KEYED, &k, &r) < 0) {
					fprintf(stderr, "insert: %s\n", fastmib_last_error());
					return 1;
				}
			}
			t1 = now_ns();
			churn[round] = (double)(t1 - t0) / ops;
			t0 = now_ns();
			for (uint32_t i = 0; i < ops; i++) {
				rng ^= rng << 13;
				rng ^= rng >> 7;
				rng ^= rng << 17;
				struct tunnel_key k = key_of(ids[rng % present]);

				if (fastmib_key_find(seg, KEYED, &k, &r) < 0) {
					fprintf(stderr, "find: %s\n", fastmib_last_error());
					return 1;
				}
			}
			t1 = now_ns();
			find[round] = (double)(t1 - t0) / ops;
		}
		qsort(churn, 5, sizeof(double), cmp_double);
		qsort(find, 5, sizeof(double), cmp_double);
		printf("%12u  %8.0f (%.0f..%.0f)%14s %6.0f (%.0f..%.0f)\n", present, churn[2], churn[0],
		       churn[4], "", find[2], find[0], find[4]);
	}
	fastmib_close(seg);
	free(ids);
	return 0;
}

static int
fill(const char *path, uint32_t rows)
{
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	char line[64];

	make_schema(rows, rows);
	unlink(path);
	if (fastmib_create(&schema, path, NULL, &seg) < 0 || (w = fastmib_writer(seg)) == NULL) {
		fprintf(stderr, "fastmib_create: %s\n", fastmib_last_error());
		return 1;
	}
	for (uint32_t i = 0; i < rows; i++) {
		struct tunnel_key k = key_of(i);
		uint32_t r;
		struct fastmib_tx tx;
		uint64_t *row;

		if (fastmib_key_insert(seg, KEYED, &k, &r) < 0 ||
		    fastmib_row_enable(seg, DENSE, i) < 0) {
			fprintf(stderr, "fill: %s\n", fastmib_last_error());
			return 1;
		}
		tx = fastmib_tx_begin(w, FASTMIB_TX_PERCORE);
		row = fastmib_tx_pc(&tx, groups[KEYED].offset + (uint64_t)r * groups[KEYED].row_size);
		fastmib_word_add(&row[0], r + 1);
		fastmib_word_add(&row[1], 100ull * (r + 1));
		row = fastmib_tx_pc(&tx, groups[DENSE].offset + (uint64_t)i * groups[DENSE].row_size);
		fastmib_word_add(&row[0], i + 1);
		fastmib_word_add(&row[1], 100ull * (i + 1));
		fastmib_tx_end(&tx);
	}
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL)
		;
	fastmib_close(seg);
	return 0;
}

int
main(int argc, char **argv)
{
	int rc;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	if (argc >= 2 && strcmp(argv[1], "cost") == 0) {
		uint32_t ops = argc >= 4 && strcmp(argv[2], "--ops") == 0 ?
				       (uint32_t)strtoul(argv[3], NULL, 0) : 100000;

		rc = cost(ops ? ops : 1);
	} else if (argc >= 3 && strcmp(argv[1], "fill") == 0) {
		uint32_t rows = argc >= 5 && strcmp(argv[3], "--rows") == 0 ?
					(uint32_t)strtoul(argv[4], NULL, 0) : 65536;

		rc = fill(argv[2], rows ? rows : 1);
	} else {
		fprintf(stderr, "usage: fastmib-bench-keys [EAL options] -- cost [--ops N]\n"
				"       fastmib-bench-keys [EAL options] -- fill SEGMENT [--rows N]\n");
		rc = 2;
	}
	rte_eal_cleanup();
	return rc;
}
