/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-stat: print the counters of a fastmib segment from the shell.
 *
 * A pure reader: it attaches the segment (read-only unless --reset), takes
 * the same per-group / per-row snapshots the SNMP subagent takes, and
 * reports values the way SNMP does (Counter32 modulo 2^32, Gauge32 clamped).
 * It links only the EAL-free part of libfastmib, so it can run next to a
 * live DPDK process without touching its EAL state.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "fastmib/reader.h"
#include "stat_ports.h"

#ifndef FASTMIB_VERSION_STRING
#define FASTMIB_VERSION_STRING "unknown"
#endif

#define EXIT_USAGE 2
#define NAME_BUF (3 * FASTMIB_MAX_NAME + 8)

struct stat_opts {
	const char *path;
	const char *reset_target; /* NULL: whole segment */
	double watch;             /* seconds; 0 = print once */
	uint64_t max_rows;        /* rows shown per table; UINT64_MAX = all */
	bool json;
	bool info;
	bool reset;
	bool events;              /* --events: print the event log */
	bool follow;              /* --follow: keep printing new events */
	const char *event_name;   /* --event NAME filter; NULL = all */
	int max_level;            /* --level N filter; 9 = all */
};

/* Values of the rows shown for one group, taken in one pass. */
struct group_snap {
	uint64_t n_present; /* rows present in the table (all, not just shown) */
	uint32_t n_shown;
	uint32_t *rows;     /* 0-based row numbers, ascending */
	uint64_t *vals;     /* n_shown x n_counters reported values */
	uint32_t n_bounded; /* rows read best-effort (writer stalled) */
};

struct snap {
	uint32_t n_groups;
	struct group_snap *g;
	struct timespec at;   /* CLOCK_MONOTONIC, for rates */
	struct timespec wall; /* CLOCK_REALTIME, for the JSON "time" */
};

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: fastmib-stat SEGMENT [OPTIONS]\n"
		"       fastmib-stat --ports PATH[,BASE]... [--json] [--watch SECONDS]\n"
		"Print the counters of a fastmib shared-memory segment, or the ports of\n"
		"DPDK applications.\n"
		"\n"
		"  --json               one JSON document instead of text\n"
		"  --watch SECONDS      redraw every SECONDS with per-second rates,\n"
		"                       until interrupted (with --json: one document per line)\n"
		"  --rows N             show at most N rows of each table\n"
		"  --reset [GROUP[.ROW]]  reset the whole segment, one group (every row of a\n"
		"                       table), or one table row given by its SNMP index,\n"
		"                       dotted for several indexes (e.g. portQueue.2.3)\n"
		"  --info               print the segment header instead of counters\n"
		"  --events             print the event log (every record still in the rings),\n"
		"                       merged over lcores in time order\n"
		"  --follow             with --events: keep printing new records until\n"
		"                       interrupted (with --json: one JSON object per line)\n"
		"  --event NAME         with --events: only this event (model or MIB name)\n"
		"  --level N            with --events: only events of level <= N (0..9)\n"
		"  --help               this text\n"
		"  --version            program version\n");
	stat_ports_usage(f);
	fprintf(f,
		"\n"
		"Exit status: 0 success, 1 segment error, 2 usage error.\n");
}

/* "fastmib-stat: PATH: message", without repeating a path the message has. */
static void
report_error(const char *path, const char *what)
{
	const char *msg = fastmib_last_error();

	fprintf(stderr, "fastmib-stat: ");
	if (msg == NULL || strstr(msg, path) == NULL)
		fprintf(stderr, "%s: ", path);
	if (what != NULL)
		fprintf(stderr, "%s: ", what);
	fprintf(stderr, "%s\n", msg ? msg : "unknown error");
}

/* ---- names and values ---- */

/* `<prefix><Part1><Part2>`: SMI descriptor style, parts capitalised. */
static void
mib_name(char *buf, size_t len, const char *prefix, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s%c%s", prefix, toupper((unsigned char)a[0]),
			 a[0] ? a + 1 : "");

	if (b != NULL && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "%c%s", toupper((unsigned char)b[0]),
			 b[0] ? b + 1 : "");
}

/* The value SNMP reports for a raw snapshot word of a counter of `type`. */
static uint64_t
reported_value(uint32_t type, uint64_t raw)
{
	int64_t s;

	switch (type) {
	case FASTMIB_COUNTER32:
		return raw & UINT32_MAX;
	case FASTMIB_GAUGE32:
		s = (int64_t)raw;
		if (s < 0)
			return 0;
		return s > (int64_t)UINT32_MAX ? UINT32_MAX : (uint64_t)s;
	default:
		return raw;
	}
}

static const char *
storage_name(uint32_t storage)
{
	switch (storage) {
	case FASTMIB_STORAGE_PER_CORE:
		return "per-core";
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		return "shared-buffered";
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		return "shared-atomic";
	default:
		return "unknown";
	}
}

