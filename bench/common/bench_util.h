/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the benchmark programs: starting the EAL, and the
 * median and spread of a figure measured over repeated runs. */
#ifndef FASTMIB_BENCH_UTIL_H
#define FASTMIB_BENCH_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

/* At exit: the EAL's runtime directory, which DPDK leaves behind; removed
 * when empty (the benchmarks' --no-shconf --no-telemetry runs). */
static inline void
bench_remove_runtime_dir(void)
{
	rmdir(rte_eal_get_runtime_dir());
}

/* What a benchmark's segment name starts with after /dev/shm/fastmib-bench-:
 * under ctest (the smoke runs), the test run's tag, so that the suite can
 * tell what it left behind (tests/leftovers/leftovers.py); else nothing. */
static inline const char *
bench_tag(void)
{
	const char *tag = getenv("FASTMIB_TEST_TAG");

	return tag != NULL ? tag : "";
}

/*
 * rte_eal_init(), saying why on failure. On success *argc and *argv are
 * advanced past the EAL's arguments, so that the program's own options
 * follow (*argv)[0] as getopt expects. Returns 0, or -1. The runtime
 * directory goes at exit when nothing is left in it.
 */
static inline int
bench_eal_init(int *argc, char ***argv)
{
	int ret;

	atexit(bench_remove_runtime_dir);
	ret = rte_eal_init(*argc, *argv);

	if (ret < 0) {
		fprintf(stderr, "rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	*argc -= ret;
	*argv += ret;
	return 0;
}

/* Whether the program's own help is asked for (--help or -h anywhere):
 * looked at before bench_eal_init(), which would take either for the
 * EAL's and print that instead. */
static inline bool
bench_help_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static inline int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct bench_spread {
	double med, lo, hi;
};

/*
 * Median (the mean of the middle two for an even count), minimum and
 * maximum of v[0..n), n >= 1. Sorts v in place: the runs' order carries
 * no meaning once they are summarised, and no copy limits n.
 */
static inline struct bench_spread
bench_spread(double *v, unsigned int n)
{
	struct bench_spread r;

	qsort(v, n, sizeof(*v), bench_cmp_double);
	r.lo = v[0];
	r.hi = v[n - 1];
	r.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return r;
}

#endif
