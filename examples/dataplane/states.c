/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The example's states, set by the main lcore (states.h).
 *
 * A server's status and the moment it last got a packet come from the
 * segment's own counters, not from the fast path: every 100 ms the main
 * lcore reads each server row's packet counter (fastmib_read_raw(), which
 * no SNMP reset moves) and, when it moved since the last look, sets the
 * row active with the moment of this look. The packet is then dated to
 * within one look, and the workers do nothing more than count it, as
 * they did before: a state set per packet, or per burst, would put a
 * seqlock publication (and a look at the clock) into the loop that the
 * counters keep to a few adds, for a moment that an NMS reads in
 * hundredths of a second anyway. The price on the fast path is the cache
 * lines of the server rows this look reads: 256 rows, ten times a second.
 *
 * Links are looked at on the same tick: rte_eth_link_get_nowait() works
 * with every driver, where a link status interrupt (LSC) needs one that
 * raises it (net_null and net_ring do not). A row's name, link and speed
 * are set together, so a reader never sees a new link with an old speed;
 * a set that changes the link sends epPortLinkChange (the agent sends it),
 * and a look that finds the link as it was sets nothing.
 */
#include "states.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "app.h"

#ifndef EXAMPLE_VERSION
#define EXAMPLE_VERSION "unknown"
#endif

/* rte_eth_dev_get_name_by_port() writes up to RTE_ETH_NAME_MAX_LEN bytes:
 * the model's size of port.name holds every ethdev name. */
_Static_assert(sizeof(((struct ep_port_state *)NULL)->name) >= RTE_ETH_NAME_MAX_LEN,
	       "port.name is shorter than an ethdev name");

/* A port's states as the device reports them now. */
static void
port_states(uint16_t port, struct ep_port_state *st)
{
	struct rte_eth_link link;

	memset(st, 0, sizeof(*st));
	if (rte_eth_dev_get_name_by_port(port, st->name) != 0)
		st->name[0] = '\0';
	if (rte_eth_link_get_nowait(port, &link) != 0) {
		st->link = EP_PORT_LINK_DOWN;
		return;
	}
	st->link = link.link_status == RTE_ETH_LINK_UP ? EP_PORT_LINK_UP : EP_PORT_LINK_DOWN;
	st->speed = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed;
}

static int
set_port(struct app *app, uint16_t port, const struct ep_port_state *st)
{
	int rc = ep_port_state_set(app->seg, ep_port_row(port), st);

	if (rc < 0) {
		fprintf(stderr, "port %u: %s\n", port, fastmib_last_error());
		return rc;
	}
	app->states.port[port] = *st;
	return 0;
}

int
states_start(struct app *app, uint64_t start_ns)
{
	struct ep_app_state *a = &app->states.app;
	int rc;

	memset(a, 0, sizeof(*a));
	snprintf(a->version, sizeof(a->version), "fastmib-example %s", EXAMPLE_VERSION);
	a->start_time = (int64_t)start_ns;
	rc = ep_app_state_set(app->seg, a);
	if (rc < 0) {
		fprintf(stderr, "application states: %s\n", fastmib_last_error());
		return rc;
	}
	for (uint16_t i = 0; i < app->n_ports; i++) {
		struct ep_port_state st;

		port_states(app->ports[i], &st);
		rc = set_port(app, app->ports[i], &st);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void
look_links(struct app *app)
{
	for (uint16_t i = 0; i < app->n_ports; i++) {
		uint16_t p = app->ports[i];
		struct ep_port_state st;

		port_states(p, &st);
		if (memcmp(&st, &app->states.port[p], sizeof(st)) != 0)
			set_port(app, p, &st);
	}
}

static void
look_servers(struct app *app, uint64_t now)
{
	struct app_states *s = &app->states;
	uint64_t v[2];

	for (uint32_t row = 0; row < EP_SERVER_ROWS; row++) {
		struct ep_server_state st;
		bool known = s->server_known[row];
		int rc;

		s->server_known[row] = fastmib_row_present(app->seg, EP_GROUP_SERVER, row);
		if (!s->server_known[row])
			continue;
		if (!known) {
			/* a new key's row starts with the model's defaults:
			 * idle, never */
			memset(&s->server[row], 0, sizeof(s->server[row]));
			s->server[row].status = EP_SERVER_STATUS_IDLE;
			s->server_pkts[row] = 0;
		}
		if (fastmib_read_raw(app->seg, EP_GROUP_SERVER, row, v) < 0)
			continue; /* a lcore stuck in its transaction: next look */
		st = s->server[row];
		if (v[0] != s->server_pkts[row]) {
			s->server_pkts[row] = v[0];
			st.last_seen = now;
		}
		st.status = st.last_seen && now - st.last_seen < SERVER_IDLE_NS ?
			    EP_SERVER_STATUS_ACTIVE : EP_SERVER_STATUS_IDLE;
		if (memcmp(&st, &s->server[row], sizeof(st)) == 0)
			continue;
		rc = ep_server_state_set(app->seg, row, &st);
		if (rc == 0)
			s->server[row] = st;
		else if (rc != -ENOENT) /* -ENOENT: removed since the look */
			fprintf(stderr, "server row %u: %s\n", row, fastmib_last_error());
	}
}

void
states_look(struct app *app, uint64_t now)
{
	look_links(app);
	look_servers(app, now);
}

json_t *
states_json(const struct app *app)
{
	const struct fastmib_group_schema *g = &ep_schema.groups[EP_GROUP_SERVER];
	const struct app_states *s = &app->states;
	json_t *ports = json_array(), *servers = json_array();

	for (uint16_t i = 0; i < app->n_ports; i++) {
		const struct ep_port_state *st = &s->port[app->ports[i]];

		json_array_append_new(ports, json_pack(
			"{s:[i], s:{s:s, s:i, s:I}}", "index", app->ports[i] + 1,
			"states", "name", st->name, "link", st->link,
			"speed", (json_int_t)st->speed));
	}
	for (uint32_t row = 0; row < EP_SERVER_ROWS; row++) {
		uint8_t key[FASTMIB_MAX_KEY_BYTES];
		uint64_t idx[FASTMIB_MAX_INSTANCE_OID];
		size_t len, n;
		json_t *jx;

		if (!s->server_known[row] ||
		    fastmib_row_key(app->seg, EP_GROUP_SERVER, row, key, &len) != 0)
			continue;
		n = fastmib_key_to_index(g, key, len, idx);
		jx = json_array();
		for (size_t k = 0; k < n; k++)
			json_array_append_new(jx, json_integer((json_int_t)idx[k]));
		json_array_append_new(servers, json_pack(
			"{s:o, s:{s:i, s:I}}", "index", jx, "states",
			"status", s->server[row].status,
			"lastSeen", (json_int_t)s->server[row].last_seen));
	}
	return json_pack("{s:o, s:o, s:{s:s, s:I}}", "port", ports, "server", servers,
			 "app", "version", s->app.version,
			 "startTime", (json_int_t)s->app.start_time);
}
