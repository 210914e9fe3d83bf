/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * State objects benchmark: what a set costs the slow path, what a reader
 * gets beside a setter running at full speed, and whether a group's
 * states change its counter updates.
 *
 *   fastmib-bench-states [EAL options] -- [--sets N] [--updates N] [--reads N]
 *                                         [--runs R] [--only NAME]
 *
 * 1. Sets on the main lcore, through the generated setters, of row 7 of
 *    the tunnel table of states.yaml: the enum that notifies, the
 *    unsigned32, the 32-character display-string, and the whole row of
 *    five states. Each loop alternates two values, so that every set
 *    changes what it sets (and each change of the enum goes to the change
 *    log, as it would in an application).
 * 2. The same transaction of two counter updates in plain.yaml (no states)
 *    and in states.yaml (the same group with states), in both API forms
 *    (updates.c).
 * 3. A setter on the second lcore sets the row whole, A, B, A, ..., as fast
 *    as it can, while the main lcore reads the row's states with
 *    fastmib_state_read() through a handle of its own, as an agent does:
 *    every read must be all of A or all of B. The latency of each read
 *    (its median and 99th percentile) and the sets made meanwhile; then
 *    the same reads with no setter, for reference.
 *
 * Times are TSC cycles (ns at rte_get_tsc_hz()). A loop's figure is the
 * median over R runs (min..max), less the empty loop timed in the same
 * run. Exits 1 when a set fails, a counter is off or a read is neither A
 * nor B: the smoke run in ctest checks that, never a time.
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
#include "states_bench.h"
#include "bno_stats.h"
#include "bst_stats.h"

#define MAX_RUNS 32
/* The row that is set and read: any row of the table would do. */
#define ROW 7u

struct bench {
	struct fastmib_segment *st;     /* states.yaml, created here: the setters' */
	struct fastmib_segment *rd;     /* the same segment attached read-only: the reader's */
	struct fastmib_segment *plain;  /* plain.yaml */
	struct fastmib_writer *w_st, *w_plain;
	struct upd_packets pk;          /* --updates packets */
	uint64_t pk_bytes;              /* their sizes' sum */
	uint32_t sets, updates, reads;  /* per loop or run */
	unsigned runs;
	double ns_per_cycle;
	struct bst_tunnel_state row[2]; /* A and B: they differ in every state */
	char label[2][sizeof(((struct bst_tunnel_state *)NULL)->label)];
	uint64_t want_pkts[2], want_bytes[2]; /* what the update loops added: bno, bst */
	int failed;                     /* a set or a read that returned an error */
	uint64_t mixed;                 /* reads neither all of A nor all of B */
	/* a reader beside a setter */
	int stop;                       /* by the main lcore, to the setter */
	uint64_t n_set;                 /* sets made by the setter lcore so far */
	int setter_failed;
	uint32_t *lat;                  /* TSC cycles of each read of a run */
};

static struct bench *B;

/* ---- 1. sets; 2. counter updates ---- */

/* One iteration's packet fetch and nothing else: the part of each loop
 * below that is not what it measures. */
static __attribute__((noinline)) void
loop_none(uint32_t n)
{
	struct upd_packets pk = B->pk;

	for (uint32_t i = 0; i < n; i++)
		__asm__ volatile("" : : "r"(pk.flow[i]), "r"(pk.size[i]));
}

static __attribute__((noinline)) void
loop_set_enum(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		B->failed |= bst_tunnel_oper_state_set(B->st, ROW, i & 1 ?
						       BST_TUNNEL_OPER_STATE_DOWN :
						       BST_TUNNEL_OPER_STATE_UP) != 0;
}

static __attribute__((noinline)) void
loop_set_mtu(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		B->failed |= bst_tunnel_mtu_set(B->st, ROW, i & 1 ? 1500 : 9000) != 0;
}

static __attribute__((noinline)) void
loop_set_label(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		B->failed |= bst_tunnel_label_set(B->st, ROW, B->label[i & 1]) != 0;
}

static __attribute__((noinline)) void
loop_set_row(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		B->failed |= bst_tunnel_state_set(B->st, ROW, &B->row[i & 1]) != 0;
}

/* The update loops of updates.c, on their model's writer, over every
 * packet (n is --updates); the model's expected totals follow. */
#define RUN_UPD(form, p, m, w)                                          \
	static void run_upd_##form##_##p(uint32_t n)                    \
	{                                                               \
		loop_upd_##form##_##p(B->w, B->pk, n);                  \
		B->want_pkts[m] += n;                                   \
		B->want_bytes[m] += B->pk_bytes;                        \
	}
