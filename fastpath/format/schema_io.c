/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The self-contained serialized form of a schema, stored in the
 * segment. The serialized form holds no pointers: strings live in a string
 * table and are referenced by (offset, length). Deserialization trusts
 * nothing and checks every count, string and offset before use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/reader.h"
#include "fms_util.h"
#include "segment_format.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

uint64_t
fms_fnv1a(const uint8_t *p, uint64_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint64_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ---- serialization ---- */

struct strtab {
	uint8_t *buf; /* NULL while only measuring */
	uint32_t len;
};

static struct fms_str
put_str(struct strtab *t, const char *s)
{
	struct fms_str r = { .off = t->len, .len = (uint32_t)strlen(s) };

	if (t->buf)
		memcpy(t->buf + t->len, s, r.len + 1);
	t->len += r.len + 1;
	return r;
}

/* Bytes into the string table, as they are (a state's default): the
 * table's NUL after them keeps its strings NUL-terminated. */
static struct fms_str
put_bytes(struct strtab *t, const void *p, uint32_t len)
{
	struct fms_str r = { .off = t->len, .len = len };

	if (t->buf) {
		memcpy(t->buf + t->len, p, len);
		t->buf[t->len + len] = '\0';
	}
	t->len += len + 1;
	return r;
}

/* Counters, states, enum values and histogram bounds of every group. */
struct totals {
	uint32_t counters, states, values, bounds;
};

static struct totals
totals_of(const struct fastmib_schema *s)
{
	struct totals n = { 0, 0, 0, 0 };

	for (uint32_t i = 0; i < s->n_groups; i++) {
		n.counters += s->groups[i].n_counters;
		n.states += s->groups[i].n_states;
		for (uint32_t k = 0; k < s->groups[i].n_states; k++)
			n.values += s->groups[i].states[k].n_values;
		for (uint32_t k = 0; k < s->groups[i].n_counters; k++)
			n.bounds += s->groups[i].counters[k].n_bounds;
	}
	return n;
}

static uint64_t
records_len(uint32_t n_groups, struct totals n, uint32_t n_events)
{
	return sizeof(struct fms_schema_rec) + (uint64_t)n_groups * sizeof(struct fms_group_rec) +
	       (uint64_t)n.counters * sizeof(struct fms_counter_rec) +
	       (uint64_t)n_events * sizeof(struct fms_event_rec) +
	       (uint64_t)n.states * sizeof(struct fms_state_schema_rec) +
	       (uint64_t)n.values * sizeof(struct fms_enum_rec) +
	       (uint64_t)n.bounds * sizeof(uint64_t);
}

/* The states of group g into records sr[*si..] and vr[*vi..] (NULL while
 * measuring), their strings and defaults into the table. */
static void
serialize_states(const struct fastmib_group_schema *g, struct strtab *t,
		 struct fms_state_schema_rec *sr, struct fms_enum_rec *vr, uint32_t *si,
		 uint32_t *vi)
{
	for (uint32_t k = 0; k < g->n_states; k++, (*si)++) {
		const struct fastmib_state_schema *st = &g->states[k];
		struct fms_state_schema_rec r = {0};

		r.name = put_str(t, st->name);
		r.units = put_str(t, st->units);
		r.description = put_str(t, st->description);
		if (st->def)
			r.def = put_bytes(t, st->def, fastmib_state_value_size(st, NULL));
		r.arc = st->arc;
		r.type = st->type;
		r.size = st->size;
		r.notify = st->notify;
		r.has_range = st->has_range;
		r.lo = st->lo;
		r.hi = st->hi;
		r.offset = st->offset;
		r.n_values = st->n_values;
		r.first_value = *vi;
		for (uint32_t v = 0; v < st->n_values; v++, (*vi)++) {
			struct fms_enum_rec e = { .value = st->values[v].value };

			e.label = put_str(t, st->values[v].label);
			if (vr)
				vr[*vi] = e;
		}
		if (sr)
			sr[*si] = r;
	}
}

static void
serialize_events(const struct fastmib_schema *s, struct strtab *t,
		 struct fms_event_rec *er)
{
	for (uint32_t i = 0; i < s->n_events; i++) {
		const struct fastmib_event_schema *e = &s->events[i];
		struct fms_event_rec r = {0};

		r.name = put_str(t, e->name);
		r.description = put_str(t, e->description);
		r.arc = e->arc;
		r.level = e->level;
		r.rate = e->rate;
		r.notify = e->notify;
		r.n_args = e->n_args;
		for (uint32_t k = 0; k < e->n_args; k++) {
			r.args[k] = put_str(t, e->args[k]);
			r.arg_types[k] = e->arg_types[k] ? e->arg_types[k] : FASTMIB_ARG_UINT64;
		}
		if (er)
			er[i] = r;
	}
}

/* Writes records and strings; with buf == NULL only measures. */
static uint64_t
serialize(const struct fastmib_schema *s, uint8_t *buf)
{
	struct totals n = totals_of(s);
	uint32_t nc = n.counters, ci = 0, si = 0, vi = 0, first_state = 0;
	uint64_t rl = records_len(s->n_groups, n, s->n_events);
	struct strtab t = { .buf = buf ? buf + rl : NULL, .len = 0 };
	struct fms_schema_rec *sr = buf ? (void *)buf : NULL;
	struct fms_group_rec *gr = buf ? (void *)(buf + sizeof(*sr)) : NULL;
	struct fms_counter_rec *cr = buf ? (void *)(gr + s->n_groups) : NULL;
	struct fms_event_rec *er = buf ? (void *)(cr + nc) : NULL;
	struct fms_state_schema_rec *str = buf ? (void *)(er + s->n_events) : NULL;
	struct fms_enum_rec *vr = buf ? (void *)(str + n.states) : NULL;
	uint8_t *br = buf ? (uint8_t *)(vr + n.values) : NULL; /* bounds, uint64_t each */
	uint32_t bi = 0;
	struct fms_schema_rec shdr = {0};

	shdr.version = s->version;
	shdr.oid_len = s->oid_len;
	memcpy(shdr.oid, s->oid, sizeof(shdr.oid));
	shdr.module = put_str(&t, s->module);
	shdr.prefix = put_str(&t, s->prefix);
	shdr.percore_size = s->percore_size;
	shdr.shared_size = s->shared_size;
	shdr.n_groups = s->n_groups;
	shdr.n_counters = nc;
	for (uint32_t i = 0; i < s->n_groups; i++) {
		const struct fastmib_group_schema *g = &s->groups[i];
		struct fms_group_rec r = {0};

		r.name = put_str(&t, g->name);
		r.description = put_str(&t, g->description);
		r.arc = g->arc;
		r.storage = g->storage;
		r.n_indexes = g->n_indexes;
		r.all_rows = g->all_rows;
		for (uint32_t k = 0; k < g->n_indexes; k++) {
			r.indexes[k].name = put_str(&t, g->indexes[k].name);
			r.indexes[k].max = g->indexes[k].max;
			r.indexes[k].type = g->indexes[k].type;
			r.indexes[k].size = g->indexes[k].size;
		}
		r.n_rows = g->n_rows;
		r.row_size = g->row_size;
		r.offset = g->offset;
		r.first_counter = ci;
		r.n_counters = g->n_counters;
		for (uint32_t k = 0; k < g->n_counters; k++, ci++) {
			const struct fastmib_counter_schema *c = &g->counters[k];
			struct fms_counter_rec cc = {0};

			cc.name = put_str(&t, c->name);
			cc.units = put_str(&t, c->units);
			cc.description = put_str(&t, c->description);
			cc.arc = c->arc;
			cc.type = c->type;
			cc.offset = c->offset;
			cc.n_bounds = c->n_bounds;
			cc.first_bound = bi;
			cc.log2 = c->log2;
			/* no bounds, no array: a counter's bounds are NULL */
			if (br && c->n_bounds)
				memcpy(br + (size_t)bi * sizeof(uint64_t), c->bounds,
				       (size_t)c->n_bounds * sizeof(uint64_t));
			bi += c->n_bounds;
			if (cr)
				cr[ci] = cc;
		}
		r.first_state = first_state;
		first_state += g->n_states;
		r.n_states = g->n_states;
		r.state_size = g->state_size;
		if (gr)
			gr[i] = r;
	}
	shdr.n_events = s->n_events;
	serialize_events(s, &t, er);
	/* after the events' strings: a model without states serializes as
	 * before but for the counts */
	for (uint32_t i = 0; i < s->n_groups; i++)
		serialize_states(&s->groups[i], &t, str, vr, &si, &vi);
	shdr.n_states = n.states;
	shdr.n_values = n.values;
	shdr.n_bounds = n.bounds;
	shdr.strtab_len = t.len;
	if (sr)
		*sr = shdr;
	return rl + t.len;
}

uint64_t
fms_schema_serialized_len(const struct fastmib_schema *s)
{
	return ALIGN_UP(serialize(s, NULL), FMS_CACHE_LINE);
}

/* `buf` must be zeroed and fms_schema_serialized_len() bytes long. */
void
fms_schema_serialize(const struct fastmib_schema *s, uint8_t *buf)
{
	serialize(s, buf);
}

/* The hash of a checked schema; 0 when memory runs out. */
static uint64_t
hash_of(const struct fastmib_schema *s)
{
	uint64_t len, h;
	uint8_t *buf;

	/* Zero-filled like the schema area of a new segment, padding included. */
	len = fms_schema_serialized_len(s);
	buf = calloc(1, len);
	if (buf == NULL) {
		fms_error(-ENOMEM, "schema hash: out of memory");
		return 0;
	}
	fms_schema_serialize(s, buf);
	h = fms_fnv1a(buf, len);
	free(buf);
	return h;
}

uint64_t
fastmib_schema_hash(const struct fastmib_schema *s)
{
	return fms_schema_check(s) ? 0 : hash_of(s);
}

int
fms_schema_identity(const struct fastmib_schema *s, const char *path, uint64_t *hash)
{
	int rc = fms_schema_check(s);

	if (rc) {
		char why[512];

		/* The message is about to be rewritten: copy it first. */
		snprintf(why, sizeof(why), "%s", fastmib_last_error());
		return fms_error(rc, "%s: %s", path, why);
	}
	*hash = hash_of(s);
	if (*hash == 0)
		return fms_error(-ENOMEM, "%s: out of memory", path);
	if (s->hash != 0 && s->hash != *hash)
		return fms_error(-ESTALE,
				 "%s: the schema of %s says it is 0x%016llx but describes 0x%016llx: "
				 "it was edited, or mixes two versions of the model; regenerate "
				 "%s_schema.c",
				 path, s->module, (unsigned long long)s->hash,
				 (unsigned long long)*hash, s->prefix);
	return 0;
}

/* ---- deserialization ---- */

struct reader {
	const char *strtab;
	uint32_t strtab_len;
};

static int
get_str(const struct reader *r, struct fms_str ref, size_t max, const char *what,
	const char **out)
{
	if (ref.off >= r->strtab_len || ref.len >= r->strtab_len - ref.off)
		return fms_error(-EINVAL, "segment schema: %s string outside the string table",
				 what);
	if (r->strtab[ref.off + ref.len] != '\0' ||
	    memchr(r->strtab + ref.off, '\0', ref.len) != NULL)
		return fms_error(-EINVAL, "segment schema: %s string not NUL-terminated at its length",
				 what);
	if (ref.len > max)
		return fms_error(-EINVAL, "segment schema: %s string longer than %zu", what, max);
	*out = r->strtab + ref.off;
	return 0;
}

/* Bytes of the string table (a state's default): `want` of them. */
static int
get_bytes(const struct reader *r, struct fms_str ref, uint32_t want, const char *what,
	  const void **out)
{
	if (ref.off >= r->strtab_len || ref.len >= r->strtab_len - ref.off || ref.len != want)
		return fms_error(-EINVAL, "segment schema: %s of %u bytes at %u, not %u bytes "
				 "within the string table", what, ref.len, ref.off, want);
	*out = r->strtab + ref.off;
	return 0;
}

/* Unlike a creator's schema, the file must name a type for every argument
 * and nothing past them: a reader has no default to fall back on. */
static int
get_arg_types(const struct fms_event_rec *e, struct fastmib_event_schema *es)
{
	for (uint32_t k = 0; k < FASTMIB_MAX_EVENT_ARGS; k++) {
		uint32_t t = e->arg_types[k];
		int ok = k < e->n_args ? t >= FASTMIB_ARG_UINT32 && t <= FASTMIB_ARG_UINT64
				       : t == 0;

		if (!ok)
			return fms_error(-EINVAL,
					 "segment schema: event %s: argument %u of %u has unknown type %u",
					 es->name, k + 1, e->n_args, t);
		es->arg_types[k] = t;
	}
	return 0;
}

static int
deserialize_events(const struct reader *rd, const struct fms_event_rec *er, uint32_t n,
		   struct fastmib_event_schema *events)
{
	int rc;

	for (uint32_t i = 0; i < n; i++) {
		struct fastmib_event_schema *es = &events[i];
		struct fms_event_rec e;

		memcpy(&e, &er[i], sizeof(e));
		if (e.n_args > FASTMIB_MAX_EVENT_ARGS)
			return fms_error(-EINVAL, "segment schema: event %u: %u args", i, e.n_args);
		if ((rc = get_str(rd, e.name, FASTMIB_MAX_NAME, "event name", &es->name)) ||
		    (rc = get_str(rd, e.description, FMS_STR_MAX, "event description",
				  &es->description)))
			return rc;
		for (uint32_t k = 0; k < e.n_args; k++)
			if ((rc = get_str(rd, e.args[k], FASTMIB_MAX_NAME, "event arg name",
					  &es->args[k])))
				return rc;
		if ((rc = get_arg_types(&e, es)))
			return rc;
		es->arc = e.arc;
		es->level = e.level;
		es->rate = e.rate;
		es->notify = e.notify;
		es->n_args = e.n_args;
	}
	return 0;
}

void
fms_schema_free(struct fastmib_schema *s)
{
	free(s);
}

/* A serialized schema: its header, and where its records and strings lie. */
struct serialized {
	struct fms_schema_rec sr;
	const struct fms_group_rec *gr;
	const struct fms_counter_rec *cr;
	const struct fms_event_rec *er;
	const struct fms_state_schema_rec *str;
	const struct fms_enum_rec *vr;
	const uint8_t *br;      /* bound records, uint64_t each (read with memcpy) */
	const uint8_t *strtab;
};

/* The header of the schema in buf[0..len): counts in range, and room in the
 * area for the records and strings it announces. */
static int
read_header(const uint8_t *buf, uint64_t len, struct serialized *z)
{
	struct fms_schema_rec *sr = &z->sr;
	uint64_t rl, need;

	if (len < sizeof(*sr))
		return fms_error(-EINVAL, "segment schema: area of %llu bytes is too small",
				 (unsigned long long)len);
	memcpy(sr, buf, sizeof(*sr));
	if (sr->n_groups == 0 || sr->n_groups > FASTMIB_MAX_GROUPS ||
	    sr->n_counters > FASTMIB_MAX_GROUPS * FASTMIB_MAX_COUNTERS ||
	    sr->n_events > FASTMIB_MAX_EVENTS ||
	    sr->n_states > FASTMIB_MAX_GROUPS * FASTMIB_MAX_STATES ||
	    sr->n_values > (uint64_t)sr->n_states * FASTMIB_MAX_ENUM_VALUES ||
	    sr->n_bounds > (uint64_t)sr->n_counters * FASTMIB_MAX_BOUNDS)
		return fms_error(-EINVAL, "segment schema: %u groups / %u counters / %u events / "
				 "%u states / %u enum values / %u bounds out of range",
				 sr->n_groups, sr->n_counters, sr->n_events, sr->n_states,
				 sr->n_values, sr->n_bounds);
	rl = records_len(sr->n_groups, (struct totals){ sr->n_counters, sr->n_states,
							sr->n_values, sr->n_bounds },
			 sr->n_events);
	need = rl + sr->strtab_len;
	if (need > len)
		return fms_error(-EINVAL, "segment schema: records need %llu bytes, area has %llu",
				 (unsigned long long)need, (unsigned long long)len);
	z->gr = (const void *)(buf + sizeof(*sr));
	z->cr = (const void *)(z->gr + sr->n_groups);
	z->er = (const void *)(z->cr + sr->n_counters);
	z->str = (const void *)(z->er + sr->n_events);
	z->vr = (const void *)(z->str + sr->n_states);
	z->br = (const uint8_t *)(z->vr + sr->n_values);
	z->strtab = buf + rl;
	return 0;
}

/* The deserialized schema's one heap block, carved up. */
struct schema_block {
	struct fastmib_schema *s; /* the block itself */
	struct fastmib_group_schema *groups;
	struct fastmib_counter_schema *counters;
	struct fastmib_event_schema *events;
	struct fastmib_state_schema *states;
	struct fastmib_enum_value *values;
	uint64_t *bounds;
};

/*
 * One zeroed block for the schema, its groups, counters, events and a copy
 * of the string table (NUL-terminated), which `rd` reads; the schema points
 * at its groups and events.
 */
static int
schema_alloc(const struct serialized *z, struct schema_block *b, struct reader *rd)
{
	const struct fms_schema_rec *sr = &z->sr;
	uint8_t *block = calloc(1, sizeof(*b->s) + sr->n_groups * sizeof(*b->groups) +
				      sr->n_counters * sizeof(*b->counters) +
				      sr->n_events * sizeof(*b->events) +
				      (size_t)sr->n_states * sizeof(*b->states) +
				      (size_t)sr->n_values * sizeof(*b->values) +
				      (size_t)sr->n_bounds * sizeof(*b->bounds) +
				      sr->strtab_len + 1);

	if (block == NULL)
		return fms_error(-ENOMEM, "segment schema: out of memory");
	b->s = (void *)block;
	b->groups = (void *)(b->s + 1);
	b->counters = (void *)(b->groups + sr->n_groups);
	b->events = (void *)(b->counters + sr->n_counters);
	b->states = (void *)(b->events + sr->n_events);
	b->values = (void *)(b->states + sr->n_states);
	b->bounds = (void *)(b->values + sr->n_values);
	memcpy(b->bounds, z->br, (size_t)sr->n_bounds * sizeof(*b->bounds));
	rd->strtab = (char *)(b->bounds + sr->n_bounds);
	rd->strtab_len = sr->strtab_len;
	memcpy((char *)rd->strtab, z->strtab, sr->strtab_len);
	b->s->n_groups = sr->n_groups;
	b->s->groups = b->groups;
	b->s->n_events = sr->n_events;
	b->s->events = sr->n_events ? b->events : NULL;
	return 0;
}

/* The schema's own fields: version, root OID, sizes, module and prefix. */
static int
deserialize_head(const struct reader *rd, const struct fms_schema_rec *sr,
		 struct fastmib_schema *s)
{
	int rc;

	s->version = sr->version;
	s->oid_len = sr->oid_len;
	memcpy(s->oid, sr->oid, sizeof(s->oid));
	s->percore_size = sr->percore_size;
	s->shared_size = sr->shared_size;
	if ((rc = get_str(rd, sr->module, FASTMIB_MAX_NAME, "module", &s->module)))
		return rc;
	return get_str(rd, sr->prefix, FASTMIB_MAX_NAME, "prefix", &s->prefix);
}

/* The n counter records `cr` into counters[0..n), a histogram's bounds
 * pointing into b->bounds. */
static int
deserialize_counters(const struct reader *rd, const struct serialized *z,
		     const struct fms_counter_rec *cr, uint32_t n, struct schema_block *b,
		     struct fastmib_counter_schema *counters)
{
	int rc;

	for (uint32_t k = 0; k < n; k++) {
		struct fms_counter_rec c;

		memcpy(&c, &cr[k], sizeof(c));
		if ((rc = get_str(rd, c.name, FASTMIB_MAX_NAME, "counter name",
				  &counters[k].name)) ||
		    (rc = get_str(rd, c.units, FASTMIB_MAX_UNITS, "units", &counters[k].units)) ||
		    (rc = get_str(rd, c.description, FMS_STR_MAX, "counter description",
				  &counters[k].description)))
			return rc;
		counters[k].arc = c.arc;
		counters[k].type = c.type;
		counters[k].offset = c.offset;
		counters[k].log2 = c.log2;
		/* how many the schema check judges; where they are, here */
		if (c.first_bound > z->sr.n_bounds || c.n_bounds > z->sr.n_bounds - c.first_bound)
			return fms_error(-EINVAL, "segment schema: counter %s: bounds %u+%u outside "
					 "the %u bound records", counters[k].name, c.first_bound,
					 c.n_bounds, z->sr.n_bounds);
		counters[k].n_bounds = c.n_bounds;
		counters[k].bounds = c.n_bounds ? &b->bounds[c.first_bound] : NULL;
	}
	return 0;
}

/* The n state records from z->str[si] on into states[0..n), their enum
 * values into b->values. */
static int
deserialize_states(const struct reader *rd, const struct serialized *z, uint32_t si,
		   uint32_t n, struct schema_block *b, struct fastmib_state_schema *states)
{
	int rc;

	for (uint32_t k = 0; k < n; k++) {
		struct fastmib_state_schema *st = &states[k];
		struct fms_state_schema_rec r;

		memcpy(&r, &z->str[si + k], sizeof(r));
		if ((rc = get_str(rd, r.name, FASTMIB_MAX_NAME, "state name", &st->name)) ||
		    (rc = get_str(rd, r.units, FASTMIB_MAX_UNITS, "units", &st->units)) ||
		    (rc = get_str(rd, r.description, FMS_STR_MAX, "state description",
				  &st->description)))
			return rc;
		st->arc = r.arc;
		st->type = r.type;
		st->size = r.size;
		st->notify = r.notify;
		st->has_range = r.has_range;
		st->lo = r.lo;
		st->hi = r.hi;
		st->offset = r.offset;
		if (r.n_values > FASTMIB_MAX_ENUM_VALUES || r.first_value > z->sr.n_values ||
		    r.n_values > z->sr.n_values - r.first_value)
			return fms_error(-EINVAL, "segment schema: state %s: values %u+%u out of "
					 "range", st->name, r.first_value, r.n_values);
		st->n_values = r.n_values;
		st->values = r.n_values ? &b->values[r.first_value] : NULL;
		for (uint32_t v = 0; v < r.n_values; v++) {
			struct fms_enum_rec e;

			memcpy(&e, &z->vr[r.first_value + v], sizeof(e));
			if ((rc = get_str(rd, e.label, FASTMIB_MAX_NAME, "enum label",
					  &b->values[r.first_value + v].label)))
				return rc;
			b->values[r.first_value + v].value = e.value;
		}
		/* the size its type gives, judged by the schema check after */
		if (r.def.len &&
		    (rc = get_bytes(rd, r.def, fastmib_state_value_size(st, NULL), "state default",
				    &st->def)))
			return rc;
	}
	return 0;
}

/*
 * Group i, whose counters must be the next records from counter record ci
 * on, into b->groups[i] and its counters into b->counters.
 */
static int
deserialize_group(const struct reader *rd, const struct serialized *z, uint32_t i,
		  uint32_t ci, struct schema_block *b)
{
	struct fastmib_group_schema *gs = &b->groups[i];
	struct fms_group_rec g;
	int rc;

	memcpy(&g, &z->gr[i], sizeof(g));
	if (g.first_counter != ci || g.n_counters > z->sr.n_counters - ci ||
	    g.n_indexes > FASTMIB_MAX_INDEXES)
		return fms_error(-EINVAL, "segment schema: group %u: counter range %u+%u or %u indexes invalid",
				 i, g.first_counter, g.n_counters, g.n_indexes);
	if ((rc = get_str(rd, g.name, FASTMIB_MAX_NAME, "group name", &gs->name)) ||
	    (rc = get_str(rd, g.description, FMS_STR_MAX, "group description",
			  &gs->description)))
		return rc;
	gs->arc = g.arc;
	gs->storage = g.storage;
	gs->n_indexes = g.n_indexes;
	gs->all_rows = g.all_rows;
	for (uint32_t k = 0; k < g.n_indexes; k++) {
		if ((rc = get_str(rd, g.indexes[k].name, FASTMIB_MAX_NAME, "index name",
				  &gs->indexes[k].name)))
			return rc;
		gs->indexes[k].max = g.indexes[k].max;
		gs->indexes[k].type = g.indexes[k].type;
		gs->indexes[k].size = g.indexes[k].size;
	}
	gs->n_rows = g.n_rows;
	gs->row_size = g.row_size;
	gs->offset = g.offset;
	gs->n_counters = g.n_counters;
	gs->counters = &b->counters[ci];
	if (g.n_states > FASTMIB_MAX_STATES || g.first_state > z->sr.n_states ||
	    g.n_states > z->sr.n_states - g.first_state)
		return fms_error(-EINVAL, "segment schema: group %u: state range %u+%u invalid", i,
				 g.first_state, g.n_states);
	gs->n_states = g.n_states;
	gs->states = g.n_states ? &b->states[g.first_state] : NULL;
	gs->state_size = g.state_size;
	if ((rc = deserialize_states(rd, z, g.first_state, g.n_states, b, &b->states[g.first_state])))
		return rc;
	return deserialize_counters(rd, z, &z->cr[ci], g.n_counters, b, &b->counters[ci]);
}

/* Every group in order, each with the counter records that follow the
 * previous group's; *n_counters: how many the groups hold. */
static int
deserialize_groups(const struct reader *rd, const struct serialized *z,
		   struct schema_block *b, uint32_t *n_counters)
{
	uint32_t ci = 0;
	int rc;

	for (uint32_t i = 0; i < z->sr.n_groups; i++) {
		if ((rc = deserialize_group(rd, z, i, ci, b)))
			return rc;
		ci += b->groups[i].n_counters;
	}
	*n_counters = ci;
	return 0;
}

/* The schema as read, whole: the groups hold every counter record, and it
 * obeys the rules a creator's schema does. */
static int
check_whole(const struct fastmib_schema *s, uint32_t held, uint32_t n_counters)
{
	int rc;

	if (held != n_counters)
		return fms_error(-EINVAL, "segment schema: groups hold %u counters, header says %u",
				 held, n_counters);
	if ((rc = fms_schema_check(s))) {
		char why[512];

		/* Same checks as for a creator's schema, reworded for a file. */
		snprintf(why, sizeof(why), "%s", fastmib_last_error());
		return fms_error(rc, "segment %s", why);
	}
	return 0;
}

/* Pointers go into one heap block: schema, groups, counters, strings. */
int
fms_schema_deserialize(const uint8_t *buf, uint64_t len, struct fastmib_schema **out)
{
	struct serialized z;
	struct schema_block b = {0};
	struct reader rd = {0};
	uint32_t held = 0;
	int rc;

	if ((rc = read_header(buf, len, &z)) || (rc = schema_alloc(&z, &b, &rd)))
		return rc;
	if ((rc = deserialize_head(&rd, &z.sr, b.s)) ||
	    (rc = deserialize_groups(&rd, &z, &b, &held)) ||
	    (rc = deserialize_events(&rd, z.er, z.sr.n_events, b.events)) ||
	    (rc = check_whole(b.s, held, z.sr.n_counters))) {
		free(b.s);
		return rc;
	}
	/* The bytes it came from are its serialized form: their hash is its identity. */
	b.s->hash = fms_fnv1a(buf, len);
	*out = b.s;
	return 0;
}
