/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A small client of DPDK's telemetry socket (`dpdk_telemetry.v2` in an
 * application's runtime directory), for reading the statistics of its
 * ethdev ports from another process: the IF-MIB rows of fastmib-agentx and
 * `fastmib-stat --ports` share it.
 *
 * The protocol (DPDK 22.11): a SOCK_SEQPACKET unix socket; on connect the
 * application sends a JSON hello (`version`, `pid`, `max_output_len`); each
 * command string sent gets exactly one JSON reply `{"<command>": value}`,
 * in order. Commands may be pipelined: several are sent, then the replies
 * are read back, which costs one wait instead of one per command.
 *
 * Nothing here blocks beyond the timeout a call is given: the socket is
 * non-blocking and every wait is a poll() with a deadline. A reply that
 * misses its deadline is not lost track of: the connection counts it as
 * owed, skips it when it arrives, and refuses new queries (-EBUSY) until
 * every owed reply came back, so answers never pair with the wrong command.
 *
 * One connection per application: DPDK serves at most 10 clients at once.
 * Not thread-safe; one thread uses one connection.
 */
#ifndef FASTMIB_TELEMETRY_H
#define FASTMIB_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the socket in the runtime directory (the v2 protocol). */
#define FASTMIB_TEL_SOCKET_NAME "dpdk_telemetry.v2"

/** Commands one query pipelines at most. */
#define FASTMIB_TEL_MAX_BATCH 256u

/** Longest ethdev name (RTE_ETH_NAME_MAX_LEN in DPDK 22.11). */
#define FASTMIB_PORT_NAME_MAX 64u

struct fastmib_tel;

/**
 * A connection object for `path`: the application's telemetry socket, or
 * its runtime directory (e.g. /var/run/dpdk/rte), in which case the socket
 * is PATH/dpdk_telemetry.v2. Nothing is opened yet; the path need not
 * exist. Returns 0 or -ENOMEM / -ENAMETOOLONG.
 */
int fastmib_tel_new(const char *path, struct fastmib_tel **telp);

/** Close the connection (if any) and free the object. NULL is ignored. */
void fastmib_tel_free(struct fastmib_tel *tel);

/**
 * Connect and read the hello, waiting at most `timeout_ms` in all. Returns
 * 0 when the connection is ready, -EINPROGRESS when connected but the hello
 * has not arrived yet (call again later; no wait is repeated), or a negative
 * errno with fastmib_tel_error() naming the socket and the reason:
 * -ENOENT (no such socket: the application has not started),
 * -ECONNREFUSED (the socket file is left over from a process that died),
 * -EACCES, -ENOTSOCK, -ECONNRESET (closed before the hello: the
 * application ends, or already serves its maximum of clients), -EPROTO.
 * A ready connection returns 0 at once.
 */
int fastmib_tel_connect(struct fastmib_tel *tel, unsigned int timeout_ms);

/** Connected and the hello read. */
bool fastmib_tel_ready(const struct fastmib_tel *tel);

/** Drop the connection (the object can connect again). */
void fastmib_tel_close(struct fastmib_tel *tel);

/**
 * Without waiting: take in the replies owed by queries that timed out, and
 * see whether the application closed the connection. Returns 0 (ready, no
 * reply owed), -EBUSY (replies still owed), -ENOTCONN (not connected) or
 * -ECONNRESET (the application closed the connection; it is closed here
 * too).
 */
int fastmib_tel_poll(struct fastmib_tel *tel);

/**
 * Send `n` commands at once (at most FASTMIB_TEL_MAX_BATCH), then wait at
 * most `timeout_ms` for all their replies. On success replies[i] holds a
 * new reference to the value of the i-th reply (JSON null when the
 * application rejected the command), to be released with json_decref().
 * Replies still owed by an earlier query are waited for (and skipped)
 * first, within the same time. On failure no reference is left in
 * replies[]: -ETIMEDOUT (the late replies are skipped when they come),
 * -EBUSY (earlier replies did not come in time: nothing sent), -ENOTCONN,
 * -ECONNRESET, -EPROTO (a reply that is not JSON or not the answer to its
 * command: the connection is closed).
 */
int fastmib_tel_query(struct fastmib_tel *tel, const char *const *cmds, unsigned int n,
		      json_t **replies, unsigned int timeout_ms);

/** pid the application's hello announced (0 before the first hello). */
long fastmib_tel_pid(const struct fastmib_tel *tel);

/** DPDK version string of the hello ("" before it). */
const char *fastmib_tel_version(const struct fastmib_tel *tel);

/** Socket path the last connection attempt used. */
const char *fastmib_tel_socket(const struct fastmib_tel *tel);

