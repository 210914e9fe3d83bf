/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keyed tables, the creator's side: fastmib_key_insert(), _find() and
 * _remove(), from any thread of the creating process.
 *
 * Each keyed table has a private index in this process (struct
 * fms_keytab): an open-addressing hash of the present keys to their rows,
 * the rows freed by removes, and how many rows were ever used. Inserts and
 * removes are O(1) expected, whatever the table holds; the order that SNMP
 * needs is built by the readers from what the segment keeps: each row's
 * key record and a log of the rows that changed (reader/keys.c,
 * segment_format.h). The fast path never comes here: it counts by row.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"

struct fms_keytab {
	uint32_t *slot;        /* row + 1, 0 = empty; linear probing */
	uint32_t mask;         /* slots - 1, a power of two minus one */
	uint32_t n;            /* keys present */
	uint32_t next_unused;  /* rows never used yet: next_unused .. n_rows - 1 */
	uint32_t *free_rows;   /* rows removed, reused first */
	uint32_t n_free, cap_free;
};

static uint64_t
hash(const uint8_t *k, size_t len)
{
	return fms_fnv1a(k, len);
}

/* The order key row r holds (its record: this process wrote it). */
static const uint8_t *
rec_key(const struct fastmib_segment *seg, unsigned group, uint32_t r, size_t *len)
{
	const struct fms_key_rec *rec = fms_key_rec(seg, group, r);

	*len = rec->len;
	return rec->key;
}

/* The slot of key k, or of the empty slot where it would go. */
static uint32_t
probe(const struct fastmib_segment *seg, unsigned group, const struct fms_keytab *t,
      const uint8_t *k, size_t len, bool *found)
{
	uint32_t i = (uint32_t)hash(k, len) & t->mask;

	for (;; i = (i + 1) & t->mask) {
		const uint8_t *rk;
		size_t rl;

		if (t->slot[i] == 0) {
			*found = false;
			return i;
		}
		rk = rec_key(seg, group, t->slot[i] - 1, &rl);
		if (fastmib_key_cmp(rk, rl, k, len) == 0) {
			*found = true;
			return i;
		}
	}
}

/* Twice the slots, every key placed again (load kept under a half). */
static int
grow(const struct fastmib_segment *seg, unsigned group, struct fms_keytab *t)
{
	uint32_t n_old = t->mask + 1, n_new = n_old * 2, *old = t->slot;

	t->slot = calloc(n_new, sizeof(*t->slot));
	if (t->slot == NULL) {
		t->slot = old;
		return -ENOMEM;
	}
	t->mask = n_new - 1;
	for (uint32_t i = 0; i < n_old; i++) {
		bool found;
		size_t len;
		const uint8_t *k;

		if (old[i] == 0)
			continue;
		k = rec_key(seg, group, old[i] - 1, &len);
		t->slot[probe(seg, group, t, k, len, &found)] = old[i];
	}
	free(old);
	return 0;
}

/* Empty slot i, moving back the keys after it that probing would no
 * longer find (deletion without tombstones). */
static void
unslot(const struct fastmib_segment *seg, unsigned group, struct fms_keytab *t, uint32_t i)
{
	uint32_t j = i;

	t->slot[i] = 0;
	for (;;) {
		uint32_t home;
		const uint8_t *k;
		size_t len;

		j = (j + 1) & t->mask;
		if (t->slot[j] == 0)
			return;
		k = rec_key(seg, group, t->slot[j] - 1, &len);
		home = (uint32_t)hash(k, len) & t->mask;
		/* j's key may move to i when i lies between its home and j */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->slot[i] = t->slot[j];
			t->slot[j] = 0;
			i = j;
		}
	}
}

static void
log_append(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	struct fms_key_log *log = fms_key_log(seg, group);
	uint64_t h = __atomic_load_n(&log->head, __ATOMIC_RELAXED);

	__atomic_store_n(&log->entry[h % FMS_KEY_LOG], row, __ATOMIC_RELAXED);
	/* release: a reader that sees the new head sees the entry */
	__atomic_store_n(&log->head, h + 1, __ATOMIC_RELEASE);
}

