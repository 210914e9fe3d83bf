/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <fastmib/names.h>: the generated names of docs/model.md ("Names") and
 * docs/mib-layout.md, exactly, with snprintf's length and truncation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fastmib/names.h"

/* A role's name for prefix "ep" and model names a, b, and its namespace. */
struct name_case {
	enum fastmib_name_role role;
	const char *a, *b;
	const char *want;
	enum fastmib_name_space space;
};

#define MIB FASTMIB_NS_MIB
#define MIB_TYPE FASTMIB_NS_MIB_TYPE
#define C_MACRO FASTMIB_NS_C_MACRO
#define C_ID FASTMIB_NS_C_ORDINARY
#define C_TAG FASTMIB_NS_C_TAG

static const struct name_case cases[] = {
	/* MIB descriptors (docs/mib-layout.md) */
	{ FASTMIB_MIB_ROOT, NULL, NULL, "epMib", MIB },
	{ FASTMIB_MIB_RESET_ALL, NULL, NULL, "epResetAll", MIB },
	{ FASTMIB_MIB_DISCONTINUITY, NULL, NULL, "epDiscontinuityTime", MIB },
	{ FASTMIB_MIB_CONTROL_GROUP, NULL, NULL, "epControlGroup", MIB },
	{ FASTMIB_MIB_EVENT_STATS_DROPPED, NULL, NULL, "epEventStatsDropped", MIB },
	{ FASTMIB_MIB_EVENT_ARG1 + 2, NULL, NULL, "epEventArg3", MIB },
	{ FASTMIB_MIB_SCALAR_NODE, "global", NULL, "epGlobal", MIB },
	{ FASTMIB_MIB_TABLE, "portQueue", NULL, "epPortQueueTable", MIB },
	{ FASTMIB_MIB_ENTRY, "portQueue", NULL, "epPortQueueEntry", MIB },
	{ FASTMIB_MIB_RESET, "port", NULL, "epPortReset", MIB },
	{ FASTMIB_MIB_GROUP_DISCONTINUITY, "port", NULL, "epPortDiscontinuityTime", MIB },
	{ FASTMIB_MIB_OBJECT_GROUP, "flow", NULL, "epFlowGroup", MIB },
	{ FASTMIB_MIB_COUNTER, "global", "rxPkts", "epGlobalRxPkts", MIB },
	{ FASTMIB_MIB_INDEX, "portQueue", "queueId", "epPortQueueQueueId", MIB },
	{ FASTMIB_MIB_INDEX_TYPE, "tunnel", "peer", "epTunnelPeerType", MIB },
	{ FASTMIB_MIB_NOTIFICATION, "badHeader", NULL, "epBadHeaderNotification", MIB },
	{ FASTMIB_MIB_TYPE_ENTRY, "portQueue", NULL, "EpPortQueueEntry", MIB_TYPE },
	{ FASTMIB_MIB_TYPE_EVENT_ENTRY, NULL, NULL, "EpEventEntry", MIB_TYPE },
	{ FASTMIB_MIB_TYPE_UNSIGNED64, NULL, NULL, "EpUnsigned64", MIB_TYPE },
	/* C names (docs/model.md, "Names") */
	{ FASTMIB_C_HEADER_GUARD, NULL, NULL, "EP_STATS_H", C_MACRO },
	{ FASTMIB_C_SCHEMA_HASH, NULL, NULL, "EP_SCHEMA_HASH", C_MACRO },
	{ FASTMIB_C_SCHEMA, NULL, NULL, "ep_schema", C_ID },
	{ FASTMIB_C_CREATE, NULL, NULL, "ep_create", C_ID },
	{ FASTMIB_C_ATTACH, NULL, NULL, "ep_attach", C_ID },
	{ FASTMIB_C_PERCORE_STRUCT, NULL, NULL, "ep_percore", C_TAG },
	{ FASTMIB_C_GROUP_ID, "portQueue", NULL, "EP_GROUP_PORT_QUEUE", C_MACRO },
	{ FASTMIB_C_OFFSET, "portQueue", NULL, "EP_PORT_QUEUE_OFFSET", C_MACRO },
	{ FASTMIB_C_ROW_SIZE, "portQueue", NULL, "EP_PORT_QUEUE_ROW_SIZE", C_MACRO },
	{ FASTMIB_C_ROWS, "portQueue", NULL, "EP_PORT_QUEUE_ROWS", C_MACRO },
	{ FASTMIB_C_ROW_FN, "portQueue", NULL, "ep_port_queue_row", C_ID },
	{ FASTMIB_C_ROW_STRUCT, "portQueue", NULL, "ep_port_queue_row", C_TAG },
	{ FASTMIB_C_COUNTERS, "flowState", NULL, "ep_flow_state_counters", C_ID },
	{ FASTMIB_C_INDEX_MAX, "portQueue", "queueId", "EP_PORT_QUEUE_QUEUE_ID_MAX", C_MACRO },
	{ FASTMIB_C_ADD, "global", "rxPkts", "ep_global_rx_pkts_add", C_ID },
	{ FASTMIB_C_SUB, "flowState", "activeFlows", "ep_flow_state_active_flows_sub", C_ID },
	{ FASTMIB_C_SET, "flowState", "activeFlows", "ep_flow_state_active_flows_set", C_ID },
	{ FASTMIB_C_KEY_STRUCT, "tunnel", NULL, "ep_tunnel_key", C_TAG },
	{ FASTMIB_C_KEY_SIZE, "tunnel", NULL, "EP_TUNNEL_KEY_SIZE", C_MACRO },
	{ FASTMIB_C_KEY_OFFSET, "peerQueue", "peerAddr", "EP_PEER_QUEUE_KEY_PEER_ADDR_OFFSET",
	  C_MACRO },
	{ FASTMIB_C_KEY_INSERT, "peerQueue", NULL, "ep_peer_queue_insert", C_ID },
	{ FASTMIB_C_KEY_FIND, "tunnel", NULL, "ep_tunnel_find", C_ID },
	{ FASTMIB_C_KEY_REMOVE, "tunnel", NULL, "ep_tunnel_remove", C_ID },
	{ FASTMIB_C_EVENT_ID, "burstStart", NULL, "EP_EVENT_BURST_START", C_MACRO },
	{ FASTMIB_C_EVENT_FN, "burstStart", NULL, "ep_event_burst_start", C_ID },
};

