/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ethdev replies of DPDK telemetry parsed into port readings, and the
 * queries that take them. See reading.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/ethdev/reading.h"

static const char *const stat_names[FME_STAT_COUNT] = {
	"ipackets", "opackets", "ibytes", "obytes", "imissed", "ierrors", "oerrors",
	"rx_nombuf",
};

static const char *const cast_names[FME_CAST_COUNT] = {
	"rx_multicast_packets", "rx_broadcast_packets", "tx_multicast_packets",
	"tx_broadcast_packets", "rx_unicast_packets", "tx_unicast_packets",
};

const char *
fme_port_stat_name(enum fme_port_stat k)
{
	return (unsigned int)k < FME_STAT_COUNT ? stat_names[k] : "?";
}

const char *
fme_port_cast_name(enum fme_port_cast k)
{
	return (unsigned int)k < FME_CAST_COUNT ? cast_names[k] : "?";
}

int
fme_json_u64(const json_t *v, uint64_t *out)
{
	const char *s;
	uint64_t x = 0;
	size_t n;

	if (!v)
		return -ENOENT;
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return -ERANGE;
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	/* an integer the client passed on as digits, and nothing else */
	s = json_string_value(v);
	n = s ? json_string_length(v) : 0;
	if (!s || n < 2 || n > 21 || s[0] != FME_JSON_BIG_MARK)
		return -ERANGE;
	for (size_t i = 1; i < n; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*out = x;
	return 0;
}

/* The faulty value, quoted for the log (the first of a reading). */
static void
note_bad(struct fme_port_reading *r, const json_t *v)
{
	char *text;

	if (r->bad_text[0])
		return;
	text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	fme_escape_str(text ? text : "(missing)", r->bad_text, sizeof(r->bad_text));
	free(text);
}

static bool
get_u64(const json_t *obj, const char *key, uint64_t *out)
{
	return fme_json_u64(json_object_get(obj, key), out) == 0;
}

static int
cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

int
fme_port_parse_list(const json_t *reply, uint16_t *ids, unsigned int max)
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
	qsort(ids, n, sizeof(*ids), cmp_u16);
	return (int)n;
}

