/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test process that is both a DPDK application with telemetry on and a
 * client of its own telemetry socket, as dpdk-telemetry.py is a client of
 * an application's. Include after <cmocka.h> and "tutil.h".
 */
#ifndef FASTMIB_TELCLIENT_H
#define FASTMIB_TELCLIENT_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>

/* Start a real EAL with telemetry on, without hugepages or devices, and
 * without shared config (--no-shconf: the runtime directory then holds the
 * telemetry socket only); `lcores` as for --lcores. */
static inline void
tu_tel_eal_start(const char *prog, const char *lcores)
{
	static char prefix[64];
	char *argv[] = { (char *)prog, "--no-huge", "--no-pci", "--no-shconf", "-m", "64",
			 "--lcores", (char *)lcores, "--file-prefix", prefix,
			 "--log-level", "lib.eal:error", NULL };

	snprintf(prefix, sizeof(prefix), "%s-tel%d", tu_tag(), (int)getpid());
	if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv) < 0) {
		fprintf(stderr, "%s: rte_eal_init failed\n", prog);
		exit(1);
	}
}

/* rte_eal_cleanup(), then the socket and the runtime directory: nothing
 * is left behind. */
static inline void
tu_tel_eal_stop(void)
{
	char dir[4096], sock[4200];

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	snprintf(sock, sizeof(sock), "%s/dpdk_telemetry.v2", dir);
	unlink(sock);
	rmdir(dir);
}

/* A connection to this process's telemetry socket, its greeting read. */
static inline int
tu_tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char hello[1024];
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	assert_int_equal(connect(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_true(recv(fd, hello, sizeof(hello), 0) > 0);
	return fd;
}

#endif
