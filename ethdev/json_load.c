/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON text as DPDK telemetry writes it, parsed without losing a counter:
 * DPDK prints unsigned 64-bit integers (an underflowed driver counter reads
 * 18446744073709551000), jansson keeps signed 64-bit ones and refuses the
 * whole text for one that does not fit. Such integers are turned into
 * strings of FME_JSON_BIG_MARK and their digits before parsing;
 * fme_json_u64() (reading.c) reads either form, and no such string passes
 * for text (fme_json_text()). Only what is a JSON integer is turned: a
 * number with a leading zero is left for the parser to refuse. One pass
 * over the text, and a copy only when a large integer is there.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/ethdev/client.h"

/* Is the integer token t[0..n) (optional '-', digits) one JSON allows:
 * no leading zero? */
static bool
json_int_token(const char *t, size_t n)
{
	size_t d = t[0] == '-';

	return n > d && (t[d] != '0' || n == d + 1);
}

/* Does the integer token t[0..n) (optional '-', digits) fit in int64? */
static bool
fits_int64(const char *t, size_t n)
{
	bool neg = t[0] == '-';
	const char *d = t + neg;
	size_t digits = n - neg;
	const char *lim = neg ? "9223372036854775808" : "9223372036854775807";

	if (digits < 19)
		return true;
	if (digits > 19)
		return false;
	return memcmp(d, lim, 19) <= 0;
}

/*
 * Call `each(tok, n, arg)` for every integer token outside strings that
 * does not fit in int64; returns how many there are. A number with a
 * fraction or an exponent is a real for jansson and left alone.
 */
static size_t
scan(const char *s, size_t len, void (*each)(const char *, size_t, void *), void *arg)
{
	size_t found = 0;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		size_t j;
		bool integer = true;

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
			continue;
		}
		if (c != '-' && (c < '0' || c > '9'))
			continue;
		for (j = i + 1; j < len; j++) {
			char d = s[j];

			if (d >= '0' && d <= '9')
				continue;
			if (d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-') {
				integer = false;
				continue;
			}
			break;
		}
		if (integer && json_int_token(s + i, j - i) && !fits_int64(s + i, j - i)) {
			found++;
			if (each)
				each(s + i, j - i, arg);
		}
		i = j - 1;
	}
	return found;
}

/* The opening of a marked string: FME_JSON_BIG_MARK as JSON writes it. */
#define MARKED "\"\\u0001"
_Static_assert(FME_JSON_BIG_MARK == 1, "MARKED writes U+0001");

struct copy {
	const char *src;    /* start of the text */
	const char *done;   /* copied up to here */
	char *out;
	size_t o;
};

static void
quote(const char *tok, size_t n, void *arg)
{
	struct copy *c = arg;
	size_t before = (size_t)(tok - c->done);

	memcpy(c->out + c->o, c->done, before);
	c->o += before;
	memcpy(c->out + c->o, MARKED, sizeof(MARKED) - 1);
	c->o += sizeof(MARKED) - 1;
	memcpy(c->out + c->o, tok, n);
	c->o += n;
	c->out[c->o++] = '"';
	c->done = tok + n;
}

json_t *
fme_tel_json_load(const char *text, size_t len)
{
	size_t big = scan(text, len, NULL, NULL);
	struct copy c = { text, text, NULL, 0 };
	json_error_t err;
	json_t *j;

	if (big == 0)
		return json_loadb(text, len, JSON_DECODE_ANY, &err);
	c.out = malloc(len + (sizeof(MARKED) - 1 + 1) * big);
	if (!c.out)
		return NULL;
	scan(text, len, quote, &c);
	memcpy(c.out + c.o, c.done, len - (size_t)(c.done - text));
	c.o += len - (size_t)(c.done - text);
	j = json_loadb(c.out, c.o, JSON_DECODE_ANY, &err);
	free(c.out);
	return j;
}

const char *
fme_json_text(const json_t *v)
{
	const char *s = json_string_value(v);

	return s && s[0] != FME_JSON_BIG_MARK ? s : NULL;
}
