/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --push.url: the samples of a scrape sent to a Prometheus remote write
 * 1.0 receiver (docs/nms.md, "Remote write"), every --push.interval.
 *
 * Two threads of their own, so that no scrape ever waits on the receiver:
 * the reader walks what a scrape walks (expo.h, fme_walk()) every
 * interval and queues the read as batches, compressed WriteRequests of
 * at most FME_RW_MAX_SAMPLES samples each (rwrite.h); the sender posts the queue's oldest batch, and tries it
 * again after a failure (no connection, a timeout, 5xx, 429) with a
 * backoff doubled up to FME_PUSH_BACKOFF_MAX_MS. A batch the receiver
 * refuses with another 4xx is dropped: sending it again cannot help.
 *
 * The queue is bounded in bytes (--push.queue-size): a batch that does
 * not fit pushes the oldest out. A batch older than --push.max-age is
 * dropped before it is sent. Every drop is counted (fme_push_stats(), on
 * /metrics). An outage is logged once as it starts (its cause) and once
 * as it ends (its length, what it dropped).
 *
 * The scrape reads the counters under a lock held only to copy them: the
 * sender never holds it across a request.
 */
#ifndef FME_PUSH_H
#define FME_PUSH_H

#include <stddef.h>
#include <stdint.h>

struct fme_set;
struct fme_ports;
struct fme_push;
struct fme_sink;

#define FME_PUSH_DEFAULT_INTERVAL_MS 15000u
#define FME_PUSH_DEFAULT_TIMEOUT_MS 10000u
#define FME_PUSH_DEFAULT_MAX_AGE_MS 300000u
#define FME_PUSH_DEFAULT_QUEUE_BYTES (64u << 20)
#define FME_PUSH_BACKOFF_MIN_MS 100u
#define FME_PUSH_BACKOFF_MAX_MS 10000u

struct fme_push_config {
	const char *url;
	uint64_t interval_ms;
	uint64_t timeout_ms;
	uint64_t max_age_ms;
	uint64_t queue_bytes;
};

enum fme_push_drop {
	FME_PUSH_DROP_MAX_AGE,
	FME_PUSH_DROP_QUEUE_FULL,
	FME_PUSH_DROP_REJECTED,
	FME_PUSH_DROP_N,
};

/* The `reason` label of each drop. */
extern const char *const fme_push_drop_reason[FME_PUSH_DROP_N];

struct fme_push_stats {
	uint64_t samples_read;
	uint64_t samples_sent;
	uint64_t batches_sent;
	uint64_t samples_dropped[FME_PUSH_DROP_N];
	uint64_t batches_dropped[FME_PUSH_DROP_N];
	uint64_t failures;
	uint64_t queue_bytes;   /* the batch being sent included */
	uint64_t queue_samples;
};

/** The URL without its user information (user:password@), as logged. */
void fme_push_shown_url(const char *url, char *out, size_t size);

/** Start pushing what `set` and `ports` serve: 0, or -1 after a log line. */
int fme_push_start(const struct fme_push_config *cfg, struct fme_set *set,
		   struct fme_ports *ports, struct fme_push **pushp);

/** The counters, consistent with one another (one lock, held to copy). */
void fme_push_stats(struct fme_push *p, struct fme_push_stats *st);

/** The push's own series (fastmib_exporter_push_*) into sink `k`: what it
 *  read, sent, dropped and holds. A struct fme_families' give() (sink.h),
 *  `push` the struct fme_push. */
void fme_push_give(void *push, struct fme_sink *k);

/** Stop both threads (a request under way is cut) and free. */
void fme_push_stop(struct fme_push *p);

#endif
