/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Answers in the module and the standalone agent: the ports' handler in
 * the chain of a table's registration (snmpd's own ifTable and ifXTable,
 * or ours), answering a port's instances and passing the rest on, and
 * ifNumber counting the ports.
 */
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

/* Did snmpd's handlers answer this GETNEXT request? */
static bool
fmp_answered(const netsnmp_request_info *r)
{
	u_char type = r->requestvb->type;

	return type != ASN_NULL && type != ASN_PRIV_RETRY && type != SNMP_ENDOFMIBVIEW &&
	       type != SNMP_NOSUCHOBJECT && type != SNMP_NOSUCHINSTANCE;
}

/* How many instances a GETNEXT request of this PDU may still walk through:
 * the repetitions a GETBULK has left, one for a GETNEXT. */
static unsigned int
fmp_reach(const netsnmp_agent_request_info *reqinfo, const netsnmp_request_info *r)
{
	const netsnmp_pdu *pdu = reqinfo->asp ? reqinfo->asp->pdu : NULL;

	if (pdu && pdu->command == SNMP_MSG_GETBULK && r->repeat > 0)
		return (unsigned int)r->repeat + 1;
	return 1;
}

/*
 * GETNEXT through the table: each request's next instance of ours,
 * compared with the next one snmpd's handlers found (if any). A port
 * column without an instance after all (its xstats have no breakdown)
 * passes on to the following one.
 */
static int
fmp_table_getnext(struct fmp_tab *tab, netsnmp_mib_handler *handler,
		  netsnmp_handler_registration *reginfo, netsnmp_agent_request_info *reqinfo,
		  netsnmp_request_info *requests)
{
	struct fmp_ports *ports = tab->ports;
	size_t elen = fmp_entry_len[tab->t];
	unsigned int n = 0, i = 0;
	netsnmp_request_info *r;
	int ret = SNMP_ERR_NOERROR;
	struct fmp_from {
		oid name[MAX_OID_LEN];
		size_t len;
		bool incl;
	} *orig;
	bool planned = false;

	for (r = requests; r; r = r->next)
		n++;
	orig = malloc((n ? n : 1) * sizeof(*orig));
	if (!orig)
		return SNMP_ERR_GENERR;
	/* snmpd's handlers move a request's OID as they go: where it was */
	for (r = requests; r; r = r->next, i++) {
		orig[i].len = r->requestvb->name_length;
		memcpy(orig[i].name, r->requestvb->name, orig[i].len * sizeof(oid));
		orig[i].incl = r->inclusive;
	}
	/* before snmpd's handlers move the requests' OIDs */
	fmp_plan_pdu(ports, reqinfo);
	if (handler->next)
		ret = netsnmp_call_next_handler(handler, reginfo, reqinfo, requests);
	for (r = requests, i = 0; r; r = r->next, i++) {
		netsnmp_variable_list from = { 0 };
		bool incl = orig[i].incl;

		from.name = orig[i].name;
		from.name_length = orig[i].len;
		while (!(r->processed && r->status != SNMP_ERR_NOERROR)) {
			oid inst[FMP_IFMIB_IFXENTRY_LEN + 2];
			unsigned int col, pos;
			struct fmp_port *p;
			int rc;

			if (!fmp_table_next(ports, tab->t, &from, incl, &col, &p, &pos))
				break;
			memcpy(inst, fmp_entry_oid[tab->t], elen * sizeof(oid));
			inst[elen] = col;
			inst[elen + 1] = p->row.entry->ifindex;
			if (fmp_answered(r) && snmp_oid_compare(r->requestvb->name,
								r->requestvb->name_length,
								inst, elen + 2) < 0)
				break; /* snmpd's kernel row comes first */
			if (!planned) {
				fmp_plan_walk(ports, tab->t, col, pos, fmp_reach(reqinfo, r), reqinfo);
				planned = true;
			}
			rc = fmp_fill(ports, tab->t, col, p, reqinfo, r->requestvb);
			if (rc != 0) {
				snmp_set_var_objid(r->requestvb, inst, elen + 2);
				if (rc < 0)
					netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
				break;
			}
			/* no instance after all: on from it */
			memcpy(orig[i].name, inst, (elen + 2) * sizeof(oid));
			from.name_length = elen + 2;
			incl = false;
		}
	}
	free(orig);
	return ret;
}

/*
 * Requests for the table in the other modes: a port's instance is
 * answered here (GET, SET), the rest passed on alone, so that snmpd's
 * handlers never see an instance of ours.
 */
static int
fmp_table_other(struct fmp_tab *tab, netsnmp_mib_handler *handler,
		netsnmp_handler_registration *reginfo, netsnmp_agent_request_info *reqinfo,
		netsnmp_request_info *requests)
{
	struct fmp_ports *ports = tab->ports;
	size_t elen = fmp_entry_len[tab->t];
	netsnmp_request_info **next, *head = NULL, *tail = NULL, *r;
	unsigned int n = 0, i = 0;
	int ret = SNMP_ERR_NOERROR;

	for (r = requests; r; r = r->next)
		n++;
	next = malloc((n ? n : 1) * sizeof(*next));
	if (!next)
		return SNMP_ERR_GENERR;
	for (r = requests; r; r = r->next)
		next[i++] = r->next;
	if (reqinfo->mode == MODE_GET)
		fmp_plan_pdu(ports, reqinfo);
	for (r = requests, i = 0; r; r = next[i++]) {
		const netsnmp_variable_list *vb = r->requestvb;
		struct fmp_port *p = NULL;

		if (vb->name_length == elen + 2 &&
		    snmp_oid_compare(vb->name, elen, fmp_entry_oid[tab->t], elen) == 0 &&
		    vb->name[elen + 1] <= FME_IFINDEX_MAX)
			p = fmp_rows_find(ports, (uint32_t)vb->name[elen + 1]);
		if (!p) {
			if (tail)
				tail->next = r;
			else
				head = r;
			tail = r;
			continue;
		}
		if (r->processed)
			continue;
		if (reqinfo->mode == MODE_GET)
			fmp_table_get(ports, tab->t, reqinfo, r);
		else
			fmp_set(ports, tab->t, (unsigned int)vb->name[elen], p, reqinfo, r);
	}
	if (tail)
		tail->next = NULL;
	if (handler->next && head)
		ret = netsnmp_call_next_handler(handler, reginfo, reqinfo, head);
	for (r = requests, i = 0; r; r = r->next)
		r->next = next[i++];
	free(next);
	return ret;
}

int
fmp_table_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		  netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct fmp_tab *tab = handler->myvoid;

	if (reqinfo->mode == MODE_GETNEXT)
		return fmp_table_getnext(tab, handler, reginfo, reqinfo, requests);
	return fmp_table_other(tab, handler, reginfo, reqinfo, requests);
}

/* ifNumber: snmpd's count of its interfaces, and the ports served. */
int
fmp_ifnumber_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		     netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct fmp_ports *ports = handler->myvoid;
	int ret = SNMP_ERR_NOERROR;

	if (handler->next)
		ret = netsnmp_call_next_handler(handler, reginfo, reqinfo, requests);
	if (reqinfo->mode != MODE_GET)
		return ret;
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		long v = 0;

		if (handler->next) {
			if (r->requestvb->type != ASN_INTEGER || !r->requestvb->val.integer)
				continue;
			v = *r->requestvb->val.integer;
		}
		snmp_set_var_typed_integer(r->requestvb, ASN_INTEGER,
					   v + (long)ports->rows.n);
	}
	return ret;
}
