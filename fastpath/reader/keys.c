/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Readers of keyed tables: a row's key, and the keys in SNMP order.
 *
 * A segment keeps each row's order key in a record (struct fms_key_rec)
 * and a log of the rows whose key came or went (struct fms_key_log); the
 * creator's insert and remove are O(1), and keep no order. The order is
 * the readers': each handle keeps, per keyed table, its present rows
 * sorted by key (struct fms_key_order), built once from the records and
 * then brought up to date from the log before every lookup:
 *
 *   merged  the entries sorted at the last merge
 *   delta   entries of rows inserted since, sorted (a few thousand at most)
 *
 * An entry is a copy of a row's key and of its record's sequence number.
 * It is valid while the row is present and its record has that sequence
 * number; an entry of a row removed, or removed and inserted again with
 * another key, is skipped where a lookup meets it (and dropped at the next
 * merge). Lookups are binary searches of both arrays, O(log n); a merge,
 * O(n), comes after FMS_DELTA_MAX inserts or when the stale entries reach
 * an eighth of merged, so its cost per change stays flat; a log that ran
 * more than FMS_KEY_LOG entries ahead of the handle means a rebuild from
 * the records (O(n log n)).
 *
 * Every lookup answers from entries that were valid when it looked, so a
 * walk never goes backwards or repeats an index: what comes after an index
 * is always greater than it, whatever was inserted or removed meanwhile.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "handle.h"

/* Inserts applied to delta before a merge. */
#define FMS_DELTA_MAX 4096

/* One entry: a copy of a row's key. */
struct ko_ent {
	uint32_t row;
	uint32_t seq;   /* the record's sequence number when copied */
	uint16_t len;
	uint8_t key[];
};

struct fms_key_order {
	pthread_mutex_t lock;   /* one handle may serve several threads */
	size_t stride;          /* bytes per entry */
	uint64_t log_pos;       /* log entries applied */
	uint8_t *merged, *delta;
	uint32_t n_merged, n_delta, cap_main;
	uint32_t stale;         /* changes logged since the last merge */
	int built;
	/* where the next step of a walk likely starts in each array: a walk
	 * asks for what follows the index it was just given (see next_in) */
	uint32_t hint_main, hint_delta;
};

static inline struct ko_ent *
ent(const struct fms_key_order *o, uint8_t *base, uint32_t i)
{
	return (struct ko_ent *)(void *)(base + (size_t)i * o->stride);
}

/* ---- a row's key ---- */

int
fms_key_read(struct fastmib_segment *seg, unsigned group, uint32_t row, uint8_t *buf,
	     size_t *len, uint32_t *seqp)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	const struct fms_key_rec *r;
	uint32_t max = fastmib_key_max_bytes(g);

	if (row >= g->n_rows || !fastmib_row_present(seg, group, row))
		return -ENOENT;
	r = fms_key_rec(seg, group, row);
	for (int t = 0; t < FASTMIB_READ_MAX_TRIES; t++) {
		uint32_t sn = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE), l;
		uint64_t words[(FASTMIB_MAX_KEY_BYTES + 7) / 8];

		if (sn & 1)
			continue;
		l = __atomic_load_n(&r->len, __ATOMIC_RELAXED);
		if (l > max)
			return -ENOENT; /* a record no creator wrote */
		for (uint32_t i = 0; i < (l + 7) / 8; i++)
			words[i] = __atomic_load_n((const uint64_t *)(const void *)r->key + i,
						   __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&r->seq, __ATOMIC_RELAXED) != sn)
			continue;
		memcpy(buf, words, l);
		if (!fastmib_key_valid(g, buf, l))
			return -ENOENT;
		*len = l;
		if (seqp)
			*seqp = sn;
		return 0;
	}
	return -ENOENT; /* being rewritten all along: as good as absent now */
}

/* Is entry e still the key of its row? */
static bool
ent_valid(struct fastmib_segment *seg, unsigned group, const struct ko_ent *e)
{
	return fastmib_row_present(seg, group, e->row) &&
	       __atomic_load_n(&fms_key_rec(seg, group, e->row)->seq, __ATOMIC_ACQUIRE) ==
		       e->seq;
}

/* ---- building and keeping the order ---- */

static int
ent_cmp(const void *a, const void *b)
{
	const struct ko_ent *x = a, *y = b;

	return fastmib_key_cmp(x->key, x->len, y->key, y->len);
}

/* Room for n entries in merged. */
static int
reserve_main(struct fms_key_order *o, uint32_t n)
{
	uint8_t *p;

	if (n <= o->cap_main)
		return 0;
	p = realloc(o->merged, (size_t)n * o->stride);
	if (p == NULL)
		return -ENOMEM;
	o->merged = p;
	o->cap_main = n;
	return 0;
}

