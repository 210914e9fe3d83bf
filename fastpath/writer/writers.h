/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to libfastmib: the creator's per-process writer state, hung off
 * its segment handle (struct fastmib_segment.writers). EAL lcore ids live
 * here and nowhere on the reader side.
 */
#ifndef FASTMIB_WRITER_WRITERS_H
#define FASTMIB_WRITER_WRITERS_H

#include <pthread.h>

#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "fastmib/fastmib.h"
#include "handle.h"

struct fms_keytab; /* keys.c */

struct fms_writers {
	uint32_t hint_limit;                           /* fastmib_opts.hint_limit */
	pthread_mutex_t key_lock;                      /* serializes key inserts and removes */
	struct fms_keytab **keytabs;                   /* per keyed table, made at first use */
	rte_spinlock_t enable_lock;                    /* serializes row enables */
	int16_t slot_of_lcore[RTE_MAX_LCORE];          /* EAL slot, -1 = none */
	struct fastmib_writer *by_lcore[RTE_MAX_LCORE]; /* written by that lcore only */
};

/* log.c: the "lib.fastmib" logtype; FMS_LOG(NOTICE, "fmt", ...) logs one
 * line through it. */
extern int fms_logtype;
#define FMS_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, fms_logtype, "fastmib: " fmt "\n", ##__VA_ARGS__)

/* telemetry_commands.c: list a segment this process created in the telemetry
 * commands (registering them at the first call), and take it off the list
 * before it is unmapped. Never fail: telemetry is a view. */
void fms_telemetry_add(struct fastmib_segment *seg);
void fms_telemetry_forget(struct fastmib_segment *seg);

/* states.c: the row's state record allocated and given the defaults, under
 * its lock (rows.c, before the row is made present). 0 or -errno. */
int fms_state_init_row(struct fastmib_segment *seg, unsigned group, uint32_t row);

/* peaks.c: a new writer's view of the peak resets: the segment's request
 * count to watch (its own word in a model without peaks), and, for a
 * region just allocated (`fresh`: all zeros), every reset so far
 * acknowledged at once. */
void fms_peaks_writer_init(struct fastmib_writer *w, bool fresh);

/* keys.c: free the keyed tables' indexes. */
void fms_keytabs_free(struct fastmib_segment *seg);

/* writer.c: the close_writers hook of a creator's handle. Flushes and
 * frees every writer of this process. */
void fms_writers_close(struct fastmib_segment *seg);

#endif /* FASTMIB_WRITER_WRITERS_H */
