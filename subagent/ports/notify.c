/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * linkUp and linkDown (RFC 2863) for the ports: sent when a port that is
 * served sees its ifOperStatus change (at a request or at the periodic
 * check), with ifIndex, ifAdminStatus and ifOperStatus, through the trap
 * sinks of whatever serves the rows (snmpd's, over AgentX or in the
 * module; the agent's own when standalone). A port that appears or goes
 * with its application sends nothing: its row appears or goes.
 *
 * ifLinkUpDownTrapEnable of each port (the port map) and the ports' rate
 * (fmp_ports_config_link_trap_rate(): a token bucket, 0 = none) decide; what
 * the limit holds back is counted and said at most once a second.
 * Notifications found inside a request are queued and sent from the main
 * loop (an alarm), never from inside the request.
 */
#include <stdlib.h>

#include "ports_priv.h"

static const oid fmp_trap_oid_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };
static const oid fmp_link_down[] = { 1, 3, 6, 1, 6, 3, 1, 1, 5, 3 };
static const oid fmp_link_up[] = { 1, 3, 6, 1, 6, 3, 1, 1, 5, 4 };

struct fmp_trap {
	struct fmp_trap *next;
	uint32_t ifindex;
	int admin, oper;
};

static void
fmp_trap_alarm(unsigned int reg, void *arg)
{
	struct fmp_ports *ports = arg;

	(void)reg;
	ports->trap_alarm = 0;
	fmp_notify_flush(ports);
}

void
fmp_notify_oper(struct fmp_port *p, int oper)
{
	struct fmp_ports *ports = p->src->owner;
	struct fmp_trap *t, **tail;

	if (!p->row.served || !p->row.entry || ports->trap_rate == 0 ||
	    p->row.entry->link_traps != FME_LINK_TRAPS_ENABLED)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	t->ifindex = p->row.entry->ifindex;
	t->admin = p->hist.track.admin ? p->hist.track.admin : FMP_IF_UP;
	t->oper = oper;
	for (tail = &ports->traps; *tail; tail = &(*tail)->next)
		;
	*tail = t;
	if (!ports->trap_alarm)
		ports->trap_alarm = snmp_alarm_register(0, 0, fmp_trap_alarm, ports);
}

static void
fmp_send(const struct fmp_trap *t)
{
	netsnmp_variable_list *vars = NULL;
	oid name[FMP_IFMIB_IFENTRY_LEN + 2] = { FMP_IFMIB_IFENTRY };
	const oid *trap = t->oper == FMP_IF_UP ? fmp_link_up : fmp_link_down;
	static const unsigned int cols[3] = { FMP_IF_INDEX, FMP_IF_ADMIN_STATUS,
					      FMP_IF_OPER_STATUS };
	const long vals[3] = { (long)t->ifindex, t->admin, t->oper };

	snmp_varlist_add_variable(&vars, fmp_trap_oid_oid, OID_LENGTH(fmp_trap_oid_oid),
				  ASN_OBJECT_ID, trap, OID_LENGTH(fmp_link_up) * sizeof(oid));
	name[FMP_IFMIB_IFENTRY_LEN + 1] = t->ifindex;
	for (unsigned int k = 0; k < 3; k++) {
		name[FMP_IFMIB_IFENTRY_LEN] = cols[k];
		snmp_varlist_add_variable(&vars, name, FMP_IFMIB_IFENTRY_LEN + 2, ASN_INTEGER,
					  &vals[k], sizeof(vals[k]));
	}
	/* Net-SNMP puts sysUpTime first */
	send_v2trap(vars);
	snmp_free_varbind(vars);
}

void
fmp_notify_flush(struct fmp_ports *ports)
{
	while (ports->traps) {
		struct fmp_trap *t = ports->traps;

		ports->traps = t->next;
		if (fma_limit_take(&ports->link_limit)) {
			fmp_send(t);
			DEBUGMSGTL(("fastmib_ports", "%s ifIndex %u\n", t->oper == FMP_IF_UP
				    ? "linkUp" : "linkDown", t->ifindex));
		}
		free(t);
	}
	fma_limit_log(&ports->link_limit, false);
}

void
fmp_notify_free(struct fmp_ports *ports)
{
	if (ports->trap_alarm)
		snmp_alarm_unregister(ports->trap_alarm);
	ports->trap_alarm = 0;
	while (ports->traps) {
		struct fmp_trap *t = ports->traps;

		ports->traps = t->next;
		free(t);
	}
}
