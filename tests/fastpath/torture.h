/* SPDX-License-Identifier: BSD-3-Clause */
/* Values shared by the torture writer and its reader process. */
#ifndef FASTMIB_TORTURE_H
#define FASTMIB_TORTURE_H

#include <stdint.h>

#define TT_SESSIONS 10                 /* session rows in use */
#define TT_BYTES_PER_PKT 1500u
/* Presets put carries across 2^32 (pkts) and 2^64 (bytes) mid-run. */
#define TT_PRESET_LOW ((uint64_t)(1ull << 32) - 1000)
#define TT_PRESET_HIGH ((uint64_t)(UINT64_MAX / TT_BYTES_PER_PKT - 2000))

static inline uint64_t
tt_preset(uint32_t row)
{
	return row % 2 ? TT_PRESET_HIGH : TT_PRESET_LOW;
}

/* Every snapshot keeps bytes == 1500 * pkts (mod 2^64). */
static inline int
tt_consistent(const uint64_t *v)
{
	return v[1] == v[0] * TT_BYTES_PER_PKT;
}

#endif
