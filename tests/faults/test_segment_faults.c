/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Faults a reader must survive, on real segment files: the file truncated
 * or emptied under the mapping (SIGBUS without the guard), a FIFO, a
 * symbolic link, a file of another user or one every user may write at a
 * segment path; and the creator's side of the same: a FIFO or link at the
 * path it re-creates, a file system too full for the segment.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "tutil.h"

static char path[256];

/* A segment with known values, its creator gone (only readers map it). */
static int
setup(void **state)
{
	struct fastmib_segment *seg;
	struct fastmib_writer *w;

	(void)state;
	tu_path(path, sizeof(path), "faults");
	unlink(path);
	if (fastmib_create(&ts_schema, path, NULL, &seg) != 0)
		return -1;
	w = fastmib_writer(seg);
	fastmib_begin(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 42);
	fastmib_end(w);
	fastmib_close(seg);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void
expect_refused(const char *p, int err, const char *why)
{
	struct fastmib_segment *seg = NULL;

	alarm(10); /* a FIFO opened the blocking way would hang here */
	assert_int_equal(fastmib_attach(p, 0, &seg), err);
	alarm(0);
	assert_null(seg);
	if (strstr(fastmib_last_error(), why) == NULL || strstr(fastmib_last_error(), p) == NULL)
		fail_msg("message \"%s\" lacks \"%s\" or the path", fastmib_last_error(), why);
}

/* Truncated while attached: every entry point answers an error, the
 * handle says stale, and nothing kills the process. */
static void
test_truncated_under_reader(void **state)
{
	struct fastmib_segment *rd;
	struct fastmib_event_cursor *cur;
	struct fastmib_reset_plan *plan;
	struct fastmib_info info;
	uint64_t v[3];
	int fd;

	(void)state;
	assert_int_equal(fastmib_attach(path, 0, &rd), 0);
	assert_int_equal(fastmib_read(rd, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 42);
	assert_false(fastmib_stale(rd));

	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 0), 0);
	close(fd);

	assert_true(fastmib_stale(rd));
	assert_int_equal(fastmib_read(rd, TS_GLOBAL, 0, v), -EIO);
	assert_non_null(strstr(fastmib_last_error(), "shrank"));
	assert_non_null(strstr(fastmib_last_error(), path));
	assert_int_equal(fastmib_read_raw(rd, TS_POOL, 0, v), -EIO);
	assert_false(fastmib_row_present(rd, TS_FLOW, 0));
	assert_int_equal(fastmib_next_row(rd, TS_FLOW, 0), -EIO);
	assert_int_equal(fastmib_reset(rd, -1, 0), -EIO);
	assert_int_equal(fastmib_reset_prepare(rd, TS_GLOBAL, 0, &plan), -EIO);
	assert_int_equal(fastmib_discontinuity(rd, TS_FLOW, 1), 0);
	assert_int_equal(fastmib_event_cursor_new(rd, &cur), -EIO);
	fastmib_info(rd, &info);
	assert_int_equal(info.generation, 0);
	fastmib_close(rd);
}

/* Shrunk by a page only: the first access past the new end faults, the
 * ones before it still work until then; the fault is caught. */
static void
test_shrunk_by_a_page(void **state)
{
	struct fastmib_segment *rd;
	struct fastmib_info info;
	struct stat st;
	uint64_t v[3];
	int fd, rc;

	(void)state;
	assert_int_equal(fastmib_attach(path, 0, &rd), 0);
	fastmib_info(rd, &info);
	assert_int_equal(stat(path, &st), 0);
	fd = open(path, O_RDWR);
	assert_int_equal(ftruncate(fd, st.st_size - 4096), 0); /* the reset area's last page */
	close(fd);
	assert_true(fastmib_stale(rd));
	/* the reads touch the tail (baselines) sooner or later: never a signal */
	for (uint32_t r = 0; r < 15; r++)
		(void)fastmib_row_present(rd, TS_FLOW, r);
	rc = fastmib_reset(rd, -1, 0);
	assert_true(rc == -EIO || rc == 0);
	(void)fastmib_read(rd, TS_GLOBAL, 0, v);
	fastmib_close(rd);
}

