/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Event log readers: copy records out of every writer slot's ring without
 * ever stopping a writer, reject records that were being overwritten while
 * copied, merge the slots by TSC and compute each record's lag.
 *
 * No EAL calls here (readers link fastmib_core only).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "handle.h"

#define N_LEVELS (FASTMIB_EVENT_RATE_MAX + 1)

/* What a cursor knows about one slot. */
struct ev_slot_state {
	uint64_t next;              /* record number to copy next */
	uint64_t last;              /* record number last returned; 0 = none */
	uint64_t near[N_LEVELS];    /* near[l]: TSC of the newest returned record of
				       level <= l since the last gap; 0 = none */
};

struct fastmib_event_cursor {
	uint32_t n_slots;
	uint32_t ring;
	uint64_t dropped;
	struct ev_slot_state *st;
	struct fastmib_event_rec *scratch; /* n_slots x ring copied records */
	uint32_t *cnt;                     /* per slot: records in scratch */
	uint32_t *pos;                     /* per slot: records returned this poll */
	uint64_t *end;                     /* per slot: record number after the copy */
};

static uint64_t
load_head(const struct fastmib_segment *seg, uint32_t s)
{
	/* Pairs with the writer's store-release of the head: every record up
	 * to the value read was complete when the head was published. A slot
	 * not ready has logged nothing, and its block is not to be touched. */
	if (!fms_slot_ready(seg, s))
		return 0;
	return __atomic_load_n(fms_event_head(seg, s), __ATOMIC_ACQUIRE);
}

static int
fastmib_event_cursor_new_mapped(struct fastmib_segment *seg, struct fastmib_event_cursor **curp)
{
	struct fastmib_event_cursor *c;
	uint32_t n, ring;

	if (seg == NULL || curp == NULL)
		return fms_error(-EINVAL, "fastmib_event_cursor_new: bad arguments");
	n = seg->schema->n_events ? seg->n_slots : 0;
	ring = seg->lay.event_ring;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return fms_error(-ENOMEM, "out of memory");
	c->n_slots = n;
	c->ring = ring;
	if (n) {
		c->st = calloc(n, sizeof(*c->st));
		c->scratch = malloc((size_t)n * ring * sizeof(*c->scratch));
		c->cnt = calloc(n, sizeof(*c->cnt));
		c->pos = calloc(n, sizeof(*c->pos));
		c->end = calloc(n, sizeof(*c->end));
		if (!c->st || !c->scratch || !c->cnt || !c->pos || !c->end) {
			fastmib_event_cursor_free(c);
			return fms_error(-ENOMEM, "out of memory");
		}
	}
	for (uint32_t s = 0; s < n; s++) {
		uint64_t head = load_head(seg, s);

		c->st[s].next = head >= ring ? head - ring + 1 : 1;
	}
	*curp = c;
	return 0;
}

void
fastmib_event_cursor_free(struct fastmib_event_cursor *cur)
{
	if (cur == NULL)
		return;
	free(cur->st);
	free(cur->scratch);
	free(cur->cnt);
	free(cur->pos);
	free(cur->end);
	free(cur);
}

uint64_t
fastmib_event_cursor_dropped(const struct fastmib_event_cursor *cur)
{
	return cur->dropped;
}

static uint64_t
tsc_to_ns(const struct fms_header *h, uint64_t tsc)
{
	__int128 d = (__int128)(int64_t)(tsc - h->ref_tsc) * 1000000000;

	return (uint64_t)((__int128)h->ref_ns + d / (__int128)h->tsc_hz);
}

static uint64_t
cycles_to_ns(const struct fms_header *h, uint64_t cycles)
{
	return (uint64_t)((unsigned __int128)cycles * 1000000000u / h->tsc_hz);
}

/*
 * Copy one record: seqcount read section over the record's cache line.
 * The acquire load of seq pairs with the writer's store-release of seq = n
 * (all fields of record n are visible); the acquire fence after the field
 * loads pairs with the writer's release fence after seq = 0, so if any
 * field was already rewritten for a newer record, the second load of seq
 * cannot return n. Returns false for a record overwritten (or being
 * overwritten) or naming no event of the schema.
 */
static bool
copy_record(const struct fastmib_event_slotrec *r, uint64_t n, uint32_t n_events,
	    struct fastmib_event_rec *out)
{
	if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != n)
		return false;
	out->tsc = __atomic_load_n(&r->tsc, __ATOMIC_RELAXED);
	out->event = __atomic_load_n(&r->event, __ATOMIC_RELAXED);
	for (unsigned k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++)
		out->args[k] = __atomic_load_n(&r->args[k], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&r->seq, __ATOMIC_RELAXED) != n)
		return false;
	out->seq = n;
	return out->event < n_events;
}

/* Copy slot s's records [next, next + limit) that are still in the ring;
 * returns the record number after the last one tried. */
