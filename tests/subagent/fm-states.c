/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fm-states: the states of a test model, for the SNMP system tests.
 *
 * Creates a segment of a model with states (FM_SCHEMA), makes rows
 * present (every row of a dense `rows: present` table, keys 0 .. N-1 of
 * a keyed table, key number n as fm-keys.c makes it), and gives every
 * state of every present row its value of "variant A", driven by the
 * schema alone. Each state has two variants, A and B, that differ in every
 * state whose SNMP value can differ (fm-state-wire.h), so that a read
 * mixing two publications of a row shows. Then writes what SNMP must
 * report to a JSON file:
 *
 *   {"module", "root", "instances": [{"oid", "column", "group", "state",
 *    "row", "type", "syntax", "a", "b", "d"}]}
 *
 * where `column` is the OID of the state's column (a scalar: its object),
 * `syntax` the wire type (INTEGER, Gauge32, Counter64, Timeticks, OCTET
 * STRING, IpAddress), and a, b, d the values as numbers (integers, gauge64
 * as a decimal string) or lower-case hexadecimal octets (strings,
 * addresses) in variant A, B and as the row starts (the model's default).
 * It prints "ready" and takes commands, one per line of standard input,
 * each answered by one JSON line:
 *
 *   set A|B          every state of every row to that variant, each row in
 *                    one publication (fastmib_state_set()): answers []
 *   swap             lcore 1 alternates every row between B and A, whole
 *                    rows, until "join": answers [] at once
 *   swap torn        the same, one state at a time: readers see rows half
 *                    A, half B (the negative control of the test of whole
 *                    rows)
 *   join             the swapping stops: answers {"sets": N}
 *   toggle G S ROW N state S (its position) of row ROW of group G (schema
 *                    positions; ROW as "row" above) set N times, alternating
 *                    its two variants from the one it does not hold:
 *                    answers the variants set, in order, as "a"/"b"
 *   stamp G S ROW    a timestamp state set to fastmib_monotonic_ns() now:
 *                    answers {"ns"}
 *   reinsert G N     key number N of keyed group G removed and inserted
 *                    again (its states start over): answers {"row"}
 *   quit             exit (the segment stays for the agent)
 *
 * Usage: fm-states SEGMENT EXPECT.json [--keys N] [--file-prefix NAME]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "fastmib/fastmib.h"
#include "fastmib/oidmap.h"
#include "fm-keys.h"
#include "fm-state-wire.h"

#ifndef FM_SCHEMA
#define FM_SCHEMA st_schema
#endif
extern const struct fastmib_schema FM_SCHEMA;

#define DEFAULT_KEYS 8

struct run {
	const struct fastmib_schema *sc;
	struct fastmib_segment *seg;
	uint32_t n_keys;
	int swap_stop;
	int swap_torn;
	uint64_t swaps;
};

static bool
row_present(const struct run *rn, uint32_t g, uint32_t row)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];

	if (gs->n_indexes == 0)
		return row == 0;
	if (fastmib_group_keyed(gs))
		return fastmib_row_present(rn->seg, g, row);
	return true; /* dense: every row made present */
}

/* The key number of a keyed row (fm-keys.c), or the row. */
static uint32_t
row_number(const struct run *rn, uint32_t g, uint32_t row)
{
	uint8_t key[FMK_KEY_BYTES];
	uint32_t r;

	if (!fastmib_group_keyed(&rn->sc->groups[g]))
		return row;
	for (uint32_t n = 0; n < rn->n_keys; n++)
		if (fmk_key(&rn->sc->groups[g], n, key) == 0 &&
		    fastmib_key_find(rn->seg, g, key, &r) == 0 && r == row)
			return n;
	return row;
}

/* The row of row number `n` (a keyed row: key number n), UINT32_MAX if none. */
static uint32_t
row_of(const struct run *rn, uint32_t g, uint32_t n)
{
	uint8_t key[FMK_KEY_BYTES];
	uint32_t r;

	if (!fastmib_group_keyed(&rn->sc->groups[g]))
		return n;
	if (fmk_key(&rn->sc->groups[g], n, key) != 0 || fastmib_key_find(rn->seg, g, key, &r) != 0)
		return UINT32_MAX;
	return r;
}

