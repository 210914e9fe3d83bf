/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What users name, found in a schema: groups and events by model name or
 * MIB descriptor style, table rows from their index values as text
 * (fastpath/format/lookup.c), on the hand-written test schema.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fastmib/schema.h"
#include "test_schema.h"

static void
test_groups_and_events(void **state)
{
	(void)state;
	assert_int_equal(fastmib_group_by_name(&ts_schema, "flow"), TS_FLOW);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "tsFlow"), TS_FLOW);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "global"), TS_GLOBAL);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "tsGlobal"), TS_GLOBAL);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "Flow"), -1);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "tsflow"), -1);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "ts"), -1);
	assert_int_equal(fastmib_group_by_name(&ts_schema, ""), -1);
	assert_int_equal(fastmib_group_by_name(&ts_schema, "flows"), -1);
	assert_int_equal(fastmib_event_by_name(&ts_ev_schema, "outer"), TS_EV_OUTER);
	assert_int_equal(fastmib_event_by_name(&ts_ev_schema, "tsSampled"), TS_EV_SAMPLED);
	assert_int_equal(fastmib_event_by_name(&ts_ev_schema, "tsouter"), -1);
	assert_int_equal(fastmib_event_by_name(&ts_schema, "outer"), -1); /* no events */
}

/* Table flow: vrf 1..3, queue 1..5, rows 0..14 row-major. */
static void
test_rows_as_text(void **state)
{
	static const struct { const char *text; int64_t row; } cases[] = {
		{ "1.1", 0 }, { "1_2", 1 }, { "2.1", 5 }, { "2_3", 7 }, { "3.5", 14 },
		{ "03.005", 14 }, { "3_5", 14 }, { "1.5", 4 },
		{ "0.1", -1 }, { "4.1", -1 }, { "1.6", -1 }, { "1.0", -1 },
		{ "1", -1 }, { "1.1.1", -1 }, { "", -1 }, { ".1.1", -1 }, { "1..1", -1 },
		{ "1.1.", -1 }, { "1,1", -1 }, { "+1.1", -1 }, { " 1.1", -1 },
		{ "1.1 ", -1 }, { "1.x", -1 }, { "-1.1", -1 },
		{ "18446744073709551617.1", -1 }, { "4294967297.1", -1 },
	};
	const struct fastmib_group_schema *flow = &ts_schema.groups[TS_FLOW];
	const struct fastmib_group_schema *port = &ts_schema.groups[TS_PORT];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (fastmib_row_of_text(flow, cases[i].text) != cases[i].row)
			fail_msg("'%s': %lld, not %lld", cases[i].text,
				 (long long)fastmib_row_of_text(flow, cases[i].text),
				 (long long)cases[i].row);
	assert_int_equal(fastmib_row_of_text(port, "4"), 3);
	assert_int_equal(fastmib_row_of_text(port, "5"), -1);
	assert_int_equal(fastmib_row_of_text(port, "1.1"), -1);
	assert_int_equal(fastmib_row_of_text(&ts_schema.groups[TS_GLOBAL], "1"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_and_events),
		cmocka_unit_test(test_rows_as_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
