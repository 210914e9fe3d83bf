/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the event log against a real EAL: ring wrap and drop
 * accounting, lag on a scripted sequence, the burst threshold
 * distribution, models without events, and attach-time validation.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "handle.h"
#include "test_schema.h"
#include "tutil.h"

#define RING 64u

static int
setup_schema(void **state, const struct fastmib_schema *s)
{
	struct fastmib_opts o = { .event_ring = RING };

	return tu_setup(state, s, &o, FASTMIB_ATTACH_RDONLY, "events");
}

static int setup(void **state) { return setup_schema(state, &ts_ev_schema); }
static int setup_plain(void **state) { return setup_schema(state, &ts_schema); }

/* Before any burst only rate 9 is on; the schema round-trips. */
static void
test_initial_and_schema(void **state)
{
	struct tu_fixture *f = *state;
	const struct fastmib_schema *s = fastmib_schema(f->rd);
	struct fastmib_info info;

	assert_true(fastmib_event_on(f->w, 9));
	assert_false(fastmib_event_on(f->w, 8));
	assert_false(fastmib_event_on(f->w, 0));
	assert_int_equal(s->n_events, TS_N_EVENTS);
	assert_string_equal(s->events[TS_EV_INNER].name, "inner");
	assert_int_equal(s->events[TS_EV_INNER].arc, 7);
	assert_int_equal(s->events[TS_EV_INNER].level, 2);
	assert_int_equal(s->events[TS_EV_SAMPLED].rate, 5);
	assert_int_equal(s->events[TS_EV_TOP].notify, 1);
	assert_int_equal(s->events[TS_EV_OUTER].n_args, 4);
	assert_string_equal(s->events[TS_EV_OUTER].args[3], "d");
	assert_int_equal(s->events[TS_EV_SAMPLED].n_args, 0);
	/* types come back as given; left out they read as uint64 */
	assert_int_equal(s->events[TS_EV_OUTER].arg_types[0], FASTMIB_ARG_UINT32);
	assert_int_equal(s->events[TS_EV_OUTER].arg_types[2], FASTMIB_ARG_INT32);
	assert_int_equal(s->events[TS_EV_INNER].arg_types[3], FASTMIB_ARG_UINT64);
	assert_int_equal(s->events[TS_EV_TOP].arg_types[0], FASTMIB_ARG_UINT64);
	assert_int_equal(s->events[TS_EV_TOP].arg_types[1], FASTMIB_ARG_UINT64);
	assert_int_equal(s->events[TS_EV_TOP].arg_types[2], 0);
	assert_int_equal(s->events[TS_EV_SAMPLED].arg_types[0], 0);
	fastmib_info(f->rd, &info);
	assert_int_equal(info.event_ring, RING);
	assert_true(info.tsc_hz > 0);
}

/* 3 x RING records: exactly the newest RING survive, the rest are
 * counted as dropped per event, by the writer and by the cursor. */
