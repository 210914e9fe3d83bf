/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exposition of a scrape (expo.h): families, samples and their
 * escaping in the two formats, the snapshot of a table, and the order in
 * which a scrape walks the segments.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fastmib/names.h"
#include "fastmib/reader.h"
#include "expo.h"
#include "log.h"
#include "ports_metrics.h"

/* Bytes of exposition made ahead of what is sent, at most about this many
 * (one family header, or this many bytes of rows). */
#define FME_UNIT 16384u

/* ---- output buffer ---- */

struct out {
	char *b;
	size_t len, cap, off; /* made: b[0..len); sent: b[0..off) */
	bool oom;
};

/* Room for n more bytes (the rare case of put() and putc_()): the buffer
 * doubled until they fit, or oom set. */
static __attribute__((noinline)) void
out_grow(struct out *o, size_t n)
{
	size_t cap;
	char *b;

	cap = o->cap ? o->cap : 2 * FME_UNIT;
	while (cap < o->len + n)
		cap *= 2;
	b = realloc(o->b, cap);
	if (!b) {
		o->oom = true;
		return;
	}
	o->b = b;
	o->cap = cap;
}

/* Every byte of a scrape goes through put() or putc_(): the buffer's
 * room is checked inline, and grown out of line. */
static inline void
put(struct out *o, const char *s, size_t n)
{
	if (o->cap - o->len < n) {
		out_grow(o, n);
		if (o->oom)
			return;
	}
	memcpy(o->b + o->len, s, n);
	o->len += n;
}

static inline void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static inline void
putc_(struct out *o, char c)
{
	if (o->len == o->cap) {
		out_grow(o, 1);
		if (o->oom)
			return;
	}
	o->b[o->len++] = c;
}

/* v in decimal, ending at t[24]: where it starts. Two digits a division:
 * a scrape is mostly counter values and row numbers. */
static inline size_t
u64_digits(char t[24], uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	size_t i = 24;

	while (v >= 100) {
		uint64_t q = v / 100;
		unsigned int r = (unsigned int)(v - q * 100);

		t[--i] = pairs[2 * r + 1];
		t[--i] = pairs[2 * r];
		v = q;
	}
	if (v >= 10) {
		t[--i] = pairs[2 * v + 1];
		t[--i] = pairs[2 * v];
	} else {
		t[--i] = (char)('0' + v);
	}
	return i;
}

static void
put_u64(struct out *o, uint64_t v)
{
	char t[24];
	size_t i = u64_digits(t, v);

	put(o, t + i, sizeof(t) - i);
}

static void
put_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		putc_(o, '-');
		put_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(o, (uint64_t)v);
	}
}

/* Seconds from nanoseconds, exactly: "1764312000.123456789", trailing
 * zeros of the fraction dropped ("1764312000.5", "1764312000"). */
static void
put_seconds(struct out *o, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t frac = a % 1000000000u;
	char t[10];
	size_t n = sizeof(t);

	if (ns < 0)
		putc_(o, '-');
	put_u64(o, a / 1000000000u);
	if (!frac)
		return;
	t[0] = '.';
	for (size_t i = sizeof(t) - 1; i > 0; i--) {
		t[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	while (t[n - 1] == '0')
		n--;
	put(o, t, n);
}

/* A label value or (OpenMetrics) a HELP text: backslash, double quote
 * (unless `help_text`: the text format leaves it) and newline escaped. */
static void
put_escaped(struct out *o, const char *s, size_t n, bool quote)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		/* the bytes up to the next one to escape, in one piece */
		while (j < n && s[j] != '\\' && s[j] != '\n' && s[j] != '"')
			j++;
		if (j > i)
			put(o, s + i, j - i);
		if (j == n)
			break;
		switch (s[j]) {
		case '\\':
			puts_(o, "\\\\");
			break;
		case '\n':
			puts_(o, "\\n");
			break;
		default:
			puts_(o, quote ? "\\\"" : "\"");
		}
		i = j + 1;
	}
}

/* ---- families and samples: the text sink ---- */

/* The OpenMetrics base unit the model's units name, or NULL. */
static const char *
base_unit(const char *units)
{
	if (!units)
		return NULL;
	if (!strcasecmp(units, "octets") || !strcasecmp(units, "bytes"))
		return "bytes";
	if (!strcasecmp(units, "seconds"))
		return "seconds";
	return NULL;
}

