/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Model loading. The YAML document API keeps every node with its start
 * mark, so each check can point at the exact line and column of the value
 * it rejects. Checks go on after an error where that cannot cascade, so a
 * user sees every independent mistake in one run.
 */
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "names.h"
#include "strbuf.h"

struct ctx {
	const char *file;
	yaml_document_t doc;
	unsigned errors;
};

static struct mark
mark_of(const yaml_node_t *n)
{
	struct mark m = { (unsigned)n->start_mark.line + 1,
			  (unsigned)n->start_mark.column + 1 };
	return m;
}

static void __attribute__((format(printf, 3, 4)))
err_at(struct ctx *c, struct mark m, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u:%u: error: ", c->file, m.line, m.col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->errors++;
}

#define err(c, node, ...) err_at((c), mark_of(node), __VA_ARGS__)

/* A diagnostic that does not fail the model: `kind` is "warning" or "note". */
static void __attribute__((format(printf, 4, 5)))
diag_at(struct ctx *c, struct mark m, const char *kind, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u:%u: %s: ", c->file, m.line, m.col, kind);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static yaml_node_t *
node_get(struct ctx *c, int id)
{
	return yaml_document_get_node(&c->doc, id);
}

static const char *
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

static const char *
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

struct key {
	const char *name;
	bool required;
};

/*
 * Match the pairs of mapping `map` against `keys`; vals[i] receives the
 * value node of keys[i] or NULL. Unknown and repeated keys are errors.
 * Returns false (after an error) when `map` is not a mapping at all.
 */
static bool
get_keys(struct ctx *c, yaml_node_t *map, const char *what,
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

static bool
want_scalar(struct ctx *c, yaml_node_t *n, const char *field, const char *kind)
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
static char *
get_text(struct ctx *c, yaml_node_t *n, const char *field, size_t max_len)
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
	return sb.data;
fail:
	sb_free(&sb);
	return NULL;
}

static bool
get_uint(struct ctx *c, yaml_node_t *n, const char *field, uint64_t lo,
	 uint64_t hi, uint64_t *out)
{
	const char *s;
	uint64_t v = 0;

	if (!want_scalar(c, n, field, "an integer"))
		return false;
	s = scalar(n);
	if (!is_plain(n) || !*s || (s[0] == '0' && s[1]))
		goto bad;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			goto bad;
		if (v > (UINT64_MAX - 9) / 10)
			goto range;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v < lo || v > hi)
		goto range;
	*out = v;
	return true;
bad:
	err(c, n, "`%s` must be a decimal integer, not `%s`", field, scalar(n));
	return false;
range:
	err(c, n, "`%s` must be in %llu..%llu, not %s", field,
	    (unsigned long long)lo, (unsigned long long)hi, scalar(n));
	return false;
}

static bool
get_bool(struct ctx *c, yaml_node_t *n, const char *field, bool *out)
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

/* A model name (group, counter, index): an SMI descriptor fragment. */
static char *
get_name(struct ctx *c, yaml_node_t *n, const char *field)
{
	const char *s;
	char *snake;
	bool kw;

	if (!want_scalar(c, n, field, "a name"))
		return NULL;
	s = scalar(n);
	if (!name_is_descriptor(s)) {
		err(c, n, "`%s` `%s` is not a valid name: it must start with a "
			  "lowercase letter and hold only ASCII letters and digits",
		    field, s);
		return NULL;
	}
	if (strlen(s) > FASTMIB_MAX_NAME) {
		err(c, n, "`%s` `%s` is longer than %d characters", field, s,
		    FASTMIB_MAX_NAME);
		return NULL;
	}
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

static bool
get_enum(struct ctx *c, yaml_node_t *n, const char *field,
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

/* Sequence items; NULL count and an error when `n` is not a sequence. */
static yaml_node_item_t *
get_seq(struct ctx *c, yaml_node_t *n, const char *field, size_t min,
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

/* ---- module ---- */

static bool
parse_oid(const char *s, struct model *m)
{
	uint64_t v;

	m->oid_len = 0;
	for (;;) {
		if (!isdigit((unsigned char)*s) || (s[0] == '0' && isdigit((unsigned char)s[1])))
			return false;
		for (v = 0; isdigit((unsigned char)*s); s++) {
			v = v * 10 + (uint64_t)(*s - '0');
			if (v > UINT32_MAX)
				return false;
		}
		if (m->oid_len == FASTMIB_MAX_OID_LEN)
			return false;
		m->oid[m->oid_len++] = (uint32_t)v;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return false;
	}
	if (m->oid_len < 2 || m->oid[0] > 2 || (m->oid[0] < 2 && m->oid[1] > 39))
		return false;
	return true;
}

static bool
valid_date(const char *s)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, i;

	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return false;
		} else if (!isdigit((unsigned char)s[i])) {
			return false;
		}
	}
	if (s[10] != '\0')
		return false;
	y = atoi(s);
	mo = atoi(s + 5);
	d = atoi(s + 8);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > days[mo - 1])
		return false;
	if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	return true;
}

