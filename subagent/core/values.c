/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values: consistent snapshots of groups and rows (one per group or row
 * and request, shared by the varbinds that name it) and the SNMP encoding
 * of every object the core serves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_priv.h"

/*
 * Net-SNMP 5.9 keeps its start time as a gettimeofday() value: taken from
 * there, the instant is the same however often it is computed, so a module
 * re-loaded by snmpd reports the same TimeStamps as before. The estimate
 * from the uptime (truncated to centiseconds) is the fallback should the
 * library ever keep another clock.
 */
uint64_t
fma_agent_start_ns(void)
{
	const struct timeval *tv = netsnmp_get_agent_starttime();
	uint64_t now = fastmib_time_ns();
	uint64_t up = (uint64_t)netsnmp_get_agent_uptime() * 10000000u;

	if (tv) {
		uint64_t s = (uint64_t)tv->tv_sec * 1000000000u +
			     (uint64_t)tv->tv_usec * 1000u;

		if (s <= now && now - s >= up && now - s - up < 1000000000u)
			return s;
	}
	return now - up;
}

long
fma_request_id(const netsnmp_agent_request_info *reqinfo)
{
	/* snmpd gives every AgentX PDU it sends for one SNMP request that
	 * request's transaction id: the request, in every mode */
	return reqinfo && reqinfo->asp && reqinfo->asp->pdu ? reqinfo->asp->pdu->transid : -1;
}

/* ---- encoding ---- */

/*
 * The monotonic clock's reading at realtime `start_ns`, read once: the
 * TimeStamp of a timestamp state (a monotonic moment) is then counted from
 * a fixed start, the same value however often it is read, and a step of
 * the wall clock after the agent started does not move it.
 */
uint64_t
fma_monotonic_of(uint64_t start_ns)
{
	uint64_t real = fastmib_time_ns(), mono = fastmib_monotonic_ns();

	return real - start_ns < mono ? mono - (real - start_ns) : 0;
}

static void
fma_set_string(netsnmp_variable_list *vb, const char *str)
{
	size_t len = strlen(str);

	/* DisplayString: at most 255 octets */
	snmp_set_var_typed_value(vb, ASN_OCTET_STR, str, len > 255 ? 255 : len);
}

void
fma_event_cell(const struct fastmib_schema *sc, const struct fastmib_event_rec *rec,
	       uint32_t col, netsnmp_variable_list *vb)
{
	const struct fastmib_event_schema *es = &sc->events[rec->event];
	uint8_t dt[FMA_DATETIME_LEN];

	switch (col) {
	case FASTMIB_EVCOL_NAME:
		fma_set_string(vb, es->name);
		break;
	case FASTMIB_EVCOL_ID:
		snmp_set_var_typed_integer(vb, ASN_UNSIGNED, es->arc);
		break;
	case FASTMIB_EVCOL_TIME:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, dt,
					 fma_date_and_time(rec->time_ns, dt));
		break;
	case FASTMIB_EVCOL_LCORE:
		snmp_set_var_typed_integer(vb, ASN_UNSIGNED, rec->slot);
		break;
	case FASTMIB_EVCOL_LAG_CYCLES:
		fma_varbind_counter64(vb, rec->lag);
		break;
	case FASTMIB_EVCOL_LAG_NS:
		fma_varbind_counter64(vb, rec->lag_ns);
		break;
	default: /* arguments: the 64-bit value as stored (int32 sign-extended) */
		fma_varbind_counter64(vb, rec->args[col - FASTMIB_EVCOL_ARG1]);
		break;
	}
}

static int
fma_event_value(struct fma_seg *s, const struct fastmib_oid_ref *ref,
		netsnmp_variable_list *vb)
{
	const struct fastmib_event_rec *rec = fma_evhist_get(&s->ev->hist, ref->row, NULL);

	if (!rec)
		return -ENOENT; /* left the history meanwhile */
	fma_event_cell(s->schema, rec, ref->column, vb);
	return 0;
}

/* A statistics cell: ref->row is the schema index of the event. */
static void
fma_evstat_value(struct fma_seg *s, const struct fastmib_oid_ref *ref,
		 netsnmp_variable_list *vb)
{
	switch (ref->column) {
	case FASTMIB_STCOL_NAME:
		fma_set_string(vb, s->schema->events[ref->row].name);
		break;
	case FASTMIB_STCOL_LOGGED:
		fma_varbind_counter64(vb, fastmib_event_logged(s->seg, ref->row));
		break;
	default:
		fma_varbind_counter64(vb, fastmib_event_dropped(s->seg, ref->row));
		break;
	}
}

/*
 * Does the row of a keyed table still hold the key it was found by? A row
 * removed and inserted again for another key between the lookup and the
 * read must not lend its values to the old key's OID.
 */
