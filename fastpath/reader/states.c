/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading a row's states (one publication, whole, checked as untrusted
 * input) and the state change log, for every reader. The writing side,
 * the setters and the defaults of new rows, is fastpath/writer/states.c;
 * the records' layout and protocol are segment_format.h's.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_pause.h>

#include "guard.h"
#include "handle.h"
#include "seq_shim.h"

/*
 * One copy of the record's struct under its sequence: wait while a setter
 * is inside (its section is a copy of a few hundred bytes), copy when the
 * sequence is even and keep it when it did not move. Attempts as for a
 * lcore block (FASTMIB_READ_MAX_TRIES); false when a setter stayed inside
 * all along, and then `out` holds no answer.
 */
static bool
copy_states(const struct fms_state_rec *rec, uint32_t size, uint8_t *out)
{
	const rte_seqcount_t *sc = fms_rte_seqcount_const(&rec->lock.count);

	for (int t = 0; t < FASTMIB_READ_MAX_TRIES; t++) {
		uint32_t sn = rte_seqcount_read_begin(sc);

		if (sn & 1) {
			rte_pause();
			continue;
		}
		/* relaxed byte loads: the setter may be storing meanwhile; the
		 * sequence tells whether the copy is one publication */
		for (uint32_t i = 0; i < size; i++)
			out[i] = __atomic_load_n(&rec->data[i], __ATOMIC_RELAXED);
		if (!rte_seqcount_read_retry(sc, sn))
			return true;
	}
	return false;
}

/* Whether the group has states and the row is present: 0 or -errno. */
static int
check_row(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g;

	if (group >= seg->schema->n_groups)
		return fms_error(-EINVAL, "%s: no group %u", seg->path, group);
	g = &seg->schema->groups[group];
	if (g->n_states == 0)
		return fms_error(-EINVAL, "%s: group %s has no states", seg->path, g->name);
	if (row >= g->n_rows)
		return fms_error(-EINVAL, "%s: group %s: row %u out of range", seg->path, g->name,
				 row);
	/* a record of a row that is not present may be a hole of the file */
	if (!fastmib_row_present(seg, group, row))
		return -ENOENT;
	return 0;
}

static int
fastmib_state_read_mapped(struct fastmib_segment *seg, unsigned group, uint32_t row,
			  void *out, uint64_t *bad)
{
	const struct fastmib_group_schema *g;
	struct timespec nap = { 0, 20000 };
	uint64_t deadline = 0;
	int rc = check_row(seg, group, row);

	if (rc)
		return rc;
	g = &seg->schema->groups[group];
	/* a setter preempted inside its section is waited for as a lcore is
	 * (the handle's patience); one that stays inside gives no answer:
	 * never half of a publication */
	while (!copy_states(fms_state_rec(seg, group, row), g->state_size, out)) {
		uint64_t now = fms_mono_ns();

		if (deadline == 0)
			deadline = now + seg->read_patience_ns;
		if (now >= deadline)
			return fms_error(-EBUSY, "%s: group %s row %u: a setter stays inside its "
					 "section", seg->path, g->name, row);
		nanosleep(&nap, NULL);
	}
	if (bad)
		memset(bad, 0, FASTMIB_STATE_MASK_WORDS * sizeof(*bad));
	for (uint32_t i = 0; i < g->n_states; i++) {
		const struct fastmib_state_schema *st = &g->states[i];

		/* untrusted: a value the model does not allow is left out */
		if (fastmib_state_check(g->name, st, (uint8_t *)out + st->offset) == 0)
			continue;
		memset((uint8_t *)out + st->offset, 0, fastmib_state_value_size(st, NULL));
		if (bad)
			bad[i / 64] |= 1ull << (i % 64);
	}
	return 0;
}

FMS_GUARDED_ENTRY(int, fastmib_state_read,
		  (struct fastmib_segment *seg, unsigned group, uint32_t row, void *out,
		   uint64_t *bad),
		  (seg, group, row, out, bad), fms_faulted_error(seg), -EIO)

