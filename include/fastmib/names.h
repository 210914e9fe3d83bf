/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Generated names: how the names of a model (prefix, groups, counters,
 * indexes, events) become the MIB descriptors of its SMIv2 module
 * (docs/mib-layout.md) and the C names of its generated header and schema
 * (docs/model.md, "Names").
 *
 * This is the one place that says so. fastmib-gen builds every name it
 * emits here, and checks them for length and collisions through the same
 * calls; readers (fastmib-stat) build the MIB names they print here, so
 * they always print what the MIB defines.
 *
 * Every function writes a NUL-terminated name into buf[0..len) as
 * snprintf() does and returns the length of the whole name: a return
 * value >= len means the name was truncated. `buf` may be NULL when `len`
 * is 0, to measure. Names longer than FASTMIB_MAX_NAME are returned as
 * they are: fastmib-gen rejects a model that makes one.
 */
#ifndef FASTMIB_NAMES_H
#define FASTMIB_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what a name of a model may be (docs/model.md, "Names") ----
 *
 * The one statement of these rules: fastmib_schema_check() enforces them on
 * every schema, and fastmib-gen reports a model that breaks them at its
 * YAML position. ASCII only, whatever the locale. Lengths are the schema's
 * rule (FASTMIB_MAX_NAME), not these. */

/** A name of a group, counter, index, event or event argument: an SMI
 *  descriptor, a lowercase letter then letters and digits. */
bool fastmib_name_is_model(const char *s);

/** A MIB module name: an uppercase letter, then letters, digits and single
 *  hyphens, not ending with one. */
bool fastmib_name_is_module(const char *s);

/** A model prefix: a lowercase letter, then lowercase letters and digits. */
bool fastmib_name_is_prefix(const char *s);

/** Namespaces: two names collide only within one. */
enum fastmib_name_space {
	FASTMIB_NS_MIB = 0,        /**< MIB descriptor (object, node, group, notification) */
	FASTMIB_NS_MIB_TYPE = 1,   /**< MIB type name (SEQUENCE type, textual convention) */
	FASTMIB_NS_C_MACRO = 2,    /**< C preprocessor macro */
	FASTMIB_NS_C_ORDINARY = 3, /**< C function or object */
	FASTMIB_NS_C_TAG = 4,      /**< C struct tag */
};

/**
 * What a generated name names. `p` is the prefix, `P` the prefix in upper
 * case; G, C, I and E stand for the group, counter, index and event name
 * passed as `a` and `b` to fastmib_name() (column "a, b"): in MIB names
 * with their first letter upper-cased, in C names in snake_case (`g`) or
 * upper case (`G`).
 */
