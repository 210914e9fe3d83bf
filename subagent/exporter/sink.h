/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a walk over the served samples gives, and to what: metric families,
 * labels and values (their names made here, one owner for the Prometheus
 * name rules of every part of the exporter), and the sink that takes them.
 * The walk (expo.h) gives the segments' samples; the ports
 * (ports_metrics.h) and the push's own series (push.h) give theirs
 * through the same interface.
 */
#ifndef FME_SINK_H
#define FME_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The walk and its sinks. One walk over what is served (the ports, the
 * exporter's own series, every segment's tables) owns the names, labels and
 * values of every sample; what is made of them is the sink's: the text of
 * a scrape (the exposition of either format, expo.c), or the batch of a
 * remote write (rwrite.h). A sink is called family by family, and in a
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

/** A label whose value is the C string `value`, with its escapes. */
static inline const struct fme_label *
fme_label_str(struct fme_label *l, const char *name, const char *value)
{
	*l = (struct fme_label){ name, value, strlen(value), false };
	return l;
}

static inline struct fme_value
fme_u64(uint64_t u)
{
	return (struct fme_value){ .kind = FME_V_U64, .u = u };
}

/** The Unix time in ms: the clock of the samples' read times. */
int64_t fme_now_ms(void);

/** The samples that follow are read now: the clock read only for a sink
 *  that wants it. */
static inline void
fme_sink_stamp(struct fme_sink *k)
{
	if (k->want_time)
		k->read_ms = fme_now_ms();
}

/**
 * Families a walk gives from another part of the exporter (the push's own
 * series), after the ports' and before the segments'. A walk calls
 * `give(ctx, sink)`; NULL give: none.
 */
struct fme_families {
	void (*give)(void *ctx, struct fme_sink *k);
	void *ctx;
};

#endif
