/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Histograms and peaks in the model (model_hist.c): what a counter's type
 * takes (a histogram's `bounds` or `log2`), and the faults of histograms
 * and peaks that fastmib_schema_check() finds, at their YAML nodes and in
 * the model's words.
 */
#ifndef FASTMIB_GEN_MODEL_HIST_H
#define FASTMIB_GEN_MODEL_HIST_H

#include <stdbool.h>

#include "model.h"
#include "strbuf.h"
#include "yaml_access.h"

/* A counter's `bounds` and `log2` (either may be NULL) for its type,
 * already read into k->type (0: unknown, reported already), `type` its
 * node. False after an error. */
bool parse_counter_kind(struct loader *c, yaml_node_t *type, yaml_node_t *bounds,
			yaml_node_t *log2, struct m_counter *k);
/* Free what parse_counter_kind() made. */
void counter_kind_free(struct m_counter *k);

/* For a fault of a counter or a group that is about its histograms or
 * peaks: its place in the model file into *at and its message into t,
 * true; false when the general wording of model_schema.c says it. */
bool hist_fault(const struct model *m, const struct fastmib_schema_fault *f, struct mark *at,
		struct strbuf *t);

#endif
