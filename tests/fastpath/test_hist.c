/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms and peaks against a real EAL (lcores 0-2, no hugepages) and
 * real segments, with the generated code of tests/codegen/models/
 * histograms.yaml: known observations on two lcores read back exactly
 * (every bucket, count, sum, peak; both API forms); a reader beside a
 * lcore observing at full speed sees the count equal to the sum of the
 * buckets in every read, and a writer that adds the count outside its
 * transaction is caught (the negative control); resets of a row, a group
 * and the module while observations keep coming, lossless; peak resets
 * (the lcore applies them before its next peak, a lcore that has not yet is
 * taken as having recorded nothing, a recycled keyed row starts at 0, a
 * lcore more than the logs behind scans the records); a segment whose
 * schema breaks the rules of histograms refused at attach.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "fms_util.h"
#include "handle.h"
#include "hg_stats.h"
#include "tutil.h"

/* ---- reading a histogram ---- */

/* A histogram of a row as read: its buckets, count, sum. */
struct hist {
	uint64_t bucket[FASTMIB_MAX_BOUNDS + 1];
	uint64_t count, sum;
	uint32_t n_buckets;
};

static const struct fastmib_counter_schema *
counter(unsigned group, unsigned c)
{
	return &hg_schema.groups[group].counters[c];
}

/* Counter positions in their groups (model order). */
enum { SYS_LATENCY = 1, SYS_BURST = 2, SYS_DEPTH = 3, PORT_SIZE = 1, PORT_PEAK = 2,
       FLOW_GAP = 1, FLOW_MAX_GAP = 2 };

static void
hist_of(const uint64_t *words, unsigned group, unsigned c, struct hist *h)
{
	const struct fastmib_counter_schema *cs = counter(group, c);
	uint32_t w = fastmib_counter_word(cs);

	h->n_buckets = cs->n_bounds + 1;
	for (uint32_t b = 0; b < h->n_buckets; b++)
		h->bucket[b] = words[w + b];
	h->count = words[w + h->n_buckets];
	h->sum = words[w + h->n_buckets + 1];
}

static int
read_row(struct fastmib_segment *rd, unsigned group, uint32_t row, uint64_t *words)
{
	return fastmib_read(rd, group, row, words);
}

/* The bucket the model's bounds give v, by brute force. */
static uint32_t
bucket_of(unsigned group, unsigned c, uint64_t v)
{
	const struct fastmib_counter_schema *cs = counter(group, c);

	for (uint32_t i = 0; i < cs->n_bounds; i++)
		if (v <= cs->bounds[i])
			return i;
	return cs->n_bounds;
}

/* ---- the fixture: a segment of the model, lcores 1 and 2 ---- */

struct fx {
	struct fastmib_segment *seg, *rd;
	char path[256];
	uint32_t flow_row;           /* the row of key (10.0.0.1, 7) */
};

static struct fx fx;

