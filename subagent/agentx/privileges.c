/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: -u/-g (the identity it serves under once its sockets and
 * segments are open) and -p (its pid file). See privileges.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "values.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "connect.h"
#include "privileges.h"
#include "fastmib/ethdev/portmap.h"

/* A whole decimal id ("0" .. "4294967294"), or -1. */
static long long
numeric_id(const char *s)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= (unsigned long long)(uid_t)-1)
		return -1;
	return (long long)v;
}

int
fmx_identity_resolve(struct fmx_identity *id, const char *user,
		     const char *group)
{
	memset(id, 0, sizeof(*id));
	if (user) {
		long long n = numeric_id(user);
		struct passwd *pw;

		errno = 0;
		pw = n >= 0 ? getpwuid((uid_t)n) : getpwnam(user);
		if (!pw && n < 0) {
			fprintf(stderr, APP ": -u %s: %s\n", user,
				errno ? strerror(errno) : "no such user");
			return -1;
		}
		id->change_user = true;
		id->uid = pw ? pw->pw_uid : (uid_t)n;
		if (pw) {
			id->has_name = true;
			snprintf(id->name, sizeof(id->name), "%s", pw->pw_name);
			id->gid = pw->pw_gid;
			id->change_group = true;
		} else {
			snprintf(id->name, sizeof(id->name), "uid %lld", n);
		}
		endpwent();
	}
	if (group) {
		long long n = numeric_id(group);
		struct group *gr = NULL;

		if (n < 0) {
			errno = 0;
			gr = getgrnam(group);
			if (!gr) {
				fprintf(stderr, APP ": -g %s: %s\n", group,
					errno ? strerror(errno) : "no such group");
				return -1;
			}
		}
		id->gid = gr ? gr->gr_gid : (gid_t)n;
		id->change_group = true;
		endgrent();
	}
	if (id->change_user && !id->change_group) {
		/* a bare uid: which group it would keep is anybody's guess */
		fprintf(stderr, APP ": -u %s: no passwd entry, so no group to take: "
			"give one with -g\n", user);
		return -1;
	}
	if (geteuid() != 0 && ((id->change_user && id->uid != geteuid()) ||
			       (id->change_group && id->gid != getegid()))) {
		fprintf(stderr, APP ": -u/-g: only root can become another user or "
			"group (this is uid %u)\n", (unsigned)geteuid());
		return -1;
	}
	return 0;
}

int
fmx_identity_assume(const struct fmx_identity *id)
{
	if (!id->change_user && !id->change_group)
		return 0;
	/* Supplementary groups first: only root may set them. */
	if (geteuid() == 0) {
		int rc = id->change_user && id->has_name
			 ? initgroups(id->name, id->gid)
			 : setgroups(1, &id->gid);

		if (rc < 0) {
			snmp_log(LOG_ERR, APP ": cannot set the groups of %s: %s\n",
				 id->name[0] ? id->name : "the agent", strerror(errno));
			return -1;
		}
	}
	if (setresgid(id->gid, id->gid, id->gid) < 0) {
		snmp_log(LOG_ERR, APP ": cannot become group %u: %s\n",
			 (unsigned)id->gid, strerror(errno));
		return -1;
	}
	if (id->change_user) {
		if (setresuid(id->uid, id->uid, id->uid) < 0) {
			snmp_log(LOG_ERR, APP ": cannot become user %s: %s\n", id->name,
				 strerror(errno));
			return -1;
		}
		/* a process that could take root back has dropped nothing */
		if (id->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
			snmp_log(LOG_ERR, APP ": still able to become root after "
				 "becoming %s; stopping\n", id->name);
			return -1;
		}
	}
	snmp_log(LOG_INFO, APP ": running as uid %u, gid %u\n", (unsigned)getuid(),
		 (unsigned)getgid());
	return 0;
}

