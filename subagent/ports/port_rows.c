/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The served rows as requests see them: the ports in ifIndex order, the
 * reading of a port for a PDU (one at most, planned ahead for the ports a
 * request will reach), the last reading when an answer is late, and the
 * values put into varbinds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

/* Readings planned at once for a walk, at most (one query per source). */
#define FMP_PLAN_MAX 64u

static int
cmp_ifindex(const void *a, const void *b)
{
	const struct fmp_port *x = *(struct fmp_port *const *)a;
	const struct fmp_port *y = *(struct fmp_port *const *)b;

	return (x->entry->ifindex > y->entry->ifindex) - (x->entry->ifindex < y->entry->ifindex);
}

void
fmp_rows_sync(struct fmp_ports *ports)
{
	struct fmp_rows *rows = &ports->rows;
	unsigned int n = 0;

	for (unsigned int i = 0; i < ports->n_srcs; i++)
		for (unsigned int j = 0; j < ports->srcs[i]->n_ports; j++)
			n += ports->srcs[i]->ports[j]->served;
	if (n > rows->cap) {
		struct fmp_port **grown = realloc(rows->by_ifindex, n * sizeof(*grown));

		if (!grown) {
			/* keep nothing rather than pointers that may dangle */
			rows->n = 0;
			return;
		}
		rows->by_ifindex = grown;
		rows->cap = n;
	}
	rows->n = 0;
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		for (unsigned int j = 0; j < ports->srcs[i]->n_ports; j++)
			if (ports->srcs[i]->ports[j]->served)
				rows->by_ifindex[rows->n++] = ports->srcs[i]->ports[j];
	if (rows->n) /* no array at all before the first row */
		qsort(rows->by_ifindex, rows->n, sizeof(*rows->by_ifindex), cmp_ifindex);
}

void
fmp_rows_free(struct fmp_rows *rows)
{
	free(rows->by_ifindex);
	rows->by_ifindex = NULL;
	rows->n = rows->cap = 0;
}

