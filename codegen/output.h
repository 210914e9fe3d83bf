/* SPDX-License-Identifier: BSD-3-Clause */
/* All-or-nothing writing of the generated files. */
#ifndef FASTMIB_GEN_OUTPUT_H
#define FASTMIB_GEN_OUTPUT_H

#include <stddef.h>

#include "strbuf.h"

struct out_file {
	char *name;                /* file name within the output directory */
	const struct strbuf *text;
};

/*
 * Create `dir` (and parents) if needed, write every file to a temporary
 * name in `dir`, then rename them into place. On failure no temporary file
 * is left and no output is replaced by a partial one. Returns 0 or 1
 * (message on stderr).
 */
int write_outputs(const char *dir, const struct out_file *files, size_t n);

#endif
