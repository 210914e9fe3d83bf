/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generated state code on a real segment (models/states.yaml, a real
 * EAL): the rows start with the model's defaults, the generated setters
 * and getters reach the library with the right group, row and state (a
 * whole row, one state, a text, octets, an address), values the model
 * does not allow are refused and change nothing, rows that are not
 * present are refused, and a reader of the same file reads what was set.
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

#include "st_stats.h"
#include "tutil.h"

static int
setup(void **state)
{
	return tu_setup(state, &st_schema, NULL, FASTMIB_ATTACH_RDONLY, "states-gen");
}

/* The states of row `row` of group g as a reader reads them, into out. */
static void
reader_states(struct tu_fixture *f, unsigned g, uint32_t row, void *out)
{
	uint64_t bad[FASTMIB_STATE_MASK_WORDS] = { 0 };

	assert_int_equal(fastmib_state_read(f->rd, g, row, out, bad), 0);
	for (unsigned i = 0; i < FASTMIB_STATE_MASK_WORDS; i++)
		assert_int_equal(bad[i], 0);
}

static void
test_scalar_defaults_and_sets(void **state)
{
	struct tu_fixture *f = *state;
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 }, ip[4] = { 192, 0, 2, 1 };
	static const uint8_t octets[4] = { 1, 2, 3, 4 }, mac2[6] = { 1, 2, 3, 4, 5, 6 };
	struct st_system_state s, r;
	struct st_info_state in;
	struct fastmib_inet_address a = { 1, { 10, 0, 0, 9 } };

	/* a new segment: the model's defaults */
	memset(&s, 0x55, sizeof(s));
	assert_int_equal(st_system_state_get(f->seg, &s), 0);
	assert_true(s.forwarding);
	assert_int_equal(s.mode, ST_SYSTEM_MODE_FAST);
	assert_int_equal(s.level, -3);
	assert_int_equal(s.speed, 10000);
	assert_true(s.octets_queued == 5000000000ull);
	assert_int_equal(s.uptime, 0);
	assert_true(s.last_change == 0 && s.started == 0);
	assert_string_equal(s.version, "v1.0 (build 7)");
	assert_int_equal(s.cookie.len, 3);
	assert_int_equal(s.cookie.octets[2], 0xff);
	assert_memory_equal(s.router_id, ip, 4);
	assert_int_equal(s.peer.type, 2);
	assert_memory_equal(s.peer.addr, v6, 16);
	assert_memory_equal(s.mac, mac, 6);
	assert_int_equal(st_info_state_get(f->seg, &in), 0);
	assert_string_equal(in.label, "");
	assert_int_equal(in.flags.len, 0);
	assert_int_equal(in.weight, 50);

	/* one state at a time: each setter reaches its own state */
	assert_int_equal(st_system_forwarding_set(f->seg, false), 0);
	assert_int_equal(st_system_mode_set(f->seg, ST_SYSTEM_MODE_OFF), 0);
	assert_int_equal(st_system_level_set(f->seg, -10), 0);
	assert_int_equal(st_system_speed_set(f->seg, 25000), 0);
	assert_int_equal(st_system_octets_queued_set(f->seg, UINT64_MAX), 0);
	assert_int_equal(st_system_uptime_set(f->seg, 4242), 0);
	assert_int_equal(st_system_last_change_set(f->seg, 77), 0);
	assert_int_equal(st_system_started_set(f->seg, -1), 0);
	assert_int_equal(st_system_version_set(f->seg, "v2"), 0);
	assert_int_equal(st_system_cookie_set(f->seg, octets, 4), 0);
	assert_int_equal(st_system_router_id_set(f->seg, octets), 0);
	assert_int_equal(st_system_peer_set(f->seg, &a), 0);
	assert_int_equal(st_system_mac_set(f->seg, mac2), 0);
	reader_states(f, ST_GROUP_SYSTEM, 0, &r);
	assert_false(r.forwarding);
	assert_int_equal(r.mode, ST_SYSTEM_MODE_OFF);
	assert_int_equal(r.level, -10);
	assert_int_equal(r.speed, 25000);
	assert_true(r.octets_queued == UINT64_MAX);
	assert_int_equal(r.uptime, 4242);
	assert_true(r.last_change == 77 && r.started == -1);
	assert_string_equal(r.version, "v2");
	assert_int_equal(r.cookie.len, 4);
	assert_memory_equal(r.cookie.octets, octets, 4);
	assert_memory_equal(r.router_id, octets, 4);
	assert_int_equal(r.peer.type, 1);
	assert_memory_equal(r.peer.addr, a.addr, 4);
	assert_memory_equal(r.mac, mac2, 6);

	/* what the model does not allow: refused, nothing changes */
	assert_int_equal(st_system_mode_set(f->seg, 3), -EINVAL);
	assert_int_equal(st_system_level_set(f->seg, 11), -EINVAL);
	assert_int_equal(st_system_version_set(f->seg, "123456789012345678901234567890123"),
			 -EINVAL);
	assert_int_equal(st_system_version_set(f->seg, "caf\xc3\xa9"), -EINVAL);
	assert_int_equal(st_system_cookie_set(f->seg, octets, 17), -EINVAL);
	a.type = 3;
	assert_int_equal(st_system_peer_set(f->seg, &a), -EINVAL);
	assert_int_equal(st_info_weight_set(f->seg, 0), -EINVAL);
	assert_int_equal(st_system_state_get(f->seg, &s), 0);
	assert_memory_equal(&s, &r, sizeof(s));

	/* the whole group at once */
	s.mode = ST_SYSTEM_MODE_SAFE;
	strcpy(s.version, "v3");
	assert_int_equal(st_system_state_set(f->seg, &s), 0);
	reader_states(f, ST_GROUP_SYSTEM, 0, &r);
	assert_int_equal(r.mode, ST_SYSTEM_MODE_SAFE);
	assert_string_equal(r.version, "v3");
	assert_int_equal(r.speed, 25000);
	s.level = 100;
	assert_int_equal(st_system_state_set(f->seg, &s), -EINVAL);
	assert_int_equal(st_info_label_set(f->seg, "rack 4"), 0);
	assert_int_equal(st_info_flags_set(f->seg, octets, 3), 0);
	reader_states(f, ST_GROUP_INFO, 0, &in);
	assert_string_equal(in.label, "rack 4");
	assert_int_equal(in.flags.len, 3);
	assert_int_equal(in.weight, 50);
}

