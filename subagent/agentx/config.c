/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: its command line, its configuration directives and
 * their reload (see config.h). Two directives decide how the
 * library is started (listen: the agent's role; persistentDir: where its
 * state is read from), so they are taken from the -c files before
 * Net-SNMP starts (prepass()).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "connect.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>


#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

struct fmx_settings *fmx_cfg;

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: " APP " [OPTIONS] [SEGMENT...]\n"
		"Serve fastmib counter segments, and the ports of DPDK applications\n"
		"(IF-MIB), over SNMP. Options follow snmpd's.\n\n"
		"  -f, --foreground        do not become a daemon\n"
		"  -x, --agentx SOCKET     AgentX socket of the master agent\n"
		"                          (unix path or tcp:HOST:PORT)\n"
		"  -L OPTS                 logging, as snmpd: -Le, -Lo, -Lf FILE,\n"
		"                          -Ls FACILITY (d, u, 0-7), -Ln\n"
		"  -A                      append to the -Lf log file, do not truncate it\n"
		"  -D[TOKENS]              debug output for TOKENS (e.g. -Dfastmib)\n"
		"  -d                      dump the SNMP/AgentX packets sent and received\n"
		"  -p, --pid-file FILE     write the daemon's pid to FILE\n"
		"  -u, --user USER         serve as USER once sockets and segments\n"
		"                          are open\n"
		"  -g, --group GROUP       serve as GROUP (default: USER's group)\n"
		"  -C                      do not read the default configuration files\n"
		"  -c, --config FILE       read FILE too (repeatable; see below)\n"
		"  -H                      list the configuration directives, then exit\n"
		"      --ping SECONDS      AgentX ping interval (default 2)\n"
		"      --check-period SEC  segment re-attach check period (default 1)\n"
		"  -E, --event-history N   event records kept per segment (default 256)\n"
		"      --notify-rate N     notifications per second at most (default 10,\n"
		"                          0 = none)\n"
		"      --notify-burst N    notifications sent at once at most (default 20)\n"
		"      --state-dir DIR     keep Net-SNMP's persistent state in DIR\n"
		"                          (default $STATE_DIRECTORY, else no state)\n"
		"      --listen ADDR       standalone agent on ADDR (e.g. udp:127.0.0.1:1161)\n"
		"                          instead of an AgentX subagent\n"
		"      --ports PATH[,BASE] serve the ethdev ports of the DPDK application\n"
		"                          whose telemetry socket (or runtime directory,\n"
		"                          e.g. /var/run/dpdk/rte) is PATH as IF-MIB rows\n"
		"                          (repeatable); its new devices take the first\n"
		"                          free ifIndex from BASE, kept in the state\n"
		"                          directory by device\n"
		"      --ifindex-base N    BASE of --ports without one (default 1000)\n"
		"      --ports-timeout MS  longest wait for a telemetry answer (default 5)\n"
		"      --ports-link-trap-rate N  linkUp/linkDown per second at most\n"
		"                          (default 10, 0 = none)\n"
		"  -h, --help              this text\n"
		"  -v, --version           version\n\n"
		"Configuration files: fastmib-agentx.conf and fastmib-agentx.local.conf\n"
		"in Net-SNMP's search path (not with -C), then the -c files. Lines:\n"
		"  segment PATH | agentxSocket SOCKET | pingInterval N | checkPeriod N\n"
		"  eventHistory N | notifyRate N | notifyBurst N | ports PATH[,BASE]\n"
		"  ifIndexBase N | portsTimeout MS | portsLinkTrapRate N, and in -c\n"
		"  files only:\n"
		"  listen ADDR | persistentDir DIR\n"
		"Command-line options take precedence. Any other line (rocommunity,\n"
		"rwcommunity, createUser, rouser, rwuser, view, access, trap2sink,\n"
		"trapsess, ...) is a Net-SNMP directive; in standalone mode trap2sink/\n"
		"trapsess lines say where event notifications go.\n"
		"SIGHUP reopens the log files and reads this agent's directives again.\n");
}

static char *
keep(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, APP ": out of memory\n");
		exit(1);
	}
	return d;
}

/*
 * `path` made absolute against the start directory: a daemon moves to /,
 * and every re-attach check opens the path again. The file need not exist
 * yet, so this is plain joining, not realpath().
 */
