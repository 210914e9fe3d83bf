/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A state's default: the value a new row or a new segment starts with,
 * written as the model writes values of its type (docs/model.md,
 * "States"), into its C form, the bytes of the state's member of the
 * generated struct (fastmib_state_value_size()), which the schema carries.
 *
 * Whether the value is one the state allows (within its range, no longer
 * than its size) is fastmib_state_check()'s to say when the schema is
 * checked, so a string too long is kept as far as its C form goes, with
 * no NUL or a length above the size, for that check to refuse. Refused
 * here is only what cannot be a value of the type at all.
 */
#include "model_states.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* What a default of each type looks like, for messages. */
static const char octets_form[] =
	"octets of two hexadecimal digits joined by ':', as in 0a:1b:ff";
static const char mac_form[] =
	"six octets of two hexadecimal digits joined by ':', as in 02:00:00:00:00:01";

/*
 * Octets written as pairs of hexadecimal digits joined by ':' ("" for
 * none): their number, the first `max` of them into out; -1 when `s` is
 * not written so.
 */
static long
hex_octets(const char *s, uint8_t *out, size_t max)
{
	long n = 0;

	if (!*s)
		return 0;
	for (;;) {
		char pair[3] = { s[0], s[0] ? s[1] : '\0', '\0' };

		if (!isxdigit((unsigned char)pair[0]) || !isxdigit((unsigned char)pair[1]))
			return -1;
		if ((size_t)n < max)
			out[n] = (uint8_t)strtoul(pair, NULL, 16);
		n++;
		s += 2;
		if (!*s)
			return n;
		if (*s++ != ':' || !*s)
			return -1;
	}
}

/* A display-string's text: printable ASCII without '"' (which would end
 * the MIB's DEFVAL string), kept as written; as much of it as the C form
 * holds (size + 1 octets: no NUL when it is too long). */
static bool
text_default(struct loader *c, yaml_node_t *n, struct m_state *s, uint8_t *v)
{
	const char *t = scalar(n);
	size_t len = strlen(t);

	for (size_t i = 0; i < len; i++)
		if (t[i] < 0x20 || t[i] > 0x7e || t[i] == '"') {
			err(c, n, "`default` of a display-string state must be printable ASCII "
				  "without a double quote (\"): found byte 0x%02x",
			    (unsigned char)t[i]);
			return false;
		}
	s->def_len = (uint32_t)(len > UINT32_MAX ? UINT32_MAX : len);
	memcpy(v, t, len < (size_t)s->size + 1 ? len : (size_t)s->size + 1);
	return true;
}

/* An octet-string's octets, as their length and as many as fit. */
static bool
octets_default(struct loader *c, yaml_node_t *n, struct m_state *s, uint8_t *v)
{
	long k = hex_octets(scalar(n), v + 2, s->size);
	uint16_t len;

	if (k < 0) {
		err(c, n, "`default` `%s` of an octet-string state is not %s (\"\" for none)",
		    scalar(n), octets_form);
		return false;
	}
	s->def_len = (uint32_t)k;
	len = (uint16_t)(k > UINT16_MAX ? UINT16_MAX : k);
	memcpy(v, &len, sizeof(len));
	return true;
}

/* An address in text: IPv4 dotted, or for an inet-address IPv6 too (its
 * InetAddressType follows). */
static bool
address_default(struct loader *c, yaml_node_t *n, struct m_state *s, uint8_t *v)
{
	struct fastmib_inet_address a = { 0, { 0 } };

	if (inet_pton(AF_INET, scalar(n), a.addr) == 1)
		a.type = 1;
	else if (s->type == FASTMIB_STATE_INET_ADDRESS && inet_pton(AF_INET6, scalar(n), a.addr) == 1)
		a.type = 2;
	if (!a.type) {
		err(c, n, "`default` `%s` is not an %s address", scalar(n),
		    s->type == FASTMIB_STATE_IPV4 ? "IPv4" : "IPv4 or IPv6");
		return false;
	}
	if (s->type == FASTMIB_STATE_IPV4)
		memcpy(v, a.addr, 4);
	else
		memcpy(v, &a, sizeof(a));
	return true;
}

