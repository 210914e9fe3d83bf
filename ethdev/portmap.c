/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rules of portmap.h: sources and their labels, ifName, and the one
 * ifIndex rule over the map's entries. The file is portmap_file.c.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portmap_priv.h"

int
fme_port_source_parse(const char *spec, char *path, size_t len, uint32_t *own_base)
{
	const char *comma = strrchr(spec, ',');
	size_t plen = strlen(spec);

	*own_base = 0;
	/* a comma followed by digits only ends the path */
	if (comma && comma[1] && strspn(comma + 1, "0123456789") == strlen(comma + 1)) {
		unsigned long long b;
		char *end;

		errno = 0;
		b = strtoull(comma + 1, &end, 10);
		if (errno || *end || b < 1 || b > FME_IFINDEX_MAX)
			return -EINVAL;
		*own_base = (uint32_t)b;
		plen = (size_t)(comma - spec);
	}
	if (plen == 0)
		return -EINVAL;
	if (plen >= len)
		return -ENAMETOOLONG;
	memcpy(path, spec, plen);
	path[plen] = '\0';
	return 0;
}

/* The label of one path: its last component, or its directory's for a
 * telemetry socket; trailing slashes ignored. */
static void
label_of(const char *path, char *out, size_t size)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (strncmp(path + start, "dpdk_telemetry", 14) == 0 && start > 1) {
		end = start - 1;
		while (end > 1 && path[end - 1] == '/')
			end--;
		start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
	}
	if (end - start >= size)
		end = start + size - 1;
	memcpy(out, path + start, end - start);
	out[end - start] = '\0';
	if (!out[0])
		snprintf(out, size, "dpdk");
}

void
fme_port_labels(const char *const *paths, unsigned int n,
		    char (*labels)[FME_PORT_LABEL_MAX])
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int same = 1;

		/* room for a suffix of up to 5 characters ("-9999") */
		label_of(paths[i], labels[i], FME_PORT_LABEL_MAX - 6);
		for (unsigned int j = 0; j < i; j++) {
			char base[FME_PORT_LABEL_MAX];

			label_of(paths[j], base, FME_PORT_LABEL_MAX - 6);
			same += strcmp(base, labels[i]) == 0;
		}
		if (same > 1) {
			size_t len = strlen(labels[i]);

			snprintf(labels[i] + len, FME_PORT_LABEL_MAX - len, "-%u", same);
		}
	}
}

void
fme_port_ifname(const char *label, const char *name, char *out, size_t size)
{
	if (label)
		snprintf(out, size, "%s/%s", label, name);
	else
		snprintf(out, size, "%s", name);
}

int
fme_portmap_new(struct fme_portmap **mapp)
{
	*mapp = calloc(1, sizeof(**mapp));
	return *mapp ? 0 : -ENOMEM;
}

void
fme_portmap_free(struct fme_portmap *map)
{
	if (!map)
		return;
	for (unsigned int i = 0; i < map->n; i++) {
		free(map->e[i]->source);
		free(map->e[i]);
	}
	free(map->e);
	free(map->used);
	free(map->path);
	free(map->errors);
	free(map);
}

void
fme_portmap_note(struct fme_portmap *map, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	int n;
	char *grown;
	va_list ap;

	if (line)
		n = snprintf(msg, sizeof(msg), "%s:%u: ", map->path ? map->path : "(map)", line);
	else
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	grown = realloc(map->errors, map->errors_len + strlen(msg) + 2);
	if (!grown)
		return;
	map->errors = grown;
	memcpy(map->errors + map->errors_len, msg, strlen(msg));
	map->errors_len += strlen(msg);
	map->errors[map->errors_len++] = '\n';
	map->errors[map->errors_len] = '\0';
}

const char *
fme_portmap_errors(const struct fme_portmap *map)
{
	return map->errors ? map->errors : "";
}

const char *
fme_portmap_path(const struct fme_portmap *map)
{
	return map->path;
}

unsigned int
fme_portmap_count(const struct fme_portmap *map)
{
	return map->n;
}

struct fme_portmap_entry *
fme_portmap_at(struct fme_portmap *map, unsigned int i)
{
	return i < map->n ? map->e[i] : NULL;
}

