/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IF-MIB rows for the ports of DPDK applications, over their telemetry
 * sockets: sources, connections, registrations, the request handler. See
 * ports.h for the behaviour and ifmib.c for the values.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "ifmib.h"
#include "ports.h"
#include "telemetry.h"

/* Ports of one source served at most (a source with its own base may have
 * port ids up to 65535, but an application rarely has more than a few). */
#define FMP_MAX_PORTS 1024u
/* How many timeouts' worth of missed answers a request still waits through
 * (a hiccup); after that, requests fail at once until the application
 * answers again. */
#define FMP_HICCUP_TIMEOUTS 4u
/* Ports whose state one sampling query reads (3 commands each). */
#define FMP_SAMPLE_CHUNK 64u

static const oid fmp_entry[2][FASTMIB_IFMIB_IFXENTRY_LEN] = {
	{ FASTMIB_IFMIB_IFENTRY },
	{ FASTMIB_IFMIB_IFXENTRY },
};
static const size_t fmp_entry_len[2] = { FASTMIB_IFMIB_IFENTRY_LEN,
					 FASTMIB_IFMIB_IFXENTRY_LEN };

/* Which PDU a reading was taken for. */
struct fmp_pdu {
	const void *asp;
	long reqid;
	long transid;
};

struct fmp_src;

struct fmp_port {
	struct fmp_src *src;
	uint16_t id;
	bool listed;                    /* in the application's last port list */
	uint32_t ifindex;               /* while registered */
	netsnmp_handler_registration *reg[2]; /* ifEntry, ifXEntry rows */
	const char *refused;            /* why its rows are not served, logged once */
	char name[FASTMIB_PORT_NAME_MAX]; /* ethdev name last read, for the log */
	struct fastmib_ifmib_track track;
	bool cast_known;                /* cast_have holds this instance's breakdown */
	unsigned int cast_have;         /* which breakdown counters its xstats give */
	/* the last reading taken for a request */
	struct fastmib_port_reading rd;
	bool rd_ok;
	uint64_t rd_ns;
	struct fmp_pdu rd_pdu;
};

struct fmp_src {
	struct fastmib_ports *set;
	char *path;                     /* as configured: identity across reloads */
	uint32_t own_base;              /* 0: the implicit one */
	unsigned int order;             /* position in the configuration */
	uint32_t base;                  /* of the rows registered now */
	struct fastmib_tel *tel;
	bool up;                        /* hello taken in, rows may be served */
	long pid;                       /* instance the histories belong to */
	bool there_at_start;            /* its socket accepted while the agent started */
	uint32_t epoch;                 /* TimeStamp: the instance's counters began */
	bool first_sample;              /* the instance's first port list is to come */
	struct fmp_port **ports;        /* ascending ids */
	unsigned int n_ports;
	uint64_t behind_ns;             /* when answers stopped coming, 0: they come */
	const char *lost;               /* why a request lost the connection */
	bool confirmed;
	int last_rc;                    /* last connection failure, logged once */
	char last_msg[256];
	uint64_t req_exchanges, bg_exchanges;
};

struct fastmib_ports {
	bool beside_kernel;
	uint32_t base;
	unsigned int timeout_ms;
	struct fmp_src **srcs;
	unsigned int n_srcs;
	unsigned int next_order;
	unsigned int alarm;
	bool starting;                  /* inside fastmib_ports_start() */
};

static uint64_t
fmp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A TimeStamp now: the agent's uptime, 0 while it starts (RFC 2863: events
 * before the agent's start read 0). */
static uint32_t
fmp_stamp(const struct fastmib_ports *set)
{
	return set->starting ? 0 : (uint32_t)netsnmp_get_agent_uptime();
}

/* ---- request handler ---- */

/*
 * GETNEXT: does the instance of column `col` of this row follow the
 * request's OID? Each column of a row is its own subtree of the registry
 * (the registration's range), so an answer never leaves the column: the
 * agent carries the walk on into snmpd's rows after it.
 */
static bool
fmp_follows(const oid *entry, size_t elen, unsigned int col, uint32_t ifindex,
	    const netsnmp_variable_list *vb, bool inclusive)
{
	oid inst[FASTMIB_IFMIB_IFXENTRY_LEN + 2];
	int cmp;

	memcpy(inst, entry, elen * sizeof(oid));
	inst[elen] = col;
	inst[elen + 1] = ifindex;
	cmp = snmp_oid_compare(vb->name, vb->name_length, inst, elen + 2);
	return cmp < 0 || (cmp == 0 && inclusive);
}

