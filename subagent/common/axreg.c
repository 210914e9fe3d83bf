/* SPDX-License-Identifier: BSD-3-Clause */
/* Registrations whose answer the agent knows (axreg.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net-snmp/agent/agent_callbacks.h>

#include "axreg.h"

/* libnetsnmpagent exports these without a public declaration. The AgentX
 * session to the master (NULL while there is none), and two registry
 * functions: a subtree out of the registry's lists, and freed. */
extern netsnmp_session *main_session;
void netsnmp_subtree_unload(netsnmp_subtree *sub, netsnmp_subtree *prev, const char *context);
void netsnmp_subtree_free(netsnmp_subtree *a);

/* RFC 2741: the PDU types (6.1, h.type) and the first res.error (6.2.16);
 * Net-SNMP's own names are in a header it does not install */
#define AX_PDU_REGISTER   3
#define AX_PDU_UNREGISTER 4
#define AX_ERR_FIRST      256L

/* Register PDUs in flight at once. Each has Net-SNMP's time-out from its
 * own send; hundreds sent together could outlast it while snmpd works
 * through them, and an answer that comes too late is lost: whether snmpd
 * took the subtree is then unknown. */
#define WINDOW 8u

/* What one registration names, as the Register PDU carries it. */
struct key {
	oid name[MAX_OID_LEN];
	size_t len;
	int range_subid; /* 0: no range */
	oid ubound;
	int priority;
};

/* One Register PDU in flight. Net-SNMP calls back exactly once with its
 * outcome (an answer, a time-out, a send failure, the session closed),
 * even after the registration went away: then `r` is NULL. */
struct ticket {
	struct fma_axreg *r;
	struct key key;
	netsnmp_session *ss;
	unsigned int gen; /* the session's (ax.gen) it was sent in */
	bool sending; /* inside snmp_async_send(): the caller takes the outcome */
	int op;
	long error;
};

struct fma_axreg {
	struct key key;
	char label[FMA_AXREG_LABEL_MAX];
	bool subagent;
	enum fma_axreg_state state;
	long error;
	unsigned int refusals; /* in a row: the delay of the next try */
	unsigned int alarm;
	struct ticket *ticket;
	fma_axreg_answered *answered;
	void *arg;
	struct fma_axreg *prev, *next; /* every registration */
	bool queued;
	struct fma_axreg *qnext;       /* waiting for a place in the window */
};

static struct {
	struct fma_axreg *first;
	unsigned int n;
	struct fma_axreg *qhead, *qtail;
	netsnmp_session *session;      /* to snmpd, as the session callbacks said */
	unsigned int in_flight;        /* of this session */
	unsigned int gen;              /* +1 at every session start and end */
	bool hooked; /* the session callbacks are registered */
	void (*watch)(void);
} ax;

static void send_register(struct fma_axreg *r);
static void pump(void);

/* The session to send on, NULL while there is none. */
static netsnmp_session *
session(void)
{
	return ax.session == main_session ? ax.session : NULL;
}

static void
changed(void)
{
	if (ax.watch)
		ax.watch();
}

/* ---- the pieces of a registration in the agent's registry ---- */

/* Where the registration's last instance ends (exclusive). */
static size_t
key_end(const struct key *k, oid *end)
{
	memcpy(end, k->name, k->len * sizeof(oid));
	if (k->range_subid)
		end[k->range_subid - 1] = k->ubound;
	end[k->len - 1]++;
	return k->len;
}

/* Is `st` one of the registration's subtrees: an instance of its range
 * (or the one name) at its priority, or a slice another registration cut
 * from one? */
static bool
owns(const struct key *k, const netsnmp_subtree *st)
{
	if (st->namelen != k->len || st->priority != k->priority)
		return false;
	for (size_t i = 0; i < k->len; i++) {
		if ((int)i + 1 == k->range_subid) {
			if (st->name_a[i] < k->name[i] || st->name_a[i] > k->ubound)
				return false;
		} else if (st->name_a[i] != k->name[i]) {
			return false;
		}
	}
	return true;
}

/* Net-SNMP re-sends, on a new session, every subtree not marked attached
 * (register_mib_reattach()): ours are sent here, with their answers. */
static void
mark_attached(const struct key *k)
{
	oid end[MAX_OID_LEN];
	size_t end_len = key_end(k, end);
	netsnmp_subtree *st = netsnmp_subtree_find(k->name, k->len, NULL, "");

	for (; st && snmp_oid_compare(st->start_a, st->start_len, end, end_len) < 0;
	     st = st->next)
		for (netsnmp_subtree *c = st; c; c = c->children)
			if (owns(k, c))
				c->flags |= SUBTREE_ATTACHED;
}

