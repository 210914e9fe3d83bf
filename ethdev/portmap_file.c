/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port map's file: one line per device,
 *
 *   port "SOURCE" "DEVICE" ifIndex=N [mac=XX:XX:XX:XX:XX:XX] [alias="TEXT"]
 *        [linkTraps=enabled|disabled]
 *
 * '#' starts a comment line. A quoted word holds any octet: \\ and \" for
 * the backslash and the quote, \xHH for the others outside printable
 * ASCII. A line that cannot be taken is reported with its file, line and
 * field, and the file is then never overwritten (an operator's edit is not
 * lost to a rewrite).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "portmap_priv.h"

/* The longest word of a line: a path (4096) written with escapes. */
#define WORD_MAX (4 * 4096 + 3)

/*
 * The next word of *p into out (its length in *len): a bare word up to a
 * space, or a quoted one with escapes; "key=" followed by a quoted value
 * counts as one word. Returns 1, 0 at the end of the line, -1 when
 * malformed (`why` says how).
 */
static int
next_word(const char **p, char *out, size_t size, size_t *len, const char **why)
{
	const char *s = *p;
	size_t o = 0;
	bool quoted = false;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n' || *s == '\r') {
		*p = s;
		return 0;
	}
	while (*s && *s != '\n' && *s != '\r' && (quoted || (*s != ' ' && *s != '\t'))) {
		char c = *s++;

		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (quoted && c == '\\') {
			unsigned int hi, lo;

			c = *s++;
			if (c == 'x') {
				if (sscanf(s, "%1x%1x", &hi, &lo) != 2) {
					*why = "a \\x escape needs two hexadecimal digits";
					return -1;
				}
				c = (char)(hi << 4 | lo);
				s += 2;
			} else if (c != '\\' && c != '"') {
				*why = "unknown escape (\\\\, \\\" and \\xHH are known)";
				return -1;
			}
		}
		if (o + 1 >= size) {
			*why = "word too long";
			return -1;
		}
		out[o++] = c;
	}
	if (quoted) {
		*why = "quote not closed";
		return -1;
	}
	out[o] = '\0';
	*len = o;
	*p = s;
	return 1;
}

static bool
parse_mac_text(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &end) != 6)
		return false;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return true;
}

/* One KEY=VALUE field of a line into `e` (ifIndex noted in *have_ifindex):
 * false, with the line's error noted, when it is not one the file knows. */
static bool
parse_field(struct fme_portmap *map, unsigned int lineno, char *w, size_t len,
	    struct fme_portmap_entry *e, bool *have_ifindex)
{
	char *eq = memchr(w, '=', len);
	const char *key = w, *val = eq ? eq + 1 : "";
	size_t vlen = eq ? len - (size_t)(eq + 1 - w) : 0;

	if (!eq) {
		fme_portmap_note(map, lineno, "%.40s: not KEY=VALUE", w);
		return false;
	}
	*eq = '\0';
	if (strcmp(key, "ifIndex") == 0) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(val, &end, 10);
		if (errno || end == val || *end || val[0] == '-' || v < 1 ||
		    v > FME_IFINDEX_MAX) {
			fme_portmap_note(map, lineno, "ifIndex: not a number in "
					     "1..2147483647");
			return false;
		}
		e->ifindex = (uint32_t)v;
		*have_ifindex = true;
	} else if (strcmp(key, "mac") == 0) {
		if (!parse_mac_text(val, e->mac)) {
			fme_portmap_note(map, lineno, "mac: not XX:XX:XX:XX:XX:XX");
			return false;
		}
		e->mac_ok = true;
	} else if (strcmp(key, "alias") == 0) {
		if (vlen > FME_IFALIAS_MAX) {
			fme_portmap_note(map, lineno, "alias: longer than 64 octets");
			return false;
		}
		memcpy(e->alias, val, vlen);
		e->alias_len = vlen;
	} else if (strcmp(key, "linkTraps") == 0) {
		if (strcmp(val, "enabled") == 0)
			e->link_traps = FME_LINK_TRAPS_ENABLED;
		else if (strcmp(val, "disabled") == 0)
			e->link_traps = FME_LINK_TRAPS_DISABLED;
		else {
			fme_portmap_note(map, lineno, "linkTraps: enabled or disabled");
			return false;
		}
	} else {
		fme_portmap_note(map, lineno, "%.40s: unknown field (ifIndex, mac, "
				     "alias and linkTraps are known)", key);
		return false;
	}
	return true;
}

/* Does entry `e` of source `source` (line `lineno`) clash with an earlier
 * line: its ifIndex or its device taken? Noted if so. */
static bool
clashes(struct fme_portmap *map, unsigned int lineno, const char *source,
	const struct fme_portmap_entry *e)
{
	for (unsigned int i = 0; i < map->n; i++) {
		const struct fme_portmap_entry *o = map->e[i];

		if (o->ifindex == e->ifindex) {
			fme_portmap_note(map, lineno, "ifIndex: %u is already line %u's",
					     e->ifindex, o->line);
			return true;
		}
		if (strcmp(o->name, e->name) == 0 && strcmp(o->source, source) == 0) {
			fme_portmap_note(map, lineno, "device: already on line %u", o->line);
			return true;
		}
	}
	return false;
}