unsigned int
fmp_rows_from(const struct fmp_ports *ports, uint64_t ifindex, bool incl)
{
	unsigned int lo = 0, hi = ports->rows.n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		uint64_t v = ports->rows.by_ifindex[mid]->entry->ifindex;

		if (v < ifindex || (!incl && v == ifindex))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct fmp_port *
fmp_rows_find(const struct fmp_ports *ports, uint32_t ifindex)
{
	unsigned int i = fmp_rows_from(ports, ifindex, true);

	return i < ports->rows.n && ports->rows.by_ifindex[i]->entry->ifindex == ifindex
	       ? ports->rows.by_ifindex[i] : NULL;
}

long
fmp_pdu_id(const netsnmp_agent_request_info *reqinfo)
{
	/* snmpd gives every AgentX PDU it sends for one SNMP request that
	 * request's transaction id: the PDU is the SNMP request, in every
	 * mode */
	return reqinfo->asp && reqinfo->asp->pdu ? reqinfo->asp->pdu->transid : -1;
}

bool
fmp_has_instance(enum fmp_ifmib_table t, unsigned int col, const struct fmp_port *p)
{
	unsigned int mask = fmp_ifmib_cast_mask(t, col);

	if (!fmp_ifmib_served(t, col))
		return false;
	return !mask || p->cast_have < 0 || ((unsigned int)p->cast_have & mask);
}

/*
 * Parts of a reading a request needs for `col`. Over AgentX, snmpd sends a
 * GET's varbinds for one port in AgentX PDUs of their own (one per
 * registration), which cannot be planned together: a GET reads every part
 * of a port at once, so that they share one reading. A walk is planned
 * (fmp_plan_walk()), the Gets snmpd sends as it steps into each instance
 * of a walk included (ports->agentx_walk).
 */
static unsigned int
fmp_parts(const struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	  const struct fmp_port *p, const netsnmp_agent_request_info *reqinfo)
{
	unsigned int parts = fmp_ifmib_parts(t, col, p->cast_have);

	if (ports->mode == FMP_PORTS_AGENTX && reqinfo->mode == MODE_GET && parts &&
	    !ports->agentx_walk) {
		parts = FASTMIB_PORT_INFO | FASTMIB_PORT_LINK | FASTMIB_PORT_STATS;
		if (p->cast_have != 0)
			parts |= FASTMIB_PORT_XSTATS;
	}
	return parts;
}

static const unsigned int fmp_part_bits[FMP_PARTS] = {
	FASTMIB_PORT_INFO, FASTMIB_PORT_LINK, FASTMIB_PORT_STATS, FASTMIB_PORT_XSTATS,
};

/* The PDU's reading of `p` starts empty (a port not read for it yet). */
static void
fmp_pdu_begin(struct fmp_port *p, long id)
{
	if (p->pdu_valid && p->pdu_transid == id)
		return;
	p->pdu_valid = true;
	p->pdu_transid = id;
	p->pdu_failed = false;
	p->pdu_asked = 0;
	memset(&p->pdu_rd, 0, sizeof(p->pdu_rd));
	p->pdu_rd.port = p->id;
}

/* Merge the parts of `r` into the PDU's reading. */
static void
fmp_pdu_merge(struct fmp_port *p, const struct fastmib_port_reading *r, unsigned int parts)
{
	struct fastmib_port_reading *d = &p->pdu_rd;

	if (parts & FASTMIB_PORT_INFO) {
		memcpy(d->name, r->name, sizeof(d->name));
		d->mtu = r->mtu;
		d->mac_ok = r->mac_ok;
		memcpy(d->mac, r->mac, sizeof(d->mac));
		d->promiscuous = r->promiscuous;
		d->started = r->started;
	}
	if (parts & FASTMIB_PORT_LINK) {
		d->link_up = r->link_up;
		d->speed_known = r->speed_known;
		d->speed_mbps = r->speed_mbps;
	}
	if (parts & FASTMIB_PORT_STATS) {
		memcpy(d->stat, r->stat, sizeof(d->stat));
		d->stats_have = r->stats_have;
	}
	if (parts & FASTMIB_PORT_XSTATS) {
		memcpy(d->cast, r->cast, sizeof(d->cast));
		d->cast_have = r->cast_have;
	}
	d->parts |= r->parts & parts;
}

/*
 * An answer that did not come: the port's last parts serve if each is
 * younger than FMP_PORTS_MAX_AGE_MS, else the port has no reading for
 * this PDU (its varbinds answer genErr).
 */
static void
fmp_pdu_fallback(struct fmp_port *p, unsigned int parts, uint64_t now)
{
	for (unsigned int k = 0; k < FMP_PARTS; k++) {
		if (!(parts & fmp_part_bits[k]))
			continue;
		if (!(p->last.parts & fmp_part_bits[k]) ||
		    now - p->last_ns[k] > FMP_PORTS_MAX_AGE_MS * 1000000ull) {
			p->pdu_failed = true;
			p->src->gen_errs++;
			return;
		}
	}
	fmp_pdu_merge(p, &p->last, parts);
	p->src->stale_served++;
	DEBUGMSGTL(("fastmib_ports", "%s: port %u: late answer: the last reading served\n",
		    p->src->epath, p->id));
}

/* Parts of the PDU's reading of `p` still to read for `parts`. */
static unsigned int
fmp_missing(const struct fmp_port *p, long id, unsigned int parts)
{
	if (!p->pdu_valid || p->pdu_transid != id)
		return parts;
	if (p->pdu_failed)
		return 0;
	return parts & ~p->pdu_rd.parts & ~p->pdu_asked;
}

/*
 * Read `n` ports of one source for the PDU `id`, each its parts, in one
 * query: taken into each port's history, merged into its PDU reading; a
 * failure falls back on the last readings.
 */
static void
fmp_read(struct fmp_src *s, struct fmp_port *const *batch, const unsigned int *parts,
	 unsigned int n, long id)
{
	struct fastmib_port_ask asks[FMP_PLAN_MAX];
	struct fastmib_port_reading rd[FMP_PLAN_MAX];
	struct fmp_port *who[FMP_PLAN_MAX];
	uint64_t now = fastmib_monotonic_ns();
	unsigned int m = n;
	int rc = -ENOTCONN;

	for (unsigned int i = 0; i < n; i++) {
		fmp_pdu_begin(batch[i], id);
		who[i] = batch[i];
		asks[i].port = batch[i]->id;
		asks[i].parts = parts[i];
		batch[i]->pdu_asked |= parts[i];
	}
	/* a late application's answers come after this PDU, and the next
	 * query waits for them: every part of every served port is asked
	 * (as many as a plan holds), so that all its readings stay young
	 * and not only those this PDU needed */
	for (unsigned int j = 0; s->behind_ns && j < s->n_ports && m < FMP_PLAN_MAX; j++) {
		struct fmp_port *p = s->ports[j];
		bool asked = false;

		for (unsigned int i = 0; i < n && !asked; i++)
			asked = batch[i] == p;
		if (p->served && !asked) {
			who[m] = p;
			asks[m].port = p->id;
			asks[m++].parts = 0;
		}
	}
	for (unsigned int i = 0; s->behind_ns && i < m; i++)
		asks[i].parts |= fmp_port_parts(who[i]);
	if (s->up && fastmib_tel_ready(s->tel)) {
		/* an application that missed its answers for longer than a
		 * hiccup is not waited for until they come (taken in without
		 * waiting); the check decides whether it is gone */
		int busy = s->behind_ns ? fastmib_tel_poll(s->tel) : 0;

		if (busy == -ECONNRESET || busy == -EPROTO) {
			rc = busy;
		} else if (busy != 0 && now - s->behind_ns >
			   (uint64_t)FMP_HICCUP_TIMEOUTS * s->owner->timeout_ms * 1000000u) {
			rc = -EBUSY;
		} else {
			s->req_exchanges++;
			DEBUGMSGTL(("fastmib_ports", "%s: %u port(s) from port %u: query for a "
				    "request\n", s->epath, n, asks[0].port));
			rc = fastmib_tel_read_ports(s->tel, asks, m, rd, s->owner->timeout_ms);
		}
	}
	now = fastmib_monotonic_ns();
	if (rc < 0) {
		DEBUGMSGTL(("fastmib_ports", "%s: %s\n", s->epath, strerror(-rc)));
		if (rc != -ENOTCONN)
			fmp_src_trouble(s, rc);
		for (unsigned int i = 0; i < n; i++)
			fmp_pdu_fallback(batch[i], parts[i], now);
		return;
	}
	if (s->behind_ns)
		fmp_src_answers(s);
	for (unsigned int i = 0; i < m; i++) {
		struct fmp_port *p = who[i];

		/* a port the application no longer has, or that is another
		 * device now: no values until the check sees it */
		if (!(rd[i].parts & FASTMIB_PORT_INFO) && (asks[i].parts & FASTMIB_PORT_INFO))
			continue;
		if ((rd[i].parts & FASTMIB_PORT_INFO) && strcmp(rd[i].name, p->name) != 0)
			continue;
		fmp_port_take(p, &rd[i], now);
		if (i < n)
			fmp_pdu_merge(p, &rd[i], parts[i]);
	}
}

/* Ports to read, each with its parts. */
struct fmp_plan {
	struct fmp_port *ports[FMP_PLAN_MAX];
	unsigned int parts[FMP_PLAN_MAX];
	unsigned int n;
};

static void
fmp_plan_add(struct fmp_plan *pl, struct fmp_port *p, unsigned int parts)
{
	for (unsigned int i = 0; i < pl->n; i++)
		if (pl->ports[i] == p) {
			pl->parts[i] |= parts;
			return;
		}
	if (pl->n < FMP_PLAN_MAX) {
		pl->ports[pl->n] = p;
		pl->parts[pl->n++] = parts;
	}
}

/* Read what the plan holds that the PDU has not read yet: one query per
 * source. */
static void
fmp_plan_run(struct fmp_ports *ports, struct fmp_plan *pl, long id)
{
	for (unsigned int i = 0; i < ports->n_srcs; i++) {
		struct fmp_src *s = ports->srcs[i];
		struct fmp_port *batch[FMP_PLAN_MAX];
		unsigned int parts[FMP_PLAN_MAX], n = 0;

		for (unsigned int j = 0; j < pl->n; j++) {
			unsigned int miss;

			if (pl->ports[j]->src != s)
				continue;
			miss = fmp_missing(pl->ports[j], id, pl->parts[j]);
			if (!miss)
				continue;
			batch[n] = pl->ports[j];
			parts[n++] = miss;
		}
		if (n)
			fmp_read(s, batch, parts, n, id);
	}
}

/* The ports and parts the `reach` instances from (col, position `from`)
 * of table `t` need, into the plan. */
static void
fmp_plan_add_walk(struct fmp_ports *ports, struct fmp_plan *pl, enum fmp_ifmib_table t,
		  unsigned int col, unsigned int from, unsigned int reach,
		  const netsnmp_agent_request_info *reqinfo)
{
	unsigned int last = fmp_ifmib_last_col(t);

	if (reach > FMP_PLAN_MAX)
		reach = FMP_PLAN_MAX;
	while (reach && col <= last && ports->rows.n) {
		struct fmp_port *p;

		if (from >= ports->rows.n) {
			col++;
			from = 0;
			continue;
		}
		p = ports->rows.by_ifindex[from++];
		if (!fmp_has_instance(t, col, p))
			continue;
		fmp_plan_add(pl, p, fmp_parts(ports, t, col, p, reqinfo));
		reach--;
	}
}

void
fmp_plan_walk(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	      unsigned int from, unsigned int reach, netsnmp_agent_request_info *reqinfo)
{
	struct fmp_plan pl = { .n = 0 };

	fmp_plan_add_walk(ports, &pl, t, col, from, reach, reqinfo);
	fmp_plan_run(ports, &pl, fmp_pdu_id(reqinfo));
}

/* The (column, ifIndex) an OID names in table `t`, for a GET: false when
 * it is not exactly an instance of a served column. */
static bool
fmp_instance_of(enum fmp_ifmib_table t, const oid *name, size_t len, unsigned int *col,
		uint32_t *ifindex)
{
	size_t elen = fmp_entry_len[t];

	if (len != elen + 2 || snmp_oid_compare(name, elen, fmp_entry_oid[t], elen) != 0)
		return false;
	if (name[elen] < 1 || name[elen] > fmp_ifmib_last_col(t) || name[elen + 1] < 1 ||
	    name[elen + 1] > FASTMIB_IFINDEX_MAX)
		return false;
	*col = (unsigned int)name[elen];
	*ifindex = (uint32_t)name[elen + 1];
	return true;
}

/*
 * The whole PDU, once: snmpd hands each registration (ifTable, ifXTable)
 * its varbinds in a call of its own, so the parts a port needs are only
 * known from the PDU itself. A GET names instances; a GETNEXT or GETBULK
 * starts walks of one instance (GETNEXT, non-repeaters) or of
 * max-repetitions instances at most (repeaters).
 */
void
fmp_plan_pdu(struct fmp_ports *ports, netsnmp_agent_request_info *reqinfo)
{
	const netsnmp_pdu *pdu = reqinfo->asp ? reqinfo->asp->pdu : NULL;
	struct fmp_plan pl = { .n = 0 };
	long id = fmp_pdu_id(reqinfo);
	unsigned int k = 0;

	if (!pdu || (ports->planned_valid && ports->planned_transid == id))
		return;
	ports->planned_valid = true;
	ports->planned_transid = id;
	for (const netsnmp_variable_list *vb = pdu->variables; vb; vb = vb->next_variable, k++) {
		for (unsigned int t = 0; t < 2; t++) {
			unsigned int col, pos, reach = 1;
			uint32_t ifindex;
			struct fmp_port *p;

			if (pdu->command == SNMP_MSG_GET) {
				if (fmp_instance_of(t, vb->name, vb->name_length, &col, &ifindex) &&
				    (p = fmp_rows_find(ports, ifindex)) && fmp_has_instance(t, col, p))
					fmp_plan_add(&pl, p, fmp_parts(ports, t, col, p, reqinfo));
				continue;
			}
			if (pdu->command == SNMP_MSG_GETBULK && k >= (unsigned int)pdu->non_repeaters)
				reach = pdu->max_repetitions > 0 ? (unsigned int)pdu->max_repetitions : 0;
			if (reach && fmp_table_next(ports, t, vb, false, &col, &p, &pos))
				fmp_plan_add_walk(ports, &pl, t, col, pos, reach, reqinfo);
		}
	}
	fmp_plan_run(ports, &pl, id);
}

static void
fmp_varbind_put(netsnmp_variable_list *vb, const struct fmp_ifv *v)
{
	static const oid zero[2] = { 0, 0 };
	struct counter64 c64;

	switch (v->type) {
	case FMP_IFV_INTEGER:
		snmp_set_var_typed_integer(vb, ASN_INTEGER, (long)v->num);
		break;
	case FMP_IFV_COUNTER32:
		snmp_set_var_typed_integer(vb, ASN_COUNTER, (long)v->num);
		break;
	case FMP_IFV_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE, (long)v->num);
		break;
	case FMP_IFV_TIMETICKS:
		snmp_set_var_typed_integer(vb, ASN_TIMETICKS, (long)v->num);
		break;
	case FMP_IFV_COUNTER64:
		/* each half below 2^32, as Net-SNMP's encoder needs */
		c64.high = v->num >> 32;
		c64.low = v->num & 0xffffffffu;
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
		break;
	case FMP_IFV_OCTETS:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, v->octets,
					 v->len > 255 ? 255 : v->len);
		break;
	case FMP_IFV_OID_ZERO:
		snmp_set_var_typed_value(vb, ASN_OBJECT_ID, zero, sizeof(zero));
		break;
	case FMP_IFV_NONE:
		break;
	}
}

