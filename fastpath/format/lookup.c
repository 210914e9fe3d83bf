/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a reader's user names, found in a schema (include/fastmib/schema.h):
 * groups and events by name, table rows by their SNMP index values written
 * as text. fastmib-stat and the application's telemetry commands take
 * these from their users; this is the one place that reads them.
 */
#include <stdbool.h>
#include <string.h>

#include "fastmib/names.h"
#include "fastmib/schema.h"

/* Is `name` the model name `model`, or its MIB descriptor style? */
static bool
names(const char *name, const char *prefix, const char *model)
{
	char mib[2 * FASTMIB_MAX_NAME + 2];
	size_t n;

	if (strcmp(name, model) == 0)
		return true;
	n = fastmib_name_mib_style(mib, sizeof(mib), prefix, model, NULL);
	return n < sizeof(mib) && strcmp(name, mib) == 0;
}

int
fastmib_group_by_name(const struct fastmib_schema *schema, const char *name)
{
	for (uint32_t i = 0; i < schema->n_groups; i++)
		if (names(name, schema->prefix, schema->groups[i].name))
			return (int)i;
	return -1;
}

int
fastmib_event_by_name(const struct fastmib_schema *schema, const char *name)
{
	for (uint32_t i = 0; i < schema->n_events; i++)
		if (names(name, schema->prefix, schema->events[i].name))
			return (int)i;
	return -1;
}

int64_t
fastmib_row_of_text(const struct fastmib_group_schema *g, const char *text)
{
	uint64_t idx[FASTMIB_MAX_INDEXES];
	size_t k = 0;
	const char *p = text;

	for (;;) {
		uint64_t v = 0;

		if (k == FASTMIB_MAX_INDEXES || *p < '0' || *p > '9')
			return -1;
		/* Past any index's range, the digits that follow only matter
		 * as digits: the value stays out of range. */
		for (; *p >= '0' && *p <= '9'; p++)
			v = v > UINT32_MAX ? v : v * 10 + (uint64_t)(*p - '0');
		idx[k++] = v;
		if (*p == '\0')
			break;
		if (*p != '.' && *p != '_')
			return -1;
		p++;
	}
	return fastmib_row_of_index(g, idx, k);
}