static int
setup(void **state)
{
	struct hg_flow_key k = { .peer = { 1, { 10, 0, 0, 1 } }, .teid = 7 };

	*state = &fx;
	tu_path(fx.path, sizeof(fx.path), "hist");
	unlink(fx.path);
	if (hg_create(fx.path, NULL, &fx.seg) != 0 || hg_attach(fx.path, 0, &fx.rd) != 0 ||
	    hg_flow_insert(fx.seg, &k, &fx.flow_row) != 0) {
		fprintf(stderr, "setup: %s\n", fastmib_last_error());
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	fastmib_close(f->rd);
	fastmib_close(f->seg);
	unlink(f->path);
	return 0;
}

/* Run fn(arg) on lcores 1 and (when fn2) 2 at once, and wait for both. */
static void
run2(lcore_function_t *fn, void *arg, lcore_function_t *fn2, void *arg2)
{
	assert_int_equal(tu_launch(fn, arg, 1), 0);
	if (fn2)
		assert_int_equal(tu_launch(fn2, arg2, 2), 0);
	assert_int_equal(tu_wait(1), 0);
	if (fn2)
		assert_int_equal(tu_wait(2), 0);
}

/* ---- exact values from two lcores ---- */

/* Latency (log2 2^4..2^12), burst (0, 1, 8, 32), size (32 bounds), gap
 * (log2 2^0..2^31): every bound, its neighbours, 0 and 2^64 - 1. */
static const uint64_t lat_a[] = { 0, 1, 16, 17, 4096, 4097, 100, 1ull << 63, UINT64_MAX };
static const uint64_t lat_b[] = { 15, 32, 33, 64, 1000, 5000, 16 };
static const uint64_t burst_a[] = { 0, 0, 1, 2, 8 };
static const uint64_t burst_b[] = { 9, 32, 33, UINT64_MAX, 1 };
static const uint64_t size_a[] = { 64, 65, 1500, 9000, 9001, 16384, 16385 };
static const uint64_t size_b[] = { 0, 1536, 1537, UINT64_MAX, UINT64_MAX - 1 };
static const uint64_t gap_a[] = { 0, 1, 2, 3, 1u << 31, (1ull << 31) + 1 };
static const uint64_t gap_b[] = { 4, 5, 1000000 };
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Lcore 1: the calls on the writer between fastmib_begin() and _end(). */
static int
observe_a(void *arg)
{
	struct fx *f = arg;
	struct fastmib_writer *w = fastmib_writer(f->seg);

	if (w == NULL)
		return -1;
	for (size_t i = 0; i < N_OF(lat_a); i++) {
		fastmib_begin(w);
		hg_system_latency_observe(w, lat_a[i]);
		hg_system_queue_depth_peak(w, lat_a[i] >> 40);
		fastmib_end(w);
	}
	fastmib_begin(w);
	for (size_t i = 0; i < N_OF(burst_a); i++)
		hg_system_burst_observe(w, burst_a[i]);
	for (size_t i = 0; i < N_OF(size_a); i++) {
		hg_port_size_observe(w, 2, 1, size_a[i]);
		hg_port_peak_burst_peak(w, 2, 1, size_a[i]);
	}
	for (size_t i = 0; i < N_OF(gap_a); i++) {
		hg_flow_gap_observe(w, f->flow_row, gap_a[i]);
		hg_flow_max_gap_peak(w, f->flow_row, gap_a[i]);
	}
	fastmib_end(w);
	return 0;
}

/* Lcore 2: the transaction form, row handles and all. */
static int
observe_b(void *arg)
{
	struct fx *f = arg;
	struct fastmib_writer *w = fastmib_writer(f->seg);
	struct hg_tx tx;

	if (w == NULL)
		return -1;
	tx = hg_tx_prepare(w);
	for (size_t i = 0; i < N_OF(lat_b); i++) {
		hg_tx_open(&tx);
		hg_tx_system_latency_observe(&tx, lat_b[i]);
		hg_tx_system_queue_depth_peak(&tx, lat_b[i]);
		hg_tx_end(&tx);
	}
	hg_tx_open(&tx);
	for (size_t i = 0; i < N_OF(burst_b); i++)
		hg_tx_system_burst_observe(&tx, burst_b[i]);
	for (size_t i = 0; i < N_OF(size_b); i++) {
		struct hg_port_ref p = hg_tx_port(&tx, 2, 1);

		hg_port_ref_size_observe(p, size_b[i]);
		hg_port_ref_peak_burst_peak(p, size_b[i] >> 1);
	}
	for (size_t i = 0; i < N_OF(gap_b); i++) {
		hg_tx_flow_gap_observe(&tx, f->flow_row, gap_b[i]);
		hg_flow_ref_max_gap_peak(hg_tx_flow(&tx, f->flow_row), gap_b[i]);
	}
	hg_tx_end(&tx);
	return 0;
}

/* What both lcores observed: each bucket, the count and the sum (modulo
 * 2^64, as the words wrap). */
static void
expect_hist(const uint64_t *words, unsigned group, unsigned c, const uint64_t *a, size_t na,
	    const uint64_t *b, size_t nb)
{
	struct hist got, want = { .n_buckets = counter(group, c)->n_bounds + 1 };

	for (size_t i = 0; i < na + nb; i++) {
		uint64_t v = i < na ? a[i] : b[i - na];

		want.bucket[bucket_of(group, c, v)]++;
		want.count++;
		want.sum += v;
	}
	hist_of(words, group, c, &got);
	assert_int_equal(got.n_buckets, want.n_buckets);
	for (uint32_t i = 0; i < want.n_buckets; i++)
		assert_int_equal(got.bucket[i], want.bucket[i]);
	assert_int_equal(got.count, want.count);
	assert_int_equal(got.sum, want.sum);
}

static void
test_exact_values(void **state)
{
	struct fx *f = *state;
	uint64_t words[FASTMIB_MAX_ROW_WORDS];
	uint64_t sum_lat = 0;

	run2(observe_a, f, observe_b, f);
	assert_int_equal(read_row(f->rd, HG_GROUP_SYSTEM, 0, words), 0);
	expect_hist(words, HG_GROUP_SYSTEM, SYS_LATENCY, lat_a, N_OF(lat_a), lat_b, N_OF(lat_b));
	expect_hist(words, HG_GROUP_SYSTEM, SYS_BURST, burst_a, N_OF(burst_a), burst_b,
		    N_OF(burst_b));
	/* the peak: the larger of the lcores' (lcore 1 recorded v >> 40: of
	 * 2^64 - 1, 2^24 - 1; lcore 2 at most 5000) */
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_SYSTEM, SYS_DEPTH))],
			 UINT64_MAX >> 40);
	/* spot checks against the model by hand: 4097, 5000, 2^63 and 2^64 - 1
	 * past 4096; 17 and 32 in (16, 32] */
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_SYSTEM, SYS_LATENCY)) + 9], 4);
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_SYSTEM, SYS_LATENCY)) + 1], 2);
	for (size_t i = 0; i < N_OF(lat_a); i++)
		sum_lat += lat_a[i];
	for (size_t i = 0; i < N_OF(lat_b); i++)
		sum_lat += lat_b[i];
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_SYSTEM, SYS_LATENCY)) + 11],
			 sum_lat);

	assert_int_equal(read_row(f->rd, HG_GROUP_PORT, hg_port_row(2, 1), words), 0);
	expect_hist(words, HG_GROUP_PORT, PORT_SIZE, size_a, N_OF(size_a), size_b, N_OF(size_b));
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_PORT, PORT_PEAK))],
			 UINT64_MAX >> 1);
	/* the other rows: untouched */
	assert_int_equal(read_row(f->rd, HG_GROUP_PORT, hg_port_row(2, 0), words), 0);
	for (uint32_t i = 0; i < hg_schema.groups[HG_GROUP_PORT].row_size / 8; i++)
		assert_int_equal(words[i], 0);

	assert_int_equal(read_row(f->rd, HG_GROUP_FLOW, f->flow_row, words), 0);
	expect_hist(words, HG_GROUP_FLOW, FLOW_GAP, gap_a, N_OF(gap_a), gap_b, N_OF(gap_b));
	assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_FLOW, FLOW_MAX_GAP))],
			 (1ull << 31) + 1);
	/* the generated bucket functions agree with the bounds */
	for (size_t i = 0; i < N_OF(size_b); i++)
		assert_int_equal(hg_port_size_bucket(size_b[i]),
				 bucket_of(HG_GROUP_PORT, PORT_SIZE, size_b[i]));
}

