/* SPDX-License-Identifier: BSD-3-Clause */
/* Private to the model loader: the parts of a model, each in its own file. */
#ifndef FASTMIB_GEN_MODEL_LOAD_H
#define FASTMIB_GEN_MODEL_LOAD_H

#include "model.h"
#include "yaml_access.h"

/* model_bounds.c: before the file is loaded, whether loading it stays
 * within bounds linear in its size (nesting, anchors, aliases); false
 * after reporting the first fault. Reads `f` from where it is. */
bool model_bounds_ok(struct loader *c, FILE *f);

/* model_module.c: the `module` mapping. */
void parse_module(struct loader *c, yaml_node_t *mod, struct model *m);

/* model_groups.c: the `groups` sequence. */
void parse_groups(struct loader *c, yaml_node_t *seq, struct model *m);
void group_free(struct m_group *g);

/* model_events.c: the `events` sequence, and the lag warnings. */
void parse_events(struct loader *c, yaml_node_t *seq, struct model *m);
void event_free(struct m_event *e);
void check_event_rates(struct loader *c, const struct model *m);

/* model_schema.c: the schema of a model that parsed, laid out and checked;
 * its faults are errors at their YAML positions. */
void build_schema(struct loader *c, struct model *m);
void schema_free(struct model *m);

/* gen_names.c: every generated name fits its limit and is unique (in its
 * namespace). */
void check_names(struct loader *c, struct model *m);

#endif
