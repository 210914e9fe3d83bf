/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * fastmib schema: the description of a counter model that a generic reader
 * needs (names, OIDs, types, storage, table sizes and data offsets).
 *
 * fastmib-gen emits one `const struct fastmib_schema <prefix>_schema` per
 * model. fastmib_create() copies it into the segment, and fastmib_attach()
 * rebuilds the same structure from the segment, so the subagent and
 * fastmib-stat serve any model without being rebuilt.
 *
 * Data layout contract (shared by the generator and libfastmib):
 *  - every counter is one naturally aligned 64-bit word, a histogram
 *    n_bounds + 3 consecutive ones (fastmib_counter_words());
 *  - a group's rows are contiguous, `row_size` bytes apart, row-major over
 *    its indexes (the last index varies fastest); counter `i` of a row is at
 *    `counters[i].offset` within the row;
 *  - `offset` of a group is relative to the start of its storage area:
 *    the per-lcore data area for FASTMIB_STORAGE_PER_CORE groups, the shared
 *    data area for the two shared storage kinds;
 *  - every group starts on a cache line (64 bytes);
 *  - no two counters share a word: the counters of a row are distinct
 *    words (at most FASTMIB_MAX_ROW_WORDS) and the groups of an area do
 *    not overlap;
 *  - each area is a whole number of cache lines, at most FASTMIB_MAX_AREA.
 *
 * fastmib_schema_check() enforces every rule a schema obeys (these and
 * the limits, ranges and uniqueness rules below), for all its users: the
 * generator, fastmib_create() and readers of segment files.
 * fastmib_schema_lay_out() computes the layout fastmib-gen gives a model.
 */
#ifndef FASTMIB_SCHEMA_H
#define FASTMIB_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Model format version understood by this library (`fastmib: 1`). */
#define FASTMIB_MODEL_VERSION 1

/* Limits of one model; fastmib_schema_check() rejects schemas beyond them. */
#define FASTMIB_MAX_NAME      64       /**< identifier length, SMI limit */
#define FASTMIB_MAX_TEXT      4096     /**< description length */
#define FASTMIB_MAX_UNITS     32       /**< UNITS string length */
#define FASTMIB_MAX_OID_LEN   32       /**< sub-identifiers in the module root */
#define FASTMIB_MAX_GROUPS    256      /**< groups per model */
#define FASTMIB_MAX_COUNTERS  256      /**< counters per group */
/** 64-bit words of a row: a counter or a peak takes one, a histogram its
 *  bounds + 3. As many as FASTMIB_MAX_COUNTERS, so that a buffer of either
 *  holds a row read whole (fastmib_read()). */
#define FASTMIB_MAX_ROW_WORDS FASTMIB_MAX_COUNTERS
#define FASTMIB_MAX_BOUNDS    32       /**< bucket bounds of a histogram */
/** Largest exponent of a `log2` histogram's bounds (2^63). */
#define FASTMIB_MAX_LOG2      63
#define FASTMIB_MAX_INDEXES   4        /**< indexes per table */
#define FASTMIB_MAX_ROWS      (1u << 24) /**< rows per table (product of maxes, or capacity) */
#define FASTMIB_MAX_STRING_INDEX 64    /**< octets of a string index */
/** Bytes of a keyed table's order key (fastmib_key_encode()): at most
 *  FASTMIB_MAX_INDEXES indexes of at most 1 + FASTMIB_MAX_STRING_INDEX. */
#define FASTMIB_MAX_KEY_BYTES (FASTMIB_MAX_INDEXES * (1 + FASTMIB_MAX_STRING_INDEX))
/** Sub-identifiers of a table row's SNMP index (one per octet at most). */
#define FASTMIB_MAX_INDEX_SUBIDS FASTMIB_MAX_KEY_BYTES
/** Sub-identifiers of an instance OID, SNMP's limit (RFC 2578): the module
 *  root, 4 arcs and a table's longest index must fit in it. */
#define FASTMIB_MAX_INSTANCE_OID 128
#define FASTMIB_MAX_ARC       999      /**< largest group/counter arc; above is reserved */
#define FASTMIB_MAX_AREA      (1ull << 30) /**< bytes per storage area */
#define FASTMIB_MAX_EVENTS    256      /**< events per model */
#define FASTMIB_MAX_EVENT_ARGS 4       /**< integer arguments per event */
/** Highest event rate and level; also the threshold before the first burst. */
#define FASTMIB_EVENT_RATE_MAX 9
#define FASTMIB_MAX_STATES    128      /**< state objects per group */
#define FASTMIB_MAX_ENUM_VALUES 64     /**< labels of an enum state */
#define FASTMIB_MAX_DISPLAY_STRING 255 /**< octets of a display-string state */
#define FASTMIB_MAX_OCTET_STRING 1024  /**< octets of an octet-string state */

/**
 * What a counter of a group is: an SNMP type it is reported as, or one of
 * the two kinds of a value distribution, which take words of their own
 * (fastmib_counter_words()) and only per-core storage.
 */
