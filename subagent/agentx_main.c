/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: serve fastmib segments over SNMP, as an AgentX subagent
 * of snmpd (default) or as a standalone agent on its own UDP port
 * (--listen). The serving itself is core.c; this file is the front end:
 * options and configuration (snmpd's conventions), logging, daemon, main
 * loop. agentx_privs.c holds the pid file and the change of user.
 *
 * Configuration is read by Net-SNMP, as snmpd's is: the default files
 * (fastmib-agentx.conf and .local.conf in Net-SNMP's search path, unless
 * -C), then the -c files; this agent's own directives are Net-SNMP
 * configuration handlers, so every error names its file and line. Two
 * directives decide how the library is started (listen: the agent's role;
 * persistentDir: where its state is read from), so they are taken from
 * the -c files before Net-SNMP starts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "agentx_privs.h"
#include "agentx_size.h"
#include "core.h"
#include "ports.h"
#include "telemetry.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

#define APP "fastmib-agentx"

/* Net-SNMP's persistent directory when the agent keeps no state: nothing
 * can be created under it (the library makes a cert_indexes directory in
 * its persistent directory at every start, whatever else it is told). */
#define NO_STATE_DIR "/dev/null"

/* libnetsnmpagent / libnetsnmpmibs export these without a public header. */
void init_vacm_config_tokens(void);
void init_vacm_vars(void);
void init_system_mib(void);
void init_sysORTable(void);

/* The only state a signal handler may touch. */
static volatile sig_atomic_t stop_requested;

/* Numeric settings: option, directive, range. */
enum num_setting {
	NUM_PING, NUM_CHECK, NUM_EV_HISTORY, NUM_NOTIFY_RATE, NUM_NOTIFY_BURST,
	NUM_IFINDEX_BASE, NUM_PORTS_TIMEOUT, NUM_COUNT
};

static const struct num_spec {
	const char *token;  /* configuration directive */
	const char *what;   /* for command-line messages */
	long min, max;
	const char *unit;
} num_specs[NUM_COUNT] = {
	[NUM_PING] = { "pingInterval", "ping interval", 1, 3600, " s" },
	[NUM_CHECK] = { "checkPeriod", "check period", 1, 3600, " s" },
	[NUM_EV_HISTORY] = { "eventHistory", "event history", 1,
			     FASTMIB_AGENT_EVENT_HISTORY_MAX, "" },
	[NUM_NOTIFY_RATE] = { "notifyRate", "notification rate", 0, 1000000, "/s" },
	[NUM_NOTIFY_BURST] = { "notifyBurst", "notification burst", 0, 1000000, "" },
	[NUM_IFINDEX_BASE] = { "ifIndexBase", "ifIndex base", 1, FASTMIB_IFINDEX_MAX, "" },
	[NUM_PORTS_TIMEOUT] = { "portsTimeout", "timeout", 1, FASTMIB_PORTS_TIMEOUT_MAX,
				" ms" },
};

/* A setting taken before Net-SNMP starts: from the command line, else
 * from a -c file (origin "FILE: line N"). */
struct early {
	char *value;
	bool from_cli;
	char origin[PATH_MAX + 32];
	char token[64];     /* the directive that set it */
};

struct settings {
	bool foreground;
	bool logging_set;          /* -L given */
	bool startup_stderr;       /* stderr logging until the daemon detaches */
	bool no_default_files;     /* -C */
	char *config;              /* -c FILE[,FILE...] */
	char *pid_file;            /* absolute */
	const char *user, *group;
	struct agentx_identity id;
	struct early listen;
	struct early state_dir;    /* --state-dir, persistentDir, stateDir */
	char *state_path;          /* the state directory in use, absolute, or NULL */
	char *agentx_socket;
	bool agentx_socket_cli;
	long num[NUM_COUNT];       /* -1: not set */
	bool num_cli[NUM_COUNT];
	char *ports_paths[FASTMIB_PORTS_MAX_SOURCES];
	unsigned int n_ports_paths;
	unsigned int config_errors;/* errors logged while the configuration is read */
	netsnmp_log_handler *error_counter;
	struct fastmib_agent *agent;
	struct fastmib_ports *ports; /* IF-MIB rows of DPDK applications' ports */
};

/* Net-SNMP calls configuration handlers and callbacks without a context of
 * ours: the settings of this (only) agent. */
static struct settings *cfg;

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
		"  -D[TOKENS]              debug output for TOKENS (e.g. -Dfastmib)\n"
		"  -p, --pid-file FILE     write the daemon's pid to FILE\n"
		"  -u, --user USER         serve as USER once sockets and segments\n"
		"                          are open\n"
		"  -g, --group GROUP       serve as GROUP (default: USER's group)\n"
		"  -C                      do not read the default configuration files\n"
		"  -c, --config FILE       read FILE too (repeatable; see below)\n"
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
		"                          at ifIndex BASE + port id (repeatable)\n"
		"      --ifindex-base N    base of the n-th --ports without one: N + 100 n\n"
		"                          (default 1000)\n"
		"      --ports-timeout MS  longest wait for a telemetry answer (default 5)\n"
		"  -h, --help              this text\n"
		"  -V, --version           version\n\n"
		"Configuration files: fastmib-agentx.conf and fastmib-agentx.local.conf\n"
		"in Net-SNMP's search path (not with -C), then the -c files. Lines:\n"
		"  segment PATH | agentxSocket SOCKET | pingInterval N | checkPeriod N\n"
		"  eventHistory N | notifyRate N | notifyBurst N | ports PATH[,BASE]\n"
		"  ifIndexBase N | portsTimeout MS, and in -c files only:\n"
		"  listen ADDR | persistentDir DIR\n"
		"Command-line options take precedence. Any other line (rocommunity,\n"
		"rwcommunity, createUser, rouser, rwuser, view, access, trap2sink,\n"
		"trapsess, ...) is a Net-SNMP directive; in standalone mode trap2sink/\n"
		"trapsess lines say where event notifications go.\n");
}

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int
parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static char *
keep(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, APP ": out of memory\n");
		exit(1);
	}
	return d; /* settings live for the whole run */
}