/* Every row to variant `v`: each row in one publication, or (`torn`) one
 * state at a time. */
static int
set_all(struct run *rn, enum fsw_variant v, bool torn)
{
	static uint8_t data[FSW_ROW_BYTES];

	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];

		for (uint32_t row = 0; gs->n_states && row < gs->n_rows; row++) {
			int rc = 0;

			if (!row_present(rn, g, row))
				continue;
			fsw_row(gs, g, row_number(rn, g, row), v, data);
			if (!torn)
				rc = fastmib_state_set(rn->seg, g, row, data);
			for (uint32_t s = 0; torn && rc == 0 && s < gs->n_states; s++)
				rc = fastmib_state_set_one(rn->seg, g, row, s,
							   data + gs->states[s].offset);
			if (rc != 0) {
				fprintf(stderr, "fm-states: %s\n", fastmib_last_error());
				return -1;
			}
		}
	}
	return 0;
}

static char *
oid_text(const struct fastmib_schema *sc, const uint64_t *sfx, size_t n)
{
	char buf[1024];
	size_t at = 0;

	for (uint32_t i = 0; i < sc->oid_len; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%u", i ? "." : "", sc->oid[i]);
	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, ".%" PRIu64, sfx[i]);
	return strdup(buf);
}

/* One instance of state `s` (`part` of an inet-address) of a present row. */
static void
add_instance(struct run *rn, const struct fastmib_oidmap *map, json_t *arr, uint32_t g,
	     uint32_t row, uint32_t s, uint32_t part)
{
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	const struct fastmib_state_schema *st = &gs->states[s];
	struct fastmib_oid_ref ref = { .kind = FASTMIB_OID_STATE, .group = (int)g,
				       .counter = s, .part = part, .row = row };
	uint64_t sfx[FASTMIB_OID_MAX_SUFFIX];
	static uint8_t a[FSW_ROW_BYTES], b[FSW_ROW_BYTES], d[FSW_ROW_BYTES];
	uint32_t num = row_number(rn, g, row);
	size_t klen = 0, n;
	char *oid, *column;

	if (fastmib_group_keyed(gs)) {
		fastmib_row_key(rn->seg, g, row, ref.key, &klen);
		ref.key_len = (uint32_t)klen;
	}
	n = fastmib_oidmap_suffix(map, &ref, sfx);
	oid = oid_text(rn->sc, sfx, n);
	/* the column: Objects.G.S (a scalar), Objects.G.Entry.S (a table) */
	column = oid_text(rn->sc, sfx, gs->n_indexes ? 4 : 3);
	fsw_row(gs, g, num, FSW_A, a);
	fsw_row(gs, g, num, FSW_B, b);
	fsw_row(gs, g, num, FSW_DEFAULT, d);
	json_array_append_new(arr, json_pack(
		"{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:o}", "oid", oid,
		"column", column, "group", gs->name, "state", st->name,
		"row", (json_int_t)num,
		"type", fastmib_state_type_word(st->type), "syntax", fsw_syntax(st, part),
		"a", fsw_value(st, part, a + st->offset),
		"b", fsw_value(st, part, b + st->offset),
		"d", fsw_value(st, part, d + st->offset)));
	free(oid);
	free(column);
}