/* An enum's label: the number it stands for. */
static bool
label_default(struct loader *c, yaml_node_t *n, struct m_state *s, uint8_t *v)
{
	struct strbuf labels;

	for (uint32_t i = 0; i < s->n_values; i++)
		if (strcmp(s->values[i].label, scalar(n)) == 0) {
			memcpy(v, &s->values[i].value, sizeof(int32_t));
			return true;
		}
	sb_init(&labels);
	for (uint32_t i = 0; i < s->n_values; i++)
		sb_printf(&labels, "%s%s", i ? ", " : "", s->values[i].label);
	err(c, n, "`default` `%s` is not one of the labels of `values` (%s)", scalar(n),
	    labels.data ? labels.data : "");
	sb_free(&labels);
	return false;
}

/* A number of the type's C form: its bounds are the type's, a `range`
 * within them is the schema's to check. */
static bool
number_default(struct loader *c, yaml_node_t *n, uint32_t type, uint8_t *v)
{
	int64_t i;
	uint64_t u;
	int32_t i32;
	uint32_t u32;

	switch (type) {
	case FASTMIB_STATE_INTEGER32:
		if (!get_int(c, n, "default", INT32_MIN, INT32_MAX, &i))
			return false;
		i32 = (int32_t)i;
		memcpy(v, &i32, sizeof(i32));
		return true;
	case FASTMIB_STATE_GAUGE64:
		if (!get_uint(c, n, "default", 0, UINT64_MAX, &u))
			return false;
		memcpy(v, &u, sizeof(u));
		return true;
	default: /* unsigned32, timeticks */
		if (!get_uint(c, n, "default", 0, UINT32_MAX, &u))
			return false;
		u32 = (uint32_t)u;
		memcpy(v, &u32, sizeof(u32));
		return true;
	}
}

static bool
read_default(struct loader *c, yaml_node_t *n, struct m_state *s, uint8_t *v)
{
	bool b;

	if (s->type == FASTMIB_STATE_TIMESTAMP || s->type == FASTMIB_STATE_DATE_AND_TIME) {
		err(c, n, "`default` not allowed for a %s state: its values are moments the "
			  "model cannot know (it starts at 0, %s)", fastmib_state_type_word(s->type),
		    s->type == FASTMIB_STATE_TIMESTAMP ? "never" : "unknown");
		return false;
	}
	if (!want_scalar(c, n, "default", "a scalar"))
		return false;
	switch (s->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		if (!get_bool(c, n, "default", &b))
			return false;
		v[0] = b;
		return true;
	case FASTMIB_STATE_ENUM:
		return label_default(c, n, s, v);
	case FASTMIB_STATE_DISPLAY_STRING:
		return text_default(c, n, s, v);
	case FASTMIB_STATE_OCTET_STRING:
		return octets_default(c, n, s, v);
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_INET_ADDRESS:
		return address_default(c, n, s, v);
	case FASTMIB_STATE_MAC:
		if (hex_octets(scalar(n), v, 6) == 6)
			return true;
		err(c, n, "`default` `%s` is not a MAC address (%s)", scalar(n), mac_form);
		return false;
	default:
		return number_default(c, n, s->type, v);
	}
}

bool
parse_state_default(struct loader *c, yaml_node_t *n, struct m_state *s)
{
	struct fastmib_state_schema st = { .type = s->type, .size = s->size };
	uint32_t size = fastmib_state_value_size(&st, NULL);
	uint8_t *v = xcalloc(size ? size : 1, 1);
	bool zero = true;

	if (n && !read_default(c, n, s, v)) {
		free(v);
		return false;
	}
	if (!n && s->type == FASTMIB_STATE_ENUM && s->n_values)
		memcpy(v, &s->values[0].value, sizeof(int32_t));
	for (uint32_t i = 0; i < size; i++)
		zero &= v[i] == 0;
	/* the schema's NULL is all zero; an enum always names its value */
	if (zero && s->type != FASTMIB_STATE_ENUM) {
		free(v);
		v = NULL;
	}
	s->def = v;
	return true;
}