enum fastmib_type {
	FASTMIB_COUNTER64 = 1, /**< Counter64 */
	FASTMIB_COUNTER32 = 2, /**< Counter32, reported modulo 2^32 */
	FASTMIB_GAUGE32 = 3,   /**< Gauge32, signed sum clamped to 0..2^32-1 */
	/**
	 * Observations counted in buckets: n_bounds + 1 bucket words (an
	 * observation v in the first bucket whose bound b has v <= b, else in
	 * the last, unbounded one), then the count of observations and the sum
	 * of their values, each a 64-bit word summed over lcores and reset by
	 * baselines like a Counter64.
	 */
	FASTMIB_HISTOGRAM = 4,
	/**
	 * The largest value recorded since the row's last reset (a high-water
	 * mark): one word per lcore, readers take the maximum over lcores. A
	 * reset is applied by each lcore before its next peak, in a
	 * transaction (docs/fastpath.md, "What a transaction does").
	 */
	FASTMIB_PEAK = 5,
};
#define FASTMIB_TYPE_LAST FASTMIB_PEAK

/**
 * C type of an event argument. Every argument is logged as one 64-bit
 * word; the type says how a reader shows that word: int32 arguments are
 * sign-extended when logged, so they read back as a signed 64-bit value.
 */
enum fastmib_arg_type {
	FASTMIB_ARG_UINT32 = 1, /**< uint32_t, zero-extended */
	FASTMIB_ARG_INT32 = 2,  /**< int32_t, sign-extended */
	FASTMIB_ARG_UINT64 = 3, /**< uint64_t */
};

/** Where and how a group's counters are stored and updated. */
enum fastmib_storage {
	FASTMIB_STORAGE_PER_CORE = 1,        /**< per-lcore block, seqcount */
	FASTMIB_STORAGE_SHARED_BUFFERED = 2, /**< per-lcore write buffer, seqlock */
	FASTMIB_STORAGE_SHARED_ATOMIC = 3,   /**< relaxed atomic RMW */
};

struct fastmib_counter_schema {
	const char *name;        /**< model name, e.g. "totalPkts" */
	const char *units;       /**< UNITS, "" when none */
	const char *description; /**< DESCRIPTION text */
	uint32_t arc;            /**< OID arc within the group or table entry; a
				      histogram takes arc (its count) and arc + 1
				      (its sum) */
	uint32_t type;           /**< enum fastmib_type */
	uint32_t offset;         /**< byte offset within a row of its first word */
	/** FASTMIB_HISTOGRAM: its bounds, 1..FASTMIB_MAX_BOUNDS; else 0. */
	uint32_t n_bounds;
	/** FASTMIB_HISTOGRAM: 1 when its bounds are the powers of two 2^lo,
	 *  2^(lo+1), ..., 2^hi (at least two of them); else 0. */
	uint32_t log2;
	/** FASTMIB_HISTOGRAM: the n_bounds upper bounds of its bounded buckets,
	 *  strictly increasing; else NULL. */
	const uint64_t *bounds;
};

/** Words a counter takes in its row: a histogram its bounds + 1 buckets,
 *  its count and its sum; every other counter one. */
static inline uint32_t
fastmib_counter_words(const struct fastmib_counter_schema *c)
{
	return c->type == FASTMIB_HISTOGRAM ? c->n_bounds + 3 : 1;
}

/** The position of a counter's (first) word in its row, and so in the
 *  values fastmib_read() gives: a histogram's bucket b is at this + b,
 *  its count at this + n_bounds + 1, its sum at this + n_bounds + 2. */
static inline uint32_t
fastmib_counter_word(const struct fastmib_counter_schema *c)
{
	return c->offset / 8;
}

/**
 * What an index of a table is. A table with only FASTMIB_INDEX_INTEGER
 * indexes is dense: its rows are the product of the maxes, numbered by
 * fastmib_row_of_index(). A table with at least one other kind is keyed:
 * it holds up to `n_rows` (its capacity) rows, each the row of one key,
 * given out by fastmib_key_insert() (docs/model.md, "Keyed tables").
 */
enum fastmib_index_type {
	FASTMIB_INDEX_INTEGER = 0,      /**< 1..max: Unsigned32, one sub-identifier */
	FASTMIB_INDEX_UINT32 = 1,       /**< 0..4294967295: Unsigned32, one sub-identifier */
	FASTMIB_INDEX_IPV4 = 2,         /**< IpAddress: four sub-identifiers */
	FASTMIB_INDEX_INET_ADDRESS = 3, /**< InetAddressType, InetAddress (RFC 4001): the
					     type (1 IPv4, 2 IPv6), the length (4, 16), octets */
	FASTMIB_INDEX_MAC = 4,          /**< MacAddress: six sub-identifiers */
	FASTMIB_INDEX_STRING = 5,       /**< DisplayString (SIZE (1..size)): the length,
					     then one sub-identifier per octet */
};

struct fastmib_index_schema {
	const char *name; /**< model name, e.g. "sessionId" */
	uint32_t max;     /**< FASTMIB_INDEX_INTEGER: SNMP index runs 1..max; else 0 */
	uint32_t type;    /**< enum fastmib_index_type */
	uint32_t size;    /**< FASTMIB_INDEX_STRING: at most this many octets
			       (1..FASTMIB_MAX_STRING_INDEX); else 0 */
};

/** An IPv4 or IPv6 address as a keyed table's C key holds it. */
struct fastmib_inet_address {
	uint8_t type;     /**< 1 = IPv4 in addr[0..3], 2 = IPv6 (InetAddressType) */
	uint8_t addr[16]; /**< network order */
};

