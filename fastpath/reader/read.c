/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Readers: bounded seqcount snapshots, baseline subtraction and the
 * two-level presence bitmap. Readers only load from the segment.
 *
 * Snapshot protocol (per lcore block, or the shared area):
 *   sn = rte_seqcount_read_begin()      load-acquire of the sequence;
 *                                       odd: pause, load it again
 *   relaxed atomic loads of the row     never torn (64-bit aligned words),
 *                                       copied whole into a local array
 *   rte_seqcount_read_retry(sn)         acquire fence, reload the sequence
 * The acquire load pairs with the writer's store-release in write_end(), so
 * a reader whose load returned an even value sees every store of the
 * transactions before it; the fence before the reload orders the data
 * loads before it, so an unchanged even sequence proves no writer was
 * inside its section during the loads. Odd values are only waited on: no
 * data is loaded under them, so the waiting adds no case to the argument.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "handle.h"
#include "seq_shim.h"

/* Attempts charged for one rte_pause() while a writer is inside its section. */
#define FMS_READ_WAIT_COST 32

static inline void
stat_add(uint64_t *c, uint64_t n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

/* Every word of a shared-atomic row: each atomic on its own. */
static inline void
load_row(const uint8_t *row, uint32_t n_words, uint64_t *out)
{
	for (uint32_t i = 0; i < n_words; i++)
		out[i] = __atomic_load_n((const uint64_t *)(const void *)row + i, __ATOMIC_RELAXED);
}

/* Copy `n` consecutive 64-bit words; the tightest loop a read section can have. */
static inline void
copy_words(const uint64_t *src, uint64_t *dst, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/*
 * The row's words and, when `acks` is not NULL (a group with peaks), the
 * slot's two peak acknowledgements after them: both are stored by the
 * slot's writer inside its write section, so copied inside one read
 * section they are of one moment.
 */
static inline __attribute__((always_inline)) void
copy_row(const uint64_t *row, uint32_t n_words, const uint64_t *acks, uint64_t *words)
{
	copy_words(row, words, n_words);
	if (acks)
		copy_words(acks, words + n_words, 2);
}

/*
 * One bounded snapshot of the `n_words` words at `row` under `sc`, into
 * `words` (and the slot's peak acknowledgements `acks`, when not NULL,
 * into words[n_words..n_words + 2)). Returns the attempts it spent beyond
 * the first, or -1 once the budget of FASTMIB_READ_MAX_TRIES attempts is
 * gone (then `words` holds one untorn but possibly mid-transaction copy).
 *
 * An odd sequence means a writer is inside its section: copying the row
 * then is wasted work, and the copy pulls the row's cache lines away from
 * the writer, which makes its section longer. So we wait on the sequence
 * alone (rte_pause() between loads) and copy the row the moment it turns
 * even, when the writer has just left. Only the copy sits between the two
 * sequence loads; picking counters out of the copy comes later.
 *
 * A pause costs far more than an attempt at copying a cached row (x86: a
 * few dozen ns against ~1 ns), so each wait is charged FMS_READ_WAIT_COST
 * attempts. A writer stuck in its section thus costs a reader at most
 * FASTMIB_READ_MAX_TRIES / FMS_READ_WAIT_COST loads and pauses per slot,
 * about the wall time FASTMIB_READ_MAX_TRIES copy attempts used to take.
 */
static int
copy_in_section(const struct fms_seqcount *seq, const uint64_t *row, uint32_t n_words,
		const uint64_t *acks, uint64_t *words)
{
	const rte_seqcount_t *sc = fms_rte_seqcount_const(seq);

	for (int t = 0; t < FASTMIB_READ_MAX_TRIES; t++) {
		uint32_t sn = rte_seqcount_read_begin(sc);

		if (sn & 1) {
			t += FMS_READ_WAIT_COST - 1;
			rte_pause();
			continue;
		}
		copy_row(row, n_words, acks, words);
		if (!rte_seqcount_read_retry(sc, sn))
			return t;
	}
	copy_row(row, n_words, acks, words);
	return -1;
}

/* Add the attempts of a copy_in_section() that returned `r` to *retries
 * (all of them when it gave up) and set *busy when it gave up. */
static inline void
count_snap(int r, uint64_t *retries, int *busy)
{
	if (r < 0) {
		*busy = 1;
		*retries += FASTMIB_READ_MAX_TRIES - 1;
	} else {
		*retries += (uint64_t)r;
	}
}

static inline const uint64_t *
row_at(const uint8_t *base, uint64_t off)
{
	return (const uint64_t *)(const void *)(base + off);
}

int
fms_read_raw_row(struct fastmib_segment *seg, unsigned group, uint32_t row,
		 uint64_t *values)
{
	return fms_read_raw_row_own(seg, group, row, values, NULL, FMS_NO_SLOT);
}

uint32_t
fms_own_slot(const struct fastmib_segment *seg)
{
	uint32_t pid, tid;

	if (!seg->creator)
		return FMS_NO_SLOT;
	pid = (uint32_t)getpid();
	tid = (uint32_t)syscall(SYS_gettid);
	for (uint32_t s = 0; s < seg->n_slots; s++) {
		const struct fms_slot *sl = fms_slot(seg, s);

		if (__atomic_load_n(&sl->owner_tid, __ATOMIC_RELAXED) == tid &&
		    __atomic_load_n(&sl->owner_pid, __ATOMIC_RELAXED) == pid)
			return s;
	}
	return FMS_NO_SLOT;
}

/*
 * fms_read_raw_row() with the handle's patience (see fastmib_read() for
 * the rule), and the row's peak resets `gens` (NULL: none taken into
 * account). Only the rare bounded case pays for any of this: it looks up
 * the caller's own slot (a writer reading inside its own transaction must
 * not wait for itself), then naps and reads again until the deadline.
 */
static int
read_row_patiently(struct fastmib_segment *seg, unsigned group, uint32_t row,
		   uint64_t *values, const uint64_t *gens)
{
	static const struct timespec nap = { 0, 20000 };
	int rc = fms_read_raw_row_own(seg, group, row, values, gens, FMS_NO_SLOT);
	uint32_t own;
	uint64_t now, deadline;

	if (rc != -EBUSY)
		return rc;
	own = fms_own_slot(seg);
	if (own != FMS_NO_SLOT &&
	    (rc = fms_read_raw_row_own(seg, group, row, values, gens, own)) == 0)
		return 0;
	now = fms_mono_ns();
	if (seg->read_patience_ns == 0 ||
	    now < __atomic_load_n(&seg->stuck_until, __ATOMIC_RELAXED))
		return rc;
	for (deadline = now + seg->read_patience_ns; rc == -EBUSY && now < deadline;
	     now = fms_mono_ns()) {
		nanosleep(&nap, NULL);
		rc = fms_read_raw_row_own(seg, group, row, values, gens, own);
	}
	if (rc == -EBUSY)
		__atomic_store_n(&seg->stuck_until, now + FASTMIB_READ_HOLDOFF_NS,
				 __ATOMIC_RELAXED);
	return rc;
}

/* A value about to be handed out best effort: counted in the segment by
 * the handles that serve values (those that may write its reset area). */
static void
count_best_effort(struct fastmib_segment *seg)
{
	if (seg->reset_writable)
		__atomic_fetch_add(&seg->reset_head->best_effort, 1, __ATOMIC_RELAXED);
}

/* Is word w a peak's (struct fms_group_layout.peak_words)? */
static inline bool
is_peak_word(const struct fms_group_layout *gl, uint32_t w)
{
	return (gl->peak_words[w / 64] >> (w % 64)) & 1;
}

/*
 * One slot's copy of a row of a group with peaks into the combination:
 * its counter words added, its peak words taken into the maximum when the
 * slot has applied every reset of the row (`gens`: the entries of both
 * peak logs that last reset it; NULL: every copy counts). A slot behind
 * has recorded nothing since the reset, as far as readers know: what it
 * recorded before and after it share one word until it zeroes it.
 */
static void
combine_with_peaks(const struct fms_group_layout *gl, const uint64_t *words, uint32_t n_words,
		   const uint64_t *gens, uint64_t *values)
{
	const uint64_t *acks = words + n_words;
	bool applied = !gens || (acks[FMS_PEAK_RESETS] >= gens[FMS_PEAK_RESETS] &&
				 acks[FMS_PEAK_ENABLES] >= gens[FMS_PEAK_ENABLES]);

	for (uint32_t i = 0; i < n_words; i++) {
		if (!is_peak_word(gl, i))
			values[i] += words[i];
		else if (applied && words[i] > values[i])
			values[i] = words[i];
	}
}

int
fms_read_raw_row_own(struct fastmib_segment *seg, unsigned group, uint32_t row,
		     uint64_t *values, const uint64_t *gens, uint32_t own)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	const struct fms_group_layout *gl = &seg->lay.groups[group];
	uint64_t off = g->offset + (uint64_t)row * g->row_size;
	uint32_t n_words = g->row_size / 8;
	uint64_t words[FASTMIB_MAX_ROW_WORDS + 2];
	uint64_t retries = 0;
	int busy = 0, r;

	switch (g->storage) {
	case FASTMIB_STORAGE_PER_CORE:
		memset(values, 0, n_words * sizeof(*values));
		/* One slot at a time: a writer busy on one lcore does not make
		 * us copy the other lcores' rows again. */
		for (uint32_t s = 0; s < seg->n_slots; s++) {
			const uint64_t *acks = gl->has_peaks ? fms_slot(seg, s)->peak_ack : NULL;
			const uint64_t *src;

			if (!fms_slot_ready(seg, s))
				continue; /* never written, and not to be touched */
			src = row_at(fms_slot_data(seg, s), off);
			if (s == own) {
				copy_row(src, n_words, acks, words);
				r = 0;
			} else {
				r = copy_in_section(&fms_slot(seg, s)->seq, src, n_words, acks, words);
			}
			count_snap(r, &retries, &busy);
			if (gl->has_peaks) {
				combine_with_peaks(gl, words, n_words, gens, values);
				continue;
			}
			for (uint32_t i = 0; i < n_words; i++)
				values[i] += words[i];
		}
		break;
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		r = copy_in_section(&seg->shared_head->lock.count, row_at(seg->shared, off),
				    n_words, NULL, values);
		count_snap(r, &retries, &busy);
		break;
	default:
		/* Shared-atomic: each word is atomic; no group snapshot exists. */
		load_row(seg->shared + off, n_words, values);
		break;
	}
	stat_add(&seg->stats.reads, 1);
	if (retries)
		stat_add(&seg->stats.retries, retries);
	if (busy)
		stat_add(&seg->stats.bounded, 1);
	return busy ? -EBUSY : 0;
}

/* The reset entries a row's record names in its first peak word: the
 * same in every peak word of a half (a reset takes the row's peaks
 * together). */
static void
peak_gens_of(const struct fms_group_layout *gl, const uint64_t *copy, uint64_t half,
	     uint64_t words, uint64_t *gens)
{
	uint32_t w = 0;

	while (!is_peak_word(gl, w))
		w++;
	gens[FMS_PEAK_RESETS] = copy[FMS_REC_BASE + w];
	gens[FMS_PEAK_ENABLES] = words > half ? copy[half + FMS_REC_BASE + w] : 0;
}

/*
 * Both halves of a row record are copied under the read protocol of the
 * two seqcounts that guard them (resetters': the reset seqlock's; the
 * creator's: enable_seq), then the half of the newer epoch is the
 * baseline. Gauges have a zero baseline in both halves. In a group with
 * peaks, `gens` (when not NULL) gets the peak log entries that last reset
 * the row, from both halves: every one of them must have been applied by
 * a slot whose peak words are taken.
 */
int
fms_read_baseline(struct fastmib_segment *seg, unsigned group, uint32_t row,
		  uint64_t *base, uint64_t *time, uint64_t *gens)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	const struct fms_group_layout *gl = &seg->lay.groups[group];
	const rte_seqcount_t *rs = fms_rte_seqcount_const(&seg->reset_head->lock.count);
	const rte_seqcount_t *es = fms_rte_seqcount_const(&seg->reset_head->enable_seq);
	const uint64_t *rec = fms_reset_row(seg, group, row);
	uint64_t half = fms_rec_half_words(g);
	uint64_t words = fms_rec_words(g);
	uint64_t copy[2 * (FMS_REC_BASE + FASTMIB_MAX_ROW_WORDS)];

	if (gens)
		gens[FMS_PEAK_RESETS] = gens[FMS_PEAK_ENABLES] = 0;
	if (!fms_row_stored(seg, group, row)) {
		/* Never stored: a zero baseline, and not a load from the record,
		 * which may be an unallocated page. */
		memset(base, 0, (g->row_size / 8) * sizeof(*base));
		if (time)
			*time = 0;
		return 0;
	}
	for (int t = 0;; t++) {
		uint32_t rsn = rte_seqcount_read_begin(rs);
		uint32_t esn = rte_seqcount_read_begin(es);
		const uint64_t *pick;
		bool torn;

		for (uint64_t i = 0; i < words; i++)
			copy[i] = __atomic_load_n(&rec[i], __ATOMIC_RELAXED);
		torn = rte_seqcount_read_retry(rs, rsn) || rte_seqcount_read_retry(es, esn);
		if (torn && t + 1 < FASTMIB_READ_MAX_TRIES)
			continue;
		/* the last copy, torn or not: the best effort there is (a
		 * resetter or the creator stayed inside its write section) */
		pick = copy;
		if (words > half && copy[half + FMS_REC_EPOCH] > copy[FMS_REC_EPOCH])
			pick = copy + half;
		memcpy(base, pick + FMS_REC_BASE, (g->row_size / 8) * sizeof(*base));
		if (time) {
			*time = copy[FMS_REC_TIME];
			if (words > half && copy[half + FMS_REC_TIME] > *time)
				*time = copy[half + FMS_REC_TIME];
		}
		if (gens && gl->has_peaks)
			peak_gens_of(gl, copy, half, words, gens);
		return torn ? -EBUSY : 0;
	}
}

