/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key number n of a keyed table. In a table of one index the index takes
 * its value from v = n; in a table of several, the first index from
 * v = n div 2 and the others from v = n, so that keys 2j and 2j + 1 share
 * their first index (walks then order them by the later ones). Values of
 * v, per index type:
 *
 *   integer (max)  1 + v mod max
 *   uint32         0xdeadbeef, 0, 0xffffffff, 7 for v = 0..3, then
 *                  v * 2654435761 mod 2^32
 *   ipv4           a4(v) = 10 + 81 (v mod 3) . (v >> 15) & 255 .
 *                  (v >> 7) & 255 . 2 (v & 127) + 1     (v = 0: 10.0.0.1)
 *   inet-address   v even: IPv4 a4(v / 2); v odd: IPv6 2001:db8::/32 with
 *                  octet 8 = 29 u mod 256 and octets 12..15 = u + 1
 *                  (big-endian), u = v div 2           (v = 1: 2001:db8::1)
 *   mac            0a (v odd) or 02 (v even), 00, 5e, then the 24 bits
 *                  of v * 2654435761 mod 2^24
 *   string (size)  v in decimal, then characters of "abc...z-.~" from
 *                  position v mod 29 on, to a length of
 *                  max(digits, 1 + 7 v mod size)
 *
 * So the tunnel table of (peer inet-address, teid uint32) holds
 * 10.0.0.1/0xdeadbeef as key 0 and 2001:db8::1/7 as key 3. Within
 * FMK_MAX_NUMBER every index gives distinct values to distinct v, so two
 * keys are equal only where an integer index has max 1 (the writer
 * refuses such a model's second key).
 */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fm-keys.h"
#include "handle.h"

static uint32_t
u32_of(uint32_t v)
{
	static const uint32_t first[] = { 0xdeadbeefu, 0, 0xffffffffu, 7 };

	return v < 4 ? first[v] : v * 2654435761u;
}

static void
a4_of(uint32_t v, uint8_t *a)
{
	a[0] = (uint8_t)(10 + 81 * (v % 3));
	a[1] = (uint8_t)(v >> 15);
	a[2] = (uint8_t)(v >> 7);
	a[3] = (uint8_t)(2 * (v & 127) + 1);
}

static void
inet_of(uint32_t v, struct fastmib_inet_address *a)
{
	uint32_t u = v / 2;

	memset(a, 0, sizeof(*a));
	if (v % 2 == 0) {
		a->type = 1;
		a4_of(u, a->addr);
		return;
	}
	a->type = 2;
	a->addr[0] = 0x20;
	a->addr[1] = 0x01;
	a->addr[2] = 0x0d;
	a->addr[3] = 0xb8;
	a->addr[8] = (uint8_t)(29 * u);
	for (int b = 0; b < 4; b++)
		a->addr[12 + b] = (uint8_t)((u + 1) >> (8 * (3 - b)));
}

static void
mac_of(uint32_t v, uint8_t *m)
{
	uint32_t x = (v * 2654435761u) & 0xffffffu;

	m[0] = v % 2 ? 0x0a : 0x02;
	m[1] = 0x00;
	m[2] = 0x5e;
	m[3] = (uint8_t)(x >> 16);
	m[4] = (uint8_t)(x >> 8);
	m[5] = (uint8_t)x;
}

static int
string_of(uint32_t v, uint32_t size, char *s)
{
	static const char fill[] = "abcdefghijklmnopqrstuvwxyz-.~";
	int digits = snprintf(s, size + 1, "%u", v);
	uint32_t len = 1 + 7 * v % size;

	if (digits < 0 || (uint32_t)digits > size)
		return -1;
	for (uint32_t i = (uint32_t)digits; i < len; i++)
		s[i] = fill[(v + i - (uint32_t)digits) % (sizeof(fill) - 1)];
	s[len > (uint32_t)digits ? len : (uint32_t)digits] = '\0';
	return 0;
}

int
fmk_key(const struct fastmib_group_schema *gs, uint32_t n, void *key)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], size;
	uint8_t *c = key;

	fastmib_key_layout(gs, offs, &size);
	memset(key, 0, FMK_KEY_BYTES);
	for (uint32_t k = 0; k < gs->n_indexes; k++) {
		const struct fastmib_index_schema *x = &gs->indexes[k];
		uint32_t v = k == 0 && gs->n_indexes > 1 ? n / 2 : n, u;
		uint8_t *m = c + offs[k];

		switch (x->type) {
		case FASTMIB_INDEX_INTEGER:
			u = 1 + v % x->max;
			memcpy(m, &u, 4);
			break;
		case FASTMIB_INDEX_UINT32:
			u = u32_of(v);
			memcpy(m, &u, 4);
			break;
		case FASTMIB_INDEX_IPV4:
			a4_of(v, m);
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			inet_of(v, (struct fastmib_inet_address *)(void *)m);
			break;
		case FASTMIB_INDEX_MAC:
			mac_of(v, m);
			break;
		default:
			if (string_of(v, x->size, (char *)m) != 0) {
				fprintf(stderr, "fm-writer: group %s: key number %u does not "
					"fit index %s (size %u)\n", gs->name, n, x->name,
					x->size);
				return -1;
			}
			break;
		}
	}
	return 0;
}

