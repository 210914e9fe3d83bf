/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's settings: the command line, the configuration files,
 * and their reload. What the settings mean and their limits are the
 * shared table of settings.h; this part knows where values come from and
 * which one wins (command line over files, later line over earlier).
 *
 * The files are read by Net-SNMP, as snmpd's are: at start through
 * init_snmp() (every directive, Net-SNMP's own included); on SIGHUP again,
 * this agent's directives only, into a fresh set of values that replaces
 * the one in force only if the files have no error.
 */
#ifndef FASTMIB_AGENTX_CONFIG_H
#define FASTMIB_AGENTX_CONFIG_H

#include <limits.h>
#include <stdbool.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "privileges.h"
#include "core.h"
#include "ports.h"
#include "settings.h"

#define APP "fastmib-agentx"

/* What one source (the command line, or the files) sets. */
struct fmx_values {
	char *segments[FMA_MAX_SEGMENTS]; /* absolute paths */
	unsigned int n_segments;
	char *ports[FASTMIB_PORTS_MAX_SOURCES];      /* absolute PATH[,BASE] */
	unsigned int n_ports;
	long num[FMA_SET_COUNT];                         /* -1: not set */
	char *agentx_socket;
};

/* A setting taken before Net-SNMP starts: from the command line, else
 * from a -c file (origin "FILE: line N"). */
struct fmx_early {
	char *value;
	bool from_cli;
	char origin[PATH_MAX + 32];
	char token[64];     /* the directive that set it */
};

struct fmx_settings {
	bool foreground;
	bool logging_set;          /* -L given */
	bool startup_stderr;       /* stderr logging until the daemon detaches */
	bool no_default_files;     /* -C */
	bool print_directives;     /* -H */
	char *config;              /* -c FILE[,FILE...] */
	char *pid_file;            /* absolute */
	const char *user, *group;
	struct fmx_identity id;
	struct fmx_early listen;
	struct fmx_early state_dir; /* --state-dir, persistentDir, stateDir */
	char *state_path;          /* the state directory in use, absolute, or NULL */
	struct fmx_values cli;     /* the command line: wins over the files */
	struct fmx_values files;   /* the files, as in force */
	struct fmx_values *reading; /* where directives go while files are read */
	bool reloading;
	unsigned int config_errors; /* errors logged while the configuration is read */
	netsnmp_log_handler *error_counter;
	struct fma_agent *agent;
	struct fastmib_ports *ports;
};

/* The settings of this (only) agent: Net-SNMP calls directive handlers
 * and callbacks without a context of ours. */
extern struct fmx_settings *fmx_cfg;

void fmx_settings_init(struct fmx_settings *st);
void fmx_settings_free(struct fmx_settings *st);

/* Command line. Returns -1 to go on, else the exit status. */
int fmx_parse_args(int argc, char **argv, struct fmx_settings *st);

/* The directives, registered with Net-SNMP before init_snmp(). */
void fmx_register_directives(void);

/* Count errors logged from now on (the configuration is being read). */
void fmx_count_errors_begin(struct fmx_settings *st);
unsigned int fmx_count_errors_end(struct fmx_settings *st);

/* The value in force of setting s: command line, else files, else -1. */
long fmx_setting(const struct fmx_settings *st, enum fma_setting s);

/* The AgentX socket of the subagent: the command line's, else the files',
 * else Net-SNMP's default (connect.c's rule). */
const char *fmx_agentx_socket(const struct fmx_settings *st);

/* A path made absolute against the start directory (heap), or NULL. */
char *fmx_absolute_path(const char *path);

/*
 * Give the segment set and the ports what the values name (the command
 * line's first, then the files'), and the numeric settings. At start
 * (reload false) before the set is started; on reload between the sets'
 * reload_begin and reload_end. Returns 0, or -1 after a log message.
 */
int fmx_apply(struct fmx_settings *st, bool reload);

/* Once every file is read at start: the checks that need them all
 * (something to serve, a burst for a rate). -1 after a log message. */
int fmx_config_check(struct fmx_settings *st);

/*
 * SIGHUP: read the files again (this agent's directives only). With no
 * error, the new values replace the old and are applied; otherwise the
 * old stay in force and the log says why.
 */
void fmx_reload(struct fmx_settings *st);

#endif