char *
fmx_absolute_path(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/')
		return strdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	abs = malloc(strlen(cwd) + strlen(path) + 2);
	if (abs)
		sprintf(abs, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
	return abs;
}

/*
 * Errors are reported where the value came from: on stderr for the
 * command line (config_line false), through Net-SNMP's configuration
 * error (file and line of the directive, counted) for a file.
 */
static void
setting_error(bool config_line, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
setting_error(bool config_line, const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (config_line)
		netsnmp_config_error("%s", msg);
	else
		fprintf(stderr, APP ": %s\n", msg);
}

/* ---- values ---- */

static void
values_reset(struct fmx_values *v)
{
	for (unsigned int i = 0; i < v->n_segments; i++)
		free(v->segments[i]);
	for (unsigned int i = 0; i < v->n_ports; i++)
		free(v->ports[i]);
	free(v->agentx_socket);
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < FMA_SET_COUNT; i++)
		v->num[i] = -1;
}

/* The telemetry path of a ports source, for comparisons. */
static bool
same_ports_path(const char *a, const char *b)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	uint32_t base;

	return fastmib_port_source_parse(a, pa, sizeof(pa), &base) == 0 &&
	       fastmib_port_source_parse(b, pb, sizeof(pb), &base) == 0 && !strcmp(pa, pb);
}

/* A --ports source (or `ports` line), its path made absolute like a segment's. */
static int
add_ports(struct fmx_values *v, const char *spec, bool config_line)
{
	char *abs = fmx_absolute_path(spec);
	char path[PATH_MAX];
	uint32_t base;
	int rc;

	if (!abs) {
		setting_error(config_line, "%s: %s", spec, strerror(errno));
		return -1;
	}
	rc = fastmib_port_source_parse(abs, path, sizeof(path), &base);
	if (rc == -EINVAL) {
		setting_error(config_line, "ports %s: needs PATH or PATH,BASE with BASE "
			      "in 1..%u", spec, FASTMIB_IFINDEX_MAX);
	} else if (rc < 0) {
		setting_error(config_line, "ports %s: %s", spec, strerror(-rc));
	} else {
		for (unsigned int i = 0; i < v->n_ports; i++)
			if (same_ports_path(v->ports[i], abs))
				goto done; /* listed twice: served once */
		if (v->n_ports == FASTMIB_PORTS_MAX_SOURCES) {
			setting_error(config_line, "ports %s: at most %u applications", spec,
				      FASTMIB_PORTS_MAX_SOURCES);
			rc = -ENOSPC;
		} else {
			v->ports[v->n_ports++] = abs;
			return 0;
		}
	}
done:
	free(abs);
	return rc < 0 ? -1 : 0;
}

static int
add_segment(struct fmx_values *v, const char *name, bool config_line)
{
	char *path = fmx_absolute_path(name);

	if (!path) {
		setting_error(config_line, "%s: %s", name, strerror(errno));
		return -1;
	}
	for (unsigned int i = 0; i < v->n_segments; i++)
		if (!strcmp(v->segments[i], path)) {
			free(path); /* listed twice: serve it once */
			return 0;
		}
	if (v->n_segments == FMA_MAX_SEGMENTS) {
		setting_error(config_line, "segment %s: at most %u segments", name,
			      FMA_MAX_SEGMENTS);
		free(path);
		return -1;
	}
	v->segments[v->n_segments++] = path;
	return 0;
}

long
fmx_setting(const struct fmx_settings *st, enum fma_setting s)
{
	return st->cli.num[s] >= 0 ? st->cli.num[s] : st->files.num[s];
}

const char *
fmx_agentx_socket(const struct fmx_settings *st)
{
	return fmx_socket_in_use(st->cli.agentx_socket ? st->cli.agentx_socket
			       : st->files.agentx_socket);
}

/* ---- configuration directives (Net-SNMP handlers) ---- */

/*
 * The one value of a directive: a word, or a quoted string for a path with
 * spaces. A directive never takes a second one: a line such as
 * "segment a b" is an error, not a path "a b" or two segments.
 */