/* The text of a scrape: the sink the HTTP server streams. */
struct text_sink {
	struct fme_sink k;  /* first: the walk's handle */
	struct out *o;
	struct out lab;     /* the labels of the row being written */
};

static void
text_family(struct fme_sink *k, const struct fme_family *f, const char *help, const char *units)
{
	static const char *const om_types[] = { "counter", "gauge", "stateset", "info",
						"histogram" };
	static const char *const text_types[] = { "counter", "gauge", "gauge", "gauge",
						  "histogram" };
	struct out *o = ((struct text_sink *)k)->o;
	bool om = k->om;
	const char *name = om ? f->base : f->sample;
	const char *unit = om ? base_unit(units) : NULL;
	size_t n = strlen(f->base), u = unit ? strlen(unit) : 0;

	puts_(o, "# HELP ");
	puts_(o, name);
	putc_(o, ' ');
	put_escaped(o, help, strlen(help), om);
	puts_(o, "\n# TYPE ");
	puts_(o, name);
	putc_(o, ' ');
	puts_(o, om && f->keep_name ? "unknown" : (om ? om_types : text_types)[f->kind]);
	putc_(o, '\n');
	/* a UNIT is only valid on a family whose name ends in it */
	if (unit && n > u + 1 && f->base[n - u - 1] == '_' && !strcmp(f->base + n - u, unit)) {
		puts_(o, "# UNIT ");
		puts_(o, f->base);
		putc_(o, ' ');
		puts_(o, unit);
		putc_(o, '\n');
	}
}

static void
put_label(struct out *o, const struct fme_label *l)
{
	puts_(o, l->name);
	put(o, "=\"", 2);
	if (l->plain)
		put(o, l->value, l->len);
	else
		put_escaped(o, l->value, l->len, true);
	putc_(o, '"');
}

/* The row's labels as text, once for all its samples. */
static void
text_labels(struct fme_sink *k, const struct fme_label *l, unsigned int n)
{
	struct out *lab = &((struct text_sink *)k)->lab;

	lab->len = 0;
	for (unsigned int i = 0; i < n; i++) {
		if (i)
			putc_(lab, ',');
		put_label(lab, &l[i]);
	}
	if (lab->oom) {
		((struct text_sink *)k)->o->oom = true;
		lab->oom = false;
		lab->len = 0;
	}
}

static void
text_sample(struct fme_sink *k, const char *name, const struct fme_label *x, struct fme_value v)
{
	struct text_sink *t = (struct text_sink *)k;
	struct out *o = t->o;

	puts_(o, name);
	if (t->lab.len || x) {
		putc_(o, '{');
		put(o, t->lab.b, t->lab.len);
		if (t->lab.len && x)
			putc_(o, ',');
		if (x)
			put_label(o, x);
		putc_(o, '}');
	}
	putc_(o, ' ');
	switch (v.kind) {
	case FME_V_U64:
		put_u64(o, v.u);
		break;
	case FME_V_I64:
		put_i64(o, (int64_t)v.u);
		break;
	case FME_V_NS:
		put_seconds(o, (int64_t)v.u);
		break;
	case FME_V_CS: {
		char cs[3] = { '.', (char)('0' + v.u % 100 / 10), (char)('0' + v.u % 10) };

		put_u64(o, v.u / 100);
		put(o, cs, 3);
		break;
	}
	}
	putc_(o, '\n');
}

static inline struct fme_value
nsv(int64_t ns)
{
	return (struct fme_value){ .kind = FME_V_NS, .u = (uint64_t)ns };
}

/* ---- the snapshot of a table ---- */

struct snap {
	unsigned int group;
	uint32_t n, cap;
	uint32_t *rows;
	bool *have_counters;  /* the row's counters were read (0 or best effort) */
	bool *have_states;
	uint64_t *values;     /* the row's words (row_words()) a row */
	uint8_t *states;      /* state_size a row */
	uint64_t *bad;        /* FASTMIB_STATE_MASK_WORDS a row */
	uint64_t *created;    /* discontinuity, ns; 0: none */
	/* keyed tables: each row's order key, `kstride` bytes apart, as it
	 * was read (its labels are made from it as each family is written:
	 * a key is a third of its text); a dense row's labels are its
	 * number's */
	uint32_t kstride;
	uint8_t *keys;
	uint16_t *key_len;
	/* the label name of each index, made once for every row's labels */
	char label[FASTMIB_MAX_INDEXES][FME_NAME];
};

