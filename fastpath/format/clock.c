/* SPDX-License-Identifier: BSD-3-Clause */
/* The clocks, in nanoseconds: the one conversion, for the libraries
 * (segment_format.h) and, through <fastmib/reader.h>, everyone else. */
#include <time.h>

#include "fastmib/reader.h"
#include "fms_util.h"
#include "segment_format.h"

static uint64_t
clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t
fastmib_time_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

uint64_t
fastmib_monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t
fms_now_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

uint64_t
fms_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}
