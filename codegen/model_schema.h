/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_load.c): the schema of a model that
 * parsed, laid out and checked by the format library; its faults are
 * errors at their YAML positions. */
#ifndef FASTMIB_GEN_MODEL_SCHEMA_H
#define FASTMIB_GEN_MODEL_SCHEMA_H

#include "model.h"
#include "yaml_access.h"

void build_schema(struct loader *c, struct model *m);
void schema_free(struct model *m);

#endif