static void
test_names(void **state)
{
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct name_case *c = &cases[i];

		assert_int_equal(fastmib_name(buf, sizeof(buf), c->role, "ep", c->a, c->b),
				 strlen(c->want));
		assert_string_equal(buf, c->want);
		assert_int_equal(fastmib_name_space(c->role), c->space);
	}
	for (int r = FASTMIB_MIB_ROOT; r < FASTMIB_MIB_TYPE_ENTRY; r++)
		assert_int_equal(fastmib_name_space(r), FASTMIB_NS_MIB);
}

/* snprintf semantics: the whole length is returned, what fits is stored. */
static void
test_lengths(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(fastmib_name(buf, sizeof(buf), FASTMIB_MIB_COUNTER, "ep", "global",
				      "rxPkts"), 14);
	assert_string_equal(buf, "epGloba");
	assert_int_equal(fastmib_name(NULL, 0, FASTMIB_C_ADD, "ep", "global", "rxPkts"), 21);
	assert_int_equal(fastmib_name(buf, sizeof(buf), FASTMIB_N_NAME_ROLES, "ep", NULL, NULL), 0);
	assert_string_equal(buf, "");
	assert_int_equal(fastmib_name_snake(buf, sizeof(buf), "portQueue"), 10);
	assert_string_equal(buf, "port_qu");
	assert_int_equal(fastmib_name_upper(buf, sizeof(buf), "aB"), 3);
	assert_string_equal(buf, "A_B");
	assert_int_equal(fastmib_name_mib_style(buf, sizeof(buf), "ep", "burstStart", NULL), 12);
	assert_string_equal(buf, "epBurst");
	assert_int_equal(fastmib_name_exporter_module(buf, sizeof(buf), "IF-MIB"), 6);
	assert_string_equal(buf, "if_mib");
	assert_int_equal(fastmib_name_exporter_module(buf, sizeof(buf), "Ab-Cd2-MIB"), 10);
	assert_string_equal(buf, "ab_cd2_");
	assert_int_equal(fastmib_name_exporter_module(NULL, 0, "EXAMPLE-DATAPLANE-MIB"), 21);
}

