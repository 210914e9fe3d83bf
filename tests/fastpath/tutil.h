/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the fastpath tests. */
#ifndef FASTMIB_TUTIL_H
#define FASTMIB_TUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

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