/*
 * `path` made absolute against the start directory: a daemon moves to /,
 * and every re-attach check opens the path again. The file need not exist
 * yet, so this is plain joining, not realpath(). Returns a heap string, or
 * NULL (errno set).
 */
static char *
absolute_path(const char *path)
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

/* A --ports source (or `ports` line), its path made absolute like a segment's. */
static int
add_ports(struct settings *st, const char *spec, bool config_line)
{
	char *abs = absolute_path(spec);
	char path[PATH_MAX];
	uint32_t base;
	int rc;

	if (!abs) {
		setting_error(config_line, "%s: %s", spec, strerror(errno));
		return -1;
	}
	rc = fastmib_ports_add(st->ports, abs);
	if (rc == 0 && st->n_ports_paths < FASTMIB_PORTS_MAX_SOURCES &&
	    fastmib_port_source_parse(abs, path, sizeof(path), &base) == 0)
		st->ports_paths[st->n_ports_paths++] = keep(path);
	free(abs);
	if (rc == -EEXIST)
		return 0; /* listed twice: served once */
	if (rc == -EINVAL)
		setting_error(config_line, "ports %s: needs PATH or PATH,BASE with BASE "
			      "in 1..%u", spec, FASTMIB_IFINDEX_MAX);
	else if (rc == -ENOSPC)
		setting_error(config_line, "ports %s: at most %u applications", spec,
			      FASTMIB_PORTS_MAX_SOURCES);
	else if (rc < 0)
		setting_error(config_line, "ports %s: %s", spec, strerror(-rc));
	return rc < 0 ? -1 : 0;
}

static int
add_segment(struct settings *st, const char *name, bool config_line)
{
	char *path = absolute_path(name);
	int rc;

	if (!path) {
		setting_error(config_line, "%s: %s", name, strerror(errno));
		return -1;
	}
	rc = fastmib_agent_add(st->agent, path);
	free(path);
	if (rc == -EEXIST)
		return 0; /* listed twice: serve it once */
	if (rc == -ENOSPC)
		setting_error(config_line, "segment %s: at most %u segments", name,
			      FASTMIB_AGENT_MAX_SEGMENTS);
	else if (rc < 0)
		setting_error(config_line, "segment %s: %s", name, strerror(-rc));
	return rc < 0 ? -1 : 0;
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
		add_segment(cfg, path, true);
}

static void
dir_ports(const char *token, char *line)
{
	char spec[PATH_MAX + 16];

	if (one_value(token, line, spec, sizeof(spec)))
		add_ports(cfg, spec, true);
}

static void
dir_number(const char *token, char *line)
{
	char word[64];
	long v;

	for (int i = 0; i < NUM_COUNT; i++) {
		const struct num_spec *n = &num_specs[i];

		if (strcasecmp(token, n->token))
			continue;
		if (!one_value(token, line, word, sizeof(word)))
			return;
		if (parse_long(word, n->min, n->max, &v) < 0) {
			netsnmp_config_error("bad %s '%s' (%ld..%ld%s)", n->token, word,
					     n->min, n->max, n->unit);
			return;
		}
		if (!cfg->num_cli[i])
			cfg->num[i] = v; /* a later line wins, as in Net-SNMP */
		return;
	}
}