/**
 * The type of a state object: a value of the data plane's state that the
 * slow path sets and readers read with its row (docs/model.md, "States").
 * Each has a C form, the member of the generated `struct <p>_<g>_state`
 * and what the segment stores (fastmib_state_layout()), and an SMI syntax.
 */
enum fastmib_state_type {
	FASTMIB_STATE_TRUTH_VALUE = 1, /**< bool (one octet, 0 or 1): TruthValue */
	FASTMIB_STATE_ENUM,            /**< int32_t, one of the listed values: INTEGER { } */
	FASTMIB_STATE_INTEGER32,       /**< int32_t: Integer32 (lo..hi) */
	FASTMIB_STATE_UNSIGNED32,      /**< uint32_t: Unsigned32 (lo..hi) */
	FASTMIB_STATE_GAUGE64,         /**< uint64_t: CounterBasedGauge64 (HCNUM-TC) */
	FASTMIB_STATE_TIMETICKS,       /**< uint32_t hundredths of a second: TimeTicks */
	FASTMIB_STATE_TIMESTAMP,       /**< uint64_t fastmib_monotonic_ns() of the moment,
					    0 = never: TimeStamp (sysUpTime then) */
	FASTMIB_STATE_DATE_AND_TIME,   /**< int64_t ns since the Unix epoch, 0 = unknown:
					    DateAndTime in UTC */
	FASTMIB_STATE_DISPLAY_STRING,  /**< char[size + 1], NUL-terminated, octets below
					    0x80: DisplayString (SIZE (0..size)) */
	FASTMIB_STATE_OCTET_STRING,    /**< struct { uint16_t len; uint8_t octets[size]; }:
					    OCTET STRING (SIZE (0..size)) */
	FASTMIB_STATE_IPV4,            /**< uint8_t[4], network order: IpAddress */
	FASTMIB_STATE_INET_ADDRESS,    /**< struct fastmib_inet_address, type 0 (unknown, no
					    address), 1 or 2: InetAddressType + InetAddress */
	FASTMIB_STATE_MAC,             /**< uint8_t[6]: MacAddress */
};
#define FASTMIB_STATE_TYPE_LAST FASTMIB_STATE_MAC

/** A label of an enum state and its value. */
struct fastmib_enum_value {
	const char *label;       /**< a model name, e.g. "up" */
	int32_t value;
};

struct fastmib_state_schema {
	const char *name;        /**< model name, e.g. "operState" */
	const char *units;       /**< UNITS, "" when none (numbers only) */
	const char *description;
	uint32_t arc;            /**< OID arc within the group or table entry, shared with
				      the counters' arcs; an inet-address state takes arc
				      (its InetAddressType) and arc + 1 (its InetAddress) */
	uint32_t type;           /**< enum fastmib_state_type */
	uint32_t size;           /**< strings: octets at most; else 0 */
	uint32_t notify;         /**< 1: every change is sent as a notification */
	uint32_t has_range;      /**< integer32, unsigned32: 1 when lo..hi limit it */
	int64_t lo, hi;          /**< the range when has_range */
	uint32_t n_values;       /**< enum: its labels; else 0 */
	const struct fastmib_enum_value *values;
	/**
	 * The value a new row or a new segment starts with, in the state's C
	 * form (fastmib_state_value_size() bytes); NULL: all zero (false, 0,
	 * empty, unknown). An enum always has one: its first listed value when
	 * the model names none.
	 */
	const void *def;
	uint32_t offset;         /**< of the C form in the group's state struct
				      (fastmib_state_layout()) */
};

struct fastmib_group_schema {
	const char *name;        /**< model name, e.g. "global" */
	const char *description;
	uint32_t arc;            /**< OID arc under <prefix>Objects */
	uint32_t storage;        /**< enum fastmib_storage */
	uint32_t n_indexes;      /**< 0 for a scalar group */
	uint32_t all_rows;       /**< table: 1 = every row exists, 0 = presence bitmap; 0 for scalar groups */
	struct fastmib_index_schema indexes[FASTMIB_MAX_INDEXES];
	uint32_t n_rows;         /**< product of index maxes, or for a keyed table its
				      capacity; 1 for a scalar group */
	uint32_t row_size;       /**< bytes between rows (multiple of 8) */
	uint64_t offset;         /**< byte offset of row 0 within its storage area */
	uint32_t n_counters;     /**< 0 for a group of states only */
	const struct fastmib_counter_schema *counters;
	/**
	 * State objects, set by the slow path and read with the row (0 and
	 * NULL without). A group of states only has no counters, storage 0,
	 * row_size 0, and no Reset or DiscontinuityTime objects.
	 */
	uint32_t n_states;
	const struct fastmib_state_schema *states;
	uint32_t state_size;     /**< bytes of the state struct (fastmib_state_layout()) */
};

/** Does group `g` have a counter of `type` (FASTMIB_HISTOGRAM, FASTMIB_PEAK)? */
static inline bool
fastmib_group_has_type(const struct fastmib_group_schema *g, uint32_t type)
{
	for (uint32_t i = 0; i < g->n_counters; i++)
		if (g->counters[i].type == type)
			return true;
	return false;
}

