/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib_writer(): map the calling lcore to its writer slot. EAL lcores
 * got their slots at creation (RTE_LCORE_FOREACH order); threads that
 * called rte_thread_register() claim a free extra slot on first use.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "writers.h"

/* Claim an extra slot for a registered non-EAL thread: CAS on the owner
 * word, so concurrent first calls of different threads never collide. */
static int
claim_extra_slot(struct fastmib_segment *seg, unsigned lcore)
{
	for (uint32_t s = seg->n_eal_slots; s < seg->n_slots; s++) {
		struct fms_slot *sl = fms_slot(seg, s);
		uint32_t free_owner = 0;

		if (__atomic_compare_exchange_n(&sl->owner, &free_owner, lcore + 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			__atomic_store_n(&sl->owner_pid, (uint32_t)getpid(), __ATOMIC_RELAXED);
			return (int)s;
		}
	}
	return -ENOSPC;
}

/*
 * Allocate the slot's region (counter data, event block) before its first
 * store, once: a claim is where a full tmpfs says so, as an error, rather
 * than as SIGBUS at the lcore's first update. Then the region is ready
 * (release): readers may load from it. *fresh: it was allocated now, so
 * it holds zeros.
 */
static int
make_ready(struct fastmib_segment *seg, uint32_t slot, bool *fresh)
{
	struct fms_slot *sl = fms_slot(seg, slot);
	int rc;

	*fresh = false;
	if (fms_slot_ready(seg, slot))
		return 0;
	rc = fms_alloc_range(seg, seg->lay.data.off + (uint64_t)slot * seg->lay.slot_stride,
			     seg->lay.slot_stride, "a writer slot's counters");
	if (rc == 0)
		__atomic_store_n(&sl->ready, 1, __ATOMIC_RELEASE);
	*fresh = rc == 0;
	return rc;
}

/* Point the writer at its slot's event block and seed its threshold PRNG. */
static void
writer_events_init(struct fastmib_segment *seg, struct fastmib_writer *w, uint32_t slot)
{
	uint64_t seed;

	w->ev_threshold = FASTMIB_EVENT_RATE_MAX;
	if (seg->schema->n_events == 0)
		return;
	w->ev_ring = fms_event_ring(seg, slot);
	w->ev_head_pub = fms_event_head(seg, slot);
	w->ev_logged = fms_event_counters(seg, slot);
	w->ev_dropped = w->ev_logged + seg->schema->n_events;
	w->ev_mask = seg->lay.event_ring - 1;
	/* A slot may be reused by a new thread of the same process: continue
	 * its record numbers so they stay unique within the slot. */
	w->ev_head = __atomic_load_n(w->ev_head_pub, __ATOMIC_RELAXED);
	/* splitmix64 of (TSC, slot): distinct, non-zero streams per writer. */
	seed = rte_rdtsc() + (uint64_t)(slot + 1) * 0x9e3779b97f4a7c15ull;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
	seed ^= seed >> 31;
	w->ev_rng = seed ? seed : 0x2545f4914f6cdd1dull;
}

struct fastmib_writer *
fastmib_writer(struct fastmib_segment *seg)
{
	unsigned lcore = rte_lcore_id();
	struct fms_writers *ws;
	struct fastmib_writer *w;
	bool fresh;
	int slot;

	if (seg == NULL) {
		fms_error(-EINVAL, "fastmib_writer: NULL segment");
		return NULL;
	}
	if (!seg->creator || seg->writers == NULL) {
		fms_error(-EPERM, "%s: only the creating process has writers", seg->path);
		return NULL;
	}
	ws = seg->writers;
	if (lcore == LCORE_ID_ANY || lcore >= RTE_MAX_LCORE) {
		fms_error(-EINVAL, "fastmib_writer: this thread has no lcore id; "
			  "call rte_thread_register() first");
		return NULL;
	}
	/* Only this lcore's thread writes by_lcore[lcore]. */
	if (ws->by_lcore[lcore])
		return ws->by_lcore[lcore];
	slot = ws->slot_of_lcore[lcore];
	if (slot < 0 && (slot = claim_extra_slot(seg, lcore)) < 0) {
		fms_error(-ENOSPC, "%s: all %u extra writer slots are taken; raise "
			  "fastmib_opts.extra_threads", seg->path,
			  seg->n_slots - seg->n_eal_slots);
		return NULL;
	}
	if (make_ready(seg, (uint32_t)slot, &fresh) < 0) {
		if ((uint32_t)slot >= seg->n_eal_slots) /* an extra slot: give it back */
			__atomic_store_n(&fms_slot(seg, (uint32_t)slot)->owner, 0, __ATOMIC_RELEASE);
		return NULL;
	}
	if (posix_memalign((void **)&w, FMS_CACHE_LINE, sizeof(*w)) != 0) {
		fms_error(-ENOMEM, "fastmib_writer: out of memory");
		return NULL;
	}
	memset(w, 0, sizeof(*w));
	w->percore = fms_slot_data(seg, (uint32_t)slot);
	w->shared = seg->shared;
	w->sn = &fms_slot(seg, (uint32_t)slot)->seq.sn;
	w->seg = seg;
	w->hint_limit = ws->hint_limit;
	w->slot = (uint32_t)slot;
	writer_events_init(seg, w, (uint32_t)slot);
	fms_peaks_writer_init(w, fresh);
	/* Before the writer's first transaction: a reset made by this thread
	 * inside its own transaction finds its slot by this tid. */
	__atomic_store_n(&fms_slot(seg, (uint32_t)slot)->owner_tid, (uint32_t)syscall(SYS_gettid),
			 __ATOMIC_RELAXED);
	ws->by_lcore[lcore] = w;
	return w;
}

void
fms_writers_close(struct fastmib_segment *seg)
{
	struct fms_writers *ws = seg->writers;

	/* First, while everything is still mapped: waits for a telemetry
	 * command reading this segment (see telemetry_commands.c). */
	fms_telemetry_forget(seg);

	for (unsigned i = 0; i < RTE_MAX_LCORE; i++) {
		struct fastmib_writer *w = ws->by_lcore[i];

		if (w == NULL)
			continue;
		fastmib_flush(w);
		for (unsigned j = i + 1; j < RTE_MAX_LCORE; j++)
			if (ws->by_lcore[j] == w)
				ws->by_lcore[j] = NULL;
		free(w);
	}
	fms_keytabs_free(seg);
	pthread_mutex_destroy(&ws->key_lock);
	free(ws);
	seg->writers = NULL;
	seg->close_writers = NULL;
}
