/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-exporter's command line, in the Prometheus exporters' style
 * (--web.listen-address, --web.telemetry-path, --web.config.file,
 * --log.level, --version), and its segments as fastmib-agentx takes
 * them: positional arguments, and `segment PATH` lines of the -c files
 * (Net-SNMP's configuration syntax; the same file may configure both
 * programs: the lines of the agent and of Net-SNMP are left to them).
 */
#ifndef FME_OPTIONS_H
#define FME_OPTIONS_H

#include "push.h"
#include "segset.h"

#define FME_APP "fastmib-exporter"
#define FME_MAX_LISTEN 16
/* Not yet a port of the Prometheus wiki's allocations: say so in the docs. */
#define FME_DEFAULT_LISTEN ":9949"

struct fme_options {
	const char *listen[FME_MAX_LISTEN];
	unsigned int n_listen;
	const char *telemetry_path;
	const char *web_config;
	char *segments[FME_MAX_SEGMENTS]; /* absolute */
	unsigned int n_segments;
	char *ports[FME_MAX_SEGMENTS]; /* "PATH[,BASE]", as the agent's */
	unsigned int n_ports;
	const char *ports_state_dir;
	struct fme_push_config push; /* url NULL: no push */
};

/* -1 to go on, else the exit status (0 after --help or --version, 1 after
 * a message on stderr). */
int fme_parse_args(int argc, char **argv, struct fme_options *opt);
void fme_options_free(struct fme_options *opt);

/** A duration in Prometheus' syntax ("15s", "1m30s", "200ms", "0"; units
 *  y w d h m s ms, each at most once, largest first) in ms: 0 or -EINVAL. */
int fme_parse_duration(const char *s, uint64_t *ms);

/** A size in bytes: digits with an optional unit (B, KiB/KB, MiB/MB,
 *  GiB/GB: powers of 1024, as Prometheus' sizes): 0 or -EINVAL. */
int fme_parse_size(const char *s, uint64_t *bytes);

#endif