int
fastmib_keyed_state_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
			 const uint8_t *key, size_t len, void *out, uint64_t *bad)
{
	uint8_t now[FASTMIB_MAX_KEY_BYTES];
	size_t now_len;
	int rc = fastmib_state_read(seg, group, row, out, bad);

	if (rc < 0)
		return rc;
	/* after the read, as fastmib_keyed_read() does: the row still holds
	 * the key, so the states are that key's (an insert gives a row the
	 * defaults before its key) */
	if (fastmib_row_key(seg, group, row, now, &now_len) != 0 || now_len != len ||
	    memcmp(now, key, len) != 0)
		return -ENOENT;
	return 0;
}

/* ---- the change log ---- */

static uint64_t
fastmib_state_changes_head_mapped(const struct fastmib_segment *seg)
{
	const struct fms_state_log *log = fms_state_log(seg);

	return log ? __atomic_load_n(&log->head, __ATOMIC_ACQUIRE) : 0;
}

FMS_GUARDED_ENTRY(uint64_t, fastmib_state_changes_head, (const struct fastmib_segment *seg),
		  (seg), 0, 0)

/* Change `n`, if record n % FMS_STATE_LOG still holds it, into *out. */
static bool
copy_change(const struct fastmib_segment *seg, const struct fms_state_log *log, uint64_t n,
	    struct fastmib_state_change *out)
{
	const struct fms_state_change_rec *r = &log->rec[n % FMS_STATE_LOG];
	const rte_seqcount_t *sc = (const rte_seqcount_t *)(const void *)&r->seq;
	struct fms_state_change_rec c;
	const struct fastmib_group_schema *g;

	for (int t = 0; t < FASTMIB_READ_MAX_TRIES; t++) {
		uint32_t sn = rte_seqcount_read_begin(sc);

		if (sn & 1) {
			rte_pause();
			continue;
		}
		for (size_t i = 0; i < sizeof(c); i++)
			((uint8_t *)&c)[i] = __atomic_load_n((const uint8_t *)r + i,
							     __ATOMIC_RELAXED);
		if (rte_seqcount_read_retry(sc, sn))
			continue;
		/* untrusted: another change (overwritten), or not one at all */
		if (c.number != n || c.group >= seg->schema->n_groups)
			return false;
		g = &seg->schema->groups[c.group];
		if (c.state >= g->n_states || !g->states[c.state].notify || c.row >= g->n_rows ||
		    fastmib_state_value_size(&g->states[c.state], NULL) > FMS_STATE_VALUE ||
		    fastmib_state_check(g->name, &g->states[c.state], c.value) < 0 ||
		    c.key_len > FASTMIB_MAX_KEY_BYTES ||
		    (fastmib_group_keyed(g) ? !fastmib_key_valid(g, c.key, c.key_len)
					    : c.key_len != 0))
			return false;
		out->number = c.number;
		out->time_ns = c.time_ns;
		out->group = c.group;
		out->state = c.state;
		out->row = c.row;
		out->key_len = c.key_len;
		memcpy(out->key, c.key, c.key_len);
		memcpy(out->value, c.value, sizeof(out->value));
		return true;
	}
	return false;
}

static int
fastmib_state_changes_mapped(struct fastmib_segment *seg, uint64_t *next,
			     struct fastmib_state_change *out, unsigned int max, uint64_t *lost)
{
	const struct fms_state_log *log = fms_state_log(seg);
	uint64_t head;
	unsigned int n = 0;

	if (log == NULL)
		return 0;
	head = __atomic_load_n(&log->head, __ATOMIC_ACQUIRE);
	if (*next > head)
		*next = head; /* a re-created segment starts again */
	if (head - *next > FMS_STATE_LOG) {
		*lost += head - *next - FMS_STATE_LOG;
		*next = head - FMS_STATE_LOG;
	}
	while (*next < head && n < max) {
		if (copy_change(seg, log, *next, &out[n]))
			n++;
		else
			(*lost)++; /* overwritten while read, or damaged */
		(*next)++;
	}
	return (int)n;
}

FMS_GUARDED_ENTRY(int, fastmib_state_changes,
		  (struct fastmib_segment *seg, uint64_t *next, struct fastmib_state_change *out,
		   unsigned int max, uint64_t *lost),
		  (seg, next, out, max, lost), fms_faulted_error(seg), -EIO)