static int
check_row(const struct fastmib_segment *seg, unsigned group, uint32_t *row)
{
	const struct fastmib_group_schema *g;

	if (group >= seg->schema->n_groups)
		return fms_error(-EINVAL, "group %u does not exist (%u groups)", group,
				 seg->schema->n_groups);
	g = &seg->schema->groups[group];
	if (g->n_indexes == 0) {
		*row = 0;
		return 0;
	}
	if (*row >= g->n_rows)
		return fms_error(-EINVAL, "group %s: row %u out of range (%u rows)", g->name,
				 *row, g->n_rows);
	if (!fastmib_row_present(seg, group, *row))
		return fms_error(-ENOENT, "group %s: row %u is not present", g->name, *row);
	return 0;
}

static int
fastmib_read_raw_mapped(struct fastmib_segment *seg, unsigned group, uint32_t row,
		 uint64_t *values)
{
	int rc = check_row(seg, group, &row);

	if (rc)
		return rc;
	rc = read_row_patiently(seg, group, row, values, NULL);
	if (rc == -EBUSY)
		count_best_effort(seg);
	if (rc)
		fms_error(rc, "%s: group %s: a writer stays inside its transaction; "
			  "best-effort values", seg->path, seg->schema->groups[group].name);
	return rc;
}

/* Reads of a row that a new life took over, before one is taken as best
 * effort: a row recycled that often during one read is not a case. */