static void
test_ring_wrap(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_event_cursor *cur, *late;
	struct fastmib_event_rec out[RING + 8];
	int n;

	assert_int_equal(fastmib_event_cursor_new(f->rd, &cur), 0);
	for (uint64_t i = 1; i <= 3 * RING; i++)
		fastmib_event_log(f->w, i % 2 ? TS_EV_OUTER : TS_EV_INNER, i, i * 3, ~i, 42);
	n = fastmib_events_poll(f->rd, cur, out, RING + 8);
	assert_int_equal(n, RING);
	for (unsigned k = 0; k < RING; k++) {
		uint64_t i = 2 * RING + 1 + k;

		assert_int_equal(out[k].seq, i);
		assert_int_equal(out[k].event, i % 2 ? TS_EV_OUTER : TS_EV_INNER);
		assert_int_equal(out[k].args[0], i);
		assert_int_equal(out[k].args[1], i * 3);
		assert_int_equal(out[k].args[2], ~i);
		assert_int_equal(out[k].args[3], 42);
		assert_int_equal(out[k].slot, f->w->slot);
		if (k)
			assert_true(out[k].tsc >= out[k - 1].tsc);
	}
	assert_int_equal(fastmib_event_cursor_dropped(cur), 2 * RING);
	assert_int_equal(fastmib_event_logged(f->rd, TS_EV_OUTER), 3 * RING / 2);
	assert_int_equal(fastmib_event_logged(f->rd, TS_EV_INNER), 3 * RING / 2);
	assert_int_equal(fastmib_event_dropped(f->rd, TS_EV_OUTER), RING);
	assert_int_equal(fastmib_event_dropped(f->rd, TS_EV_INNER), RING);
	assert_int_equal(fastmib_event_logged(f->rd, TS_EV_TOP), 0);
	assert_int_equal(fastmib_event_logged(f->rd, TS_N_EVENTS), 0);
	assert_int_equal(fastmib_events_poll(f->rd, cur, out, RING), 0);

	/* A new cursor starts at the oldest record kept, with nothing dropped;
	 * small polls continue where the previous one stopped. */
	assert_int_equal(fastmib_event_cursor_new(f->rd, &late), 0);
	for (unsigned k = 0; k < RING; k += 10) {
		n = fastmib_events_poll(f->rd, late, out, 10);
		assert_int_equal(n, RING - k < 10 ? RING - k : 10);
		assert_int_equal(out[0].seq, 2 * RING + 1 + k);
	}
	assert_int_equal(fastmib_event_cursor_dropped(late), 0);

	/* Half a ring more: the first cursor gets exactly those. */
	for (uint64_t i = 3 * RING + 1; i <= 3 * RING + RING / 2; i++)
		fastmib_event_log(f->w, TS_EV_TOP, i, 0, 0, 0);
	n = fastmib_events_poll(f->rd, cur, out, RING);
	assert_int_equal(n, RING / 2);
	assert_int_equal(out[0].seq, 3 * RING + 1);
	assert_int_equal(fastmib_event_cursor_dropped(cur), 2 * RING);
	assert_int_equal(fastmib_event_dropped(f->rd, TS_EV_OUTER) +
			 fastmib_event_dropped(f->rd, TS_EV_INNER), 2 * RING + RING / 2);
	fastmib_event_cursor_free(late);
	fastmib_event_cursor_free(cur);
}

/* Levels of the script and the index of the record each lag is measured
 * from (-1: none), worked out by hand from the nesting rule. */
static const struct {
	unsigned event;
	int from;
} script[] = {
	{ TS_EV_TOP, -1 },     /* 0: level 0, first record */
	{ TS_EV_OUTER, 0 },    /* 1: level 1 <- top */
	{ TS_EV_INNER, 1 },    /* 2: level 2 <- outer */
	{ TS_EV_INNER, 2 },    /* 3: level 2 <- previous inner */
	{ TS_EV_SAMPLED, 3 },  /* 4: level 3 <- inner */
	{ TS_EV_OUTER, 1 },    /* 5: level 1 <- outer 1, skipping 2..4 */
	{ TS_EV_INNER, 5 },    /* 6: level 2 <- outer 5 */
	{ TS_EV_TOP, 0 },      /* 7: level 0 <- top 0 */
	{ TS_EV_SAMPLED, 7 },  /* 8: level 3 <- top 7 */
	{ TS_EV_INNER, 7 },    /* 9: level 2 <- top 7 */
};
#define SCRIPT_LEN (sizeof(script) / sizeof(script[0]))

static void
check_script(const struct fastmib_event_rec *r, uint64_t hz, uint64_t t0, uint64_t t1)
{
	for (unsigned i = 0; i < SCRIPT_LEN; i++) {
		uint64_t want = script[i].from < 0 ? 0 : r[i].tsc - r[script[i].from].tsc;

		assert_int_equal(r[i].event, script[i].event);
		assert_int_equal(r[i].args[0], i);
		assert_int_equal(r[i].lag, want);
		assert_int_equal(r[i].lag_ns, (uint64_t)((unsigned __int128)want * 1000000000u / hz));
		/* Converted time within the wall-clock bracket of the logging,
		 * allowing 1 ms for the TSC/realtime reference error. */
		assert_true(r[i].time_ns + 1000000 >= t0 && r[i].time_ns <= t1 + 1000000);
	}
}

