/* SPDX-License-Identifier: BSD-3-Clause */
/* --info: the segment header, its model (its states, its events) and the
 * readers' statistics. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "stat.h"

/* UTC to the second: 2026-11-22T06:36:19Z, or "never" for 0. */
static void
format_time(uint64_t ns, char *buf, size_t len)
{
	if (ns == 0)
		snprintf(buf, len, "never");
	else
		fst_format_utc(buf, len, (int64_t)(ns / 1000000000u), 0, 0);
}

/* The writer's status as <prefix>WriterStatus reports it. */
static const char *
status_word(enum fastmib_writer_status st)
{
	switch (st) {
	case FASTMIB_WRITER_RUNNING:
		return "running";
	case FASTMIB_WRITER_STALLED:
		return "stalled";
	default:
		return "gone";
	}
}

/* Every row of every group read once, kept nowhere: the read statistics
 * then say something, at a memory cost independent of the table sizes. */
static int
read_everything(struct fastmib_segment *seg)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	uint64_t v[FASTMIB_MAX_ROW_WORDS];

	for (uint32_t gi = 0; gi < sc->n_groups; gi++) {
		const struct fastmib_group_schema *g = &sc->groups[gi];

		for (int64_t r = fst_next_row(seg, g, gi, 0); r >= 0;
		     r = fst_next_row(seg, g, gi, (uint32_t)r + 1)) {
			int rc = fastmib_read(seg, gi, (uint32_t)r, v);

			if (rc < 0 && rc != -EBUSY && rc != -ENOENT)
				return rc;
		}
	}
	return 0;
}

/* "1.234 s", "15 ms": how long a lcore has been inside its transaction. */
static void
format_span(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000u)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else
		snprintf(buf, len, "%" PRIu64 " ms", ns / 1000000u);
}

/* The slots a thread claimed: owner, whether inside a transaction and for
 * how long, and what the fast path counted against its contract. */
static json_t *
slots_json(struct fastmib_segment *seg, uint32_t n_slots)
{
	json_t *list = json_array();

	for (uint32_t s = 0; s < n_slots; s++) {
		struct fastmib_slot_info si;

		if (fastmib_slot_info(seg, s, &si) < 0 || !si.ready)
			continue;
		json_array_append_new(list, json_pack(
			"{s:I, s:I, s:I, s:I, s:b, s:o, s:o, s:o}", "slot", (json_int_t)s,
			"lcore", (json_int_t)si.lcore, "pid", (json_int_t)si.pid,
			"tid", (json_int_t)si.tid, "in_transaction", (int)si.in_tx,
			"in_transaction_ns", fst_json_u64(si.in_tx_ns),
			"out_of_range", fst_json_u64(si.out_of_range),
			"nested", fst_json_u64(si.nested)));
	}
	return list;
}

static void
print_slots_table(struct fastmib_segment *seg, uint32_t n_slots)
{
	static const char *const heads[] = { "SLOT", "LCORE", "PID", "TID", "TRANSACTION",
					     "OUT-OF-RANGE", "NESTED" };
	struct libscols_table *tb = fst_cols_new_table();
	bool any = false;

	for (unsigned int k = 0; k < 7; k++)
		fst_cols_add_column(tb, heads[k], k != 4);
	for (uint32_t s = 0; s < n_slots; s++) {
		struct fastmib_slot_info si;
		struct libscols_line *ln;
		char cell[64];

		if (fastmib_slot_info(seg, s, &si) < 0 || !si.ready)
			continue;
		any = true;
		ln = fst_cols_new_line(tb);
		for (unsigned int k = 0; k < 4; k++) {
			uint64_t n = k == 0 ? s : k == 1 ? si.lcore : k == 2 ? si.pid : si.tid;

			snprintf(cell, sizeof(cell), "%" PRIu64, n);
			fst_cols_set(ln, k, cell);
		}
		if (si.in_tx) {
			char span[32];

			format_span(si.in_tx_ns, span, sizeof(span));
			snprintf(cell, sizeof(cell), "inside for %s", span);
		} else {
			snprintf(cell, sizeof(cell), "-");
		}
		fst_cols_set(ln, 4, cell);
		snprintf(cell, sizeof(cell), "%" PRIu64, si.out_of_range);
		fst_cols_set(ln, 5, cell);
		snprintf(cell, sizeof(cell), "%" PRIu64, si.nested);
		fst_cols_set(ln, 6, cell);
	}
	if (any)
		fst_cols_print(tb, false, 2);
	else
		scols_unref_table(tb);
}

