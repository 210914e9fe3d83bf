/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SET of the reset objects (TruthValue: true(1) resets, false(2) does
 * nothing), in Net-SNMP's phases. Only snmpd's access control decides who
 * may SET; this file only decides what a SET means.
 *
 *   RESERVE1  every check of every varbind (RFC 3416 4.2.5 order)
 *   ACTION    each varbind names a target: the module, a scalar group or
 *             a table row. Targets are coalesced (a repeated one counts
 *             once; ResetAll covers all), so the work of a PDU is bounded
 *             by what it resets, not by how many varbinds say so. After
 *             the last varbind the targets' snapshots are taken and stored
 *             under one hold of the reset lock: all of them or none.
 *   COMMIT    nothing is left to do
 *   UNDO      a reset stored in ACTION cannot be taken back: undoFailed
 *
 * Everything that can fail therefore fails in ACTION, where a failure is
 * answered commitFailed in every front end (an AgentX subagent runs
 * COMMIT on the master's CleanupSet, whose outcome is never reported, so a
 * store that failed there would be answered noError). A PDU that also
 * sets objects of another registration, which then fail, gets undoFailed:
 * the resets of this one have happened.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "core_priv.h"

/* RESERVE1: every check, in the order of RFC 3416 section 4.2.5. */
static int
fma_set_check(const struct fma_seg *s, const netsnmp_variable_list *vb)
{
	struct fastmib_oid_ref ref;
	enum fastmib_oid_found f = fma_lookup(s, vb, &ref);
	int err;

	if (f == FASTMIB_OID_NO_OBJECT || ref.kind != FASTMIB_OID_RESET)
		return SNMP_ERR_NOTWRITABLE;
	err = netsnmp_check_vb_truthvalue(vb);
	if (err != SNMP_ERR_NOERROR)
		return err;
	if (f != FASTMIB_OID_INSTANCE)
		return SNMP_ERR_NOCREATION;
	if (!s->writable)
		return SNMP_ERR_RESOURCEUNAVAILABLE;
	return SNMP_ERR_NOERROR;
}

/* Add a target unless one already in the list covers it. */
static int
fma_target_add(struct fma_seg *s, int group, uint32_t row, netsnmp_request_info *r)
{
	struct fma_target *t;

	if (s->all_target)
		return 0; /* ResetAll covers everything */
	if (group < 0) {
		s->all_target = r;
		s->n_targets = 0;
		return 0;
	}
	for (unsigned int i = 0; i < s->n_targets; i++)
		if (s->targets[i].group == group && s->targets[i].row == row)
			return 0;
	if (s->n_targets == s->cap_targets) {
		unsigned int cap = s->cap_targets ? 2 * s->cap_targets : 8;

		t = realloc(s->targets, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		s->targets = t;
		s->cap_targets = cap;
	}
	s->targets[s->n_targets++] = (struct fma_target){ group, row, r };
	return 0;
}

/* ACTION of one varbind: for true(1), note its target (false(2) is
 * accepted and does nothing). */
static int
fma_set_action(struct fma_seg *s, netsnmp_request_info *r)
{
	const netsnmp_variable_list *vb = r->requestvb;
	struct fastmib_oid_ref ref;

	if (*vb->val.integer != FASTMIB_TRUTH_TRUE)
		return SNMP_ERR_NOERROR;
	if (fma_lookup(s, vb, &ref) != FASTMIB_OID_INSTANCE || ref.kind != FASTMIB_OID_RESET)
		return SNMP_ERR_COMMITFAILED;
	/* ref.group -1: ResetAll */
	if (fma_target_add(s, ref.group, ref.row, r) < 0)
		return SNMP_ERR_RESOURCEUNAVAILABLE;
	return SNMP_ERR_NOERROR;
}

void
fma_set_varbind(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
		netsnmp_request_info *r)
{
	int err;

	switch (reqinfo->mode) {
	case MODE_SET_RESERVE1:
		err = fma_set_check(s, r->requestvb);
		break;
	case MODE_SET_ACTION:
		err = fma_set_action(s, r);
		break;
	default: /* RESERVE2, COMMIT, FREE, UNDO: per call, in fma_set_end() */
		return;
	}
	if (err != SNMP_ERR_NOERROR)
		netsnmp_set_request_error(reqinfo, r, err);
}

static void
fma_targets_clear(struct fma_seg *s)
{
	s->n_targets = 0;
	s->all_target = NULL;
}

static void
fma_reset_failed(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
		 netsnmp_request_info *r, const char *what)
{
	snmp_log(LOG_ERR, "fastmib: %s: reset %s: %s\n", s->path, what, fastmib_last_error());
	netsnmp_set_request_error(reqinfo, r, SNMP_ERR_COMMITFAILED);
}

/*
 * After the last varbind of ACTION: snapshots of every target, then one
 * commit of them all. The first failure is answered on the varbind that
 * named its target; nothing is stored then.
 */
static void
fma_set_apply(struct fma_seg *s, netsnmp_agent_request_info *reqinfo)
{
	unsigned int n = s->all_target ? 1 : s->n_targets, done = 0;
	struct fastmib_reset_plan **plans;
	netsnmp_request_info *first;

	if (n == 0)
		return;
	first = s->all_target ? s->all_target : s->targets[0].request;
	plans = calloc(n, sizeof(*plans));
	if (!plans) {
		netsnmp_set_request_error(reqinfo, first, SNMP_ERR_RESOURCEUNAVAILABLE);
		return;
	}
	for (; done < n; done++) {
		int group = s->all_target ? -1 : s->targets[done].group;
		uint32_t row = s->all_target ? 0 : s->targets[done].row;

		if (fastmib_reset_prepare(s->seg, group, row, &plans[done]) < 0) {
			fma_reset_failed(s, reqinfo, s->all_target ? s->all_target :
				       s->targets[done].request, "not done");
			break;
		}
	}
	if (done < n) {
		for (unsigned int i = 0; i < done; i++)
			fastmib_reset_abort(plans[i]);
	} else if (fastmib_reset_commit_all(plans, n) < 0) {
		fma_reset_failed(s, reqinfo, first, "not stored");
	} else {
		s->set_stored = true;
		DEBUGMSGTL(("fastmib", "%s: %u reset target(s) stored\n", s->path, n));
	}
	free(plans);
}

void
fma_set_end(struct fma_seg *s, netsnmp_agent_request_info *reqinfo,
	    netsnmp_request_info *requests)
{
	switch (reqinfo->mode) {
	case MODE_SET_RESERVE1: /* a new SET: forget what an aborted one left */
		fma_targets_clear(s);
		s->set_stored = false;
		break;
	case MODE_SET_ACTION:
		fma_set_apply(s, reqinfo);
		fma_targets_clear(s);
		break;
	case MODE_SET_UNDO:
		if (s->set_stored) {
			for (netsnmp_request_info *r = requests; r; r = r->next)
				if (r->requestvb->type == ASN_INTEGER &&
				    *r->requestvb->val.integer == FASTMIB_TRUTH_TRUE) {
					netsnmp_set_request_error(reqinfo, r,
								  SNMP_ERR_UNDOFAILED);
					break;
				}
			snmp_log(LOG_WARNING, "fastmib: %s: a SET failed after its resets "
				 "were stored; they stay (undoFailed)\n", s->path);
		}
		s->set_stored = false;
		break;
	case MODE_SET_COMMIT:
	case MODE_SET_FREE:
		s->set_stored = false;
		break;
	default:
		break;
	}
}

void
fma_set_abort(struct fma_seg *s)
{
	fma_targets_clear(s);
	s->set_stored = false;
}
