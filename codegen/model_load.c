/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Model loading (model_load.h): the YAML document and its top level, its
 * parts read by the files below this one; then the schema of
 * the model, its generated names and its event rates are checked.
 * Checks go on after an error where that cannot cascade, so a user sees
 * every independent mistake in one run.
 */
#include "model_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_names.h"
#include "model_bounds.h"
#include "model_events.h"
#include "model_groups.h"
#include "model_module.h"
#include "model_schema.h"
#include "strbuf.h"
#include "yaml_access.h"

static void
parse_root(struct loader *c, yaml_node_t *root, struct model *m)
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
	/* Each stage needs a whole model from the one before. */
	if (c->errors == 0)
		build_schema(c, m);
	if (c->errors == 0)
		check_names(c, m);
	if (c->errors == 0)
		check_event_rates(c, m);
}

static void
report_yaml_error(struct loader *c, const yaml_parser_t *p)
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
	struct loader c = { .file = path, .errors = 0 };
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
	if (!model_bounds_ok(&c, f)) {
		fclose(f);
		return 2;
	}
	rewind(f);
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
	schema_free(m);
	free(m->oid_text);
	free(m->source);
	free(m->module);
	free(m->prefix);
	free(m->organization);
	free(m->contact);
	free(m->description);
	memset(m, 0, sizeof(*m));
}
