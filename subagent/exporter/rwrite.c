/* SPDX-License-Identifier: BSD-3-Clause */
/* A remote write request made from one walk (rwrite.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "remote.pb-c.h"
#include "rwrite.h"

static bool
room(struct fme_rw *rw, size_t n)
{
	size_t cap;
	uint8_t *b;

	if (rw->cap - rw->len >= n)
		return true;
	cap = rw->cap ? rw->cap : 65536;
	while (cap - rw->len < n)
		cap *= 2;
	if (!(b = realloc(rw->buf, cap))) {
		rw->k.failed = true;
		return false;
	}
	rw->buf = b;
	rw->cap = cap;
	return true;
}

/* The walk gives no HELP or TYPE to remote write 1.0: its metadata is a
 * message of its own, which this request does not carry. */
static void
rw_family(struct fme_sink *k, const struct fme_family *f, const char *help, const char *units)
{
	(void)k, (void)f, (void)help, (void)units;
}

static void
rw_labels(struct fme_sink *k, const struct fme_label *l, unsigned int n)
{
	struct fme_rw *rw = (struct fme_rw *)k;
	size_t need = 0, off = 0;

	if (n > FME_RW_MAX_LABELS - 2) {
		rw->k.failed = true;
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		need += strlen(l[i].name) + l[i].len + 2;
	if (need > rw->arena_cap) {
		char *a = realloc(rw->arena, need);

		if (!a) {
			rw->k.failed = true;
			return;
		}
		rw->arena = a;
		rw->arena_cap = need;
	}
	rw->n_row = 0;
	for (unsigned int i = 0; i < n; i++) {
		size_t nl = strlen(l[i].name);

		/* an empty value is no label, to Prometheus as in a scrape */
		if (!l[i].len)
			continue;
		rw->row_names[rw->n_row] = memcpy(rw->arena + off, l[i].name, nl + 1);
		off += nl + 1;
		rw->row_values[rw->n_row] = memcpy(rw->arena + off, l[i].value, l[i].len);
		rw->arena[off + l[i].len] = '\0';
		off += l[i].len + 1;
		rw->n_row++;
	}
}

static double
as_double(struct fme_value v)
{
	switch (v.kind) {
	case FME_V_I64:
		return (double)(int64_t)v.u;
	case FME_V_NS:
		return (double)(int64_t)v.u / 1e9;
	case FME_V_CS:
		return (double)v.u / 100.0;
	default:
		return (double)v.u;
	}
}

static size_t
put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static void
rw_sample(struct fme_sink *k, const char *name, const struct fme_label *x, struct fme_value v)
{
	struct fme_rw *rw = (struct fme_rw *)k;
	Fastmib__Remote__Label lab[FME_RW_MAX_LABELS], *lp[FME_RW_MAX_LABELS];
	Fastmib__Remote__Sample smp = FASTMIB__REMOTE__SAMPLE__INIT, *sp = &smp;
	Fastmib__Remote__TimeSeries ts = FASTMIB__REMOTE__TIME_SERIES__INIT;
	char xv[2 * FASTMIB_MAX_OCTET_STRING + 1]; /* the longest: an octet string in hex */
	unsigned int n = 0;
	size_t size;

	if (rw->k.failed)
		return;
	lab[n] = (Fastmib__Remote__Label)FASTMIB__REMOTE__LABEL__INIT;
	lab[n].name = (char *)"__name__";
	lab[n++].value = (char *)name;
	for (unsigned int i = 0; i < rw->n_row; i++) {
		lab[n] = (Fastmib__Remote__Label)FASTMIB__REMOTE__LABEL__INIT;
		lab[n].name = rw->row_names[i];
		lab[n++].value = rw->row_values[i];
	}
	if (x && x->len) {
		size_t xl = x->len < sizeof(xv) - 1 ? x->len : sizeof(xv) - 1;

		memcpy(xv, x->value, xl);
		xv[xl] = '\0';
		lab[n] = (Fastmib__Remote__Label)FASTMIB__REMOTE__LABEL__INIT;
		lab[n].name = (char *)x->name;
		lab[n++].value = xv;
	}
	/* sorted by name, as remote write requires (a handful: insertion) */
	for (unsigned int i = 0; i < n; i++) {
		Fastmib__Remote__Label *l = &lab[i];
		unsigned int j = i;

		while (j > 0 && strcmp(lp[j - 1]->name, l->name) > 0) {
			lp[j] = lp[j - 1];
			j--;
		}
		lp[j] = l;
	}
	smp.value = as_double(v);
	smp.timestamp = rw->k.read_ms;
	ts.n_labels = n;
	ts.labels = lp;
	ts.n_samples = 1;
	ts.samples = &sp;
	size = fastmib__remote__time_series__get_packed_size(&ts);
	if (!room(rw, size + 11))
		return;
	rw->buf[rw->len++] = 0x0a; /* WriteRequest field 1, length-delimited */
	rw->len += put_varint(rw->buf + rw->len, size);
	rw->len += fastmib__remote__time_series__pack(&ts, rw->buf + rw->len);
	rw->samples++;
	if (rw->full && rw->samples == FME_RW_MAX_SAMPLES && !rw->full(rw, rw->ctx))
		rw->k.failed = true;
}

void
fme_rw_restart(struct fme_rw *rw)
{
	rw->len = 0;
	rw->samples = 0;
}

void
fme_rw_init(struct fme_rw *rw)
{
	memset(rw, 0, sizeof(*rw));
	rw->k.family = rw_family;
	rw->k.labels = rw_labels;
	rw->k.sample = rw_sample;
	rw->k.want_time = true;
}

uint8_t *
fme_rw_compress(const struct fme_rw *rw, size_t *len)
{
	size_t n = snappy_max_compressed_length(rw->len);
	uint8_t *out = malloc(n ? n : 1);

	if (!out)
		return NULL;
	uint8_t *fit;

	if (snappy_compress((const char *)rw->buf, rw->len, (char *)out, &n) != SNAPPY_OK) {
		free(out);
		return NULL;
	}
	/* the batch waits in the queue, which counts its compressed bytes:
	 * it must hold no more (the bound above is the uncompressed length
	 * and a sixth, several times the compressed one) */
	fit = realloc(out, n ? n : 1);
	*len = n;
	return fit ? fit : out;
}

void
fme_rw_free(struct fme_rw *rw)
{
	free(rw->buf);
	free(rw->arena);
	memset(rw, 0, sizeof(*rw));
}