static bool
fma_key_unchanged(const struct fma_seg *s, const struct fastmib_oid_ref *ref)
{
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	size_t len;

	if (ref->group < 0 || !fastmib_group_keyed(&s->schema->groups[ref->group]))
		return true;
	return fastmib_row_key(s->seg, (unsigned)ref->group, ref->row, key, &len) == 0 &&
	       len == ref->key_len && memcmp(key, ref->key, len) == 0;
}

/* A state's value, its C form, as its MIB syntax has it on the wire. */
void
fma_state_value(const struct fma_agent *agent, const struct fastmib_state_schema *st,
		uint32_t part, const uint8_t *p, netsnmp_variable_list *vb)
{
	const struct fastmib_inet_address *a = (const void *)p;
	static const uint8_t unknown_time[8];
	uint8_t dt[FMA_DATETIME_LEN];
	uint64_t u64;
	int64_t i64;
	int32_t i32;
	uint32_t u32;
	uint16_t len;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		snmp_set_var_typed_integer(vb, ASN_INTEGER,
					   p[0] ? FASTMIB_TRUTH_TRUE : FASTMIB_TRUTH_FALSE);
		break;
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		memcpy(&i32, p, 4);
		snmp_set_var_typed_integer(vb, ASN_INTEGER, i32);
		break;
	case FASTMIB_STATE_UNSIGNED32:
		memcpy(&u32, p, 4);
		snmp_set_var_typed_integer(vb, ASN_UNSIGNED, (long)u32);
		break;
	case FASTMIB_STATE_TIMETICKS:
		memcpy(&u32, p, 4);
		snmp_set_var_typed_integer(vb, ASN_TIMETICKS, (long)u32);
		break;
	case FASTMIB_STATE_GAUGE64:
		/* CounterBasedGauge64 is a Counter64 on the wire */
		memcpy(&u64, p, 8);
		fma_varbind_counter64(vb, u64);
		break;
	case FASTMIB_STATE_TIMESTAMP:
		memcpy(&u64, p, 8);
		/* sysUpTime then: 0 for never, or for before the agent began */
		snmp_set_var_typed_integer(vb, ASN_TIMETICKS,
					   fma_timestamp(u64, agent->start_mono_ns,
							 netsnmp_get_agent_uptime()));
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		memcpy(&i64, p, 8);
		/* 0 is unknown: the eight zero octets RFC 2579 allows */
		if (i64 == 0)
			snmp_set_var_typed_value(vb, ASN_OCTET_STR, unknown_time,
						 sizeof(unknown_time));
		else
			snmp_set_var_typed_value(vb, ASN_OCTET_STR, dt,
						 fma_date_and_time_signed(i64, dt));
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, p, strnlen((const char *)p, st->size));
		break;
	case FASTMIB_STATE_OCTET_STRING:
		memcpy(&len, p, 2);
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, p + 2, len);
		break;
	case FASTMIB_STATE_IPV4:
		snmp_set_var_typed_value(vb, ASN_IPADDRESS, p, 4);
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		/* unknown(0): the empty address RFC 4001 pairs with it */
		if (part)
			snmp_set_var_typed_integer(vb, ASN_INTEGER, a->type);
		else
			snmp_set_var_typed_value(vb, ASN_OCTET_STR, a->addr,
						 a->type == 1 ? 4 : a->type == 2 ? 16 : 0);
		break;
	case FASTMIB_STATE_MAC:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, p, 6);
		break;
	}
}

