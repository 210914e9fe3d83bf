/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of the model loader (model_load.c): what loading a file may cost. */
#ifndef FASTMIB_GEN_MODEL_BOUNDS_H
#define FASTMIB_GEN_MODEL_BOUNDS_H

#include "model.h"
#include "yaml_access.h"

#include <stdio.h>

/* Before the file is loaded, whether loading it stays within bounds
 * linear in its size (nesting, anchors, aliases); false after reporting
 * the first fault. Reads `f` from where it is. */
bool model_bounds_ok(struct loader *c, FILE *f);

#endif
