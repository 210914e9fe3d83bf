/* SPDX-License-Identifier: BSD-3-Clause */
/* Fault guards of reader entry points: see guard.h. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "guard.h"

static __thread struct fms_guard *fms_guard_top;
static struct sigaction fms_prev_bus;

static bool
in_mapping(const struct fastmib_segment *seg, const void *addr)
{
	const uint8_t *p = addr;

	return seg->base != NULL && p >= seg->base && p < seg->base + seg->size;
}

static void
on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	struct fms_guard *g = fms_guard_top;

	if (g != NULL && in_mapping(g->seg, si->si_addr))
		siglongjmp(g->jb, 1);
	/* Not ours: what the process would have done without us. */
	if (fms_prev_bus.sa_flags & SA_SIGINFO) {
		fms_prev_bus.sa_sigaction(sig, si, uctx);
	} else if (fms_prev_bus.sa_handler != SIG_DFL && fms_prev_bus.sa_handler != SIG_IGN) {
		fms_prev_bus.sa_handler(sig);
	} else {
		/* Returning re-executes the faulting access, which then takes
		 * the default action (SIGBUS from a fault cannot be ignored). */
		signal(SIGBUS, SIG_DFL);
	}
}

/*
 * Install on_sigbus unless it is the current handler, keeping the one it
 * replaces for the faults that are not ours. Checked at every attach, so
 * a program (or a test framework) that set its own handler since still
 * gets guarded reads, chained to its handler.
 */
int
fms_guard_install(void)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct sigaction sa, cur;
	int rc = 0;

	pthread_mutex_lock(&mu);
	if (sigaction(SIGBUS, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_sigaction == on_sigbus)
		goto out;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &fms_prev_bus) < 0)
		rc = -errno;
out:
	pthread_mutex_unlock(&mu);
	return rc;
}

void
fms_guard_push(struct fms_guard *g, const struct fastmib_segment *seg)
{
	g->seg = seg;
	g->prev = fms_guard_top;
	/* The signal handler reads fms_guard_top on this thread: a compiler
	 * barrier is all the ordering a same-thread signal needs. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fms_guard_top = g;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void
fms_guard_pop(struct fms_guard *g)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	fms_guard_top = g->prev;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

int
fms_guard_fault(struct fms_guard *g)
{
	struct fastmib_segment *seg = (struct fastmib_segment *)(uintptr_t)g->seg;

	fms_guard_pop(g);
	__atomic_store_n(&seg->faulted, 1, __ATOMIC_RELAXED);
	return fms_faulted_error(seg);
}

int
fms_faulted_error(const struct fastmib_segment *seg)
{
	return fms_error(-EIO, "%s: the segment file shrank under this reader (truncated or "
			 "its pages are gone); re-attach", seg->path);
}
