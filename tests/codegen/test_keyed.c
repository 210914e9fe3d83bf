/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keyed tables as generated (tests/codegen/keyed/keyed.yaml): the schema
 * the generator wrote, the C keys laid out as the library reads them
 * (fastmib_key_layout()), the SNMP index each key gives (the examples of
 * docs/mib-layout.md), and update functions that take the row a key was
 * given and change that row's member only, in both forms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kt_stats.h"
#include "plain_areas.h"

static const struct fastmib_group_schema *
group(unsigned id)
{
	return &kt_schema.groups[id];
}

static void
check_index(const struct fastmib_group_schema *g, uint32_t k, const char *name,
	    uint32_t type, uint32_t max, uint32_t size)
{
	assert_string_equal(g->indexes[k].name, name);
	assert_int_equal(g->indexes[k].type, type);
	assert_int_equal(g->indexes[k].max, max);
	assert_int_equal(g->indexes[k].size, size);
}

/* What the model says, as the schema holds it. */
static void
test_kt_schema(void **state)
{
	(void)state;
	assert_false(fastmib_group_keyed(group(KT_GROUP_GLOBAL)));
	assert_false(fastmib_group_keyed(group(KT_GROUP_PORT)));
	assert_int_equal(group(KT_GROUP_PORT)->all_rows, 1);
	check_index(group(KT_GROUP_PORT), 0, "portId", FASTMIB_INDEX_INTEGER, 4, 0);

	check_index(group(KT_GROUP_TUNNEL), 0, "peer", FASTMIB_INDEX_INET_ADDRESS, 0, 0);
	check_index(group(KT_GROUP_TUNNEL), 1, "teid", FASTMIB_INDEX_UINT32, 0, 0);
	check_index(group(KT_GROUP_PEER_QUEUE), 0, "peerAddr", FASTMIB_INDEX_INET_ADDRESS, 0,
		    0);
	check_index(group(KT_GROUP_PEER_QUEUE), 1, "queue", FASTMIB_INDEX_INTEGER, 8, 0);
	check_index(group(KT_GROUP_HOST), 0, "addr", FASTMIB_INDEX_IPV4, 0, 0);
	check_index(group(KT_GROUP_STATION), 0, "mac", FASTMIB_INDEX_MAC, 0, 0);
	check_index(group(KT_GROUP_CUSTOMER), 0, "customerName", FASTMIB_INDEX_STRING, 0, 32);
	check_index(group(KT_GROUP_CUSTOMER), 1, "vlan", FASTMIB_INDEX_UINT32, 0, 0);

	/* a keyed table's rows: its capacity; present or not, never all */
	static const struct {
		unsigned id;
		uint32_t capacity, n_indexes;
	} keyed[] = {
		{ KT_GROUP_TUNNEL, 65536, 2 }, { KT_GROUP_PEER_QUEUE, 4096, 2 },
		{ KT_GROUP_HOST, 1024, 1 },    { KT_GROUP_STATION, 256, 1 },
		{ KT_GROUP_CUSTOMER, 1000, 2 },
	};
	for (size_t i = 0; i < sizeof(keyed) / sizeof(keyed[0]); i++) {
		const struct fastmib_group_schema *g = group(keyed[i].id);

		assert_true(fastmib_group_keyed(g));
		assert_int_equal(g->n_rows, keyed[i].capacity);
		assert_int_equal(g->n_indexes, keyed[i].n_indexes);
		assert_int_equal(g->all_rows, 0);
	}
	assert_int_equal(KT_TUNNEL_ROWS, 65536);
	assert_int_equal(KT_CUSTOMER_ROWS, 1000);
	assert_int_equal(fastmib_schema_check(&kt_schema, NULL, NULL), 0);
}

/* The library's layout of each key, from the schema this program links,
 * is the generated struct's: the header asserts the same against the
 * layout the generator saw; this holds it for the library linked now. */
static void
check_layout(unsigned id, const size_t *member_offsets, size_t size)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], sz;
	const struct fastmib_group_schema *g = group(id);

	fastmib_key_layout(g, offs, &sz);
	for (uint32_t k = 0; k < g->n_indexes; k++)
		assert_int_equal(offs[k], member_offsets[k]);
	assert_int_equal(sz, size);
}

