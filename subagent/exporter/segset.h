/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-exporter's segments: the configured paths, each attached when a
 * valid segment is there, as the serving core attaches them (untrusted
 * files, checked by the reader library; a replaced or removed segment is
 * let go and the new one attached by the next check, every
 * FME_CHECK_PERIOD_S; a failure logged once until it changes).
 *
 * Scrapes run in the HTTP server's threads, side by side: each takes a
 * view, a reference to every attachment of the moment, and reads through
 * it for as long as it streams. A segment replaced meanwhile stays mapped
 * until the last scrape that holds it is done, so a scrape never reads an
 * unmapped segment and never mixes two generations of one path.
 */
#ifndef FME_SEGSET_H
#define FME_SEGSET_H

#include <pthread.h>
#include <stdbool.h>

#include "fastmib/reader.h"

#define FME_CHECK_PERIOD_S 1
/** Paths one exporter serves at most (the serving core's limit). */
#define FME_MAX_SEGMENTS 64

/** One attachment of a segment file: shared by the scrapes that took it. */
struct fme_att {
	unsigned int refs;                    /* atomic */
	struct fastmib_segment *seg;
	const struct fastmib_schema *schema;
	/* the writer health calls note what they observe in the handle:
	 * one scrape at a time asks them */
	pthread_mutex_t health_lock;
};

struct fme_set;

/** What one scrape sees: every configured path, with its attachment or NULL. */
struct fme_view {
	unsigned int n;
	const char *paths[FME_MAX_SEGMENTS];
	struct fme_att *atts[FME_MAX_SEGMENTS];
};

int fme_set_create(struct fme_set **setp);
/** Add a path (before start): 0, -EEXIST (given twice: ignored), -ENOSPC, -ENOMEM. */
int fme_set_add(struct fme_set *set, const char *path);
unsigned int fme_set_count(const struct fme_set *set);
/** Attach what is there, then check every FME_CHECK_PERIOD_S in a thread of its own. */
int fme_set_start(struct fme_set *set);
/** Stop the checks and release every attachment (after the last scrape). */
void fme_set_destroy(struct fme_set *set);

/** A view of the set now; release it with fme_view_release(). */
void fme_set_view(struct fme_set *set, struct fme_view *view);
void fme_view_release(struct fme_view *view);

#endif
