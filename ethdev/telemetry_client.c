/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Client of DPDK's telemetry socket: connection, the hello, and pipelined
 * queries with deadlines. See client.h for the protocol and the rules.
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

#include "fastmib/ethdev/client.h"
#include "fastmib/reader.h" /* fastmib_monotonic_ns() */

/* Replies are at most max_output_len octets (16384 in DPDK 22.11); the
 * buffer is sized from the hello, within these bounds. */
#define TEL_BUF_MIN 16384u
#define TEL_BUF_MAX (1u << 20)
/* How much of an unexpected reply an error message quotes. */
#define TEL_QUOTE 48u
/* tel_recv(): nothing to read, but the socket takes commands again. */
#define TEL_WRITABLE 1
/* Longest command the owed FIFO keeps (the ethdev commands are far shorter). */
#define TEL_CMD_MAX 40u

/* A command whose reply is still to come, and when it was sent. */
struct tel_owed {
	char cmd[TEL_CMD_MAX];
	uint64_t sent_ns;
};

struct fme_tel {
	char *path;                 /* as configured */
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd;                     /* -1: not connected */
	bool ready;                 /* hello read */
	uint64_t connected_ns;      /* when connect() succeeded */
	unsigned int owed;          /* replies still to come for sent commands */
	/* their commands, oldest first (a ring of FME_TEL_MAX_BATCH: a
	 * query sends nothing while replies are owed) */
	struct tel_owed *fifo;
	unsigned int fifo_head;
	uint64_t last_reply_ns;     /* any message received, 0: none yet */
	fme_tel_late_fn *late;
	void *late_arg;
	long pid;
	char version[96];           /* escaped */
	char *buf;
	size_t buf_len;
	char err[768];
	struct fme_tel_counts counts;
};

/* "SOCKET: what: reason (hint)"; the path escaped, as it may come from
 * anywhere a configuration file took it. */