static const char *
type_name(uint32_t type)
{
	switch (type) {
	case FASTMIB_COUNTER64:
		return "counter64";
	case FASTMIB_COUNTER32:
		return "counter32";
	case FASTMIB_GAUGE32:
		return "gauge32";
	default:
		return "unknown";
	}
}

/* Next present row >= row, or -1; the same walk the subagent does. */
static int64_t
next_row(struct fastmib_segment *seg, const struct fastmib_group_schema *g,
	 unsigned gi, uint32_t row)
{
	if (row >= g->n_rows)
		return -1;
	if (g->n_indexes == 0 || g->all_rows)
		return row;
	int64_t r = fastmib_next_row(seg, gi, row);

	return r < 0 ? -1 : r;
}

/* ---- snapshots ---- */

static void
snap_free(struct snap *s)
{
	if (s->g == NULL)
		return;
	for (uint32_t i = 0; i < s->n_groups; i++) {
		free(s->g[i].rows);
		free(s->g[i].vals);
	}
	free(s->g);
	s->g = NULL;
}

static int
snap_group(struct fastmib_segment *seg, unsigned gi, uint64_t max_rows,
	   struct group_snap *gs)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	uint64_t raw[FASTMIB_MAX_COUNTERS];
	uint32_t cap = 0;

	memset(gs, 0, sizeof(*gs));
	for (int64_t r = next_row(seg, g, gi, 0); r >= 0;
	     r = next_row(seg, g, gi, (uint32_t)r + 1)) {
		int rc = fastmib_read(seg, gi, (uint32_t)r, raw);

		if (rc == -ENOENT) /* disabled between next_row and read */
			continue;
		if (rc < 0 && rc != -EBUSY)
			return rc;
		gs->n_present++;
		/* --rows caps table rows; a scalar group's one row is always shown */
		if (g->n_indexes > 0 && gs->n_shown >= max_rows)
			continue; /* keep counting rows for the header line */
		if (gs->n_shown == cap) {
			uint32_t ncap = cap ? 2 * cap : 16;
			uint32_t *rows = realloc(gs->rows, ncap * sizeof(*rows));
			uint64_t *vals = rows == NULL ? NULL :
				realloc(gs->vals, (size_t)ncap * g->n_counters *
					sizeof(*vals) + 1);

			if (rows != NULL)
				gs->rows = rows;
			if (vals == NULL)
				return -ENOMEM;
			gs->vals = vals;
			cap = ncap;
		}
		if (rc == -EBUSY)
			gs->n_bounded++;
		gs->rows[gs->n_shown] = (uint32_t)r;
		for (uint32_t c = 0; c < g->n_counters; c++)
			gs->vals[(size_t)gs->n_shown * g->n_counters + c] =
				reported_value(g->counters[c].type, raw[c]);
		gs->n_shown++;
	}
	return 0;
}

static int
snap_take(struct fastmib_segment *seg, uint64_t max_rows, struct snap *s)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);

	s->n_groups = sc->n_groups;
	s->g = calloc(sc->n_groups ? sc->n_groups : 1, sizeof(*s->g));
	if (s->g == NULL)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &s->at);
	clock_gettime(CLOCK_REALTIME, &s->wall);
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		int rc = snap_group(seg, i, max_rows, &s->g[i]);

		if (rc < 0) {
			snap_free(s);
			return rc;
		}
	}
	return 0;
}

/* Row `row` of a previous snapshot's group, or NULL (rows are sorted). */
static const uint64_t *
prev_row_vals(const struct group_snap *p, uint32_t n_counters, uint32_t row)
{
	uint32_t lo = 0, hi = p->n_shown;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->rows[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n_shown && p->rows[lo] == row)
		return &p->vals[(size_t)lo * n_counters];
	return NULL;
}

/*
 * Per-second rate of a counter between two snapshots. Counter32 wraps like
 * its SNMP value; a Counter64 that went down was reset, so no rate.
 */
static bool
rate_of(uint32_t type, uint64_t prev, uint64_t cur, double dt, double *rate)
{
	uint64_t d;

	if (type == FASTMIB_GAUGE32 || dt <= 0)
		return false;
	if (type == FASTMIB_COUNTER32)
		d = (cur - prev) & UINT32_MAX;
	else if (cur >= prev)
		d = cur - prev;
	else
		return false;
	*rate = (double)d / dt;
	return true;
}

/* ---- text output ---- */

