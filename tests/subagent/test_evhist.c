/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the agent's event history: numbering, eviction of the
 * oldest record, lookups by number, and the next-record search of the
 * argument columns, checked against a brute-force model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "evhist.h"

static struct fastmib_event_rec
rec_of(uint32_t event, uint64_t a0)
{
	struct fastmib_event_rec r = { .event = event, .args = { a0 } };

	return r;
}

static void
test_numbers_and_eviction(void **state)
{
	struct fma_evhist h;
	uint32_t n_args;

	(void)state;
	assert_int_equal(fma_evhist_init(&h, 4), 0);
	assert_null(fma_evhist_get(&h, 1, NULL));
	assert_int_equal(fma_evhist_next(&h, 0, 0), -1);
	for (uint32_t i = 1; i <= 10; i++) {
		struct fastmib_event_rec r = rec_of(i % 3, 100 + i);

		assert_int_equal(fma_evhist_push(&h, &r, i % 3), i);
	}
	/* the last 4 remain: 7..10 */
	assert_null(fma_evhist_get(&h, 6, NULL));
	assert_null(fma_evhist_get(&h, 11, NULL));
	for (uint32_t i = 7; i <= 10; i++) {
		const struct fastmib_event_rec *r = fma_evhist_get(&h, i, &n_args);

		assert_non_null(r);
		assert_int_equal(r->args[0], 100 + i);
		assert_int_equal(n_args, i % 3);
	}
	assert_int_equal(fma_evhist_next(&h, 0, 0), 7);
	assert_int_equal(fma_evhist_next(&h, 9, 0), 9);
	assert_int_equal(fma_evhist_next(&h, 11, 0), -1);
	/* records with >= 1 argument: 7 (1), 8 (2), 10 (1); >= 2: 8 */
	assert_int_equal(fma_evhist_next(&h, 0, 1), 7);
	assert_int_equal(fma_evhist_next(&h, 9, 1), 10);
	assert_int_equal(fma_evhist_next(&h, 0, 2), 8);
	assert_int_equal(fma_evhist_next(&h, 9, 2), -1);
	assert_int_equal(fma_evhist_next(&h, 0, 3), -1);
	assert_int_equal(fma_evhist_next(&h, 0, 5), -1);
	fma_evhist_free(&h);
}

/* Against a model that remembers every record, over many pushes and a
 * history much shorter than them. */
static void
test_next_matches_brute_force(void **state)
{
	enum { CAP = 7, PUSHES = 500 };
	static uint8_t args_of[PUSHES + 1];
	struct fma_evhist h;
	uint64_t rng = 12345;

	(void)state;
	assert_int_equal(fma_evhist_init(&h, CAP), 0);
	for (uint32_t num = 1; num <= PUSHES; num++) {
		struct fastmib_event_rec r = rec_of(0, num);
		uint32_t first = num > CAP ? num - CAP + 1 : 1;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		args_of[num] = (uint8_t)((rng >> 33) % 5); /* 0..4 */
		assert_int_equal(fma_evhist_push(&h, &r, args_of[num]), num);
		for (uint32_t min = 0; min <= 4; min++) {
			for (uint32_t from = 0; from <= num + 1; from++) {
				int64_t want = -1;

				for (uint32_t k = from > first ? from : first; k <= num; k++) {
					if (args_of[k] >= min) {
						want = k;
						break;
					}
				}
				assert_int_equal(fma_evhist_next(&h, from, min), want);
			}
		}
	}
	fma_evhist_free(&h);
}

static void
test_restart_after_last_number(void **state)
{
	struct fma_evhist h;
	struct fastmib_event_rec r = rec_of(0, 1);

	(void)state;
	assert_int_equal(fma_evhist_init(&h, 3), 0);
	h.next = FMA_EVHIST_MAX_NUMBER - 1; /* as after 2^32 - 2 records */
	assert_int_equal(fma_evhist_push(&h, &r, 1), FMA_EVHIST_MAX_NUMBER - 1);
	assert_int_equal(fma_evhist_push(&h, &r, 1), FMA_EVHIST_MAX_NUMBER);
	assert_int_equal(fma_evhist_next(&h, 0, 1), FMA_EVHIST_MAX_NUMBER - 1);
	/* no number is given twice while records carrying it are served */
	assert_int_equal(fma_evhist_push(&h, &r, 1), 1);
	assert_int_equal(h.restarts, 1);
	assert_null(fma_evhist_get(&h, FMA_EVHIST_MAX_NUMBER, NULL));
	assert_int_equal(fma_evhist_next(&h, 0, 1), 1);
	assert_int_equal(fma_evhist_next(&h, 2, 1), -1);
	fma_evhist_free(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_eviction),
		cmocka_unit_test(test_next_matches_brute_force),
		cmocka_unit_test(test_restart_after_last_number),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