static void
fmp_set_value(netsnmp_variable_list *vb, const struct fastmib_ifv *v)
{
	static const oid zero[2] = { 0, 0 };
	struct counter64 c64;

	switch (v->type) {
	case FASTMIB_IFV_INTEGER:
		snmp_set_var_typed_integer(vb, ASN_INTEGER, (long)v->num);
		break;
	case FASTMIB_IFV_COUNTER32:
		snmp_set_var_typed_integer(vb, ASN_COUNTER, (long)v->num);
		break;
	case FASTMIB_IFV_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE, (long)v->num);
		break;
	case FASTMIB_IFV_TIMETICKS:
		snmp_set_var_typed_integer(vb, ASN_TIMETICKS, (long)v->num);
		break;
	case FASTMIB_IFV_COUNTER64:
		c64.high = v->num >> 32;
		c64.low = v->num & 0xffffffffu;
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
		break;
	case FASTMIB_IFV_OCTETS:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, v->octets,
					 v->len > 255 ? 255 : v->len);
		break;
	case FASTMIB_IFV_OID_ZERO:
		snmp_set_var_typed_value(vb, ASN_OBJECT_ID, zero, sizeof(zero));
		break;
	case FASTMIB_IFV_NONE:
		break;
	}
}

static void fmp_src_trouble(struct fmp_src *s, int rc);

static struct fmp_pdu
fmp_pdu_of(const netsnmp_agent_request_info *reqinfo)
{
	struct fmp_pdu k = { reqinfo->asp, 0, 0 };

	if (reqinfo->asp && reqinfo->asp->pdu) {
		k.reqid = reqinfo->asp->pdu->reqid;
		k.transid = reqinfo->asp->pdu->transid;
	}
	return k;
}

/*
 * The port's reading for this PDU: the one already taken for it, or one
 * younger than FASTMIB_PORTS_REUSE_NS, or a new one (one query, its
 * commands pipelined). NULL when the application does not answer now; a
 * PDU never asks twice.
 */
static const struct fastmib_port_reading *
fmp_reading(struct fmp_port *p, const netsnmp_agent_request_info *reqinfo)
{
	struct fmp_src *s = p->src;
	struct fmp_pdu k = fmp_pdu_of(reqinfo);
	uint64_t now = fmp_now_ns();
	unsigned int parts;
	int rc;

	if (k.asp && k.asp == p->rd_pdu.asp && k.reqid == p->rd_pdu.reqid &&
	    k.transid == p->rd_pdu.transid)
		return p->rd_ok ? &p->rd : NULL;
	p->rd_pdu = k;
	if (p->rd_ok && now - p->rd_ns <= FASTMIB_PORTS_REUSE_NS)
		return &p->rd;
	p->rd_ok = false;
	if (!s->up || !fastmib_tel_ready(s->tel))
		return NULL;
	/* an application that missed its answers for longer than a hiccup
	 * is not waited for again until they come (taken in without
	 * waiting); the check decides whether it is gone */
	if (s->behind_ns) {
		if (fastmib_tel_poll(s->tel) == 0)
			s->behind_ns = 0;
		else if (now - s->behind_ns >
			 (uint64_t)FMP_HICCUP_TIMEOUTS * s->set->timeout_ms * 1000000u)
			return NULL;
	}
	parts = FASTMIB_PORT_INFO | FASTMIB_PORT_LINK | FASTMIB_PORT_STATS;
	if (!p->cast_known || p->cast_have)
		parts |= FASTMIB_PORT_XSTATS;
	s->req_exchanges++;
	DEBUGMSGTL(("fastmib_ports", "%s: port %u: query for a request\n", s->path, p->id));
	rc = fastmib_tel_read_port(s->tel, p->id, parts, &p->rd, s->set->timeout_ms);
	if (rc < 0) {
		DEBUGMSGTL(("fastmib_ports", "%s: port %u: %s\n", s->path, p->id,
			    strerror(-rc)));
		fmp_src_trouble(s, rc);
		return NULL;
	}
	s->behind_ns = 0;
	if (!(p->rd.parts & FASTMIB_PORT_INFO))
		return NULL; /* the application no longer has the port */
	if (p->rd.parts & FASTMIB_PORT_XSTATS) {
		/* which counters a port's xstats has is fixed once it runs:
		 * a port without a breakdown is not asked for xstats again */
		p->cast_known = true;
		p->cast_have = p->rd.cast_have;
	}
	fastmib_ifmib_track(&p->track, &p->rd, fmp_stamp(s->set));
	p->rd_ok = true;
	p->rd_ns = fmp_now_ns();
	return &p->rd;
}

