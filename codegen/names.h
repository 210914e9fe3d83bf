/* SPDX-License-Identifier: BSD-3-Clause */
/* Name rules and the mapping from model names to generated C and MIB names. */
#ifndef FASTMIB_GEN_NAMES_H
#define FASTMIB_GEN_NAMES_H

#include <stdbool.h>

/* SMI descriptor syntax: lowercase first letter, then letters and digits. */
bool name_is_descriptor(const char *s);
/* SMI module name: uppercase first letter, letters/digits/single hyphens,
 * no trailing hyphen. */
bool name_is_module(const char *s);
/* A model prefix: lowercase letters and digits, lowercase first. */
bool name_is_prefix(const char *s);
/* Is the snake_case form a C or C++ keyword (unusable as member/parameter)? */
bool name_is_c_keyword(const char *snake);

/* camelCase -> camel_case; a new word starts at every uppercase letter. */
char *name_snake(const char *s);
/* camelCase -> CAMEL_CASE */
char *name_upper(const char *s);
/* Concatenate parts, capitalising the first letter of all but the first:
 * name_join("ep", "portQueue", "rxPkts", NULL) -> "epPortQueueRxPkts". */
char *name_join(const char *first, ...);

#endif
