/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated states of models/states.yaml agree with the library: each
 * group's `struct st_<g>_state` is laid out as fastmib_state_layout() says
 * (offsetof and sizeof, besides the header's own assertions against its
 * macros), the schema passes fastmib_schema_check() with the hash it
 * carries, and it holds what the model says: types, arcs, sizes, ranges,
 * notify, enum values in model order with their constants, and defaults in
 * their C form (NULL where zero, never for an enum). No segment, no EAL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "st_stats.h"

/* One member of a state struct: where the compiler put it, and its size. */
struct member {
	size_t offset, size;
};

#define M(type, field) { offsetof(type, field), sizeof(((type *)0)->field) }

static void
check_layout(unsigned g, const struct member *m, size_t n, size_t size)
{
	const struct fastmib_group_schema *gs = &st_schema.groups[g];
	uint32_t offsets[FASTMIB_MAX_STATES], state_size;

	assert_int_equal(gs->n_states, n);
	fastmib_state_layout(gs, offsets, &state_size);
	assert_int_equal(state_size, size);
	assert_int_equal(gs->state_size, size);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(offsets[i], m[i].offset);
		assert_int_equal(gs->states[i].offset, m[i].offset);
		assert_int_equal(fastmib_state_value_size(&gs->states[i], NULL), m[i].size);
	}
}

static void
test_layouts(void **state)
{
	static const struct member sys[] = {
		M(struct st_system_state, forwarding), M(struct st_system_state, mode),
		M(struct st_system_state, level), M(struct st_system_state, speed),
		M(struct st_system_state, octets_queued), M(struct st_system_state, uptime),
		M(struct st_system_state, last_change), M(struct st_system_state, started),
		M(struct st_system_state, version), M(struct st_system_state, cookie),
		M(struct st_system_state, router_id), M(struct st_system_state, peer),
		M(struct st_system_state, mac),
	};
	static const struct member info[] = {
		M(struct st_info_state, label), M(struct st_info_state, flags),
		M(struct st_info_state, weight), M(struct st_info_state, phase),
	};
	static const struct member port[] = {
		M(struct st_port_state, name), M(struct st_port_state, remote),
		M(struct st_port_state, link), M(struct st_port_state, speed),
		M(struct st_port_state, promiscuous), M(struct st_port_state, temperature),
		M(struct st_port_state, queued), M(struct st_port_state, link_time),
		M(struct st_port_state, last_flap), M(struct st_port_state, since),
		M(struct st_port_state, serial), M(struct st_port_state, address),
		M(struct st_port_state, mac),
	};
	static const struct member lane[] = {
		M(struct st_lane_state, active), M(struct st_lane_state, power),
	};
	static const struct member tunnel[] = {
		M(struct st_tunnel_state, oper_state), M(struct st_tunnel_state, label),
		M(struct st_tunnel_state, remote), M(struct st_tunnel_state, established),
		M(struct st_tunnel_state, mtu), M(struct st_tunnel_state, key),
	};
	static const struct member session[] = {
		M(struct st_session_state, status), M(struct st_session_state, started),
	};

	(void)state;
	check_layout(ST_GROUP_SYSTEM, sys, 13, sizeof(struct st_system_state));
	check_layout(ST_GROUP_INFO, info, 4, sizeof(struct st_info_state));
	check_layout(ST_GROUP_PORT, port, 13, sizeof(struct st_port_state));
	check_layout(ST_GROUP_LANE, lane, 2, sizeof(struct st_lane_state));
	check_layout(ST_GROUP_TUNNEL, tunnel, 6, sizeof(struct st_tunnel_state));
	check_layout(ST_GROUP_SESSION, session, 2, sizeof(struct st_session_state));
	assert_int_equal(ST_SYSTEM_STATE_SIZE, sizeof(struct st_system_state));
	assert_int_equal(ST_TUNNEL_STATE_KEY_OFFSET, offsetof(struct st_tunnel_state, key));
}

static void
test_schema_checked(void **state)
{
	static const unsigned states_only[] = { ST_GROUP_INFO, ST_GROUP_LANE, ST_GROUP_SESSION };
	const struct fastmib_schema *s = &st_schema;

	(void)state;
	assert_int_equal(fastmib_schema_check(s, NULL, NULL), 0);
	assert_true(fastmib_schema_hash(s) == ST_SCHEMA_HASH);
	/* groups of states only: no storage, no place in an area */
	for (unsigned i = 0; i < 3; i++) {
		unsigned g = states_only[i];

		assert_int_equal(s->groups[g].n_counters, 0);
		assert_int_equal(s->groups[g].storage, 0);
		assert_int_equal(s->groups[g].row_size, 0);
		assert_int_equal(s->groups[g].offset, 0);
	}
	assert_int_equal(s->groups[ST_GROUP_LANE].n_rows, ST_LANE_ROWS);
	assert_int_equal(s->groups[ST_GROUP_SESSION].n_rows, 16);
	assert_int_equal(s->groups[ST_GROUP_PORT].n_counters, 2);
}

