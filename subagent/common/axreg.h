/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Registrations whose answer the agent knows. In a master agent (the
 * snmpd module, the standalone agent) registering in the agent's own
 * registry is all there is, and its result is the answer. In an AgentX
 * subagent Net-SNMP's registration call returns success whatever snmpd
 * answers (its AgentX callback logs "registering pdu failed: 263!"
 * without the subtree, and callback results are dropped), so here the
 * subagent registers in its own registry without a word to snmpd and
 * sends the Register PDU itself, asynchronously, taking snmpd's answer:
 *
 *   unsent   no session to snmpd: sent as soon as one opens
 *   pending  sent, no answer yet
 *   accepted snmpd routes the subtree's requests here
 *   refused  snmpd said no (duplicateRegistration, requestDenied, ...) or
 *            did not answer: sent again after fma_axreg_delay(), and
 *            whenever a new session opens
 *
 * Every registration is sent again, from the highest OID down, when the
 * subagent opens a new session (snmpd restarted): Net-SNMP's own re-sending
 * is kept off these subtrees. A registration snmpd did not accept is
 * withdrawn from the agent's registry only, never with an Unregister PDU:
 * snmpd 5.9 removes a subtree on an Unregister from any session, and the
 * one there is another subagent's.
 *
 * Single-threaded, as every Net-SNMP agent.
 */
#ifndef FMA_AXREG_H
#define FMA_AXREG_H

#include <stdbool.h>
#include <stddef.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

/** Longest delay between two tries of a refused registration, seconds. */
#define FMA_AXREG_DELAY_MAX 30u

/** Longest label of a registration, with its NUL. */
#define FMA_AXREG_LABEL_MAX 160u

/** fma_axreg_error(): snmpd did not answer in time, or it could not be sent. */
#define FMA_AXREG_NO_ANSWER (-1L)
#define FMA_AXREG_NOT_SENT  (-2L)

enum fma_axreg_state {
	FMA_AXREG_UNSENT,
	FMA_AXREG_PENDING,
	FMA_AXREG_ACCEPTED,
	FMA_AXREG_REFUSED,
};

struct fma_axreg;

/** Called with each answer (accepted or refused) of a registration. */
typedef void fma_axreg_answered(struct fma_axreg *r, void *arg);

/**
 * Register `reginfo` (handler, root, range, priority as the owner made
 * them). `label` names it in the agent's status (copied; "module X
 * (ROOT)", "ifTable"); `answered` (may be NULL) hears snmpd's answers.
 * Returns 0 with *rp set, or -EADDRINUSE when the agent's own registry
 * refuses it (then `reginfo` has been freed) or -ENOMEM. In a master
 * agent the registration is accepted on return and `answered` is never
 * called.
 */
int fma_axreg_register(netsnmp_handler_registration *reginfo, const char *label,
		       fma_axreg_answered *answered, void *arg, struct fma_axreg **rp);

/**
 * Withdraw the registration and free `r` (NULL: nothing). An Unregister
 * PDU goes to snmpd only for what it accepted from this session.
 * `leaving`: the agent is about to shut down; only `r` is freed: snmpd
 * drops a subagent's subtrees with its session (one pass over its
 * registry rather than one per subtree), and the agent's own registry
 * goes with the agent.
 */
void fma_axreg_unregister(struct fma_axreg *r, bool leaving);

enum fma_axreg_state fma_axreg_state(const struct fma_axreg *r);

/** The label it was registered with. */
const char *fma_axreg_label(const struct fma_axreg *r);

/** Is snmpd's answer "yes" (in a master agent: always)? NULL: no. */
bool fma_axreg_serving(const struct fma_axreg *r);

/** Why the last try was refused: an AgentX error (RFC 2741 section 6.2.16,
 * 256..268), FMA_AXREG_NO_ANSWER or FMA_AXREG_NOT_SENT; 0 if none. */
long fma_axreg_error(const struct fma_axreg *r);

/** The name of an AgentX error or of the two above, for messages:
 * "duplicateRegistration", "requestDenied", "no answer (timeout)"... */
const char *fma_axreg_error_name(long error);

/** Seconds before the next try after `refusals` refusals in a row (>= 1):
 * 1, 2, 4, ... up to FMA_AXREG_DELAY_MAX. */
unsigned int fma_axreg_delay(unsigned int refusals);

/**
 * The registrations as one line for people (fastmib-agentx's service
 * status): how many are accepted, pending, unsent, and the refused ones
 * by label and reason. Returns `buf`.
 */
const char *fma_axreg_summary(char *buf, size_t len);

/** `fn` is called after every change of any registration's state (one
 * watcher; NULL: none). */
void fma_axreg_watch(void (*fn)(void));

#endif /* FMA_AXREG_H */