/* Copy row r's key into e; false when the row is absent. */
static bool
copy_key(struct fastmib_segment *seg, unsigned group, uint32_t r, struct ko_ent *e)
{
	size_t len;

	if (fms_key_read(seg, group, r, e->key, &len, &e->seq) != 0)
		return false;
	e->row = r;
	e->len = (uint16_t)len;
	return true;
}

/* Every present row, from the records: the log position first, so that
 * whatever changes while we scan is applied again afterwards. */
static int
rebuild(struct fastmib_segment *seg, unsigned group, struct fms_key_order *o)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	uint32_t n = 0;

	o->log_pos = __atomic_load_n(&fms_key_log(seg, group)->head, __ATOMIC_ACQUIRE);
	for (int64_t r = fastmib_next_row(seg, group, 0); r >= 0;
	     r = (uint64_t)r + 1 < g->n_rows ? fastmib_next_row(seg, group, (uint32_t)r + 1)
					    : -1) {
		if (n == o->cap_main && reserve_main(o, o->cap_main ? 2 * o->cap_main : 1024))
			return -ENOMEM;
		if (copy_key(seg, group, (uint32_t)r, ent(o, o->merged, n)))
			n++;
	}
	if (n > 0) /* an empty table has no array to sort (qsort of NULL) */
		qsort(o->merged, n, o->stride, ent_cmp);
	o->n_merged = n;
	o->n_delta = 0;
	o->stale = 0;
	o->built = 1;
	return 0;
}

/* merged := the valid entries of merged and delta, in order. */
static int
merge(struct fastmib_segment *seg, unsigned group, struct fms_key_order *o)
{
	uint8_t *out = malloc(((size_t)o->n_merged + o->n_delta + 1) * o->stride);
	uint32_t i = 0, j = 0, n = 0;

	if (out == NULL)
		return -ENOMEM;
	while (i < o->n_merged || j < o->n_delta) {
		struct ko_ent *a = i < o->n_merged ? ent(o, o->merged, i) : NULL;
		struct ko_ent *b = j < o->n_delta ? ent(o, o->delta, j) : NULL;
		struct ko_ent *e;

		if (b == NULL || (a != NULL && ent_cmp(a, b) <= 0)) {
			e = a;
			i++;
		} else {
			e = b;
			j++;
		}
		if (ent_valid(seg, group, e))
			memcpy(ent(o, out, n++), e, o->stride);
	}
	free(o->merged);
	o->merged = out;
	o->cap_main = o->n_merged + o->n_delta + 1;
	o->n_merged = n;
	o->n_delta = 0;
	o->stale = 0;
	return 0;
}

/* Insert a copy of row r's key into delta, in order. */
static void
delta_add(struct fastmib_segment *seg, unsigned group, struct fms_key_order *o, uint32_t r)
{
	struct ko_ent *e = ent(o, o->delta, o->n_delta);
	uint32_t lo = 0, hi = o->n_delta;

	if (!copy_key(seg, group, r, e))
		return;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ent_cmp(ent(o, o->delta, mid), e) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < o->n_delta) {
		uint8_t tmp[sizeof(struct ko_ent) + FASTMIB_MAX_KEY_BYTES + 8];

		memcpy(tmp, e, o->stride);
		memmove(ent(o, o->delta, lo + 1), ent(o, o->delta, lo),
			(size_t)(o->n_delta - lo) * o->stride);
		memcpy(ent(o, o->delta, lo), tmp, o->stride);
	}
	o->n_delta++;
}