/*
 * An AgentX socket that cannot be: a unix path longer than a socket
 * address holds. Net-SNMP would only fail to connect, again at every
 * ping. Returns NULL, or what is wrong.
 */
static const char *
agentx_socket_problem(const char *sock, char *buf, size_t len)
{
	const char *path = !strncmp(sock, "unix:", 5) ? sock + 5 : sock;
	size_t max = sizeof(((struct sockaddr_un *)NULL)->sun_path) - 1;

	if (path[0] != '/' || strlen(path) <= max)
		return NULL;
	snprintf(buf, len, "a unix socket path has at most %zu characters, not %zu",
		 max, strlen(path));
	return buf;
}

static void
dir_agentx_socket(const char *token, char *line)
{
	char sock[PATH_MAX], why[96];

	if (!one_value(token, line, sock, sizeof(sock)))
		return;
	if (agentx_socket_problem(sock, why, sizeof(why))) {
		netsnmp_config_error("bad %s '%s': %s", token, sock, why);
		return;
	}
	if (cfg->agentx_socket_cli)
		return;
	free(cfg->agentx_socket);
	cfg->agentx_socket = keep(sock);
}

/*
 * listen and persistentDir/stateDir were taken from the -c files before
 * Net-SNMP started (prepass()). Here Net-SNMP meets them again: in those
 * files (same value, fine), or in a default file, too late to act on.
 */
static void
dir_early(const char *token, char *line)
{
	struct early *e = !strcasecmp(token, "listen") ? &cfg->listen : &cfg->state_dir;
	char value[PATH_MAX];

	if (!one_value(token, line, value, sizeof(value)) || e->from_cli)
		return;
	if (!e->value || strcmp(e->value, value))
		netsnmp_config_error("%s is read from the command line and the -c "
				     "files only (it decides how the agent starts)", token);
}

static void
register_directives(void)
{
	register_app_config_handler("segment", dir_segment, NULL, "PATH");
	register_app_config_handler("ports", dir_ports, NULL, "PATH[,BASE]");
	for (int i = 0; i < NUM_COUNT; i++)
		register_app_config_handler(num_specs[i].token, dir_number, NULL, "N");
	/* Before init_agent(): found ahead of Net-SNMP's own agentxsocket, so
	 * that -x keeps precedence over the files. */
	register_app_config_handler("agentxSocket", dir_agentx_socket, NULL, "SOCKET");
	register_app_config_handler("listen", dir_early, NULL, "ADDRESS");
	register_app_config_handler("persistentDir", dir_early, NULL, "DIR");
	register_app_config_handler("stateDir", dir_early, NULL, "DIR");
}

/*
 * Take listen and persistentDir/stateDir from the -c files (comma-
 * separated, as Net-SNMP reads them), unless the command line set them,
 * and refuse a directive without a value. Net-SNMP reads the files again
 * in full later. Returns 0, or -1 after a message naming the file and
 * line.
 */
static int
prepass(struct settings *st)
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
			struct early *e;

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

enum { OPT_STATE_DIR = 256, OPT_LISTEN, OPT_PING, OPT_CHECK_PERIOD, OPT_NOTIFY_RATE,
       OPT_NOTIFY_BURST, OPT_PORTS, OPT_IFINDEX_BASE, OPT_PORTS_TIMEOUT };