static int
fmp_handle(enum fastmib_ifmib_table t, netsnmp_mib_handler *handler,
	   netsnmp_handler_registration *reginfo, netsnmp_agent_request_info *reqinfo,
	   netsnmp_request_info *requests)
{
	struct fmp_port *p = handler->myvoid;
	const oid *entry = fmp_entry[t];
	size_t elen = fmp_entry_len[t];
	unsigned int col;

	/* the registry made one copy of the registration per column of the
	 * range, each with its column in the root OID */
	if (reginfo->rootoid_len != elen + 2)
		return SNMP_ERR_GENERR;
	col = (unsigned int)reginfo->rootoid[elen];
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		netsnmp_variable_list *vb = r->requestvb;
		const struct fastmib_port_reading *rd = NULL;
		struct fastmib_ifv v;

		if (r->processed)
			continue;
		if (reqinfo->mode == MODE_GET) {
			if (snmp_oid_compare(vb->name, vb->name_length, reginfo->rootoid,
					     reginfo->rootoid_len) != 0) {
				netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
				continue;
			}
		} else if (reqinfo->mode == MODE_GETNEXT) {
			if (!fmp_follows(entry, elen, col, p->ifindex, vb, r->inclusive))
				continue; /* unanswered: the agent moves on */
		} else {
			continue; /* read-only registration: snmpd refuses SETs */
		}
		/* a row answers as a whole while its application answers; a
		 * column the port's xstats cannot fill is known empty unread
		 * (a GETNEXT passes through it to the next port's instance) */
		if (fastmib_ifmib_served(t, col) &&
		    !(p->cast_known && fastmib_ifmib_cast_mask(t, col) &&
		      !(p->cast_have & fastmib_ifmib_cast_mask(t, col))) &&
		    (rd = fmp_reading(p, reqinfo)))
			fastmib_ifmib_value(t, col, p->ifindex, rd, &p->track, &v);
		else
			v.type = FASTMIB_IFV_NONE;
		if (v.type == FASTMIB_IFV_NONE) {
			if (reqinfo->mode == MODE_GET)
				netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
			continue;
		}
		fmp_set_value(vb, &v);
		if (reqinfo->mode == MODE_GETNEXT)
			snmp_set_var_objid(vb, reginfo->rootoid, reginfo->rootoid_len);
	}
	return SNMP_ERR_NOERROR;
}

static int
fmp_if_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
	       netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	return fmp_handle(FASTMIB_IFTABLE, handler, reginfo, reqinfo, requests);
}

static int
fmp_ifx_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	return fmp_handle(FASTMIB_IFXTABLE, handler, reginfo, reqinfo, requests);
}

/* ---- registrations ---- */

/*
 * Withdraw a row. Net-SNMP 5.9's unregistration of a range frees only the
 * last column's copy of the registration (the others leak, in the agent and
 * in the master), so every column is unregistered on its own: each column
 * is its own subtree in both registries anyway. Column 1's holds the
 * registration `p->reg[t]` itself, so it goes last.
 */
static void
fmp_unregister(struct fmp_port *p)
{
	for (int t = 0; t < 2; t++) {
		netsnmp_handler_registration *reg = p->reg[t];
		size_t elen = fmp_entry_len[t];
		char context[64] = "";
		const char *ctx = NULL;
		oid name[FASTMIB_IFMIB_IFXENTRY_LEN + 2];
		int priority;

		if (!reg)
			continue;
		priority = reg->priority;
		if (reg->contextName) {
			snprintf(context, sizeof(context), "%s", reg->contextName);
			ctx = context;
		}
		memcpy(name, fmp_entry[t], elen * sizeof(oid));
		name[elen + 1] = p->ifindex;
		for (unsigned int col = fastmib_ifmib_last_col((enum fastmib_ifmib_table)t);
		     col >= 1; col--) {
			name[elen] = col;
			unregister_mib_context(name, elen + 2, priority, 0, 0, ctx);
		}
		p->reg[t] = NULL;
	}
	p->rd_ok = false;
}

