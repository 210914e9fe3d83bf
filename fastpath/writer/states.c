/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The setters of state objects (<fastmib/fastmib.h>), the defaults of a
 * row that appears, and the change log of `notify` states. Readers are
 * fastpath/reader/states.c; the records' layout and protocol are
 * segment_format.h's.
 *
 * Who may call: any thread of the creating process, lcores included.
 * A set takes the row's seqlock, which serializes the setters of one row
 * (the last complete set wins) and makes readers retry, never wait for a
 * lock: a setter never waits for a reader, and counters are another
 * protocol, so no lcore's update waits for a setter.
 */
#include <errno.h>
#include <string.h>

#include <rte_spinlock.h>

#include "seq_shim.h"
#include "writers.h"

_Static_assert(FMS_STATE_VALUE == FASTMIB_STATE_CHANGE_VALUE, "state change value size");
_Static_assert(sizeof(bool) == 1, "a truth-value state's C form is one octet");

/* What a set names: a group with states, a row in range, and the caller
 * the creator. 0, or -EINVAL / -EPERM with a message. */
static int
set_args(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g;

	if (seg == NULL)
		return fms_error(-EINVAL, "state set: no segment");
	if (!seg->creator || seg->writers == NULL)
		return fms_error(-EPERM, "%s: only the creating process sets states", seg->path);
	if (group >= seg->schema->n_groups)
		return fms_error(-EINVAL, "%s: group %u does not exist", seg->path, group);
	g = &seg->schema->groups[group];
	if (g->n_states == 0)
		return fms_error(-EINVAL, "%s: group %s has no states", seg->path, g->name);
	if (row >= g->n_rows)
		return fms_error(-EINVAL, "%s: group %s: row %u out of range (%u rows)", seg->path,
				 g->name, row, g->n_rows);
	return 0;
}

/* Append a change of state `si` of the row to the log (the caller holds
 * the row's lock, so the changes of one row are appended in the order of
 * their sets). */
static void
log_change(struct fastmib_segment *seg, unsigned group, uint32_t row, uint32_t si,
	   const uint8_t *value)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	struct fms_state_log *log = fms_state_log(seg);
	struct fms_state_change_rec *r;
	rte_seqcount_t *sc;
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	size_t key_len = 0;
	uint64_t n;

	if (log == NULL)
		return;
	if (fastmib_group_keyed(g) && fastmib_row_key(seg, group, row, key, &key_len) != 0)
		key_len = 0; /* not present: not logged below */
	if (fastmib_group_keyed(g) && key_len == 0)
		return;
	rte_spinlock_lock((rte_spinlock_t *)(void *)&log->lock);
	n = __atomic_load_n(&log->head, __ATOMIC_RELAXED);
	r = &log->rec[n % FMS_STATE_LOG];
	sc = (rte_seqcount_t *)(void *)&r->seq;
	rte_seqcount_write_begin(sc);
	r->group = group;
	r->state = si;
	r->row = row;
	r->number = n;
	r->time_ns = fms_mono_ns();
	r->key_len = (uint32_t)key_len;
	memset(r->value, 0, sizeof(r->value));
	memcpy(r->value, value, fastmib_state_value_size(&g->states[si], NULL));
	memcpy(r->key, key, key_len);
	rte_seqcount_write_end(sc);
	/* release: whoever sees the head sees the record */
	__atomic_store_n(&log->head, n + 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock((rte_spinlock_t *)(void *)&log->lock);
}

/*
 * Store `size` bytes of `value` at `off` of the row's struct, in one
 * publication, and log the changes of `notify` states among states
 * [first, last] it covers. -ENOENT when the row is not present (checked
 * under the lock: a row that appears takes its defaults under it too).
 */
static int
publish(struct fastmib_segment *seg, unsigned group, uint32_t row, uint32_t off,
	const uint8_t *value, uint32_t size, uint32_t first, uint32_t last)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	struct fms_state_rec *rec = fms_state_rec(seg, group, row);
	rte_seqlock_t *lock = fms_rte_seqlock(&rec->lock);
	uint8_t old[FASTMIB_MAX_STATES][FMS_STATE_VALUE];
	bool changed[FASTMIB_MAX_STATES] = { false };

	/* rows that come and go: a row not present has no record to store to
	 * (it may be a hole of the file) */
	if (!fastmib_row_present(seg, group, row))
		return fms_error(-ENOENT, "%s: group %s: row %u is not present", seg->path,
				 g->name, row);
	rte_seqlock_write_lock(lock);
	if (!fastmib_row_present(seg, group, row)) {
		rte_seqlock_write_unlock(lock);
		return fms_error(-ENOENT, "%s: group %s: row %u is not present", seg->path,
				 g->name, row);
	}
	for (uint32_t i = first; i <= last; i++)
		if (g->states[i].notify)
			memcpy(old[i], rec->data + g->states[i].offset,
			       fastmib_state_value_size(&g->states[i], NULL));
	for (uint32_t i = 0; i < size; i++)
		__atomic_store_n(&rec->data[off + i], value[i], __ATOMIC_RELAXED);
	for (uint32_t i = first; i <= last; i++)
		if (g->states[i].notify)
			changed[i] = memcmp(old[i], rec->data + g->states[i].offset,
					    fastmib_state_value_size(&g->states[i], NULL)) != 0;
	rte_seqlock_write_unlock(lock);
	/* after the publication, in the order of the row's sets: a reader
	 * that takes the change from the log finds the row as it left it or
	 * newer */
	for (uint32_t i = first; i <= last; i++)
		if (changed[i])
			log_change(seg, group, row, i, rec->data + g->states[i].offset);
	return 0;
}