int
fmp_fill(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	 struct fmp_port *p, netsnmp_agent_request_info *reqinfo, netsnmp_variable_list *vb)
{
	unsigned int parts;
	long id = fmp_pdu_id(reqinfo);
	struct fmp_ifmib_port ip = {
		.ifindex = p->entry->ifindex,
		.ifname = p->ifname,
		.device = p->name,
		.alias = p->entry->alias,
		.alias_len = p->entry->alias_len,
		.link_traps = p->entry->link_traps,
		.track = &p->track,
	};
	struct fmp_ifv v;

	if (!fmp_has_instance(t, col, p))
		return 0;
	parts = fmp_parts(ports, t, col, p, reqinfo);
	if (parts) {
		/* not planned ahead: this port alone */
		if (fmp_missing(p, id, parts)) {
			struct fmp_port *one = p;
			unsigned int miss = fmp_missing(p, id, parts);

			fmp_read(p->src, &one, &miss, 1, id);
		}
		if (p->pdu_failed)
			return -1;
	}
	fmp_ifmib_value(t, col, &ip, parts ? &p->pdu_rd : NULL, &v);
	if (v.type == FMP_IFV_NONE)
		return 0;
	fmp_varbind_put(vb, &v);
	return 1;
}

int
fmp_table_get(struct fmp_ports *ports, enum fmp_ifmib_table t,
	      netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r)
{
	unsigned int col;
	uint32_t ifindex;
	struct fmp_port *p;
	int rc;

	if (!fmp_instance_of(t, r->requestvb->name, r->requestvb->name_length, &col, &ifindex) ||
	    !(p = fmp_rows_find(ports, ifindex)))
		return 0; /* not ours */
	rc = fmp_fill(ports, t, col, p, reqinfo, r->requestvb);
	if (rc == 0)
		netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
	else if (rc < 0)
		netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
	return 1;
}

