/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model loader: a model file read, checked and turned into the model
 * the emitters render (model.h). Its parts, each in a file of its own
 * below this one: model_bounds, model_module, model_groups, model_events,
 * model_schema, and the check of the generated names (gen_names).
 */
#ifndef FASTMIB_GEN_MODEL_LOAD_H
#define FASTMIB_GEN_MODEL_LOAD_H

#include "model.h"

/*
 * Parse and validate `path`. Errors are printed to stderr as
 * `FILE:LINE:COL: error: MESSAGE`, warnings (a valid model that is
 * probably not what its author meant) as `FILE:LINE:COL: warning: ...`.
 * Returns 0 on success (warnings or not), 2 for model errors, 1 when the
 * file cannot be read.
 */
int model_load(const char *path, struct model *m);
void model_free(struct model *m);

#endif