/* Apply what the log says changed since this handle looked. */
static int
refresh(struct fastmib_segment *seg, unsigned group, struct fms_key_order *o)
{
	const struct fms_key_log *log = fms_key_log(seg, group);
	uint64_t head = __atomic_load_n(&log->head, __ATOMIC_ACQUIRE), n;
	uint32_t rows[FMS_KEY_LOG];

	if (!o->built || head - o->log_pos > FMS_KEY_LOG)
		return rebuild(seg, group, o);
	if (head == o->log_pos)
		return 0;
	n = head - o->log_pos;
	for (uint64_t i = 0; i < n; i++)
		rows[i] = __atomic_load_n(&log->entry[(o->log_pos + i) % FMS_KEY_LOG],
					  __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* entries overwritten while we read them: start again from the records */
	if (__atomic_load_n(&log->head, __ATOMIC_RELAXED) - o->log_pos > FMS_KEY_LOG)
		return rebuild(seg, group, o);
	for (uint64_t i = 0; i < n; i++) {
		if (rows[i] >= seg->schema->groups[group].n_rows)
			continue; /* not a row: a damaged log */
		if (o->n_delta == FMS_DELTA_MAX) {
			int rc = merge(seg, group, o);

			if (rc)
				return rc;
		}
		delta_add(seg, group, o, rows[i]);
		o->stale++;
	}
	o->log_pos = head;
	if (o->stale > o->n_merged / 8 + 64)
		return merge(seg, group, o);
	return 0;
}

static struct fms_key_order *
order_of(struct fastmib_segment *seg, unsigned group)
{
	static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
	struct fms_key_order *o;

	pthread_mutex_lock(&create_lock);
	if (seg->orders == NULL)
		seg->orders = calloc(seg->schema->n_groups, sizeof(*seg->orders));
	o = seg->orders ? seg->orders[group] : NULL;
	if (seg->orders && o == NULL) {
		o = calloc(1, sizeof(*o));
		if (o) {
			o->stride = (sizeof(struct ko_ent) +
				     fastmib_key_max_bytes(&seg->schema->groups[group]) + 7) / 8 * 8;
			o->delta = malloc((size_t)FMS_DELTA_MAX * o->stride);
			if (o->delta == NULL) {
				free(o);
				o = NULL;
			} else {
				pthread_mutex_init(&o->lock, NULL);
				seg->orders[group] = o;
			}
		}
	}
	pthread_mutex_unlock(&create_lock);
	return o;
}

void
fms_key_orders_free(struct fastmib_segment *seg)
{
	if (seg->orders == NULL)
		return;
	for (uint32_t i = 0; i < seg->schema->n_groups; i++) {
		struct fms_key_order *o = seg->orders[i];

		if (o == NULL)
			continue;
		pthread_mutex_destroy(&o->lock);
		free(o->merged);
		free(o->delta);
		free(o);
	}
	free(seg->orders);
	seg->orders = NULL;
}

/* ---- lookups ---- */

/* The position of the first valid entry of arr[from..n), or n. */
static uint32_t
first_valid(struct fastmib_segment *seg, unsigned group, const struct fms_key_order *o,
	    uint8_t *arr, uint32_t from, uint32_t n)
{
	for (uint32_t i = from; i < n; i++)
		if (ent_valid(seg, group, ent(o, arr, i)))
			return i;
	return n;
}

/* Does idx come before the key of arr[i] (or at it, when `inclusive`)? */
static bool
idx_before(const struct fastmib_group_schema *g, const struct fms_key_order *o, uint8_t *arr,
	   uint32_t i, const uint64_t *idx, size_t idx_n, bool inclusive)
{
	const struct ko_ent *e = ent(o, arr, i);
	int c = fastmib_key_cmp_index(g, e->key, e->len, idx, idx_n);

	return c > 0 || (c == 0 && inclusive);
}

/*
 * The position of the first entry of arr[0..n) whose index is after idx
 * (or at it, when `inclusive`), valid; n when there is none. `hint` is
 * where the search may start: it is taken when the entries on each side
 * of it prove it right (two comparisons, where a binary search makes
 * log2 n, each a likely cache miss in a large table); a walk's next step
 * starts just after the entry its last step returned.
 */
static uint32_t
next_in(struct fastmib_segment *seg, unsigned group, const struct fms_key_order *o,
	uint8_t *arr, uint32_t n, const uint64_t *idx, size_t idx_n, bool inclusive,
	uint32_t hint)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	uint32_t lo = 0, hi = n;

	if (hint <= n && (hint == 0 || !idx_before(g, o, arr, hint - 1, idx, idx_n, inclusive)) &&
	    (hint == n || idx_before(g, o, arr, hint, idx, idx_n, inclusive)))
		return first_valid(seg, group, o, arr, hint, n);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (idx_before(g, o, arr, mid, idx, idx_n, inclusive))
			hi = mid;
		else
			lo = mid + 1;
	}
	return first_valid(seg, group, o, arr, lo, n);
}

