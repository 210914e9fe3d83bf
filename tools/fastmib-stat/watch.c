/* SPDX-License-Identifier: BSD-3-Clause */
/* --watch: redraw until interrupted. */
#include <unistd.h>

#include "stat.h"

/*
 * Redraw until SIGINT/SIGTERM. Each frame is drawn with the previous
 * one's snapshot: counters as rates, and a state that changed since
 * marked (text "*", JSON "changed"). A segment that the application
 * re-created (new generation, file replaced) is re-attached, and rates
 * and marks restart.
 */
int
fst_watch(struct fastmib_segment **segp, const struct stat_opts *o)
{
	struct snap prev = { 0 }, cur = { 0 };
	bool tty = isatty(STDOUT_FILENO);
	struct view v;
	int rc = fst_view_build(fastmib_schema(*segp), o, &v);

	if (rc != 0)
		return rc;
	fst_stop_on_signals();
	while (!fst_stop_requested) {
		if (fastmib_stale(*segp)) {
			struct fastmib_segment *n;

			if (fastmib_attach(o->path, FASTMIB_ATTACH_RDONLY, &n) == 0) {
				fastmib_close(*segp);
				*segp = n;
				fst_snap_free(&prev);
				/* the application may have come back with another model */
				fst_view_free(&v);
				if ((rc = fst_view_build(fastmib_schema(n), o, &v)) != 0)
					return rc;
			}
		}
		if (fst_snap_take(*segp, &v, &cur) < 0) {
			fst_report_error(o->path, "read");
			fst_snap_free(&prev);
			fst_view_free(&v);
			return EXIT_FAILURE;
		}
		if (o->json) {
			fst_print_json(fst_json_doc(*segp, o->path, &v, &cur, prev.g ? &prev : NULL), true);
		} else {
			if (tty)
				fputs("\033[H\033[2J", stdout);
			else if (prev.g != NULL)
				putchar('\n');
			fst_print_text(*segp, o, &v, &cur, prev.g ? &prev : NULL);
		}
		fflush(stdout);
		fst_snap_free(&prev);
		prev = cur;
		cur.g = NULL;
		fst_sleep_interruptible(o->watch);
	}
	fst_snap_free(&prev);
	fst_view_free(&v);
	return EXIT_SUCCESS;
}