static bool
one_value(const char *token, char *line, char *buf, size_t len)
{
	char *rest;

	if (!line || !*line) {
		netsnmp_config_error("%s needs a value", token);
		return false;
	}
	rest = copy_nword(line, buf, (int)len);
	if (strlen(buf) >= len - 1) {
		netsnmp_config_error("%s: value too long", token);
		return false;
	}
	if (rest && *rest) {
		netsnmp_config_error("%s takes one value, not '%s'", token, line);
		return false;
	}
	if (!*buf) {
		netsnmp_config_error("%s needs a value", token);
		return false;
	}
	return true;
}

static void
dir_segment(const char *token, char *line)
{
	char path[PATH_MAX];

	if (one_value(token, line, path, sizeof(path)))
		add_segment(fmx_cfg->reading, path, true);
}

static void
dir_ports(const char *token, char *line)
{
	char spec[PATH_MAX + 16];

	if (one_value(token, line, spec, sizeof(spec)))
		add_ports(fmx_cfg->reading, spec, true);
}

static void
dir_number(const char *token, char *line)
{
	enum fma_setting s = fma_setting_by_token(token);
	char word[64], msg[256];
	long v;

	if (s == FMA_SET_COUNT || !one_value(token, line, word, sizeof(word)))
		return;
	if (fma_setting_parse(s, fma_settings[s].token, word, &v, msg,
				  sizeof(msg)) < 0)
		netsnmp_config_error("%s", msg);
	else
		fmx_cfg->reading->num[s] = v; /* a later line wins, as in Net-SNMP */
}

static void
dir_agentx_socket(const char *token, char *line)
{
	struct fmx_values *v = fmx_cfg->reading;
	char sock[PATH_MAX], why[96];

	if (!one_value(token, line, sock, sizeof(sock)))
		return;
	if (fmx_socket_problem(sock, why, sizeof(why))) {
		netsnmp_config_error("bad %s '%s': %s", token, sock, why);
		return;
	}
	free(v->agentx_socket);
	v->agentx_socket = keep(sock);
}

/*
 * listen and persistentDir/stateDir were taken from the -c files before
 * Net-SNMP started (prepass()). Here Net-SNMP meets them again: in those
 * files (same value, fine), or in a default file, too late to act on. In
 * a reload, a changed value waits for the next start.
 */
static void
dir_early(const char *token, char *line)
{
	struct fmx_settings *st = fmx_cfg;
	struct fmx_early *e = !strcasecmp(token, "listen") ? &st->listen : &st->state_dir;
	char value[PATH_MAX];

	if (!one_value(token, line, value, sizeof(value)) || e->from_cli)
		return;
	if (e->value && !strcmp(e->value, value))
		return;
	if (st->reloading)
		netsnmp_config_warn("%s changed to '%s': it takes effect when the agent "
				    "restarts", token, value);
	else
		netsnmp_config_error("%s is read from the command line and the -c "
				     "files only (it decides how the agent starts)", token);
}

/* The directives, once: for Net-SNMP's start and for our own reload. */
static struct config_line directives[] = {
	{ "segment", dir_segment, NULL, NULL, NORMAL_CONFIG, "PATH" },
	{ "ports", dir_ports, NULL, NULL, NORMAL_CONFIG, "PATH[,BASE]" },
	{ "agentxSocket", dir_agentx_socket, NULL, NULL, NORMAL_CONFIG, "SOCKET" },
	{ "listen", dir_early, NULL, NULL, NORMAL_CONFIG, "ADDRESS" },
	{ "persistentDir", dir_early, NULL, NULL, NORMAL_CONFIG, "DIR" },
	{ "stateDir", dir_early, NULL, NULL, NORMAL_CONFIG, "DIR" },
};
static struct config_line number_directives[FMA_SET_COUNT];

/* The list for our reload: every directive of ours, linked once. */
static struct config_line *
directive_list(void)
{
	static bool linked;
	size_t n = sizeof(directives) / sizeof(directives[0]);

	if (!linked) {
		for (int i = 0; i < FMA_SET_COUNT; i++) {
			number_directives[i] = (struct config_line){
				(char *)fma_settings[i].token, dir_number, NULL,
				i + 1 < FMA_SET_COUNT ? &number_directives[i + 1] : NULL,
				NORMAL_CONFIG, (char *)"N" };
		}
		for (size_t i = 0; i < n; i++)
			directives[i].next = i + 1 < n ? &directives[i + 1] : number_directives;
		linked = true;
	}
	return directives;
}

