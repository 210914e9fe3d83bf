/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Allocation of a segment's lazily allocated parts (see segment_format.h):
 * a slot's region when a thread claims it, the pages of a reset record
 * when the record is first stored, those of a key record when a key is
 * inserted. Storing to a hole of a full tmpfs
 * raises SIGBUS, which would kill the application; allocating first turns
 * that into an error the caller reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "handle.h"

int
fms_alloc_range(struct fastmib_segment *seg, uint64_t off, uint64_t len, const char *what)
{
	int rc = posix_fallocate(seg->fd, (off_t)off, (off_t)len);

	if (rc == 0 || rc == EOPNOTSUPP || rc == ENOSYS || rc == EINVAL)
		return 0; /* EINVAL, EOPNOTSUPP: a file system that cannot; stays sparse */
	return fms_error(-rc, "%s: cannot allocate %s (%llu bytes at %llu): %s", seg->path,
			 what, (unsigned long long)len, (unsigned long long)off, strerror(rc));
}

int
fms_alloc_once(struct fastmib_segment *seg, uint64_t off, uint64_t len, const char *what)
{
	uint64_t ps = seg->lay.page_size, n_pages = (seg->size + ps - 1) / ps;
	uint64_t *pages = __atomic_load_n(&seg->alloc_pages, __ATOMIC_ACQUIRE);
	uint64_t first = off / ps, last = (off + len - 1) / ps;
	int rc;

	if (pages == NULL) {
		uint64_t *fresh = calloc((n_pages + 63) / 64, 8), *none = NULL;

		if (fresh == NULL)
			return fms_error(-ENOMEM, "out of memory");
		if (__atomic_compare_exchange_n(&seg->alloc_pages, &none, fresh, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			pages = fresh;
		else {
			free(fresh);
			pages = none;
		}
	}
	for (uint64_t p = first; p <= last; p++) {
		if ((__atomic_load_n(&pages[p / 64], __ATOMIC_RELAXED) >> (p % 64)) & 1)
			continue;
		rc = fms_alloc_range(seg, p * ps, ps, what);
		if (rc)
			return rc;
		__atomic_fetch_or(&pages[p / 64], 1ull << (p % 64), __ATOMIC_RELAXED);
	}
	return 0;
}

int
fms_alloc_record(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fastmib_group_schema *g = &seg->schema->groups[group];
	uint64_t off = (uint64_t)((uint8_t *)fms_reset_row(seg, group, row) - seg->base);

	return fms_alloc_once(seg, off, fms_rec_words(g) * 8, "a reset record");
}

void
fms_set_stored(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	uint64_t *bits = fms_stored_bits(seg, group);

	__atomic_fetch_or(&bits[row / 64], 1ull << (row % 64), __ATOMIC_RELEASE);
}
