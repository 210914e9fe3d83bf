/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SET of the reset objects (TruthValue: true(1) resets, false(2) does
 * nothing), in Net-SNMP's phases: RESERVE1 checks, ACTION prepares the
 * resets, COMMIT stores them, FREE and UNDO drop them. Only snmpd's access
 * control decides who may SET; this file only decides what a SET means.
 */
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

/*
 * ACTION: for true(1), take the reset's snapshots (false(2) is accepted and
 * does nothing). Everything that can fail fails here, where a failure is
 * answered commitFailed in every front end and no varbind has changed
 * anything yet; COMMIT then stores the baselines and cannot fail. (An
 * AgentX subagent runs COMMIT on the master's CleanupSet, whose outcome is
 * never reported: failing there would be answered noError.)
 */
static int
fma_set_action(struct fma_seg *s, const netsnmp_variable_list *vb)
{
	struct fastmib_reset_plan *plan;
	struct fastmib_oid_ref ref;

	if (*vb->val.integer != 1)
		return SNMP_ERR_NOERROR;
	if (fma_lookup(s, vb, &ref) != FASTMIB_OID_INSTANCE || ref.kind != FASTMIB_OID_RESET)
		return SNMP_ERR_COMMITFAILED;
	if (s->n_plans == s->cap_plans) {
		unsigned int cap = s->cap_plans ? 2 * s->cap_plans : 8;
		struct fastmib_reset_plan **p = realloc(s->plans, cap * sizeof(*p));

		if (!p)
			return SNMP_ERR_RESOURCEUNAVAILABLE;
		s->plans = p;
		s->cap_plans = cap;
	}
	/* group -1: ResetAll */
	if (fastmib_reset_prepare(s->seg, ref.group, ref.row, &plan) < 0) {
		snmp_log(LOG_ERR, "fastmib: %s: reset failed: %s\n", s->path,
			 fastmib_last_error());
		return SNMP_ERR_COMMITFAILED;
	}
	s->plans[s->n_plans++] = plan;
	DEBUGMSGTL(("fastmib", "%s: reset %s row %" PRIu32 " prepared\n", s->path,
		    ref.group >= 0 ? s->schema->groups[ref.group].name : "(all)", ref.row));
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
		err = fma_set_action(s, r->requestvb);
		break;
	default: /* RESERVE2, COMMIT, FREE, UNDO: per call, in fma_set_end() */
		return;
	}
	if (err != SNMP_ERR_NOERROR)
		netsnmp_set_request_error(reqinfo, r, err);
}

/* COMMIT stores the prepared resets (once per handler call, not per
 * varbind); anything else drops them. */
static void
fma_set_finish(struct fma_seg *s, bool commit)
{
	for (unsigned int i = 0; i < s->n_plans; i++) {
		if (!commit)
			fastmib_reset_abort(s->plans[i]);
		else if (fastmib_reset_commit(s->plans[i]) < 0)
			snmp_log(LOG_ERR, "fastmib: %s: reset failed: %s\n", s->path,
				 fastmib_last_error());
	}
	s->n_plans = 0;
}

void
fma_set_end(struct fma_seg *s, int mode)
{
	/* a SET starts with RESERVE1 (drop what an aborted one left) and ends
	 * with COMMIT, FREE or UNDO */
	if (mode == MODE_SET_COMMIT)
		fma_set_finish(s, true);
	else if (mode == MODE_SET_RESERVE1 || mode == MODE_SET_FREE || mode == MODE_SET_UNDO)
		fma_set_finish(s, false);
}

void
fma_set_abort(struct fma_seg *s)
{
	fma_set_finish(s, false);
}