struct fme_portmap_entry *
fme_portmap_add(struct fme_portmap *map, const char *source)
{
	struct fme_portmap_entry *e;

	if (map->n == map->cap) {
		unsigned int cap = map->cap ? 2 * map->cap : 16;
		struct fme_portmap_entry **grown = realloc(map->e, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		map->e = grown;
		map->cap = cap;
	}
	e = calloc(1, sizeof(*e));
	if (!e || !(e->source = strdup(source))) {
		free(e);
		return NULL;
	}
	e->link_traps = FME_LINK_TRAPS_ENABLED;
	map->e[map->n++] = e;
	return e;
}

/* A new entry's ifIndex into the sorted list (if it is made). */
static void
used_insert(struct fme_portmap *map, uint32_t ifindex)
{
	unsigned int i = map->n - 1; /* the list lacks the newest entry */
	uint32_t *grown;

	if (!map->used)
		return;
	grown = realloc(map->used, map->n * sizeof(*grown));
	if (!grown) {
		free(map->used);
		map->used = NULL;
		return;
	}
	map->used = grown;
	while (i > 0 && map->used[i - 1] > ifindex) {
		map->used[i] = map->used[i - 1];
		i--;
	}
	map->used[i] = ifindex;
}

struct fme_portmap_entry *
fme_portmap_by_ifindex(struct fme_portmap *map, uint32_t ifindex)
{
	for (unsigned int i = 0; i < map->n; i++)
		if (map->e[i]->ifindex == ifindex)
			return map->e[i];
	return NULL;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The first ifIndex >= base held by no entry and not `taken`; 0 if none.
 * The entries' ifIndex values are kept sorted between calls, so that a
 * thousand new devices cost a thousand binary searches, not sorts.
 */
static uint32_t
first_free(struct fme_portmap *map, uint32_t base,
	   bool (*taken)(uint32_t, void *), void *arg)
{
	uint32_t cand = base;
	unsigned int lo = 0, hi = map->n;

	if (!map->used) {
		map->used = malloc((map->n ? map->n : 1) * sizeof(*map->used));
		if (!map->used)
			return 0;
		for (unsigned int i = 0; i < map->n; i++)
			map->used[i] = map->e[i]->ifindex;
		qsort(map->used, map->n, sizeof(*map->used), cmp_u32);
	}
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (map->used[mid] < base)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (;;) {
		while (lo < map->n && map->used[lo] < cand)
			lo++;
		if (!(lo < map->n && map->used[lo] == cand) && (!taken || !taken(cand, arg)))
			return cand;
		if (cand == FME_IFINDEX_MAX)
			return 0;
		cand++;
	}
}

/* A MAC an operator can recognise a device by: set, and not locally
 * administered (virtual devices make theirs up at every start). */
static bool
mac_identifies(const uint8_t *mac)
{
	static const uint8_t zero[6];

	return mac && memcmp(mac, zero, 6) != 0 && !(mac[0] & 0x02) && !(mac[0] & 0x01);
}

bool
fme_port_kernel_ifindex(uint32_t ifindex, void *arg)
{
	char name[IF_NAMESIZE];

	return if_indextoname(ifindex, arg ? arg : name) != NULL;
}

struct fme_portmap_entry *
fme_port_ifindex(struct fme_portmap *map, const char *source, uint32_t base,
		     const char *name, const uint8_t *mac,
		     bool (*taken)(uint32_t, void *), void *arg, bool *created, int *err)
{
	struct fme_portmap_entry *e = NULL;
	uint32_t ifindex;

	*created = false;
	*err = 0;
	for (unsigned int i = 0; i < map->n && !e; i++)
		if (strcmp(map->e[i]->name, name) == 0 && strcmp(map->e[i]->source, source) == 0)
			e = map->e[i];
	/* the device renamed: its burned-in address says which it was */
	for (unsigned int i = 0; i < map->n && !e && mac_identifies(mac); i++) {
		struct fme_portmap_entry *o = map->e[i];

		if (!o->in_use && o->mac_ok && memcmp(o->mac, mac, 6) == 0 &&
		    strcmp(o->source, source) == 0) {
			snprintf(o->name, sizeof(o->name), "%s", name);
			*created = true; /* changed: to be saved */
			e = o;
		}
	}
	if (e) {
		if (mac && (!e->mac_ok || memcmp(e->mac, mac, 6) != 0) && mac_identifies(mac)) {
			memcpy(e->mac, mac, 6);
			e->mac_ok = true;
			*created = true;
		}
		return e;
	}
	ifindex = first_free(map, base ? base : FME_IFINDEX_BASE, taken, arg);
	if (!ifindex) {
		*err = -ENOSPC;
		return NULL;
	}
	e = fme_portmap_add(map, source);
	if (!e) {
		*err = -ENOMEM;
		return NULL;
	}
	snprintf(e->name, sizeof(e->name), "%s", name);
	if (mac_identifies(mac)) {
		memcpy(e->mac, mac, 6);
		e->mac_ok = true;
	}
	e->ifindex = ifindex;
	used_insert(map, ifindex);
	*created = true;
	return e;
}