static void
snap_free(struct snap *sn)
{
	free(sn->rows);
	free(sn->have_counters);
	free(sn->have_states);
	free(sn->values);
	free(sn->states);
	free(sn->bad);
	free(sn->created);
	free(sn->keys);
	free(sn->key_len);
	memset(sn, 0, sizeof(*sn));
}

#define GROW(p, cap) ((p) = reallocarray((p), (cap), sizeof(*(p))))

/* The words fastmib_read() gives for a row of g: a histogram takes several
 * (fastmib_counter_words()), so counter c is word fastmib_counter_word(),
 * not word c. */
static size_t
row_words(const struct fastmib_group_schema *g)
{
	return g->row_size / 8;
}

static bool
snap_grow(struct snap *sn, const struct fastmib_group_schema *g)
{
	uint32_t cap = sn->cap ? 2 * sn->cap : 64;

	if (!GROW(sn->rows, cap) || !GROW(sn->have_counters, cap) ||
	    !GROW(sn->have_states, cap) || !GROW(sn->created, cap))
		return false;
	if (sn->kstride && (!GROW(sn->key_len, cap) ||
			    !(sn->keys = reallocarray(sn->keys, cap, sn->kstride))))
		return false;
	if (g->n_counters && !(sn->values = reallocarray(sn->values, (size_t)cap * row_words(g),
							 sizeof(uint64_t))))
		return false;
	if (g->n_states && (!(sn->states = reallocarray(sn->states, cap, g->state_size)) ||
			    !(sn->bad = reallocarray(sn->bad, (size_t)cap * FASTMIB_STATE_MASK_WORDS,
						     sizeof(uint64_t)))))
		return false;
	sn->cap = cap;
	return true;
}

/* The labels of a row: its indexes, named after them (`names`, the
 * group's label names), with its values (integer index: its SNMP value in
 * digits; a key's fields as text), made into `text`. */
static void
row_labels(const struct fastmib_group_schema *g, const char (*names)[FME_NAME], uint32_t row,
	   const uint8_t *key, size_t key_len, struct fme_label *l,
	   char (*text)[FASTMIB_MAX_KEY_FIELD_TEXT])
{
	uint32_t idx[FASTMIB_MAX_INDEXES];

	if (!key)
		fastmib_index_of_row(g, row, idx);
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const char *v = text[k];
		size_t n;

		if (key) {
			struct fastmib_key_field f;

			if (fastmib_key_field(g, key, key_len, k, &f) < 0)
				text[k][0] = '\0';
			else
				fastmib_key_field_text(&f, text[k], sizeof(text[k]));
			n = strlen(text[k]);
		} else {
			/* the digits where they are made: no copy */
			size_t i = u64_digits(text[k], idx[k]);

			v = text[k] + i;
			n = 24 - i;
		}
		l[k] = (struct fme_label){ names[k], v, n, !key };
	}
}

/*
 * Read every present row of group `gi`: its counters in one snapshot, its
 * states in one publication, its labels. A keyed row is read for the key
 * it was found with, and left out when it holds another by then.
 */
static int
snap_take(struct snap *sn, struct fastmib_segment *seg, unsigned int gi)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	bool keyed = fastmib_group_keyed(g);
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	int64_t r;

	sn->group = gi;
	sn->kstride = keyed ? fastmib_key_max_bytes(g) : 0;
	for (uint32_t k = 0; k < g->n_indexes; k++)
		fastmib_name_label(sn->label[k], sizeof(sn->label[k]), g->indexes[k].name);
	for (r = fastmib_next_row(seg, gi, 0); r >= 0;
	     r = (uint64_t)r + 1 < g->n_rows ? fastmib_next_row(seg, gi, (uint32_t)r + 1) : -ENOENT) {
		uint32_t row = (uint32_t)r, i = sn->n;
		size_t key_len = 0;
		int rc = 0, src = -ENOENT;

		if (keyed && fastmib_row_key(seg, gi, row, key, &key_len) < 0)
			continue;
		if (i == sn->cap && !snap_grow(sn, g))
			return -ENOMEM;
		if (g->n_counters) {
			uint64_t *v = sn->values + (size_t)i * row_words(g);

			rc = keyed ? fastmib_keyed_read(seg, gi, row, key, key_len, v)
				   : fastmib_read(seg, gi, row, v);
			if (rc == -ENOENT)
				continue; /* gone, or another key's row by now */
		}
		if (g->n_states) {
			uint8_t *st = sn->states + (size_t)i * g->state_size;
			uint64_t *bad = sn->bad + (size_t)i * FASTMIB_STATE_MASK_WORDS;

			memset(bad, 0, FASTMIB_STATE_MASK_WORDS * sizeof(*bad));
			src = keyed ? fastmib_keyed_state_read(seg, gi, row, key, key_len, st, bad)
				    : fastmib_state_read(seg, gi, row, st, bad);
			if (src == -ENOENT && !g->n_counters)
				continue;
		}
		sn->rows[i] = row;
		/* a best-effort read (-EBUSY: a writer stayed inside its
		 * transaction) is served, as the agent serves it; the writer
		 * status says stalled meanwhile */
		sn->have_counters[i] = g->n_counters && (rc == 0 || rc == -EBUSY);
		sn->have_states[i] = src == 0;
		sn->created[i] = g->n_counters ? fastmib_discontinuity(seg, (int)gi, row) : 0;
		if (keyed) {
			memcpy(sn->keys + (size_t)i * sn->kstride, key, key_len);
			sn->key_len[i] = (uint16_t)key_len;
		}
		sn->n++;
	}
	return 0;
}