int
fastmib_state_set(struct fastmib_segment *seg, unsigned group, uint32_t row, const void *st)
{
	const struct fastmib_group_schema *g;
	int rc = set_args(seg, group, row);

	if (rc)
		return rc;
	g = &seg->schema->groups[group];
	if (st == NULL)
		return fms_error(-EINVAL, "%s: group %s: no states given", seg->path, g->name);
	for (uint32_t i = 0; i < g->n_states; i++)
		if ((rc = fastmib_state_check(g->name, &g->states[i],
					      (const uint8_t *)st + g->states[i].offset)))
			return rc;
	return publish(seg, group, row, 0, st, g->state_size, 0, g->n_states - 1);
}

int
fastmib_state_set_one(struct fastmib_segment *seg, unsigned group, uint32_t row,
		      unsigned state, const void *value)
{
	const struct fastmib_group_schema *g;
	const struct fastmib_state_schema *st;
	int rc = set_args(seg, group, row);

	if (rc)
		return rc;
	g = &seg->schema->groups[group];
	if (state >= g->n_states || value == NULL)
		return fms_error(-EINVAL, "%s: group %s: no state %u, or no value", seg->path,
				 g->name, state);
	st = &g->states[state];
	if ((rc = fastmib_state_check(g->name, st, value)))
		return rc;
	return publish(seg, group, row, st->offset, value, fastmib_state_value_size(st, NULL),
		       state, state);
}

/* State `state` of the group, of type `type`: 0, or -EINVAL. */
static int
typed_state(struct fastmib_segment *seg, unsigned group, unsigned state, uint32_t type,
	    const struct fastmib_state_schema **st)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];

	if (state >= g->n_states || g->states[state].type != type)
		return fms_error(-EINVAL, "%s: group %s: state %u is no %s", seg->path, g->name,
				 state, fastmib_state_type_word(type));
	*st = &g->states[state];
	return 0;
}

int
fastmib_state_set_text(struct fastmib_segment *seg, unsigned group, uint32_t row,
		       unsigned state, const char *text)
{
	char buf[FASTMIB_MAX_DISPLAY_STRING + 1] = "";
	const struct fastmib_state_schema *st = NULL; /* set when typed_state() is 0 */
	size_t n;
	int rc = set_args(seg, group, row);

	if (rc || (rc = typed_state(seg, group, state, FASTMIB_STATE_DISPLAY_STRING, &st)))
		return rc;
	if (text == NULL)
		return fms_error(-EINVAL, "%s: group %s: state %s: no text", seg->path,
				 seg->schema->groups[group].name, st->name);
	n = strnlen(text, (size_t)st->size + 1);
	if (n > st->size)
		return fms_error(-EINVAL, "group %s: state %s: longer than %u octets",
				 seg->schema->groups[group].name, st->name, st->size);
	memcpy(buf, text, n);
	return fastmib_state_set_one(seg, group, row, state, buf);
}

int
fastmib_state_set_octets(struct fastmib_segment *seg, unsigned group, uint32_t row,
			 unsigned state, const void *octets, size_t len)
{
	uint8_t buf[2 + FASTMIB_MAX_OCTET_STRING] = { 0 };
	const struct fastmib_state_schema *st = NULL; /* set when typed_state() is 0 */
	uint16_t l16;
	int rc = set_args(seg, group, row);

	if (rc || (rc = typed_state(seg, group, state, FASTMIB_STATE_OCTET_STRING, &st)))
		return rc;
	if (len > st->size || (len && octets == NULL))
		return fms_error(-EINVAL, "group %s: state %s: %zu octets, more than %u",
				 seg->schema->groups[group].name, st->name, len, st->size);
	l16 = (uint16_t)len;
	memcpy(buf, &l16, 2);
	if (len)
		memcpy(buf + 2, octets, len);
	return fastmib_state_set_one(seg, group, row, state, buf);
}

int
fastmib_state_get(struct fastmib_segment *seg, unsigned group, uint32_t row, void *st)
{
	return fastmib_state_read(seg, group, row, st, NULL);
}

int
fms_state_init_row(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	struct fms_state_rec *rec;
	rte_seqlock_t *lock;
	int rc;

	if (g->n_states == 0)
		return 0;
	rec = fms_state_rec(seg, group, row);
	rc = fms_alloc_once(seg, (uint64_t)((uint8_t *)rec - seg->base),
			    seg->lay.groups[group].state_stride, "a state record");
	if (rc)
		return rc;
	/* under the lock, as a set: a reader still reading the row's former
	 * life retries rather than see a mix */
	lock = fms_rte_seqlock(&rec->lock);
	rte_seqlock_write_lock(lock);
	for (uint32_t i = 0; i < g->state_size; i++)
		__atomic_store_n(&rec->data[i], 0, __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < g->n_states; i++) {
		const struct fastmib_state_schema *st = &g->states[i];
		uint32_t n = fastmib_state_value_size(st, NULL);

		for (uint32_t k = 0; st->def && k < n; k++)
			__atomic_store_n(&rec->data[st->offset + k], ((const uint8_t *)st->def)[k],
					 __ATOMIC_RELAXED);
	}
	rte_seqlock_write_unlock(lock);
	return 0;
}
