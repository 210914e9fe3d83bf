/* SPDX-License-Identifier: BSD-3-Clause */
/* The `module` mapping: SMI module name, prefix, root OID, texts and revisions. */
#include "model_module.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/names.h"
#include "strbuf.h"

/*
 * Dotted decimal arcs, each < 2^32. How many and which values is the
 * schema's rule: arcs beyond the array are counted, not stored.
 */
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
		if (m->oid_len < FASTMIB_MAX_OID_LEN)
			m->oid[m->oid_len] = (uint32_t)v;
		if (m->oid_len < UINT32_MAX)
			m->oid_len++;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return false;
	}
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
parse_revisions(struct loader *c, yaml_node_t *seq, struct model *m)
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

void
parse_module(struct loader *c, yaml_node_t *mod, struct model *m)
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

		m->module_at = mark_of(v[NAME]);
		if (!fastmib_name_is_module(s))
			err(c, v[NAME], "module `name` `%s` is not a valid SMI module "
					"name: uppercase first letter, then letters, digits "
					"and single hyphens, not ending in a hyphen", s);
		else
			m->module = xstrdup(s);
	}
	if (v[PREFIX] && want_scalar(c, v[PREFIX], "prefix", "a prefix")) {
		const char *s = scalar(v[PREFIX]);

		m->prefix_at = mark_of(v[PREFIX]);
		if (!fastmib_name_is_prefix(s))
			err(c, v[PREFIX], "`prefix` `%s` must be lowercase letters and "
					  "digits, starting with a letter", s);
		else if (strlen(s) > 32)
			err(c, v[PREFIX], "`prefix` `%s` is longer than 32 characters", s);
		else
			m->prefix = xstrdup(s);
	}
	if (v[OID] && want_scalar(c, v[OID], "oid", "a dotted OID")) {
		m->oid_at = mark_of(v[OID]);
		m->oid_text = xstrdup(scalar(v[OID]));
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
