/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Event history of the SNMP serving core: the last `cap` event records an
 * agent copied out of a segment, numbered 1, 2, 3, ... in copy order.
 *
 * Numbers are contiguous within the history (the oldest record leaves when
 * a new one arrives in a full history), so a record is found by number in
 * O(1). The argument columns of the event table exist only for records
 * whose event has that many arguments; for each k, the numbers of the
 * records with at least k arguments are kept in their own ring, sorted by
 * construction, so the next such record is a binary search away.
 *
 * Not thread-safe: owned by the agent's single thread.
 */
#ifndef FMA_EVHIST_H
#define FMA_EVHIST_H

#include <stdbool.h>
#include <stdint.h>

#include "fastmib/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Highest event number; the history restarts at 1 after it. */
#define FMA_EVHIST_MAX_NUMBER UINT32_MAX

/** A ring of ascending record numbers. */
struct fma_evhist_nums {
	uint32_t *v;
	uint32_t head;
	uint32_t n;
};

struct fma_evhist {
	struct fastmib_event_rec *recs; /**< ring of cap records */
	uint8_t *n_args;                /**< arguments of each record's event */
	uint32_t cap;
	uint32_t head;                  /**< ring position of the oldest record */
	uint32_t n;                     /**< records held */
	uint64_t first;                 /**< number of the oldest record */
	uint64_t next;                  /**< number the next record gets */
	uint64_t restarts;              /**< times numbering went back to 1 */
	struct fma_evhist_nums with_args[FASTMIB_MAX_EVENT_ARGS];
};

/** Empty history for up to `cap` (>= 1) records. 0 or -ENOMEM. */
int fma_evhist_init(struct fma_evhist *h, uint32_t cap);
void fma_evhist_free(struct fma_evhist *h);

/**
 * Append `rec`, whose event has `n_args` arguments, dropping the oldest
 * record of a full history. Returns the record's number (1 after a
 * restart: once FMA_EVHIST_MAX_NUMBER has been given out, the history
 * is emptied and numbering begins again).
 */
uint32_t fma_evhist_push(struct fma_evhist *h,
			     const struct fastmib_event_rec *rec, uint32_t n_args);

/** Record number `num` and its argument count, or NULL when not held. */
const struct fastmib_event_rec *fma_evhist_get(const struct fma_evhist *h,
						   uint64_t num, uint32_t *n_args);

/**
 * Smallest number >= `from` of a held record whose event has at least
 * `min_args` arguments (0: any record), or -1 when there is none.
 * O(1) for min_args 0, O(log n) otherwise.
 */
int64_t fma_evhist_next(const struct fma_evhist *h, uint64_t from,
			    uint32_t min_args);

#ifdef __cplusplus
}
#endif

#endif /* FMA_EVHIST_H */