/* The guard handles only its own faults: a SIGBUS elsewhere still takes
 * the process's own disposition (here the default: death by SIGBUS). */
static void
test_foreign_sigbus_not_swallowed(void **state)
{
	struct fastmib_segment *rd;
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char other[280];
		volatile uint8_t *p;
		int fd;

		signal(SIGBUS, SIG_DFL); /* the process's own disposition */
		if (fastmib_attach(path, 0, &rd) != 0) /* installs the guard's handler */
			_exit(1);

		snprintf(other, sizeof(other), "%s.other", path);
		fd = open(other, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, 8192) < 0)
			_exit(2);
		p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED || ftruncate(fd, 0) < 0)
			_exit(3);
		unlink(other);
		(void)p[4096]; /* not a fastmib mapping */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGBUS);
}

static void
test_fifo_link_owner_mode(void **state)
{
	char p[300], q[320];
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s.fifo", path);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	expect_refused(p, -EINVAL, "a FIFO");
	unlink(p);

	snprintf(p, sizeof(p), "%s.link", path);
	unlink(p);
	assert_int_equal(symlink(path, p), 0);
	expect_refused(p, -ELOOP, "symbolic link");
	unlink(p);

	assert_int_equal(chmod(path, 0646), 0);
	expect_refused(path, -EPERM, "writable by every user");
	assert_int_equal(chmod(path, 0640), 0);

	if (geteuid() == 0) {
		/* another user's file in a directory anyone may write: refused */
		assert_int_equal(chown(path, 4242, 4242), 0);
		expect_refused(path, -EPERM, "owned by uid 4242");
		/* the same user's file in that user's own directory: accepted */
		snprintf(p, sizeof(p), "%s.dir", path);
		snprintf(q, sizeof(q), "%s/seg", p);
		mkdir(p, 0755);
		assert_int_equal(rename(path, q), 0);
		assert_int_equal(chown(p, 4242, 4242), 0);
		{
			struct fastmib_segment *rd;

			assert_int_equal(fastmib_attach(q, FASTMIB_ATTACH_RDONLY, &rd), 0);
			fastmib_close(rd);
		}
		assert_int_equal(rename(q, path), 0);
		rmdir(p);
		assert_int_equal(chown(path, 0, 0), 0);
	}
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
}

/* The creator meets a FIFO or a link at its path: refused at once, the
 * link's target untouched (never retired). */
static void
test_create_over_fifo_or_link(void **state)
{
	struct fastmib_segment *seg = NULL, *rd;
	char p[300];

	(void)state;
	snprintf(p, sizeof(p), "%s.fifo", path);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	alarm(10);
	assert_int_equal(fastmib_create(&ts_schema, p, NULL, &seg), -EEXIST);
	alarm(0);
	assert_non_null(strstr(fastmib_last_error(), "a FIFO"));
	unlink(p);

	snprintf(p, sizeof(p), "%s.link", path);
	unlink(p);
	assert_int_equal(symlink(path, p), 0);
	assert_int_equal(fastmib_create(&ts_schema, p, NULL, &seg), -EEXIST);
	assert_non_null(strstr(fastmib_last_error(), "symbolic link"));
	unlink(p);
	assert_int_equal(fastmib_attach(path, 0, &rd), 0);
	assert_false(fastmib_stale(rd)); /* not retired through the link */
	fastmib_close(rd);
}

/* A tmpfs too small for the segment: an error at create, naming the path,
 * not a SIGBUS at the first update. Needs CAP_SYS_ADMIN for the mount. */
