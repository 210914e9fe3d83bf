/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports' rows and the port map: a device bound to its entry (its
 * ifIndex, ifName, ifAlias, ifLinkUpDownTrapEnable), set free again when
 * its port goes, and the map read from and written to the state
 * directory, its errors said once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ports_priv.h"

static bool
fmp_beside_kernel(const struct fmp_ports *ports)
{
	return ports->mode != FMP_PORTS_STANDALONE;
}

/* The port map from the state directory; its errors said once, at start. */
void
fmp_map_load(struct fmp_ports *ports)
{
	int rc;

	if (!ports->state_dir) {
		snmp_log(LOG_INFO, "fastmib: ports: no state directory: ifIndex values and "
			 "ifAlias settings last until the agent stops\n");
		return;
	}
	rc = fme_portmap_load(ports->map, ports->state_dir);
	if (rc < 0)
		snmp_log(LOG_ERR, "fastmib: ports: %s", fme_portmap_errors(ports->map));
	else
		DEBUGMSGTL(("fastmib_ports", "port map %s: %u device(s)\n",
			    fme_portmap_path(ports->map), fme_portmap_count(ports->map)));
}

void
fmp_map_save(struct fmp_ports *ports)
{
	int rc = fme_portmap_save(ports->map);

	if (rc == 0 || rc == -ENOENT) {
		ports->map_unsaved_logged = false;
		return;
	}
	if (ports->map_unsaved_logged)
		return;
	ports->map_unsaved_logged = true;
	if (rc == -EINVAL)
		snmp_log(LOG_WARNING, "fastmib: ports: %s is not rewritten while it has the "
			 "errors logged at start: new ifIndex values and ifAlias settings "
			 "last until the agent stops\n", fme_portmap_path(ports->map));
	else
		snmp_log(LOG_ERR, "fastmib: ports: %s", fme_portmap_errors(ports->map));
}

static uint32_t
fmp_base_of(const struct fmp_src *s)
{
	return s->own_base ? s->own_base : s->owner->base;
}

/* The device at this port id gets its entry in the map: its ifIndex. */
void
fmp_bind(struct fmp_port *p, bool *created, char *names, size_t *used, size_t size)
{
	struct fmp_src *s = p->src;
	struct fmp_ports *ports = s->owner;
	struct fme_portmap_entry *e;
	bool made;
	int err;

	e = fme_port_ifindex(ports->map, s->path, fmp_base_of(s), p->dev.name,
				 p->dev.mac_ok ? p->dev.mac : NULL,
				 fmp_beside_kernel(ports) ? fme_port_kernel_ifindex : NULL, NULL, &made, &err);
	if (!e || e->in_use) {
		const char *why = !e ? (err == -ENOSPC ? "no ifIndex left above its base"
					: "out of memory")
				  : "its device is served for another port id";

		if (p->row.refused != why) {
			char name[4 * FME_PORT_NAME_MAX + 1];

			snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (%s) not served: %s\n",
				 s->epath, p->id, fme_escape_str(p->dev.name, name, sizeof(name)),
				 why);
		}
		p->row.refused = why;
		return;
	}
	e->in_use = true;
	p->row.entry = e;
	fme_port_ifname(s->label, p->dev.name, p->row.ifname, sizeof(p->row.ifname));
	*created |= made;
	if (made && *used + 8 < size) {
		char name[4 * FME_PORT_NAME_MAX + 1];
		int n = snprintf(names + *used, size - *used, "%s%s=%u", *used ? ", " : "",
				 fme_escape_str(p->dev.name, name, sizeof(name)), e->ifindex);

		if (n > 0 && *used + (size_t)n < size - 4)
			*used += (size_t)n;
		else
			*used += (size_t)snprintf(names + *used, size - *used, "...");
	}
}

void
fmp_unbind(struct fmp_port *p)
{
	if (p->row.served)
		p->src->owner->rows_changed = true;
	p->row.served = false;
	if (p->row.entry)
		p->row.entry->in_use = false;
	p->row.entry = NULL;
	p->req.valid = false;
}

/* Why a bound port cannot be served now, or NULL. */
const char *
fmp_obstacle(const struct fmp_port *p, char *kname)
{
	if (fmp_beside_kernel(p->src->owner) &&
	    fme_port_kernel_ifindex(p->row.entry->ifindex, kname))
		return "its ifIndex is a kernel interface's (choose another, see "
		       "\"ifIndex\" in docs/if-mib.md)";
	return NULL;
}