/* Dense tables: rows by st_<g>_row(); every row of `rows: all` exists
 * from the start, a `rows: present` row from its enable. */
static void
test_dense_rows(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_inet_address v6 = { 2, { 0xfe, 0x80, [15] = 2 } };
	struct st_port_state p;
	struct st_lane_state l;
	uint32_t row = st_port_row(2), lane = st_lane_row(1, 3);

	assert_int_equal(st_port_state_get(f->seg, row, &p), 0);
	assert_int_equal(p.link, ST_PORT_LINK_DOWN);
	assert_int_equal(p.remote.type, 0);
	assert_int_equal(st_port_link_set(f->seg, row, ST_PORT_LINK_UP), 0);
	assert_int_equal(st_port_remote_set(f->seg, row, &v6), 0);
	assert_int_equal(st_port_name_set(f->seg, row, "eth2"), 0);
	reader_states(f, ST_GROUP_PORT, row, &p);
	assert_int_equal(p.link, ST_PORT_LINK_UP);
	assert_int_equal(p.remote.type, 2);
	assert_memory_equal(p.remote.addr, v6.addr, 16);
	assert_string_equal(p.name, "eth2");
	/* the other rows keep their defaults */
	reader_states(f, ST_GROUP_PORT, st_port_row(1), &p);
	assert_int_equal(p.link, ST_PORT_LINK_DOWN);
	assert_string_equal(p.name, "");
	assert_int_equal(st_port_link_set(f->seg, ST_PORT_ROWS, ST_PORT_LINK_UP), -EINVAL);

	assert_int_equal(st_lane_state_get(f->seg, lane, &l), -ENOENT);
	assert_int_equal(st_lane_power_set(f->seg, lane, 1), -ENOENT);
	assert_int_equal(fastmib_row_enable(f->seg, ST_GROUP_LANE, lane), 0);
	assert_int_equal(st_lane_state_get(f->seg, lane, &l), 0);
	assert_false(l.active);
	assert_int_equal(l.power, 0);
	assert_int_equal(st_lane_power_set(f->seg, lane, -40), 0);
	assert_int_equal(st_lane_power_set(f->seg, lane, 11), -EINVAL);
	assert_int_equal(st_lane_active_set(f->seg, lane, true), 0);
	reader_states(f, ST_GROUP_LANE, lane, &l);
	assert_true(l.active);
	assert_int_equal(l.power, -40);
	assert_int_equal(fastmib_row_disable(f->seg, ST_GROUP_LANE, lane), 0);
	assert_int_equal(st_lane_active_set(f->seg, lane, false), -ENOENT);
}

