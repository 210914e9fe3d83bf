/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's connection to the AgentX master: why it fails. Net-SNMP
 * says only "Failed to connect to the agentx master agent (PATH): ", at
 * every retry and with no reason; this part says once, and again whenever
 * the reason changes, what connect() answered (errno text and the path),
 * and when the master is reached again.
 */
#ifndef FASTMIB_AGENTX_CONNECT_H
#define FASTMIB_AGENTX_CONNECT_H

#include <stdbool.h>
#include <stddef.h>

/* The socket the subagent uses: `configured`, else Net-SNMP's default. */
const char *fmx_socket_in_use(const char *configured);

/* Is the AgentX session to the master up? */
bool fmx_connected(void);

/* Why connecting to `sock` fails now, in buf ("" if it succeeds). */
const char *fmx_connect_problem(const char *sock, char *buf, size_t len);

/*
 * Watch the session: silence Net-SNMP's own message (before init_snmp()),
 * then log the reasons as above, checking every `period_s` seconds.
 */
void fmx_connect_quiet(void);
void fmx_connect_watch(const char *sock, unsigned int period_s);

#endif
