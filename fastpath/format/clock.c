/* SPDX-License-Identifier: BSD-3-Clause */
/* The clocks of the libraries, in nanoseconds (segment_format.h). */
#include <time.h>

#include "segment_format.h"

static uint64_t
clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
