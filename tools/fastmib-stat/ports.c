/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-stat --ports PATH[,BASE]: the ethdev ports of a DPDK application
 * (its telemetry socket, or its runtime directory) as a table or JSON, with
 * per-second rates under --watch. The same telemetry client and ifIndex
 * rule as fastmib-agentx's IF-MIB rows, so the two show the same ports at
 * the same ifIndex values.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cols.h"
#include "json64.h"
#include "ports.h"
#include "telemetry.h"

#ifndef FASTMIB_VERSION_STRING
#define FASTMIB_VERSION_STRING "unknown"
#endif

#define EXIT_USAGE 2
#define MAX_SOURCES 32u
#define MAX_PORTS 1024u
/* A shell tool can wait longer than the agent, which must never block. */
#define DEFAULT_TIMEOUT_MS 1000u

struct port_row {
	struct fastmib_port_reading r;
	uint32_t ifindex;
};

struct source {
	const char *spec;
	char path[4096];
	uint32_t own_base;
	uint32_t base;
	struct fastmib_tel *tel;
	/* the last sample, for rates */
	struct port_row *rows;
	unsigned int n_rows;
	long pid;
	struct timespec at;
	char error[600];
};

struct opts {
	struct source src[MAX_SOURCES];
	unsigned int n_src;
	uint32_t base;
	unsigned int timeout_ms;
	double watch;
	bool json;
	bool json_strings;
	bool human; /* -H */
	bool raw;   /* --raw */
};

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void
stat_ports_usage(FILE *f)
{
	fprintf(f,
		"  --ports PATH[,BASE]  the ethdev ports of the DPDK application whose\n"
		"                       telemetry socket (or runtime directory, e.g.\n"
		"                       /var/run/dpdk/rte) is PATH, at ifIndex BASE + port id\n"
		"                       as fastmib-agentx serves them (repeatable); with\n"
		"                       --json, --watch, -H and --raw; no SEGMENT then\n"
		"  --ifindex-base N     base of the n-th --ports without one: N + 100 n\n"
		"                       (default 1000)\n"
		"  --timeout MS         longest wait for a telemetry answer (default 1000)\n");
}

bool
stat_ports_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--ports") == 0 || strncmp(argv[i], "--ports=", 8) == 0)
			return true;
	}
	return false;
}

static int
parse_uint(const char *s, unsigned long long min, unsigned long long max,
	   unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno || end == s || *end || s[0] == '-' || *v < min || *v > max)
		? -EINVAL : 0;
}

