/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private: the on-file format of a fastmib segment, the one owner of its
 * layout rules. Writers build files to it (fastpath/writer/create.c),
 * readers validate files against it (fastpath/reader/attach.c). Nothing
 * here is part of the public API.
 *
 * File layout (every offset is from the start of the file):
 *
 *   header      struct fms_header, FMS_HEADER_SIZE bytes
 *   schema      serialized schema (struct fms_schema_rec, group records,
 *               counter records, string table), cache-line padded
 *   slots       n_slots slot headers of one cache line (sequence number,
 *               owner, readiness, breach counts), all together: a stray
 *               write past one slot's counter data cannot reach any
 *               sequence number
 *   shared      one cache line holding the flush seqlock, then
 *               shared_size bytes of data
 *   presence    per table group with `rows: present`: row bitmap words
 *               then summary words (one bit per row word); for a keyed
 *               table then its change log (struct fms_key_log: the rows
 *               whose key came or went, for readers that keep the keys
 *               in order)
 *   state_fixed in models with states: the state change log (struct
 *               fms_state_log, when a state has `notify`), then per
 *               scalar group and `rows: all` table with states its state
 *               records (struct fms_state_rec, state_stride bytes each),
 *               written with the states' defaults at creation
 *   reset       page aligned (mapped writable separately): reset seqlock,
 *               module time, enable seqcount, epoch and best-effort count
 *               (struct fms_reset), per slot an observation word (when a
 *               reader first saw the slot inside its current transaction:
 *               fms_obs_word()), the group times, per group the stored-baseline bitmap (a
 *               bit per row whose record was ever written; one row for a
 *               scalar group), in a model with peaks the peak reset logs
 *               (struct fms_peaks), then from the next page per group a block
 *               of row records (fms_rec_words(): reset half, and enable
 *               half for `rows: present` tables)
 *   keys        page aligned: per keyed table, a record per row
 *               (struct fms_key_rec, key_stride bytes): the row's order
 *               key (fastmib_key_encode()) under a sequence number;
 *               allocated a page at a time as keys are inserted
 *   states      page aligned: per `rows: present` table (keyed or dense)
 *               with states, a state record per row; a row's record is
 *               allocated and given the defaults when the row is
 *               inserted or enabled
 *   data        page aligned: n_slots regions of slot_stride bytes, each
 *               the slot's per-core counter data (percore_size, page
 *               padded), then in models with events the slot's event block
 *               at slot_events: one cache line holding the published head,
 *               per event a logged counter, per event a dropped counter
 *               (padded to a cache line), then event_ring records of one
 *               cache line
 *
 * Memory follows what is written. Creation allocates the file up to the
 * end of the stored-baseline bitmaps (fms_layout.allocated); a slot's region is
 * allocated when a thread claims the slot (then its header says ready),
 * and the pages of reset records when a record is first stored (then its
 * row's stored-baseline bit is set). Readers never load from a region that
 * is not ready or a record whose bit is clear: on tmpfs even a read of a
 * hole would allocate it.
 *
 * The layout is a pure function of (schema, n_slots, page size, event
 * ring size), so fastmib_attach() recomputes it and requires the header to
 * agree.
 */
#ifndef FASTMIB_SEGMENT_FORMAT_H
#define FASTMIB_SEGMENT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "fastmib/event_record.h"
#include "fastmib/schema.h"

#define FMS_MAGIC "FASTMIB" /* 8 bytes with its NUL */
#define FMS_FORMAT 8 /* 2: event schema records, event area, TSC clock; 3: event arg types;
		       4: slot owner thread; 5: reset and enable halves of baselines;
		       6: scratch rows, slot table apart from the data, slot regions and
		       reset records allocated on first use; 7: state objects (schema
		       records, state areas, change log), a 320-byte header;
		       8: histograms and peaks (bounds records, a baseline per row
		       word, the peak reset logs and each slot's acknowledgements) */
#define FMS_CACHE_LINE 64
#define FMS_HEADER_SIZE 320
#define FMS_STR_MAX FASTMIB_MAX_TEXT /* longest string (descriptions) in a schema */
#define FMS_MAX_SLOTS 1024 /* writer slots per segment */
#define FMS_EVENT_RING_MIN 16
#define FMS_EVENT_RING_MAX (1u << 20)
#define FMS_HUGETLBFS_MAGIC 0x958458f6

/*
 * A sequence number in the segment, and a sequence number with its
 * writers' lock: the layouts of DPDK's rte_seqcount_t and rte_seqlock_t,
 * which the writer and the reader run their protocols on. The format
 * names only the words; fastpath/reader/seq_shim.h is the one place that
 * hands them to DPDK, and checks at build time that the layouts agree.
 * A zero-filled file holds them initialised (sequence 0, lock free).
 */
struct fms_seqcount {
	uint32_t sn;
};

struct fms_seqlock {
	struct fms_seqcount count;
	uint32_t lock;          /* 0 = free */
};

struct fms_area {
	uint64_t off;
	uint64_t len;
};

/* Fixed header at offset 0. Fields are written before `magic`, and
 * `retired` is the only field that changes after creation. */
struct fms_header {
	char magic[8];
	uint32_t format;
	uint32_t header_size;
	uint64_t schema_hash;   /* FNV-1a 64 of the schema area bytes */
	uint64_t generation;
	uint64_t created_ns;
	uint32_t writer_pid;
	uint32_t n_slots;
	uint64_t file_size;
	uint32_t retired;       /* atomic; 1 once replaced */
	uint32_t n_eal_slots;   /* slots [0, n_eal_slots) belong to EAL lcores */
	uint64_t slot_stride;   /* bytes of one slot's region in the data area */
	uint64_t page_size;     /* alignment of the reset and data areas */
	struct fms_area schema;
	struct fms_area slots;
	struct fms_area shared;
	struct fms_area presence;
	struct fms_area reset;
	struct fms_area data;
	uint64_t event_stride;  /* bytes of a slot's event block; 0 without events */
	uint32_t event_ring;    /* records per slot, power of two; 0 without events */
	uint32_t pad;
	uint64_t tsc_hz;        /* creator's rte_get_tsc_hz() */
	uint64_t ref_tsc;       /* a TSC reading taken ... */
	uint64_t ref_ns;        /* ... together with this CLOCK_REALTIME */
	uint64_t slot_events;   /* offset of the event block in a slot's region */
	uint64_t fixed_size;    /* [0, fixed_size) allocated at creation (fms_layout.allocated) */
	struct fms_area keys;
	struct fms_area state_fixed;
	struct fms_area states;
	uint8_t reserved[FMS_HEADER_SIZE - 280];
};
_Static_assert(sizeof(struct fms_header) == FMS_HEADER_SIZE, "header size");

/* Slot header: one cache line of the slot table, apart from the data. */
struct fms_slot {
	struct fms_seqcount seq;
	uint32_t owner;         /* atomic; lcore id + 1, 0 = free */
	uint32_t owner_pid;
	uint32_t owner_tid;     /* atomic; thread that took the slot's writer, 0 = none yet.
				   A reset or row enable made by this thread inside its own
				   transaction copies the slot instead of waiting for itself. */
	uint64_t out_of_range;  /* atomic, writer-owned: updates sent to a scratch row */
	uint64_t nested;        /* atomic, writer-owned: refused nested transactions */
	uint32_t ready;         /* atomic; 1 once the slot's region is allocated (release) */
	uint32_t pad0;
	/*
	 * Models with peaks: the last entry of each peak log (struct
	 * fms_peaks) whose reset this slot's writer has applied to its peak
	 * words. Atomic, writer-owned, stored inside its seqcount write
	 * section together with the zeroed words, so a reader that copies a
	 * row and these under the sequence sees both or neither.
	 */
	uint64_t peak_ack[2];
	uint8_t pad[FMS_CACHE_LINE - 56];
};
_Static_assert(sizeof(struct fms_slot) == FMS_CACHE_LINE, "slot size");

/* Head of the shared area. */
struct fms_shared {
	struct fms_seqlock lock; /* serializes flushes; readers use its seqcount */
	uint8_t pad[FMS_CACHE_LINE - sizeof(struct fms_seqlock)];
};

/*
 * Head of the reset area. Two kinds of writers store baselines, and they
 * never wait for each other:
 *  - resetters (any process with a writable attach) serialize on
 *    `owner_pid` and store the reset half of row records, the group and
 *    module times inside write sections of `lock`'s seqcount;
 *  - the creator, enabling a recycled row, stores the row's enable half
 *    inside write sections of `enable_seq` (its threads serialize on a
 *    lock of their own process), and never touches `owner_pid`: a resetter
 *    frozen while it holds the lock cannot stall a lcore.
 * Both halves carry an epoch drawn from `epoch` before their snapshot was
 * taken; readers subtract the baseline of the newer epoch, so the order
 * of the snapshots decides, not the order of the stores.
 */
struct fms_reset {
	struct fms_seqlock lock; /* its seqcount: readers retry on it; owner_pid is the lock */
	uint64_t module_ns;     /* atomic */
	uint32_t owner_pid;     /* atomic; the resetters' lock: pid of the holder, 0 = free */
	struct fms_seqcount enable_seq; /* the creator's row enables */
	uint64_t epoch;         /* atomic; fetch_add by every snapshot that becomes a baseline */
	uint64_t best_effort;   /* atomic; values served best effort (fastmib_best_effort_reads()) */
	uint8_t pad[FMS_CACHE_LINE - 8 - 8 - 4 - 4 - 8 - 8];
};
_Static_assert(sizeof(struct fms_reset) == FMS_CACHE_LINE, "reset head size");

/*
 * Words of a row's record in a group's reset block: the reset half
 * [epoch, time, baseline per word of the row], then, for groups whose
 * rows are enabled and disabled (`rows: present`), the enable half of the
 * same shape. Times are CLOCK_REALTIME ns; epoch 0 means "never stored".
 * A peak's word has no baseline (a maximum cannot be taken back): its
 * place holds the peak log entry (struct fms_peaks) that resets the row's
 * peaks, in the reset half the resetters' log's, in the enable half the
 * enables' log's; 0: never reset.
 */
#define FMS_REC_EPOCH 0
#define FMS_REC_TIME 1
#define FMS_REC_BASE 2
static inline uint64_t
fms_rec_half_words(const struct fastmib_group_schema *g)
{
	return FMS_REC_BASE + (uint64_t)g->row_size / 8;
}

static inline uint64_t
fms_rec_words(const struct fastmib_group_schema *g)
{
	int halves = g->n_indexes > 0 && !g->all_rows ? 2 : 1;

	return halves * fms_rec_half_words(g);
}

/*
 * Peak resets. A maximum cannot be reset by a baseline: the lcore that
 * writes a peak word zeroes it. Two logs of resets, one per kind of
 * resetter, each with a single writer at a time: FMS_PEAK_RESETS, written
 * by resetters (holding the reset lock), and FMS_PEAK_ENABLES, written by
 * the creator's row enables (holding its enable lock), since neither may
 * wait for the other. An entry names a row (group << 32 | row), every row
 * of a group (row FMS_PEAK_ALL) or every group (both FMS_PEAK_ALL).
 *
 * A resetter first stores, in its half of each row's record, the number
 * n its entry will have (in place of the peak words' baselines), then the
 * entry at entry[n % FMS_PEAK_LOG], then head = n (release), then adds 1
 * to `requests` (release). A writer opening a transaction compares
 * `requests` with the value it last saw: one load, and the rare slow path
 * (fastmib_peak_catch_up()) applies the entries after its slot's
 * peak_ack[] (zeroes its peak words of those rows) and acknowledges them,
 * inside its write section. One more than FMS_PEAK_LOG entries behind, it
 * zeroes instead every row whose record names an entry after its ack.
 * Readers take a slot's peak word of a row only when the slot has
 * acknowledged the entries the row's record names: a lcore that has not
 * applied a reset yet has recorded nothing since.
 */
#define FMS_PEAK_RESETS 0
#define FMS_PEAK_ENABLES 1
#define FMS_PEAK_LOG 1024u /* entries, a power of two */
#define FMS_PEAK_ALL UINT32_MAX
struct fms_peak_log {
	uint64_t head;          /* atomic: entries ever appended, the newest's number */
	uint8_t pad[FMS_CACHE_LINE - 8];
	uint64_t entry[FMS_PEAK_LOG];
};

struct fms_peaks {
	uint64_t requests;      /* atomic: entries published in both logs; writers load
				   it at every transaction open, so nothing else is on
				   its line */
	uint8_t pad[FMS_CACHE_LINE - 8];
	struct fms_peak_log log[2];
};

static inline uint64_t
fms_peak_entry(uint32_t group, uint32_t row)
{
	return (uint64_t)group << 32 | row;
}

/* Words of a row as bits, for the kinds of its words. */
#define FMS_ROW_MASK_WORDS (FASTMIB_MAX_ROW_WORDS / 64)

/* Serialized schema: strings are (offset, length) into the string table
 * that follows the counter records; each ends with a NUL at off + len. */
struct fms_str {
	uint32_t off;
	uint32_t len;
};

struct fms_schema_rec {
	uint32_t version;
	uint32_t oid_len;
	uint32_t oid[FASTMIB_MAX_OID_LEN];
	struct fms_str module;
	struct fms_str prefix;
	uint64_t percore_size;
	uint64_t shared_size;
	uint32_t n_groups;
	uint32_t n_counters;    /* over all groups */
	uint32_t strtab_len;
	uint32_t n_events;      /* event records follow the counter records */
	uint32_t n_states;      /* over all groups: state records follow the events' */
	uint32_t n_values;      /* over all enum states: value records follow the states' */
	uint32_t n_bounds;      /* over all histograms: bound records (uint64_t) follow
				   the values' */
};

struct fms_index_rec {
	struct fms_str name;
	uint32_t max;
	uint32_t type;
	uint32_t size;
	uint32_t pad;
};

struct fms_group_rec {
	struct fms_str name;
	struct fms_str description;
	uint32_t arc;
	uint32_t storage;
	uint32_t n_indexes;
	uint32_t all_rows;
	struct fms_index_rec indexes[FASTMIB_MAX_INDEXES];
	uint32_t n_rows;
	uint32_t row_size;
	uint64_t offset;
	uint32_t first_counter;
	uint32_t n_counters;
	uint32_t first_state;
	uint32_t n_states;
	uint32_t state_size;
	uint32_t pad;
};

/* A state's record; its default is bytes of the string table (len 0:
 * none), its enum values records of their own from first_value on. */
struct fms_state_schema_rec {
	struct fms_str name;
	struct fms_str units;
	struct fms_str description;
	struct fms_str def;
	uint32_t arc;
	uint32_t type;
	uint32_t size;
	uint32_t notify;
	uint32_t has_range;
	uint32_t n_values;
	uint32_t first_value;
	uint32_t offset;
	int64_t lo;
	int64_t hi;
};

struct fms_enum_rec {
	struct fms_str label;
	int32_t value;
	uint32_t pad;
};

struct fms_event_rec {
	struct fms_str name;
	struct fms_str description;
	uint32_t arc;
	uint32_t level;
	uint32_t rate;
	uint32_t notify;
	uint32_t n_args;
	uint32_t pad;
	struct fms_str args[FASTMIB_MAX_EVENT_ARGS];
	uint32_t arg_types[FASTMIB_MAX_EVENT_ARGS]; /* enum fastmib_arg_type; 0 past n_args */
};

/* Clock reference for event timestamps, taken by the creator. */
struct fms_clock {
	uint64_t tsc_hz;
	uint64_t ref_tsc;
	uint64_t ref_ns;
};

struct fms_counter_rec {
	struct fms_str name;
	struct fms_str units;
	struct fms_str description;
	uint32_t arc;
	uint32_t type;
	uint32_t offset;
	uint32_t n_bounds;      /* a histogram's: its bound records from first_bound on */
	uint32_t first_bound;
	uint32_t log2;
};

/* Where a group's bitmaps and reset records live (file offsets). */
/*
 * A slot observation word: readers that see a lcore inside a transaction
 * note the transaction (its sequence number, low 24 bits) and when they
 * first saw it (ms since the segment's creation, 40 bits), so that later
 * readers know how long it has been inside. Any reader with a writable
 * reset area may replace it (compare and swap); a stale word only names an
 * older transaction, which a reader recognises by the sequence number.
 */
#define FMS_OBS_SN_BITS 24
static inline uint64_t
fms_obs_word(uint32_t sn, uint64_t since_ms)
{
	return (since_ms << FMS_OBS_SN_BITS) | (sn & ((1u << FMS_OBS_SN_BITS) - 1));
}

/*
 * A keyed table's key record of one row. The creator, holding its key
 * lock, makes `seq` odd, writes `len` and the key, makes `seq` even
 * (release), all before it makes the row present; readers copy the record
 * under `seq` (the seqcount protocol) and check the key as untrusted input
 * (fastmib_key_valid()). A record keeps its key after the row goes, until
 * an insert reuses the row.
 */
struct fms_key_rec {
	uint32_t seq;
	uint32_t len;           /* bytes of key[] in use */
	uint8_t key[];          /* the order key: up to fastmib_key_max_bytes() */
};

/*
 * A keyed table's change log: the row of every insert and remove, in
 * order. The creator stores entry[head % FMS_KEY_LOG] and then advances
 * `head` (release); a reader that last saw `head` h reads entries h ..
 * head-1 and re-reads `head`: when it moved more than FMS_KEY_LOG past h
 * meanwhile, the entries it read may be overwritten, and it rebuilds its
 * order from the key records instead.
 */
#define FMS_KEY_LOG 4096
struct fms_key_log {
	uint64_t head;          /* atomic: entries ever appended */
	uint8_t pad[FMS_CACHE_LINE - 8];
	uint32_t entry[FMS_KEY_LOG];
};

/*
 * A row's states: the setters' seqlock, then the group's state struct
 * (fastmib_state_layout(), state_size bytes) at offset 8. Setters (any
 * thread of the creator) take the lock, which makes the sequence odd,
 * store, and release it; readers copy the struct under the sequence (the
 * seqcount protocol) and never take the lock, so a reader never waits
 * for a setter's lock and a setter never waits for a reader.
 */
struct fms_state_rec {
	struct fms_seqlock lock;
	uint8_t data[];
};
#define FMS_STATE_DATA 8 /* offset of the state struct in a record */

/*
 * The state change log: every set that changes a `notify` state, in the
 * order of the sets. A setter holds `lock` (the creator's setters only:
 * it orders their appends), makes the record's `seq` odd, writes it with
 * `number` = head, makes `seq` even (release), then advances `head`
 * (release). A reader that expects change n copies record n %
 * FMS_STATE_LOG under `seq` and takes it when its `number` is n; one more
 * than FMS_STATE_LOG behind the head has lost the changes in between.
 */
#define FMS_STATE_LOG 1024u /* records, a power of two */
#define FMS_STATE_VALUE 24u /* bytes of a value in a change (no strings) */
struct fms_state_change_rec {
	uint32_t seq;
	uint32_t group;
	uint32_t state;
	uint32_t row;
	uint64_t number;        /* which change: the head when it was appended */
	uint64_t time_ns;       /* CLOCK_MONOTONIC of the set */
	uint32_t key_len;       /* keyed tables: the row's order key then */
	uint8_t value[FMS_STATE_VALUE]; /* the new value, the state's C form */
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
};
_Static_assert(sizeof(struct fms_state_change_rec) % 8 == 0, "state change record");

struct fms_state_log {
	uint64_t head;          /* atomic: changes ever appended */
	uint32_t lock;          /* the setters' lock (an rte_spinlock), 0 = free */
	uint8_t pad[FMS_CACHE_LINE - 12];
	struct fms_state_change_rec rec[FMS_STATE_LOG];
};

struct fms_group_layout {
	uint64_t presence;      /* 0 when the group has no presence bitmap */
	uint64_t n_words;       /* row bitmap words; summary words follow */
	uint64_t key_log;       /* keyed tables: struct fms_key_log, else 0 */
	uint64_t keys;          /* keyed tables: the first key record, else 0 */
	uint64_t key_stride;    /* bytes per key record */
	uint64_t stored;        /* stored-baseline bitmap */
	uint64_t time;          /* the group's discontinuity time (one word) */
	uint64_t reset;         /* rows of fms_rec_words() words */
	uint64_t states;        /* groups with states: the first state record, else 0 */
	uint64_t state_stride;  /* bytes per state record */
	/* Bit w: word w of a row is a peak's, which readers combine over
	 * lcores by maximum (the others they sum) and take no baseline of. */
	uint64_t peak_words[FMS_ROW_MASK_WORDS];
	uint32_t has_peaks;     /* a word of peak_words is set */
};

struct fms_layout {
	uint64_t schema_len;    /* serialized bytes (hashed) */
	uint64_t slot_stride;   /* bytes of a slot's region */
	uint64_t page_size;
	uint64_t slot_events;   /* offset of the event block in a region */
	uint64_t event_stride;  /* bytes of an event block; 0 without events */
	uint64_t event_counters; /* offset of the first record within an event block */
	uint32_t event_ring;
	struct fms_area schema, slots, shared, presence, state_fixed, reset, keys, states, data;
	uint64_t state_log;     /* struct fms_state_log, 0 without a `notify` state */
	uint64_t peaks;         /* struct fms_peaks, 0 in a model without peaks */
	uint64_t observations;  /* n_slots observation words (fms_obs_word()) */
	uint64_t allocated;     /* bytes allocated at creation: [0, allocated) */
	uint64_t file_size;
	struct fms_group_layout *groups; /* n_groups entries, heap */
};

/* layout.c: the layout is a pure function of these inputs. */
int fms_layout_compute(const struct fastmib_schema *s, uint32_t n_slots,
		       uint64_t page_size, uint32_t event_ring, struct fms_layout *lay);
/* Write a fresh image (zero-filled file of lay->file_size bytes). */
void fms_image_init(uint8_t *base, const struct fms_layout *lay,
		    const struct fastmib_schema *s, uint32_t n_slots,
		    uint32_t n_eal_slots, uint64_t generation,
		    const struct fms_clock *clock);

#endif /* FASTMIB_SEGMENT_FORMAT_H */
