/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the event torture writer and its reader process. */
#ifndef FASTMIB_EVENTS_TORTURE_H
#define FASTMIB_EVENTS_TORTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"

#define ET_RING 256u

/*
 * Arguments of a rate-9 record number `seq` of event `ev` logged by slot
 * `slot`: every word depends on the others, so a record mixed from two
 * writes breaks at least one relation.
 */
static inline void
et_args(uint64_t seq, uint32_t ev, uint32_t slot, uint64_t a[4])
{
	a[0] = seq;
	a[1] = seq * 3 + ev;
	a[2] = ~seq;
	a[3] = ((uint64_t)slot << 32) | (uint32_t)(seq * 7);
}

static inline bool
et_valid(const struct fastmib_event_rec *r)
{
	uint64_t a[4];

	if (r->event == TS_EV_SAMPLED)
		return r->args[0] == 0 && r->args[1] == 0 && r->args[2] == 0 && r->args[3] == 0;
	et_args(r->seq, r->event, r->slot, a);
	return r->args[0] == a[0] && r->args[1] == a[1] && r->args[2] == a[2] &&
	       r->args[3] == a[3];
}

#endif
