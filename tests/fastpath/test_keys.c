/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keyed tables against a real EAL and segment: the three forms of a key
 * for every index type, their order across types and lengths, insert,
 * find, remove and reuse, the capacity, readers finding rows by key and
 * walking them in SNMP order while the creator inserts and removes, and
 * key records a hostile hand rewrote.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "fastmib/oidmap.h"
#include "handle.h"
#include "tutil.h"

/* ---- a model: tunnel (peer inet-address, teid uint32), every type ---- */

/* The C key of the tunnel table, as fastmib-gen would write it. */
struct tn_key {
	struct fastmib_inet_address peer;
	uint32_t teid;
};

/* ... and of a table of the other index types. */
struct all_key {
	uint32_t id;               /* integer, 1..8 */
	uint8_t v4[4];             /* ipv4 */
	uint8_t mac[6];
	char name[9];              /* string, size 8 */
};

static struct fastmib_counter_schema counters[2] = {
	{ "pkts", "packets", "Packets.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "bytes", "octets", "Octets.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};
static struct fastmib_group_schema groups[3];
static struct fastmib_schema ks;

#define TN 0
#define ALL 1
#define FLAT 2 /* a dense table beside them */
#define TN_CAPACITY 300

static void
make_schema(void)
{
	groups[TN] = (struct fastmib_group_schema){
		.name = "tunnel", .description = "Tunnels.", .arc = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 2,
		.indexes = { { .name = "peer", .type = FASTMIB_INDEX_INET_ADDRESS },
			     { .name = "teid", .type = FASTMIB_INDEX_UINT32 } },
		.n_rows = TN_CAPACITY, .n_counters = 2, .counters = counters };
	groups[ALL] = (struct fastmib_group_schema){
		.name = "every", .description = "Every index type.", .arc = 2,
		.storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_indexes = 4,
		.indexes = { { .name = "id", .max = 8 },
			     { .name = "v4", .type = FASTMIB_INDEX_IPV4 },
			     { .name = "mac", .type = FASTMIB_INDEX_MAC },
			     { .name = "name", .type = FASTMIB_INDEX_STRING, .size = 8 } },
		.n_rows = 64, .n_counters = 2, .counters = counters };
	groups[FLAT] = (struct fastmib_group_schema){
		.name = "flat", .description = "Dense.", .arc = 3,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
		.indexes = { { .name = "slot", .max = 16 } }, .n_rows = 16,
		.n_counters = 2, .counters = counters };
	ks = (struct fastmib_schema){ .version = FASTMIB_MODEL_VERSION,
				      .module = "FASTMIB-KEYS-TEST-MIB", .prefix = "kt",
				      .oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 79 },
				      .n_groups = 3, .groups = groups };
	fastmib_schema_lay_out(&ks);
}

static struct tn_key
v4(const char *a, uint32_t teid)
{
	struct tn_key k;

	memset(&k, 0, sizeof(k));
	k.peer.type = 1;
	assert_int_equal(inet_pton(AF_INET, a, k.peer.addr), 1);
	k.teid = teid;
	return k;
}

static struct tn_key
v6(const char *a, uint32_t teid)
{
	struct tn_key k;

	memset(&k, 0, sizeof(k));
	k.peer.type = 2;
	assert_int_equal(inet_pton(AF_INET6, a, k.peer.addr), 1);
	k.teid = teid;
	return k;
}

/* ---- the forms of a key ---- */