/* ---- one snapshot: count == sum of the buckets ---- */

/* Values of distinct latency buckets: sum = sum of bucket * value. */
static const uint64_t cycle_v[] = { 10, 20, 40, 100, 5000 };

struct full_speed {
	struct fx *f;
	bool split;        /* the negative control: the count outside the transaction */
	unsigned stop;     /* atomic */
	uint64_t done;     /* observations made, when stopped */
};

static int
observe_full_speed(void *arg)
{
	struct full_speed *s = arg;
	struct fastmib_writer *w = fastmib_writer(s->f->seg);
	struct hg_tx tx;
	const size_t base = HG_SYSTEM_OFFSET + offsetof(struct hg_system_row, latency_bucket);
	uint64_t n = 0;

	if (w == NULL)
		return -1;
	tx = hg_tx_prepare(w);
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		uint64_t v = cycle_v[n % N_OF(cycle_v)];

		if (s->split) {
			/* a test-only writer that breaks the snapshot: its count
			 * is added before the transaction that adds the rest */
			fastmib_pc_add(w, HG_SYSTEM_OFFSET +
					  offsetof(struct hg_system_row, latency_count), 1);
			hg_tx_open(&tx);
			fastmib_word_add(fastmib_tx_pc(&tx.t, base + 8 * hg_system_latency_bucket(v)),
					 1);
			fastmib_word_add(fastmib_tx_pc(&tx.t, HG_SYSTEM_OFFSET +
							offsetof(struct hg_system_row,
								 latency_sum)), v);
			hg_tx_end(&tx);
		} else if (n % 2) {
			hg_tx_open(&tx);
			hg_tx_system_latency_observe(&tx, v);
			hg_tx_system_queue_depth_peak(&tx, v);
			hg_tx_end(&tx);
		} else {
			fastmib_begin(w);
			hg_system_latency_observe(w, v);
			fastmib_end(w);
		}
		n++;
	}
	s->done = n;
	return 0;
}

/* Reads of the latency histogram while lcore 1 observes, until `moved`
 * of them saw a new count (none: until one is torn), at most max_reads:
 * how many were torn (a count that is not the sum of the buckets, or a
 * sum that is not what the buckets hold). */
static uint64_t
torn_reads(struct fx *f, uint64_t max_reads, uint64_t until_moved, uint64_t *moved,
	   uint64_t *reads)
{
	uint64_t words[FASTMIB_MAX_ROW_WORDS], torn = 0, last = 0;
	const uint32_t lat_buckets[] = { 0, 1, 2, 3, 9 };

	*moved = 0;
	for (*reads = 0; *reads < max_reads && (!until_moved || *moved < until_moved);
	     (*reads)++) {
		struct hist h;
		uint64_t count = 0, sum = 0;

		assert_int_equal(read_row(f->rd, HG_GROUP_SYSTEM, 0, words), 0);
		hist_of(words, HG_GROUP_SYSTEM, SYS_LATENCY, &h);
		for (uint32_t b = 0; b < h.n_buckets; b++)
			count += h.bucket[b];
		for (size_t k = 0; k < N_OF(cycle_v); k++)
			sum += h.bucket[lat_buckets[k]] * cycle_v[k];
		if (count != h.count || sum != h.sum) {
			torn++;
			if (!until_moved)
				break;
		}
		*moved += h.count != last;
		last = h.count;
	}
	return torn;
}

