/* SPDX-License-Identifier: BSD-3-Clause */
/* The notification rate limit and its log line (ratelimit.h). */
#include <inttypes.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "fastmib/reader.h"
#include "ratelimit.h"

void
fma_limit_init(struct fma_limit *l, const char *log_prefix, const char *what,
	       unsigned int per_s, unsigned int burst)
{
	l->per_s = per_s;
	l->burst = burst;
	l->log_prefix = log_prefix;
	l->what = what;
	fma_bucket_init(&l->bucket, per_s, burst, fastmib_monotonic_ns());
}

bool
fma_limit_take(struct fma_limit *l)
{
	if (fma_bucket_take(&l->bucket, fastmib_monotonic_ns()))
		return true;
	l->dropped++;
	return false;
}

void
fma_limit_log(struct fma_limit *l, bool force)
{
	uint64_t now;

	if (l->dropped == l->dropped_logged)
		return;
	now = fastmib_monotonic_ns();
	if (!force && l->log_ns && now - l->log_ns < 1000000000u)
		return;
	snmp_log(LOG_WARNING, "%s%" PRIu64 " %s not sent: over the limit of %u per second, "
		 "burst %u; %" PRIu64 " in total\n", l->log_prefix,
		 l->dropped - l->dropped_logged, l->what, l->per_s, l->burst, l->dropped);
	l->dropped_logged = l->dropped;
	l->log_ns = now;
}