static void
test_states_as_modelled(void **state)
{
	const struct fastmib_group_schema *sys = &st_schema.groups[ST_GROUP_SYSTEM];
	const struct fastmib_group_schema *tun = &st_schema.groups[ST_GROUP_TUNNEL];
	const struct fastmib_state_schema *mode = &sys->states[1];
	static const uint8_t zero[FASTMIB_MAX_OCTET_STRING + 2];

	(void)state;
	assert_string_equal(mode->name, "mode");
	assert_int_equal(mode->type, FASTMIB_STATE_ENUM);
	assert_int_equal(mode->arc, 3);
	assert_int_equal(mode->notify, 1);
	/* model order, not value order */
	assert_int_equal(mode->n_values, 3);
	assert_string_equal(mode->values[0].label, "fast");
	assert_int_equal(mode->values[0].value, ST_SYSTEM_MODE_FAST);
	assert_int_equal(ST_SYSTEM_MODE_FAST, 2);
	assert_int_equal(ST_SYSTEM_MODE_OFF, 0);
	assert_int_equal(ST_SESSION_STATUS_CLOSING, -1);
	assert_true(ST_SESSION_STATUS_UNKNOWN == INT32_MIN);
	assert_string_equal(sys->states[2].units, "dB");
	assert_int_equal(sys->states[2].has_range, 1);
	assert_int_equal(sys->states[2].lo, -10);
	assert_int_equal(sys->states[2].hi, 10);
	assert_int_equal(sys->states[8].size, 32);
	assert_int_equal(sys->states[11].type, FASTMIB_STATE_INET_ADDRESS);
	assert_int_equal(sys->states[11].arc, 13);
	assert_string_equal(sys->states[3].units, "Mb/s");
	assert_int_equal(tun->states[5].size, 1024);
	assert_int_equal(tun->states[4].lo, 576);
	assert_int_equal(tun->states[4].hi, 9000);
	assert_int_equal(sys->states[6].notify, 1);
	assert_int_equal(sys->states[9].notify, 0);
	/* what each starts with is a value it allows */
	for (unsigned i = 0; i < sys->n_states; i++)
		assert_int_equal(fastmib_state_check("system", &sys->states[i],
						      sys->states[i].def ? sys->states[i].def
									 : zero), 0);
}

static void
test_defaults(void **state)
{
	const struct fastmib_group_schema *sys = &st_schema.groups[ST_GROUP_SYSTEM];
	const struct fastmib_group_schema *port = &st_schema.groups[ST_GROUP_PORT];
	const struct fastmib_group_schema *sess = &st_schema.groups[ST_GROUP_SESSION];
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t cookie[3] = { 0x0a, 0x1b, 0xff };
	static const uint8_t ip[4] = { 192, 0, 2, 1 }, mac[6] = { 2, 0, 0, 0, 0, 1 };
	const struct fastmib_inet_address *peer = sys->states[11].def;
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	uint16_t len;

	(void)state;
	assert_int_equal(*(const uint8_t *)sys->states[0].def, 1);
	memcpy(&i32, sys->states[1].def, 4);
	assert_int_equal(i32, ST_SYSTEM_MODE_FAST);   /* the first listed */
	memcpy(&i32, sys->states[2].def, 4);
	assert_int_equal(i32, -3);
	memcpy(&u32, sys->states[3].def, 4);
	assert_int_equal(u32, 10000);
	memcpy(&u64, sys->states[4].def, 8);
	assert_true(u64 == 5000000000ull);
	assert_null(sys->states[5].def);               /* timeticks: 0 */
	assert_null(sys->states[6].def);               /* timestamp: never */
	assert_null(sys->states[7].def);               /* date-and-time: unknown */
	assert_string_equal(sys->states[8].def, "v1.0 (build 7)");
	memcpy(&len, sys->states[9].def, 2);
	assert_int_equal(len, 3);
	assert_memory_equal((const uint8_t *)sys->states[9].def + 2, cookie, 3);
	assert_memory_equal(sys->states[10].def, ip, 4);
	assert_int_equal(peer->type, 2);
	assert_memory_equal(peer->addr, v6, 16);
	assert_memory_equal(sys->states[12].def, mac, 6);
	/* no default: zero, NULL in the schema, but an enum's first value */
	for (unsigned i = 0; i < port->n_states; i++)
		assert_true((port->states[i].def != NULL) == (port->states[i].type ==
							       FASTMIB_STATE_ENUM));
	memcpy(&i32, port->states[2].def, 4);
	assert_int_equal(i32, ST_PORT_LINK_DOWN);     /* `default: down` */
	memcpy(&i32, sess->states[0].def, 4);
	assert_int_equal(i32, ST_SESSION_STATUS_IDLE);
	assert_int_equal(ST_SESSION_STATUS_IDLE, 0);  /* an enum's zero still given */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_schema_checked),
		cmocka_unit_test(test_states_as_modelled),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