RUN_UPD(calls, bno, 0, w_plain)
RUN_UPD(calls, bst, 1, w_st)
RUN_UPD(tx, bno, 0, w_plain)
RUN_UPD(tx, bst, 1, w_st)

enum { LOOP_SET, LOOP_UPD };

struct loop {
	const char *name; /* --only NAME; callgrind.sh counts function loop_NAME */
	const char *what;
	int kind;         /* LOOP_SET: --sets iterations of 1 set; LOOP_UPD: --updates of 2 updates */
	void (*fn)(uint32_t n);
	bool selected;
	double cyc[MAX_RUNS]; /* TSC cycles per set or update */
};

static struct loop loops[] = {
	{ .name = "set_enum", .what = "one state: enum operState (notify, changes logged)",
	  .kind = LOOP_SET, .fn = loop_set_enum },
	{ .name = "set_mtu", .what = "one state: unsigned32 mtu", .kind = LOOP_SET,
	  .fn = loop_set_mtu },
	{ .name = "set_label", .what = "one state: display-string label, 32 characters",
	  .kind = LOOP_SET, .fn = loop_set_label },
	{ .name = "set_row", .what = "whole row: 5 states, 32-character label", .kind = LOOP_SET,
	  .fn = loop_set_row },
	{ .name = "upd_calls_bno", .what = "update, calls, model without states", .kind = LOOP_UPD,
	  .fn = run_upd_calls_bno },
	{ .name = "upd_calls_bst", .what = "update, calls, model with states", .kind = LOOP_UPD,
	  .fn = run_upd_calls_bst },
	{ .name = "upd_tx_bno", .what = "update, tx form, model without states", .kind = LOOP_UPD,
	  .fn = run_upd_tx_bno },
	{ .name = "upd_tx_bst", .what = "update, tx form, model with states", .kind = LOOP_UPD,
	  .fn = run_upd_tx_bst },
};
#define N_LOOPS (sizeof(loops) / sizeof(loops[0]))

static double
cycles_of(void (*fn)(uint32_t), uint32_t n)
{
	uint64_t t0 = rte_rdtsc_precise();

	fn(n);
	return (double)(rte_rdtsc_precise() - t0) / n;
}

static void
run_loops(void)
{
	double base[MAX_RUNS];
	bool any = false;

	for (unsigned i = 0; i < N_LOOPS; i++)
		any |= loops[i].selected;
	if (!any)
		return;
	/* the loops in turn in every run, so that the machine's drift during
	 * the runs reaches them all alike */
	for (unsigned r = 0; r < B->runs; r++) {
		base[r] = cycles_of(loop_none, B->updates);
		for (unsigned i = 0; i < N_LOOPS; i++) {
			struct loop *l = &loops[i];

			if (!l->selected)
				continue;
			if (l->kind == LOOP_SET)
				l->cyc[r] = cycles_of(l->fn, B->sets) - base[r];
			else
				l->cyc[r] = (cycles_of(l->fn, B->updates) - base[r]) / 2;
		}
	}
	printf("\n-- sets of row %u (%" PRIu32 " per loop) and counter updates (%" PRIu32
	       " transactions of 2 per loop), on the main lcore\n", ROW, B->sets, B->updates);
	printf("  %-52s %9s %20s %9s\n", "", "cycles", "(min..max)", "ns");
	for (unsigned i = 0; i < N_LOOPS; i++) {
		struct bench_spread s;
		char mm[32];

		if (!loops[i].selected)
			continue;
		s = bench_spread(loops[i].cyc, B->runs);
		snprintf(mm, sizeof(mm), "(%.1f..%.1f)", s.lo, s.hi);
		printf("  %-52s %9.1f %20s %9.1f\n", loops[i].what, s.med, mm,
		       s.med * B->ns_per_cycle);
	}
	printf("  empty loop: %.1f cycles per iteration (subtracted)\n",
	       bench_spread(base, B->runs).med);
}

/* The tunnel table's totals in `seg` against what the loops added. */
static int
check_totals(struct fastmib_segment *seg, unsigned group, const char *model, int m)
{
	uint64_t pkts = 0, bytes = 0;

	for (uint32_t r = 0; r < BST_TUNNEL_ROWS; r++) {
		uint64_t v[FASTMIB_MAX_COUNTERS];

		if (fastmib_read(seg, group, r, v) != 0) {
			fprintf(stderr, "fastmib_read: %s\n", fastmib_last_error());
			return -1;
		}
		pkts += v[0];
		bytes += v[1];
	}
	if (pkts != B->want_pkts[m] || bytes != B->want_bytes[m]) {
		fprintf(stderr, "error: %s counted %" PRIu64 " packets, %" PRIu64 " octets; the "
			"loops added %" PRIu64 ", %" PRIu64 "\n", model, pkts, bytes,
			B->want_pkts[m], B->want_bytes[m]);
		return -1;
	}
	return 0;
}

