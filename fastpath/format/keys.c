/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The keys of keyed tables in their three forms (<fastmib/schema.h>): the
 * C key the application passes, the order key a segment stores, the SNMP
 * index an NMS sees. The one owner of how each index type is laid out,
 * ordered and written as sub-identifiers.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "fms_util.h"
#include "segment_format.h"

/* Octets an index takes in an order key, at most. */
static uint32_t
index_max_bytes(const struct fastmib_index_schema *x)
{
	switch (x->type) {
	case FASTMIB_INDEX_IPV4:
		return 4;
	case FASTMIB_INDEX_INET_ADDRESS:
		return 2 + 16;
	case FASTMIB_INDEX_MAC:
		return 6;
	case FASTMIB_INDEX_STRING:
		return 1 + x->size;
	default:
		return 4;
	}
}

/* The C member of an index: its size and alignment. */
static void
member(const struct fastmib_index_schema *x, uint32_t *size, uint32_t *align)
{
	*align = 1;
	switch (x->type) {
	case FASTMIB_INDEX_IPV4:
		*size = 4;
		break;
	case FASTMIB_INDEX_INET_ADDRESS:
		*size = sizeof(struct fastmib_inet_address);
		break;
	case FASTMIB_INDEX_MAC:
		*size = 6;
		break;
	case FASTMIB_INDEX_STRING:
		*size = x->size + 1;
		break;
	default:
		*size = 4;
		*align = 4;
		break;
	}
}

uint32_t
fastmib_key_max_bytes(const struct fastmib_group_schema *g)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++)
		n += index_max_bytes(&g->indexes[k]);
	return n;
}

uint32_t
fastmib_index_max_subids(const struct fastmib_group_schema *g)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];

		n += x->type == FASTMIB_INDEX_INTEGER || x->type == FASTMIB_INDEX_UINT32
			     ? 1 : index_max_bytes(x);
	}
	return n;
}

void
fastmib_key_layout(const struct fastmib_group_schema *g, uint32_t *offsets, uint32_t *size)
{
	uint32_t at = 0, struct_align = 1;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		uint32_t sz, al;

		member(&g->indexes[k], &sz, &al);
		at = (at + al - 1) / al * al;
		offsets[k] = at;
		at += sz;
		if (al > struct_align)
			struct_align = al;
	}
	*size = (at + struct_align - 1) / struct_align * struct_align;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Address octets of an InetAddressType, 0 for a type we do not serve. */
static uint32_t
inet_len(uint32_t type)
{
	return type == 1 ? 4 : type == 2 ? 16 : 0;
}

int
fastmib_key_encode(const struct fastmib_group_schema *g, const void *key, uint8_t *buf)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], size, n = 0;
	const uint8_t *c = key;

	fastmib_key_layout(g, offs, &size);
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];
		const uint8_t *m = c + offs[k];
		uint32_t v, len;

		switch (x->type) {
		case FASTMIB_INDEX_INTEGER:
		case FASTMIB_INDEX_UINT32:
			memcpy(&v, m, 4);
			if (x->type == FASTMIB_INDEX_INTEGER && (v < 1 || v > x->max))
				return -EINVAL;
			put_be32(buf + n, v);
			n += 4;
			break;
		case FASTMIB_INDEX_IPV4:
			memcpy(buf + n, m, 4);
			n += 4;
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			len = inet_len(m[0]);
			if (len == 0)
				return -EINVAL;
			buf[n++] = m[0];
			buf[n++] = (uint8_t)len;
			memcpy(buf + n, m + 1, len);
			n += len;
			break;
		case FASTMIB_INDEX_MAC:
			memcpy(buf + n, m, 6);
			n += 6;
			break;
		case FASTMIB_INDEX_STRING:
			len = (uint32_t)strnlen((const char *)m, x->size + 1);
			if (len == 0 || len > x->size)
				return -EINVAL;
			for (uint32_t i = 0; i < len; i++)
				if (m[i] < 0x20 || m[i] > 0x7e)
					return -EINVAL; /* DisplayString: printable ASCII */
			buf[n++] = (uint8_t)len;
			memcpy(buf + n, m, len);
			n += len;
			break;
		default:
			return -EINVAL;
		}
	}
	return (int)n;
}

/*
 * Walk order key buf[0..len) index by index, checking it as untrusted
 * input; with `idx`, writes its sub-identifiers there and returns their
 * count; with `offs`, where each index's part starts (offs[n_indexes]:
 * the end); -1 when it is not an order key of the table.
 */
static int
walk(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len, uint64_t *idx,
     size_t *offs)
{
	size_t n = 0, at = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];
		uint32_t v, l;

		if (offs)
			offs[k] = at;

		switch (x->type) {
		case FASTMIB_INDEX_INTEGER:
		case FASTMIB_INDEX_UINT32:
			if (len - at < 4)
				return -1;
			v = get_be32(buf + at);
			if (x->type == FASTMIB_INDEX_INTEGER && (v < 1 || v > x->max))
				return -1;
			if (idx)
				idx[n] = v;
			n++;
			at += 4;
			continue;
		case FASTMIB_INDEX_IPV4:
			l = 4;
			break;
		case FASTMIB_INDEX_MAC:
			l = 6;
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			if (len - at < 2 || inet_len(buf[at]) == 0 || buf[at + 1] != inet_len(buf[at]))
				return -1;
			l = 2u + buf[at + 1];
			break;
		case FASTMIB_INDEX_STRING:
			if (len - at < 1 || buf[at] < 1 || buf[at] > x->size)
				return -1;
			l = 1u + buf[at];
			for (uint32_t i = 1; i < l && at + i < len; i++)
				if (buf[at + i] < 0x20 || buf[at + i] > 0x7e)
					return -1; /* DisplayString: printable ASCII */
			break;
		default:
			return -1;
		}
		if (len - at < l)
			return -1;
		for (uint32_t i = 0; i < l; i++, n++)
			if (idx)
				idx[n] = buf[at + i];
		at += l;
	}
	if (offs)
		offs[g->n_indexes] = at;
	return at == len ? (int)n : -1;
}