/* ---- the scrape ---- */

enum stage { ST_PORTS, ST_SERVED, ST_MORE, ST_SEGMENT, ST_GROUPS, ST_EOF, ST_DONE };

struct fme_scrape {
	struct fme_sink *k;   /* &text.k, or the walk's sink */
	struct text_sink text;
	struct fme_ports *ports;
	struct fme_families more; /* none: give NULL */
	struct fme_view view;
	bool skip[FME_MAX_SEGMENTS]; /* not exported: its prefix is another's */
	struct out out;
	enum stage stage;
	unsigned int seg;     /* the segment of ST_SEGMENT and ST_GROUPS */
	unsigned int group;
	unsigned int item;    /* counter, then state, of the group */
	uint32_t pos;         /* next row of the snapshot */
	bool header_done;
	bool have_snap;
	int64_t snap_ms;      /* when the snapshot was taken (want_time) */
	struct snap snap;
	struct fme_family fam;
};

const char *
fme_content_type(enum fme_format f)
{
	return f == FME_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				    : "text/plain; version=0.0.4; charset=utf-8";
}

/* One media range of an Accept header: its type and q, and whether its
 * version parameter (if any) is `version`. */
static double
range_quality(const char *range, size_t n, const char *type, const char *version)
{
	char r[256], *save = NULL, *tok;
	double q = 1.0;
	bool match = false, version_ok = true;

	if (n >= sizeof(r))
		return 0;
	memcpy(r, range, n);
	r[n] = '\0';
	for (tok = strtok_r(r, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		char *t = tok + strspn(tok, " \t"), *end = t + strlen(t);

		while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (tok == r) {
			match = !strcasecmp(t, type);
		} else if (!strncasecmp(t, "q=", 2)) {
			q = strtod(t + 2, NULL);
		} else if (!strncasecmp(t, "version=", 8)) {
			version_ok = !strcmp(t + 8, version);
		}
	}
	return match && version_ok ? q : -1.0;
}

enum fme_format
fme_negotiate(const char *accept)
{
	double om = -1.0, text = -1.0;

	if (!accept)
		return FME_TEXT;
	for (const char *p = accept; *p;) {
		size_t n = strcspn(p, ",");
		double q;

		if ((q = range_quality(p, n, "application/openmetrics-text", "1.0.0")) > om)
			om = q;
		if ((q = range_quality(p, n, "text/plain", "0.0.4")) > text)
			text = q;
		if ((q = range_quality(p, n, "*/*", "")) > text)
			text = q;
		p += n + (p[n] == ',');
	}
	return om > 0 && om >= text ? FME_OPENMETRICS : FME_TEXT;
}

static struct fme_scrape *
scrape_new(struct fme_set *set, struct fme_ports *ports, const struct fme_families *more,
	   struct fme_sink *sink, bool om)
{
	struct fme_scrape *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->text.k = (struct fme_sink){ .family = text_family, .labels = text_labels,
				       .sample = text_sample, .om = om };
	s->text.o = &s->out;
	s->k = sink ? sink : &s->text.k;
	s->ports = ports;
	if (more)
		s->more = *more;
	s->stage = ports ? ST_PORTS : ST_SERVED;
	if (set)
		fme_set_view(set, &s->view);
	/* two segments of one prefix would make the same families twice */
	for (unsigned int i = 0; i < s->view.n; i++) {
		const struct fme_att *a = s->view.atts[i];

		for (unsigned int j = 0; a && j < i; j++)
			if (s->view.atts[j] && !s->skip[j] &&
			    !strcmp(s->view.atts[j]->schema->prefix, a->schema->prefix)) {
				s->skip[i] = true;
				fme_log(FME_DEBUG, "%s: prefix %s already exported for %s",
					s->view.paths[i], a->schema->prefix, s->view.paths[j]);
			}
	}
	return s;
}

struct fme_scrape *
fme_scrape_new(struct fme_set *set, struct fme_ports *ports, const struct fme_families *more,
	       enum fme_format f)
{
	return scrape_new(set, ports, more, NULL, f == FME_OPENMETRICS);
}

void
fme_scrape_free(struct fme_scrape *s)
{
	if (!s)
		return;
	snap_free(&s->snap);
	fme_view_release(&s->view);
	free(s->out.b);
	free(s->text.lab.b);
	free(s);
}

/* The exporter's own family: which configured segment is exported. */
static void
emit_served(struct fme_scrape *s)
{
	struct fme_sink *k = s->k;
	struct fme_family f;

	fme_sink_stamp(k);
	fme_family_names(&f, "fastmib_segment_served", FME_K_GAUGE, false);
	k->family(k, &f,
		  "Whether the segment at the path is exported (1): attached, valid, and its "
		  "module's prefix not exported for another path.", NULL);
	for (unsigned int i = 0; i < s->view.n; i++) {
		const struct fme_att *a = s->view.atts[i];
		struct fme_label l[2];

		fme_label_str(&l[0], "segment", s->view.paths[i]);
		fme_label_str(&l[1], "module", a ? a->schema->module : "");
		k->labels(k, l, 2);
		k->sample(k, f.sample, NULL, fme_u64(a && !s->skip[i]));
	}
}

/* The segment's own objects: its writer's status, its best-effort reads
 * and out-of-range updates, its event statistics. */
static void
emit_segment(struct fme_scrape *s, struct fme_att *a)
{
	static const char *const status[] = { "running", "gone", "stalled" };
	const struct fastmib_schema *sc = a->schema;
	struct fme_sink *k = s->k;
	char name[FME_NAME];
	struct fme_family f;
	struct fme_label x;
	enum fastmib_writer_status ws;
	uint64_t best, oor;

	pthread_mutex_lock(&a->health_lock);
	ws = fastmib_writer_status(a->seg, NULL);
	best = fastmib_best_effort_reads(a->seg);
	oor = fastmib_out_of_range_updates(a->seg);
	pthread_mutex_unlock(&a->health_lock);
	fme_sink_stamp(k);

	fastmib_name_metric_of(name, sizeof(name), FASTMIB_MIB_WRITER_STATUS, sc->prefix);
	fme_family_names(&f, name, FME_K_STATESET, false);
	k->family(k, &f,
		  "Status of the segment's writer: running; gone (the writing process exited "
		  "or closed the segment); stalled (a lcore stayed inside one transaction "
		  "longer than the read patience).", NULL);
	k->labels(k, NULL, 0);
	for (unsigned int i = 0; i < 3; i++)
		k->sample(k, f.sample, fme_label_str(&x, f.base, status[i]), fme_u64((unsigned int)ws == i + 1));

	fastmib_name_metric_of(name, sizeof(name), FASTMIB_MIB_BEST_EFFORT, sc->prefix);
	fme_family_names(&f, name, FME_K_COUNTER, false);
	k->family(k, &f,
		  "Values served without a consistent snapshot because a writer stayed inside "
		  "its transaction (counted by the segment's SNMP agent).", NULL);
	k->sample(k, f.sample, NULL, fme_u64(best));

	fastmib_name_metric_of(name, sizeof(name), FASTMIB_MIB_OUT_OF_RANGE, sc->prefix);
	fme_family_names(&f, name, FME_K_COUNTER, false);
	k->family(k, &f, "Updates whose table index was out of range (applied to no row).",
		  NULL);
	k->sample(k, f.sample, NULL, fme_u64(oor));

	if (!sc->n_events)
		return;
	for (int which = 0; which < 2; which++) {
		fastmib_name_metric_of(name, sizeof(name),
				       which ? FASTMIB_MIB_EVENT_STATS_DROPPED
					     : FASTMIB_MIB_EVENT_STATS_LOGGED, sc->prefix);
		fme_family_names(&f, name, FME_K_COUNTER, false);
		k->family(k, &f, which ? "Records of the event overwritten in the rings by "
					 "newer ones."
				       : "Records of the event logged.", NULL);
		for (uint32_t e = 0; e < sc->n_events; e++)
			k->sample(k, f.sample, fme_label_str(&x, "event", sc->events[e].name),
				  fme_u64(which ? fastmib_event_dropped(a->seg, e)
					     : fastmib_event_logged(a->seg, e)));
	}
}

/* What kind of family a state makes. */
static enum fme_kind
state_kind(const struct fastmib_state_schema *st)
{
	switch (st->type) {
	case FASTMIB_STATE_ENUM:
		return FME_K_STATESET;
	case FASTMIB_STATE_DISPLAY_STRING:
	case FASTMIB_STATE_OCTET_STRING:
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_INET_ADDRESS:
	case FASTMIB_STATE_MAC:
		return FME_K_INFO;
	default:
		return FME_K_GAUGE;
	}
}
/* The text of a state shown as an info label. */
static size_t
state_text(const struct fastmib_state_schema *st, const uint8_t *v, char *buf, size_t size)
{
	const struct fastmib_inet_address *ia = (const void *)v;
	uint16_t len;
	size_t n = 0;

	switch (st->type) {
	case FASTMIB_STATE_DISPLAY_STRING:
		return (size_t)snprintf(buf, size, "%s", (const char *)v);
	case FASTMIB_STATE_OCTET_STRING:
		memcpy(&len, v, sizeof(len));
		for (uint16_t i = 0; i < len && n + 3 < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%02x", v[2 + i]);
		buf[n] = '\0';
		return n;
	case FASTMIB_STATE_IPV4:
		return inet_ntop(AF_INET, v, buf, (socklen_t)size) ? strlen(buf) : 0;
	case FASTMIB_STATE_INET_ADDRESS:
		if (ia->type == 0 || !inet_ntop(ia->type == 1 ? AF_INET : AF_INET6, ia->addr, buf,
						(socklen_t)size))
			buf[0] = '\0';
		return strlen(buf);
	case FASTMIB_STATE_MAC:
		return (size_t)snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", v[0], v[1],
					v[2], v[3], v[4], v[5]);
	}
	buf[0] = '\0';
	return 0;
}

/* A numeric state's value as a gauge. */
static struct fme_value
state_number(const struct fastmib_state_schema *st, const uint8_t *v)
{
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	int64_t i64;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		return fme_u64(v[0] != 0);
	case FASTMIB_STATE_INTEGER32:
		memcpy(&i32, v, 4);
		return (struct fme_value){ .kind = FME_V_I64, .u = (uint64_t)(int64_t)i32 };
	case FASTMIB_STATE_UNSIGNED32:
		memcpy(&u32, v, 4);
		return fme_u64(u32);
	case FASTMIB_STATE_TIMETICKS: /* hundredths of a second: as seconds */
		memcpy(&u32, v, 4);
		return nsv((int64_t)u32 * 10000000);
	case FASTMIB_STATE_TIMESTAMP: /* the monotonic moment, as a date (0: never) */
		memcpy(&u64, v, 8);
		if (u64) {
			uint64_t now = fastmib_monotonic_ns(), real = fastmib_time_ns();

			u64 = real - (now > u64 ? now - u64 : 0);
		}
		return nsv((int64_t)u64);
	case FASTMIB_STATE_DATE_AND_TIME:
		memcpy(&i64, v, 8);
		return nsv(i64);
	default: /* gauge64 */
		memcpy(&u64, v, 8);
		return fme_u64(u64);
	}
}

