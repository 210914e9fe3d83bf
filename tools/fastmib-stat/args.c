/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-stat's command line. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fastmib/ethdev/portmap.h"
#include "stat.h"

#ifndef FASTMIB_VERSION_STRING
#define FASTMIB_VERSION_STRING "unknown"
#endif

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: fastmib-stat SEGMENT [OPTIONS]\n"
		"       fastmib-stat --ports PATH[,BASE] [--ports ...] [OPTIONS]\n"
		"Print the counters of a fastmib shared-memory segment, or the ports of\n"
		"DPDK applications as fastmib-agentx serves them in IF-MIB.\n"
		"\n"
		"  --json               one JSON document instead of text; 64-bit values\n"
		"                       above 2^53-1 as decimal strings\n"
		"  --json-strings       with --json: every 64-bit value as a decimal string\n"
		"  -H, --human          numbers with a prefix: 1.2M, 300k (powers of 1000);\n"
		"                       octets and bytes 1.5KiB (powers of 1024)\n"
		"  --watch SECONDS      redraw every SECONDS with per-second rates and a '*'\n"
		"                       after a state that changed, until interrupted\n"
		"                       (with --json: one document per line)\n"
		"  --rows N             show at most N rows of each table\n"
		"  --match GLOB         only groups, counters and states whose model name\n"
		"                       (rxPkts, flow.bytes) or MIB name matches GLOB\n"
		"                       (fnmatch, any case; repeatable: any of them)\n"
		"  --sort [+|-]COLUMN   order table rows by an index, counter or state column\n"
		"                       (model or MIB name): counters and numbers largest\n"
		"                       first, indexes and texts smallest first; + ascending,\n"
		"                       - descending; with --watch, by the rate shown\n"
		"  --top N              the N first rows of each table in --sort order\n"
		"                       (without --sort: by the first counter shown)\n"
		"  --output COLUMNS     the text's columns, comma-separated, in order: of the\n"
		"                       lists NAME, VALUE, UNITS, RATE (--watch), TYPE,\n"
		"                       DESCRIPTION; of tables their index, counter and\n"
		"                       state names; what has no column left is not shown;\n"
		"                       a histogram's name shows its blocks\n"
		"  --raw                tables only, unaligned, one space between cells\n"
		"  --reset [GROUP[.ROW|/KEY]]  reset the whole segment, one group (every row\n"
		"                       of a table), or one table row given by its SNMP\n"
		"                       index, dotted for several indexes (portQueue.2.3),\n"
		"                       or in a keyed table by its key, one field per\n"
		"                       index joined by ',' (tunnel/10.0.0.1,7; in a string\n"
		"                       '\\,' is a comma, '\\\\' a backslash);\n"
		"                       asks first when standard input is a terminal\n"
		"  -y, --yes            with --reset: do not ask\n"
		"  --info               print the segment header instead of counters\n"
		"  --events             print the event log (every record still in the rings),\n"
		"                       merged over lcores in time order\n"
		"  --follow             with --events: keep printing new records until\n"
		"                       interrupted (with --json: one JSON object per line)\n"
		"  --event NAME         with --events: only this event (model or MIB name)\n"
		"  --level N            with --events: only events of level <= N (0..9)\n"
		"  --help               this text\n"
		"  --version            program version\n"
		"\n"
		"Ports of DPDK applications (no SEGMENT; with --json, --json-strings, -H,\n"
		"--raw and --watch):\n"
		"  --ports PATH[,BASE]  the ethdev ports of the DPDK application whose\n"
		"                       telemetry socket (or runtime directory, e.g.\n"
		"                       /var/run/dpdk/rte) is PATH (repeatable), at the\n"
		"                       ifIndex and ifName the agent serves them; BASE: the\n"
		"                       first ifIndex of the application's new devices\n"
		"  --ifindex-base N     first ifIndex of new devices without a BASE\n"
		"                       (default 1000)\n"
		"  --state-dir DIR      the agent's state directory, where it keeps the\n"
		"                       ifIndex of each device (default\n"
		"                       " FASTMIB_AGENT_STATE_DIR "; /var/lib/snmp for the\n"
		"                       snmpd module)\n"
		"  --timeout MS         longest wait for a telemetry answer (default 1000)\n"
		"\n"
		"Exit status: 0 success, 1 segment or application error, 2 usage error.\n");
}