static void
print_scalar_group(const struct fastmib_schema *sc,
		   const struct fastmib_group_schema *g,
		   const struct group_snap *gs, const struct group_snap *prev,
		   double dt)
{
	char name[NAME_BUF];
	size_t width = 0;
	const uint64_t *pv = prev ? prev_row_vals(prev, g->n_counters, 0) : NULL;

	for (uint32_t c = 0; c < g->n_counters; c++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->counters[c].name);
		if (strlen(name) > width)
			width = strlen(name);
	}
	printf("%s\n", g->name);
	if (gs->n_shown == 0)
		return;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		const struct fastmib_counter_schema *cs = &g->counters[c];
		double rate;

		mib_name(name, sizeof(name), sc->prefix, g->name, cs->name);
		printf("  %-*s = %" PRIu64, (int)width, name, gs->vals[c]);
		if (pv != NULL && rate_of(cs->type, pv[c], gs->vals[c], dt, &rate))
			printf("  (%.0f/s)", rate);
		printf("\n");
	}
}

static int
digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * One line per row: index columns, then counters. With a previous snapshot
 * (--watch) counter cells are per-second rates, as ifstat shows them.
 */
static void
print_table_group(const struct fastmib_schema *sc,
		  const struct fastmib_group_schema *g,
		  const struct group_snap *gs, const struct group_snap *prev,
		  double dt)
{
	uint32_t nc = g->n_counters, ni = g->n_indexes;
	int width[FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS];
	char name[NAME_BUF];
	uint32_t idx[FASTMIB_MAX_INDEXES];

	printf("%s: %" PRIu64 " of %" PRIu32 " rows present", g->name,
	       gs->n_present, g->n_rows);
	if (gs->n_shown < gs->n_present)
		printf(", %" PRIu32 " shown", gs->n_shown);
	printf("%s\n", prev ? ", counters per second" : "");
	if (gs->n_shown == 0)
		return;

	for (uint32_t k = 0; k < ni; k++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->indexes[k].name);
		width[k] = (int)strlen(name);
		if (digits(g->indexes[k].max) > width[k])
			width[k] = digits(g->indexes[k].max);
	}
	for (uint32_t c = 0; c < nc; c++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->counters[c].name);
		width[ni + c] = (int)strlen(name);
		for (uint32_t r = 0; r < gs->n_shown; r++) {
			int d = digits(gs->vals[(size_t)r * nc + c]);

			if (d > width[ni + c])
				width[ni + c] = d;
		}
	}

	printf(" ");
	for (uint32_t k = 0; k < ni; k++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->indexes[k].name);
		printf(" %*s", width[k], name);
	}
	for (uint32_t c = 0; c < nc; c++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->counters[c].name);
		printf(" %*s", width[ni + c], name);
	}
	printf("\n");

	for (uint32_t r = 0; r < gs->n_shown; r++) {
		const uint64_t *v = &gs->vals[(size_t)r * nc];
		const uint64_t *pv = prev ? prev_row_vals(prev, nc, gs->rows[r]) : NULL;

		fastmib_index_of_row(g, gs->rows[r], idx);
		printf(" ");
		for (uint32_t k = 0; k < ni; k++)
			printf(" %*" PRIu32, width[k], idx[k]);
		for (uint32_t c = 0; c < nc; c++) {
			double rate;

			if (prev == NULL || g->counters[c].type == FASTMIB_GAUGE32)
				printf(" %*" PRIu64, width[ni + c], v[c]);
			else if (pv && rate_of(g->counters[c].type, pv[c], v[c], dt, &rate))
				printf(" %*.0f", width[ni + c], rate);
			else
				printf(" %*s", width[ni + c], "-");
		}
		printf("\n");
	}
}

static void
print_text(struct fastmib_segment *seg, const char *path, const struct snap *s,
	   const struct snap *prev)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	double dt = 0;
	uint32_t bounded = 0;

	fastmib_info(seg, &info);
	if (prev != NULL)
		dt = (double)(s->at.tv_sec - prev->at.tv_sec) +
		     (double)(s->at.tv_nsec - prev->at.tv_nsec) / 1e9;
	printf("%s  %s  generation %" PRIu64 "\n", sc->module, path, info.generation);
	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const struct fastmib_group_schema *g = &sc->groups[i];
		const struct group_snap *pg = prev ? &prev->g[i] : NULL;

		printf("\n");
		if (g->n_indexes == 0)
			print_scalar_group(sc, g, &s->g[i], pg, dt);
		else
			print_table_group(sc, g, &s->g[i], pg, dt);
		bounded += s->g[i].n_bounded;
	}
	if (bounded)
		printf("\nnote: %" PRIu32 " snapshot(s) best-effort: a writer "
		       "stayed inside a transaction\n", bounded);
}

/* ---- JSON output ---- */

/* jansson integers are signed 64-bit; larger Counter64 values go as strings. */
static json_t *
json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

static json_t *
json_counters(const struct fastmib_schema *sc,
	      const struct fastmib_group_schema *g, const uint64_t *v)
{
	json_t *o = json_object();
	char name[NAME_BUF];

	for (uint32_t c = 0; c < g->n_counters; c++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->counters[c].name);
		json_object_set_new(o, name, json_u64(v[c]));
	}
	return o;
}