json_t *
fmk_key_words(const struct fastmib_group_schema *gs, const void *key)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], size;
	const uint8_t *c = key;
	json_t *out = json_array();

	fastmib_key_layout(gs, offs, &size);
	for (uint32_t k = 0; k < gs->n_indexes; k++) {
		const uint8_t *m = c + offs[k];
		char text[INET6_ADDRSTRLEN + FASTMIB_MAX_STRING_INDEX];
		uint32_t u;

		switch (gs->indexes[k].type) {
		case FASTMIB_INDEX_INTEGER:
		case FASTMIB_INDEX_UINT32:
			memcpy(&u, m, 4);
			json_array_append_new(out, json_integer(u));
			continue;
		case FASTMIB_INDEX_IPV4:
			inet_ntop(AF_INET, m, text, sizeof(text));
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			inet_ntop(m[0] == 1 ? AF_INET : AF_INET6, m + 1, text, sizeof(text));
			break;
		case FASTMIB_INDEX_MAC:
			snprintf(text, sizeof(text), "%02x:%02x:%02x:%02x:%02x:%02x", m[0],
				 m[1], m[2], m[3], m[4], m[5]);
			break;
		default:
			snprintf(text, sizeof(text), "%s", (const char *)m);
			break;
		}
		json_array_append_new(out, json_string(text));
	}
	return out;
}

size_t
fmk_index(const struct fastmib_group_schema *gs, const void *key, uint64_t *idx)
{
	uint8_t buf[FASTMIB_MAX_KEY_BYTES];
	int len = fastmib_key_encode(gs, key, buf);

	return len < 0 ? 0 : fastmib_key_to_index(gs, buf, (size_t)len, idx);
}

/* ---- where the segment keeps keys (private layout, for damage tests) ---- */

static json_int_t
file_offset(const struct fastmib_segment *seg, const void *p)
{
	return (json_int_t)((const uint8_t *)p - seg->base);
}

json_t *
fmk_layout(struct fastmib_segment *seg)
{
	json_t *tables = json_object();

	for (uint32_t g = 0; g < seg->schema->n_groups; g++) {
		const struct fms_key_log *log;

		if (!fastmib_group_keyed(&seg->schema->groups[g]))
			continue;
		log = fms_key_log(seg, g);
		json_object_set_new(tables, seg->schema->groups[g].name, json_pack(
			"{s:I, s:I, s:i, s:I}", "head", file_offset(seg, &log->head),
			"entries", file_offset(seg, log->entry), "n_entries", FMS_KEY_LOG,
			"record_size", (json_int_t)seg->lay.groups[g].key_stride));
	}
	return json_pack("{s:{s:I, s:I}, s:o}", "header_keys",
			 "offset", (json_int_t)offsetof(struct fms_header, keys),
			 "size", (json_int_t)sizeof(struct fms_area), "tables", tables);
}

json_t *
fmk_record(struct fastmib_segment *seg, unsigned group, uint32_t row)
{
	const struct fms_key_rec *rec = fms_key_rec(seg, group, row);

	return json_pack("{s:I, s:I, s:I}", "seq", file_offset(seg, &rec->seq),
			 "len", file_offset(seg, &rec->len), "key", file_offset(seg, rec->key));
}
