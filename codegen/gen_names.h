/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every name the generator emits for a model, in one enumeration, and
 * heap copies of single names. How each name is spelled, and what a
 * model's names may be, is <fastmib/names.h>'s business; which object of
 * the model has which names is this enumeration's.
 */
#ifndef FASTMIB_GEN_GEN_NAMES_H
#define FASTMIB_GEN_GEN_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fastmib/names.h"
#include "model.h"
#include "strbuf.h"

/* The module, or the model object a generated name belongs to. */
struct name_owner {
	enum { OWNER_MODULE, OWNER_GROUP, OWNER_INDEX, OWNER_COUNTER, OWNER_EVENT } kind;
	uint32_t group;     /* OWNER_GROUP, OWNER_INDEX, OWNER_COUNTER */
	uint32_t item;      /* index, counter or event position */
};

typedef void gen_name_fn(void *arg, enum fastmib_name_role role, const char *name,
			 const struct name_owner *owner);

/*
 * Call fn once per generated name of `m`: the module's names, then per
 * group its own, its indexes' and its counters', then the event log's and
 * per event its own. Names emitted only in some outputs (struct
 * <p>_shared without shared groups, say) are listed all the same: they
 * are reserved.
 */
void model_names(const struct model *m, gen_name_fn *fn, void *arg);

/* "counter `rxPkts` of group `port`", "the module"... */
void owner_describe(const struct model *m, const struct name_owner *o, struct strbuf *out);
/* Where the owner is in the model file, for messages. */
struct mark owner_mark(const struct model *m, const struct name_owner *o);

/* `fastmib-gen --names`: one line per name: namespace, name, owner. */
void print_names(const struct model *m, FILE *f);

/* Is the snake_case form of a model name a C or C++ keyword (unusable as
 * a member or parameter of the generated code)? */
bool name_is_c_keyword(const char *snake);

/* Heap copies (never NULL) of the names of <fastmib/names.h>. */
/* camelCase -> camel_case; a new word starts at every uppercase letter. */
char *name_snake(const char *s);
/* fastmib_name(): gen_name(FASTMIB_MIB_COUNTER, "ep", "portQueue", "rxPkts")
 * is "epPortQueueRxPkts". */
char *gen_name(enum fastmib_name_role role, const char *prefix, const char *a,
	       const char *b);
/* fastmib_name_exporter_module(): "EXAMPLE-DATAPLANE-MIB" gives
 * "example_dataplane_mib". */
char *gen_exporter_module(const char *module);

#endif
