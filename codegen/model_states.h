/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_groups.c): a group's `states` sequence
 * (model_states.c) and a state's default (model_state_default.c). */
#ifndef FASTMIB_GEN_MODEL_STATES_H
#define FASTMIB_GEN_MODEL_STATES_H

#include "model.h"
#include "yaml_access.h"

void parse_states(struct loader *c, yaml_node_t *seq, struct m_group *g);
void state_free(struct m_state *s);

/*
 * The default of state `s` (type, size and values read) from node `n`, or
 * the one it starts with when `n` is NULL (an enum's first listed value,
 * else all zero), into s->def in its C form. False after an error: a
 * value that cannot be one of the type's (a label not listed, a number
 * beyond the type, an address that does not parse), or a default for a
 * type that has none.
 */
bool parse_state_default(struct loader *c, yaml_node_t *n, struct m_state *s);

#endif
