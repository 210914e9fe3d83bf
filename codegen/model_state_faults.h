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

#endif
