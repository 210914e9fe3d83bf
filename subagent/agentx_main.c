/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: serve fastmib segments over SNMP, as an AgentX subagent
 * of snmpd (default) or as a standalone agent on its own UDP port
 * (--listen). The serving itself is core.c; this file is the front end:
 * options, configuration file, logging, daemon, signals, main loop.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "agentx_size.h"
#include "core.h"
#include "ports.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

#define APP "fastmib-agentx"

/* libnetsnmpagent / libnetsnmpmibs export these without a public header. */
void init_vacm_config_tokens(void);
void init_vacm_vars(void);
void init_system_mib(void);
void init_sysORTable(void);

/* The only state a signal handler may touch. */
static volatile sig_atomic_t stop_requested;

struct settings {
	bool foreground;
	bool logging_set;
	const char *agentx_socket;
	const char *listen;
	const char *state_dir;
	const char *config;
	long ping;              /* -1: not set */
	long check_period;      /* -1: not set */
	long ev_history;        /* -1: not set */
	long notify_rate;       /* -1: not set */
	long notify_burst;      /* -1: not set */
	long ifindex_base;      /* -1: not set */
	long ports_timeout;     /* -1: not set */
	struct fastmib_agent *agent;
	struct fastmib_ports *ports; /* IF-MIB rows of DPDK applications' ports */
};

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: " APP " [OPTIONS] [SEGMENT...]\n"
		"Serve fastmib counter segments, and the ports of DPDK applications\n"
		"(IF-MIB), over SNMP.\n\n"
		"  -f, --foreground        do not become a daemon\n"
		"  -x, --agentx SOCKET     AgentX socket of the master agent\n"
		"                          (unix path or tcp:HOST:PORT)\n"
		"  -L OPTS                 logging, as snmpd: -Lo, -Le, -Lf FILE, -Ls daemon\n"
		"  -D[TOKENS]              debug output for TOKENS (e.g. -Dfastmib)\n"
		"  -c, --config FILE       read settings from FILE (see below)\n"
		"  -p, --ping SECONDS      AgentX ping interval (default 2)\n"
		"      --check-period SEC  segment re-attach check period (default 1)\n"
		"  -E, --event-history N   event records kept per segment (default 256)\n"
		"      --notify-rate N     notifications per second at most (default 10,\n"
		"                          0 = none)\n"
		"      --notify-burst N    notifications sent at once at most (default 20)\n"
		"      --state-dir DIR     Net-SNMP persistent and configuration directory\n"
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
		"Configuration file lines (command-line options take precedence):\n"
		"  segment PATH | agentxSocket SOCKET | listen ADDR | pingInterval N\n"
		"  checkPeriod N | persistentDir DIR | eventHistory N | notifyRate N\n"
		"  notifyBurst N | ports PATH[,BASE] | ifIndexBase N | portsTimeout MS\n"
		"Any other line (rocommunity, rwcommunity, createUser, rouser, rwuser,\n"
		"view, access, trap2sink, trapsess, ...) is handed to Net-SNMP as a\n"
		"configuration directive; in standalone mode trap2sink/trapsess lines\n"
		"say where event notifications go.\n");
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

/*
 * `path` made absolute against the start directory: a daemon moves to /
 * before it attaches, and every re-attach check opens the path again.
 * The file need not exist yet, so this is plain joining, not realpath().
 * Returns a heap string, or NULL (errno set).
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

/* A --ports source, its path made absolute like a segment's. */
static int
add_ports(struct settings *st, const char *spec)
{
	char *abs = absolute_path(spec);
	int rc;

	if (!abs) {
		fprintf(stderr, APP ": %s: %s\n", spec, strerror(errno));
		return -errno;
	}
	rc = fastmib_ports_add(st->ports, abs);
	free(abs);
	if (rc == -EEXIST)
		return 0; /* listed twice: served once */
	if (rc == -EINVAL)
		fprintf(stderr, APP ": --ports %s: needs PATH or PATH,BASE with BASE "
			"in 1..%u\n", spec, FASTMIB_IFINDEX_MAX);
	else if (rc == -ENOSPC)
		fprintf(stderr, APP ": --ports %s: at most %u applications\n", spec,
			FASTMIB_PORTS_MAX_SOURCES);
	else if (rc < 0)
		fprintf(stderr, APP ": --ports %s: %s\n", spec, strerror(-rc));
	return rc;
}

static int
add_segment(struct settings *st, const char *name)
{
	char *path = absolute_path(name);
	int rc;

	if (!path) {
		fprintf(stderr, APP ": %s: %s\n", name, strerror(errno));
		return -errno;
	}
	rc = fastmib_agent_add(st->agent, path);
	free(path);

	if (rc == -EEXIST)
		return 0; /* listed twice: serve it once */
	if (rc < 0)
		fprintf(stderr, APP ": %s: %s\n", name, strerror(-rc));
	return rc;
}

