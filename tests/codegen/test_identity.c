/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Schema identity with real segment files: code compiled with one version
 * of a model refuses a segment created from another version, and a
 * schema.c of another version or edited by hand; matching code works.
 * This program is compiled with version 1 of identity/v1.yaml and links
 * its schema.c; identity_v2.c was compiled with version 2's header.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "id_stats.h" /* version 1 */
#include "identity_v2.h"
#include "tutil.h"

static void
expect_error(const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	assert_string_equal(fastmib_last_error(), want);
}

static void
test_matching(void **state)
{
	struct fastmib_segment *seg = NULL, *rd = NULL;
	struct fastmib_info info;
	char path[256];

	(void)state;
	tu_path(path, sizeof(path), "id-match");
	assert_int_not_equal(ID_SCHEMA_HASH, v2_schema_hash());
	assert_int_equal(id_create(path, NULL, &seg), 0);
	assert_int_equal(id_attach(path, FASTMIB_ATTACH_RDONLY, &rd), 0);
	fastmib_info(rd, &info);
	assert_int_equal(info.schema_hash, ID_SCHEMA_HASH);
	/* Read back from the file, the schema carries the segment's hash. */
	assert_int_equal(fastmib_schema(rd)->hash, ID_SCHEMA_HASH);
	assert_int_equal(fastmib_schema_hash(fastmib_schema(rd)), ID_SCHEMA_HASH);
	fastmib_close(rd);
	/* 0: no expectation, as fastmib_attach() */
	assert_int_equal(fastmib_attach_checked(path, FASTMIB_ATTACH_RDONLY, 0, NULL, &rd), 0);
	fastmib_close(rd);
	fastmib_close(seg);
	unlink(path);
}

/* A segment created from version 1, attached by code of version 2. */
static void
test_segment_of_other_version(void **state)
{
	struct fastmib_segment *seg = NULL, *rd = NULL;
	char path[256];

	(void)state;
	tu_path(path, sizeof(path), "id-v1-segment");
	assert_int_equal(id_create(path, NULL, &seg), 0);
	assert_int_equal(v2_attach(path, &rd), -ESTALE);
	assert_null(rd);
	expect_error("%s: schema 0x%016llx (IDENTITY-TEST-MIB) differs from the compiled "
		     "schema 0x%016llx (IDENTITY-TEST-MIB); regenerate the code or re-create "
		     "the segment", path, (unsigned long long)ID_SCHEMA_HASH,
		     (unsigned long long)v2_schema_hash());
	assert_int_equal(fastmib_attach_checked(path, FASTMIB_ATTACH_RDONLY, v2_schema_hash(),
						NULL, &rd), -ESTALE);
	expect_error("%s: schema 0x%016llx (IDENTITY-TEST-MIB) differs from the compiled "
		     "schema 0x%016llx; regenerate the code or re-create the segment", path,
		     (unsigned long long)ID_SCHEMA_HASH, (unsigned long long)v2_schema_hash());
	/* Generic readers (the agent, fastmib-stat) still read any model. */
	assert_int_equal(fastmib_attach(path, FASTMIB_ATTACH_RDONLY, &rd), 0);
	fastmib_close(rd);
	fastmib_close(seg);
	unlink(path);
}

/* Version 2's header with version 1's schema.c: refused before any file
 * is touched, and an existing segment stays as it was. */
static void
test_schema_of_other_version(void **state)
{
	struct fastmib_segment *seg = NULL, *rd = NULL;
	struct fastmib_info info;
	char path[256];

	(void)state;
	tu_path(path, sizeof(path), "id-mixed");
	assert_int_equal(v2_create(path, &seg), -ESTALE);
	assert_null(seg);
	expect_error("%s: schema 0x%016llx (IDENTITY-TEST-MIB) differs from the compiled "
		     "schema 0x%016llx: id_schema.c and id_stats.h come from different models "
		     "or versions; regenerate both and rebuild", path,
		     (unsigned long long)ID_SCHEMA_HASH, (unsigned long long)v2_schema_hash());
	assert_int_equal(access(path, F_OK), -1);

	assert_int_equal(id_create(path, NULL, &seg), 0);
	fastmib_close(seg);
	seg = NULL;
	assert_int_equal(v2_create(path, &seg), -ESTALE);
	assert_int_equal(id_attach(path, FASTMIB_ATTACH_RDONLY, &rd), 0);
	fastmib_info(rd, &info);
	assert_int_equal(info.generation, 1);
	assert_false(info.retired);
	fastmib_close(rd);
	unlink(path);
}

/* A copy of id_schema that can be edited. */
struct edited {
	struct fastmib_schema s;
	struct fastmib_group_schema g[2];
	struct fastmib_counter_schema global[2];
};

static void
test_edited_schema(void **state)
{
	struct fastmib_segment *seg = NULL, *rd = NULL;
	struct fastmib_info info;
	struct edited e;
	uint64_t edited_hash;
	char path[256];

	(void)state;
	tu_path(path, sizeof(path), "id-edited");
	assert_int_equal(id_schema.n_groups, 2);
	e.s = id_schema;
	memcpy(e.g, id_schema.groups, sizeof(e.g));
	memcpy(e.global, id_schema.groups[ID_GROUP_GLOBAL].counters, sizeof(e.global));
	e.g[ID_GROUP_GLOBAL].counters = e.global;
	e.s.groups = e.g;
	e.global[1].description = "Packets dropped, for any reason.";
	edited_hash = fastmib_schema_hash(&e.s);
	assert_int_not_equal(edited_hash, 0);
	assert_int_not_equal(edited_hash, ID_SCHEMA_HASH);

	assert_int_equal(fastmib_create(&e.s, path, NULL, &seg), -ESTALE);
	assert_null(seg);
	expect_error("%s: the schema of IDENTITY-TEST-MIB says it is 0x%016llx but describes "
		     "0x%016llx: it was edited, or mixes two versions of the model; "
		     "regenerate id_schema.c", path, (unsigned long long)ID_SCHEMA_HASH,
		     (unsigned long long)edited_hash);
	assert_int_equal(access(path, F_OK), -1);

	/* Without a hash, as a hand-written schema: created, under its own identity. */
	e.s.hash = 0;
	assert_int_equal(fastmib_create(&e.s, path, NULL, &seg), 0);
	fastmib_info(seg, &info);
	assert_int_equal(info.schema_hash, edited_hash);
	assert_int_equal(id_attach(path, FASTMIB_ATTACH_RDONLY, &rd), -ESTALE);
	fastmib_close(seg);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_segment_of_other_version),
		cmocka_unit_test(test_schema_of_other_version),
		cmocka_unit_test(test_edited_schema),
	};

	tu_eal_init("test_codegen_identity", "0");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
