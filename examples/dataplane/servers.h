/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rows of the per-server table (a keyed table of the model), as one
 * worker lcore knows them.
 *
 * A key's row comes from ep_server_insert(), which takes a lock and hashes
 * the key: fine when a flow is created, too slow for every packet. So each
 * worker remembers the rows it was given in a small cache of its own, asks
 * the library only for servers it has not seen yet, and a flow keeps its
 * server's row: the packets of the flow are counted by row, as in any
 * other table. Servers stay in the table for the application's lifetime
 * (ep_server_remove() would take one out).
 */
#ifndef EXAMPLE_SERVERS_H
#define EXAMPLE_SERVERS_H

#include <stdint.h>

#include "ep_stats.h"

/* The row of a flow whose server the table could not take (full). */
#define SERVER_NONE UINT32_MAX

/* Cache slots: twice the table's capacity, so probing stays short. */
#define SERVER_CACHE_SLOTS (2 * EP_SERVER_ROWS)

struct server_entry {
	uint32_t ip;     /* IPv4, host byte order; 0 = empty slot */
	uint16_t port;
	uint32_t row;    /* the table's row, or SERVER_NONE when it was full */
};

struct server_cache {
	struct server_entry slot[SERVER_CACHE_SLOTS];
	uint32_t n_used; /* kept below SERVER_CACHE_SLOTS / 2 */
};

/*
 * The row of server ip:port (host byte order), inserted into the table of
 * `seg` when this worker meets it first; SERVER_NONE when the table is
 * full (the flow is then counted in no server row). Worker lcore only.
 */
uint32_t server_row(struct server_cache *c, struct fastmib_segment *seg, uint32_t ip,
		    uint16_t port);

/*
 * The SNMP index of server ip:port in the table (what follows the column in
 * an instance OID), from the library that owns the encoding; its length.
 */
size_t server_index(uint32_t ip, uint16_t port, uint64_t *index);

#endif /* EXAMPLE_SERVERS_H */