/* Trim `line` in place; return its first word and point *rest past it. */
static char *
split_line(char *line, char **rest)
{
	char *p = line, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == '\n' || end[-1] == '\r' ||
			   end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	*rest = p + strcspn(p, " \t");
	if (**rest) {
		*(*rest)++ = '\0';
		*rest += strspn(*rest, " \t");
	}
	return p;
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
 * Our own keywords are applied unless the command line set them; every
 * other directive goes to Net-SNMP, which parses it during init_snmp() as
 * if it came from its own configuration file.
 */
static int
read_settings_file(struct settings *st)
{
	FILE *f = fopen(st->config, "r");
	char line[4096];
	unsigned int lineno = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, APP ": %s: %s\n", st->config, strerror(errno));
		return -errno;
	}
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		char *val, *key = split_line(line, &val);
		long v;

		lineno++;
		if (!*key || *key == '#')
			continue;
		if (!*val) {
			fprintf(stderr, APP ": %s:%u: %s needs a value\n", st->config,
				lineno, key);
			rc = -EINVAL;
		} else if (!strcasecmp(key, "segment")) {
			rc = add_segment(st, val);
		} else if (!strcasecmp(key, "ports")) {
			rc = add_ports(st, val);
		} else if (!strcasecmp(key, "ifIndexBase") ||
			   !strcasecmp(key, "portsTimeout")) {
			bool is_base = !strcasecmp(key, "ifIndexBase");
			long *dst = is_base ? &st->ifindex_base : &st->ports_timeout;

			rc = parse_long(val, 1, is_base ? FASTMIB_IFINDEX_MAX
						      : FASTMIB_PORTS_TIMEOUT_MAX, &v);
			if (rc < 0)
				fprintf(stderr, APP ": %s:%u: bad %s '%s'\n", st->config,
					lineno, key, val);
			else if (*dst < 0)
				*dst = v;
		} else if (!strcasecmp(key, "agentxSocket")) {
			if (!st->agentx_socket)
				st->agentx_socket = keep(val);
		} else if (!strcasecmp(key, "listen")) {
			if (!st->listen)
				st->listen = keep(val);
		} else if (!strcasecmp(key, "persistentDir") ||
			   !strcasecmp(key, "stateDir")) {
			if (!st->state_dir)
				st->state_dir = keep(val);
		} else if (!strcasecmp(key, "pingInterval") ||
			   !strcasecmp(key, "checkPeriod")) {
			long *dst = !strcasecmp(key, "pingInterval") ? &st->ping
								      : &st->check_period;

			rc = parse_long(val, 1, 3600, &v);
			if (rc < 0)
				fprintf(stderr, APP ": %s:%u: bad %s '%s'\n", st->config,
					lineno, key, val);
			else if (*dst < 0)
				*dst = v;
		} else if (!strcasecmp(key, "eventHistory") ||
			   !strcasecmp(key, "notifyRate") ||
			   !strcasecmp(key, "notifyBurst")) {
			long *dst = !strcasecmp(key, "eventHistory") ? &st->ev_history
				    : !strcasecmp(key, "notifyRate") ? &st->notify_rate
								     : &st->notify_burst;

			rc = parse_long(val, dst == &st->ev_history ? 1 : 0,
					dst == &st->ev_history
					? FASTMIB_AGENT_EVENT_HISTORY_MAX : 1000000, &v);
			if (rc < 0)
				fprintf(stderr, APP ": %s:%u: bad %s '%s'\n", st->config,
					lineno, key, val);
			else if (*dst < 0)
				*dst = v;
		} else {
			char directive[sizeof(line) + 2];

			snprintf(directive, sizeof(directive), "%s %s", key, val);
			netsnmp_config_remember(directive); /* copies it */
		}
	}
	fclose(f);
	return rc;
}

enum { OPT_STATE_DIR = 256, OPT_LISTEN, OPT_CHECK_PERIOD, OPT_NOTIFY_RATE,
       OPT_NOTIFY_BURST, OPT_PORTS, OPT_IFINDEX_BASE, OPT_PORTS_TIMEOUT };

