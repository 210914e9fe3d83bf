/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generated keyed-table code on a real segment (keyed/keyed.yaml, a real
 * EAL): keys filled in through the generated structs and given to the
 * generated insert/find/remove, updates through the generated functions
 * on the rows they returned, and a reader of the same file finding each
 * row by its key, in SNMP order, with the values written.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kt_stats.h"
#include "tutil.h"

static int
setup(void **state)
{
	return tu_setup(state, &kt_schema, NULL, FASTMIB_ATTACH_RDONLY, "keyed-gen");
}

static struct kt_tunnel_key
tunnel(uint8_t type, const uint8_t *addr, uint32_t teid)
{
	struct kt_tunnel_key k;

	memset(&k, 0, sizeof(k));
	k.peer.type = type;
	memcpy(k.peer.addr, addr, type == 1 ? 4 : 16);
	k.teid = teid;
	return k;
}

/* The row a reader finds for C key `key` of group g, by its order key. */
static int64_t
reader_row(struct tu_fixture *f, unsigned g, const void *key)
{
	uint8_t ok[FASTMIB_MAX_KEY_BYTES];
	int len = fastmib_key_encode(&kt_schema.groups[g], key, ok);

	assert_true(len > 0);
	return fastmib_keyed_find(f->rd, g, ok, (size_t)len);
}

/* Counter k of row `row` as the reader reads it. */
static uint64_t
reader_value(struct tu_fixture *f, unsigned g, uint32_t row, unsigned k)
{
	uint64_t v[FASTMIB_MAX_COUNTERS];

	assert_int_equal(fastmib_read(f->rd, g, row, v), 0);
	return v[k];
}

/* The SNMP index of row `row` of group g, as the agent serves it. */
static size_t
row_index(struct tu_fixture *f, unsigned g, uint32_t row, uint64_t *idx)
{
	uint8_t ok[FASTMIB_MAX_KEY_BYTES];
	size_t len;

	assert_int_equal(fastmib_row_key(f->rd, g, row, ok, &len), 0);
	return fastmib_key_to_index(&kt_schema.groups[g], ok, len, idx);
}

static void
test_keys_rows_values(void **state)
{
	struct tu_fixture *f = *state;
	static const uint8_t a4[4] = { 10, 0, 0, 1 };
	static const uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint64_t i4[] = { 1, 4, 10, 0, 0, 1, 3735928559u };
	static const uint64_t i6[] = { 2, 16, 32, 1, 13, 184, 0, 0, 0, 0,
				       0, 0, 0, 0, 0, 0, 0, 1, 7 };
	struct kt_tunnel_key t6 = tunnel(2, a6, 7), t4 = tunnel(1, a4, 0xdeadbeef);
	struct kt_peer_queue_key pq;
	struct kt_host_key h = { { 192, 168, 1, 9 } };
	struct kt_customer_key c;
	uint32_t r6, r4, again, rq, rh, rc;
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS], key_len;
	uint8_t ok[FASTMIB_MAX_KEY_BYTES];
	size_t len;
	struct kt_tx tx;

	/* inserted in the other order than SNMP's */
	assert_int_equal(kt_tunnel_insert(f->seg, &t6, &r6), 0);
	assert_int_equal(kt_tunnel_insert(f->seg, &t4, &r4), 0);
	assert_int_not_equal(r4, r6);
	assert_int_equal(kt_tunnel_insert(f->seg, &t4, &again), 0);
	assert_int_equal(again, r4);
	assert_int_equal(kt_tunnel_find(f->seg, &t6, &again), 0);
	assert_int_equal(again, r6);
	memset(&pq, 0, sizeof(pq));
	pq.peer_addr = t4.peer;
	pq.queue = KT_PEER_QUEUE_QUEUE_MAX;
	assert_int_equal(kt_peer_queue_insert(f->seg, &pq, &rq), 0);
	assert_int_equal(kt_host_insert(f->seg, &h, &rh), 0);
	memset(&c, 0, sizeof(c));
	strcpy(c.customer_name, "acme");
	c.vlan = 100;
	assert_int_equal(kt_customer_insert(f->seg, &c, &rc), 0);

	/* the two forms, every storage kind */
	tx = kt_tx_begin(f->w);
	kt_tx_tunnel_pkts_add(&tx, r4, 3);
	kt_tunnel_ref_bytes_add(kt_tx_tunnel(&tx, r6), 1500);
	kt_tx_peer_queue_backlog_add(&tx, rq, 5);
	kt_tx_host_sessions_set(&tx, rh, 9);
	kt_tx_end(&tx);
	fastmib_begin(f->w);
	kt_tunnel_pkts_add(f->w, r4, 4);
	kt_customer_octets_add(f->w, rc, 64);
	kt_host_drops_add(f->w, rh, 2);
	fastmib_end(f->w);
	fastmib_flush(f->w);

	/* a reader finds each row by its key, with its values */
	assert_int_equal(reader_row(f, KT_GROUP_TUNNEL, &t4), r4);
	assert_int_equal(reader_row(f, KT_GROUP_TUNNEL, &t6), r6);
	assert_int_equal(reader_value(f, KT_GROUP_TUNNEL, r4, 0), 7);
	assert_int_equal(reader_value(f, KT_GROUP_TUNNEL, r4, 1), 0);
	assert_int_equal(reader_value(f, KT_GROUP_TUNNEL, r6, 1), 1500);
	assert_int_equal(reader_row(f, KT_GROUP_PEER_QUEUE, &pq), rq);
	assert_int_equal(reader_value(f, KT_GROUP_PEER_QUEUE, rq, 1), 5);
	assert_int_equal(reader_row(f, KT_GROUP_HOST, &h), rh);
	assert_int_equal(reader_value(f, KT_GROUP_HOST, rh, 0), 9);
	assert_int_equal(reader_value(f, KT_GROUP_HOST, rh, 1), 2);
	assert_int_equal(reader_row(f, KT_GROUP_CUSTOMER, &c), rc);
	assert_int_equal(reader_value(f, KT_GROUP_CUSTOMER, rc, 0), 64);

	/* under the SNMP indexes of docs/mib-layout.md, walked in OID order */
	assert_int_equal(row_index(f, KT_GROUP_TUNNEL, r4, idx), 7);
	assert_memory_equal(idx, i4, sizeof(i4));
	assert_int_equal(row_index(f, KT_GROUP_TUNNEL, r6, idx), 19);
	assert_memory_equal(idx, i6, sizeof(i6));
	assert_int_equal(fastmib_keyed_next(f->rd, KT_GROUP_TUNNEL, NULL, 0, true, ok, &len), r4);
	key_len = fastmib_key_to_index(&kt_schema.groups[KT_GROUP_TUNNEL], ok, len, idx);
	assert_int_equal(fastmib_keyed_next(f->rd, KT_GROUP_TUNNEL, idx, key_len, false, ok,
					    &len), r6);
	assert_int_equal(fastmib_keyed_next(f->rd, KT_GROUP_TUNNEL, i6, 19, false, ok, &len),
			 -ENOENT);

	/* removed: gone for the creator and the reader */
	assert_int_equal(kt_tunnel_remove(f->seg, &t4), 0);
	assert_int_equal(kt_tunnel_find(f->seg, &t4, &again), -ENOENT);
	assert_int_equal(reader_row(f, KT_GROUP_TUNNEL, &t4), -ENOENT);
	assert_int_equal(kt_tunnel_remove(f->seg, &t4), -ENOENT);
}

