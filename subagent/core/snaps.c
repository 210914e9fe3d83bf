/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The readings of a request: every varbind of one SNMP request that names
 * a group or a row is answered from one counter snapshot and one state
 * publication of it, taken when the request first needs them. A request
 * is its transaction id, which snmpd also gives every AgentX PDU it sends
 * for it: a GETBULK walked over AgentX (one PDU per repetition) reads each
 * row once, as a GETBULK in the module or the standalone agent does. A
 * walk that takes several requests may see a row change between them.
 *
 * Each segment keeps the readings of its last FMA_SNAP_REQUESTS requests
 * (snmpd may interleave the PDUs of requests in progress), each a hash of
 * rows over an arena that grows with the request and is reused by a later
 * one. Requests without an identity (snmpd's own queries, `monitor` say,
 * come with transaction id 0 every time) are read afresh at every handler
 * call, and no request's readings serve for longer than
 * FMA_SNAP_MAX_AGE_NS: a request takes milliseconds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_priv.h"

/* An arena this large or more is freed when its request is recycled, so
 * that one huge request does not keep its memory. */
#define FMA_SNAP_ARENA_KEEP (1u << 20)
/* Readings older than this are not a request's any more. */
#define FMA_SNAP_MAX_AGE_NS (1000ull * 1000000u)

/* The request `rq` starts afresh for transaction `id`. */
static void
request_reset(struct fma_seg *s, struct fma_request *rq, long id)
{
	rq->used = true;
	rq->id = id;
	rq->last_use = s->request_clock;
	rq->started_ns = fastmib_monotonic_ns();
	rq->n = 0;
	rq->used_bytes = 0;
	if (rq->cap_bytes >= FMA_SNAP_ARENA_KEEP) {
		free(rq->arena);
		rq->arena = NULL;
		rq->cap_bytes = 0;
	}
	if (rq->buckets)
		memset(rq->buckets, 0, (size_t)(rq->mask + 1) * sizeof(*rq->buckets));
}

static uint32_t
snap_hash(int group, uint32_t row, uint32_t mask)
{
	uint64_t h = ((uint64_t)(uint32_t)group << 32 | row) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & mask;
}

/* The request cache holding transaction `id`, made (recycling the least
 * recently used one) if none does. */
static struct fma_request *
request_of(struct fma_seg *s, long id)
{
	struct fma_request *oldest = &s->requests[0];

	s->request_clock++;
	for (unsigned int i = 0; i < FMA_SNAP_REQUESTS; i++) {
		struct fma_request *rq = &s->requests[i];

		if (rq->used && rq->id == id) {
			rq->last_use = s->request_clock;
			if (fastmib_monotonic_ns() - rq->started_ns > FMA_SNAP_MAX_AGE_NS)
				request_reset(s, rq, id);
			return rq;
		}
		if (!rq->used || rq->last_use < oldest->last_use)
			oldest = rq;
	}
	request_reset(s, oldest, id);
	return oldest;
}

void
fma_snaps_call(struct fma_seg *s)
{
	for (unsigned int i = 0; i < FMA_SNAP_REQUESTS; i++)
		if (s->requests[i].used && s->requests[i].id <= 0)
			s->requests[i].used = false;
}

/* `bytes` of the request's arena (8-aligned): its offset, or -ENOMEM. */
static int64_t
arena_take(struct fma_request *rq, size_t bytes)
{
	size_t at = (rq->used_bytes + 7) & ~(size_t)7;

	if (at + bytes > rq->cap_bytes) {
		size_t cap = rq->cap_bytes ? rq->cap_bytes : 4096;
		uint8_t *grown;

		while (cap < at + bytes)
			cap *= 2;
		grown = realloc(rq->arena, cap);
		if (!grown)
			return -ENOMEM;
		rq->arena = grown;
		rq->cap_bytes = cap;
	}
	rq->used_bytes = at + bytes;
	return (int64_t)at;
}

/* Room for one more row: the entries, and a table of twice as many
 * buckets (rebuilt when it grows). */
