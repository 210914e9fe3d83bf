/* SPDX-License-Identifier: BSD-3-Clause */
/* The port map's insides, shared by its rules (portmap.c) and its file
 * (portmap_file.c). */
#ifndef FME_ETHDEV_PORTMAP_PRIV_H
#define FME_ETHDEV_PORTMAP_PRIV_H

#include "fastmib/ethdev/portmap.h"

struct fme_portmap {
	struct fme_portmap_entry **e;
	unsigned int n, cap;
	char *path;          /* DIR/FME_PORTMAP_FILE, NULL: memory only */
	bool file_faulty;    /* lines were refused at load: never overwrite */
	char *errors;        /* messages, newline-separated */
	size_t errors_len;
	uint32_t *used;      /* every entry's ifIndex, sorted; NULL: to be made */
};

/* A new entry at the end of the map, its source copied; NULL: no memory. */
struct fme_portmap_entry *fme_portmap_add(struct fme_portmap *map,
						  const char *source);

/* Append "FILE:LINE: " + message to the map's errors. */
void fme_portmap_note(struct fme_portmap *map, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