static int
write_expectations(struct run *rn, const char *path)
{
	struct fastmib_oidmap *map;
	json_t *arr = json_array(), *doc;
	char *root = oid_text(rn->sc, NULL, 0);
	int rc;

	if (fastmib_oidmap_new(rn->sc, &map, NULL, 0) < 0)
		return -1;
	for (uint32_t g = 0; g < rn->sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn->sc->groups[g];

		for (uint32_t row = 0; row < gs->n_rows; row++) {
			if (!gs->n_states || !row_present(rn, g, row))
				continue;
			for (uint32_t s = 0; s < gs->n_states; s++) {
				if (gs->states[s].type == FASTMIB_STATE_INET_ADDRESS)
					add_instance(rn, map, arr, g, row, s, 1);
				add_instance(rn, map, arr, g, row, s, 0);
			}
		}
	}
	fastmib_oidmap_free(map);
	doc = json_pack("{s:s, s:s, s:o}", "module", rn->sc->module, "root", root,
			"instances", arr);
	free(root);
	rc = json_dump_file(doc, path, JSON_INDENT(1));
	json_decref(doc);
	return rc;
}

static int
swapper(void *arg)
{
	struct run *rn = arg;

	for (uint64_t i = 0; !__atomic_load_n(&rn->swap_stop, __ATOMIC_ACQUIRE); i++) {
		if (set_all(rn, (i + 1) % 2 ? FSW_B : FSW_A, rn->swap_torn) != 0)
			return -1;
		__atomic_store_n(&rn->swaps, i + 1, __ATOMIC_RELAXED);
	}
	return 0;
}

/* `toggle G S ROW N`: N sets of one state, each a change. */
static json_t *
toggle(struct run *rn, uint32_t g, uint32_t s, uint32_t number, uint32_t n)
{
	uint32_t row = row_of(rn, g, number);
	const struct fastmib_group_schema *gs = &rn->sc->groups[g];
	const struct fastmib_state_schema *st = &gs->states[s];
	static uint8_t now[FSW_ROW_BYTES], v[2][1032];
	json_t *out = json_array();
	int at;

	fsw_state(st, g, row_number(rn, g, row), FSW_A, v[0]);
	fsw_state(st, g, row_number(rn, g, row), FSW_B, v[1]);
	if (fastmib_state_get(rn->seg, g, row, now) != 0)
		return out;
	at = memcmp(now + st->offset, v[0], fastmib_state_value_size(st, NULL)) == 0;
	for (uint32_t i = 0; i < n; i++, at ^= 1) {
		if (fastmib_state_set_one(rn->seg, g, row, s, v[at]) != 0)
			break;
		json_array_append_new(out, json_string(at ? "b" : "a"));
	}
	return out;
}

/* `reinsert G N`: key number N out of its table and in again. */
static json_t *
reinsert(struct run *rn, uint32_t g, uint32_t n)
{
	uint8_t key[FMK_KEY_BYTES];
	uint32_t row;

	if (fmk_key(&rn->sc->groups[g], n, key) != 0 ||
	    fastmib_key_remove(rn->seg, g, key) != 0 ||
	    fastmib_key_insert(rn->seg, g, key, &row) != 0)
		return json_null();
	return json_pack("{s:I}", "row", (json_int_t)row);
}

