/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-stat --ports PATH[,BASE]: the ethdev ports of DPDK applications
 * (each named by its telemetry socket or runtime directory) as a table or
 * JSON, with per-second rates under --watch. The telemetry client, the
 * port map and the ifIndex and ifName rules are the agent's own
 * (<fastmib/ethdev/...>), read from the agent's state directory, so the two
 * show the same ports at the same ifIndex values and names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"
#include "fastmib/reader.h"
#include "stat.h"

/* A shell tool can wait longer than the agent, which must never block. */
#define DEFAULT_TIMEOUT_MS 1000u

struct port_row {
	struct fme_port_reading r;
	const struct fme_portmap_entry *e; /* ifIndex, alias; NULL: none left */
	char ifname[FME_IFNAME_MAX];
};

struct source {
	char path[4096];
	uint32_t base;                  /* of its new devices */
	const char *label;              /* for ifName, NULL with one source */
	struct fme_tel *tel;
	/* the last sample, for rates */
	struct port_row *rows;
	unsigned int n_rows;
	long pid;
	uint64_t at;                    /* fastmib_monotonic_ns() */
	char error[800];
};

struct ports {
	const struct stat_opts *o;
	struct source *src;
	unsigned int n_src;
	char (*labels)[FME_PORT_LABEL_MAX];
	struct fme_portmap *map;
	unsigned int timeout_ms;
};

/* The agent's port map, read only: where it has not assigned an ifIndex
 * yet, the one it would assign is computed here and never written. */
static int
load_map(struct ports *ps)
{
	const char *dir = ps->o->state_dir;
	struct stat st;
	int rc = fme_portmap_new(&ps->map);

	if (rc < 0)
		return rc;
	if (!dir) {
		/* the default only where an agent keeps its state */
		if (stat(FASTMIB_AGENT_STATE_DIR, &st) != 0)
			return 0;
		dir = FASTMIB_AGENT_STATE_DIR;
	}
	rc = fme_portmap_load(ps->map, dir);
	if (rc < 0 && fme_portmap_errors(ps->map)[0])
		fprintf(stderr, "fastmib-stat: %s", fme_portmap_errors(ps->map));
	return 0;
}

/* A JSON string of text from outside: as is when it is UTF-8, else escaped. */
static json_t *
json_text(const char *s, size_t len)
{
	char esc[4 * FME_IFNAME_MAX + 1];
	json_t *j = json_stringn(s, len);

	if (j)
		return j;
	fme_escape(s, len, esc, sizeof(esc));
	return json_string(esc);
}

/* Faulty counters of a port, once per reading, on stderr. */
static void
report_faults(const struct source *s, const struct fme_port_reading *r)
{
	char path[4200], name[4 * FME_PORT_NAME_MAX + 1];

	if (!r->stats_bad && !r->cast_bad)
		return;
	fme_escape_str(s->path, path, sizeof(path));
	fme_escape_str(r->name, name, sizeof(name));
	for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
		if (r->stats_bad & (1u << k))
			fprintf(stderr, "fastmib-stat: %s: port %u (%s): stats.%s is not an "
				"unsigned 64-bit integer (%s): not shown\n", path, r->port, name,
				fme_port_stat_name(k), r->bad_text);
	for (unsigned int k = 0; k < FME_CAST_COUNT; k++)
		if (r->cast_bad & (1u << k))
			fprintf(stderr, "fastmib-stat: %s: port %u (%s): xstats.%s is not an "
				"unsigned 64-bit integer (%s): not shown\n", path, r->port, name,
				fme_port_cast_name(k), r->bad_text);
}

/*
 * Connect (if needed) and read every port of one application: its list,
 * then each port's info, link and stats in one pipelined query. Returns 0,
 * or -1 with s->error.
 */
