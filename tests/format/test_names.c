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

static void
expect(enum fastmib_name_role role, const char *a, const char *b, const char *want)
{
	char buf[256];

	assert_int_equal(fastmib_name(buf, sizeof(buf), role, "ep", a, b), strlen(want));
	assert_string_equal(buf, want);
}

static void
test_mib_descriptors(void **state)
{
	(void)state;
	expect(FASTMIB_MIB_ROOT, NULL, NULL, "epMib");
	expect(FASTMIB_MIB_RESET_ALL, NULL, NULL, "epResetAll");
	expect(FASTMIB_MIB_DISCONTINUITY, NULL, NULL, "epDiscontinuityTime");
	expect(FASTMIB_MIB_CONTROL_GROUP, NULL, NULL, "epControlGroup");
	expect(FASTMIB_MIB_EVENT_STATS_DROPPED, NULL, NULL, "epEventStatsDropped");
	expect(FASTMIB_MIB_EVENT_ARG1 + 2, NULL, NULL, "epEventArg3");
	expect(FASTMIB_MIB_SCALAR_NODE, "global", NULL, "epGlobal");
	expect(FASTMIB_MIB_TABLE, "portQueue", NULL, "epPortQueueTable");
	expect(FASTMIB_MIB_ENTRY, "portQueue", NULL, "epPortQueueEntry");
	expect(FASTMIB_MIB_RESET, "port", NULL, "epPortReset");
	expect(FASTMIB_MIB_GROUP_DISCONTINUITY, "port", NULL, "epPortDiscontinuityTime");
	expect(FASTMIB_MIB_OBJECT_GROUP, "flow", NULL, "epFlowGroup");
	expect(FASTMIB_MIB_COUNTER, "global", "rxPkts", "epGlobalRxPkts");
	expect(FASTMIB_MIB_INDEX, "portQueue", "queueId", "epPortQueueQueueId");
	expect(FASTMIB_MIB_NOTIFICATION, "badHeader", NULL, "epBadHeaderNotification");
	expect(FASTMIB_MIB_TYPE_ENTRY, "portQueue", NULL, "EpPortQueueEntry");
	expect(FASTMIB_MIB_TYPE_UNSIGNED64, NULL, NULL, "EpUnsigned64");
	for (int r = FASTMIB_MIB_ROOT; r < FASTMIB_MIB_TYPE_ENTRY; r++)
		assert_int_equal(fastmib_name_space(r), FASTMIB_NS_MIB);
	assert_int_equal(fastmib_name_space(FASTMIB_MIB_TYPE_EVENT_ENTRY), FASTMIB_NS_MIB_TYPE);
}

static void
test_c_names(void **state)
{
	(void)state;
	expect(FASTMIB_C_HEADER_GUARD, NULL, NULL, "EP_STATS_H");
	expect(FASTMIB_C_SCHEMA_HASH, NULL, NULL, "EP_SCHEMA_HASH");
	expect(FASTMIB_C_SCHEMA, NULL, NULL, "ep_schema");
	expect(FASTMIB_C_CREATE, NULL, NULL, "ep_create");
	expect(FASTMIB_C_ATTACH, NULL, NULL, "ep_attach");
	expect(FASTMIB_C_PERCORE_STRUCT, NULL, NULL, "ep_percore");
	expect(FASTMIB_C_GROUP_ID, "portQueue", NULL, "EP_GROUP_PORT_QUEUE");
	expect(FASTMIB_C_OFFSET, "portQueue", NULL, "EP_PORT_QUEUE_OFFSET");
	expect(FASTMIB_C_ROW_SIZE, "portQueue", NULL, "EP_PORT_QUEUE_ROW_SIZE");
	expect(FASTMIB_C_ROWS, "portQueue", NULL, "EP_PORT_QUEUE_ROWS");
	expect(FASTMIB_C_ROW_FN, "portQueue", NULL, "ep_port_queue_row");
	expect(FASTMIB_C_ROW_STRUCT, "portQueue", NULL, "ep_port_queue_row");
	expect(FASTMIB_C_COUNTERS, "flowState", NULL, "ep_flow_state_counters");
	expect(FASTMIB_C_INDEX_MAX, "portQueue", "queueId", "EP_PORT_QUEUE_QUEUE_ID_MAX");
	expect(FASTMIB_C_ADD, "global", "rxPkts", "ep_global_rx_pkts_add");
	expect(FASTMIB_C_SUB, "flowState", "activeFlows", "ep_flow_state_active_flows_sub");
	expect(FASTMIB_C_SET, "flowState", "activeFlows", "ep_flow_state_active_flows_set");
	expect(FASTMIB_C_EVENT_ID, "burstStart", NULL, "EP_EVENT_BURST_START");
	expect(FASTMIB_C_EVENT_FN, "burstStart", NULL, "ep_event_burst_start");
	assert_int_equal(fastmib_name_space(FASTMIB_C_ROW_FN), FASTMIB_NS_C_ORDINARY);
	assert_int_equal(fastmib_name_space(FASTMIB_C_ROW_STRUCT), FASTMIB_NS_C_TAG);
	assert_int_equal(fastmib_name_space(FASTMIB_C_INDEX_MAX), FASTMIB_NS_C_MACRO);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mib_descriptors),
		cmocka_unit_test(test_c_names),
		cmocka_unit_test(test_lengths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
