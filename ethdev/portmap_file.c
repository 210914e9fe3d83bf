/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port map's file: one line per device,
 *
 *   port "SOURCE" "DEVICE" ifIndex=N [mac=XX:XX:XX:XX:XX:XX] [alias="TEXT"]
 *        [linkTraps=enabled|disabled]
 *
 * '#' starts a comment line. A word is bare (no blank, quote or backslash)
 * or quoted whole; a quoted word holds any octet: \\ and \" for the
 * backslash and the quote, \xHH (two hexadecimal digits) for the others
 * outside printable ASCII. Only an alias may hold a NUL octet; a field
 * name is bare and each field given once; ifIndex is decimal without a
 * leading zero; a line ends at its newline (CR LF too). A line that
 * cannot be taken is reported with its file, line and field, and the file
 * is then never overwritten (an operator's edit is not lost to a rewrite).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fastmib/ethdev/reading.h"
#include "portmap_priv.h"

/* The longest word of a line: a path (4096) written with escapes. */
#define WORD_MAX (4 * 4096 + 3)

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The end of a line's text: its newline (a CR before it is part of it),
 * or the end of the text. */
static bool
is_end(const char *s)
{
	return !*s || *s == '\n' || (s[0] == '\r' && s[1] == '\n');
}

/*
 * The next word of *p into out (its length in *len; it may hold NUL
 * octets): a bare word up to a blank, or a quoted one, "..." with escapes,
 * followed by a blank or the end. Returns 1, 0 at the end of the line, -1
 * when malformed (`why` says how).
 */
static int
next_word(const char **p, char *out, size_t size, size_t *len, const char **why)
{
	const char *s = *p;
	size_t o = 0;
	bool quoted;

	while (is_blank(*s))
		s++;
	*p = s;
	if (is_end(s))
		return 0;
	quoted = *s == '"';
	s += quoted;
	for (;;) {
		char c = *s;

		if (quoted ? !c || c == '\n' : is_end(s) || is_blank(c))
			break;
		s++;
		if (c == '"') {
			if (!quoted) {
				*why = "a quote inside a word (a quoted word is quoted whole)";
				return -1;
			}
			quoted = false;
			if (!is_end(s) && !is_blank(*s)) {
				*why = "text after a closing quote";
				return -1;
			}
			break;
		}
		if (c == '\r' || (!quoted && c == '\\')) {
			*why = c == '\r' ? "a carriage return inside the line"
				: "a backslash outside quotes";
			return -1;
		}
		if (quoted && c == '\\') {
			c = *s++;
			if (c == 'x') {
				int hi = fme_hex_value(s[0]), lo = hi < 0 ? -1 : fme_hex_value(s[1]);

				if (lo < 0) {
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

/* "N": decimal digits, no sign, no leading zero, 1..FME_IFINDEX_MAX. */
static bool
parse_ifindex(const char *s, size_t len, uint32_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 10 || s[0] == '0')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > FME_IFINDEX_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* The fields a line may hold, each at most once. */
enum { F_IFINDEX, F_MAC, F_ALIAS, F_LINK_TRAPS, N_FIELDS };
static const char *const field_names[N_FIELDS] = { "ifIndex", "mac", "alias", "linkTraps" };

/*
 * The next KEY=VALUE field of *p into `e` (`seen`: the fields given so
 * far): the key bare, the value a word (next_word()). Returns 1, 0 at the
 * end of the line, -1 with the line's error noted.
 */
static int
next_field(struct fme_portmap *map, unsigned int lineno, const char **p, char *w,
	   struct fme_portmap_entry *e, unsigned int *seen)
{
	const char *s = *p, *key, *why = NULL;
	size_t klen = 0, len;
	int f, rc;

	while (is_blank(*s))
		s++;
	if (is_end(s))
		return 0;
	key = s;
	while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
		s++, klen++;
	if (*s != '=' || klen == 0) {
		fme_portmap_note(map, lineno, "%.*s: not KEY=VALUE", (int)strcspn(key, " \t\r\n"),
				 key);
		return -1;
	}
	for (f = 0; f < N_FIELDS; f++)
		if (strlen(field_names[f]) == klen && !strncmp(key, field_names[f], klen))
			break;
	if (f == N_FIELDS) {
		fme_portmap_note(map, lineno, "%.*s: unknown field (ifIndex, mac, alias and "
				 "linkTraps are known)", (int)(klen > 40 ? 40 : klen), key);
		return -1;
	}
	if (*seen & (1u << f)) {
		fme_portmap_note(map, lineno, "%s: given twice", field_names[f]);
		return -1;
	}
	*seen |= 1u << f;
	s++;
	if (is_end(s) || is_blank(*s)) {
		w[0] = '\0';
		len = 0;
	} else if ((rc = next_word(&s, w, WORD_MAX, &len, &why)) < 0) {
		fme_portmap_note(map, lineno, "%s: %s", field_names[f], why);
		return -1;
	}
	*p = s;
	/* a value is text, but for the alias, which may hold any octet */
	if (f != F_ALIAS && strlen(w) != len) {
		fme_portmap_note(map, lineno, "%s: a NUL octet in the value", field_names[f]);
		return -1;
	}
	switch (f) {
	case F_IFINDEX:
		if (!parse_ifindex(w, len, &e->ifindex)) {
			fme_portmap_note(map, lineno, "ifIndex: not a number in 1..2147483647");
			return -1;
		}
		break;
	case F_MAC:
		if (!fme_mac_of_text(w, len, e->mac)) {
			fme_portmap_note(map, lineno, "mac: not XX:XX:XX:XX:XX:XX");
			return -1;
		}
		e->mac_ok = true;
		break;
	case F_ALIAS:
		if (len > FME_IFALIAS_MAX) {
			fme_portmap_note(map, lineno, "alias: longer than 64 octets");
			return -1;
		}
		memcpy(e->alias, w, len);
		e->alias_len = len;
		break;
	default:
		if (strcmp(w, "enabled") == 0) {
			e->link_traps = FME_LINK_TRAPS_ENABLED;
		} else if (strcmp(w, "disabled") == 0) {
			e->link_traps = FME_LINK_TRAPS_DISABLED;
		} else {
			fme_portmap_note(map, lineno, "linkTraps: enabled or disabled");
			return -1;
		}
		break;
	}
	return 1;
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
	size_t l1, l2;
	char *w = NULL;
	unsigned int seen = 0;
	bool ok = false;
	int rc;

	if (strncmp(p, "port", 4) != 0 || (!is_blank(p[4]) && !is_end(p + 4))) {
		fme_portmap_note(map, lineno, "not a \"port\" line");
		return false;
	}
	p += 4;
	if ((rc = next_word(&p, w1, WORD_MAX, &l1, &why)) != 1 || l1 == 0 || strlen(w1) != l1) {
		fme_portmap_note(map, lineno, "source: %s", rc < 0 ? why : rc == 0 ?
				 "missing" : l1 == 0 ? "empty" : "a NUL octet in the path");
		return false;
	}
	if ((rc = next_word(&p, w2, WORD_MAX, &l2, &why)) != 1 || l2 == 0 ||
	    l2 >= FME_PORT_NAME_MAX || strlen(w2) != l2) {
		fme_portmap_note(map, lineno, "device: %s", rc < 0 ? why : rc == 0 ?
				 "missing" : strlen(w2) != l2 ? "a NUL octet in the name"
				 : "empty, or longer than 63 octets");
		return false;
	}
	memcpy(tmp.name, w2, l2 + 1);
	w = malloc(WORD_MAX);
	if (!w)
		return false;
	while ((rc = next_field(map, lineno, &p, w, &tmp, &seen)) == 1)
		;
	if (rc < 0)
		goto out;
	if (!(seen & (1u << F_IFINDEX)))
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
	ssize_t got;
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
	while ((got = getline(&line, &cap, f)) > 0) {
		const char *p = line;

		lineno++;
		if (strlen(line) != (size_t)got) {
			/* the line's text would end there: what follows unread */
			fme_portmap_note(map, lineno, "a NUL octet in the line (\\x00 in a "
					 "quoted word)");
			map->file_faulty = true;
			continue;
		}
		while (is_blank(*p))
			p++;
		if (*p == '#' || is_end(p))
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