static const struct option long_opts[] = {
	{ "foreground", no_argument, NULL, 'f' },
	{ "agentx", required_argument, NULL, 'x' },
	{ "config", required_argument, NULL, 'c' },
	{ "ping", required_argument, NULL, 'p' },
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

/* Returns -1 to go on, else the exit status. */
static int
parse_args(int argc, char **argv, struct settings *st)
{
	int c;

	while ((c = getopt_long(argc, argv, "fx:L:D::c:p:E:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			st->foreground = true;
			break;
		case 'x':
			st->agentx_socket = optarg;
			break;
		case 'L':
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
			st->config = optarg;
			break;
		case 'p':
		case OPT_CHECK_PERIOD:
			if (parse_long(optarg, 1, 3600,
				       c == 'p' ? &st->ping : &st->check_period) < 0) {
				fprintf(stderr, APP ": bad number of seconds '%s'\n", optarg);
				return 1;
			}
			break;
		case 'E':
			if (parse_long(optarg, 1, FASTMIB_AGENT_EVENT_HISTORY_MAX,
				       &st->ev_history) < 0) {
				fprintf(stderr, APP ": bad event history '%s' (1..%u)\n",
					optarg, FASTMIB_AGENT_EVENT_HISTORY_MAX);
				return 1;
			}
			break;
		case OPT_NOTIFY_RATE:
		case OPT_NOTIFY_BURST:
			if (parse_long(optarg, 0, 1000000, c == OPT_NOTIFY_RATE
				       ? &st->notify_rate : &st->notify_burst) < 0) {
				fprintf(stderr, APP ": bad number '%s'\n", optarg);
				return 1;
			}
			break;
		case OPT_STATE_DIR:
			st->state_dir = optarg;
			break;
		case OPT_LISTEN:
			st->listen = optarg;
			break;
		case OPT_PORTS:
			if (add_ports(st, optarg) < 0)
				return 1;
			break;
		case OPT_IFINDEX_BASE:
			if (parse_long(optarg, 1, FASTMIB_IFINDEX_MAX,
				       &st->ifindex_base) < 0) {
				fprintf(stderr, APP ": bad ifIndex base '%s' (1..%u)\n",
					optarg, FASTMIB_IFINDEX_MAX);
				return 1;
			}
			break;
		case OPT_PORTS_TIMEOUT:
			if (parse_long(optarg, 1, FASTMIB_PORTS_TIMEOUT_MAX,
				       &st->ports_timeout) < 0) {
				fprintf(stderr, APP ": bad timeout '%s' (1..%u ms)\n",
					optarg, FASTMIB_PORTS_TIMEOUT_MAX);
				return 1;
			}
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
		if (add_segment(st, argv[i]) < 0)
			return 1;
	if (st->config && read_settings_file(st) < 0)
		return 1;
	if (fastmib_agent_count(st->agent) == 0 && fastmib_ports_count(st->ports) == 0) {
		fprintf(stderr, APP ": no segment and no --ports given\n");
		usage(stderr);
		return 1;
	}
	if (st->ifindex_base > 0)
		fastmib_ports_set_base(st->ports, (uint32_t)st->ifindex_base);
	if (st->ports_timeout > 0)
		fastmib_ports_set_timeout(st->ports, (unsigned int)st->ports_timeout);
	/* a standalone agent serves no kernel interface to keep clear of */
	fastmib_ports_set_beside_kernel(st->ports, st->listen == NULL);
	if (st->ev_history > 0)
		fastmib_agent_set_event_history(st->agent, (unsigned int)st->ev_history);
	if (st->notify_rate >= 0 || st->notify_burst >= 0) {
		long rate = st->notify_rate >= 0 ? st->notify_rate : FASTMIB_AGENT_NOTIFY_RATE;
		long burst = st->notify_burst >= 0 ? st->notify_burst
						   : FASTMIB_AGENT_NOTIFY_BURST;

		if (fastmib_agent_set_notify_limit(st->agent, (unsigned int)rate,
						   (unsigned int)burst) < 0) {
			fprintf(stderr, APP ": a notification rate needs a burst of "
				"at least 1\n");
			return 1;
		}
	}
	return -1;
}

/*
 * The state directory holds Net-SNMP's persistent files and is read for
 * configuration (community strings, users): a file planted there could
 * grant write access. Like a segment file, it is used only when it is not
 * a link, belongs to root or to this user, and nobody else can write to
 * it; the same for every file in it. A directory that does not exist yet
 * is left to Net-SNMP to create (mode 0700).
 */
static int
check_state_dir(const char *dir)
{
	uid_t me = geteuid();
	struct stat st;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 0 : (fprintf(stderr, APP ": %s: %s\n", dir,
							strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, APP ": %s: state directory is %s; refused\n", dir,
			S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
		return -1;
	}
	if ((st.st_uid != 0 && st.st_uid != me) || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr, APP ": %s: state directory owned by uid %u with mode %03o: "
			"it must belong to root or uid %u and be writable by its owner "
			"only; refused\n", dir, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 0777), (unsigned)me);
		return -1;
	}
	d = opendir(dir);
	if (d == NULL)
		return 0; /* unreadable: Net-SNMP will say so */
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode) || (st.st_uid != 0 && st.st_uid != me) ||
		    (st.st_mode & (S_IWGRP | S_IWOTH))) {
			fprintf(stderr, APP ": %s/%s: %s in the state directory; refused\n",
				dir, de->d_name, S_ISLNK(st.st_mode) ? "a symbolic link" :
				"a file another user owns or may write");
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

static void
configure_netsnmp(const struct settings *st)
{
	if (!st->logging_set) {
		if (st->foreground)
			snmp_enable_stderrlog();
		else
			snmp_enable_syslog_ident(APP, LOG_DAEMON);
	}
	if (st->state_dir) {
		/* absolute: it is used after the daemon has moved to / */
		char *dir = absolute_path(st->state_dir);

		/* Both: state is written only there, and no system-wide file
		 * changes what this agent does behind the operator's back. */
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
				      NETSNMP_DS_LIB_PERSISTENT_DIR,
				      dir ? dir : st->state_dir);
		netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID,
				      NETSNMP_DS_LIB_CONFIGURATION_DIR,
				      dir ? dir : st->state_dir);
		free(dir); /* the library keeps copies */
	}
	/* Serving needs no MIB files: do not load (and warn about) the
	 * default modules, unless the operator asked for some. */
	setenv("MIBS", "", 0);
	if (st->listen) {
		netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
				      NETSNMP_DS_AGENT_PORTS, st->listen);
		/* one log line per request would drown everything else */
		netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
				       NETSNMP_DS_AGENT_DONT_LOG_TCPWRAPPERS_CONNECTS, 1);
	} else {
		netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
				       NETSNMP_DS_AGENT_ROLE, 1);
		if (st->agentx_socket)
			netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
					      NETSNMP_DS_AGENT_X_SOCKET,
					      st->agentx_socket);
	}
}

