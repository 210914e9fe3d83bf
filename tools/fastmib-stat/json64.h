/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 64-bit values in fastmib-stat's JSON documents, exact in every reader.
 *
 * JSON itself has no integer limit, but most readers (JavaScript's Number,
 * jq before 1.7, anything that parses numbers into a double) hold integers
 * exactly only up to 2^53 - 1: beyond, they silently round. So an unsigned
 * 64-bit value is a JSON integer up to JSON_EXACT_MAX and a string of its
 * decimal digits above it; with --json-strings, always a string, so that a
 * field's JSON type does not depend on its value.
 */
#ifndef FASTMIB_STAT_JSON64_H
#define FASTMIB_STAT_JSON64_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

/* 2^53 - 1: the largest integer a double holds together with all below. */
#define JSON_EXACT_MAX ((UINT64_C(1) << 53) - 1)

/* --json-strings: every 64-bit value as a decimal string. */
void fst_json64_all_strings(bool on);
/* Whether --json-strings is on. */
bool fst_json64_strings(void);

/* A 64-bit quantity (Counter64, time in ns, TSC, ...) by the rule above. */
json_t *fst_json_u64(uint64_t v);
/* The same for a signed one: an integer within +-(2^53 - 1). */
json_t *fst_json_s64(int64_t v);

#endif
