/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rules for the names a model may use, and the generated names of a model
 * in the generator's own memory (the rules for those are in the format
 * library, <fastmib/names.h>).
 */
#ifndef FASTMIB_GEN_NAMES_H
#define FASTMIB_GEN_NAMES_H

#include <stdbool.h>

#include "fastmib/names.h"

/* SMI descriptor syntax: lowercase first letter, then letters and digits. */
bool name_is_descriptor(const char *s);
/* SMI module name: uppercase first letter, letters/digits/single hyphens,
 * no trailing hyphen. */
bool name_is_module(const char *s);
/* A model prefix: lowercase letters and digits, lowercase first. */
bool name_is_prefix(const char *s);
/* Is the snake_case form a C or C++ keyword (unusable as member/parameter)? */
bool name_is_c_keyword(const char *snake);

/* Heap copies (never NULL) of the names of <fastmib/names.h>. */
/* camelCase -> camel_case; a new word starts at every uppercase letter. */
char *name_snake(const char *s);
/* camelCase -> CAMEL_CASE */
char *name_upper(const char *s);
/* fastmib_name(): gen_name(FASTMIB_MIB_COUNTER, "ep", "portQueue", "rxPkts")
 * is "epPortQueueRxPkts". */
char *gen_name(enum fastmib_name_role role, const char *prefix, const char *a,
	       const char *b);
/* fastmib_name_exporter_module(): "EXAMPLE-DATAPLANE-MIB" gives
 * "example_dataplane_mib". */
char *gen_exporter_module(const char *module);

#endif