/*
 * After a ranged registration the registry holds one subtree per column,
 * each a copy that still carries the range. When the AgentX master comes
 * back (snmpd restarted), Net-SNMP registers every subtree again with what
 * it carries: column c's range c..N overlaps the others' and snmpd refuses
 * it (duplicateRegistration, logged for each). Without the range, each
 * column is registered again on its own, which is what it is.
 */
static void
fmp_forget_range(const oid *entry, size_t elen, unsigned int last, uint32_t ifindex,
		 const netsnmp_handler_registration *reg)
{
	oid name[FASTMIB_IFMIB_IFXENTRY_LEN + 2];

	memcpy(name, entry, elen * sizeof(oid));
	name[elen + 1] = ifindex;
	for (unsigned int col = 1; col <= last; col++) {
		netsnmp_subtree *st;

		name[elen] = col;
		st = netsnmp_subtree_find(name, elen + 2,
					  netsnmp_subtree_find_first(reg->contextName),
					  reg->contextName);
		for (; st; st = st->children) {
			if (netsnmp_oid_equals(st->name_a, st->namelen, name, elen + 2) == 0 &&
			    st->priority == reg->priority) {
				st->range_subid = 0;
				st->range_ubound = 0;
				break;
			}
		}
	}
}

static bool
fmp_ifindex_taken(const struct fastmib_ports *set, uint32_t ifindex)
{
	for (unsigned int i = 0; i < set->n_srcs; i++) {
		const struct fmp_src *o = set->srcs[i];

		for (unsigned int j = 0; j < o->n_ports; j++)
			if (o->ports[j]->reg[0] && o->ports[j]->ifindex == ifindex)
				return true;
	}
	return false;
}

/* Why the port cannot be served at `ifindex` now, or NULL. */
static const char *
fmp_obstacle(const struct fmp_port *p, uint64_t ifindex, char *kname)
{
	const struct fmp_src *s = p->src;

	if (!s->own_base && p->id >= FASTMIB_IFINDEX_SPACING)
		return "its port id is beyond the 100 ifIndex values of the source "
		       "(give it a base: PATH,BASE)";
	if (ifindex > FASTMIB_IFINDEX_MAX)
		return "its ifIndex would exceed 2147483647";
	if (s->set->beside_kernel && if_indextoname((unsigned int)ifindex, kname))
		return "its ifIndex is a kernel interface's (choose another ifIndex base)";
	if (fmp_ifindex_taken(s->set, (uint32_t)ifindex))
		return "its ifIndex is served for another application (choose "
		       "distinct bases)";
	return NULL;
}

static int
fmp_register(struct fmp_port *p)
{
	struct fmp_src *s = p->src;
	uint64_t ifindex = (uint64_t)s->base + p->id;
	char kname[IF_NAMESIZE] = "";
	const char *why = fmp_obstacle(p, ifindex, kname);

	if (why) {
		if (p->refused != why)
			snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (ifIndex %" PRIu64
				 ") not served: %s%s%s\n", s->path, p->id, ifindex, why,
				 kname[0] ? ": " : "", kname);
		p->refused = why;
		return -EADDRINUSE;
	}
	p->refused = NULL;
	p->ifindex = (uint32_t)ifindex;
	for (int t = 0; t < 2; t++) {
		oid name[FASTMIB_IFMIB_IFXENTRY_LEN + 2];
		size_t elen = fmp_entry_len[t];
		netsnmp_handler_registration *reg;

		memcpy(name, fmp_entry[t], elen * sizeof(oid));
		name[elen] = 1;
		name[elen + 1] = p->ifindex;
		reg = netsnmp_create_handler_registration(
			t == FASTMIB_IFTABLE ? "fastmib-ifEntry" : "fastmib-ifXEntry",
			t == FASTMIB_IFTABLE ? fmp_if_handler : fmp_ifx_handler, name,
			elen + 2, HANDLER_CAN_RONLY);
		if (!reg) {
			fmp_unregister(p);
			return -ENOMEM;
		}
		reg->handler->myvoid = p; /* no data_free: the source owns the port */
		/* one row: the column sub-identifier ranges over the table's columns */
		reg->range_subid = (int)elen + 1;
		reg->range_ubound = fastmib_ifmib_last_col((enum fastmib_ifmib_table)t);
		if (netsnmp_register_handler(reg) != MIB_REGISTERED_OK) {
			/* the library freed `reg` */
			snmp_log(LOG_ERR, "fastmib: ports %s: port %u: cannot register "
				 "ifIndex %u in %s\n", s->path, p->id, p->ifindex,
				 t == FASTMIB_IFTABLE ? "ifTable" : "ifXTable");
			fmp_unregister(p);
			p->refused = "registration refused";
			return -EADDRINUSE;
		}
		p->reg[t] = reg;
		fmp_forget_range(fmp_entry[t], elen,
				 fastmib_ifmib_last_col((enum fastmib_ifmib_table)t),
				 p->ifindex, reg);
	}
	return 0;
}

