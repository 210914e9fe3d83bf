/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the pure parts of the registrations' answers: the delay
 * between two tries of a refused registration (at most 30 s), the names
 * of snmpd's refusals in the messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "axreg.h"

static void
test_delays(void **state)
{
	static const unsigned int want[] = { 1, 1, 2, 4, 8, 16, 30, 30, 30 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(fma_axreg_delay(i), want[i]);
	for (unsigned int i = 6; i < 1000; i++)
		assert_int_equal(fma_axreg_delay(i), FMA_AXREG_DELAY_MAX);
	assert_int_equal(fma_axreg_delay(~0u), 30);
}

static void
test_error_names(void **state)
{
	(void)state;
	assert_string_equal(fma_axreg_error_name(263), "duplicateRegistration");
	assert_string_equal(fma_axreg_error_name(267), "requestDenied");
	assert_string_equal(fma_axreg_error_name(256), "openFailed");
	assert_string_equal(fma_axreg_error_name(268), "processingError");
	assert_string_equal(fma_axreg_error_name(FMA_AXREG_NO_ANSWER), "no answer (timeout)");
	assert_string_equal(fma_axreg_error_name(FMA_AXREG_NOT_SENT), "not sent");
	assert_string_equal(fma_axreg_error_name(269), "an unknown error");
	assert_string_equal(fma_axreg_error_name(255), "an unknown error");
	assert_string_equal(fma_axreg_error_name(0), "none");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delays),
		cmocka_unit_test(test_error_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
