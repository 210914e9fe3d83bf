/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A segment of the state objects' test model (states_model.h, prefix vw)
 * holding exactly the states given, for the tests of fastmib-stat:
 *
 *   mkstates PATH [--hold] [ARG]...
 *
 *   GROUP          scalar group GROUP is the current row
 *   GROUP.ROW      row ROW (0-based) of table GROUP is, enabled first when
 *                  it is not present
 *   GROUP/KEY      KEY (as fastmib-stat --reset takes it) inserted into
 *                  keyed table GROUP is; prints "GROUP/KEY row N"
 *   -GROUP/KEY     KEY removed
 *   NAME=VALUE     state NAME of the current row set to VALUE
 *                  (fastmib_state_set_one(), which checks it)
 *   !NAME=VALUE    the same value stored into the row's state record
 *                  unchecked, as a hostile hand would (readers must leave
 *                  a value the model does not allow out)
 *   !torn          the row's record left with its sequence odd, as by a
 *                  setter that died inside its section
 *
 * VALUE as the state's type reads: truth-value `true`, `false` or a number;
 * enum a label or a number; integer32 and date-and-time (ns since the
 * epoch) signed decimal; unsigned32, timeticks, gauge64 and timestamp
 * (fastmib_monotonic_ns()) decimal; display-string the characters, `\xHH`
 * for any octet and `\\` for a backslash; octet-string hexadecimal digits;
 * ipv4 dotted; inet-address an IPv4 or IPv6 address, or `unknown`; mac
 * six octets of two hexadecimal digits joined by ':'.
 *
 * Every other state keeps its default and every counter reads 0. Without
 * --hold it exits once done (the segment keeps the states, its writer
 * gone); with --hold it takes lines of ARGs (tu_hold()): a writer running,
 * whose states change on demand. A bad ARG on the command line exits 2.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/fastmib.h"
#include "handle.h"
#include "states_model.h"
#include "tutil.h"

struct writer {
	struct fastmib_segment *seg;
	int group;    /* of the current row, -1 before the first */
	uint32_t row;
};

static int
fail(const char *arg, const char *why)
{
	fprintf(stderr, "mkstates: '%s': %s\n", arg, why);
	return -EINVAL;
}

