/* SPDX-License-Identifier: BSD-3-Clause */
/* --watch: redraw until interrupted; the signal handling every loop shares. */
#include <errno.h>
#include <unistd.h>

#include "stat.h"

volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* SIGINT and SIGTERM end the loops (and their sleeps) instead of the process. */
void
stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void
sleep_interruptible(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	/* A signal ends the sleep early (no SA_RESTART), which is the point. */
	while (!stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * Redraw until SIGINT/SIGTERM. A segment that the application re-created
 * (new generation, file replaced) is re-attached, and rates restart.
 */
int
watch(struct fastmib_segment **segp, const struct stat_opts *o)
{
	struct snap prev = { 0 }, cur = { 0 };
	bool tty = isatty(STDOUT_FILENO);
	struct view v;
	int rc = view_build(fastmib_schema(*segp), o, &v);

	if (rc != 0)
		return rc;
	stop_on_signals();
	while (!stop_requested) {
		if (fastmib_stale(*segp)) {
			struct fastmib_segment *n;

			if (fastmib_attach(o->path, FASTMIB_ATTACH_RDONLY, &n) == 0) {
				fastmib_close(*segp);
				*segp = n;
				snap_free(&prev);
				/* the application may have come back with another model */
				view_free(&v);
				if ((rc = view_build(fastmib_schema(n), o, &v)) != 0)
					return rc;
			}
		}
		if (snap_take(*segp, &v, &cur) < 0) {
			report_error(o->path, "read");
			snap_free(&prev);
			view_free(&v);
			return EXIT_FAILURE;
		}
		if (o->json) {
			print_json(json_doc(*segp, o->path, &v, &cur), true);
		} else {
			if (tty)
				fputs("\033[H\033[2J", stdout);
			else if (prev.g != NULL)
				putchar('\n');
			print_text(*segp, o, &v, &cur, prev.g ? &prev : NULL);
		}
		fflush(stdout);
		snap_free(&prev);
		prev = cur;
		cur.g = NULL;
		sleep_interruptible(o->watch);
	}
	snap_free(&prev);
	view_free(&v);
	return EXIT_SUCCESS;
}
