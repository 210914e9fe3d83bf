/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: serve fastmib segments over SNMP, as an AgentX subagent
 * of snmpd (default) or as a standalone agent on its own UDP port
 * (--listen). The serving itself is the core (core.h); this file runs the
 * front end: Net-SNMP's set-up, the start (everything opened before the
 * daemon detaches, so that the exit status says whether it started), the
 * main loop and its signals. The command line is options.c's, the
 * configuration files directives.c's, what they give and the reload
 * config.c's, the settings they give values.c's, the
 * state directory state.c's, the pid file and the change of user
 * privileges.c's, the AgentX connection's diagnosis connect.c's,
 * responses too big for the master size.c's, the status shown by the
 * service manager (snmpd's answers to the registrations) status.c's.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "connect.h"
#include "directives.h"
#include "options.h"
#include "privileges.h"
#include "size.h"
#include "state.h"
#include "status.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

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
static volatile sig_atomic_t stop_requested, reload_requested;

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_requested = 1;
	else
		stop_requested = 1;
}

/*
 * Net-SNMP reads the persistent directory it was given unless a
 * "[snmp] persistentDir" line moved it; the state directory was checked,
 * that one was not.
 */
static int
keep_state_dir(int major, int minor, void *serverarg, void *clientarg)
{
	const char *want = fmx_cfg->state_path ? fmx_cfg->state_path : NO_STATE_DIR;

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
	struct fmx_settings *st = fmx_cfg;
	unsigned int errors = fmx_count_errors_end(st);
	long ping = fmx_setting(st, FMA_SETTING_PING);

	(void)major, (void)minor, (void)serverarg, (void)clientarg;
	if (errors) {
		snmp_log(LOG_ERR, APP ": %u error(s) in the configuration; not started\n",
			 errors);
		exit(1);
	}
	if (fmx_config_check(st) < 0)
		exit(1);
	fmx_apply(st, false);
	if (!st->listen.value) {
		/* always a socket of ours: Net-SNMP's messages would say [NIL] */
		netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET,
				      fmx_agentx_socket(st));
		/* ours over Net-SNMP's agentxPingInterval; a short ping lets
		 * the subagent notice a restarted snmpd within seconds */
		if (ping > 0)
			netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
					   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, (int)ping);
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

/* Where Net-SNMP keeps its state, and which files it reads. */
static void
configure_files(const struct fmx_settings *st)
{
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
}

/* Net-SNMP's library, before init_agent(): logging, files, the agent's
 * role, our directives and the callbacks of the configuration read. */
static void
configure_netsnmp(struct fmx_settings *st)
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
	configure_files(st);
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
		fmx_connect_quiet();
	}
	fmx_register_directives();
	/* Anything logged as an error while the files are read is a
	 * configuration error: counted, and the start stops once they are
	 * all read and reported (config_read()). */
	fmx_count_errors_begin(st);
	netsnmp_register_callback(SNMP_CALLBACK_LIBRARY,
				  SNMP_CALLBACK_POST_PREMIB_READ_CONFIG, keep_state_dir,
				  NULL, NETSNMP_CALLBACK_HIGHEST_PRIORITY);
	/* no client argument: snmp_shutdown() frees those */
	netsnmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_POST_READ_CONFIG,
				  config_read, NULL, NETSNMP_CALLBACK_HIGHEST_PRIORITY);
}

/* Net-SNMP's agent, before the configuration is read. */
static void
init_library(struct fmx_settings *st)
{
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
		fmx_limit_responses();
		/* init_agent() set Net-SNMP's default (15 s); ours is 2 s
		 * unless --ping or a configuration line says otherwise */
		netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
				   NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 2);
	}
}

/* -H: every directive the configuration files may hold, as snmpd -H. */
static int
print_directives(struct fmx_settings *st)
{
	char out[] = "o";

	configure_netsnmp(st);
	init_library(st);
	/* Net-SNMP prints the list through its log: to stdout, as snmpd -H */
	snmp_disable_log();
	snmp_log_options(out, 0, NULL);
	printf("Directives of " APP ".conf, " APP ".local.conf and -c files:\n");
	fflush(stdout);
	read_config_print_usage("  ");
	return 0;
}

