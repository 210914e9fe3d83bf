/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model's schema (model_schema.c): the faults of states that
 * the schema check finds, at their YAML nodes and in the model's words,
 * and the value a state starts with. */
#ifndef FASTMIB_GEN_MODEL_STATE_FAULTS_H
#define FASTMIB_GEN_MODEL_STATE_FAULTS_H

#include <stdbool.h>

#include "model.h"
#include "strbuf.h"
#include "yaml_access.h"

/* Where fault f (object FASTMIB_OBJ_STATE) is in the model file. */
struct mark state_fault_mark(const struct model *m, const struct fastmib_schema_fault *f);
/* Its message into t; false when the general wording of model_schema.c
 * says it (a name too long, an arc out of range...). */
bool state_fault_text(const struct model *m, const struct fastmib_schema_fault *f,
		      struct strbuf *t);

/*
 * A state the model gives no default (or a default of 0) starts at zero,
 * the schema's NULL default, which fastmib_schema_check() does not weigh:
 * an error when zero is not a value the state allows (a range without 0).
 * For a schema that passed the check.
 */
void check_state_starts(struct loader *c, const struct model *m);

#endif
