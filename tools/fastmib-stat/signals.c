/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The end of fastmib-stat's loops (--watch, --events --follow, --ports
 * --watch): SIGINT and SIGTERM set a flag instead of ending the process
 * and cut the loops' sleeps short, so that a loop sees the flag, lets go
 * of what it holds and returns. Every mode that loops shares it.
 */
#include <errno.h>

#include "stat.h"

volatile sig_atomic_t fst_stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	fst_stop_requested = 1;
}

/* SIGINT and SIGTERM end the loops (and their sleeps) instead of the process. */
void
fst_stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void
fst_sleep_interruptible(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	/* A signal ends the sleep early (no SA_RESTART), which is the point. */
	while (!fst_stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