static const struct option long_opts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "agentx", required_argument, NULL, 'x' },
	{ "config", required_argument, NULL, 'c' },
	{ "pid-file", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "group", required_argument, NULL, 'g' },
	{ "ping", required_argument, NULL, OPT_PING },
	{ "check-period", required_argument, NULL, OPT_CHECK_PERIOD },
	{ "event-history", required_argument, NULL, 'E' },
	{ "notify-rate", required_argument, NULL, OPT_NOTIFY_RATE },
	{ "notify-burst", required_argument, NULL, OPT_NOTIFY_BURST },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "ports", required_argument, NULL, OPT_PORTS },
	{ "ifindex-base", required_argument, NULL, OPT_IFINDEX_BASE },
	{ "ports-timeout", required_argument, NULL, OPT_PORTS_TIMEOUT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int
set_number(struct settings *st, enum num_setting i, const char *arg)
{
	const struct num_spec *n = &num_specs[i];

	if (parse_long(arg, n->min, n->max, &st->num[i]) < 0) {
		fprintf(stderr, APP ": bad %s '%s' (%ld..%ld%s)\n", n->what, arg, n->min,
			n->max, n->unit);
		return -1;
	}
	st->num_cli[i] = true;
	return 0;
}

static void
set_early(struct early *e, const char *value)
{
	free(e->value);
	e->value = keep(value);
	e->from_cli = true;
}

/* Returns -1 to go on, else the exit status. */
static int
parse_args(int argc, char **argv, struct settings *st)
{
	int c;

	while ((c = getopt_long(argc, argv, "fx:L:D::c:Cp:u:g:E:hV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'f':
			st->foreground = true;
			break;
		case 'x': {
			char why[96];

			if (agentx_socket_problem(optarg, why, sizeof(why))) {
				fprintf(stderr, APP ": bad AgentX socket '%s': %s\n", optarg, why);
				return 1;
			}
			free(st->agentx_socket);
			st->agentx_socket = keep(optarg);
			st->agentx_socket_cli = true;
			break;
		}
		case 'L':
			/* -Lf FILE and -Ls FACILITY take the next argument, as
			 * in snmpd: the library moves optind past it. */
			if (snmp_log_options(optarg, argc, argv) < 0) {
				usage(stderr);
				return 1;
			}
			st->logging_set = true;
			break;
		case 'D':
			debug_register_tokens(optarg ? optarg : "ALL");
			snmp_set_do_debugging(1);
			break;
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
			break;
		case 'C':
			st->no_default_files = true;
			break;
		case 'p':
			/* Before 0.2.0, -p was the ping interval: a bare number is
			 * that habit, not a pid file named "2". */
			if (optarg[strspn(optarg, "0123456789")] == '\0') {
				fprintf(stderr, APP ": -p names the pid file; the AgentX ping "
					"interval is --ping %s\n", optarg);
				return 1;
			}
			free(st->pid_file);
			st->pid_file = absolute_path(optarg);
			if (!st->pid_file)
				return 1;
			break;
		case 'u':
			st->user = optarg;
			break;
		case 'g':
			st->group = optarg;
			break;
		case OPT_PING:
			if (set_number(st, NUM_PING, optarg) < 0)
				return 1;
			break;
		case OPT_CHECK_PERIOD:
			if (set_number(st, NUM_CHECK, optarg) < 0)
				return 1;
			break;
		case 'E':
			if (set_number(st, NUM_EV_HISTORY, optarg) < 0)
				return 1;
			break;
		case OPT_NOTIFY_RATE:
			if (set_number(st, NUM_NOTIFY_RATE, optarg) < 0)
				return 1;
			break;
		case OPT_NOTIFY_BURST:
			if (set_number(st, NUM_NOTIFY_BURST, optarg) < 0)
				return 1;
			break;
		case OPT_IFINDEX_BASE:
			if (set_number(st, NUM_IFINDEX_BASE, optarg) < 0)
				return 1;
			break;
		case OPT_PORTS_TIMEOUT:
			if (set_number(st, NUM_PORTS_TIMEOUT, optarg) < 0)
				return 1;
			break;
		case OPT_STATE_DIR:
			set_early(&st->state_dir, optarg);
			break;
		case OPT_LISTEN:
			set_early(&st->listen, optarg);
			break;
		case OPT_PORTS:
			if (add_ports(st, optarg, false) < 0)
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf(APP " " FASTMIB_VERSION " (net-snmp %s)\n",
			       netsnmp_get_version());
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	for (int i = optind; i < argc; i++)
		if (add_segment(st, argv[i], false) < 0)
			return 1;
	if (agentx_identity_resolve(&st->id, st->user, st->group) < 0)
		return 1;
	if (prepass(st) < 0)
		return 1;
	return -1;
}

/* ---- state directory ---- */

/*
 * The state directory holds Net-SNMP's persistent files, which are read
 * at start like configuration (users, communities): a file planted there
 * could grant write access. Like a segment file, it is used only when it
 * is not a link, belongs to root, to this user or to the user it serves as
 * (-u), and nobody else can write to it; the same for every file in it. A
 * missing directory is created (0700, for the -u user).
 */
static int
check_state_dir(const struct settings *st, const char *dir)
{
	uid_t me = geteuid(), as = st->id.change_user ? st->id.uid : me;
	struct stat sb;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (lstat(dir, &sb) < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, APP ": %s: %s\n", dir, strerror(errno));
			return -1;
		}
		if (mkdir(dir, 0700) < 0 ||
		    (st->id.change_user && chown(dir, st->id.uid, st->id.gid) < 0)) {
			fprintf(stderr, APP ": %s: cannot create the state directory: %s\n",
				dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, APP ": %s: state directory is %s; refused\n", dir,
			S_ISLNK(sb.st_mode) ? "a symbolic link" : "not a directory");
		return -1;
	}
	if ((sb.st_uid != 0 && sb.st_uid != me && sb.st_uid != as) ||
	    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr, APP ": %s: state directory owned by uid %u with mode %03o: "
			"it must belong to root or uid %u and be writable by its owner "
			"only; refused\n", dir, (unsigned)sb.st_uid,
			(unsigned)(sb.st_mode & 0777), (unsigned)as);
		return -1;
	}
	d = opendir(dir);
	if (d == NULL)
		return 0; /* unreadable: Net-SNMP will say so */
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(sb.st_mode) || (sb.st_uid != 0 && sb.st_uid != me &&
					    sb.st_uid != as) ||
		    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
			fprintf(stderr, APP ": %s/%s: %s in the state directory; refused\n",
				dir, de->d_name, S_ISLNK(sb.st_mode) ? "a symbolic link" :
				"a file another user owns or may write");
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

/*
 * The state directory: --state-dir, else persistentDir/stateDir of a -c
 * file, else the one systemd made for the unit (StateDirectory=, passed as
 * $STATE_DIRECTORY, first of a colon-separated list), else none: the
 * agent then keeps no state at all.
 */
static int
choose_state_dir(struct settings *st)
{
	const char *env = getenv("STATE_DIRECTORY");
	char *dir = NULL;

	if (st->state_dir.value) {
		dir = absolute_path(st->state_dir.value);
		if (!dir) {
			fprintf(stderr, APP ": %s: %s\n", st->state_dir.value, strerror(errno));
			return -1;
		}
	} else if (env && env[0] == '/') {
		dir = keep(env);
		dir[strcspn(dir, ":")] = '\0';
	}
	if (dir && check_state_dir(st, dir) < 0) {
		if (st->state_dir.origin[0])
			fprintf(stderr, "%s: Error: %s %s refused\n", st->state_dir.origin,
				st->state_dir.token, st->state_dir.value);
		free(dir);
		return -1;
	}
	st->state_path = dir;
	return 0;
}

/* ---- Net-SNMP set-up ---- */

static int
count_config_error(int major, int minor, void *serverarg, void *clientarg)
{
	const struct snmp_log_message *m = serverarg;

	(void)major, (void)minor, (void)clientarg;
	if (m->priority <= LOG_ERR)
		cfg->config_errors++;
	return 0;
}

/*
 * Net-SNMP reads the persistent directory it was given unless a
 * "[snmp] persistentDir" line moved it; the state directory was checked,
 * that one was not.
 */
static int
keep_state_dir(int major, int minor, void *serverarg, void *clientarg)
{
	const char *want = cfg->state_path ? cfg->state_path : NO_STATE_DIR;

	(void)major, (void)minor, (void)serverarg, (void)clientarg;
	if (strcmp(get_persistent_directory(), want)) {
		snmp_log(LOG_ERR, APP ": the state directory is set with --state-dir "
			 "or persistentDir, not \"[snmp] persistentDir\" (%s)\n",
			 get_persistent_directory());
		set_persistent_directory(want);
	}
	return 0;
}

/*
 * Every configuration file has been read. Runs before the AgentX
 * subagent connects (same callback, lower priority): an agent whose
 * configuration has errors stops here, having served nothing.
 */
static int
config_read(int major, int minor, void *serverarg, void *clientarg)
{
	struct settings *st = cfg;

	(void)major, (void)minor, (void)serverarg, (void)clientarg;
	netsnmp_remove_loghandler(st->error_counter);
	st->error_counter = NULL;
	snmp_unregister_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
				 count_config_error, NULL, 1);
	if (st->config_errors) {
		snmp_log(LOG_ERR, APP ": %u error(s) in the configuration; not started\n",
			 st->config_errors);
		exit(1);
	}
	if (fastmib_agent_count(st->agent) == 0 && fastmib_ports_count(st->ports) == 0) {
		snmp_log(LOG_ERR, APP ": no segment and no --ports given\n");
		exit(1);
	}
	if (!st->listen.value) {
		if (st->agentx_socket)
			netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
					      NETSNMP_DS_AGENT_X_SOCKET, st->agentx_socket);
		/* ours over Net-SNMP's agentxPingInterval; a short ping lets
		 * the subagent notice a restarted snmpd within seconds */
		if (st->num[NUM_PING] > 0)
			netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
					   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL,
					   (int)st->num[NUM_PING]);
	}
	return 0;
}

