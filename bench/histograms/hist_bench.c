/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms benchmark: what an observation and a peak record cost the
 * fast path beside a counter update, what a reader gets beside them, and
 * what a histogram row takes in memory.
 *
 *   fastmib-bench-histograms [EAL options] -- [--obs N] [--runs R] [--only NAME]
 *
 * 1. Memory: bytes per lcore of a row of hist.yaml's flow table, and of
 *    each of its objects (a histogram: a word per bucket, its count and
 *    its sum).
 * 2. On the main lcore, N transactions of one operation each, value i
 *    into row row[i] (drawn at random, values spread over 2^0..2^21 so
 *    that every bucket of every histogram is hit): a counter update of
 *    plain.yaml (no histograms or peaks) and of hist.yaml, an observation
 *    of each of its histograms (log2 bounds, 8 bounds, 32 bounds) and a
 *    peak record, each in the calls form and in the transaction form
 *    (observe.c). In every run each loop is timed twice: beside a reader
 *    on the second lcore, then alone.
 * 3. The reader, on the second lcore while the loops of (2) run beside
 *    it, reads the flow rows in turn with fastmib_read() through a
 *    read-only handle of its own, as an agent does: in every read each
 *    histogram's count must equal the sum of its buckets, and a row's
 *    peak never goes down (no reset is made).
 *
 * Times are TSC cycles (ns at rte_get_tsc_hz()). A loop's figure is the
 * median over R runs (min..max), less the empty loop timed in the same
 * run. At the end every counter, bucket, count, sum and peak is compared
 * with what the loops put in. Exits 1 when one is off or a read is
 * inconsistent: the smoke run in ctest checks that, never a time.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "bench_util.h"
#include "hist_bench.h"
#include "hb_stats.h"
#include "hp_stats.h"

#define MAX_RUNS 32
/* Counter positions in the flow group of hist.yaml (model order). */
enum { C_OCTETS, C_LAT, C_FEW, C_MANY, C_TOP, N_C };
#define N_HIST 3 /* lat, few, many: counters C_LAT + k */

struct bench {
	struct fastmib_segment *hb;     /* hist.yaml, created here: the loops' */
	struct fastmib_segment *rd;     /* the same segment attached read-only: the reader's */
	struct fastmib_segment *hp;     /* plain.yaml */
	struct fastmib_writer *w_hb, *w_hp;
	struct obs_input in;            /* --obs values and their rows */
	uint32_t obs;                   /* per loop */
	unsigned runs;
	double ns_per_cycle;
	/* what the loops put in, to check against at the end */
	uint64_t passes[N_C];           /* loops run over all of in, per operation */
	uint64_t plain_passes;
	uint64_t in_sum;                /* sum of in.val */
	uint64_t in_bucket[N_HIST][FASTMIB_MAX_ROW_WORDS]; /* per histogram, per bucket */
	uint64_t in_top[HB_FLOW_ROWS];  /* largest value of each row */
	int failed;
	/* the reader */
	int stop;                       /* by the main lcore, to the reader */
	int reading;                    /* by the reader, once it has read */
	uint64_t reads, consistent, torn, down, busy, moved;
};

static struct bench *B;

/* The counter schema of counter c of the flow group. */
static const struct fastmib_counter_schema *
counter(unsigned c)
{
	return &hb_schema.groups[HB_GROUP_FLOW].counters[c];
}

/* ---- 1. memory ---- */

static void
print_memory(void)
{
	static const char *const what[N_C] = {
		"counter octets (counter64)", "histogram lat (log2, 16 bounds)",
		"histogram few (8 bounds)", "histogram many (32 bounds)", "peak top",
	};
	uint32_t words = 0;

	printf("\n-- memory, bytes per lcore (per-core storage: each lcore has its own)\n");
	for (unsigned c = 0; c < N_C; c++) {
		const struct fastmib_counter_schema *cs = counter(c);
		uint32_t n = fastmib_counter_words(cs);

		printf("  %-44s %4" PRIu32 " words %6" PRIu32 " bytes", what[c], n, 8 * n);
		if (cs->type == FASTMIB_HISTOGRAM)
			printf(" (%" PRIu32 " buckets, count, sum)", cs->n_bounds + 1);
		printf("\n");
		words += n;
	}
	printf("  %-44s %4" PRIu32 " words %6u bytes (the struct: %zu)\n", "a row of the flow table",
	       words, HB_FLOW_ROW_SIZE, sizeof(struct hb_flow_row));
	printf("  %-44s %11u bytes (%u rows and the scratch row)\n", "the per-core area",
	       HB_PERCORE_SIZE, HB_FLOW_ROWS);
}

