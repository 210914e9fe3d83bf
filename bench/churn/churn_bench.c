/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow churn beside a frozen resetter. The fast path of a flow table
 * enables a row for each new flow and disables it when the flow ends; a
 * row enable stores the recycled row's baseline. This measures that loop
 * (enable, one transaction of updates, disable) with the reset lock free,
 * then with it held by another process that is stopped (SIGSTOP) while
 * holding it, as a `fastmib-stat --reset` stopped in a debugger would be,
 * side by side in one run. The fast path must not notice: no call of it
 * waits on a lock or state another process controls.
 *
 *   fastmib-bench-churn [EAL options] -- [--flows N] [--runs R]
 *
 * Prints TSC cycles per flow (median, min..max over runs) in each case,
 * and their ratio; fails if any enable or disable fails.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "bench_util.h"
#include "ep_stats.h"
#include "handle.h" /* the reset lock, to hold it as a frozen resetter would */

#define MAX_RUNS 64

static uint64_t
churn(struct fastmib_segment *seg, struct fastmib_writer *w, uint32_t flows)
{
	uint64_t t0 = rte_rdtsc();

	for (uint32_t i = 0; i < flows; i++) {
		uint32_t row = i % EP_FLOW_ROWS;

		if (fastmib_row_enable(seg, EP_GROUP_FLOW, row) != 0 ||
		    (fastmib_begin(w), ep_flow_pkts_add(w, row, 1),
		     ep_flow_bytes_add(w, row, 64), fastmib_end(w),
		     fastmib_row_disable(seg, EP_GROUP_FLOW, row)) != 0) {
			fprintf(stderr, "churn: row %u: %s\n", row, fastmib_last_error());
			exit(1);
		}
	}
	return rte_rdtsc() - t0;
}

/* A process that takes the reset lock and stops itself while holding it. */
static pid_t
frozen_resetter(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct fastmib_segment *rd;
		uint32_t free_owner = 0;

		if (fastmib_attach(path, 0, &rd) != 0 ||
		    !__atomic_compare_exchange_n(&rd->reset_head->owner_pid, &free_owner,
						 (uint32_t)getpid(), false, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED))
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	return pid;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flows", required_argument, NULL, 'f' },
		{ "runs", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	double free_c[MAX_RUNS], held_c[MAX_RUNS];
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	uint32_t flows = 200000;
	int runs = 5, c, status;
	char path[128];
	pid_t holder;

	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'f')
			flows = (uint32_t)strtoul(optarg, NULL, 10);
		else if (c == 'r')
			runs = atoi(optarg);
		else
			return 2;
	}
	if (runs < 1 || runs > MAX_RUNS || flows == 0)
		return 2;
	snprintf(path, sizeof(path), "/dev/shm/fastmib-bench-%schurn-%d", bench_tag(),
		 (int)getpid());
	if (ep_create(path, NULL, &seg) != 0 || !(w = fastmib_writer(seg))) {
		fprintf(stderr, "churn: %s\n", fastmib_last_error());
		return 1;
	}
	holder = frozen_resetter(path);
	if (holder < 0 || waitpid(holder, &status, WUNTRACED) != holder || !WIFSTOPPED(status)) {
		fprintf(stderr, "churn: the resetter did not take the lock\n");
		return 1;
	}
	/* alternate, so that drifts of the machine hit both cases alike */
	for (int r = 0; r < runs; r++) {
		__atomic_store_n(&seg->reset_head->owner_pid, 0, __ATOMIC_RELEASE);
		free_c[r] = (double)churn(seg, w, flows) / flows;
		__atomic_store_n(&seg->reset_head->owner_pid, (uint32_t)holder, __ATOMIC_RELEASE);
		held_c[r] = (double)churn(seg, w, flows) / flows;
	}
	kill(holder, SIGKILL);
	waitpid(holder, &status, 0);
	{
		struct bench_spread f = bench_spread(free_c, (unsigned)runs);
		struct bench_spread h = bench_spread(held_c, (unsigned)runs);

		printf("%-30s %12s %20s\n", "reset lock", "cycles/flow", "(min..max)");
		printf("%-30s %12.1f %9.1f..%-9.1f\n", "free", f.med, f.lo, f.hi);
		printf("%-30s %12.1f %9.1f..%-9.1f\n", "held by a stopped resetter", h.med,
		       h.lo, h.hi);
		printf("ratio held/free: %.2f (%d runs of %u flows each: enable, one "
		       "transaction of 2 updates, disable)\n", h.med / f.med, runs, flows);
	}
	fastmib_close(seg);
	unlink(path);
	rte_eal_cleanup();
	return 0;
}
