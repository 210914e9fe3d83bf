/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target of keys and rows as people write them: the text of
 * `fastmib-stat --reset GROUP/KEY` (or GROUP/ROW) and of the telemetry
 * command /fastmib/group's FROM, through what reads both: the group by
 * name (fastmib_group_by_name()), a keyed table's key
 * (fastmib_key_of_text()) or another table's row (fastmib_row_of_text()).
 * The input is the text after the program's name, up to a NUL as in a
 * command line; the group is what precedes the first '/'.
 *
 * What is checked besides crashes and undefined behaviour: a key read is
 * a valid key; its text (fastmib_key_text()) reads back to the same key
 * and is written back the same (text -> key -> text is the identity on
 * what fastmib writes); every field's text fits its documented bound; a
 * row read is in the table, and its index values written back read back
 * to the same row.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/reader.h"
#include "fastmib/schema.h"

static const struct fastmib_counter_schema pkts = {
	.name = "pkts", .units = "", .description = "Packets.", .arc = 1,
	.type = FASTMIB_COUNTER64, .offset = 0,
};

/* Every index type, in keyed tables of one and of several indexes, and
 * dense tables: those of the key text's unit test and of the example. */
static const struct fastmib_group_schema groups[] = {
	{ .name = "tunnel", .n_indexes = 2, .n_rows = 64, .n_counters = 1, .counters = &pkts,
	  .indexes = { { .name = "peer", .type = FASTMIB_INDEX_INET_ADDRESS },
		       { .name = "teid", .type = FASTMIB_INDEX_UINT32 } } },
	{ .name = "mixed", .n_indexes = 4, .n_rows = 64, .n_counters = 1, .counters = &pkts,
	  .indexes = { { .name = "host", .type = FASTMIB_INDEX_IPV4 },
		       { .name = "mac", .type = FASTMIB_INDEX_MAC },
		       { .name = "customer", .type = FASTMIB_INDEX_STRING, .size = 8 },
		       { .name = "queue", .max = 8 } } },
	{ .name = "name", .n_indexes = 1, .n_rows = 16, .n_counters = 1, .counters = &pkts,
	  .indexes = { { .name = "label", .type = FASTMIB_INDEX_STRING, .size = 64 } } },
	{ .name = "port", .n_indexes = 1, .n_rows = 4, .n_counters = 1, .counters = &pkts,
	  .indexes = { { .name = "portId", .max = 4 } } },
	{ .name = "queue", .n_indexes = 2, .n_rows = 4 * 8, .n_counters = 1, .counters = &pkts,
	  .indexes = { { .name = "portId", .max = 4 }, { .name = "queueId", .max = 8 } } },
};
static const struct fastmib_schema schema = {
	.module = "FUZZ-MIB", .prefix = "fz", .n_groups = sizeof(groups) / sizeof(groups[0]),
	.groups = groups,
};

static void
check_key(const struct fastmib_group_schema *g, const uint8_t *key, int n)
{
	uint8_t again[FASTMIB_MAX_KEY_BYTES];
	char text[FASTMIB_MAX_KEY_TEXT], text2[FASTMIB_MAX_KEY_TEXT];
	char field[FASTMIB_MAX_KEY_FIELD_TEXT];
	struct fastmib_key_field f;
	size_t len;
	int m;

	if (n <= 0 || n > FASTMIB_MAX_KEY_BYTES || !fastmib_key_valid(g, key, (size_t)n))
		abort();
	len = fastmib_key_text(g, key, (size_t)n, text, sizeof(text));
	if (len == 0 || len >= sizeof(text) || strlen(text) != len)
		abort();
	m = fastmib_key_of_text(g, text, again);
	if (m != n || memcmp(again, key, (size_t)n) != 0)
		abort();
	if (fastmib_key_text(g, again, (size_t)m, text2, sizeof(text2)) != len ||
	    strcmp(text, text2) != 0)
		abort();
	for (uint32_t k = 0; k < g->n_indexes; k++)
		if (fastmib_key_field(g, key, (size_t)n, k, &f) != 0 ||
		    fastmib_key_field_text(&f, field, sizeof(field)) >= sizeof(field))
			abort();
}

static void
check_row(const struct fastmib_group_schema *g, int64_t row)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];
	char text[FASTMIB_MAX_INDEXES * 11];
	size_t at = 0;

	if (row < 0)
		return;
	if ((uint64_t)row >= g->n_rows)
		abort();
	fastmib_index_of_row(g, (uint32_t)row, idx);
	for (uint32_t k = 0; k < g->n_indexes; k++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%u", k ? "." : "", idx[k]);
	if (fastmib_row_of_text(g, text) != row)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *sep;
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	int gi, n;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	sep = strchr(text, '/');
	if (sep) {
		*sep = '\0';
		gi = fastmib_group_by_name(&schema, text);
		if (gi >= 0) {
			const struct fastmib_group_schema *g = &groups[gi];

			if (fastmib_group_keyed(g)) {
				n = fastmib_key_of_text(g, sep + 1, key);
				if (n >= 0)
					check_key(g, key, n);
				else if (!fastmib_last_error()[0])
					abort(); /* a refusal says why */
			} else {
				check_row(g, fastmib_row_of_text(g, sep + 1));
			}
		}
	}
	/* the whole text as each group's key and row */
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (fastmib_group_keyed(&groups[i])) {
			n = fastmib_key_of_text(&groups[i], text, key);
			if (n >= 0)
				check_key(&groups[i], key, n);
		} else {
			check_row(&groups[i], fastmib_row_of_text(&groups[i], text));
		}
	}
	free(text);
	return 0;
}
