/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The OID layout of a fastmib MIB module: the one owner of every arc below
 * the module root R. fastmib-gen places MIB objects with these constants,
 * and the serving agent maps OIDs to objects and back with the map below.
 * docs/mib-layout.md describes the layout for humans.
 *
 *   R.1.G.C.0                scalar counter, peak or state C of scalar group G (an
 *                            inet-address state S: its type at S, its address at S+1;
 *                            a histogram H: its count at H, its sum at H+1)
 *   R.1.G.1001.0 / .1002.0   group Reset / DiscontinuityTime (groups with counters)
 *   R.1.G.1.C.i1..in         table column C (counter, peak, histogram count or sum,
 *                            state), 1-based indexes (n = 1..4); in a keyed table
 *                            the row's SNMP index (<fastmib/schema.h>)
 *   R.1.G.1.1001 / .1002     row Reset / DiscontinuityTime columns
 *   R.1.G.1.(1010+k)         index k = 1..4 (not-accessible)
 *   R.1.(1000 G + H).1.C.i1..in.b
 *                            bucket table of histogram H (its arc) of group G
 *                            (its arc): column C (2: the bucket's upper bound,
 *                            3: its count) of bucket b = 1..bounds+1 of the row
 *                            i1..in (none in a scalar group, the group's index
 *                            encoding in a table)
 *   R.2.1.0 / R.2.2.0        module ResetAll / DiscontinuityTime
 *   R.2.3.0                  module WriterStatus
 *   R.2.4.0 / R.2.5.0        module BestEffortReads / OutOfRangeUpdates
 *   R.2.6.0                  module NotificationsDropped (models that notify)
 *   R.3                      conformance (no instances)
 *   R.4.0.A                  NOTIFICATION-TYPE of the event of arc A
 *   R.4.1.1.C.N              event table column C of event number N
 *   R.4.2.1.C.A              event statistics column C of the event of arc A
 *   R.5.0.(1000 G + S)       NOTIFICATION-TYPE <p><G><S>Change of `notify` state S
 *
 * The map is pure: it works on a schema and asks the caller, through a
 * small row source, which table rows and event records exist. It links no
 * SNMP or DPDK library, reads no segment and keeps no state between calls.
 * OIDs are handled as suffixes below R, one uint64_t per sub-identifier.
 */
#ifndef FASTMIB_OIDMAP_H
#define FASTMIB_OIDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- arcs below the module root R ---- */

#define FASTMIB_ARC_OBJECTS     1u /**< R.1 <p>Objects: group G at R.1.G */
#define FASTMIB_ARC_CONTROL     2u /**< R.2 <p>Control: module-wide objects */
#define FASTMIB_ARC_CONFORMANCE 3u /**< R.3 <p>Conformance */
#define FASTMIB_ARC_EVENTS      4u /**< R.4 <p>Events, in models with events */
#define FASTMIB_ARC_NOTIFICATIONS 5u /**< R.5 <p>Notifications, in models with a
					 `notify` state */

/** A histogram's bucket table: R.1.(FASTMIB_BUCKET_TABLE_GROUP * G + H) for
 *  histogram H (its arc, its count's) of group G (its arc). Above every
 *  group arc, so a walk of R.1 meets every group before the bucket tables,
 *  in this order (group by group, histogram by histogram). */
#define FASTMIB_BUCKET_TABLE_GROUP 1000u

/* Columns of <p><G><H>BucketEntry (R.1.(1000 G + H).1.C), after the
 * group's indexes comes the bucket number. */
#define FASTMIB_BUCKETCOL_BUCKET 1u /**< <p><G><H>Bucket: 1..bounds+1, not-accessible */
#define FASTMIB_BUCKETCOL_LE     2u /**< <p><G><H>BucketLe: its upper bound (the last
					 bucket's 18446744073709551615) */
#define FASTMIB_BUCKETCOL_COUNT  3u /**< <p><G><H>BucketCount: observations in it */

/** Instance arc of every scalar object (R.1.G.C.0, R.2.A.0). */
#define FASTMIB_ARC_SCALAR_INSTANCE 0u
/** The entry under a table (R.1.G.1, R.4.1.1, R.4.2.1). */
#define FASTMIB_ARC_ENTRY 1u

/*
 * Objects the generator adds to every group, after the counters: arcs
 * above FASTMIB_MAX_ARC, so they never collide with a counter arc.
 */
#define FASTMIB_ARC_RESET       1001u /**< <p><G>Reset */
#define FASTMIB_ARC_DISCONT     1002u /**< <p><G>DiscontinuityTime */
/** Index column k (0-based) of a table entry is FASTMIB_ARC_INDEX_FIRST + k. */
#define FASTMIB_ARC_INDEX_FIRST 1011u
/** An inet-address index k (0-based) is two index objects: its
 *  InetAddressType at FASTMIB_ARC_INDEX_TYPE_FIRST + k, then its InetAddress
 *  at FASTMIB_ARC_INDEX_FIRST + k. */
