/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Event torture: two writer lcores log events as fast as they can into
 * small rings (constant overwriting) while a separate reader process
 * copies them and checks that no record is ever torn. Afterwards the
 * per-event logged/dropped counters must match what the writers did.
 * Usage: events_torture READER_EXE [READER_POLLS]
 */
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "events_torture.h"
#include "tutil.h"

extern char **environ;

struct worker {
	uint64_t logged[TS_N_EVENTS]; /* read after rte_eal_wait_lcore() */
	uint64_t total;               /* published with release */
	uint32_t slot;
} __attribute__((aligned(64)));

static struct fastmib_segment *seg;
static struct worker workers[RTE_MAX_LCORE];
static int stop;

static int
writer_main(void *arg)
{
	struct worker *me = &workers[rte_lcore_id()];
	struct fastmib_writer *w = fastmib_writer(seg);
	uint64_t a[4];

	(void)arg;
	if (w == NULL)
		return -1;
	me->slot = w->slot;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint32_t ev = (uint32_t)(w->ev_head % 3); /* TOP, OUTER, INNER: rate 9 */

		fastmib_event_burst(w);
		et_args(w->ev_head + 1, ev, w->slot, a);
		if (fastmib_event_on(w, 9))
			fastmib_event_log(w, ev, a[0], a[1], a[2], a[3]);
		me->logged[ev]++;
		if (fastmib_event_on(w, ts_ev_schema.events[TS_EV_SAMPLED].rate)) {
			fastmib_event_log(w, TS_EV_SAMPLED, 0, 0, 0, 0);
			me->logged[TS_EV_SAMPLED]++;
		}
		__atomic_store_n(&me->total, w->ev_head, __ATOMIC_RELEASE);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fastmib_opts o = { .event_ring = ET_RING };
	char path[256], polls[32];
	char *rargv[4];
	uint64_t total = 0, dropped = 0, logged = 0;
	int status = 0, failures = 0;
	pid_t pid;
	unsigned l;

	if (argc < 2)
		return 2;
	snprintf(polls, sizeof(polls), "%s", argc > 2 ? argv[2] : "200000");
	tu_eal_init(argv[0], "0@0,1@0,2@1");
	tu_path(path, sizeof(path), "evtorture");
	unlink(path);
	if (fastmib_create(&ts_ev_schema, path, &o, &seg) != 0) {
		fprintf(stderr, "events_torture: %s\n", fastmib_last_error());
		return 1;
	}
	RTE_LCORE_FOREACH_WORKER(l)
		tu_launch(writer_main, NULL, l);
	RTE_LCORE_FOREACH_WORKER(l)
		while (__atomic_load_n(&workers[l].total, __ATOMIC_ACQUIRE) == 0)
			rte_pause();
	rargv[0] = argv[1];
	rargv[1] = path;
	rargv[2] = polls;
	rargv[3] = NULL;
	if (posix_spawn(&pid, argv[1], NULL, NULL, rargv, environ) != 0) {
		fprintf(stderr, "events_torture: cannot spawn %s\n", argv[1]);
		return 1;
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "events_torture: reader failed (status %d)\n", status);
		failures++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	RTE_LCORE_FOREACH_WORKER(l) {
		if (tu_wait(l) != 0)
			failures++;
		total += workers[l].total;
		/* Every slot keeps exactly its newest ET_RING records. */
		dropped += workers[l].total > ET_RING ? workers[l].total - ET_RING : 0;
	}
	for (unsigned e = 0; e < TS_N_EVENTS; e++) {
		uint64_t want = 0;

		RTE_LCORE_FOREACH_WORKER(l)
			want += workers[l].logged[e];
		if (fastmib_event_logged(seg, e) != want) {
			fprintf(stderr, "events_torture: event %u logged %" PRIu64 " != %" PRIu64 "\n",
				e, fastmib_event_logged(seg, e), want);
			failures++;
		}
		logged += want;
	}
	{
		uint64_t d = 0;

		for (unsigned e = 0; e < TS_N_EVENTS; e++)
			d += fastmib_event_dropped(seg, e);
		if (d != dropped || logged != total) {
			fprintf(stderr, "events_torture: dropped %" PRIu64 " != %" PRIu64
				" or logged %" PRIu64 " != %" PRIu64 "\n", d, dropped, logged, total);
			failures++;
		}
	}
	printf("events_torture: %" PRIu64 " records logged, %" PRIu64 " overwritten, %d failures\n",
	       total, dropped, failures);
	fastmib_close(seg);
	unlink(path);
	rte_eal_cleanup();
	return failures ? 1 : 0;
}