/* Out of the agent's registry, every piece, without the UNREGISTER_OID
 * callback through which Net-SNMP would tell snmpd. */
static void
remove_locally(const struct key *k)
{
	oid end[MAX_OID_LEN];
	size_t end_len = key_end(k, end);
	netsnmp_subtree *st = netsnmp_subtree_find(k->name, k->len, NULL, ""), *next;

	for (; st && snmp_oid_compare(st->start_a, st->start_len, end, end_len) < 0;
	     st = next) {
		next = st->next;
		for (netsnmp_subtree *c = st, *prev = NULL; c; prev = c, c = c->children) {
			if (owns(k, c)) {
				netsnmp_subtree_unload(c, prev, "");
				netsnmp_subtree_free(c);
				break;
			}
		}
	}
}

/* ---- PDUs ---- */

static netsnmp_pdu *
make_pdu(int command, const struct key *k, netsnmp_session *ss)
{
	netsnmp_pdu *pdu = snmp_pdu_create(command);

	if (!pdu)
		return NULL;
	pdu->time = 0;
	pdu->priority = k->priority;
	pdu->sessid = ss->sessid;
	pdu->range_subid = k->range_subid;
	if (k->range_subid) {
		/* AgentX carries a range's upper bound as the varbind's value */
		oid bound[MAX_OID_LEN];

		memcpy(bound, k->name, k->len * sizeof(oid));
		bound[k->range_subid - 1] = k->ubound;
		snmp_pdu_add_variable(pdu, k->name, k->len, ASN_OBJECT_ID, bound,
				      k->len * sizeof(oid));
	} else {
		snmp_add_null_var(pdu, k->name, k->len);
	}
	if (!pdu->variables) {
		snmp_free_pdu(pdu);
		return NULL;
	}
	return pdu;
}

static int
ignore_answer(int op, netsnmp_session *ss, int reqid, netsnmp_pdu *pdu, void *magic)
{
	(void)op, (void)ss, (void)reqid, (void)pdu, (void)magic;
	return 1;
}

/* Withdraw at snmpd what it accepted from session `ss`, if that is still
 * the session: after a new one, snmpd has forgotten it. */
static void
send_unregister(const struct key *k, netsnmp_session *ss)
{
	netsnmp_pdu *pdu;

	if (!ss || ss != session() || !(pdu = make_pdu(AX_PDU_UNREGISTER, k, ss)))
		return;
	if (!snmp_async_send(ss, pdu, ignore_answer, NULL))
		snmp_free_pdu(pdu);
}

/* ---- answers ---- */

static void
retry_alarm(unsigned int reg, void *arg)
{
	struct fma_axreg *r = arg;

	(void)reg;
	r->alarm = 0;
	send_register(r);
}

static void
take_outcome(struct fma_axreg *r, int op, long error)
{
	if (op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE && error == 0) {
		r->state = FMA_AXREG_ACCEPTED;
		r->error = 0;
		r->refusals = 0;
	} else {
		r->state = FMA_AXREG_REFUSED;
		r->error = op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE ? error
			   : op == NETSNMP_CALLBACK_OP_TIMED_OUT ? FMA_AXREG_NO_ANSWER
			   : FMA_AXREG_NOT_SENT;
		if (r->refusals < 32)
			r->refusals++;
		r->alarm = snmp_alarm_register(fma_axreg_delay(r->refusals), 0,
					       retry_alarm, r);
	}
	DEBUGMSGTL(("fastmib/axreg", "%s: %s\n", r->label, r->state == FMA_AXREG_ACCEPTED
		    ? "accepted" : fma_axreg_error_name(r->error)));
	if (r->answered)
		r->answered(r, r->arg);
	changed();
}

static int
on_answer(int op, netsnmp_session *ss, int reqid, netsnmp_pdu *pdu, void *magic)
{
	struct ticket *t = magic;
	struct fma_axreg *r = t->r;

	(void)ss, (void)reqid;
	if (op == NETSNMP_CALLBACK_OP_RESEND)
		return 1; /* more to come */
	t->op = op;
	t->error = op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE && pdu ? pdu->errstat : 0;
	if (t->sending)
		return 1; /* send_now() takes it */
	if (t->gen == ax.gen && ax.in_flight)
		ax.in_flight--;
	if (r) {
		r->ticket = NULL;
		take_outcome(r, op, t->error);
	} else if (op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE && t->error == 0) {
		send_unregister(&t->key, t->ss); /* accepted after all, but unwanted */
	}
	free(t);
	pump();
	return 1;
}

