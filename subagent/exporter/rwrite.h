/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A remote write 1.0 request made from one walk (expo.h): a sink that
 * encodes every sample as a TimeSeries of one Sample (remote.proto), its
 * labels those of the text format with __name__, sorted by name, each
 * stamped with the time its reading took place; then the whole
 * WriteRequest compressed in snappy's block format.
 *
 * A WriteRequest is its TimeSeries one after the other, each as field 1
 * (a tag, a length, the packed message): the request is made series by
 * series, and no tree of the whole read is ever held. A read of more
 * than FME_RW_MAX_SAMPLES samples is cut into requests of that many (a
 * family may straddle two: remote write has no families): each is given
 * to full() as it fills, so the uncompressed memory of a read is one
 * request's, whatever the tables' size, and no receiver gets a request
 * larger than the ones Prometheus' own remote write sends.
 *
 * Values are doubles in remote write: an integer above 2^53 is sent
 * rounded to the nearest double (the scrape keeps it exact).
 */
#ifndef FME_RWRITE_H
#define FME_RWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "fastmib/schema.h"
#include "sink.h"

/* Labels of a series at most: a row's indexes, an extra label, __name__
 * (the ports' four and their one extra are fewer). */
#define FME_RW_MAX_LABELS (FASTMIB_MAX_INDEXES + 2)

/* Samples of one request at most (the last of a read may have fewer). */
#define FME_RW_MAX_SAMPLES 10000u

struct fme_rw {
	struct fme_sink k; /* first: the walk's handle */
	/* a request is full (FME_RW_MAX_SAMPLES): take it, compressed with
	 * fme_rw_compress(), before fme_rw_restart(); false: out of memory,
	 * the walk stops. NULL: one request for the whole walk */
	bool (*full)(struct fme_rw *rw, void *ctx);
	void *ctx;
	uint8_t *buf;      /* the WriteRequest, uncompressed */
	size_t len, cap;
	uint64_t samples;
	/* the row's labels, copied (the walk's are its own), NUL-terminated */
	unsigned int n_row;
	char *row_names[FME_RW_MAX_LABELS], *row_values[FME_RW_MAX_LABELS];
	char *arena;
	size_t arena_cap;
};

/** The next request of the same walk: empty, the row's labels kept. */
void fme_rw_restart(struct fme_rw *rw);

/** An empty request, its sink ready for fme_walk(). */
void fme_rw_init(struct fme_rw *rw);

/** The request compressed (snappy block format) into a malloc'd buffer of
 *  *len bytes; NULL when out of memory. */
uint8_t *fme_rw_compress(const struct fme_rw *rw, size_t *len);

void fme_rw_free(struct fme_rw *rw);

#endif