/* The labels of snapshot row i, given to the sink. */
static void
give_row_labels(struct fme_sink *k, const struct snap *sn, const struct fastmib_group_schema *g,
		uint32_t i)
{
	char text[FASTMIB_MAX_INDEXES][FASTMIB_MAX_KEY_FIELD_TEXT];
	struct fme_label l[FASTMIB_MAX_INDEXES];

	row_labels(g, sn->label, sn->rows[i], sn->kstride ? sn->keys + (size_t)i * sn->kstride : NULL,
		   sn->kstride ? sn->key_len[i] : 0, l, text);
	k->labels(k, l, g->n_indexes);
}

/*
 * A histogram's samples of one row, from the row's one snapshot `h` (its
 * words: n_bounds + 1 buckets, count, sum): the buckets cumulative, as
 * Prometheus has them (le the bound, "+Inf" the count), then _count and
 * _sum. A row read best effort whose count is not the sum of its buckets
 * (a writer stuck mid-observation) is left out rather than written as a
 * histogram no parser would take.
 */
static void
emit_histogram(struct fme_sink *k, const struct fme_family *f,
	       const struct fastmib_counter_schema *c, const uint64_t *h)
{
	char name[FME_NAME + 16], le[24];
	struct fme_label x;
	uint64_t cum = 0;

	for (uint32_t b = 0; b <= c->n_bounds; b++)
		cum += h[b];
	if (cum != h[c->n_bounds + 1])
		return;
	snprintf(name, sizeof(name), "%s_bucket", f->base);
	cum = 0;
	for (uint32_t b = 0; b <= c->n_bounds; b++) {
		cum += h[b];
		if (b < c->n_bounds)
			snprintf(le, sizeof(le), "%" PRIu64, c->bounds[b]);
		else
			snprintf(le, sizeof(le), "+Inf");
		k->sample(k, name, fme_label_str(&x, "le", le), fme_u64(cum));
	}
	snprintf(name, sizeof(name), "%s_count", f->base);
	k->sample(k, name, NULL, fme_u64(cum));
	snprintf(name, sizeof(name), "%s_sum", f->base);
	k->sample(k, name, NULL, fme_u64(h[c->n_bounds + 2]));
}