/* ---- sources ---- */

static struct fmp_port *
fmp_port(struct fmp_src *s, uint16_t id, bool create)
{
	struct fmp_port **ports, *p;
	unsigned int i = 0;

	while (i < s->n_ports && s->ports[i]->id < id)
		i++;
	if (i < s->n_ports && s->ports[i]->id == id)
		return s->ports[i];
	if (!create || s->n_ports >= FMP_MAX_PORTS)
		return NULL;
	ports = realloc(s->ports, (s->n_ports + 1) * sizeof(*ports));
	if (!ports)
		return NULL;
	s->ports = ports;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->src = s;
	p->id = id;
	/* a port of the instance's first list counts since the instance
	 * began; one that appears later, since now */
	fastmib_ifmib_track_reset(&p->track, s->first_sample ? s->epoch : fmp_stamp(s->set));
	memmove(&s->ports[i + 1], &s->ports[i], (s->n_ports - i) * sizeof(*ports));
	s->ports[i] = p;
	s->n_ports++;
	return p;
}

static unsigned int
fmp_src_serving(const struct fmp_src *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->n_ports; i++)
		n += s->ports[i]->reg[0] != NULL;
	return n;
}

/* The application's rows go: it exited, stalled, or the source was dropped. */
static void
fmp_src_withdraw(struct fmp_src *s, const char *why)
{
	unsigned int n = fmp_src_serving(s);

	for (unsigned int i = 0; i < s->n_ports; i++) {
		fmp_unregister(s->ports[i]);
		s->ports[i]->listed = false;
		s->ports[i]->refused = NULL;
	}
	if (s->up && why)
		snmp_log(LOG_INFO, "fastmib: ports %s: application (pid %ld) %s; "
			 "%u port(s) withdrawn\n", s->path, s->pid, why, n);
	s->up = false;
	s->behind_ns = 0;
	s->lost = NULL;
}

/* A query failed: the connection is gone, or answers are late. */
static void
fmp_src_trouble(struct fmp_src *s, int rc)
{
	if (rc == -ETIMEDOUT || rc == -EBUSY) {
		if (!s->behind_ns)
			s->behind_ns = fmp_now_ns();
		return;
	}
	/* closed, or not speaking the protocol: the check withdraws the
	 * rows (not here, inside a request that uses them) */
	if (!s->lost && (rc == -ECONNRESET || rc == -EPROTO))
		s->lost = rc == -ECONNRESET ? "exited" : "broke the telemetry protocol";
	if (fastmib_tel_ready(s->tel))
		fastmib_tel_close(s->tel);
}

static void
fmp_src_log_failure(struct fmp_src *s, int rc, const char *msg)
{
	if (rc == s->last_rc && strcmp(msg, s->last_msg) == 0)
		return;
	s->last_rc = rc;
	snprintf(s->last_msg, sizeof(s->last_msg), "%s", msg);
	snmp_log(rc == -ENOENT || rc == -ECONNREFUSED ? LOG_INFO : LOG_WARNING,
		 "fastmib: ports %s: %s; retrying\n", s->path, msg);
}

/*
 * Read the port list and the state of every listed port (info, link,
 * stats; queries of FMP_SAMPLE_CHUNK ports), follow the list (register new
 * ports, withdraw vanished ones) and feed the histories. Returns 0 or the
 * first query's failure.
 */
