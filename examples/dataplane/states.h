/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The states of the example data plane (the model's `states:`), set by the
 * main lcore alone: the application's version and start time once, each
 * port's name, link and speed at start and whenever the device reports a
 * change, and each server's status and when it last got a packet. The
 * fast path never sets a state (states.c says why).
 */
#ifndef EXAMPLE_STATES_H
#define EXAMPLE_STATES_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "ep_stats.h"

struct app;

/* How often the slow path looks at the links and the servers' counters,
 * and how long a server may go without a packet and still be active. */
#define STATES_LOOK_NS 100000000ull
#define SERVER_IDLE_NS 1000000000ull

/* What the main lcore last set, for its next look and the summary. */
struct app_states {
	struct ep_app_state app;
	struct ep_port_state port[EP_PORT_ROWS];  /* by port id */
	struct ep_server_state server[EP_SERVER_ROWS];
	uint64_t server_pkts[EP_SERVER_ROWS]; /* the row's packets at the last look */
	bool server_known[EP_SERVER_ROWS];    /* present at the last look */
};

/* The application's states (`start_ns`: when it started, ns since the
 * epoch) and every port's; 0 or a negative errno (message on stderr). */
int states_start(struct app *app, uint64_t start_ns);

/* One look at the links and the servers' packet counters at `now`
 * (fastmib_monotonic_ns()): the states of what changed are set. */
void states_look(struct app *app, uint64_t now);

/* What the last sets gave, in the shape of the model: {"port": [rows],
 * "server": [rows], "app": {...}}, a row {"index", "states"} (a server's
 * with its "key"), each state by its model name, as its C value (an enum
 * its number, a timestamp its fastmib_monotonic_ns(), a date-and-time
 * its ns since the epoch). */
json_t *states_json(const struct app *app);

#endif /* EXAMPLE_STATES_H */