/* Prometheus names: the snake_case of the MIB descriptor (docs/nms.md). */
static void
test_metric_names(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(fastmib_name_metric(buf, sizeof(buf), "ep", "global", "rxPkts"), 17);
	assert_string_equal(buf, "ep_global_rx_pkts");
	fastmib_name_metric(buf, sizeof(buf), "ep", "portQueue", "rxPkts");
	assert_string_equal(buf, "ep_port_queue_rx_pkts");
	fastmib_name_metric(buf, sizeof(buf), "kt2", "host", "ipv4Pkts");
	assert_string_equal(buf, "kt2_host_ipv4_pkts");
	assert_int_equal(fastmib_name_metric_of(buf, sizeof(buf), FASTMIB_MIB_WRITER_STATUS, "ep"),
			 16);
	assert_string_equal(buf, "ep_writer_status");
	fastmib_name_metric_of(buf, sizeof(buf), FASTMIB_MIB_EVENT_STATS_LOGGED, "ep");
	assert_string_equal(buf, "ep_event_stats_logged");
	fastmib_name_metric_of(buf, sizeof(buf), FASTMIB_MIB_BEST_EFFORT, "ep");
	assert_string_equal(buf, "ep_best_effort_reads");
	assert_int_equal(fastmib_name_label(buf, 6, "sessionId"), 10);
	assert_string_equal(buf, "sessi");
	fastmib_name_label(buf, sizeof(buf), "peer");
	assert_string_equal(buf, "peer");
}

/* Every one of names[0..n) is valid (`want`) or not by `valid`. */
static void
all_are(bool (*valid)(const char *), const char *const *names, size_t n, bool want)
{
	for (size_t i = 0; i < n; i++)
		if (valid(names[i]) != want)
			fail_msg("'%s' should be %s", names[i], want ? "valid" : "refused");
}

#define ALL_ARE(fn, v, want) all_are((fn), (v), sizeof(v) / sizeof((v)[0]), (want))

/* What a model's names may be: the one statement of the rules. */
static void
test_syntax(void **state)
{
	static const char *const model_ok[] = { "a", "rxPkts", "port2", "aBC9d" };
	static const char *const model_bad[] = { "", "RxPkts", "2port", "rx_pkts", "rx-pkts",
						 "rx pkts", "r\xc3\xa9", "\x80x" };
	static const char *const module_ok[] = { "A", "IF-MIB", "EXAMPLE-DATAPLANE-MIB",
						 "X2-Y" };
	static const char *const module_bad[] = { "", "if-MIB", "IF--MIB", "IF-MIB-", "-IF",
						  "IF_MIB", "IF MIB", "\xc3\x89-MIB" };
	static const char *const prefix_ok[] = { "ep", "x", "ab12" };
	static const char *const prefix_bad[] = { "", "Ep", "eP", "1ep", "e_p", "e-p" };

	(void)state;
	ALL_ARE(fastmib_name_is_model, model_ok, true);
	ALL_ARE(fastmib_name_is_model, model_bad, false);
	ALL_ARE(fastmib_name_is_module, module_ok, true);
	ALL_ARE(fastmib_name_is_module, module_bad, false);
	ALL_ARE(fastmib_name_is_prefix, prefix_ok, true);
	ALL_ARE(fastmib_name_is_prefix, prefix_bad, false);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_syntax),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
