/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every name the generator emits for a model, in one enumeration, and
 * the check of them all (gen_names.c). How each name is spelled, and what
 * a model's names may be, is <fastmib/names.h>'s business (one at a time:
 * single_names.h); which object of the model has which names is this
 * enumeration's.
 */
#ifndef FASTMIB_GEN_GEN_NAMES_H
#define FASTMIB_GEN_GEN_NAMES_H

#include <stdint.h>
#include <stdio.h>

#include "fastmib/names.h"
#include "model.h"
#include "strbuf.h"
#include "yaml_access.h"

/* The module, or the model object a generated name belongs to. */
struct name_owner {
	enum { OWNER_MODULE, OWNER_GROUP, OWNER_INDEX, OWNER_COUNTER, OWNER_EVENT,
	       OWNER_STATE } kind;
	uint32_t group;     /* OWNER_GROUP, OWNER_INDEX, OWNER_COUNTER, OWNER_STATE */
	uint32_t item;      /* index, counter, state or event position */
};

typedef void gen_name_fn(void *arg, enum fastmib_name_space space, const char *name,
			 const struct name_owner *owner);

/*
 * Call fn once per generated name of `m`: the module's names, then per
 * group its own, its indexes', its counters' and its states', then the
 * event log's and per event its own. Names emitted only in some outputs
 * (struct <p>_shared without shared groups, say) are listed all the same:
 * they are reserved. Names spelled by <fastmib/names.h> (single_names.h)
 * or, for states, by state_names.h.
 */
void model_names(const struct model *m, gen_name_fn *fn, void *arg);

/* "counter `rxPkts` of group `port`", "the module"... */
void owner_describe(const struct model *m, const struct name_owner *o, struct strbuf *out);
/* Where the owner is in the model file, for messages. */
struct mark owner_mark(const struct model *m, const struct name_owner *o);

/* Part of the model loader (model_load.c): every generated name fits its
 * limit and is unique in its namespace; clashes are errors at the YAML
 * positions of the objects that own the names. */
void check_names(struct loader *c, struct model *m);

/* `fastmib-gen --names`: one line per name: namespace, name, owner. */
void print_names(const struct model *m, FILE *f);

#endif