/* Is `dir` one of the entries of the colon-separated `list`? */
static bool
in_path_list(const char *list, const char *dir)
{
	size_t n = strlen(dir);

	for (const char *p = list; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL)
		if (!strncmp(p, dir, n) && (p[n] == ':' || p[n] == '\0'))
			return true;
	return false;
}

static void
configure_netsnmp(struct settings *st)
{
	if (!st->logging_set) {
		if (st->foreground) {
			snmp_enable_stderrlog();
		} else {
			/* the terminal sees what stops the start; the daemon logs
			 * to syslog */
			snmp_enable_syslog_ident(APP, LOG_DAEMON);
			snmp_enable_stderrlog();
			st->startup_stderr = true;
		}
	}
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_APPTYPE, APP);
	if (st->state_path) {
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_PERSISTENT_DIR,
				      st->state_path);
	} else {
		/* No state: nothing saved, nothing loaded, and no directory
		 * where the library could create one (not DONT_PERSIST_STATE:
		 * in 5.9 it also stops every configuration file from being
		 * read). */
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_PERSISTENT_DIR,
				      NO_STATE_DIR);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	}
	if (st->no_default_files) {
		/* An empty search path, rather than Net-SNMP's own "don't read
		 * configs" (snmpd's -C), which would skip the state directory's
		 * files too. */
		unsetenv("SNMPCONFPATH");
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
				      NETSNMP_DS_LIB_CONFIGURATION_DIR, "");
	} else if (getenv("SNMPCONFPATH") && st->state_path &&
		   !in_path_list(getenv("SNMPCONFPATH"), st->state_path)) {
		/* Net-SNMP reads only $SNMPCONFPATH when it is set, the
		 * persistent directory included only if listed there (once:
		 * twice is the doubled read of the state) */
		char *path = malloc(strlen(getenv("SNMPCONFPATH")) +
				    strlen(st->state_path) + 2);

		if (path) {
			sprintf(path, "%s:%s", getenv("SNMPCONFPATH"), st->state_path);
			setenv("SNMPCONFPATH", path, 1);
			free(path);
		}
	}
	if (st->config)
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
				      NETSNMP_DS_LIB_OPTIONALCONFIG, st->config);
	/* Serving needs no MIB files: do not load (and warn about) the
	 * default modules, unless the operator asked for some. */
	setenv("MIBS", "", 0);
	if (st->listen.value) {
		netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
				      NETSNMP_DS_AGENT_PORTS, st->listen.value);
		/* one log line per request would drown everything else */
		netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
				       NETSNMP_DS_AGENT_DONT_LOG_TCPWRAPPERS_CONNECTS, 1);
	} else {
		netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
				       NETSNMP_DS_AGENT_ROLE, 1);
	}
	register_directives();
	/* Anything logged as an error while the files are read is a
	 * configuration error (Net-SNMP's own directives included): counted,
	 * and the start stops once they are all read and reported. */
	st->error_counter = netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK,
							LOG_ERR);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       count_config_error, NULL);
	netsnmp_register_callback(SNMP_CALLBACK_LIBRARY,
				  SNMP_CALLBACK_POST_PREMIB_READ_CONFIG, keep_state_dir,
				  NULL, NETSNMP_CALLBACK_HIGHEST_PRIORITY);
	/* no client argument: snmp_shutdown() frees those */
	netsnmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_POST_READ_CONFIG,
				  config_read, NULL, NETSNMP_CALLBACK_HIGHEST_PRIORITY);
}