void
fmx_register_directives(void)
{
	/* agentxSocket before init_agent(): found ahead of Net-SNMP's own
	 * agentxsocket, so that -x keeps precedence over the files. */
	for (struct config_line *l = directive_list(); l; l = l->next)
		register_app_config_handler(l->config_token, l->parse_line, NULL, l->help);
}

/* ---- counting configuration errors ---- */

static int
count_config_error(int major, int minor, void *serverarg, void *clientarg)
{
	const struct snmp_log_message *m = serverarg;

	(void)major, (void)minor, (void)clientarg;
	if (m->priority <= LOG_ERR)
		fmx_cfg->config_errors++;
	return 0;
}

/* Anything logged as an error while the files are read is a configuration
 * error (Net-SNMP's own directives included). */
void
fmx_count_errors_begin(struct fmx_settings *st)
{
	st->config_errors = 0;
	st->error_counter = netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK,
							LOG_ERR);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       count_config_error, NULL);
}

unsigned int
fmx_count_errors_end(struct fmx_settings *st)
{
	if (st->error_counter)
		netsnmp_remove_loghandler(st->error_counter);
	st->error_counter = NULL;
	snmp_unregister_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
				 count_config_error, NULL, 1);
	return st->config_errors;
}

/* ---- prepass: listen and persistentDir before Net-SNMP starts ---- */

/*
 * Take listen and persistentDir/stateDir from the -c files (comma-
 * separated, as Net-SNMP reads them), unless the command line set them,
 * and refuse a directive without a value. Net-SNMP reads the files again
 * in full later. Returns 0, or -1 after a message naming the file and
 * line.
 */
static int
prepass(struct fmx_settings *st)
{
	char *list, *file, *save = NULL, *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!st->config)
		return 0;
	list = keep(st->config);
	for (file = strtok_r(list, ",", &save); file; file = strtok_r(NULL, ",", &save)) {
		FILE *f = fopen(file, "r");
		unsigned int lineno = 0;

		if (!f) {
			fprintf(stderr, APP ": %s: %s\n", file, strerror(errno));
			rc = -1;
			continue;
		}
		while (getline(&line, &cap, f) > 0) {
			char token[64], value[PATH_MAX], *p, *rest;
			struct fmx_early *e;

			lineno++;
			line[strcspn(line, "\r\n")] = '\0';
			p = skip_white(line);   /* NULL for a blank line or a comment */
			if (!p)
				continue;
			p = copy_nword(p, token, sizeof(token));
			if (token[0] == '[' && p) /* "[snmp] token value": the token */
				p = copy_nword(p, token, sizeof(token));
			else if (token[0] == '[')
				continue;               /* a section of its own */
			if (!p) {
				/* Net-SNMP would report it in each of its two passes */
				fprintf(stderr, "%s: line %u: Error: %s needs a value\n", file,
					lineno, token);
				rc = -1;
				continue;
			}
			if (!strcasecmp(token, "listen"))
				e = &st->listen;
			else if (!strcasecmp(token, "persistentDir") ||
				 !strcasecmp(token, "stateDir"))
				e = &st->state_dir;
			else
				continue;
			rest = copy_nword(p, value, sizeof(value));
			if (!value[0] || (rest && *rest)) {
				fprintf(stderr, "%s: line %u: Error: %s takes one value\n",
					file, lineno, token);
				rc = -1;
			} else if (e->from_cli) {
				continue;
			} else if (e->value) {
				fprintf(stderr, "%s: line %u: Error: %s given twice (first at "
					"%s)\n", file, lineno, token, e->origin);
				rc = -1;
			} else {
				e->value = keep(value);
				snprintf(e->origin, sizeof(e->origin), "%s: line %u", file,
					 lineno);
				snprintf(e->token, sizeof(e->token), "%s", token);
			}
		}
		fclose(f);
	}
	free(line);
	free(list);
	return rc;
}

/* ---- command line ---- */

enum { OPT_STATE_DIR = 256, OPT_LISTEN, OPT_PORTS, OPT_NUMBER };