static void
test_full_tmpfs(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], p[600], msg[1024];
	struct fastmib_segment *seg = NULL;
	int rc;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/fastmib-tmpfs-XXXXXX", tmp != NULL ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	if (mount("fastmib-test", dir, "tmpfs", 0, "size=4k") != 0) {
		rmdir(dir);
		skip();
	}
	snprintf(p, sizeof(p), "%s/seg", dir);
	rc = fastmib_create(&ts_schema, p, NULL, &seg);
	snprintf(msg, sizeof(msg), "%s", fastmib_last_error());
	/* Gone before the first assertion, which returns at once if it fails. */
	if (seg != NULL)
		fastmib_close(seg);
	umount(dir);
	assert_int_equal(rc, -ENOSPC);
	assert_non_null(strstr(msg, p));
	assert_non_null(strstr(msg, "free on its file system"));
	assert_null(seg);

	/* Room at creation, gone by the time the lcore takes its writer (a
	 * file filled the tmpfs): fastmib_writer() says so, no SIGBUS later. */
	assert_int_equal(mount("fastmib-test", dir, "tmpfs", 0, "size=1m"), 0);
	rc = fastmib_create(&ts_schema, p, NULL, &seg);
	if (rc == 0) {
		char filler[600];
		static char block[4096];
		int fd;

		snprintf(filler, sizeof(filler), "%s/filler", dir);
		fd = open(filler, O_WRONLY | O_CREAT, 0600);
		while (fd >= 0 && write(fd, block, sizeof(block)) == (ssize_t)sizeof(block))
			;
		if (fd >= 0)
			close(fd);
		rc = fastmib_writer(seg) == NULL ? -1 : 0;
		snprintf(msg, sizeof(msg), "%s", fastmib_last_error());
		fastmib_close(seg);
	}
	umount(dir);
	rmdir(dir);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(msg, "cannot allocate a writer slot's counters"));
	assert_non_null(strstr(msg, "No space left"));
}

/*
 * The writer dies (SIGKILL): readers see it gone at once, and its counters
 * stay readable as history. Re-created at the same path, the segment's
 * discontinuity times all move to its creation.
 */
static void
test_writer_death_and_recreation(void **state)
{
	struct fastmib_segment *rd, *again, *seg;
	struct fastmib_info info;
	char p[300], ready;
	int pipefd[2], status;
	uint64_t v[3], before;
	pid_t pid;

	(void)state;
	snprintf(p, sizeof(p), "%s.live", path);
	unlink(p);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct fastmib_writer *w;

		if (fastmib_create(&ts_schema, p, NULL, &seg) != 0)
			_exit(1);
		w = fastmib_writer(seg);
		fastmib_begin(w);
		fastmib_pc_add(w, TS_GLOBAL_PKTS, 7);
		fastmib_end(w);
		if (write(pipefd[1], "k", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &ready, 1), 1); /* the child is counting */
	close(pipefd[0]);
	assert_int_equal(fastmib_attach(p, 0, &rd), 0);
	assert_true(fastmib_writer_running(rd));
	fastmib_info(rd, &info);
	assert_true(info.writer_running);
	before = fastmib_discontinuity(rd, TS_GLOBAL, 0);
	assert_int_equal(before, info.created_ns);

	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_false(fastmib_writer_running(rd));
	assert_int_equal(fastmib_read(rd, TS_GLOBAL, 0, v), 0); /* history */
	assert_int_equal(v[0], 7);
	assert_false(fastmib_stale(rd));

	/* a new writer at the same path: a new segment, a new discontinuity */
	assert_int_equal(fastmib_create(&ts_schema, p, NULL, &seg), 0);
	assert_true(fastmib_stale(rd));
	assert_int_equal(fastmib_attach(p, 0, &again), 0);
	assert_true(fastmib_writer_running(again));
	assert_true(fastmib_discontinuity(again, TS_GLOBAL, 0) > before);
	assert_true(fastmib_discontinuity(again, -1, 0) > before);
	assert_true(fastmib_discontinuity(again, TS_FLOW, 3) > before);
	fastmib_close(seg); /* the creator closing is the writer going too */
	assert_false(fastmib_writer_running(again));
	fastmib_close(again);
	fastmib_close(rd);
	unlink(p);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_truncated_under_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shrunk_by_a_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_sigbus_not_swallowed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_link_owner_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_over_fifo_or_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_tmpfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_death_and_recreation, setup, teardown),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
