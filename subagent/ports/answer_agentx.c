/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Answers over AgentX: each port instance is a subtree of its own (a
 * registration of a run of ifIndex values, expanded by snmpd), answered
 * here, with the walk a request belongs to read ahead.
 */
#include "ports_priv.h"

/* How far an AgentX walk is read ahead at least: a GETBULK's usual
 * max-repetitions (snmp_exporter's default). */
#define FMP_AGENTX_REACH 25u

/*
 * A walk over AgentX: snmpd sends one GetNext per repetition, and a Get
 * where the walk steps into an instance of ours (each instance is a
 * subtree of its own), all with the request's transaction id; the
 * subagent never sees how many repetitions the request has. A request in
 * which a GetNext came is a walk's; it reads ahead as far as the longest
 * walk seen lately went (FMP_AGENTX_REACH at least), the parts of each
 * column, in one query, so that a port is read once in the request.
 */
static void
fmp_agentx_request(struct fmp_ports *ports, netsnmp_agent_request_info *reqinfo)
{
	struct fmp_agentx_walk *w = &ports->ax;
	long id = fmp_pdu_id(reqinfo);

	if (id != w->id) {
		if (w->count > w->reach || w->reach < FMP_AGENTX_REACH)
			w->reach = w->count > FMP_AGENTX_REACH ? w->count
					: FMP_AGENTX_REACH;
		w->id = id;
		w->count = 0;
		w->in_walk = false;
	}
	if (reqinfo->mode == MODE_GETNEXT)
		w->in_walk = true;
}

static void
fmp_plan_agentx(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
		struct fmp_port *p, netsnmp_agent_request_info *reqinfo)
{
	long id = fmp_pdu_id(reqinfo);

	if (!ports->ax.in_walk || (p->req.valid && p->req.transid == id))
		return;
	fmp_plan_walk(ports, t, col, fmp_rows_from(ports, p->row.entry->ifindex, true),
		      ports->ax.reach, reqinfo);
}

/*
 * A port instance of one AgentX registration: the registry hands each
 * expanded subtree its own copy, its instance OID in rootoid.
 */
int
fmp_instance_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		     netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct fmp_ports *ports = handler->myvoid;
	enum fmp_ifmib_table t;
	unsigned int col;
	struct fmp_port *p;

	if (reginfo->rootoid_len == FMP_IFMIB_IFENTRY_LEN + 2 &&
	    snmp_oid_compare(reginfo->rootoid, FMP_IFMIB_IFENTRY_LEN,
			     fmp_entry_oid[FMP_IFTABLE], FMP_IFMIB_IFENTRY_LEN) == 0)
		t = FMP_IFTABLE;
	else if (reginfo->rootoid_len == FMP_IFMIB_IFXENTRY_LEN + 2)
		t = FMP_IFXTABLE;
	else
		return SNMP_ERR_GENERR;
	col = (unsigned int)reginfo->rootoid[fmp_entry_len[t]];
	p = fmp_rows_find(ports, (uint32_t)reginfo->rootoid[fmp_entry_len[t] + 1]);
	fmp_agentx_request(ports, reqinfo);
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		netsnmp_variable_list *vb = r->requestvb;
		int cmp = snmp_oid_compare(vb->name, vb->name_length, reginfo->rootoid,
					   reginfo->rootoid_len);
		int rc;

		if (r->processed)
			continue;
		switch (reqinfo->mode) {
		case MODE_GET:
			if (cmp == 0 && p)
				fmp_plan_agentx(ports, t, col, p, reqinfo);
			rc = cmp == 0 && p ? fmp_fill(ports, t, col, p, reqinfo, vb) : 0;
			ports->ax.count += rc > 0;
			if (rc <= 0)
				netsnmp_set_request_error(reqinfo, r, rc < 0 ? SNMP_ERR_GENERR
							  : SNMP_NOSUCHINSTANCE);
			break;
		case MODE_GETNEXT:
			if (!p || cmp > 0 || (cmp == 0 && !r->inclusive))
				break; /* unanswered: the agent moves on */
			fmp_plan_agentx(ports, t, col, p, reqinfo);
			rc = fmp_fill(ports, t, col, p, reqinfo, vb);
			ports->ax.count += rc > 0;
			if (rc != 0)
				snmp_set_var_objid(vb, reginfo->rootoid, reginfo->rootoid_len);
			if (rc < 0)
				netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
			break;
		default:
			if (!p || cmp != 0)
				netsnmp_set_request_error(reqinfo, r, SNMP_ERR_NOCREATION);
			else
				fmp_set(ports, t, col, p, reqinfo, r);
			break;
		}
	}
	return SNMP_ERR_NOERROR;
}
