/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the one place that hands the segment's sequence numbers to
 * DPDK's rte_seqcount and rte_seqlock, whose read and write protocols the
 * libraries run on them. The segment format names the words itself
 * (struct fms_seqcount, struct fms_seqlock in segment_format.h), so that it
 * needs no DPDK header and its layout cannot move with DPDK's; here the two
 * are tied together, and a DPDK whose layout differs fails to build here.
 *
 * Checked against DPDK 22.11 (Debian 12's 22.11.x), where rte_seqcount_t
 * is { uint32_t sn; } and rte_seqlock_t is { rte_seqcount_t count;
 * rte_spinlock_t lock; } with an int-sized lock. Later DPDK releases mark
 * `sn` RTE_ATOMIC(uint32_t), which keeps its size and place.
 */
#ifndef FASTMIB_SEQ_SHIM_H
#define FASTMIB_SEQ_SHIM_H

#include <stddef.h>

#include <rte_seqcount.h>
#include <rte_seqlock.h>

#include "segment_format.h"

_Static_assert(sizeof(rte_seqcount_t) == sizeof(struct fms_seqcount) &&
		       offsetof(rte_seqcount_t, sn) == offsetof(struct fms_seqcount, sn),
	       "rte_seqcount_t is no longer one uint32_t: check this DPDK's layout");
_Static_assert(sizeof(rte_seqlock_t) == sizeof(struct fms_seqlock) &&
		       offsetof(rte_seqlock_t, count) == offsetof(struct fms_seqlock, count) &&
		       offsetof(rte_seqlock_t, lock) == offsetof(struct fms_seqlock, lock) &&
		       sizeof(rte_spinlock_t) == sizeof(uint32_t),
	       "rte_seqlock_t is no longer a seqcount and an int lock: check this DPDK's layout");

/* A segment's sequence number as DPDK's seqcount. */
static inline rte_seqcount_t *
fms_rte_seqcount(struct fms_seqcount *s)
{
	return (rte_seqcount_t *)(void *)s;
}

static inline const rte_seqcount_t *
fms_rte_seqcount_const(const struct fms_seqcount *s)
{
	return (const rte_seqcount_t *)(const void *)s;
}

/* A segment's sequence number and lock as DPDK's seqlock. */
static inline rte_seqlock_t *
fms_rte_seqlock(struct fms_seqlock *l)
{
	return (rte_seqlock_t *)(void *)l;
}

#endif /* FASTMIB_SEQ_SHIM_H */
