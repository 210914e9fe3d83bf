/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Schema validation: the rules every schema obeys, whether it was compiled
 * into a writer by fastmib-gen or read back from a segment file by a
 * reader (where it is untrusted input).
 */
#include <errno.h>
#include <string.h>

#include "segment_format.h"

static int
check_str(const char *s, size_t max, const char *what, const char *owner)
{
	if (s == NULL)
		return fms_error(-EINVAL, "schema: %s of %s is missing", what, owner);
	if (strnlen(s, max + 1) > max)
		return fms_error(-EINVAL, "schema: %s of %s is longer than %zu bytes",
				 what, owner, max);
	return 0;
}

static int
check_group(const struct fastmib_schema *s, const struct fastmib_group_schema *g)
{
	uint64_t rows = 1, area;
	int rc;

	if ((rc = check_str(g->name, FASTMIB_MAX_NAME, "name", "a group")) ||
	    (rc = check_str(g->description, FMS_STR_MAX, "description", g->name)))
		return rc;
	if (g->storage < FASTMIB_STORAGE_PER_CORE ||
	    g->storage > FASTMIB_STORAGE_SHARED_ATOMIC)
		return fms_error(-EINVAL, "schema: group %s: bad storage %u", g->name,
				 g->storage);
	if (g->n_indexes > FASTMIB_MAX_INDEXES)
		return fms_error(-EINVAL, "schema: group %s: %u indexes (max %u)",
				 g->name, g->n_indexes, FASTMIB_MAX_INDEXES);
	if (g->all_rows > 1 || (g->n_indexes == 0 && g->all_rows))
		return fms_error(-EINVAL, "schema: group %s: bad all_rows %u", g->name,
				 g->all_rows);
	for (uint32_t i = 0; i < g->n_indexes; i++) {
		if ((rc = check_str(g->indexes[i].name, FASTMIB_MAX_NAME, "index name",
				    g->name)))
			return rc;
		if (g->indexes[i].max == 0 || g->indexes[i].max > FASTMIB_MAX_ROWS)
			return fms_error(-EINVAL, "schema: group %s: index %s max %u out of range",
					 g->name, g->indexes[i].name, g->indexes[i].max);
		rows *= g->indexes[i].max;
		if (rows > FASTMIB_MAX_ROWS)
			return fms_error(-EINVAL, "schema: group %s: more than %u rows",
					 g->name, FASTMIB_MAX_ROWS);
	}
	if (g->n_rows != rows)
		return fms_error(-EINVAL, "schema: group %s: n_rows %u, indexes give %llu",
				 g->name, g->n_rows, (unsigned long long)rows);
	if (g->n_counters == 0 || g->n_counters > FASTMIB_MAX_COUNTERS ||
	    g->counters == NULL)
		return fms_error(-EINVAL, "schema: group %s: %u counters (1..%u)",
				 g->name, g->n_counters, FASTMIB_MAX_COUNTERS);
	if (g->row_size == 0 || g->row_size % 8 ||
	    g->row_size > 8u * FASTMIB_MAX_COUNTERS)
		return fms_error(-EINVAL, "schema: group %s: bad row_size %u", g->name,
				 g->row_size);
	area = g->storage == FASTMIB_STORAGE_PER_CORE ? s->percore_size : s->shared_size;
	if (g->offset % FMS_CACHE_LINE || g->offset > area ||
	    (uint64_t)g->n_rows * g->row_size > area - g->offset)
		return fms_error(-EINVAL,
				 "schema: group %s: offset %llu + %u rows x %u bytes outside its %llu-byte area",
				 g->name, (unsigned long long)g->offset, g->n_rows,
				 g->row_size, (unsigned long long)area);
	for (uint32_t i = 0; i < g->n_counters; i++) {
		const struct fastmib_counter_schema *c = &g->counters[i];

		if ((rc = check_str(c->name, FASTMIB_MAX_NAME, "counter name", g->name)) ||
		    (rc = check_str(c->units, FASTMIB_MAX_UNITS, "units", c->name)) ||
		    (rc = check_str(c->description, FMS_STR_MAX, "description", c->name)))
			return rc;
		if (c->type < FASTMIB_COUNTER64 || c->type > FASTMIB_GAUGE32)
			return fms_error(-EINVAL, "schema: counter %s.%s: bad type %u",
					 g->name, c->name, c->type);
		if (c->offset % 8 || c->offset >= g->row_size)
			return fms_error(-EINVAL,
					 "schema: counter %s.%s: offset %u not an aligned word within the %u-byte row",
					 g->name, c->name, c->offset, g->row_size);
	}
	return 0;
}