#define FMS_READ_LIFE_TRIES 8

/*
 * Did the row's baseline move since `base` was read, a row enable having
 * come in between (enable_seq moved from esn)? Then the counts just read
 * may belong to a later life of the row (a flow's row given to another
 * flow, a key removed and another inserted on its row) than the baseline:
 * subtracted, the old life's counts would show as the new one's. Counter
 * baselines are snapshots of ever-growing raw counts, so an unchanged one
 * proves that none came in between; peak words hold the reset that last
 * took the row's peaks, which a new life changes too.
 */
static bool
baseline_moved(struct fastmib_segment *seg, unsigned group, uint32_t row, uint32_t esn,
	       const uint64_t *base)
{
	const rte_seqcount_t *es = fms_rte_seqcount_const(&seg->reset_head->enable_seq);
	uint64_t now[FASTMIB_MAX_ROW_WORDS];

	/* the fence in read_retry orders the counter loads before this one */
	if (!rte_seqcount_read_retry(es, esn))
		return false;
	return fms_read_baseline(seg, group, row, now, NULL, NULL) != 0 ||
	       memcmp(now, base, (seg->schema->groups[group].row_size / 8) * sizeof(*now)) != 0;
}

/* values - base, word by word, but a peak's: it has no baseline. */
static void
subtract_baseline(const struct fastmib_group_schema *g, const struct fms_group_layout *gl,
		  uint64_t *values, const uint64_t *base)
{
	uint32_t n_words = g->row_size / 8;

	if (!gl->has_peaks) {
		/* a gauge's baseline is 0 */
		for (uint32_t i = 0; i < n_words; i++)
			values[i] -= base[i];
		return;
	}
	for (uint32_t i = 0; i < n_words; i++)
		if (!is_peak_word(gl, i))
			values[i] -= base[i];
}