static void
test_forms(void **state)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], size;
	uint8_t buf[FASTMIB_MAX_KEY_BYTES], back[sizeof(struct tn_key)];
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
	struct tn_key k = v4("10.0.0.1", 0xdeadbeef), k6 = v6("2001:db8::1", 7);
	int len;

	(void)state;
	/* the C layout the generated struct has */
	fastmib_key_layout(&groups[TN], offs, &size);
	assert_int_equal(offs[0], offsetof(struct tn_key, peer));
	assert_int_equal(offs[1], offsetof(struct tn_key, teid));
	assert_int_equal(size, sizeof(struct tn_key));
	fastmib_key_layout(&groups[ALL], offs, &size);
	assert_int_equal(offs[0], offsetof(struct all_key, id));
	assert_int_equal(offs[1], offsetof(struct all_key, v4));
	assert_int_equal(offs[2], offsetof(struct all_key, mac));
	assert_int_equal(offs[3], offsetof(struct all_key, name));
	assert_int_equal(size, sizeof(struct all_key));

	/* 10.0.0.1 / 3735928559 -> .1.4.10.0.0.1.3735928559 */
	len = fastmib_key_encode(&groups[TN], &k, buf);
	assert_int_equal(len, 2 + 4 + 4);
	assert_int_equal(fastmib_key_to_index(&groups[TN], buf, (size_t)len, idx), 7);
	assert_memory_equal(idx, ((uint64_t[]){ 1, 4, 10, 0, 0, 1, 3735928559u }),
			    7 * sizeof(uint64_t));
	assert_int_equal(fastmib_key_of_index(&groups[TN], idx, 7, buf), len);
	fastmib_key_decode(&groups[TN], buf, (size_t)len, back);
	assert_memory_equal(back, &k, sizeof(k));
	/* 2001:db8::1 / 7 -> .2.16.32.1.13.184.0...0.1.7 */
	len = fastmib_key_encode(&groups[TN], &k6, buf);
	assert_int_equal(fastmib_key_to_index(&groups[TN], buf, (size_t)len, idx), 19);
	assert_memory_equal(idx, ((uint64_t[]){ 2, 16, 32, 1, 13, 184, 0, 0, 0, 0, 0, 0, 0, 0,
						0, 0, 0, 1, 7 }),
			    19 * sizeof(uint64_t));

	/* keys that cannot be an index */
	k.peer.type = 3;
	assert_int_equal(fastmib_key_encode(&groups[TN], &k, buf), -EINVAL);
	{
		struct all_key a;

		memset(&a, 0, sizeof(a));
		a.id = 1;
		assert_int_equal(fastmib_key_encode(&groups[ALL], &a, buf), -EINVAL); /* "" */
		memcpy(a.name, "abcdefghi", 9); /* no NUL within size + 1 */
		assert_int_equal(fastmib_key_encode(&groups[ALL], &a, buf), -EINVAL);
		memcpy(a.name, "edge\0", 5);
		a.id = 9;
		assert_int_equal(fastmib_key_encode(&groups[ALL], &a, buf), -EINVAL);
		a.id = 8;
		memcpy(a.name, "ed\001e\0", 5); /* a byte a DisplayString cannot hold */
		assert_int_equal(fastmib_key_encode(&groups[ALL], &a, buf), -EINVAL);
		memcpy(a.name, "ed\177e\0", 5);
		assert_int_equal(fastmib_key_encode(&groups[ALL], &a, buf), -EINVAL);
		memcpy(a.name, "edge\0", 5);
		len = fastmib_key_encode(&groups[ALL], &a, buf);
		/* 4 (id) + 4 (ipv4) + 6 (mac) + 1 + 4 (string) */
		assert_int_equal(len, 19);
		assert_true(fastmib_key_valid(&groups[ALL], buf, (size_t)len));
		buf[len - 1] = 0x07; /* not printable */
		assert_false(fastmib_key_valid(&groups[ALL], buf, (size_t)len));
		assert_false(fastmib_key_valid(&groups[ALL], buf, (size_t)len - 1));
	}
	/* an SNMP index that names no row */
	assert_int_equal(fastmib_key_of_index(&groups[TN], (uint64_t[]){ 1, 16, 1, 2, 3, 4, 5 }, 7,
					      buf), -1);
	assert_int_equal(fastmib_key_of_index(&groups[TN], (uint64_t[]){ 1, 4, 10, 0, 0, 256, 5 },
					      7, buf), -1);
	assert_int_equal(fastmib_key_of_index(&groups[TN], (uint64_t[]){ 1, 4, 10, 0, 0, 1 }, 6,
					      buf), -1);
}