static const struct option fixed_opts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "agentx", required_argument, NULL, 'x' },
	{ "config", required_argument, NULL, 'c' },
	{ "pid-file", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "group", required_argument, NULL, 'g' },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "ports", required_argument, NULL, OPT_PORTS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
};
#define N_FIXED (sizeof(fixed_opts) / sizeof(fixed_opts[0]))
#define SHORT_OPTS "fx:L:AD::dc:CHp:u:g:E:hvV"

/* The long options: the fixed ones, then one per numeric setting (its
 * index after OPT_NUMBER), from the settings table. */
static void
long_options(struct option *o)
{
	memcpy(o, fixed_opts, sizeof(fixed_opts));
	for (int i = 0; i < FMA_SET_COUNT; i++)
		o[N_FIXED + i] = (struct option){ fma_settings[i].option,
						  required_argument, NULL, OPT_NUMBER + i };
	o[N_FIXED + FMA_SET_COUNT] = (struct option){ NULL, 0, NULL, 0 };
}

static int
set_number(struct fmx_settings *st, enum fma_setting s, const char *arg)
{
	char msg[256];

	if (fma_setting_parse(s, fma_settings[s].what, arg, &st->cli.num[s], msg,
				  sizeof(msg)) < 0) {
		fprintf(stderr, APP ": %s\n", msg);
		return -1;
	}
	return 0;
}

static void
set_early(struct fmx_early *e, const char *value)
{
	free(e->value);
	e->value = keep(value);
	e->from_cli = true;
}

/* -A decides how -Lf opens its file, wherever it stands on the line. A
 * first pass over a copy of argv: getopt permutes what it scans, and -Lf
 * FILE takes its file from argv itself in the real pass. */
static void
find_append(int argc, char **argv, const struct option *lo)
{
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	int c;

	if (!copy)
		return;
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	opterr = 0;
	while ((c = getopt_long(argc, copy, SHORT_OPTS, lo, NULL)) != -1)
		if (c == 'A')
			netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
					       NETSNMP_DS_LIB_APPEND_LOGFILES, 1);
	opterr = 1;
	optind = 0; /* glibc: start over, fully */
	free(copy);
}

static int
one_option(struct fmx_settings *st, int c, int argc, char **argv)
{
	switch (c) {
	case 'f':
		st->foreground = true;
		return -1;
	case 'x': {
		char why[96];

		if (fmx_socket_problem(optarg, why, sizeof(why))) {
			fprintf(stderr, APP ": bad AgentX socket '%s': %s\n", optarg, why);
			return 1;
		}
		free(st->cli.agentx_socket);
		st->cli.agentx_socket = keep(optarg);
		return -1;
	}
	case 'L':
		/* -Lf FILE and -Ls FACILITY take the next argument, as in
		 * snmpd: the library moves optind past it. */
		if (snmp_log_options(optarg, argc, argv) < 0) {
			usage(stderr);
			return 1;
		}
		st->logging_set = true;
		return -1;
	case 'A':
		return -1; /* find_append() */
	case 'D':
		debug_register_tokens(optarg ? optarg : "ALL");
		snmp_set_do_debugging(1);
		return -1;
	case 'd':
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DUMP_PACKET, 1);
		return -1;
	case 'c':
		if (st->config) {
			char *both = malloc(strlen(st->config) + strlen(optarg) + 2);

			if (!both)
				return 1;
			sprintf(both, "%s,%s", st->config, optarg);
			free(st->config);
			st->config = both;
		} else {
			st->config = keep(optarg);
		}
		return -1;
	case 'C':
		st->no_default_files = true;
		return -1;
	case 'H':
		st->print_directives = true;
		return -1;
	case 'p':
		/* Before 0.2.0, -p was the ping interval: a bare number is
		 * that habit, not a pid file named "2". */
		if (optarg[strspn(optarg, "0123456789")] == '\0') {
			fprintf(stderr, APP ": -p names the pid file; the AgentX ping "
				"interval is --ping %s\n", optarg);
			return 1;
		}
		free(st->pid_file);
		st->pid_file = fmx_absolute_path(optarg);
		return st->pid_file ? -1 : 1;
	case 'u':
		st->user = optarg;
		return -1;
	case 'g':
		st->group = optarg;
		return -1;
	case 'E':
		return set_number(st, FMA_SET_EV_HISTORY, optarg) < 0 ? 1 : -1;
	case OPT_STATE_DIR:
		set_early(&st->state_dir, optarg);
		return -1;
	case OPT_LISTEN:
		set_early(&st->listen, optarg);
		return -1;
	case OPT_PORTS:
		return add_ports(&st->cli, optarg, false) < 0 ? 1 : -1;
	case 'h':
		usage(stdout);
		return 0;
	case 'v':
	case 'V': /* the version until 0.2.0; snmpd's is -v */
		printf(APP " " FASTMIB_VERSION " (net-snmp %s)\n", netsnmp_get_version());
		return 0;
	default:
		if (c >= OPT_NUMBER && c < OPT_NUMBER + FMA_SET_COUNT)
			return set_number(st, (enum fma_setting)(c - OPT_NUMBER),
					  optarg) < 0 ? 1 : -1;
		usage(stderr);
		return 1;
	}
}