#define FASTMIB_ARC_INDEX_TYPE_FIRST 1021u

/* Module-wide objects under R.2. */
#define FASTMIB_ARC_RESET_ALL      1u /**< R.2.1 <p>ResetAll */
#define FASTMIB_ARC_MODULE_DISCONT 2u /**< R.2.2 <p>DiscontinuityTime */
#define FASTMIB_ARC_WRITER_STATUS  3u /**< R.2.3 <p>WriterStatus */
#define FASTMIB_ARC_BEST_EFFORT    4u /**< R.2.4 <p>BestEffortReads */
#define FASTMIB_ARC_OUT_OF_RANGE   5u /**< R.2.5 <p>OutOfRangeUpdates */
/** R.2.6 <p>NotificationsDropped, Counter64: notifications of the segment's
 *  events and states the agent did not send (its rate limit, or changes the
 *  log overwrote before the agent read them); only in a model with a
 *  `notify` event or state. */
#define FASTMIB_ARC_NOTIFS_DROPPED 6u

/* Values of the module's enumerated objects: the MIB declares them, the
 * serving agent answers and accepts them. */
/** TruthValue (SNMPv2-TC) of the reset objects: a SET of true(1) resets,
 *  false(2) does nothing; they always read false(2). */
#define FASTMIB_TRUTH_TRUE  1
#define FASTMIB_TRUTH_FALSE 2
/** <p>WriterStatus: INTEGER { running(1), gone(2), stalled(3) }, as
 *  fastmib_writer_status() (<fastmib/reader.h>) returns it. */
enum fastmib_writer_status {
	FASTMIB_WRITER_RUNNING = 1, /**< the creator runs, no lcore stuck */
	FASTMIB_WRITER_GONE = 2,    /**< the creator exited or closed the segment */
	FASTMIB_WRITER_STALLED = 3, /**< it runs, but a lcore has stayed inside one
				         transaction longer than the read patience */
};

/* Conformance, R.3: compliances at R.3.1, groups at R.3.2. */
#define FASTMIB_ARC_COMPLIANCES 1u
#define FASTMIB_ARC_CONF_GROUPS 2u
/** R.3.1.1 <p>Compliance */
#define FASTMIB_ARC_COMPLIANCE  1u
/* Under R.3.2, group G's OBJECT-GROUP takes the group's arc; the others
 * sit above every group arc. */
#define FASTMIB_ARC_CONTROL_GROUP            1000u
#define FASTMIB_ARC_EVENT_GROUP              1001u
#define FASTMIB_ARC_EVENT_NOTIFICATION_GROUP 1002u
/** R.3.2.1003 <p>StateNotificationGroup: NOTIFICATION-GROUP of the
 *  `<p><G><S>Change` notifications. */
#define FASTMIB_ARC_STATE_NOTIFICATION_GROUP 1003u

/* State notifications, R.5: R.5.0.(FASTMIB_STATE_NOTIF_GROUP * G + S) is
 * `<p><G><S>Change` of state S (its arc) of group G (its arc), whose
 * OBJECTS are the state itself (an inet-address: its type, then its
 * address), so that the varbinds carry the row's index. */
#define FASTMIB_ARC_STATE_NOTIFS   0u
#define FASTMIB_STATE_NOTIF_GROUP  1000u

/* The event log, R.4. */
#define FASTMIB_ARC_EV_NOTIFS 0u /**< R.4.0: NOTIFICATION-TYPEs, by event arc */
#define FASTMIB_ARC_EV_TABLE  1u /**< R.4.1: <p>EventTable */
#define FASTMIB_ARC_EV_STATS  2u /**< R.4.2: <p>EventStatsTable */

/* Columns of <p>EventEntry (R.4.1.1.C). Column 1 is the index. */
#define FASTMIB_EVCOL_NUMBER     1u /**< not-accessible */
#define FASTMIB_EVCOL_NAME       2u
#define FASTMIB_EVCOL_ID         3u
#define FASTMIB_EVCOL_TIME       4u
#define FASTMIB_EVCOL_LCORE      5u
#define FASTMIB_EVCOL_LAG_CYCLES 6u
#define FASTMIB_EVCOL_LAG_NS     7u
#define FASTMIB_EVCOL_ARG1       8u /**< ARG1 + k - 1 is argument k (1..4) */
#define FASTMIB_EVCOL_LAST       (FASTMIB_EVCOL_ARG1 + FASTMIB_MAX_EVENT_ARGS - 1)

/* Columns of <p>EventStatsEntry (R.4.2.1.C). Column 1 is the index. */
#define FASTMIB_STCOL_ID      1u /**< not-accessible */
#define FASTMIB_STCOL_NAME    2u
#define FASTMIB_STCOL_LOGGED  3u
#define FASTMIB_STCOL_DROPPED 4u

