/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * fastmib SNMP serving core, shared by every front end (AgentX subagent,
 * standalone agent, snmpd module).
 *
 * The core owns a set of segment paths. For each attached segment it
 * registers one raw Net-SNMP handler at the module root R and answers
 * GET / GETNEXT (GETBULK arrives as GETNEXT repetitions) and SET of the
 * reset objects, following the OID layout of docs/mib-layout.md:
 *
 *   R.1.G.C.0              scalar counter C of scalar group G
 *   R.1.G.1001.0 / .1002.0 group Reset / DiscontinuityTime
 *   R.1.G.1.C.i1..in       table column C, 1-based indexes
 *   R.1.G.1.1001/1002.idx  row Reset / DiscontinuityTime columns
 *   R.2.1.0 / R.2.2.0      module ResetAll / DiscontinuityTime
 *
 * Threading: every function here, and the handler, runs in the agent's
 * single thread. The core never blocks, never exits and installs no signal
 * handler, so it can live inside snmpd.
 *
 * The pure helpers below (value conversion, index arithmetic) are inline so
 * that unit tests can check them without an agent.
 */
#ifndef FASTMIB_AGENT_CORE_H
#define FASTMIB_AGENT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Arcs of the per-group objects that follow the counters. */
#define FASTMIB_ARC_RESET        1001u
#define FASTMIB_ARC_DISCONT      1002u
/** First arc of the (not-accessible) index columns of a table entry. */
#define FASTMIB_ARC_INDEX_FIRST  1011u

/** Default period of the re-attach check, seconds. */
#define FASTMIB_AGENT_CHECK_PERIOD 1

/** Segment paths one set holds at most (bounds the memory of a module). */
#define FASTMIB_AGENT_MAX_SEGMENTS 64

struct fastmib_agent;

/** Create an empty segment set. Returns 0 or -ENOMEM. */
int fastmib_agent_create(struct fastmib_agent **agentp);

/**
 * Add a segment path to serve. The path is copied. Nothing is attached
 * until fastmib_agent_start() (or, once started, the next check).
 * Returns 0 (also for a path named again during a reload), -ENOMEM,
 * -ENOSPC beyond FASTMIB_AGENT_MAX_SEGMENTS, or -EEXIST for a path given
 * twice.
 */
int fastmib_agent_add(struct fastmib_agent *agent, const char *path);

/**
 * Configuration reload, for front ends that re-read their configuration
 * (the snmpd module on SIGHUP): reload_begin() forgets which paths were
 * configured, the front end then calls fastmib_agent_add() for every path
 * of the new configuration, and reload_end() drops (unregisters, detaches)
 * the paths not named again and attaches the new ones. Paths named again
 * keep their attachment and registration untouched. Returns the number
 * of paths dropped.
 */
void fastmib_agent_reload_begin(struct fastmib_agent *agent);
unsigned int fastmib_agent_reload_end(struct fastmib_agent *agent);

/** Number of paths in the set. */
unsigned int fastmib_agent_count(const struct fastmib_agent *agent);

/**
 * Attach every segment that exists, register its handler, and arm the
 * periodic re-attach check (every `period_s` seconds, 0 = default). Call
 * after init_agent(); registrations made before the AgentX session is up
 * are sent by Net-SNMP once it connects. Segments that are missing or
 * refused are logged and retried by the check. -EALREADY when started.
 */
int fastmib_agent_start(struct fastmib_agent *agent, unsigned int period_s);

/**
 * Run the re-attach check now (what the alarm does): re-attach stale
 * segments, attach returning ones, unregister vanished ones.
 */
void fastmib_agent_check(struct fastmib_agent *agent);

/** Number of segments currently attached and registered. */
unsigned int fastmib_agent_serving(const struct fastmib_agent *agent);

/** Unregister every handler, detach every segment, free the set. */
void fastmib_agent_destroy(struct fastmib_agent *agent);

/* ---- pure helpers ---- */

/** Counter32 as reported: modulo 2^32. */
static inline uint32_t
fastmib_agent_counter32(uint64_t v)
{
	return (uint32_t)v;
}

/** Gauge32 as reported: the two's-complement sum clamped to 0..2^32-1. */
static inline uint32_t
fastmib_agent_gauge32(uint64_t v)
{
	int64_t s = (int64_t)v;

	if (s < 0)
		return 0;
	if (s > (int64_t)UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)s;
}

/**
 * TimeStamp (centiseconds of agent uptime) of an event at `event_ns`
 * (CLOCK_REALTIME), for an agent that started at `start_ns` (realtime) and
 * has been up `uptime_cs`. 0 for no event, or an event before the agent
 * started (RFC 2579 TimeStamp). Computed from the fixed start time, so the
 * same event always gives the same value, however often it is read.
 */
static inline uint32_t
fastmib_agent_timestamp(uint64_t event_ns, uint64_t start_ns, uint64_t uptime_cs)
{
	uint64_t cs;

	if (event_ns == 0 || event_ns < start_ns)
		return 0;
	cs = (event_ns - start_ns) / 10000000u;
	return (uint32_t)(cs < uptime_cs ? cs : uptime_cs);
}

/**
 * Row number (0-based, row-major, last index fastest) of exact SNMP index
 * values `idx[0..n)` (1-based), or -1 when `n` does not match the table or
 * an index is out of range.
 */
static inline int64_t
fastmib_agent_row_of(const struct fastmib_group_schema *g, const uint64_t *idx,
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

/** SNMP index values (1-based) of row `row`, into idx[0..n_indexes). */
static inline void
fastmib_agent_index_of(const struct fastmib_group_schema *g, uint32_t row,
		       uint32_t *idx)
{
	for (uint32_t k = g->n_indexes; k-- > 0;) {
		idx[k] = row % g->indexes[k].max + 1;
		row /= g->indexes[k].max;
	}
}

/**
 * Smallest row whose index OID is lexicographically greater than the index
 * suffix `sfx[0..n)` (any length, any values), or -1 when none is. Rows
 * are ordered like their OIDs because every index has a fixed width of one
 * sub-identifier, so the answer is a lower bound in row space.
 */
static inline int64_t
fastmib_agent_row_after(const struct fastmib_group_schema *g,
			const uint64_t *sfx, size_t n)
{
	uint64_t prefix = 0; /* row number of the indexes matched so far */

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		uint64_t max = g->indexes[k].max;
		uint64_t stride = 1;

		for (uint32_t j = k + 1; j < g->n_indexes; j++)
			stride *= g->indexes[j].max;
		if (k >= n) /* shorter suffix: every completion is greater */
			return (int64_t)(prefix * max * stride);
		if (sfx[k] < 1)
			return (int64_t)(prefix * max * stride);
		if (sfx[k] > max) {
			/* past this subtree: first row of the next prefix */
			uint64_t row = (prefix + 1) * max * stride;

			return row < g->n_rows ? (int64_t)row : -1;
		}
		prefix = prefix * max + (sfx[k] - 1);
	}
	/* the suffix names a row (or something inside it): the next row */
	return prefix + 1 < g->n_rows ? (int64_t)(prefix + 1) : -1;
}

#ifdef __cplusplus
}
#endif

#endif /* FASTMIB_AGENT_CORE_H */
