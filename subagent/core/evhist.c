/* SPDX-License-Identifier: BSD-3-Clause */
/* Event history of the SNMP serving core; see evhist.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evhist.h"

int
fma_evhist_init(struct fma_evhist *h, uint32_t cap)
{
	memset(h, 0, sizeof(*h));
	if (cap == 0)
		return -EINVAL;
	h->cap = cap;
	h->next = 1;
	h->recs = calloc(cap, sizeof(*h->recs));
	h->n_args = calloc(cap, sizeof(*h->n_args));
	if (!h->recs || !h->n_args)
		goto nomem;
	for (unsigned int k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++) {
		h->with_args[k].v = calloc(cap, sizeof(uint32_t));
		if (!h->with_args[k].v)
			goto nomem;
	}
	return 0;
nomem:
	fma_evhist_free(h);
	return -ENOMEM;
}

void
fma_evhist_free(struct fma_evhist *h)
{
	free(h->recs);
	free(h->n_args);
	for (unsigned int k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++)
		free(h->with_args[k].v);
	memset(h, 0, sizeof(*h));
}

static void
fma_nums_trim(struct fma_evhist_nums *q, uint32_t cap, uint64_t first)
{
	while (q->n && q->v[q->head] < first) {
		q->head = (q->head + 1) % cap;
		q->n--;
	}
}

uint32_t
fma_evhist_push(struct fma_evhist *h, const struct fastmib_event_rec *rec,
		    uint32_t n_args)
{
	uint32_t pos;
	uint64_t num;

	if (h->next > FMA_EVHIST_MAX_NUMBER) {
		/* A manager must never see a number meaning two records. */
		h->n = h->head = 0;
		for (unsigned int k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++)
			h->with_args[k].n = h->with_args[k].head = 0;
		h->next = 1;
		h->restarts++;
	}
	num = h->next++;
	if (h->n == h->cap) {
		h->head = (h->head + 1) % h->cap;
		h->n--;
	}
	pos = (h->head + h->n) % h->cap;
	h->recs[pos] = *rec;
	h->n_args[pos] = (uint8_t)(n_args > FASTMIB_MAX_EVENT_ARGS
				   ? FASTMIB_MAX_EVENT_ARGS : n_args);
	h->n++;
	h->first = num + 1 - h->n;
	for (unsigned int k = 0; k < h->n_args[pos]; k++) {
		struct fma_evhist_nums *q = &h->with_args[k];

		/* Entries older than the history go first, so a ring of the
		 * history's capacity never overflows. */
		fma_nums_trim(q, h->cap, h->first);
		q->v[(q->head + q->n) % h->cap] = (uint32_t)num;
		q->n++;
	}
	return (uint32_t)num;
}

const struct fastmib_event_rec *
fma_evhist_get(const struct fma_evhist *h, uint64_t num, uint32_t *n_args)
{
	uint32_t pos;

	if (h->n == 0 || num < h->first || num - h->first >= h->n)
		return NULL;
	pos = (uint32_t)((h->head + (num - h->first)) % h->cap);
	if (n_args)
		*n_args = h->n_args[pos];
	return &h->recs[pos];
}

int64_t
fma_evhist_next(const struct fma_evhist *h, uint64_t from, uint32_t min_args)
{
	const struct fma_evhist_nums *q;
	uint32_t lo = 0, hi;

	if (h->n == 0)
		return -1;
	if (from < h->first)
		from = h->first;
	if (from - h->first >= h->n)
		return -1;
	if (min_args == 0)
		return (int64_t)from;
	if (min_args > FASTMIB_MAX_EVENT_ARGS)
		return -1;
	/* Ascending numbers, possibly led by some older than the history
	 * (trimmed lazily): `from` is at least h->first, so those never match. */
	q = &h->with_args[min_args - 1];
	hi = q->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (q->v[(q->head + mid) % h->cap] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < q->n ? (int64_t)q->v[(q->head + lo) % h->cap] : -1;
}