static int
rev_newest_first(const void *a, const void *b)
{
	return strcmp(((const struct m_revision *)b)->date,
		      ((const struct m_revision *)a)->date);
}

static void
parse_revisions(struct ctx *c, yaml_node_t *seq, struct model *m)
{
	static const struct key keys[] = { { "date", true }, { "description", true } };
	yaml_node_item_t *items;
	size_t n, i, j;

	items = get_seq(c, seq, "revisions", 1, 1000, &n);
	m->revisions = xcalloc(n, sizeof(*m->revisions));
	for (i = 0; i < n; i++) {
		yaml_node_t *rn = node_get(c, items[i]);
		struct m_revision *r = &m->revisions[m->n_revisions];
		yaml_node_t *v[2];

		if (!get_keys(c, rn, "revision", keys, 2, v))
			continue;
		if (v[0] && want_scalar(c, v[0], "date", "a date")) {
			if (!valid_date(scalar(v[0])))
				err(c, v[0], "`date` must be a date YYYY-MM-DD, not `%s`",
				    scalar(v[0]));
			else
				memcpy(r->date, scalar(v[0]), 11);
		}
		if (v[1])
			r->description = get_text(c, v[1], "description", GEN_MAX_DESCRIPTION);
		if (!r->date[0] || !r->description) {
			free(r->description);
			r->description = NULL;
			continue;
		}
		for (j = 0; j < m->n_revisions; j++)
			if (strcmp(m->revisions[j].date, r->date) == 0)
				break;
		if (j < m->n_revisions) {
			err(c, v[0], "duplicate revision date %s", r->date);
			free(r->description);
			r->description = NULL;
			continue;
		}
		m->n_revisions++;
	}
	qsort(m->revisions, m->n_revisions, sizeof(*m->revisions), rev_newest_first);
}

static void
parse_module(struct ctx *c, yaml_node_t *mod, struct model *m)
{
	enum { NAME, PREFIX, OID, ORG, CONTACT, DESCR, REVS, N };
	static const struct key keys[N] = {
		{ "name", true }, { "prefix", true }, { "oid", true },
		{ "organization", true }, { "contact", true },
		{ "description", true }, { "revisions", true },
	};
	yaml_node_t *v[N];

	if (!get_keys(c, mod, "module", keys, N, v))
		return;
	if (v[NAME] && want_scalar(c, v[NAME], "name", "a module name")) {
		const char *s = scalar(v[NAME]);

		if (!name_is_module(s))
			err(c, v[NAME], "module `name` `%s` is not a valid SMI module "
					"name: uppercase first letter, then letters, digits "
					"and single hyphens, not ending in a hyphen", s);
		else if (strlen(s) > FASTMIB_MAX_NAME)
			err(c, v[NAME], "module `name` `%s` is longer than %d characters",
			    s, FASTMIB_MAX_NAME);
		else
			m->module = xstrdup(s);
	}
	if (v[PREFIX] && want_scalar(c, v[PREFIX], "prefix", "a prefix")) {
		const char *s = scalar(v[PREFIX]);

		m->prefix_at = mark_of(v[PREFIX]);
		if (!name_is_prefix(s))
			err(c, v[PREFIX], "`prefix` `%s` must be lowercase letters and "
					  "digits, starting with a letter", s);
		else if (strlen(s) > 32)
			err(c, v[PREFIX], "`prefix` `%s` is longer than 32 characters", s);
		else
			m->prefix = xstrdup(s);
	}
	if (v[OID] && want_scalar(c, v[OID], "oid", "a dotted OID")) {
		if (!parse_oid(scalar(v[OID]), m))
			err(c, v[OID], "module `oid` `%s` must be a dotted numeric OID "
				       "of 2..%d arcs, such as 1.3.6.1.4.1.8072.9999.42",
			    scalar(v[OID]), FASTMIB_MAX_OID_LEN);
	}
	if (v[ORG])
		m->organization = get_text(c, v[ORG], "organization", GEN_MAX_DESCRIPTION);
	if (v[CONTACT])
		m->contact = get_text(c, v[CONTACT], "contact", GEN_MAX_DESCRIPTION);
	if (v[DESCR])
		m->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[REVS])
		parse_revisions(c, v[REVS], m);
}

/* ---- groups ---- */

static void
counter_free(struct m_counter *k)
{
	free(k->name);
	free(k->units);
	free(k->description);
	memset(k, 0, sizeof(*k));
}

static void
group_free(struct m_group *g)
{
	uint32_t j;

	for (j = 0; j < g->n_counters; j++)
		counter_free(&g->counters[j]);
	for (j = 0; j < g->n_indexes; j++)
		free(g->indexes[j].name);
	free(g->counters);
	free(g->name);
	free(g->description);
	memset(g, 0, sizeof(*g));
}