static void
apply_settings(struct settings *st)
{
	if (st->num[NUM_IFINDEX_BASE] > 0)
		fastmib_ports_set_base(st->ports, (uint32_t)st->num[NUM_IFINDEX_BASE]);
	if (st->num[NUM_PORTS_TIMEOUT] > 0)
		fastmib_ports_set_timeout(st->ports, (unsigned int)st->num[NUM_PORTS_TIMEOUT]);
	/* a standalone agent serves no kernel interface to keep clear of */
	fastmib_ports_set_beside_kernel(st->ports, st->listen.value == NULL);
	if (st->num[NUM_EV_HISTORY] > 0)
		fastmib_agent_set_event_history(st->agent,
						(unsigned int)st->num[NUM_EV_HISTORY]);
}

static int
apply_notify_limit(struct settings *st)
{
	long rate = st->num[NUM_NOTIFY_RATE], burst = st->num[NUM_NOTIFY_BURST];

	if (rate < 0 && burst < 0)
		return 0;
	if (fastmib_agent_set_notify_limit(st->agent, (unsigned int)(rate >= 0 ? rate
					   : FASTMIB_AGENT_NOTIFY_RATE),
					   (unsigned int)(burst >= 0 ? burst
					   : FASTMIB_AGENT_NOTIFY_BURST)) < 0) {
		snmp_log(LOG_ERR, APP ": a notification rate needs a burst of at least 1\n");
		return -1;
	}
	return 0;
}

