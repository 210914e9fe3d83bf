/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A writer over plain memory, to see what generated update functions
 * write: a model's per-core and shared areas, zeroed, and a copy of each
 * for the test to write the expected result into. It has no segment: a
 * test must not make it flush or count an index out of range.
 */
#ifndef FASTMIB_TEST_PLAIN_AREAS_H
#define FASTMIB_TEST_PLAIN_AREAS_H

#include <stdlib.h>
#include <string.h>

#include <fastmib/fastmib.h>

struct plain_areas {
	struct fastmib_writer *w;
	void *pc, *pc_expect;   /* the per-core area (struct <p>_percore) */
	void *sh, *sh_expect;   /* the shared area (struct <p>_shared) */
	size_t pc_size, sh_size;
};

static inline void *
plain_area(size_t size)
{
	size_t n = (size + 63) / 64 * 64;
	void *p = aligned_alloc(64, n ? n : 64);

	memset(p, 0, n ? n : 64);
	return p;
}

static inline struct plain_areas *
plain_areas_new(size_t pc_size, size_t sh_size)
{
	struct plain_areas *a = calloc(1, sizeof(*a));

	a->w = calloc(1, sizeof(*a->w));
	a->pc = plain_area(pc_size);
	a->pc_expect = plain_area(pc_size);
	a->sh = plain_area(sh_size);
	a->sh_expect = plain_area(sh_size);
	a->pc_size = pc_size;
	a->sh_size = sh_size;
	a->w->percore = a->pc;
	a->w->shared = a->sh;
	/* no peak reset ever requested: the count is the writer's own, as a
	 * writer of a model without peaks has it */
	a->w->peak_requests = &a->w->peak_seen;
	return a;
}

static inline void
plain_areas_free(struct plain_areas *a)
{
	free(a->w);
	free(a->pc);
	free(a->pc_expect);
	free(a->sh);
	free(a->sh_expect);
	free(a);
}

/* cmocka fixtures `setup` and `teardown`: plain areas of the model of
 * prefix p (struct p_percore, struct p_shared) in *state. */
#define PLAIN_AREAS_FIXTURES(p)                                                  \
	static int setup(void **state)                                           \
	{                                                                        \
		*state = plain_areas_new(sizeof(struct p##_percore),             \
					 sizeof(struct p##_shared));             \
		return 0;                                                        \
	}                                                                        \
	static int teardown(void **state)                                        \
	{                                                                        \
		plain_areas_free(*state);                                        \
		return 0;                                                        \
	}

#endif
