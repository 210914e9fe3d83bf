/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry commands of libfastmib, so that DPDK's own tools
 * (dpdk-telemetry.py, any client of the application's telemetry socket)
 * show the counters fastmib-stat shows, from inside the application:
 *
 *   /fastmib/segments                     the segments this process created
 *   /fastmib/group,[SEGMENT,]GROUP[,FROM] one group's counters, histograms
 *                                         and states
 *                                         (telemetry_states.c); for a table,
 *                                         its present rows from FROM on: an
 *                                         index ("2_3"), or for a keyed
 *                                         table a key ("10.0.0.1,7",
 *                                         telemetry_keyed.c)
 *
 * Values are those of the reader API, as SNMP and fastmib-stat report
 * them: one consistent snapshot per scalar group or table row
 * (fastmib_read(): summed over lcores, reset baseline subtracted),
 * Counter32 modulo 2^32, gauges clamped to 0..2^32-1, a peak the maximum
 * over lcores; a histogram {"bounds", "buckets", "count", "sum"} from the
 * same snapshot as the row's counters (its count the sum of its buckets);
 * its states one publication (fastmib_state_read()), read after its
 * counters.
 *
 * The commands are registered once per process, at the first successful
 * fastmib_create(). DPDK 22.11 has no way to unregister one, so they stay
 * and answer about the segments open at the time of the request; for the
 * same reason the shared library is linked -z nodelete (fastpath/
 * CMakeLists.txt): DPDK keeps pointers to these callbacks. With telemetry
 * disabled (--no-telemetry) registration still succeeds and nothing ever
 * calls them.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "fastmib/names.h"
#include "telemetry_answer.h"
#include "writers.h"

/* /fastmib/group without a segment id: the oldest segment with the group. */
#define ANY_SEGMENT UINT_MAX

struct tel_entry {
	struct tel_entry *next;
	struct fastmib_segment *seg;
	unsigned int id;
};

/*
 * The segments this process created and has not closed, oldest first, with
 * ids that are never reused within the process.
 *
 * Locking rule: tel_lock guards the list and keeps every listed segment
 * mapped. A command holds it from the lookup of its segment to its last
 * read; fastmib_close() takes it (fms_telemetry_forget(), before the
 * writers and the mapping go) to take the segment off the list, so a
 * command never reads a segment closed meanwhile. It is a mutex in this
 * process's private memory: no other process can hold it, and it is taken
 * only by the telemetry threads, fastmib_create() and fastmib_close(),
 * never by the update API, so a lcore that counts never waits on it. A
 * close waits at most for one answer being built: the rows that fit in
 * 16 KiB, each read bounded by the handle's read patience (fastmib_read()).
 */
static pthread_mutex_t tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tel_entry *tel_list;
static unsigned int tel_next_id;
static pthread_once_t tel_once = PTHREAD_ONCE_INIT;

/* Bytes left for the answer's dict, from the output limit. */
static size_t
answer_budget(const char *cmd)
{
	/* {"CMD": ... } and the terminating NUL of DPDK's buffer */
	return TEL_MAX_OUTPUT - (fms_telcmd_str_size(cmd) + 3) - TEL_SLACK;
}

/* ---- small helpers ---- */

/* DPDK truncates long strings at their end; a path keeps its end instead,
 * the file name. */
static void
clip_path(char *buf, size_t len, const char *path)
{
	size_t n = strlen(path);

	if (n <= TEL_MAX_STR || len < TEL_MAX_STR + 1)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "...%s", path + n - (TEL_MAX_STR - 3));
}

/* The dict entries every answer about a segment starts with; their size. */
static size_t
add_segment_head(struct rte_tel_data *d, const struct tel_entry *e, struct fastmib_info *info)
{
	const struct fastmib_schema *sc = fastmib_schema(e->seg);
	char path[TEL_MAX_STR + 1];

	fastmib_info(e->seg, info);
	clip_path(path, sizeof(path), e->seg->path);
	rte_tel_data_add_dict_string(d, "path", path);
	rte_tel_data_add_dict_string(d, "module", sc->module);
	rte_tel_data_add_dict_string(d, "prefix", sc->prefix);
	rte_tel_data_add_dict_u64(d, "generation", info->generation);
	return fms_telcmd_entry_size("path", fms_telcmd_str_size(path)) +
	       fms_telcmd_entry_size("module", fms_telcmd_str_size(sc->module)) +
	       fms_telcmd_entry_size("prefix", fms_telcmd_str_size(sc->prefix)) +
	       fms_telcmd_entry_size("generation", fms_telcmd_u64_size(info->generation));
}