/* Order: IPv4 before IPv6, then the address, then the teid; strings by
 * length first (the length sub-identifier), then octets. */
static void
test_order(void **state)
{
	const struct tn_key ks_[] = { v4("9.255.255.255", UINT32_MAX), v4("10.0.0.1", 0),
				      v4("10.0.0.1", 7), v4("10.0.0.2", 1), v6("::1", 0),
				      v6("2001:db8::1", 7) };
	uint8_t a[FASTMIB_MAX_KEY_BYTES], b[FASTMIB_MAX_KEY_BYTES];

	(void)state;
	for (size_t i = 0; i + 1 < sizeof(ks_) / sizeof(ks_[0]); i++) {
		int la = fastmib_key_encode(&groups[TN], &ks_[i], a);
		int lb = fastmib_key_encode(&groups[TN], &ks_[i + 1], b);
		uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
		size_t n = fastmib_key_to_index(&groups[TN], b, (size_t)lb, idx);

		assert_true(fastmib_key_cmp(a, (size_t)la, b, (size_t)lb) < 0);
		assert_true(fastmib_key_cmp_index(&groups[TN], a, (size_t)la, idx, n) < 0);
	}
	{
		struct all_key x, y;
		int lx, ly;

		memset(&x, 0, sizeof(x));
		x.id = 1;
		y = x;
		memcpy(x.name, "zz", 3);   /* shorter first, whatever its octets */
		memcpy(y.name, "aaa", 4);
		lx = fastmib_key_encode(&groups[ALL], &x, a);
		ly = fastmib_key_encode(&groups[ALL], &y, b);
		assert_true(fastmib_key_cmp(a, (size_t)lx, b, (size_t)ly) < 0);
	}
}

/* ---- the creator: insert, find, remove, reuse, capacity ---- */

static int setup(void **state) { return tu_setup(state, &ks, NULL, 0, "keys"); }

static void
test_insert_find_remove(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key a = v4("10.0.0.1", 0xdeadbeef), b = v6("2001:db8::1", 7);
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint32_t ra, rb, r;
	uint64_t v[2];
	size_t len;
	struct fastmib_tx tx;

	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &ra), 0);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &b, &rb), 0);
	assert_int_not_equal(ra, rb);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &r), 0); /* already there */
	assert_int_equal(r, ra);
	assert_int_equal(fastmib_key_find(f->seg, TN, &b, &r), 0);
	assert_int_equal(r, rb);
	/* count by row, read back by key */
	tx = fastmib_tx_begin(f->w, FASTMIB_TX_PERCORE);
	fastmib_word_add(fastmib_tx_pc(&tx, groups[TN].offset + ra * groups[TN].row_size), 5);
	fastmib_tx_end(&tx);
	len = (size_t)fastmib_key_encode(&groups[TN], &a, key);
	assert_int_equal(fastmib_keyed_find(f->rd, TN, key, len), ra);
	assert_int_equal(fastmib_read(f->rd, TN, ra, v), 0);
	assert_int_equal(v[0], 5);
	/* removed: gone for readers; reinserted: another key reuses the row,
	 * at zero */
	assert_int_equal(fastmib_key_remove(f->seg, TN, &a), 0);
	assert_int_equal(fastmib_key_remove(f->seg, TN, &a), -ENOENT);
	assert_int_equal(fastmib_key_find(f->seg, TN, &a, &r), -ENOENT);
	assert_int_equal(fastmib_keyed_find(f->rd, TN, key, len), -ENOENT);
	assert_int_equal(fastmib_read(f->rd, TN, ra, v), -ENOENT);
	{
		struct tn_key c = v4("192.0.2.9", 1);

		assert_int_equal(fastmib_key_insert(f->seg, TN, &c, &r), 0);
		assert_int_equal(r, ra);
		assert_int_equal(fastmib_read(f->rd, TN, r, v), 0);
		assert_int_equal(v[0], 0);
		assert_int_equal(fastmib_row_key(f->rd, TN, r, key, &len), 0);
		assert_int_equal(len, 10);
	}
	/* refused */
	a.peer.type = 0;
	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &r), -EINVAL);
	assert_int_equal(fastmib_key_insert(f->seg, FLAT, &b, &r), -EINVAL);
	assert_int_equal(fastmib_key_insert(f->rd, TN, &b, &r), -EPERM);
}