/* Keys the generated structs can hold but the table cannot: refused. */
static void
test_keys_refused(void **state)
{
	struct tu_fixture *f = *state;
	static const uint8_t a4[4] = { 10, 0, 0, 2 };
	struct kt_tunnel_key t = tunnel(1, a4, 1);
	struct kt_peer_queue_key pq;
	struct kt_customer_key c;
	uint32_t row;

	t.peer.type = 3; /* ipv4z: not served */
	assert_int_equal(kt_tunnel_insert(f->seg, &t, &row), -EINVAL);
	memset(&pq, 0, sizeof(pq));
	pq.peer_addr.type = 1;
	pq.queue = 0; /* the SNMP value: 1..8 */
	assert_int_equal(kt_peer_queue_insert(f->seg, &pq, &row), -EINVAL);
	pq.queue = KT_PEER_QUEUE_QUEUE_MAX + 1;
	assert_int_equal(kt_peer_queue_insert(f->seg, &pq, &row), -EINVAL);
	memset(&c, 0, sizeof(c)); /* an empty string */
	assert_int_equal(kt_customer_insert(f->seg, &c, &row), -EINVAL);
	memset(c.customer_name, 'x', sizeof(c.customer_name)); /* no NUL within 32 + 1 */
	assert_int_equal(kt_customer_insert(f->seg, &c, &row), -EINVAL);
}

/* The capacity is the table's rows; a row the table does not have (not
 * below KT_STATION_ROWS) goes to the scratch row, counted, no row
 * changes. */
static void
test_capacity_and_rows_out_of_range(void **state)
{
	struct tu_fixture *f = *state;
	struct kt_station_key s;
	uint32_t row, first = 0;
	struct kt_tx tx;

	memset(&s, 0, sizeof(s));
	for (uint32_t i = 0; i < KT_STATION_ROWS; i++) {
		s.mac[4] = (uint8_t)(i >> 8);
		s.mac[5] = (uint8_t)i;
		assert_int_equal(kt_station_insert(f->seg, &s, &row), 0);
		assert_true(row < KT_STATION_ROWS);
		if (i == 0)
			first = row;
		kt_station_frames_add(f->w, row, 1);
	}
	s.mac[3] = 1;
	assert_int_equal(kt_station_insert(f->seg, &s, &row), -ENOSPC);

	assert_int_equal(fastmib_out_of_range_updates(f->rd), 0);
	kt_station_frames_add(f->w, KT_STATION_ROWS, 100);
	tx = kt_tx_begin(f->w);
	kt_tx_station_frames_add(&tx, UINT32_MAX, 100);
	kt_tx_end(&tx);
	assert_int_equal(fastmib_out_of_range_updates(f->rd), 2);
	for (uint32_t r = 0; r < KT_STATION_ROWS; r++)
		assert_int_equal(reader_value(f, KT_GROUP_STATION, r, 0), 1);

	/* a removed key's row goes to the next key, from zero */
	s.mac[3] = 0;
	s.mac[4] = 0;
	s.mac[5] = 0;
	assert_int_equal(kt_station_remove(f->seg, &s), 0);
	s.mac[3] = 1;
	assert_int_equal(kt_station_insert(f->seg, &s, &row), 0);
	assert_int_equal(row, first);
	assert_int_equal(reader_value(f, KT_GROUP_STATION, row, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_keys_rows_values, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_keys_refused, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_capacity_and_rows_out_of_range, setup,
						tu_teardown),
	};

	return tu_run_tests("test_codegen_keyed_segment", tests);
}
