/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A segment of the keyed test model (tests/codegen/keyed/keyed.yaml, kt)
 * holding exactly the keys and values given, for the tests of what reads
 * keyed tables (fastmib-stat, the agent behind snmp_exporter):
 *
 *   mkkeyed PATH [--hold] [ARG]...
 *
 *   GROUP/KEY        insert KEY (as fastmib-stat --reset takes it) into
 *                    keyed table GROUP: the current row from now on;
 *                    prints "GROUP/KEY row N"
 *   COUNTER=VALUE    add VALUE to COUNTER of the current row, or for
 *                    GROUP.COUNTER=VALUE of scalar group GROUP, in a
 *                    transaction of its own from the main lcore: a decimal
 *                    uint64, or a negative number for a gauge (added as a
 *                    _sub would)
 *   -GROUP/KEY       remove KEY
 *   !HOW GROUP/KEY   rewrite the key record of KEY's row as a hostile hand
 *                    would: HOW is `len` (longer than any key), `type` (an
 *                    address type never served), `byte` (the key's second
 *                    octet 7: a string's first character outside printable
 *                    ASCII, an address's length), `torn` (a sequence number
 *                    left odd); readers must take the row as absent
 *   !log GROUP       append a change-log entry naming a row past the table
 *   @GROUP=N         insert N keys into keyed table GROUP, key i (from 0)
 *                    of fields made from i by type (uint32 and integers i
 *                    and i % max + 1, ipv4 and inet-address 10.a.b.c, mac
 *                    02:00:00:a:b:c, string "k" i), counter c of its row
 *                    (i + 1) * (c + 1)
 *
 * Without --hold it exits once done: the segment keeps the values (writer
 * gone). With --hold it prints "ready" and then takes lines of standard
 * input, each one ARG or several separated by tabs (applied one right
 * after the other), answering each line with "ok" (or "error") once done,
 * until the input ends: a writer still running, whose rows change on
 * demand.
 * A bad ARG on the command line exits 2 with a message.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/fastmib.h"
#include "handle.h"
#include "tutil.h"

extern const struct fastmib_schema kt_schema;

struct state {
	struct fastmib_segment *seg;
	struct fastmib_writer *w;
	int group;    /* of the current row, -1 before the first key */
	uint32_t row;
};

/* GROUP/KEY: the group and the C key of KEY. */
static int
key_arg(const struct state *st, const char *arg, int *group, uint8_t *ckey)
{
	const struct fastmib_schema *sc = fastmib_schema(st->seg);
	const char *slash = strchr(arg, '/');
	uint8_t order[FASTMIB_MAX_KEY_BYTES];
	char name[FASTMIB_MAX_NAME + 1];
	int n;

	if (slash == NULL || (size_t)(slash - arg) >= sizeof(name))
		return fprintf(stderr, "mkkeyed: '%s': not GROUP/KEY\n", arg), -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(slash - arg), arg);
	*group = fastmib_group_by_name(sc, name);
	if (*group < 0)
		return fprintf(stderr, "mkkeyed: no group '%s'\n", name), -EINVAL;
	n = fastmib_key_of_text(&sc->groups[*group], slash + 1, order);
	if (n < 0)
		return fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error()), n;
	fastmib_key_decode(&sc->groups[*group], order, (size_t)n, ckey);
	return 0;
}

/* Add v to counter c of row `row` of group g in a transaction of its own. */
static void
add_counter(struct state *st, const struct fastmib_group_schema *g, uint32_t row, uint32_t c,
	    uint64_t v)
{
	size_t off = g->offset + (size_t)row * g->row_size + g->counters[c].offset;

	fastmib_begin(st->w);
	if (g->storage == FASTMIB_STORAGE_PER_CORE)
		fastmib_pc_add(st->w, off, v);
	else if (g->storage == FASTMIB_STORAGE_SHARED_BUFFERED)
		fastmib_wb_add(st->w, off, v);
	else
		fastmib_atomic_add(st->w, off, v);
	fastmib_end(st->w);
}