static void
tel_fail(struct fme_tel *t, const char *what, int err, const char *hint)
{
	char path[2 * sizeof(t->sock)];

	fme_escape_str(t->sock[0] ? t->sock : t->path, path, sizeof(path));
	snprintf(t->err, sizeof(t->err), "%s: %s: %s%s%s%s", path, what, strerror(err),
		 hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
}

int
fme_tel_new(const char *path, struct fme_tel **telp)
{
	struct fme_tel *t = calloc(1, sizeof(*t));

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
fme_tel_close(struct fme_tel *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->ready = false;
	t->connected_ns = 0;
	t->owed = 0;
	t->fifo_head = 0;
}

void
fme_tel_free(struct fme_tel *t)
{
	if (!t)
		return;
	fme_tel_close(t);
	free(t->fifo);
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
tel_resolve(struct fme_tel *t)
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
		n = snprintf(t->sock, sizeof(t->sock), "%s%s" FME_TEL_SOCKET_NAME, t->path,
			     base[0] ? "/" : "");
	else
		n = snprintf(t->sock, sizeof(t->sock), "%s", t->path);
	if (n < 0 || (size_t)n >= sizeof(t->sock)) {
		t->sock[0] = '\0';
		tel_fail(t, "socket path", ENAMETOOLONG, "a unix socket path has at most 107 "
			 "characters");
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Receive one message, waiting until `deadline` (monotonic ns; 0: do not
 * wait). Returns its length; TEL_WRITABLE when `want_out` and the socket
 * takes commands again before anything came; -ETIMEDOUT; -ECONNRESET (end
 * of stream: the connection is closed) or -EPROTO (longer than the buffer).
 */
static ssize_t
tel_recv(struct fme_tel *t, uint64_t deadline, bool want_out)
{
	for (;;) {
		ssize_t n = recv(t->fd, t->buf, t->buf_len - 1, MSG_DONTWAIT | MSG_TRUNC);
		struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
		struct timespec ts;
		uint64_t now;

		if (n > 0) {
			if ((size_t)n >= t->buf_len) {
				tel_fail(t, "reply", EMSGSIZE, "longer than the hello announced");
				fme_tel_close(t);
				return -EPROTO;
			}
			t->buf[n] = '\0';
			/* a sign of life, in time or not */
			t->last_reply_ns = fastmib_monotonic_ns();
			return n;
		}
		if (n == 0) {
			tel_fail(t, "read", ECONNRESET, "the application closed the connection");
			fme_tel_close(t);
			return -ECONNRESET;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			int e = errno;

			tel_fail(t, "read", e, NULL);
			fme_tel_close(t);
			return -ECONNRESET;
		}
		now = fastmib_monotonic_ns();
		if (deadline == 0 || now >= deadline)
			return -ETIMEDOUT;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
		if (want_out)
			pfd.events |= POLLOUT;
		if (ppoll(&pfd, 1, &ts, NULL) < 0) {
			if (errno != EINTR)
				return -ETIMEDOUT;
			continue;
		}
		if (want_out && (pfd.revents & POLLOUT) && !(pfd.revents & POLLIN))
			return TEL_WRITABLE;
	}
}

static int
tel_buffer(struct fme_tel *t, size_t len)
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
tel_hello(struct fme_tel *t, size_t len)
{
	json_t *h = fme_tel_json_load(t->buf, len), *v;
	const char *ver;
	int rc = -EPROTO;

	if (!h || !json_is_object(h))
		goto out;
	v = json_object_get(h, "pid");
	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		goto out;
	t->pid = (long)json_integer_value(v);
	ver = fme_json_text(json_object_get(h, "version"));
	fme_escape_str(ver ? ver : "", t->version, sizeof(t->version));
	v = json_object_get(h, "max_output_len");
	rc = tel_buffer(t, json_is_integer(v) && json_integer_value(v) > 0
			   ? (size_t)json_integer_value(v) : TEL_BUF_MIN);
out:
	json_decref(h);
	if (rc == -EPROTO) {
		char quoted[4 * TEL_QUOTE + 1], hint[4 * TEL_QUOTE + 64];

		fme_escape(t->buf, len < TEL_QUOTE ? len : TEL_QUOTE, quoted,
			       sizeof(quoted));
		snprintf(hint, sizeof(hint), "not a DPDK telemetry v2 hello: \"%s%s\"", quoted,
			 len > TEL_QUOTE ? "..." : "");
		tel_fail(t, "hello", EPROTO, hint);
	}
	return rc;
}

int
fme_tel_connect(struct fme_tel *t, unsigned int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t deadline = timeout_ms ? fastmib_monotonic_ns() + (uint64_t)timeout_ms * 1000000u : 0;
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
			fme_tel_close(t);
			return -e;
		}
		t->owed = 0;
		t->pid = 0;
		t->version[0] = '\0';
		t->connected_ns = fastmib_monotonic_ns();
	}
	n = tel_recv(t, deadline, false);
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
		fme_tel_close(t);
		return rc;
	}
	t->ready = true;
	t->err[0] = '\0';
	return 0;
}

bool
fme_tel_ready(const struct fme_tel *t)
{
	return t->ready;
}

uint64_t
fme_tel_waiting_since(const struct fme_tel *t)
{
	return t->fd >= 0 && !t->ready ? t->connected_ns : 0;
}

static json_t *tel_reply_value(struct fme_tel *t, const char *cmd, size_t len);

/* The owed command `i` places after the oldest. */
static struct tel_owed *
tel_owed_at(struct fme_tel *t, unsigned int i)
{
	return &t->fifo[(t->fifo_head + i) % FME_TEL_MAX_BATCH];
}

/* A command sent at `sent_ns`: owed until its reply comes. One too long
 * to keep is owed without its text (its reply is then only counted). */
static void
tel_owe(struct fme_tel *t, const char *cmd, uint64_t sent_ns)
{
	struct tel_owed *o = tel_owed_at(t, t->owed);
	size_t len = strlen(cmd);

	if (len < sizeof(o->cmd))
		memcpy(o->cmd, cmd, len + 1);
	else
		o->cmd[0] = '\0';
	o->sent_ns = sent_ns;
	t->owed++;
}

/* The reply to the oldest owed command came: it is owed no more. */
static struct tel_owed
tel_paid(struct fme_tel *t)
{
	struct tel_owed o = *tel_owed_at(t, 0);

	t->fifo_head = (t->fifo_head + 1) % FME_TEL_MAX_BATCH;
	t->owed--;
	return o;
}

/*
 * Reply `len` (in the buffer) came after its query gave up on it: checked
 * against its command like any reply (replies come in order, so a
 * mismatch is a broken protocol, -EPROTO with the connection closed), and
 * handed to the late callback with the time its command was sent.
 */
static int
tel_late(struct fme_tel *t, size_t len)
{
	struct tel_owed o = tel_paid(t);
	json_t *v;

	if (!o.cmd[0])
		return 0;
	v = tel_reply_value(t, o.cmd, len);
	if (!v)
		return -EPROTO;
	if (t->late)
		t->late(o.cmd, o.sent_ns, v, t->late_arg);
	json_decref(v);
	return 0;
}

int
fme_tel_poll(struct fme_tel *t)
{
	if (t->fd < 0)
		return -ENOTCONN;
	if (!t->ready) {
		int rc = fme_tel_connect(t, 0);

		if (rc == -EINPROGRESS)
			return -EBUSY;
		if (rc < 0)
			return rc == -ECONNRESET ? rc : -ENOTCONN;
	}
	for (;;) {
		ssize_t n = tel_recv(t, 0, false);

		if (n == -ETIMEDOUT)
			break;
		if (n < 0)
			return n == -ECONNRESET ? -ECONNRESET : (int)n;
		/* a late reply: its query has given up on it, its reader not */
		if (t->owed && tel_late(t, (size_t)n) < 0)
			return -EPROTO;
	}
	return t->owed ? -EBUSY : 0;
}

void
fme_tel_on_late(struct fme_tel *t, fme_tel_late_fn *fn, void *arg)
{
	t->late = fn;
	t->late_arg = arg;
}

uint64_t
fme_tel_last_reply_ns(const struct fme_tel *t)
{
	return t->last_reply_ns;
}

uint64_t
fme_tel_owed_since(const struct fme_tel *t)
{
	return t->owed ? t->fifo[t->fifo_head].sent_ns : 0;
}

/* Does reply key `key` answer command `cmd` ("/ethdev/stats,3" -> "/ethdev/stats")? */
static bool
tel_key_matches(const char *key, const char *cmd)
{
	size_t n = strcspn(cmd, ",");

	return strlen(key) == n && strncmp(key, cmd, n) == 0;
}

/* The value of reply `len` to `cmd` (a new reference), or NULL after
 * closing the connection with a message that quotes the reply. */
static json_t *
tel_reply_value(struct fme_tel *t, const char *cmd, size_t len)
{
	json_t *root = fme_tel_json_load(t->buf, len), *val;
	const char *key;

	if (root && json_is_object(root) && json_object_size(root) == 1 &&
	    (key = json_object_iter_key(json_object_iter(root))) &&
	    tel_key_matches(key, cmd)) {
		val = json_incref(json_object_iter_value(json_object_iter(root)));
		json_decref(root);
		return val;
	}
	json_decref(root);
	{
		char quoted[4 * TEL_QUOTE + 1], qcmd[4 * 32 + 1], hint[4 * TEL_QUOTE + 200];

		fme_escape(t->buf, len < TEL_QUOTE ? len : TEL_QUOTE, quoted,
			       sizeof(quoted));
		fme_escape(cmd, strnlen(cmd, 32), qcmd, sizeof(qcmd));
		snprintf(hint, sizeof(hint), "%s to %s: \"%s%s\"", root ? "not the answer"
			 : "not JSON", qcmd, quoted, len > TEL_QUOTE ? "..." : "");
		tel_fail(t, "reply", EPROTO, hint);
	}
	fme_tel_close(t);
	return NULL;
}

int
fme_tel_query(struct fme_tel *t, const char *const *cmds, unsigned int n,
		  json_t **replies, unsigned int timeout_ms)
{
	uint64_t deadline, start;
	unsigned int sent = 0, got = 0;
	int rc;

	if (n == 0 || n > FME_TEL_MAX_BATCH)
		return -EINVAL;
	if (!t->fifo && !(t->fifo = calloc(FME_TEL_MAX_BATCH, sizeof(*t->fifo))))
		return -ENOMEM;
	start = fastmib_monotonic_ns();
	deadline = start + (uint64_t)(timeout_ms ? timeout_ms : 1) * 1000000u;
	rc = fme_tel_poll(t);
	/* replies of a query that gave up a moment ago: wait for them within
	 * this query's time, so that a hiccup of the application costs one
	 * query and not the next ones */
	while (rc == -EBUSY && t->ready) {
		ssize_t len = tel_recv(t, deadline, false);

		if (len == -ETIMEDOUT)
			return -EBUSY;
		if (len < 0)
			return (int)len;
		if (tel_late(t, (size_t)len) < 0)
			return -EPROTO;
		rc = t->owed ? -EBUSY : 0;
	}
	if (rc < 0)
		return rc;
	t->counts.exchanges++;
	while (got < n) {
		ssize_t len;

		/* as many commands as the socket takes; the replies read
		 * meanwhile make room for the rest */
		uint64_t now = fastmib_monotonic_ns();

		while (sent < n) {
			if (send(t->fd, cmds[sent], strlen(cmds[sent]),
				 MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
				int e = errno;

				if (e == EINTR)
					continue;
				if (e == EAGAIN || e == EWOULDBLOCK)
					break;
				tel_fail(t, "write", e, NULL);
				fme_tel_close(t);
				rc = -ECONNRESET;
				goto fail;
			}
			tel_owe(t, cmds[sent], now);
			sent++;
			t->counts.commands++;
		}
		len = tel_recv(t, deadline, sent < n);
		if (len == TEL_WRITABLE)
			continue;
		if (len < 0) {
			rc = (int)len;
			if (rc == -ETIMEDOUT)
				t->counts.timeouts++;
			goto fail;
		}
		tel_paid(t);
		/* the wait is for each reply: an application that answers a
		 * long batch steadily is not late */
		deadline = fastmib_monotonic_ns() + (uint64_t)(timeout_ms ? timeout_ms : 1) * 1000000u;
		replies[got] = tel_reply_value(t, cmds[got], (size_t)len);
		if (!replies[got]) {
			rc = -EPROTO;
			goto fail;
		}
		got++;
	}
	return 0;
fail:
	for (unsigned int i = 0; i < got; i++) {
		/* read before the query gave up: as good as a late reply (its
		 * command sent after `start`) */
		if (rc == -ETIMEDOUT && t->late)
			t->late(cmds[i], start, replies[i], t->late_arg);
		json_decref(replies[i]);
		replies[i] = NULL;
	}
	return rc;
}

long
fme_tel_pid(const struct fme_tel *t)
{
	return t->pid;
}

const char *
fme_tel_version(const struct fme_tel *t)
{
	return t->version;
}

const char *
fme_tel_socket(const struct fme_tel *t)
{
	return t->sock[0] ? t->sock : t->path;
}

const char *
fme_tel_error(const struct fme_tel *t)
{
	return t->err;
}

void
fme_tel_counts(const struct fme_tel *t, struct fme_tel_counts *out)
{
	*out = t->counts;
}
