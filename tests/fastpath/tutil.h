/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the fastpath tests. */
#ifndef FASTMIB_TUTIL_H
#define FASTMIB_TUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "fastmib/fastmib.h"

/*
 * rte_eal_remote_launch()/rte_eal_wait_lcore() synchronize inside the
 * (uninstrumented) EAL, invisible to ThreadSanitizer. These wrappers add
 * an explicit release/acquire pair on each side so TSan sees the same
 * happens-before edges the EAL provides.
 */
struct tu_call {
	lcore_function_t *fn;
	void *arg;
	unsigned go, done;
};
static struct tu_call tu_calls[RTE_MAX_LCORE];

static inline int
tu_tramp(void *p)
{
	struct tu_call *c = p;
	int rc;

	(void)__atomic_load_n(&c->go, __ATOMIC_ACQUIRE);
	rc = c->fn(c->arg);
	__atomic_fetch_add(&c->done, 1, __ATOMIC_RELEASE);
	return rc;
}

static inline int
tu_launch(lcore_function_t *fn, void *arg, unsigned lcore)
{
	struct tu_call *c = &tu_calls[lcore];

	c->fn = fn;
	c->arg = arg;
	__atomic_fetch_add(&c->go, 1, __ATOMIC_RELEASE);
	return rte_eal_remote_launch(tu_tramp, c, lcore);
}

static inline int
tu_wait(unsigned lcore)
{
	int rc = rte_eal_wait_lcore(lcore);

	(void)__atomic_load_n(&tu_calls[lcore].done, __ATOMIC_ACQUIRE);
	return rc;
}

/* The tag of this run of the suite (FASTMIB_TEST_TAG, given to every test
 * by ctest): in the name of whatever a test makes outside its temporary
 * directory, so that the suite's last test can tell what this run left
 * behind (tests/leftovers/leftovers.py). */
static inline const char *
tu_tag(void)
{
	const char *tag = getenv("FASTMIB_TEST_TAG");

	return tag != NULL && tag[0] != '\0' ? tag : "fmt";
}

/* At exit: the EAL's runtime directory of this process, empty without
 * shared configuration and telemetry, which DPDK would leave behind. */
static inline void
tu_remove_runtime_dir(void)
{
	rmdir(rte_eal_get_runtime_dir());
}

/*
 * A test writer's --hold: "ready" on standard output, then each line of
 * standard input split at tabs into words, all given to `apply` (which
 * applies them one right after the other: 0, or < 0 at the first that
 * fails), answered "ok" or "error" once done, until the input ends. A
 * writer still running, whose segment changes on demand (mkkeyed,
 * mkstates).
 */
static inline void
tu_hold(int (*apply)(void *ctx, char **words, int n), void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	printf("ready\n");
	while ((n = getline(&line, &cap, stdin)) > 0) {
		char *words[64], *save = NULL;
		int nw = 0;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		for (char *a = strtok_r(line, "\t", &save); a && nw < 64;
		     a = strtok_r(NULL, "\t", &save))
			words[nw++] = a;
		printf(apply(ctx, words, nw) < 0 ? "error\n" : "ok\n");
	}
	free(line);
}

/* Start a real EAL without hugepages or devices; `lcores` as for --lcores.
 * Its runtime directory goes when the process exits. */
static inline void
tu_eal_init(const char *name, const char *lcores)
{
	char prefix[64];
	char *argv[] = { (char *)name, "--no-huge", "--no-pci", "--no-shconf",
			 "--no-telemetry", "-m", "64", "--lcores", (char *)lcores,
			 "--file-prefix", prefix, "--log-level", "lib.eal:error", NULL };

	snprintf(prefix, sizeof(prefix), "%s-%d", tu_tag(), (int)getpid());
	atexit(tu_remove_runtime_dir);
	if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv) < 0) {
		fprintf(stderr, "%s: rte_eal_init failed\n", name);
		exit(1);
	}
}

/* rte_eal_cleanup(), then `rc`. */
static inline int
tu_eal_cleanup_after(int rc)
{
	rte_eal_cleanup();
	return rc;
}

/*
 * What a cmocka test program's main() returns: group `tests` (an array of
 * struct CMUnitTest) run in a real EAL on lcores 0-1 started for program
 * `name` (tu_eal_init()), cleaned up after. A macro: cmocka takes the
 * group's size and name from the array.
 */
#define tu_run_tests(name, tests)                                \
	(tu_eal_init((name), "0-1"),                              \
	 tu_eal_cleanup_after(cmocka_run_group_tests(tests, NULL, NULL)))

/* A unique segment path for this process. */
static inline const char *
tu_path(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/dev/shm/fastmib-test-%s-%d-%s", tu_tag(), (int)getpid(), tag);
	return buf;
}

/* A fresh segment, the same file attached once more as a reader would, and
 * the creator's writer for this lcore: the state of a cmocka test. */
struct tu_fixture {
	struct fastmib_segment *seg;  /* creator */
	struct fastmib_segment *rd;   /* attached in this process, as a reader */
	struct fastmib_writer *w;
	char path[256];
};

/* Sets up `f` on segment `tag` of this process; `o` may be NULL. */
static inline int
tu_fixture_open(struct tu_fixture *f, const struct fastmib_schema *s,
		const struct fastmib_opts *o, unsigned int attach_flags, const char *tag)
{
	tu_path(f->path, sizeof(f->path), tag);
	unlink(f->path);
	if (fastmib_create(s, f->path, o, &f->seg) != 0 ||
	    fastmib_attach(f->path, attach_flags, &f->rd) != 0) {
		fprintf(stderr, "setup: %s\n", fastmib_last_error());
		return -1;
	}
	f->w = fastmib_writer(f->seg);
	return f->w != NULL ? 0 : -1;
}

/* cmocka setup: *state becomes a fixture opened as tu_fixture_open() does
 * (one at a time: the next setup reuses it), for tu_teardown(). */
static inline int
tu_setup(void **state, const struct fastmib_schema *s, const struct fastmib_opts *o,
	 unsigned int attach_flags, const char *tag)
{
	static struct tu_fixture f;

	*state = &f;
	return tu_fixture_open(&f, s, o, attach_flags, tag);
}

/* cmocka teardown of a struct tu_fixture state. */
static inline int
tu_teardown(void **state)
{
	struct tu_fixture *f = *state;

	fastmib_close(f->rd);
	fastmib_close(f->seg);
	unlink(f->path);
	return 0;
}

#endif