static const char *const type_names[] = { "counter64", "counter32", "gauge32" };
static const enum fastmib_type type_values[] = {
	FASTMIB_COUNTER64, FASTMIB_COUNTER32, FASTMIB_GAUGE32,
};
static const char *const storage_names[] = {
	"per-core", "shared-buffered", "shared-atomic",
};
static const enum fastmib_storage storage_values[] = {
	FASTMIB_STORAGE_PER_CORE, FASTMIB_STORAGE_SHARED_BUFFERED,
	FASTMIB_STORAGE_SHARED_ATOMIC,
};

bool
storage_is_shared(enum fastmib_storage s)
{
	return s != FASTMIB_STORAGE_PER_CORE;
}

static void
parse_table(struct ctx *c, yaml_node_t *t, struct m_group *g)
{
	static const struct key keys[] = { { "indexes", true }, { "rows", false } };
	static const struct key ikeys[] = { { "name", true }, { "max", true } };
	static const char *const rows_names[] = { "present", "all" };
	yaml_node_item_t *items;
	yaml_node_t *v[2];
	uint64_t rows = 1;
	size_t n, i, j, r;

	g->table = true;
	g->all_rows = false;
	if (!get_keys(c, t, "table", keys, 2, v))
		return;
	if (v[1] && get_enum(c, v[1], "rows", rows_names, 2, &r))
		g->all_rows = r == 1;
	if (!v[0])
		return;
	items = get_seq(c, v[0], "indexes", 1, FASTMIB_MAX_INDEXES, &n);
	for (i = 0; i < n; i++) {
		yaml_node_t *in = node_get(c, items[i]);
		struct m_index *x = &g->indexes[g->n_indexes];
		yaml_node_t *iv[2];
		uint64_t max = 0;

		if (!get_keys(c, in, "index", ikeys, 2, iv))
			continue;
		x->at = mark_of(in);
		if (iv[0] && (x->name = get_name(c, iv[0], "name")) != NULL) {
			if (strcmp(x->name, "w") == 0 || strcmp(x->name, "n") == 0) {
				err(c, iv[0], "index `name` `%s` is reserved for a parameter "
					      "of the generated functions", x->name);
				free(x->name);
				x->name = NULL;
			}
			for (j = 0; x->name && j < g->n_indexes; j++) {
				if (strcmp(g->indexes[j].name, x->name) == 0) {
					err(c, iv[0], "duplicate index `name` `%s` in table",
					    x->name);
					free(x->name);
					x->name = NULL;
				}
			}
		}
		if (iv[1] && get_uint(c, iv[1], "max", 1, FASTMIB_MAX_ROWS, &max))
			x->max = (uint32_t)max;
		if (!x->name || !x->max) {
			free(x->name);
			x->name = NULL;
			rows = 0;
			continue;
		}
		rows *= max;
		if (rows > FASTMIB_MAX_ROWS) {
			err(c, v[0], "table has more than %u rows (product of the index "
				     "`max` values); the limit is %u",
			    FASTMIB_MAX_ROWS, FASTMIB_MAX_ROWS);
			free(x->name);
			x->name = NULL;
			rows = 0;
			break;
		}
		g->n_indexes++;
	}
	g->n_rows = (uint32_t)rows;
}

static bool
parse_counter(struct ctx *c, yaml_node_t *cn, struct m_group *g,
	      struct m_counter *k)
{
	enum { NAME, OID, TYPE, UNITS, DESCR, SET, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "type", true },
		{ "units", false }, { "description", true }, { "set", false },
	};
	yaml_node_t *v[N];
	uint64_t arc = 0;
	size_t t = 0;
	bool ok = true;

	if (!get_keys(c, cn, "counter", keys, N, v))
		return false;
	k->at = mark_of(cn);
	if (v[NAME]) {
		k->name = get_name(c, v[NAME], "name");
		k->name_at = mark_of(v[NAME]);
	}
	if (v[OID] && get_uint(c, v[OID], "oid", 1, FASTMIB_MAX_ARC, &arc))
		k->arc = (uint32_t)arc;
	if (v[TYPE] && get_enum(c, v[TYPE], "type", type_names, 3, &t))
		k->type = type_values[t];
	k->units = v[UNITS] ? get_text(c, v[UNITS], "units", FASTMIB_MAX_UNITS)
			    : xstrdup("");
	if (v[DESCR])
		k->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[SET]) {
		ok = get_bool(c, v[SET], "set", &k->set);
		if (ok && k->set && k->type &&
		    (k->type != FASTMIB_GAUGE32 ||
		     g->storage != FASTMIB_STORAGE_SHARED_ATOMIC)) {
			err(c, v[SET], "`set: true` needs a gauge32 counter in "
				       "shared-atomic storage; `%s` is %s in %s storage",
			    k->name ? k->name : "this counter", type_names[t],
			    g->storage ? storage_names[g->storage - 1] : "unknown");
			ok = false;
		}
	}
	return ok && k->name && k->arc && k->type && k->units && k->description;
}

