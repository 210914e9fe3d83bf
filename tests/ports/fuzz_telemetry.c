/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target of what a DPDK application answers over its telemetry
 * socket, through the client (ethdev/telemetry_client.c, json_load.c) and
 * the parsers that make readings of the replies (ethdev/reading.c), as
 * the agent and fastmib-stat use them: the hello, /ethdev/list, and each
 * port's /ethdev/info, /ethdev/link_status, /ethdev/stats and
 * /ethdev/xstats, in time and late.
 *
 * The input is the application's side: a first line with the number of
 * messages it sends before the agent asks, then one message per line (the
 * hello first, then a reply per command in the order the agent sends
 * them: the list, then up to four ports' parts). The rest come after the
 * queries gave up, as late replies. The fuzzer plays the application on a
 * real SOCK_SEQPACKET socket. What is checked besides crashes, leaks and
 * undefined behaviour: a text the client parses is JSON (jansson reading
 * every number as a real agrees), and a reading names its device by a
 * non-empty, terminated name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/reading.h"

#define MAX_MSGS 64
#define MAX_PORTS 4

static char dir[200], sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

struct msg {
	const char *text;
	size_t len;
};

/* A text the client parses must be JSON: jansson agrees when it reads
 * every number as a real (which a number too long for a double, more
 * than 308 digits, cannot be). */
static void
check_json(const char *text, size_t len)
{
	json_t *ours = fme_tel_json_load(text, len), *ref;
	json_error_t err;
	size_t run = 0;
	bool huge = false;

	if (!ours)
		return;
	json_decref(ours);
	for (size_t i = 0; i < len; i++) {
		run = text[i] >= '0' && text[i] <= '9' ? run + 1 : 0;
		huge |= run > 308;
	}
	ref = json_loadb(text, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL, &err);
	if (!ref && !huge)
		abort();
	json_decref(ref);
}

static void
check_reading(const struct fme_port_reading *r)
{
	if (!(r->parts & FME_PORT_INFO))
		return;
	if (!r->name[0] || memchr(r->name, '\0', sizeof(r->name)) == NULL)
		abort();
}

/* A late reply, taken as the agent takes it (subagent/ports/app.c). */
static void
late(const char *cmd, uint64_t sent_ns, const json_t *value, void *arg)
{
	struct fme_port_reading r;
	uint16_t ids[16];

	(void)sent_ns, (void)arg;
	if (strcmp(cmd, "/ethdev/list") == 0) {
		(void)fme_port_parse_list(value, ids, 16);
		return;
	}
	if (fme_port_parse_reply(cmd, value, &r) == 0)
		check_reading(&r);
}

static unsigned int
split(const uint8_t *data, size_t size, struct msg *m, unsigned int *before)
{
	const char *p = (const char *)data, *end = p + size;
	unsigned int n = 0;
	char num[8] = "";
	const char *nl = memchr(p, '\n', size);

	if (!nl)
		return 0;
	memcpy(num, p, (size_t)(nl - p) < sizeof(num) - 1 ? (size_t)(nl - p) : sizeof(num) - 1);
	*before = (unsigned int)strtoul(num, NULL, 10);
	for (p = nl + 1; p < end && n < MAX_MSGS; n++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		m[n].text = p;
		m[n].len = (size_t)((nl ? nl : end) - p);
		p = nl ? nl + 1 : end;
	}
	return n;
}

static void
send_msgs(int fd, const struct msg *m, unsigned int from, unsigned int to)
{
	for (unsigned int i = from; i < to; i++)
		if (send(fd, m[i].len ? m[i].text : " ", m[i].len ? m[i].len : 1,
			 MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
			break; /* the socket is full: the rest is not sent */
}

static void
talk(struct fme_tel *t, int app, const struct msg *m, unsigned int n, unsigned int before)
{
	struct fme_port_ask asks[MAX_PORTS];
	struct fme_port_reading out[MAX_PORTS];
	uint16_t ids[16];
	int got;

	if (before > n)
		before = n;
	send_msgs(app, m, 0, before);
	if (fme_tel_connect(t, 1) != 0)
		return;
	got = fme_tel_list_ports(t, ids, 16, 1);
	for (int i = 0; i < got && i < MAX_PORTS; i++) {
		asks[i].port = ids[i];
		asks[i].parts = FME_PORT_ALL;
	}
	if (got > 0 && fme_tel_read_ports(t, asks, got < MAX_PORTS ? (unsigned int)got
					  : MAX_PORTS, out, 1) == 0)
		for (int i = 0; i < got && i < MAX_PORTS; i++)
			check_reading(&out[i]);
	send_msgs(app, m, before, n);
	(void)fme_tel_poll(t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct msg m[MAX_MSGS];
	unsigned int before = 0, n = split(data, size, m, &before);
	struct fme_tel *t;
	int lfd, app;

	for (unsigned int i = 0; i < n; i++)
		check_json(m[i].text, m[i].len);
	if (!dir[0]) {
		/* in the run's temporary directory (TMPDIR), removed after each input */
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz-tel-%d", tmp ? tmp : "/tmp", (int)getpid());
		snprintf(sock_path, sizeof(sock_path), "%s/" FME_TEL_SOCKET_NAME, dir);
	}
	if (mkdir(dir, 0700) != 0)
		abort();
	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 1) != 0)
		abort();
	if (fme_tel_new(dir, &t) != 0)
		abort();
	fme_tel_on_late(t, late, NULL);
	/* connected, no hello yet: the application accepts, then talks */
	if (fme_tel_connect(t, 0) != -EINPROGRESS)
		abort();
	app = accept(lfd, NULL, NULL);
	if (app < 0)
		abort();
	talk(t, app, m, n, before);
	fme_tel_free(t);
	close(app);
	close(lfd);
	unlink(sock_path);
	if (rmdir(dir) != 0)
		abort();
	return 0;
}