static int
fma_value_of(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref,
	     netsnmp_variable_list *vb)
{
	const struct fastmib_counter_schema *cs;
	const struct fastmib_state_schema *st;
	const struct fma_snap *sn;
	uint32_t w;
	uint64_t v;

	switch (ref->kind) {
	case FASTMIB_OID_RESET:
		snmp_set_var_typed_integer(vb, ASN_INTEGER, FASTMIB_TRUTH_FALSE);
		return 0;
	case FASTMIB_OID_DISCONT:
		v = fastmib_discontinuity(s->seg, ref->group, ref->row);
		snmp_set_var_typed_integer(
			vb, ASN_TIMETICKS,
			fma_timestamp(v, s->agent->start_ns,
						netsnmp_get_agent_uptime()));
		return 0;
	case FASTMIB_OID_WRITER_STATUS:
		/* gone(2) from the creator's lock on the file, which the kernel
		 * drops when the writer dies; stalled(3) from a lcore watched
		 * inside one transaction for the read patience (reader.h) */
		snmp_set_var_typed_integer(vb, ASN_INTEGER,
					   (long)fastmib_writer_status(s->seg, NULL));
		return 0;
	case FASTMIB_OID_BEST_EFFORT:
		fma_varbind_counter64(vb, fastmib_best_effort_reads(s->seg));
		return 0;
	case FASTMIB_OID_OUT_OF_RANGE:
		fma_varbind_counter64(vb, fastmib_out_of_range_updates(s->seg));
		return 0;
	case FASTMIB_OID_EVENT:
		return fma_event_value(s, ref, vb);
	case FASTMIB_OID_EVSTAT:
		fma_evstat_value(s, ref, vb);
		return 0;
	case FASTMIB_OID_NOTIFS_DROPPED:
		fma_varbind_counter64(vb, s->notifs_dropped);
		return 0;
	case FASTMIB_OID_STATE:
		sn = fma_snap_states(s, id, ref);
		if (!sn)
			return -ENOMEM;
		if (sn->state_rc < 0)
			return sn->state_rc;
		if (sn->bad[ref->counter / 64] & (1ull << (ref->counter % 64)))
			return -ENOENT; /* a value the model does not allow: left out */
		st = &s->schema->groups[ref->group].states[ref->counter];
		fma_state_value(s->agent, st, ref->part, fma_snap_state_bytes(sn) + st->offset,
				vb);
		return 0;
	case FASTMIB_OID_COUNTER:
	case FASTMIB_OID_PEAK:
	case FASTMIB_OID_HIST_COUNT:
	case FASTMIB_OID_HIST_SUM:
		break;
	case FASTMIB_OID_BUCKET:
		if (ref->column == FASTMIB_BUCKETCOL_LE) {
			/* the model's bound, no reading: CounterBasedGauge64, a
			 * Counter64 on the wire; the last bucket has none */
			cs = &s->schema->groups[ref->group].counters[ref->counter];
			fma_varbind_counter64(vb, ref->bucket < cs->n_bounds ? cs->bounds[ref->bucket]
									      : UINT64_MAX);
			return 0;
		}
		break;
	}
	sn = fma_snap_counters(s, id, ref);
	if (!sn)
		return -ENOMEM;
	if (sn->rc < 0 && sn->rc != -EBUSY)
		return sn->rc;
	cs = &s->schema->groups[ref->group].counters[ref->counter];
	/* A histogram's buckets, count and sum come from the row's one
	 * snapshot of this request, so that the count is the sum of the
	 * buckets in every answer a writer lets the reader take whole. A
	 * writer stuck inside its transaction gets best-effort words, as
	 * every counter does (counted in <p>BestEffortReads, <p>WriterStatus
	 * stalled): its half-made observation may then show in a bucket and
	 * not yet in the count, which beats a walk that ends in genErr at
	 * the first histogram of the stuck lcore's rows. */
	w = fastmib_counter_word(cs);
	switch (ref->kind) {
	case FASTMIB_OID_HIST_COUNT:
		w += cs->n_bounds + 1;
		break;
	case FASTMIB_OID_HIST_SUM:
		w += cs->n_bounds + 2;
		break;
	case FASTMIB_OID_BUCKET:
		w += ref->bucket;
		break;
	default:
		break;
	}
	v = fma_snap_values(sn)[w];
	switch (cs->type) {
	case FASTMIB_COUNTER32:
		snmp_set_var_typed_integer(vb, ASN_COUNTER,
					   (uint32_t)fastmib_reported_value(FASTMIB_COUNTER32, v));
		break;
	case FASTMIB_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE,
					   (uint32_t)fastmib_reported_value(FASTMIB_GAUGE32, v));
		break;
	default:
		/* Counter64, and a peak's CounterBasedGauge64 (the maximum over
		 * the lcores of the snapshot, fastmib_read()), a Counter64 on
		 * the wire too */
		fma_varbind_counter64(vb, v);
		break;
	}
	return 0;
}

int
fma_value(struct fma_seg *s, long id, const struct fastmib_oid_ref *ref,
	  netsnmp_variable_list *vb)
{
	int rc = fma_value_of(s, id, ref, vb);
	bool read_with_row = ref->kind == FASTMIB_OID_COUNTER || ref->kind == FASTMIB_OID_STATE ||
			     ref->kind == FASTMIB_OID_PEAK || ref->kind == FASTMIB_OID_HIST_COUNT ||
			     ref->kind == FASTMIB_OID_HIST_SUM ||
			     (ref->kind == FASTMIB_OID_BUCKET &&
			      ref->column == FASTMIB_BUCKETCOL_COUNT);

	/* read, then checked: what was read belongs to the key found (the
	 * readings of a request check it when they are taken; a bucket's
	 * bound is not a reading) */
	if (rc == 0 && !read_with_row && !fma_key_unchanged(s, ref))
		return -ENOENT;
	return rc;
}
