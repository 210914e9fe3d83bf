/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to libfastmib_reader and libfastmib: the in-process handle behind
 * struct fastmib_segment, addresses inside a mapped segment, and the
 * reader functions the writer library builds on. No DPDK library calls:
 * readers link this without starting EAL.
 */
#ifndef FASTMIB_READER_HANDLE_H
#define FASTMIB_READER_HANDLE_H

#include <stdbool.h>
#include <sys/types.h>

#include "fastmib/reader.h"
#include "fms_util.h"
#include "segment_format.h"

struct fms_writers; /* the creator's writers: fastpath/writer/writers.h */
struct fms_key_order; /* a reader's order of a keyed table's keys: reader/keys.c */

/* The in-process handle behind struct fastmib_segment. */
struct fastmib_segment {
	char *path;
	dev_t dev;
	ino_t ino;
	uint8_t *base;
	size_t size;
	int creator;
	int reset_writable;
	uint32_t n_slots;
	uint32_t n_eal_slots;
	struct fms_layout lay;
	struct fastmib_schema *schema; /* heap, rebuilt from the file */
	struct fms_header *hdr;
	uint8_t *slots;
	struct fms_shared *shared_head;
	uint8_t *shared;
	struct fms_reset *reset_head;
	struct fastmib_read_stats stats; /* relaxed atomics */
	uint64_t *alloc_pages;           /* bit per page of the file this process allocated */
	struct fms_key_order **orders;   /* keyed tables: the keys in order (reader/keys.c) */
	uint64_t *obs_local;             /* a read-only handle's slot observations (health.c) */
	uint64_t read_patience_ns;       /* fastmib_set_read_patience() */
	uint64_t stuck_until;            /* atomic; CLOCK_MONOTONIC ns, see fastmib_read() */
	int fd;                          /* the file, kept open: size and liveness checks */
	int faulted;                     /* atomic; a guarded access faulted (guard.h) */
	/*
	 * Creator only (NULL otherwise): the writer library's per-process
	 * writers, and the function fastmib_close() calls to flush and free
	 * them before the mapping goes. The reader side never looks inside.
	 */
	struct fms_writers *writers;
	void (*close_writers)(struct fastmib_segment *seg);
};

/* attach.c */
/* Open a segment path for `oflags` (O_RDONLY or O_RDWR) without following
 * a link or blocking, and only a regular file of a trusted owner that not
 * every user can write (fms_check_trusted()); 0 and *fdp, or -errno with a
 * message naming the path and the reason. */
int fms_open_segment(const char *path, int oflags, int *fdp);
/* Owner and mode checks of a file or directory the programs rely on: owned
 * by root, by the caller's effective uid or by the owner of the directory
 * holding it (when that directory is writable by its owner only), and not
 * writable by every user. `what` names it in the message. */
struct stat;
int fms_check_trusted(const char *path, const struct stat *st, const char *what);
int fms_map_handle(struct fastmib_segment *seg, int fd, const char *path,
		   int writable_all, int writable_reset);
/* Unmap and free a handle whose writers (if any) are gone. */
void fms_handle_free(struct fastmib_segment *seg);

/* Addresses inside a mapped segment. */
static inline struct fms_slot *
fms_slot(const struct fastmib_segment *seg, uint32_t s)
{
	return (struct fms_slot *)(void *)seg->slots + s;
}

/*
 * Whether slot s's region (counter data and event block) is allocated.
 * Acquire: pairs with the claiming writer's store-release, after which
 * the region may be read. A region that is not ready holds nothing (its
 * writer has not started) and must not be read: on tmpfs a load from a
 * hole allocates the page.
 */
static inline bool
fms_slot_ready(const struct fastmib_segment *seg, uint32_t s)
{
	return __atomic_load_n(&fms_slot(seg, s)->ready, __ATOMIC_ACQUIRE) != 0;
}

static inline uint8_t *
fms_slot_data(const struct fastmib_segment *seg, uint32_t s)
{
	return seg->base + seg->lay.data.off + (uint64_t)s * seg->lay.slot_stride;
}

