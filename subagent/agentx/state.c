/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's state directory: which one (--state-dir, persistentDir
 * of a -c file, systemd's $STATE_DIRECTORY, or none) and whether it may
 * be used.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "values.h"
#include "privileges.h"
#include "state.h"

/*
 * The state directory holds Net-SNMP's persistent files, which are read
 * at start like configuration (users, communities): a file planted there
 * could grant write access. Like a segment file, it is used only when it
 * is not a link, belongs to root, to this user or to the user it serves as
 * (-u), and nobody else can write to it; the same for every file in it. A
 * missing directory is created (0700, for the -u user).
 */
static int
check_state_dir(const struct fmx_identity *id, const char *dir)
{
	uid_t me = geteuid(), as = id->change_user ? id->uid : me;
	struct stat sb;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (lstat(dir, &sb) < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, APP ": %s: %s\n", dir, strerror(errno));
			return -1;
		}
		if (mkdir(dir, 0700) < 0 ||
		    (id->change_user && chown(dir, id->uid, id->gid) < 0)) {
			fprintf(stderr, APP ": %s: cannot create the state directory: %s\n",
				dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, APP ": %s: state directory is %s; refused\n", dir,
			S_ISLNK(sb.st_mode) ? "a symbolic link" : "not a directory");
		return -1;
	}
	if ((sb.st_uid != 0 && sb.st_uid != me && sb.st_uid != as) ||
	    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr, APP ": %s: state directory owned by uid %u with mode %03o: "
			"it must belong to root or uid %u and be writable by its owner "
			"only; refused\n", dir, (unsigned)sb.st_uid,
			(unsigned)(sb.st_mode & 0777), (unsigned)as);
		return -1;
	}
	d = opendir(dir);
	if (d == NULL)
		return 0; /* unreadable: Net-SNMP will say so */
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(sb.st_mode) || (sb.st_uid != 0 && sb.st_uid != me &&
					    sb.st_uid != as) ||
		    (sb.st_mode & (S_IWGRP | S_IWOTH))) {
			fprintf(stderr, APP ": %s/%s: %s in the state directory; refused\n",
				dir, de->d_name, S_ISLNK(sb.st_mode) ? "a symbolic link" :
				"a file another user owns or may write");
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int
fmx_choose_state_dir(struct fmx_settings *st, const struct fmx_identity *id)
{
	const char *env = getenv("STATE_DIRECTORY");
	char *dir = NULL;

	if (st->state_dir.value) {
		dir = fmx_absolute_path(st->state_dir.value);
		if (!dir) {
			fprintf(stderr, APP ": %s: %s\n", st->state_dir.value, strerror(errno));
			return -1;
		}
	} else if (env && env[0] == '/') {
		dir = strdup(env);
		if (!dir)
			return -1;
		dir[strcspn(dir, ":")] = '\0';
	}
	if (dir && check_state_dir(id, dir) < 0) {
		if (st->state_dir.origin[0])
			fprintf(stderr, "%s: Error: %s %s refused\n", st->state_dir.origin,
				st->state_dir.token, st->state_dir.value);
		free(dir);
		return -1;
	}
	st->state_path = dir;
	return 0;
}