/* ---- /fastmib/segments ---- */

/*
 * One segment: its head, schema hash and group names (as many as fit in
 * `*left`; n_groups says how many there are). NULL when not even the head
 * fits.
 */
static struct rte_tel_data *
describe_segment(const struct tel_entry *e, size_t *left)
{
	const struct fastmib_schema *sc = fastmib_schema(e->seg);
	struct rte_tel_data *s = fms_telcmd_dict(), *groups = fms_telcmd_str_array();
	struct fastmib_info info;
	char hash[24];
	size_t need;

	if (s == NULL || groups == NULL)
		goto fail;
	need = 2 + add_segment_head(s, e, &info);
	snprintf(hash, sizeof(hash), "0x%016" PRIx64, info.schema_hash);
	need += fms_telcmd_entry_size("schema_hash", fms_telcmd_str_size(hash)) +
	       fms_telcmd_entry_size("n_groups", fms_telcmd_u64_size(sc->n_groups)) +
	       fms_telcmd_entry_size("groups", 2);
	if (!fms_telcmd_fits(left, need))
		goto fail;
	rte_tel_data_add_dict_string(s, "schema_hash", hash);
	rte_tel_data_add_dict_u64(s, "n_groups", sc->n_groups);
	for (uint32_t i = 0; i < sc->n_groups && i < RTE_TEL_MAX_ARRAY_ENTRIES; i++) {
		size_t n = fms_telcmd_str_size(sc->groups[i].name) + 1;

		if (!fms_telcmd_fits(left, n))
			break;
		rte_tel_data_add_array_string(groups, sc->groups[i].name);
	}
	rte_tel_data_add_dict_container(s, "groups", groups, 0);
	return s;
fail:
	rte_tel_data_free(groups);
	rte_tel_data_free(s);
	return NULL;
}

static int
cmd_segments(const char *cmd, const char *params, struct rte_tel_data *d)
{
	/* with room for "more", should a segment not fit */
	size_t left = answer_budget(cmd) -
		      fms_telcmd_entry_size("more", fms_telcmd_u64_size(UINT_MAX));
	unsigned int more = 0, shown = 0;

	if (params != NULL && *params)
		return fms_telcmd_error(d, "%s takes no parameters", cmd);
	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&tel_lock);
	for (const struct tel_entry *e = tel_list; e; e = e->next) {
		char key[16];
		struct rte_tel_data *s;

		snprintf(key, sizeof(key), "%u", e->id);
		/* once one is left out, so are the later ones: ids stay in order */
		if (more || shown == RTE_TEL_MAX_DICT_ENTRIES - 1 ||
		    !fms_telcmd_fits(&left, fms_telcmd_entry_size(key, 0)) ||
		    (s = describe_segment(e, &left)) == NULL) {
			more++;
			continue;
		}
		rte_tel_data_add_dict_container(d, key, s, 0);
		shown++;
	}
	pthread_mutex_unlock(&tel_lock);
	if (more)
		rte_tel_data_add_dict_u64(d, "more", more);
	return 0;
}

/* ---- /fastmib/group ---- */

/* The segment of id `id` (or, for ANY_SEGMENT, the oldest one that has
 * group `name`), and that group (-1: none); the caller holds tel_lock. */
static const struct tel_entry *
find_target(unsigned int id, const char *name, int *group)
{
	for (const struct tel_entry *e = tel_list; e; e = e->next) {
		if (id != ANY_SEGMENT && e->id != id)
			continue;
		*group = fastmib_group_by_name(fastmib_schema(e->seg), name);
		if (*group >= 0 || id != ANY_SEGMENT)
			return e;
	}
	return NULL;
}

/* The dict key of a row: its SNMP indexes joined with '_' (telemetry names
 * allow letters, digits, '_' and '/' only). */
static void
row_key(const struct fastmib_group_schema *g, uint32_t row, char *buf, size_t len)
{
	uint32_t idx[FASTMIB_MAX_INDEXES];
	size_t n = 0;

	fastmib_index_of_row(g, row, idx);
	buf[0] = '\0';
	for (uint32_t k = 0; k < g->n_indexes && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, k ? "_%" PRIu32 : "%" PRIu32, idx[k]);
}

/* Is counter c of the kind `hists` lists? Histograms are many numbers:
 * their own dict; every other counter (peaks too) is a number. */