static bool
parse_group(struct ctx *c, yaml_node_t *gn, struct m_group *g)
{
	enum { NAME, OID, STORAGE, DESCR, TABLE, COUNTERS, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "storage", true },
		{ "description", true }, { "table", false }, { "counters", true },
	};
	yaml_node_t *v[N];
	yaml_node_item_t *items;
	uint64_t arc = 0;
	size_t s, n, i, j;
	bool ok = true;

	if (!get_keys(c, gn, "group", keys, N, v))
		return false;
	g->at = mark_of(gn);
	g->n_rows = 1;
	g->all_rows = true;
	if (v[NAME]) {
		g->name = get_name(c, v[NAME], "name");
		g->name_at = mark_of(v[NAME]);
	}
	if (v[OID] && get_uint(c, v[OID], "oid", 1, FASTMIB_MAX_ARC, &arc))
		g->arc = (uint32_t)arc;
	if (v[STORAGE] && get_enum(c, v[STORAGE], "storage", storage_names, 3, &s))
		g->storage = storage_values[s];
	if (v[DESCR])
		g->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[TABLE]) {
		unsigned before = c->errors;

		parse_table(c, v[TABLE], g);
		ok = c->errors == before;
	}
	if (!v[COUNTERS])
		return false;
	items = get_seq(c, v[COUNTERS], "counters", 1, FASTMIB_MAX_COUNTERS, &n);
	if (!items)
		return false;
	g->counters = xcalloc(n, sizeof(*g->counters));
	for (i = 0; i < n; i++) {
		struct m_counter *k = &g->counters[g->n_counters];

		if (!parse_counter(c, node_get(c, items[i]), g, k)) {
			counter_free(k);
			ok = false;
			continue;
		}
		for (j = 0; j < g->n_counters; j++) {
			if (strcmp(g->counters[j].name, k->name) == 0) {
				err_at(c, k->name_at, "duplicate counter name `%s` in "
						      "group (first at line %u)",
				       k->name, g->counters[j].name_at.line);
				ok = false;
			}
			if (g->counters[j].arc == k->arc) {
				err_at(c, k->at, "duplicate counter oid %u in group "
						 "(`%s` at line %u has it)",
				       k->arc, g->counters[j].name, g->counters[j].at.line);
				ok = false;
			}
		}
		g->n_counters++;
	}
	return ok && g->name && g->arc && g->storage && g->description;
}

static void
parse_groups(struct ctx *c, yaml_node_t *seq, struct model *m)
{
	yaml_node_item_t *items;
	size_t n, i, j;

	items = get_seq(c, seq, "groups", 1, FASTMIB_MAX_GROUPS, &n);
	m->groups = xcalloc(n, sizeof(*m->groups));
	for (i = 0; i < n; i++) {
		struct m_group *g = &m->groups[m->n_groups];

		if (!parse_group(c, node_get(c, items[i]), g)) {
			group_free(g);
			continue;
		}
		for (j = 0; j < m->n_groups; j++) {
			if (strcmp(m->groups[j].name, g->name) == 0)
				err_at(c, g->name_at, "duplicate group name `%s` "
						      "(first at line %u)",
				       g->name, m->groups[j].name_at.line);
			if (m->groups[j].arc == g->arc)
				err_at(c, g->at, "duplicate group oid %u (`%s` at "
						 "line %u has it)",
				       g->arc, m->groups[j].name, m->groups[j].at.line);
		}
		m->n_groups++;
	}
}

/* ---- events ---- */

static void
event_free(struct m_event *e)
{
	uint32_t i;

	for (i = 0; i < e->n_args; i++)
		free(e->args[i].name);
	free(e->name);
	free(e->description);
	memset(e, 0, sizeof(*e));
}

static const char *const arg_type_names[] = { "uint32", "int32", "uint64" };
static const enum m_arg_type arg_type_values[] = { ARG_UINT32, ARG_INT32, ARG_UINT64 };

/*
 * An argument name becomes a parameter of the generated event function,
 * so it must not hide what the function body or signature refers to: the
 * writer `w`, the fastmib_* primitives, and typedef names (`*_t`, e.g.
 * `uint32T` would spell uint32_t).
 */
static bool
arg_name_reserved(const char *name)
{
	char *snake = name_snake(name);
	size_t n = strlen(snake);
	bool r = strcmp(snake, "w") == 0 || strncmp(snake, "fastmib_", 8) == 0 ||
		 (n >= 2 && strcmp(snake + n - 2, "_t") == 0);

	free(snake);
	return r;
}

static bool
parse_event_arg(struct ctx *c, yaml_node_t *an, struct m_event *e,
		struct m_event_arg *a)
{
	static const struct key keys[] = { { "name", true }, { "type", true } };
	yaml_node_t *v[2];
	size_t t, j;

