/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Net-SNMP handler of a segment: GET, GETNEXT (GETBULK arrives as
 * GETNEXT repetitions) and the dispatch of SET phases. Which object an OID
 * names, and which instance follows it, is the OID map's answer, asked
 * through oids.c.
 */
#include <errno.h>
#include <string.h>

#include "core_priv.h"

/* ---- requests ---- */

static void
fma_get(struct fma_seg *s, netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r)
{
	struct fastmib_oid_ref ref;
	int rc;

	switch (fma_lookup(s, r->requestvb, &ref)) {
	case FASTMIB_OID_INSTANCE:
		rc = fma_value(s, fma_request_id(reqinfo), &ref, r->requestvb);
		if (rc == 0)
			return;
		/* the segment shrank under us, or no consistent state to be
		 * had: not an answer */
		if (rc == -EIO || rc == -EBUSY || rc == -ENOMEM) {
			netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
			return;
		}
		/* the row went away meanwhile */
		__attribute__((fallthrough));
	case FASTMIB_OID_NO_INSTANCE:
		netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHINSTANCE);
		return;
	case FASTMIB_OID_NO_OBJECT:
		netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
		return;
	}
}

/*
 * The next instance after the varbind's OID, or none (unanswered: the
 * agent moves on past R). A walk must never end short without a word: a
 * segment that faults under the read, or rows that keep vanishing under
 * the lookup, answer genErr, which ends the walk with an error.
 */
static void
fma_getnext(struct fma_seg *s, netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r)
{
	const netsnmp_variable_list *vb = r->requestvb;
	uint64_t x[FASTMIB_OID_MAX_SUFFIX + 1];
	bool inclusive = r->inclusive;
	struct fastmib_oid_ref ref;
	size_t n;
	int rc;

	if (fma_place(s, vb->name, vb->name_length, x, &n) > 0)
		return; /* unanswered: the agent moves on past R */
	/* Bounded: a row found present may vanish before it is read; then
	 * look again after it. */
	for (int tries = 0; tries < 64;) {
		if (!fastmib_oidmap_next(s->map, &s->rows, x, n, inclusive, &ref))
			return;
		if (!fma_served(ref.kind)) {
			/* a column not served: past all of it at once (columns are
			 * finite: this ends) */
			n = fastmib_oidmap_column_end(s->map, &ref, x);
			inclusive = true;
			continue;
		}
		tries++;
		n = fastmib_oidmap_suffix(s->map, &ref, x);
		inclusive = false;
		rc = fma_value(s, fma_request_id(reqinfo), &ref, r->requestvb);
		if (rc == -EIO || rc == -EBUSY || rc == -ENOMEM)
			break;
		if (rc == 0) {
			oid name[MAX_OID_LEN];

			memcpy(name, s->root, s->root_len * sizeof(oid));
			for (size_t i = 0; i < n; i++)
				name[s->root_len + i] = (oid)x[i];
			snmp_set_var_objid(r->requestvb, name, s->root_len + n);
			return;
		}
	}
	netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
}

/* Might this request reach R.4 (so that it should see the newest records)? */
static bool
fma_touches_events(const struct fma_seg *s, int mode, netsnmp_request_info *requests)
{
	if (!s->ev || (mode != MODE_GET && mode != MODE_GETNEXT))
		return false;
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		const netsnmp_variable_list *vb = r->requestvb;
		uint64_t x[FASTMIB_OID_MAX_SUFFIX + 1];
		size_t n;

		if (r->processed)
			continue;
		if (fma_place(s, vb->name, vb->name_length, x, &n) == 0 &&
		    fastmib_oidmap_reaches_events(s->map, x, n, mode == MODE_GETNEXT))
			return true;
	}
	return false;
}

int
fma_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
	    netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	struct fma_seg *s = handler->myvoid;
	uint64_t x[FASTMIB_OID_MAX_SUFFIX + 1];
	size_t n;

	(void)reginfo;
	/* readings of a request without an identity last one call */
	fma_snaps_call(s);
	if (s->seg && fma_touches_events(s, reqinfo->mode, requests))
		fma_ev_poll(s);
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		if (r->processed)
			continue;
		if (!s->seg) {
			/* registered but not attached: the segment that was served
			 * is there but broken (see segments.c). Nothing to read for a
			 * GET; a GETNEXT must not skip it silently. */
			if (reqinfo->mode == MODE_GET)
				netsnmp_set_request_error(reqinfo, r, SNMP_NOSUCHOBJECT);
			else if (reqinfo->mode == MODE_GETNEXT &&
				 fma_place(s, r->requestvb->name, r->requestvb->name_length,
					   x, &n) <= 0)
				netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
			else if (reqinfo->mode == MODE_SET_RESERVE1)
				netsnmp_set_request_error(reqinfo, r,
							  SNMP_ERR_RESOURCEUNAVAILABLE);
			continue;
		}
		switch (reqinfo->mode) {
		case MODE_GET:
			fma_get(s, reqinfo, r);
			break;
		case MODE_GETNEXT:
			fma_getnext(s, reqinfo, r);
			break;
		default:
			fma_set_varbind(s, reqinfo, r);
			break;
		}
	}
	if (s->seg)
		fma_set_end(s, reqinfo, requests);
	return SNMP_ERR_NOERROR;
}