static int
room_for_one(struct fma_request *rq)
{
	if (rq->n == rq->cap) {
		uint32_t cap = rq->cap ? 2 * rq->cap : 16;
		struct fma_snap *grown = realloc(rq->snaps, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rq->snaps = grown;
		rq->cap = cap;
	}
	if (2 * (rq->n + 1) > rq->mask + 1) {
		uint32_t nb = rq->mask ? 2 * (rq->mask + 1) : 32;
		uint32_t *b = calloc(nb, sizeof(*b));

		if (!b)
			return -ENOMEM;
		free(rq->buckets);
		rq->buckets = b;
		rq->mask = nb - 1;
		for (uint32_t i = 0; i < rq->n; i++) {
			uint32_t h = snap_hash(rq->snaps[i].group, rq->snaps[i].row, rq->mask);

			while (rq->buckets[h])
				h = (h + 1) & rq->mask;
			rq->buckets[h] = i + 1;
		}
	}
	return 0;
}

/*
 * The request's reading of the row `ref` names, made (empty) when the
 * request has none yet; in a keyed table per row and key: between two
 * varbinds of one request the row may have gone to another key, whose
 * readings these are not. NULL when out of memory.
 */
static struct fma_snap *
snap_of(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref)
{
	struct fma_request *rq = request_of(s, id);
	struct fma_snap *sn;
	uint32_t h;

	for (h = rq->mask ? snap_hash(ref->group, ref->row, rq->mask) : 0;
	     rq->buckets && rq->buckets[h]; h = (h + 1) & rq->mask) {
		sn = &rq->snaps[rq->buckets[h] - 1];
		if (sn->group == ref->group && sn->row == ref->row && sn->key_len == ref->key_len &&
		    memcmp(sn->key, ref->key, ref->key_len) == 0)
			return sn;
	}
	if (room_for_one(rq) < 0)
		return NULL;
	sn = &rq->snaps[rq->n];
	memset(sn, 0, offsetof(struct fma_snap, key));
	sn->group = ref->group;
	sn->row = ref->row;
	sn->key_len = ref->key_len;
	memcpy(sn->key, ref->key, ref->key_len);
	sn->request = rq;
	for (h = snap_hash(ref->group, ref->row, rq->mask); rq->buckets[h];
	     h = (h + 1) & rq->mask)
		;
	rq->buckets[h] = ++rq->n;
	return sn;
}

/* fastmib_read() (or its keyed form), which waits out a writer that is
 * only preempted (see reader.h); a writer it takes as stuck is logged once
 * per hold-off. */
static int
read_counters(struct fma_seg *s, const struct fma_snap *sn, uint64_t *values)
{
	const struct fastmib_group_schema *g = &s->schema->groups[sn->group];
	int rc = fastmib_group_keyed(g)
		 ? fastmib_keyed_read(s->seg, (unsigned int)sn->group, sn->row, sn->key,
				      sn->key_len, values)
		 : fastmib_read(s->seg, (unsigned int)sn->group, sn->row, values);
	uint64_t now;

	if (rc == -EBUSY && (now = fastmib_monotonic_ns()) >= s->stuck_logged) {
		s->stuck_logged = now + FASTMIB_READ_HOLDOFF_NS;
		snmp_log(LOG_WARNING, "fastmib: %s: a writer stays inside a transaction; "
			 "best-effort values for the next second\n", s->path);
	}
	if (rc == -EBUSY)
		DEBUGMSGTL(("fastmib", "%s: group %s row %" PRIu32
			    ": writer stalled, best-effort values\n", s->path, g->name, sn->row));
	return rc;
}

const struct fma_snap *
fma_snap_counters(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref)
{
	struct fma_snap *sn = snap_of(s, id, ref);
	const struct fastmib_group_schema *g = &s->schema->groups[ref->group];
	int64_t off;

	if (!sn || sn->have_counters)
		return sn;
	off = arena_take(sn->request, (size_t)(g->row_size / 8) * sizeof(uint64_t));
	if (off < 0)
		return NULL;
	sn->values_off = (size_t)off;
	sn->rc = read_counters(s, sn, fma_snap_values(sn));
	sn->have_counters = true;
	return sn;
}

const struct fma_snap *
fma_snap_states(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref)
{
	struct fma_snap *sn = snap_of(s, id, ref);
	const struct fastmib_group_schema *g = &s->schema->groups[ref->group];
	int64_t off;

	if (!sn || sn->have_states)
		return sn;
	off = arena_take(sn->request, g->state_size ? g->state_size : 1);
	if (off < 0)
		return NULL;
	sn->states_off = (size_t)off;
	sn->state_rc = fastmib_group_keyed(g)
		       ? fastmib_keyed_state_read(s->seg, (unsigned int)ref->group, ref->row,
						  ref->key, ref->key_len, fma_snap_state_bytes(sn),
						  sn->bad)
		       : fastmib_state_read(s->seg, (unsigned int)ref->group, ref->row,
					    fma_snap_state_bytes(sn), sn->bad);
	if (sn->state_rc == -EBUSY)
		snmp_log(LOG_WARNING, "fastmib: %s: group %s row %" PRIu32 ": %s\n", s->path,
			 g->name, ref->row, fastmib_last_error());
	sn->have_states = true;
	return sn;
}

void
fma_snaps_free(struct fma_seg *s)
{
	for (unsigned int i = 0; i < FMA_SNAP_REQUESTS; i++) {
		struct fma_request *rq = &s->requests[i];

		free(rq->snaps);
		free(rq->buckets);
		free(rq->arena);
		memset(rq, 0, sizeof(*rq));
	}
}