static int
command_loop(struct run *rn)
{
	char line[256];
	unsigned lcore = rte_get_next_lcore(rte_lcore_id(), 1, 0);
	bool swapping = false;

	while (fgets(line, sizeof(line), stdin)) {
		uint32_t g, s, row, n;
		json_t *ans = NULL;

		if (strncmp(line, "quit", 4) == 0)
			break;
		if (strncmp(line, "set ", 4) == 0) {
			ans = set_all(rn, line[4] == 'B' ? FSW_B : FSW_A, false) == 0 ? json_array() : json_null();
		} else if (strncmp(line, "swap", 4) == 0 && !swapping) {
			rn->swap_torn = strncmp(line, "swap torn", 9) == 0;
			__atomic_store_n(&rn->swap_stop, 0, __ATOMIC_RELEASE);
			swapping = rte_eal_remote_launch(swapper, rn, lcore) == 0;
			ans = json_array();
		} else if (strncmp(line, "join", 4) == 0) {
			__atomic_store_n(&rn->swap_stop, 1, __ATOMIC_RELEASE);
			if (swapping)
				rte_eal_wait_lcore(lcore);
			swapping = false;
			ans = json_pack("{s:I}", "sets", (json_int_t)rn->swaps);
		} else if (sscanf(line, "toggle %u %u %u %u", &g, &s, &row, &n) == 4 &&
			   g < rn->sc->n_groups && s < rn->sc->groups[g].n_states) {
			ans = toggle(rn, g, s, row, n);
		} else if (sscanf(line, "stamp %u %u %u", &g, &s, &row) == 3 &&
			   g < rn->sc->n_groups && s < rn->sc->groups[g].n_states) {
			uint64_t now = fastmib_monotonic_ns();

			ans = fastmib_state_set_one(rn->seg, g, row_of(rn, g, row), s, &now) == 0
			      ? json_pack("{s:I}", "ns", (json_int_t)now) : json_null();
		} else if (sscanf(line, "reinsert %u %u", &g, &n) == 2 && g < rn->sc->n_groups &&
			   fastmib_group_keyed(&rn->sc->groups[g])) {
			ans = reinsert(rn, g, n);
		} else {
			ans = json_null();
		}
		char *text = json_dumps(ans, JSON_COMPACT);

		printf("%s\n", text);
		fflush(stdout);
		free(text);
		json_decref(ans);
	}
	if (swapping) {
		__atomic_store_n(&rn->swap_stop, 1, __ATOMIC_RELEASE);
		rte_eal_wait_lcore(lcore);
	}
	return 0;
}

static char eal_prefix[64];

static void
remove_runtime_dir(void)
{
	rmdir(rte_eal_get_runtime_dir());
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "keys", required_argument, NULL, 'k' },
		{ "file-prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct run rn = { .sc = &FM_SCHEMA, .n_keys = DEFAULT_KEYS };
	char fp[128];
	char *eal_argv[] = {
		argv[0], "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "-m", "64",
		"-l", "0-1", fp, "--log-level", "lib.eal:error", NULL,
	};
	int c;

	snprintf(eal_prefix, sizeof(eal_prefix), "fms%d", (int)getpid());
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'k')
			rn.n_keys = (uint32_t)strtoul(optarg, NULL, 10);
		else if (c == 'p')
			snprintf(eal_prefix, sizeof(eal_prefix), "%s", optarg);
		else
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: fm-states SEGMENT EXPECT.json [--keys N] "
			"[--file-prefix NAME]\n");
		return 2;
	}
	snprintf(fp, sizeof(fp), "--file-prefix=%s", eal_prefix);
	atexit(remove_runtime_dir);
	if (rte_eal_init((int)(sizeof(eal_argv) / sizeof(eal_argv[0])) - 1, eal_argv) < 0) {
		fprintf(stderr, "fm-states: EAL init failed\n");
		return 1;
	}
	if (fastmib_create(rn.sc, argv[optind], NULL, &rn.seg) < 0) {
		fprintf(stderr, "fm-states: %s\n", fastmib_last_error());
		return 1;
	}
	for (uint32_t g = 0; g < rn.sc->n_groups; g++) {
		const struct fastmib_group_schema *gs = &rn.sc->groups[g];
		uint8_t key[FMK_KEY_BYTES];
		uint32_t row;

		if (gs->n_indexes == 0 || gs->all_rows)
			continue;
		for (uint32_t i = 0; fastmib_group_keyed(gs) && i < rn.n_keys; i++)
			if (fmk_key(gs, i, key) != 0 ||
			    fastmib_key_insert(rn.seg, g, key, &row) != 0)
				return 1;
		for (uint32_t r = 0; !fastmib_group_keyed(gs) && r < gs->n_rows; r++)
			if (fastmib_row_enable(rn.seg, g, r) != 0)
				return 1;
	}
	if (set_all(&rn, FSW_A, false) != 0 || write_expectations(&rn, argv[optind + 1]) != 0)
		return 1;
	printf("ready\n");
	fflush(stdout);
	command_loop(&rn);
	fastmib_close(rn.seg);
	rte_eal_cleanup();
	return 0;
}