/** Last error, "SOCKET: what: reason". */
const char *fastmib_tel_error(const struct fastmib_tel *tel);

/** Queries sent (exchanges) and commands sent over the object's life. */
struct fastmib_tel_counts {
	uint64_t exchanges;
	uint64_t commands;
	uint64_t timeouts;
};
void fastmib_tel_counts(const struct fastmib_tel *tel, struct fastmib_tel_counts *out);

/* ---- sources: which application, at which ifIndex ---- */

/** Default ifIndex base, and the distance between implicit bases. */
#define FASTMIB_IFINDEX_BASE    1000u
#define FASTMIB_IFINDEX_SPACING 100u
/** Largest ifIndex (InterfaceIndex is 1..2147483647). */
#define FASTMIB_IFINDEX_MAX     2147483647u

/**
 * Split a source "PATH[,BASE]" into the path and its own ifIndex base (0:
 * none given). Returns 0, or -EINVAL (empty path, BASE not a number in
 * 1..FASTMIB_IFINDEX_MAX), -ENAMETOOLONG.
 */
int fastmib_port_source_parse(const char *spec, char *path, size_t len, uint32_t *own_base);

/**
 * ifIndex base of the source at position `order` (0, 1, ... in the
 * configuration): its own base, or `base` + FASTMIB_IFINDEX_SPACING *
 * order, saturated at FASTMIB_IFINDEX_MAX. Port P is at base + P.
 */
uint32_t fastmib_port_source_base(uint32_t own_base, uint32_t base, unsigned int order);

/* ---- ethdev ports ---- */

/** Which parts a port reading holds. */
enum fastmib_port_part {
	FASTMIB_PORT_INFO = 1u << 0,   /**< /ethdev/info */
	FASTMIB_PORT_LINK = 1u << 1,   /**< /ethdev/link_status */
	FASTMIB_PORT_STATS = 1u << 2,  /**< /ethdev/stats */
	FASTMIB_PORT_XSTATS = 1u << 3, /**< /ethdev/xstats */
};

/** Counters of the multicast/broadcast breakdown a PMD may give in xstats. */
enum fastmib_port_cast {
	FASTMIB_CAST_IN_MCAST = 0,
	FASTMIB_CAST_IN_BCAST,
	FASTMIB_CAST_OUT_MCAST,
	FASTMIB_CAST_OUT_BCAST,
	FASTMIB_CAST_IN_UCAST,   /**< PMDs that count unicast themselves */
	FASTMIB_CAST_OUT_UCAST,
	FASTMIB_CAST_COUNT,
};

/** What telemetry says about one ethdev port, as far as it was read. */
struct fastmib_port_reading {
	uint16_t port;
	unsigned int parts;             /**< enum fastmib_port_part bits */
	/* /ethdev/info */
	char name[FASTMIB_PORT_NAME_MAX];
	uint32_t mtu;
	bool mac_ok;
	uint8_t mac[6];
	bool promiscuous;
	bool started;                   /**< dev_started */
	/* /ethdev/link_status */
	bool link_up;
	bool speed_known;               /**< absent when down, or unknown */
	uint64_t speed_mbps;
	/* /ethdev/stats */
	uint64_t ipackets, opackets, ibytes, obytes;
	uint64_t imissed, ierrors, oerrors, rx_nombuf;
	/* /ethdev/xstats: bit k of `cast_have` set when cast[k] was given */
	unsigned int cast_have;
	uint64_t cast[FASTMIB_CAST_COUNT];
};

/** Port ids of a `/ethdev/list` reply, ascending; returns how many (<= max)
 * or -EPROTO. Ids outside 0..65535 are refused. */
int fastmib_port_parse_list(const json_t *reply, uint16_t *ids, unsigned int max);

/** Each fills its part of `r` and sets its bit in r->parts; -EPROTO when the
 * reply lacks what the part needs (the bit stays clear). */
int fastmib_port_parse_info(const json_t *reply, struct fastmib_port_reading *r);
int fastmib_port_parse_link(const json_t *reply, struct fastmib_port_reading *r);
int fastmib_port_parse_stats(const json_t *reply, struct fastmib_port_reading *r);
int fastmib_port_parse_xstats(const json_t *reply, struct fastmib_port_reading *r);

/**
 * Read `parts` of port `port` in one query (pipelined commands), waiting at
 * most `timeout_ms`. On success `r` holds them (r->parts may lack a part
 * whose reply was unusable: the application rejected the port, e.g. it was
 * detached). Errors as fastmib_tel_query().
 */
int fastmib_tel_read_port(struct fastmib_tel *tel, uint16_t port, unsigned int parts,
			  struct fastmib_port_reading *r, unsigned int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_TELEMETRY_H */
