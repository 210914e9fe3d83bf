/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to the telemetry commands (telemetry_commands.c, telemetry_keyed.c),
 * a row's states (telemetry_states.c) and the parts of their answers
 * (telemetry_reply.c): what an answer may hold and what each part of it
 * costs.
 *
 * DPDK 22.11 answers with at most 16 KiB (the `max_output_len` of its
 * hello) and silently leaves out dict entries that do not fit, so each
 * answer is sized here, conservatively, to fit, and says when it was cut.
 *
 * Their functions are fms_telcmd_*: the commands this process answers on
 * its own telemetry socket (`tel` alone names the client that asks another
 * process, in ethdev/).
 */
#ifndef FASTMIB_TELEMETRY_ANSWER_H
#define FASTMIB_TELEMETRY_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_telemetry.h>

#include "fastmib/names.h"
#include "fastmib/reader.h"

#define TEL_MAX_OUTPUT 16384
/* Room kept for what the size estimates do not count exactly. */
#define TEL_SLACK 64
/* Strings longer than this are truncated by DPDK (RTE_TEL_MAX_STRING_LEN - 1). */
#define TEL_MAX_STR (RTE_TEL_MAX_STRING_LEN - 1)
/* A MIB name: the prefix and two model names, with room to spare. */
#define TEL_NAME_LEN (3 * FASTMIB_MAX_NAME + 8)

/*
 * telemetry_reply.c: the parts of an answer, for telemetry_commands.c and
 * telemetry_keyed.c.
 */

/* JSON text of a string: quotes, and escapes counted at their longest. */
size_t fms_telcmd_str_size(const char *s);
/* JSON text of an unsigned number: its digits. */
size_t fms_telcmd_u64_size(uint64_t v);
/* `"name":VALUE,` with a value of `value` bytes (a comma for every entry). */
size_t fms_telcmd_entry_size(const char *name, size_t value);
/* Take `n` bytes from `*left` if they are there. */
bool fms_telcmd_fits(size_t *left, size_t n);
/* An error answer: {"error": "..."} (a callback returning < 0 makes DPDK
 * answer a bare null, which tells the user nothing). Returns 0. */
int fms_telcmd_error(struct rte_tel_data *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An empty dict or string array, or NULL (out of memory). */
struct rte_tel_data *fms_telcmd_dict(void);
struct rte_tel_data *fms_telcmd_str_array(void);
/* A MIB name as DPDK keeps it: a longer one would be cut, and two could
 * become one key; its model name then (at most 64 characters). */
void fms_telcmd_name(char *buf, enum fastmib_name_role role, const char *prefix,
		     const char *group, const char *name);

/* Counter (or state) names of one group, MIB names as fastmib-stat shows
 * them, and what each costs in an answer. */
struct fms_telcmd_names {
	uint32_t n;
	char (*name)[TEL_NAME_LEN];
	size_t *size; /* fms_telcmd_entry_size() of the name, without the value */
	uint32_t *of; /* the schema position of entry k: a group's counters
			 (peaks among them) and its histograms are listed
			 apart */
};

/* The names of a group's counters (and peaks), histograms and states. */
struct fms_telcmd_cols {
	struct fms_telcmd_names counters, hists, states;
};

/*
 * How many of a dict's `n` entries fit in `*left`, entry k costing
 * cost(ctx, k) (its name and value), braces included: all of them, whose
 * bytes are then taken from `*left`; with `partial` the first ones that
 * fit, *cut set when some do not; else -1, nothing taken.
 */
int64_t fms_telcmd_fit(uint32_t n, size_t (*cost)(const void *ctx, uint32_t k), const void *ctx,
		       size_t *left, bool partial, bool *cut);

/*
 * A counters dict of one snapshot, or NULL when it does not fit in `*left`
 * (then nothing is taken from it). With `partial` (a scalar group), counters
 * that do not fit are left out instead and *cut is set.
 */
struct rte_tel_data *fms_telcmd_counters(const struct fastmib_group_schema *g,
					 const struct fms_telcmd_names *gn, const uint64_t *raw,
					 size_t *left, bool partial, bool *cut);

/*
 * The histograms dict of one snapshot, each {"bounds": [...], "buckets":
 * [...], "count": N, "sum": N} from the same words `raw`, or NULL when it
 * does not fit in `*left` (nothing taken then). With `partial` (a scalar
 * group), histograms that do not fit are left out and *cut is set.
 */
struct rte_tel_data *fms_telcmd_hists(const struct fastmib_group_schema *g,
				      const struct fms_telcmd_names *hn, const uint64_t *raw,
				      size_t *left, bool partial, bool *cut);

/* Present rows of table gi: all of a `rows: all` one, else the rows whose
 * presence bit is set. */
uint64_t fms_telcmd_present_rows(struct fastmib_segment *seg, unsigned int gi);

/*
 * telemetry_states.c: a row's states, and the row that holds them.
 */

/*
 * Row `row` of group gi (a keyed table's for key key[0..len), else key
 * NULL): its counters' snapshot into raw and its states' publication into
 * states (state_size bytes) and bad (FASTMIB_STATE_MASK_WORDS words), the
 * states read after the counters. 0; -EBUSY: the counters best effort; a
 * setter that stayed inside its section: 0 or -EBUSY, every state marked
 * bad; -ENOENT: the row went (or holds another key); or < 0.
 */
int fms_telcmd_read_row(struct fastmib_segment *seg, unsigned int gi, uint32_t row,
			const uint8_t *key, size_t len, uint64_t *raw, uint8_t *states,
			uint64_t *bad);
/*
 * The states dict of one row, read as above (`now_ns`: when, for a
 * timestamp's age), each state typed: NULL when it does not fit in
 * `*left` (nothing taken then). With `partial` (a scalar group), states
 * that do not fit are left out instead and *cut is set.
 */
struct rte_tel_data *fms_telcmd_states(const struct fastmib_group_schema *g,
				       const struct fms_telcmd_names *sn, const uint8_t *vals,
				       const uint64_t *bad, uint64_t now_ns, size_t *left,
				       bool partial, bool *cut);
/*
 * A table row's dict: {"key": `key` (a keyed table's, else NULL), "counters":
 * {...}, "histograms": {...} (a group with histograms), "states": {...} (a
 * group with states)}; a row of a table of integer indexes without states
 * or histograms is its counters dict alone. NULL when it
 * does not fit in `*left` (nothing taken, `key` freed).
 */
struct rte_tel_data *fms_telcmd_row(const struct fastmib_group_schema *g,
				    const struct fms_telcmd_cols *cols, struct rte_tel_data *key,
				    const uint64_t *raw, const uint8_t *states,
				    const uint64_t *bad, uint64_t now_ns, size_t *left);

/*
 * telemetry_keyed.c: the rows of keyed table gi, in SNMP order from the
 * key `from` (its text; NULL: the first), as many as `left` bytes hold,
 * into answer d (a dict with the segment and group entries); `states`
 * holds a row's states (state_size bytes) while it is read. 0, or an
 * error answer.
 */
int fms_telcmd_keyed_rows(struct rte_tel_data *d, struct fastmib_segment *seg, unsigned int gi,
			  const struct fms_telcmd_cols *cols, const char *from, uint8_t *states,
			  size_t left);

#endif