	if (!get_keys(c, an, "event argument", keys, 2, v))
		return false;
	a->at = mark_of(an);
	if (v[0] && (a->name = get_name(c, v[0], "name")) != NULL) {
		if (arg_name_reserved(a->name)) {
			err(c, v[0], "argument `name` `%s` is reserved: the generated "
				     "function uses `w`, `fastmib_*` and `*_t` names",
			    a->name);
			free(a->name);
			a->name = NULL;
		}
		for (j = 0; a->name && j < e->n_args; j++) {
			if (strcmp(e->args[j].name, a->name) == 0) {
				err(c, v[0], "duplicate argument `name` `%s` in event",
				    a->name);
				free(a->name);
				a->name = NULL;
			}
		}
	}
	if (v[1] && get_enum(c, v[1], "argument type", arg_type_names, 3, &t))
		a->type = arg_type_values[t];
	return a->name && a->type;
}

static bool
parse_event(struct ctx *c, yaml_node_t *en, struct m_event *e)
{
	enum { NAME, OID, LEVEL, RATE, DESCR, ARGS, NOTIFY, N };
	static const struct key keys[N] = {
		{ "name", true }, { "oid", true }, { "level", true },
		{ "rate", true }, { "description", true }, { "args", false },
		{ "notify", false },
	};
	yaml_node_t *v[N];
	yaml_node_item_t *items;
	uint64_t u;
	size_t n, i;
	bool ok = true;

	if (!get_keys(c, en, "event", keys, N, v))
		return false;
	e->at = mark_of(en);
	e->level = e->rate = UINT32_MAX;
	if (v[NAME]) {
		e->name = get_name(c, v[NAME], "name");
		e->name_at = mark_of(v[NAME]);
	}
	if (v[OID] && get_uint(c, v[OID], "oid", 1, FASTMIB_MAX_ARC, &u))
		e->arc = (uint32_t)u;
	if (v[LEVEL] && get_uint(c, v[LEVEL], "level", 0, 9, &u))
		e->level = (uint32_t)u;
	if (v[RATE] && get_uint(c, v[RATE], "rate", 0, 9, &u)) {
		e->rate = (uint32_t)u;
		e->rate_at = mark_of(v[RATE]);
	}
	if (v[DESCR])
		e->description = get_text(c, v[DESCR], "description", GEN_MAX_DESCRIPTION);
	if (v[NOTIFY])
		ok = get_bool(c, v[NOTIFY], "notify", &e->notify);
	if (v[ARGS]) {
		items = get_seq(c, v[ARGS], "args", 1, FASTMIB_MAX_EVENT_ARGS, &n);
		ok = ok && items != NULL;
		for (i = 0; i < n; i++) {
			struct m_event_arg *a = &e->args[e->n_args];

			if (!parse_event_arg(c, node_get(c, items[i]), e, a)) {
				free(a->name);
				memset(a, 0, sizeof(*a));
				ok = false;
				continue;
			}
			e->n_args++;
		}
	}
	return ok && e->name && e->arc && e->level <= 9 && e->rate <= 9 &&
	       e->description;
}

static void
parse_events(struct ctx *c, yaml_node_t *seq, struct model *m)
{
	yaml_node_item_t *items;
	size_t n, i, j;

	items = get_seq(c, seq, "events", 1, FASTMIB_MAX_EVENTS, &n);
	m->events = xcalloc(n ? n : 1, sizeof(*m->events));
	for (i = 0; i < n; i++) {
		struct m_event *e = &m->events[m->n_events];

		if (!parse_event(c, node_get(c, items[i]), e)) {
			event_free(e);
			continue;
		}
		for (j = 0; j < m->n_events; j++) {
			if (strcmp(m->events[j].name, e->name) == 0)
				err_at(c, e->name_at, "duplicate event name `%s` "
						      "(first at line %u)",
				       e->name, m->events[j].name_at.line);
			if (m->events[j].arc == e->arc)
				err_at(c, e->at, "duplicate event oid %u (`%s` at "
						 "line %u has it)",
				       e->arc, m->events[j].name, m->events[j].at.line);
		}
		m->n_events++;
	}
}

/*
 * An event's lag runs from the closest earlier logged event of equal or
 * lower level. If a lower-level event that normally anchors it has a lower
 * rate, some bursts log the event without its anchor, and its lag silently
 * stretches back to an older one: warn, as the timeline's authors advise.
 * Rate 0 anchors are never logged, so they never make a lag ambiguous.
 */
static void
check_event_rates(struct ctx *c, const struct model *m)
{
	uint32_t i, j;

	for (i = 0; i < m->n_events; i++) {
		const struct m_event *e = &m->events[i], *worst = NULL;

		if (e->rate == 0) {
			diag_at(c, e->rate_at, "note", "event `%s` has rate 0: it is "
				"never logged and its function does nothing", e->name);
			continue;
		}
		for (j = 0; j < m->n_events; j++) {
			const struct m_event *f = &m->events[j];

			if (f->level < e->level && f->rate > 0 && f->rate < e->rate &&
			    (!worst || f->rate < worst->rate))
				worst = f;
		}
		if (worst)
			diag_at(c, e->rate_at, "warning",
				"event `%s` (level %u, rate %u) is logged more often "
				"than the lower-level event `%s` (level %u, rate %u): "
				"in bursts that log `%s` but not `%s`, its lag is "
				"measured from an older event; give it a rate of at "
				"most %u",
				e->name, e->level, e->rate, worst->name, worst->level,
				worst->rate, e->name, worst->name, worst->rate);
	}
}