static void
test_lag_script(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_event_cursor *a, *b;
	struct fastmib_event_rec ra[SCRIPT_LEN + 1], rb[SCRIPT_LEN];
	struct fastmib_info info;
	uint64_t t0, t1;
	unsigned got = 0;
	int n;

	fastmib_info(f->rd, &info);
	assert_int_equal(fastmib_event_cursor_new(f->rd, &a), 0);
	assert_int_equal(fastmib_event_cursor_new(f->rd, &b), 0);
	fastmib_event_threshold(f->w, 1); /* log rate 5 too */
	t0 = fms_now_ns();
	for (unsigned i = 0; i < SCRIPT_LEN; i++) {
		unsigned ev = script[i].event;

		if (fastmib_event_on(f->w, ts_ev_schema.events[ev].rate))
			fastmib_event_log(f->w, ev, i, 0, 0, 0);
		rte_delay_us_block(2); /* distinct, growing TSC values */
	}
	t1 = fms_now_ns();
	n = fastmib_events_poll(f->rd, a, ra, SCRIPT_LEN + 1);
	assert_int_equal(n, SCRIPT_LEN);
	check_script(ra, info.tsc_hz, t0, t1);
	/* The lag state survives across polls of 3 records. */
	while ((n = fastmib_events_poll(f->rd, b, rb + got, 3)) > 0)
		got += (unsigned)n;
	assert_int_equal(got, SCRIPT_LEN);
	check_script(rb, info.tsc_hz, t0, t1);

	/* With the threshold back at 9, the rate-5 event is filtered out. */
	fastmib_event_threshold(f->w, 9);
	if (fastmib_event_on(f->w, ts_ev_schema.events[TS_EV_SAMPLED].rate))
		fastmib_event_log(f->w, TS_EV_SAMPLED, 99, 0, 0, 0);
	assert_int_equal(fastmib_events_poll(f->rd, a, ra, 1), 0);
	fastmib_event_cursor_free(a);
	fastmib_event_cursor_free(b);
}

/*
 * Threshold statistics: over N bursts rate r must be on in a fraction
 * p = 5^(r-9). The count is binomial(N, p); accept within 5 standard
 * deviations (false failure probability < 1e-6 per rate). For r <= 3 the
 * expected count (<= 5 at N = 200000) is too small for a relative check:
 * bound it by a Poisson tail instead.
 */
static void
test_threshold_stats(void **state)
{
	struct tu_fixture *f = *state;
	const unsigned N = 200000;
	unsigned on[10] = {0};

	for (unsigned b = 0; b < N; b++) {
		fastmib_event_burst(f->w);
		assert_true(f->w->ev_threshold >= 1 && f->w->ev_threshold <= 9);
		for (unsigned r = 0; r <= 9; r++)
			on[r] += fastmib_event_on(f->w, r);
	}
	assert_int_equal(on[0], 0);
	assert_int_equal(on[9], N);
	for (unsigned r = 1; r < 9; r++)
		assert_true(on[r] <= on[r + 1]);
	for (unsigned r = 4; r <= 8; r++) {
		double p = pow(5.0, (double)r - 9.0);
		double mean = N * p, sd = sqrt(N * p * (1 - p));

		if (fabs(on[r] - mean) > 5 * sd)
			fail_msg("rate %u on in %u of %u bursts, expected %.1f +- %.1f", r, on[r],
				 N, mean, 5 * sd);
	}
	/* Poisson(5.12): P(X > 25) < 1e-9; rates 1-2 expect 1.0 and 0.2. */
	assert_true(on[3] <= 25);
	assert_true(on[2] <= 10);
	assert_true(on[1] <= 5);
}

/* A model without events: no ring bytes, empty polls, zero counters. */
static void
test_no_events(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_event_cursor *cur;
	struct fastmib_event_rec r;
	struct fastmib_info info;

	fastmib_info(f->rd, &info);
	assert_int_equal(info.event_ring, 0);
	assert_int_equal(f->rd->lay.event_stride, 0);
	assert_null(f->w->ev_ring);
	assert_int_equal(fastmib_event_cursor_new(f->rd, &cur), 0);
	assert_int_equal(fastmib_events_poll(f->rd, cur, &r, 1), 0);
	assert_int_equal(fastmib_event_logged(f->rd, 0), 0);
	assert_int_equal(fastmib_event_dropped(f->rd, 0), 0);
	fastmib_event_cursor_free(cur);
	/* Counters still work. */
	fastmib_begin(f->w);
	fastmib_pc_add(f->w, TS_GLOBAL_PKTS, 5);
	fastmib_end(f->w);
	{
		uint64_t v[3];

		assert_int_equal(fastmib_read(f->rd, TS_GLOBAL, 0, v), 0);
		assert_int_equal(v[0], 5);
	}
}

