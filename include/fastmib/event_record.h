/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The one part of a segment's layout that inline writer code stores to and
 * readers copy: a record of a writer slot's event ring. Apart from the
 * writer's header so that the segment format needs no DPDK header.
 */
#ifndef FASTMIB_EVENT_RECORD_H
#define FASTMIB_EVENT_RECORD_H

#include <stdint.h>

#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One record of a writer slot's event ring, in the segment: one cache line,
 * so a record never shares a line with its neighbours' writes.
 *
 * `seq` is the record number (1, 2, ... per slot) while the record is
 * complete, and 0 while its writer is replacing it. A record number is
 * never reused, so a reader that sees the same non-zero `seq` before and
 * after copying the other fields has copied one complete record.
 */
struct fastmib_event_slotrec {
	uint64_t seq;
	uint64_t tsc;
	uint32_t event;           /**< index into the schema's events */
	uint32_t pad;
	uint64_t args[FASTMIB_MAX_EVENT_ARGS];
	uint64_t pad2;
};

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_EVENT_RECORD_H */