/* ---- 3. a reader beside a setter ---- */

static int
setter_main(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; !__atomic_load_n(&B->stop, __ATOMIC_RELAXED); i++) {
		if (bst_tunnel_state_set(B->st, ROW, &B->row[i & 1]) != 0)
			__atomic_store_n(&B->setter_failed, 1, __ATOMIC_RELAXED);
		/* also what releases the reader, failed or not */
		__atomic_store_n(&B->n_set, i + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

struct read_run {
	uint64_t reads, a, b, mixed, busy;
	uint64_t sets;      /* made by the setter from the first read to the last */
	double secs;        /* from the first read to the last */
	double p50, p99, p999, max, mean; /* ns */
	uint64_t over_us, over_ms; /* reads that took more than 1 us, 1 ms */
};

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n), nearest rank, in ns. */
static double
quantile_ns(const uint32_t *v, uint32_t n, double q)
{
	uint32_t k = (uint32_t)(q * n + 0.999999);

	return (double)v[k ? k - 1 : 0] * B->ns_per_cycle;
}

static void
read_run(bool with_setter, struct read_run *rr)
{
	unsigned wl = rte_get_next_lcore(-1, 1, 0);
	struct bst_tunnel_state got;
	uint64_t bad[FASTMIB_STATE_MASK_WORDS];
	uint64_t s0 = 0, t_first, t_last;

	memset(rr, 0, sizeof(*rr));
	if (bst_tunnel_state_set(B->st, ROW, &B->row[0]) != 0) {
		fprintf(stderr, "bst_tunnel_state_set: %s\n", fastmib_last_error());
		B->failed = 1;
	}
	if (with_setter) {
		__atomic_store_n(&B->stop, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&B->n_set, 0, __ATOMIC_RELAXED);
		rte_eal_remote_launch(setter_main, NULL, wl);
		/* the reads start once the setter is setting */
		while ((s0 = __atomic_load_n(&B->n_set, __ATOMIC_ACQUIRE)) == 0)
			rte_pause();
	}
	t_first = rte_rdtsc();
	for (uint32_t i = 0; i < B->reads; i++) {
		uint64_t t0 = rte_rdtsc(), t;
		int rc = fastmib_state_read(B->rd, BST_GROUP_TUNNEL, ROW, &got, bad);

		t = rte_rdtsc() - t0;
		B->lat[i] = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
		if (rc == -EBUSY) {
			rr->busy++; /* no answer: a setter stayed inside past the patience */
		} else if (rc != 0) {
			fprintf(stderr, "fastmib_state_read: %s\n", fastmib_last_error());
			B->failed = 1;
		} else if (memcmp(&got, &B->row[0], sizeof(got)) == 0) {
			rr->a++;
		} else if (memcmp(&got, &B->row[1], sizeof(got)) == 0) {
			rr->b++;
		} else {
			rr->mixed++; /* states of A beside states of B, or a value left out */
		}
	}
	t_last = rte_rdtsc();
	if (with_setter) {
		rr->sets = __atomic_load_n(&B->n_set, __ATOMIC_ACQUIRE) - s0;
		__atomic_store_n(&B->stop, 1, __ATOMIC_RELAXED);
		rte_eal_wait_lcore(wl);
	}
	rr->reads = B->reads;
	rr->secs = (double)(t_last - t_first) * B->ns_per_cycle / 1e9;
	qsort(B->lat, B->reads, sizeof(*B->lat), cmp_u32);
	rr->mean = rr->secs * 1e9 / (double)B->reads;
	rr->p50 = quantile_ns(B->lat, B->reads, 0.50);
	rr->p99 = quantile_ns(B->lat, B->reads, 0.99);
	rr->p999 = quantile_ns(B->lat, B->reads, 0.999);
	rr->max = quantile_ns(B->lat, B->reads, 1.0);
	for (uint32_t i = B->reads; i-- > 0 && B->lat[i] * B->ns_per_cycle > 1e3;) {
		rr->over_us++;
		rr->over_ms += B->lat[i] * B->ns_per_cycle > 1e6;
	}
}

static void
run_reads(bool with_setter)
{
	double p50[MAX_RUNS], p99[MAX_RUNS], p999[MAX_RUNS], max[MAX_RUNS], mean[MAX_RUNS];
	double sets[MAX_RUNS], rate[MAX_RUNS];
	uint64_t reads = 0, a = 0, b = 0, mixed = 0, busy = 0, over_us = 0, over_ms = 0;
	struct bench_spread s50, s99, s999, smax, smean, ss, sr;

	for (unsigned r = 0; r < B->runs; r++) {
		struct read_run rr;

		read_run(with_setter, &rr);
		p50[r] = rr.p50;
		p99[r] = rr.p99;
		p999[r] = rr.p999;
		max[r] = rr.max;
		mean[r] = rr.mean;
		sets[r] = (double)rr.sets;
		rate[r] = (double)rr.sets / rr.secs;
		reads += rr.reads;
		a += rr.a;
		b += rr.b;
		mixed += rr.mixed;
		busy += rr.busy;
		over_us += rr.over_us;
		over_ms += rr.over_ms;
	}
	s50 = bench_spread(p50, B->runs);
	s99 = bench_spread(p99, B->runs);
	s999 = bench_spread(p999, B->runs);
	smax = bench_spread(max, B->runs);
	smean = bench_spread(mean, B->runs);
	printf(" %s\n", with_setter ? "setter at full speed on lcore 1, whole rows A and B in turn" :
	       "no setter, the row holding A");
	printf("  reads %" PRIu64 ": consistent %" PRIu64 " (%.2f %%: A %" PRIu64 ", B %" PRIu64
	       "), mixed %" PRIu64 ", gave up %" PRIu64 "\n", reads, a + b,
	       100.0 * (double)(a + b) / (double)reads, a, b, mixed, busy);
	printf("  read p50 %.0f ns (%.0f..%.0f), p99 %.0f ns (%.0f..%.0f), p99.9 %.0f ns "
	       "(%.0f..%.0f), max %.0f ns (%.0f..%.0f)\n", s50.med, s50.lo, s50.hi, s99.med, s99.lo,
	       s99.hi, s999.med, s999.lo, s999.hi, smax.med, smax.lo, smax.hi);
	printf("  mean, a read and its checks: %.0f ns (%.0f..%.0f); reads over 1 us %" PRIu64
	       ", over 1 ms %" PRIu64 "\n", smean.med, smean.lo, smean.hi, over_us, over_ms);
	if (with_setter) {
		ss = bench_spread(sets, B->runs);
		sr = bench_spread(rate, B->runs);
		printf("  sets meanwhile per run %.0f (%.0f..%.0f), %.0f per second (%.0f..%.0f)\n",
		       ss.med, ss.lo, ss.hi, sr.med, sr.lo, sr.hi);
	}
	B->mixed += mixed;
	if (B->setter_failed) {
		fprintf(stderr, "error: a set of the setter lcore failed\n");
		B->failed = 1;
	}
}

/* ---- setting up ---- */

/* Rows A and B, different in every state, padding zeroed: a read is
 * compared with them whole. */
static void
make_rows(void)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

	for (int k = 0; k < 2; k++) {
		struct bst_tunnel_state *s = &B->row[k];

		memset(B->label[k], k ? 'B' : 'A', sizeof(B->label[k]) - 1);
		B->label[k][sizeof(B->label[k]) - 1] = '\0';
		memset(s, 0, sizeof(*s));
		s->oper_state = k ? BST_TUNNEL_OPER_STATE_DOWN : BST_TUNNEL_OPER_STATE_UP;
		s->mtu = k ? 9000 : 1500;
		memcpy(s->label, B->label[k], sizeof(s->label));
		s->remote.type = k ? 2 : 1;
		if (k)
			memcpy(s->remote.addr, v6, sizeof(v6));
		else
			memcpy(s->remote.addr, (const uint8_t[]){ 192, 0, 2, 1 }, 4);
		s->since = k ? INT64_C(1767225600000000000) : INT64_C(1735689600000000000);
	}
}