/* Keyed tables: a row from its insert, with the defaults; gone with its
 * key; a new key in the same row starts from the defaults again. */
static void
test_keyed_rows(void **state)
{
	struct tu_fixture *f = *state;
	struct st_tunnel_key k;
	struct st_session_key u;
	struct st_tunnel_state t;
	struct st_session_state ss;
	uint32_t row, again, srow;
	static const uint8_t key[2] = { 0xde, 0xad };

	memset(&k, 0, sizeof(k));
	k.endpoint.type = 1;
	k.endpoint.addr[0] = 10;
	k.teid = 7;
	assert_int_equal(st_tunnel_insert(f->seg, &k, &row), 0);
	assert_int_equal(st_tunnel_state_get(f->seg, row, &t), 0);
	assert_int_equal(t.oper_state, ST_TUNNEL_OPER_STATE_DOWN);
	assert_int_equal(t.mtu, 1500);
	assert_int_equal(st_tunnel_oper_state_set(f->seg, row, ST_TUNNEL_OPER_STATE_UP), 0);
	assert_int_equal(st_tunnel_mtu_set(f->seg, row, 9000), 0);
	assert_int_equal(st_tunnel_mtu_set(f->seg, row, 9001), -EINVAL);
	assert_int_equal(st_tunnel_key_set(f->seg, row, key, 2), 0);
	assert_int_equal(st_tunnel_established_set(f->seg, row, 1764300000000000000ll), 0);
	reader_states(f, ST_GROUP_TUNNEL, row, &t);
	assert_int_equal(t.oper_state, ST_TUNNEL_OPER_STATE_UP);
	assert_int_equal(t.mtu, 9000);
	assert_int_equal(t.key.len, 2);
	assert_memory_equal(t.key.octets, key, 2);
	assert_true(t.established == 1764300000000000000ll);
	assert_int_equal(st_tunnel_remove(f->seg, &k), 0);
	assert_int_equal(st_tunnel_oper_state_set(f->seg, row, ST_TUNNEL_OPER_STATE_UP), -ENOENT);
	assert_int_equal(st_tunnel_insert(f->seg, &k, &again), 0);
	assert_int_equal(st_tunnel_state_get(f->seg, again, &t), 0);
	assert_int_equal(t.oper_state, ST_TUNNEL_OPER_STATE_DOWN);
	assert_int_equal(t.key.len, 0);

	/* a keyed table of states only */
	memset(&u, 0, sizeof(u));
	strcpy(u.user, "alice");
	assert_int_equal(st_session_insert(f->seg, &u, &srow), 0);
	assert_int_equal(st_session_state_get(f->seg, srow, &ss), 0);
	assert_int_equal(ss.status, ST_SESSION_STATUS_IDLE);
	assert_int_equal(st_session_status_set(f->seg, srow, ST_SESSION_STATUS_CLOSING), 0);
	assert_int_equal(st_session_status_set(f->seg, srow, 2), -EINVAL);
	reader_states(f, ST_GROUP_SESSION, srow, &ss);
	assert_int_equal(ss.status, ST_SESSION_STATUS_CLOSING);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scalar_defaults_and_sets, setup,
						tu_teardown),
		cmocka_unit_test_setup_teardown(test_dense_rows, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_keyed_rows, setup, tu_teardown),
	};

	return tu_run_tests("test_codegen_states_segment", tests);
}