/**
 * An event of the event log: sampled, cycle-stamped records with up to
 * FASTMIB_MAX_EVENT_ARGS integer arguments, logged per lcore.
 */
struct fastmib_event_schema {
	const char *name;        /**< model name, e.g. "burstStart" */
	const char *description;
	uint32_t arc;            /**< OID arc: event id in the event table */
	uint32_t level;          /**< 0..9: lag is measured from the closest earlier
				      event of equal or lower level */
	uint32_t rate;           /**< 0..9: 9 = always logged, 0 = never */
	uint32_t notify;         /**< 1: also sent as an SNMP notification */
	uint32_t n_args;
	const char *args[FASTMIB_MAX_EVENT_ARGS]; /**< argument names */
	/**
	 * enum fastmib_arg_type of each of the first n_args arguments.
	 * fastmib_create() takes 0 as FASTMIB_ARG_UINT64 (the raw word), so
	 * schemas written without types still load; a schema read back from a
	 * segment always has a real type here, and 0 past n_args.
	 */
	uint32_t arg_types[FASTMIB_MAX_EVENT_ARGS];
};

struct fastmib_schema {
	uint32_t version;        /**< FASTMIB_MODEL_VERSION */
	const char *module;      /**< SMI module name, e.g. "EXAMPLE-DATAPLANE-MIB" */
	const char *prefix;      /**< e.g. "ep" */
	uint32_t oid_len;
	uint32_t oid[FASTMIB_MAX_OID_LEN]; /**< module root */
	uint64_t percore_size;   /**< bytes of per-core data per lcore (cache-line multiple) */
	uint64_t shared_size;    /**< bytes of shared data (cache-line multiple) */
	uint32_t n_groups;
	const struct fastmib_group_schema *groups;
	uint32_t n_events;       /**< 0 when the model declares no events */
	const struct fastmib_event_schema *events;
	/**
	 * Identity: fastmib_schema_hash() of this schema, as fastmib-gen
	 * writes it into <prefix>_schema.c; 0 = not given (hand-written
	 * schemas). fastmib_create() refuses a schema whose hash is given and
	 * is not the hash of what the schema describes (an edited struct, or
	 * one compiled from two versions of a model). A schema read back from
	 * a segment has the segment's schema hash here.
	 */
	uint64_t hash;
};

/* ---- identity (fastpath/format/schema_io.c) ---- */

/**
 * The identity of a schema: the FNV-1a 64 hash of its serialized form,
 * the value a segment created from it records in its header
 * (fastmib_info().schema_hash). Any change of the model (a counter, an
 * arc, a description, the layout) changes it. The `hash` field itself is
 * not part of what is hashed.
 *
 * Returns 0 when the schema breaks a rule of fastmib_schema_check() (the
 * message is in fastmib_last_error()) or memory runs out.
 */
uint64_t fastmib_schema_hash(const struct fastmib_schema *schema);

/**
 * The word of the model file (docs/model.md) for a counter type
 * ("counter64", "counter32", "gauge32", "histogram", "peak"), a storage kind ("per-core",
 * "shared-buffered", "shared-atomic") or an event argument type ("uint32",
 * "int32", "uint64"); NULL for a value that is none of them. fastmib-gen
 * reads these words, and readers show them.
 */
const char *fastmib_type_word(uint32_t type);

/**
 * The value a counter of `type` is reported as, from its raw 64-bit word
 * (a reader's snapshot): Counter64 as is, Counter32 modulo 2^32, Gauge32
 * the two's-complement sum clamped to 0..2^32-1 (lcores may have
 * subtracted more than others added). SNMP, fastmib-stat and the
 * application's telemetry commands all report this.
 */
static inline uint64_t
fastmib_reported_value(uint32_t type, uint64_t raw)
{
	int64_t s = (int64_t)raw;

	switch (type) {
	case FASTMIB_COUNTER32:
		return raw & UINT32_MAX;
	case FASTMIB_GAUGE32:
		return s < 0 ? 0 : s > (int64_t)UINT32_MAX ? UINT32_MAX : (uint64_t)s;
	default:
		return raw;
	}
}
const char *fastmib_storage_word(uint32_t storage);
const char *fastmib_arg_type_word(uint32_t type);
/** The `type` word of a keyed table's index ("uint32", "ipv4",
 *  "inet-address", "mac", "string"); NULL for FASTMIB_INDEX_INTEGER, which
 *  a model writes as `{ name, max }` without a type, and for other values. */
const char *fastmib_index_type_word(uint32_t type);

/* ---- states (fastpath/format/states.c) ---- */

/** The state type's word in the model ("truth-value", "enum", ...), or
 *  NULL for a value that is none. */
const char *fastmib_state_type_word(uint32_t type);

/** Bytes of a state's C form, and its alignment in *align (may be NULL). */
uint32_t fastmib_state_value_size(const struct fastmib_state_schema *st, uint32_t *align);

/**
 * The layout of a group's state struct: the offset of each state's C form
 * in offsets[0..n_states), in model order, and the struct's size; what a C
 * compiler gives the generated `struct <p>_<g>_state` (its header asserts
 * it), and what the segment stores per row.
 */
void fastmib_state_layout(const struct fastmib_group_schema *g, uint32_t *offsets,
			  uint32_t *size);