/* One "port ..." line into the map; false after noting what is wrong. */
static bool
parse_line(struct fme_portmap *map, const char *line, unsigned int lineno, char *w1,
	   char *w2)
{
	const char *p = line, *why = NULL;
	struct fme_portmap_entry tmp = { .link_traps = FME_LINK_TRAPS_ENABLED }, *e;
	size_t l1, l2, len;
	char *w = NULL;
	bool have_ifindex = false, ok = false;
	int rc;

	if (next_word(&p, w1, WORD_MAX, &l1, &why) != 1 || strcmp(w1, "port") != 0) {
		fme_portmap_note(map, lineno, "not a \"port\" line");
		return false;
	}
	if ((rc = next_word(&p, w1, WORD_MAX, &l1, &why)) != 1 || l1 == 0 || strlen(w1) != l1) {
		fme_portmap_note(map, lineno, "source: %s", rc < 0 ? why : "missing");
		return false;
	}
	if ((rc = next_word(&p, w2, WORD_MAX, &l2, &why)) != 1 || l2 == 0 ||
	    l2 >= FME_PORT_NAME_MAX || strlen(w2) != l2) {
		fme_portmap_note(map, lineno, "device: %s", rc < 0 ? why : rc == 0 ?
				     "missing" : "empty, or longer than 63 octets");
		return false;
	}
	memcpy(tmp.name, w2, l2 + 1);
	w = malloc(WORD_MAX);
	if (!w)
		return false;
	while ((rc = next_word(&p, w, WORD_MAX, &len, &why)) == 1)
		if (!parse_field(map, lineno, w, len, &tmp, &have_ifindex))
			goto out;
	if (rc < 0)
		fme_portmap_note(map, lineno, "%s", why);
	else if (!have_ifindex)
		fme_portmap_note(map, lineno, "ifIndex: missing");
	else if (!clashes(map, lineno, w1, &tmp) && (e = fme_portmap_add(map, w1))) {
		tmp.source = e->source;
		tmp.line = lineno;
		*e = tmp;
		free(map->used); /* made again at the next new device */
		map->used = NULL;
		ok = true;
	}
out:
	free(w);
	return ok;
}

int
fme_portmap_load(struct fme_portmap *map, const char *dir)
{
	char *line = NULL, *w1 = NULL, *w2 = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	FILE *f;
	int rc = 0;

	if (!dir)
		return 0;
	map->path = malloc(strlen(dir) + sizeof(FME_PORTMAP_FILE) + 2);
	if (!map->path)
		return -ENOMEM;
	sprintf(map->path, "%s/%s", dir, FME_PORTMAP_FILE);
	f = fopen(map->path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		rc = -errno;
		map->file_faulty = true;
		fme_portmap_note(map, 0, "%s", strerror(-rc));
		return rc;
	}
	w1 = malloc(WORD_MAX);
	w2 = malloc(WORD_MAX);
	if (!w1 || !w2) {
		rc = -ENOMEM;
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		const char *p = line;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
			continue;
		if (!parse_line(map, p, lineno, w1, w2))
			map->file_faulty = true;
	}
	if (ferror(f)) {
		rc = -EIO;
		map->file_faulty = true;
		fme_portmap_note(map, lineno, "read error");
	} else if (map->file_faulty) {
		rc = -EINVAL;
	}
out:
	free(line);
	free(w1);
	free(w2);
	fclose(f);
	return rc;
}

/* A word quoted for the file: printable ASCII as is, but for the quote
 * and the backslash. */
static void
put_quoted(FILE *f, const uint8_t *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			fprintf(f, "\\%c", s[i]);
		else if (s[i] >= 0x20 && s[i] < 0x7f)
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", s[i]);
	}
	fputc('"', f);
}

int
fme_portmap_save(struct fme_portmap *map)
{
	char *tmp;
	FILE *f;
	int fd, rc = 0;

	if (!map->path)
		return -ENOENT;
	if (map->file_faulty)
		return -EINVAL;
	tmp = malloc(strlen(map->path) + 8);
	if (!tmp)
		return -ENOMEM;
	sprintf(tmp, "%s.new", map->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		fme_portmap_note(map, 0, "cannot write %s: %s", tmp, strerror(-rc));
		free(tmp);
		return rc;
	}
	fprintf(f, "# DPDK ports served by fastmib: the ifIndex, ifAlias and\n"
		"# ifLinkUpDownTrapEnable of each device, by application and device name.\n"
		"# Edit only while the agent is stopped (docs/if-mib.md, \"ifIndex\").\n");
	for (unsigned int i = 0; i < map->n; i++) {
		const struct fme_portmap_entry *e = map->e[i];

		fputs("port ", f);
		put_quoted(f, (const uint8_t *)e->source, strlen(e->source));
		fputc(' ', f);
		put_quoted(f, (const uint8_t *)e->name, strlen(e->name));
		fprintf(f, " ifIndex=%u", e->ifindex);
		if (e->mac_ok)
			fprintf(f, " mac=%02x:%02x:%02x:%02x:%02x:%02x", e->mac[0], e->mac[1],
				e->mac[2], e->mac[3], e->mac[4], e->mac[5]);
		if (e->alias_len) {
			fputs(" alias=", f);
			put_quoted(f, e->alias, e->alias_len);
		}
		if (e->link_traps == FME_LINK_TRAPS_DISABLED)
			fputs(" linkTraps=disabled", f);
		fputc('\n', f);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, map->path) != 0)
		rc = -errno;
	if (rc < 0) {
		unlink(tmp);
		fme_portmap_note(map, 0, "cannot write %s: %s", map->path, strerror(-rc));
	}
	free(tmp);
	return rc;
}