/* Does `s` look like a reset target (GROUP, GROUP.1.2 or GROUP/KEY) rather
 * than a path? */
static bool
looks_like_target(const char *s)
{
	struct stat st;

	if (!isalpha((unsigned char)s[0]))
		return false;
	for (const char *p = s; *p && *p != '/'; p++) /* a key may hold anything */
		if (!isalnum((unsigned char)*p) && *p != '.')
			return false;
	return stat(s, &st) != 0; /* an existing file is the segment */
}

static int
parse_watch_seconds(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return (errno || end == s || *end || !(*v > 0) || *v > 86400) ? -EINVAL : 0;
}

/* A count in lo..hi, as strtoull() reads it but without a minus sign. */
static int
parse_count(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || n < lo || n > hi)
		return -EINVAL;
	*v = n;
	return 0;
}

/* ---- the options, one group at a time ---- */

/* Long options without a short form: values no character has. */
enum { O_JSON = 256, O_JSON_STRINGS, O_WATCH, O_ROWS, O_RESET, O_INFO, O_HELP, O_VERSION,
       O_EVENTS, O_FOLLOW, O_EVENT, O_LEVEL, O_MATCH, O_SORT, O_TOP, O_OUTPUT,
       O_RAW, O_PORTS, O_IFINDEX_BASE, O_TIMEOUT, O_STATE_DIR };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, O_JSON },
	{ "json-strings", no_argument, NULL, O_JSON_STRINGS },
	{ "human", no_argument, NULL, 'H' },
	{ "yes", no_argument, NULL, 'y' },
	{ "watch", required_argument, NULL, O_WATCH },
	{ "rows", required_argument, NULL, O_ROWS },
	{ "reset", optional_argument, NULL, O_RESET },
	{ "info", no_argument, NULL, O_INFO },
	{ "events", no_argument, NULL, O_EVENTS },
	{ "follow", no_argument, NULL, O_FOLLOW },
	{ "event", required_argument, NULL, O_EVENT },
	{ "level", required_argument, NULL, O_LEVEL },
	{ "match", required_argument, NULL, O_MATCH },
	{ "sort", required_argument, NULL, O_SORT },
	{ "top", required_argument, NULL, O_TOP },
	{ "output", required_argument, NULL, O_OUTPUT },
	{ "raw", no_argument, NULL, O_RAW },
	{ "ports", required_argument, NULL, O_PORTS },
	{ "ifindex-base", required_argument, NULL, O_IFINDEX_BASE },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "state-dir", required_argument, NULL, O_STATE_DIR },
	{ "help", no_argument, NULL, O_HELP },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

/*
 * How the counters are shown: --json, --json-strings, -H, --raw, --output,
 * --watch, and which of them: --match, --sort, --top, --rows (noted in
 * *rows_given). Option `c` with value `arg`; -1 to go on, or the exit
 * status after a bad value.
 */
static int
show_option(int c, const char *arg, struct stat_opts *o, bool *rows_given)
{
	switch (c) {
	case O_JSON:
		o->json = true;
		break;
	case O_JSON_STRINGS:
		o->json_strings = true;
		break;
	case 'H':
		o->human = true;
		break;
	case O_RAW:
		o->raw = true;
		break;
	case O_OUTPUT:
		o->output = arg;
		break;
	case O_WATCH:
		if (parse_watch_seconds(arg, &o->watch) < 0) {
			fprintf(stderr, "fastmib-stat: --watch: '%s' is not a "
				"number of seconds in (0, 86400]\n", arg);
			return EXIT_USAGE;
		}
		break;
	case O_MATCH:
		o->match[o->n_match++] = arg;
		break;
	case O_SORT:
		o->sort = arg;
		break;
	case O_TOP:
		if (parse_count(arg, 1, UINT64_MAX, &o->top) < 0) {
			fprintf(stderr, "fastmib-stat: --top: '%s' is not a row "
				"count of 1 or more\n", arg);
			return EXIT_USAGE;
		}
		break;
	case O_ROWS:
		if (parse_count(arg, 0, UINT64_MAX, &o->max_rows) < 0) {
			fprintf(stderr, "fastmib-stat: --rows: '%s' is not a "
				"row count\n", arg);
			return EXIT_USAGE;
		}
		*rows_given = true;
		break;
	}
	return -1;
}

