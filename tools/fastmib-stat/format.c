/* SPDX-License-Identifier: BSD-3-Clause */
/* How values, rates and types read in the text output. */
#include <inttypes.h>
#include <strings.h>

#include "stat.h"

/* The model's word for a counter type (fastmib_type_word()), as JSON has it. */
const char *
type_name(uint32_t type)
{
	const char *word = fastmib_type_word(type);

	return word ? word : "unknown";
}

void
format_count(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%" PRIu64, v);
}

void
format_rate(char *buf, size_t len, double r)
{
	snprintf(buf, len, "%.0f", r);
}
