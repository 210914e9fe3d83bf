/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A keyed table's key as people write it (<fastmib/schema.h>): each index's
 * value as text, and the whole key as fastmib-stat --reset and the
 * telemetry commands take it, "10.0.0.1,7". The one owner of that grammar:
 *
 *   KEY    = FIELD *( "," FIELD )    one field per index, model order
 *   FIELD  integer, uint32  decimal digits
 *          ipv4             dotted quad (inet_pton)
 *          inet-address     an IPv4 or an IPv6 address (inet_pton); which
 *                           one gives the InetAddressType
 *          mac              six octets of two hexadecimal digits, ':' between
 *          string           the characters, "\," for a comma and "\\" for a
 *                           backslash
 *
 * Written back, addresses take their usual form (inet_ntop: IPv6 compressed,
 * lower case), a MAC lower case, so that text -> key -> text is the
 * identity on what this writes. A key read from text is a C key first
 * (<fastmib/schema.h>), encoded by keys.c, the owner of the order key; a
 * field's value comes from fastmib_key_field() there.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fms_util.h"

/* snprintf()'s contract for a text of n bytes at `s`: copied as far as it
 * fits, NUL-terminated; returns n. */
static size_t
put(char *buf, size_t size, size_t at, const char *s, size_t n)
{
	if (at < size) {
		size_t room = size - at - 1;

		memcpy(buf + at, s, n < room ? n : room);
		buf[at + (n < room ? n : room)] = '\0';
	}
	return n;
}

/* The field's text, its string escaped when `escaped`; snprintf()'s contract. */
static size_t
field_text(const struct fastmib_key_field *f, bool escaped, char *buf, size_t size, size_t at)
{
	char t[FASTMIB_MAX_KEY_FIELD_TEXT];
	size_t n = 0;

	switch (f->type) {
	case FASTMIB_INDEX_INTEGER:
	case FASTMIB_INDEX_UINT32:
		n = (size_t)snprintf(t, sizeof(t), "%" PRIu32, f->number);
		break;
	case FASTMIB_INDEX_IPV4:
	case FASTMIB_INDEX_INET_ADDRESS:
		if (inet_ntop(f->n_octets == 16 ? AF_INET6 : AF_INET, f->octets, t, sizeof(t)))
			n = strlen(t);
		break;
	case FASTMIB_INDEX_MAC:
		n = (size_t)snprintf(t, sizeof(t), "%02x:%02x:%02x:%02x:%02x:%02x",
				     f->octets[0], f->octets[1], f->octets[2], f->octets[3],
				     f->octets[4], f->octets[5]);
		break;
	case FASTMIB_INDEX_STRING:
		for (uint32_t i = 0; i < f->n_octets; i++) {
			char c = (char)f->octets[i];

			if (escaped && (c == ',' || c == '\\'))
				n += put(buf, size, at + n, "\\", 1);
			n += put(buf, size, at + n, &c, 1);
		}
		return n;
	}
	return put(buf, size, at, t, n);
}

size_t
fastmib_key_field_text(const struct fastmib_key_field *f, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return field_text(f, false, buf, size, 0);
}

size_t
fastmib_key_text(const struct fastmib_group_schema *g, const uint8_t *key, size_t len,
		 char *buf, size_t size)
{
	struct fastmib_key_field f;
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		if (fastmib_key_field(g, key, len, k, &f) < 0) {
			if (size)
				buf[0] = '\0'; /* not a key: no text, not part of one */
			return 0;
		}
		if (k)
			n += put(buf, size, n, ",", 1);
		n += field_text(&f, true, buf, size, n);
	}
	return n;
}

/* ---- reading ---- */

/* Message naming the index: "group G: 'TEXT' is not ... for index I". */
static int
bad_field(const struct fastmib_group_schema *g, uint32_t k, const char *text, size_t n,
	  const char *what)
{
	return fms_error(-EINVAL, "group %s: '%.*s' %s for index %s", g->name, (int)n, text,
			 what, g->indexes[k].name);
}

