/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names (include/fastmib/names.h): what a model's names may be, and the
 * names generated from them. Every generated name is the prefix, an
 * optional fixed word, up to two model names and an optional fixed
 * suffix, spelled in one of four styles; one table row per role says
 * which, so a rule reads in one line.
 */
#include <ctype.h>
#include <stdbool.h>

#include "fastmib/names.h"
#include "fastmib/schema.h"

enum style {
	MIB,        /* epPortQueueRxPkts: parts capitalised, glued */
	MIB_TYPE,   /* EpPortQueueEntry: the prefix capitalised too */
	C_LOWER,    /* ep_port_queue_rx_pkts_add: snake_case, joined by '_' */
	C_UPPER,    /* EP_PORT_QUEUE_ROWS */
};

struct rule {
	unsigned char space;     /* enum fastmib_name_space */
	unsigned char style;
	unsigned char parts;     /* model names used: 0, a, or a and b */
	const char *word;        /* C only: fixed word after the prefix, or NULL */
	const char *infix;       /* C only: fixed word between a and b, or NULL */
	const char *suffix;      /* fixed last part, or NULL */
};

#define M(sfx) { FASTMIB_NS_MIB, MIB, 0, NULL, NULL, sfx }
#define G(n, sfx) { FASTMIB_NS_MIB, MIB, n, NULL, NULL, sfx }
#define T(n, sfx) { FASTMIB_NS_MIB_TYPE, MIB_TYPE, n, NULL, NULL, sfx }
#define CM(n, word, sfx) { FASTMIB_NS_C_MACRO, C_UPPER, n, word, NULL, sfx }
#define CO(n, word, sfx) { FASTMIB_NS_C_ORDINARY, C_LOWER, n, word, NULL, sfx }
#define COI(infix, sfx) { FASTMIB_NS_C_ORDINARY, C_LOWER, 2, NULL, infix, sfx }
#define CMI(infix, sfx) { FASTMIB_NS_C_MACRO, C_UPPER, 2, NULL, infix, sfx }
#define CT(n, sfx) { FASTMIB_NS_C_TAG, C_LOWER, n, NULL, NULL, sfx }

