/* SPDX-License-Identifier: BSD-3-Clause */
#include "flow_table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

int
flow_table_init(struct flow_table *ft, uint32_t w, uint32_t n, uint32_t max_ids,
		int socket)
{
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = name,
		.key_len = sizeof(struct flow_key),
		.hash_func = rte_hash_crc,
		.socket_id = socket,
		/* Extendable buckets: an insert fails only when capacity is used up. */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};

	memset(ft, 0, sizeof(*ft));
	if (n == 0 || w >= n || w >= max_ids)
		return -EINVAL;
	ft->owner = w;
	ft->n_owners = n;
	ft->capacity = (max_ids - w + n - 1) / n;
	ft->lru_head = ft->lru_tail = FLOW_NONE;
	snprintf(name, sizeof(name), "flows_%u", w);
	hp.entries = ft->capacity < 8 ? 8 : ft->capacity;
	ft->hash = rte_hash_create(&hp);
	if (ft->hash == NULL)
		return -rte_errno;
	ft->flows = rte_zmalloc_socket("flows", ft->capacity * sizeof(*ft->flows),
				       RTE_CACHE_LINE_SIZE, socket);
	ft->free_ring = rte_malloc_socket("flow_free", ft->capacity * sizeof(uint32_t),
					  RTE_CACHE_LINE_SIZE, socket);
	if (ft->flows == NULL || ft->free_ring == NULL) {
		flow_table_free(ft);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < ft->capacity; i++)
		ft->free_ring[i] = i;
	ft->free_count = ft->capacity;
	return 0;
}

void
flow_table_free(struct flow_table *ft)
{
	rte_hash_free(ft->hash);
	rte_free(ft->flows);
	rte_free(ft->free_ring);
	memset(ft, 0, sizeof(*ft));
}

uint32_t
flow_table_lookup(struct flow_table *ft, const struct flow_key *key)
{
	void *data;

	if (rte_hash_lookup_data(ft->hash, key, &data) < 0)
		return FLOW_NONE;
	return (uint32_t)(uintptr_t)data;
}

static void
lru_unlink(struct flow_table *ft, uint32_t slot)
{
	struct flow *f = &ft->flows[slot];

	if (f->lru_prev != FLOW_NONE)
		ft->flows[f->lru_prev].lru_next = f->lru_next;
	else
		ft->lru_head = f->lru_next;
	if (f->lru_next != FLOW_NONE)
		ft->flows[f->lru_next].lru_prev = f->lru_prev;
	else
		ft->lru_tail = f->lru_prev;
}

static void
lru_append(struct flow_table *ft, uint32_t slot)
{
	struct flow *f = &ft->flows[slot];

	f->lru_prev = ft->lru_tail;
	f->lru_next = FLOW_NONE;
	if (ft->lru_tail != FLOW_NONE)
		ft->flows[ft->lru_tail].lru_next = slot;
	else
		ft->lru_head = slot;
	ft->lru_tail = slot;
}

uint32_t
flow_table_insert(struct flow_table *ft, const struct flow_key *key, uint64_t now)
{
	uint32_t slot;
	struct flow *f;

	if (ft->free_count == 0)
		return FLOW_NONE;
	slot = ft->free_ring[ft->free_head];
	if (rte_hash_add_key_data(ft->hash, key, (void *)(uintptr_t)slot) < 0)
		return FLOW_NONE;
	ft->free_head = (ft->free_head + 1) % ft->capacity;
	ft->free_count--;
	ft->n_active++;
	f = &ft->flows[slot];
	f->key = *key;
	f->last_seen = now;
	f->pkts = 0;
	f->bytes = 0;
	lru_append(ft, slot);
	return slot;
}

void
flow_table_touch(struct flow_table *ft, uint32_t slot, uint64_t now)
{
	ft->flows[slot].last_seen = now;
	if (ft->lru_tail == slot)
		return;
	lru_unlink(ft, slot);
	lru_append(ft, slot);
}

uint32_t
flow_table_oldest_idle(const struct flow_table *ft, uint64_t deadline)
{
	uint32_t h = ft->lru_head;

	if (h != FLOW_NONE && ft->flows[h].last_seen < deadline)
		return h;
	return FLOW_NONE;
}

void
flow_table_remove(struct flow_table *ft, uint32_t slot)
{
	uint32_t tail = (ft->free_head + ft->free_count) % ft->capacity;

	rte_hash_del_key(ft->hash, &ft->flows[slot].key);
	lru_unlink(ft, slot);
	ft->free_ring[tail] = slot;
	ft->free_count++;
	ft->n_active--;
}