/* Decimal digits only, within `max`. */
static bool
read_u32(const char *s, size_t n, uint64_t max, uint32_t *v)
{
	uint64_t x = 0;

	if (n == 0 || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > max)
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool
hex_digit(char c, uint8_t *v)
{
	if (c >= '0' && c <= '9')
		*v = (uint8_t)(c - '0');
	else if (c >= 'a' && c <= 'f')
		*v = (uint8_t)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		*v = (uint8_t)(c - 'A' + 10);
	else
		return false;
	return true;
}

/* "02:00:5e:10:00:01": six octets of two hexadecimal digits. */
static bool
read_mac(const char *s, size_t n, uint8_t *out)
{
	if (n != 17)
		return false;
	for (int i = 0; i < 6; i++) {
		uint8_t hi, lo;

		if (!hex_digit(s[3 * i], &hi) || !hex_digit(s[3 * i + 1], &lo) ||
		    (i < 5 && s[3 * i + 2] != ':'))
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* An address of `family` written as inet_pton() reads it. */
static bool
read_addr(int family, const char *s, size_t n, uint8_t *out)
{
	char t[FASTMIB_MAX_KEY_FIELD_TEXT];

	if (n >= sizeof(t))
		return false;
	memcpy(t, s, n);
	t[n] = '\0';
	return inet_pton(family, t, out) == 1;
}

/* One field of `text`, from `*p` to its unescaped ',' or the end, into its
 * member m of the C key (fastmib_key_layout(); zeroed by the caller). */
static int
read_field(const struct fastmib_group_schema *g, uint32_t k, const char **p, uint8_t *m)
{
	const struct fastmib_index_schema *x = &g->indexes[k];
	const char *s = *p, *e = s;
	uint32_t v, n = 0;
	char what[64];

	/* the field ends at a ',' that no backslash escapes (strings only
	 * escape: elsewhere a backslash is just a bad character) */
	while (*e && *e != ',') {
		if (*e == '\\' && x->type == FASTMIB_INDEX_STRING && e[1])
			e++;
		e++;
	}
	*p = e;
	switch (x->type) {
	case FASTMIB_INDEX_INTEGER:
		if (!read_u32(s, (size_t)(e - s), x->max, &v) || v < 1) {
			snprintf(what, sizeof(what), "is not an integer 1..%" PRIu32, x->max);
			return bad_field(g, k, s, (size_t)(e - s), what);
		}
		memcpy(m, &v, 4);
		return 0;
	case FASTMIB_INDEX_UINT32:
		if (!read_u32(s, (size_t)(e - s), UINT32_MAX, &v))
			return bad_field(g, k, s, (size_t)(e - s),
					 "is not an unsigned 32-bit integer (0..4294967295)");
		memcpy(m, &v, 4);
		return 0;
	case FASTMIB_INDEX_IPV4:
		if (!read_addr(AF_INET, s, (size_t)(e - s), m))
			return bad_field(g, k, s, (size_t)(e - s), "is not an IPv4 address");
		return 0;
	case FASTMIB_INDEX_INET_ADDRESS: /* struct fastmib_inet_address */
		if (read_addr(AF_INET, s, (size_t)(e - s), m + 1))
			m[0] = 1;
		else if (read_addr(AF_INET6, s, (size_t)(e - s), m + 1))
			m[0] = 2;
		else /* say which of the two it looks like it meant */
			return bad_field(g, k, s, (size_t)(e - s),
					 memchr(s, ':', (size_t)(e - s)) ? "is not an IPv6 address" :
									   "is not an IPv4 address");
		return 0;
	case FASTMIB_INDEX_MAC:
		if (!read_mac(s, (size_t)(e - s), m))
			return bad_field(g, k, s, (size_t)(e - s),
					 "is not a MAC address (six octets of two hexadecimal "
					 "digits joined by ':')");
		return 0;
	case FASTMIB_INDEX_STRING:
		for (const char *c = s; c < e; c++) {
			if (*c == '\\') {
				if (c + 1 == e || (c[1] != ',' && c[1] != '\\'))
					return bad_field(g, k, s, (size_t)(e - s),
							 "has a backslash that escapes neither ',' "
							 "nor '\\' (write '\\,' for a comma, '\\\\' for "
							 "a backslash)");
				c++;
			}
			if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
				return bad_field(g, k, s, (size_t)(e - s),
						 "has a character outside printable ASCII");
			if (n == x->size) {
				snprintf(what, sizeof(what), "is longer than %" PRIu32
					 " characters", x->size);
				return bad_field(g, k, s, (size_t)(e - s), what);
			}
			m[n++] = (uint8_t)*c; /* NUL-terminated: the key was zeroed */
		}
		if (n == 0)
			return bad_field(g, k, s, 0, "is empty (1 or more characters)");
		return 0;
	default:
		return bad_field(g, k, s, (size_t)(e - s), "has no type fastmib knows");
	}
}

size_t
fastmib_key_shape(const struct fastmib_group_schema *g, char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];
		const char *w = fastmib_index_type_word(x->type);
		char t[FASTMIB_MAX_NAME + 24];
		int l = snprintf(t, sizeof(t), "%s%s (%s)", k ? ", " : "", x->name,
				 w ? w : "integer");

		n += put(buf, size, n, t, (size_t)l);
	}
	return n;
}

int
fastmib_key_of_text(const struct fastmib_group_schema *g, const char *text, uint8_t *buf)
{
	/* the C key, which fastmib_key_encode() turns into the order key: the
	 * one owner of that (fastpath/format/keys.c) */
	uint8_t ckey[FASTMIB_MAX_INDEXES * (FASTMIB_MAX_STRING_INDEX + 1 + 4)];
	uint32_t offs[FASTMIB_MAX_INDEXES], size, k = 0;
	const char *p = text;
	bool extra = false;
	char shape[FASTMIB_MAX_INDEXES * (FASTMIB_MAX_NAME + 24)];
	int n;

	if (!fastmib_group_keyed(g))
		return fms_error(-EINVAL, "group %s is not a keyed table", g->name);
	fastmib_key_layout(g, offs, &size);
	memset(ckey, 0, sizeof(ckey));
	for (;;) {
		int rc;

		if (k == g->n_indexes) {
			extra = true; /* a ',' after the last index's field */
			break;
		}
		if ((rc = read_field(g, k, &p, ckey + offs[k])) < 0)
			return rc;
		k++;
		if (*p == '\0')
			break;
		p++; /* the ',' */
	}
	if (k < g->n_indexes || extra) {
		fastmib_key_shape(g, shape, sizeof(shape));
		return fms_error(-EINVAL, "group %s: '%s' is not a key: it takes "
				 "%" PRIu32 " field(s), joined by ',': %s", g->name, text,
				 g->n_indexes, shape);
	}
	n = fastmib_key_encode(g, ckey, buf);
	if (n < 0) /* each field was checked: a key no index can hold */
		return fms_error(n, "group %s: '%s' is not a key of the table", g->name, text);
	return n;
}
