/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to the serving core: the state its files share, and what each
 * file offers the others. One concern a file:
 *
 *   segments.c the segment set: attach, re-attach, registration, lifecycle
 *   oids.c     a varbind's name below the root, the object it names, and
 *              the row source through which the OID map (<fastmib/oidmap.h>)
 *              sees a segment
 *   handler.c  the Net-SNMP handler: GET, GETNEXT, dispatch
 *   values.c   the encoding of every value
 *   snaps.c    the readings of a request: a snapshot of the counters and a
 *              publication of the states of each row it names
 *   events.c   the event history (copying records) and notifications
 *   set.c      SET phases and resets
 *
 * Everything runs in the agent's single thread (see core.h).
 */
#ifndef FMA_CORE_PRIV_H
#define FMA_CORE_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "fastmib/oidmap.h"
#include "fastmib/reader.h"
#include "axreg.h"
#include "core.h"
#include "evhist.h"
#include "ratelimit.h"
#include "said.h"
#include "varbind.h"

/* An instance OID fits in a Net-SNMP OID: the schema check keeps a root
 * and the longest suffix below it within FASTMIB_MAX_INSTANCE_OID. */
_Static_assert(FASTMIB_MAX_INSTANCE_OID <= MAX_OID_LEN, "instance OIDs must fit MAX_OID_LEN");

/* Requests whose readings a segment keeps at once (snaps.c). */
#define FMA_SNAP_REQUESTS 4

/* Records copied per fastmib_events_poll() call, and per poll at most:
 * bounds the time one request or alarm spends copying (about 1 ms). */
#define FMA_EV_CHUNK 256u
#define FMA_EV_POLL_MAX 16384u

/* Event log state of one attached segment whose model has events. */
struct fma_events {
	struct fastmib_event_cursor *cur;
	struct fma_evhist hist;
	bool primed;           /* the copy made at attach is done */
	uint64_t dropped_seen; /* cursor drops already logged */
};

/* One row's readings for a request (snaps.c), each taken when first
 * needed: its counters (one snapshot) and its states (one publication). */
struct fma_request;
struct fma_snap {
	int group; /* schema index */
	uint32_t row;
	struct fma_request *request;
	bool have_counters;
	int rc;                   /* of the counters' read */
	size_t values_off;        /* the row's words (fastmib_read()) in the request's arena */
	bool have_states;
	int state_rc;             /* of the states' read */
	size_t states_off;        /* state_size bytes in the request's arena */
	uint64_t bad[FASTMIB_STATE_MASK_WORDS]; /* states left out (untrusted) */
	/* keyed tables: the key the row was read for (a row may change keys
	 * between two varbinds of one request); key_len 0 elsewhere. Last:
	 * a new entry is cleared up to here. */
	uint32_t key_len;
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
};

/* The readings of one request (a transaction id). */
struct fma_request {
	bool used;
	long id;
	uint64_t last_use;
	uint64_t started_ns;      /* monotonic: when its first reading was asked for */
	struct fma_snap *snaps;
	uint32_t n, cap;
	uint32_t *buckets;        /* hash of (group, row): 1 + entry, 0 empty */
	uint32_t mask;            /* buckets - 1 */
	uint8_t *arena;           /* counters and states of the entries */
	size_t used_bytes, cap_bytes;
};

static inline uint64_t *
fma_snap_values(const struct fma_snap *sn)
{
	return (uint64_t *)(void *)(sn->request->arena + sn->values_off);
}

static inline uint8_t *
fma_snap_state_bytes(const struct fma_snap *sn)
{
	return sn->request->arena + sn->states_off;
}

/* What one reset varbind of a SET names (set.c). */
struct fma_target {
	int group;
	uint32_t row;
	netsnmp_request_info *request; /* the first varbind that named it */
};

/* One configured segment path, attached or not. */
struct fma_seg {
	struct fma_agent *agent;
	char *path;
	struct fastmib_segment *seg;    /* NULL while not attached */
	bool writable;
	const struct fastmib_schema *schema;
	struct fastmib_oidmap *map;     /* OID layout of the schema */
	struct fastmib_oid_rows rows;   /* what the map asks about rows and records */
	oid root[MAX_OID_LEN];
	size_t root_len;
	struct fma_axreg *reg;          /* the root's registration, NULL: none */
	/* the readings of the last requests (snaps.c) */
	struct fma_request requests[FMA_SNAP_REQUESTS];
	uint64_t request_clock;
	/* last attach failure, so that a retry every second logs only changes */
	struct fma_said said;
	/* snmpd's last refusal of the root's registration, logged once */
	struct fma_said refused;
	/* named again since fma_reload_begin() */
	bool confirmed;
	struct fma_events *ev;          /* NULL: no event log served */
	uint64_t notifs_dropped;        /* <p>NotificationsDropped: this segment's
					   notifications not sent */
	bool changes;                   /* the model has `notify` states */
	uint64_t change_next;           /* the next change of its log to send */
	uint64_t stuck_logged;          /* CLOCK_MONOTONIC ns until which a stuck writer
					   is not logged again */
	/* reset targets of the SET in progress (snmpd runs one at a time) */
	struct fma_target *targets;
	unsigned int n_targets, cap_targets;
	netsnmp_request_info *all_target; /* the varbind of a ResetAll, if any */
	bool set_stored;                  /* its resets were stored in ACTION */
};

