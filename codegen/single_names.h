/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One name at a time: heap copies of the names <fastmib/names.h> spells,
 * and whether a name is a C or C++ keyword. Below the model loader (which
 * rejects a keyword where a name is read), the enumeration of a model's
 * names (gen_names.c) and the emitters; it knows no model.
 */
#ifndef FASTMIB_GEN_SINGLE_NAMES_H
#define FASTMIB_GEN_SINGLE_NAMES_H

#include <stdbool.h>

#include "fastmib/names.h"

/* Is the snake_case form of a model name a C or C++ keyword (unusable as
 * a member or parameter of the generated code)? get_name() asks. */
bool name_is_c_keyword(const char *snake);

/* Heap copies (never NULL) of the names of <fastmib/names.h>. */
/* camelCase -> camel_case; a new word starts at every uppercase letter. */
char *name_snake(const char *s);
/* camelCase -> CAMEL_CASE (fastmib_name_upper()). */
char *name_upper(const char *s);
/* fastmib_name(): gen_name(FASTMIB_MIB_COUNTER, "ep", "portQueue", "rxPkts")
 * is "epPortQueueRxPkts". */
char *gen_name(enum fastmib_name_role role, const char *prefix, const char *a,
	       const char *b);
/* fastmib_name_exporter_module(): "EXAMPLE-DATAPLANE-MIB" gives
 * "example_dataplane_mib". */
char *gen_exporter_module(const char *module);

#endif
