/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fm-writer's keys for keyed tables: key number n of a table is a fixed
 * function of n and the table's index types (fm-keys.c says which), so
 * the writer, its expectations and the tests that drive it agree on what
 * every key is without passing keys around.
 */
#ifndef FM_KEYS_H
#define FM_KEYS_H

#include <stdint.h>

#include <jansson.h>

#include "fastmib/fastmib.h"

/* Key numbers run 0 .. FMK_MAX_NUMBER - 1: every function below gives
 * distinct values to distinct numbers in that range. */
#define FMK_MAX_NUMBER (1u << 20)

/* Bytes of the largest C key of any table (fastmib_key_layout()). */
#define FMK_KEY_BYTES (FASTMIB_MAX_INDEXES * (FASTMIB_MAX_STRING_INDEX + 20))

/* The C key of number n of keyed table gs into key (FMK_KEY_BYTES, zeroed
 * first): 0, or -1 with a message on stderr when the table's indexes
 * cannot hold it (a string index too short for n's digits). */
int fmk_key(const struct fastmib_group_schema *gs, uint32_t n, void *key);

/* The key in words, one element per index: a number (integer, uint32) or
 * text (addresses as usual, MAC as xx:xx:xx:xx:xx:xx, strings as they are). */
json_t *fmk_key_words(const struct fastmib_group_schema *gs, const void *key);

/* The key's SNMP index: its sub-identifiers, as the library gives them
 * (fastmib_key_encode(), fastmib_key_to_index()), into idx; their count,
 * 0 when the key is not one of the table's. */
size_t fmk_index(const struct fastmib_group_schema *gs, const void *key, uint64_t *idx);

/* Where the segment keeps what readers know of keyed tables, as file
 * offsets, for tests that damage it on purpose:
 *   {"header_keys": {"offset", "size"},          the header's keys area field
 *    "tables": {GROUP: {"head", "entries", "n_entries", "record_size"}}}
 *                                                 each change log */
json_t *fmk_layout(struct fastmib_segment *seg);

/* Row `row`'s key record in group `group`: {"seq", "len", "key"} offsets. */
json_t *fmk_record(struct fastmib_segment *seg, unsigned group, uint32_t row);

#endif /* FM_KEYS_H */