static const char *
arg_type_name(uint32_t t)
{
	const char *word = fastmib_arg_type_word(t);

	return word ? word : "?";
}

static json_t *
events_info_json(struct fastmib_segment *seg, const struct fastmib_info *info)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	json_t *list = json_array();

	for (uint32_t i = 0; i < sc->n_events; i++) {
		const struct fastmib_event_schema *e = &sc->events[i];
		json_t *args = json_array();

		for (uint32_t k = 0; k < e->n_args; k++)
			json_array_append_new(args, json_pack("{s:s, s:s}", "name", e->args[k],
							      "type", arg_type_name(e->arg_types[k])));
		json_array_append_new(list, json_pack("{s:s, s:I, s:I, s:I, s:b, s:o, s:o, s:o}",
			"name", e->name, "id", (json_int_t)e->arc,
			"level", (json_int_t)e->level, "rate", (json_int_t)e->rate,
			"notify", (int)e->notify,
			"logged", fst_json_u64(fastmib_event_logged(seg, i)),
			"dropped", fst_json_u64(fastmib_event_dropped(seg, i)), "args", args));
	}
	return json_pack("{s:I, s:o, s:o}", "ring_records", (json_int_t)info->event_ring,
			 "tsc_hz", fst_json_u64(info->tsc_hz), "list", list);
}

/* One line per event: id, level, rate, records logged and dropped, arguments. */
static void
print_events_table(struct fastmib_segment *seg)
{
	static const char *const heads[] = { "EVENT", "ID", "LEVEL", "RATE", "LOGGED",
					     "DROPPED", "ARGS" };
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct libscols_table *tb = fst_cols_new_table();

	for (unsigned int k = 0; k < 7; k++)
		fst_cols_add_column(tb, heads[k], k > 0 && k < 6);
	for (uint32_t i = 0; i < sc->n_events; i++) {
		const struct fastmib_event_schema *e = &sc->events[i];
		struct libscols_line *ln = fst_cols_new_line(tb);
		char cell[FASTMIB_MAX_EVENT_ARGS * (FASTMIB_MAX_NAME + 8) + 1] = "";
		const uint64_t nums[] = { e->arc, e->level, e->rate, fastmib_event_logged(seg, i),
					  fastmib_event_dropped(seg, i) };

		fst_cols_set(ln, 0, e->name);
		for (unsigned int k = 0; k < 5; k++) {
			snprintf(cell, sizeof(cell), "%" PRIu64, nums[k]);
			fst_cols_set(ln, 1 + k, cell);
		}
		cell[0] = '\0';
		for (uint32_t k = 0; k < e->n_args; k++)
			snprintf(cell + strlen(cell), sizeof(cell) - strlen(cell), "%s%s:%s",
				 k ? " " : "", e->args[k], arg_type_name(e->arg_types[k]));
		fst_cols_set(ln, 6, cell);
	}
	fst_cols_print(tb, false, 2);
}

static const char *
state_type_name(uint32_t t)
{
	const char *word = fastmib_state_type_word(t);

	return word ? word : "?";
}

/* A state as --info --json lists it: names, type, arcs, notify, units, and
 * what limits its values (an enum's labels, a range, a string's size). */
