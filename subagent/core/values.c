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

/* ---- snapshots ---- */

int
fma_snaps_init(struct fma_seg *s)
{
	uint32_t max_counters = 1;

	for (uint32_t g = 0; g < s->schema->n_groups; g++)
		if (s->schema->groups[g].n_counters > max_counters)
			max_counters = s->schema->groups[g].n_counters;
	s->snap_values = calloc((size_t)FMA_SNAP_SLOTS * max_counters, sizeof(uint64_t));
	if (!s->snap_values)
		return -ENOMEM;
	for (unsigned int i = 0; i < FMA_SNAP_SLOTS; i++)
		s->snaps[i].values = s->snap_values + (size_t)i * max_counters;
	fma_snaps_forget(s);
	return 0;
}

void
fma_snaps_free(struct fma_seg *s)
{
	free(s->snap_values);
	s->snap_values = NULL;
	fma_snaps_forget(s);
}

void
fma_snaps_forget(struct fma_seg *s)
{
	s->n_snaps = 0;
	s->next_snap = 0;
}

/* fastmib_read(), which waits out a writer that is only preempted (see
 * reader.h); a writer it takes as stuck is logged once per hold-off. */
static int
fma_read(struct fma_seg *s, unsigned int group, uint32_t row, uint64_t *values)
{
	int rc = fastmib_read(s->seg, group, row, values);
	uint64_t now;

	if (rc == -EBUSY && (now = fastmib_monotonic_ns()) >= s->stuck_logged) {
		s->stuck_logged = now + FASTMIB_READ_HOLDOFF_NS;
		snmp_log(LOG_WARNING, "fastmib: %s: a writer stays inside a transaction; "
			 "best-effort values for the next second\n", s->path);
	}
	return rc;
}

/* The snapshot of the row `ref` names, taken once per request and row;
 * in a keyed table per row and key: between two varbinds of one request
 * the row may have gone to another key, whose values these are not. */
static const struct fma_snap *
fma_snapshot(struct fma_seg *s, const struct fastmib_oid_ref *ref)
{
	int group = ref->group;
	uint32_t row = ref->row;
	struct fma_snap *sn;

	for (unsigned int i = 0; i < s->n_snaps; i++)
		if (s->snaps[i].group == group && s->snaps[i].row == row &&
		    s->snaps[i].key_len == ref->key_len &&
		    memcmp(s->snaps[i].key, ref->key, ref->key_len) == 0)
			return &s->snaps[i];
	sn = &s->snaps[s->next_snap];
	s->next_snap = (s->next_snap + 1) % FMA_SNAP_SLOTS;
	if (s->n_snaps < FMA_SNAP_SLOTS)
		s->n_snaps++;
	sn->group = group;
	sn->row = row;
	sn->key_len = ref->key_len;
	memcpy(sn->key, ref->key, ref->key_len);
	sn->rc = fma_read(s, (unsigned int)group, row, sn->values);
	if (sn->rc == -EBUSY)
		DEBUGMSGTL(("fastmib", "%s: group %s row %" PRIu32
			    ": writer stalled, best-effort values\n",
			    s->path, s->schema->groups[group].name, row));
	return sn;
}

/* ---- encoding ---- */

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

static int
fma_value_of(struct fma_seg *s, const struct fastmib_oid_ref *ref, netsnmp_variable_list *vb)
{
	const struct fma_snap *sn;
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
	case FASTMIB_OID_STATE:
	case FASTMIB_OID_NOTIFS_DROPPED:
		return -ENOENT; /* the map does not name them yet */
	case FASTMIB_OID_COUNTER:
		break;
	}
	sn = fma_snapshot(s, ref);
	if (sn->rc < 0 && sn->rc != -EBUSY)
		return sn->rc;
	v = sn->values[ref->counter];
	switch (s->schema->groups[ref->group].counters[ref->counter].type) {
	case FASTMIB_COUNTER32:
		snmp_set_var_typed_integer(vb, ASN_COUNTER,
					   (uint32_t)fastmib_reported_value(FASTMIB_COUNTER32, v));
		break;
	case FASTMIB_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE,
					   (uint32_t)fastmib_reported_value(FASTMIB_GAUGE32, v));
		break;
	default:
		fma_varbind_counter64(vb, v);
		break;
	}
	return 0;
}

int
fma_value(struct fma_seg *s, const struct fastmib_oid_ref *ref, netsnmp_variable_list *vb)
{
	int rc = fma_value_of(s, ref, vb);

	/* read, then checked: what was read belongs to the key found */
	return rc == 0 && !fma_key_unchanged(s, ref) ? -ENOENT : rc;
}