static void
test_one_snapshot(void **state)
{
	struct fx *f = *state;
	struct full_speed s = { .f = f };
	uint64_t moved, reads, torn;

	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_SYSTEM, 0), 0);
	assert_int_equal(tu_launch(observe_full_speed, &s, 1), 0);
	/* until a thousand reads saw the writer move: on a busy machine the
	 * two may run together for a fraction of the time only */
	torn = torn_reads(f, UINT64_MAX, 1000, &moved, &reads);
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	print_message("%llu reads beside %llu observations, %llu saw a new count, %llu torn\n",
		      (unsigned long long)reads, (unsigned long long)s.done,
		      (unsigned long long)moved, (unsigned long long)torn);

	assert_int_equal(torn, 0);
	assert_int_equal(moved, 1000);
}

/* The negative control: the count outside the transaction is seen torn. */
static void
test_one_snapshot_control(void **state)
{
	struct fx *f = *state;
	struct full_speed s = { .f = f, .split = true };
	uint64_t moved, reads, torn;

	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_SYSTEM, 0), 0);
	assert_int_equal(tu_launch(observe_full_speed, &s, 1), 0);
	torn = torn_reads(f, 100000000, 0, &moved, &reads);
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	print_message("control: a torn read after %llu reads\n", (unsigned long long)reads);
	assert_int_equal(torn, 1);
}

/* ---- resets while observations keep coming ---- */

struct steady {
	struct fx *f;
	unsigned stop;    /* atomic */
	uint64_t done;    /* observations made, when stopped */
};

/* Lcore 1: 1500 into port.size of row (1, 0) and 100 into
 * system.latency, one transaction each, until stopped. */
static int
observe_steady(void *arg)
{
	struct steady *s = arg;
	struct fastmib_writer *w = fastmib_writer(s->f->seg);
	struct hg_tx tx;
	uint64_t n = 0;

	if (w == NULL)
		return -1;
	tx = hg_tx_prepare(w);
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		hg_tx_open(&tx);
		hg_tx_port_size_observe(&tx, 1, 0, 1500);
		hg_tx_system_latency_observe(&tx, 100);
		hg_tx_end(&tx);
		n++;
	}
	s->done = n;
	return 0;
}

/* The count of histogram c of a row, raw or with its baseline. */
static uint64_t
count_of(struct fastmib_segment *rd, unsigned group, uint32_t row, unsigned c, bool raw)
{
	uint64_t words[FASTMIB_MAX_ROW_WORDS];
	struct hist h;

	assert_int_equal(raw ? fastmib_read_raw(rd, group, row, words)
			     : fastmib_read(rd, group, row, words), 0);
	hist_of(words, group, c, &h);
	return h.count;
}

/* Wait (reading, no clock) until the raw count of c reaches `n`. */
static uint64_t
wait_count(struct fastmib_segment *rd, unsigned group, uint32_t row, unsigned c, uint64_t n)
{
	uint64_t got;

	while ((got = count_of(rd, group, row, c, true)) < n)
		;
	return got;
}

/*
 * Reset `group` (row `row`; -1: the module) while lcore 1 observes: the
 * reset's snapshot lies between two raw reads taken around it, so the
 * count read at the end is at least the observations after the later
 * read and at most those after the earlier one; every bucket, the count
 * and the sum agree (one value per histogram).
 */
static void
reset_while_observing(struct fx *f, int group, unsigned rgroup, uint32_t row, unsigned c,
		      uint64_t value)
{
	struct steady s = { .f = f };
	uint64_t before, after, base, words[FASTMIB_MAX_ROW_WORDS];
	struct hist h;
	uint32_t b = bucket_of(rgroup, c, value);

	base = count_of(f->rd, rgroup, row, c, true);
	assert_int_equal(tu_launch(observe_steady, &s, 1), 0);
	wait_count(f->rd, rgroup, row, c, base + 1000);
	before = count_of(f->rd, rgroup, row, c, true);
	assert_int_equal(fastmib_reset(f->rd, group, row), 0);
	after = count_of(f->rd, rgroup, row, c, true);
	/* observations after the reset */
	wait_count(f->rd, rgroup, row, c, after + 1000);
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	/* every observation is in the raw words */
	assert_int_equal(count_of(f->rd, rgroup, row, c, true), base + s.done);
	assert_int_equal(read_row(f->rd, rgroup, row, words), 0);
	hist_of(words, rgroup, c, &h);
	assert_true(h.count >= base + s.done - after);
	assert_true(h.count <= base + s.done - before);
	assert_int_equal(h.bucket[b], h.count);
	assert_int_equal(h.sum, h.count * value);
	for (uint32_t i = 0; i < h.n_buckets; i++)
		if (i != b)
			assert_int_equal(h.bucket[i], 0);
}

