/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * State objects (<fastmib/schema.h>): the C form of each type, the layout
 * of a group's state struct (the generated struct, the segment's records),
 * and which values a state may hold. The one owner of these rules: the
 * generator lays out and asserts the generated struct with them, setters
 * check what they are given and readers what they read from a segment.
 */
#include <errno.h>
#include <string.h>

#include "fms_util.h"
#include "fastmib/schema.h"

const char *
fastmib_state_type_word(uint32_t type)
{
	switch (type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		return "truth-value";
	case FASTMIB_STATE_ENUM:
		return "enum";
	case FASTMIB_STATE_INTEGER32:
		return "integer32";
	case FASTMIB_STATE_UNSIGNED32:
		return "unsigned32";
	case FASTMIB_STATE_GAUGE64:
		return "gauge64";
	case FASTMIB_STATE_TIMETICKS:
		return "timeticks";
	case FASTMIB_STATE_TIMESTAMP:
		return "timestamp";
	case FASTMIB_STATE_DATE_AND_TIME:
		return "date-and-time";
	case FASTMIB_STATE_DISPLAY_STRING:
		return "display-string";
	case FASTMIB_STATE_OCTET_STRING:
		return "octet-string";
	case FASTMIB_STATE_IPV4:
		return "ipv4";
	case FASTMIB_STATE_INET_ADDRESS:
		return "inet-address";
	case FASTMIB_STATE_MAC:
		return "mac";
	}
	return NULL;
}

uint32_t
fastmib_state_value_size(const struct fastmib_state_schema *st, uint32_t *align)
{
	uint32_t size, a;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		size = a = 1;
		break;
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		size = a = 4;
		break;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMESTAMP:
	case FASTMIB_STATE_DATE_AND_TIME:
		size = a = 8;
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		size = st->size + 1;
		a = 1;
		break;
	case FASTMIB_STATE_OCTET_STRING:
		/* struct { uint16_t len; uint8_t octets[size]; }: padded to 2 */
		size = (2 + st->size + 1) / 2 * 2;
		a = 2;
		break;
	case FASTMIB_STATE_IPV4:
		size = 4;
		a = 1;
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		size = (uint32_t)sizeof(struct fastmib_inet_address);
		a = 1;
		break;
	case FASTMIB_STATE_MAC:
		size = 6;
		a = 1;
		break;
	default:
		size = 0;
		a = 1;
		break;
	}
	if (align)
		*align = a;
	return size;
}

void
fastmib_state_layout(const struct fastmib_group_schema *g, uint32_t *offsets, uint32_t *size)
{
	uint32_t off = 0, max_align = 1;

	/* C's rules: each member at the next multiple of its alignment, the
	 * struct padded to the largest one */
	for (uint32_t i = 0; i < g->n_states; i++) {
		uint32_t a, n = fastmib_state_value_size(&g->states[i], &a);

		off = (off + a - 1) / a * a;
		offsets[i] = off;
		off += n;
		if (a > max_align)
			max_align = a;
	}
	*size = g->n_states ? (off + max_align - 1) / max_align * max_align : 0;
}

void
fms_state_defaults(const struct fastmib_group_schema *g, uint8_t *data)
{
	memset(data, 0, g->state_size);
	for (uint32_t i = 0; i < g->n_states; i++) {
		const struct fastmib_state_schema *st = &g->states[i];

		if (st->def)
			memcpy(data + st->offset, st->def, fastmib_state_value_size(st, NULL));
	}
}

const char *
fastmib_enum_label(const struct fastmib_state_schema *st, int32_t v)
{
	for (uint32_t i = 0; i < st->n_values; i++)
		if (st->values[i].value == v)
			return st->values[i].label;
	return NULL;
}

static int
in_range(const char *group, const struct fastmib_state_schema *st, int64_t v)
{
	if (!st->has_range || (v >= st->lo && v <= st->hi))
		return 0;
	return fms_error(-EINVAL, "group %s: state %s: %lld outside its range %lld..%lld", group,
			 st->name, (long long)v, (long long)st->lo, (long long)st->hi);
}

int
fastmib_state_check(const char *group, const struct fastmib_state_schema *st, const void *value)
{
	const uint8_t *b = value;
	int32_t i32;
	uint32_t u32;
	uint16_t len;
	size_t n;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		if (b[0] > 1)
			return fms_error(-EINVAL, "group %s: state %s: %u is not a bool (0 or 1)",
					 group, st->name, b[0]);
		return 0;
	case FASTMIB_STATE_ENUM:
		memcpy(&i32, b, 4);
		if (fastmib_enum_label(st, i32) == NULL)
			return fms_error(-EINVAL, "group %s: state %s: %d is not one of its values",
					 group, st->name, i32);
		return 0;
	case FASTMIB_STATE_INTEGER32:
		memcpy(&i32, b, 4);
		return in_range(group, st, i32);
	case FASTMIB_STATE_UNSIGNED32:
		memcpy(&u32, b, 4);
		return in_range(group, st, u32);
	case FASTMIB_STATE_DISPLAY_STRING:
		n = strnlen(value, (size_t)st->size + 1);
		if (n > st->size)
			return fms_error(-EINVAL, "group %s: state %s: longer than %u octets (or "
					 "not NUL-terminated)", group, st->name, st->size);
		for (size_t k = 0; k < n; k++)
			if (b[k] >= 0x80)
				return fms_error(-EINVAL, "group %s: state %s: octet %zu is 0x%02x, "
						 "not ASCII (a DisplayString)", group, st->name,
						 k, b[k]);
		return 0;
	case FASTMIB_STATE_OCTET_STRING:
		memcpy(&len, b, 2);
		if (len > st->size)
			return fms_error(-EINVAL, "group %s: state %s: %u octets, more than %u",
					 group, st->name, len, st->size);
		return 0;
	case FASTMIB_STATE_INET_ADDRESS:
		/* the octets a type does not use are not part of the value */
		if (((const struct fastmib_inet_address *)value)->type > 2)
			return fms_error(-EINVAL, "group %s: state %s: address type %u (0 "
					 "unknown, 1 IPv4, 2 IPv6)", group, st->name,
					 ((const struct fastmib_inet_address *)value)->type);
		return 0;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMETICKS:
	case FASTMIB_STATE_TIMESTAMP:
	case FASTMIB_STATE_DATE_AND_TIME:
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_MAC:
		return 0;
	}
	return fms_error(-EINVAL, "group %s: state %s: type %u unknown", group, st->name,
			 st->type);
}