/**
 * Is `value` (the state's C form) a value the model allows? An enum value
 * listed, a number within its range, a bool 0 or 1, a display string with
 * a NUL within size + 1 and no octet of 0x80 or more before it, an octet
 * string's length at most size, an inet-address of type 0, 1 or 2 (and
 * of type 0 all zero). Setters check what they are given; readers check
 * what they read from a segment, untrusted. Returns 0 or -EINVAL with a
 * message naming the state in fastmib_last_error() (`group` names it).
 */
int fastmib_state_check(const char *group, const struct fastmib_state_schema *st,
			const void *value);

/** The label of value `v` of an enum state, or NULL when none has it. */
const char *fastmib_enum_label(const struct fastmib_state_schema *st, int32_t v);

/* ---- validation (fastpath/format/schema_check.c) ---- */

/**
 * Rules: names, descriptions and units are non-NULL and within
 * FASTMIB_MAX_NAME, FASTMIB_MAX_TEXT and FASTMIB_MAX_UNITS bytes; the
 * module name, the prefix and the names of groups, counters, indexes,
 * events and arguments follow the syntax of <fastmib/names.h>; the
 * module root has 2..FASTMIB_MAX_OID_LEN arcs, the first 0..2, the second
 * 0..39 under 0 and 1; 1..FASTMIB_MAX_GROUPS groups, each with
 * 0..FASTMIB_MAX_COUNTERS counters and 0..FASTMIB_MAX_STATES states, one
 * of them at least (a group of states only has storage 0), and
 * 0..FASTMIB_MAX_INDEXES indexes of max 1..FASTMIB_MAX_ROWS (product at
 * most FASTMIB_MAX_ROWS = n_rows); group, counter, state and event arcs
 * 1..FASTMIB_MAX_ARC, unique among groups, within a group (counters and
 * states together, an inet-address state's and a histogram's second arc
 * included) and among events; names unique among groups, within a group
 * (counters, states and indexes), among events and within an event's
 * arguments; types, storage kinds, levels, rates and argument types in
 * range; histograms and peaks in per-core groups only, a histogram with
 * 1..FASTMIB_MAX_BOUNDS strictly increasing bounds (with log2: at least
 * two, consecutive powers of two up to 2^FASTMIB_MAX_LOG2), other
 * counters with none; a state's size, range (within its type, lo <= hi),
 * units (numbers only), enum labels (names, 1..FASTMIB_MAX_ENUM_VALUES,
 * labels and values unique), notify (not on strings) and default
 * (fastmib_state_check(); without one, the zero it starts at) as its type
 * allows; offsets and sizes per the data layout contract above (a row of
 * at most FASTMIB_MAX_ROW_WORDS words) and fastmib_state_layout(); the
 * instance OIDs of a group, a histogram's bucket number included, within
 * FASTMIB_MAX_INSTANCE_OID.
 */

/** The object a fault is about; which of the positions of the fault apply. */
enum fastmib_schema_object {
	FASTMIB_OBJ_SCHEMA = 0,  /**< the module-level fields */
	FASTMIB_OBJ_GROUP,       /**< group `group` */
	FASTMIB_OBJ_COUNTER,     /**< counter `counter` of group `group` */
	FASTMIB_OBJ_INDEX,       /**< index `index` of group `group` */
	FASTMIB_OBJ_EVENT,       /**< event `event` */
	FASTMIB_OBJ_ARG,         /**< argument `arg` of event `event` */
	FASTMIB_OBJ_STATE,       /**< state `state` of group `group` */
};

/** The field of the object a fault is about. */
enum fastmib_schema_field {
	FASTMIB_FIELD_VERSION = 1,   /**< the schema's version */
	FASTMIB_FIELD_MODULE,        /**< the module name */
	FASTMIB_FIELD_PREFIX,
	FASTMIB_FIELD_OID,           /**< the module root: oid_len, oid */
	FASTMIB_FIELD_PERCORE_SIZE,
	FASTMIB_FIELD_SHARED_SIZE,
	FASTMIB_FIELD_GROUPS,        /**< n_groups, groups */
	FASTMIB_FIELD_EVENTS,        /**< n_events, events */
	FASTMIB_FIELD_NAME,          /**< of the object */
	FASTMIB_FIELD_DESCRIPTION,
	FASTMIB_FIELD_ARC,
	FASTMIB_FIELD_STORAGE,
	FASTMIB_FIELD_INDEXES,       /**< n_indexes, and the rows they make */
	FASTMIB_FIELD_ALL_ROWS,
	FASTMIB_FIELD_MAX,           /**< of an index */
	FASTMIB_FIELD_N_ROWS,
	FASTMIB_FIELD_COUNTERS,      /**< n_counters, counters */
	FASTMIB_FIELD_ROW_SIZE,
	FASTMIB_FIELD_OFFSET,        /**< of a group or a counter */
	FASTMIB_FIELD_UNITS,
	FASTMIB_FIELD_TYPE,          /**< of a counter or an argument */
	FASTMIB_FIELD_LEVEL,
	FASTMIB_FIELD_RATE,
	FASTMIB_FIELD_NOTIFY,
	FASTMIB_FIELD_ARGS,          /**< n_args */
	FASTMIB_FIELD_INDEX_TYPE,    /**< the type of an index */
	FASTMIB_FIELD_SIZE,          /**< the size of a string index or state */
	FASTMIB_FIELD_STATES,        /**< n_states, states */
	FASTMIB_FIELD_VALUES,        /**< an enum's labels and values */
	FASTMIB_FIELD_RANGE,         /**< has_range, lo, hi */
	FASTMIB_FIELD_DEFAULT,       /**< a state's default */
	FASTMIB_FIELD_STATE_SIZE,    /**< a group's state_size */
	FASTMIB_FIELD_BOUNDS,        /**< a histogram's n_bounds and bounds */
	FASTMIB_FIELD_LOG2,          /**< a histogram's log2 */
};