static void
test_reset_row(void **state)
{
	struct fx *f = *state;

	/* a reset of its own row starts its histogram again */
	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_PORT, hg_port_row(1, 0)), 0);
	reset_while_observing(f, HG_GROUP_PORT, HG_GROUP_PORT, hg_port_row(1, 0), PORT_SIZE,
			      1500);
}

static void
test_reset_group(void **state)
{
	struct fx *f = *state;

	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_SYSTEM, 0), 0);
	reset_while_observing(f, HG_GROUP_SYSTEM, HG_GROUP_SYSTEM, 0, SYS_LATENCY, 100);
}

static void
test_reset_all(void **state)
{
	struct fx *f = *state;

	assert_int_equal(fastmib_reset(f->rd, -1, 0), 0);
	reset_while_observing(f, -1, HG_GROUP_PORT, hg_port_row(1, 0), PORT_SIZE, 1500);
}

/* ---- peaks: resets applied by each lcore ---- */

#define PEAK_BIG 1000000u  /* recorded before the reset */
#define PEAK_SMALL 64u     /* the largest recorded after it */

struct peaks {
	struct fx *f;
	unsigned after;   /* atomic: record the small values from now on */
	unsigned stop;    /* atomic */
};

/* Lcore 1: the big peak until told, then 1..PEAK_SMALL over and over, in
 * the queue depth and in the peak of port row (3, 1), in transactions. */
static int
record_peaks(void *arg)
{
	struct peaks *p = arg;
	struct fastmib_writer *w = fastmib_writer(p->f->seg);
	struct hg_tx tx;
	uint64_t n = 0;

	if (w == NULL)
		return -1;
	tx = hg_tx_prepare(w);
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		uint64_t v = __atomic_load_n(&p->after, __ATOMIC_ACQUIRE) ? 1 + n++ % PEAK_SMALL
									   : PEAK_BIG;

		hg_tx_open(&tx);
		hg_tx_system_queue_depth_peak(&tx, v);
		hg_tx_port_peak_burst_peak(&tx, 3, 1, v);
		hg_tx_end(&tx);
	}
	return 0;
}

static uint64_t
peak_of(struct fastmib_segment *rd, unsigned group, uint32_t row, unsigned c)
{
	uint64_t words[FASTMIB_MAX_ROW_WORDS];

	assert_int_equal(fastmib_read(rd, group, row, words), 0);
	return words[fastmib_counter_word(counter(group, c))];
}

/*
 * A reset of `group` (row `row`, -1: the module) while lcore 1 records,
 * the big value until just before the reset, small ones after: every read
 * after the reset returned shows no value recorded before it, and the
 * small ones come through once the lcore applied it.
 */
static void
peak_reset_while_recording(struct fx *f, int group, unsigned pgroup, uint32_t row, unsigned c)
{
	struct peaks p = { .f = f };
	uint64_t v, reads = 0;

	assert_int_equal(tu_launch(record_peaks, &p, 1), 0);
	while (peak_of(f->rd, pgroup, row, c) != PEAK_BIG)
		;
	__atomic_store_n(&p.after, 1, __ATOMIC_RELEASE);
	assert_int_equal(fastmib_reset(f->rd, group, row), 0);
	do {
		v = peak_of(f->rd, pgroup, row, c);
		assert_true(v <= PEAK_SMALL);
		reads++;
	} while (v != PEAK_SMALL);
	__atomic_store_n(&p.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(1), 0);
	assert_int_equal(peak_of(f->rd, pgroup, row, c), PEAK_SMALL);
	print_message("peak reset: %llu reads until the small values came\n",
		      (unsigned long long)reads);
}

static void
test_peak_reset(void **state)
{
	struct fx *f = *state;

	peak_reset_while_recording(f, HG_GROUP_PORT, HG_GROUP_PORT, hg_port_row(3, 1), PORT_PEAK);
	peak_reset_while_recording(f, HG_GROUP_SYSTEM, HG_GROUP_SYSTEM, 0, SYS_DEPTH);
	peak_reset_while_recording(f, -1, HG_GROUP_PORT, hg_port_row(3, 1), PORT_PEAK);
	/* a reset of another row leaves this one's peak */
	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_PORT, hg_port_row(3, 0)), 0);
	assert_int_equal(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(3, 1), PORT_PEAK), PEAK_SMALL);
}

/* Lcore 2: one transaction, recording `*v` (0: none) in the peaks of
 * port rows (0, 0)..(3, 1) and the queue depth, then idle. */