static int
add(struct state *st, const char *arg)
{
	const struct fastmib_schema *sc = fastmib_schema(st->seg);
	const char *eq = strchr(arg, '='), *dot = strchr(arg, '.');
	char name[FASTMIB_MAX_NAME + 1], *end;
	const struct fastmib_group_schema *g;
	uint32_t row = st->row;
	int group = st->group;
	uint64_t v;

	if (dot != NULL && dot < eq) { /* GROUP.COUNTER: a scalar group */
		snprintf(name, sizeof(name), "%.*s", (int)(dot - arg), arg);
		group = fastmib_group_by_name(sc, name);
		row = 0;
		arg = dot + 1;
	}
	if (group < 0 || (sc->groups[group].n_indexes && dot != NULL && dot < eq))
		return fprintf(stderr, "mkkeyed: '%s': no current row or no such scalar "
			       "group\n", arg), -EINVAL;
	g = &sc->groups[group];
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	errno = 0;
	v = eq[1] == '-' ? (uint64_t)strtoll(eq + 1, &end, 10) : strtoull(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end)
		return fprintf(stderr, "mkkeyed: '%s': bad value\n", eq + 1), -EINVAL;
	for (uint32_t c = 0; c < g->n_counters; c++) {
		if (strcmp(g->counters[c].name, name) != 0)
			continue;
		add_counter(st, g, row, c, v);
		fastmib_flush(st->w);
		return 0;
	}
	return fprintf(stderr, "mkkeyed: group %s has no counter '%s'\n", g->name, name),
	       -EINVAL;
}

/* !HOW GROUP/KEY, !log GROUP */
static int
garble(struct state *st, const char *how, const char *target)
{
	const struct fastmib_schema *sc = fastmib_schema(st->seg);
	uint8_t ckey[FASTMIB_MAX_KEY_BYTES + 64];
	struct fms_key_rec *rec;
	uint32_t row;
	int group;

	if (strcmp(how, "log") == 0) {
		struct fms_key_log *log;

		group = fastmib_group_by_name(sc, target);
		if (group < 0 || !fastmib_group_keyed(&sc->groups[group]))
			return fprintf(stderr, "mkkeyed: no keyed table '%s'\n", target), -EINVAL;
		log = fms_key_log(st->seg, (unsigned)group);
		log->entry[log->head % FMS_KEY_LOG] = 1u << 30;
		__atomic_fetch_add(&log->head, 1, __ATOMIC_RELEASE);
		return 0;
	}
	if (key_arg(st, target, &group, ckey) < 0)
		return -EINVAL;
	if (fastmib_key_find(st->seg, (unsigned)group, ckey, &row) != 0)
		return fprintf(stderr, "mkkeyed: %s: not in the table\n", target), -ENOENT;
	rec = fms_key_rec(st->seg, (unsigned)group, row);
	if (strcmp(how, "len") == 0)
		rec->len = 4000;
	else if (strcmp(how, "type") == 0)
		rec->key[0] = 7;
	else if (strcmp(how, "byte") == 0)
		rec->key[1] = 0x07; /* a string's first octet, an address's length */
	else if (strcmp(how, "torn") == 0)
		__atomic_fetch_add(&rec->seq, 1, __ATOMIC_RELEASE);
	else
		return fprintf(stderr, "mkkeyed: '%s': not len, type, byte, torn or log\n", how),
		       -EINVAL;
	return 0;
}

/* The text of field k of generated key i. */
static void
gen_field(const struct fastmib_index_schema *x, uint32_t i, char *buf, size_t len)
{
	switch (x->type) {
	case FASTMIB_INDEX_INTEGER:
		snprintf(buf, len, "%" PRIu32, i % x->max + 1);
		break;
	case FASTMIB_INDEX_IPV4:
	case FASTMIB_INDEX_INET_ADDRESS:
		snprintf(buf, len, "10.%u.%u.%u", i >> 16 & 255, i >> 8 & 255, i & 255);
		break;
	case FASTMIB_INDEX_MAC:
		snprintf(buf, len, "02:00:00:%02x:%02x:%02x", i >> 16 & 255, i >> 8 & 255,
			 i & 255);
		break;
	case FASTMIB_INDEX_STRING:
		snprintf(buf, len, "k%" PRIu32, i);
		break;
	default:
		snprintf(buf, len, "%" PRIu32, i);
		break;
	}
}

