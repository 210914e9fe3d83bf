/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports as a whole (ports.h): the configured applications and their
 * life cycle (add, reload, start, destroy), their settings, the periodic
 * check of every application, and what follows each check: rows,
 * registrations, notifications. The top of the ports' code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confset.h"
#include "ports_priv.h"

/*
 * Rows follow the samples complete, in the order of the sources: while an
 * application's sample is still cut in slices, those configured after it
 * wait for it, so that applications sampled together take their new
 * ifIndex values in blocks in that order (as fastmib-stat gives them from
 * an empty state), however their samples were sliced.
 */
static void
fmp_ports_follow(struct fmp_ports *ports)
{
	for (unsigned int i = 0; i < ports->n_srcs; i++) {
		struct fmp_src *s = ports->srcs[i];

		if (s->sample_n)
			return;
		if (s->sampled) {
			s->sampled = false;
			if (s->up)
				fmp_src_follow(s);
		}
	}
}

static void fmp_continue(unsigned int reg, void *arg);

/* After a check or a part of one: rows, registrations, notifications, and
 * the next part of a sample that was cut. */
static void
fmp_ports_settle(struct fmp_ports *ports)
{
	bool more = false;

	fmp_ports_follow(ports);
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		more |= ports->srcs[i]->sample_n > 0;
	if (more && !ports->continue_alarm)
		ports->continue_alarm = snmp_alarm_register(0, 0, fmp_continue, ports);
	if (ports->rows_changed) {
		fmp_rows_sync(ports);
		ports->rows_changed = false;
	}
	fmp_reg_sync(ports);
	fmp_notify_flush(ports);
}

/* The periodic check of every application, and what follows it. */
static void
fmp_ports_check(struct fmp_ports *ports)
{
	uint64_t until = fastmib_monotonic_ns() + FMP_CHECK_SLICE_NS;

	for (unsigned int i = 0; i < ports->n_srcs; i++)
		fmp_src_check(ports->srcs[i], until);
	fmp_ports_settle(ports);
}

static void
fmp_continue(unsigned int reg, void *arg)
{
	struct fmp_ports *ports = arg;
	uint64_t until = fastmib_monotonic_ns() + FMP_CHECK_SLICE_NS;

	(void)reg;
	ports->continue_alarm = 0;
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		if (ports->srcs[i]->sample_n)
			fmp_src_sample_step(ports->srcs[i], until);
	fmp_ports_settle(ports);
}

static void
fmp_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fmp_ports_check(arg);
}

/* ---- configuration ---- */

int
fmp_ports_create(struct fmp_ports **portsp)
{
	struct fmp_ports *ports = calloc(1, sizeof(*ports));

	*portsp = ports;
	if (!ports)
		return -ENOMEM;
	ports->mode = FMP_PORTS_AGENTX;
	ports->base = FME_IFINDEX_BASE;
	ports->timeout_ms = FMP_PORTS_TIMEOUT_MS;
	ports->trap_rate = FMP_PORTS_TRAP_RATE;
	if (fme_portmap_new(&ports->map) < 0) {
		free(ports);
		*portsp = NULL;
		return -ENOMEM;
	}
	return 0;
}

void
fmp_ports_config_mode(struct fmp_ports *ports, enum fmp_ports_mode mode)
{
	ports->mode = mode;
}

/* The applications as a configured set (confset.h). */
static const char *
fmp_src_path(const void *elem)
{
	return (*(struct fmp_src *const *)elem)->path;
}

static bool *
fmp_src_confirmed(void *elem)
{
	return &(*(struct fmp_src **)elem)->confirmed;
}

static void
fmp_src_drop(void *elem)
{
	struct fmp_src *s = *(struct fmp_src **)elem;

	snmp_log(LOG_INFO, "fastmib: ports %s: no longer configured, not served\n", s->epath);
	fmp_src_free(s);
}

static const struct fma_confset_ops fmp_srcs_conf = {
	.size = sizeof(struct fmp_src *),
	.path = fmp_src_path,
	.confirmed = fmp_src_confirmed,
	.drop = fmp_src_drop,
	.max = FMP_PORTS_MAX_SOURCES,
};

int
fmp_ports_add(struct fmp_ports *ports, const char *spec)
{
	char path[4096];
	uint32_t base;
	struct fmp_src **srcs, *s;
	void *named;
	int rc = fme_port_source_parse(spec, path, sizeof(path), &base);

	if (rc < 0)
		return rc;
	rc = fma_confset_add(&fmp_srcs_conf, ports->srcs, ports->n_srcs, path, &named);
	if (rc < 0)
		return rc;
	if (named) {
		(*(struct fmp_src **)named)->own_base = base;
		return 0;
	}
	srcs = realloc(ports->srcs, (ports->n_srcs + 1) * sizeof(*srcs));
	if (!srcs)
		return -ENOMEM;
	ports->srcs = srcs;
	s = fmp_src_new(ports, path, base);
	if (!s)
		return -ENOMEM;
	s->confirmed = true;
	ports->srcs[ports->n_srcs++] = s;
	return 0;
}

