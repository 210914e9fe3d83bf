/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Holds a segment's reset lock the way a resetter frozen in the middle of
 * a reset would (a `fastmib-stat --reset` stopped by SIGSTOP or a
 * debugger): takes the lock, says "held" on stdout, and waits until its
 * standard input closes, then releases it.
 *   fm-lockholder SEGMENT
 */
#include <stdio.h>
#include <unistd.h>

#include "fastmib/reader.h"
#include "handle.h"

int
main(int argc, char **argv)
{
	struct fastmib_segment *seg;
	uint32_t free_owner = 0;
	char c;

	if (argc != 2 || fastmib_attach(argv[1], 0, &seg) != 0) {
		fprintf(stderr, "fm-lockholder: %s\n", argc == 2 ? fastmib_last_error() :
			"usage: fm-lockholder SEGMENT");
		return 2;
	}
	if (!__atomic_compare_exchange_n(&seg->reset_head->owner_pid, &free_owner,
					 (uint32_t)getpid(), false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		fprintf(stderr, "fm-lockholder: the lock is held by pid %u\n", free_owner);
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	__atomic_store_n(&seg->reset_head->owner_pid, 0, __ATOMIC_RELEASE);
	fastmib_close(seg);
	return 0;
}