/* What stops the start before anything is served; -1 after a message. */
static int
open_everything(struct fmx_settings *st)
{
	int rc;

	if (st->listen.value && init_master_agent() != 0) {
		if (st->listen.origin[0])
			snmp_log(LOG_ERR, "%s: Error: cannot listen on %s\n",
				 st->listen.origin, st->listen.value);
		else
			snmp_log(LOG_ERR, APP ": cannot listen on %s\n", st->listen.value);
		return -1;
	}
	/* A daemon that cannot reach snmpd would serve nothing while its
	 * start reported success; in the foreground (systemd) it retries. */
	if (!st->listen.value && !st->foreground && !fmx_connected()) {
		const char *sock = netsnmp_ds_get_string(NETSNMP_DS_APPLICATION_ID,
							 NETSNMP_DS_AGENT_X_SOCKET);
		char why[256];

		snmp_log(LOG_ERR, APP ": %s: cannot connect to the AgentX master: %s; not "
			 "started (with -f the agent keeps retrying)\n", sock,
			 fmx_connect_problem(sock, why, sizeof(why))[0] ? why
			 : "the master refused the session");
		return -1;
	}
	if (!st->listen.value)
		fmx_status_start();
	rc = fma_start(st->agent, (unsigned int)(fmx_setting(st, FMA_SETTING_CHECK) > 0
				 ? fmx_setting(st, FMA_SETTING_CHECK) : 0));
	if (rc < 0) {
		snmp_log(LOG_ERR, APP ": cannot start: %s\n", strerror(-rc));
		return -1;
	}
	rc = fmp_ports_start(st->ports);
	if (rc < 0) {
		snmp_log(LOG_ERR, APP ": cannot start the ports: %s\n", strerror(-rc));
		return -1;
	}
	return 0;
}

static void
serve(struct fmx_settings *st)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: the wait returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a vanished master is seen by the ping */
	snmp_log(LOG_INFO, APP " %s: %u segment(s), %u ports source(s), %s %s\n",
		 FASTMIB_VERSION, fma_count(st->agent),
		 fmp_ports_count(st->ports),
		 st->listen.value ? "listening on" : "AgentX via",
		 st->listen.value ? st->listen.value
				  : netsnmp_ds_get_string(NETSNMP_DS_APPLICATION_ID,
							  NETSNMP_DS_AGENT_X_SOCKET));
	if (!st->listen.value)
		fmx_connect_watch(netsnmp_ds_get_string(NETSNMP_DS_APPLICATION_ID,
							NETSNMP_DS_AGENT_X_SOCKET),
				  (unsigned int)netsnmp_ds_get_int(
					  NETSNMP_DS_APPLICATION_ID,
					  NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL));
	while (!stop_requested) {
		agent_check_and_process(1); /* a signal interrupts the wait */
		if (reload_requested) {
			reload_requested = 0;
			/* as snmpd: reopen the log files (logrotate), read the
			 * configuration again */
			netsnmp_logging_restart();
			fmx_reload(st);
		}
	}
	snmp_log(LOG_INFO, APP ": stopping\n");
}

static int
run(struct fmx_settings *st, const struct fmx_identity *id)
{
	if (fmx_choose_state_dir(st, id) < 0)
		return 1;
	/* A pid file that cannot be written stops the start while the
	 * terminal still sees why; it is written once the daemon runs. */
	if (st->pid_file && fmx_pidfile_check(st->pid_file) < 0)
		return 1;
	configure_netsnmp(st);
	init_library(st);
	init_snmp(APP);     /* reads the configuration: config_read() */
	/* a standalone agent serves no kernel interface to keep clear of */
	fmp_ports_config_mode(st->ports, st->listen.value ? FMP_PORTS_STANDALONE
			       : FMP_PORTS_AGENTX);
	/* the ifIndex, ifAlias and notification setting of each device */
	fmp_ports_config_state_dir(st->ports, st->state_path);
	if (open_everything(st) < 0)
		goto fail;
	/* As snmpd: detach once everything is open, so that the exit status
	 * of the command says whether the agent started. */
	if (st->startup_stderr)
		snmp_disable_stderrlog();
	if (!st->foreground && netsnmp_daemonize(1, snmp_stderrlog_status()) != 0) {
		snmp_log(LOG_ERR, APP ": cannot become a daemon\n");
		goto fail;
	}
	if (st->pid_file && fmx_pidfile_write(st->pid_file) < 0)
		goto fail;
	if (fmx_identity_assume(id) < 0) {
		if (st->pid_file)
			fmx_pidfile_remove(st->pid_file);
		goto fail;
	}
	if (id->change_user || id->change_group)
		fmx_report_access(st, id);
	serve(st);
	fmp_ports_destroy(st->ports);
	st->ports = NULL;
	fma_destroy(st->agent);
	st->agent = NULL;
	snmp_shutdown(APP);
	if (st->pid_file)
		fmx_pidfile_remove(st->pid_file);
	return 0;
fail:
	snmp_shutdown(APP);
	return 1;
}

int
main(int argc, char **argv)
{
	struct fmx_settings st;
	struct fmx_identity id;
	int status;

	fmx_settings_init(&st);
	if (fma_create(&st.agent) < 0 || fmp_ports_create(&st.ports) < 0) {
		fprintf(stderr, APP ": out of memory\n");
		return 1;
	}
	status = fmx_parse_args(argc, argv, &st);
	/* who the agent will serve as, and how Net-SNMP starts: before it
	 * starts, while a mistake still stops the command with a message */
	if (status < 0 && (fmx_identity_resolve(&id, st.user, st.group) < 0 ||
			   fmx_config_early(&st) < 0))
		status = 1;
	if (status < 0)
		status = st.print_directives ? print_directives(&st) : run(&st, &id);
	fmp_ports_destroy(st.ports);
	fma_destroy(st.agent);
	fmx_settings_free(&st);
	return status;
}