static const struct rule rules[FASTMIB_N_NAME_ROLES] = {
	[FASTMIB_MIB_ROOT] = M("Mib"),
	[FASTMIB_MIB_OBJECTS] = M("Objects"),
	[FASTMIB_MIB_CONTROL] = M("Control"),
	[FASTMIB_MIB_CONFORMANCE] = M("Conformance"),
	[FASTMIB_MIB_RESET_ALL] = M("ResetAll"),
	[FASTMIB_MIB_DISCONTINUITY] = M("DiscontinuityTime"),
	[FASTMIB_MIB_WRITER_STATUS] = M("WriterStatus"),
	[FASTMIB_MIB_BEST_EFFORT] = M("BestEffortReads"),
	[FASTMIB_MIB_OUT_OF_RANGE] = M("OutOfRangeUpdates"),
	[FASTMIB_MIB_COMPLIANCES] = M("Compliances"),
	[FASTMIB_MIB_GROUPS] = M("Groups"),
	[FASTMIB_MIB_COMPLIANCE] = M("Compliance"),
	[FASTMIB_MIB_CONTROL_GROUP] = M("ControlGroup"),
	[FASTMIB_MIB_EVENTS] = M("Events"),
	[FASTMIB_MIB_EVENT_NOTIFICATIONS] = M("EventNotifications"),
	[FASTMIB_MIB_EVENT_TABLE] = M("EventTable"),
	[FASTMIB_MIB_EVENT_ENTRY] = M("EventEntry"),
	[FASTMIB_MIB_EVENT_NUMBER] = M("EventNumber"),
	[FASTMIB_MIB_EVENT_NAME] = M("EventName"),
	[FASTMIB_MIB_EVENT_ID] = M("EventId"),
	[FASTMIB_MIB_EVENT_TIME] = M("EventTime"),
	[FASTMIB_MIB_EVENT_LCORE] = M("EventLcore"),
	[FASTMIB_MIB_EVENT_LAG_CYCLES] = M("EventLagCycles"),
	[FASTMIB_MIB_EVENT_LAG_NS] = M("EventLagNs"),
	[FASTMIB_MIB_EVENT_ARG1] = M("EventArg1"),
	[FASTMIB_MIB_EVENT_ARG2] = M("EventArg2"),
	[FASTMIB_MIB_EVENT_ARG3] = M("EventArg3"),
	[FASTMIB_MIB_EVENT_ARG4] = M("EventArg4"),
	[FASTMIB_MIB_EVENT_STATS_TABLE] = M("EventStatsTable"),
	[FASTMIB_MIB_EVENT_STATS_ENTRY] = M("EventStatsEntry"),
	[FASTMIB_MIB_EVENT_STATS_ID] = M("EventStatsId"),
	[FASTMIB_MIB_EVENT_STATS_NAME] = M("EventStatsName"),
	[FASTMIB_MIB_EVENT_STATS_LOGGED] = M("EventStatsLogged"),
	[FASTMIB_MIB_EVENT_STATS_DROPPED] = M("EventStatsDropped"),
	[FASTMIB_MIB_EVENT_GROUP] = M("EventGroup"),
	[FASTMIB_MIB_EVENT_NOTIFICATION_GROUP] = M("EventNotificationGroup"),

	[FASTMIB_MIB_SCALAR_NODE] = G(1, NULL),
	[FASTMIB_MIB_TABLE] = G(1, "Table"),
	[FASTMIB_MIB_ENTRY] = G(1, "Entry"),
	[FASTMIB_MIB_RESET] = G(1, "Reset"),
	[FASTMIB_MIB_GROUP_DISCONTINUITY] = G(1, "DiscontinuityTime"),
	[FASTMIB_MIB_OBJECT_GROUP] = G(1, "Group"),
	[FASTMIB_MIB_COUNTER] = G(2, NULL),
	[FASTMIB_MIB_INDEX] = G(2, NULL),
	[FASTMIB_MIB_INDEX_TYPE] = G(2, "Type"),
	[FASTMIB_MIB_NOTIFICATION] = G(1, "Notification"),

	[FASTMIB_MIB_TYPE_ENTRY] = T(1, "Entry"),
	[FASTMIB_MIB_TYPE_EVENT_ENTRY] = T(0, "EventEntry"),
	[FASTMIB_MIB_TYPE_EVENT_STATS_ENTRY] = T(0, "EventStatsEntry"),
	[FASTMIB_MIB_TYPE_UNSIGNED64] = T(0, "Unsigned64"),

	[FASTMIB_C_HEADER_GUARD] = CM(0, NULL, "STATS_H"),
	[FASTMIB_C_ALIGNED_64] = CM(0, NULL, "ALIGNED_64"),
	[FASTMIB_C_STATIC_ASSERT] = CM(0, NULL, "STATIC_ASSERT"),
	[FASTMIB_C_PERCORE_SIZE] = CM(0, NULL, "PERCORE_SIZE"),
	[FASTMIB_C_SHARED_SIZE] = CM(0, NULL, "SHARED_SIZE"),
	[FASTMIB_C_SCHEMA_HASH] = CM(0, NULL, "SCHEMA_HASH"),
	[FASTMIB_C_N_EVENTS] = CM(0, NULL, "N_EVENTS"),
	[FASTMIB_C_SCHEMA] = CO(0, NULL, "schema"),
	[FASTMIB_C_GROUPS] = CO(0, NULL, "groups"),
	[FASTMIB_C_EVENTS] = CO(0, NULL, "events"),
	[FASTMIB_C_CREATE] = CO(0, NULL, "create"),
	[FASTMIB_C_ATTACH] = CO(0, NULL, "attach"),
	[FASTMIB_C_PERCORE_STRUCT] = CT(0, "percore"),
	[FASTMIB_C_SHARED_STRUCT] = CT(0, "shared"),
	[FASTMIB_C_TX_STRUCT] = CT(0, "tx"),
	[FASTMIB_C_TX_BEGIN] = CO(0, NULL, "tx_begin"),
	[FASTMIB_C_TX_END] = CO(0, NULL, "tx_end"),
	[FASTMIB_C_TX_PREPARE] = CO(0, NULL, "tx_prepare"),
	[FASTMIB_C_TX_OPEN] = CO(0, NULL, "tx_open"),

	[FASTMIB_C_GROUP_ID] = CM(1, "GROUP", NULL),
	[FASTMIB_C_OFFSET] = CM(1, NULL, "OFFSET"),
	[FASTMIB_C_ROW_SIZE] = CM(1, NULL, "ROW_SIZE"),
	[FASTMIB_C_ROWS] = CM(1, NULL, "ROWS"),
	[FASTMIB_C_ROW_FN] = CO(1, NULL, "row"),
	[FASTMIB_C_ROW_CHECKED_FN] = CO(1, NULL, "row_checked"),
	[FASTMIB_C_ROW_STRUCT] = CT(1, "row"),
	[FASTMIB_C_COUNTERS] = CO(1, NULL, "counters"),
	[FASTMIB_C_INDEX_MAX] = CM(2, NULL, "MAX"),
	[FASTMIB_C_ADD] = CO(2, NULL, "add"),
	[FASTMIB_C_SUB] = CO(2, NULL, "sub"),
	[FASTMIB_C_SET] = CO(2, NULL, "set"),
	[FASTMIB_C_TX_ROW_FN] = CO(1, "tx", NULL),
	[FASTMIB_C_REF_STRUCT] = CT(1, "ref"),
	[FASTMIB_C_TX_ADD] = CO(2, "tx", "add"),
	[FASTMIB_C_TX_SUB] = CO(2, "tx", "sub"),
	[FASTMIB_C_TX_SET] = CO(2, "tx", "set"),
	[FASTMIB_C_REF_ADD] = COI("ref", "add"),
	[FASTMIB_C_REF_SUB] = COI("ref", "sub"),
	[FASTMIB_C_REF_SET] = COI("ref", "set"),
	[FASTMIB_C_KEY_STRUCT] = CT(1, "key"),
	[FASTMIB_C_KEY_SIZE] = CM(1, NULL, "KEY_SIZE"),
	[FASTMIB_C_KEY_OFFSET] = CMI("KEY", "OFFSET"),
	[FASTMIB_C_KEY_INSERT] = CO(1, NULL, "insert"),
	[FASTMIB_C_KEY_FIND] = CO(1, NULL, "find"),
	[FASTMIB_C_KEY_REMOVE] = CO(1, NULL, "remove"),

	[FASTMIB_C_EVENT_ID] = CM(1, "EVENT", NULL),
	[FASTMIB_C_EVENT_FN] = CO(1, "event", NULL),

	[FASTMIB_MIB_HIST_COUNT] = G(2, "Count"),
	[FASTMIB_MIB_HIST_SUM] = G(2, "Sum"),
	[FASTMIB_MIB_BUCKET_TABLE] = G(2, "BucketTable"),
	[FASTMIB_MIB_BUCKET_ENTRY] = G(2, "BucketEntry"),
	[FASTMIB_MIB_BUCKET] = G(2, "Bucket"),
	[FASTMIB_MIB_BUCKET_LE] = G(2, "BucketLe"),
	[FASTMIB_MIB_BUCKET_COUNT] = G(2, "BucketCount"),
	[FASTMIB_MIB_TYPE_BUCKET_ENTRY] = T(2, "BucketEntry"),
	[FASTMIB_C_BUCKETS] = CM(2, NULL, "BUCKETS"),
	[FASTMIB_C_BUCKET_FN] = CO(2, NULL, "bucket"),
	[FASTMIB_C_BOUNDS] = CO(2, NULL, "bounds"),
	[FASTMIB_C_OBSERVE] = CO(2, NULL, "observe"),
	[FASTMIB_C_TX_OBSERVE] = CO(2, "tx", "observe"),
	[FASTMIB_C_REF_OBSERVE] = COI("ref", "observe"),
	[FASTMIB_C_PEAK] = CO(2, NULL, "peak"),
	[FASTMIB_C_TX_PEAK] = CO(2, "tx", "peak"),
	[FASTMIB_C_REF_PEAK] = COI("ref", "peak"),
};

