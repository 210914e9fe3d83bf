/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target of the port state file (ethdev/portmap_file.c): any
 * bytes as DIR/fastmib-ports.state are read without a crash, a leak or
 * undefined behaviour; every line refused is reported with the file and
 * the line; and a file read without an error comes back the same from
 * what the map writes (each device's source, name, ifIndex, MAC, alias
 * and linkTraps), which is what the agent does with it at its next new
 * device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fastmib/ethdev/portmap.h"

static char dir[256], file[300];

static void
write_file(const uint8_t *data, size_t size)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

static bool
same_entry(const struct fme_portmap_entry *a, const struct fme_portmap_entry *b)
{
	return !strcmp(a->source, b->source) && !strcmp(a->name, b->name) &&
	       a->ifindex == b->ifindex && a->mac_ok == b->mac_ok &&
	       (!a->mac_ok || !memcmp(a->mac, b->mac, 6)) && a->alias_len == b->alias_len &&
	       !memcmp(a->alias, b->alias, a->alias_len) && a->link_traps == b->link_traps;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fme_portmap *map, *again;
	int rc;

	if (!dir[0]) {
		/* in the run's temporary directory (TMPDIR), removed after each input */
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz-portmap-%d", tmp ? tmp : "/tmp", (int)getpid());
		snprintf(file, sizeof(file), "%s/%s", dir, FME_PORTMAP_FILE);
	}
	if (mkdir(dir, 0700) != 0)
		abort();
	write_file(data, size);
	if (fme_portmap_new(&map) < 0)
		abort();
	rc = fme_portmap_load(map, dir);
	if (rc == -EINVAL) {
		/* every message names the file and a line */
		const char *e = fme_portmap_errors(map);

		if (strncmp(e, file, strlen(file)) != 0 || e[strlen(file)] != ':')
			abort();
	} else if (rc == 0) {
		if (fme_portmap_save(map) != 0 || fme_portmap_new(&again) < 0 ||
		    fme_portmap_load(again, dir) != 0 ||
		    fme_portmap_count(again) != fme_portmap_count(map))
			abort();
		for (unsigned int i = 0; i < fme_portmap_count(map); i++)
			if (!same_entry(fme_portmap_at(map, i), fme_portmap_at(again, i)))
				abort();
		fme_portmap_free(again);
	} else {
		abort(); /* the file is there and readable */
	}
	fme_portmap_free(map);
	unlink(file);
	if (rmdir(dir) != 0)
		abort();
	return 0;
}