bool
fme_mac_of_text(const char *s, size_t len, uint8_t mac[6])
{
	if (!s || len != 17)
		return false;
	for (int i = 0; i < 6; i++) {
		int hi = fme_hex_value(s[3 * i]), lo = fme_hex_value(s[3 * i + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			return false;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

int
fme_port_parse_info(const json_t *reply, struct fme_port_reading *r)
{
	const char *name = fme_json_text(json_object_get(reply, "name")), *mac;
	uint64_t mtu, promisc = 0, started = 0;

	if (!json_is_object(reply) || !name || !name[0] || !get_u64(reply, "mtu", &mtu))
		return -EPROTO;
	/* a name is kept whole or not at all: a cut one could name another
	 * device */
	if (strlen(name) >= sizeof(r->name))
		return -EPROTO;
	memcpy(r->name, name, strlen(name) + 1);
	r->mtu = mtu > UINT32_MAX ? UINT32_MAX : (uint32_t)mtu;
	mac = fme_json_text(json_object_get(reply, "mac_addr"));
	r->mac_ok = mac && fme_mac_of_text(mac, strlen(mac), r->mac);
	get_u64(reply, "promiscuous", &promisc);
	get_u64(reply, "dev_started", &started);
	r->promiscuous = promisc != 0;
	r->started = started != 0;
	r->parts |= FME_PORT_INFO;
	return 0;
}

/* DPDK's RTE_ETH_SPEED_NUM_UNKNOWN, reported as is while the link is up. */
#define SPEED_UNKNOWN UINT32_MAX

int
fme_port_parse_link(const json_t *reply, struct fme_port_reading *r)
{
	const char *status = fme_json_text(json_object_get(reply, "status"));
	uint64_t speed;

	if (!json_is_object(reply) || !status)
		return -EPROTO;
	r->link_up = strcmp(status, "UP") == 0;
	/* a down link has no speed at all */
	r->speed_known = get_u64(reply, "speed", &speed) && speed != SPEED_UNKNOWN &&
			 r->link_up;
	r->speed_mbps = r->speed_known ? speed : 0;
	r->parts |= FME_PORT_LINK;
	return 0;
}

int
fme_port_parse_stats(const json_t *reply, struct fme_port_reading *r)
{
	if (!json_is_object(reply))
		return -EPROTO;
	r->stats_have = 0;
	for (unsigned int k = 0; k < FME_STAT_COUNT; k++) {
		const json_t *v = json_object_get(reply, stat_names[k]);

		if (fme_json_u64(v, &r->stat[k]) < 0) {
			r->stats_bad |= 1u << k;
			note_bad(r, v);
			continue;
		}
		r->stats_have |= 1u << k;
		if (r->stat[k] >> 63)
			r->stats_big |= 1u << k;
	}
	r->parts |= FME_PORT_STATS;
	return 0;
}

/*
 * Which breakdown counter an xstats name is, and whether it is a per-queue
 * one: "rx_multicast_packets" (port-wide, most physical NIC PMDs) or
 * "rx_q3_multicast_packets" (per queue, e.g. virtio). -1 for any other name.
 */
static int
cast_of(const char *name, bool *per_queue)
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
			return rx ? FME_CAST_IN_UCAST : FME_CAST_OUT_UCAST;
		return (rx ? FME_CAST_IN_MCAST : FME_CAST_OUT_MCAST) + k;
	}
	return -1;
}

int
fme_port_parse_xstats(const json_t *reply, struct fme_port_reading *r)
{
	uint64_t queue_sum[FME_CAST_COUNT] = { 0 };
	unsigned int port_have = 0, queue_have = 0, bad = 0;
	const char *name;
	json_t *v;

	if (!json_is_object(reply))
		return -EPROTO;
	json_object_foreach((json_t *)reply, name, v) {
		bool per_queue;
		int k = cast_of(name, &per_queue);
		uint64_t x;

		if (k < 0)
			continue; /* not a counter the agent uses: never looked at */
		if (fme_json_u64(v, &x) < 0) {
			bad |= 1u << k;
			note_bad(r, v);
			continue;
		}
		if (per_queue) {
			/* a sum that wraps is as faulty as its parts */
			if (queue_sum[k] + x < x)
				bad |= 1u << k;
			queue_sum[k] += x;
			queue_have |= 1u << k;
		} else {
			r->cast[k] = x;
			port_have |= 1u << k;
		}
	}
	/* port-wide counters win; per-queue sums fill in what they lack */
	for (int k = 0; k < FME_CAST_COUNT; k++)
		if (!(port_have & (1u << k)) && (queue_have & (1u << k)))
			r->cast[k] = queue_sum[k];
	/* a breakdown counter with a faulty part is left out whole */
	r->cast_have = (port_have | queue_have) & ~(bad & ~port_have);
	r->cast_bad = bad & ~port_have;
	for (int k = 0; k < FME_CAST_COUNT; k++)
		if ((r->cast_have & (1u << k)) && (r->cast[k] >> 63))
			r->cast_big |= 1u << k;
	r->parts |= FME_PORT_XSTATS;
	return 0;
}

static const struct {
	unsigned int part;
	const char *cmd;
	int (*parse)(const json_t *, struct fme_port_reading *);
} kinds[] = {
	{ FME_PORT_INFO, "/ethdev/info", fme_port_parse_info },
	{ FME_PORT_LINK, "/ethdev/link_status", fme_port_parse_link },
	{ FME_PORT_STATS, "/ethdev/stats", fme_port_parse_stats },
	{ FME_PORT_XSTATS, "/ethdev/xstats", fme_port_parse_xstats },
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

void
fme_port_merge(struct fme_port_reading *d, const struct fme_port_reading *r,
		   unsigned int parts)
{
	parts &= r->parts;
	if (parts & FME_PORT_INFO) {
		memcpy(d->name, r->name, sizeof(d->name));
		d->mtu = r->mtu;
		d->mac_ok = r->mac_ok;
		memcpy(d->mac, r->mac, sizeof(d->mac));
		d->promiscuous = r->promiscuous;
		d->started = r->started;
	}
	if (parts & FME_PORT_LINK) {
		d->link_up = r->link_up;
		d->speed_known = r->speed_known;
		d->speed_mbps = r->speed_mbps;
	}
	if (parts & FME_PORT_STATS) {
		memcpy(d->stat, r->stat, sizeof(d->stat));
		d->stats_have = r->stats_have;
	}
	if (parts & FME_PORT_XSTATS) {
		memcpy(d->cast, r->cast, sizeof(d->cast));
		d->cast_have = r->cast_have;
	}
	d->parts |= parts;
}

int
fme_port_parse_reply(const char *cmd, const json_t *reply, struct fme_port_reading *r)
{
	const char *comma = strchr(cmd, ',');
	unsigned long id = 0;
	const char *d;

	if (!comma || !comma[1])
		return -ENOENT;
	/* the port id as read_ports() writes it: decimal, nothing else */
	for (d = comma + 1; *d >= '0' && *d <= '9' && id <= UINT16_MAX; d++)
		id = id * 10 + (unsigned long)(*d - '0');
	if (*d || id > UINT16_MAX)
		return -ENOENT;
	for (unsigned int k = 0; k < N_KINDS; k++) {
		if (strlen(kinds[k].cmd) != (size_t)(comma - cmd) ||
		    strncmp(kinds[k].cmd, cmd, (size_t)(comma - cmd)) != 0)
			continue;
		memset(r, 0, sizeof(*r));
		r->port = (uint16_t)id;
		return kinds[k].parse(reply, r);
	}
	return -ENOENT;
}

/* Commands of one query: text, and whose reply goes where. */
struct batch {
	unsigned int n, cap;
	char (*text)[32];
	const char **cmds;
	json_t **replies;
	unsigned int *who;  /* index in asks[] */
	unsigned int *kind;
};

static int
flush(struct fme_tel *tel, struct batch *b, struct fme_port_reading *out,
      unsigned int timeout_ms)
{
	int rc;

	if (b->n == 0)
		return 0;
	rc = fme_tel_query(tel, b->cmds, b->n, b->replies, timeout_ms);
	if (rc < 0)
		return rc;
	for (unsigned int i = 0; i < b->n; i++) {
		kinds[b->kind[i]].parse(b->replies[i], &out[b->who[i]]);
		json_decref(b->replies[i]);
	}
	b->n = 0;
	return 0;
}

int
fme_tel_read_ports(struct fme_tel *tel, const struct fme_port_ask *asks,
		       unsigned int n, struct fme_port_reading *out, unsigned int timeout_ms)
{
	struct batch b = { 0 };
	unsigned long total = 0;
	int rc = 0;

	for (unsigned int i = 0; i < n; i++)
		total += (unsigned int)__builtin_popcount(asks[i].parts & FME_PORT_ALL);
	b.cap = total < FME_TEL_MAX_BATCH ? (unsigned int)total : FME_TEL_MAX_BATCH;
	if (b.cap) {
		b.text = malloc(b.cap * sizeof(*b.text));
		b.cmds = malloc(b.cap * sizeof(*b.cmds));
		b.replies = malloc(b.cap * sizeof(*b.replies));
		b.who = malloc(b.cap * sizeof(*b.who));
		b.kind = malloc(b.cap * sizeof(*b.kind));
		if (!b.text || !b.cmds || !b.replies || !b.who || !b.kind)
			rc = -ENOMEM;
	}
	for (unsigned int i = 0; i < n && rc == 0; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].port = asks[i].port;
		for (unsigned int k = 0; k < N_KINDS; k++) {
			if (!(asks[i].parts & kinds[k].part))
				continue;
			if (b.n == b.cap && (rc = flush(tel, &b, out, timeout_ms)))
				break;
			snprintf(b.text[b.n], sizeof(b.text[0]), "%s,%u", kinds[k].cmd,
				 asks[i].port);
			b.cmds[b.n] = b.text[b.n];
			b.who[b.n] = i;
			b.kind[b.n] = k;
			b.n++;
		}
	}
	if (rc == 0)
		rc = flush(tel, &b, out, timeout_ms);
	free(b.text);
	free(b.cmds);
	free(b.replies);
	free(b.who);
	free(b.kind);
	return rc;
}

int
fme_tel_list_ports(struct fme_tel *tel, uint16_t *ids, unsigned int max,
		       unsigned int timeout_ms)
{
	const char *cmd = "/ethdev/list";
	json_t *list;
	int rc = fme_tel_query(tel, &cmd, 1, &list, timeout_ms);

	if (rc < 0)
		return rc;
	rc = fme_port_parse_list(list, ids, max);
	json_decref(list);
	return rc;
}

int
fme_tel_read_all_ports(struct fme_tel *tel, unsigned int parts,
		       struct fme_port_reading **out, unsigned int timeout_ms)
{
	uint16_t ids[FME_APP_PORTS_MAX];
	struct fme_port_ask *asks;
	struct fme_port_reading *rd;
	int n, rc;

	*out = NULL;
	n = fme_tel_list_ports(tel, ids, FME_APP_PORTS_MAX, timeout_ms);
	if (n <= 0)
		return n;
	asks = calloc((size_t)n, sizeof(*asks));
	rd = calloc((size_t)n, sizeof(*rd));
	if (!asks || !rd) {
		free(asks);
		free(rd);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		asks[i].port = ids[i];
		asks[i].parts = parts;
	}
	rc = fme_tel_read_ports(tel, asks, (unsigned int)n, rd, timeout_ms);
	free(asks);
	if (rc < 0) {
		free(rd);
		return rc;
	}
	*out = rd;
	return n;
}