static json_t *
json_group(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
	   const struct group_snap *gs)
{
	json_t *o = json_object();
	char name[NAME_BUF];

	json_t *types = json_object();

	for (uint32_t c = 0; c < g->n_counters; c++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->counters[c].name);
		json_object_set_new(types, name, json_string(type_name(g->counters[c].type)));
	}
	json_object_set_new(o, "storage", json_string(storage_name(g->storage)));
	json_object_set_new(o, "table", json_boolean(g->n_indexes > 0));
	json_object_set_new(o, "types", types);
	if (g->n_indexes == 0) {
		mib_name(name, sizeof(name), sc->prefix, g->name, NULL);
		json_object_set_new(o, "mib", json_string(name));
		json_object_set_new(o, "counters",
				    gs->n_shown ? json_counters(sc, g, gs->vals) :
						  json_object());
		return o;
	}

	json_t *idx_names = json_array(), *rows = json_array();
	uint32_t idx[FASTMIB_MAX_INDEXES];

	mib_name(name, sizeof(name), sc->prefix, g->name, "table");
	json_object_set_new(o, "mib", json_string(name));
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		mib_name(name, sizeof(name), sc->prefix, g->name, g->indexes[k].name);
		json_array_append_new(idx_names, json_string(name));
	}
	json_object_set_new(o, "indexes", idx_names);
	json_object_set_new(o, "rows_max", json_integer(g->n_rows));
	json_object_set_new(o, "rows_present", json_integer((json_int_t)gs->n_present));
	for (uint32_t r = 0; r < gs->n_shown; r++) {
		json_t *row = json_object(), *ix = json_array();

		fastmib_index_of_row(g, gs->rows[r], idx);
		for (uint32_t k = 0; k < g->n_indexes; k++)
			json_array_append_new(ix, json_integer(idx[k]));
		json_object_set_new(row, "row", json_integer(gs->rows[r]));
		json_object_set_new(row, "index", ix);
		json_object_set_new(row, "counters",
				    json_counters(sc, g, &gs->vals[(size_t)r * g->n_counters]));
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "rows", rows);
	return o;
}

static json_t *
json_doc(struct fastmib_segment *seg, const char *path, const struct snap *s)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	json_t *doc = json_object(), *groups = json_object();

	fastmib_info(seg, &info);
	json_object_set_new(doc, "module", json_string(sc->module));
	json_object_set_new(doc, "prefix", json_string(sc->prefix));
	json_object_set_new(doc, "segment", json_string(path));
	json_object_set_new(doc, "generation", json_u64(info.generation));
	json_object_set_new(doc, "time", json_real((double)s->wall.tv_sec +
						   (double)s->wall.tv_nsec / 1e9));
	for (uint32_t i = 0; i < sc->n_groups; i++)
		json_object_set_new(groups, sc->groups[i].name,
				    json_group(sc, &sc->groups[i], &s->g[i]));
	json_object_set_new(doc, "groups", groups);
	return doc;
}

static int
print_json(json_t *doc, bool compact)
{
	size_t flags = compact ? JSON_COMPACT : JSON_INDENT(2);
	int rc = json_dumpf(doc, stdout, flags);

	json_decref(doc);
	putchar('\n');
	return rc == 0 ? 0 : -EIO;
}

/* ---- --info ---- */

