/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * What DPDK telemetry says about an ethdev port: the replies of
 * `/ethdev/list`, `/ethdev/info`, `/ethdev/link_status`, `/ethdev/stats`
 * and `/ethdev/xstats` parsed into a port reading, and the queries that
 * take readings of one or many ports at once (pipelined, client.h).
 *
 * Counters are unsigned 64-bit and read exactly, whatever their value (the
 * client turns integers beyond the signed range into digit strings). Each
 * counter of a reading stands alone: one that is missing or is not an
 * unsigned 64-bit integer is left out of the reading (its bit clear in
 * `stats_have`, set in `stats_bad`) and the rest of the port, and every
 * other port, stays readable.
 */
#ifndef FME_ETHDEV_READING_H
#define FME_ETHDEV_READING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fastmib/ethdev/client.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Ports of one application read at most: the agent serves as many, and
 * fastmib-stat lists as many. */
#define FME_APP_PORTS_MAX 1024u

/** Longest ethdev name (RTE_ETH_NAME_MAX_LEN in DPDK 22.11). */
#define FME_PORT_NAME_MAX 64u

/** Which parts a port reading holds. */
enum fme_port_part {
	FME_PORT_INFO = 1u << 0,   /**< /ethdev/info */
	FME_PORT_LINK = 1u << 1,   /**< /ethdev/link_status */
	FME_PORT_STATS = 1u << 2,  /**< /ethdev/stats */
	FME_PORT_XSTATS = 1u << 3, /**< /ethdev/xstats */
	FME_PORT_ALL = 0xfu,
};
/** How many parts there are: part k is the bit 1u << k. */
#define FME_PORT_PARTS 4u

/** The counters of /ethdev/stats a reading keeps (bits of stats_have). */
enum fme_port_stat {
	FME_STAT_IPACKETS = 0,
	FME_STAT_OPACKETS,
	FME_STAT_IBYTES,
	FME_STAT_OBYTES,
	FME_STAT_IMISSED,
	FME_STAT_IERRORS,
	FME_STAT_OERRORS,
	FME_STAT_RX_NOMBUF,
	FME_STAT_COUNT,
};

/** Counters of the multicast/broadcast breakdown a PMD may give in xstats. */
enum fme_port_cast {
	FME_CAST_IN_MCAST = 0,
	FME_CAST_IN_BCAST,
	FME_CAST_OUT_MCAST,
	FME_CAST_OUT_BCAST,
	FME_CAST_IN_UCAST,   /**< PMDs that count unicast themselves */
	FME_CAST_OUT_UCAST,
	FME_CAST_COUNT,
};

/** What telemetry says about one ethdev port, as far as it was read. */
struct fme_port_reading {
	uint16_t port;
	unsigned int parts;             /**< enum fme_port_part bits */
	/* /ethdev/info */
	char name[FME_PORT_NAME_MAX];
	uint32_t mtu;
	bool mac_ok;
	uint8_t mac[6];
	bool promiscuous;
	bool started;                   /**< dev_started */
	/* /ethdev/link_status */
	bool link_up;
	bool speed_known;               /**< absent when down, or unknown */
	uint64_t speed_mbps;
	/* /ethdev/stats, indexed by enum fme_port_stat */
	uint64_t stat[FME_STAT_COUNT];
	unsigned int stats_have;        /**< bit k: stat[k] was read */
	/* /ethdev/xstats: bit k of `cast_have` set when cast[k] was given */
	unsigned int cast_have;
	uint64_t cast[FME_CAST_COUNT];
	/* for the log: counters that could not be read (stats_bad bit k,
	 * cast_bad bit k), counters read at 2^63 or more (a driver counter
	 * that went below zero, most likely), and the first faulty text */
	unsigned int stats_bad, cast_bad;
	unsigned int stats_big, cast_big;
	char bad_text[40];
};

/**
 * Copy into `dst` the parts of `src` that are in `parts` and that `src`
 * has, each part's fields whole, and mark them in dst->parts; the other
 * parts of `dst` stay as they were. This is how a port's readings are
 * put together from replies that came at different times.
 */