/* ---- 2. the loops ---- */

/* One iteration's input fetch and nothing else: the part of each loop
 * that is not what it measures. */
static __attribute__((noinline)) void
loop_none(uint32_t n)
{
	struct obs_input in = B->in;

	for (uint32_t i = 0; i < n; i++)
		__asm__ volatile("" : : "r"(in.row[i]), "r"(in.val[i]));
}

struct loop {
	const char *name; /* --only NAME; callgrind.sh counts function loop_NAME */
	const char *what;
	void (*fn)(struct fastmib_writer *w, struct obs_input in, uint32_t n);
	int op;           /* C_*, or -1 for plain.yaml's counter */
	bool selected;
	double cyc[2][MAX_RUNS]; /* TSC cycles per transaction: beside the reader, alone */
};

#define LOOP(form, x, op_, text)                                                 \
	{ .name = #form "_" #x, .what = text, .fn = loop_##form##_##x, .op = op_ }
static struct loop loops[] = {
	LOOP(calls, plain, -1, "calls: counter add, model without histograms"),
	LOOP(calls, octets, C_OCTETS, "calls: counter add"),
	LOOP(calls, lat, C_LAT, "calls: observe, log2 (16 bounds)"),
	LOOP(calls, few, C_FEW, "calls: observe, 8 bounds"),
	LOOP(calls, many, C_MANY, "calls: observe, 32 bounds"),
	LOOP(calls, top, C_TOP, "calls: peak"),
	LOOP(tx, plain, -1, "tx: counter add, model without histograms"),
	LOOP(tx, octets, C_OCTETS, "tx: counter add"),
	LOOP(tx, lat, C_LAT, "tx: observe, log2 (16 bounds)"),
	LOOP(tx, few, C_FEW, "tx: observe, 8 bounds"),
	LOOP(tx, many, C_MANY, "tx: observe, 32 bounds"),
	LOOP(tx, top, C_TOP, "tx: peak"),
};
#define N_LOOPS (sizeof(loops) / sizeof(loops[0]))

static double
cycles_of(struct loop *l)
{
	uint64_t t0 = rte_rdtsc_precise();

	if (l == NULL) {
		loop_none(B->obs);
	} else {
		l->fn(l->op < 0 ? B->w_hp : B->w_hb, B->in, B->obs);
		if (l->op < 0)
			B->plain_passes++;
		else
			B->passes[l->op]++;
	}
	return (double)(rte_rdtsc_precise() - t0) / B->obs;
}

/* ---- 3. the reader ---- */

static int
reader_main(void *arg)
{
	static uint64_t last_top[HB_FLOW_ROWS], last_count[HB_FLOW_ROWS];
	uint64_t words[FASTMIB_MAX_ROW_WORDS];
	uint32_t first[N_C], nb[N_C];

	(void)arg;
	for (unsigned c = 0; c < N_C; c++) {
		first[c] = fastmib_counter_word(counter(c));
		nb[c] = counter(c)->n_bounds + 1;
	}
	for (uint32_t row = 0; !__atomic_load_n(&B->stop, __ATOMIC_RELAXED);
	     row = (row + 1) % HB_FLOW_ROWS) {
		int rc = fastmib_read(B->rd, HB_GROUP_FLOW, row, words);
		bool ok = true;

		B->reads++;
		if (rc == -EBUSY) {
			B->busy++; /* no answer: the writer stayed inside past the patience */
			continue;
		}
		if (rc != 0) {
			fprintf(stderr, "fastmib_read: %s\n", fastmib_last_error());
			B->failed = 1;
			break;
		}
		for (unsigned c = C_LAT; c < C_LAT + N_HIST; c++) {
			uint64_t sum = 0;

			for (uint32_t b = 0; b < nb[c]; b++)
				sum += words[first[c] + b];
			ok &= sum == words[first[c] + nb[c]];
		}
		if (ok)
			B->consistent++;
		else
			B->torn++;
		if (words[first[C_TOP]] < last_top[row])
			B->down++;
		last_top[row] = words[first[C_TOP]];
		/* the reads saw observations arrive, not one still picture */
		B->moved += words[first[C_LAT] + nb[C_LAT]] != last_count[row];
		last_count[row] = words[first[C_LAT] + nb[C_LAT]];
		__atomic_store_n(&B->reading, 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static void
run_loops(void)
{
	unsigned rl = rte_get_next_lcore(-1, 1, 0);
	bool reader = rte_lcore_count() >= 2, any = false;
	double base[2][MAX_RUNS];

	for (unsigned i = 0; i < N_LOOPS; i++)
		any |= loops[i].selected;
	if (!any)
		return;
	if (reader) {
		__atomic_store_n(&B->stop, 0, __ATOMIC_RELAXED);
		rte_eal_remote_launch(reader_main, NULL, rl);
		/* the loops start once the reader is reading */
		while (!__atomic_load_n(&B->reading, __ATOMIC_ACQUIRE) && !B->failed)
			rte_pause();
	}
	/* the loops in turn in every run, so that the machine's drift during
	 * the runs reaches them all alike; beside the reader, then alone
	 * (with one lcore, alone only: each loop runs once per run, as
	 * callgrind.sh counts it) */
	for (int alone = !reader; alone < 2; alone++) {
		if (alone && reader) {
			__atomic_store_n(&B->stop, 1, __ATOMIC_RELAXED);
			rte_eal_wait_lcore(rl);
		}
		for (unsigned r = 0; r < B->runs; r++) {
			base[alone][r] = cycles_of(NULL);
			for (unsigned i = 0; i < N_LOOPS; i++)
				if (loops[i].selected)
					loops[i].cyc[alone][r] = cycles_of(&loops[i]) -
								 base[alone][r];
		}
	}
	printf("\n-- transactions of one operation (%" PRIu32 " per loop), on the main lcore; "
	       "cycles per transaction\n", B->obs);
	printf("  %-46s %22s %22s %7s\n", "", reader ? "beside the reader" : "(no reader)",
	       "alone", "ns");
	for (unsigned i = 0; i < N_LOOPS; i++) {
		struct bench_spread s[2];
		char mm[2][48];

		if (!loops[i].selected)
			continue;
		for (int a = 0; a < 2; a++) {
			s[a] = bench_spread(loops[i].cyc[a], B->runs);
			snprintf(mm[a], sizeof(mm[a]), "%.1f (%.1f..%.1f)", s[a].med, s[a].lo,
				 s[a].hi);
		}
		printf("  %-46s %22s %22s %7.1f\n", loops[i].what, reader ? mm[0] : "-", mm[1],
		       s[1].med * B->ns_per_cycle);
	}
	printf("  empty loop: %.1f cycles per iteration (subtracted)\n",
	       bench_spread(base[1], B->runs).med);
	if (reader) {
		printf("\n-- fastmib_read() of the flow rows in turn on lcore %u, its own handle, "
		       "beside the loops\n", rl);
		printf("  reads %" PRIu64 ": consistent (count = sum of buckets, all three "
		       "histograms) %" PRIu64 " (%.2f %%), torn %" PRIu64 ", gave up %" PRIu64
		       ", peak went down %" PRIu64 "; reads that saw lat's count move %" PRIu64 "\n",
		       B->reads, B->consistent,
		       B->reads ? 100.0 * (double)B->consistent / (double)B->reads : 0.0, B->torn,
		       B->busy, B->down, B->moved);
	}
}

/* ---- the end: everything the loops put in, exactly ---- */

static int
check(void)
{
	uint64_t octets = 0, plain = 0, top[HB_FLOW_ROWS] = { 0 };
	uint64_t bucket[N_HIST][FASTMIB_MAX_ROW_WORDS] = { { 0 } }, count[N_HIST] = { 0 },
		 sum[N_HIST] = { 0 };
	int bad = 0;

	for (uint32_t r = 0; r < HB_FLOW_ROWS; r++) {
		uint64_t w[FASTMIB_MAX_ROW_WORDS], wp[FASTMIB_MAX_ROW_WORDS];

		if (fastmib_read(B->rd, HB_GROUP_FLOW, r, w) != 0 ||
		    fastmib_read(B->hp, HP_GROUP_FLOW, r, wp) != 0) {
			fprintf(stderr, "fastmib_read: %s\n", fastmib_last_error());
			return -1;
		}
		octets += w[fastmib_counter_word(counter(C_OCTETS))];
		for (unsigned k = 0; k < N_HIST; k++) {
			uint32_t f = fastmib_counter_word(counter(C_LAT + k));
			uint32_t nb = counter(C_LAT + k)->n_bounds + 1;

			for (uint32_t b = 0; b < nb; b++)
				bucket[k][b] += w[f + b];
			count[k] += w[f + nb];
			sum[k] += w[f + nb + 1];
		}
		top[r] = w[fastmib_counter_word(counter(C_TOP))];
		if (top[r] != (B->passes[C_TOP] ? B->in_top[r] : 0)) {
			fprintf(stderr, "error: row %" PRIu32 ": peak %" PRIu64 ", the largest value "
				"recorded %" PRIu64 "\n", r, top[r], B->in_top[r]);
			bad = 1;
		}
		plain += wp[0];
	}
	if (octets != B->passes[C_OCTETS] * B->in_sum || plain != B->plain_passes * B->in_sum) {
		fprintf(stderr, "error: octets %" PRIu64 " and %" PRIu64 " (plain.yaml); the loops "
			"added %" PRIu64 " and %" PRIu64 "\n", octets, plain,
			B->passes[C_OCTETS] * B->in_sum, B->plain_passes * B->in_sum);
		bad = 1;
	}
	for (unsigned k = 0; k < N_HIST; k++) {
		uint64_t n = B->passes[C_LAT + k];
		uint32_t nb = counter(C_LAT + k)->n_bounds + 1;

		if (count[k] != n * B->obs || sum[k] != n * B->in_sum) {
			fprintf(stderr, "error: histogram %u: count %" PRIu64 ", sum %" PRIu64 "; "
				"observed %" PRIu64 " values of sum %" PRIu64 "\n", k, count[k],
				sum[k], n * B->obs, n * B->in_sum);
			bad = 1;
		}
		for (uint32_t b = 0; b < nb; b++)
			if (bucket[k][b] != n * B->in_bucket[k][b]) {
				fprintf(stderr, "error: histogram %u, bucket %" PRIu32 ": %" PRIu64
					", observed %" PRIu64 "\n", k, b, bucket[k][b],
					n * B->in_bucket[k][b]);
				bad = 1;
			}
	}
	return bad ? -1 : 0;
}

/* ---- setting up ---- */

static int
make_segments(void)
{
	char path[2][128];

	for (int k = 0; k < 2; k++)
		snprintf(path[k], sizeof(path[k]), "/dev/shm/fastmib-bench-%shist-%d-%s",
			 bench_tag(), (int)getpid(), k ? "hp" : "hb");
	if (hb_create(path[0], NULL, &B->hb) < 0 || hp_create(path[1], NULL, &B->hp) < 0 ||
	    hb_attach(path[0], FASTMIB_ATTACH_RDONLY, &B->rd) < 0) {
		fprintf(stderr, "fastmib: %s\n", fastmib_last_error());
		unlink(path[0]);
		unlink(path[1]);
		return -1;
	}
	/* mapped by the handles: the files themselves are not needed */
	unlink(path[0]);
	unlink(path[1]);
	B->w_hb = fastmib_writer(B->hb);
	B->w_hp = fastmib_writer(B->hp);
	if (B->w_hb == NULL || B->w_hp == NULL) {
		fprintf(stderr, "fastmib_writer: %s\n", fastmib_last_error());
		return -1;
	}
	return 0;
}

/* The bucket of v among a histogram's bounds, by brute force. */
static uint32_t
bucket_of(const struct fastmib_counter_schema *cs, uint64_t v)
{
	uint32_t b = 0;

	while (b < cs->n_bounds && v > cs->bounds[b])
		b++;
	return b;
}

/* Values and rows at random (rand(): repeatable from its seed); the
 * values log-uniform over 2^0..2^21, past the last bound of every
 * histogram. What they should make of each histogram follows. */
static int
make_input(void)
{
	uint32_t *row = malloc(sizeof(*row) * B->obs);
	uint64_t *val = malloc(sizeof(*val) * B->obs);

	if (row == NULL || val == NULL) {
		free(row);
		free(val);
		return -1;
	}
	srand(1);
	for (uint32_t i = 0; i < B->obs; i++) {
		unsigned e = (unsigned)rand() % 21;

		row[i] = (uint32_t)rand() % HB_FLOW_ROWS;
		val[i] = (UINT64_C(1) << e) + (uint64_t)rand() % (UINT64_C(1) << e);
		B->in_sum += val[i];
		for (unsigned k = 0; k < N_HIST; k++)
			B->in_bucket[k][bucket_of(counter(C_LAT + k), val[i])]++;
		if (val[i] > B->in_top[row[i]])
			B->in_top[row[i]] = val[i];
	}
	B->in.row = row;
	B->in.val = val;
	return 0;
}

static void
usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [--obs N] [--runs R] [--only NAME]\n"
	       "  --obs N      transactions of one operation per loop (default 1000000)\n"
	       "  --runs R     repetitions, median (min..max) reported (default 5)\n"
	       "  --only NAME  only loop NAME (none, calls_plain, calls_octets, calls_lat,\n"
	       "               calls_few, calls_many, calls_top, tx_plain, tx_octets, tx_lat,\n"
	       "               tx_few, tx_many, tx_top): what callgrind.sh counts\n",
	       prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "obs", required_argument, NULL, 'n' },
		{ "runs", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	static struct bench bench = { .obs = 1000000, .runs = 5 };
	const char *only = NULL;
	int c;

	if (bench_help_asked(argc, argv)) {
		usage(argv[0]);
		return 0;
	}
	if (bench_eal_init(&argc, &argv) < 0)
		return 1;
	B = &bench;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': B->obs = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'r': B->runs = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'o': only = optarg; break;
		default: usage("fastmib-bench-histograms"); return 2;
		}
	}
	if (B->runs < 1 || B->runs > MAX_RUNS || B->obs < 1) {
		fprintf(stderr, "runs must be 1..%d; obs >= 1\n", MAX_RUNS);
		return 2;
	}
	for (unsigned i = 0; i < N_LOOPS; i++)
		loops[i].selected = only == NULL || strcmp(only, loops[i].name) == 0;
	B->ns_per_cycle = 1e9 / (double)rte_get_tsc_hz();
	if (make_input() < 0 || make_segments() < 0)
		return 1;

	printf("fastmib histograms benchmark: TSC %.3f GHz, %u EAL lcores, %u runs\n",
	       (double)rte_get_tsc_hz() / 1e9, rte_lcore_count(), B->runs);
	if (only == NULL)
		print_memory();
	if (only != NULL && strcmp(only, "none") == 0)
		loop_none(B->obs);
	run_loops();
	if (check() < 0)
		B->failed = 1;
	if (B->torn || B->down)
		fprintf(stderr, "error: %" PRIu64 " reads with a count other than the sum of the "
			"buckets, %" PRIu64 " with a peak lower than before\n", B->torn, B->down);
	fastmib_close(B->rd);
	fastmib_close(B->hb);
	fastmib_close(B->hp);
	free((void *)B->in.row);
	free((void *)B->in.val);
	rte_eal_cleanup();
	return B->failed || B->torn || B->down ? 1 : 0;
}
