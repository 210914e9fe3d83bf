/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's settings as the command line and the files give them
 * (values.h): each source's values, paths made absolute, and which source
 * wins.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "values.h"
#include "connect.h"

struct fmx_settings *fmx_cfg;

void
fmx_settings_init(struct fmx_settings *st)
{
	memset(st, 0, sizeof(*st));
	fmx_values_reset(&st->cli);
	fmx_values_reset(&st->files);
	st->reading = &st->files;
	fmx_cfg = st;
}

void
fmx_settings_free(struct fmx_settings *st)
{
	fmx_values_reset(&st->cli);
	fmx_values_reset(&st->files);
	free(st->config);
	free(st->pid_file);
	free(st->listen.value);
	free(st->state_dir.value);
	free(st->state_path);
}

char *
fmx_keep(const char *s)
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

void
fmx_values_reset(struct fmx_values *v)
{
	for (unsigned int i = 0; i < v->n_segments; i++)
		free(v->segments[i]);
	for (unsigned int i = 0; i < v->n_ports; i++)
		free(v->ports[i]);
	free(v->agentx_socket);
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < FMA_SETTING_COUNT; i++)
		v->num[i] = -1;
}

/* The telemetry path of a ports source, for comparisons. */
static bool
same_ports_path(const char *a, const char *b)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	uint32_t base;

	return fme_port_source_parse(a, pa, sizeof(pa), &base) == 0 &&
	       fme_port_source_parse(b, pb, sizeof(pb), &base) == 0 && !strcmp(pa, pb);
}

/* A --ports source (or `ports` line), its path made absolute like a segment's. */
int
fmx_add_ports(struct fmx_values *v, const char *spec, bool config_line)
{
	char *abs = fmx_absolute_path(spec);
	char path[PATH_MAX];
	uint32_t base;
	int rc;

	if (!abs) {
		setting_error(config_line, "%s: %s", spec, strerror(errno));
		return -1;
	}
	rc = fme_port_source_parse(abs, path, sizeof(path), &base);
	if (rc == -EINVAL) {
		setting_error(config_line, "ports %s: needs PATH or PATH,BASE with BASE "
			      "in 1..%u", spec, FME_IFINDEX_MAX);
	} else if (rc < 0) {
		setting_error(config_line, "ports %s: %s", spec, strerror(-rc));
	} else {
		for (unsigned int i = 0; i < v->n_ports; i++)
			if (same_ports_path(v->ports[i], abs))
				goto done; /* listed twice: served once */
		if (v->n_ports == FMP_PORTS_MAX_SOURCES) {
			setting_error(config_line, "ports %s: at most %u applications", spec,
				      FMP_PORTS_MAX_SOURCES);
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

int
fmx_add_segment(struct fmx_values *v, const char *name, bool config_line)
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
