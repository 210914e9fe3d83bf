/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The notification rate limit of every notification the agent sends (the
 * event log's, the ports' linkUp/linkDown): a token bucket, and what it
 * holds back counted and said in the log, at most once a second, in one
 * form: "N <what> not sent: over the limit of R per second, burst B; T in
 * total".
 *
 * The bucket is inline and pure (no clock of its own, no log) so that unit
 * tests can drive it through any sequence of instants. Single-threaded,
 * like the rest of the agent.
 */
#ifndef FMA_RATELIMIT_H
#define FMA_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

/**
 * Token bucket in time credit: each notification costs 1e9 / rate ns of
 * credit, and credit accrues with time up to `burst` notifications' worth.
 * Integer only, so the same sequence of calls always gives the same
 * answers.
 */
struct fma_bucket {
	uint64_t cost_ns;   /**< credit one notification takes; 0 = none sent */
	uint64_t cap_ns;    /**< most credit kept (burst * cost_ns) */
	uint64_t credit_ns;
	uint64_t last_ns;   /**< monotonic time of the last refill */
};

/** A bucket of `per_s` a second (0: none at all), full at `now_ns`. */
static inline void
fma_bucket_init(struct fma_bucket *b, unsigned int per_s, unsigned int burst, uint64_t now_ns)
{
	b->cost_ns = per_s ? 1000000000u / per_s : 0;
	if (per_s && b->cost_ns == 0)
		b->cost_ns = 1;
	b->cap_ns = b->cost_ns * burst;
	b->credit_ns = b->cap_ns; /* a full burst right away */
	b->last_ns = now_ns;
}

/** May one more notification go out at `now_ns`? Takes its credit if so. */
static inline bool
fma_bucket_take(struct fma_bucket *b, uint64_t now_ns)
{
	if (b->cost_ns == 0)
		return false;
	if (now_ns > b->last_ns) {
		uint64_t room = b->cap_ns - b->credit_ns;
		uint64_t add = now_ns - b->last_ns;

		b->credit_ns += add < room ? add : room;
		b->last_ns = now_ns;
	}
	if (b->credit_ns < b->cost_ns)
		return false;
	b->credit_ns -= b->cost_ns;
	return true;
}

/** A limit with its count of what it held back. */
struct fma_limit {
	struct fma_bucket bucket;
	unsigned int per_s, burst;
	const char *log_prefix;   /**< "fastmib: ", "fastmib: ports: " */
	const char *what;         /**< "notification(s)", "linkUp/linkDown notification(s)" */
	uint64_t dropped;         /**< held back since the limit was made */
	uint64_t dropped_logged;  /**< of which said in the log */
	uint64_t log_ns;          /**< monotonic time of the last such line, 0: none */
};

/**
 * Make (or remake, keeping the counts) the limit: `per_s` notifications a
 * second with a burst of `burst` (per_s 0: none sent). `log_prefix` and
 * `what` are kept, not copied: string literals. Called by the owner of the
 * notifications at its configuration.
 */
void fma_limit_init(struct fma_limit *l, const char *log_prefix, const char *what,
		    unsigned int per_s, unsigned int burst);

/** May one notification go out now? Counts it as held back if not. */
bool fma_limit_take(struct fma_limit *l);

/**
 * Say in the log how many were held back since the last such line, unless
 * one was written less than a second ago (`force`: whenever the last one
 * was, as an agent does before it stops). Nothing when none were.
 */
void fma_limit_log(struct fma_limit *l, bool force);

#endif /* FMA_RATELIMIT_H */
