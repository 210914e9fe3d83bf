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
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <rte_launch.h>
#include <rte_lcore.h>

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

/* ---- re-creation in the space of one segment ---- */

/* A model of one per-core table of `rows` rows of eight counters. */
static struct fastmib_counter_schema big_c[8];
static struct fastmib_group_schema big_g;
static struct fastmib_schema big;

static void
big_schema(uint32_t rows)
{
	static const char *const names[8] = { "a", "b", "c", "d", "e", "f", "g", "h" };

	for (int i = 0; i < 8; i++)
		big_c[i] = (struct fastmib_counter_schema){ names[i], "", "A counter.",
							    (uint32_t)i + 1, FASTMIB_COUNTER64, 0, 0, 0, NULL };
	big_g = (struct fastmib_group_schema){
		.name = "conn", .description = "Connections.", .arc = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1, .all_rows = 1,
		.indexes = { { .name = "connId", .max = rows } }, .n_rows = rows, .n_counters = 8,
		.counters = big_c };
	big = (struct fastmib_schema){ .version = FASTMIB_MODEL_VERSION,
				       .module = "FASTMIB-BIG-TEST-MIB", .prefix = "bt",
				       .oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 78 },
				       .n_groups = 1, .groups = &big_g };
	fastmib_schema_lay_out(&big);
}

static struct fastmib_segment *big_seg;

/* Every lcore claims its slot and writes every row of it. */
static int
fill_slot(void *arg)
{
	struct fastmib_writer *w = fastmib_writer(big_seg);

	(void)arg;
	if (w == NULL)
		return -1;
	for (uint32_t r = 0; r < big_g.n_rows; r++) {
		fastmib_begin(w);
		for (uint32_t c = 0; c < 8; c++)
			fastmib_pc_add(w, big_g.offset + (uint64_t)r * big_g.row_size + 8 * c, 1);
		fastmib_end(w);
	}
	return 0;
}

static int
create_and_fill(const char *path)
{
	unsigned lc;
	int rc = fastmib_create(&big, path, &(struct fastmib_opts){ .extra_threads = 1 },
				&big_seg);

	if (rc)
		return rc;
	RTE_LCORE_FOREACH_WORKER(lc)
		rte_eal_remote_launch(fill_slot, NULL, lc);
	rc = fill_slot(NULL);
	RTE_LCORE_FOREACH_WORKER(lc)
		rc |= rte_eal_wait_lcore(lc);
	return rc;
}

/*
 * A segment of more than half its tmpfs (2 lcores x 24 MiB on 64 MiB, as in
 * a container's default /dev/shm) is re-created after its writer is gone,
 * with a reader still mapping the old one: the old one gives its counters
 * back, the new one's lcores claim theirs. One that cannot fit is refused
 * at creation, with the size the file system needs.
 */
static char tmpfs_dir[512] = "XXXXXX";

/* Whatever the test left: its tmpfs goes, with everything in it. */
static int
drop_tmpfs(void **state)
{
	(void)state;
	if (tmpfs_dir[0] == '/') {
		umount2(tmpfs_dir, MNT_DETACH);
		rmdir(tmpfs_dir);
	}
	return 0;
}

static void
test_recreate_in_small_tmpfs(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = tmpfs_dir, path[600];
	struct fastmib_segment *rd;
	uint64_t v[8];

	(void)state;
	if (geteuid() != 0) {
		print_message("not root: no tmpfs of our own to mount; skipped\n");
		skip();
	}
	snprintf(tmpfs_dir, sizeof(tmpfs_dir), "%s/fastmib-tmpfs-XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mount("tmpfs", dir, "tmpfs", 0, "size=64m"), 0);
	snprintf(path, sizeof(path), "%s/seg", dir);
	big_schema(24 * 1024 * 1024 / 64);
	assert_int_equal(create_and_fill(path), 0);
	fastmib_close(big_seg);          /* the writer is gone ... */
	assert_int_equal(fastmib_attach(path, FASTMIB_ATTACH_RDONLY, &rd), 0);
	assert_int_equal(fastmib_read(rd, 0, 7, v), 0); /* ... a reader maps it */
	assert_int_equal(v[0], 2);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(create_and_fill(path), 0);
		assert_int_equal(fastmib_read(big_seg, 0, 7, v), 0);
		assert_int_equal(v[3], 2);
		fastmib_close(big_seg);
	}
	/* the reader that kept the first one mapped: stale, and its counters
	 * (given back for the new one's room) read zero */
	assert_true(fastmib_stale(rd));
	assert_int_equal(fastmib_read(rd, 0, 7, v), 0);
	assert_int_equal(v[0], 0);
	fastmib_close(rd);
	unlink(path);

	/* 2 x 33 MiB cannot fit: refused at creation, saying how much more */
	big_schema(33 * 1024 * 1024 / 64);
	assert_int_equal(fastmib_create(&big, path, NULL, &big_seg), -ENOSPC);
	assert_non_null(strstr(fastmib_last_error(), "free on its file system"));
	assert_non_null(strstr(fastmib_last_error(), "--shm-size"));
	assert_int_equal(access(path, F_OK), -1);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_recreate_and_stale),
		cmocka_unit_test(test_create_refusals),
		cmocka_unit_test_teardown(test_recreate_in_small_tmpfs, drop_tmpfs),
	};

	(void)argc;
	return tu_run_tests(argv[0], tests);
}