/** What is wrong with the field. */
enum fastmib_schema_problem {
	FASTMIB_BAD_MISSING = 1, /**< a NULL string or array */
	FASTMIB_BAD_LENGTH,      /**< a string of `value` bytes; the limit is `hi` */
	FASTMIB_BAD_RANGE,       /**< a number `value` outside `lo`..`hi` */
	FASTMIB_BAD_COUNT,       /**< `value` entries, not `lo`..`hi` */
	FASTMIB_BAD_DUPLICATE,   /**< the name, arc or offset of the earlier object `first` */
	FASTMIB_BAD_LAYOUT,      /**< an offset or size against the data layout contract */
	FASTMIB_BAD_AREA,        /**< the group ends at `value`, beyond the area limit `hi`;
				      field: FASTMIB_FIELD_PERCORE_SIZE or _SHARED_SIZE */
	FASTMIB_BAD_SYNTAX,      /**< a name against the syntax of <fastmib/names.h>
				      (field: FASTMIB_FIELD_NAME, _MODULE or _PREFIX) */
	FASTMIB_BAD_ORDER,       /**< a histogram's bound `first` + 1, `value`, is not
				      above the one before it (position `first`), `lo` */
	FASTMIB_BAD_STORAGE,     /**< a histogram or a peak in storage `value`, which
				      cannot hold it (only FASTMIB_STORAGE_PER_CORE can) */
};

/** One broken rule, where it is, and the whole story in words. */
struct fastmib_schema_fault {
	int error;                         /**< negative errno: -EINVAL */
	enum fastmib_schema_object object;
	enum fastmib_schema_field field;
	enum fastmib_schema_problem problem;
	uint32_t group;                    /**< position in groups (group, counter, index) */
	uint32_t counter;                  /**< position in the group's counters */
	uint32_t index;                    /**< position in the group's indexes */
	uint32_t event;                    /**< position in events (event, argument) */
	uint32_t arg;                      /**< position in the event's arguments */
	uint32_t state;                    /**< position in the group's states */
	uint32_t first;                    /**< duplicates: position of the earlier object
					        of the same kind (and parent) */
	uint64_t value, lo, hi;            /**< the number at fault and its bounds */
	char message[256];                 /**< e.g. "counter global.rxPkts: arc 1000
					        out of range 1..999" */
};

/** Called once per fault; return non-zero to stop checking. */
typedef int fastmib_schema_fault_fn(void *arg, const struct fastmib_schema_fault *fault);

/**
 * Check `schema` against every rule above. Without `fn`, stop at the
 * first fault. With `fn`, call it for every fault until it returns
 * non-zero; a fault that would follow from an earlier one is not
 * reported (once a group's shape is wrong, say, its offsets are not
 * checked). Either way the first fault's message is what
 * fastmib_last_error() returns.
 *
 * Returns 0 when the schema obeys every rule, else the first fault's
 * error (-EINVAL).
 */
int fastmib_schema_check(const struct fastmib_schema *schema,
			 fastmib_schema_fault_fn *fn, void *arg);

/**
 * The data layout fastmib-gen gives a model (one the contract above
 * allows): the counters' words one after the other in declared order
 * (counter i at byte 8 * i of its row when no histogram comes before it);
 * rows of 8 bytes per word; each group on the next cache line of its storage
 * area, in schema order, taking fastmib_group_bytes() (a table's rows and
 * its scratch row); each area rounded up to a cache line. A group of
 * states only takes no area (row_size and offset 0). States at the offsets
 * of fastmib_state_layout(), state_size its size.
 *
 * Sets the offset of every counter and state, row_size, offset and
 * state_size of every group, percore_size and shared_size, from
 * n_counters, the counters' words (fastmib_counter_words()), n_rows,
 * storage and the states' types and sizes.
 * `schema->groups` and each group's `counters` and `states` must point to
 * writable arrays: the caller built them. Sizes are not limited here;
 * fastmib_schema_check() then says whether they fit.
 */
void fastmib_schema_lay_out(struct fastmib_schema *schema);

/* ---- what users name (fastpath/format/lookup.c) ---- */

/**
 * Position of group `name` in `schema`, by its model name ("portQueue")
 * or in MIB descriptor style ("epPortQueue", fastmib_name_mib_style()), as
 * readers take group names from their users; -1 when none has it.
 */
int fastmib_group_by_name(const struct fastmib_schema *schema, const char *name);

/** Position of event `name` ("burstStart" or "epBurstStart"), or -1. */
int fastmib_event_by_name(const struct fastmib_schema *schema, const char *name);

/* ---- rows of a table (the one owner of row <-> index arithmetic) ---- */