static void
test_key_layout(void **state)
{
	const size_t tunnel[] = { offsetof(struct kt_tunnel_key, peer),
				  offsetof(struct kt_tunnel_key, teid) };
	const size_t peer_queue[] = { offsetof(struct kt_peer_queue_key, peer_addr),
				      offsetof(struct kt_peer_queue_key, queue) };
	const size_t host[] = { offsetof(struct kt_host_key, addr) };
	const size_t station[] = { offsetof(struct kt_station_key, mac) };
	const size_t customer[] = { offsetof(struct kt_customer_key, customer_name),
				    offsetof(struct kt_customer_key, vlan) };

	(void)state;
	check_layout(KT_GROUP_TUNNEL, tunnel, sizeof(struct kt_tunnel_key));
	check_layout(KT_GROUP_PEER_QUEUE, peer_queue, sizeof(struct kt_peer_queue_key));
	check_layout(KT_GROUP_HOST, host, sizeof(struct kt_host_key));
	check_layout(KT_GROUP_STATION, station, sizeof(struct kt_station_key));
	check_layout(KT_GROUP_CUSTOMER, customer, sizeof(struct kt_customer_key));
	/* the members as the model describes them */
	assert_int_equal(sizeof(((struct kt_customer_key *)0)->customer_name), 33);
	assert_int_equal(sizeof(((struct kt_station_key *)0)->mac), 6);
	assert_int_equal(sizeof(((struct kt_host_key *)0)->addr), 4);
	assert_int_equal(KT_TUNNEL_KEY_TEID_OFFSET, offsetof(struct kt_tunnel_key, teid));
	assert_int_equal(KT_CUSTOMER_KEY_SIZE, sizeof(struct kt_customer_key));
}

/* The SNMP index of a C key (after the column's OID), through the
 * library's order key; and the key back from it. */
static void
check_index_of(unsigned id, const void *key, const uint64_t *want, size_t n)
{
	const struct fastmib_group_schema *g = group(id);
	uint8_t buf[FASTMIB_MAX_KEY_BYTES], buf2[FASTMIB_MAX_KEY_BYTES];
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
	uint8_t back[64];
	uint32_t offs[FASTMIB_MAX_INDEXES], size;
	int len = fastmib_key_encode(g, key, buf);

	assert_true(len > 0);
	assert_true(fastmib_key_valid(g, buf, (size_t)len));
	assert_int_equal(fastmib_key_to_index(g, buf, (size_t)len, idx), n);
	assert_memory_equal(idx, want, n * sizeof(*want));
	assert_int_equal(fastmib_key_of_index(g, want, n, buf2), len);
	assert_memory_equal(buf, buf2, (size_t)len);
	fastmib_key_layout(g, offs, &size);
	assert_true(size <= sizeof(back));
	fastmib_key_decode(g, buf, (size_t)len, back);
	assert_int_equal(fastmib_key_encode(g, back, buf2), len);
	assert_memory_equal(buf, buf2, (size_t)len);
}

static void
test_key_indexes(void **state)
{
	struct kt_tunnel_key tk;
	struct kt_peer_queue_key pk;
	struct kt_host_key hk = { { 192, 168, 1, 9 } };
	struct kt_station_key sk = { { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 } };
	struct kt_customer_key ck;
	/* docs/mib-layout.md: 10.0.0.1 and 0xdeadbeef; 2001:db8::1 and 7 */
	static const uint64_t t4[] = { 1, 4, 10, 0, 0, 1, 3735928559u };
	static const uint64_t t6[] = { 2, 16, 32, 1, 13, 184, 0, 0, 0, 0,
				       0, 0, 0, 0, 0, 0, 0, 1, 7 };
	static const uint64_t pq[] = { 1, 4, 10, 0, 0, 2, 8 };
	static const uint64_t h[] = { 192, 168, 1, 9 };
	static const uint64_t s[] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const uint64_t c[] = { 4, 'a', 'c', 'm', 'e', 100 };
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	(void)state;
	memset(&tk, 0xa5, sizeof(tk)); /* bytes no value uses are ignored */
	tk.peer.type = 1;
	memcpy(tk.peer.addr, "\x0a\x00\x00\x01", 4);
	tk.teid = 0xdeadbeef;
	check_index_of(KT_GROUP_TUNNEL, &tk, t4, 7);
	tk.peer.type = 2;
	memcpy(tk.peer.addr, v6, 16);
	tk.teid = 7;
	check_index_of(KT_GROUP_TUNNEL, &tk, t6, 19);

	memset(&pk, 0, sizeof(pk));
	pk.peer_addr.type = 1;
	memcpy(pk.peer_addr.addr, "\x0a\x00\x00\x02", 4);
	pk.queue = KT_PEER_QUEUE_QUEUE_MAX; /* an integer index: the SNMP value */
	check_index_of(KT_GROUP_PEER_QUEUE, &pk, pq, 7);
	pk.queue = 0;
	assert_int_equal(fastmib_key_encode(group(KT_GROUP_PEER_QUEUE), &pk,
					    (uint8_t[FASTMIB_MAX_KEY_BYTES]){ 0 }), -EINVAL);

	check_index_of(KT_GROUP_HOST, &hk, h, 4);
	check_index_of(KT_GROUP_STATION, &sk, s, 6);

	memset(&ck, 0xa5, sizeof(ck));
	strcpy(ck.customer_name, "acme");
	ck.vlan = 100;
	check_index_of(KT_GROUP_CUSTOMER, &ck, c, 6);
	memset(ck.customer_name, 'x', 32);
	ck.customer_name[32] = '\0'; /* the longest */
	{
		uint8_t buf[FASTMIB_MAX_KEY_BYTES];

		assert_int_equal(fastmib_key_encode(group(KT_GROUP_CUSTOMER), &ck, buf),
				 1 + 32 + 4);
		ck.customer_name[0] = '\0';
		assert_int_equal(fastmib_key_encode(group(KT_GROUP_CUSTOMER), &ck, buf),
				 -EINVAL);
	}
}

