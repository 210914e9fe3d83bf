/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's command line (options.h): --help, the options and
 * their long names, one per numeric setting from the settings table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "connect.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

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
	for (int i = 0; i < FMA_SETTING_COUNT; i++)
		o[N_FIXED + i] = (struct option){ fma_settings[i].option,
						  required_argument, NULL, OPT_NUMBER + i };
	o[N_FIXED + FMA_SETTING_COUNT] = (struct option){ NULL, 0, NULL, 0 };
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
	e->value = fmx_keep(value);
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

/* -x SOCKET: checked now, as an agentxSocket line is (connect.c's rule). */
static int
set_socket(struct fmx_settings *st, const char *arg)
{
	char why[96];

	if (fmx_socket_problem(arg, why, sizeof(why))) {
		fprintf(stderr, APP ": bad AgentX socket '%s': %s\n", arg, why);
		return 1;
	}
	free(st->cli.agentx_socket);
	st->cli.agentx_socket = fmx_keep(arg);
	return -1;
}

/* -c FILE, repeatable: one comma-separated list, as Net-SNMP takes it. */
static int
add_config(struct fmx_settings *st, const char *arg)
{
	char *both;

	if (!st->config) {
		st->config = fmx_keep(arg);
		return -1;
	}
	both = malloc(strlen(st->config) + strlen(arg) + 2);
	if (!both)
		return 1;
	sprintf(both, "%s,%s", st->config, arg);
	free(st->config);
	st->config = both;
	return -1;
}

/* -p FILE. Before 0.2.0, -p was the ping interval: a bare number is that
 * habit, not a pid file named "2". */
static int
set_pid_file(struct fmx_settings *st, const char *arg)
{
	if (arg[strspn(arg, "0123456789")] == '\0') {
		fprintf(stderr, APP ": -p names the pid file; the AgentX ping "
			"interval is --ping %s\n", arg);
		return 1;
	}
	free(st->pid_file);
	st->pid_file = fmx_absolute_path(arg);
	return st->pid_file ? -1 : 1;
}

/* Option c of getopt_long(); -1 to go on, else the exit status. */
static int
one_option(struct fmx_settings *st, int c, int argc, char **argv)
{
	switch (c) {
	case 'f':
		st->foreground = true;
		return -1;
	case 'x':
		return set_socket(st, optarg);
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
		return add_config(st, optarg);
	case 'C':
		st->no_default_files = true;
		return -1;
	case 'H':
		st->print_directives = true;
		return -1;
	case 'p':
		return set_pid_file(st, optarg);
	case 'u':
		st->user = optarg;
		return -1;
	case 'g':
		st->group = optarg;
		return -1;
	case 'E':
		return set_number(st, FMA_SETTING_EV_HISTORY, optarg) < 0 ? 1 : -1;
	case OPT_STATE_DIR:
		set_early(&st->state_dir, optarg);
		return -1;
	case OPT_LISTEN:
		set_early(&st->listen, optarg);
		return -1;
	case OPT_PORTS:
		return fmx_add_ports(&st->cli, optarg, false) < 0 ? 1 : -1;
	case 'h':
		usage(stdout);
		return 0;
	case 'v':
	case 'V': /* the version until 0.2.0; snmpd's is -v */
		printf(APP " " FASTMIB_VERSION " (net-snmp %s)\n", netsnmp_get_version());
		return 0;
	default:
		if (c >= OPT_NUMBER && c < OPT_NUMBER + FMA_SETTING_COUNT)
			return set_number(st, (enum fma_setting)(c - OPT_NUMBER),
					  optarg) < 0 ? 1 : -1;
		usage(stderr);
		return 1;
	}
}

int
fmx_parse_args(int argc, char **argv, struct fmx_settings *st)
{
	struct option lo[N_FIXED + FMA_SETTING_COUNT + 1];
	int c, rc;

	long_options(lo);
	find_append(argc, argv, lo);
	while ((c = getopt_long(argc, argv, SHORT_OPTS, lo, NULL)) != -1)
		if ((rc = one_option(st, c, argc, argv)) >= 0)
			return rc;
	for (int i = optind; i < argc; i++)
		if (fmx_add_segment(&st->cli, argv[i], false) < 0)
			return 1;
	return -1;
}