static bool
listed(const struct fastmib_counter_schema *c, bool hists)
{
	return (c->type == FASTMIB_HISTOGRAM) == hists;
}

/* The MIB names of the group's counters (`hists`: its histograms), or
 * (`states`) of its states. */
static int
names_init(struct fms_telcmd_names *gn, const struct fastmib_schema *sc,
	   const struct fastmib_group_schema *g, bool states, bool hists)
{
	uint32_t n = states ? g->n_states : g->n_counters;

	gn->n = 0;
	gn->name = calloc(n ? n : 1, sizeof(*gn->name));
	gn->size = calloc(n ? n : 1, sizeof(*gn->size));
	gn->of = calloc(n ? n : 1, sizeof(*gn->of));
	if (gn->name == NULL || gn->size == NULL || gn->of == NULL)
		return -ENOMEM;
	for (uint32_t c = 0; c < n; c++) {
		if (!states && !listed(&g->counters[c], hists))
			continue;
		fms_telcmd_name(gn->name[gn->n], FASTMIB_MIB_COUNTER, sc->prefix, g->name,
				states ? g->states[c].name : g->counters[c].name);
		gn->size[gn->n] = fms_telcmd_entry_size(gn->name[gn->n], 0);
		gn->of[gn->n++] = c;
	}
	return 0;
}

static int
group_names_init(struct fms_telcmd_cols *cols, const struct fastmib_schema *sc,
		 const struct fastmib_group_schema *g)
{
	int rc = names_init(&cols->counters, sc, g, false, false);

	if (rc == 0)
		rc = names_init(&cols->hists, sc, g, false, true);
	return rc < 0 ? rc : names_init(&cols->states, sc, g, true, false);
}

static void
group_names_free(struct fms_telcmd_cols *cols)
{
	free(cols->counters.name);
	free(cols->counters.size);
	free(cols->counters.of);
	free(cols->hists.name);
	free(cols->hists.size);
	free(cols->hists.of);
	free(cols->states.name);
	free(cols->states.size);
	free(cols->states.of);
}