static void
test_capacity(void **state)
{
	struct tu_fixture *f = *state;
	uint32_t r, first;

	for (uint32_t i = 0; i < TN_CAPACITY; i++) {
		struct tn_key k = v4("10.1.0.0", i);

		assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &r), 0);
	}
	{
		struct tn_key k = v4("10.1.0.0", TN_CAPACITY);

		assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &r), -ENOSPC);
		assert_non_null(strstr(fastmib_last_error(), "full"));
		k.teid = 17;
		assert_int_equal(fastmib_key_find(f->seg, TN, &k, &first), 0);
		assert_int_equal(fastmib_key_remove(f->seg, TN, &k), 0);
		k.teid = TN_CAPACITY;
		assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &r), 0);
		assert_int_equal(r, first);
	}
}

/* ---- readers: walks in order ---- */

/* Walk table TN from the start: every row's key, in the order found;
 * fails when a key is not after the previous one. Returns the rows seen. */
static uint32_t
walk(struct fastmib_segment *rd, uint32_t *rows_seen)
{
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
	uint8_t key[FASTMIB_MAX_KEY_BYTES], prev[FASTMIB_MAX_KEY_BYTES];
	size_t n = 0, len, plen = 0;
	uint32_t count = 0;
	int64_t r;

	while ((r = fastmib_keyed_next(rd, TN, idx, n, false, key, &len)) >= 0) {
		if (count > 0)
			assert_true(fastmib_key_cmp(prev, plen, key, len) < 0);
		memcpy(prev, key, len);
		plen = len;
		n = fastmib_key_to_index(&groups[TN], key, len, idx);
		if (rows_seen)
			rows_seen[count] = (uint32_t)r;
		count++;
	}
	assert_int_equal(r, -ENOENT);
	return count;
}

static void
test_walk_in_order(void **state)
{
	struct tu_fixture *f = *state;
	uint32_t r, seen[TN_CAPACITY];
	uint64_t q[7] = { 1, 4, 10, 0, 0, 1, 1000 };
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	size_t len;

	srand(7);
	for (uint32_t i = 0; i < 200; i++) {
		struct tn_key k = (rand() & 1) ? v4("10.0.0.1", (uint32_t)rand())
					       : v6("2001:db8::1", (uint32_t)rand());

		if (rand() & 1)
			k.peer.addr[3] = (uint8_t)rand();
		assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &r), 0);
	}
	assert_int_equal(walk(f->rd, seen), 200);
	/* from the middle of nowhere: the first key after 10.0.0.1 / 1000 */
	r = (uint32_t)fastmib_keyed_next(f->rd, TN, q, 7, false, key, &len);
	assert_true(fastmib_key_cmp_index(&groups[TN], key, len, q, 7) > 0);
	/* from a prefix (just the type 2): the first IPv6 key */
	assert_true(fastmib_keyed_next(f->rd, TN, (uint64_t[]){ 2 }, 1, false, key, &len) >= 0);
	assert_int_equal(key[0], 2);
	/* negative control: the rows' own order is not the keys' order */
	{
		uint8_t prev[FASTMIB_MAX_KEY_BYTES];
		size_t plen = 0;
		int backwards = 0;

		for (uint32_t row = 0; row < 200; row++) {
			assert_int_equal(fastmib_row_key(f->rd, TN, row, key, &len), 0);
			if (row > 0 && fastmib_key_cmp(prev, plen, key, len) > 0)
				backwards++;
			memcpy(prev, key, len);
			plen = len;
		}
		assert_true(backwards > 0);
	}
}

/* Inserts and removes from another thread while this one walks: a walk
 * never goes backwards or repeats (walk() checks every step), and every
 * key present all along is found. */