bool
fastmib_key_valid(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len)
{
	return len <= FASTMIB_MAX_KEY_BYTES && walk(g, buf, len, NULL, NULL) >= 0;
}

size_t
fastmib_key_to_index(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len,
		     uint64_t *idx)
{
	int n = walk(g, buf, len, idx, NULL);

	return n < 0 ? 0 : (size_t)n;
}

int
fastmib_key_field(const struct fastmib_group_schema *g, const uint8_t *key, size_t len,
		  uint32_t k, struct fastmib_key_field *f)
{
	size_t offs[FASTMIB_MAX_INDEXES + 1];
	const uint8_t *p;

	if (k >= g->n_indexes || len > FASTMIB_MAX_KEY_BYTES || walk(g, key, len, NULL, offs) < 0)
		return fms_error(-EINVAL, "group %s: no index %" PRIu32 " in a key of the table",
				 g->name, k);
	p = key + offs[k];
	memset(f, 0, sizeof(*f));
	f->type = g->indexes[k].type;
	f->part = p;
	f->part_len = (uint32_t)(offs[k + 1] - offs[k]);
	switch (f->type) {
	case FASTMIB_INDEX_INTEGER:
	case FASTMIB_INDEX_UINT32:
		f->number = get_be32(p);
		break;
	case FASTMIB_INDEX_INET_ADDRESS:
		f->number = p[0];
		f->octets = p + 2;
		f->n_octets = p[1];
		break;
	case FASTMIB_INDEX_STRING:
		f->octets = p + 1;
		f->n_octets = p[0];
		break;
	default: /* ipv4, mac: the octets alone */
		f->octets = p;
		f->n_octets = f->part_len;
		break;
	}
	return 0;
}

void
fastmib_key_decode(const struct fastmib_group_schema *g, const uint8_t *buf, size_t len,
		   void *key)
{
	uint32_t offs[FASTMIB_MAX_INDEXES], size;
	uint8_t *c = key;
	size_t at = 0;

	fastmib_key_layout(g, offs, &size);
	memset(key, 0, size);
	for (uint32_t k = 0; k < g->n_indexes && at < len; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];
		uint8_t *m = c + offs[k];
		uint32_t v;

		switch (x->type) {
		case FASTMIB_INDEX_IPV4:
			memcpy(m, buf + at, 4);
			at += 4;
			break;
		case FASTMIB_INDEX_MAC:
			memcpy(m, buf + at, 6);
			at += 6;
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			m[0] = buf[at];
			memcpy(m + 1, buf + at + 2, buf[at + 1]);
			at += 2u + buf[at + 1];
			break;
		case FASTMIB_INDEX_STRING:
			memcpy(m, buf + at + 1, buf[at]);
			at += 1u + buf[at];
			break;
		default:
			v = get_be32(buf + at);
			memcpy(m, &v, 4);
			at += 4;
			break;
		}
	}
}

int
fastmib_key_of_index(const struct fastmib_group_schema *g, const uint64_t *idx, size_t n,
		     uint8_t *buf)
{
	size_t used;
	int len = fastmib_key_of_index_prefix(g, idx, n, buf, &used);

	return len >= 0 && used == n ? len : -1;
}

int
fastmib_key_of_index_prefix(const struct fastmib_group_schema *g, const uint64_t *idx, size_t n,
			    uint8_t *buf, size_t *used)
{
	size_t at = 0, i = 0;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		const struct fastmib_index_schema *x = &g->indexes[k];
		uint64_t l;

		if (i >= n)
			return -1;
		switch (x->type) {
		case FASTMIB_INDEX_INTEGER:
		case FASTMIB_INDEX_UINT32:
			if (idx[i] > UINT32_MAX ||
			    (x->type == FASTMIB_INDEX_INTEGER && (idx[i] < 1 || idx[i] > x->max)))
				return -1;
			put_be32(buf + at, (uint32_t)idx[i++]);
			at += 4;
			continue;
		case FASTMIB_INDEX_IPV4:
			l = 4;
			break;
		case FASTMIB_INDEX_MAC:
			l = 6;
			break;
		case FASTMIB_INDEX_INET_ADDRESS:
			if (n - i < 2 || idx[i] > 2 || inet_len((uint32_t)idx[i]) == 0 ||
			    idx[i + 1] != inet_len((uint32_t)idx[i]))
				return -1;
			l = 2 + idx[i + 1];
			break;
		case FASTMIB_INDEX_STRING:
			if (idx[i] < 1 || idx[i] > x->size)
				return -1;
			l = 1 + idx[i];
			break;
		default:
			return -1;
		}
		if (n - i < l)
			return -1;
		for (uint64_t j = 0; j < l; j++, i++) {
			if (idx[i] > 255)
				return -1;
			buf[at++] = (uint8_t)idx[i];
		}
	}
	if (!fastmib_key_valid(g, buf, at))
		return -1;
	*used = i;
	return (int)at;
}

int
fastmib_key_cmp_index(const struct fastmib_group_schema *g, const uint8_t *a, size_t alen,
		      const uint64_t *idx, size_t n)
{
	uint64_t mine[FASTMIB_MAX_INDEX_SUBIDS];
	size_t m = fastmib_key_to_index(g, a, alen, mine);

	for (size_t i = 0; i < m && i < n; i++)
		if (mine[i] != idx[i])
			return mine[i] < idx[i] ? -1 : 1;
	return (m > n) - (m < n);
}
