/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The event log of each served segment: copying new records out of the
 * segment's rings into the history that <p>EventTable serves, and sending
 * the records of `notify: true` events as notifications, rate-limited for
 * the whole set.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_priv.h"


/* Add column `col` of record `num` to a notification's varbinds. */
static void
fma_notify_add(const struct fma_seg *s, netsnmp_variable_list **vars, uint32_t num,
	       const struct fastmib_event_rec *rec, uint32_t col)
{
	const struct fastmib_oid_ref ref = {
		.kind = FASTMIB_OID_EVENT, .group = -1, .row = num, .column = col,
	};
	uint64_t x[FASTMIB_OID_MAX_SUFFIX];
	oid name[MAX_OID_LEN];
	size_t len = fma_full_oid(s, x, fastmib_oidmap_suffix(s->map, &ref, x), name);
	netsnmp_variable_list *vb;

	vb = snmp_varlist_add_variable(vars, name, len, ASN_NULL, NULL, 0);
	if (vb)
		fma_event_cell(s->schema, rec, col, vb);
}

/*
 * Send the NOTIFICATION-TYPE of record `num`: snmpTrapOID, then the
 * OBJECTS of the generated MIB (name, time, lcore, the event's arguments),
 * instantiated with the event number. Net-SNMP puts sysUpTime first and
 * hands it to the master agent (AgentX), to the trap sinks of the
 * configuration (standalone) or to snmpd's sinks (module).
 */
static void
fma_notify(struct fma_seg *s, uint32_t num, const struct fastmib_event_rec *rec)
{
	struct fma_agent *a = s->agent;
	const struct fastmib_event_schema *es = &s->schema->events[rec->event];
	netsnmp_variable_list *vars = NULL;
	uint64_t x[FASTMIB_OID_MAX_SUFFIX];
	oid trap[MAX_OID_LEN];
	size_t n;

	if (!fma_limit_take(&a->notify)) {
		s->notifs_dropped++;
		return;
	}
	n = fma_full_oid(s, x, fastmib_oidmap_notification(s->map, rec->event, x), trap);
	snmp_varlist_add_variable(&vars, fma_snmp_trap_oid,
				  fma_snmp_trap_oid_len, ASN_OBJECT_ID,
				  trap, n * sizeof(oid));
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_NAME);
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_TIME);
	fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_LCORE);
	for (uint32_t k = 0; k < es->n_args && k < FASTMIB_MAX_EVENT_ARGS; k++)
		fma_notify_add(s, &vars, num, rec, FASTMIB_EVCOL_ARG1 + k);
	send_v2trap(vars);
	snmp_free_varbind(vars);
	DEBUGMSGTL(("fastmib", "%s: notification %s, event number %" PRIu32 "\n",
		    s->path, es->name, num));
}

/*
 * Copy the records logged since the last poll into the history, bounded
 * by FMA_EV_POLL_MAX per call (the rest waits for the next one). The copy
 * made at attach sends no notification: those records were logged before
 * this agent was watching, perhaps long ago.
 */
void
fma_ev_poll(struct fma_seg *s)
{
	struct fma_events *ev = s->ev;
	struct fma_agent *a = s->agent;
	uint64_t restarts = ev->hist.restarts, dropped;
	unsigned int total = 0;

	while (total < FMA_EV_POLL_MAX) {
		int got = fastmib_events_poll(s->seg, ev->cur, a->evbuf, FMA_EV_CHUNK);

		if (got < 0) {
			DEBUGMSGTL(("fastmib", "%s: event poll: %s\n", s->path,
				    strerror(-got)));
			break;
		}
		for (int i = 0; i < got; i++) {
			const struct fastmib_event_rec *rec = &a->evbuf[i];
			const struct fastmib_event_schema *es;
			uint32_t num;

			if (rec->event >= s->schema->n_events)
				continue; /* not from a sound writer: skip it */
			es = &s->schema->events[rec->event];
			num = fma_evhist_push(&ev->hist, rec, es->n_args);
			if (ev->primed && es->notify)
				fma_notify(s, num, rec);
		}
		total += (unsigned int)got;
		if ((unsigned int)got < FMA_EV_CHUNK)
			break;
	}
	ev->primed = true;
	if (ev->hist.restarts != restarts)
		snmp_log(LOG_NOTICE, "fastmib: %s: event numbers exhausted, "
			 "history restarts at 1\n", s->path);
	dropped = fastmib_event_cursor_dropped(ev->cur);
	if (dropped != ev->dropped_seen) {
		DEBUGMSGTL(("fastmib", "%s: %" PRIu64 " event records overwritten "
			    "before they could be copied\n", s->path,
			    dropped - ev->dropped_seen));
		ev->dropped_seen = dropped;
	}
}

/* Copy new event records of every served segment, and send its state
 * changes (the alarm's). */
static void
fma_poll_events(struct fma_agent *agent)
{
	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *s = agent->segs[i];

		if (s->seg && s->ev)
			fma_ev_poll(s);
		if (s->seg && s->changes)
			fma_changes_poll(s);
	}
	fma_limit_log(&agent->notify, false);
}

void
fma_ev_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fma_poll_events(arg);
}

void
fma_ev_free(struct fma_seg *s)
{
	if (!s->ev)
		return;
	if (s->ev->cur)
		fastmib_event_cursor_free(s->ev->cur);
	fma_evhist_free(&s->ev->hist);
	free(s->ev);
	s->ev = NULL;
}

/*
 * A new history (numbers from 1) and a cursor at the oldest record the
 * rings hold, which the first poll copies without notifications. The OID
 * map has checked the events' arcs and arguments.
 */
int
fma_ev_attach(struct fma_seg *s, char *why, size_t whylen)
{
	struct fma_events *ev;
	int rc;

	if (s->schema->n_events == 0)
		return 0;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	s->ev = ev;
	rc = fma_evhist_init(&ev->hist, s->agent->ev_history);
	if (rc < 0)
		return rc;
	rc = fastmib_event_cursor_new(s->seg, &ev->cur);
	if (rc < 0) {
		snprintf(why, whylen, "event cursor: %s", fastmib_last_error());
		return rc;
	}
	fma_ev_poll(s);
	return 0;
}

/* ---- configuration ---- */

int
fma_config_event_history(struct fma_agent *agent, unsigned int n)
{
	if (n < 1 || n > FMA_EVENT_HISTORY_MAX)
		return -EINVAL;
	agent->ev_history = n;
	return 0;
}

int
fma_config_notify_limit(struct fma_agent *agent, unsigned int per_s,
			       unsigned int burst)
{
	if (per_s && !burst)
		return -EINVAL;
	if (per_s > 1000000u || burst > 1000000u)
		return -EINVAL;
	fma_limit_init(&agent->notify, "fastmib: ", "notification(s)", per_s, burst);
	return 0;
}
