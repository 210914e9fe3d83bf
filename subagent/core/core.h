/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * fastmib SNMP serving core, shared by every front end (AgentX subagent,
 * standalone agent, snmpd module).
 *
 * The core owns a set of segment paths. For each attached segment it
 * registers one raw Net-SNMP handler at the module root R and answers
 * GET / GETNEXT (GETBULK arrives as GETNEXT repetitions) and SET of the
 * reset objects, following the OID layout of <fastmib/oidmap.h> (see also
 * docs/mib-layout.md); the NOTIFICATION-TYPEs under R.4.0 are sent, never
 * served.
 *
 * Event log: per attached segment whose model has events, the core keeps a
 * cursor into the segment's event rings and a history of the last N
 * records it copied (N = fma_config_event_history()), numbered 1, 2,
 * 3, ... in copy order. It copies new records on every request that may
 * reach R.4 and on a periodic alarm (FMA_EVENT_PERIOD_MS). A
 * re-attach starts a new history (numbers from 1 again). Records of events
 * declared `notify: true` that were copied after the attach are sent as
 * SNMPv2 notifications through the agent (send_v2trap), at most
 * fma_config_notify_limit() of them; the others are counted and
 * logged as suppressed.
 *
 * Threading: every function here, and the handler, runs in the agent's
 * single thread. The core never blocks, never exits and installs no signal
 * handler, so it can live inside snmpd.
 *
 * The pure helpers below (time stamps, DateAndTime) are inline so that
 * unit tests can check them without an agent.
 */
#ifndef FMA_CORE_H
#define FMA_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default period of the re-attach check, seconds. */
#define FMA_CHECK_PERIOD 1

/** Segment paths one set holds at most (bounds the memory of a module). */
#define FMA_MAX_SEGMENTS 64

/** Event records kept per segment unless configured otherwise. */
#define FMA_EVENT_HISTORY     256u
#define FMA_EVENT_HISTORY_MAX 65536u
/** Period of the event poll alarm, milliseconds. */
#define FMA_EVENT_PERIOD_MS   200u
/** Default notification limit: sustained rate per second, and burst. */
#define FMA_NOTIFY_RATE       10u
#define FMA_NOTIFY_BURST      20u
/** Octets of an <p>EventTime value: the DateAndTime form with a UTC offset. */
#define FMA_DATETIME_LEN      11u

struct fma_agent;

/** Create an empty segment set. Returns 0 or -ENOMEM. */
int fma_create(struct fma_agent **agentp);

/**
 * Add a segment path to serve. The path is copied. Nothing is attached
 * until fma_start() (or, once started, the next check).
 * Returns 0 (also for a path named again during a reload), -ENOMEM,
 * -ENOSPC beyond FMA_MAX_SEGMENTS, or -EEXIST for a path given
 * twice.
 */
int fma_add(struct fma_agent *agent, const char *path);

/**
 * Configuration reload, for front ends that re-read their configuration
 * (the snmpd module on SIGHUP): reload_begin() forgets which paths were
 * configured, the front end then calls fma_add() for every path
 * of the new configuration, and reload_end() drops (unregisters, detaches)
 * the paths not named again and attaches the new ones. Paths named again
 * keep their attachment and registration untouched. Returns the number
 * of paths dropped.
 */
void fma_reload_begin(struct fma_agent *agent);
unsigned int fma_reload_end(struct fma_agent *agent);

/** Number of paths in the set. */
unsigned int fma_count(const struct fma_agent *agent);

/** The i-th path of the set (0 <= i < count), or NULL. */
const char *fma_path(const struct fma_agent *agent, unsigned int i);

/**
 * Attach every segment that exists, register its handler, and arm the
 * periodic re-attach check (every `period_s` seconds, 0 = default). Call
 * after init_agent(); as an AgentX subagent, registrations made before the
 * session is up are sent once it connects, and a segment is "serving"
 * (logged) once snmpd accepted its root (common/axreg.h). Segments that
 * are missing or refused are logged and retried by the check.
 * -EALREADY when started.
 */
int fma_start(struct fma_agent *agent, unsigned int period_s);

/**
 * Records of the event history kept per segment (1..
 * FMA_EVENT_HISTORY_MAX, default FMA_EVENT_HISTORY).
 * Applies to segments attached from now on. -EINVAL when out of range.
 */
int fma_config_event_history(struct fma_agent *agent, unsigned int n);

/**
 * Notification limit of the whole set: a token bucket of `burst`
 * notifications refilled at `per_s` per second (0 = send none). Notifications
 * over the limit are dropped, counted and logged at most once a second.
 * -EINVAL for a zero burst with a non-zero rate.
 */
int fma_config_notify_limit(struct fma_agent *agent, unsigned int per_s,
				   unsigned int burst);

/** Unregister every handler, detach every segment, free the set. */
void fma_destroy(struct fma_agent *agent);

/* ---- pure helpers ---- */

/**
 * TimeStamp (centiseconds of agent uptime) of an event at `event_ns`, for
 * an agent that started at `start_ns` on the same clock (CLOCK_REALTIME
 * for a discontinuity, the monotonic clock for a timestamp state) and has
 * been up `uptime_cs`. 0 for no event, or an event before the agent
 * started (RFC 2579 TimeStamp). Computed from the fixed start time, so the
 * same event always gives the same value, however often it is read.
 */
static inline uint32_t
fma_timestamp(uint64_t event_ns, uint64_t start_ns, uint64_t uptime_cs)
{
	uint64_t cs;

	if (event_ns == 0 || event_ns < start_ns)
		return 0;
	cs = (event_ns - start_ns) / 10000000u;
	return (uint32_t)(cs < uptime_cs ? cs : uptime_cs);
}

/**
 * DateAndTime (RFC 2579) of `ns` since the epoch (before it too: whole
 * seconds rounded down, as gmtime wants), in UTC: year (2 octets,
 * network order), month, day, hour, minutes, seconds, deci-seconds, then
 * direction '+' and a zero offset. Writes FMA_DATETIME_LEN octets.
 */
static inline size_t
fma_date_and_time_signed(int64_t ns, uint8_t *out)
{
	int64_t sec = ns / 1000000000, rem = ns % 1000000000;
	time_t t;
	struct tm tm;

	if (rem < 0) {
		sec--;
		rem += 1000000000;
	}
	t = (time_t)sec;
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	out[0] = (uint8_t)((tm.tm_year + 1900) >> 8);
	out[1] = (uint8_t)(tm.tm_year + 1900);
	out[2] = (uint8_t)(tm.tm_mon + 1);
	out[3] = (uint8_t)tm.tm_mday;
	out[4] = (uint8_t)tm.tm_hour;
	out[5] = (uint8_t)tm.tm_min;
	/* a leap second (60) is a valid DateAndTime value */
	out[6] = (uint8_t)tm.tm_sec;
	out[7] = (uint8_t)(rem / 100000000);
	out[8] = '+';
	out[9] = 0;
	out[10] = 0;
	return FMA_DATETIME_LEN;
}

/** The same of an unsigned time (the event log's). */
static inline size_t
fma_date_and_time(uint64_t ns, uint8_t *out)
{
	return fma_date_and_time_signed(ns > INT64_MAX ? INT64_MAX : (int64_t)ns, out);
}

#ifdef __cplusplus
}
#endif

#endif /* FMA_CORE_H */