/* Entries a table answer ends with, at their largest. */
static size_t
table_tail_size(void)
{
	char key[FASTMIB_MAX_INDEXES * 9 + 1];

	memset(key, '9', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	return fms_telcmd_entry_size("rows_shown", fms_telcmd_u64_size(UINT32_MAX)) +
	       fms_telcmd_entry_size("next", fms_telcmd_str_size(key)) +
	       fms_telcmd_entry_size("cut", 1) +
	       fms_telcmd_entry_size("best_effort", fms_telcmd_u64_size(UINT32_MAX));
}

/* The rows of table `gi` from `from` on, as many as fit; each row's
 * states in `states` (state_size bytes) while it is read. */
static int
answer_table(struct rte_tel_data *d, const struct tel_entry *e, unsigned int gi,
	     const struct fms_telcmd_cols *cols, uint32_t from, uint8_t *states, size_t left)
{
	const struct fastmib_schema *sc = fastmib_schema(e->seg);
	const struct fastmib_group_schema *g = &sc->groups[gi];
	struct rte_tel_data *rows = fms_telcmd_dict(), *idx = fms_telcmd_str_array();
	uint64_t raw[FASTMIB_MAX_ROW_WORDS], bad[FASTMIB_STATE_MASK_WORDS];
	uint64_t now_ns = fastmib_monotonic_ns();
	uint32_t shown = 0, best_effort = 0;
	char key[FASTMIB_MAX_INDEXES * 11 + 1], name[TEL_NAME_LEN];
	bool cut = false;
	size_t idx_size = 2;
	int64_t r;

	if (rows == NULL || idx == NULL) {
		rte_tel_data_free(rows);
		rte_tel_data_free(idx);
		return fms_telcmd_error(d, "out of memory");
	}
	for (uint32_t k = 0; k < g->n_indexes; k++) {
		fms_telcmd_name(name, FASTMIB_MIB_INDEX, sc->prefix, g->name, g->indexes[k].name);
		rte_tel_data_add_array_string(idx, name);
		idx_size += fms_telcmd_str_size(name) + 1;
	}
	rte_tel_data_add_dict_container(d, "indexes", idx, 0);
	rte_tel_data_add_dict_u64(d, "rows_max", g->n_rows);
	rte_tel_data_add_dict_u64(d, "rows_present", fms_telcmd_present_rows(e->seg, gi));
	left -= fms_telcmd_entry_size("indexes", idx_size) +
		fms_telcmd_entry_size("rows_max", fms_telcmd_u64_size(g->n_rows)) +
		fms_telcmd_entry_size("rows_present", fms_telcmd_u64_size(g->n_rows)) +
		fms_telcmd_entry_size("rows", 2) + table_tail_size();
	for (r = fastmib_next_row(e->seg, gi, from); r >= 0 && r < g->n_rows;
	     r = fastmib_next_row(e->seg, gi, (uint32_t)r + 1)) {
		struct rte_tel_data *row;
		size_t row_left;
		int rc = fms_telcmd_read_row(e->seg, gi, (uint32_t)r, NULL, 0, raw, states, bad);

		if (rc == -ENOENT) /* disabled between fastmib_next_row() and the read */
			continue;
		if (rc < 0 && rc != -EBUSY) {
			rte_tel_data_free(rows);
			return fms_telcmd_error(d, "%s", fastmib_last_error());
		}
		row_key(g, (uint32_t)r, key, sizeof(key));
		row_left = left;
		if (shown == RTE_TEL_MAX_DICT_ENTRIES ||
		    !fms_telcmd_fits(&row_left, fms_telcmd_entry_size(key, 0)) ||
		    (row = fms_telcmd_row(g, cols, NULL, raw, states, bad, now_ns,
					  &row_left)) == NULL) {
			cut = true;
			break;
		}
		left = row_left;
		rte_tel_data_add_dict_container(rows, key, row, 0);
		shown++;
		best_effort += rc == -EBUSY;
	}
	rte_tel_data_add_dict_container(d, "rows", rows, 0);
	rte_tel_data_add_dict_u64(d, "rows_shown", shown);
	rte_tel_data_add_dict_int(d, "cut", cut);
	if (cut)
		rte_tel_data_add_dict_string(d, "next", key);
	rte_tel_data_add_dict_u64(d, "best_effort", best_effort);
	return 0;
}

/* A scalar group: its counters, then its states in what is left (each
 * list cut when it does not fit whole); its states in `states` while it
 * is read. */
static int
answer_scalar(struct rte_tel_data *d, const struct tel_entry *e, unsigned int gi,
	      const struct fms_telcmd_cols *cols, uint8_t *states, size_t left)
{
	const struct fastmib_group_schema *g = &fastmib_schema(e->seg)->groups[gi];
	uint64_t raw[FASTMIB_MAX_ROW_WORDS], bad[FASTMIB_STATE_MASK_WORDS];
	struct rte_tel_data *t, *st = NULL, *h = NULL;
	bool cut = false;
	int rc = fms_telcmd_read_row(e->seg, gi, 0, NULL, 0, raw, states, bad);

	if (rc < 0 && rc != -EBUSY)
		return fms_telcmd_error(d, "%s", fastmib_last_error());
	left -= fms_telcmd_entry_size("counters", 0) + fms_telcmd_entry_size("cut", 1) +
		fms_telcmd_entry_size("best_effort", 1) +
		(cols->hists.n ? fms_telcmd_entry_size("histograms", 0) : 0) +
		(g->n_states ? fms_telcmd_entry_size("states", 0) : 0);
	/* counters, histograms and states all of the one read above */
	t = fms_telcmd_counters(g, &cols->counters, raw, &left, true, &cut);
	if (t != NULL && cols->hists.n &&
	    (h = fms_telcmd_hists(g, &cols->hists, raw, &left, true, &cut)) == NULL) {
		rte_tel_data_free(t);
		t = NULL;
	}
	if (t != NULL && g->n_states &&
	    (st = fms_telcmd_states(g, &cols->states, states, bad, fastmib_monotonic_ns(), &left,
				    true, &cut)) == NULL) {
		rte_tel_data_free(t);
		t = NULL;
	}
	if (t == NULL) {
		rte_tel_data_free(h);
		return fms_telcmd_error(d, "out of memory");
	}
	rte_tel_data_add_dict_container(d, "counters", t, 0);
	if (h)
		rte_tel_data_add_dict_container(d, "histograms", h, 0);
	if (st)
		rte_tel_data_add_dict_container(d, "states", st, 0);
	rte_tel_data_add_dict_int(d, "cut", cut);
	rte_tel_data_add_dict_u64(d, "best_effort", rc == -EBUSY);
	return 0;
}

#define GROUP_USAGE "/fastmib/group,[SEGMENT,]GROUP[,FROM]"

/* What /fastmib/group asks for. */
struct group_query {
	unsigned int id;   /* the segment's, or ANY_SEGMENT */
	const char *group;
	const char *from;  /* the first row, as written; NULL: the table's first */
};

/*
 * Split the parameters [SEGMENT,]GROUP[,FROM], copied into buf[0..len), into
 * `q`. Returns true, or false when `d` holds the error answer.
 */
static bool
parse_group_params(const char *params, char *buf, size_t len, struct group_query *q,
		   struct rte_tel_data *d)
{
	char *group, *comma;

	q->id = ANY_SEGMENT;
	q->from = NULL;
	if (params == NULL || *params == '\0') {
		fms_telcmd_error(d, "which group? " GROUP_USAGE);
		return false;
	}
	if (strlen(params) >= len) {
		fms_telcmd_error(d, "parameters too long: " GROUP_USAGE);
		return false;
	}
	snprintf(buf, len, "%s", params);
	group = buf;
	/* Group names start with a letter: a number first is a segment id. */
	if (*group >= '0' && *group <= '9') {
		unsigned long v;
		char *end;

		if ((comma = strchr(group, ',')) != NULL)
			*comma = '\0';
		v = strtoul(group, &end, 10);
		if (*end || v >= ANY_SEGMENT) {
			fms_telcmd_error(d, "bad segment id '%s' (see /fastmib/segments)", group);
			return false;
		}
		q->id = (unsigned int)v;
		group = comma ? comma + 1 : group + strlen(group);
	}
	/* FROM is the rest, commas and all: a keyed table's key has them */
	if ((comma = strchr(group, ',')) != NULL) {
		*comma = '\0';
		q->from = comma + 1;
	}
	if (*group == '\0') {
		fms_telcmd_error(d, "which group? " GROUP_USAGE);
		return false;
	}
	q->group = group;
	return true;
}

/*
 * The segment `q` names and, in *gi, its group; or NULL when `d` holds the
 * error answer. The caller holds tel_lock.
 */
static const struct tel_entry *
query_target(struct rte_tel_data *d, const struct group_query *q, int *gi)
{
	const struct tel_entry *e;

	if (tel_list == NULL) {
		fms_telcmd_error(d, "this process has no fastmib segment open");
		return NULL;
	}
	e = find_target(q->id, q->group, gi);
	if (e == NULL && q->id != ANY_SEGMENT) {
		fms_telcmd_error(d, "no segment %u in this process (see /fastmib/segments)", q->id);
		return NULL;
	}
	if (e == NULL || *gi < 0) {
		fms_telcmd_error(d, "no group '%s' in %s (see /fastmib/segments)", q->group,
				 e ? fastmib_schema(e->seg)->module :
				     "any segment of this process");
		return NULL;
	}
	return e;
}

/*
 * FROM checked against group `g`: for a table of integer indexes, *row is
 * the row it names (0 without FROM); a keyed table's key is read with its
 * rows (fms_telcmd_keyed_rows()). Returns true, or false when `d` holds
 * the error answer.
 */
static bool
from_row(struct rte_tel_data *d, const struct fastmib_group_schema *g, const char *from,
	 uint32_t *row)
{
	int64_t r;

	*row = 0;
	if (from == NULL)
		return true;
	if (g->n_indexes == 0) {
		fms_telcmd_error(d, "%s is a scalar group: it has no rows", g->name);
		return false;
	}
	if (fastmib_group_keyed(g))
		return true;
	if (strchr(from, ',') != NULL) {
		fms_telcmd_error(d, "too many parameters: " GROUP_USAGE);
		return false;
	}
	r = fastmib_row_of_text(g, from);
	if (r < 0) {
		fms_telcmd_error(d, "bad row '%s': %s takes %u index value(s) from 1, "
				 "joined by '_'", from, g->name, g->n_indexes);
		return false;
	}
	*row = (uint32_t)r;
	return true;
}

/* The entries every /fastmib/group answer starts with: the segment's id and
 * head, the group's name, MIB name and storage (none in a group of states
 * only); their size. */
static size_t
add_group_head(struct rte_tel_data *d, const struct tel_entry *e,
	       const struct fastmib_group_schema *g)
{
	const struct fastmib_schema *sc = fastmib_schema(e->seg);
	const char *storage = fastmib_storage_word(g->storage);
	char mib[TEL_NAME_LEN];
	struct fastmib_info info;
	size_t size;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "segment", e->id);
	size = 2 + fms_telcmd_entry_size("segment", fms_telcmd_u64_size(e->id)) +
	       add_segment_head(d, e, &info);
	fastmib_name(mib, sizeof(mib), g->n_indexes ? FASTMIB_MIB_TABLE : FASTMIB_MIB_SCALAR_NODE,
		     sc->prefix, g->name, NULL);
	rte_tel_data_add_dict_string(d, "group", g->name);
	rte_tel_data_add_dict_string(d, "mib", mib);
	size += fms_telcmd_entry_size("group", fms_telcmd_str_size(g->name)) +
		fms_telcmd_entry_size("mib", fms_telcmd_str_size(mib));
	if (storage == NULL) /* a group of states only */
		return size;
	rte_tel_data_add_dict_string(d, "storage", storage);
	return size + fms_telcmd_entry_size("storage", fms_telcmd_str_size(storage));
}

