/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * /fastmib/group of a keyed table: its rows by key, in SNMP order (the
 * order of a walk), as many as one answer holds:
 *
 *   "indexes": the INDEX objects (an inet-address index is two: its Type
 *              object, then the address)
 *   "rows":    {"ROW": {"key": {...}, "counters": {...}, "states": {...}},
 *              ...} in SNMP order, ROW the row the key has ("states" in a
 *              table with states, telemetry_states.c); the key with one entry per
 *              INDEX object: a number for integer and uint32 indexes,
 *              "ipv4"/"ipv6" for an InetAddressType, the text of an
 *              address, a MAC or a string (fastmib_key_field_text())
 *   "next":    when cut, the key of the first row left out, as FROM takes
 *              it (fastmib_key_text()): the next page starts there
 *
 * Rows are named by their row number, not by their key as other tables'
 * rows are by their index: a key's text holds characters DPDK refuses in
 * a name, and its SNMP index can be longer than DPDK keeps a name. DPDK
 * 22.11 renders no array of containers inside an answer: a dict it is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fastmib/names.h"
#include "telemetry_answer.h"

/* The names of a keyed table's index objects: per index its own, and for
 * an inet-address one its Type object's. */
struct key_names {
	char name[FASTMIB_MAX_INDEXES][TEL_NAME_LEN];
	char type[FASTMIB_MAX_INDEXES][TEL_NAME_LEN];
};

static void
key_names_init(struct key_names *kn, const char *prefix, const struct fastmib_group_schema *g)
{
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		fms_telcmd_name(kn->name[k], FASTMIB_MIB_INDEX, prefix, g->name,
				g->indexes[k].name);
		fms_telcmd_name(kn->type[k], FASTMIB_MIB_INDEX_TYPE, prefix, g->name,
				g->indexes[k].name);
	}
}

/* "indexes": the INDEX clause's objects, in its order. */
static size_t
add_index_names(struct rte_tel_data *d, const struct key_names *kn,
		const struct fastmib_group_schema *g)
{
	struct rte_tel_data *a = fms_telcmd_str_array();
	size_t size = 2;

	if (a == NULL)
		return 0;
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		if (g->indexes[k].type == FASTMIB_INDEX_INET_ADDRESS) {
			rte_tel_data_add_array_string(a, kn->type[k]);
			size += fms_telcmd_str_size(kn->type[k]) + 1;
		}
		rte_tel_data_add_array_string(a, kn->name[k]);
		size += fms_telcmd_str_size(kn->name[k]) + 1;
	}
	rte_tel_data_add_dict_container(d, "indexes", a, 0);
	return fms_telcmd_entry_size("indexes", size);
}

/* The key dict of order key key[0..len), or NULL when it does not fit in
 * `*left` (nothing taken then) or memory runs out. */
static struct rte_tel_data *
key_dict(const struct fastmib_group_schema *g, const struct key_names *kn, const uint8_t *key,
	 size_t len, size_t *left)
{
	char text[FASTMIB_MAX_INDEXES][FASTMIB_MAX_KEY_FIELD_TEXT];
	struct fastmib_key_field f[FASTMIB_MAX_INDEXES];
	struct rte_tel_data *t;
	size_t need = 2;

	for (uint32_t k = 0; k < g->n_indexes; k++) {
		if (fastmib_key_field(g, key, len, k, &f[k]) < 0)
			return NULL;
		fastmib_key_field_text(&f[k], text[k], sizeof(text[k]));
		if (f[k].octets == NULL) { /* integer, uint32 */
			need += fms_telcmd_entry_size(kn->name[k],
						      fms_telcmd_u64_size(f[k].number));
			continue;
		}
		if (f[k].type == FASTMIB_INDEX_INET_ADDRESS)
			need += fms_telcmd_entry_size(kn->type[k], fms_telcmd_str_size(
					fastmib_inet_type_word(f[k].number)));
		need += fms_telcmd_entry_size(kn->name[k], fms_telcmd_str_size(text[k]));
	}
	if (need > *left || (t = fms_telcmd_dict()) == NULL)
		return NULL;
	*left -= need;
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		if (f[k].octets == NULL) {
			rte_tel_data_add_dict_u64(t, kn->name[k], f[k].number);
			continue;
		}
		if (f[k].type == FASTMIB_INDEX_INET_ADDRESS)
			rte_tel_data_add_dict_string(t, kn->type[k],
						     fastmib_inet_type_word(f[k].number));
		rte_tel_data_add_dict_string(t, kn->name[k], text[k]);
	}
	return t;
}

/* One row: {"key": {...}, "counters": {...}, "states": {...}}
 * (fms_telcmd_row()), or NULL when it does not fit in `*left` (nothing
 * taken then). */