static void
format_time(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (ns == 0) {
		snprintf(buf, len, "never");
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* kill(pid, 0): EPERM still proves the process exists. */
static const char *
pid_state(uint32_t pid)
{
	if (pid == 0)
		return "unknown";
	if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
		return "alive";
	return "not running";
}

static const char *
arg_type_name(uint32_t t)
{
	switch (t) {
	case FASTMIB_ARG_UINT32:
		return "uint32";
	case FASTMIB_ARG_INT32:
		return "int32";
	case FASTMIB_ARG_UINT64:
		return "uint64";
	}
	return "?";
}

static json_t *
events_info_json(struct fastmib_segment *seg, const struct fastmib_info *info)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	json_t *list = json_array();

	for (uint32_t i = 0; i < sc->n_events; i++) {
		const struct fastmib_event_schema *e = &sc->events[i];
		json_t *args = json_array();

		for (uint32_t k = 0; k < e->n_args; k++)
			json_array_append_new(args, json_pack("{s:s, s:s}", "name", e->args[k],
							      "type", arg_type_name(e->arg_types[k])));
		json_array_append_new(list, json_pack("{s:s, s:I, s:I, s:I, s:b, s:o, s:o, s:o}",
			"name", e->name, "id", (json_int_t)e->arc,
			"level", (json_int_t)e->level, "rate", (json_int_t)e->rate,
			"notify", (int)e->notify, "logged", json_u64(fastmib_event_logged(seg, i)),
			"dropped", json_u64(fastmib_event_dropped(seg, i)), "args", args));
	}
	return json_pack("{s:I, s:o, s:o}", "ring_records", (json_int_t)info->event_ring,
			 "tsc_hz", json_u64(info->tsc_hz), "list", list);
}

static int
do_info(struct fastmib_segment *seg, const char *path, bool json)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	struct fastmib_read_stats rs;
	struct snap s = { 0 };
	char created[64], reset[64], oid[FASTMIB_MAX_OID_LEN * 11 + 1] = "";
	uint32_t tables = 0;
	int rc;

	/* One full pass so that the read statistics say something. */
	rc = snap_take(seg, UINT64_MAX, &s);
	if (rc < 0)
		return rc;
	snap_free(&s);
	fastmib_info(seg, &info);
	fastmib_read_stats(seg, &rs);
	format_time(info.created_ns, created, sizeof(created));
	format_time(fastmib_discontinuity(seg, -1, 0), reset, sizeof(reset));
	for (uint32_t i = 0; i < sc->oid_len; i++)
		snprintf(oid + strlen(oid), sizeof(oid) - strlen(oid), "%s%" PRIu32,
			 i ? "." : "", sc->oid[i]);
	for (uint32_t i = 0; i < sc->n_groups; i++)
		tables += sc->groups[i].n_indexes > 0;

	const char *state = info.retired ? "retired" :
			    fastmib_stale(seg) ? "replaced" : "current";

	if (json) {
		char hash[19];
		json_t *o;

		snprintf(hash, sizeof(hash), "0x%016" PRIx64, info.schema_hash);
		o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:s, s:o, s:s, s:I, s:s, "
			       "s:I, s:o, s:I, s:I, s:s, s:s, s:{s:o, s:o, s:o}}",
			       "segment", path, "module", sc->module,
			       "prefix", sc->prefix, "oid", oid,
			       "format", (json_int_t)info.format,
			       "generation", json_u64(info.generation),
			       "schema_hash", hash,
			       "created_ns", json_u64(info.created_ns),
			       "created", created,
			       "writer_pid", (json_int_t)info.writer_pid,
			       "writer", pid_state(info.writer_pid),
			       "lcore_slots", (json_int_t)info.n_slots,
			       "file_size", json_u64(info.file_size),
			       "groups", (json_int_t)sc->n_groups,
			       "tables", (json_int_t)tables,
			       "state", state, "last_reset", reset,
			       "read_stats", "reads", json_u64(rs.reads),
			       "retries", json_u64(rs.retries),
			       "bounded", json_u64(rs.bounded));
		if (o == NULL)
			return -ENOMEM;
		if (sc->n_events)
			json_object_set_new(o, "events", events_info_json(seg, &info));
		return print_json(o, false);
	}
	printf("segment      %s\n", path);
	printf("module       %s (prefix %s, oid %s)\n", sc->module, sc->prefix, oid);
	printf("format       %" PRIu32 "\n", info.format);
	printf("generation   %" PRIu64 "\n", info.generation);
	printf("schema hash  0x%016" PRIx64 "\n", info.schema_hash);
	printf("created      %s\n", created);
	printf("writer pid   %" PRIu32 " (%s)\n", info.writer_pid,
	       pid_state(info.writer_pid));
	printf("lcore slots  %" PRIu32 "\n", info.n_slots);
	printf("file size    %" PRIu64 " bytes\n", info.file_size);
	printf("groups       %" PRIu32 " (%" PRIu32 " scalar, %" PRIu32 " table)\n",
	       sc->n_groups, sc->n_groups - tables, tables);
	printf("state        %s\n", state);
	printf("last reset   %s\n", reset);
	printf("read stats   %" PRIu64 " reads, %" PRIu64 " retries, %" PRIu64
	       " bounded\n", rs.reads, rs.retries, rs.bounded);
	if (sc->n_events == 0)
		return 0;
	printf("event rings  %" PRIu32 " records per lcore slot, TSC %" PRIu64 " Hz\n",
	       info.event_ring, info.tsc_hz);
	printf("  %-24s %4s %5s %5s %20s %20s  %s\n", "event", "id", "level", "rate",
	       "logged", "dropped", "args");
	for (uint32_t i = 0; i < sc->n_events; i++) {
		const struct fastmib_event_schema *e = &sc->events[i];

		printf("  %-24s %4" PRIu32 " %5" PRIu32 " %5" PRIu32 " %20" PRIu64 " %20" PRIu64,
		       e->name, e->arc, e->level, e->rate, fastmib_event_logged(seg, i),
		       fastmib_event_dropped(seg, i));
		for (uint32_t k = 0; k < e->n_args; k++)
			printf("%s%s:%s", k ? " " : "  ", e->args[k],
			       arg_type_name(e->arg_types[k]));
		putchar('\n');
	}
	return 0;
}

/* ---- --reset ---- */