/**
 * Rows a group occupies in its storage area: 1 for a scalar group; for a
 * table, its n_rows rows and after them one scratch row. Generated updates
 * send an update whose index is out of range to the scratch row (and count
 * it), so that it changes nothing any reader reads; readers never read it.
 */
static inline uint64_t
fastmib_group_rows_held(const struct fastmib_group_schema *g)
{
	return g->n_indexes ? (uint64_t)g->n_rows + 1 : 1;
}

/** Bytes a group occupies in its storage area: fastmib_group_rows_held() rows. */
static inline uint64_t
fastmib_group_bytes(const struct fastmib_group_schema *g)
{
	return fastmib_group_rows_held(g) * g->row_size;
}

/*
 * A table's rows are numbered 0 .. n_rows-1, row-major over its indexes,
 * the last index varying fastest; SNMP index k of a row runs 1..max[k].
 * Row numbers order rows exactly like their index OIDs, since every index
 * is one sub-identifier.
 */

/**
 * Row number of the SNMP index values `idx[0..n)` (1-based), or -1 when
 * `n` is not the table's number of indexes or a value is out of range.
 */
static inline int64_t
fastmib_row_of_index(const struct fastmib_group_schema *g, const uint64_t *idx,
		     size_t n)
{
	uint64_t row = 0;

	if (n != g->n_indexes)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (idx[k] < 1 || idx[k] > g->indexes[k].max)
			return -1;
		row = row * g->indexes[k].max + (idx[k] - 1);
	}
	return (int64_t)row;
}

/**
 * Row number of a row written as text: its SNMP index values, 1-based
 * decimal, one per index of the table, joined by '.' or '_' ("2.3" or
 * "2_3": `fastmib-stat --reset port.2.3`, the telemetry command
 * `/fastmib/group,port,2_3`). -1 when `text` is anything else: a value
 * missing, extra or out of range, a sign, a space
 * (fastpath/format/lookup.c).
 */
int64_t fastmib_row_of_text(const struct fastmib_group_schema *g, const char *text);

/** SNMP index values (1-based) of row `row`, into idx[0..n_indexes). */
static inline void
fastmib_index_of_row(const struct fastmib_group_schema *g, uint32_t row, uint32_t *idx)
{
	for (uint32_t k = g->n_indexes; k-- > 0;) {
		idx[k] = row % g->indexes[k].max + 1;
		row /= g->indexes[k].max;
	}
}

/* ---- keyed tables: keys and their forms (fastpath/format/keys.c) ---- */

/** Is the group a keyed table (an index other than an integer one)? */
static inline bool
fastmib_group_keyed(const struct fastmib_group_schema *g)
{
	for (uint32_t k = 0; k < g->n_indexes; k++)
		if (g->indexes[k].type != FASTMIB_INDEX_INTEGER)
			return true;
	return false;
}

/*
 * A key has three forms, each owned here:
 *  - the C key: the generated `struct <p>_<g>_key`, one member per index
 *    in model order: uint32_t (integer and uint32 indexes, the SNMP
 *    value), uint8_t[4] (ipv4, network order), struct
 *    fastmib_inet_address (inet-address), uint8_t[6] (mac),
 *    char[size + 1] (string, NUL-terminated); C's layout rules
 *    (fastmib_key_layout());
 *  - the order key: the bytes a segment stores for a row, compared with
 *    memcmp() (then the shorter first) in the order of the SNMP index OIDs:
 *    per index, integer and uint32 as 4 bytes big-endian, ipv4 its 4
 *    octets, inet-address its type, its length and its octets, mac its 6
 *    octets, string its length and its octets (fastmib_key_encode());
 *  - the SNMP index: the sub-identifiers after the column in an instance
 *    OID: as the order key, one sub-identifier per integer, octet, type or
 *    length (fastmib_key_to_index()).
 */

/**
 * The C key's layout: the byte offset of each index's member in
 * offsets[0..n_indexes), and the struct's size; what the C compiler gives
 * the generated struct (its header asserts it).
 */
void fastmib_key_layout(const struct fastmib_group_schema *g, uint32_t *offsets,
			uint32_t *size);

/** The longest order key of the table, in bytes. */
uint32_t fastmib_key_max_bytes(const struct fastmib_group_schema *g);

/** The most sub-identifiers a row's SNMP index takes (any table). */
uint32_t fastmib_index_max_subids(const struct fastmib_group_schema *g);

/**
 * The order key of C key `key` into buf (FASTMIB_MAX_KEY_BYTES), its
 * length returned; -EINVAL when the key cannot be an index: a string
 * empty, longer than its size (no NUL within size + 1) or with a byte
 * outside printable ASCII (DisplayString), an inet-address
 * of a type other than 1 or 2, an integer index out of 1..max. The bytes
 * of a C key the order key does not keep (padding, string bytes after the
 * NUL, IPv4's addr[4..15]) are ignored.
 */
int fastmib_key_encode(const struct fastmib_group_schema *g, const void *key, uint8_t *buf);

/**
 * Whether buf[0..len) is an order key of the table, as a reader must check
 * one read from an untrusted segment: every length and type in range, the
 * string octets printable, nothing left over.
 */
bool fastmib_key_valid(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len);

/** The C key of order key buf[0..len) (valid), into key (zeroed first). */
void fastmib_key_decode(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len,
			void *key);

