/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The client side of DPDK's telemetry socket (`dpdk_telemetry.v2` in an
 * application's runtime directory): another process asking a running
 * DPDK application questions. (libfastmib's telemetry_commands.c is the
 * other side: commands answered inside the application.)
 *
 * The protocol (DPDK 22.11): a SOCK_SEQPACKET unix socket; on connect the
 * application sends a JSON hello (`version`, `pid`, `max_output_len`); each
 * command string sent gets exactly one JSON reply `{"<command>": value}`,
 * in order. Commands may be pipelined: several are sent, then the replies
 * are read back, which costs one wait instead of one per command.
 *
 * DPDK prints its counters as unsigned 64-bit integers; a JSON parser keeps
 * signed 64-bit ones. Replies are therefore parsed with every integer
 * outside the signed range turned into a marked string of its digits
 * first, so that no reply is refused for a large counter; fme_json_u64()
 * reads either form, and fme_json_text() never takes the marked form for
 * text (reading.h).
 *
 * Nothing here blocks beyond the timeout a call is given: the socket is
 * non-blocking and every wait is a poll() with a deadline. A reply that
 * misses its deadline is not lost track of: the connection keeps its
 * command as owed (with the time it was sent), and refuses new queries
 * (-EBUSY) until every owed reply came back, so answers never pair with
 * the wrong command. When the reply arrives it is checked against its
 * command and handed to the late callback (fme_tel_on_late()): an
 * answer that comes late is still an answer.
 *
 * One connection per application: DPDK serves at most 10 clients at once.
 * Not thread-safe; one thread uses one connection.
 */
#ifndef FME_ETHDEV_CLIENT_H
#define FME_ETHDEV_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the socket in the runtime directory (the v2 protocol). */
#define FME_TEL_SOCKET_NAME "dpdk_telemetry.v2"

/** Commands one query pipelines at most. */
#define FME_TEL_MAX_BATCH 1024u

struct fme_tel;

/**
 * A connection object for `path`: the application's telemetry socket, or
 * its runtime directory (e.g. /var/run/dpdk/rte), in which case the socket
 * is PATH/dpdk_telemetry.v2. Nothing is opened yet; the path need not
 * exist. Returns 0 or -ENOMEM.
 */
int fme_tel_new(const char *path, struct fme_tel **telp);

/** Close the connection (if any) and free the object. NULL is ignored. */
void fme_tel_free(struct fme_tel *tel);

/**
 * Connect and read the hello, waiting at most `timeout_ms` in all. Returns
 * 0 when the connection is ready, -EINPROGRESS when connected but the hello
 * has not arrived yet (call again later; no wait is repeated), or a negative
 * errno with fme_tel_error() naming the socket and the reason:
 * -ENOENT (no such socket: the application has not started),
 * -ECONNREFUSED (the socket file is left over from a process that died),
 * -EACCES, -ENOTSOCK, -ENAMETOOLONG, -ECONNRESET (closed before the hello:
 * the application ends, or already serves its maximum of clients), -EPROTO
 * (the hello is not DPDK's). A ready connection returns 0 at once.
 */
int fme_tel_connect(struct fme_tel *tel, unsigned int timeout_ms);

/** Connected and the hello read. */
bool fme_tel_ready(const struct fme_tel *tel);

/** Connected, the hello not read yet: since when (CLOCK_MONOTONIC ns), else 0. */
uint64_t fme_tel_waiting_since(const struct fme_tel *tel);

/** Drop the connection (the object can connect again). */
void fme_tel_close(struct fme_tel *tel);

/**
 * Without waiting: take in the replies owed by queries that timed out (to
 * the late callback), and see whether the application closed the
 * connection. Returns 0 (ready, no reply owed), -EBUSY (replies still
 * owed, or the hello not read yet), -ENOTCONN (not connected),
 * -ECONNRESET (the application closed the connection; it is closed here
 * too) or -EPROTO (a late reply that is not the answer to its command:
 * the connection is closed).
 */
int fme_tel_poll(struct fme_tel *tel);

