/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What loading a model file may cost, decided before it is loaded.
 *
 * libyaml's document loader keeps an alias as a second reference to its
 * anchored node, so the document stays the size of the file; the model
 * loader, though, reads every reference as a node of its own. Eight
 * hundred aliases of a group holding eight hundred aliases of a counter
 * are 15 KB of YAML and 640,000 counters to load. The loader also costs time
 * quadratic in the nesting depth and in the number of anchors (it looks
 * each alias up among them one by one).
 *
 * This pass reads the event stream once, in time linear in the file,
 * keeping at most MODEL_MAX_ANCHORS anchors and MODEL_MAX_DEPTH open
 * nodes, and stops at the first of:
 * - a node nested deeper than MODEL_MAX_DEPTH (no part of a model is);
 * - an anchor beyond MODEL_MAX_ANCHORS, or defined twice;
 * - an alias to no anchor, or to the node that holds it (a cycle);
 * - an alias that makes the model, expanded, larger than
 *   MODEL_EXPANSION times the file, or MODEL_EXPANSION_FLOOR for a
 *   small file. The size of a node, expanded: one per node, plus the
 *   bytes of each scalar; an alias counts the size of what it stands
 *   for, as the model loader will see it.
 * A model without aliases is at most about twice its file in that
 * measure (every node takes at least one byte of the file, and a
 * scalar's value is never longer than its text), so only aliases can
 * reach the limit. Anything this pass cannot parse is left to the
 * loader, which reports it.
 */
#include "model_bounds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"

/* The deepest a model goes is 6 (the model, `groups`, a group, its
 * `table`, `indexes`, an index). */
#define MODEL_MAX_DEPTH 8
#define MODEL_MAX_ANCHORS 256
#define MODEL_EXPANSION 16
#define MODEL_EXPANSION_FLOOR (4u << 20)

struct anchor {
	char *name;
	struct mark at;
	uint64_t size;  /* expanded; valid once closed */
	bool open;      /* its node has not ended yet */
};

struct frame {
	int anchor;     /* index in anchors, or -1 */
	uint64_t start; /* `total` before the node: its size is `total` after
			   it, less this */
};

struct bounds {
	struct loader *c;
	struct anchor anchors[MODEL_MAX_ANCHORS];
	unsigned n_anchors;
	struct frame stack[MODEL_MAX_DEPTH];
	unsigned depth;
	uint64_t total;  /* expanded size of what was read, in file order */
	uint64_t limit;
	uint64_t file_size;
};

static struct mark
event_mark(const yaml_event_t *ev)
{
	return (struct mark){ (unsigned)ev->start_mark.line + 1,
			      (unsigned)ev->start_mark.column + 1 };
}

static int
find_anchor(const struct bounds *b, const char *name)
{
	for (unsigned i = 0; i < b->n_anchors; i++)
		if (strcmp(b->anchors[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Registers the anchor of a node starting at `ev`: its index, -1 without
 * one, -2 after an error. */
static int
add_anchor(struct bounds *b, const yaml_event_t *ev, const yaml_char_t *name)
{
	struct anchor *a;
	int i;

	if (name == NULL)
		return -1;
	i = find_anchor(b, (const char *)name);
	if (i >= 0) {
		err_at(b->c, event_mark(ev), "anchor `&%s` is defined twice (first at "
		       "line %u, column %u)", (const char *)name, b->anchors[i].at.line,
		       b->anchors[i].at.col);
		return -2;
	}
	if (b->n_anchors == MODEL_MAX_ANCHORS) {
		err_at(b->c, event_mark(ev), "anchor `&%s` is one more than the %d a "
		       "model may define", (const char *)name, MODEL_MAX_ANCHORS);
		return -2;
	}
	a = &b->anchors[b->n_anchors];
	a->name = xstrdup((const char *)name);
	a->at = event_mark(ev);
	a->open = true;
	a->size = 0;
	return (int)b->n_anchors++;
}

static bool
on_alias(struct bounds *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	int i = find_anchor(b, name);

	if (i < 0) {
		err_at(b->c, event_mark(ev), "alias `*%s` names no anchor defined "
		       "before it", name);
		return false;
	}
	if (b->anchors[i].open) {
		err_at(b->c, event_mark(ev), "alias `*%s` is inside the node it names "
		       "(line %u, column %u): the model would never end", name,
		       b->anchors[i].at.line, b->anchors[i].at.col);
		return false;
	}
	b->total += b->anchors[i].size;
	if (b->total > b->limit) {
		err_at(b->c, event_mark(ev), "alias `*%s` expands the model past %llu, "
		       "the most a file of %llu bytes may expand to (%d times its size, "
		       "at least %u; counting one per node and the bytes of each "
		       "scalar)", name, (unsigned long long)b->limit,
		       (unsigned long long)b->file_size, MODEL_EXPANSION,
		       MODEL_EXPANSION_FLOOR);
		return false;
	}
	return true;
}

static bool
on_start(struct bounds *b, const yaml_event_t *ev, const yaml_char_t *anchor)
{
	int a;

	if (b->depth == MODEL_MAX_DEPTH) {
		err_at(b->c, event_mark(ev), "nested deeper than %d levels: no part of "
		       "a model goes that deep", MODEL_MAX_DEPTH);
		return false;
	}
	a = add_anchor(b, ev, anchor);
	if (a == -2)
		return false;
	b->stack[b->depth++] = (struct frame){ .anchor = a, .start = b->total };
	b->total++; /* nothing but an alias takes the total past the limit */
	return true;
}

static void
on_end(struct bounds *b)
{
	struct frame f = b->stack[--b->depth];

	if (f.anchor >= 0) {
		b->anchors[f.anchor].open = false;
		b->anchors[f.anchor].size = b->total - f.start;
	}
}

static bool
on_scalar(struct bounds *b, const yaml_event_t *ev)
{
	uint64_t size = 1 + ev->data.scalar.length;
	int a = add_anchor(b, ev, ev->data.scalar.anchor);

	if (a == -2)
		return false;
	if (a >= 0) {
		b->anchors[a].open = false;
		b->anchors[a].size = size;
	}
	b->total += size;
	return true;
}

/* Anchors are a document's own. */
static void
forget_anchors(struct bounds *b)
{
	for (unsigned i = 0; i < b->n_anchors; i++)
		free(b->anchors[i].name);
	b->n_anchors = 0;
}

static bool
on_event(struct bounds *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		forget_anchors(b);
		return true;
	case YAML_SEQUENCE_START_EVENT:
		return on_start(b, ev, ev->data.sequence_start.anchor);
	case YAML_MAPPING_START_EVENT:
		return on_start(b, ev, ev->data.mapping_start.anchor);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			on_end(b);
		return true;
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	default:
		return true;
	}
}

bool
model_bounds_ok(struct loader *c, FILE *f)
{
	struct bounds *b = xcalloc(1, sizeof(*b));
	yaml_parser_t p;
	yaml_event_t ev;
	struct stat st;
	bool ok = true, done = false;

	b->c = c;
	b->file_size = fstat(fileno(f), &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
	b->limit = b->file_size * MODEL_EXPANSION;
	if (b->limit < MODEL_EXPANSION_FLOOR)
		b->limit = MODEL_EXPANSION_FLOOR;
	if (!yaml_parser_initialize(&p)) {
		free(b);
		return true;
	}
	yaml_parser_set_input_file(&p, f);
	while (!done && yaml_parser_parse(&p, &ev)) {
		done = ev.type == YAML_STREAM_END_EVENT;
		if (!on_event(b, &ev)) {
			ok = false;
			done = true;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	forget_anchors(b);
	free(b);
	return ok;
}