static int
sample(struct ports *ps, struct source *s, struct port_row **rowsp, unsigned int *np)
{
	struct fme_port_reading *rd = NULL;
	struct port_row *rows = NULL;
	int n, rc;

	*rowsp = NULL;
	*np = 0;
	s->error[0] = '\0';
	rc = fme_tel_connect(s->tel, ps->timeout_ms);
	if (rc == -EINPROGRESS) {
		char sock[4 * 108 + 1];

		snprintf(s->error, sizeof(s->error), "%s: no hello within %u ms",
			 fme_escape_str(fme_tel_socket(s->tel), sock, sizeof(sock)),
			 ps->timeout_ms);
		fme_tel_close(s->tel);
		return -1;
	}
	n = rc < 0 ? rc : fme_tel_read_all_ports(s->tel, FME_PORT_INFO | FME_PORT_LINK |
						 FME_PORT_STATS, &rd, ps->timeout_ms);
	if (n == -EPROTO && fme_tel_ready(s->tel)) {
		snprintf(s->error, sizeof(s->error), "%s: /ethdev/list: not a list of port ids",
			 fme_tel_socket(s->tel));
		return -1;
	}
	if (n < 0) {
		rc = n;
		goto fail;
	}
	rows = calloc(n ? (size_t)n : 1, sizeof(*rows));
	if (!rows) {
		snprintf(s->error, sizeof(s->error), "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct port_row *row = &rows[*np];
		bool created;
		int err;

		/* a port detached between the list and its reading is left out */
		if (!(rd[i].parts & FME_PORT_INFO))
			continue;
		row->r = rd[i];
		row->e = fme_port_ifindex(ps->map, s->path, s->base, rd[i].name,
					      rd[i].mac_ok ? rd[i].mac : NULL,
					      fme_port_kernel_ifindex,
					      NULL, &created, &err);
		if (row->e)
			((struct fme_portmap_entry *)row->e)->in_use = true;
		fme_port_ifname(s->label, rd[i].name, row->ifname, sizeof(row->ifname));
		report_faults(s, &rd[i]);
		(*np)++;
	}
	*rowsp = rows;
	rows = NULL;
	goto out;
fail:
	if (rc == -ETIMEDOUT || rc == -EBUSY)
		snprintf(s->error, sizeof(s->error), "%s: no answer within %u ms",
			 fme_tel_socket(s->tel), ps->timeout_ms);
	else
		snprintf(s->error, sizeof(s->error), "%s", fme_tel_error(s->tel)[0]
			 ? fme_tel_error(s->tel) : strerror(-rc));
	/* start afresh next time: late answers belong to nobody */
	fme_tel_close(s->tel);
out:
	free(rd);
	free(rows);
	return s->error[0] ? -1 : 0;
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
state_of(const struct fme_port_reading *r)
{
	if (!r->started)
		return "stopped";
	return r->link_up ? "up" : "down";
}

static void
format_speed(const struct fme_port_reading *r, char *buf, size_t len)
{
	if (!r->speed_known)
		snprintf(buf, len, "-");
	else if (r->speed_mbps >= 1000 && r->speed_mbps % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "G", r->speed_mbps / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "M", r->speed_mbps);
}

/* The four traffic counters rates are shown for, and whether in octets. */
static const enum fme_port_stat rate_stats[4] = {
	FME_STAT_IPACKETS, FME_STAT_OPACKETS, FME_STAT_IBYTES, FME_STAT_OBYTES,
};

/* Per-second rate of traffic counter k (octets as bits); false without a
 * previous reading of the same application instance, or after a reset. */
static bool
port_rate(const struct fme_port_reading *p, const struct fme_port_reading *c,
	unsigned int k, double dt, double *rate)
{
	enum fme_port_stat f = rate_stats[k];
	unsigned int mult = k >= 2 ? 8 : 1;

	if (dt <= 0 || !(p->stats_have & c->stats_have & (1u << f)) || c->stat[f] < p->stat[f])
		return false;
	*rate = (double)(c->stat[f] - p->stat[f]) * mult / dt;
	return true;
}

/* ---- output ---- */

/* Text columns of the counters, in order, after IFINDEX PORT NAME STATE SPEED. */
static const struct {
	const char *head;
	enum fme_port_stat stat;
	bool octets;
} text_counters[] = {
	{ "RX-PACKETS", FME_STAT_IPACKETS, false }, { "TX-PACKETS", FME_STAT_OPACKETS, false },
	{ "RX-OCTETS", FME_STAT_IBYTES, true },     { "TX-OCTETS", FME_STAT_OBYTES, true },
	{ "RX-ERRORS", FME_STAT_IERRORS, false },   { "RX-MISSED", FME_STAT_IMISSED, false },
	{ "RX-NOMBUF", FME_STAT_RX_NOMBUF, false }, { "TX-ERRORS", FME_STAT_OERRORS, false },
};
#define N_TEXT_COUNTERS (sizeof(text_counters) / sizeof(text_counters[0]))

static void
print_text_source(const struct ports *ps, const struct source *s, const struct port_row *rows,
		  unsigned int n, bool watching, double dt)
{
	static const char *const heads[] = { "IFINDEX", "PORT", "NAME", "STATE", "SPEED" };
	static const char *const rate_heads[] = { "RX-PKT/S", "TX-PKT/S", "RX-BIT/S", "TX-BIT/S" };
	const struct stat_opts *o = ps->o;
	struct libscols_table *tb;
	char cell[32], path[4200];

	fme_escape_str(s->path, path, sizeof(path));
	if (s->error[0]) {
		/* once, the error goes to stderr alone; a live display shows it */
		if (watching)
			fprintf(o->raw ? stderr : stdout, "%s: not read: %s\n", path, s->error);
		return;
	}
	/* --raw: the table alone, for scripts */
	if (!o->raw)
		printf("%s: pid %ld, %s, %u port(s)\n", path, fme_tel_pid(s->tel),
		       fme_tel_version(s->tel), n);
	if (n == 0)
		return;
	tb = fst_cols_new_table();
	for (unsigned int k = 0; k < 5; k++)
		fst_cols_add_column(tb, heads[k], k != 2 && k != 3);
	for (unsigned int k = 0; k < N_TEXT_COUNTERS; k++)
		fst_cols_add_column(tb, text_counters[k].head, true);
	for (unsigned int k = 0; watching && k < 4; k++)
		fst_cols_add_column(tb, rate_heads[k], true);
	for (unsigned int i = 0; i < n; i++) {
		const struct fme_port_reading *r = &rows[i].r;
		const struct port_row *p = watching ? prev_row(s, r->port) : NULL;
		struct libscols_line *ln = fst_cols_new_line(tb);
		char name[4 * FME_IFNAME_MAX + 1];
		size_t col = 5;

		if (rows[i].e)
			snprintf(cell, sizeof(cell), "%" PRIu32, rows[i].e->ifindex);
		else
			snprintf(cell, sizeof(cell), "-");
		fst_cols_set(ln, 0, cell);
		snprintf(cell, sizeof(cell), "%u", r->port);
		fst_cols_set(ln, 1, cell);
		fst_cols_set(ln, 2, fme_escape_str(rows[i].ifname, name, sizeof(name)));
		fst_cols_set(ln, 3, state_of(r));
		format_speed(r, cell, sizeof(cell));
		fst_cols_set(ln, 4, cell);
		for (unsigned int k = 0; k < N_TEXT_COUNTERS; k++, col++) {
			enum fme_port_stat f = text_counters[k].stat;

			if (r->stats_have & (1u << f))
				fst_format_count(cell, sizeof(cell), r->stat[f], o->human,
						 text_counters[k].octets);
			else
				snprintf(cell, sizeof(cell), "-");
			fst_cols_set(ln, col, cell);
		}
		for (unsigned int k = 0; watching && k < 4; k++, col++) {
			double rate;

			if (p && s->pid == fme_tel_pid(s->tel) &&
			    port_rate(&p->r, r, k, dt, &rate))
				fst_format_rate(cell, sizeof(cell), rate, o->human, false);
			else
				snprintf(cell, sizeof(cell), "-");
			fst_cols_set(ln, col, cell);
		}
	}
	fst_cols_print(tb, o->raw, 2);
}

static json_t *
stat_json(const struct fme_port_reading *r, enum fme_port_stat k)
{
	return r->stats_have & (1u << k) ? fst_json_u64(r->stat[k]) : json_null();
}

static json_t *
port_json(const struct source *s, const struct port_row *row, bool watching, double dt)
{
	static const char *const keys[FME_STAT_COUNT] = {
		[FME_STAT_IPACKETS] = "rx_packets", [FME_STAT_OPACKETS] = "tx_packets",
		[FME_STAT_IBYTES] = "rx_octets",    [FME_STAT_OBYTES] = "tx_octets",
		[FME_STAT_IMISSED] = "rx_missed",   [FME_STAT_IERRORS] = "rx_errors",
		[FME_STAT_OERRORS] = "tx_errors",   [FME_STAT_RX_NOMBUF] = "rx_nombuf",
	};
	static const char *const rate_keys[4] = { "rx_packets", "tx_packets", "rx_bits",
						  "tx_bits" };
	const struct fme_port_reading *r = &row->r;
	const struct port_row *p = watching ? prev_row(s, r->port) : NULL;
	char mac[18] = "";
	json_t *o = json_object(), *rates = NULL;

	if (r->mac_ok)
		snprintf(mac, sizeof(mac), "%02X:%02X:%02X:%02X:%02X:%02X", r->mac[0],
			 r->mac[1], r->mac[2], r->mac[3], r->mac[4], r->mac[5]);
	json_object_set_new(o, "port", json_integer(r->port));
	json_object_set_new(o, "ifindex", row->e ? json_integer(row->e->ifindex) : json_null());
	json_object_set_new(o, "name", json_text(r->name, strlen(r->name)));
	json_object_set_new(o, "ifname", json_text(row->ifname, strlen(row->ifname)));
	json_object_set_new(o, "alias", row->e ? json_text((const char *)row->e->alias,
							   row->e->alias_len) : json_null());
	json_object_set_new(o, "state", json_string(state_of(r)));
	json_object_set_new(o, "started", json_boolean(r->started));
	json_object_set_new(o, "link_up", json_boolean(r->link_up));
	json_object_set_new(o, "speed_mbps", r->speed_known ? fst_json_u64(r->speed_mbps)
							     : json_null());
	json_object_set_new(o, "mtu", json_integer(r->mtu));
	json_object_set_new(o, "mac", r->mac_ok ? json_string(mac) : json_null());
	json_object_set_new(o, "promiscuous", json_boolean(r->promiscuous));
	for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
		json_object_set_new(o, keys[k], stat_json(r, (enum fme_port_stat)k));
	for (unsigned int k = 0; watching && p && s->pid == fme_tel_pid(s->tel) && k < 4;
	     k++) {
		double rate;

		if (!port_rate(&p->r, r, k, dt, &rate))
			continue;
		if (!rates)
			rates = json_object();
		json_object_set_new(rates, rate_keys[k], json_real(rate));
	}
	if (rates)
		json_object_set_new(o, "rates", rates);
	return o;
}

static json_t *
source_json(const struct source *s, const struct port_row *rows, unsigned int n,
	    bool watching, double dt)
{
	json_t *o = json_object(), *ports;
	const char *sock = fme_tel_socket(s->tel);

	json_object_set_new(o, "path", json_text(s->path, strlen(s->path)));
	json_object_set_new(o, "socket", json_text(sock, strlen(sock)));
	if (s->error[0]) {
		json_object_set_new(o, "error", json_text(s->error, strlen(s->error)));
		return o;
	}
	json_object_set_new(o, "pid", json_integer(fme_tel_pid(s->tel)));
	json_object_set_new(o, "version", json_string(fme_tel_version(s->tel)));
	ports = json_array();
	for (unsigned int i = 0; i < n; i++)
		json_array_append_new(ports, port_json(s, &rows[i], watching, dt));
	json_object_set_new(o, "ports", ports);
	return o;
}

/* One pass over every source; returns how many could not be read. */
static unsigned int
report(struct ports *ps, bool watching)
{
	json_t *doc = ps->o->json ? json_object() : NULL;
	json_t *arr = ps->o->json ? json_array() : NULL;
	unsigned int failed = 0;

	/* every pass binds the devices afresh, in the order of the sources */
	for (unsigned int i = 0; i < fme_portmap_count(ps->map); i++)
		fme_portmap_at(ps->map, i)->in_use = false;
	for (unsigned int i = 0; i < ps->n_src; i++) {
		struct source *s = &ps->src[i];
		struct port_row *rows;
		unsigned int n;
		uint64_t now;
		double dt;

		if (sample(ps, s, &rows, &n) < 0)
			failed++;
		now = fastmib_monotonic_ns();
		dt = s->rows ? (double)(now - s->at) / 1e9 : 0;
		if (ps->o->json)
			json_array_append_new(arr, source_json(s, rows, n, watching, dt));
		else
			print_text_source(ps, s, rows, n, watching, dt);
		free(s->rows);
		s->rows = rows;
		s->n_rows = n;
		s->pid = s->error[0] ? 0 : fme_tel_pid(s->tel);
		s->at = now;
	}
	if (ps->o->json) {
		json_object_set_new(doc, "sources", arr);
		json_dumpf(doc, stdout, watching ? JSON_COMPACT : JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	}
	fflush(stdout);
	return failed;
}

static int
run(struct ports *ps)
{
	const struct stat_opts *o = ps->o;

	if (o->watch > 0) {
		bool tty = isatty(STDOUT_FILENO);

		fst_stop_on_signals();
		for (unsigned int pass = 0; !fst_stop_requested; pass++) {
			if (!o->json && tty)
				fputs("\033[H\033[2J", stdout);
			else if (!o->json && pass)
				putchar('\n');
			report(ps, true);
			fst_sleep_interruptible(o->watch);
		}
		return EXIT_SUCCESS;
	}
	if (report(ps, false) == 0)
		return EXIT_SUCCESS;
	for (unsigned int i = 0; i < ps->n_src; i++)
		if (ps->src[i].error[0])
			fprintf(stderr, "fastmib-stat: %s\n", ps->src[i].error);
	return EXIT_FAILURE;
}

int
fst_do_ports(const struct stat_opts *o)
{
	struct ports ps = { .o = o, .n_src = o->n_ports };
	const char **paths = calloc(o->n_ports, sizeof(*paths));
	int rc = EXIT_FAILURE;

	ps.timeout_ms = o->timeout_ms ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
	ps.src = calloc(o->n_ports, sizeof(*ps.src));
	ps.labels = calloc(o->n_ports, sizeof(*ps.labels));
	if (!paths || !ps.src || !ps.labels || load_map(&ps) < 0) {
		fprintf(stderr, "fastmib-stat: out of memory\n");
		goto out;
	}
	for (unsigned int i = 0; i < o->n_ports; i++) {
		struct source *s = &ps.src[i];
		uint32_t own;

		/* checked by fst_parse_args() */
		fme_port_source_parse(o->ports[i], s->path, sizeof(s->path), &own);
		s->base = own ? own : o->ifindex_base ? o->ifindex_base : FME_IFINDEX_BASE;
		paths[i] = s->path;
		if (fme_tel_new(s->path, &s->tel) < 0) {
			fprintf(stderr, "fastmib-stat: out of memory\n");
			goto out;
		}
	}
	fme_port_labels(paths, o->n_ports, ps.labels);
	for (unsigned int i = 0; o->n_ports > 1 && i < o->n_ports; i++)
		ps.src[i].label = ps.labels[i];
	rc = run(&ps);
out:
	for (unsigned int i = 0; ps.src && i < o->n_ports; i++) {
		fme_tel_free(ps.src[i].tel);
		free(ps.src[i].rows);
	}
	fme_portmap_free(ps.map);
	free(ps.src);
	free(ps.labels);
	free(paths);
	return rc;
}