static int
run(struct settings *st)
{
	struct sigaction sa;
	int rc;

	if (st->state_dir && check_state_dir(st->state_dir) < 0)
		return 1;
	configure_netsnmp(st);
	if (!st->foreground && netsnmp_daemonize(1, snmp_stderrlog_status()) != 0) {
		snmp_log(LOG_ERR, APP ": cannot become a daemon\n");
		return 1;
	}
	/* The agent library would open an SMUX listener (TCP *:199) for a
	 * process running as root: nothing but the configured address may
	 * listen. */
	add_to_init_list("-smux");
	init_agent(APP);
	if (st->listen) {
		init_vacm_config_tokens();
		init_vacm_vars();
		init_system_mib();  /* sysUpTime, the reference of TimeStamps */
		init_sysORTable();
	} else {
		fastmib_agentx_limit_responses();
		/* init_agent() reset the AgentX defaults; a short ping lets the
		 * subagent notice a restarted snmpd within seconds. */
		netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
				   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL,
				   st->ping > 0 ? (int)st->ping : 2);
	}
	init_snmp(APP);
	if (st->listen && init_master_agent() != 0) {
		snmp_log(LOG_ERR, APP ": cannot listen on %s\n", st->listen);
		snmp_shutdown(APP);
		return 1;
	}
	rc = fastmib_agent_start(st->agent, st->check_period > 0
				 ? (unsigned int)st->check_period : 0);
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
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a vanished master is seen by the ping */
	snmp_log(LOG_INFO, APP " %s: %u segment(s), %u ports source(s), %s %s\n",
		 FASTMIB_VERSION, fastmib_agent_count(st->agent),
		 fastmib_ports_count(st->ports),
		 st->listen ? "listening on" : "AgentX via",
		 st->listen ? st->listen
			    : st->agentx_socket ? st->agentx_socket : "default socket");
	while (!stop_requested)
		agent_check_and_process(1); /* a signal interrupts the wait */
	snmp_log(LOG_INFO, APP ": stopping\n");
	fastmib_ports_destroy(st->ports);
	st->ports = NULL;
	fastmib_agent_destroy(st->agent);
	st->agent = NULL;
	snmp_shutdown(APP);
	return 0;
}

int
main(int argc, char **argv)
{
	struct settings st = { .ping = -1, .check_period = -1, .ev_history = -1,
			       .notify_rate = -1, .notify_burst = -1,
			       .ifindex_base = -1, .ports_timeout = -1 };
	int status;

	if (fastmib_agent_create(&st.agent) < 0 || fastmib_ports_create(&st.ports) < 0) {
		fprintf(stderr, APP ": out of memory\n");
		return 1;
	}
	status = parse_args(argc, argv, &st);
	if (status < 0)
		status = run(&st);
	fastmib_ports_destroy(st.ports);
	fastmib_agent_destroy(st.agent);
	return status;
}