/* Group by model name ("portQueue") or MIB descriptor ("epPortQueue"). */
static int
find_group(const struct fastmib_schema *sc, const char *name, size_t len)
{
	char mib[NAME_BUF];

	for (uint32_t i = 0; i < sc->n_groups; i++) {
		const char *g = sc->groups[i].name;

		if (strlen(g) == len && strncmp(g, name, len) == 0)
			return (int)i;
		mib_name(mib, sizeof(mib), sc->prefix, g, NULL);
		if (strlen(mib) == len && strncmp(mib, name, len) == 0)
			return (int)i;
	}
	return -1;
}

/*
 * Parse "GROUP" or "GROUP.I1[.I2...]" (SNMP 1-based indexes) into a group
 * number and a 0-based row; *has_row tells whether a row was given.
 */
static int
parse_target(const struct fastmib_schema *sc, const char *t, int *group,
	     uint32_t *row, bool *has_row)
{
	const char *dot = strchr(t, '.');
	size_t len = dot ? (size_t)(dot - t) : strlen(t);
	const struct fastmib_group_schema *g;
	uint32_t k = 0;
	uint64_t r = 0;

	*group = find_group(sc, t, len);
	if (*group < 0) {
		fprintf(stderr, "fastmib-stat: no group '%.*s' in %s\n", (int)len, t,
			sc->module);
		return -EINVAL;
	}
	g = &sc->groups[*group];
	*has_row = dot != NULL;
	*row = 0;
	if (!dot)
		return 0;
	if (g->n_indexes == 0) {
		fprintf(stderr, "fastmib-stat: '%s' is a scalar group: no row index\n",
			g->name);
		return -EINVAL;
	}
	for (const char *p = dot; *p == '.'; k++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p + 1, &end, 10);
		if (k == g->n_indexes || end == p + 1 || !isdigit((unsigned char)p[1]) ||
		    errno || v < 1 || v > g->indexes[k].max || (*end && *end != '.')) {
			fprintf(stderr, "fastmib-stat: bad row '%s': %s takes %" PRIu32
				" index value(s)", t, g->name, g->n_indexes);
			for (uint32_t i = 0; i < g->n_indexes; i++)
				fprintf(stderr, "%s %s 1..%" PRIu32, i ? "," : ":",
					g->indexes[i].name, g->indexes[i].max);
			fprintf(stderr, "\n");
			return -EINVAL;
		}
		r = r * g->indexes[k].max + (v - 1);
		p = end;
	}
	if (k != g->n_indexes) {
		fprintf(stderr, "fastmib-stat: bad row '%s': %s takes %" PRIu32
			" index value(s)\n", t, g->name, g->n_indexes);
		return -EINVAL;
	}
	*row = (uint32_t)r;
	return 0;
}

/*
 * A table as a whole: every row present now, all or nothing. Every row's
 * snapshot is taken first (a writer stuck mid-transaction makes that fail
 * with nothing stored), then all are stored. Returns rows reset or < 0.
 */
static int64_t
reset_table(struct fastmib_segment *seg, const struct fastmib_group_schema *g, int group)
{
	struct fastmib_reset_plan **plans = NULL, *p;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (int64_t r = next_row(seg, g, group, 0); r >= 0 && rc == 0;
	     r = next_row(seg, g, group, (uint32_t)r + 1)) {
		if (n == cap) {
			struct fastmib_reset_plan **more;

			cap = cap ? 2 * cap : 64;
			more = realloc(plans, cap * sizeof(*more));
			if (!more) {
				rc = -ENOMEM;
				break;
			}
			plans = more;
		}
		rc = fastmib_reset_prepare(seg, group, (uint32_t)r, &p);
		if (rc == -ENOENT) /* disabled meanwhile */
			rc = 0;
		else if (rc == 0)
			plans[n++] = p;
	}
	for (size_t i = 0; i < n; i++) {
		if (rc < 0)
			fastmib_reset_abort(plans[i]);
		else if (fastmib_reset_commit(plans[i]) < 0)
			rc = -EBUSY;
	}
	free(plans);
	return rc < 0 ? rc : (int64_t)n;
}

/* Returns a process exit status. */
static int
do_reset(struct fastmib_segment *seg, const char *path, const char *target,
	 bool quiet)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	int group, rc;
	uint32_t row;
	int64_t n;
	bool has_row;

	if (target == NULL) {
		rc = fastmib_reset(seg, -1, 0);
		if (rc < 0)
			goto fail;
		if (!quiet)
			printf("reset %s: all counters\n", path);
		return 0;
	}
	if (parse_target(sc, target, &group, &row, &has_row) < 0)
		return EXIT_USAGE;

	const struct fastmib_group_schema *g = &sc->groups[group];

	if (g->n_indexes == 0 || has_row) {
		rc = fastmib_reset(seg, group, row);
		if (rc < 0)
			goto fail;
		if (!quiet)
			printf("reset %s: %s\n", path, target);
		return 0;
	}
	n = reset_table(seg, g, group);
	if (n < 0)
		goto fail;
	if (!quiet)
		printf("reset %s: %s, %" PRId64 " row(s)\n", path, target, n);
	return 0;