int
fmp_ports_config_base(struct fmp_ports *ports, uint32_t base)
{
	if (base < 1 || base > FME_IFINDEX_MAX)
		return -EINVAL;
	ports->base = base;
	return 0;
}

int
fmp_ports_config_timeout(struct fmp_ports *ports, unsigned int ms)
{
	if (ms < 1 || ms > FMP_PORTS_TIMEOUT_MAX)
		return -EINVAL;
	ports->timeout_ms = ms;
	return 0;
}

int
fmp_ports_config_link_trap_rate(struct fmp_ports *ports, unsigned int per_s)
{
	if (per_s > FMP_PORTS_TRAP_RATE_MAX)
		return -EINVAL;
	ports->trap_rate = per_s;
	fma_limit_init(&ports->link_limit, "fastmib: ports: ", "linkUp/linkDown notification(s)",
		       per_s, per_s);
	return 0;
}

int
fmp_ports_config_state_dir(struct fmp_ports *ports, const char *dir)
{
	char *copy = dir ? strdup(dir) : NULL;

	if (dir && !copy)
		return -ENOMEM;
	free(ports->state_dir);
	ports->state_dir = copy;
	return 0;
}

/* Labels (ifName) follow the list of sources: a prefix only with several. */
static void
fmp_relabel(struct fmp_ports *ports)
{
	const char **paths = calloc(ports->n_srcs ? ports->n_srcs : 1, sizeof(*paths));
	char (*labels)[FME_PORT_LABEL_MAX] = calloc(ports->n_srcs ? ports->n_srcs : 1,
							 sizeof(*labels));

	if (!paths || !labels) {
		free(paths);
		free(labels);
		return;
	}
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		paths[i] = ports->srcs[i]->path;
	fme_port_labels(paths, ports->n_srcs, labels);
	free(paths);
	free(ports->labels);
	ports->labels = labels;
	for (unsigned int i = 0; i < ports->n_srcs; i++) {
		struct fmp_src *s = ports->srcs[i];

		s->label = ports->n_srcs > 1 ? ports->labels[i] : NULL;
		for (unsigned int j = 0; j < s->n_ports; j++)
			if (s->ports[j]->row.entry)
				fme_port_ifname(s->label, s->ports[j]->dev.name,
						    s->ports[j]->row.ifname,
						    sizeof(s->ports[j]->row.ifname));
	}
}

void
fmp_ports_reload_begin(struct fmp_ports *ports)
{
	fma_confset_begin(&fmp_srcs_conf, ports->srcs, ports->n_srcs);
	ports->base = FME_IFINDEX_BASE; /* unless the configuration says again */
}

unsigned int
fmp_ports_reload_end(struct fmp_ports *ports)
{
	unsigned int dropped = fma_confset_end(&fmp_srcs_conf, ports->srcs, &ports->n_srcs);

	if (dropped)
		ports->rows_changed = true;
	fmp_relabel(ports);
	if (ports->alarm)
		fmp_ports_check(ports);
	return dropped;
}

unsigned int
fmp_ports_count(const struct fmp_ports *ports)
{
	return ports ? ports->n_srcs : 0;
}

int
fmp_ports_start(struct fmp_ports *ports)
{
	struct timeval tv = { 0, FMP_PORTS_CHECK_MS * 1000 };
	int rc;

	if (ports->alarm)
		return -EALREADY;
	if (ports->n_srcs == 0)
		return 0;
	fmp_map_load(ports);
	fma_limit_init(&ports->link_limit, "fastmib: ports: ", "linkUp/linkDown notification(s)",
		       ports->trap_rate, ports->trap_rate);
	fmp_relabel(ports);
	rc = fmp_reg_start(ports);
	if (rc < 0)
		return rc;
	ports->starting = true;
	fmp_ports_check(ports);
	ports->starting = false;
	ports->alarm = snmp_alarm_register_hr(tv, SA_REPEAT, fmp_alarm, ports);
	return ports->alarm ? 0 : -ENOMEM;
}

void
fmp_ports_destroy(struct fmp_ports *ports)
{
	if (!ports)
		return;
	if (ports->alarm)
		snmp_alarm_unregister(ports->alarm);
	if (ports->continue_alarm)
		snmp_alarm_unregister(ports->continue_alarm);
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		fmp_src_free(ports->srcs[i]);
	ports->n_srcs = 0;
	fmp_rows_sync(ports);
	fmp_reg_stop(ports, true);
	fmp_notify_free(ports);
	fmp_set_free(ports);
	fmp_rows_free(&ports->rows);
	fme_portmap_free(ports->map);
	free(ports->srcs);
	free(ports->labels);
	free(ports->state_dir);
	free(ports);
}
