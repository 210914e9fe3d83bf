/* SPDX-License-Identifier: BSD-3-Clause */
#include "fm-state-wire.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* A date-and-time of variant A and B: 2026-11-28T02:29:22.1Z, and a moment
 * before the epoch (1969-12-31T23:59:59.9Z). */
#define DT_A 1795832962100000000ll
#define DT_B (-100000000ll)

void
fsw_state(const struct fastmib_state_schema *st, uint32_t g, uint32_t row,
	  enum fsw_variant variant, uint8_t *out)
{
	uint32_t size = fastmib_state_value_size(st, NULL);
	int v = variant == FSW_B;
	int64_t lo = st->has_range ? st->lo : st->type == FASTMIB_STATE_INTEGER32 ? INT32_MIN : 0;
	int64_t hi = st->has_range ? st->hi : st->type == FASTMIB_STATE_INTEGER32 ? INT32_MAX
								   : UINT32_MAX;
	int64_t i64;
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	char text[FASTMIB_MAX_DISPLAY_STRING + 1];

	memset(out, 0, size);
	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		out[0] = (uint8_t)((row + (uint32_t)v) % 2);
		break;
	case FASTMIB_STATE_ENUM:
		i32 = st->values[(row + (uint32_t)v) % st->n_values].value;
		memcpy(out, &i32, 4);
		break;
	case FASTMIB_STATE_INTEGER32:
	case FASTMIB_STATE_UNSIGNED32:
		/* the ends of the range, walking in by the row */
		i64 = v ? hi - (int64_t)(row % 3) : lo + (int64_t)(row % 3);
		if (i64 < lo || i64 > hi)
			i64 = v ? hi : lo;
		if (st->type == FASTMIB_STATE_INTEGER32) {
			i32 = (int32_t)i64;
			memcpy(out, &i32, 4);
		} else {
			u32 = (uint32_t)i64;
			memcpy(out, &u32, 4);
		}
		break;
	case FASTMIB_STATE_GAUGE64:
		u64 = v ? UINT64_MAX - row : (uint64_t)g << 32 | row;
		memcpy(out, &u64, 8);
		break;
	case FASTMIB_STATE_TIMETICKS:
		u32 = v ? UINT32_MAX - row : 100 * row + g;
		memcpy(out, &u32, 4);
		break;
	case FASTMIB_STATE_TIMESTAMP:
		/* never (0) in both: a moment serves as the agent's uptime then,
		 * which depends on when the agent started */
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		i64 = v ? DT_B : DT_A + (int64_t)row * 1000000000ll;
		memcpy(out, &i64, 8);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		/* A short, B as long as its size allows */
		snprintf(text, sizeof(text), "%s-%u-%u", v ? "bee" : "a", g, row);
		if (v)
			while (strlen(text) < st->size)
				strcat(text, "b");
		memcpy(out, text, strlen(text) > st->size ? st->size : strlen(text));
		break;
	case FASTMIB_STATE_OCTET_STRING: {
		uint16_t len = v ? (uint16_t)st->size : (uint16_t)(1 + row % st->size);

		memcpy(out, &len, 2);
		for (uint16_t k = 0; k < len; k++)
			out[2 + k] = (uint8_t)(v ? 0xffu - k : k + row);
		break;
	}
	case FASTMIB_STATE_IPV4:
		out[0] = 10;
		out[1] = (uint8_t)g;
		out[2] = (uint8_t)row;
		out[3] = (uint8_t)(v + 1);
		break;
	case FASTMIB_STATE_INET_ADDRESS: {
		struct fastmib_inet_address *a = (void *)out;

		a->type = v ? 2 : 1;
		a->addr[0] = v ? 0x20 : 192;
		a->addr[1] = v ? 0x01 : 168;
		a->addr[2] = (uint8_t)g;
		a->addr[3] = (uint8_t)row;
		if (v)
			a->addr[15] = 1;
		break;
	}
	case FASTMIB_STATE_MAC:
		out[0] = 2;
		out[3] = (uint8_t)g;
		out[4] = (uint8_t)row;
		out[5] = (uint8_t)(v + 1);
		break;
	}
}