/*
 * What else is done with the segment: --reset and -y, --info, --events with
 * --follow, --event and --level. Option `c` with value `arg` (--reset may
 * take the next word of argv too); -1 to go on, or the exit status after a
 * bad value.
 */
static int
segment_option(int c, const char *arg, int argc, char **argv, struct stat_opts *o)
{
	char *end;

	switch (c) {
	case O_RESET:
		o->reset = true;
		o->reset_target = arg;
		/* Also accept "--reset GROUP" (separate word). */
		if (arg == NULL && optind < argc && looks_like_target(argv[optind]))
			o->reset_target = argv[optind++];
		break;
	case 'y':
		o->yes = true;
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
		o->event_name = arg;
		break;
	case O_LEVEL:
		errno = 0;
		o->max_level = (int)strtol(arg, &end, 10);
		if (errno || end == arg || *end || o->max_level < 0 ||
		    o->max_level > FASTMIB_EVENT_RATE_MAX) {
			fprintf(stderr, "fastmib-stat: --level: '%s' is not a level "
				"0..9\n", arg);
			return EXIT_USAGE;
		}
		break;
	}
	return -1;
}

/*
 * The ports of DPDK applications: --ports, --ifindex-base, --timeout,
 * --state-dir. Option `c` with value `arg`; -1 to go on, or the exit
 * status after a bad value.
 */
static int
ports_option(int c, const char *arg, struct stat_opts *o)
{
	char path[4096];
	uint32_t base;
	uint64_t v;

	switch (c) {
	case O_PORTS:
		if (fme_port_source_parse(arg, path, sizeof(path), &base) < 0) {
			fprintf(stderr, "fastmib-stat: --ports %s: needs PATH or "
				"PATH,BASE with BASE in 1..%u\n", arg, FME_IFINDEX_MAX);
			return EXIT_USAGE;
		}
		o->ports[o->n_ports++] = arg;
		break;
	case O_IFINDEX_BASE:
		if (parse_count(arg, 1, FME_IFINDEX_MAX, &v) < 0) {
			fprintf(stderr, "fastmib-stat: --ifindex-base: '%s' is not in "
				"1..%u\n", arg, FME_IFINDEX_MAX);
			return EXIT_USAGE;
		}
		o->ifindex_base = (uint32_t)v;
		break;
	case O_TIMEOUT:
		if (parse_count(arg, 1, 60000, &v) < 0) {
			fprintf(stderr, "fastmib-stat: --timeout: '%s' is not a number "
				"of milliseconds in 1..60000\n", arg);
			return EXIT_USAGE;
		}
		o->timeout_ms = (unsigned int)v;
		break;
	case O_STATE_DIR:
		o->state_dir = arg;
		break;
	}
	return -1;
}

