/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the fastpath tests. */
#ifndef FASTMIB_TUTIL_H
#define FASTMIB_TUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

/*
 * rte_eal_remote_launch()/rte_eal_wait_lcore() synchronize inside the
 * (uninstrumented) EAL, invisible to ThreadSanitizer. These wrappers add
 * an explicit release/acquire pair on each side so TSan sees the same
 * happens-before edges the EAL provides.
 */
struct tu_call {
	lcore_function_t *fn;
	void *arg;
	unsigned go, done;
};
static struct tu_call tu_calls[RTE_MAX_LCORE];

static inline int
tu_tramp(void *p)
{
	struct tu_call *c = p;
	int rc;

	(void)__atomic_load_n(&c->go, __ATOMIC_ACQUIRE);
	rc = c->fn(c->arg);
	__atomic_fetch_add(&c->done, 1, __ATOMIC_RELEASE);
	return rc;
}

static inline int
tu_launch(lcore_function_t *fn, void *arg, unsigned lcore)
{
	struct tu_call *c = &tu_calls[lcore];

	c->fn = fn;
	c->arg = arg;
	__atomic_fetch_add(&c->go, 1, __ATOMIC_RELEASE);
	return rte_eal_remote_launch(tu_tramp, c, lcore);
}

static inline int
tu_wait(unsigned lcore)
{
	int rc = rte_eal_wait_lcore(lcore);

	(void)__atomic_load_n(&tu_calls[lcore].done, __ATOMIC_ACQUIRE);
	return rc;
}

/* Start a real EAL without hugepages or devices; `lcores` as for --lcores. */
static inline void
tu_eal_init(const char *name, const char *lcores)
{
	char prefix[64];
	char *argv[] = { (char *)name, "--no-huge", "--no-pci", "--no-shconf",
			 "--no-telemetry", "-m", "64", "--lcores", (char *)lcores,
			 "--file-prefix", prefix, "--log-level", "lib.eal:error", NULL };

	snprintf(prefix, sizeof(prefix), "fmt%d", (int)getpid());
	if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv) < 0) {
		fprintf(stderr, "%s: rte_eal_init failed\n", name);
		exit(1);
	}
}

/* A unique segment path for this process. */
static inline const char *
tu_path(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/dev/shm/fastmib-test-%d-%s", (int)getpid(), tag);
	return buf;
}

#endif