static json_t *
state_info_json(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
		const struct fastmib_state_schema *st)
{
	char mib[NAME_BUF];
	json_t *o;

	fastmib_name(mib, sizeof(mib), FASTMIB_MIB_COUNTER, sc->prefix, g->name, st->name);
	o = json_pack("{s:s, s:s, s:s, s:I, s:b, s:s}", "name", st->name, "mib", mib,
		      "type", state_type_name(st->type), "arc", (json_int_t)st->arc,
		      "notify", (int)st->notify, "units", st->units);
	if (st->type == FASTMIB_STATE_INET_ADDRESS) /* its InetAddress after its type */
		json_object_set_new(o, "address_arc", json_integer(st->arc + 1));
	if (st->size)
		json_object_set_new(o, "size", json_integer(st->size));
	if (st->has_range)
		json_object_set_new(o, "range", json_pack("[I, I]", (json_int_t)st->lo,
							 (json_int_t)st->hi));
	if (st->n_values) {
		json_t *values = json_object();

		for (uint32_t k = 0; k < st->n_values; k++)
			json_object_set_new(values, st->values[k].label,
					    json_integer(st->values[k].value));
		json_object_set_new(o, "values", values);
	}
	return o;
}

/* {"GROUP": [state, ...], ...}: the groups with states. */
static json_t *
states_info_json(const struct fastmib_schema *sc)
{
	json_t *groups = json_object();

	for (uint32_t gi = 0; gi < sc->n_groups; gi++) {
		const struct fastmib_group_schema *g = &sc->groups[gi];
		json_t *list;

		if (g->n_states == 0)
			continue;
		list = json_array();
		for (uint32_t k = 0; k < g->n_states; k++)
			json_array_append_new(list, state_info_json(sc, g, &g->states[k]));
		json_object_set_new(groups, g->name, list);
	}
	return groups;
}

/* One line per state: its group, name, type, arc (an inet-address's two:
 * its type's and its address's), notify, units. */
static void
print_states_table(const struct fastmib_schema *sc)
{
	static const char *const heads[] = { "GROUP", "STATE", "TYPE", "ARC", "NOTIFY",
					     "UNITS" };
	struct libscols_table *tb = fst_cols_new_table();
	uint32_t n = 0, groups = 0;

	for (unsigned int k = 0; k < 6; k++)
		fst_cols_add_column(tb, heads[k], k == 3);
	for (uint32_t gi = 0; gi < sc->n_groups; gi++) {
		const struct fastmib_group_schema *g = &sc->groups[gi];

		groups += g->n_states > 0;
		for (uint32_t k = 0; k < g->n_states; k++) {
			const struct fastmib_state_schema *st = &g->states[k];
			struct libscols_line *ln = fst_cols_new_line(tb);
			char arc[24];

			if (st->type == FASTMIB_STATE_INET_ADDRESS)
				snprintf(arc, sizeof(arc), "%" PRIu32 ",%" PRIu32, st->arc,
					 st->arc + 1);
			else
				snprintf(arc, sizeof(arc), "%" PRIu32, st->arc);
			fst_cols_set(ln, 0, g->name);
			fst_cols_set(ln, 1, st->name);
			fst_cols_set(ln, 2, state_type_name(st->type));
			fst_cols_set(ln, 3, arc);
			fst_cols_set(ln, 4, st->notify ? "yes" : "no");
			fst_cols_set(ln, 5, st->units);
			n++;
		}
	}
	printf("states       %" PRIu32 " in %" PRIu32 " group(s)\n", n, groups);
	fst_cols_print(tb, false, 2);
}

