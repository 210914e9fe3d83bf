/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The readings of a request: one reading of a port per PDU at most (the
 * PDU's transaction id), planned ahead for every port the request will
 * reach, read in one query per application, the last reading when an
 * answer is late (or none: genErr), and the values put into varbinds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

/* Readings planned at once for a walk, at most (one query per source). */
#define FMP_PLAN_MAX 64u

/*
 * Parts of a reading a request needs for `col`. Over AgentX, snmpd sends a
 * GET's varbinds for one port in AgentX PDUs of their own (one per
 * registration), which cannot be planned together: a GET reads every part
 * of a port at once, so that they share one reading. A walk is planned
 * (fmp_plan_walk()), the Gets snmpd sends as it steps into each instance
 * of a walk included (ports->ax.in_walk).
 */
static unsigned int
fmp_parts(const struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	  const struct fmp_port *p, const netsnmp_agent_request_info *reqinfo)
{
	unsigned int parts = fmp_ifmib_parts(t, col, p->dev.cast_have);

	if (ports->mode == FMP_PORTS_AGENTX && reqinfo->mode == MODE_GET && parts &&
	    !ports->ax.in_walk)
		parts = fmp_port_parts(p);
	return parts;
}


/* The PDU's reading of `p` starts empty (a port not read for it yet). */
static void
fmp_pdu_begin(struct fmp_port *p, long id)
{
	if (p->req.valid && p->req.transid == id)
		return;
	p->req.valid = true;
	p->req.transid = id;
	p->req.failed = false;
	p->req.asked = 0;
	memset(&p->req.rd, 0, sizeof(p->req.rd));
	p->req.rd.port = p->id;
}

/*
 * An answer that did not come: the port's last parts serve if each is
 * younger than FMP_PORTS_MAX_AGE_MS, else the port has no reading for
 * this PDU (its varbinds answer genErr).
 */
static void
fmp_pdu_fallback(struct fmp_port *p, unsigned int parts, uint64_t now)
{
	for (unsigned int k = 0; k < FME_PORT_PARTS; k++) {
		if (!(parts & (1u << k)))
			continue;
		if (!(p->last.rd.parts & (1u << k)) ||
		    now - p->last.ns[k] > FMP_PORTS_MAX_AGE_MS * 1000000ull) {
			p->req.failed = true;
			p->src->gen_errs++;
			DEBUGMSGTL(("fastmib_ports", "%s: port %u: late answer, and no reading "
				    "of part %u younger than %u ms: genErr\n", p->src->epath,
				    p->id, k, FMP_PORTS_MAX_AGE_MS));
			return;
		}
	}
	fme_port_merge(&p->req.rd, &p->last.rd, parts);
	p->src->stale_served++;
	DEBUGMSGTL(("fastmib_ports", "%s: port %u: late answer: the last reading served\n",
		    p->src->epath, p->id));
}

/* Parts of the PDU's reading of `p` still to read for `parts`. */
static unsigned int
fmp_missing(const struct fmp_port *p, long id, unsigned int parts)
{
	if (!p->req.valid || p->req.transid != id)
		return parts;
	if (p->req.failed)
		return 0;
	return parts & ~p->req.rd.parts & ~p->req.asked;
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
	struct fme_port_ask asks[FMP_PLAN_MAX];
	struct fme_port_reading rd[FMP_PLAN_MAX];
	struct fmp_port *who[FMP_PLAN_MAX];
	uint64_t now = fastmib_monotonic_ns();
	unsigned int m = n;
	int rc = -ENOTCONN;

	for (unsigned int i = 0; i < n; i++) {
		fmp_pdu_begin(batch[i], id);
		who[i] = batch[i];
		asks[i].port = batch[i]->id;
		asks[i].parts = parts[i];
		batch[i]->req.asked |= parts[i];
	}
	/* a late application's answers come after this PDU, and the next
	 * query waits for them: every part of as many more ports as a plan
	 * holds is asked, the next ones in turn, so that all its readings
	 * stay young however many ports it has, and not only those this
	 * PDU needed */
	if (s->behind_ns) {
		unsigned int more = fmp_src_next_late(s, who + n, FMP_PLAN_MAX - n, batch, n);

		for (unsigned int i = n; i < n + more; i++) {
			asks[i].port = who[i]->id;
			asks[i].parts = 0;
		}
		m = n + more;
	}
	for (unsigned int i = 0; s->behind_ns && i < m; i++)
		asks[i].parts |= fmp_port_parts(who[i]);
	if (s->up && fme_tel_ready(s->tel)) {
		/* an application that missed its answers for longer than a
		 * hiccup is not waited for until they come (taken in without
		 * waiting); the check decides whether it is gone */
		int busy = s->behind_ns ? fme_tel_poll(s->tel) : 0;

		if (busy == -ECONNRESET || busy == -EPROTO) {
			rc = busy;
		} else if (busy != 0 && now - s->behind_ns >
			   (uint64_t)FMP_HICCUP_TIMEOUTS * s->owner->timeout_ms * 1000000u) {
			rc = -EBUSY;
		} else {
			s->req_exchanges++;
			DEBUGMSGTL(("fastmib_ports", "%s: %u port(s) from port %u: query for a "
				    "request\n", s->epath, n, asks[0].port));
			rc = fme_tel_read_ports(s->tel, asks, m, rd, s->owner->timeout_ms);
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
		if (!(rd[i].parts & FME_PORT_INFO) && (asks[i].parts & FME_PORT_INFO))
			continue;
		if ((rd[i].parts & FME_PORT_INFO) && strcmp(rd[i].name, p->dev.name) != 0)
			continue;
		fmp_port_take(p, &rd[i], now);
		if (i < n)
			fme_port_merge(&p->req.rd, &rd[i], parts[i]);
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
		fma_varbind_counter64(vb, v->num);
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
		.ifindex = p->row.entry->ifindex,
		.ifname = p->row.ifname,
		.device = p->dev.name,
		.alias = p->row.entry->alias,
		.alias_len = p->row.entry->alias_len,
		.link_traps = p->row.entry->link_traps,
		.track = &p->hist.track,
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
		if (p->req.failed)
			return -1;
	}
	fmp_ifmib_value(t, col, &ip, parts ? &p->req.rd : NULL, &v);
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