/* Forget the PDU in flight: its answer goes to nobody. */
static void
drop_ticket(struct fma_axreg *r)
{
	if (r->ticket) {
		r->ticket->r = NULL;
		r->ticket = NULL;
	}
}

static void
cancel_retry(struct fma_axreg *r)
{
	if (r->alarm) {
		snmp_alarm_unregister(r->alarm);
		r->alarm = 0;
	}
}

static void
unqueue(struct fma_axreg *r)
{
	struct fma_axreg **p = &ax.qhead, *last = NULL;

	if (!r->queued)
		return;
	while (*p != r) {
		last = *p;
		p = &(*p)->qnext;
	}
	*p = r->qnext;
	if (ax.qtail == r)
		ax.qtail = last;
	r->queued = false;
	r->qnext = NULL;
}

static void
send_now(struct fma_axreg *r)
{
	netsnmp_session *ss = session();
	struct ticket *t = calloc(1, sizeof(*t));
	netsnmp_pdu *pdu = t ? make_pdu(AX_PDU_REGISTER, &r->key, ss) : NULL;
	int sent;

	if (!pdu) {
		free(t);
		take_outcome(r, NETSNMP_CALLBACK_OP_SEND_FAILED, 0);
		return;
	}
	t->key = r->key;
	t->ss = ss;
	t->gen = ax.gen;
	t->r = r;
	t->sending = true;
	t->op = -1;
	sent = snmp_async_send(ss, pdu, on_answer, t);
	t->sending = false;
	if (sent && t->op < 0) {
		r->ticket = t;
		r->state = FMA_AXREG_PENDING;
		ax.in_flight++;
		return;
	}
	/* not sent, or its outcome came during the send */
	if (!sent)
		snmp_free_pdu(pdu);
	take_outcome(r, sent ? t->op : NETSNMP_CALLBACK_OP_SEND_FAILED, t->error);
	free(t);
}

/* Send what waits, as far as the window allows. */
static void
pump(void)
{
	while (session() && ax.qhead && ax.in_flight < WINDOW) {
		struct fma_axreg *r = ax.qhead;

		unqueue(r);
		send_now(r);
	}
}

/* Send `r` (again) once a place in the window is free: now, or after the
 * registrations waiting before it. */
static void
send_register(struct fma_axreg *r)
{
	cancel_retry(r);
	drop_ticket(r);
	r->state = FMA_AXREG_UNSENT;
	if (!r->queued) {
		r->queued = true;
		r->qnext = NULL;
		if (ax.qtail)
			ax.qtail->qnext = r;
		else
			ax.qhead = r;
		ax.qtail = r;
	}
	pump();
}

/* A new session, or none: nothing in flight counts any more, nothing
 * waits. */
static void
new_session_epoch(void)
{
	while (ax.qhead)
		unqueue(ax.qhead);
	ax.in_flight = 0;
	ax.gen++;
}

/* ---- sessions ---- */

static int
cmp_desc(const void *a, const void *b)
{
	const struct fma_axreg *x = *(struct fma_axreg *const *)a;
	const struct fma_axreg *y = *(struct fma_axreg *const *)b;

	return snmp_oid_compare(y->key.name, y->key.len, x->key.name, x->key.len);
}

/*
 * A new session to snmpd (SNMPD_CALLBACK_INDEX_START, before Net-SNMP
 * re-sends its registry): every registration is sent again, from the
 * highest OID down: snmpd inserts a subtree by a walk of its registry from
 * the start, so that each lands before the ones sent already.
 */
static int
on_session_start(int major, int minor, void *serverarg, void *clientarg)
{
	struct fma_axreg **all = ax.n ? malloc(ax.n * sizeof(*all)) : NULL;
	unsigned int n = 0;

	(void)major, (void)minor, (void)clientarg;
	ax.session = serverarg;
	new_session_epoch();
	for (struct fma_axreg *r = ax.first; r; r = r->next) {
		mark_attached(&r->key);
		r->refusals = 0;
		if (all)
			all[n++] = r;
		else
			send_register(r);
	}
	if (all) {
		qsort(all, n, sizeof(*all), cmp_desc);
		for (unsigned int i = 0; i < n; i++)
			send_register(all[i]);
		free(all);
	}
	changed();
	return SNMPERR_SUCCESS;
}