static int
fmp_src_sample(struct fmp_src *s)
{
	static const char *const kinds[3] = { "/ethdev/info", "/ethdev/link_status",
					      "/ethdev/stats" };
	uint16_t ids[FMP_MAX_PORTS];
	unsigned int n_ids, at = 0;
	const char *list_cmd = "/ethdev/list";
	json_t *list;
	int rc;

	s->bg_exchanges++;
	rc = fastmib_tel_query(s->tel, &list_cmd, 1, &list, s->set->timeout_ms);
	if (rc < 0)
		return rc;
	rc = fastmib_port_parse_list(list, ids, FMP_MAX_PORTS);
	json_decref(list);
	if (rc < 0) {
		fmp_src_log_failure(s, -EPROTO, "/ethdev/list: not a list of port ids");
		return -EPROTO;
	}
	n_ids = (unsigned int)rc;
	for (unsigned int i = 0; i < s->n_ports; i++)
		s->ports[i]->listed = false;
	for (unsigned int i = 0; i < n_ids; i++) {
		struct fmp_port *p = fmp_port(s, ids[i], true);

		if (p)
			p->listed = true;
	}
	s->first_sample = false;
	while (at < n_ids) {
		char text[FMP_SAMPLE_CHUNK * 3][32];
		const char *cmds[FMP_SAMPLE_CHUNK * 3];
		json_t *replies[FMP_SAMPLE_CHUNK * 3];
		unsigned int n = n_ids - at < FMP_SAMPLE_CHUNK ? n_ids - at : FMP_SAMPLE_CHUNK;
		uint32_t now_cs;

		for (unsigned int i = 0; i < n; i++)
			for (unsigned int k = 0; k < 3; k++) {
				snprintf(text[3 * i + k], sizeof(text[0]), "%s,%u", kinds[k],
					 ids[at + i]);
				cmds[3 * i + k] = text[3 * i + k];
			}
		s->bg_exchanges++;
		rc = fastmib_tel_query(s->tel, cmds, 3 * n, replies, s->set->timeout_ms);
		if (rc < 0)
			return rc;
		now_cs = fmp_stamp(s->set);
		for (unsigned int i = 0; i < n; i++) {
			struct fmp_port *p = fmp_port(s, ids[at + i], false);
			struct fastmib_port_reading r = { .port = ids[at + i] };

			fastmib_port_parse_info(replies[3 * i], &r);
			fastmib_port_parse_link(replies[3 * i + 1], &r);
			fastmib_port_parse_stats(replies[3 * i + 2], &r);
			for (unsigned int k = 0; k < 3; k++)
				json_decref(replies[3 * i + k]);
			if (p && (r.parts & FASTMIB_PORT_INFO)) {
				fastmib_ifmib_track(&p->track, &r, now_cs);
				memcpy(p->name, r.name, sizeof(p->name));
			}
		}
		at += n;
	}
	return 0;
}

/* Rows follow the port list; a kernel interface that took an ifIndex since
 * is left its row. */
static void
fmp_src_follow(struct fmp_src *s)
{
	unsigned int before = fmp_src_serving(s), added = 0;
	char names[256] = "";
	size_t used = 0;

	for (unsigned int i = 0; i < s->n_ports; i++) {
		struct fmp_port *p = s->ports[i];
		char kname[IF_NAMESIZE];

		if (p->reg[0] && (!p->listed ||
				  (s->set->beside_kernel && if_indextoname(p->ifindex, kname)))) {
			if (p->listed)
				snmp_log(LOG_WARNING, "fastmib: ports %s: ifIndex %u is now "
					 "the kernel interface %s's: port %u withdrawn\n",
					 s->path, p->ifindex, kname, p->id);
			fmp_unregister(p);
			continue;
		}
		if (p->listed && !p->reg[0] && fmp_register(p) == 0) {
			int n;

			if (used >= sizeof(names) - 4) {
				added++;
				continue; /* the list is cut at "..." */
			}
			n = snprintf(names + used, sizeof(names) - used, "%s%s=%u",
				     added++ ? ", " : ": ", p->name[0] ? p->name : "?",
				     p->ifindex);
			if (n > 0 && used + (size_t)n < sizeof(names) - 4) {
				used += (size_t)n;
			} else {
				snprintf(names + used, sizeof(names) - used, "...");
				used = sizeof(names);
			}
		}
	}
	if (added || fmp_src_serving(s) != before)
		snmp_log(LOG_INFO, "fastmib: ports %s: serving %u port(s) of pid %ld "
			 "(%s)%s%s\n", s->path, fmp_src_serving(s), s->pid,
			 fastmib_tel_version(s->tel), added ? ", new ifIndex" : "", names);
}

