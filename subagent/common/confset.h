/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The life cycle of a configured set. The segments the serving core serves
 * and the applications whose ports it serves are both sets of members named
 * by the configuration: one member per configured path, in the order
 * configured.
 *
 *   add      a path not in the set becomes a new member at its end; a path
 *            named again in a reload confirms its member, which keeps its
 *            state (an attached segment, a connected application); a path
 *            named twice in one configuration is refused (-EEXIST).
 *   reload   fma_confset_begin() marks every member unconfirmed, the front
 *            end adds every path of the new configuration, and
 *            fma_confset_end() drops the members left unconfirmed, keeping
 *            the others in their order.
 *
 * A set is its owner's array of pointers to members (`struct fma_seg **`,
 * `struct fmp_src **`), reached as qsort() reaches its elements: by
 * element size and functions of a pointer to an element. Single-threaded
 * like the rest of the agent.
 */
#ifndef FMA_CONFSET_H
#define FMA_CONFSET_H

#include <stdbool.h>
#include <stddef.h>

/** How a set's owner lays out its members. */
struct fma_confset_ops {
	size_t size;                        /* of an element (a member pointer) */
	const char *(*path)(const void *elem);  /* the member's configured path */
	bool *(*confirmed)(void *elem);     /* its flag: named by this configuration */
	void (*drop)(void *elem);           /* log, release and free the member */
	unsigned int max;                   /* members a set holds at most */
};

/**
 * Add `path` to the set `arr` of `n` members: its member confirmed, with
 * *elem at its element, or, for a path not in the set, 0 with *elem NULL:
 * the caller appends a new member (confirmed), for which there is room.
 * -EEXIST when the path was confirmed already (named twice); -ENOSPC when
 * the set is full.
 */
int fma_confset_add(const struct fma_confset_ops *ops, void *arr, unsigned int n,
		    const char *path, void **elem);

/** Before a reload: every member unconfirmed. */
void fma_confset_begin(const struct fma_confset_ops *ops, void *arr, unsigned int n);

/**
 * After a reload: the members left unconfirmed dropped (ops->drop), the
 * others kept in their order at the front of `arr`; *n updated. Returns the
 * number dropped.
 */
unsigned int fma_confset_end(const struct fma_confset_ops *ops, void *arr, unsigned int *n);

#endif /* FMA_CONFSET_H */