static int
make_segments(void)
{
	char path[2][128];

	for (int k = 0; k < 2; k++)
		snprintf(path[k], sizeof(path[k]), "/dev/shm/fastmib-bench-%sstates-%d-%s",
			 bench_tag(), (int)getpid(), k ? "bst" : "bno");
	if (bno_create(path[0], NULL, &B->plain) < 0 || bst_create(path[1], NULL, &B->st) < 0 ||
	    bst_attach(path[1], FASTMIB_ATTACH_RDONLY, &B->rd) < 0) {
		fprintf(stderr, "fastmib: %s\n", fastmib_last_error());
		unlink(path[0]);
		unlink(path[1]);
		return -1;
	}
	/* mapped by both handles: the files themselves are not needed */
	unlink(path[0]);
	unlink(path[1]);
	B->w_plain = fastmib_writer(B->plain);
	B->w_st = fastmib_writer(B->st);
	if (B->w_plain == NULL || B->w_st == NULL) {
		fprintf(stderr, "fastmib_writer: %s\n", fastmib_last_error());
		return -1;
	}
	return 0;
}

/* Packets' rows and sizes at random (rand(): repeatable from its seed). */
static int
make_packets(void)
{
	uint32_t *flow = malloc(sizeof(*flow) * B->updates);
	uint32_t *size = malloc(sizeof(*size) * B->updates);

	if (flow == NULL || size == NULL) {
		free(flow);
		free(size);
		return -1;
	}
	srand(1);
	for (uint32_t i = 0; i < B->updates; i++) {
		flow[i] = (uint32_t)rand() % BST_TUNNEL_ROWS;
		size[i] = 64 + (uint32_t)rand() % 1455;
		B->pk_bytes += size[i];
	}
	B->pk.flow = flow;
	B->pk.size = size;
	return 0;
}