/* ---- generated names ---- */

enum name_space { NS_MIB, NS_MIB_TYPE, NS_C_MACRO, NS_C_ORDINARY, NS_C_TAG };

struct gen_name {
	char *name;
	enum name_space ns;
	struct mark at;
	const char *what;   /* model object that produced it */
};

struct names {
	struct gen_name *v;
	size_t n, cap;
};

static const char *const ns_label[] = {
	"MIB descriptor", "MIB type name", "C macro", "C identifier", "C struct tag",
};

/* Register a generated name (takes ownership); MIB names must fit 64. */
static void
add_name(struct ctx *c, struct names *ns, enum name_space space, char *name,
	 struct mark at, const char *what)
{
	if ((space == NS_MIB || space == NS_MIB_TYPE) &&
	    strlen(name) > FASTMIB_MAX_NAME)
		err_at(c, at, "generated %s `%s` for %s is %zu characters long; "
			      "the limit is %d: shorten the names",
		       ns_label[space], name, what, strlen(name), FASTMIB_MAX_NAME);
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 256;
		ns->v = xrealloc(ns->v, ns->cap * sizeof(*ns->v));
	}
	ns->v[ns->n].name = name;
	ns->v[ns->n].ns = space;
	ns->v[ns->n].at = at;
	ns->v[ns->n].what = what;
	ns->n++;
}

static int
cmp_name(const void *a, const void *b)
{
	const struct gen_name *x = a, *y = b;
	int r;

	if (x->ns != y->ns)
		return (int)x->ns - (int)y->ns;
	r = strcmp(x->name, y->name);
	if (r)
		return r;
	if (x->at.line != y->at.line)
		return x->at.line < y->at.line ? -1 : 1;
	return x->at.col < y->at.col ? -1 : x->at.col > y->at.col;
}

static char *__attribute__((format(printf, 1, 2)))
fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* Names of the event log objects; only models with events have them. */
static void
event_names(struct ctx *c, struct model *m, struct names *ns, char **whats,
	    size_t *n_whats)
{
	static const char *const module_mib[] = {
		"Events", "EventNotifications", "EventTable", "EventEntry",
		"EventNumber", "EventName", "EventId", "EventTime", "EventLcore",
		"EventLagCycles", "EventLagNs", "EventArg1", "EventArg2",
		"EventArg3", "EventArg4", "EventStatsTable", "EventStatsEntry",
		"EventStatsId", "EventStatsName", "EventStatsLogged",
		"EventStatsDropped", "EventGroup", "EventNotificationGroup",
	};
	static const char *const module_types[] = {
		"EventEntry", "EventStatsEntry", "Unsigned64",
	};
	const char *p = m->prefix;
	char *P = name_upper(p);
	const char *mod = whats[0];
	size_t i;

	for (i = 0; i < sizeof(module_mib) / sizeof(module_mib[0]); i++)
		add_name(c, ns, NS_MIB, name_join(p, module_mib[i], NULL),
			 m->prefix_at, mod);
	for (i = 0; i < sizeof(module_types) / sizeof(module_types[0]); i++)
		add_name(c, ns, NS_MIB_TYPE, name_join("", p, module_types[i], NULL),
			 m->prefix_at, mod);
	add_name(c, ns, NS_C_MACRO, fmt("%s_N_EVENTS", P), m->prefix_at, mod);
	add_name(c, ns, NS_C_ORDINARY, fmt("%s_events", p), m->prefix_at, mod);

	for (i = 0; i < m->n_events; i++) {
		struct m_event *e = &m->events[i];
		char *es = name_snake(e->name), *eu = name_upper(e->name);
		struct strbuf w;

		sb_init(&w);
		sb_printf(&w, "event `%s`", e->name);
		whats[(*n_whats)++] = w.data;
		if (e->notify)
			add_name(c, ns, NS_MIB, name_join(p, e->name, "Notification", NULL),
				 e->name_at, w.data);
		add_name(c, ns, NS_C_MACRO, fmt("%s_EVENT_%s", P, eu), e->name_at, w.data);
		add_name(c, ns, NS_C_ORDINARY, fmt("%s_event_%s", p, es), e->name_at, w.data);
		free(es);
		free(eu);
	}
	free(P);
}

/*
 * Every name the generator will emit, per namespace: two model objects
 * must never map to one generated name (e.g. group `port` counter
 * `queueRx` and group `portQueue` counter `rx`).
 */