/* The session is gone (SNMPD_CALLBACK_INDEX_STOP): snmpd forgot it all. */
static int
on_session_stop(int major, int minor, void *serverarg, void *clientarg)
{
	(void)major, (void)minor, (void)serverarg, (void)clientarg;
	ax.session = NULL;
	new_session_epoch();
	for (struct fma_axreg *r = ax.first; r; r = r->next) {
		cancel_retry(r);
		drop_ticket(r);
		r->state = FMA_AXREG_UNSENT;
		r->error = 0;
	}
	changed();
	return SNMPERR_SUCCESS;
}

/* From the first registration or watcher on: the session there is now,
 * and each start and end of one. */
static void
hook_sessions(void)
{
	if (ax.hooked)
		return;
	ax.session = main_session;
	ax.hooked = snmp_register_callback(SNMP_CALLBACK_APPLICATION,
					   SNMPD_CALLBACK_INDEX_START, on_session_start,
					   NULL) == SNMPERR_SUCCESS &&
		    snmp_register_callback(SNMP_CALLBACK_APPLICATION,
					   SNMPD_CALLBACK_INDEX_STOP, on_session_stop,
					   NULL) == SNMPERR_SUCCESS;
}

/* ---- entry points ---- */

int
fma_axreg_register(netsnmp_handler_registration *reginfo, const char *label,
		   fma_axreg_answered *answered, void *arg, struct fma_axreg **rp)
{
	struct fma_axreg *r = calloc(1, sizeof(*r));
	netsnmp_mib_handler *bulk;

	*rp = NULL;
	if (!r || reginfo->rootoid_len > MAX_OID_LEN) {
		free(r);
		netsnmp_handler_registration_free(reginfo);
		return -ENOMEM;
	}
	memcpy(r->key.name, reginfo->rootoid, reginfo->rootoid_len * sizeof(oid));
	r->key.len = reginfo->rootoid_len;
	r->key.range_subid = reginfo->range_subid;
	r->key.ubound = reginfo->range_ubound;
	r->key.priority = reginfo->priority;
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->answered = answered;
	r->arg = arg;
	/* the role: false for a master agent, true for a subagent */
	r->subagent = netsnmp_ds_get_boolean(NETSNMP_DS_APPLICATION_ID,
					     NETSNMP_DS_AGENT_ROLE);
	if (!r->subagent) {
		if (netsnmp_register_handler(reginfo) != MIB_REGISTERED_OK) {
			free(r);
			return -EADDRINUSE;
		}
		r->state = FMA_AXREG_ACCEPTED;
		*rp = r;
		return 0;
	}
	/* what netsnmp_register_handler() would add: GETBULK as GETNEXTs */
	if (!(reginfo->modes & HANDLER_CAN_GETBULK)) {
		bulk = netsnmp_get_bulk_to_next_handler();
		if (!bulk || netsnmp_inject_handler(reginfo, bulk) != SNMPERR_SUCCESS) {
			if (bulk)
				netsnmp_handler_free(bulk);
			netsnmp_handler_registration_free(reginfo);
			free(r);
			return -ENOMEM;
		}
	}
	if (netsnmp_register_handler_nocallback(reginfo) != MIB_REGISTERED_OK) {
		free(r);
		return -EADDRINUSE;
	}
	hook_sessions();
	r->next = ax.first;
	if (ax.first)
		ax.first->prev = r;
	ax.first = r;
	ax.n++;
	*rp = r;
	send_register(r);
	changed();
	return 0;
}

void
fma_axreg_unregister(struct fma_axreg *r, bool leaving)
{
	if (!r)
		return;
	if (!r->subagent) {
		if (!leaving && r->key.range_subid)
			netsnmp_unregister_mib_table_row(r->key.name, r->key.len,
							 r->key.priority, r->key.range_subid,
							 r->key.ubound, "");
		else if (!leaving)
			unregister_mib_context(r->key.name, r->key.len, r->key.priority,
					       0, 0, NULL);
		free(r);
		return;
	}
	cancel_retry(r);
	unqueue(r);
	if (r->ticket) {
		/* an answer "yes" still to come is withdrawn then (on_answer()),
		 * unless the session ends first */
		if (leaving)
			r->ticket->ss = NULL;
		drop_ticket(r);
	}
	if (!leaving) {
		if (r->state == FMA_AXREG_ACCEPTED)
			send_unregister(&r->key, session());
		remove_locally(&r->key);
	}
	if (r->prev)
		r->prev->next = r->next;
	else
		ax.first = r->next;
	if (r->next)
		r->next->prev = r->prev;
	ax.n--;
	free(r);
	changed();
}