/**
 * Called with each reply its query did not return: one that came after the
 * query gave up (taken in by fme_tel_poll() or by the next query), or
 * one read before a query timed out. `cmd` is its command, `sent_ns` when
 * the command was sent at the latest (CLOCK_MONOTONIC ns), `value` the
 * reply's value (borrowed). It must not use the connection.
 */
typedef void fme_tel_late_fn(const char *cmd, uint64_t sent_ns, const json_t *value,
				 void *arg);

/** The late callback (NULL: late replies are checked and dropped). */
void fme_tel_on_late(struct fme_tel *tel, fme_tel_late_fn *fn, void *arg);

/** When the application last sent anything (a reply, late or not, or the
 * hello), CLOCK_MONOTONIC ns; 0: never. The sign that it is alive. */
uint64_t fme_tel_last_reply_ns(const struct fme_tel *tel);

/** When the oldest command still owed a reply was sent (CLOCK_MONOTONIC
 * ns); 0: no reply owed. */
uint64_t fme_tel_owed_since(const struct fme_tel *tel);

/**
 * Send `n` commands (at most FME_TEL_MAX_BATCH), reading replies while
 * the socket takes no more, and wait at most `timeout_ms` for each reply
 * (from the query's start, then from the reply before it). On success replies[i] holds a new reference to the value of the
 * i-th reply (JSON null when the application rejected the command), to be
 * released with json_decref(). Replies still owed by an earlier query are
 * waited for first (to the late callback), within the same time. On
 * failure no reference is left in replies[]: -ETIMEDOUT (the replies read
 * so far, and the late ones when they come, go to the late callback),
 * -EBUSY (earlier replies did not come in time: nothing
 * sent), -ENOTCONN, -ECONNRESET, -EPROTO (a reply that is not JSON or not
 * the answer to its command: the connection is closed, and
 * fme_tel_error() quotes the start of the reply, escaped).
 */
int fme_tel_query(struct fme_tel *tel, const char *const *cmds, unsigned int n,
		      json_t **replies, unsigned int timeout_ms);

/** pid the application's hello announced (0 before the first hello). */
long fme_tel_pid(const struct fme_tel *tel);

/** DPDK version string of the hello ("" before it), escaped for a log. */
const char *fme_tel_version(const struct fme_tel *tel);

/** Socket path the last connection attempt used. */
const char *fme_tel_socket(const struct fme_tel *tel);

/** Last error, "SOCKET: what: reason". Outside text in it is escaped. */
const char *fme_tel_error(const struct fme_tel *tel);

/** Queries sent (exchanges) and commands sent over the object's life. */
struct fme_tel_counts {
	uint64_t exchanges;
	uint64_t commands;
	uint64_t timeouts;
};
void fme_tel_counts(const struct fme_tel *tel, struct fme_tel_counts *out);

/** The first octet of the string an integer beyond the signed 64-bit range
 * becomes (U+0001: no DPDK text begins with it). */
#define FME_JSON_BIG_MARK '\x01'

/**
 * Parse `len` octets of JSON text (RFC 8259) as the client parses replies:
 * integers outside the signed 64-bit range become strings of
 * FME_JSON_BIG_MARK and their digits. NULL when the text is not one JSON
 * value: a number with a leading zero is not JSON, however long.
 */
json_t *fme_tel_json_load(const char *text, size_t len);

/** The text of a JSON string, or NULL: not a string, or an integer that
 * fme_tel_json_load() passed on as digits. */
const char *fme_json_text(const json_t *v);

/**
 * `len` octets of `in` written to `out` (NUL-terminated, cut to fit `size`)
 * so that a log line shows them and nothing else: printable ASCII as is
 * except the backslash (\\), everything else as \xHH. Returns out.
 * Everything that comes from outside (names, paths, answers) goes through
 * this before it reaches a log.
 */
char *fme_escape(const char *in, size_t len, char *out, size_t size);

/** The same for a NUL-terminated string. */
char *fme_escape_str(const char *in, char *out, size_t size);

/** The value of a hexadecimal digit (either case), as \xHH and MAC
 * addresses write them, or -1. */
int fme_hex_value(char c);

#ifdef __cplusplus
}
#endif

#endif /* FME_ETHDEV_CLIENT_H */