static void
check_names(struct ctx *c, struct model *m)
{
	static const char *const module_mib[] = {
		"Mib", "Objects", "Control", "Conformance", "ResetAll",
		"DiscontinuityTime", "Compliances", "Groups", "Compliance",
		"ControlGroup",
	};
	struct names ns = { NULL, 0, 0 };
	const char *p = m->prefix;
	struct mark prefix_at = m->prefix_at;
	char *P = name_upper(p);
	char **whats;
	size_t n_whats = 0, i;
	uint32_t gi, ki, xi;

	whats = xcalloc((size_t)m->n_groups * (FASTMIB_MAX_COUNTERS + FASTMIB_MAX_INDEXES + 1) +
			m->n_events + 1, sizeof(*whats));
	whats[n_whats++] = xstrdup("the module");
	for (i = 0; i < sizeof(module_mib) / sizeof(module_mib[0]); i++)
		add_name(c, &ns, NS_MIB, name_join(p, module_mib[i], NULL),
			 prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_STATS_H", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_ALIGNED_64", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_STATIC_ASSERT", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_PERCORE_SIZE", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_MACRO, fmt("%s_SHARED_SIZE", P), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_ORDINARY, fmt("%s_schema", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_ORDINARY, fmt("%s_groups", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_TAG, fmt("%s_percore", p), prefix_at, whats[0]);
	add_name(c, &ns, NS_C_TAG, fmt("%s_shared", p), prefix_at, whats[0]);

	for (gi = 0; gi < m->n_groups; gi++) {
		struct m_group *g = &m->groups[gi];
		char *gs = name_snake(g->name), *gu = name_upper(g->name);
		struct strbuf w;
		const char *gw;

		sb_init(&w);
		sb_printf(&w, "group `%s`", g->name);
		gw = whats[n_whats++] = w.data;
		if (g->table) {
			add_name(c, &ns, NS_MIB, name_join(p, g->name, "Table", NULL), g->name_at, gw);
			add_name(c, &ns, NS_MIB, name_join(p, g->name, "Entry", NULL), g->name_at, gw);
			add_name(c, &ns, NS_MIB_TYPE, name_join("", p, g->name, "Entry", NULL),
				 g->name_at, gw);
			add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_ROWS", P, gu), g->name_at, gw);
			add_name(c, &ns, NS_C_ORDINARY, fmt("%s_%s_row", p, gs), g->name_at, gw);
		} else {
			add_name(c, &ns, NS_MIB, name_join(p, g->name, NULL), g->name_at, gw);
		}
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "Reset", NULL), g->name_at, gw);
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "DiscontinuityTime", NULL),
			 g->name_at, gw);
		add_name(c, &ns, NS_MIB, name_join(p, g->name, "Group", NULL), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_GROUP_%s", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_OFFSET", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_ROW_SIZE", P, gu), g->name_at, gw);
		add_name(c, &ns, NS_C_ORDINARY, fmt("%s_%s_counters", p, gs), g->name_at, gw);
		add_name(c, &ns, NS_C_TAG, fmt("%s_%s_row", p, gs), g->name_at, gw);

		for (xi = 0; xi < g->n_indexes; xi++) {
			struct m_index *x = &g->indexes[xi];
			char *xu = name_upper(x->name);

			sb_init(&w);
			sb_printf(&w, "index `%s` of group `%s`", x->name, g->name);
			whats[n_whats++] = w.data;
			add_name(c, &ns, NS_MIB, name_join(p, g->name, x->name, NULL), x->at, w.data);
			add_name(c, &ns, NS_C_MACRO, fmt("%s_%s_%s_MAX", P, gu, xu),
				 x->at, w.data);
			free(xu);
		}
		for (ki = 0; ki < g->n_counters; ki++) {
			struct m_counter *k = &g->counters[ki];
			char *ks = name_snake(k->name);
			char *fn = fmt("%s_%s_%s", p, gs, ks);

			sb_init(&w);
			sb_printf(&w, "counter `%s` of group `%s`", k->name, g->name);
			whats[n_whats++] = w.data;
			add_name(c, &ns, NS_MIB, name_join(p, g->name, k->name, NULL),
				 k->name_at, w.data);
			add_name(c, &ns, NS_C_ORDINARY, fmt("%s_add", fn), k->name_at, w.data);
			if (k->type == FASTMIB_GAUGE32)
				add_name(c, &ns, NS_C_ORDINARY, fmt("%s_sub", fn),
					 k->name_at, w.data);
			if (k->set)
				add_name(c, &ns, NS_C_ORDINARY, fmt("%s_set", fn),
					 k->name_at, w.data);
			free(fn);
			free(ks);
		}
		free(gs);
		free(gu);
	}

	if (m->n_events)
		event_names(c, m, &ns, whats, &n_whats);

	qsort(ns.v, ns.n, sizeof(*ns.v), cmp_name);
	for (i = 1; i < ns.n; i++) {
		struct gen_name *a = &ns.v[i - 1], *b = &ns.v[i];

		if (a->ns == b->ns && strcmp(a->name, b->name) == 0)
			err_at(c, b->at, "generated %s `%s` of %s clashes with the one "
					 "of %s (line %u): rename one of them",
			       ns_label[b->ns], b->name, b->what, a->what, a->at.line);
	}
	for (i = 0; i < ns.n; i++)
		free(ns.v[i].name);
	free(ns.v);
	for (i = 0; i < n_whats; i++)
		free(whats[i]);
	free(whats);
	free(P);
}