static int
one_transaction(void *arg)
{
	const uint64_t *v = arg;
	struct fx *f = &fx;
	struct fastmib_writer *w = fastmib_writer(f->seg);
	struct hg_tx tx;

	if (w == NULL)
		return -1;
	tx = hg_tx_begin(w);
	for (uint32_t r = 0; *v && r < HG_PORT_ROWS; r++)
		hg_tx_port_peak_burst_peak(&tx, r / 2, r % 2, *v);
	if (*v)
		hg_tx_system_queue_depth_peak(&tx, *v);
	hg_tx_end(&tx);
	return 0;
}

/* A lcore that has not applied a reset (it recorded no peak since)
 * counts as having recorded nothing: its old peak is never shown again,
 * neither before nor after it applies the reset. */
static void
test_peak_idle_lcore(void **state)
{
	struct fx *f = *state;
	const uint64_t big = 999999999, none = 0;

	run2(one_transaction, (void *)&big, NULL, NULL);
	/* on lcore 1 this time: the function takes its writer */
	assert_int_equal(peak_of(f->rd, HG_GROUP_SYSTEM, 0, SYS_DEPTH), big);
	assert_int_equal(fastmib_reset(f->rd, HG_GROUP_SYSTEM, 0), 0);
	assert_int_equal(peak_of(f->rd, HG_GROUP_SYSTEM, 0, SYS_DEPTH), 0);
	run2(one_transaction, (void *)&none, NULL, NULL);
	assert_int_equal(peak_of(f->rd, HG_GROUP_SYSTEM, 0, SYS_DEPTH), 0);
	/* a row not reset keeps it */
	assert_int_equal(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(0, 0), PORT_PEAK), big);
}

/* A keyed row given to another key starts its peaks at 0; the key's own
 * row keeps its peak while it lives. */
static int
record_flow_peak(void *arg)
{
	const uint64_t *v = arg;
	struct fastmib_writer *w = fastmib_writer(fx.seg);
	struct hg_tx tx;

	if (w == NULL)
		return -1;
	tx = hg_tx_begin(w);
	hg_tx_flow_max_gap_peak(&tx, (uint32_t)v[0], v[1]);
	hg_tx_end(&tx);
	return 0;
}

static void
test_peak_recycled_row(void **state)
{
	struct fx *f = *state;
	struct hg_flow_key a = { .peer = { 1, { 192, 0, 2, 1 } }, .teid = 1 };
	struct hg_flow_key b = { .peer = { 1, { 192, 0, 2, 2 } }, .teid = 2 };
	uint32_t ra, rb;
	uint64_t arg[2];

	assert_int_equal(hg_flow_insert(f->seg, &a, &ra), 0);
	arg[0] = ra;
	arg[1] = 4242;
	run2(record_flow_peak, arg, NULL, NULL);
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, ra, FLOW_MAX_GAP), 4242);
	assert_int_equal(hg_flow_remove(f->seg, &a), 0);
	/* until b takes a's row */
	for (uint32_t i = 0;; i++) {
		assert_true(i < HG_FLOW_ROWS);
		assert_int_equal(hg_flow_insert(f->seg, &b, &rb), 0);
		if (rb == ra)
			break;
		assert_int_equal(hg_flow_remove(f->seg, &b), 0);
		b.teid++;
	}
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, rb, FLOW_MAX_GAP), 0);
	arg[1] = 7;
	run2(record_flow_peak, arg, NULL, NULL);
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, rb, FLOW_MAX_GAP), 7);
	assert_int_equal(hg_flow_remove(f->seg, &b), 0);
}

/* The head of peak log `log` and lcore 2's acknowledgement of it (its
 * writer's slot: lcore 2's). */
static void
log_state(struct fx *f, int log, uint64_t *head, uint64_t *ack)
{
	struct fastmib_writer *w = NULL;

	*head = __atomic_load_n(&fms_peaks(f->seg)->log[log].head, __ATOMIC_ACQUIRE);
	for (uint32_t s = 0; s < f->seg->n_slots && !w; s++)
		if (__atomic_load_n(&fms_slot(f->seg, s)->owner, __ATOMIC_RELAXED) == 2 + 1)
			*ack = __atomic_load_n(&fms_slot(f->seg, s)->peak_ack[log], __ATOMIC_RELAXED);
}

/* Lcore 2: one transaction recording `*v` in the queue depth's peak only. */
static int
depth_transaction(void *arg)
{
	const uint64_t *v = arg;
	struct fastmib_writer *w = fastmib_writer(fx.seg);
	struct hg_tx tx;

	if (w == NULL)
		return -1;
	tx = hg_tx_begin(w);
	hg_tx_system_queue_depth_peak(&tx, *v);
	hg_tx_end(&tx);
	return 0;
}

/* More resets than the logs hold while lcore 2 is idle: a transaction of
 * it that records no peak leaves them (it pays nothing for peaks), and
 * at its first peak it scans the records, zeroes the peaks of the rows
 * reset and keeps the others'. */
