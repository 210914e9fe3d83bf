/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Client of DPDK's telemetry socket: connection, pipelined queries with
 * deadlines, and the ethdev replies parsed into port readings. See
 * telemetry.h for the protocol and the rules.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ppoll() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "telemetry.h"

/* Replies are at most max_output_len octets (16384 in DPDK 22.11); the
 * buffer is sized from the hello, within these bounds. */
#define TEL_BUF_MIN 16384u
#define TEL_BUF_MAX (1u << 20)

struct fastmib_tel {
	char *path;                 /* as configured */
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd;                     /* -1: not connected */
	bool ready;                 /* hello read */
	unsigned int owed;          /* replies still to come for sent commands */
	long pid;
	char version[64];
	char *buf;
	size_t buf_len;
	char err[512];
	struct fastmib_tel_counts counts;
};

static uint64_t
tel_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
tel_fail(struct fastmib_tel *t, const char *what, int err, const char *hint)
{
	snprintf(t->err, sizeof(t->err), "%s: %s: %s%s%s%s", t->sock[0] ? t->sock : t->path,
		 what, strerror(err), hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
}

int
fastmib_tel_new(const char *path, struct fastmib_tel **telp)
{
	struct fastmib_tel *t = calloc(1, sizeof(*t));

	*telp = NULL;
	if (!t || !(t->path = strdup(path))) {
		free(t);
		return -ENOMEM;
	}
	t->fd = -1;
	*telp = t;
	return 0;
}

void
fastmib_tel_close(struct fastmib_tel *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->ready = false;
	t->owed = 0;
}

void
fastmib_tel_free(struct fastmib_tel *t)
{
	if (!t)
		return;
	fastmib_tel_close(t);
	free(t->buf);
	free(t->path);
	free(t);
}

/*
 * The socket for the configured path: a directory holds it under its
 * standard name; anything else names the socket itself. A path that does
 * not exist yet is taken for a runtime directory unless its last component
 * is a telemetry socket name, so that the agent may start before the
 * application.
 */
static int
tel_resolve(struct fastmib_tel *t)
{
	const char *base = strrchr(t->path, '/');
	struct stat st;
	bool dir;
	int n;

	base = base ? base + 1 : t->path;
	if (stat(t->path, &st) == 0) {
		dir = S_ISDIR(st.st_mode);
		if (!dir && !S_ISSOCK(st.st_mode)) {
			snprintf(t->sock, sizeof(t->sock), "%s", t->path);
			tel_fail(t, "connect", ENOTSOCK, "neither a telemetry socket nor "
				 "a runtime directory");
			return -ENOTSOCK;
		}
	} else {
		dir = strncmp(base, "dpdk_telemetry", 14) != 0;
	}
	if (dir)
		n = snprintf(t->sock, sizeof(t->sock), "%s%s" FASTMIB_TEL_SOCKET_NAME, t->path,
			     base[0] ? "/" : "");
	else
		n = snprintf(t->sock, sizeof(t->sock), "%s", t->path);
	if (n < 0 || (size_t)n >= sizeof(t->sock)) {
		t->sock[0] = '\0';
		tel_fail(t, "socket path", ENAMETOOLONG, NULL);
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Receive one message, waiting until `deadline` (monotonic ns; 0: do not
 * wait). Returns its length, -ETIMEDOUT, -ECONNRESET (end of stream: the
 * connection is closed) or -EPROTO (longer than the buffer).
 */
static ssize_t
tel_recv(struct fastmib_tel *t, uint64_t deadline)
{
	for (;;) {
		ssize_t n = recv(t->fd, t->buf, t->buf_len - 1, MSG_DONTWAIT | MSG_TRUNC);
		struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
		struct timespec ts;
		uint64_t now;

		if (n > 0) {
			if ((size_t)n >= t->buf_len) {
				tel_fail(t, "reply", EMSGSIZE, "longer than the hello announced");
				fastmib_tel_close(t);
				return -EPROTO;
			}
			t->buf[n] = '\0';
			return n;
		}
		if (n == 0) {
			tel_fail(t, "read", ECONNRESET, "the application closed the connection");
			fastmib_tel_close(t);
			return -ECONNRESET;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			int e = errno;

			tel_fail(t, "read", e, NULL);
			fastmib_tel_close(t);
			return -ECONNRESET;
		}
		now = tel_now_ns();
		if (deadline == 0 || now >= deadline)
			return -ETIMEDOUT;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
		if (ppoll(&pfd, 1, &ts, NULL) < 0 && errno != EINTR)
			return -ETIMEDOUT;
	}
}

static int
tel_buffer(struct fastmib_tel *t, size_t len)
{
	char *b;

	if (len < TEL_BUF_MIN)
		len = TEL_BUF_MIN;
	if (len > TEL_BUF_MAX)
		len = TEL_BUF_MAX;
	len += 1; /* the terminating NUL the parser wants */
	if (t->buf && t->buf_len == len)
		return 0;
	b = realloc(t->buf, len);
	if (!b)
		return -ENOMEM;
	t->buf = b;
	t->buf_len = len;
	return 0;
}

/* The hello: {"version": "...", "pid": N, "max_output_len": N}. */
static int
tel_hello(struct fastmib_tel *t, size_t len)
{
	json_error_t jerr;
	json_t *h = json_loadb(t->buf, len, 0, &jerr), *v;
	const char *ver;
	int rc = -EPROTO;

	if (!h || !json_is_object(h))
		goto out;
	v = json_object_get(h, "pid");
	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		goto out;
	t->pid = (long)json_integer_value(v);
	ver = json_string_value(json_object_get(h, "version"));
	snprintf(t->version, sizeof(t->version), "%s", ver ? ver : "");
	v = json_object_get(h, "max_output_len");
	rc = tel_buffer(t, json_is_integer(v) && json_integer_value(v) > 0
			   ? (size_t)json_integer_value(v) : TEL_BUF_MIN);
out:
	json_decref(h);
	if (rc == -EPROTO)
		tel_fail(t, "hello", EPROTO, "not a DPDK telemetry v2 socket");
	return rc;
}

int
fastmib_tel_connect(struct fastmib_tel *t, unsigned int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t deadline = timeout_ms ? tel_now_ns() + (uint64_t)timeout_ms * 1000000u : 0;
	ssize_t n;
	int rc;

	if (t->ready)
		return 0;
	if (t->fd < 0) {
		rc = tel_resolve(t);
		if (rc < 0)
			return rc;
		rc = tel_buffer(t, TEL_BUF_MIN);
		if (rc < 0)
			return rc;
		t->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (t->fd < 0) {
			rc = -errno;
			tel_fail(t, "socket", -rc, NULL);
			return rc;
		}
		memcpy(sa.sun_path, t->sock, strlen(t->sock) + 1);
		if (connect(t->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			int e = errno;
			const char *hint = NULL;

			switch (e) {
			case ENOENT:
				hint = "no DPDK application with telemetry there yet";
				break;
			case ECONNREFUSED:
				hint = "the socket is left over: the application is not running";
				break;
			case EACCES:
			case EPERM:
				hint = "connecting needs write access to the socket and "
				       "search access to its directories";
				break;
			case EAGAIN:
				hint = "the application does not accept connections now";
				break;
			default:
				break;
			}
			tel_fail(t, "connect", e, hint);
			fastmib_tel_close(t);
			return -e;
		}
		t->owed = 0;
		t->pid = 0;
		t->version[0] = '\0';
	}
	n = tel_recv(t, deadline);
	if (n == -ETIMEDOUT)
		return -EINPROGRESS;
	if (n == -ECONNRESET) {
		tel_fail(t, "hello", ECONNRESET, "closed before the hello: the application "
			 "ends, or already serves as many clients as it allows (10)");
		return -ECONNRESET;
	}
	if (n < 0)
		return (int)n;
	rc = tel_hello(t, (size_t)n);
	if (rc < 0) {
		fastmib_tel_close(t);
		return rc;
	}
	t->ready = true;
	t->err[0] = '\0';
	return 0;
}

bool
fastmib_tel_ready(const struct fastmib_tel *t)
{
	return t->ready;
}

int
fastmib_tel_poll(struct fastmib_tel *t)
{
	if (t->fd < 0)
		return -ENOTCONN;
	if (!t->ready) {
		int rc = fastmib_tel_connect(t, 0);

		if (rc == -EINPROGRESS)
			return -EBUSY;
		if (rc < 0)
			return rc == -ECONNRESET ? rc : -ENOTCONN;
	}
	for (;;) {
		ssize_t n = tel_recv(t, 0);

		if (n == -ETIMEDOUT)
			break;
		if (n < 0)
			return n == -ECONNRESET ? -ECONNRESET : (int)n;
		/* a late reply: its query has given up on it */
		if (t->owed)
			t->owed--;
	}
	return t->owed ? -EBUSY : 0;
}

/* Does reply key `key` answer command `cmd` ("/ethdev/stats,3" -> "/ethdev/stats")? */
static bool
tel_key_matches(const char *key, const char *cmd)
{
	size_t n = strcspn(cmd, ",");

	return strlen(key) == n && strncmp(key, cmd, n) == 0;
}

int
fastmib_tel_query(struct fastmib_tel *t, const char *const *cmds, unsigned int n,
		  json_t **replies, unsigned int timeout_ms)
{
	uint64_t deadline;
	unsigned int got = 0;
	int rc;

	if (n == 0 || n > FASTMIB_TEL_MAX_BATCH)
		return -EINVAL;
	deadline = tel_now_ns() + (uint64_t)(timeout_ms ? timeout_ms : 1) * 1000000u;
	rc = fastmib_tel_poll(t);
	/* replies of a query that gave up a moment ago: wait for them within
	 * this query's time, so that a hiccup of the application costs one
	 * query and not the next ones */
	while (rc == -EBUSY && t->ready) {
		ssize_t len = tel_recv(t, deadline);

		if (len == -ETIMEDOUT)
			return -EBUSY;
		if (len < 0)
			return (int)len;
		t->owed--;
		rc = t->owed ? -EBUSY : 0;
	}
	if (rc < 0)
		return rc;
	t->counts.exchanges++;
	for (unsigned int i = 0; i < n; i++) {
		if (send(t->fd, cmds[i], strlen(cmds[i]), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			int e = errno;

			if (e == EAGAIN || e == EWOULDBLOCK) {
				/* the application is not reading: as late as a reply */
				t->counts.timeouts++;
				return -ETIMEDOUT;
			}
			tel_fail(t, "write", e, NULL);
			fastmib_tel_close(t);
			return -ECONNRESET;
		}
		t->owed++;
		t->counts.commands++;
	}
	for (; got < n; got++) {
		ssize_t len = tel_recv(t, deadline);
		json_error_t jerr;
		json_t *root, *val;
		const char *key;

		if (len < 0) {
			rc = (int)len;
			if (rc == -ETIMEDOUT)
				t->counts.timeouts++;
			goto fail;
		}
		t->owed--;
		root = json_loadb(t->buf, (size_t)len, 0, &jerr);
		if (!root || !json_is_object(root) || json_object_size(root) != 1 ||
		    !(key = json_object_iter_key(json_object_iter(root))) ||
		    !tel_key_matches(key, cmds[got])) {
			json_decref(root);
			tel_fail(t, "reply", EPROTO, "not the answer to the command sent");
			fastmib_tel_close(t);
			rc = -EPROTO;
			goto fail;
		}
		val = json_object_iter_value(json_object_iter(root));
		replies[got] = json_incref(val);
		json_decref(root);
	}
	return 0;
fail:
	for (unsigned int i = 0; i < got; i++) {
		json_decref(replies[i]);
		replies[i] = NULL;
	}
	return rc;
}

long
fastmib_tel_pid(const struct fastmib_tel *t)
{
	return t->pid;
}

const char *
fastmib_tel_version(const struct fastmib_tel *t)
{
	return t->version;
}

const char *
fastmib_tel_socket(const struct fastmib_tel *t)
{
	return t->sock[0] ? t->sock : t->path;
}

const char *
fastmib_tel_error(const struct fastmib_tel *t)
{
	return t->err;
}

void
fastmib_tel_counts(const struct fastmib_tel *t, struct fastmib_tel_counts *out)
{
	*out = t->counts;
}

/* ---- sources ---- */

int
fastmib_port_source_parse(const char *spec, char *path, size_t len, uint32_t *own_base)
{
	const char *comma = strrchr(spec, ',');
	size_t plen = strlen(spec);

	*own_base = 0;
	/* a comma followed by digits only ends the path */
	if (comma && comma[1] && strspn(comma + 1, "0123456789") == strlen(comma + 1)) {
		unsigned long long b;
		char *end;

		errno = 0;
		b = strtoull(comma + 1, &end, 10);
		if (errno || *end || b < 1 || b > FASTMIB_IFINDEX_MAX)
			return -EINVAL;
		*own_base = (uint32_t)b;
		plen = (size_t)(comma - spec);
	}
	if (plen == 0)
		return -EINVAL;
	if (plen >= len)
		return -ENAMETOOLONG;
	memcpy(path, spec, plen);
	path[plen] = '\0';
	return 0;
}

uint32_t
fastmib_port_source_base(uint32_t own_base, uint32_t base, unsigned int order)
{
	uint64_t b;

	if (own_base)
		return own_base;
	b = (uint64_t)base + (uint64_t)FASTMIB_IFINDEX_SPACING * order;
	return b > FASTMIB_IFINDEX_MAX ? FASTMIB_IFINDEX_MAX : (uint32_t)b;
}

/* ---- ethdev replies ---- */

static bool
tel_u64(const json_t *obj, const char *key, uint64_t *out)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return false;
	*out = (uint64_t)json_integer_value(v);
	return true;
}

static int
tel_cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

int
fastmib_port_parse_list(const json_t *reply, uint16_t *ids, unsigned int max)
{
	unsigned int n = 0;
	size_t i;
	json_t *v;

	if (!json_is_array(reply))
		return -EPROTO;
	json_array_foreach(reply, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > UINT16_MAX)
			return -EPROTO;
		if (n < max)
			ids[n++] = (uint16_t)json_integer_value(v);
	}
	qsort(ids, n, sizeof(*ids), tel_cmp_u16);
	return (int)n;
}

/* "92:F0:4A:1F:A7:53" */
static bool
tel_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (!s || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
			 &b[5], &end) != 6)
		return false;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return true;
}

int
fastmib_port_parse_info(const json_t *reply, struct fastmib_port_reading *r)
{
	const char *name = json_string_value(json_object_get(reply, "name"));
	uint64_t mtu, promisc = 0, started = 0;

	if (!json_is_object(reply) || !name || !name[0] || !tel_u64(reply, "mtu", &mtu))
		return -EPROTO;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->mtu = mtu > UINT32_MAX ? UINT32_MAX : (uint32_t)mtu;
	r->mac_ok = tel_mac(json_string_value(json_object_get(reply, "mac_addr")), r->mac);
	tel_u64(reply, "promiscuous", &promisc);
	tel_u64(reply, "dev_started", &started);
	r->promiscuous = promisc != 0;
	r->started = started != 0;
	r->parts |= FASTMIB_PORT_INFO;
	return 0;
}

/* DPDK's RTE_ETH_SPEED_NUM_UNKNOWN, reported as is while the link is up. */
#define TEL_SPEED_UNKNOWN UINT32_MAX

int
fastmib_port_parse_link(const json_t *reply, struct fastmib_port_reading *r)
{
	const char *status = json_string_value(json_object_get(reply, "status"));
	uint64_t speed;

	if (!json_is_object(reply) || !status)
		return -EPROTO;
	r->link_up = strcmp(status, "UP") == 0;
	/* a down link has no speed at all */
	r->speed_known = tel_u64(reply, "speed", &speed) && speed != TEL_SPEED_UNKNOWN &&
			 r->link_up;
	r->speed_mbps = r->speed_known ? speed : 0;
	r->parts |= FASTMIB_PORT_LINK;
	return 0;
}

int
fastmib_port_parse_stats(const json_t *reply, struct fastmib_port_reading *r)
{
	if (!json_is_object(reply) ||
	    !tel_u64(reply, "ipackets", &r->ipackets) ||
	    !tel_u64(reply, "opackets", &r->opackets) ||
	    !tel_u64(reply, "ibytes", &r->ibytes) ||
	    !tel_u64(reply, "obytes", &r->obytes) ||
	    !tel_u64(reply, "imissed", &r->imissed) ||
	    !tel_u64(reply, "ierrors", &r->ierrors) ||
	    !tel_u64(reply, "oerrors", &r->oerrors) ||
	    !tel_u64(reply, "rx_nombuf", &r->rx_nombuf))
		return -EPROTO;
	r->parts |= FASTMIB_PORT_STATS;
	return 0;
}

/*
 * Which breakdown counter an xstats name is, and whether it is a per-queue
 * one: "rx_multicast_packets" (port-wide, most physical NIC PMDs) or
 * "rx_q3_multicast_packets" (per queue, e.g. virtio). -1 for any other name.
 */
static int
tel_cast_of(const char *name, bool *per_queue)
{
	static const char *const kinds[] = { "multicast", "broadcast", "unicast" };
	const char *p;
	bool rx;

	if (strncmp(name, "rx_", 3) == 0)
		rx = true;
	else if (strncmp(name, "tx_", 3) == 0)
		rx = false;
	else
		return -1;
	p = name + 3;
	*per_queue = false;
	if (p[0] == 'q' && p[1] >= '0' && p[1] <= '9') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p++ != '_')
			return -1;
		*per_queue = true;
	}
	for (int k = 0; k < 3; k++) {
		size_t len = strlen(kinds[k]);

		if (strncmp(p, kinds[k], len) != 0 || strcmp(p + len, "_packets") != 0)
			continue;
		if (k == 2)
			return rx ? FASTMIB_CAST_IN_UCAST : FASTMIB_CAST_OUT_UCAST;
		return (rx ? FASTMIB_CAST_IN_MCAST : FASTMIB_CAST_OUT_MCAST) + k;
	}
	return -1;
}