/* Rows [pos, ...) of family `item` of the snapshot's group, up to a unit
 * of text (another sink: all of them). */
static void
emit_rows(struct fme_scrape *s, const struct fastmib_group_schema *g)
{
	struct snap *sn = &s->snap;
	struct fme_sink *k = s->k;
	struct out *o = &s->out;
	size_t start = o->len;

	k->read_ms = s->snap_ms;
	for (; s->pos < sn->n && o->len - start < FME_UNIT && !o->oom && !k->failed; s->pos++) {
		uint32_t i = s->pos;

		if (s->item < g->n_counters) {
			const struct fastmib_counter_schema *c = &g->counters[s->item];

			const uint64_t *v = sn->values + (size_t)i * row_words(g) +
					    fastmib_counter_word(c);

			if (!sn->have_counters[i])
				continue;
			give_row_labels(k, sn, g, i);
			if (c->type == FASTMIB_HISTOGRAM) {
				emit_histogram(k, &s->fam, c, v);
				continue;
			}
			k->sample(k, s->fam.sample, NULL,
				  fme_u64(fastmib_reported_value(c->type, *v)));
			/* the row's (or group's) DiscontinuityTime: its counters
			 * count from there */
			if (k->om && s->fam.kind == FME_K_COUNTER && sn->created[i])
				k->sample(k, s->fam.created, NULL, nsv((int64_t)sn->created[i]));
		} else {
			uint32_t j = s->item - g->n_counters;
			const struct fastmib_state_schema *st = &g->states[j];
			const uint8_t *v = sn->states + (size_t)i * g->state_size + st->offset;
			char name[FME_NAME], text[2 * FASTMIB_MAX_OCTET_STRING + 1];
			struct fme_label x;

			if (!sn->have_states[i] ||
			    (sn->bad[(size_t)i * FASTMIB_STATE_MASK_WORDS + j / 64] >> (j % 64)) & 1)
				continue;
			give_row_labels(k, sn, g, i);
			switch (s->fam.kind) {
			case FME_K_STATESET: {
				int32_t cur;

				memcpy(&cur, v, 4);
				for (uint32_t e = 0; e < st->n_values; e++)
					k->sample(k, s->fam.sample,
						  fme_label_str(&x, s->fam.base, st->values[e].label),
						  fme_u64(st->values[e].value == cur));
				break;
			}
			case FME_K_INFO:
				fastmib_name_label(name, sizeof(name), st->name);
				x = (struct fme_label){ name, text,
							state_text(st, v, text, sizeof(text)), false };
				k->sample(k, s->fam.sample, &x, fme_u64(1));
				break;
			default:
				k->sample(k, s->fam.sample, NULL, state_number(st, v));
			}
		}
	}
}