/* ---- what the agent cannot do as its -u user ---- */

/* The directory part of `path` (at most len - 1 bytes of it) in `buf`. */
static const char *
dir_of(const char *path, char *buf, size_t len)
{
	size_t n = strnlen(path, len - 1);

	memcpy(buf, path, n);
	buf[n] = '\0';
	return dirname(buf);
}

/*
 * Once it serves as another user, the agent keeps what it opened as root,
 * but every re-attach, reconnect and save is done as that user: say now,
 * once, what will not work, rather than fail later in a way that looks
 * like something else.
 */
static void
report_access(struct settings *st)
{
	const char *who = st->id.name[0] ? st->id.name : "this group";
	char dir[PATH_MAX];

	for (unsigned int i = 0; i < fastmib_agent_count(st->agent); i++) {
		const char *p = fastmib_agent_path(st->agent, i);

		if (access(p, F_OK) < 0) {
			if (errno == ENOENT && access(dir_of(p, dir, sizeof(dir)), X_OK) == 0)
				continue;
			snmp_log(LOG_WARNING, APP ": %s: %s cannot reach it: it will not be "
				 "attached when it appears\n", p, who);
		} else if (access(p, R_OK) < 0) {
			snmp_log(LOG_WARNING, APP ": %s: %s cannot read it: served as "
				 "mapped at start, but not attached again once its "
				 "application re-creates it\n", p, who);
		} else if (access(p, W_OK) < 0) {
			snmp_log(LOG_WARNING, APP ": %s: %s cannot write to it: once it is "
				 "attached again, resets answer resourceUnavailable\n", p, who);
		}
	}
	for (unsigned int i = 0; i < st->n_ports_paths; i++) {
		const char *p = st->ports_paths[i];
		char sock[PATH_MAX + 32];
		struct stat sb;

		if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			snprintf(sock, sizeof(sock), "%s/dpdk_telemetry.v2", p);
		else
			snprintf(sock, sizeof(sock), "%s", p);
		if (access(sock, W_OK) < 0 && !(errno == ENOENT &&
		    access(dir_of(sock, dir, sizeof(dir)), X_OK) == 0))
			snmp_log(LOG_WARNING, APP ": %s: %s cannot connect to this telemetry "
				 "socket: the application's ports are not served again "
				 "once it restarts\n", sock, who);
	}
	if (!st->listen.value) {
		const char *sock = netsnmp_ds_get_string(NETSNMP_DS_APPLICATION_ID,
							 NETSNMP_DS_AGENT_X_SOCKET);

		if (!sock)
			sock = NETSNMP_AGENTX_SOCKET;
		if (!strncmp(sock, "unix:", 5))
			sock += 5;
		if (sock[0] == '/' && access(sock, W_OK) < 0)
			snmp_log(LOG_WARNING, APP ": %s: %s cannot connect to snmpd's AgentX "
				 "socket: after snmpd restarts, the agent cannot register "
				 "again (snmpd.conf: agentXPerms)\n", sock, who);
	}
	if (st->state_path && access(st->state_path, W_OK | X_OK) < 0) {
		snmp_log(LOG_WARNING, APP ": %s: %s cannot write the state directory: "
			 "Net-SNMP's persistent state is not saved\n", st->state_path, who);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	}
	if (st->pid_file && access(dir_of(st->pid_file, dir, sizeof(dir)), W_OK | X_OK) < 0)
		snmp_log(LOG_WARNING, APP ": %s: %s cannot remove the pid file at exit\n",
			 st->pid_file, who);
}

/* ---- run ---- */

