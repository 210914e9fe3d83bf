/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SET of a port's ifAlias and ifLinkUpDownTrapEnable (the only writable
 * columns), kept in the port map and its file in the state directory.
 *
 * Net-SNMP's phases (RFC 3416's two): RESERVE1 checks each value (type,
 * length, range: wrongType, wrongLength, wrongValue; any other column is
 * notWritable); RESERVE2 stores it, in the map and the map's file (a file
 * that cannot be written fails the SET with resourceUnavailable, with
 * nothing stored); FREE (a later varbind failed its checks) and UNDO put
 * the old value back; COMMIT keeps it. Only snmpd decides who may SET
 * (VACM): a read-only community never reaches this.
 *
 * The changes of one request are kept by its transaction id: over AgentX,
 * snmpd sends the phases as separate PDUs of that one id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

struct fmp_change {
	struct fmp_port *port;          /* for the log only while in RESERVE1..COMMIT */
	struct fme_portmap_entry *e;
	const netsnmp_variable_list *vb;
	bool alias;                     /* else ifLinkUpDownTrapEnable */
	uint8_t val[FME_IFALIAS_MAX];
	size_t len;
	int traps;
	uint8_t old[FME_IFALIAS_MAX];
	size_t old_len;
	int old_traps;
	bool applied, done;
};

struct fmp_set_txn {
	long id;
	struct fmp_change *c;
	unsigned int n, cap;
};

/* Put entry values back (a SET that did not complete). */
static void
fmp_revert(struct fmp_change *c)
{
	if (c->alias) {
		memcpy(c->e->alias, c->old, c->old_len);
		c->e->alias_len = c->old_len;
	} else {
		c->e->link_traps = c->old_traps;
	}
	c->applied = false;
}

/* The transaction `id`; a new one ends an earlier that never finished. */
static struct fmp_set_txn *
fmp_txn(struct fmp_ports *ports, long id)
{
	struct fmp_set_txn *txn = ports->txn;
	bool reverted = false;

	if (txn && txn->id == id)
		return txn;
	if (txn) {
		for (unsigned int i = 0; i < txn->n; i++)
			if (txn->c[i].applied && !txn->c[i].done) {
				fmp_revert(&txn->c[i]);
				reverted = true;
			}
		if (reverted)
			fmp_map_save(ports);
		free(txn->c);
		free(txn);
	}
	txn = calloc(1, sizeof(*txn));
	ports->txn = txn;
	if (txn)
		txn->id = id;
	return txn;
}

static struct fmp_change *
fmp_change_of(struct fmp_set_txn *txn, const netsnmp_variable_list *vb)
{
	for (unsigned int i = 0; i < txn->n; i++)
		if (txn->c[i].vb == vb)
			return &txn->c[i];
	return NULL;
}

/* RESERVE1: the value checked, the change noted. */
static int
fmp_check(struct fmp_set_txn *txn, enum fmp_ifmib_table t, unsigned int col,
	  struct fmp_port *p, const netsnmp_variable_list *vb)
{
	struct fmp_change *c;
	int err;

	if (!fmp_ifmib_writable(t, col))
		return SNMP_ERR_NOTWRITABLE;
	if (col == FMP_IFX_ALIAS) {
		/* RFC 2863: ifAlias is a DisplayString of 0..64 octets */
		err = netsnmp_check_vb_type(vb, ASN_OCTET_STR);
		if (err == SNMP_ERR_NOERROR && vb->val_len > FME_IFALIAS_MAX)
			err = SNMP_ERR_WRONGLENGTH;
	} else {
		err = netsnmp_check_vb_type(vb, ASN_INTEGER);
		if (err == SNMP_ERR_NOERROR)
			err = netsnmp_check_vb_int_range(vb, FME_LINK_TRAPS_ENABLED,
							 FME_LINK_TRAPS_DISABLED);
	}
	if (err != SNMP_ERR_NOERROR)
		return err;
	if (txn->n == txn->cap) {
		unsigned int cap = txn->cap ? 2 * txn->cap : 4;
		struct fmp_change *grown = realloc(txn->c, cap * sizeof(*grown));

		if (!grown)
			return SNMP_ERR_RESOURCEUNAVAILABLE;
		txn->c = grown;
		txn->cap = cap;
	}
	c = &txn->c[txn->n++];
	memset(c, 0, sizeof(*c));
	c->port = p;
	c->e = p->row.entry;
	c->vb = vb;
	c->alias = col == FMP_IFX_ALIAS;
	if (c->alias) {
		c->len = vb->val_len;
		memcpy(c->val, vb->val.string, c->len);
	} else {
		c->traps = (int)*vb->val.integer;
	}
	return SNMP_ERR_NOERROR;
}

