/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-agentx: which socket a setting names, and why the AgentX master
 * cannot be reached (connect.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "connect.h"

#define APP "fastmib-agentx"

/* The longest unix socket path, without its NUL. */
#define SUN_PATH_MAX (sizeof(((struct sockaddr_un *)NULL)->sun_path) - 1)

/* libnetsnmpagent's AgentX session to the master (NULL while there is
 * none); exported without a public declaration. */
extern netsnmp_session *main_session;

static struct {
	char sock[256];
	char last[256];   /* the reason last logged, "" once connected */
	bool was_up;
} watch;

const char *
fmx_socket_in_use(const char *configured)
{
	return configured ? configured : NETSNMP_AGENTX_SOCKET;
}

const char *
fmx_socket_path(const char *sock)
{
	const char *path = !strncmp(sock, "unix:", 5) ? sock + 5 : sock;

	return path[0] == '/' ? path : NULL;
}

const char *
fmx_socket_problem(const char *sock, char *buf, size_t len)
{
	const char *path = fmx_socket_path(sock);

	if (!path || strlen(path) <= SUN_PATH_MAX)
		return NULL;
	snprintf(buf, len, "a unix socket path has at most %zu characters, not %zu",
		 SUN_PATH_MAX, strlen(path));
	return buf;
}

bool
fmx_connected(void)
{
	return main_session != NULL;
}

const char *
fmx_connect_problem(const char *sock, char *buf, size_t len)
{
	const char *path = fmx_socket_path(sock);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, rc;

	buf[0] = '\0';
	if (!path) {
		/* tcp:HOST:PORT and the like: Net-SNMP's transport, whose
		 * failure leaves connect()'s errno */
		netsnmp_transport *t;

		errno = 0;
		t = netsnmp_transport_open_client("agentx", sock);
		if (t)
			netsnmp_transport_free(t);
		else
			snprintf(buf, len, "%s", errno ? strerror(errno) : "no answer");
		return buf;
	}
	if (strlen(path) > SUN_PATH_MAX) {
		snprintf(buf, len, "%s", strerror(ENAMETOOLONG));
		return buf;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(buf, len, "%s", strerror(errno));
		return buf;
	}
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc < 0)
		snprintf(buf, len, "%s", strerror(errno));
	close(fd);
	return buf;
}

static void
check(unsigned int reg, void *arg)
{
	char why[256];

	(void)reg, (void)arg;
	if (fmx_connected()) {
		if (!watch.was_up && watch.last[0])
			snmp_log(LOG_INFO, APP ": %s: connected to the AgentX master\n",
				 watch.sock);
		watch.was_up = true;
		watch.last[0] = '\0';
		return;
	}
	/* connect() works but there is no session: Net-SNMP's next attempt
	 * (every ping interval) registers; nothing to say yet */
	if (!fmx_connect_problem(watch.sock, why, sizeof(why))[0])
		return;
	if (strcmp(why, watch.last)) {
		snmp_log(LOG_WARNING, APP ": %s: cannot connect to the AgentX master: %s; "
			 "retrying\n", watch.sock, why);
		snprintf(watch.last, sizeof(watch.last), "%s", why);
	}
	watch.was_up = false;
}

void
fmx_connect_quiet(void)
{
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
			       NETSNMP_DS_AGENT_NO_CONNECTION_WARNINGS, 1);
}

void
fmx_connect_watch(const char *sock, unsigned int period_s)
{
	snprintf(watch.sock, sizeof(watch.sock), "%s", sock);
	watch.was_up = fmx_connected();
	check(0, NULL);
	snmp_alarm_register(period_s ? period_s : 1, SA_REPEAT, check, NULL);
}
