/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_load.c): the `events` sequence, and
 * the lag warnings. */
#ifndef FASTMIB_GEN_MODEL_EVENTS_H
#define FASTMIB_GEN_MODEL_EVENTS_H

#include "model.h"
#include "yaml_access.h"

void parse_events(struct loader *c, yaml_node_t *seq, struct model *m);
void event_free(struct m_event *e);
void check_event_rates(struct loader *c, const struct model *m);

#endif
