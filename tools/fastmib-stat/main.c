/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-stat: print the counters of a fastmib segment from the shell, or
 * (--ports, ports.c) the ports of DPDK applications.
 *
 * A pure reader: it attaches the segment (read-only unless --reset), takes
 * the same per-group / per-row snapshots the SNMP subagent takes, and
 * reports values the way SNMP does (Counter32 modulo 2^32, Gauge32 clamped).
 * It links only the EAL-free part of libfastmib, so it can run next to a
 * live DPDK process without touching its EAL state.
 *
 * This file is the top of the program: it reads the command line (args.c)
 * and runs one mode; no mode calls back into it.
 */
#include <stdlib.h>
#include <unistd.h>

#include "stat.h"

static int
attach(const char *path, bool writable, struct fastmib_segment **seg)
{
	int rc = fastmib_attach(path, writable ? 0 : FASTMIB_ATTACH_RDONLY, seg);

	if (rc < 0)
		fst_report_error(path, NULL);
	return rc;
}

static int
print_once(struct fastmib_segment *seg, const struct stat_opts *o)
{
	struct snap s = { 0 };
	struct view v;
	int rc = fst_view_build(fastmib_schema(seg), o, &v);

	if (rc != 0)
		return rc;
	if (!v.all_rows) {
		/* nothing to order: read and print a range of rows at a time */
		rc = o->json ? fst_print_json_stream(seg, o->path, &v) :
			       fst_print_text_stream(seg, o, &v);
		if (rc < 0)
			fst_report_error(o->path, "read");
		fst_view_free(&v);
		return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	rc = fst_snap_take(seg, &v, &s);
	if (rc < 0) {
		fst_report_error(o->path, "read");
		fst_view_free(&v);
		return EXIT_FAILURE;
	}
	if (o->json)
		rc = fst_print_json(fst_json_doc(seg, o->path, &v, &s, NULL), false);
	else
		fst_print_text(seg, o, &v, &s, NULL);
	fst_snap_free(&s);
	fst_view_free(&v);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

int
main(int argc, char **argv)
{
	struct stat_opts o;
	struct fastmib_segment *seg;
	int rc;

	rc = fst_parse_args(argc, argv, &o);
	if (rc >= 0)
		goto out;
	if (o.n_ports) {
		rc = fst_do_ports(&o);
		goto out;
	}
	if (attach(o.path, o.reset, &seg) < 0) {
		rc = EXIT_FAILURE;
		goto out;
	}
	if (o.reset) {
		/* Alone, --reset confirms on stdout; otherwise the report follows. */
		bool quiet = o.json || o.info || o.watch > 0;
		/* ask a person, never a script: only when stdin is a terminal */
		bool ask = !o.yes && isatty(STDIN_FILENO);

		rc = fst_do_reset(seg, o.path, o.reset_target, quiet, ask);
		if (rc != 0 || !quiet)
			goto out_close;
	}
	if (o.info) {
		rc = fst_do_info(seg, o.path, o.json);
		if (rc < 0)
			fst_report_error(o.path, "info");
		rc = rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	} else if (o.events) {
		rc = fst_do_events(&seg, &o);
	} else if (o.watch > 0) {
		rc = fst_watch(&seg, &o);
	} else {
		rc = print_once(seg, &o);
	}
out_close:
	fastmib_close(seg);
out:
	free(o.match);
	free(o.ports);
	return rc;
}
