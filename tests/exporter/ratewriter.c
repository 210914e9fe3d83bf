/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A writer whose counter is a known function of the time, for the test of
 * rate() in Prometheus (test_rate.py):
 *
 *   ratewriter PATH RATE
 *
 * creates a segment of the keyed test model (tests/codegen/keyed/keyed.yaml,
 * kt) at PATH and keeps global.pkts equal to floor(RATE * (t - t0)), t a
 * CLOCK_REALTIME reading made just before each update and t0 the first
 * one: the value depends on when it was written, not on how fast the loop
 * runs. It prints "t0 NANOSECONDS" then "ready", and updates every
 * 100 microseconds or so until SIGTERM or SIGINT. A reader that sees
 * update k (published after reading c_k) but not update k + 1 (published
 * before c_k+2 was read) read at an instant t with c_k <= t < c_k+2, so
 * the value it got is floor(RATE * (c_k - t0)) with t - c_k < c_k+2 - c_k:
 * the bound the test derives its tolerance from, measured, never assumed.
 * At the end it prints
 *
 *   gap G updates N short S pauses P
 *   pause C_K C_K+2          (P lines)
 *
 * G the largest c_k+2 - c_k, and every pair (c_k, c_k+2) further apart
 * than S listed, so that a reader's bound can be the pauses around its
 * own read, not the longest of the run (S is G when more pauses came
 * than this writer keeps).
 * --help and --version as every program of the project.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fastmib/fastmib.h"
#include "kt_stats.h"
#include "tutil.h"

/* Pairs of readings two updates apart further apart than SHORT_NS. */
#define SHORT_NS 1000000u
#define MAX_PAUSES 65536u

static volatile sig_atomic_t stop;
static uint64_t pauses[MAX_PAUSES][2];

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* floor(rate * ns / 1e9) without overflow for any run of this test. */
static uint64_t
target(uint64_t rate, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)rate * ns / 1000000000u);
}

int
main(int argc, char **argv)
{
	const struct timespec nap = { 0, 100000 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	uint64_t rate, t0, c[2], gap = 0, n = 0, value = 0, n_pauses = 0, lost = 0;
	char *end;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: ratewriter PATH RATE\n"
		       "keeps global.pkts of a keyed test model segment at PATH equal to\n"
		       "floor(RATE * (now - t0)), until SIGTERM\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("ratewriter 1\n");
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: ratewriter PATH RATE\n");
		return 2;
	}
	errno = 0;
	rate = strtoull(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || rate == 0) {
		fprintf(stderr, "ratewriter: '%s': not a rate in counts per second\n", argv[2]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (kt_create(argv[1], NULL, &seg) != 0 || !(w = fastmib_writer(seg))) {
		fprintf(stderr, "ratewriter: %s\n", fastmib_last_error());
		return 1;
	}
	struct kt_tx tx = kt_tx_prepare(w);

	/* the counter is 0 at t0: as if written then */
	t0 = c[0] = c[1] = now_ns();
	printf("t0 %" PRIu64 "\nready\n", t0);
	while (!stop) {
		uint64_t t = now_ns(), v = target(rate, t - t0);

		/* c[n % 2] is the reading two updates back */
		if (t - c[n % 2] > gap)
			gap = t - c[n % 2];
		if (t - c[n % 2] > SHORT_NS) {
			if (n_pauses < MAX_PAUSES) {
				pauses[n_pauses][0] = c[n % 2];
				pauses[n_pauses++][1] = t;
			} else {
				lost++;
			}
		}
		c[n % 2] = t;
		kt_tx_open(&tx);
		kt_tx_global_pkts_add(&tx, v - value);
		kt_tx_end(&tx);
		value = v;
		n++;
		nanosleep(&nap, NULL);
	}
	printf("gap %" PRIu64 " updates %" PRIu64 " short %" PRIu64 " pauses %" PRIu64 "\n",
	       gap, n, lost ? gap : (uint64_t)SHORT_NS, n_pauses);
	for (uint64_t i = 0; i < n_pauses; i++)
		printf("pause %" PRIu64 " %" PRIu64 "\n", pauses[i][0], pauses[i][1]);
	fastmib_close(seg);
	unlink(argv[1]);
	rte_eal_cleanup();
	return 0;
}
