/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to the model loader: typed access to the nodes of the model's
 * YAML document, each failure reported at the node's position.
 */
#ifndef FASTMIB_GEN_YAML_ACCESS_H
#define FASTMIB_GEN_YAML_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "model.h"

/* One model file being loaded. */
struct loader {
	const char *file;       /* as given on the command line */
	yaml_document_t doc;
	unsigned errors;        /* errors reported so far */
};

struct mark mark_of(const yaml_node_t *n);

/* `FILE:LINE:COL: error: MESSAGE`; counts the error. */
void err_at(struct loader *c, struct mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define err(c, node, ...) err_at((c), mark_of(node), __VA_ARGS__)
/* A diagnostic that does not fail the model: `kind` is "warning" or "note". */
void diag_at(struct loader *c, struct mark m, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

yaml_node_t *node_get(struct loader *c, int id);
/* "a scalar", "a sequence", "a mapping": for messages. */
const char *kind_name(const yaml_node_t *n);
const char *scalar(const yaml_node_t *n);

/* ---- keyed mappings ---- */

struct key {
	const char *name;
	bool required;
};

/*
 * Match the pairs of mapping `map` against `keys`; vals[i] receives the
 * value node of keys[i] or NULL. Unknown and repeated keys are errors.
 * Returns false (after an error) when `map` is not a mapping at all.
 */
bool get_keys(struct loader *c, yaml_node_t *map, const char *what,
	      const struct key *keys, size_t n_keys, yaml_node_t **vals);

/* ---- typed values: each reports its own error and returns false/NULL ---- */

bool want_scalar(struct loader *c, yaml_node_t *n, const char *field, const char *kind);
/* Printable ASCII text, white space runs folded; at most max_len characters. */
char *get_text(struct loader *c, yaml_node_t *n, const char *field, size_t max_len);
/* A plain decimal integer in lo..hi. */
bool get_uint(struct loader *c, yaml_node_t *n, const char *field, uint64_t lo,
	      uint64_t hi, uint64_t *out);
/* A plain decimal integer, a '-' before it when negative, in lo..hi. */
bool get_int(struct loader *c, yaml_node_t *n, const char *field, int64_t lo, int64_t hi,
	     int64_t *out);
/* A plain decimal integer that fits a 32-bit field; its range is the
 * schema's rule (fastmib_schema_check()). */
bool get_u32(struct loader *c, yaml_node_t *n, const char *field, uint32_t *out);
bool get_bool(struct loader *c, yaml_node_t *n, const char *field, bool *out);
/* A model name (group, counter, index, event, argument). */
char *get_name(struct loader *c, yaml_node_t *n, const char *field);
/* A label of an enum state: a model name's syntax, C keywords allowed (it
 * is spelled in upper case in C, in a MIB's enumeration as it is). */
char *get_label(struct loader *c, yaml_node_t *n, const char *field);
/* One of `names`; *out receives its position. */
bool get_enum(struct loader *c, yaml_node_t *n, const char *field,
	      const char *const *names, size_t n_names, size_t *out);
/* A word of the model format: one of word(1), word(2)... up to the first
 * NULL (fastmib_type_word() and its kin); *out receives its value. */
bool get_word(struct loader *c, yaml_node_t *n, const char *field,
	      const char *(*word)(uint32_t value), uint32_t *out);
/* Sequence items; NULL, a zero count and an error when `n` is not a
 * sequence of min..max items. */
yaml_node_item_t *get_seq(struct loader *c, yaml_node_t *n, const char *field,
			  size_t min, size_t max, size_t *count);

#endif