/* The hello came: a new instance of the application, or the same one. */
static void
fmp_src_came_up(struct fmp_src *s)
{
	long pid = fastmib_tel_pid(s->tel);

	if (pid != s->pid) {
		/* counters start afresh: every port's discontinuity is now, or
		 * 0 when the application ran before the agent (its socket
		 * accepted then, even if its hello came later) */
		uint32_t now_cs = s->pid == 0 && s->there_at_start ? 0
				  : fmp_stamp(s->set);

		s->epoch = now_cs;
		s->first_sample = true;
		for (unsigned int i = 0; i < s->n_ports; i++) {
			fastmib_ifmib_track_reset(&s->ports[i]->track, now_cs);
			s->ports[i]->cast_known = false;
			s->ports[i]->rd_ok = false;
		}
		s->pid = pid;
	}
	s->up = true;
	s->behind_ns = 0;
	s->last_rc = 0;
	s->last_msg[0] = '\0';
}

static void
fmp_src_check(struct fmp_src *s)
{
	int rc = fastmib_tel_poll(s->tel);

	if (rc == -ECONNRESET || (rc == -ENOTCONN && s->up)) {
		fmp_src_withdraw(s, rc == -ECONNRESET ? "exited"
				 : s->lost ? s->lost : "closed its telemetry connection");
		rc = -ENOTCONN;
	}
	if (rc == -EBUSY) {
		uint64_t now = fmp_now_ns();

		if (!s->behind_ns) {
			s->behind_ns = now;
		} else if (now - s->behind_ns >= FASTMIB_PORTS_STALL_MS * 1000000ull) {
			fmp_src_withdraw(s, "does not answer");
			fastmib_tel_close(s->tel);
		}
		return;
	}
	if (rc == -ENOTCONN) {
		rc = fastmib_tel_connect(s->tel, s->set->timeout_ms);
		if (s->set->starting && (rc == 0 || rc == -EINPROGRESS))
			s->there_at_start = true;
		if (rc == -EINPROGRESS) {
			if (!s->behind_ns)
				s->behind_ns = fmp_now_ns();
			return;
		}
		if (rc < 0) {
			fmp_src_log_failure(s, rc, fastmib_tel_error(s->tel));
			return;
		}
	}
	if (!s->up)
		fmp_src_came_up(s);
	s->behind_ns = 0;
	rc = fmp_src_sample(s);
	if (rc < 0) {
		fmp_src_trouble(s, rc);
		if (!fastmib_tel_ready(s->tel))
			fmp_src_withdraw(s, "closed its telemetry connection");
		return;
	}
	fmp_src_follow(s);
}

void
fastmib_ports_check(struct fastmib_ports *set)
{
	for (unsigned int i = 0; i < set->n_srcs; i++)
		fmp_src_check(set->srcs[i]);
}

static void
fmp_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fastmib_ports_check(arg);
}

/* ---- configuration ---- */

int
fastmib_ports_create(struct fastmib_ports **setp)
{
	struct fastmib_ports *set = calloc(1, sizeof(*set));

	*setp = set;
	if (!set)
		return -ENOMEM;
	set->beside_kernel = true;
	set->base = FASTMIB_IFINDEX_BASE;
	set->timeout_ms = FASTMIB_PORTS_TIMEOUT_MS;
	return 0;
}

void
fastmib_ports_set_beside_kernel(struct fastmib_ports *set, bool beside)
{
	set->beside_kernel = beside;
}

static uint32_t
fmp_base_of(const struct fmp_src *s)
{
	return fastmib_port_source_base(s->own_base, s->set->base, s->order);
}

int
fastmib_ports_add(struct fastmib_ports *set, const char *spec)
{
	char path[4096];
	uint32_t base;
	struct fmp_src **srcs, *s;
	int rc = fastmib_port_source_parse(spec, path, sizeof(path), &base);

	if (rc < 0)
		return rc;
	for (unsigned int i = 0; i < set->n_srcs; i++) {
		struct fmp_src *o = set->srcs[i];

		if (strcmp(o->path, path) == 0) {
			if (o->confirmed)
				return -EEXIST;
			o->confirmed = true; /* named again in a reload */
			o->own_base = base;
			o->order = set->next_order++;
			return 0;
		}
	}
	if (set->n_srcs >= FASTMIB_PORTS_MAX_SOURCES)
		return -ENOSPC;
	srcs = realloc(set->srcs, (set->n_srcs + 1) * sizeof(*srcs));
	if (!srcs)
		return -ENOMEM;
	set->srcs = srcs;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path)) || fastmib_tel_new(path, &s->tel) < 0) {
		if (s)
			free(s->path);
		free(s);
		return -ENOMEM;
	}
	s->set = set;
	s->own_base = base;
	s->order = set->next_order++;
	s->base = fmp_base_of(s);
	s->confirmed = true;
	set->srcs[set->n_srcs++] = s;
	return 0;
}

