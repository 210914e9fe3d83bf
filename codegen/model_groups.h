/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_load.c): the `groups` sequence. */
#ifndef FASTMIB_GEN_MODEL_GROUPS_H
#define FASTMIB_GEN_MODEL_GROUPS_H

#include "model.h"
#include "yaml_access.h"

void parse_groups(struct loader *c, yaml_node_t *seq, struct model *m);
void group_free(struct m_group *g);

#endif