void
fsw_row(const struct fastmib_group_schema *gs, uint32_t g, uint32_t n,
	enum fsw_variant v, uint8_t *data)
{
	memset(data, 0, gs->state_size);
	for (uint32_t s = 0; s < gs->n_states; s++) {
		const struct fastmib_state_schema *st = &gs->states[s];

		if (v != FSW_DEFAULT)
			fsw_state(st, g, n, v, data + st->offset);
		else if (st->def)
			memcpy(data + st->offset, st->def, fastmib_state_value_size(st, NULL));
	}
}

const char *
fsw_syntax(const struct fastmib_state_schema *st, uint32_t part)
{
	switch (st->type) {
	case FASTMIB_STATE_UNSIGNED32:
		return "Gauge32";
	case FASTMIB_STATE_GAUGE64:
		return "Counter64";
	case FASTMIB_STATE_TIMETICKS:
	case FASTMIB_STATE_TIMESTAMP:
		return "Timeticks";
	case FASTMIB_STATE_IPV4:
		return "IpAddress";
	case FASTMIB_STATE_DISPLAY_STRING:
	case FASTMIB_STATE_OCTET_STRING:
	case FASTMIB_STATE_DATE_AND_TIME:
	case FASTMIB_STATE_MAC:
		return "OCTET STRING";
	case FASTMIB_STATE_INET_ADDRESS:
		return part ? "INTEGER" : "OCTET STRING";
	}
	return "INTEGER";
}

/* DateAndTime (RFC 2579) of `ns` since the epoch, in UTC, into dt: its
 * length, 8 octets of zero for 0 (unknown), else 11. */
static size_t
date_and_time(int64_t ns, uint8_t dt[11])
{
	int64_t sec = ns / 1000000000ll, rem = ns % 1000000000ll;
	time_t t;
	struct tm tm;

	if (ns == 0) {
		memset(dt, 0, 8);
		return 8;
	}
	if (rem < 0) {
		sec--;
		rem += 1000000000ll;
	}
	t = (time_t)sec;
	gmtime_r(&t, &tm);
	dt[0] = (uint8_t)((tm.tm_year + 1900) >> 8);
	dt[1] = (uint8_t)(tm.tm_year + 1900);
	dt[2] = (uint8_t)(tm.tm_mon + 1);
	dt[3] = (uint8_t)tm.tm_mday;
	dt[4] = (uint8_t)tm.tm_hour;
	dt[5] = (uint8_t)tm.tm_min;
	dt[6] = (uint8_t)tm.tm_sec;
	dt[7] = (uint8_t)(rem / 100000000);
	dt[8] = '+';
	dt[9] = dt[10] = 0;
	return 11;
}

json_t *
fsw_value(const struct fastmib_state_schema *st, uint32_t part, const uint8_t *p)
{
	char hex[2 * 1026 + 1];
	uint8_t dt[11];
	const uint8_t *o = p;
	size_t n = 0;
	int32_t i32;
	uint32_t u32;
	uint64_t u64;
	int64_t i64;
	uint16_t len;

	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		return json_integer(p[0] ? 1 : 2);
	case FASTMIB_STATE_ENUM:
	case FASTMIB_STATE_INTEGER32:
		memcpy(&i32, p, 4);
		return json_integer(i32);
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		memcpy(&u32, p, 4);
		return json_integer(u32);
	case FASTMIB_STATE_GAUGE64:
		memcpy(&u64, p, 8);
		snprintf(hex, sizeof(hex), "%" PRIu64, u64);
		return json_string(hex);
	case FASTMIB_STATE_TIMESTAMP:
		return json_integer(0);
	case FASTMIB_STATE_DATE_AND_TIME:
		memcpy(&i64, p, 8);
		o = dt;
		n = date_and_time(i64, dt);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		n = strnlen((const char *)p, st->size);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		memcpy(&len, p, 2);
		o = p + 2;
		n = len;
		break;
	case FASTMIB_STATE_IPV4:
		n = 4;
		break;
	case FASTMIB_STATE_INET_ADDRESS:
		if (part)
			return json_integer(p[0]);
		o = p + 1;
		n = p[0] == 1 ? 4 : p[0] == 2 ? 16 : 0;
		break;
	case FASTMIB_STATE_MAC:
		n = 6;
		break;
	}
	for (size_t k = 0; k < n; k++)
		sprintf(hex + 2 * k, "%02x", o[k]);
	hex[2 * n] = '\0';
	return json_string(hex);
}