/* ---- updates on a writer over plain memory ---- */

PLAIN_AREAS_FIXTURES(kt)

/* The row a key was given is the row updated: the last row and row 0 of
 * each storage kind, through the calls on the writer and the transaction
 * form, and nothing else changes. */
static void
test_updates_take_the_row(void **state)
{
	struct plain_areas *a = *state;
	struct fastmib_writer *w = a->w;
	struct kt_percore *pc_expect = a->pc_expect;
	struct kt_shared *sh_expect = a->sh_expect;
	uint32_t seq = 0;
	struct kt_tx tx;
	struct kt_tunnel_ref tr;

	kt_tunnel_bytes_add(w, KT_TUNNEL_ROWS - 1, 1500);
	pc_expect->tunnel[KT_TUNNEL_ROWS - 1].bytes = 1500;
	kt_station_frames_add(w, 0, 2);
	pc_expect->station[0].frames = 2;
	assert_memory_equal(a->pc, pc_expect, a->pc_size);
	kt_host_sessions_add(w, 5, 3);
	kt_host_sessions_sub(w, 5, 1);
	kt_host_drops_add(w, KT_HOST_ROWS - 1, 4);
	sh_expect->host[5].sessions = 2;
	sh_expect->host[KT_HOST_ROWS - 1].drops = 4;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
	kt_host_sessions_set(w, 5, 9);
	sh_expect->host[5].sessions = 9;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
	assert_int_equal(kt_tunnel_row_checked(w, 17), 17);

	w->sn = &seq;
	w->hint_limit = 1000; /* no flush: this writer has no segment */
	tx = kt_tx_begin(w);
	tr = kt_tx_tunnel(&tx, 17);
	kt_tunnel_ref_pkts_add(tr, 1);
	kt_tunnel_ref_bytes_add(tr, 64);
	kt_tx_tunnel_pkts_add(&tx, 17, 1);
	pc_expect->tunnel[17].pkts = 2;
	pc_expect->tunnel[17].bytes = 64;
	kt_tx_station_frames_add(&tx, KT_STATION_ROWS - 1, 1);
	pc_expect->station[KT_STATION_ROWS - 1].frames = 1;
	assert_memory_equal(a->pc, pc_expect, a->pc_size);
	kt_tx_host_sessions_set(&tx, 0, 4);
	sh_expect->host[0].sessions = 4;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
	/* shared-buffered: into the buffer, at the row's offset */
	kt_tx_peer_queue_backlog_sub(&tx, 4095, 1);
	kt_tx_customer_octets_add(&tx, 999, 1500);
	assert_int_equal(w->n_ops, 2);
	assert_int_equal(w->ops[0].offset, offsetof(struct kt_shared, peer_queue[4095].backlog));
	assert_int_equal(w->ops[0].operand, (uint64_t)0 - 1);
	assert_int_equal(w->ops[1].offset, offsetof(struct kt_shared, customer[999].octets));
	kt_tx_end(&tx);
	kt_customer_octets_add(w, 3, 1);
	assert_int_equal(w->ops[2].offset, offsetof(struct kt_shared, customer[3].octets));
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kt_schema),
		cmocka_unit_test(test_key_layout),
		cmocka_unit_test(test_key_indexes),
		cmocka_unit_test_setup_teardown(test_updates_take_the_row, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
