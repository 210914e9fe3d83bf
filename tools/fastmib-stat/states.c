/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A state object's value as fastmib-stat shows it: its text (text output),
 * its typed JSON object, its order (--sort) and whether two values are one
 * (--watch). The one place of these rules in the tool: the text and the
 * JSON take their texts from here. Values are C forms fastmib_state_read()
 * checked, so an enum has a label, a string its NUL and an address a type
 * of 0, 1 or 2; a value it left out is the caller's ("?", "bad").
 */
#include <inttypes.h>
#include <string.h>

#include "stat.h"

/* The number of `n` (2, 4 or 8) bytes at v, as its C form holds it: a
 * state's C forms are not aligned in a caller's buffer. */
static uint64_t
num(const uint8_t *v, size_t n)
{
	union {
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} x;

	memcpy(&x, v, n);
	return n == 2 ? x.u16 : n == 4 ? x.u32 : x.u64;
}

#define U32(v) ((uint32_t)num((v), 4))
#define S32(v) ((int32_t)num((v), 4))
#define U64(v) num((v), 8)
/* An octet string's length; its octets follow at v + 2. */
#define OCTETS_LEN(v) ((uint16_t)num((v), 2))

bool
fst_model_has_states(const struct fastmib_schema *sc)
{
	for (uint32_t g = 0; g < sc->n_groups; g++)
		if (sc->groups[g].n_states)
			return true;
	return false;
}

size_t
fst_state_text_size(const struct fastmib_state_schema *st)
{
	switch (st->type) {
	case FASTMIB_STATE_DISPLAY_STRING:
		return 2 * (size_t)st->size + 3; /* every quote doubled, in quotes */
	case FASTMIB_STATE_OCTET_STRING:
		return 2 * (size_t)st->size + 1;
	default:
		/* a label, "4294967295 days, ...", an address: a model name at most */
		return FASTMIB_MAX_NAME + FASTMIB_MAX_KEY_FIELD_TEXT;
	}
}

bool
fst_state_is_number(const struct fastmib_state_schema *st)
{
	switch (st->type) {
	case FASTMIB_STATE_DISPLAY_STRING:
	case FASTMIB_STATE_OCTET_STRING:
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_INET_ADDRESS:
	case FASTMIB_STATE_MAC:
		return false;
	default:
		return true;
	}
}

/*
 * An address as a keyed table's key field of the same type reads
 * (fastmib_key_field_text(), the one owner of an address's and a MAC's
 * text): dotted IPv4, IPv6 as inet_ntop() writes it (RFC 5952), a MAC in
 * lower case. An inet-address of type 0 has none: "".
 */
static void
address_text(const struct fastmib_state_schema *st, const uint8_t *v, char *buf, size_t len)
{
	struct fastmib_key_field f = { .type = FASTMIB_INDEX_IPV4, .octets = v, .n_octets = 4 };

	if (st->type == FASTMIB_STATE_MAC) {
		f.type = FASTMIB_INDEX_MAC;
		f.n_octets = 6;
	} else if (st->type == FASTMIB_STATE_INET_ADDRESS) {
		const struct fastmib_inet_address *a = (const void *)v;

		f.type = FASTMIB_INDEX_INET_ADDRESS;
		f.octets = a->addr;
		f.n_octets = a->type == 2 ? 16 : 4;
		if (a->type == 0) {
			snprintf(buf, len, "%s", "");
			return;
		}
	}
	fastmib_key_field_text(&f, buf, len);
}

/* TimeTicks as net-snmp's tools print them: "2 days, 3:04:05.06". */
static void
ticks_text(uint32_t t, char *buf, size_t len)
{
	uint32_t cs = t % 100, s = t / 100, days = s / 86400;

	s %= 86400;
	if (days == 0)
		snprintf(buf, len, "%" PRIu32 ":%02" PRIu32 ":%02" PRIu32 ".%02" PRIu32, s / 3600,
			 s / 60 % 60, s % 60, cs);
	else
		snprintf(buf, len, "%" PRIu32 " day%s, %" PRIu32 ":%02" PRIu32 ":%02" PRIu32
			 ".%02" PRIu32, days, days == 1 ? "" : "s", s / 3600, s / 60 % 60, s % 60,
			 cs);
}