static int
parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_PORTS = 256, O_BASE, O_TIMEOUT, O_JSON, O_JSON_STRINGS, O_WATCH, O_HELP,
	       O_VERSION, O_RAW };
	static const struct option longopts[] = {
		{ "ports", required_argument, NULL, O_PORTS },
		{ "ifindex-base", required_argument, NULL, O_BASE },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "json", no_argument, NULL, O_JSON },
		{ "json-strings", no_argument, NULL, O_JSON_STRINGS },
		{ "human", no_argument, NULL, 'H' },
		{ "raw", no_argument, NULL, O_RAW },
		{ "watch", required_argument, NULL, O_WATCH },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->base = FASTMIB_IFINDEX_BASE;
	o->timeout_ms = DEFAULT_TIMEOUT_MS;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "H", longopts, NULL)) != -1) {
		struct source *s;

		switch (c) {
		case O_PORTS:
			if (o->n_src >= MAX_SOURCES) {
				fprintf(stderr, "fastmib-stat: at most %u --ports\n", MAX_SOURCES);
				return EXIT_USAGE;
			}
			s = &o->src[o->n_src++];
			s->spec = optarg;
			if (fastmib_port_source_parse(optarg, s->path, sizeof(s->path),
						      &s->own_base) < 0) {
				fprintf(stderr, "fastmib-stat: --ports %s: needs PATH or "
					"PATH,BASE with BASE in 1..%u\n", optarg,
					FASTMIB_IFINDEX_MAX);
				return EXIT_USAGE;
			}
			break;
		case O_BASE:
			if (parse_uint(optarg, 1, FASTMIB_IFINDEX_MAX, &v) < 0) {
				fprintf(stderr, "fastmib-stat: --ifindex-base: '%s' is not "
					"in 1..%u\n", optarg, FASTMIB_IFINDEX_MAX);
				return EXIT_USAGE;
			}
			o->base = (uint32_t)v;
			break;
		case O_TIMEOUT:
			if (parse_uint(optarg, 1, 60000, &v) < 0) {
				fprintf(stderr, "fastmib-stat: --timeout: '%s' is not a "
					"number of milliseconds in 1..60000\n", optarg);
				return EXIT_USAGE;
			}
			o->timeout_ms = (unsigned int)v;
			break;
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
		case O_WATCH:
			if (parse_watch_seconds(optarg, &o->watch) < 0) {
				fprintf(stderr, "fastmib-stat: --watch: '%s' is not a "
					"number of seconds in (0, 86400]\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case O_HELP:
			printf("Usage: fastmib-stat --ports PATH[,BASE]... [--json] [-H] "
			       "[--raw] [--watch SECONDS]\n"
			       "Print the ethdev ports of running DPDK applications, read "
			       "over DPDK telemetry.\n\n");
			stat_ports_usage(stdout);
			printf("  --json               one JSON document instead of text\n"
			       "  --json-strings       with --json: every 64-bit value as a "
			       "decimal string\n"
			       "                       (without: above 2^53-1 only)\n"
			       "  -H, --human          counters with a prefix: 1.2M packets, "
			       "1.5GiB\n"
			       "  --raw                the tables alone, unaligned\n"
			       "  --watch SECONDS      redraw every SECONDS with per-second "
			       "rates\n\n"
			       "Exit status: 0 success, 1 an application could not be "
			       "read, 2 usage error.\n");
			return EXIT_SUCCESS;
		case O_VERSION:
			printf("fastmib-stat %s\n", FASTMIB_VERSION_STRING);
			return EXIT_SUCCESS;
		default:
			fprintf(stderr, "fastmib-stat: unknown or incomplete option '%s' "
				"with --ports\nTry 'fastmib-stat --help'.\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fastmib-stat: --ports takes no SEGMENT ('%s')\n",
			argv[optind]);
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
	json64_all_strings(o->json_strings);
	for (unsigned int i = 0; i < o->n_src; i++)
		o->src[i].base = fastmib_port_source_base(o->src[i].own_base, o->base, i);
	return -1;
}

/* ---- reading ---- */

/*
 * Connect (if needed) and read every port of one application: its list,
 * then each port's info, link and stats. Returns 0, or -1 with s->error.
 */
static int
sample(struct source *s, unsigned int timeout_ms, struct port_row **rowsp,
       unsigned int *np)
{
	const char *list_cmd = "/ethdev/list";
	uint16_t ids[MAX_PORTS];
	struct port_row *rows;
	json_t *list;
	int n, rc;

	*rowsp = NULL;
	*np = 0;
	s->error[0] = '\0';
	rc = fastmib_tel_connect(s->tel, timeout_ms);
	if (rc == -EINPROGRESS) {
		snprintf(s->error, sizeof(s->error), "%s: no hello within %u ms",
			 fastmib_tel_socket(s->tel), timeout_ms);
		fastmib_tel_close(s->tel);
		return -1;
	}
	if (rc == 0)
		rc = fastmib_tel_query(s->tel, &list_cmd, 1, &list, timeout_ms);
	if (rc < 0)
		goto fail;
	n = fastmib_port_parse_list(list, ids, MAX_PORTS);
	json_decref(list);
	if (n < 0) {
		snprintf(s->error, sizeof(s->error), "%s: /ethdev/list: not a list of "
			 "port ids", fastmib_tel_socket(s->tel));
		return -1;
	}
	rows = calloc(n ? (size_t)n : 1, sizeof(*rows));
	if (!rows) {
		snprintf(s->error, sizeof(s->error), "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		rc = fastmib_tel_read_port(s->tel, ids[i], FASTMIB_PORT_INFO |
					   FASTMIB_PORT_LINK | FASTMIB_PORT_STATS,
					   &rows[*np].r, timeout_ms);
		if (rc < 0) {
			free(rows);
			*np = 0;
			goto fail;
		}
		/* a port detached between the list and its reading is left out */
		if (!(rows[*np].r.parts & FASTMIB_PORT_INFO))
			continue;
		rows[*np].ifindex = (uint32_t)((uint64_t)s->base + ids[i] > FASTMIB_IFINDEX_MAX
					       ? 0 : s->base + ids[i]);
		(*np)++;
	}
	*rowsp = rows;
	return 0;
fail:
	if (rc == -ETIMEDOUT || rc == -EBUSY)
		snprintf(s->error, sizeof(s->error), "%s: no answer within %u ms",
			 fastmib_tel_socket(s->tel), timeout_ms);
	else
		snprintf(s->error, sizeof(s->error), "%s", fastmib_tel_error(s->tel)[0]
			 ? fastmib_tel_error(s->tel) : strerror(-rc));
	/* start afresh next time: late answers belong to nobody */
	fastmib_tel_close(s->tel);
	return -1;
}

static const struct port_row *
prev_row(const struct source *s, uint16_t port)
{
	for (unsigned int i = 0; i < s->n_rows; i++)
		if (s->rows[i].r.port == port)
			return &s->rows[i];
	return NULL;
}

static const char *
state_of(const struct fastmib_port_reading *r)
{
	if (!r->started)
		return "stopped";
	return r->link_up ? "up" : "down";
}

static void
format_speed(const struct fastmib_port_reading *r, char *buf, size_t len)
{
	if (!r->speed_known)
		snprintf(buf, len, "-");
	else if (r->speed_mbps >= 1000 && r->speed_mbps % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "G", r->speed_mbps / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "M", r->speed_mbps);
}

/* Per-second rates of the four traffic counters; false without a previous
 * reading of the same application instance, or after a reset. */
static bool
rates_of(const struct fastmib_port_reading *p, const struct fastmib_port_reading *c,
	 double dt, double rate[4])
{
	const uint64_t prev[4] = { p->ipackets, p->opackets, p->ibytes * 8, p->obytes * 8 };
	const uint64_t cur[4] = { c->ipackets, c->opackets, c->ibytes * 8, c->obytes * 8 };

	if (dt <= 0)
		return false;
	for (int k = 0; k < 4; k++) {
		if (cur[k] < prev[k])
			return false;
		rate[k] = (double)(cur[k] - prev[k]) / dt;
	}
	return true;
}

/* ---- output ---- */

/* A counter as a cell; with -H packets 1.2M, octets 1.5GiB, bits 9.9G. */
static void
count_cell(struct libscols_line *ln, size_t col, uint64_t v, bool human, bool octets)
{
	char cell[32];

	format_count(cell, sizeof(cell), v, human, octets);
	cols_set(ln, col, cell);
}

static void
print_text(const struct opts *o, const struct source *s, const struct port_row *rows,
	   unsigned int n, bool watching, double dt)
{
	static const char *const heads[] = {
		"IFINDEX", "PORT", "NAME", "STATE", "SPEED", "RX-PACKETS", "TX-PACKETS",
		"RX-OCTETS", "TX-OCTETS", "RX-ERRORS", "RX-MISSED", "RX-NOMBUF", "TX-ERRORS",
		"RX-PKT/S", "TX-PKT/S", "RX-BIT/S", "TX-BIT/S",
	};
	struct libscols_table *tb;
	char cell[32];

	if (s->error[0]) {
		/* once, the error goes to stderr alone; a live display shows it */
		if (watching)
			fprintf(o->raw ? stderr : stdout, "%s: not read: %s\n", s->path,
				s->error);
		return;
	}
	/* --raw: the table alone, for scripts */
	if (!o->raw)
		printf("%s: pid %ld, %s, %u port(s)\n", s->path, fastmib_tel_pid(s->tel),
		       fastmib_tel_version(s->tel), n);
	if (n == 0)
		return;
	tb = cols_new_table();
	for (unsigned int k = 0; k < (watching ? 17u : 13u); k++)
		cols_add_column(tb, heads[k], k != 2 && k != 3);
	for (unsigned int i = 0; i < n; i++) {
		const struct fastmib_port_reading *r = &rows[i].r;
		const struct port_row *p = watching ? prev_row(s, r->port) : NULL;
		struct libscols_line *ln = cols_new_line(tb);
		double rate[4];

		snprintf(cell, sizeof(cell), "%" PRIu32, rows[i].ifindex);
		cols_set(ln, 0, cell);
		snprintf(cell, sizeof(cell), "%u", r->port);
		cols_set(ln, 1, cell);
		cols_set(ln, 2, r->name);
		cols_set(ln, 3, state_of(r));
		format_speed(r, cell, sizeof(cell));
		cols_set(ln, 4, cell);
		count_cell(ln, 5, r->ipackets, o->human, false);
		count_cell(ln, 6, r->opackets, o->human, false);
		count_cell(ln, 7, r->ibytes, o->human, true);
		count_cell(ln, 8, r->obytes, o->human, true);
		count_cell(ln, 9, r->ierrors, o->human, false);
		count_cell(ln, 10, r->imissed, o->human, false);
		count_cell(ln, 11, r->rx_nombuf, o->human, false);
		count_cell(ln, 12, r->oerrors, o->human, false);
		if (!watching)
			continue;
		if (p && s->pid == fastmib_tel_pid(s->tel) && rates_of(&p->r, r, dt, rate)) {
			for (unsigned int k = 0; k < 4; k++) {
				format_rate(cell, sizeof(cell), rate[k], o->human, false);
				cols_set(ln, 13 + k, cell);
			}
		} else {
			for (unsigned int k = 0; k < 4; k++)
				cols_set(ln, 13 + k, "-");
		}
	}
	cols_print(tb, o->raw, 2);
}

static json_t *
port_json(const struct source *s, const struct port_row *row, bool watching, double dt)
{
	const struct fastmib_port_reading *r = &row->r;
	const struct port_row *p = watching ? prev_row(s, r->port) : NULL;
	char mac[18] = "";
	double rate[4];
	json_t *o = json_object();

	if (r->mac_ok)
		snprintf(mac, sizeof(mac), "%02X:%02X:%02X:%02X:%02X:%02X", r->mac[0],
			 r->mac[1], r->mac[2], r->mac[3], r->mac[4], r->mac[5]);
	json_object_set_new(o, "port", json_integer(r->port));
	json_object_set_new(o, "ifindex", json_integer(row->ifindex));
	json_object_set_new(o, "name", json_string(r->name));
	json_object_set_new(o, "state", json_string(state_of(r)));
	json_object_set_new(o, "started", json_boolean(r->started));
	json_object_set_new(o, "link_up", json_boolean(r->link_up));
	json_object_set_new(o, "speed_mbps", r->speed_known ? json_u64(r->speed_mbps)
							     : json_null());
	json_object_set_new(o, "mtu", json_integer(r->mtu));
	json_object_set_new(o, "mac", r->mac_ok ? json_string(mac) : json_null());
	json_object_set_new(o, "promiscuous", json_boolean(r->promiscuous));
	json_object_set_new(o, "rx_packets", json_u64(r->ipackets));
	json_object_set_new(o, "tx_packets", json_u64(r->opackets));
	json_object_set_new(o, "rx_octets", json_u64(r->ibytes));
	json_object_set_new(o, "tx_octets", json_u64(r->obytes));
	json_object_set_new(o, "rx_errors", json_u64(r->ierrors));
	json_object_set_new(o, "rx_missed", json_u64(r->imissed));
	json_object_set_new(o, "rx_nombuf", json_u64(r->rx_nombuf));
	json_object_set_new(o, "tx_errors", json_u64(r->oerrors));
	if (watching && p && s->pid == fastmib_tel_pid(s->tel) && rates_of(&p->r, r, dt, rate))
		json_object_set_new(o, "rates", json_pack("{s:f,s:f,s:f,s:f}",
			"rx_packets", rate[0], "tx_packets", rate[1],
			"rx_bits", rate[2], "tx_bits", rate[3]));
	return o;
}

static json_t *
source_json(const struct source *s, const struct port_row *rows, unsigned int n,
	    bool watching, double dt)
{
	json_t *o = json_object(), *ports;

	json_object_set_new(o, "path", json_string(s->path));
	json_object_set_new(o, "socket", json_string(fastmib_tel_socket(s->tel)));
	if (s->error[0]) {
		json_object_set_new(o, "error", json_string(s->error));
		return o;
	}
	json_object_set_new(o, "pid", json_integer(fastmib_tel_pid(s->tel)));
	json_object_set_new(o, "version", json_string(fastmib_tel_version(s->tel)));
	ports = json_array();
	for (unsigned int i = 0; i < n; i++)
		json_array_append_new(ports, port_json(s, &rows[i], watching, dt));
	json_object_set_new(o, "ports", ports);
	return o;
}

static double
seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* One pass over every source; returns how many could not be read. */
static unsigned int
report(struct opts *o, bool watching)
{
	json_t *doc = o->json ? json_object() : NULL;
	json_t *arr = o->json ? json_array() : NULL;
	unsigned int failed = 0;

	for (unsigned int i = 0; i < o->n_src; i++) {
		struct source *s = &o->src[i];
		struct port_row *rows;
		unsigned int n;
		struct timespec now;
		double dt;

		if (sample(s, o->timeout_ms, &rows, &n) < 0)
			failed++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		dt = s->rows ? seconds_between(&s->at, &now) : 0;
		if (o->json)
			json_array_append_new(arr, source_json(s, rows, n, watching, dt));
		else
			print_text(o, s, rows, n, watching, dt);
		free(s->rows);
		s->rows = rows;
		s->n_rows = n;
		s->pid = s->error[0] ? 0 : fastmib_tel_pid(s->tel);
		s->at = now;
	}
	if (o->json) {
		json_object_set_new(doc, "sources", arr);
		json_dumpf(doc, stdout, watching ? JSON_COMPACT : JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	}
	fflush(stdout);
	return failed;
}

static void
sleep_interruptible(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	while (!stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
stat_ports_main(int argc, char **argv)
{
	struct opts *o = calloc(1, sizeof(*o));
	int rc;

	if (!o) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		return EXIT_FAILURE;
	}
	rc = parse_args(argc, argv, o);
	if (rc >= 0)
		goto out;
	for (unsigned int i = 0; i < o->n_src; i++) {
		if (fastmib_tel_new(o->src[i].path, &o->src[i].tel) < 0) {
			fprintf(stderr, "fastmib-stat: out of memory\n");
			rc = EXIT_FAILURE;
			goto out;
		}
	}
	if (o->watch > 0) {
		struct sigaction sa = { .sa_handler = on_signal };
		bool tty = isatty(STDOUT_FILENO);

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		for (unsigned int pass = 0; !stop_requested; pass++) {
			if (!o->json && tty)
				fputs("\033[H\033[2J", stdout);
			else if (!o->json && pass)
				putchar('\n');
			report(o, true);
			sleep_interruptible(o->watch);
		}
		rc = EXIT_SUCCESS;
	} else {
		unsigned int failed = report(o, false);

		for (unsigned int i = 0; i < o->n_src; i++)
			if (o->src[i].error[0])
				fprintf(stderr, "fastmib-stat: %s\n", o->src[i].error);
		rc = failed ? EXIT_FAILURE : EXIT_SUCCESS;
	}
out:
	for (unsigned int i = 0; i < o->n_src; i++) {
		fastmib_tel_free(o->src[i].tel);
		free(o->src[i].rows);
	}
	free(o);
	return rc;
}