int
fastmib_port_parse_xstats(const json_t *reply, struct fastmib_port_reading *r)
{
	uint64_t queue_sum[FASTMIB_CAST_COUNT] = { 0 };
	unsigned int port_have = 0, queue_have = 0;
	const char *name;
	json_t *v;

	if (!json_is_object(reply))
		return -EPROTO;
	json_object_foreach((json_t *)reply, name, v) {
		bool per_queue;
		int k = tel_cast_of(name, &per_queue);

		if (k < 0 || !json_is_integer(v) || json_integer_value(v) < 0)
			continue;
		if (per_queue) {
			queue_sum[k] += (uint64_t)json_integer_value(v);
			queue_have |= 1u << k;
		} else {
			r->cast[k] = (uint64_t)json_integer_value(v);
			port_have |= 1u << k;
		}
	}
	/* port-wide counters win; per-queue sums fill in what they lack */
	for (int k = 0; k < FASTMIB_CAST_COUNT; k++)
		if (!(port_have & (1u << k)) && (queue_have & (1u << k)))
			r->cast[k] = queue_sum[k];
	r->cast_have = port_have | queue_have;
	r->parts |= FASTMIB_PORT_XSTATS;
	return 0;
}

int
fastmib_tel_read_port(struct fastmib_tel *t, uint16_t port, unsigned int parts,
		      struct fastmib_port_reading *r, unsigned int timeout_ms)
{
	static const struct {
		unsigned int part;
		const char *cmd;
		int (*parse)(const json_t *, struct fastmib_port_reading *);
	} kinds[] = {
		{ FASTMIB_PORT_INFO, "/ethdev/info", fastmib_port_parse_info },
		{ FASTMIB_PORT_LINK, "/ethdev/link_status", fastmib_port_parse_link },
		{ FASTMIB_PORT_STATS, "/ethdev/stats", fastmib_port_parse_stats },
		{ FASTMIB_PORT_XSTATS, "/ethdev/xstats", fastmib_port_parse_xstats },
	};
	char text[4][32];
	const char *cmds[4];
	json_t *replies[4];
	unsigned int which[4], n = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->port = port;
	for (unsigned int k = 0; k < 4; k++) {
		if (!(parts & kinds[k].part))
			continue;
		snprintf(text[n], sizeof(text[n]), "%s,%u", kinds[k].cmd, port);
		cmds[n] = text[n];
		which[n++] = k;
	}
	if (n == 0)
		return 0;
	rc = fastmib_tel_query(t, cmds, n, replies, timeout_ms);
	if (rc < 0)
		return rc;
	for (unsigned int i = 0; i < n; i++) {
		kinds[which[i]].parse(replies[i], r);
		json_decref(replies[i]);
	}
	return 0;
}