int
fst_do_info(struct fastmib_segment *seg, const char *path, bool json)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	struct fastmib_read_stats rs;
	enum fastmib_writer_status status;
	char created[64], reset[64], oid[FASTMIB_MAX_OID_LEN * 11 + 1] = "";
	uint32_t tables = 0, stalled_slot = 0;
	int rc;

	/* One full pass so that the read statistics say something. */
	rc = read_everything(seg);
	if (rc < 0)
		return rc;
	fastmib_info(seg, &info);
	status = fastmib_writer_status(seg, &stalled_slot);
	fastmib_read_stats(seg, &rs);
	format_time(info.created_ns, created, sizeof(created));
	format_time(fastmib_discontinuity(seg, -1, 0), reset, sizeof(reset));
	for (uint32_t i = 0; i < sc->oid_len; i++)
		snprintf(oid + strlen(oid), sizeof(oid) - strlen(oid), "%s%" PRIu32,
			 i ? "." : "", sc->oid[i]);
	for (uint32_t i = 0; i < sc->n_groups; i++)
		tables += sc->groups[i].n_indexes > 0;

	const char *state = info.retired ? "retired" :
			    fastmib_stale(seg) ? "replaced" : "current";

	if (json) {
		char hash[19];
		json_t *o;

		snprintf(hash, sizeof(hash), "0x%016" PRIx64, info.schema_hash);
		o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:s, s:o, s:s, s:I, s:s, "
			       "s:I, s:o, s:I, s:I, s:s, s:s, s:{s:o, s:o, s:o}}",
			       "segment", path, "module", sc->module,
			       "prefix", sc->prefix, "oid", oid,
			       "format", (json_int_t)info.format,
			       "generation", fst_json_u64(info.generation),
			       "schema_hash", hash,
			       "created_ns", fst_json_u64(info.created_ns),
			       "created", created,
			       "writer_pid", (json_int_t)info.writer_pid,
			       "writer", status_word(status),
			       "lcore_slots", (json_int_t)info.n_slots,
			       "file_size", fst_json_u64(info.file_size),
			       "groups", (json_int_t)sc->n_groups,
			       "tables", (json_int_t)tables,
			       "state", state, "last_reset", reset,
			       "read_stats", "reads", fst_json_u64(rs.reads),
			       "retries", fst_json_u64(rs.retries),
			       "bounded", fst_json_u64(rs.bounded));
		if (o == NULL)
			return -ENOMEM;
		json_object_set_new(o, "best_effort_reads",
				    fst_json_u64(fastmib_best_effort_reads(seg)));
		json_object_set_new(o, "out_of_range_updates",
				    fst_json_u64(fastmib_out_of_range_updates(seg)));
		if (status == FASTMIB_WRITER_STALLED)
			json_object_set_new(o, "stalled_slot", json_integer(stalled_slot));
		json_object_set_new(o, "slots", slots_json(seg, info.n_slots));
		if (fst_model_has_states(sc))
			json_object_set_new(o, "states", states_info_json(sc));
		if (sc->n_events)
			json_object_set_new(o, "events", events_info_json(seg, &info));
		return fst_print_json(o, false);
	}
	printf("segment      %s\n", path);
	printf("module       %s (prefix %s, oid %s)\n", sc->module, sc->prefix, oid);
	printf("format       %" PRIu32 "\n", info.format);
	printf("generation   %" PRIu64 "\n", info.generation);
	printf("schema hash  0x%016" PRIx64 "\n", info.schema_hash);
	printf("created      %s\n", created);
	printf("writer pid   %" PRIu32 " (%s)\n", info.writer_pid, status_word(status));
	printf("lcore slots  %" PRIu32 "\n", info.n_slots);
	printf("file size    %" PRIu64 " bytes\n", info.file_size);
	printf("groups       %" PRIu32 " (%" PRIu32 " scalar, %" PRIu32 " table)\n",
	       sc->n_groups, sc->n_groups - tables, tables);
	printf("state        %s\n", state);
	printf("last reset   %s\n", reset);
	printf("read stats   %" PRIu64 " reads, %" PRIu64 " retries, %" PRIu64
	       " bounded\n", rs.reads, rs.retries, rs.bounded);
	printf("best effort  %" PRIu64 " values served without a consistent snapshot\n",
	       fastmib_best_effort_reads(seg));
	printf("out of range %" PRIu64 " updates (sent to scratch rows)\n",
	       fastmib_out_of_range_updates(seg));
	if (status == FASTMIB_WRITER_STALLED) {
		struct fastmib_slot_info si;
		char span[32] = "?";

		if (fastmib_slot_info(seg, stalled_slot, &si) == 0)
			format_span(si.in_tx_ns, span, sizeof(span));
		printf("stalled      slot %" PRIu32 " (lcore %" PRIu32 ") inside one "
		       "transaction for %s\n", stalled_slot, si.lcore, span);
	}
	printf("writer slots\n");
	print_slots_table(seg, info.n_slots);
	if (fst_model_has_states(sc))
		print_states_table(sc);
	if (sc->n_events == 0)
		return 0;
	printf("event rings  %" PRIu32 " records per lcore slot, TSC %" PRIu64 " Hz\n",
	       info.event_ring, info.tsc_hz);
	print_events_table(seg);
	return 0;
}
