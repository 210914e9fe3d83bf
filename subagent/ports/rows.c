/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The served rows as requests see them: the ports served, in ifIndex
 * order, found by ifIndex or from one on, the instances each has, and the
 * instance that follows an OID in a table.
 */
#include <stdlib.h>

#include "ports_priv.h"

const oid fmp_entry_oid[2][FMP_IFMIB_IFXENTRY_LEN] = {
	{ FMP_IFMIB_IFENTRY },
	{ FMP_IFMIB_IFXENTRY },
};
const size_t fmp_entry_len[2] = { FMP_IFMIB_IFENTRY_LEN, FMP_IFMIB_IFXENTRY_LEN };

static int
cmp_ifindex(const void *a, const void *b)
{
	uint32_t x = (*(struct fmp_port *const *)a)->row.entry->ifindex;
	uint32_t y = (*(struct fmp_port *const *)b)->row.entry->ifindex;

	return (x > y) - (x < y);
}

void
fmp_rows_sync(struct fmp_ports *ports)
{
	struct fmp_rows *rows = &ports->rows;
	unsigned int n = 0;

	for (unsigned int i = 0; i < ports->n_srcs; i++)
		for (unsigned int j = 0; j < ports->srcs[i]->n_ports; j++)
			n += ports->srcs[i]->ports[j]->row.served;
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
			if (ports->srcs[i]->ports[j]->row.served)
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
		uint64_t v = ports->rows.by_ifindex[mid]->row.entry->ifindex;

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

	return i < ports->rows.n && ports->rows.by_ifindex[i]->row.entry->ifindex == ifindex
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
	return !mask || p->dev.cast_have < 0 || ((unsigned int)p->dev.cast_have & mask);
}

/* The (column, ifIndex) an OID names in table `t`, for a GET: false when
 * it is not exactly an instance of a served column. */
bool
fmp_instance_of(enum fmp_ifmib_table t, const oid *name, size_t len, unsigned int *col,
		uint32_t *ifindex)
{
	size_t elen = fmp_entry_len[t];

	if (len != elen + 2 || snmp_oid_compare(name, elen, fmp_entry_oid[t], elen) != 0)
		return false;
	if (name[elen] < 1 || name[elen] > fmp_ifmib_last_col(t) || name[elen + 1] < 1 ||
	    name[elen + 1] > FME_IFINDEX_MAX)
		return false;
	*col = (unsigned int)name[elen];
	*ifindex = (uint32_t)name[elen + 1];
	return true;
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
