/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Publishing peak resets (segment_format.h, "Peak resets"): the writer
 * side of the two peak logs. Each log has one writer at a time (the
 * resetters' under the reset lock, the enables' under the creator's
 * enable lock), which names its next entry in the records of the rows
 * it resets, then publishes it here. The lcores apply entries at their
 * transaction opens (fastpath/writer/peaks.c).
 */
#include "handle.h"

uint64_t
fms_peak_next(struct fastmib_segment *seg, int log)
{
	/* the caller is the log's one writer: nobody else moves its head */
	return __atomic_load_n(&fms_peaks(seg)->log[log].head, __ATOMIC_RELAXED) + 1;
}

/*
 * Entry `n` (fms_peak_next()) resets the peaks of `row` of `group` (or
 * FMS_PEAK_ALL of either). Memory ordering: the entry is stored before
 * the head moves to it (release), and the records naming it were stored
 * before that (in their write sections), so a lcore that loads the head
 * with acquire finds the entry and the records complete. The request
 * count is raised last (release, an atomic add: both logs' writers add
 * to it): a lcore that sees it raised finds the head moved.
 */
void
fms_peak_publish(struct fastmib_segment *seg, int log, uint64_t n, uint32_t group,
		 uint32_t row)
{
	struct fms_peaks *pk = fms_peaks(seg);
	struct fms_peak_log *l = &pk->log[log];

	__atomic_store_n(&l->entry[n % FMS_PEAK_LOG], fms_peak_entry(group, row),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&l->head, n, __ATOMIC_RELEASE);
	__atomic_fetch_add(&pk->requests, 1, __ATOMIC_RELEASE);
}