/* A DateAndTime, ns since the epoch (0: unknown), to its deci-seconds as
 * SNMP's DateAndTime holds it: "2026-11-28T02:29:22.1Z". */
static void
date_text(int64_t ns, char *buf, size_t len)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000;

	if (frac < 0) { /* before the epoch: whole seconds down, the fraction up */
		frac += 1000000000;
		sec--;
	}
	fst_format_utc(buf, len, sec, (uint32_t)frac, 1);
}

/* A display string in double quotes, a quote inside doubled ("say ""hi"""):
 * its first and last characters delimit it, so that "" is empty and "?"
 * a string, never a value left out. Control characters are the cell's to
 * escape, as every cell's (libsmartcols). */
static void
quoted_text(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (len < 3) {
		if (len)
			buf[0] = '\0';
		return;
	}
	buf[n++] = '"';
	for (; *s && n + (*s == '"') + 2 < len; s++) {
		if (*s == '"')
			buf[n++] = '"';
		buf[n++] = *s;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

static void
hex_text(const uint8_t *o, size_t n, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;

	for (; i < n && 2 * i + 2 < len; i++) {
		buf[2 * i] = hex[o[i] >> 4];
		buf[2 * i + 1] = hex[o[i] & 15];
	}
	if (len)
		buf[2 * i < len ? 2 * i : len - 1] = '\0';
}

void
fst_state_text(const struct fastmib_state_schema *st, const uint8_t *v, uint64_t now_ns,
	       char *buf, size_t len)
{
	const char *label;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		snprintf(buf, len, "%s", v[0] ? "true" : "false");
		break;
	case FASTMIB_STATE_ENUM:
		label = fastmib_enum_label(st, S32(v));
		if (label) {
			snprintf(buf, len, "%s", label);
			break;
		}
		/* a value without a label (never read): its number */
		/* fall through */
	case FASTMIB_STATE_INTEGER32:
		snprintf(buf, len, "%" PRId32, S32(v));
		break;
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_GAUGE64:
		snprintf(buf, len, "%" PRIu64, st->type == FASTMIB_STATE_GAUGE64 ? U64(v) : U32(v));
		break;
	case FASTMIB_STATE_TIMETICKS:
		ticks_text(U32(v), buf, len);
		break;
	case FASTMIB_STATE_TIMESTAMP:
		if (U64(v) == 0)
			snprintf(buf, len, "never");
		else
			snprintf(buf, len, "%.1f s ago", (double)(int64_t)(now_ns - U64(v)) / 1e9);
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		if (U64(v) == 0)
			snprintf(buf, len, "unknown");
		else
			date_text((int64_t)U64(v), buf, len);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		quoted_text((const char *)v, buf, len);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		hex_text(v + 2, OCTETS_LEN(v), buf, len);
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		if (((const struct fastmib_inet_address *)(const void *)v)->type == 0) {
			snprintf(buf, len, "unknown");
			break;
		}
		/* fall through */
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_MAC:
		address_text(st, v, buf, len);
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

/*
 * {"type": WORD, "value": V, ...}: V typed as the state's value is (a
 * boolean, a number, 64-bit ones by json64's rule, a string), with what
 * the number alone does not say: an enum's "label", a TimeTicks' and a
 * DateAndTime's "text", a timestamp's age in seconds ("ago"), an
 * inet-address's "addressType". A value left out: "value" null and "bad".
 */
json_t *
fst_state_json(const struct fastmib_state_schema *st, const uint8_t *v, bool bad,
	       uint64_t now_ns)
{
	const char *word = fastmib_state_type_word(st->type);
	json_t *o = json_object(), *value;
	char text[FST_STATE_TEXT];

	json_object_set_new(o, "type", json_string(word ? word : "unknown"));
	if (bad) {
		json_object_set_new(o, "value", json_null());
		json_object_set_new(o, "bad", json_true());
		return o;
	}
	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		value = json_boolean(v[0]);
		break;
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		value = json_integer(S32(v));
		break;
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		value = json_integer(U32(v));
		break;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMESTAMP:
		value = fst_json_u64(U64(v));
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		value = fst_json_s64((int64_t)U64(v));
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		value = json_string((const char *)v);
		break;
	case FASTMIB_STATE_OCTET_STRING:
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_INET_ADDRESS:
	case FASTMIB_STATE_MAC:
		if (st->type == FASTMIB_STATE_OCTET_STRING)
			hex_text(v + 2, OCTETS_LEN(v), text, sizeof(text));
		else
			address_text(st, v, text, sizeof(text));
		value = json_string(text);
		break;
	default:
		value = json_null();
		break;
	}
	json_object_set_new(o, "value", value);
	switch (st->type) {
	case FASTMIB_STATE_ENUM:
		word = fastmib_enum_label(st, S32(v));
		json_object_set_new(o, "label", word ? json_string(word) : json_null());
		break;
	case FASTMIB_STATE_TIMETICKS:
	case FASTMIB_STATE_DATE_AND_TIME:
		fst_state_text(st, v, now_ns, text, sizeof(text));
		json_object_set_new(o, "text", st->type == FASTMIB_STATE_DATE_AND_TIME &&
					       U64(v) == 0 ? json_null() : json_string(text));
		break;
	case FASTMIB_STATE_TIMESTAMP:
		json_object_set_new(o, "ago", U64(v) == 0 ? json_null() :
				    json_real((double)(int64_t)(now_ns - U64(v)) / 1e9));
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		word = fastmib_inet_type_word(((const struct fastmib_inet_address *)(const void *)v)
						      ->type);
		json_object_set_new(o, "addressType", json_string(word ? word : "unknown"));
		break;
	default:
		break;
	}
	return o;
}

/* A number of any state type that sorts as one, widened without loss. */
static int
cmp_number(const struct fastmib_state_schema *st, const uint8_t *a, const uint8_t *b)
{
	int64_t x, y;
	uint64_t p, q;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		return (a[0] > b[0]) - (a[0] < b[0]);
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		x = S32(a);
		y = S32(b);
		return (x > y) - (x < y);
	case FASTMIB_STATE_DATE_AND_TIME:
		x = (int64_t)U64(a);
		y = (int64_t)U64(b);
		return (x > y) - (x < y);
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		p = U32(a);
		q = U32(b);
		return (p > q) - (p < q);
	default:
		p = U64(a);
		q = U64(b);
		return (p > q) - (p < q);
	}
}

int
fst_state_cmp(const struct fastmib_state_schema *st, const uint8_t *a, const uint8_t *b)
{
	char ta[FST_STATE_TEXT], tb[FST_STATE_TEXT];

	if (fst_state_is_number(st))
		return cmp_number(st, a, b);
	/* by their text, as the column shows them */
	fst_state_text(st, a, 0, ta, sizeof(ta));
	fst_state_text(st, b, 0, tb, sizeof(tb));
	return strcmp(ta, tb);
}

bool
fst_state_equal(const struct fastmib_state_schema *st, const uint8_t *a, const uint8_t *b)
{
	const struct fastmib_inet_address *x = (const void *)a, *y = (const void *)b;

	switch (st->type) {
	case FASTMIB_STATE_DISPLAY_STRING:
		/* what follows the NUL is not part of the value */
		return strcmp((const char *)a, (const char *)b) == 0;
	case FASTMIB_STATE_OCTET_STRING:
		return OCTETS_LEN(a) == OCTETS_LEN(b) &&
		       memcmp(a + 2, b + 2, OCTETS_LEN(a)) == 0;
	case FASTMIB_STATE_INET_ADDRESS:
		return x->type == y->type &&
		       memcmp(x->addr, y->addr, x->type == 2 ? 16 : x->type == 1 ? 4 : 0) == 0;
	default:
		return memcmp(a, b, fastmib_state_value_size(st, NULL)) == 0;
	}
}