enum fastmib_name_role {
	/* ---- MIB descriptors of the module (a, b unused) ---- */
	FASTMIB_MIB_ROOT,             /**< pMib: the MODULE-IDENTITY */
	FASTMIB_MIB_OBJECTS,          /**< pObjects */
	FASTMIB_MIB_CONTROL,          /**< pControl */
	FASTMIB_MIB_CONFORMANCE,      /**< pConformance */
	FASTMIB_MIB_RESET_ALL,        /**< pResetAll */
	FASTMIB_MIB_DISCONTINUITY,    /**< pDiscontinuityTime */
	FASTMIB_MIB_WRITER_STATUS,    /**< pWriterStatus */
	FASTMIB_MIB_BEST_EFFORT,      /**< pBestEffortReads */
	FASTMIB_MIB_OUT_OF_RANGE,     /**< pOutOfRangeUpdates */
	FASTMIB_MIB_COMPLIANCES,      /**< pCompliances */
	FASTMIB_MIB_GROUPS,           /**< pGroups */
	FASTMIB_MIB_COMPLIANCE,       /**< pCompliance */
	FASTMIB_MIB_CONTROL_GROUP,    /**< pControlGroup */
	/* ---- the event log's MIB descriptors (models with events; a, b unused) ---- */
	FASTMIB_MIB_EVENTS,           /**< pEvents */
	FASTMIB_MIB_EVENT_NOTIFICATIONS, /**< pEventNotifications */
	FASTMIB_MIB_EVENT_TABLE,      /**< pEventTable */
	FASTMIB_MIB_EVENT_ENTRY,      /**< pEventEntry */
	FASTMIB_MIB_EVENT_NUMBER,     /**< pEventNumber */
	FASTMIB_MIB_EVENT_NAME,       /**< pEventName */
	FASTMIB_MIB_EVENT_ID,         /**< pEventId */
	FASTMIB_MIB_EVENT_TIME,       /**< pEventTime */
	FASTMIB_MIB_EVENT_LCORE,      /**< pEventLcore */
	FASTMIB_MIB_EVENT_LAG_CYCLES, /**< pEventLagCycles */
	FASTMIB_MIB_EVENT_LAG_NS,     /**< pEventLagNs */
	FASTMIB_MIB_EVENT_ARG1,       /**< pEventArg1; ARG1 + k is pEventArg<k+1> */
	FASTMIB_MIB_EVENT_ARG2,       /**< pEventArg2 */
	FASTMIB_MIB_EVENT_ARG3,       /**< pEventArg3 */
	FASTMIB_MIB_EVENT_ARG4,       /**< pEventArg4 */
	FASTMIB_MIB_EVENT_STATS_TABLE,   /**< pEventStatsTable */
	FASTMIB_MIB_EVENT_STATS_ENTRY,   /**< pEventStatsEntry */
	FASTMIB_MIB_EVENT_STATS_ID,      /**< pEventStatsId */
	FASTMIB_MIB_EVENT_STATS_NAME,    /**< pEventStatsName */
	FASTMIB_MIB_EVENT_STATS_LOGGED,  /**< pEventStatsLogged */
	FASTMIB_MIB_EVENT_STATS_DROPPED, /**< pEventStatsDropped */
	FASTMIB_MIB_EVENT_GROUP,      /**< pEventGroup */
	FASTMIB_MIB_EVENT_NOTIFICATION_GROUP, /**< pEventNotificationGroup */
	/* ---- MIB descriptors of a group (a = group) ---- */
	FASTMIB_MIB_SCALAR_NODE,      /**< pG: the node of a scalar group */
	FASTMIB_MIB_TABLE,            /**< pGTable */
	FASTMIB_MIB_ENTRY,            /**< pGEntry */
	FASTMIB_MIB_RESET,            /**< pGReset */
	FASTMIB_MIB_GROUP_DISCONTINUITY, /**< pGDiscontinuityTime */
	FASTMIB_MIB_OBJECT_GROUP,     /**< pGGroup: the group's OBJECT-GROUP */
	FASTMIB_MIB_COUNTER,          /**< pGC (a = group, b = counter): scalar or column */
	FASTMIB_MIB_INDEX,            /**< pGI (a = group, b = index): index column */
	FASTMIB_MIB_INDEX_TYPE,       /**< pGIType (a = group, b = index): the
					   InetAddressType of an inet-address index */
	FASTMIB_MIB_NOTIFICATION,     /**< pENotification (a = event) */
	/* ---- MIB type names ---- */
	FASTMIB_MIB_TYPE_ENTRY,       /**< PGEntry (a = group): a table's SEQUENCE */
	FASTMIB_MIB_TYPE_EVENT_ENTRY, /**< PEventEntry */
	FASTMIB_MIB_TYPE_EVENT_STATS_ENTRY, /**< PEventStatsEntry */
	FASTMIB_MIB_TYPE_UNSIGNED64,  /**< PUnsigned64: the event log's 64-bit gauge */
	/* ---- C names of the module (a, b unused) ---- */
	FASTMIB_C_HEADER_GUARD,       /**< macro P_STATS_H */
	FASTMIB_C_ALIGNED_64,         /**< macro P_ALIGNED_64 */
	FASTMIB_C_STATIC_ASSERT,      /**< macro P_STATIC_ASSERT */
	FASTMIB_C_PERCORE_SIZE,       /**< macro P_PERCORE_SIZE */
	FASTMIB_C_SHARED_SIZE,        /**< macro P_SHARED_SIZE */
	FASTMIB_C_SCHEMA_HASH,        /**< macro P_SCHEMA_HASH */
	FASTMIB_C_N_EVENTS,           /**< macro P_N_EVENTS */
	FASTMIB_C_SCHEMA,             /**< p_schema, the struct fastmib_schema */
	FASTMIB_C_GROUPS,             /**< p_groups, its groups */
	FASTMIB_C_EVENTS,             /**< p_events, its events */
	FASTMIB_C_CREATE,             /**< p_create(), fastmib_create() for this schema */
	FASTMIB_C_ATTACH,             /**< p_attach(), fastmib_attach() for this schema */
	FASTMIB_C_PERCORE_STRUCT,     /**< struct p_percore */
	FASTMIB_C_SHARED_STRUCT,      /**< struct p_shared */
	FASTMIB_C_TX_STRUCT,          /**< struct p_tx, the model's transaction */
	FASTMIB_C_TX_BEGIN,           /**< p_tx_begin() */
	FASTMIB_C_TX_END,             /**< p_tx_end() */
	FASTMIB_C_TX_PREPARE,         /**< p_tx_prepare(): a transaction value, none open */
	FASTMIB_C_TX_OPEN,            /**< p_tx_open(): open one on a prepared value */
	/* ---- C names of a group (a = group) ---- */
	FASTMIB_C_GROUP_ID,           /**< macro P_GROUP_G */
	FASTMIB_C_OFFSET,             /**< macro P_G_OFFSET */
	FASTMIB_C_ROW_SIZE,           /**< macro P_G_ROW_SIZE */
	FASTMIB_C_ROWS,               /**< macro P_G_ROWS (tables) */
	FASTMIB_C_ROW_FN,             /**< p_g_row(), the row number of a table's indexes */
	FASTMIB_C_ROW_CHECKED_FN,     /**< p_g_row_checked(): that, or the scratch row */
	FASTMIB_C_ROW_STRUCT,         /**< struct p_g_row */
	FASTMIB_C_COUNTERS,           /**< p_g_counters, the group's counter schemas */
	FASTMIB_C_INDEX_MAX,          /**< macro P_G_I_MAX (a = group, b = index) */
	FASTMIB_C_ADD,                /**< p_g_c_add() (a = group, b = counter) */
	FASTMIB_C_SUB,                /**< p_g_c_sub() (a = group, b = counter): gauges */
	FASTMIB_C_SET,                /**< p_g_c_set() (a = group, b = counter): `set: true` */
	FASTMIB_C_TX_ROW_FN,          /**< p_tx_g(), a table's row handle */
	FASTMIB_C_REF_STRUCT,         /**< struct p_g_ref, that handle */
	FASTMIB_C_TX_ADD,             /**< p_tx_g_c_add() (a = group, b = counter) */
	FASTMIB_C_TX_SUB,             /**< p_tx_g_c_sub(): gauges */
	FASTMIB_C_TX_SET,             /**< p_tx_g_c_set(): `set: true` */
	FASTMIB_C_REF_ADD,            /**< p_g_ref_c_add() (a = group, b = counter): tables */
	FASTMIB_C_REF_SUB,            /**< p_g_ref_c_sub(): gauges of tables */
	FASTMIB_C_REF_SET,            /**< p_g_ref_c_set(): `set: true` in tables */
	/* ---- C names of a keyed table (a = group) ---- */
	FASTMIB_C_KEY_STRUCT,         /**< struct p_g_key: the table's C key */
	FASTMIB_C_KEY_SIZE,           /**< macro P_G_KEY_SIZE: its size */
	FASTMIB_C_KEY_OFFSET,         /**< macro P_G_KEY_I_OFFSET (a = group, b = index):
					   the offset of index I's member in it */
	FASTMIB_C_KEY_INSERT,         /**< p_g_insert(): the row of a key, a new one if need be */
	FASTMIB_C_KEY_FIND,           /**< p_g_find(): the row of a key the table holds */
	FASTMIB_C_KEY_REMOVE,         /**< p_g_remove(): a key and its row leave the table */
	/* ---- C names of an event (a = event) ---- */
	FASTMIB_C_EVENT_ID,           /**< macro P_EVENT_E: the event's index */
	FASTMIB_C_EVENT_FN,           /**< p_event_e(), its log function */
	/* ---- a histogram's (a = group, b = histogram H) ---- */
	FASTMIB_MIB_HIST_COUNT,       /**< pGHCount: its observations */
	FASTMIB_MIB_HIST_SUM,         /**< pGHSum: the sum of their values */
	FASTMIB_MIB_BUCKET_TABLE,     /**< pGHBucketTable: its buckets, per row */
	FASTMIB_MIB_BUCKET_ENTRY,     /**< pGHBucketEntry */
	FASTMIB_MIB_BUCKET,           /**< pGHBucket: the bucket number, not-accessible */
	FASTMIB_MIB_BUCKET_LE,        /**< pGHBucketLe: a bucket's upper bound */
	FASTMIB_MIB_BUCKET_COUNT,     /**< pGHBucketCount: a bucket's observations */
	FASTMIB_MIB_TYPE_BUCKET_ENTRY, /**< PGHBucketEntry: the SEQUENCE of its rows */
	FASTMIB_C_BUCKETS,            /**< macro P_G_H_BUCKETS: its buckets, bounds + 1 */
	FASTMIB_C_BUCKET_FN,          /**< p_g_h_bucket(), the bucket of a value */
	FASTMIB_C_BOUNDS,             /**< p_g_h_bounds, its bounds (schema.c) */
	FASTMIB_C_OBSERVE,            /**< p_g_h_observe(): an observation, on the writer */
	FASTMIB_C_TX_OBSERVE,         /**< p_tx_g_h_observe(): on a transaction */
	FASTMIB_C_REF_OBSERVE,        /**< p_g_ref_h_observe(): on a row handle (tables) */
	/* ---- a peak's (a = group, b = peak K; its object is FASTMIB_MIB_COUNTER's) ---- */
	FASTMIB_C_PEAK,               /**< p_g_k_peak(): a value recorded, on the writer */
	FASTMIB_C_TX_PEAK,            /**< p_tx_g_k_peak(): on a transaction */
	FASTMIB_C_REF_PEAK,           /**< p_g_ref_k_peak(): on a row handle (tables) */
	FASTMIB_N_NAME_ROLES
};

