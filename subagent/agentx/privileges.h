/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: the identity it serves under (-u USER, -g GROUP) and its
 * pid file (-p FILE), with snmpd's meaning of those options. main() holds
 * the identity and hands it to whoever must know it (state.h).
 */
#ifndef FASTMIB_AGENTX_PRIVS_H
#define FASTMIB_AGENTX_PRIVS_H

#include <stdbool.h>
#include <sys/types.h>

struct fmx_identity {
	bool change_user;  /* -u given */
	bool change_group; /* -g given, or implied by -u (the user's group) */
	uid_t uid;
	gid_t gid;
	bool has_name;     /* the user has a passwd entry: initgroups() */
	char name[64];     /* user name for messages ("uid N" without one) */
};

/*
 * Resolve -u and -g (names or numeric ids; either may be NULL). A user
 * without -g takes the primary group of its passwd entry. Returns 0, or
 * -1 after a message on stderr (unknown name, a change only root can make).
 * Called by main() before Net-SNMP starts.
 */
int fmx_identity_resolve(struct fmx_identity *id, const char *user,
			 const char *group);

/*
 * Become that identity for good: supplementary groups, then group, then
 * user, and check that root cannot be regained. Returns 0, or -1 after a
 * log message. Called by main.c once everything is open and the pid file
 * written.
 */
int fmx_identity_assume(const struct fmx_identity *id);

/*
 * The pid file: written once the process is the daemon (a stale file is
 * replaced, never followed if it is a link), removed at exit if it still
 * names this process. Both log what goes wrong; write returns 0 or -1.
 * Called by main.c, as the check below.
 */
int fmx_pidfile_write(const char *path);
void fmx_pidfile_remove(const char *path);

/* Can the pid file be written where it is named? 0, or -1 after a
 * message on stderr (checked before the start, written after it). */
int fmx_pidfile_check(const char *path);

struct fmx_settings;

/*
 * Once it serves as another user (-u, -g), the agent keeps what it opened
 * as root, but every re-attach, reconnect and save is done as that user:
 * log now, once, what will not work (segments, telemetry sockets, the
 * AgentX socket, the state directory, the pid file). Called by main.c
 * once it serves as `id`.
 */
void fmx_report_access(struct fmx_settings *st, const struct fmx_identity *id);

#endif