/* Option `c` of getopt_long(), to its group; -1 to go on, or the exit status. */
static int
take_option(int c, int argc, char **argv, struct stat_opts *o, bool *rows_given)
{
	switch (c) {
	case O_JSON:
	case O_JSON_STRINGS:
	case 'H':
	case O_RAW:
	case O_OUTPUT:
	case O_WATCH:
	case O_MATCH:
	case O_SORT:
	case O_TOP:
	case O_ROWS:
		return show_option(c, optarg, o, rows_given);
	case O_RESET:
	case 'y':
	case O_INFO:
	case O_EVENTS:
	case O_FOLLOW:
	case O_EVENT:
	case O_LEVEL:
		return segment_option(c, optarg, argc, argv, o);
	case O_PORTS:
	case O_IFINDEX_BASE:
	case O_TIMEOUT:
	case O_STATE_DIR:
		return ports_option(c, optarg, o);
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

/* ---- the options together ---- */

/*
 * --ports: a mode of its own. It takes no SEGMENT and none of the options
 * that choose or change a segment's counters; the output options it
 * shares. Returns -1 to go on, or the exit status.
 */
static int
ports_args(int argc, char **argv, const struct stat_opts *o)
{
	const char *segment_only = o->reset ? "--reset" : o->info ? "--info"
		: o->events ? "--events" : o->follow ? "--follow" : o->event_name ? "--event"
		: o->max_level < FASTMIB_EVENT_RATE_MAX ? "--level" : o->n_match ? "--match"
		: o->sort ? "--sort" : o->top ? "--top" : o->output ? "--output"
		: o->max_rows != UINT64_MAX ? "--rows" : o->yes ? "-y (--yes)" : NULL;

	if (optind < argc) {
		fprintf(stderr, "fastmib-stat: --ports takes no SEGMENT ('%s')\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (segment_only) {
		fprintf(stderr, "fastmib-stat: %s is for a segment's counters, not with "
			"--ports\n", segment_only);
		return EXIT_USAGE;
	}
	if (o->json_strings && !o->json) {
		fprintf(stderr, "fastmib-stat: --json-strings goes with --json\n");
		return EXIT_USAGE;
	}
	if ((o->human || o->raw) && o->json) {
		fprintf(stderr, "fastmib-stat: %s is for the ports as text, not with --json\n",
			o->human ? "-H (--human)" : "--raw");
		return EXIT_USAGE;
	}
	fst_json64_all_strings(o->json_strings);
	return -1;
}

/*
 * A segment's counters (no --ports): one SEGMENT, the options of --ports
 * left out, and every option with the one it goes with, none with one it
 * excludes. Returns -1 to go on, or the exit status.
 */
static int
segment_args(int argc, char **argv, struct stat_opts *o, bool rows_given)
{
	if (o->ifindex_base || o->timeout_ms || o->state_dir) {
		fprintf(stderr, "fastmib-stat: %s goes with --ports\n", o->ifindex_base ?
			"--ifindex-base" : o->timeout_ms ? "--timeout" : "--state-dir");
		return EXIT_USAGE;
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
	if ((o->human || o->output || o->raw) && (o->json || o->info || o->events)) {
		/* JSON stays exact and whole; --info and --events have no counters */
		fprintf(stderr, "fastmib-stat: %s is for the counters as text, not with %s\n",
			o->human ? "-H (--human)" : o->output ? "--output" : "--raw",
			o->json ? "--json" : o->info ? "--info" : "--events");
		return EXIT_USAGE;
	}
	if (o->json_strings && !o->json) {
		fprintf(stderr, "fastmib-stat: --json-strings goes with --json\n");
		return EXIT_USAGE;
	}
	fst_json64_all_strings(o->json_strings);
	if (o->yes && !o->reset) {
		fprintf(stderr, "fastmib-stat: -y (--yes) goes with --reset\n");
		return EXIT_USAGE;
	}
	if (o->top && rows_given) {
		fprintf(stderr, "fastmib-stat: --top N is --rows N after sorting: "
			"give one of them\n");
		return EXIT_USAGE;
	}
	if ((o->n_match || o->sort || o->top) && (o->info || o->events)) {
		fprintf(stderr, "fastmib-stat: --%s chooses counters to show, not with %s\n",
			o->n_match ? "match" : o->sort ? "sort" : "top",
			o->info ? "--info" : "--events");
		return EXIT_USAGE;
	}
	if (o->events && (o->watch > 0 || o->info)) {
		fprintf(stderr, "fastmib-stat: --events excludes --watch and --info\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* The options' defaults, with room for every --match and --ports. */
static int
opts_init(int argc, struct stat_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_rows = UINT64_MAX;
	o->max_level = FASTMIB_EVENT_RATE_MAX;
	/* every --match (or --ports) could be one: room for all of them */
	o->match = calloc((size_t)argc, sizeof(*o->match));
	o->ports = calloc((size_t)argc, sizeof(*o->ports));
	if (o->match == NULL || o->ports == NULL) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		return EXIT_FAILURE;
	}
	return -1;
}

/* Returns -1 to continue, or an exit status. */
int
fst_parse_args(int argc, char **argv, struct stat_opts *o)
{
	bool rows_given = false;
	int c, rc;

	if ((rc = opts_init(argc, o)) >= 0)
		return rc;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "Hy", longopts, NULL)) != -1)
		if ((rc = take_option(c, argc, argv, o, &rows_given)) >= 0)
			return rc;
	if (o->n_ports)
		return ports_args(argc, argv, o);
	return segment_args(argc, argv, o, rows_given);
}
