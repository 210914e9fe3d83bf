/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The text output's building blocks, shared by the counters and --ports:
 * tables laid out by libsmartcols (cols.c) and numbers as cells
 * (format.c).
 */
#ifndef FASTMIB_STAT_COLS_H
#define FASTMIB_STAT_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libsmartcols.h>

/* cols.c: libsmartcols calls that exit on out-of-memory. */
struct libscols_table *fst_cols_new_table(void);
void fst_cols_add_column(struct libscols_table *tb, const char *name, bool right);
struct libscols_line *fst_cols_new_line(struct libscols_table *tb);
void fst_cols_set(struct libscols_line *ln, size_t col, const char *data);
/*
 * Print and free `tb`: `raw`, as libsmartcols' raw mode writes it;
 * otherwise aligned and indented by `indent` spaces.
 */
void fst_cols_print(struct libscols_table *tb, bool raw, int indent);

/* format.c: numbers and names as the text output shows them. */
/* The model's word for a counter type (fastmib_type_word()), or "unknown". */
const char *fst_type_name(uint32_t type);
/* Units that count bytes ("octets", "bytes"...): -H shows them in KiB, MiB. */
bool fst_units_are_octets(const char *units);
/* Exact, or with -H (`human`) a prefix: 1.2M, or for octets 1.5KiB. */
void fst_format_count(char *buf, size_t len, uint64_t v, bool human, bool octets);
void fst_format_rate(char *buf, size_t len, double r, bool human, bool octets);
/*
 * A moment as ISO 8601 in UTC, `sec` seconds and `nsec` nanoseconds
 * (0..999999999) from the epoch (before it: a negative `sec`), with
 * `digits` (0..9) decimals of the second, cut: "2026-11-22T10:00:00Z",
 * "2026-11-22T10:00:00.1Z". --info, --events and date-and-time states.
 */
void fst_format_utc(char *buf, size_t len, int64_t sec, uint32_t nsec, int digits);

#endif