enum fma_axreg_state
fma_axreg_state(const struct fma_axreg *r)
{
	return r->state;
}

const char *
fma_axreg_label(const struct fma_axreg *r)
{
	return r->label;
}

bool
fma_axreg_serving(const struct fma_axreg *r)
{
	return r && r->state == FMA_AXREG_ACCEPTED;
}

long
fma_axreg_error(const struct fma_axreg *r)
{
	return r->error;
}

const char *
fma_axreg_error_name(long error)
{
	static const char *const names[] = {
		"openFailed", "notOpen", "indexWrongType", "indexAlreadyAllocated",
		"indexNoneAvailable", "indexNotAllocated", "unsupportedContext",
		"duplicateRegistration", "unknownRegistration", "unknownAgentCaps",
		"parseError", "requestDenied", "processingError",
	};

	if (error == FMA_AXREG_NO_ANSWER)
		return "no answer (timeout)";
	if (error == FMA_AXREG_NOT_SENT)
		return "not sent";
	if (error >= AX_ERR_FIRST &&
	    error < AX_ERR_FIRST + (long)(sizeof(names) / sizeof(names[0])))
		return names[error - AX_ERR_FIRST];
	return error ? "an unknown error" : "none";
}

unsigned int
fma_axreg_delay(unsigned int refusals)
{
	if (refusals == 0)
		return 1;
	if (refusals > 5)
		return FMA_AXREG_DELAY_MAX;
	return 1u << (refusals - 1) < FMA_AXREG_DELAY_MAX ? 1u << (refusals - 1)
	       : FMA_AXREG_DELAY_MAX;
}

/* The refused registrations by label and reason: "LABEL: REASON" or
 * "LABEL: N x REASON", each group once, in the order first seen. */
static void
append_refused(char *buf, size_t len, size_t *at)
{
	unsigned int shown = 0;

	for (const struct fma_axreg *r = ax.first; r; r = r->next) {
		unsigned int same = 0;
		bool seen = false;

		if (r->state != FMA_AXREG_REFUSED)
			continue;
		for (const struct fma_axreg *o = ax.first; o != r; o = o->next)
			if (o->state == FMA_AXREG_REFUSED && o->error == r->error &&
			    !strcmp(o->label, r->label))
				seen = true;
		if (seen)
			continue;
		for (const struct fma_axreg *o = r; o; o = o->next)
			same += o->state == FMA_AXREG_REFUSED && o->error == r->error &&
				!strcmp(o->label, r->label);
		if (*at < len) {
			if (same > 1)
				*at += (size_t)snprintf(buf + *at, len - *at, "%s%s: %u x %s",
							shown ? "; " : " (", r->label, same,
							fma_axreg_error_name(r->error));
			else
				*at += (size_t)snprintf(buf + *at, len - *at, "%s%s: %s",
							shown ? "; " : " (", r->label,
							fma_axreg_error_name(r->error));
		}
		shown++;
	}
	if (shown && *at < len)
		*at += (size_t)snprintf(buf + *at, len - *at, ")");
}

const char *
fma_axreg_summary(char *buf, size_t len)
{
	unsigned int n[4] = { 0 };
	size_t at;

	for (const struct fma_axreg *r = ax.first; r; r = r->next)
		n[r->state]++;
	if (!session()) {
		snprintf(buf, len, "no session to snmpd: %u registration(s) to send", ax.n);
		return buf;
	}
	at = (size_t)snprintf(buf, len, "snmpd accepted %u of %u registration(s)",
			      n[FMA_AXREG_ACCEPTED], ax.n);
	if (n[FMA_AXREG_PENDING] && at < len)
		at += (size_t)snprintf(buf + at, len - at, ", %u awaiting its answer",
				       n[FMA_AXREG_PENDING]);
	if (n[FMA_AXREG_UNSENT] && at < len)
		at += (size_t)snprintf(buf + at, len - at, ", %u to send",
				       n[FMA_AXREG_UNSENT]);
	if (n[FMA_AXREG_REFUSED] && at < len) {
		at += (size_t)snprintf(buf + at, len - at, ", refused %u",
				       n[FMA_AXREG_REFUSED]);
		append_refused(buf, len, &at);
	}
	return buf;
}

void
fma_axreg_watch(void (*fn)(void))
{
	ax.watch = fn;
	hook_sessions();
}
