/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-lcore flow table of the example data plane.
 *
 * Each worker lcore owns the flows its traffic hashes to (as RSS would give
 * it), so the table needs no locking. A flow is found by its 5-tuple
 * (rte_hash), owns one row of the model's flow table, and sits on an LRU
 * list so that idle flows can be expired from the head in O(1).
 *
 * Flow rows are partitioned between lcores: lcore slot `w` of `n` owns
 * global flow ids w, w + n, w + 2n, ... Freed ids are reused in FIFO order,
 * so a row stays absent for as long as possible before it is recycled.
 */
#ifndef EXAMPLE_FLOW_TABLE_H
#define EXAMPLE_FLOW_TABLE_H

#include <stdint.h>

#include <rte_common.h>

/* The 5-tuple, padded to a size rte_hash compares quickly. */
struct flow_key {
	uint32_t src_ip;
	uint32_t dst_ip;
	uint16_t src_port;
	uint16_t dst_port;
	uint8_t proto;
	uint8_t pad[3];
} __rte_packed;

struct flow {
	struct flow_key key;
	uint64_t last_seen; /* TSC of the last packet */
	uint64_t pkts;      /* application's own tally, for the summary */
	uint64_t bytes;
	uint32_t server_row;    /* the row of the flow's server (servers.h) */
	uint32_t lru_prev;
	uint32_t lru_next;
};

struct flow_table {
	struct rte_hash *hash;
	struct flow *flows;     /* capacity entries, local slot -> flow */
	uint32_t *free_ring;    /* FIFO of free local slots */
	uint32_t free_head;
	uint32_t free_count;
	uint32_t capacity;
	uint32_t n_active;
	uint32_t lru_head;      /* oldest; FLOW_NONE when empty */
	uint32_t lru_tail;      /* newest */
	uint32_t owner;         /* this lcore's slot w */
	uint32_t n_owners;      /* number of worker lcores n */
};

#define FLOW_NONE UINT32_MAX

/*
 * Set up the table of owner `w` out of `n`, over flow ids below `max_ids`.
 * Returns 0 or a negative errno value.
 */
int flow_table_init(struct flow_table *ft, uint32_t w, uint32_t n,
		    uint32_t max_ids, int socket);
void flow_table_free(struct flow_table *ft);

/* Global (model) flow id of a local slot, and the reverse. */
static inline uint32_t
flow_table_id(const struct flow_table *ft, uint32_t slot)
{
	return slot * ft->n_owners + ft->owner;
}

/* Local slot of `key`, or FLOW_NONE. */
uint32_t flow_table_lookup(struct flow_table *ft, const struct flow_key *key);

/* Insert `key` (absent); its local slot, or FLOW_NONE when the table is full. */
uint32_t flow_table_insert(struct flow_table *ft, const struct flow_key *key,
			   uint64_t now);

/* Mark `slot` used at `now`: it becomes the newest on the LRU list. */
void flow_table_touch(struct flow_table *ft, uint32_t slot, uint64_t now);

/* The oldest flow if it has been idle since before `deadline`, else FLOW_NONE. */
uint32_t flow_table_oldest_idle(const struct flow_table *ft, uint64_t deadline);

/* Remove the flow in `slot`; its id goes to the back of the free FIFO. */
void flow_table_remove(struct flow_table *ft, uint32_t slot);

#endif /* EXAMPLE_FLOW_TABLE_H */