static struct rte_tel_data *
row_dict(const struct fastmib_group_schema *g, const struct key_names *kn,
	 const struct fms_telcmd_cols *cols, const uint8_t *key, size_t len, const uint64_t *raw,
	 const uint8_t *states, const uint64_t *bad, uint64_t now_ns, size_t *left)
{
	size_t room = *left;
	struct rte_tel_data *k = key_dict(g, kn, key, len, &room), *row;

	if (k == NULL || (row = fms_telcmd_row(g, cols, k, raw, states, bad, now_ns,
					       &room)) == NULL)
		return NULL;
	*left = room;
	return row;
}

int
fms_telcmd_keyed_rows(struct rte_tel_data *d, struct fastmib_segment *seg, unsigned int gi,
		      const struct fms_telcmd_cols *cols, const char *from, uint8_t *states,
		      size_t left)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	const struct fastmib_group_schema *g = &sc->groups[gi];
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS], raw[FASTMIB_MAX_ROW_WORDS];
	uint64_t bad[FASTMIB_STATE_MASK_WORDS], now_ns = fastmib_monotonic_ns();
	char next[FASTMIB_MAX_KEY_TEXT];
	struct key_names kn;
	struct rte_tel_data *rows;
	uint32_t shown = 0, best_effort = 0;
	bool cut = false, inclusive = true;
	size_t n = 0, len;
	int64_t r;
	int rc = 0;

	if (from != NULL) {
		int l = fastmib_key_of_text(g, from, key);

		if (l < 0)
			return fms_telcmd_error(d, "%s", fastmib_last_error());
		n = fastmib_key_to_index(g, key, (size_t)l, idx);
	}
	if ((rows = fms_telcmd_dict()) == NULL)
		return fms_telcmd_error(d, "out of memory");
	key_names_init(&kn, sc->prefix, g);
	left -= add_index_names(d, &kn, g);
	rte_tel_data_add_dict_u64(d, "rows_max", g->n_rows);
	rte_tel_data_add_dict_u64(d, "rows_present", fms_telcmd_present_rows(seg, gi));
	/* and the tail, at its largest: "next" a string DPDK keeps whole */
	left -= fms_telcmd_entry_size("rows_max", fms_telcmd_u64_size(g->n_rows)) +
		fms_telcmd_entry_size("rows_present", fms_telcmd_u64_size(g->n_rows)) +
		fms_telcmd_entry_size("rows", 2) +
		fms_telcmd_entry_size("rows_shown", fms_telcmd_u64_size(UINT32_MAX)) +
		fms_telcmd_entry_size("next", 2 + 2 * TEL_MAX_STR) +
		fms_telcmd_entry_size("cut", 1) +
		fms_telcmd_entry_size("best_effort", fms_telcmd_u64_size(UINT32_MAX));
	/* from one key to the next in SNMP order: each lookup O(log n) */
	for (; (r = fastmib_keyed_next(seg, gi, idx, n, inclusive, key, &len)) >= 0;
	     inclusive = false, n = fastmib_key_to_index(g, key, len, idx)) {
		struct rte_tel_data *row;
		size_t row_left = left;
		char name[16];

		rc = fms_telcmd_read_row(seg, gi, (uint32_t)r, key, len, raw, states, bad);
		if (rc == -ENOENT) /* removed, or its row given to another key */
			continue;
		if (rc < 0 && rc != -EBUSY)
			break;
		snprintf(name, sizeof(name), "%" PRIu32, (uint32_t)r);
		if (shown == RTE_TEL_MAX_DICT_ENTRIES ||
		    !fms_telcmd_fits(&row_left, fms_telcmd_entry_size(name, 0)) ||
		    (row = row_dict(g, &kn, cols, key, len, raw, states, bad, now_ns,
				    &row_left)) == NULL) {
			cut = true;
			break;
		}
		left = row_left;
		rte_tel_data_add_dict_container(rows, name, row, 0);
		shown++;
		best_effort += rc == -EBUSY;
	}
	if ((rc < 0 && rc != -EBUSY && rc != -ENOENT) || (r < 0 && r != -ENOENT)) {
		rte_tel_data_free(rows);
		return fms_telcmd_error(d, "%s", fastmib_last_error());
	}
	rte_tel_data_add_dict_container(d, "rows", rows, 0);
	rte_tel_data_add_dict_u64(d, "rows_shown", shown);
	rte_tel_data_add_dict_int(d, "cut", cut);
	/* a key whose text DPDK would cut (long strings only) cannot be named */
	if (cut && fastmib_key_text(g, key, len, next, sizeof(next)) <= TEL_MAX_STR)
		rte_tel_data_add_dict_string(d, "next", next);
	rte_tel_data_add_dict_u64(d, "best_effort", best_effort);
	return 0;
}