static int
check_event(const struct fastmib_schema *s, uint32_t i)
{
	const struct fastmib_event_schema *e = &s->events[i];
	int rc;

	if ((rc = check_str(e->name, FASTMIB_MAX_NAME, "name", "an event")) ||
	    (rc = check_str(e->description, FMS_STR_MAX, "description", e->name)))
		return rc;
	if (e->arc == 0 || e->arc > FASTMIB_MAX_ARC)
		return fms_error(-EINVAL, "schema: event %s: arc %u (1..%u)", e->name, e->arc,
				 FASTMIB_MAX_ARC);
	for (uint32_t k = 0; k < i; k++)
		if (s->events[k].arc == e->arc)
			return fms_error(-EINVAL, "schema: events %s and %s share arc %u",
					 s->events[k].name, e->name, e->arc);
	if (e->level > FASTMIB_EVENT_RATE_MAX || e->rate > FASTMIB_EVENT_RATE_MAX ||
	    e->notify > 1)
		return fms_error(-EINVAL, "schema: event %s: level %u / rate %u (0..9) or notify %u (0..1) out of range",
				 e->name, e->level, e->rate, e->notify);
	if (e->n_args > FASTMIB_MAX_EVENT_ARGS)
		return fms_error(-EINVAL, "schema: event %s: %u args (max %u)", e->name,
				 e->n_args, FASTMIB_MAX_EVENT_ARGS);
	for (uint32_t k = 0; k < e->n_args; k++) {
		if ((rc = check_str(e->args[k], FASTMIB_MAX_NAME, "arg name", e->name)))
			return rc;
		/* 0 is "not given" (stored as uint64); only a read-back schema has
		 * to name a type, see fms_schema_deserialize(). */
		if (e->arg_types[k] > FASTMIB_ARG_UINT64)
			return fms_error(-EINVAL, "schema: event %s: arg %s has unknown type %u (1..3)",
					 e->name, e->args[k], e->arg_types[k]);
	}
	return 0;
}

int
fms_schema_check(const struct fastmib_schema *s)
{
	int rc;

	if (s == NULL)
		return fms_error(-EINVAL, "schema: NULL");
	if (s->version != FASTMIB_MODEL_VERSION)
		return fms_error(-EINVAL, "schema: model version %u, expected %u",
				 s->version, FASTMIB_MODEL_VERSION);
	if ((rc = check_str(s->module, FASTMIB_MAX_NAME, "module name", "the schema")) ||
	    (rc = check_str(s->prefix, FASTMIB_MAX_NAME, "prefix", "the schema")))
		return rc;
	if (s->oid_len == 0 || s->oid_len > FASTMIB_MAX_OID_LEN)
		return fms_error(-EINVAL, "schema: OID length %u (1..%u)", s->oid_len,
				 FASTMIB_MAX_OID_LEN);
	if (s->percore_size % FMS_CACHE_LINE || s->percore_size > FASTMIB_MAX_AREA ||
	    s->shared_size % FMS_CACHE_LINE || s->shared_size > FASTMIB_MAX_AREA)
		return fms_error(-EINVAL,
				 "schema: area sizes %llu/%llu must be cache-line multiples <= %llu",
				 (unsigned long long)s->percore_size,
				 (unsigned long long)s->shared_size,
				 (unsigned long long)FASTMIB_MAX_AREA);
	if (s->n_groups == 0 || s->n_groups > FASTMIB_MAX_GROUPS || s->groups == NULL)
		return fms_error(-EINVAL, "schema: %u groups (1..%u)", s->n_groups,
				 FASTMIB_MAX_GROUPS);
	for (uint32_t i = 0; i < s->n_groups; i++)
		if ((rc = check_group(s, &s->groups[i])))
			return rc;
	if (s->n_events > FASTMIB_MAX_EVENTS || (s->n_events && s->events == NULL))
		return fms_error(-EINVAL, "schema: %u events (0..%u)", s->n_events,
				 FASTMIB_MAX_EVENTS);
	for (uint32_t i = 0; i < s->n_events; i++)
		if ((rc = check_event(s, i)))
			return rc;
	return 0;
}