fail:
	report_error(path, "reset");
	return EXIT_FAILURE;
}

/* ---- argument parsing ---- */

/* Does `s` look like a reset target (GROUP or GROUP.1.2) rather than a path? */
static bool
looks_like_target(const char *s)
{
	struct stat st;

	if (!isalpha((unsigned char)s[0]))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.')
			return false;
	return stat(s, &st) != 0; /* an existing file is the segment */
}

static int
parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return (errno || end == s || *end || !(*v > 0) || *v > 86400) ? -EINVAL : 0;
}

/* Returns -1 to continue, or an exit status. */
static int
parse_args(int argc, char **argv, struct stat_opts *o)
{
	enum { O_JSON = 256, O_WATCH, O_ROWS, O_RESET, O_INFO, O_HELP, O_VERSION,
	       O_EVENTS, O_FOLLOW, O_EVENT, O_LEVEL };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "watch", required_argument, NULL, O_WATCH },
		{ "rows", required_argument, NULL, O_ROWS },
		{ "reset", optional_argument, NULL, O_RESET },
		{ "info", no_argument, NULL, O_INFO },
		{ "events", no_argument, NULL, O_EVENTS },
		{ "follow", no_argument, NULL, O_FOLLOW },
		{ "event", required_argument, NULL, O_EVENT },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->max_rows = UINT64_MAX;
	o->max_level = FASTMIB_EVENT_RATE_MAX;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case O_JSON:
			o->json = true;
			break;
		case O_WATCH:
			if (parse_double(optarg, &o->watch) < 0) {
				fprintf(stderr, "fastmib-stat: --watch: '%s' is not a "
					"number of seconds in (0, 86400]\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_ROWS:
			errno = 0;
			o->max_rows = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				fprintf(stderr, "fastmib-stat: --rows: '%s' is not a "
					"row count\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_RESET:
			o->reset = true;
			o->reset_target = optarg;
			/* Also accept "--reset GROUP" (separate word). */
			if (optarg == NULL && optind < argc &&
			    looks_like_target(argv[optind]))
				o->reset_target = argv[optind++];
			break;
		case O_INFO:
			o->info = true;
			break;
		case O_EVENTS:
			o->events = true;
			break;
		case O_FOLLOW:
			o->follow = true;
			break;
		case O_EVENT:
			o->event_name = optarg;
			break;
		case O_LEVEL:
			errno = 0;
			o->max_level = (int)strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->max_level < 0 ||
			    o->max_level > FASTMIB_EVENT_RATE_MAX) {
				fprintf(stderr, "fastmib-stat: --level: '%s' is not a level "
					"0..9\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_HELP:
			usage(stdout);
			return EXIT_SUCCESS;
		case O_VERSION:
			printf("fastmib-stat %s\n", FASTMIB_VERSION_STRING);
			return EXIT_SUCCESS;
		default:
			fprintf(stderr, "fastmib-stat: unknown or incomplete option '%s'\n"
				"Try 'fastmib-stat --help'.\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "fastmib-stat: %s\n", optind == argc ?
			"missing SEGMENT argument" : "more than one SEGMENT given");
		fprintf(stderr, "Try 'fastmib-stat --help'.\n");
		return EXIT_USAGE;
	}
	o->path = argv[optind];
	if ((o->follow || o->event_name || o->max_level < FASTMIB_EVENT_RATE_MAX) &&
	    !o->events) {
		fprintf(stderr, "fastmib-stat: --follow, --event and --level go with --events\n");
		return EXIT_USAGE;
	}
	if (o->events && (o->watch > 0 || o->info)) {
		fprintf(stderr, "fastmib-stat: --events excludes --watch and --info\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* ---- --events ---- */

static void sleep_interruptible(double seconds);

/* Event by model name ("burstStart") or MIB-style name ("epBurstStart"). */
static int
find_event(const struct fastmib_schema *sc, const char *name)
{
	char mib[NAME_BUF];

	for (uint32_t i = 0; i < sc->n_events; i++) {
		mib_name(mib, sizeof(mib), sc->prefix, sc->events[i].name, NULL);
		if (strcmp(sc->events[i].name, name) == 0 || strcmp(mib, name) == 0)
			return (int)i;
	}
	return -1;
}

/* UTC with nanoseconds: 2026-11-22T10:00:00.123456789Z */
static void
format_time_ns(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	size_t n;

	gmtime_r(&t, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%09" PRIu64 "Z", ns % 1000000000u);
}

/* int32 arguments were sign-extended when logged: show the word signed. */
static bool
arg_signed(const struct fastmib_event_schema *e, uint32_t k)
{
	return e->arg_types[k] == FASTMIB_ARG_INT32;
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
		json_object_set_new(args, e->args[k],
				    arg_signed(e, k) ? json_integer((json_int_t)(int64_t)r->args[k])
						     : json_u64(r->args[k]));
	return json_pack("{s:o, s:s, s:o, s:o, s:I, s:s, s:I, s:I, s:o, s:o, s:o}",
			 "seq", json_u64(r->seq), "time", when,
			 "time_ns", json_u64(r->time_ns), "tsc", json_u64(r->tsc),
			 "lcore", (json_int_t)r->slot, "event", e->name,
			 "id", (json_int_t)e->arc, "level", (json_int_t)e->level,
			 "lag_cycles", json_u64(r->lag), "lag_ns", json_u64(r->lag_ns),
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
				print_json(event_json(sc, &r[i]), true);
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

	if (o->event_name && (only = find_event(sc, o->event_name)) < 0) {
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
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop_requested) {
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
			sleep_interruptible(0.05);
	}
	fastmib_event_cursor_free(cur);
	return 0;
}

/* Returns a process exit status. */
static int
do_events(struct fastmib_segment **segp, const struct stat_opts *o)
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
		report_error(o->path, "events");
		return EXIT_FAILURE;
	}
	if (o->follow) {
		rc = follow_events(segp, cur, o, only);
		if (rc < 0)
			report_error(o->path, "events");
		return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	if (o->json)
		arr = json_array();
	rc = drain_events(*segp, cur, o, only, arr);
	if (rc >= 0 && arr) {
		json_t *doc = json_pack("{s:s, s:s, s:o, s:o}", "segment", o->path,
					"module", sc->module, "events", arr,
					"dropped", json_u64(fastmib_event_cursor_dropped(cur)));

		rc = print_json(doc, false);
	} else if (arr) {
		json_decref(arr);
	}
	fastmib_event_cursor_free(cur);
	if (rc < 0)
		report_error(o->path, "events");
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- main ---- */

static int
attach(const char *path, bool writable, struct fastmib_segment **seg)
{
	int rc = fastmib_attach(path, writable ? 0 : FASTMIB_ATTACH_RDONLY, seg);

	if (rc < 0)
		report_error(path, NULL);
	return rc;
}

static int
print_once(struct fastmib_segment *seg, const struct stat_opts *o)
{
	struct snap s = { 0 };
	int rc = snap_take(seg, o->max_rows, &s);

	if (rc < 0) {
		report_error(o->path, "read");
		return EXIT_FAILURE;
	}
	if (o->json)
		rc = print_json(json_doc(seg, o->path, &s), false);
	else
		print_text(seg, o->path, &s, NULL);
	snap_free(&s);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

static void
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
static int
watch(struct fastmib_segment **segp, const struct stat_opts *o)
{
	struct snap prev = { 0 }, cur = { 0 };
	bool tty = isatty(STDOUT_FILENO);
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop_requested) {
		if (fastmib_stale(*segp)) {
			struct fastmib_segment *n;

			if (fastmib_attach(o->path, FASTMIB_ATTACH_RDONLY, &n) == 0) {
				fastmib_close(*segp);
				*segp = n;
				snap_free(&prev);
			}
		}
		if (snap_take(*segp, o->max_rows, &cur) < 0) {
			report_error(o->path, "read");
			snap_free(&prev);
			return EXIT_FAILURE;
		}
		if (o->json) {
			print_json(json_doc(*segp, o->path, &cur), true);
		} else {
			if (tty)
				fputs("\033[H\033[2J", stdout);
			else if (prev.g != NULL)
				putchar('\n');
			print_text(*segp, o->path, &cur, prev.g ? &prev : NULL);
		}
		fflush(stdout);
		snap_free(&prev);
		prev = cur;
		cur.g = NULL;
		sleep_interruptible(o->watch);
	}
	snap_free(&prev);
	return EXIT_SUCCESS;
}

int
main(int argc, char **argv)
{
	struct stat_opts o;
	struct fastmib_segment *seg;
	int rc;

	if (stat_ports_wanted(argc, argv))
		return stat_ports_main(argc, argv);
	rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (attach(o.path, o.reset, &seg) < 0)
		return EXIT_FAILURE;
	if (o.reset) {
		/* Alone, --reset confirms on stdout; otherwise the report follows. */
		bool quiet = o.json || o.info || o.watch > 0;

		rc = do_reset(seg, o.path, o.reset_target, quiet);
		if (rc != 0 || !quiet) {
			fastmib_close(seg);
			return rc;
		}
	}
	if (o.info) {
		rc = do_info(seg, o.path, o.json);
		if (rc < 0)
			report_error(o.path, "info");
		rc = rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	} else if (o.events) {
		rc = do_events(&seg, &o);
	} else if (o.watch > 0) {
		rc = watch(&seg, &o);
	} else {
		rc = print_once(seg, &o);
	}
	fastmib_close(seg);
	return rc;
}
