/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's settings: what the command line (options.c) and the
 * configuration files (directives.c) set, each source kept apart, and which
 * one wins (command line over files, later line over earlier). What the
 * numeric settings mean and their limits are the shared table of
 * settings.h; the rest of the program reads its settings here.
 */
#ifndef FASTMIB_AGENTX_VALUES_H
#define FASTMIB_AGENTX_VALUES_H

#include <limits.h>
#include <stdbool.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "core.h"
#include "ports.h"
#include "settings.h"

#define APP "fastmib-agentx"

/* What one source (the command line, or the files) sets. */
struct fmx_values {
	char *segments[FMA_MAX_SEGMENTS];       /* absolute paths */
	unsigned int n_segments;
	char *ports[FMP_PORTS_MAX_SOURCES]; /* absolute PATH[,BASE] */
	unsigned int n_ports;
	long num[FMA_SETTING_COUNT];                /* -1: not set */
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
	const char *user, *group;  /* -u, -g as given (privileges.c resolves them) */
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
	struct fmp_ports *ports;
};

/* The settings of this (only) agent: Net-SNMP calls directive handlers
 * and callbacks without a context of ours. Set by fmx_settings_init(). */
extern struct fmx_settings *fmx_cfg;

/* Called by main() first and last. */
void fmx_settings_init(struct fmx_settings *st);
void fmx_settings_free(struct fmx_settings *st);

/* Empty `v`, freeing what it holds: every number back to -1 (not set). */
void fmx_values_reset(struct fmx_values *v);

/*
 * Add a segment, or a ports source PATH[,BASE], to `v`, its path made
 * absolute; one named twice is kept once. Returns 0, or -1 after an
 * error reported where the value came from: on stderr for the command
 * line (config_line false), as a configuration error of the line being
 * read (file and line, counted) for a file.
 */
int fmx_add_segment(struct fmx_values *v, const char *name, bool config_line);
int fmx_add_ports(struct fmx_values *v, const char *spec, bool config_line);

/* The value in force of setting s: command line, else files, else -1. */
long fmx_setting(const struct fmx_settings *st, enum fma_setting s);

/* The AgentX socket of the subagent: the command line's, else the files',
 * else Net-SNMP's default (connect.c's rule). */
const char *fmx_agentx_socket(const struct fmx_settings *st);

/* A path made absolute against the start directory (heap), or NULL. */
char *fmx_absolute_path(const char *path);

/* A copy of `s` (heap) for the settings to keep; out of memory, the
 * process exits with status 1 after a message. */
char *fmx_keep(const char *s);

#endif