/** Sub-identifiers of the longest instance suffix (1.G.1.C and the
 *  indexes): the schema check keeps the root and it within SNMP's limit. */
#define FASTMIB_OID_MAX_SUFFIX FASTMIB_MAX_INSTANCE_OID

/* ---- the map ---- */

/** What an instance (or, for a missing instance, its object type) is. */
enum fastmib_oid_kind {
	FASTMIB_OID_COUNTER = 1, /**< a counter: scalar, or cell of a table column */
	FASTMIB_OID_RESET,       /**< TruthValue reset: of a group or row, or ResetAll */
	FASTMIB_OID_DISCONT,     /**< TimeStamp: of a group or row, or of the module */
	FASTMIB_OID_EVENT,       /**< cell of <p>EventTable */
	FASTMIB_OID_EVSTAT,      /**< cell of <p>EventStatsTable */
	FASTMIB_OID_WRITER_STATUS, /**< <p>WriterStatus: enum fastmib_writer_status */
	FASTMIB_OID_BEST_EFFORT,   /**< <p>BestEffortReads: fastmib_best_effort_reads() */
	FASTMIB_OID_OUT_OF_RANGE,  /**< <p>OutOfRangeUpdates: fastmib_out_of_range_updates() */
	FASTMIB_OID_STATE,         /**< a state: scalar, or cell of a table column */
	FASTMIB_OID_NOTIFS_DROPPED, /**< <p>NotificationsDropped */
	FASTMIB_OID_PEAK,          /**< a peak: scalar, or cell of a table column */
	FASTMIB_OID_HIST_COUNT,    /**< <p><G><H>Count: a histogram's observations */
	FASTMIB_OID_HIST_SUM,      /**< <p><G><H>Sum: the sum of their values */
	FASTMIB_OID_BUCKET,        /**< cell of a histogram's <p><G><H>BucketTable */
};

/** A reference to an object instance. */
struct fastmib_oid_ref {
	enum fastmib_oid_kind kind;
	/** Schema index of the group; -1 for module-wide and event log objects
	 * (the `group` argument of fastmib_discontinuity() and resets). */
	int group;
	/** FASTMIB_OID_COUNTER, _PEAK: schema index of the counter within its
	 *  group; _HIST_COUNT, _HIST_SUM, _BUCKET: of the histogram;
	 *  FASTMIB_OID_STATE: of the state. */
	uint32_t counter;
	/** FASTMIB_OID_STATE of an inet-address: 1 for its InetAddressType
	 *  object (at its arc), 0 for its InetAddress (arc + 1); 0 for the
	 *  other states. */
	uint32_t part;
	/** Group objects: table row (0 in a scalar group and for module
	 * objects); FASTMIB_OID_EVENT: the event number; FASTMIB_OID_EVSTAT:
	 * the schema index of the event. */
	uint32_t row;
	/** FASTMIB_OID_EVENT / _EVSTAT / _BUCKET: FASTMIB_EVCOL_* /
	 *  FASTMIB_STCOL_* / FASTMIB_BUCKETCOL_*. */
	uint32_t column;
	/** FASTMIB_OID_BUCKET: the bucket, 0-based (its SNMP index less 1):
	 *  the value is word fastmib_counter_word() + bucket of the row. */
	uint32_t bucket;
	/** Keyed tables: the row's order key (fastmib_key_encode()) as it was
	 *  when the row was found, key_len bytes: the instance's index. */
	uint32_t key_len;
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
};

/**
 * What exists at request time, as the caller sees it. Only asked about
 * tables with `rows: present` (a scalar group has row 0, a `rows: all`
 * table every row) and about the event log of a model with events.
 */
struct fastmib_oid_rows {
	void *ctx;
	/** First present row >= `row` of table group `group` (schema index),
	 * or -1 when none is. */
	int64_t (*next_row)(void *ctx, unsigned int group, uint32_t row);
	/** Is row `row` present? May be NULL: next_row() answers then. */
	bool (*row_present)(void *ctx, unsigned int group, uint32_t row);
	/** Smallest event number >= `from` held whose event has at least
	 * `min_args` arguments (0: any), or -1 when none is. */
	int64_t (*next_event)(void *ctx, uint64_t from, uint32_t min_args);
	/** Is event number `num` held? Sets *n_args to its event's arguments. */
	bool (*event)(void *ctx, uint64_t num, uint32_t *n_args);
	/** Keyed tables (fastmib_group_keyed()): the present row whose order
	 * key is key[0..len), or -1 (fastmib_keyed_find()). */
	int64_t (*keyed_find)(void *ctx, unsigned int group, const uint8_t *key, size_t len);
	/** Keyed tables: the present row whose SNMP index comes first after
	 * idx[0..n) (at it or after, with `inclusive`), its order key into key
	 * and *len; -1 when none does (fastmib_keyed_next()). */
	int64_t (*keyed_next)(void *ctx, unsigned int group, const uint64_t *idx, size_t n,
			      bool inclusive, uint8_t *key, size_t *len);
};