int
fastmib_ports_set_base(struct fastmib_ports *set, uint32_t base)
{
	if (base < 1 || base > FASTMIB_IFINDEX_MAX)
		return -EINVAL;
	set->base = base;
	return 0;
}

int
fastmib_ports_set_timeout(struct fastmib_ports *set, unsigned int ms)
{
	if (ms < 1 || ms > FASTMIB_PORTS_TIMEOUT_MAX)
		return -EINVAL;
	set->timeout_ms = ms;
	return 0;
}

static void
fmp_src_free(struct fmp_src *s)
{
	struct fastmib_tel_counts c;

	fmp_src_withdraw(s, NULL);
	fastmib_tel_counts(s->tel, &c);
	if (c.exchanges)
		snmp_log(LOG_INFO, "fastmib: ports %s: %" PRIu64 " telemetry queries "
			 "(%" PRIu64 " for requests, %" PRIu64 " checks), %" PRIu64
			 " commands, %" PRIu64 " timed out\n", s->path, c.exchanges,
			 s->req_exchanges, s->bg_exchanges, c.commands, c.timeouts);
	for (unsigned int i = 0; i < s->n_ports; i++)
		free(s->ports[i]);
	free(s->ports);
	fastmib_tel_free(s->tel);
	free(s->path);
	free(s);
}

void
fastmib_ports_reload_begin(struct fastmib_ports *set)
{
	for (unsigned int i = 0; i < set->n_srcs; i++)
		set->srcs[i]->confirmed = false;
	set->next_order = 0;
	set->base = FASTMIB_IFINDEX_BASE; /* unless the configuration says again */
}

unsigned int
fastmib_ports_reload_end(struct fastmib_ports *set)
{
	unsigned int kept = 0, dropped = 0;

	for (unsigned int i = 0; i < set->n_srcs; i++) {
		struct fmp_src *s = set->srcs[i];

		if (!s->confirmed) {
			snmp_log(LOG_INFO, "fastmib: ports %s: no longer configured, "
				 "not served\n", s->path);
			fmp_src_free(s);
			dropped++;
			continue;
		}
		set->srcs[kept++] = s;
	}
	set->n_srcs = kept;
	/* a source whose base moved is served again at the new one */
	for (unsigned int i = 0; i < set->n_srcs; i++) {
		struct fmp_src *s = set->srcs[i];
		uint32_t base = fmp_base_of(s);

		if (base == s->base)
			continue;
		for (unsigned int j = 0; j < s->n_ports; j++)
			fmp_unregister(s->ports[j]);
		s->base = base;
	}
	if (set->alarm)
		fastmib_ports_check(set);
	return dropped;
}

unsigned int
fastmib_ports_count(const struct fastmib_ports *set)
{
	return set ? set->n_srcs : 0;
}

unsigned int
fastmib_ports_serving(const struct fastmib_ports *set)
{
	unsigned int n = 0;

	for (unsigned int i = 0; set && i < set->n_srcs; i++)
		n += fmp_src_serving(set->srcs[i]);
	return n;
}

int
fastmib_ports_start(struct fastmib_ports *set)
{
	struct timeval tv = { 0, FASTMIB_PORTS_CHECK_MS * 1000 };

	if (set->alarm)
		return -EALREADY;
	for (unsigned int i = 0; i < set->n_srcs; i++)
		set->srcs[i]->base = fmp_base_of(set->srcs[i]);
	set->starting = true;
	fastmib_ports_check(set);
	set->starting = false;
	set->alarm = snmp_alarm_register_hr(tv, SA_REPEAT, fmp_alarm, set);
	return set->alarm ? 0 : -ENOMEM;
}

void
fastmib_ports_destroy(struct fastmib_ports *set)
{
	if (!set)
		return;
	if (set->alarm)
		snmp_alarm_unregister(set->alarm);
	for (unsigned int i = 0; i < set->n_srcs; i++)
		fmp_src_free(set->srcs[i]);
	free(set->srcs);
	free(set);
}