/* A signed or unsigned decimal number, all of `s`. */
static bool
number(const char *s, bool is_signed, int64_t *v)
{
	char *end;

	errno = 0;
	*v = is_signed ? (int64_t)strtoll(s, &end, 10) : (int64_t)strtoull(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && (is_signed || s[0] != '-');
}

static int
hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The octet of two hexadecimal digits at s, or -1. */
static int
hex_octet(const char *s)
{
	int hi = hex_digit(s[0]), lo = hi < 0 ? -1 : hex_digit(s[1]);

	return lo < 0 ? -1 : hi << 4 | lo;
}

/* `\xHH` and `\\` decoded into out[0..size); the octets' count, or -1. */
static int
unescape(const char *s, uint8_t *out, size_t size)
{
	size_t n = 0;

	for (; *s; s++) {
		int x = s[0] == '\\' && s[1] == 'x' ? hex_octet(s + 2) : -1;

		if (n == size)
			return -1;
		if (*s != '\\') {
			out[n++] = (uint8_t)*s;
		} else if (s[1] == '\\') {
			out[n++] = '\\';
			s++;
		} else if (x >= 0) {
			out[n++] = (uint8_t)x;
			s += 3;
		} else {
			return -1;
		}
	}
	return (int)n;
}

/* VALUE of state `st` into its C form `out` (zeroed here), whether the
 * model allows it or not. 0, or -EINVAL for a text of another type. */
static int
value_of(const struct fastmib_state_schema *st, const char *text, uint8_t *out)
{
	struct fastmib_inet_address ia = { 0 };
	int64_t v = 0;
	int32_t i32;
	uint32_t u32;
	uint16_t len;
	unsigned int m[6];
	int n;

	memset(out, 0, fastmib_state_value_size(st, NULL));
	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0)
			v = text[0] == 't';
		else if (!number(text, false, &v) || v > 255)
			return -EINVAL;
		out[0] = (uint8_t)v;
		return 0;
	case FASTMIB_STATE_ENUM:
		for (uint32_t i = 0; i < st->n_values; i++)
			if (strcmp(text, st->values[i].label) == 0)
				v = st->values[i].value;
		if (v == 0 && !number(text, true, &v))
			return -EINVAL;
		i32 = (int32_t)v;
		memcpy(out, &i32, 4);
		return 0;
	case FASTMIB_STATE_INTEGER32:
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		if (!number(text, st->type == FASTMIB_STATE_INTEGER32, &v))
			return -EINVAL;
		i32 = (int32_t)v;
		u32 = (uint32_t)v;
		memcpy(out, st->type == FASTMIB_STATE_INTEGER32 ? (void *)&i32 : (void *)&u32, 4);
		return 0;
	case FASTMIB_STATE_GAUGE64:
	case FASTMIB_STATE_TIMESTAMP:
	case FASTMIB_STATE_DATE_AND_TIME:
		if (!number(text, st->type == FASTMIB_STATE_DATE_AND_TIME, &v))
			return -EINVAL;
		memcpy(out, &v, 8);
		return 0;
	case FASTMIB_STATE_DISPLAY_STRING:
		/* room for the NUL: a longer text is refused by the setter */
		return unescape(text, out, st->size) < 0 ? -EINVAL : 0;
	case FASTMIB_STATE_OCTET_STRING:
		n = (int)strlen(text);
		if (n % 2 || n / 2 > (int)st->size)
			return -EINVAL;
		for (int i = 0; i < n / 2; i++) {
			int x = hex_octet(text + 2 * i);

			if (x < 0)
				return -EINVAL;
			out[2 + i] = (uint8_t)x;
		}
		len = (uint16_t)(n / 2);
		memcpy(out, &len, 2);
		return 0;
	case FASTMIB_STATE_IPV4:
		return inet_pton(AF_INET, text, out) == 1 ? 0 : -EINVAL;
	case FASTMIB_STATE_INET_ADDRESS:
		if (inet_pton(AF_INET, text, ia.addr) == 1)
			ia.type = 1;
		else if (inet_pton(AF_INET6, text, ia.addr) == 1)
			ia.type = 2;
		else if (strcmp(text, "unknown") != 0)
			return -EINVAL;
		memcpy(out, &ia, sizeof(ia));
		return 0;
	case FASTMIB_STATE_MAC:
		if (sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x%n", &m[0], &m[1], &m[2], &m[3], &m[4],
			   &m[5], &n) != 6 || text[n] != '\0')
			return -EINVAL;
		for (int i = 0; i < 6; i++)
			out[i] = (uint8_t)m[i];
		return 0;
	}
	return -EINVAL;
}

/* NAME=VALUE, checked or (`hostile`) stored as it is. */
static int
set_state(struct writer *w, const char *arg, bool hostile)
{
	const struct fastmib_group_schema *g;
	const char *eq = strchr(arg, '=');
	uint8_t value[FASTMIB_MAX_OCTET_STRING + 8];
	struct fms_state_rec *rec;

	if (w->group < 0 || eq == NULL)
		return fail(arg, "no current row, or not NAME=VALUE");
	g = &fastmib_schema(w->seg)->groups[w->group];
	for (uint32_t i = 0; i < g->n_states; i++) {
		const struct fastmib_state_schema *st = &g->states[i];

		if (strlen(st->name) != (size_t)(eq - arg) ||
		    strncmp(st->name, arg, (size_t)(eq - arg)) != 0)
			continue;
		if (value_of(st, eq + 1, value) < 0)
			return fail(arg, "not a value of the state's type");
		if (!hostile) {
			if (fastmib_state_set_one(w->seg, (unsigned)w->group, w->row, i, value) == 0)
				return 0;
			return fail(arg, fastmib_last_error());
		}
		rec = fms_state_rec(w->seg, (unsigned)w->group, w->row);
		memcpy(rec->data + st->offset, value, fastmib_state_value_size(st, NULL));
		return 0;
	}
	return fail(arg, "no such state in the current row's group");
}