static int
run(struct settings *st)
{
	struct sigaction sa;
	int rc;

	if (choose_state_dir(st) < 0)
		return 1;
	/* A pid file that cannot be written stops the start while the
	 * terminal still sees why; it is written once the daemon runs. */
	if (st->pid_file) {
		char dir[PATH_MAX];

		if (access(dir_of(st->pid_file, dir, sizeof(dir)), W_OK | X_OK) < 0) {
			fprintf(stderr, APP ": %s: cannot write the pid file there: %s\n",
				st->pid_file, strerror(errno));
			return 1;
		}
	}
	configure_netsnmp(st);
	/* The agent library would open an SMUX listener (TCP *:199) for a
	 * process running as root: nothing but the configured address may
	 * listen. */
	add_to_init_list("-smux");
	init_agent(APP);
	if (st->listen.value) {
		init_vacm_config_tokens();
		init_vacm_vars();
		init_system_mib();  /* sysUpTime, the reference of TimeStamps */
		init_sysORTable();
	} else {
		fastmib_agentx_limit_responses();
		/* init_agent() set Net-SNMP's default (15 s); ours is 2 s
		 * unless --ping or a configuration line says otherwise */
		netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
				   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 2);
	}
	init_snmp(APP);     /* reads the configuration: config_read() */
	apply_settings(st);
	if (apply_notify_limit(st) < 0) {
		snmp_shutdown(APP);
		return 1;
	}
	if (st->listen.value && init_master_agent() != 0) {
		if (st->listen.origin[0])
			snmp_log(LOG_ERR, "%s: Error: cannot listen on %s\n",
				 st->listen.origin, st->listen.value);
		else
			snmp_log(LOG_ERR, APP ": cannot listen on %s\n", st->listen.value);
		snmp_shutdown(APP);
		return 1;
	}
	rc = fastmib_agent_start(st->agent, st->num[NUM_CHECK] > 0
				 ? (unsigned int)st->num[NUM_CHECK] : 0);
	if (rc < 0) {
		snmp_log(LOG_ERR, APP ": cannot start: %s\n", strerror(-rc));
		snmp_shutdown(APP);
		return 1;
	}
	rc = fastmib_ports_start(st->ports);
	if (rc < 0) {
		snmp_log(LOG_ERR, APP ": cannot start the ports: %s\n", strerror(-rc));
		snmp_shutdown(APP);
		return 1;
	}
	/* As snmpd: detach once everything is open, so that the exit status
	 * of the command says whether the agent started. */
	if (st->startup_stderr)
		snmp_disable_stderrlog();
	if (!st->foreground && netsnmp_daemonize(1, snmp_stderrlog_status()) != 0) {
		snmp_log(LOG_ERR, APP ": cannot become a daemon\n");
		snmp_shutdown(APP);
		return 1;
	}
	if (st->pid_file && agentx_pidfile_write(st->pid_file) < 0) {
		snmp_shutdown(APP);
		return 1;
	}
	if (agentx_identity_assume(&st->id) < 0) {
		if (st->pid_file)
			agentx_pidfile_remove(st->pid_file);
		snmp_shutdown(APP);
		return 1;
	}
	if (st->id.change_user || st->id.change_group)
		report_access(st);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a vanished master is seen by the ping */
	snmp_log(LOG_INFO, APP " %s: %u segment(s), %u ports source(s), %s %s\n",
		 FASTMIB_VERSION, fastmib_agent_count(st->agent),
		 fastmib_ports_count(st->ports),
		 st->listen.value ? "listening on" : "AgentX via",
		 st->listen.value ? st->listen.value
				  : st->agentx_socket ? st->agentx_socket : "default socket");
	while (!stop_requested)
		agent_check_and_process(1); /* a signal interrupts the wait */
	snmp_log(LOG_INFO, APP ": stopping\n");
	fastmib_ports_destroy(st->ports);
	st->ports = NULL;
	fastmib_agent_destroy(st->agent);
	st->agent = NULL;
	snmp_shutdown(APP);
	if (st->pid_file)
		agentx_pidfile_remove(st->pid_file);
	return 0;
}

int
main(int argc, char **argv)
{
	struct settings st = { .num = { -1, -1, -1, -1, -1, -1, -1 } };
	int status;

	cfg = &st;
	if (fastmib_agent_create(&st.agent) < 0 || fastmib_ports_create(&st.ports) < 0) {
		fprintf(stderr, APP ": out of memory\n");
		return 1;
	}
	status = parse_args(argc, argv, &st);
	if (status < 0)
		status = run(&st);
	fastmib_ports_destroy(st.ports);
	fastmib_agent_destroy(st.agent);
	free(st.config);
	free(st.pid_file);
	free(st.listen.value);
	free(st.state_dir.value);
	free(st.state_path);
	free(st.agentx_socket);
	for (unsigned int i = 0; i < st.n_ports_paths; i++)
		free(st.ports_paths[i]);
	return status;
}
