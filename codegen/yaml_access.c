/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading the model's YAML document. The YAML document API keeps every
 * node with its start mark, so each check can point at the exact line and
 * column of the value it rejects; diagnostics are FILE:LINE:COL.
 */
#include "yaml_access.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "single_names.h"
#include "strbuf.h"

struct mark
mark_of(const yaml_node_t *n)
{
	struct mark m = { (unsigned)n->start_mark.line + 1,
			  (unsigned)n->start_mark.column + 1 };
	return m;
}

/* `FILE:LINE:COL: KIND: MESSAGE` on stderr, one line: a value the
 * message quotes may hold a newline or another control character, which
 * is written escaped (\n, \xHH) so that it cannot make a line of its own. */
static void
vdiag_at(struct loader *c, struct mark m, const char *kind, const char *fmt, va_list ap)
{
	struct strbuf msg;

	sb_init(&msg);
	sb_vprintf(&msg, fmt, ap);
	fprintf(stderr, "%s:%u:%u: %s: ", c->file, m.line, m.col, kind);
	for (size_t i = 0; i < msg.len; i++) {
		unsigned char ch = (unsigned char)msg.data[i];

		if (ch == '\n')
			fputs("\\n", stderr);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(stderr, "\\x%02x", ch);
		else
			fputc(ch, stderr);
	}
	fputc('\n', stderr);
	sb_free(&msg);
}

void
err_at(struct loader *c, struct mark m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(c, m, "error", fmt, ap);
	va_end(ap);
	c->errors++;
}

/* A diagnostic that does not fail the model: `kind` is "warning" or "note". */
void
diag_at(struct loader *c, struct mark m, const char *kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(c, m, kind, fmt, ap);
	va_end(ap);
}

yaml_node_t *
node_get(struct loader *c, int id)
{
	return yaml_document_get_node(&c->doc, id);
}

const char *
kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a sequence";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

const char *
scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* Plain scalars only: a quoted "12" is text, not a number or a boolean. */
static bool
is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* ---- keyed mappings ---- */

/*
 * Match the pairs of mapping `map` against `keys`; vals[i] receives the
 * value node of keys[i] or NULL. Unknown and repeated keys are errors.
 * Returns false (after an error) when `map` is not a mapping at all.
 */
bool
get_keys(struct loader *c, yaml_node_t *map, const char *what,
	 const struct key *keys, size_t n_keys, yaml_node_t **vals)
{
	yaml_node_pair_t *p;
	size_t i;

	for (i = 0; i < n_keys; i++)
		vals[i] = NULL;
	if (map->type != YAML_MAPPING_NODE) {
		err(c, map, "%s must be a mapping, not %s", what, kind_name(map));
		return false;
	}
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node_get(c, p->key);
		yaml_node_t *v = node_get(c, p->value);

		if (k->type != YAML_SCALAR_NODE) {
			err(c, k, "keys of %s must be scalars, not %s", what, kind_name(k));
			continue;
		}
		for (i = 0; i < n_keys; i++)
			if (strcmp(scalar(k), keys[i].name) == 0)
				break;
		if (i == n_keys) {
			struct strbuf sb;
			size_t j;

			sb_init(&sb);
			for (j = 0; j < n_keys; j++)
				sb_printf(&sb, "%s%s", j ? ", " : "", keys[j].name);
			err(c, k, "unknown key `%s` in %s (expected one of: %s)",
			    scalar(k), what, sb.data);
			sb_free(&sb);
		} else if (vals[i]) {
			err(c, k, "duplicate key `%s` in %s", scalar(k), what);
		} else {
			vals[i] = v;
		}
	}
	for (i = 0; i < n_keys; i++)
		if (keys[i].required && !vals[i])
			err(c, map, "missing key `%s` in %s", keys[i].name, what);
	return true;
}

/* ---- typed values ---- */

bool
want_scalar(struct loader *c, yaml_node_t *n, const char *field, const char *kind)
{
	if (n->type == YAML_SCALAR_NODE)
		return true;
	err(c, n, "`%s` must be %s, not %s", field, kind, kind_name(n));
	return false;
}

