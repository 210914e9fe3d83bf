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

/*
 * The walk and its sinks. One walk over what is served (the ports, the
 * exporter's own series, every segment's tables) owns the names, labels and
 * values of every sample; what is made of them is the sink's: the text of
 * a scrape (the exposition of either format, made here), or the batch of
 * a remote write (push.h). A sink is called family by family, and in a
 * family row by row: labels() gives the row's labels, then sample() each
 * of its samples.
 */

/** Bytes of a metric name with a suffix, or of a label name. */
#define FME_NAME 320

enum fme_kind { FME_K_COUNTER, FME_K_GAUGE, FME_K_STATESET, FME_K_INFO, FME_K_HISTOGRAM };

/** What a family is called in each format, and its samples. */
struct fme_family {
	char base[FME_NAME];        /* the family: ep_global_total_pkts */
	char sample[FME_NAME + 16];  /* its samples: ep_global_total_pkts_total */
	char created[FME_NAME + 16]; /* OpenMetrics: ep_global_total_pkts_created */
	enum fme_kind kind;
	/* a counter whose samples keep the family's name (no _total), typed
	 * `unknown` in OpenMetrics: the ports' IF-MIB names */
	bool keep_name;
};

/** The names of family `base` of `kind` (a counter's `_total` taken off
 *  the family and put on its samples, unless keep_name). */
void fme_family_names(struct fme_family *f, const char *base, enum fme_kind kind,
		      bool keep_name);

/** A label: its value `len` bytes, unescaped; `plain` when it has nothing
 *  to escape in any format (digits). */
struct fme_label {
	const char *name;
	const char *value;
	size_t len;
	bool plain;
};

/** A value as it was read: an exact integer, or a time. */
enum fme_vkind {
	FME_V_U64,
	FME_V_I64,
	FME_V_NS, /* nanoseconds, shown as seconds */
	FME_V_CS, /* hundredths, shown as seconds with two decimals */
};

struct fme_value {
	enum fme_vkind kind;
	uint64_t u; /* FME_V_I64 and FME_V_NS: an int64_t */
};

struct fme_sink {
	/** A family begins: its HELP and TYPE (units: the model's, or NULL). */
	void (*family)(struct fme_sink *k, const struct fme_family *f, const char *help,
		       const char *units);
	/** The labels of the samples that follow, up to the next call. */
	void (*labels)(struct fme_sink *k, const struct fme_label *l, unsigned int n);
	/** A sample: the labels last given, then `x` (NULL: none). */
	void (*sample)(struct fme_sink *k, const char *name, const struct fme_label *x,
		       struct fme_value v);
	bool om;        /* OpenMetrics: a counter's _created sample wanted */
	bool want_time; /* read_ms wanted: a clock read at each reading */
	int64_t read_ms; /* the samples that follow were read then (Unix ms) */
	bool failed;    /* out of memory: the walk stops */
};

struct fme_scrape;
struct fme_ports;
struct fme_push;

/** A scrape of the set's segments as they are now (a view taken), after
 *  the ports of `ports` and the push's own series of `push` (NULL: none).
 *  NULL when out of memory. */
struct fme_scrape *fme_scrape_new(struct fme_set *set, struct fme_ports *ports,
				  struct fme_push *push, enum fme_format f);

/** The same walk into `sink` (the text format's samples, without its
 *  text): 0, or -ENOMEM. */
int fme_walk(struct fme_set *set, struct fme_ports *ports, struct fme_push *push,
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