static inline uint64_t *
fms_presence(const struct fastmib_segment *seg, unsigned group)
{
	uint64_t off = seg->lay.groups[group].presence;

	return off ? (uint64_t *)(void *)(seg->base + off) : NULL;
}

/* Stored-baseline bitmap of a group (row 0 for a scalar group). */
static inline uint64_t *
fms_stored_bits(const struct fastmib_segment *seg, unsigned group)
{
	return (uint64_t *)(void *)(seg->base + seg->lay.groups[group].stored);
}

/*
 * Whether the row's reset record was ever written. Acquire: pairs with the
 * release of fms_set_stored(), after the record's first store; a record
 * whose bit is clear may be a hole of the file and is not to be read.
 */
static inline bool
fms_row_stored(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const uint64_t *bits = fms_stored_bits(seg, group);

	return (__atomic_load_n(&bits[row / 64], __ATOMIC_ACQUIRE) >> (row % 64)) & 1;
}

/* The group's discontinuity time word (CLOCK_REALTIME ns, 0 = never). */
static inline uint64_t *
fms_reset_group(const struct fastmib_segment *seg, unsigned group)
{
	return (uint64_t *)(void *)(seg->base + seg->lay.groups[group].time);
}

/* The row's reset record: fms_rec_words() words. */
static inline uint64_t *
fms_reset_row(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];

	return (uint64_t *)(void *)(seg->base + seg->lay.groups[group].reset) +
	       (uint64_t)row * fms_rec_words(g);
}

/* A keyed table's key record of row `row`, and its change log. */
static inline struct fms_key_rec *
fms_key_rec(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fms_group_layout *gl = &seg->lay.groups[group];

	return (struct fms_key_rec *)(void *)(seg->base + gl->keys + (uint64_t)row * gl->key_stride);
}

static inline struct fms_key_log *
fms_key_log(const struct fastmib_segment *seg, unsigned group)
{
	return (struct fms_key_log *)(void *)(seg->base + seg->lay.groups[group].key_log);
}

/* A row's state record (groups with states). */
static inline struct fms_state_rec *
fms_state_rec(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fms_group_layout *gl = &seg->lay.groups[group];

	return (struct fms_state_rec *)(void *)(seg->base + gl->states +
						(uint64_t)row * gl->state_stride);
}

/* The state change log, or NULL in a model without `notify` states. */
static inline struct fms_state_log *
fms_state_log(const struct fastmib_segment *seg)
{
	return seg->lay.state_log ? (struct fms_state_log *)(void *)(seg->base + seg->lay.state_log)
				  : NULL;
}

/* The peak reset logs, or NULL in a model without peaks. */
static inline struct fms_peaks *
fms_peaks(const struct fastmib_segment *seg)
{
	return seg->lay.peaks ? (struct fms_peaks *)(void *)(seg->base + seg->lay.peaks) : NULL;
}

/* A slot's event block: head line, counters, ring (models with events). */
static inline uint8_t *
fms_event_block(const struct fastmib_segment *seg, uint32_t s)
{
	return fms_slot_data(seg, s) + seg->lay.slot_events;
}

static inline uint64_t *
fms_event_head(const struct fastmib_segment *seg, uint32_t s)
{
	return (uint64_t *)(void *)fms_event_block(seg, s);
}

/* logged[n_events] then dropped[n_events] */
static inline uint64_t *
fms_event_counters(const struct fastmib_segment *seg, uint32_t s)
{
	return (uint64_t *)(void *)(fms_event_block(seg, s) + FMS_CACHE_LINE);
}

static inline struct fastmib_event_slotrec *
fms_event_ring(const struct fastmib_segment *seg, uint32_t s)
{
	return (struct fastmib_event_slotrec *)(void *)(fms_event_block(seg, s) +
							 seg->lay.event_counters);
}

/* alloc.c: allocate [off, off + len) of the file before first storing to
 * it (a store to a hole of a full tmpfs would raise SIGBUS). 0, or -ENOSPC
 * (or another -errno) with a message naming the path and `what`. File
 * systems without fallocate() leave the file sparse, as before. */