/* GROUP, GROUP.ROW, GROUP/KEY, -GROUP/KEY: the current row. */
static int
row_arg(struct writer *w, const char *arg)
{
	const struct fastmib_schema *sc = fastmib_schema(w->seg);
	bool remove = arg[0] == '-';
	const char *name = arg + remove, *sep = name + strcspn(name, "./");
	uint8_t order[FASTMIB_MAX_KEY_BYTES], ckey[FASTMIB_MAX_KEY_BYTES + 64];
	char group[FASTMIB_MAX_NAME + 1];
	const struct fastmib_group_schema *g;
	int64_t v;
	int n;

	snprintf(group, sizeof(group), "%.*s", (int)(sep - name), name);
	if ((w->group = fastmib_group_by_name(sc, group)) < 0)
		return fail(arg, "no such group");
	g = &sc->groups[w->group];
	w->row = 0;
	if (*sep == '\0')
		return g->n_indexes == 0 ? 0 : fail(arg, "not a scalar group");
	if (*sep == '.') {
		if (!number(sep + 1, false, &v) || v >= g->n_rows || fastmib_group_keyed(g))
			return fail(arg, "no such row");
		w->row = (uint32_t)v;
		if (fastmib_row_present(w->seg, (unsigned)w->group, w->row) ||
		    fastmib_row_enable(w->seg, (unsigned)w->group, w->row) == 0)
			return 0;
		return fail(arg, fastmib_last_error());
	}
	if ((n = fastmib_key_of_text(g, sep + 1, order)) < 0)
		return fail(arg, fastmib_last_error());
	fastmib_key_decode(g, order, (size_t)n, ckey);
	if (remove) {
		int rc = fastmib_key_remove(w->seg, (unsigned)w->group, ckey);

		w->group = -1;
		return rc == 0 ? 0 : fail(arg, fastmib_last_error());
	}
	if (fastmib_key_insert(w->seg, (unsigned)w->group, ckey, &w->row) != 0)
		return fail(arg, fastmib_last_error());
	printf("%s row %" PRIu32 "\n", arg, w->row);
	return 0;
}

static int
apply(struct writer *w, const char *arg)
{
	if (strcmp(arg, "!torn") == 0) {
		if (w->group < 0)
			return fail(arg, "no current row");
		fms_state_rec(w->seg, (unsigned)w->group, w->row)->lock.count.sn |= 1;
		return 0;
	}
	if (arg[0] == '!')
		return set_state(w, arg + 1, true);
	if (strchr(arg, '='))
		return set_state(w, arg, false);
	return row_arg(w, arg);
}

/* ARGs words[0..n), in turn: 0, or < 0 at the first that fails. */
static int
apply_all(void *ctx, char **words, int n)
{
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++)
		rc = apply(ctx, words[i]);
	return rc;
}

int
main(int argc, char **argv)
{
	struct writer w = { .group = -1 };
	bool hold = argc > 2 && strcmp(argv[2], "--hold") == 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkstates PATH [--hold] [ARG]...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (fastmib_create(sm_schema(), argv[1], NULL, &w.seg) != 0) {
		fprintf(stderr, "mkstates: %s\n", fastmib_last_error());
		return 1;
	}
	if (apply_all(&w, argv + (hold ? 3 : 2), argc - (hold ? 3 : 2)) < 0)
		return 2;
	if (hold)
		tu_hold(apply_all, &w);
	fastmib_close(w.seg);
	rte_eal_cleanup();
	return 0;
}
