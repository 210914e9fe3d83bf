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
 * while its families are written (a row's words, 8 bytes each: one a
 * counter, a histogram's buckets, count and sum; 8 bytes of
 * discontinuity, 4 of row number, 2 of flags; its states and a keyed
 * row's key; its labels are made again for each family): 46 bytes a row
 * of four counters, a fraction of the 208 bytes of text they make,
 * and nothing of the previous table is held.
 * Flat memory and one snapshot per row cannot both be had when each
 * counter is a family of its own: a row's later counters wait for their
 * families somewhere.
 */
#ifndef FME_EXPO_H
#define FME_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segset.h"
#include "sink.h"

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
struct fme_ports;

/** A scrape of the set's segments as they are now (a view taken), after
 *  the ports of `ports` and the families of `more` (NULL: none).
 *  NULL when out of memory. */
struct fme_scrape *fme_scrape_new(struct fme_set *set, struct fme_ports *ports,
				  const struct fme_families *more, enum fme_format f);

/** The same walk into `sink` (the text format's samples, without its
 *  text; sink.h): 0, or -ENOMEM. */
int fme_walk(struct fme_set *set, struct fme_ports *ports, const struct fme_families *more,
	     struct fme_sink *sink);

/** The next up to `max` bytes of the exposition into buf: how many, 0 at
 *  its end. */
size_t fme_scrape_read(struct fme_scrape *s, char *buf, size_t max);

/** Did the scrape stop short (out of memory)? Then its last
 *  fme_scrape_read() gave 0 before the end: the response must fail, not
 *  end as if complete. */
bool fme_scrape_failed(const struct fme_scrape *s);

void fme_scrape_free(struct fme_scrape *s);

#endif