/* The next unit of the walk (of text: into s->out); false at the end. */
static bool
step(struct fme_scrape *s)
{
	struct fme_att *a;
	const struct fastmib_schema *sc;
	const struct fastmib_group_schema *g;
	char name[FME_NAME];

	switch (s->stage) {
	case ST_PORTS:
		fme_sink_stamp(s->k);
		if (fme_ports_walk(s->ports, s->k) < 0) {
			s->out.oom = true;
			return false;
		}
		s->stage = ST_SERVED;
		return true;
	case ST_SERVED:
		emit_served(s);
		s->stage = s->more.give ? ST_MORE : ST_SEGMENT;
		s->seg = 0;
		return true;
	case ST_MORE:
		fme_sink_stamp(s->k);
		s->more.give(s->more.ctx, s->k);
		s->stage = ST_SEGMENT;
		return true;
	case ST_SEGMENT:
		if (s->seg >= s->view.n) {
			s->stage = ST_EOF;
			return true;
		}
		a = s->view.atts[s->seg];
		if (!a || s->skip[s->seg]) {
			s->seg++;
			return true;
		}
		emit_segment(s, a);
		s->stage = ST_GROUPS;
		s->group = 0;
		s->item = 0;
		s->pos = 0;
		s->header_done = false;
		return true;
	case ST_GROUPS:
		a = s->view.atts[s->seg];
		sc = a->schema;
		if (s->group >= sc->n_groups) {
			s->stage = ST_SEGMENT;
			s->seg++;
			return true;
		}
		g = &sc->groups[s->group];
		if (!s->have_snap) {
			int rc;

			/* the time of the table's reading: its start */
			s->snap_ms = s->k->want_time ? fme_now_ms() : 0;
			rc = snap_take(&s->snap, a->seg, s->group);
			if (rc < 0) {
				fme_log(FME_ERROR, "%s: group %s: %s", s->view.paths[s->seg], g->name,
					strerror(-rc));
				s->out.oom = true;
				return false;
			}
			s->have_snap = true;
		}
		if (s->item >= g->n_counters + g->n_states) {
			snap_free(&s->snap);
			s->have_snap = false;
			s->group++;
			s->item = 0;
			return true;
		}
		if (!s->header_done) {
			const char *units, *help;
			enum fme_kind kind;

			if (s->item < g->n_counters) {
				const struct fastmib_counter_schema *c = &g->counters[s->item];

				/* a peak is a level; a histogram Prometheus' own */
				kind = c->type == FASTMIB_HISTOGRAM ? FME_K_HISTOGRAM
				       : c->type == FASTMIB_GAUGE32 || c->type == FASTMIB_PEAK
					       ? FME_K_GAUGE
					       : FME_K_COUNTER;
				fastmib_name_metric(name, sizeof(name), sc->prefix, g->name, c->name);
				units = c->units;
				help = c->description;
			} else {
				const struct fastmib_state_schema *st =
					&g->states[s->item - g->n_counters];

				kind = state_kind(st);
				fastmib_name_metric(name, sizeof(name), sc->prefix, g->name, st->name);
				units = kind == FME_K_GAUGE ? st->units : NULL;
				help = st->description;
			}
			fme_family_names(&s->fam, name, kind, false);
			s->k->family(s->k, &s->fam, help, units);
			s->header_done = true;
			s->pos = 0;
			return true;
		}
		emit_rows(s, g);
		if (s->pos >= s->snap.n) {
			s->item++;
			s->header_done = false;
		}
		return true;
	case ST_EOF:
		if (s->k->om)
			puts_(&s->out, "# EOF\n");
		s->stage = ST_DONE;
		return true;
	case ST_DONE:
		break;
	}
	return false;
}

size_t
fme_scrape_read(struct fme_scrape *s, char *buf, size_t max)
{
	size_t n;

	while (s->out.off == s->out.len && !s->out.oom) {
		s->out.off = s->out.len = 0;
		if (!step(s))
			break;
	}
	if (s->out.oom)
		return 0; /* cut short: fme_scrape_failed() says so */
	n = s->out.len - s->out.off;
	if (n > max)
		n = max;
	memcpy(buf, s->out.b + s->out.off, n);
	s->out.off += n;
	return n;
}

bool
fme_scrape_failed(const struct fme_scrape *s)
{
	return s->out.oom;
}

int
fme_walk(struct fme_set *set, struct fme_ports *ports, const struct fme_families *more,
	 struct fme_sink *sink)
{
	struct fme_scrape *s = scrape_new(set, ports, more, sink, false);
	bool failed;

	if (!s)
		return -ENOMEM;
	while (!s->out.oom && !sink->failed && step(s))
		;
	failed = s->out.oom || sink->failed;
	fme_scrape_free(s);
	return failed ? -ENOMEM : 0;
}
