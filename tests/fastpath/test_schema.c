/* SPDX-License-Identifier: BSD-3-Clause */
#include "test_schema.h"

static const struct fastmib_counter_schema global_c[] = {
	{ "pkts", "packets", "Packets seen.", 1, FASTMIB_COUNTER64, TS_GLOBAL_PKTS, 0, 0, NULL },
	{ "bytes", "octets", "Octets seen.", 2, FASTMIB_COUNTER64, TS_GLOBAL_BYTES, 0, 0, NULL },
	{ "flows", "", "Flows now active.", 3, FASTMIB_GAUGE32, TS_GLOBAL_FLOWS, 0, 0, NULL },
};
static const struct fastmib_counter_schema port_c[] = {
	{ "rxPkts", "packets", "Packets received.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "rxBytes", "octets", "Octets received.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};
static const struct fastmib_counter_schema session_c[] = {
	{ "pkts", "packets", "Packets of the session.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "bytes", "octets", "Octets of the session.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};
static const struct fastmib_counter_schema pool_c[] = {
	{ "allocs", "", "Buffers allocated.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "inUse", "", "Buffers in use.", 2, FASTMIB_GAUGE32, 8, 0, 0, NULL },
	{ "fails", "", "Failed allocations.", 3, FASTMIB_COUNTER32, 16, 0, 0, NULL },
};
static const struct fastmib_counter_schema flow_c[] = {
	{ "pkts", "packets", "Packets of the flow.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "bytes", "octets", "Octets of the flow.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};

static const struct fastmib_group_schema groups[TS_N_GROUPS] = {
	[TS_GLOBAL] = { .name = "global", .description = "Whole fast path.", .arc = 1,
			.storage = FASTMIB_STORAGE_PER_CORE, .n_rows = 1, .row_size = 24,
			.offset = 0, .n_counters = 3, .counters = global_c },
	[TS_PORT] = { .name = "port", .description = "Per port.", .arc = 2,
		      .storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1, .all_rows = 1,
		      .indexes = { { .name = "portId", .max = TS_PORT_ROWS } }, .n_rows = TS_PORT_ROWS,
		      .row_size = TS_PORT_ROW, .offset = TS_PORT_OFF, .n_counters = 2,
		      .counters = port_c },
	[TS_SESSION] = { .name = "session", .description = "Per session.", .arc = 3,
			 .storage = FASTMIB_STORAGE_SHARED_BUFFERED, .n_indexes = 1,
			 .indexes = { { .name = "sessionId", .max = TS_SESSION_ROWS } },
			 .n_rows = TS_SESSION_ROWS, .row_size = TS_SESSION_ROW,
			 .offset = TS_SESSION_OFF, .n_counters = 2, .counters = session_c },
	[TS_POOL] = { .name = "pool", .description = "Buffer pool.", .arc = 4,
		      .storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_rows = 1, .row_size = 24,
		      .offset = TS_POOL_ALLOCS, .n_counters = 3, .counters = pool_c },
	[TS_FLOW] = { .name = "flow", .description = "Per VRF and queue.", .arc = 5,
		      .storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 2,
		      .indexes = { { .name = "vrf", .max = 3 }, { .name = "queue", .max = 5 } }, .n_rows = TS_FLOW_ROWS,
		      .row_size = TS_FLOW_ROW, .offset = TS_FLOW_OFF, .n_counters = 2,
		      .counters = flow_c },
};

/* Both test schemas have these counters; ts_ev_schema adds events. */
#define TS_SCHEMA_COUNTERS                                        \
	.version = FASTMIB_MODEL_VERSION,                         \
	.module = "FASTMIB-TEST-MIB",                             \
	.prefix = "ts",                                           \
	.oid_len = 9,                                             \
	.oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 77 },              \
	.percore_size = 448,                                      \
	.shared_size = 1728,                                     \
	.n_groups = TS_N_GROUPS,                                  \
	.groups = groups

const struct fastmib_schema ts_schema = {
	TS_SCHEMA_COUNTERS,
};

static const struct fastmib_event_schema events[TS_N_EVENTS] = {
	/* top leaves its types out: they load as uint64 */
	[TS_EV_TOP] = { .name = "top", .description = "Level 0.", .arc = 1, .level = 0,
			.rate = 9, .notify = 1, .n_args = 2, .args = { "a", "b" } },
	[TS_EV_OUTER] = { .name = "outer", .description = "Level 1.", .arc = 2, .level = 1,
			  .rate = 9, .n_args = 4, .args = { "a", "b", "c", "d" },
			  .arg_types = { FASTMIB_ARG_UINT32, FASTMIB_ARG_UINT64,
					 FASTMIB_ARG_INT32, FASTMIB_ARG_UINT64 } },
	[TS_EV_INNER] = { .name = "inner", .description = "Level 2.", .arc = 7, .level = 2,
			  .rate = 9, .n_args = 4, .args = { "a", "b", "c", "d" },
			  .arg_types = { FASTMIB_ARG_UINT32, FASTMIB_ARG_UINT64,
					 FASTMIB_ARG_INT32, FASTMIB_ARG_UINT64 } },
	[TS_EV_SAMPLED] = { .name = "sampled", .description = "Rate 5.", .arc = 9,
			    .level = 3, .rate = 5 },
};

const struct fastmib_schema ts_ev_schema = {
	TS_SCHEMA_COUNTERS,
	.n_events = TS_N_EVENTS,
	.events = events,
};
