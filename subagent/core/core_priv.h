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
 *   values.c   snapshots and the encoding of every value
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

/* Snapshots kept per handler call, so that several varbinds of one PDU
 * naming the same group or row see one consistent snapshot. */
#define FMA_SNAP_SLOTS 8

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

struct fma_snap {
	int group; /* schema index */
	uint32_t row;
	/* keyed tables: the key the row was read for (a row may change keys
	 * between two varbinds of one request); key_len 0 elsewhere */
	uint32_t key_len;
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	int rc;
	uint64_t *values;
};

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
	/* per-call snapshot cache */
	struct fma_snap snaps[FMA_SNAP_SLOTS];
	unsigned int n_snaps, next_snap;
	uint64_t *snap_values;
	/* last attach failure, so that a retry every second logs only changes */
	struct fma_said said;
	/* snmpd's last refusal of the root's registration, logged once */
	struct fma_said refused;
	/* named again since fma_reload_begin() */
	bool confirmed;
	struct fma_events *ev;          /* NULL: no event log served */
	uint64_t stuck_logged;          /* CLOCK_MONOTONIC ns until which a stuck writer
					   is not logged again */
	/* reset targets of the SET in progress (snmpd runs one at a time) */
	struct fma_target *targets;
	unsigned int n_targets, cap_targets;
	netsnmp_request_info *all_target; /* the varbind of a ResetAll, if any */
	bool set_stored;                  /* its resets were stored in ACTION */
};

struct fma_agent {
	uint64_t start_ns; /* realtime when agent uptime was 0 */
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

/* Exact lookup of a varbind's name (GET, SET). */
enum fastmib_oid_found fma_lookup(const struct fma_seg *s, const netsnmp_variable_list *vb,
				  struct fastmib_oid_ref *ref);

/* ---- handler.c ---- */

/* The raw handler registered at each segment's root (myvoid: the fma_seg). */
Netsnmp_Node_Handler fma_handler;

/* ---- values.c ---- */

/* Realtime instant at which the agent's sysUpTime was 0. */
uint64_t fma_agent_start_ns(void);

/* Snapshot slots for the schema's largest group: 0 or -ENOMEM. */
int fma_snaps_init(struct fma_seg *s);
void fma_snaps_free(struct fma_seg *s);
/* Start a new request: no snapshot taken so far is reused. */
void fma_snaps_forget(struct fma_seg *s);

/* Store the value of `ref` into `vb`. -ENOENT when the row or record went
 * away, or the segment's read error. */
int fma_value(struct fma_seg *s, const struct fastmib_oid_ref *ref, netsnmp_variable_list *vb);

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