int
fmx_pidfile_write(const char *path)
{
	char line[32];
	int fd, len;

	/* Replace whatever a previous run left, and never write through a
	 * link planted at the path. */
	if (unlink(path) < 0 && errno != ENOENT) {
		snmp_log(LOG_ERR, APP ": %s: cannot replace the pid file: %s\n", path,
			 strerror(errno));
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snmp_log(LOG_ERR, APP ": %s: cannot write the pid file: %s\n", path,
			 strerror(errno));
		return -1;
	}
	len = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
	if (write(fd, line, (size_t)len) != len) {
		snmp_log(LOG_ERR, APP ": %s: cannot write the pid file: %s\n", path,
			 strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

void
fmx_pidfile_remove(const char *path)
{
	char line[32] = "";
	ssize_t n;
	int fd;

	/* Another instance may have taken the path since: leave its file. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0 || strtol(line, NULL, 10) != (long)getpid())
		return;
	if (unlink(path) < 0)
		snmp_log(LOG_WARNING, APP ": %s: cannot remove the pid file: %s\n", path,
			 strerror(errno));
}

/* The directory part of `path` (at most len - 1 bytes of it) in `buf`. */
static const char *
dir_of(const char *path, char *buf, size_t len)
{
	size_t n = strnlen(path, len - 1);

	memcpy(buf, path, n);
	buf[n] = '\0';
	return dirname(buf);
}

int
fmx_pidfile_check(const char *path)
{
	char dir[PATH_MAX];

	if (access(dir_of(path, dir, sizeof(dir)), W_OK | X_OK) < 0) {
		fprintf(stderr, APP ": %s: cannot write the pid file there: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void
report_segments(struct fmx_settings *st, const char *who)
{
	char dir[PATH_MAX];

	for (unsigned int i = 0; i < fma_count(st->agent); i++) {
		const char *p = fma_path(st->agent, i);

		if (access(p, F_OK) < 0) {
			if (errno == ENOENT && access(dir_of(p, dir, sizeof(dir)), X_OK) == 0)
				continue;
			snmp_log(LOG_WARNING, APP ": %s: %s cannot reach it: it will not be "
				 "attached when it appears\n", p, who);
		} else if (access(p, R_OK) < 0) {
			snmp_log(LOG_WARNING, APP ": %s: %s cannot read it: served as "
				 "mapped at start, but not attached again once its "
				 "application re-creates it\n", p, who);
		} else if (access(p, W_OK) < 0) {
			snmp_log(LOG_WARNING, APP ": %s: %s cannot write to it: once it is "
				 "attached again, resets answer resourceUnavailable\n", p, who);
		}
	}
}

static void
report_ports(const struct fmx_values *v, const char *who)
{
	char dir[PATH_MAX];

	for (unsigned int i = 0; i < v->n_ports; i++) {
		char p[PATH_MAX], sock[PATH_MAX + 32];
		struct stat sb;
		uint32_t base;

		if (fme_port_source_parse(v->ports[i], p, sizeof(p), &base) < 0)
			continue;
		if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			snprintf(sock, sizeof(sock), "%s/dpdk_telemetry.v2", p);
		else
			snprintf(sock, sizeof(sock), "%s", p);
		if (access(sock, W_OK) < 0 && !(errno == ENOENT &&
		    access(dir_of(sock, dir, sizeof(dir)), X_OK) == 0))
			snmp_log(LOG_WARNING, APP ": %s: %s cannot connect to this telemetry "
				 "socket: the application's ports are not served again "
				 "once it restarts\n", sock, who);
	}
}

void
fmx_report_access(struct fmx_settings *st, const struct fmx_identity *id)
{
	const char *who = id->name[0] ? id->name : "this group";
	char dir[PATH_MAX];

	report_segments(st, who);
	report_ports(&st->cli, who);
	report_ports(&st->files, who);
	if (!st->listen.value) {
		const char *path = fmx_socket_path(fmx_agentx_socket(st));

		if (path && access(path, W_OK) < 0)
			snmp_log(LOG_WARNING, APP ": %s: %s cannot connect to snmpd's AgentX "
				 "socket: after snmpd restarts, the agent cannot register "
				 "again (snmpd.conf: agentXPerms)\n", path, who);
	}
	if (st->state_path && access(st->state_path, W_OK | X_OK) < 0) {
		snmp_log(LOG_WARNING, APP ": %s: %s cannot write the state directory: "
			 "Net-SNMP's persistent state is not saved\n", st->state_path, who);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
		netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
				       NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	}
	if (st->pid_file && access(dir_of(st->pid_file, dir, sizeof(dir)), W_OK | X_OK) < 0)
		snmp_log(LOG_WARNING, APP ": %s: %s cannot remove the pid file at exit\n",
			 st->pid_file, who);
}