/* RESERVE2: stored in the map and its file, or nothing stored. */
static int
fmp_store(struct fmp_ports *ports, struct fmp_change *c)
{
	int rc;

	if (c->applied)
		return SNMP_ERR_NOERROR;
	memcpy(c->old, c->e->alias, c->e->alias_len);
	c->old_len = c->e->alias_len;
	c->old_traps = c->e->link_traps;
	if (c->alias) {
		memcpy(c->e->alias, c->val, c->len);
		c->e->alias_len = c->len;
	} else {
		c->e->link_traps = c->traps;
	}
	c->applied = true;
	rc = fme_portmap_save(ports->map);
	/* no state directory, or a file kept as the operator left it: the
	 * value lives in memory (said once) */
	if (rc == -ENOENT || rc == -EINVAL) {
		fmp_map_save(ports);
		return SNMP_ERR_NOERROR;
	}
	if (rc < 0) {
		snmp_log(LOG_ERR, "fastmib: ports: SET not stored: %s",
			 fme_portmap_errors(ports->map));
		fmp_revert(c);
		return SNMP_ERR_RESOURCEUNAVAILABLE;
	}
	return SNMP_ERR_NOERROR;
}

static void
fmp_log_change(const struct fmp_change *c)
{
	char text[4 * FME_IFALIAS_MAX + 1];

	if (c->alias)
		snmp_log(LOG_INFO, "fastmib: ports %s: ifIndex %u: ifAlias set to \"%s\"\n",
			 c->port->src->epath, c->e->ifindex,
			 fme_escape((const char *)c->val, c->len, text, sizeof(text)));
	else
		snmp_log(LOG_INFO, "fastmib: ports %s: ifIndex %u: ifLinkUpDownTrapEnable set "
			 "to %s\n", c->port->src->epath, c->e->ifindex,
			 c->traps == FME_LINK_TRAPS_ENABLED ? "enabled(1)" : "disabled(2)");
}

int
fmp_set(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	struct fmp_port *p, netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r)
{
	struct fmp_set_txn *txn = fmp_txn(ports, fmp_pdu_id(reqinfo));
	struct fmp_change *c = txn ? fmp_change_of(txn, r->requestvb) : NULL;
	int err = SNMP_ERR_NOERROR;

	if (!txn) {
		netsnmp_set_request_error(reqinfo, r, SNMP_ERR_RESOURCEUNAVAILABLE);
		return 0;
	}
	switch (reqinfo->mode) {
	case MODE_SET_RESERVE1:
		err = fmp_check(txn, t, col, p, r->requestvb);
		break;
	case MODE_SET_RESERVE2:
		if (c)
			err = fmp_store(ports, c);
		break;
	case MODE_SET_ACTION:
		break;
	case MODE_SET_COMMIT:
		if (c && c->applied && !c->done) {
			c->done = true;
			fmp_log_change(c);
		}
		break;
	case MODE_SET_FREE:
	case MODE_SET_UNDO:
		if (c && c->applied && !c->done) {
			fmp_revert(c);
			fmp_map_save(ports);
		}
		break;
	default:
		break;
	}
	if (err != SNMP_ERR_NOERROR)
		netsnmp_set_request_error(reqinfo, r, err);
	return 0;
}

void
fmp_set_free(struct fmp_ports *ports)
{
	if (ports->txn) {
		free(ports->txn->c);
		free(ports->txn);
		ports->txn = NULL;
	}
}
