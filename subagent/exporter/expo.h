/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exposition of one scrape: every served segment's counters and
 * states as metric families, in the Prometheus text format 0.0.4 or in
 * OpenMetrics 1.0 (docs/nms.md, "fastmib-exporter").
 *
 * The text is made as it is sent: fme_scrape_read() gives the next
 * piece, and the whole exposition is never held. A table is read row by
 * row before its families are written, one snapshot per row (all the
 * row's counters from one consistent read, as an SNMP request gets
 * them), and its families are then written from those snapshots, one
 * family per counter or state. The snapshots of one table are held
 * while its families are written (8 bytes a counter, the discontinuity,
 * a keyed row's key; its labels are made again for each family), a
 * fraction of the text they make; nothing of the previous table is.
 * Flat memory and one snapshot per row cannot both be had when each
 * counter is a family of its own: a row's later counters wait for their
 * families somewhere.
 */
#ifndef FME_EXPO_H
#define FME_EXPO_H

#include <stdbool.h>
#include <stddef.h>

#include "segset.h"

enum fme_format {
	FME_TEXT = 0,        /* text/plain; version=0.0.4 */
	FME_OPENMETRICS = 1, /* application/openmetrics-text; version=1.0.0 */
};

/** The Content-Type of a format. */
const char *fme_content_type(enum fme_format f);

/**
 * The format a scrape asks for in its Accept header (NULL: none): the
 * media range of higher quality among OpenMetrics 1.0.0 (or no version)
 * and text 0.0.4 (or text/plain, or any); OpenMetrics when both are
 * equal and it was named; text when neither is acceptable.
 */
enum fme_format fme_negotiate(const char *accept);

struct fme_scrape;

/** A scrape of the set's segments as they are now (a view taken). NULL
 *  when out of memory. */
struct fme_scrape *fme_scrape_new(struct fme_set *set, enum fme_format f);

/** The next up to `max` bytes of the exposition into buf: how many, 0 at
 *  its end. */
size_t fme_scrape_read(struct fme_scrape *s, char *buf, size_t max);

/** Did the scrape stop short (out of memory)? Then its last
 *  fme_scrape_read() gave 0 before the end: the response must fail, not
 *  end as if complete. */
bool fme_scrape_failed(const struct fme_scrape *s);

void fme_scrape_free(struct fme_scrape *s);

#endif
