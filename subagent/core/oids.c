/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OIDs of a served segment: where a varbind's name stands below the
 * segment's root, which object it names (the OID map's answer), and the
 * OID map's view of the segment (present rows, event records). The
 * handler (GET, GETNEXT) and SET both ask here.
 */
#include "core_priv.h"

/* ---- the segment as the OID map sees it ---- */

static int64_t
fma_rows_next_row(void *ctx, unsigned int group, uint32_t row)
{
	const struct fma_seg *s = ctx;
	int64_t r = fastmib_next_row(s->seg, group, row);

	return r < 0 ? -1 : r;
}

static bool
fma_rows_present(void *ctx, unsigned int group, uint32_t row)
{
	const struct fma_seg *s = ctx;

	return fastmib_row_present(s->seg, group, row);
}

static int64_t
fma_rows_next_event(void *ctx, uint64_t from, uint32_t min_args)
{
	const struct fma_seg *s = ctx;

	return s->ev ? fma_evhist_next(&s->ev->hist, from, min_args) : -1;
}

static bool
fma_rows_event(void *ctx, uint64_t num, uint32_t *n_args)
{
	const struct fma_seg *s = ctx;

	return s->ev && fma_evhist_get(&s->ev->hist, num, n_args) != NULL;
}

static int64_t
fma_rows_keyed_find(void *ctx, unsigned int group, const uint8_t *key, size_t len)
{
	const struct fma_seg *s = ctx;
	int64_t r = fastmib_keyed_find(s->seg, group, key, len);

	return r < 0 ? -1 : r;
}

static int64_t
fma_rows_keyed_next(void *ctx, unsigned int group, const uint64_t *idx, size_t n,
		    bool inclusive, uint8_t *key, size_t *len)
{
	const struct fma_seg *s = ctx;
	int64_t r = fastmib_keyed_next(s->seg, group, idx, n, inclusive, key, len);

	return r < 0 ? -1 : r;
}

void
fma_rows_init(struct fma_seg *s)
{
	s->rows = (struct fastmib_oid_rows){
		.ctx = s,
		.next_row = fma_rows_next_row,
		.row_present = fma_rows_present,
		.next_event = fma_rows_next_event,
		.event = fma_rows_event,
		.keyed_find = fma_rows_keyed_find,
		.keyed_next = fma_rows_keyed_next,
	};
}

/* ---- OIDs ---- */

/*
 * A sub-identifier as SNMP has it: 32 bits (RFC 2578). Net-SNMP's AgentX
 * subagent decodes a request's sub-identifiers through an int
 * (agentx_parse_oid()), so those from 2^31 on arrive sign-extended in a
 * 64-bit oid: 0xdeadbeef as 0xffffffffdeadbeef. Taken as they come, a GET
 * of such an index (a uint32 key, an event number) would find nothing and
 * a GETNEXT after it would skip every greater one.
 */
static uint64_t
fma_subid(oid o)
{
	return (uint64_t)o & 0xffffffffu;
}

int
fma_place(const struct fma_seg *s, const oid *name, size_t len, uint64_t *x, size_t *n)
{
	size_t common = len < s->root_len ? len : s->root_len;

	*n = 0;
	for (size_t i = 0; i < common; i++)
		if (fma_subid(name[i]) != s->root[i])
			return fma_subid(name[i]) < s->root[i] ? -1 : 1;
	if (len <= s->root_len)
		return -1;
	*n = len - s->root_len;
	if (*n > FASTMIB_OID_MAX_SUFFIX + 1)
		*n = FASTMIB_OID_MAX_SUFFIX + 1;
	for (size_t i = 0; i < *n; i++)
		x[i] = fma_subid(name[s->root_len + i]);
	return 0;
}

enum fastmib_oid_found
fma_lookup(const struct fma_seg *s, const netsnmp_variable_list *vb,
	   struct fastmib_oid_ref *ref)
{
	uint64_t x[FASTMIB_OID_MAX_SUFFIX + 1];
	size_t n;

	enum fastmib_oid_found found;

	if (fma_place(s, vb->name, vb->name_length, x, &n) != 0)
		n = 0; /* not below R: names nothing */
	found = fastmib_oidmap_resolve(s->map, &s->rows, x, n, ref);
	return found != FASTMIB_OID_NO_OBJECT && !fma_served(ref->kind) ? FASTMIB_OID_NO_OBJECT
									: found;
}

bool
fma_served(enum fastmib_oid_kind kind)
{
	switch (kind) {
	case FASTMIB_OID_PEAK:
	case FASTMIB_OID_HIST_COUNT:
	case FASTMIB_OID_HIST_SUM:
	case FASTMIB_OID_BUCKET:
		/* histograms and peaks are in the OID map, not served yet */
		return false;
	default:
		return true;
	}
}

const oid fma_snmp_trap_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };
const size_t fma_snmp_trap_oid_len = OID_LENGTH(fma_snmp_trap_oid);

size_t
fma_full_oid(const struct fma_seg *s, const uint64_t *x, size_t n, oid *out)
{
	memcpy(out, s->root, s->root_len * sizeof(oid));
	for (size_t i = 0; i < n; i++)
		out[s->root_len + i] = (oid)x[i];
	return s->root_len + n;
}