/*
 * Text (descriptions, units, contact...): runs of white space become one
 * space so YAML folding style does not matter; printable ASCII only, and
 * no double quote, which would end an SMI string.
 */
char *
get_text(struct loader *c, yaml_node_t *n, const char *field, size_t max_len)
{
	struct strbuf sb;
	const unsigned char *s;
	bool space = false;

	if (!want_scalar(c, n, field, "a string"))
		return NULL;
	sb_init(&sb);
	sb_puts(&sb, "");
	for (s = (const unsigned char *)scalar(n); *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			space = sb.len > 0;
			continue;
		}
		if (*s == '"') {
			err(c, n, "`%s` must not contain a double quote (\"); "
				  "use single quotes instead", field);
			goto fail;
		}
		if (*s < 0x20 || *s > 0x7e) {
			err(c, n, "`%s` must be printable ASCII text "
				  "(found byte 0x%02x)", field, *s);
			goto fail;
		}
		if (space)
			sb_putc(&sb, ' ');
		space = false;
		sb_putc(&sb, (char)*s);
	}
	if (sb.len == 0) {
		err(c, n, "`%s` must not be empty", field);
		goto fail;
	}
	if (sb.len > max_len) {
		err(c, n, "`%s` is %zu characters long; the limit is %zu",
		    field, sb.len, max_len);
		goto fail;
	}
	return sb_take(&sb);
fail:
	sb_free(&sb);
	return NULL;
}

enum decimal { DECIMAL_OK, DECIMAL_BAD, DECIMAL_ABOVE };

/*
 * The value of digits `s` of a plain scalar, written in decimal without
 * leading zeros, read left to right: DECIMAL_BAD at the first byte that is
 * not a digit, DECIMAL_ABOVE as soon as the value exceeds `max`.
 */
static enum decimal
parse_decimal(const yaml_node_t *n, const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!is_plain(n) || !*s || (s[0] == '0' && s[1]))
		return DECIMAL_BAD;
	for (; *s; s++) {
		unsigned d;

		if (!isdigit((unsigned char)*s))
			return DECIMAL_BAD;
		d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return DECIMAL_ABOVE;
		v = v * 10 + d;
	}
	*out = v;
	return DECIMAL_OK;
}

static bool
not_decimal(struct loader *c, yaml_node_t *n, const char *field)
{
	err(c, n, "`%s` must be a decimal integer, not `%s`", field, scalar(n));
	return false;
}

bool
get_uint(struct loader *c, yaml_node_t *n, const char *field, uint64_t lo,
	 uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	enum decimal r;

	if (!want_scalar(c, n, field, "an integer"))
		return false;
	r = parse_decimal(n, scalar(n), UINT64_MAX, &v);
	if (r == DECIMAL_BAD)
		return not_decimal(c, n, field);
	if (r == DECIMAL_ABOVE || v < lo || v > hi) {
		err(c, n, "`%s` must be in %llu..%llu, not %s", field,
		    (unsigned long long)lo, (unsigned long long)hi, scalar(n));
		return false;
	}
	*out = v;
	return true;
}

bool
get_int(struct loader *c, yaml_node_t *n, const char *field, int64_t lo, int64_t hi,
	int64_t *out)
{
	const char *s;
	bool minus;
	uint64_t v = 0, max;
	enum decimal r;

	if (!want_scalar(c, n, field, "an integer"))
		return false;
	s = scalar(n);
	minus = s[0] == '-';
	max = minus ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	r = parse_decimal(n, s + minus, max, &v);
	if (r == DECIMAL_BAD || (minus && v == 0))
		return not_decimal(c, n, field);
	if (r == DECIMAL_OK) {
		/* -2^63 is the one value whose magnitude int64_t cannot hold */
		*out = minus ? (v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v) : (int64_t)v;
		if (*out >= lo && *out <= hi)
			return true;
	}
	err(c, n, "`%s` must be in %lld..%lld, not %s", field, (long long)lo, (long long)hi, s);
	return false;
}

