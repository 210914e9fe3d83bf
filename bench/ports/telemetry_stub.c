/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A DPDK application that answers telemetry at no cost: the reference of
 * the ports benchmark. It speaks DPDK 22.11's telemetry v2 protocol on
 * DIR/dpdk_telemetry.v2 (a hello on connect, one JSON answer per command)
 * for N ports named net_stubK, with answers of the shapes dpdk-testpmd
 * gives, written from memory: what remains of a walk served from it is the
 * agent's and snmpd's own cost.
 *
 *   fastmib-telemetry-stub DIR N
 *
 * It prints "ready" once it listens and "connected T" at each connection,
 * T fastmib_monotonic_ns(), CLOCK_MONOTONIC in nanoseconds (a test's clock too: the
 * time from the connection to the rows counts even if it waited for its
 * serving process to start), and ends at end of input.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fastmib/reader.h"

#define MAX_CLIENTS 16

static unsigned long n_ports;

/* The answer to `cmd` in `out`; its length. */
static int
answer(const char *cmd, char *out, size_t size)
{
	char name[64];
	const char *comma = strchr(cmd, ',');
	unsigned long id = comma ? strtoul(comma + 1, NULL, 10) : 0;
	size_t n = comma ? (size_t)(comma - cmd) : strlen(cmd);
	bool known = comma && id < n_ports;

	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, cmd, n);
	name[n] = '\0';
	if (strcmp(name, "/ethdev/list") == 0) {
		int o = snprintf(out, size, "{\"/ethdev/list\":[");

		for (unsigned long i = 0; i < n_ports && (size_t)o < size - 16; i++)
			o += snprintf(out + o, size - (size_t)o, "%s%lu", i ? "," : "", i);
		return o + snprintf(out + o, size - (size_t)o, "]}");
	}
	if (known && strcmp(name, "/ethdev/info") == 0)
		return snprintf(out, size, "{\"/ethdev/info\":{\"name\":\"net_stub%lu\",\"state\":1,"
				"\"nb_rx_queues\":1,\"nb_tx_queues\":1,\"port_id\":%lu,"
				"\"mtu\":1500,\"rx_mbuf_size_min\":2176,"
				"\"mac_addr\":\"92:F0:4A:1F:%02lX:%02lX\",\"promiscuous\":1,"
				"\"scattered_rx\":0,\"all_multicast\":1,\"dev_started\":1,"
				"\"lro\":0,\"dev_configured\":1}}", id, id, id >> 8, id & 0xff);
	if (known && strcmp(name, "/ethdev/link_status") == 0)
		return snprintf(out, size, "{\"/ethdev/link_status\":{\"status\":\"UP\","
				"\"speed\":10000,\"duplex\":\"full-duplex\"}}");
	if (known && strcmp(name, "/ethdev/stats") == 0)
		return snprintf(out, size, "{\"/ethdev/stats\":{\"ipackets\":%lu,"
				"\"opackets\":%lu,\"ibytes\":0,\"obytes\":0,\"imissed\":0,"
				"\"ierrors\":0,\"oerrors\":0,\"rx_nombuf\":0,"
				"\"q_ipackets\":[%lu],\"q_opackets\":[%lu]}}",
				1000 + id, 2000 + id, 1000 + id, 2000 + id);
	if (known && strcmp(name, "/ethdev/xstats") == 0)
		return snprintf(out, size, "{\"/ethdev/xstats\":{\"rx_good_packets\":%lu,"
				"\"tx_good_packets\":%lu}}", 1000 + id, 2000 + id);
	return snprintf(out, size, "{\"%s\":null}", name);
}

int
main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd pfd[MAX_CLIENTS + 2];
	unsigned int n_clients = 0;
	static char in[4096], out[65536];
	int lfd;

	if (argc != 3 || (n_ports = strtoul(argv[2], NULL, 10)) == 0 || n_ports > 65535) {
		fprintf(stderr, "usage: fastmib-telemetry-stub DIR N\n");
		return 2;
	}
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/dpdk_telemetry.v2",
			     argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "fastmib-telemetry-stub: %s: path too long\n", argv[1]);
		return 1;
	}
	unlink(sa.sun_path);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 16) < 0) {
		fprintf(stderr, "fastmib-telemetry-stub: %s: %s\n", sa.sun_path, strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	pfd[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = lfd, .events = POLLIN };
	for (;;) {
		if (poll(pfd, n_clients + 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents && read(STDIN_FILENO, in, sizeof(in)) <= 0)
			break;
		if (pfd[1].revents & POLLIN) {
			int c = accept(lfd, NULL, NULL);

			if (c >= 0 && n_clients < MAX_CLIENTS) {
				int len = snprintf(out, sizeof(out), "{\"version\":\"DPDK 22.11 (stub)\","
						   "\"pid\":%d,\"max_output_len\":16384}",
						   (int)getpid());
				printf("connected %" PRIu64 "\n", fastmib_monotonic_ns());
				fflush(stdout);
				send(c, out, (size_t)len, MSG_NOSIGNAL);
				pfd[2 + n_clients++] = (struct pollfd){ .fd = c, .events = POLLIN };
			} else if (c >= 0) {
				close(c);
			}
		}
		for (unsigned int i = 0; i < n_clients; i++) {
			ssize_t n;

			if (!pfd[2 + i].revents)
				continue;
			n = recv(pfd[2 + i].fd, in, sizeof(in) - 1, 0);
			if (n <= 0) {
				close(pfd[2 + i].fd);
				pfd[2 + i] = pfd[2 + --n_clients];
				i--;
				continue;
			}
			in[n] = '\0';
			n = answer(in, out, sizeof(out));
			send(pfd[2 + i].fd, out, (size_t)n, MSG_NOSIGNAL);
		}
	}
	unlink(sa.sun_path);
	return 0;
}