/* Row r's key record := k: under its sequence number, so that a reader
 * never takes a half-written key for one. */
static void
write_key(struct fastmib_segment *seg, unsigned group, uint32_t r, const uint8_t *k,
	  size_t len)
{
	struct fms_key_rec *rec = fms_key_rec(seg, group, r);
	uint32_t sn = __atomic_load_n(&rec->seq, __ATOMIC_RELAXED);
	uint64_t words[(FASTMIB_MAX_KEY_BYTES + 7) / 8] = { 0 };

	memcpy(words, k, len);
	__atomic_store_n(&rec->seq, sn + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&rec->len, (uint32_t)len, __ATOMIC_RELAXED);
	for (size_t i = 0; i < (len + 7) / 8; i++)
		__atomic_store_n((uint64_t *)(void *)rec->key + i, words[i], __ATOMIC_RELAXED);
	__atomic_store_n(&rec->seq, sn + 2, __ATOMIC_RELEASE);
}

/* The table's index, made at its first use; checks the arguments. */
static int
keytab_of(struct fastmib_segment *seg, unsigned group, struct fms_keytab **tp)
{
	struct fms_writers *ws = seg->writers;
	struct fms_keytab *t;

	if (group >= seg->schema->n_groups || !fastmib_group_keyed(&seg->schema->groups[group]))
		return fms_error(-EINVAL, "%s: group %u is not a keyed table", seg->path, group);
	if (ws->keytabs == NULL &&
	    (ws->keytabs = calloc(seg->schema->n_groups, sizeof(*ws->keytabs))) == NULL)
		return fms_error(-ENOMEM, "out of memory");
	if ((t = ws->keytabs[group]) == NULL) {
		t = calloc(1, sizeof(*t));
		if (t == NULL || (t->slot = calloc(64, sizeof(*t->slot))) == NULL) {
			free(t);
			return fms_error(-ENOMEM, "out of memory");
		}
		t->mask = 63;
		ws->keytabs[group] = t;
	}
	*tp = t;
	return 0;
}

/* The order key of C key `key`, or -EINVAL with a message. */
static int
encode(const struct fastmib_segment *seg, unsigned group, const void *key, uint8_t *buf)
{
	int len = fastmib_key_encode(&seg->schema->groups[group], key, buf);

	if (len < 0)
		return fms_error(-EINVAL, "%s: group %s: not a key of the table (an empty or "
				 "too long string, an address type other than 1 or 2, an "
				 "integer index out of range)", seg->path,
				 seg->schema->groups[group].name);
	return len;
}

int
fastmib_key_insert(struct fastmib_segment *seg, unsigned group, const void *key, uint32_t *row)
{
	uint8_t k[FASTMIB_MAX_KEY_BYTES];
	struct fms_keytab *t;
	uint32_t i, r;
	bool found, from_free;
	int len, rc;

	if (seg == NULL || key == NULL || row == NULL)
		return fms_error(-EINVAL, "fastmib_key_insert: bad arguments");
	if (!seg->creator || seg->writers == NULL)
		return fms_error(-EPERM, "%s: only the creating process inserts and removes keys",
				 seg->path);
	pthread_mutex_lock(&seg->writers->key_lock);
	if ((rc = keytab_of(seg, group, &t)) || (rc = len = encode(seg, group, key, k)) < 0)
		goto out;
	rc = 0;
	i = probe(seg, group, t, k, (size_t)len, &found);
	if (found) {
		*row = t->slot[i] - 1;
		goto out;
	}
	if ((from_free = t->n_free > 0))
		r = t->free_rows[--t->n_free];
	else if (t->next_unused < seg->schema->groups[group].n_rows)
		r = t->next_unused++;
	else {
		rc = fms_error(-ENOSPC, "%s: group %s is full: it holds %u rows at most "
			       "(its capacity)", seg->path, seg->schema->groups[group].name,
			       seg->schema->groups[group].n_rows);
		goto out;
	}
	/* the record's pages, then the key, then the row present (its baseline
	 * first: a reused row starts at zero), then the log */
	rc = fms_alloc_once(seg, (uint64_t)((uint8_t *)fms_key_rec(seg, group, r) - seg->base),
			    seg->lay.groups[group].key_stride, "a key record");
	if (rc == 0) {
		write_key(seg, group, r, k, (size_t)len);
		rc = fastmib_row_enable(seg, group, r);
	}
	if (rc) {
		/* nothing happened: the row waits for the next insert */
		if (from_free)
			t->n_free++;
		else
			t->next_unused--;
		goto out;
	}
	t->slot[probe(seg, group, t, k, (size_t)len, &found)] = r + 1;
	t->n++;
	log_append(seg, group, r);
	if (2 * t->n > t->mask && grow(seg, group, t) < 0)
		FMS_LOG(NOTICE, "%s: group %s: the key index could not grow (out of memory); "
			"lookups get slower", seg->path, seg->schema->groups[group].name);
	*row = r;
out:
	pthread_mutex_unlock(&seg->writers->key_lock);
	return rc;
}

