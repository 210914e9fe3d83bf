/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the pure parts of the serving core: value conversion,
 * TimeStamp arithmetic, DateAndTime, the notification bucket. The index
 * <-> row mapping and the row lower bound that GETNEXT relies on are
 * tested with the OID map (tests/format).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fastmib/schema.h"
#include "core.h"
#include "ratelimit.h"

static void
test_counter32_wraps(void **state)
{
	(void)state;
	assert_int_equal(fastmib_reported_value(FASTMIB_COUNTER32, 0), 0);
	assert_int_equal(fastmib_reported_value(FASTMIB_COUNTER32, UINT32_MAX), UINT32_MAX);
	assert_int_equal(fastmib_reported_value(FASTMIB_COUNTER32, 1ull << 32), 0);
	assert_int_equal(fastmib_reported_value(FASTMIB_COUNTER32, (1ull << 32) + 0x100), 0x100);
}

static void
test_gauge32_clamps(void **state)
{
	(void)state;
	assert_int_equal(fastmib_reported_value(FASTMIB_GAUGE32, 3800), 3800);
	assert_int_equal(fastmib_reported_value(FASTMIB_GAUGE32, (uint64_t)-1), 0);
	assert_int_equal(fastmib_reported_value(FASTMIB_GAUGE32, (uint64_t)INT64_MIN), 0);
	assert_int_equal(fastmib_reported_value(FASTMIB_GAUGE32, UINT32_MAX), UINT32_MAX);
	assert_int_equal(fastmib_reported_value(FASTMIB_GAUGE32, 1ull << 33), UINT32_MAX);
}

static void
test_timestamp(void **state)
{
	const uint64_t s = 1000000000ull, start = 100 * s;

	(void)state;
	/* never reset */
	assert_int_equal(fma_timestamp(0, start, 5000), 0);
	/* 12.345 s after the agent started: 1234 cs, whatever the uptime now */
	assert_int_equal(fma_timestamp(start + 12345000000ull, start, 5000),
			 1234);
	assert_int_equal(fma_timestamp(start + 12345000000ull, start, 9000),
			 1234);
	/* before the agent started */
	assert_int_equal(fma_timestamp(start - 1, start, 5000), 0);
	/* clock stepped forward: never later than now */
	assert_int_equal(fma_timestamp(start + 80 * s, start, 5000), 5000);
}

static void
test_date_and_time(void **state)
{
	uint8_t dt[FMA_DATETIME_LEN];
	/* 2026-11-22 07:09:27.389 UTC */
	uint64_t ns = 1795331367389000000ull;
	static const uint8_t want[] = { 0x07, 0xea, 11, 22, 7, 9, 27, 3, '+', 0, 0 };

	(void)state;
	assert_int_equal(fma_date_and_time(ns, dt), 11);
	assert_memory_equal(dt, want, sizeof(want));
	/* the epoch, and the last decisecond of a day */
	fma_date_and_time(0, dt);
	assert_memory_equal(dt, ((uint8_t[]){ 0x07, 0xb2, 1, 1, 0, 0, 0, 0 }), 8);
	fma_date_and_time(86399999999999ull, dt);
	assert_memory_equal(dt, ((uint8_t[]){ 0x07, 0xb2, 1, 1, 23, 59, 59, 9 }), 8);
}

static void
test_bucket_burst_then_rate(void **state)
{
	struct fma_bucket b;
	uint64_t t = 5000000000ull;
	unsigned int sent = 0;

	(void)state;
	fma_bucket_init(&b, 10, 20, t);
	/* a full burst at once, then nothing */
	for (int i = 0; i < 100; i++)
		sent += fma_bucket_take(&b, t);
	assert_int_equal(sent, 20);
	/* 10 per second afterwards: one per 100 ms, none in between */
	assert_false(fma_bucket_take(&b, t + 99999999));
	assert_true(fma_bucket_take(&b, t + 100000000));
	assert_false(fma_bucket_take(&b, t + 100000000));
	sent = 0;
	for (uint64_t ms = 101; ms <= 1100; ms++)
		sent += fma_bucket_take(&b, t + ms * 1000000);
	assert_int_equal(sent, 10);
	/* a long pause refills the burst, not more */
	sent = 0;
	for (int i = 0; i < 100; i++)
		sent += fma_bucket_take(&b, t + 3600000000000ull);
	assert_int_equal(sent, 20);
	/* rate 0 sends nothing; time going backwards takes no credit */
	fma_bucket_init(&b, 0, 20, t);
	assert_false(fma_bucket_take(&b, t + 1000000000000ull));
	fma_bucket_init(&b, 1, 1, t);
	assert_true(fma_bucket_take(&b, t));
	assert_false(fma_bucket_take(&b, t - 1000000000ull));
	assert_false(fma_bucket_take(&b, t + 999999999));
	assert_true(fma_bucket_take(&b, t + 1000000000));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter32_wraps),
		cmocka_unit_test(test_gauge32_clamps),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_date_and_time),
		cmocka_unit_test(test_bucket_burst_then_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
