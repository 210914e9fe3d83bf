/* SPDX-License-Identifier: BSD-3-Clause */
/* The life cycle of a configured set (confset.h). */
#include <errno.h>
#include <string.h>

#include "confset.h"

static void *
elem_at(const struct fma_confset_ops *ops, void *arr, unsigned int i)
{
	return (char *)arr + (size_t)i * ops->size;
}

int
fma_confset_add(const struct fma_confset_ops *ops, void *arr, unsigned int n,
		const char *path, void **elem)
{
	*elem = NULL;
	for (unsigned int i = 0; i < n; i++) {
		void *e = elem_at(ops, arr, i);
		bool *confirmed = ops->confirmed(e);

		if (strcmp(ops->path(e), path) != 0)
			continue;
		if (*confirmed)
			return -EEXIST;
		*confirmed = true; /* named again in a reload */
		*elem = e;
		return 0;
	}
	return n >= ops->max ? -ENOSPC : 0;
}

void
fma_confset_begin(const struct fma_confset_ops *ops, void *arr, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		*ops->confirmed(elem_at(ops, arr, i)) = false;
}

unsigned int
fma_confset_end(const struct fma_confset_ops *ops, void *arr, unsigned int *n)
{
	unsigned int kept = 0, dropped = 0;

	for (unsigned int i = 0; i < *n; i++) {
		void *e = elem_at(ops, arr, i);

		if (!*ops->confirmed(e)) {
			ops->drop(e);
			dropped++;
			continue;
		}
		if (kept != i)
			memcpy(elem_at(ops, arr, kept), e, ops->size);
		kept++;
	}
	*n = kept;
	return dropped;
}