int
fastmib_key_find(struct fastmib_segment *seg, unsigned group, const void *key, uint32_t *row)
{
	uint8_t k[FASTMIB_MAX_KEY_BYTES];
	struct fms_keytab *t;
	uint32_t i;
	bool found;
	int len, rc;

	if (seg == NULL || key == NULL || row == NULL)
		return fms_error(-EINVAL, "fastmib_key_find: bad arguments");
	if (!seg->creator || seg->writers == NULL)
		return fms_error(-EPERM, "%s: only the creating process finds keys by C key "
				 "(readers: fastmib_keyed_find())", seg->path);
	pthread_mutex_lock(&seg->writers->key_lock);
	if ((rc = keytab_of(seg, group, &t)) == 0 && (len = encode(seg, group, key, k)) < 0)
		rc = len;
	if (rc == 0) {
		i = probe(seg, group, t, k, (size_t)len, &found);
		if (found)
			*row = t->slot[i] - 1;
		else
			rc = -ENOENT;
	}
	pthread_mutex_unlock(&seg->writers->key_lock);
	return rc;
}

int
fastmib_key_remove(struct fastmib_segment *seg, unsigned group, const void *key)
{
	uint8_t k[FASTMIB_MAX_KEY_BYTES];
	struct fms_keytab *t;
	uint32_t i, r;
	bool found;
	int len, rc;

	if (seg == NULL || key == NULL)
		return fms_error(-EINVAL, "fastmib_key_remove: bad arguments");
	if (!seg->creator || seg->writers == NULL)
		return fms_error(-EPERM, "%s: only the creating process inserts and removes keys",
				 seg->path);
	pthread_mutex_lock(&seg->writers->key_lock);
	if ((rc = keytab_of(seg, group, &t)) || (rc = len = encode(seg, group, key, k)) < 0)
		goto out;
	rc = 0;
	i = probe(seg, group, t, k, (size_t)len, &found);
	if (!found) {
		rc = -ENOENT;
		goto out;
	}
	r = t->slot[i] - 1;
	if (t->n_free == t->cap_free) {
		uint32_t cap = t->cap_free ? 2 * t->cap_free : 64;
		uint32_t *p = realloc(t->free_rows, cap * sizeof(*p));

		if (p == NULL) {
			rc = fms_error(-ENOMEM, "out of memory");
			goto out;
		}
		t->free_rows = p;
		t->cap_free = cap;
	}
	fastmib_row_disable(seg, group, r);
	unslot(seg, group, t, i);
	t->n--;
	t->free_rows[t->n_free++] = r;
	log_append(seg, group, r);
out:
	pthread_mutex_unlock(&seg->writers->key_lock);
	return rc;
}

void
fms_keytabs_free(struct fastmib_segment *seg)
{
	struct fms_writers *ws = seg->writers;

	if (ws->keytabs == NULL)
		return;
	for (uint32_t g = 0; g < seg->schema->n_groups; g++) {
		if (ws->keytabs[g] == NULL)
			continue;
		free(ws->keytabs[g]->slot);
		free(ws->keytabs[g]->free_rows);
		free(ws->keytabs[g]);
	}
	free(ws->keytabs);
	ws->keytabs = NULL;
}