static struct fastmib_segment *churn_seg;
static volatile int churn_stop;

static void *
churn(void *arg)
{
	unsigned seed = 11;
	uint32_t r;

	(void)arg;
	while (!churn_stop) {
		struct tn_key k = v4("172.16.0.0", (uint32_t)rand_r(&seed) % 400);

		if (rand_r(&seed) & 1)
			(void)fastmib_key_insert(churn_seg, TN, &k, &r);
		else
			(void)fastmib_key_remove(churn_seg, TN, &k);
	}
	return NULL;
}

static void
test_walks_while_keys_change(void **state)
{
	struct tu_fixture *f = *state;
	uint32_t r, seen[TN_CAPACITY * 2];
	pthread_t t;

	/* 50 stable keys, all IPv6: after every churned (IPv4) key */
	for (uint32_t i = 0; i < 50; i++) {
		struct tn_key k = v6("2001:db8::5", i);

		assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &r), 0);
	}
	churn_seg = f->seg;
	churn_stop = 0;
	assert_int_equal(pthread_create(&t, NULL, churn, NULL), 0);
	for (int round = 0; round < 300; round++) {
		uint32_t n = walk(f->rd, seen), stable = 0;

		for (uint32_t i = 0; i < n; i++) {
			uint8_t key[FASTMIB_MAX_KEY_BYTES];
			size_t len;

			if (fastmib_row_key(f->rd, TN, seen[i], key, &len) == 0 && key[0] == 2)
				stable++;
		}
		assert_int_equal(stable, 50);
	}
	churn_stop = 1;
	pthread_join(t, NULL);
}

/*
 * A row read while its key is removed and another key inserted on it
 * (the freed row is the next one given out): every read is one key's
 * values, never the baseline of one key's life subtracted from the counts
 * of a later one. Key a counts 1000 and key b 1 on the same row, in turn,
 * while another thread reads the row: 0, 1 and 1000 are the only answers
 * (anything else mixes lives: 1001, 2001, ...).
 */
static struct fastmib_segment *mix_rd;
static uint32_t mix_row;
static int mix_stop;                /* atomic */
static uint64_t mix_bad, mix_reads; /* atomic */

