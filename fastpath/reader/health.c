/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The writer's health as readers see it: which lcore owns each slot, how
 * long a lcore has been inside its current transaction, the breaches its
 * slot counted, and the values handed out best effort.
 *
 * The fast path records no time (a clock read per transaction would cost
 * more than its updates), so "how long inside" is observed: the first
 * reader that sees a slot's sequence number odd notes the transaction and
 * the time in the slot's observation word (fms_obs_word()); as long as the
 * sequence number stays the same, the transaction has lasted at least
 * since then. A handle that may write the reset area keeps the word in the
 * segment, where every reader (fastmib-stat --info beside the agent) finds
 * it; a read-only handle keeps its own and also uses the segment's.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "guard.h"
#include "handle.h"

#define OBS_SN_MASK ((1u << FMS_OBS_SN_BITS) - 1)

/* Milliseconds since the segment's creation (the observation clock). */
static uint64_t
obs_now_ms(const struct fastmib_segment *seg)
{
	uint64_t now = fms_now_ns(), t0 = seg->hdr->created_ns;

	return now > t0 ? (now - t0) / 1000000 : 0;
}

/*
 * Note, in `*word`, that the transaction of sequence number `sn` was seen
 * at `now_ms` unless the word already names it; returns when it was
 * first seen.
 */
