/* SPDX-License-Identifier: BSD-3-Clause */
/* 64-bit values in JSON documents: the rule of json64.h. */
#include <inttypes.h>
#include <stdio.h>

#include "json64.h"

static bool all_strings;

void
fst_json64_all_strings(bool on)
{
	all_strings = on;
}

bool
fst_json64_strings(void)
{
	return all_strings;
}

json_t *
fst_json_u64(uint64_t v)
{
	char buf[24];

	if (!all_strings && v <= JSON_EXACT_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

json_t *
fst_json_s64(int64_t v)
{
	char buf[24];

	if (!all_strings && v <= (int64_t)JSON_EXACT_MAX && v >= -(int64_t)JSON_EXACT_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return json_string(buf);
}
