/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_load.c): the `module` mapping. */
#ifndef FASTMIB_GEN_MODEL_MODULE_H
#define FASTMIB_GEN_MODEL_MODULE_H

#include "model.h"
#include "yaml_access.h"

void parse_module(struct loader *c, yaml_node_t *mod, struct model *m);

#endif