/* ---- name syntax ---- */

static bool
is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool
is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool
fastmib_name_is_model(const char *s)
{
	if (!is_lower(*s))
		return false;
	for (; *s; s++)
		if (!is_lower(*s) && !is_upper(*s) && !is_digit(*s))
			return false;
	return true;
}

bool
fastmib_name_is_module(const char *s)
{
	if (!is_upper(*s))
		return false;
	for (; *s; s++)
		if (*s == '-' ? s[1] == '-' || s[1] == '\0'
			      : !is_lower(*s) && !is_upper(*s) && !is_digit(*s))
			return false;
	return true;
}

bool
fastmib_name_is_prefix(const char *s)
{
	if (!is_lower(*s))
		return false;
	for (; *s; s++)
		if (!is_lower(*s) && !is_digit(*s))
			return false;
	return true;
}

/* ---- generated names ---- */

/* snprintf-like output: counts every character, stores what fits. */
struct out {
	char *buf;
	size_t len;
	size_t n;
};

static void
put(struct out *o, char c)
{
	if (o->n + 1 < o->len)
		o->buf[o->n] = c;
	o->n++;
}

static void
put_str(struct out *o, const char *s)
{
	for (; *s; s++)
		put(o, *s);
}

static size_t
finish(struct out *o)
{
	if (o->len > 0)
		o->buf[o->n < o->len ? o->n : o->len - 1] = '\0';
	return o->n;
}

