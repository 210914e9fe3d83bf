/* SPDX-License-Identifier: BSD-3-Clause */
/* The state objects' test model of states_model.h. */
#include <stdbool.h>
#include <stdint.h>

#include "states_model.h"

static const struct fastmib_enum_value oper_values[] = {
	{ "up", 1 }, { "down", 2 }, { "testing", 3 },
};
static const struct fastmib_enum_value link_values[] = { { "up", 1 }, { "down", 2 } };
static const int32_t def_down = 2;
static const char def_label[33] = "none";
static const char def_release[21] = "1.0";
static const uint32_t def_version = 7;
static const bool def_true = true;
static const uint8_t def_addr[4] = { 10, 0, 0, 1 };

#define STU(n, u, a, t) .name = (n), .units = (u), .description = "A state.", .arc = (a), \
			.type = (t)
#define ST(n, a, t) STU(n, "", a, t)

static struct fastmib_state_schema global_states[SM_N_GLOBAL] = {
	[SM_OPER] = { ST("operState", 10, FASTMIB_STATE_ENUM), .notify = 1, .n_values = 3,
		      .values = oper_values, .def = &def_down },
	[SM_LABEL] = { ST("label", 11, FASTMIB_STATE_DISPLAY_STRING), .size = 32,
		       .def = def_label },
	[SM_VERSION] = { ST("version", 12, FASTMIB_STATE_UNSIGNED32), .has_range = 1, .lo = 1,
			 .hi = 100, .def = &def_version },
	[SM_PEAK] = { STU("peak", "packets", 13, FASTMIB_STATE_GAUGE64) },
	[SM_SINCE] = { ST("since", 14, FASTMIB_STATE_TIMESTAMP) },
	[SM_STARTED] = { ST("started", 15, FASTMIB_STATE_DATE_AND_TIME) },
	[SM_ENABLED] = { ST("enabled", 16, FASTMIB_STATE_TRUTH_VALUE), .notify = 1,
			 .def = &def_true },
	[SM_ADDR] = { ST("addr", 17, FASTMIB_STATE_IPV4), .def = def_addr },
	[SM_MAC] = { ST("mac", 18, FASTMIB_STATE_MAC) },
	[SM_REMOTE] = { ST("remote", 20, FASTMIB_STATE_INET_ADDRESS) },
	[SM_BLOB] = { ST("blob", 22, FASTMIB_STATE_OCTET_STRING), .size = 8 },
	[SM_UPTIME] = { ST("uptime", 23, FASTMIB_STATE_TIMETICKS) },
	[SM_TEMP] = { STU("temp", "celsius", 24, FASTMIB_STATE_INTEGER32),
		      .has_range = 1, .lo = -50, .hi = 150 },
};

/* A table's states; each table its own copy (the layout writes offsets). */
#define ROW_STATES                                                                   \
	[SM_LINK] = { ST("link", 5, FASTMIB_STATE_ENUM), .notify = 1, .n_values = 2,        \
		      .values = link_values, .def = &def_down },                            \
	[SM_SPEED] = { STU("speed", "Mbit/s", 6, FASTMIB_STATE_UNSIGNED32) },               \
	[SM_NAME] = { ST("name", 7, FASTMIB_STATE_DISPLAY_STRING), .size = 16 },            \
	[SM_PEER] = { ST("peer", 8, FASTMIB_STATE_INET_ADDRESS) }
static struct fastmib_state_schema port_states[SM_N_ROW] = { ROW_STATES };
static struct fastmib_state_schema tunnel_states[SM_N_TUNNEL] = {
	ROW_STATES,
	[SM_NOTE] = { ST("note", 10, FASTMIB_STATE_DISPLAY_STRING), .size = SM_NOTE_SIZE },
};

static struct fastmib_state_schema info_states[SM_N_INFO] = {
	[SM_RELEASE] = { ST("release", 1, FASTMIB_STATE_DISPLAY_STRING), .size = 20,
			 .def = def_release },
	[SM_READY] = { ST("ready", 2, FASTMIB_STATE_TRUTH_VALUE) },
	[SM_MOTD] = { ST("motd", 3, FASTMIB_STATE_DISPLAY_STRING), .size = SM_MOTD_SIZE },
	[SM_CERT] = { ST("cert", 4, FASTMIB_STATE_OCTET_STRING), .size = SM_CERT_SIZE },
};

static struct fastmib_counter_schema counters[2] = {
	{ "pkts", "packets", "Packets.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "drops", "", "Drops.", 2, FASTMIB_COUNTER32, 8, 0, 0, NULL },
};

static struct fastmib_group_schema groups[SM_N_GROUPS] = {
	[SM_GLOBAL] = { .name = "global", .description = "Whole.", .arc = 1, .n_rows = 1,
			.storage = FASTMIB_STORAGE_PER_CORE, .n_counters = 2,
			.counters = counters, .n_states = SM_N_GLOBAL,
			.states = global_states },
	[SM_PORT] = { .name = "port", .description = "Ports.", .arc = 2,
		      .storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_indexes = 1,
		      .indexes = { { .name = "portId", .max = SM_PORT_ROWS } },
		      .n_rows = SM_PORT_ROWS, .n_counters = 1, .counters = counters,
		      .n_states = SM_N_ROW, .states = port_states },
	[SM_TUNNEL] = { .name = "tunnel", .description = "Tunnels.", .arc = 3,
			.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
			.indexes = { { .name = "teid", .type = FASTMIB_INDEX_UINT32 } },
			.n_rows = SM_TUNNEL_CAPACITY, .n_counters = 1, .counters = counters,
			.n_states = SM_N_TUNNEL, .states = tunnel_states },
	[SM_INFO] = { .name = "info", .description = "States only.", .arc = 4, .n_rows = 1,
		      .n_states = SM_N_INFO, .states = info_states },
};

static struct fastmib_schema schema = {
	.version = FASTMIB_MODEL_VERSION, .module = "VIEWS-TEST-MIB", .prefix = "vw",
	.oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 81 },
	.n_groups = SM_N_GROUPS, .groups = groups,
};

const struct fastmib_schema *
sm_schema(void)
{
	static bool laid_out;

	if (!laid_out)
		fastmib_schema_lay_out(&schema);
	laid_out = true;
	return &schema;
}