/*
 * The baseline is read first: it is a snapshot taken before we load the
 * counters (acquire on the reset sequence orders our later loads after the
 * resetter's), so every counter read afterwards is >= its baseline modulo
 * 2^64 and the unsigned difference never goes "negative". Baseline and
 * counts must be of one life of the row: an enable between them means
 * reading again (baseline_moved()). The peak resets named with it are
 * read first too: a slot that acknowledged them had zeroed its peak words
 * before it did, so what its words hold was recorded since.
 */
static int
fastmib_read_mapped(struct fastmib_segment *seg, unsigned group, uint32_t row,
	     uint64_t *values)
{
	const rte_seqcount_t *es = fms_rte_seqcount_const(&seg->reset_head->enable_seq);
	uint64_t base[FASTMIB_MAX_ROW_WORDS], gens[2];
	const struct fastmib_group_schema *g;
	int rc = check_row(seg, group, &row), rb;

	if (rc)
		return rc;
	g = &seg->schema->groups[group];
	for (int t = 0;; t++) {
		uint32_t esn = rte_seqcount_read_begin(es);

		rb = fms_read_baseline(seg, group, row, base, NULL, gens);
		rc = read_row_patiently(seg, group, row, values, gens);
		/* a baseline read best effort: no life can be told from another */
		if (rb || !baseline_moved(seg, group, row, esn, base))
			break;
		if (t + 1 == FMS_READ_LIFE_TRIES) {
			rb = -EBUSY;
			break;
		}
	}
	subtract_baseline(g, &seg->lay.groups[group], values, base);
	if (rc || rb) {
		if (rb && !rc)
			stat_add(&seg->stats.bounded, 1);
		count_best_effort(seg);
		return fms_error(-EBUSY, "%s: group %s: %s; best-effort values", seg->path,
				 g->name, rc ? "a writer stays inside its transaction" :
				 "its baseline kept changing (a reset, or the row enabled again)");
	}
	return 0;
}