/** Namespace of the names of `role`. */
enum fastmib_name_space fastmib_name_space(enum fastmib_name_role role);

/**
 * The name of `role` for prefix `prefix`, from model names `a` and `b`
 * (NULL where the role takes none). An unknown role gives "".
 */
size_t fastmib_name(char *buf, size_t len, enum fastmib_name_role role,
		    const char *prefix, const char *a, const char *b);

/**
 * MIB descriptor style: `prefix` then `a` and `b` (either may be NULL),
 * each with its first letter upper-cased. Every MIB descriptor above is
 * made this way; readers use it for names of their own in the same style
 * (fastmib-stat accepts `epBurstStart` for event `burstStart`).
 */
size_t fastmib_name_mib_style(char *buf, size_t len, const char *prefix,
			      const char *a, const char *b);

/**
 * The name of a MIB module's entry in a Prometheus snmp_exporter generator
 * configuration (`modules:` key, the `module=` parameter of a scrape):
 * `module` in lower case with every '-' as '_', as snmp_exporter names its
 * own modules after the MIBs they read (IF-MIB gives if_mib,
 * EXAMPLE-DATAPLANE-MIB gives example_dataplane_mib).
 */
size_t fastmib_name_exporter_module(char *buf, size_t len, const char *module);

/* ---- Prometheus and OpenMetrics names (fastmib-exporter) ----
 *
 * A metric family is named after the object's MIB descriptor in
 * snake_case: <prefix>_<group>_<counter> (ep_global_total_pkts, from
 * epGlobalTotalPkts), <prefix>_writer_status from epWriterStatus, and so
 * on; a label after the model name it carries (index sessionId: label
 * session_id; state operState of an info or stateset family: oper_state).
 * Counter families take the `_total` suffix on their samples (docs/nms.md). */

/** Metric family name: the snake_case of fastmib_name_mib_style(prefix,
 *  a, b) (either of a, b may be NULL). */
size_t fastmib_name_metric(char *buf, size_t len, const char *prefix, const char *a,
			   const char *b);

/** Metric family name of a MIB descriptor of the module (`role` of the
 *  "MIB descriptors of the module" above: FASTMIB_MIB_WRITER_STATUS gives
 *  ep_writer_status). */
size_t fastmib_name_metric_of(char *buf, size_t len, enum fastmib_name_role role,
			      const char *prefix);

/** Label name of a model name (an index, a state): its snake_case. */
size_t fastmib_name_label(char *buf, size_t len, const char *name);

/** camelCase -> camel_case: a new word at every upper-case letter. */
size_t fastmib_name_snake(char *buf, size_t len, const char *name);

/** camelCase -> CAMEL_CASE. */
size_t fastmib_name_upper(char *buf, size_t len, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_NAMES_H */