/* The answer to query `q` in `left` bytes: the group's head, then its
 * counters or rows. Returns 0; the caller holds tel_lock. */
static int
answer_group(struct rte_tel_data *d, const struct group_query *q, size_t left)
{
	struct fms_telcmd_cols cols = { 0 };
	const struct fastmib_group_schema *g;
	const struct tel_entry *e;
	uint8_t *states = NULL;
	uint32_t row;
	int gi = -1, rc;

	if ((e = query_target(d, q, &gi)) == NULL)
		return 0;
	g = &fastmib_schema(e->seg)->groups[gi];
	if (!from_row(d, g, q->from, &row))
		return 0;
	/* a row's states: up to 128 strings of a KiB, not for a thread's stack */
	states = malloc(g->state_size ? g->state_size : 1);
	if (states == NULL || group_names_init(&cols, fastmib_schema(e->seg), g) < 0) {
		rc = fms_telcmd_error(d, "out of memory");
		goto out;
	}
	left -= add_group_head(d, e, g);
	if (fastmib_group_keyed(g))
		rc = fms_telcmd_keyed_rows(d, e->seg, (unsigned int)gi, &cols, q->from, states,
					   left);
	else if (g->n_indexes)
		rc = answer_table(d, e, (unsigned int)gi, &cols, row, states, left);
	else
		rc = answer_scalar(d, e, (unsigned int)gi, &cols, states, left);
out:
	group_names_free(&cols);
	free(states);
	return rc;
}