static void
test_peak_log_overrun(void **state)
{
	struct fx *f = *state;
	struct hg_flow_key k0 = { .peer = { 1, { 198, 51, 100, 1 } }, .teid = 1 };
	struct hg_flow_key k1 = { .peer = { 1, { 198, 51, 100, 2 } }, .teid = 2 };
	const uint64_t v = 77, none = 0;
	uint32_t r0, r1;
	uint64_t arg[2], head, ack;

	assert_int_equal(hg_flow_insert(f->seg, &k0, &r0), 0);
	assert_int_equal(hg_flow_insert(f->seg, &k1, &r1), 0);
	assert_int_equal(tu_launch(one_transaction, (void *)&v, 2), 0);
	assert_int_equal(tu_wait(2), 0);
	for (int i = 0; i < 2; i++) {
		arg[0] = i ? r1 : r0;
		arg[1] = 55;
		assert_int_equal(tu_launch(record_flow_peak, arg, 2), 0);
		assert_int_equal(tu_wait(2), 0);
	}
	/* resets of rows (0, 0)..(3, 0), not (3, 1); k1 removed and inserted
	 * again, its row's enable resetting its peaks each time */
	for (uint32_t i = 0; i < FMS_PEAK_LOG + 100; i++) {
		assert_int_equal(fastmib_reset(f->rd, HG_GROUP_PORT, hg_port_row(i % 4, 0)), 0);
		assert_int_equal(hg_flow_remove(f->seg, &k1), 0);
		assert_int_equal(hg_flow_insert(f->seg, &k1, &r1), 0);
	}
	for (int log = 0; log < 2; log++) {
		log_state(f, log, &head, &ack);
		assert_true(head - ack > FMS_PEAK_LOG);
	}
	/* not applied yet: hidden */
	assert_int_equal(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(2, 0), PORT_PEAK), 0);
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, r1, FLOW_MAX_GAP), 0);
	assert_int_equal(tu_launch(one_transaction, (void *)&none, 2), 0);
	assert_int_equal(tu_wait(2), 0);
	for (int log = 0; log < 2; log++) {
		log_state(f, log, &head, &ack);
		assert_true(head - ack > FMS_PEAK_LOG);
	}
	assert_int_equal(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(2, 0), PORT_PEAK), 0);
	assert_int_equal(tu_launch(depth_transaction, (void *)&v, 2), 0);
	assert_int_equal(tu_wait(2), 0);
	for (int log = 0; log < 2; log++) {
		log_state(f, log, &head, &ack);
		assert_int_equal(ack, head);
	}
	for (uint32_t r = 0; r < 4; r++)
		assert_int_equal(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(r, 0), PORT_PEAK), 0);
	assert_true(peak_of(f->rd, HG_GROUP_PORT, hg_port_row(3, 1), PORT_PEAK) >= 77);
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, r1, FLOW_MAX_GAP), 0);
	assert_int_equal(peak_of(f->rd, HG_GROUP_FLOW, r0, FLOW_MAX_GAP), 55);
	/* zeroed in lcore 2's words, not only hidden: raw reads say so */
	{
		uint64_t words[FASTMIB_MAX_ROW_WORDS];

		assert_int_equal(fastmib_read_raw(f->rd, HG_GROUP_FLOW, r1, words), 0);
		assert_int_equal(words[fastmib_counter_word(counter(HG_GROUP_FLOW, FLOW_MAX_GAP))],
				 0);
	}
	assert_int_equal(hg_flow_remove(f->seg, &k0), 0);
	assert_int_equal(hg_flow_remove(f->seg, &k1), 0);
}

/* ---- attach refuses what the rules of histograms forbid ---- */

/* A copy of the segment at `path` whose schema `edit` changes (the schema
 * hash made right again), attached: its error and message. */
static int
attach_edited(struct fx *f, void (*edit)(uint8_t *schema), char *msg, size_t len)
{
	char copy[300];
	struct fastmib_segment *seg = NULL;
	struct fms_header *h;
	int fd, rc;
	uint8_t *base;
	off_t size;

	snprintf(copy, sizeof(copy), "%s.edited", f->path);
	fd = open(f->path, O_RDONLY);
	assert_true(fd >= 0);
	size = lseek(fd, 0, SEEK_END);
	{
		int out = open(copy, O_RDWR | O_CREAT | O_TRUNC, 0600);
		uint8_t *src = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);

		assert_true(out >= 0 && src != MAP_FAILED);
		assert_int_equal(ftruncate(out, size), 0);
		base = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0);
		assert_true(base != MAP_FAILED);
		memcpy(base, src, ((struct fms_header *)(void *)src)->fixed_size);
		munmap(src, (size_t)size);
		close(out);
	}
	close(fd);
	h = (struct fms_header *)(void *)base;
	edit(base + h->schema.off);
	h->schema_hash = fms_fnv1a(base + h->schema.off, h->schema.len);
	munmap(base, (size_t)size);
	rc = fastmib_attach(copy, FASTMIB_ATTACH_RDONLY, &seg);
	snprintf(msg, len, "%s", fastmib_last_error());
	fastmib_close(seg);
	unlink(copy);
	return rc;
}

