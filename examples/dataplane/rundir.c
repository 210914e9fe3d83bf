/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Removing the EAL's runtime directory at exit.
 *
 * DPDK 22.11 leaves the runtime directory of a process behind
 * (/var/run/dpdk/PREFIX for root, else under $XDG_RUNTIME_DIR or /tmp):
 * rte_eal_cleanup() removes no file, and the telemetry socket is unlinked
 * by an exit handler, but the directory itself always stays, empty or
 * not. Every run with its own --file-prefix (tests, demos, several
 * instances on one host) adds one for good.
 *
 * The handler here is registered before rte_eal_init(), so that it runs
 * after the telemetry library's own exit handler (they run in reverse
 * order): by then DPDK has removed the socket it bound, whatever its name
 * (a second process on the same prefix binds "dpdk_telemetry.v2:1"), and
 * sockets of other processes are still there. It removes what else is this
 * process's, then the directory if nothing is left in it:
 * - the shared-configuration files of a primary process (config,
 *   hugepage_info, fbarray_*, mp_socket) unless another live process holds
 *   the lock on `config`: a primary with shared configuration is alone on
 *   its prefix (EAL refuses a second one), but a --no-shconf process may
 *   share the prefix of one and must leave its files alone.
 * A secondary process leaves everything to its primary; the sockets of
 * secondaries still running (mp_socket_*) keep the directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "rundir.h"

static struct {
	char dir[4096];
	bool primary;
} rd;

/* Does a process other than this one hold a lock on the directory's
 * `config`? (F_GETLK never reports the caller's own locks.) */
static bool
config_held_by_other(int dfd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = openat(dfd, "config", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool held;

	if (fd < 0)
		return false;
	held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
	/* Closing drops this process's own lock on the file too: the EAL's,
	 * which is done with it at exit. */
	close(fd);
	return held;
}

static bool
is_shared_config_file(const char *name)
{
	return strcmp(name, "config") == 0 || strcmp(name, "hugepage_info") == 0 ||
	       strcmp(name, "mp_socket") == 0 || strncmp(name, "fbarray_", 8) == 0;
}

static void
remove_at_exit(void)
{
	struct dirent *de;
	DIR *d;
	int dfd;

	if (rd.dir[0] == '\0' || !rd.primary)
		return; /* the EAL did not start, or the directory is the primary's */
	d = opendir(rd.dir);
	if (d == NULL)
		return;
	dfd = dirfd(d);
	if (!config_held_by_other(dfd))
		while ((de = readdir(d)) != NULL)
			if (is_shared_config_file(de->d_name))
				unlinkat(dfd, de->d_name, 0);
	closedir(d);
	/* Anything left is not this process's: then the directory stays. */
	if (rmdir(rd.dir) < 0 && errno != ENOTEMPTY && errno != EEXIST && errno != ENOENT)
		fprintf(stderr, "%s: cannot remove the EAL runtime directory: %s\n", rd.dir,
			strerror(errno));
}

void
rundir_remove_at_exit(void)
{
	atexit(remove_at_exit);
}

void
rundir_remember(void)
{
	if (snprintf(rd.dir, sizeof(rd.dir), "%s", rte_eal_get_runtime_dir()) >=
	    (int)sizeof(rd.dir))
		rd.dir[0] = '\0'; /* not ours to guess at */
	rd.primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
}