static uint64_t
copy_slot(struct fastmib_segment *seg, struct fastmib_event_cursor *c, uint32_t s,
	  unsigned int limit)
{
	struct ev_slot_state *st = &c->st[s];
	const struct fastmib_event_slotrec *ring = fms_event_ring(seg, s);
	struct fastmib_event_rec *out = c->scratch + (size_t)s * c->ring;
	uint64_t head = load_head(seg, s), n, end;

	c->cnt[s] = 0;
	c->pos[s] = 0;
	if (head < st->next)
		return st->next;
	if (head - st->next >= c->ring) {
		/* The writer lapped this cursor: the oldest are gone for good. */
		c->dropped += head - c->ring + 1 - st->next;
		st->next = head - c->ring + 1;
	}
	end = head + 1;
	if (end - st->next > limit)
		end = st->next + limit;
	for (n = st->next; n < end; n++) {
		struct fastmib_event_rec *o = &out[c->cnt[s]];

		if (!copy_record(&ring[n & (c->ring - 1)], n, seg->schema->n_events, o))
			continue;
		o->slot = s;
		c->cnt[s]++;
	}
	return end;
}

/* Lag of a record returned in order on its slot; resets after a gap. */
static void
set_lag(const struct fastmib_segment *seg, struct ev_slot_state *st,
	struct fastmib_event_rec *r)
{
	unsigned level = seg->schema->events[r->event].level;

	if (r->seq != st->last + 1)
		memset(st->near, 0, sizeof(st->near));
	/* A thread that migrated between cores may see a slightly smaller TSC. */
	r->lag = st->near[level] && r->tsc > st->near[level] ? r->tsc - st->near[level] : 0;
	r->lag_ns = r->lag ? cycles_to_ns(seg->hdr, r->lag) : 0;
	for (unsigned l = level; l < N_LEVELS; l++)
		st->near[l] = r->tsc;
	st->last = r->seq;
	r->time_ns = tsc_to_ns(seg->hdr, r->tsc);
}

/* Slot whose next copied record has the smallest TSC, or -1. */
static int
pick_slot(const struct fastmib_event_cursor *c)
{
	int best = -1;
	uint64_t best_tsc = 0;

	for (uint32_t s = 0; s < c->n_slots; s++) {
		uint64_t tsc;

		if (c->pos[s] == c->cnt[s])
			continue;
		tsc = c->scratch[(size_t)s * c->ring + c->pos[s]].tsc;
		if (best < 0 || tsc < best_tsc) {
			best = (int)s;
			best_tsc = tsc;
		}
	}
	return best;
}

static int
fastmib_events_poll_mapped(struct fastmib_segment *seg, struct fastmib_event_cursor *cur,
		    struct fastmib_event_rec *out, unsigned int max)
{
	unsigned int got = 0, limit;
	uint64_t *end = cur ? cur->end : NULL;
	int s;

	if (seg == NULL || cur == NULL || (out == NULL && max))
		return fms_error(-EINVAL, "fastmib_events_poll: bad arguments");
	if (cur->n_slots == 0 || max == 0)
		return 0;
	if (cur->n_slots != seg->n_slots || cur->ring != seg->lay.event_ring)
		return fms_error(-EINVAL, "fastmib_events_poll: cursor of another segment");
	limit = max < cur->ring ? max : cur->ring;
	for (uint32_t i = 0; i < cur->n_slots; i++)
		end[i] = copy_slot(seg, cur, i, limit);
	while (got < max && (s = pick_slot(cur)) >= 0) {
		struct fastmib_event_rec *r =
			&cur->scratch[(size_t)s * cur->ring + cur->pos[s]++];

		set_lag(seg, &cur->st[s], r);
		out[got++] = *r;
	}
	/* Advance each slot past what it returned; records that failed to
	 * copy before that point are counted as dropped exactly once. */
	for (uint32_t i = 0; i < cur->n_slots; i++) {
		struct ev_slot_state *st = &cur->st[i];
		uint64_t next = cur->pos[i] == cur->cnt[i] ? end[i] :
				cur->scratch[(size_t)i * cur->ring + cur->pos[i]].seq;

		cur->dropped += (next - st->next) - cur->pos[i];
		st->next = next;
	}
	return (int)got;
}

static uint64_t
sum_counter(const struct fastmib_segment *seg, unsigned int event, unsigned int which)
{
	uint64_t sum = 0;

	if (event >= seg->schema->n_events)
		return 0;
	for (uint32_t s = 0; s < seg->n_slots; s++) {
		const uint64_t *c;

		if (!fms_slot_ready(seg, s))
			continue;
		c = fms_event_counters(seg, s);
		sum += __atomic_load_n(&c[which * seg->schema->n_events + event],
				       __ATOMIC_RELAXED);
	}
	return sum;
}

static uint64_t
fastmib_event_logged_mapped(const struct fastmib_segment *seg, unsigned int event)
{
	return sum_counter(seg, event, 0);
}

static uint64_t
fastmib_event_dropped_mapped(const struct fastmib_segment *seg, unsigned int event)
{
	return sum_counter(seg, event, 1);
}

FMS_GUARDED_ENTRY(int, fastmib_event_cursor_new,
		  (struct fastmib_segment *seg, struct fastmib_event_cursor **curp),
		  (seg, curp), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(int, fastmib_events_poll,
		  (struct fastmib_segment *seg, struct fastmib_event_cursor *cur,
		   struct fastmib_event_rec *out, unsigned int max),
		  (seg, cur, out, max), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(uint64_t, fastmib_event_logged,
		  (const struct fastmib_segment *seg, unsigned int event),
		  (seg, event), 0, 0)

FMS_GUARDED_ENTRY(uint64_t, fastmib_event_dropped,
		  (const struct fastmib_segment *seg, unsigned int event),
		  (seg, event), 0, 0)