bool
get_u32(struct loader *c, yaml_node_t *n, const char *field, uint32_t *out)
{
	uint64_t v = 0;
	enum decimal r;

	if (!want_scalar(c, n, field, "an integer"))
		return false;
	r = parse_decimal(n, scalar(n), UINT32_MAX, &v);
	if (r == DECIMAL_BAD)
		return not_decimal(c, n, field);
	if (r == DECIMAL_ABOVE) {
		err(c, n, "`%s` must be a decimal integer below 2^32, not `%s`", field,
		    scalar(n));
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

bool
get_bool(struct loader *c, yaml_node_t *n, const char *field, bool *out)
{
	if (!want_scalar(c, n, field, "a boolean"))
		return false;
	if (is_plain(n) && strcmp(scalar(n), "true") == 0) {
		*out = true;
		return true;
	}
	if (is_plain(n) && strcmp(scalar(n), "false") == 0) {
		*out = false;
		return true;
	}
	err(c, n, "`%s` must be true or false, not `%s`", field, scalar(n));
	return false;
}

/* A scalar with the syntax of a model name, reported at n when not. */
static bool
name_syntax(struct loader *c, yaml_node_t *n, const char *field)
{
	if (!want_scalar(c, n, field, "a name"))
		return false;
	if (fastmib_name_is_model(scalar(n)))
		return true;
	err(c, n, "`%s` `%s` is not a valid name: it must start with a "
		  "lowercase letter and hold only ASCII letters and digits",
	    field, scalar(n));
	return false;
}

/* A model name (group, counter, index): an SMI descriptor fragment. */
char *
get_name(struct loader *c, yaml_node_t *n, const char *field)
{
	const char *s;
	char *snake;
	bool kw;

	if (!name_syntax(c, n, field))
		return NULL;
	s = scalar(n);
	snake = name_snake(s);
	kw = name_is_c_keyword(snake);
	free(snake);
	if (kw) {
		err(c, n, "`%s` `%s` is a C or C++ keyword in generated code",
		    field, s);
		return NULL;
	}
	return xstrdup(s);
}

char *
get_label(struct loader *c, yaml_node_t *n, const char *field)
{
	return name_syntax(c, n, field) ? xstrdup(scalar(n)) : NULL;
}

bool
get_enum(struct loader *c, yaml_node_t *n, const char *field,
	 const char *const *names, size_t n_names, size_t *out)
{
	struct strbuf sb;
	size_t i;

	if (!want_scalar(c, n, field, "a string"))
		return false;
	for (i = 0; i < n_names; i++) {
		if (strcmp(scalar(n), names[i]) == 0) {
			*out = i;
			return true;
		}
	}
	sb_init(&sb);
	for (i = 0; i < n_names; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", names[i]);
	err(c, n, "unknown %s `%s` (expected one of: %s)", field, scalar(n), sb.data);
	sb_free(&sb);
	return false;
}

bool
get_word(struct loader *c, yaml_node_t *n, const char *field,
	 const char *(*word)(uint32_t value), uint32_t *out)
{
	const char *names[16]; /* the most words of a kind (13 state types) */
	size_t n_names = 0, i;

	while (n_names < 16 && (names[n_names] = word((uint32_t)n_names + 1)) != NULL)
		n_names++;
	if (!get_enum(c, n, field, names, n_names, &i))
		return false;
	*out = (uint32_t)i + 1;
	return true;
}

/* Sequence items; NULL count and an error when `n` is not a sequence. */
yaml_node_item_t *
get_seq(struct loader *c, yaml_node_t *n, const char *field, size_t min,
	size_t max, size_t *count)
{
	size_t len;

	*count = 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		err(c, n, "`%s` must be a sequence, not %s", field, kind_name(n));
		return NULL;
	}
	len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (len < min) {
		err(c, n, "`%s` must have at least %zu entr%s", field, min,
		    min == 1 ? "y" : "ies");
		return NULL;
	}
	if (len > max) {
		err(c, n, "`%s` has %zu entries; the limit is %zu", field, len, max);
		return NULL;
	}
	*count = len;
	return n->data.sequence.items.start;
}

