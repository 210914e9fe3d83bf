/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The slow paths of the fast path's two contract breaches: an update whose
 * table index is out of range, and a transaction opened inside an open one.
 * Neither may harm a reader: the update goes to the group's scratch row,
 * the nested open is refused. Both are counted in the writer's slot, where
 * every reader sees them (fastmib_writer_breaches()), and logged at most
 * once a second per process, so a lcore making millions of them cannot
 * flood the log.
 */
#include <assert.h>
#include <inttypes.h>

#include "writers.h"

#define BREACH_LOG_INTERVAL_NS 1000000000ull

/* One rate limit per process: whichever breach comes first in a second. */
static uint64_t next_log_ns;

static bool
may_log(void)
{
	uint64_t now = fms_mono_ns(), next = __atomic_load_n(&next_log_ns, __ATOMIC_RELAXED);

	return now >= next &&
	       __atomic_compare_exchange_n(&next_log_ns, &next, now + BREACH_LOG_INTERVAL_NS,
					   false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The slot's counter `c`: only this writer's thread stores it. */
static uint64_t
count(uint64_t *c)
{
	uint64_t n = __atomic_load_n(c, __ATOMIC_RELAXED) + 1;

	__atomic_store_n(c, n, __ATOMIC_RELAXED);
	return n;
}

uint32_t
fastmib_row_out_of_range(struct fastmib_writer *w, unsigned group)
{
	struct fastmib_segment *seg = w->seg;
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	uint64_t n = count(&fms_slot(seg, w->slot)->out_of_range);

	if (may_log())
		FMS_LOG(ERR, "%s: group %s: an update with an index out of range (%s) went "
			"to the scratch row (%" PRIu64 " such updates by writer slot %u)",
			seg->path, g->name,
			fastmib_group_keyed(g) ? "a row past the capacity: rows come from the "
						 "key functions" : "C indexes run 0..max-1",
			n, w->slot);
	return g->n_rows;
}

void
fastmib_tx_nested(struct fastmib_writer *w)
{
	struct fastmib_segment *seg = w->seg;
	uint64_t n = count(&fms_slot(seg, w->slot)->nested);

	if (may_log())
		FMS_LOG(ERR, "%s: writer slot %u opened a transaction inside an open one; "
			"refused (%" PRIu64 " times): its updates belong to the open one",
			seg->path, w->slot, n);
#ifdef FASTMIB_DEBUG
	assert(!"fastmib: transaction opened inside an open transaction");
#endif
}