/* @GROUP=N */
static int
fill(struct state *st, const char *arg)
{
	const struct fastmib_schema *sc = fastmib_schema(st->seg);
	const char *eq = strchr(arg, '=');
	char name[FASTMIB_MAX_NAME + 1], text[FASTMIB_MAX_KEY_TEXT], field[80];
	const struct fastmib_group_schema *g;
	uint8_t order[FASTMIB_MAX_KEY_BYTES], ckey[FASTMIB_MAX_KEY_BYTES + 64];
	unsigned long n;
	int group;

	if (eq == NULL || (size_t)(eq - arg) >= sizeof(name))
		return fprintf(stderr, "mkkeyed: '%s': not @GROUP=N\n", arg), -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	group = fastmib_group_by_name(sc, name);
	n = strtoul(eq + 1, NULL, 10);
	if (group < 0 || !fastmib_group_keyed(&sc->groups[group]))
		return fprintf(stderr, "mkkeyed: no keyed table '%s'\n", name), -EINVAL;
	g = &sc->groups[group];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t row;
		int len;

		text[0] = '\0';
		for (uint32_t k = 0; k < g->n_indexes; k++) {
			gen_field(&g->indexes[k], i, field, sizeof(field));
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s",
				 k ? "," : "", field);
		}
		len = fastmib_key_of_text(g, text, order);
		if (len < 0)
			return fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error()), len;
		fastmib_key_decode(g, order, (size_t)len, ckey);
		if (fastmib_key_insert(st->seg, (unsigned)group, ckey, &row) != 0)
			return fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error()), -EINVAL;
		for (uint32_t c = 0; c < g->n_counters; c++)
			add_counter(st, g, row, c, (uint64_t)(i + 1) * (c + 1));
	}
	fastmib_flush(st->w);
	return 0;
}

static int
apply(struct state *st, const char *arg, const char *next)
{
	uint8_t ckey[FASTMIB_MAX_KEY_BYTES + 64];
	int group, rc;
	uint32_t row;

	if (arg[0] == '@')
		return fill(st, arg + 1);
	if (arg[0] == '!')
		return next ? garble(st, arg + 1, next) :
			      (fprintf(stderr, "mkkeyed: %s needs a target\n", arg), -EINVAL);
	if (arg[0] == '-') {
		if (key_arg(st, arg + 1, &group, ckey) < 0)
			return -EINVAL;
		rc = fastmib_key_remove(st->seg, (unsigned)group, ckey);
		if (rc < 0)
			fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error());
		if (st->group == group)
			st->group = -1;
		return rc;
	}
	if (strchr(arg, '/') == NULL || (strchr(arg, '=') && strchr(arg, '=') < strchr(arg, '/')))
		return add(st, arg);
	if (key_arg(st, arg, &group, ckey) < 0)
		return -EINVAL;
	rc = fastmib_key_insert(st->seg, (unsigned)group, ckey, &row);
	if (rc < 0)
		return fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error()), rc;
	st->group = group;
	st->row = row;
	printf("%s row %" PRIu32 "\n", arg, row);
	return 0;
}

/* ARGs words[0..n), in turn: 0, or < 0 at the first that fails. */
static int
apply_all(void *ctx, char **words, int n)
{
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		bool two = words[i][0] == '!';

		rc = apply(ctx, words[i], two && i + 1 < n ? words[i + 1] : NULL);
		i += two;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct state st = { .group = -1 };
	bool hold = argc > 2 && strcmp(argv[2], "--hold") == 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkkeyed PATH [--hold] [ARG]...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (fastmib_create(&kt_schema, argv[1], NULL, &st.seg) != 0 ||
	    !(st.w = fastmib_writer(st.seg))) {
		fprintf(stderr, "mkkeyed: %s\n", fastmib_last_error());
		return 1;
	}
	if (apply_all(&st, argv + (hold ? 3 : 2), argc - (hold ? 3 : 2)) < 0)
		return 2;
	if (hold)
		tu_hold(apply_all, &st);
	fastmib_close(st.seg);
	rte_eal_cleanup();
	return 0;
}