/** The SNMP index of order key buf[0..len) (valid), into idx; returns its length. */
size_t fastmib_key_to_index(const struct fastmib_group_schema *g, const uint8_t *buf,
			    size_t len, uint64_t *idx);

/**
 * The order key of SNMP index idx[0..n), into buf: its length, or -1 when
 * idx is not exactly the index of a possible row (a value out of range,
 * a length that disagrees, too short or too long).
 */
int fastmib_key_of_index(const struct fastmib_group_schema *g, const uint64_t *idx, size_t n,
			 uint8_t *buf);

/**
 * The order key of the index at the start of idx[0..n), into buf: its
 * length, and in *used the sub-identifiers it takes (each index of a row
 * says where it ends: its type, a length before its octets); -1 when idx
 * does not start with the index of a possible row. What follows a row's
 * index in an OID (a histogram's bucket number) is then idx[*used..n).
 */
int fastmib_key_of_index_prefix(const struct fastmib_group_schema *g, const uint64_t *idx,
				size_t n, uint8_t *buf, size_t *used);

/**
 * Compare order key a[0..alen) with SNMP index idx[0..n) in OID order:
 * < 0, 0 or > 0 as the row's index is before, equal to or after idx. idx
 * may be anything (part of an index, values out of range): this is how a
 * GETNEXT finds the first row after any OID.
 */
int fastmib_key_cmp_index(const struct fastmib_group_schema *g, const uint8_t *a, size_t alen,
			  const uint64_t *idx, size_t n);

/* ---- keys as text (fastpath/format/key_text.c) ---- */

/*
 * A key as people write it: one field per index, in model order, joined
 * by ',' ("10.0.0.1,7"): integer and uint32 in decimal; ipv4 dotted;
 * inet-address an IPv4 or an IPv6 address (which one gives its type);
 * mac six octets of two hexadecimal digits joined by ':'; string its
 * characters, "\," for a comma and "\\" for a backslash.
 * fastmib-stat (--reset GROUP/KEY) and the telemetry commands read it.
 */

/** Longest text of one field, unescaped, NUL included (an IPv6 address
 *  or a string). */
#define FASTMIB_MAX_KEY_FIELD_TEXT (FASTMIB_MAX_STRING_INDEX + 1)
/** Longest text of a whole key: every string escaped, commas, NUL. */
#define FASTMIB_MAX_KEY_TEXT (FASTMIB_MAX_INDEXES * (2 * FASTMIB_MAX_STRING_INDEX + 1))

/** One index's value in an order key (fastmib_key_field()). */
struct fastmib_key_field {
	uint32_t type;          /**< enum fastmib_index_type of the index */
	uint32_t number;        /**< integer, uint32: the value; inet-address: its
				     InetAddressType (1 IPv4, 2 IPv6) */
	const uint8_t *octets;  /**< ipv4, inet-address, mac, string: the value's
				     octets (in the key); NULL for numbers */
	uint32_t n_octets;
	const uint8_t *part;    /**< the index's bytes of the order key: parts of
				     two keys compare with fastmib_key_cmp() as
				     the index's sub-identifiers do in SNMP */
	uint32_t part_len;
};

/** Index k's value in order key key[0..len) (valid): 0, or -EINVAL for a
 *  bad k or key. */
int fastmib_key_field(const struct fastmib_group_schema *g, const uint8_t *key, size_t len,
		      uint32_t k, struct fastmib_key_field *f);

/**
 * The text of one field, as snprintf() writes it (returns the length it
 * needs): a number in decimal, an address as inet_ntop() writes it (IPv6
 * compressed), a MAC "02:00:5e:00:00:01", a string as it is (unescaped).
 * FASTMIB_MAX_KEY_FIELD_TEXT bytes always suffice.
 */
size_t fastmib_key_field_text(const struct fastmib_key_field *f, char *buf, size_t size);

/** The text of order key key[0..len) (valid) in the grammar above, as
 *  snprintf() writes it; FASTMIB_MAX_KEY_TEXT bytes always suffice. */
size_t fastmib_key_text(const struct fastmib_group_schema *g, const uint8_t *key, size_t len,
			char *buf, size_t size);

/**
 * The order key of `text` (the grammar above) into buf
 * (FASTMIB_MAX_KEY_BYTES): its length, or -EINVAL with a message naming
 * the group, the field and its index ("group tunnel: '10.0.0.300' is not
 * an IPv4 address for index peer") in fastmib_last_error().
 */
int fastmib_key_of_text(const struct fastmib_group_schema *g, const char *text, uint8_t *buf);

/** What a key of the table is, as snprintf() writes it: each index's name
 *  and type word, "peer (inet-address), teid (uint32)" (an integer index
 *  "(integer)"), for messages. */
size_t fastmib_key_shape(const struct fastmib_group_schema *g, char *buf, size_t size);

/** The word of an InetAddressType: "ipv4" (1), "ipv6" (2); NULL for the
 *  others (RFC 4001's names; a keyed table holds these two only). */
const char *fastmib_inet_type_word(uint32_t type);

/** Compare two order keys: < 0, 0, > 0 in OID order. */
static inline int
fastmib_key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = n ? __builtin_memcmp(a, b, n) : 0;

	return c ? c : (alen > blen) - (alen < blen);
}

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_SCHEMA_H */