int
fmx_parse_args(int argc, char **argv, struct fmx_settings *st)
{
	struct option lo[N_FIXED + FMA_SET_COUNT + 1];
	int c, rc;

	long_options(lo);
	find_append(argc, argv, lo);
	while ((c = getopt_long(argc, argv, SHORT_OPTS, lo, NULL)) != -1)
		if ((rc = one_option(st, c, argc, argv)) >= 0)
			return rc;
	for (int i = optind; i < argc; i++)
		if (add_segment(&st->cli, argv[i], false) < 0)
			return 1;
	if (fmx_identity_resolve(&st->id, st->user, st->group) < 0)
		return 1;
	if (prepass(st) < 0)
		return 1;
	return -1;
}

void
fmx_settings_init(struct fmx_settings *st)
{
	memset(st, 0, sizeof(*st));
	values_reset(&st->cli);
	values_reset(&st->files);
	st->reading = &st->files;
	fmx_cfg = st;
}

void
fmx_settings_free(struct fmx_settings *st)
{
	values_reset(&st->cli);
	values_reset(&st->files);
	free(st->config);
	free(st->pid_file);
	free(st->listen.value);
	free(st->state_dir.value);
	free(st->state_path);
}

/* ---- applying, and reloading ---- */

static void
add_all(struct fmx_settings *st)
{
	const struct fmx_values *src[2] = { &st->cli, &st->files };
	int rc;

	for (int k = 0; k < 2; k++) {
		for (unsigned int i = 0; i < src[k]->n_segments; i++) {
			rc = fma_add(st->agent, src[k]->segments[i]);
			if (rc < 0 && rc != -EEXIST)
				snmp_log(LOG_ERR, APP ": segment %s: %s\n", src[k]->segments[i],
					 rc == -ENOSPC ? "too many segments" : strerror(-rc));
		}
		for (unsigned int i = 0; i < src[k]->n_ports; i++) {
			rc = fastmib_ports_add(st->ports, src[k]->ports[i]);
			if (rc < 0 && rc != -EEXIST)
				snmp_log(LOG_ERR, APP ": ports %s: %s\n", src[k]->ports[i],
					 rc == -ENOSPC ? "too many applications" : strerror(-rc));
		}
	}
}

/* The value in force of s, else its default. */
static long
effective(const struct fmx_settings *st, enum fma_setting s)
{
	long v = fmx_setting(st, s);

	return v >= 0 ? v : fma_settings[s].def;
}

int
fmx_apply(struct fmx_settings *st, bool reload)
{
	long rate = effective(st, FMA_SET_NOTIFY_RATE), burst = effective(st, FMA_SET_NOTIFY_BURST);

	if (reload) {
		fma_reload_begin(st->agent);
		fastmib_ports_reload_begin(st->ports);
	}
	/* the base before the sources: it places those without their own */
	fastmib_ports_set_base(st->ports, (uint32_t)effective(st, FMA_SET_IFINDEX_BASE));
	fastmib_ports_set_timeout(st->ports, (unsigned int)effective(st, FMA_SET_PORTS_TIMEOUT));
	fastmib_ports_set_trap_rate(st->ports,
				    (unsigned int)effective(st, FMA_SET_PORTS_TRAP_RATE));
	add_all(st);
	fma_set_event_history(st->agent,
					(unsigned int)effective(st, FMA_SET_EV_HISTORY));
	fma_set_notify_limit(st->agent, (unsigned int)rate, (unsigned int)burst);
	if (reload) {
		unsigned int dropped = fma_reload_end(st->agent);
		unsigned int pdropped = fastmib_ports_reload_end(st->ports);

		snmp_log(LOG_INFO, APP ": configuration reloaded: %u segment(s) (%u no "
			 "longer served), %u ports source(s) (%u no longer served)\n",
			 fma_count(st->agent), dropped,
			 fastmib_ports_count(st->ports), pdropped);
	}
	return 0;
}