static void *
mix_reader(void *arg)
{
	uint64_t v[2];

	(void)arg;
	while (!__atomic_load_n(&mix_stop, __ATOMIC_RELAXED)) {
		if (fastmib_read(mix_rd, TN, mix_row, v) != 0)
			continue;
		__atomic_fetch_add(&mix_reads, 1, __ATOMIC_RELAXED);
		if (v[0] != 0 && v[0] != 1 && v[0] != 1000)
			__atomic_fetch_add(&mix_bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void
test_reads_never_mix_two_lives(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key keys[2] = { v4("10.9.0.1", 1000), v4("10.9.0.2", 1) };
	struct fastmib_writer *w = fastmib_writer(f->seg);
	uint32_t r;
	pthread_t t;

	assert_non_null(w);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &keys[0], &r), 0);
	assert_int_equal(fastmib_key_remove(f->seg, TN, &keys[0]), 0);
	mix_row = r;
	mix_rd = f->rd;
	__atomic_store_n(&mix_stop, 0, __ATOMIC_RELAXED);
	assert_int_equal(pthread_create(&t, NULL, mix_reader, NULL), 0);
	for (uint32_t i = 0; i < 500000 && !__atomic_load_n(&mix_bad, __ATOMIC_RELAXED); i++) {
		const struct tn_key *k = &keys[i % 2];
		uint32_t row;

		assert_int_equal(fastmib_key_insert(f->seg, TN, k, &row), 0);
		assert_int_equal(row, r);
		fastmib_begin(w);
		fastmib_pc_add(w, (uint32_t)(groups[TN].offset + (uint64_t)row * groups[TN].row_size),
			       k->teid);
		fastmib_end(w);
		assert_int_equal(fastmib_key_remove(f->seg, TN, k), 0);
	}
	__atomic_store_n(&mix_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	print_message("%llu reads of a row whose key changed all along\n",
		      (unsigned long long)mix_reads);
	assert_true(mix_reads > 0);
	assert_int_equal(mix_bad, 0);
}

/* A key record rewritten by a hostile hand: that row is absent to
 * readers (GET and walk), every other row is served, nothing crashes. */
static void
test_hostile_key_records(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key a = v4("10.0.0.1", 1), b = v4("10.0.0.2", 2);
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint32_t ra, rb;
	size_t len;
	struct fms_key_rec *rec;

	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &ra), 0);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &b, &rb), 0);
	rec = fms_key_rec(f->seg, TN, ra);
	rec->len = 4000;                           /* past its record */
	assert_int_equal(fastmib_row_key(f->rd, TN, ra, key, &len), -ENOENT);
	rec->len = 10;
	rec->key[0] = 7;                           /* an address type we never serve */
	assert_int_equal(fastmib_row_key(f->rd, TN, ra, key, &len), -ENOENT);
	rec->key[0] = 1;
	rec->key[1] = 16;                          /* a length the type cannot have */
	assert_int_equal(fastmib_row_key(f->rd, TN, ra, key, &len), -ENOENT);
	assert_int_equal(walk(f->rd, NULL), 1);     /* b alone */
	/* a damaged log: rows past the table are ignored */
	fms_key_log(f->seg, TN)->entry[fms_key_log(f->seg, TN)->head % FMS_KEY_LOG] = 1u << 30;
	__atomic_fetch_add(&fms_key_log(f->seg, TN)->head, 1, __ATOMIC_RELEASE);
	assert_int_equal(walk(f->rd, NULL), 1);
	len = (size_t)fastmib_key_encode(&groups[TN], &b, key);
	assert_int_equal(fastmib_keyed_find(f->rd, TN, key, len), rb);
}

/* A row read for the key it was found by: once that key is removed and
 * its row given to another key, the old key reads absent, never the new
 * key's values. */
static void
test_keyed_read(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key a = v4("10.0.0.1", 1), b = v6("2001:db8::2", 2);
	uint8_t ka[FASTMIB_MAX_KEY_BYTES], kb[FASTMIB_MAX_KEY_BYTES];
	uint64_t v[2];
	uint32_t ra, rb;
	size_t la = (size_t)fastmib_key_encode(&groups[TN], &a, ka);
	size_t lb = (size_t)fastmib_key_encode(&groups[TN], &b, kb);

	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &ra), 0);
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, groups[TN].offset + ra * groups[TN].row_size, 5);
	fastmib_end(f->w);
	assert_int_equal(fastmib_keyed_read(f->rd, TN, ra, ka, la, v), 0);
	assert_int_equal(v[0], 5);
	assert_int_equal(fastmib_keyed_read(f->rd, TN, ra, kb, lb, v), -ENOENT);
	assert_int_equal(fastmib_key_remove(f->seg, TN, &a), 0);
	assert_int_equal(fastmib_keyed_read(f->rd, TN, ra, ka, la, v), -ENOENT);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &b, &rb), 0);
	assert_int_equal(rb, ra); /* the free row, reused */
	assert_int_equal(fastmib_keyed_read(f->rd, TN, ra, ka, la, v), -ENOENT);
	assert_int_equal(fastmib_keyed_read(f->rd, TN, rb, kb, lb, v), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(fastmib_keyed_read(f->rd, FLAT, 0, ka, la, v), -EINVAL);
}

/* ---- the OID map over a keyed table: what SNMP sees ---- */

static int64_t
map_find(void *ctx, unsigned int group, const uint8_t *key, size_t len)
{
	int64_t r = fastmib_keyed_find(ctx, group, key, len);

	return r < 0 ? -1 : r;
}

static int64_t
map_next(void *ctx, unsigned int group, const uint64_t *idx, size_t n, bool inclusive,
	 uint8_t *key, size_t *len)
{
	int64_t r = fastmib_keyed_next(ctx, group, idx, n, inclusive, key, len);

	return r < 0 ? -1 : r;
}