/* MIB style part: first letter upper-cased, the rest as written. */
static void
put_capitalised(struct out *o, const char *s)
{
	if (*s) {
		put(o, (char)toupper((unsigned char)*s));
		put_str(o, s + 1);
	}
}

/* C style part: camelCase split into words, all lower or all upper case. */
static void
put_words(struct out *o, const char *s, bool upper)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isupper(c))
			put(o, '_');
		put(o, (char)(upper ? toupper(c) : tolower(c)));
	}
}

enum fastmib_name_space
fastmib_name_space(enum fastmib_name_role role)
{
	return (unsigned)role < FASTMIB_N_NAME_ROLES ? (enum fastmib_name_space)rules[role].space
						     : FASTMIB_NS_MIB;
}

size_t
fastmib_name(char *buf, size_t len, enum fastmib_name_role role, const char *prefix,
	     const char *a, const char *b)
{
	struct out o = { buf, len, 0 };
	const struct rule *r;
	const char *parts[2] = { a ? a : "", b ? b : "" };
	bool upper;

	if ((unsigned)role >= FASTMIB_N_NAME_ROLES)
		return finish(&o);
	r = &rules[role];
	if (r->style == MIB || r->style == MIB_TYPE) {
		if (r->style == MIB)
			put_str(&o, prefix);
		else
			put_capitalised(&o, prefix);
		for (unsigned i = 0; i < r->parts; i++)
			put_capitalised(&o, parts[i]);
		if (r->suffix)
			put_str(&o, r->suffix);
		return finish(&o);
	}
	upper = r->style == C_UPPER;
	put_words(&o, prefix, upper);
	if (r->word) {
		put(&o, '_');
		put_str(&o, r->word);
	}
	for (unsigned i = 0; i < r->parts; i++) {
		if (i == 1 && r->infix) {
			put(&o, '_');
			put_str(&o, r->infix);
		}
		put(&o, '_');
		put_words(&o, parts[i], upper);
	}
	if (r->suffix) {
		put(&o, '_');
		put_str(&o, r->suffix);
	}
	return finish(&o);
}

size_t
fastmib_name_mib_style(char *buf, size_t len, const char *prefix, const char *a,
		       const char *b)
{
	struct out o = { buf, len, 0 };

	put_str(&o, prefix);
	put_capitalised(&o, a ? a : "");
	put_capitalised(&o, b ? b : "");
	return finish(&o);
}

size_t
fastmib_name_exporter_module(char *buf, size_t len, const char *module)
{
	struct out o = { buf, len, 0 };

	for (; *module; module++)
		put(&o, *module == '-' ? '_' : (char)tolower((unsigned char)*module));
	return finish(&o);
}

size_t
fastmib_name_snake(char *buf, size_t len, const char *name)
{
	struct out o = { buf, len, 0 };

	put_words(&o, name, false);
	return finish(&o);
}

size_t
fastmib_name_upper(char *buf, size_t len, const char *name)
{
	struct out o = { buf, len, 0 };

	put_words(&o, name, true);
	return finish(&o);
}

/* The one rule of metric names: a MIB descriptor (its letters and digits,
 * at most FASTMIB_MAX_NAME of them in a valid model) in snake_case. */
static size_t
metric_of_descriptor(char *buf, size_t len, const char *descr)
{
	return fastmib_name_snake(buf, len, descr);
}

size_t
fastmib_name_metric(char *buf, size_t len, const char *prefix, const char *a, const char *b)
{
	char d[4 * FASTMIB_MAX_NAME];

	fastmib_name_mib_style(d, sizeof(d), prefix, a, b);
	return metric_of_descriptor(buf, len, d);
}

size_t
fastmib_name_metric_of(char *buf, size_t len, enum fastmib_name_role role, const char *prefix)
{
	char d[4 * FASTMIB_MAX_NAME];

	fastmib_name(d, sizeof(d), role, prefix, NULL, NULL);
	return metric_of_descriptor(buf, len, d);
}

size_t
fastmib_name_label(char *buf, size_t len, const char *name)
{
	return fastmib_name_snake(buf, len, name);
}
