/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of a metric family in each format, and the samples' clock. */
#include <stdio.h>
#include <string.h>

#include "fastmib/fastmib.h"
#include "sink.h"

void
fme_family_names(struct fme_family *f, const char *base, enum fme_kind kind, bool keep_name)
{
	size_t n;

	snprintf(f->base, sizeof(f->base), "%s", base);
	n = strlen(f->base);
	/* a counter's samples end in _total: the family is the name without
	 * it, whether the model's name had it or not */
	if (kind == FME_K_COUNTER && !keep_name && n > 6 && !strcmp(f->base + n - 6, "_total"))
		f->base[n - 6] = '\0';
	snprintf(f->sample, sizeof(f->sample), "%s%s", f->base,
		 kind == FME_K_COUNTER && !keep_name ? "_total" : kind == FME_K_INFO ? "_info" : "");
	snprintf(f->created, sizeof(f->created), "%s_created", f->base);
	f->kind = kind;
	f->keep_name = keep_name;
}

int64_t
fme_now_ms(void)
{
	return (int64_t)(fastmib_time_ns() / 1000000u);
}
