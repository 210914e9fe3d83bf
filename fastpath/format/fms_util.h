/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: what the segment libraries share besides the file layout
 * (segment_format.h): the error message of the calling thread, the clocks,
 * and the serialized schema. No DPDK header, no I/O of its own.
 */
#ifndef FASTMIB_FMS_UTIL_H
#define FASTMIB_FMS_UTIL_H

#include <stdint.h>

#include "fastmib/schema.h"

/* clock.c: CLOCK_REALTIME, for the times a segment records (creation,
 * resets, discontinuities), and CLOCK_MONOTONIC, for deadlines (immune
 * to clock steps), in nanoseconds. */
uint64_t fms_now_ns(void);
uint64_t fms_mono_ns(void);

/* error.c: set this thread's message; returns err. */
int fms_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* states.c: write the defaults of the group's states into its state
 * struct at `data` (state_size bytes): each state's `def`, or zeros. */
void fms_state_defaults(const struct fastmib_group_schema *g, uint8_t *data);

/* schema_check.c: fastmib_schema_check() stopping at the first fault. */
int fms_schema_check(const struct fastmib_schema *s);
/* schema_io.c */
uint64_t fms_schema_serialized_len(const struct fastmib_schema *s);
void fms_schema_serialize(const struct fastmib_schema *s, uint8_t *buf);
int fms_schema_deserialize(const uint8_t *buf, uint64_t len,
			   struct fastmib_schema **out);
void fms_schema_free(struct fastmib_schema *s);
uint64_t fms_fnv1a(const uint8_t *p, uint64_t len);
/* A valid schema whose hash field, when given, is its hash; *hash gets
 * its hash. -EINVAL (a broken rule) or -ESTALE, with a message naming
 * `path`. */
int fms_schema_identity(const struct fastmib_schema *s, const char *path, uint64_t *hash);

#endif /* FASTMIB_FMS_UTIL_H */