static int64_t
map_next_row(void *ctx, unsigned int group, uint32_t row)
{
	int64_t r = fastmib_next_row(ctx, group, row);

	return r < 0 ? -1 : r;
}

/*
 * 10.0.0.1 / 0xdeadbeef and 2001:db8::1 / 7 are the instances
 * R.1.1.1.C.1.4.10.0.0.1.3735928559 and R.1.1.1.C.2.16.32.1.13.184.0...0.1.7
 * in that order; GET finds each, a GETNEXT from the first gives the second,
 * from the second the next column's first, and a removed key is gone.
 */
static void
test_oids(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key a = v4("10.0.0.1", 0xdeadbeef), b = v6("2001:db8::1", 7);
	struct fastmib_oid_rows rows = { .ctx = f->rd, .next_row = map_next_row,
					 .keyed_find = map_find, .keyed_next = map_next };
	static const uint64_t ia[] = { 1, 1, 1, 1, 1, 4, 10, 0, 0, 1, 3735928559u };
	static const uint64_t ib[] = { 1, 1, 1, 1, 2, 16, 32, 1, 13, 184, 0, 0, 0, 0, 0, 0,
				       0, 0, 0, 0, 0, 1, 7 };
	struct fastmib_oidmap *map;
	struct fastmib_oid_ref ref;
	uint64_t sfx[FASTMIB_OID_MAX_SUFFIX];
	uint32_t ra, rb;
	size_t n;

	assert_int_equal(fastmib_key_insert(f->seg, TN, &b, &rb), 0);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &a, &ra), 0);
	assert_int_equal(fastmib_oidmap_new(&ks, &map, NULL, 0), 0);
	/* GET */
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, ia, 11, &ref), FASTMIB_OID_INSTANCE);
	assert_int_equal(ref.row, ra);
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, ib, 23, &ref), FASTMIB_OID_INSTANCE);
	assert_int_equal(ref.row, rb);
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, ia, 10, &ref),
			 FASTMIB_OID_NO_INSTANCE);
	/* GETNEXT: the column in key order, then the next column */
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 1 }, 2, false, &ref));
	n = fastmib_oidmap_suffix(map, &ref, sfx);
	assert_int_equal(n, 11);
	assert_memory_equal(sfx, ia, sizeof(ia));
	assert_true(fastmib_oidmap_next(map, &rows, sfx, n, false, &ref));
	n = fastmib_oidmap_suffix(map, &ref, sfx);
	assert_int_equal(n, 23);
	assert_memory_equal(sfx, ib, sizeof(ib));
	assert_true(fastmib_oidmap_next(map, &rows, sfx, n, false, &ref));
	n = fastmib_oidmap_suffix(map, &ref, sfx);
	assert_int_equal(sfx[3], 2); /* bytes, the second column */
	assert_memory_equal(sfx + 4, ia + 4, (11 - 4) * sizeof(uint64_t));
	/* removed: no instance, and walks step over it */
	assert_int_equal(fastmib_key_remove(f->seg, TN, &a), 0);
	assert_int_equal(fastmib_oidmap_resolve(map, &rows, ia, 11, &ref),
			 FASTMIB_OID_NO_INSTANCE);
	assert_true(fastmib_oidmap_next(map, &rows, (uint64_t[]){ 1, 1 }, 2, false, &ref));
	n = fastmib_oidmap_suffix(map, &ref, sfx);
	assert_memory_equal(sfx, ib, sizeof(ib));
	fastmib_oidmap_free(map);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_order),
		cmocka_unit_test_setup_teardown(test_insert_find_remove, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_capacity, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_walk_in_order, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_walks_while_keys_change, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_reads_never_mix_two_lives, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_hostile_key_records, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_keyed_read, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_oids, setup, tu_teardown),
	};

	(void)argc;
	make_schema();
	assert_int_equal(fastmib_schema_check(&ks, NULL, NULL), 0);
	return tu_run_tests(argv[0], tests);
}
