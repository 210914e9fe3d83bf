/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Segment life cycle and hostile input: missing, truncated and corrupted
 * files are refused with a precise errno and message; re-creation bumps
 * the generation and makes old handles stale.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
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

static char good_path[256], bad_path[256];
static uint8_t *image;
static size_t image_len;

static void
load_good(void)
{
	struct fastmib_segment *seg;
	struct stat st;
	int fd;

	tu_path(good_path, sizeof(good_path), "life-good");
	tu_path(bad_path, sizeof(bad_path), "life-bad");
	unlink(good_path);
	assert_int_equal(fastmib_create(&ts_schema, good_path, NULL, &seg), 0);
	assert_int_equal(fastmib_row_enable(seg, TS_SESSION, 1), 0);
	fastmib_close(seg);
	fd = open(good_path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	image_len = (size_t)st.st_size;
	image = malloc(image_len);
	assert_int_equal(pread(fd, image, image_len, 0), (ssize_t)image_len);
	close(fd);
}

/* Attach a copy of the good image with `len` bytes and expect failure. */
static void
expect_bad(const uint8_t *buf, size_t len, int err, const char *msg)
{
	struct fastmib_segment *seg = NULL;
	int fd = open(bad_path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	assert_int_equal(fastmib_attach(bad_path, 0, &seg), err);
	assert_null(seg);
	if (strstr(fastmib_last_error(), msg) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", fastmib_last_error(), msg);
	unlink(bad_path);
}

static void
test_bad_files(void **state)
{
	char msg[128];
	struct fastmib_segment *seg = NULL;
	uint8_t *c;
	struct fms_header *h;

	(void)state;
	load_good();
	c = malloc(image_len);

	assert_int_equal(fastmib_attach("/dev/shm/fastmib-no-such-file", 0, &seg), -ENOENT);
	assert_non_null(strstr(fastmib_last_error(), "No such file"));
	expect_bad(image, 0, -EINVAL, "truncated");
	expect_bad(image, 100, -EINVAL, "truncated");
	expect_bad(image, image_len - 4096, -EINVAL, "file size");

#define MUTATE(stmt, err, msg)                                   \
	do {                                                     \
		memcpy(c, image, image_len);                     \
		h = (struct fms_header *)(void *)c;              \
		stmt;                                            \
		expect_bad(c, image_len, err, msg);              \
	} while (0)

	MUTATE(h->magic[0] = 'X', -EINVAL, "magic");
	snprintf(msg, sizeof(msg), "format version %u, this library reads version %u",
		 FMS_FORMAT + 1, FMS_FORMAT);
	MUTATE(h->format = FMS_FORMAT + 1, -EPROTONOSUPPORT, msg);
	/* format 2 had no event argument types */
	snprintf(msg, sizeof(msg), "format version 2, this library reads version %u",
		 FMS_FORMAT);
	MUTATE(h->format = 2, -EPROTONOSUPPORT, msg);
	MUTATE(h->header_size = 128, -EINVAL, "header size");
	MUTATE(h->file_size += 64, -EINVAL, "file size");
	MUTATE(h->n_slots = 0, -EINVAL, "slots");
	MUTATE(h->n_slots = h->n_slots + 1, -EINVAL, "disagrees");
	MUTATE(h->shared.off = h->slots.off, -EINVAL, "shared area");
	MUTATE(h->reset.len = 1ull << 40, -EINVAL, "reset area");
	MUTATE(h->presence.off -= 64, -EINVAL, "presence area");
	MUTATE(h->page_size = 12345, -EINVAL, "page size");
	MUTATE(h->schema_hash ^= 1, -EINVAL, "schema hash");
	/* Schema corruption with a recomputed hash: caught by the checks. */
	{
		struct fms_schema_rec *sr;
		struct fms_group_rec *gr;
		struct fms_counter_rec *cr;

#define SMUTATE(stmt, msg)                                                        \
	MUTATE((sr = (void *)(c + h->schema.off), gr = (void *)(sr + 1),         \
		cr = (void *)(gr + sr->n_groups), (void)cr, stmt,                 \
		h->schema_hash = fms_fnv1a(c + h->schema.off, h->schema.len)),    \
	       -EINVAL, msg)

		SMUTATE(gr[TS_PORT].offset = 1ull << 20, "outside");
		SMUTATE(gr[TS_SESSION].row_size = 12, "row_size");
		SMUTATE(cr[0].offset = 24, "offset 24");
		SMUTATE(cr[1].offset = 4, "offset 4");
		SMUTATE(cr[0].name.len += 1, "NUL");
		SMUTATE(cr[0].name.off = 1u << 30, "outside the string table");
		SMUTATE(sr->n_groups = 300, "out of range");
		SMUTATE(gr[TS_FLOW].n_rows = 16, "n_rows 16");
		SMUTATE(gr[TS_GLOBAL].storage = 9, "group global: storage 9 out of range 1..3");
		SMUTATE(gr[TS_GLOBAL].n_counters = 4, "counter range");
		SMUTATE(sr->version = 7, "model version 7");
	}
	/* Not a regular file. */
	assert_int_equal(fastmib_attach("/dev/shm", FASTMIB_ATTACH_RDONLY, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "a directory, not a segment file"));
	free(c);
	free(image);
	unlink(good_path);
}

static void
test_recreate_and_stale(void **state)
{
	struct fastmib_segment *a, *r1, *b, *r2;
	struct fastmib_info info;
	struct fastmib_writer *w;
	uint64_t v[3];
	char path[256];

	(void)state;
	tu_path(path, sizeof(path), "life-gen");
	unlink(path);
	assert_int_equal(fastmib_create(&ts_schema, path, NULL, &a), 0);
	w = fastmib_writer(a);
	assert_non_null(w);
	fastmib_pc_add(w, TS_GLOBAL_PKTS, 5);
	assert_int_equal(fastmib_attach(path, FASTMIB_ATTACH_RDONLY, &r1), 0);
	assert_false(fastmib_stale(r1));
	fastmib_close(a);

	assert_int_equal(fastmib_create(&ts_schema, path, NULL, &b), 0);
	fastmib_info(b, &info);
	assert_int_equal(info.generation, 2);
	assert_false(info.retired);
	assert_true(fastmib_stale(r1));
	fastmib_info(r1, &info);
	assert_true(info.retired);
	assert_int_equal(info.generation, 1);
	/* The old handle still reads its (old) data. */
	assert_int_equal(fastmib_read(r1, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 5);
	assert_int_equal(fastmib_attach(path, FASTMIB_ATTACH_RDONLY, &r2), 0);
	assert_false(fastmib_stale(r2));
	assert_int_equal(fastmib_read(r2, TS_GLOBAL, 0, v), 0);
	assert_int_equal(v[0], 0);
	fastmib_close(r1);
	fastmib_close(b);
	/* Removal makes a handle stale too. */
	unlink(path);
	assert_true(fastmib_stale(r2));
	fastmib_close(r2);
}

static void
test_create_refusals(void **state)
{
	struct fastmib_segment *seg = NULL;
	struct fastmib_schema bad = ts_schema;
	struct fastmib_opts o = { .hugepages = true, .mode = 0600 };
	struct stat st;
	char path[256];
	int fd;

	(void)state;
	tu_path(path, sizeof(path), "life-create");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_int_equal(write(fd, "hello, world, this is not a segment", 35), 35);
	close(fd);
	assert_int_equal(fastmib_create(&ts_schema, path, NULL, &seg), -EEXIST);
	assert_non_null(strstr(fastmib_last_error(), "not a fastmib segment"));
	unlink(path);

	bad.percore_size = 100;
	assert_int_equal(fastmib_create(&bad, path, NULL, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "cache-line"));
	bad = ts_schema;
	bad.shared_size = 1664; /* pool group no longer fits */
	assert_int_equal(fastmib_create(&bad, path, NULL, &seg), -EINVAL);
	assert_non_null(strstr(fastmib_last_error(), "pool"));

	/* Hugepages asked but /dev/shm is tmpfs: falls back to normal pages. */
	assert_int_equal(fastmib_create(&ts_schema, path, &o, &seg), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	fastmib_close(seg);
	unlink(path);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_recreate_and_stale),
		cmocka_unit_test(test_create_refusals),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
