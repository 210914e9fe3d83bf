/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Code compiled with version 2 of the identity model's header
 * (identity/v2.yaml), linked into a program whose schema.c is version 1's:
 * what happens when an application is rebuilt with a new header but an
 * old schema object, or runs against a segment of the old version.
 */
#ifndef FASTMIB_TEST_IDENTITY_V2_H
#define FASTMIB_TEST_IDENTITY_V2_H

#include <stdint.h>

struct fastmib_segment;

/* ID_SCHEMA_HASH of version 2. */
uint64_t v2_schema_hash(void);
/* id_create() and id_attach() (read-only) of version 2's header. */
int v2_create(const char *path, struct fastmib_segment **segp);
int v2_attach(const char *path, struct fastmib_segment **segp);

#endif