static uint64_t
note(uint64_t *word, uint32_t sn, uint64_t now_ms)
{
	uint64_t w = __atomic_load_n(word, __ATOMIC_RELAXED);

	for (;;) {
		if ((w & OBS_SN_MASK) == (sn & OBS_SN_MASK))
			return w >> FMS_OBS_SN_BITS;
		if (__atomic_compare_exchange_n(word, &w, fms_obs_word(sn, now_ms), false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return now_ms;
	}
}

static uint64_t *
local_words(struct fastmib_segment *seg)
{
	uint64_t *w = __atomic_load_n(&seg->obs_local, __ATOMIC_ACQUIRE), *none = NULL;

	if (w != NULL)
		return w;
	w = calloc(seg->n_slots, sizeof(*w));
	if (w == NULL)
		return NULL;
	if (!__atomic_compare_exchange_n(&seg->obs_local, &none, w, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(w);
		w = none;
	}
	return w;
}

/*
 * Whether slot s is inside a transaction now, and if so since when it has
 * been (ms, observation clock) in *since_ms.
 */
static bool
observe(struct fastmib_segment *seg, uint32_t s, uint64_t now_ms, uint64_t *since_ms)
{
	uint64_t *shared_word = (uint64_t *)(void *)(seg->base + seg->lay.observations) + s;
	uint32_t sn = __atomic_load_n(&fms_slot(seg, s)->seq.sn, __ATOMIC_ACQUIRE);
	uint64_t *local;

	if (!(sn & 1) || !fms_slot_ready(seg, s))
		return false;
	if (seg->reset_writable) {
		*since_ms = note(shared_word, sn, now_ms);
		return true;
	}
	local = local_words(seg);
	*since_ms = local ? note(&local[s], sn, now_ms) : now_ms;
	/* an agent beside us may have seen the same transaction earlier */
	uint64_t w = __atomic_load_n(shared_word, __ATOMIC_RELAXED);

	if ((w & OBS_SN_MASK) == (sn & OBS_SN_MASK) && (w >> FMS_OBS_SN_BITS) < *since_ms)
		*since_ms = w >> FMS_OBS_SN_BITS;
	return true;
}

static int
fastmib_slot_info_mapped(struct fastmib_segment *seg, uint32_t slot,
			 struct fastmib_slot_info *info)
{
	const struct fms_slot *sl;
	uint64_t now_ms, since_ms;
	uint32_t owner;

	if (slot >= seg->n_slots)
		return fms_error(-EINVAL, "%s: slot %u does not exist (%u slots)", seg->path,
				 slot, seg->n_slots);
	sl = fms_slot(seg, slot);
	owner = __atomic_load_n(&sl->owner, __ATOMIC_RELAXED);
	info->lcore = owner ? owner - 1 : UINT32_MAX;
	info->pid = __atomic_load_n(&sl->owner_pid, __ATOMIC_RELAXED);
	info->tid = __atomic_load_n(&sl->owner_tid, __ATOMIC_RELAXED);
	info->ready = fms_slot_ready(seg, slot);
	info->out_of_range = __atomic_load_n(&sl->out_of_range, __ATOMIC_RELAXED);
	info->nested = __atomic_load_n(&sl->nested, __ATOMIC_RELAXED);
	now_ms = obs_now_ms(seg);
	info->in_tx = observe(seg, slot, now_ms, &since_ms);
	info->in_tx_ns = info->in_tx ? (now_ms - since_ms) * 1000000 : 0;
	return 0;
}

/*
 * A lcore inside a transaction that no reader has watched for the
 * patience yet is watched now, for at most what is left of it: it leaves
 * that transaction (running; another one it opens since is not this
 * wait's business), or it has been inside for the whole patience
 * (stalled). Lcores that merely pass through short transactions leave
 * them within microseconds, so the answer comes as fast.
 */
static enum fastmib_writer_status
fastmib_writer_status_mapped(struct fastmib_segment *seg, uint32_t *slot)
{
	static const struct timespec nap = { 0, 20000 };
	uint32_t watched[FMS_MAX_SLOTS], sn_of[FMS_MAX_SLOTS], n = 0;
	uint64_t patience = seg->read_patience_ns, deadline, now_ms, since_ms;

	if (!fastmib_writer_running(seg))
		return FASTMIB_WRITER_GONE;
	deadline = fms_mono_ns() + patience + 2000000; /* the clocks need not agree */
	now_ms = obs_now_ms(seg);
	for (uint32_t s = 0; s < seg->n_slots; s++) {
		if (!observe(seg, s, now_ms, &since_ms))
			continue;
		watched[n] = s;
		sn_of[n++] = __atomic_load_n(&fms_slot(seg, s)->seq.sn, __ATOMIC_ACQUIRE);
	}
	while (n > 0) {
		now_ms = obs_now_ms(seg);
		for (uint32_t i = 0; i < n;) {
			uint32_t s = watched[i];

			if (__atomic_load_n(&fms_slot(seg, s)->seq.sn, __ATOMIC_ACQUIRE) !=
				    sn_of[i] ||
			    !observe(seg, s, now_ms, &since_ms)) {
				watched[i] = watched[--n]; /* it left that transaction */
				sn_of[i] = sn_of[n];
				continue;
			}
			if ((now_ms - since_ms) * 1000000 >= patience) {
				if (slot)
					*slot = s;
				return FASTMIB_WRITER_STALLED;
			}
			i++;
		}
		if (n == 0 || fms_mono_ns() > deadline)
			break;
		nanosleep(&nap, NULL);
	}
	return FASTMIB_WRITER_RUNNING;
}

static uint64_t
fastmib_out_of_range_updates_mapped(const struct fastmib_segment *seg)
{
	uint64_t sum = 0;

	for (uint32_t s = 0; s < seg->n_slots; s++)
		sum += __atomic_load_n(&fms_slot(seg, s)->out_of_range, __ATOMIC_RELAXED);
	return sum;
}

static uint64_t
fastmib_best_effort_reads_mapped(const struct fastmib_segment *seg)
{
	return __atomic_load_n(&seg->reset_head->best_effort, __ATOMIC_RELAXED);
}

FMS_GUARDED_ENTRY(int, fastmib_slot_info,
		  (struct fastmib_segment *seg, uint32_t slot, struct fastmib_slot_info *info),
		  (seg, slot, info), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(enum fastmib_writer_status, fastmib_writer_status,
		  (struct fastmib_segment *seg, uint32_t *slot), (seg, slot),
		  FASTMIB_WRITER_GONE, FASTMIB_WRITER_GONE)

FMS_GUARDED_ENTRY(uint64_t, fastmib_out_of_range_updates,
		  (const struct fastmib_segment *seg), (seg), 0, 0)

FMS_GUARDED_ENTRY(uint64_t, fastmib_best_effort_reads,
		  (const struct fastmib_segment *seg), (seg), 0, 0)
