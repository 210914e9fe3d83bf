/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of a configured set's life cycle: paths named again keep
 * their members, a path named twice is refused, a reload drops what it no
 * longer names and keeps the others in their order, the set's limit.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "confset.h"

struct member {
	char *path;
	bool confirmed;
};

static char dropped[8][16];
static unsigned int n_dropped;

static const char *
m_path(const void *elem)
{
	return (*(struct member *const *)elem)->path;
}

static bool *
m_confirmed(void *elem)
{
	return &(*(struct member **)elem)->confirmed;
}

static void
m_drop(void *elem)
{
	struct member *m = *(struct member **)elem;

	strcpy(dropped[n_dropped++], m->path);
	free(m->path);
	free(m);
}

static const struct fma_confset_ops ops = {
	.size = sizeof(struct member *),
	.path = m_path,
	.confirmed = m_confirmed,
	.drop = m_drop,
	.max = 4,
};

struct set {
	struct member *m[4];
	unsigned int n;
};

/* What a front end does with a configured path: the caller's side of
 * fma_confset_add(). */
static int
add(struct set *s, const char *path)
{
	void *named;
	int rc = fma_confset_add(&ops, s->m, s->n, path, &named);

	if (rc < 0 || named)
		return rc;
	s->m[s->n] = calloc(1, sizeof(struct member));
	s->m[s->n]->path = strdup(path);
	s->m[s->n]->confirmed = true;
	s->n++;
	return 0;
}

static void
assert_paths(const struct set *s, const char *const *want, unsigned int n)
{
	assert_int_equal(s->n, n);
	for (unsigned int i = 0; i < n; i++)
		assert_string_equal(s->m[i]->path, want[i]);
}

static void
test_life_cycle(void **state)
{
	struct set s = { .n = 0 };
	struct member *b;
	void *named;

	(void)state;
	n_dropped = 0;
	assert_int_equal(add(&s, "a"), 0);
	assert_int_equal(add(&s, "b"), 0);
	assert_int_equal(add(&s, "c"), 0);
	assert_int_equal(add(&s, "b"), -EEXIST); /* twice in one configuration */
	assert_paths(&s, (const char *const[]){ "a", "b", "c" }, 3);
	b = s.m[1];

	/* a reload naming c and b again, d new, a no longer */
	fma_confset_begin(&ops, s.m, s.n);
	assert_false(s.m[0]->confirmed || s.m[1]->confirmed || s.m[2]->confirmed);
	assert_int_equal(fma_confset_add(&ops, s.m, s.n, "c", &named), 0);
	assert_ptr_equal(named, &s.m[2]);
	assert_int_equal(add(&s, "b"), 0);
	assert_int_equal(add(&s, "b"), -EEXIST);
	assert_int_equal(add(&s, "d"), 0);
	assert_int_equal(fma_confset_end(&ops, s.m, &s.n), 1);
	assert_int_equal(n_dropped, 1);
	assert_string_equal(dropped[0], "a");
	/* the others in their order, b the same member as before */
	assert_paths(&s, (const char *const[]){ "b", "c", "d" }, 3);
	assert_ptr_equal(s.m[0], b);

	/* a reload naming nothing drops every member */
	fma_confset_begin(&ops, s.m, s.n);
	assert_int_equal(fma_confset_end(&ops, s.m, &s.n), 3);
	assert_int_equal(s.n, 0);
	assert_string_equal(dropped[1], "b");
	assert_string_equal(dropped[3], "d");
}

static void
test_limit(void **state)
{
	struct set s = { .n = 0 };

	(void)state;
	n_dropped = 0;
	for (unsigned int i = 0; i < 4; i++) {
		char p[2] = { (char)('a' + i), '\0' };

		assert_int_equal(add(&s, p), 0);
	}
	assert_int_equal(add(&s, "e"), -ENOSPC);
	/* a member of a full set is still named again in a reload */
	fma_confset_begin(&ops, s.m, s.n);
	assert_int_equal(add(&s, "d"), 0);
	assert_int_equal(fma_confset_end(&ops, s.m, &s.n), 3);
	assert_paths(&s, (const char *const[]){ "d" }, 1);
	fma_confset_begin(&ops, s.m, s.n);
	fma_confset_end(&ops, s.m, &s.n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life_cycle),
		cmocka_unit_test(test_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