void fme_port_merge(struct fme_port_reading *dst, const struct fme_port_reading *src,
			unsigned int parts);

/** The field name of stats counter k ("ipackets"), of breakdown counter k
 * ("rx_multicast_packets"). */
const char *fme_port_stat_name(enum fme_port_stat k);
const char *fme_port_cast_name(enum fme_port_cast k);

/**
 * An unsigned 64-bit integer from a JSON value: an integer >= 0, or one
 * up to 18446744073709551615 as the client passes on larger integers
 * (fme_tel_json_load()); never a string. 0, -ENOENT (no value) or
 * -ERANGE (anything else).
 */
int fme_json_u64(const json_t *v, uint64_t *out);

/** A MAC address as DPDK and the port map write it, "92:F0:4A:1F:A7:53":
 * six octets of two hexadecimal digits (either case), ':' between, the
 * `len` octets of `s` and nothing else. */
bool fme_mac_of_text(const char *s, size_t len, uint8_t mac[6]);

/* The parsers of each reply, exported for their unit tests: the agent and
 * fastmib-stat parse replies through the queries below and
 * fme_port_parse_reply(). */

/** Port ids of a `/ethdev/list` reply, ascending; returns how many (<= max)
 * or -EPROTO. Ids outside 0..65535 are refused. */
int fme_port_parse_list(const json_t *reply, uint16_t *ids, unsigned int max);

/** Each fills its part of `r` and sets its bit in r->parts; -EPROTO when the
 * reply is not what the part needs (the bit stays clear): the application
 * answered null (it has no such port), or not an object. A stats or xstats
 * object with faulty counters is taken, without them. */
int fme_port_parse_info(const json_t *reply, struct fme_port_reading *r);
int fme_port_parse_link(const json_t *reply, struct fme_port_reading *r);
int fme_port_parse_stats(const json_t *reply, struct fme_port_reading *r);
int fme_port_parse_xstats(const json_t *reply, struct fme_port_reading *r);

/**
 * The reply to port command `cmd` ("/ethdev/stats,3", as the queries below
 * send them) parsed into `r`, cleared first: r->port and the one part.
 * -ENOENT when `cmd` is not a port command of a reading (/ethdev/list),
 * else as the parser of its part.
 */
int fme_port_parse_reply(const char *cmd, const json_t *reply,
			     struct fme_port_reading *r);

/** One port to read: which, and which parts. */
struct fme_port_ask {
	uint16_t port;
	unsigned int parts;
};

/**
 * Read `n` ports, each its parts, in one query (all commands pipelined;
 * more than FME_TEL_MAX_BATCH commands take several), waiting at most
 * `timeout_ms` for each. On success out[i] holds the reading of asks[i]
 * (out[i].parts may lack a part the application rejected, e.g. a port
 * detached since). Errors as fme_tel_query(); out[] is then undefined.
 */
int fme_tel_read_ports(struct fme_tel *tel, const struct fme_port_ask *asks,
			   unsigned int n, struct fme_port_reading *out,
			   unsigned int timeout_ms);

/** Port ids the application lists (`/ethdev/list`), ascending, at most
 * `max`: how many, or an error of fme_tel_query(), or -EPROTO. */
int fme_tel_list_ports(struct fme_tel *tel, uint16_t *ids, unsigned int max,
			   unsigned int timeout_ms);

/**
 * Every port the application lists, each read for `parts` (an OR of
 * FME_PORT_*): /ethdev/list, then fme_tel_read_ports() of all of them.
 * Returns how many readings *out holds (malloc'ed, for the caller to
 * free; NULL when none), or an error of either call with *out NULL
 * (-EPROTO with the connection still ready: the list was not a list of
 * port ids; the query's own -EPROTO closes the connection). A reading may
 * lack a part, FME_PORT_INFO included, when its port was
 * detached between the list and the reading.
 */
int fme_tel_read_all_ports(struct fme_tel *tel, unsigned int parts,
			   struct fme_port_reading **out, unsigned int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* FME_ETHDEV_READING_H */