/* Records of the serialized schema (segment_format.h). */
static struct fms_counter_rec *
counter_rec(uint8_t *schema, uint32_t i)
{
	const struct fms_schema_rec *sr = (const void *)schema;

	return (struct fms_counter_rec *)(void *)(schema + sizeof(*sr) +
						  sr->n_groups * sizeof(struct fms_group_rec)) + i;
}

static uint8_t *
bound_rec(uint8_t *schema, uint32_t i)
{
	const struct fms_schema_rec *sr = (const void *)schema;

	return schema + sizeof(*sr) + sr->n_groups * sizeof(struct fms_group_rec) +
	       sr->n_counters * sizeof(struct fms_counter_rec) +
	       sr->n_events * sizeof(struct fms_event_rec) +
	       sr->n_states * sizeof(struct fms_state_schema_rec) +
	       sr->n_values * sizeof(struct fms_enum_rec) + (size_t)i * 8;
}

/* system.burst (counter 2): bounds 0, 1, 8, 32 become 0, 8, 1, 32. */
static void
swap_bounds(uint8_t *schema)
{
	struct fms_counter_rec *c = counter_rec(schema, SYS_BURST);
	uint8_t t[8];

	memcpy(t, bound_rec(schema, c->first_bound + 1), 8);
	memcpy(bound_rec(schema, c->first_bound + 1), bound_rec(schema, c->first_bound + 2), 8);
	memcpy(bound_rec(schema, c->first_bound + 2), t, 8);
}

static void
many_bounds(uint8_t *schema)
{
	counter_rec(schema, SYS_BURST)->n_bounds = 33;
}

static void
atomic_system(uint8_t *schema)
{
	struct fms_group_rec *g = (struct fms_group_rec *)(void *)(schema +
								   sizeof(struct fms_schema_rec));

	g[HG_GROUP_SYSTEM].storage = FASTMIB_STORAGE_SHARED_ATOMIC;
}

static void
nothing(uint8_t *schema)
{
	(void)schema;
}

static void
test_attach_refuses(void **state)
{
	struct fx *f = *state;
	char msg[512];

	assert_int_equal(attach_edited(f, nothing, msg, sizeof(msg)), 0);
	assert_int_equal(attach_edited(f, swap_bounds, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "segment schema: counter system.burst: bound 3, 1, is not "
				    "above bound 2, 8"));
	assert_int_equal(attach_edited(f, many_bounds, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "segment schema: counter system.burst: 33 bounds (1..32)"));
	assert_int_equal(attach_edited(f, atomic_system, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "segment schema: counter system.latency: a histogram needs "
				    "per-core storage, not shared-atomic"));
}

/* A segment of the format before histograms: refused, with the versions. */
static void
test_attach_refuses_older_format(void **state)
{
	struct fx *f = *state;
	struct fastmib_segment *seg = NULL;
	struct fms_header *h;
	char copy[300];
	int fd;

	snprintf(copy, sizeof(copy), "%s.old", f->path);
	fd = open(copy, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, FMS_HEADER_SIZE), 0);
	h = mmap(NULL, FMS_HEADER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(h != MAP_FAILED);
	memcpy(h->magic, FMS_MAGIC, sizeof(h->magic));
	h->format = 7;
	h->header_size = FMS_HEADER_SIZE;
	h->file_size = FMS_HEADER_SIZE;
	munmap(h, FMS_HEADER_SIZE);
	close(fd);
	assert_int_equal(fastmib_attach(copy, FASTMIB_ATTACH_RDONLY, &seg), -EPROTONOSUPPORT);
	assert_non_null(strstr(fastmib_last_error(),
			       "segment format version 7, this library reads version 8"));
	unlink(copy);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_values),
		cmocka_unit_test(test_one_snapshot),
		cmocka_unit_test(test_one_snapshot_control),
		cmocka_unit_test(test_reset_row),
		cmocka_unit_test(test_reset_group),
		cmocka_unit_test(test_reset_all),
		cmocka_unit_test(test_peak_reset),
		cmocka_unit_test(test_peak_idle_lcore),
		cmocka_unit_test(test_peak_recycled_row),
		cmocka_unit_test(test_peak_log_overrun),
		cmocka_unit_test(test_attach_refuses),
		cmocka_unit_test(test_attach_refuses_older_format),
	};
	int rc;

	/* the reader (lcore 0) and the full-speed writer (lcore 1) on CPUs of
	 * their own; lcore 2 shares the reader's */
	tu_eal_init("test_hist", "0@0,1@1,2@0");
	rc = cmocka_run_group_tests(tests, setup, teardown);
	return tu_eal_cleanup_after(rc);
}
