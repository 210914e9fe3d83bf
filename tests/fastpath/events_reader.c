/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reader side of the event torture, in its own process and without EAL:
 * poll the rings while they are overwritten and check every record
 * returned: argument relations intact (never torn), record numbers
 * strictly increasing per slot, each batch in TSC order.
 * Polls at least POLLS times and until MIN_SEEN records were checked: on a
 * loaded machine the writers may hardly run for a while, so a floor on the
 * number of polls alone says nothing. Gives up after DEADLINE_S seconds.
 * Usage: events_reader SEGMENT POLLS
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "events_torture.h"

#define BATCH 512
#define MIN_SEEN 10000
#define DEADLINE_S 60

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	static struct fastmib_event_rec r[BATCH];
	static uint64_t last_seq[1024];
	struct fastmib_segment *seg;
	struct fastmib_event_cursor *cur;
	uint64_t seen = 0, bad = 0, polls, p;
	double deadline = now_s() + DEADLINE_S;

	if (argc < 3)
		return 2;
	polls = strtoull(argv[2], NULL, 10);
	if (fastmib_attach(argv[1], FASTMIB_ATTACH_RDONLY, &seg) != 0 ||
	    fastmib_event_cursor_new(seg, &cur) != 0) {
		fprintf(stderr, "events_reader: %s\n", fastmib_last_error());
		return 1;
	}
	for (p = 0; (p < polls || seen < MIN_SEEN) && bad < 10; p++) {
		int n = fastmib_events_poll(seg, cur, r, p % 2 ? BATCH : 7);

		if (n < 0) {
			fprintf(stderr, "events_reader: %s\n", fastmib_last_error());
			return 1;
		}
		for (int i = 0; i < n; i++, seen++) {
			const struct fastmib_event_rec *e = &r[i];

			if (e->slot >= 1024 || e->seq <= last_seq[e->slot] || !et_valid(e) ||
			    (i && e->tsc < r[i - 1].tsc)) {
				fprintf(stderr, "events_reader: bad record slot %u seq %" PRIu64
					" (after %" PRIu64 ") event %u args %" PRIx64 " %" PRIx64
					" %" PRIx64 " %" PRIx64 "\n", e->slot, e->seq,
					e->slot < 1024 ? last_seq[e->slot] : 0, e->event,
					e->args[0], e->args[1], e->args[2], e->args[3]);
				bad++;
			}
			if (e->slot < 1024)
				last_seq[e->slot] = e->seq;
		}
		if (p % 1024 == 0 && now_s() > deadline)
			break;
	}
	printf("events_reader: %" PRIu64 " records checked in %" PRIu64 " polls, %" PRIu64
	       " dropped, %" PRIu64 " bad\n", seen, p, fastmib_event_cursor_dropped(cur), bad);
	fastmib_event_cursor_free(cur);
	fastmib_close(seg);
	return bad || seen < MIN_SEEN ? 1 : 0;
}