/* ---- layout ---- */

static uint64_t
align64(uint64_t v)
{
	return (v + 63) & ~(uint64_t)63;
}

/* Offsets per the data layout contract of schema.h, groups in model order. */
static void
layout(struct ctx *c, struct model *m)
{
	uint64_t end[2] = { 0, 0 };
	uint32_t gi, ki;

	for (gi = 0; gi < m->n_groups; gi++) {
		struct m_group *g = &m->groups[gi];
		int a = storage_is_shared(g->storage);

		for (ki = 0; ki < g->n_counters; ki++)
			g->counters[ki].offset = 8 * ki;
		g->row_size = 8 * g->n_counters;
		g->offset = align64(end[a]);
		end[a] = g->offset + (uint64_t)g->n_rows * g->row_size;
		if (align64(end[a]) > FASTMIB_MAX_AREA) {
			err_at(c, g->name_at, "group `%s` makes the %s storage area "
					      "%llu bytes; the limit is %llu",
			       g->name, a ? "shared" : "per-core",
			       (unsigned long long)align64(end[a]),
			       (unsigned long long)FASTMIB_MAX_AREA);
			return;
		}
	}
	m->percore_size = align64(end[0]);
	m->shared_size = align64(end[1]);
}

/* ---- entry point ---- */

static void
parse_root(struct ctx *c, yaml_node_t *root, struct model *m)
{
	enum { VERSION, MODULE, GROUPS, EVENTS, N };
	static const struct key keys[N] = {
		{ "fastmib", true }, { "module", true }, { "groups", true },
		{ "events", false },
	};
	yaml_node_t *v[N];
	uint64_t version;

	if (!get_keys(c, root, "the model", keys, N, v))
		return;
	if (v[VERSION] && get_uint(c, v[VERSION], "fastmib", 0, UINT32_MAX, &version) &&
	    version != FASTMIB_MODEL_VERSION)
		err(c, v[VERSION], "unsupported model format `fastmib: %s` "
				   "(this generator reads version %d)",
		    scalar(v[VERSION]), FASTMIB_MODEL_VERSION);
	if (v[MODULE])
		parse_module(c, v[MODULE], m);
	if (v[GROUPS])
		parse_groups(c, v[GROUPS], m);
	if (v[EVENTS])
		parse_events(c, v[EVENTS], m);
	if (c->errors == 0 && m->prefix)
		check_names(c, m);
	if (c->errors == 0)
		layout(c, m);
	if (c->errors == 0)
		check_event_rates(c, m);
}

static void
report_yaml_error(struct ctx *c, const yaml_parser_t *p)
{
	struct mark m = { (unsigned)p->problem_mark.line + 1,
			  (unsigned)p->problem_mark.column + 1 };

	if (p->context)
		err_at(c, m, "YAML: %s %s", p->problem, p->context);
	else
		err_at(c, m, "YAML: %s", p->problem ? p->problem : "syntax error");
}

int
model_load(const char *path, struct model *m)
{
	struct ctx c = { .file = path, .errors = 0 };
	yaml_parser_t parser;
	yaml_document_t extra;
	yaml_node_t *root;
	const char *slash;
	FILE *f;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	slash = strrchr(path, '/');
	m->source = xstrdup(slash ? slash + 1 : path);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fastmib-gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		fputs("fastmib-gen: cannot initialise the YAML parser\n", stderr);
		return 1;
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &c.doc)) {
		if (ferror(f)) {
			fprintf(stderr, "fastmib-gen: %s: read error\n", path);
			rc = 1;
		} else {
			report_yaml_error(&c, &parser);
			rc = 2;
		}
		goto out_parser;
	}
	root = yaml_document_get_root_node(&c.doc);
	if (!root) {
		err_at(&c, (struct mark){ 1, 1 }, "the model is empty");
	} else {
		parse_root(&c, root, m);
		if (!yaml_parser_load(&parser, &extra)) {
			report_yaml_error(&c, &parser);
		} else {
			yaml_node_t *r2 = yaml_document_get_root_node(&extra);

			if (r2)
				err(&c, r2, "a model is one YAML document; found a second one");
			yaml_document_delete(&extra);
		}
	}
	rc = c.errors ? 2 : 0;
	yaml_document_delete(&c.doc);
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
	return rc;
}

void
model_free(struct model *m)
{
	uint32_t i;

	for (i = 0; i < m->n_groups; i++)
		group_free(&m->groups[i]);
	for (i = 0; i < m->n_events; i++)
		event_free(&m->events[i]);
	free(m->events);
	for (i = 0; i < m->n_revisions; i++)
		free(m->revisions[i].description);
	free(m->revisions);
	free(m->groups);
	free(m->source);
	free(m->module);
	free(m->prefix);
	free(m->organization);
	free(m->contact);
	free(m->description);
	memset(m, 0, sizeof(*m));
}