/* Exact: the valid entry of arr[0..n) with key k. */
static struct ko_ent *
find_in(struct fastmib_segment *seg, unsigned group, const struct fms_key_order *o,
	uint8_t *arr, uint32_t n, const uint8_t *k, size_t len)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct ko_ent *e = ent(o, arr, mid);

		if (fastmib_key_cmp(e->key, e->len, k, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* equal keys: a stale entry may come first */
	for (; lo < n; lo++) {
		struct ko_ent *e = ent(o, arr, lo);

		if (fastmib_key_cmp(e->key, e->len, k, len) != 0)
			return NULL;
		if (ent_valid(seg, group, e))
			return e;
	}
	return NULL;
}

static int
check_keyed(const struct fastmib_segment *seg, unsigned group)
{
	if (group >= seg->schema->n_groups || !fastmib_group_keyed(&seg->schema->groups[group]))
		return fms_error(-EINVAL, "%s: group %u is not a keyed table", seg->path, group);
	return 0;
}

static int64_t
fastmib_keyed_find_mapped(struct fastmib_segment *seg, unsigned group, const uint8_t *key,
			  size_t len)
{
	struct fms_key_order *o;
	struct ko_ent *e;
	int64_t row = -ENOENT;
	int rc;

	if ((rc = check_keyed(seg, group)))
		return rc;
	if ((o = order_of(seg, group)) == NULL)
		return fms_error(-ENOMEM, "out of memory");
	pthread_mutex_lock(&o->lock);
	rc = refresh(seg, group, o);
	if (rc == 0) {
		e = find_in(seg, group, o, o->delta, o->n_delta, key, len);
		if (e == NULL)
			e = find_in(seg, group, o, o->merged, o->n_merged, key, len);
		if (e != NULL)
			row = e->row;
	}
	pthread_mutex_unlock(&o->lock);
	return rc ? rc : row;
}

static int64_t
fastmib_keyed_next_mapped(struct fastmib_segment *seg, unsigned group, const uint64_t *idx,
			  size_t n, bool inclusive, uint8_t *key, size_t *len)
{
	struct fms_key_order *o;
	struct ko_ent *a, *b, *e = NULL;
	int64_t row = -ENOENT;
	int rc;

	if ((rc = check_keyed(seg, group)))
		return rc;
	if ((o = order_of(seg, group)) == NULL)
		return fms_error(-ENOMEM, "out of memory");
	pthread_mutex_lock(&o->lock);
	rc = refresh(seg, group, o);
	if (rc == 0) {
		uint32_t pa = next_in(seg, group, o, o->merged, o->n_merged, idx, n, inclusive,
				      o->hint_main);
		uint32_t pb = next_in(seg, group, o, o->delta, o->n_delta, idx, n, inclusive,
				      o->hint_delta);

		a = pa < o->n_merged ? ent(o, o->merged, pa) : NULL;
		b = pb < o->n_delta ? ent(o, o->delta, pb) : NULL;
		e = a == NULL ? b : b == NULL ? a : ent_cmp(a, b) <= 0 ? a : b;
		/* the next step of a walk asks for what follows e */
		o->hint_main = e != NULL && e == a ? pa + 1 : pa;
		o->hint_delta = e != NULL && e == b ? pb + 1 : pb;
		if (e != NULL) {
			row = e->row;
			memcpy(key, e->key, e->len);
			*len = e->len;
		}
	}
	pthread_mutex_unlock(&o->lock);
	return rc ? rc : row;
}

static int
fastmib_row_key_mapped(struct fastmib_segment *seg, unsigned group, uint32_t row,
		       uint8_t *key, size_t *len)
{
	int rc = check_keyed(seg, group);

	return rc ? rc : fms_key_read(seg, group, row, key, len, NULL);
}

int
fastmib_keyed_read(struct fastmib_segment *seg, unsigned group, uint32_t row,
		   const uint8_t *key, size_t len, uint64_t *values)
{
	uint8_t now[FASTMIB_MAX_KEY_BYTES];
	size_t now_len;
	int rc = check_keyed(seg, group);

	if (rc == 0)
		rc = fastmib_read(seg, group, row, values);
	if (rc < 0 && rc != -EBUSY)
		return rc;
	/* after the read: the key the values were read under is still the
	 * row's, so they are that key's (a row removed and given to another
	 * key meanwhile starts again from its new baseline) */
	if (fastmib_row_key(seg, group, row, now, &now_len) != 0 || now_len != len ||
	    memcmp(now, key, len) != 0)
		return -ENOENT;
	return rc;
}

FMS_GUARDED_ENTRY(int64_t, fastmib_keyed_find,
		  (struct fastmib_segment *seg, unsigned group, const uint8_t *key, size_t len),
		  (seg, group, key, len), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(int64_t, fastmib_keyed_next,
		  (struct fastmib_segment *seg, unsigned group, const uint64_t *idx, size_t n,
		   bool inclusive, uint8_t *key, size_t *len),
		  (seg, group, idx, n, inclusive, key, len), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(int, fastmib_row_key,
		  (struct fastmib_segment *seg, unsigned group, uint32_t row, uint8_t *key,
		   size_t *len),
		  (seg, group, row, key, len), fms_faulted_error(seg), -EIO)
