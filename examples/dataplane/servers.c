/* SPDX-License-Identifier: BSD-3-Clause */
#include "servers.h"

#include <errno.h>
#include <string.h>

#include <rte_hash_crc.h>
#include <rte_log.h>

static struct ep_server_key
key_of(uint32_t ip, uint16_t port)
{
	struct ep_server_key k;

	memset(&k, 0, sizeof(k));
	k.server_addr[0] = (uint8_t)(ip >> 24); /* network byte order */
	k.server_addr[1] = (uint8_t)(ip >> 16);
	k.server_addr[2] = (uint8_t)(ip >> 8);
	k.server_addr[3] = (uint8_t)ip;
	k.server_port = port;
	return k;
}

uint32_t
server_row(struct server_cache *c, struct fastmib_segment *seg, uint32_t ip, uint16_t port)
{
	uint32_t i = rte_hash_crc_4byte(ip ^ ((uint32_t)port << 7), 0) % SERVER_CACHE_SLOTS;
	struct server_entry *e;
	struct ep_server_key k;
	uint32_t row;
	int rc;

	for (;; i = (i + 1) % SERVER_CACHE_SLOTS) {
		e = &c->slot[i];
		if (e->ip == 0)
			break;
		if (e->ip == ip && e->port == port)
			return e->row;
	}
	/* A server this worker has not met: the library gives its row (the
	 * same one another worker got, if it met the server first). A full
	 * table is remembered too, so that it is asked once per server. */
	k = key_of(ip, port);
	rc = ep_server_insert(seg, &k, &row);
	if (rc < 0) {
		if (rc != -ENOSPC)
			RTE_LOG(ERR, USER1, "server table: %s\n", fastmib_last_error());
		row = SERVER_NONE;
	}
	/* past half full the cache stops learning (probing stays short);
	 * the library still answers, only slower */
	if (c->n_used < SERVER_CACHE_SLOTS / 2) {
		*e = (struct server_entry){ .ip = ip, .port = port, .row = row };
		c->n_used++;
	}
	return row;
}

size_t
server_index(uint32_t ip, uint16_t port, uint64_t *index)
{
	const struct fastmib_group_schema *g = &ep_schema.groups[EP_GROUP_SERVER];
	struct ep_server_key k = key_of(ip, port);
	uint8_t buf[FASTMIB_MAX_KEY_BYTES];
	int len = fastmib_key_encode(g, &k, buf);

	return len < 0 ? 0 : fastmib_key_to_index(g, buf, (size_t)len, index);
}