/** Outcome of an exact lookup, as SNMP GET reports it. */
enum fastmib_oid_found {
	FASTMIB_OID_NO_OBJECT = 0,   /**< no object type has this OID as prefix */
	FASTMIB_OID_NO_INSTANCE = 1, /**< the object type exists, this instance not */
	FASTMIB_OID_INSTANCE = 2,
};

struct fastmib_oidmap;

/**
 * Map of `schema`, which must be valid (see fastmib_create()) and outlive
 * the map. Groups, columns and events are sorted once, so that every
 * lookup is a binary search. Returns 0, -ENOMEM, or -EINVAL for what the
 * layout cannot express (an arc outside 1..FASTMIB_MAX_ARC, an arc used
 * twice, a shape the arithmetic does not cover); the map keeps no state
 * between calls, so the message goes to `why` (may be NULL).
 */
int fastmib_oidmap_new(const struct fastmib_schema *schema, struct fastmib_oidmap **mapp,
		       char *why, size_t whylen);

/** NULL is ignored. */
void fastmib_oidmap_free(struct fastmib_oidmap *map);

/**
 * Exact lookup of the suffix `sfx[0..n)` below R. For FASTMIB_OID_INSTANCE
 * `*ref` names the instance; for FASTMIB_OID_NO_INSTANCE its kind, group,
 * counter and column name the object type (so that a SET can tell a
 * missing row of a writable column from a read-only object).
 */
enum fastmib_oid_found fastmib_oidmap_resolve(const struct fastmib_oidmap *map,
					      const struct fastmib_oid_rows *rows,
					      const uint64_t *sfx, size_t n,
					      struct fastmib_oid_ref *ref);

/**
 * The smallest instance whose suffix is greater than `sfx[0..n)` (or equal,
 * when `inclusive`), in OID order; false when no instance follows. Any
 * length and any values. A few binary searches plus at most two next_row()
 * calls for the table the suffix falls in (one more for `inclusive`
 * without row_present()) and one for each later table until one has a
 * row: never a walk over rows.
 */
bool fastmib_oidmap_next(const struct fastmib_oidmap *map,
			 const struct fastmib_oid_rows *rows, const uint64_t *sfx,
			 size_t n, bool inclusive, struct fastmib_oid_ref *ref);

/**
 * Suffix below R of the instance `ref` (from fastmib_oidmap_resolve() or
 * fastmib_oidmap_next()) into out[0..FASTMIB_OID_MAX_SUFFIX); returns its
 * length.
 */
size_t fastmib_oidmap_suffix(const struct fastmib_oidmap *map,
			     const struct fastmib_oid_ref *ref, uint64_t *out);

/**
 * A suffix just past every instance of the column (or scalar) of `ref`,
 * into out[0..FASTMIB_OID_MAX_SUFFIX); returns its length. An inclusive
 * fastmib_oidmap_next() from it gives the first instance of whatever
 * follows the column: for a caller that serves some kinds of objects and
 * not others, a column it leaves out is skipped at once, not instance by
 * instance (a bucket table, one column after the other).
 */
size_t fastmib_oidmap_column_end(const struct fastmib_oidmap *map,
				 const struct fastmib_oid_ref *ref, uint64_t *out);

/** Suffix below R of the NOTIFICATION-TYPE of event `event` (schema
 * index), into out[0..3); returns its length. */
size_t fastmib_oidmap_notification(const struct fastmib_oidmap *map, uint32_t event,
				   uint64_t *out);

/** Suffix below R of the NOTIFICATION-TYPE `<p><G><S>Change` of state
 * `state` of group `group` (schema indexes), into out[0..3); its length. */
size_t fastmib_oidmap_state_notification(const struct fastmib_oidmap *map, uint32_t group,
					 uint32_t state, uint64_t *out);

/**
 * Might a lookup of `sfx[0..n)` (a GETNEXT when `next`) consult the event
 * log? For a caller that refreshes its event history before such lookups.
 */
bool fastmib_oidmap_reaches_events(const struct fastmib_oidmap *map, const uint64_t *sfx,
				   size_t n, bool next);

/**
 * Smallest row of table `g` whose index OID is greater than the index
 * suffix `sfx[0..n)` (any length, any values), or -1 when none is. Rows
 * are ordered like their OIDs because every index is one sub-identifier,
 * so the answer is a lower bound in row space.
 */
int64_t fastmib_oidmap_row_after(const struct fastmib_group_schema *g, const uint64_t *sfx,
				 size_t n);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_OIDMAP_H */
