/* SPDX-License-Identifier: BSD-3-Clause */
/* --events: the event log, once or followed, as text or JSON. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "stat.h"

/* UTC with nanoseconds: 2026-11-22T10:00:00.123456789Z */
static void
format_time_ns(uint64_t ns, char *buf, size_t len)
{
	fst_format_utc(buf, len, (int64_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u), 9);
}

/* int32 arguments were sign-extended when logged: show the word signed. */
static bool
arg_signed(const struct fastmib_event_schema *e, uint32_t k)
{
	return e->arg_types[k] == FASTMIB_ARG_INT32;
}

/*
 * An argument in JSON: a 32-bit one as an integer (int32 signed), a
 * uint64 by the 64-bit rule. The word is shown whole: fastmib_event_log()
 * takes any word, and one that does not fit its 32-bit type follows the
 * 64-bit rule rather than lose its upper half.
 */
static json_t *
arg_json(const struct fastmib_event_schema *e, uint32_t k, uint64_t word)
{
	int64_t s = (int64_t)word;

	if (arg_signed(e, k))
		return s >= INT32_MIN && s <= INT32_MAX ? json_integer((json_int_t)s)
							: fst_json_s64(s);
	if (e->arg_types[k] == FASTMIB_ARG_UINT32 && word <= UINT32_MAX)
		return json_integer((json_int_t)word);
	return fst_json_u64(word);
}

static void
print_event_text(const struct fastmib_schema *sc, const struct fastmib_event_rec *r)
{
	const struct fastmib_event_schema *e = &sc->events[r->event];
	char when[64];

	format_time_ns(r->time_ns, when, sizeof(when));
	printf("%s  lcore %-3" PRIu32 " %-*s L%" PRIu32 "  lag %12" PRIu64 " cyc %10"
	       PRIu64 " ns", when, r->slot, 20, e->name, e->level, r->lag, r->lag_ns);
	for (uint32_t k = 0; k < e->n_args; k++) {
		if (arg_signed(e, k))
			printf("  %s=%" PRId64, e->args[k], (int64_t)r->args[k]);
		else
			printf("  %s=%" PRIu64, e->args[k], r->args[k]);
	}
	putchar('\n');
}

static json_t *
event_json(const struct fastmib_schema *sc, const struct fastmib_event_rec *r)
{
	const struct fastmib_event_schema *e = &sc->events[r->event];
	json_t *args = json_object();
	char when[64];

	format_time_ns(r->time_ns, when, sizeof(when));
	for (uint32_t k = 0; k < e->n_args; k++)
		json_object_set_new(args, e->args[k], arg_json(e, k, r->args[k]));
	return json_pack("{s:o, s:s, s:o, s:o, s:I, s:s, s:I, s:I, s:o, s:o, s:o}",
			 "seq", fst_json_u64(r->seq), "time", when,
			 "time_ns", fst_json_u64(r->time_ns), "tsc", fst_json_u64(r->tsc),
			 "lcore", (json_int_t)r->slot, "event", e->name,
			 "id", (json_int_t)e->arc, "level", (json_int_t)e->level,
			 "lag_cycles", fst_json_u64(r->lag), "lag_ns", fst_json_u64(r->lag_ns),
			 "args", args);
}

#define EVENT_BATCH 256

/*
 * Copy every record available now through `cur`, printing those that pass
 * the filters (text, JSON lines, or appended to `arr`). Returns the number
 * of records copied, or a negative errno.
 */
static int
drain_events(struct fastmib_segment *seg, struct fastmib_event_cursor *cur,
	     const struct stat_opts *o, int only, json_t *arr)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_event_rec r[EVENT_BATCH];
	int n, total = 0;

	while ((n = fastmib_events_poll(seg, cur, r, EVENT_BATCH)) > 0) {
		total += n;
		for (int i = 0; i < n; i++) {
			if ((only >= 0 && r[i].event != (uint32_t)only) ||
			    sc->events[r[i].event].level > (uint32_t)o->max_level)
				continue;
			if (arr)
				json_array_append_new(arr, event_json(sc, &r[i]));
			else if (o->json)
				fst_print_json(event_json(sc, &r[i]), true);
			else
				print_event_text(sc, &r[i]);
		}
		if (n < EVENT_BATCH)
			break;
	}
	return n < 0 ? n : total;
}

static int
event_filter(const struct fastmib_schema *sc, const struct stat_opts *o)
{
	int only = -1;

	if (o->event_name && (only = fastmib_event_by_name(sc, o->event_name)) < 0) {
		fprintf(stderr, "fastmib-stat: no event '%s' in %s\n", o->event_name,
			sc->module);
		return -EINVAL;
	}
	return only;
}

/* Follow the log until SIGINT/SIGTERM, re-attaching a re-created segment. */
static int
follow_events(struct fastmib_segment **segp, struct fastmib_event_cursor *cur,
	      const struct stat_opts *o, int only)
{
	fst_stop_on_signals();
	while (!fst_stop_requested) {
		int n = drain_events(*segp, cur, o, only, NULL);

		if (n < 0)
			return n;
		fflush(stdout);
		if (fastmib_stale(*segp)) {
			struct fastmib_segment *ns;
			struct fastmib_event_cursor *nc;

			if (fastmib_attach(o->path, FASTMIB_ATTACH_RDONLY, &ns) == 0) {
				if (fastmib_event_cursor_new(ns, &nc) < 0) {
					fastmib_close(ns);
					return -ENOMEM;
				}
				fastmib_event_cursor_free(cur);
				fastmib_close(*segp);
				*segp = ns;
				cur = nc;
				if ((only = event_filter(fastmib_schema(ns), o)) == -EINVAL)
					break;
			}
		}
		if (n == 0)
			fst_sleep_interruptible(0.05);
	}
	fastmib_event_cursor_free(cur);
	return 0;
}

/* Returns a process exit status. */
int
fst_do_events(struct fastmib_segment **segp, const struct stat_opts *o)
{
	const struct fastmib_schema *sc = fastmib_schema(*segp);
	struct fastmib_event_cursor *cur;
	json_t *arr = NULL;
	int only, rc;

	if (sc->n_events == 0) {
		fprintf(stderr, "fastmib-stat: %s: the model %s declares no events\n", o->path,
			sc->module);
		return EXIT_FAILURE;
	}
	if ((only = event_filter(sc, o)) == -EINVAL)
		return EXIT_USAGE;
	if (fastmib_event_cursor_new(*segp, &cur) < 0) {
		fst_report_error(o->path, "events");
		return EXIT_FAILURE;
	}
	if (o->follow) {
		rc = follow_events(segp, cur, o, only);
		if (rc < 0)
			fst_report_error(o->path, "events");
		return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	if (o->json)
		arr = json_array();
	rc = drain_events(*segp, cur, o, only, arr);
	if (rc >= 0 && arr) {
		json_t *doc = json_pack("{s:s, s:s, s:o, s:o}", "segment", o->path,
					"module", sc->module, "events", arr,
					"dropped", fst_json_u64(fastmib_event_cursor_dropped(cur)));

		rc = fst_print_json(doc, false);
	} else if (arr) {
		json_decref(arr);
	}
	fastmib_event_cursor_free(cur);
	if (rc < 0)
		fst_report_error(o->path, "events");
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