/* What the values cannot be together; -1 after a log message. */
static int
check_values(const struct fmx_settings *st)
{
	long rate = effective(st, FMA_SET_NOTIFY_RATE), burst = effective(st, FMA_SET_NOTIFY_BURST);

	if (rate > 0 && burst == 0) {
		snmp_log(LOG_ERR, APP ": a notification rate needs a burst of at least 1\n");
		return -1;
	}
	if (st->cli.n_segments + st->files.n_segments == 0 &&
	    st->cli.n_ports + st->files.n_ports == 0) {
		snmp_log(LOG_ERR, APP ": no segment and no --ports given\n");
		return -1;
	}
	return 0;
}

/* Settings that a running agent cannot take: say that they wait. */
static void
report_restart_only(const struct fmx_settings *st, const struct fmx_values *old)
{
	const struct fmx_values *v = &st->files;

	if (st->cli.num[FMA_SET_CHECK] < 0 && v->num[FMA_SET_CHECK] != old->num[FMA_SET_CHECK])
		snmp_log(LOG_WARNING, APP ": checkPeriod changed: it takes effect when the "
			 "agent restarts\n");
	if (!st->cli.agentx_socket && !st->listen.value &&
	    (v->agentx_socket ? !old->agentx_socket || strcmp(v->agentx_socket,
							      old->agentx_socket)
			      : old->agentx_socket != NULL))
		snmp_log(LOG_WARNING, APP ": agentxSocket changed: it is used from the "
			 "next connection to the master agent\n");
}

void
fmx_reload(struct fmx_settings *st)
{
	struct config_files own = { (char *)APP, directive_list(), NULL };
	struct fmx_values old = st->files, fresh;
	char *list, *file, *save = NULL;
	int warned = netsnmp_ds_get_boolean(NETSNMP_DS_LIBRARY_ID,
					    NETSNMP_DS_LIB_NO_TOKEN_WARNINGS);
	unsigned int errors;

	snmp_log(LOG_INFO, APP ": SIGHUP: reading the configuration again\n");
	memset(&fresh, 0, sizeof(fresh));
	values_reset(&fresh);
	st->reading = &fresh;
	st->reloading = true;
	/* Net-SNMP's own directives are read at start only: not ours to
	 * warn about here */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_NO_TOKEN_WARNINGS, 1);
	fmx_count_errors_begin(st);
	read_config_files_of_type(NORMAL_CONFIG, &own);
	if (st->config) {
		list = keep(st->config);
		for (file = strtok_r(list, ",", &save); file;
		     file = strtok_r(NULL, ",", &save)) {
			if (access(file, R_OK) < 0) {
				snmp_log(LOG_ERR, APP ": %s: %s\n", file, strerror(errno));
				st->config_errors++;
				continue;
			}
			read_config(file, own.start, NORMAL_CONFIG);
		}
		free(list);
	}
	errors = fmx_count_errors_end(st);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_NO_TOKEN_WARNINGS,
			       warned);
	st->reading = &st->files;
	st->reloading = false;
	st->files = fresh;
	if (errors == 0 && check_values(st) < 0)
		errors = 1;
	if (errors) {
		st->files = old;
		values_reset(&fresh);
		snmp_log(LOG_ERR, APP ": %u error(s) in the configuration; the one in "
			 "force is kept\n", errors);
		return;
	}
	report_restart_only(st, &old);
	values_reset(&old);
	fmx_apply(st, true);
}

/* At the end of the start's configuration read: the checks that need
 * every file. -1 stops the start. */
int
fmx_config_check(struct fmx_settings *st)
{
	return check_values(st);
}