struct fma_agent {
	uint64_t start_ns;      /* realtime when agent uptime was 0 */
	uint64_t start_mono_ns; /* the same instant, fastmib_monotonic_ns() */
	struct fma_seg **segs;
	unsigned int n_segs;
	unsigned int alarm;
	unsigned int ev_alarm;
	uint32_t ev_history;
	struct fma_limit notify; /* of the events' notifications */
	struct fastmib_event_rec *evbuf; /* FMA_EV_CHUNK records */
};

/* ---- oids.c ---- */

/* Point s->rows at the segment's presence bitmaps and event history. */
void fma_rows_init(struct fma_seg *s);

/*
 * Where `name` stands relative to the root R: -1 before R or a prefix of
 * it (every instance follows), 1 past everything below R, 0 below R, with
 * the suffix in x[0..*n). Only FASTMIB_OID_MAX_SUFFIX + 1 arcs are kept:
 * no instance is longer, so the rest changes no answer.
 */
int fma_place(const struct fma_seg *s, const oid *name, size_t len, uint64_t *x, size_t *n);

/* snmpTrapOID.0, the first varbind of every notification. */
extern const oid fma_snmp_trap_oid[];
extern const size_t fma_snmp_trap_oid_len;

/* Full OID of the OID-map suffix x[0..n) of segment `s` into out
 * (MAX_OID_LEN); returns its length. */
size_t fma_full_oid(const struct fma_seg *s, const uint64_t *x, size_t n, oid *out);

/* Exact lookup of a varbind's name (GET, SET). */
enum fastmib_oid_found fma_lookup(const struct fma_seg *s, const netsnmp_variable_list *vb,
				  struct fastmib_oid_ref *ref);

/* ---- handler.c ---- */

/* The raw handler registered at each segment's root (myvoid: the fma_seg). */
Netsnmp_Node_Handler fma_handler;

/* ---- values.c ---- */

/* Realtime instant at which the agent's sysUpTime was 0. */
uint64_t fma_agent_start_ns(void);
/* fma_agent_start_ns()'s instant `start_ns` on the monotonic clock. */
uint64_t fma_monotonic_of(uint64_t start_ns);

/* ---- snaps.c ---- */

/*
 * The readings of the row `ref` names (a group's or a table row's) for
 * request `id` (its transaction id, fma_request_id()): its counters read
 * once per request (sn->rc: 0, -EBUSY best effort, or the read's error),
 * its states likewise (sn->state_rc). NULL when out of memory. The
 * pointer lasts until the next call.
 */
const struct fma_snap *fma_snap_counters(struct fma_seg *s, long id,
					 const struct fastmib_oid_ref *ref);
const struct fma_snap *fma_snap_states(struct fma_seg *s, long id,
				       const struct fastmib_oid_ref *ref);
/* A handler call begins: readings of requests without an identity (id
 * <= 0) are not reused. */
void fma_snaps_call(struct fma_seg *s);
/* Forget every request's readings (a detach). */
void fma_snaps_free(struct fma_seg *s);

/* The request a handler call belongs to: its transaction id, which snmpd
 * also gives the AgentX PDUs it sends for one SNMP request. */
long fma_request_id(const netsnmp_agent_request_info *reqinfo);

/* Store the value of `ref` into `vb`, read for request `id`. -ENOENT when
 * the row or record went away, -EBUSY when no consistent state is to be
 * had, or the segment's read error. */
int fma_value(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref,
	      netsnmp_variable_list *vb);

/* Value of a state, `value` its C form, in its MIB syntax into `vb`
 * (`part` 1: an inet-address's type object, 0: the rest), for `agent`
 * (its uptime: a timestamp state). */
void fma_state_value(const struct fma_agent *agent, const struct fastmib_state_schema *st,
		     uint32_t part, const uint8_t *value, netsnmp_variable_list *vb);

/* Value of event table column `col` for record `rec`. */
void fma_event_cell(const struct fastmib_schema *sc, const struct fastmib_event_rec *rec,
		    uint32_t col, netsnmp_variable_list *vb);

/* ---- events.c ---- */

/* Event state of a newly attached segment (nothing for a model without
 * events); copies what the rings hold, without notifications. */
int fma_ev_attach(struct fma_seg *s, char *why, size_t whylen);
void fma_ev_free(struct fma_seg *s);
/* Copy the records logged since the last poll, notifying as configured. */
void fma_ev_poll(struct fma_seg *s);
/* SNMPAlarmCallback of the event poll (arg: the agent). */
void fma_ev_alarm(unsigned int reg, void *arg);

/* ---- changes.c ---- */

/* A newly attached segment: its changes from now on are sent. */
void fma_changes_attach(struct fma_seg *s);
/* Send the changes logged since the last poll (the event alarm's). */
void fma_changes_poll(struct fma_seg *s);

/* ---- set.c ---- */

/* One varbind of a SET in `reqinfo->mode` (RESERVE1 checks it, ACTION
 * notes its target). */
void fma_set_varbind(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
		     netsnmp_request_info *r);
/* After every varbind of a handler call: ACTION resets the targets, all or
 * none (errors go on `requests`); the other modes end the SET. */
void fma_set_end(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
		 netsnmp_request_info *requests);
/* Forget a SET in progress (cut short by a detach). */
void fma_set_abort(struct fma_seg *s);

#endif /* FMA_CORE_PRIV_H */
