/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a retried operation last said in the log (a segment that cannot be
 * attached, an application that cannot be reached), so that a retry every
 * second logs only what changed: the same failure once, until it is
 * another one or the operation succeeded in between.
 */
#ifndef FMA_SAID_H
#define FMA_SAID_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct fma_said {
	int rc;           /* the failure said last, 0: none since a success */
	char msg[256];
};

/** Is failure (`rc`, `msg`) news, i.e. to be logged? It is noted if so. */
static inline bool
fma_said_news(struct fma_said *said, int rc, const char *msg)
{
	if (rc == said->rc && strncmp(msg, said->msg, sizeof(said->msg) - 1) == 0)
		return false;
	said->rc = rc;
	snprintf(said->msg, sizeof(said->msg), "%s", msg);
	return true;
}

/** The operation succeeded: its next failure is news, whatever it is. */
static inline void
fma_said_forget(struct fma_said *said)
{
	said->rc = 0;
	said->msg[0] = '\0';
}

#endif /* FMA_SAID_H */