int fms_alloc_range(struct fastmib_segment *seg, uint64_t off, uint64_t len, const char *what);
/* [off, off + len) allocated, page by page, once per process (a bitmap of
 * the pages it allocated): then it may be stored to. */
int fms_alloc_once(struct fastmib_segment *seg, uint64_t off, uint64_t len, const char *what);
/* The pages of a row's reset record, allocated once per process; then
 * the record may be stored. */
int fms_alloc_record(struct fastmib_segment *seg, unsigned group, uint32_t row);
/* Mark the row's record stored (release), after its first store. */
void fms_set_stored(struct fastmib_segment *seg, unsigned group, uint32_t row);

/* read.c: one raw snapshot (counter words summed over lcores, peak words
 * their maximum), one word per word of the row, without baseline or
 * checks. Returns 0 or -EBUSY (best effort). */
int fms_read_raw_row(struct fastmib_segment *seg, unsigned group, uint32_t row,
		     uint64_t *values);
/* Same, by the writer of slot `own` (FMS_NO_SLOT: none), possibly inside
 * its own transaction: that slot is copied without waiting, since its only
 * writer is the caller and program order makes its stores visible. With
 * `gens` (a group with peaks: the peak log entries that last reset the
 * row, fms_read_baseline()), a slot's peak words count only once it has
 * applied them; NULL: every slot's count. */
#define FMS_NO_SLOT UINT32_MAX
int fms_read_raw_row_own(struct fastmib_segment *seg, unsigned group, uint32_t row,
			 uint64_t *values, const uint64_t *gens, uint32_t own);
/* The baseline of one row (the half of the newer epoch; one word per
 * word of the row) and, if `time` is not NULL, its discontinuity time
 * (the later of the two halves' times), and if `gens` is not NULL the
 * peak log entries (FMS_PEAK_RESETS, FMS_PEAK_ENABLES) that last reset
 * its peaks (0 and 0 without), under the read protocol of both seqcounts;
 * 0, or -EBUSY with the last copy (perhaps torn) when a writer of the
 * record stayed inside. */
int fms_read_baseline(struct fastmib_segment *seg, unsigned group, uint32_t row,
		      uint64_t *base, uint64_t *time, uint64_t *gens);

/* Slot whose writer is the calling thread (fms_slot.owner_tid), or
 * FMS_NO_SLOT; creator handles only. */
uint32_t fms_own_slot(const struct fastmib_segment *seg);

/* keys.c (reader) */
/* The order key of present row `row` of keyed table `group` into buf
 * (FASTMIB_MAX_KEY_BYTES), its length into *len, the record's sequence
 * number into *seq (may be NULL): 0, -ENOENT (absent, or its record
 * unreadable or not a key of the table). */
int fms_key_read(struct fastmib_segment *seg, unsigned group, uint32_t row, uint8_t *buf,
		 size_t *len, uint32_t *seq);
/* Free every order a handle keeps. */
void fms_key_orders_free(struct fastmib_segment *seg);

/* peaks.c: a peak log's next entry, for its one writer (the reset lock's
 * holder for FMS_PEAK_RESETS, the creator's enable lock's for
 * FMS_PEAK_ENABLES), which names it in the records of the rows it resets
 * and then publishes it: the entry, the log's head, the request count
 * that writers look at when they open a transaction. */
uint64_t fms_peak_next(struct fastmib_segment *seg, int log);
void fms_peak_publish(struct fastmib_segment *seg, int log, uint64_t n, uint32_t group,
		      uint32_t row);

/* reset.c */
/* The snapshot of a row that becomes a baseline: draws an epoch from the
 * reset head first (so the snapshot is newer than every baseline whose
 * epoch is lower), then waits up to `patience_ns` for a writer inside its
 * transaction, never for the caller's own one. 0, or -EBUSY (message set). */
int fms_snap_baseline(struct fastmib_segment *seg, unsigned group, uint32_t row,
		      uint64_t patience_ns, uint64_t *epoch, uint64_t *raw);

#endif /* FASTMIB_READER_HANDLE_H */