void
fastmib_set_read_patience(struct fastmib_segment *seg, uint64_t ns)
{
	seg->read_patience_ns = ns;
}

void
fastmib_read_stats(const struct fastmib_segment *seg, struct fastmib_read_stats *st)
{
	st->reads = __atomic_load_n(&seg->stats.reads, __ATOMIC_RELAXED);
	st->retries = __atomic_load_n(&seg->stats.retries, __ATOMIC_RELAXED);
	st->bounded = __atomic_load_n(&seg->stats.bounded, __ATOMIC_RELAXED);
}

/* ---- presence ---- */

static bool
fastmib_row_present_mapped(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g;
	const uint64_t *words;

	if (group >= seg->schema->n_groups)
		return false;
	g = &seg->schema->groups[group];
	if (g->n_indexes == 0)
		return row == 0;
	if (row >= g->n_rows)
		return false;
	words = fms_presence(seg, group);
	if (words == NULL)
		return true;
	return (__atomic_load_n(&words[row / 64], __ATOMIC_ACQUIRE) >> (row % 64)) & 1;
}

/* Bits past the last row are never set by us; a damaged file may have them. */
static inline int64_t
in_range(const struct fastmib_group_schema *g, uint64_t row)
{
	return row < g->n_rows ? (int64_t)row : -ENOENT;
}

static int64_t
fastmib_next_row_mapped(const struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g;
	const uint64_t *words, *summary;
	uint64_t nw, w, bits;

	if (group >= seg->schema->n_groups)
		return -EINVAL;
	g = &seg->schema->groups[group];
	if (g->n_indexes == 0)
		return row == 0 ? 0 : -ENOENT;
	if (row >= g->n_rows)
		return -ENOENT;
	words = fms_presence(seg, group);
	if (words == NULL)
		return row;
	nw = seg->lay.groups[group].n_words;
	summary = words + nw;

	w = row / 64;
	bits = __atomic_load_n(&words[w], __ATOMIC_ACQUIRE) & (~0ull << (row % 64));
	if (bits)
		return in_range(g, w * 64 + (uint64_t)__builtin_ctzll(bits));
	/* Summary bits name candidate words; a stale bit only costs a look. */
	for (uint64_t next = w + 1; next < nw;) {
		uint64_t sw = next / 64;
		uint64_t sbits = __atomic_load_n(&summary[sw], __ATOMIC_ACQUIRE) &
				 (~0ull << (next % 64));

		if (sbits == 0) {
			next = (sw + 1) * 64;
			continue;
		}
		w = sw * 64 + (uint64_t)__builtin_ctzll(sbits);
		if (w >= nw)
			break;
		bits = __atomic_load_n(&words[w], __ATOMIC_ACQUIRE);
		if (bits)
			return in_range(g, w * 64 + (uint64_t)__builtin_ctzll(bits));
		next = w + 1;
	}
	return -ENOENT;
}

FMS_GUARDED_ENTRY(int, fastmib_read_raw,
		  (struct fastmib_segment *seg, unsigned group, uint32_t row, uint64_t *values),
		  (seg, group, row, values), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(int, fastmib_read,
		  (struct fastmib_segment *seg, unsigned group, uint32_t row, uint64_t *values),
		  (seg, group, row, values), fms_faulted_error(seg), -EIO)

FMS_GUARDED_ENTRY(bool, fastmib_row_present,
		  (const struct fastmib_segment *seg, unsigned group, uint32_t row),
		  (seg, group, row), false, false)

FMS_GUARDED_ENTRY(int64_t, fastmib_next_row,
		  (const struct fastmib_segment *seg, unsigned group, uint32_t row),
		  (seg, group, row), -EIO, -EIO)