/* Attach a mutated copy of `path` and expect it to be refused with `msg`. */
static void
expect_refused(const char *path, void (*mutate)(struct fms_header *, uint8_t *),
	       const char *msg)
{
	char bad[300];
	struct stat st;
	struct fastmib_segment *seg = NULL;
	uint8_t *img;
	int fd;

	snprintf(bad, sizeof(bad), "%s.bad", path);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	img = malloc((size_t)st.st_size);
	assert_int_equal(pread(fd, img, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	mutate((struct fms_header *)(void *)img, img);
	fd = open(bad, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_int_equal(write(fd, img, (size_t)st.st_size), st.st_size);
	close(fd);
	free(img);
	assert_int_equal(fastmib_attach(bad, 0, &seg), -EINVAL);
	assert_null(seg);
	if (strstr(fastmib_last_error(), msg) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", fastmib_last_error(), msg);
	unlink(bad);
}

static void m_ring3(struct fms_header *h, uint8_t *b) { (void)b; h->event_ring = 3; }
static void m_ring_half(struct fms_header *h, uint8_t *b) { (void)b; h->event_ring /= 2; }
static void m_area(struct fms_header *h, uint8_t *b) { (void)b; h->event_stride -= 64; }
static void m_hz(struct fms_header *h, uint8_t *b) { (void)b; h->tsc_hz = 0; }
/* Event records of an image; callers rehash after changing them. */
static struct fms_event_rec *
event_recs(struct fms_header *h, uint8_t *b)
{
	struct fms_schema_rec *sr = (void *)(b + h->schema.off);

	return (void *)((uint8_t *)(sr + 1) + sr->n_groups * sizeof(struct fms_group_rec) +
			sr->n_counters * sizeof(struct fms_counter_rec));
}

static void
rehash(struct fms_header *h, uint8_t *b)
{
	h->schema_hash = fms_fnv1a(b + h->schema.off, h->schema.len);
}

static void
m_level(struct fms_header *h, uint8_t *b)
{
	event_recs(h, b)[1].level = 10;
	rehash(h, b);
}

static void
m_argtype(struct fms_header *h, uint8_t *b)
{
	event_recs(h, b)[TS_EV_OUTER].arg_types[2] = 7;
	rehash(h, b);
}

/* 0 is only "not given" in a creator's schema, never in a file. */
static void
m_argtype_zero(struct fms_header *h, uint8_t *b)
{
	event_recs(h, b)[TS_EV_INNER].arg_types[0] = 0;
	rehash(h, b);
}

static void
m_argtype_unused(struct fms_header *h, uint8_t *b)
{
	event_recs(h, b)[TS_EV_TOP].arg_types[2] = FASTMIB_ARG_INT32;
	rehash(h, b);
}

static void
test_bad_event_segments(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_event_schema ev[2];
	struct fastmib_schema s = ts_ev_schema;
	struct fastmib_segment *seg = NULL;
	struct fastmib_opts o = { .event_ring = 100 };
	char p2[300];

	expect_refused(f->path, m_ring3, "event ring of 3");
	expect_refused(f->path, m_ring_half, "disagree");
	expect_refused(f->path, m_area, "event area");
	expect_refused(f->path, m_hz, "TSC rate");
	expect_refused(f->path, m_level, "level 10");
	expect_refused(f->path, m_argtype, "event outer: argument 3 of 4 has unknown type 7");
	expect_refused(f->path, m_argtype_zero, "event inner: argument 1 of 4 has unknown type 0");
	expect_refused(f->path, m_argtype_unused, "event top: argument 3 of 2 has unknown type 2");

	snprintf(p2, sizeof(p2), "%s.2", f->path);
	assert_int_equal(fastmib_create(&ts_ev_schema, p2, &o, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "event_ring 100"));
	memcpy(ev, ts_ev_schema.events, sizeof(ev));
	ev[1].arc = ev[0].arc;
	s.events = ev;
	s.n_events = 2;
	assert_int_equal(fastmib_create(&s, p2, NULL, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "share arc"));
	ev[1].arc = 5;
	ev[1].n_args = 5;
	assert_int_equal(fastmib_create(&s, p2, NULL, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "5 args"));
	ev[1].n_args = 4;
	ev[1].arg_types[3] = 4;
	assert_int_equal(fastmib_create(&s, p2, NULL, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "event outer: arg d: type 4 out of range 0..3"));
	assert_null(seg);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_initial_and_schema, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_ring_wrap, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_lag_script, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_threshold_stats, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_no_events, setup_plain, tu_teardown),
		cmocka_unit_test_setup_teardown(test_bad_event_segments, setup, tu_teardown),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
