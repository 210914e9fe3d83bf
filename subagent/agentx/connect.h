/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's connection to the AgentX master: which socket a setting
 * names, and why connecting fails. Net-SNMP says only "Failed to connect
 * to the agentx master agent (PATH): ", at every retry and with no reason;
 * this part says once, and again whenever the reason changes, what
 * connect() answered (errno text and the path), and when the master is
 * reached again.
 */
#ifndef FASTMIB_AGENTX_CONNECT_H
#define FASTMIB_AGENTX_CONNECT_H

#include <stdbool.h>
#include <stddef.h>

/* The socket the subagent uses: `configured`, else Net-SNMP's default
 * (asked by values.c, which knows which one is configured). */
const char *fmx_socket_in_use(const char *configured);

/*
 * The file of AgentX socket `sock`: "unix:/PATH" and "/PATH" name a unix
 * socket at /PATH; anything else (tcp:HOST:PORT, ...) is another of
 * Net-SNMP's transports, and the answer is NULL. The one place that
 * knows it: the checks of a configured socket, the diagnosis below and
 * the report of what another user cannot reach all ask here.
 */
const char *fmx_socket_path(const char *sock);

/*
 * A socket that cannot be: a unix path longer than a socket address
 * holds (Net-SNMP would only fail to connect, again at every ping).
 * Returns NULL, or what is wrong in buf. For -x (options.c) and
 * agentxSocket (directives.c).
 */
const char *fmx_socket_problem(const char *sock, char *buf, size_t len);

/* Is the AgentX session to the master up? */
bool fmx_connected(void);

/* Why connecting to `sock` fails now, in buf ("" if it succeeds). main.c
 * asks it when a daemon cannot start; the watch below at every check. */
const char *fmx_connect_problem(const char *sock, char *buf, size_t len);

/*
 * Watch the session: silence Net-SNMP's own message (before init_snmp()),
 * then log the reasons as above, checking every `period_s` seconds. Both
 * called by main.c, in the subagent role only.
 */
void fmx_connect_quiet(void);
void fmx_connect_watch(const char *sock, unsigned int period_s);

#endif
