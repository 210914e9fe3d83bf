/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libfastmib logs through its own logtype, lib.fastmib, set as any DPDK
 * logtype is: by --log-level on the EAL command line (given here, as an
 * application's user would) or by rte_log_set_level*() later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rte_eal.h>
#include <rte_log.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "tutil.h"

/* What libfastmib logged while `fn` ran. */
static char *
captured(void (*fn)(void))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(rte_openlog_stream(f), 0);
	fn();
	rte_openlog_stream(NULL);
	fclose(f);
	return text;
}

static void
create_and_close(void)
{
	struct fastmib_segment *seg = NULL;
	char path[256];

	tu_path(path, sizeof(path), "log");
	assert_int_equal(fastmib_create(&ts_schema, path, NULL, &seg), 0);
	fastmib_close(seg);
	unlink(path);
}

static int
logtype(void)
{
	int t = rte_log_register("lib.fastmib"); /* the existing one's id */

	assert_true(t >= 0);
	return t;
}

static void
test_level_from_command_line(void **state)
{
	char *text = captured(create_and_close);

	(void)state;
	/* main() passed --log-level lib.fastmib:debug */
	assert_int_equal(rte_log_get_level(logtype()), RTE_LOG_DEBUG);
	assert_non_null(strstr(text, "fastmib: created /dev/shm/fastmib-test-"));
	assert_non_null(strstr(text, "FASTMIB-TEST-MIB generation 1"));
	free(text);
}

static void
test_message_follows_level(void **state)
{
	char *text;

	(void)state;
	assert_int_equal(rte_log_set_level_pattern("lib.fastmib", RTE_LOG_INFO), 0);
	text = captured(create_and_close);
	assert_null(strstr(text, "fastmib: created"));
	free(text);
	assert_int_equal(rte_log_set_level_pattern("lib.fast*", RTE_LOG_DEBUG), 0);
	text = captured(create_and_close);
	assert_non_null(strstr(text, "fastmib: created"));
	free(text);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level_from_command_line),
		cmocka_unit_test(test_message_follows_level),
	};
	char prefix[4096];
	char *eal[] = { argv[0], "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
			"-m", "64", "-l", "0", "--file-prefix", prefix,
			"--log-level", "lib.eal:error", "--log-level", "lib.fastmib:debug", NULL };
	int rc;

	(void)argc;
	snprintf(prefix, sizeof(prefix), "%s-l%d", tu_tag(), (int)getpid());
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])) - 1, eal) < 0) {
		fprintf(stderr, "%s: rte_eal_init failed\n", argv[0]);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(prefix, sizeof(prefix), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	rmdir(prefix); /* empty: no shared configuration, no telemetry */
	return rc;
}