bool
fmp_table_next(const struct fmp_ports *ports, enum fmp_ifmib_table t,
	       const netsnmp_variable_list *vb, bool inclusive, unsigned int *colp,
	       struct fmp_port **portp, unsigned int *posp)
{
	const oid *entry = fmp_entry_oid[t];
	size_t elen = fmp_entry_len[t];
	unsigned int last = fmp_ifmib_last_col(t), col = 1, pos = 0;
	int cmp = snmp_oid_compare(vb->name, vb->name_length > elen ? elen : vb->name_length,
				   entry, elen);

	if (ports->rows.n == 0 || cmp > 0)
		return false;
	if (cmp == 0 && vb->name_length > elen) {
		if (vb->name[elen] > last)
			return false;
		if (vb->name[elen] >= 1) {
			col = (unsigned int)vb->name[elen];
			if (vb->name_length == elen + 2)
				pos = fmp_rows_from(ports, vb->name[elen + 1], inclusive);
			else if (vb->name_length > elen + 2)
				/* below an instance: the instances after it */
				pos = fmp_rows_from(ports, vb->name[elen + 1], false);
		}
	}
	for (; col <= last; col++, pos = 0) {
		for (; pos < ports->rows.n; pos++) {
			if (fmp_has_instance(t, col, ports->rows.by_ifindex[pos])) {
				*colp = col;
				*portp = ports->rows.by_ifindex[pos];
				*posp = pos;
				return true;
			}
		}
	}
	return false;
}