static int
cmd_group(const char *cmd, const char *params, struct rte_tel_data *d)
{
	/* DPDK reads at most 1024 bytes of a command, parameters included */
	char buf[1024];
	struct group_query q;
	int rc;

	if (!parse_group_params(params, buf, sizeof(buf), &q, d))
		return 0;
	pthread_mutex_lock(&tel_lock);
	rc = answer_group(d, &q, answer_budget(cmd));
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

/* ---- registration ---- */

static void
register_commands(void)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help; /* DPDK keeps at most 63 characters */
	} cmds[] = {
		{ "/fastmib/segments", cmd_segments,
		  "fastmib segments of this process. Takes no parameters" },
		{ "/fastmib/group", cmd_group,
		  "Counters and states of a group. Params: [segment,]group[,from]" },
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int rc = rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn, cmds[i].help);

		if (rc < 0)
			FMS_LOG(WARNING, "cannot register telemetry command %s: %s; "
				"fastmib-stat and the agent still read the segments",
				cmds[i].cmd, strerror(-rc));
		else
			FMS_LOG(DEBUG, "telemetry command %s registered", cmds[i].cmd);
	}
}

void
fms_telemetry_add(struct fastmib_segment *seg)
{
	struct tel_entry *e = calloc(1, sizeof(*e)), **tail;

	pthread_once(&tel_once, register_commands);
	if (e == NULL) {
		FMS_LOG(WARNING, "%s: out of memory: not listed in telemetry", seg->path);
		return;
	}
	e->seg = seg;
	pthread_mutex_lock(&tel_lock);
	e->id = tel_next_id++;
	for (tail = &tel_list; *tail; tail = &(*tail)->next)
		;
	*tail = e;
	pthread_mutex_unlock(&tel_lock);
}

void
fms_telemetry_forget(struct fastmib_segment *seg)
{
	struct tel_entry *gone = NULL;

	pthread_mutex_lock(&tel_lock);
	for (struct tel_entry **p = &tel_list; *p; p = &(*p)->next)
		if ((*p)->seg == seg) {
			gone = *p;
			*p = gone->next;
			break;
		}
	pthread_mutex_unlock(&tel_lock);
	free(gone);
}