static void
usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [--sets N] [--updates N] [--reads N] [--runs R]\n"
	       "                              [--only NAME]\n"
	       "  --sets N     sets per loop (default 100000)\n"
	       "  --updates N  transactions of two counter updates per loop (default 1000000)\n"
	       "  --reads N    reads per run beside the setter, and without it (default 1000000)\n"
	       "  --runs R     repetitions, median (min..max) reported (default 5)\n"
	       "  --only NAME  only loop NAME (none, set_enum, set_mtu, set_label, set_row,\n"
	       "               upd_calls_bno, upd_calls_bst, upd_tx_bno, upd_tx_bst), or the\n"
	       "               reads (read): what callgrind.sh counts\n",
	       prog);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sets", required_argument, NULL, 's' },
		{ "updates", required_argument, NULL, 'u' },
		{ "reads", required_argument, NULL, 'n' },
		{ "runs", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	static struct bench bench = { .sets = 100000, .updates = 1000000, .reads = 1000000,
				      .runs = 5 };
	const char *only = NULL;
	bool reads;
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
		case 's': B->sets = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'u': B->updates = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'n': B->reads = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'r': B->runs = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'o': only = optarg; break;
		default: usage("fastmib-bench-states"); return 2;
		}
	}
	if (B->runs < 1 || B->runs > MAX_RUNS || B->sets < 1 || B->updates < 1 || B->reads < 1) {
		fprintf(stderr, "runs must be 1..%d; sets, updates and reads >= 1\n", MAX_RUNS);
		return 2;
	}
	reads = only == NULL || strcmp(only, "read") == 0;
	for (unsigned i = 0; i < N_LOOPS; i++)
		loops[i].selected = only == NULL || strcmp(only, loops[i].name) == 0;
	B->ns_per_cycle = 1e9 / (double)rte_get_tsc_hz();
	B->lat = malloc(sizeof(*B->lat) * B->reads);
	if (B->lat == NULL || make_packets() < 0 || make_segments() < 0)
		return 1;
	make_rows();

	printf("fastmib states benchmark: TSC %.3f GHz, %u EAL lcores, %u runs\n",
	       (double)rte_get_tsc_hz() / 1e9, rte_lcore_count(), B->runs);
	if (only != NULL && strcmp(only, "none") == 0)
		loop_none(B->updates);
	run_loops();
	if (check_totals(B->plain, BNO_GROUP_TUNNEL, "bno", 0) < 0 ||
	    check_totals(B->st, BST_GROUP_TUNNEL, "bst", 1) < 0)
		B->failed = 1;
	if (reads && rte_lcore_count() < 2) {
		printf("\n-- a reader beside a setter: skipped (needs a second lcore)\n");
	} else if (reads) {
		printf("\n-- fastmib_state_read() of row %u on the main lcore, its own handle, "
		       "%" PRIu32 " reads per run\n", ROW, B->reads);
		run_reads(true);
		run_reads(false);
	}
	if (B->failed)
		fprintf(stderr, "error: a set or a read failed: %s\n", fastmib_last_error());
	if (B->mixed)
		fprintf(stderr, "error: %" PRIu64 " reads mixed rows A and B\n", B->mixed);
	fastmib_close(B->rd);
	fastmib_close(B->st);
	fastmib_close(B->plain);
	free((void *)B->pk.flow);
	free((void *)B->pk.size);
	free(B->lat);
	rte_eal_cleanup();
	return B->failed || B->mixed ? 1 : 0;
}
