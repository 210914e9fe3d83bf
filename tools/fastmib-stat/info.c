/* SPDX-License-Identifier: BSD-3-Clause */
/* --info: the segment header, its model and the readers' statistics. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "stat.h"

static void
format_time(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (ns == 0) {
		snprintf(buf, len, "never");
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The writer's status as <prefix>WriterStatus reports it. */
static const char *
writer_state(const struct fastmib_info *info)
{
	return info->writer_running ? "running" : "gone";
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
			"notify", (int)e->notify, "logged", json_u64(fastmib_event_logged(seg, i)),
			"dropped", json_u64(fastmib_event_dropped(seg, i)), "args", args));
	}
	return json_pack("{s:I, s:o, s:o}", "ring_records", (json_int_t)info->event_ring,
			 "tsc_hz", json_u64(info->tsc_hz), "list", list);
}

/* One line per event: id, level, rate, records logged and dropped, arguments. */
static void
print_events_table(struct fastmib_segment *seg)
{
	static const char *const heads[] = { "EVENT", "ID", "LEVEL", "RATE", "LOGGED",
					     "DROPPED", "ARGS" };
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct libscols_table *tb = cols_new_table();

	for (unsigned int k = 0; k < 7; k++)
		cols_add_column(tb, heads[k], k > 0 && k < 6);
	for (uint32_t i = 0; i < sc->n_events; i++) {
		const struct fastmib_event_schema *e = &sc->events[i];
		struct libscols_line *ln = cols_new_line(tb);
		char cell[FASTMIB_MAX_EVENT_ARGS * (FASTMIB_MAX_NAME + 8) + 1] = "";
		const uint64_t nums[] = { e->arc, e->level, e->rate, fastmib_event_logged(seg, i),
					  fastmib_event_dropped(seg, i) };

		cols_set(ln, 0, e->name);
		for (unsigned int k = 0; k < 5; k++) {
			snprintf(cell, sizeof(cell), "%" PRIu64, nums[k]);
			cols_set(ln, 1 + k, cell);
		}
		cell[0] = '\0';
		for (uint32_t k = 0; k < e->n_args; k++)
			snprintf(cell + strlen(cell), sizeof(cell) - strlen(cell), "%s%s:%s",
				 k ? " " : "", e->args[k], arg_type_name(e->arg_types[k]));
		cols_set(ln, 6, cell);
	}
	cols_print(tb, false, 2);
}

int
do_info(struct fastmib_segment *seg, const char *path, bool json)
{
	const struct fastmib_schema *sc = fastmib_schema(seg);
	struct fastmib_info info;
	struct fastmib_read_stats rs;
	struct snap s = { 0 };
	char created[64], reset[64], oid[FASTMIB_MAX_OID_LEN * 11 + 1] = "";
	uint32_t tables = 0;
	int rc;

	/* One full pass so that the read statistics say something. */
	rc = snap_take(seg, NULL, &s);
	if (rc < 0)
		return rc;
	snap_free(&s);
	fastmib_info(seg, &info);
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
			       "generation", json_u64(info.generation),
			       "schema_hash", hash,
			       "created_ns", json_u64(info.created_ns),
			       "created", created,
			       "writer_pid", (json_int_t)info.writer_pid,
			       "writer", writer_state(&info),
			       "lcore_slots", (json_int_t)info.n_slots,
			       "file_size", json_u64(info.file_size),
			       "groups", (json_int_t)sc->n_groups,
			       "tables", (json_int_t)tables,
			       "state", state, "last_reset", reset,
			       "read_stats", "reads", json_u64(rs.reads),
			       "retries", json_u64(rs.retries),
			       "bounded", json_u64(rs.bounded));
		if (o == NULL)
			return -ENOMEM;
		if (sc->n_events)
			json_object_set_new(o, "events", events_info_json(seg, &info));
		return print_json(o, false);
	}
	printf("segment      %s\n", path);
	printf("module       %s (prefix %s, oid %s)\n", sc->module, sc->prefix, oid);
	printf("format       %" PRIu32 "\n", info.format);
	printf("generation   %" PRIu64 "\n", info.generation);
	printf("schema hash  0x%016" PRIx64 "\n", info.schema_hash);
	printf("created      %s\n", created);
	printf("writer pid   %" PRIu32 " (%s)\n", info.writer_pid, writer_state(&info));
	printf("lcore slots  %" PRIu32 "\n", info.n_slots);
	printf("file size    %" PRIu64 " bytes\n", info.file_size);
	printf("groups       %" PRIu32 " (%" PRIu32 " scalar, %" PRIu32 " table)\n",
	       sc->n_groups, sc->n_groups - tables, tables);
	printf("state        %s\n", state);
	printf("last reset   %s\n", reset);
	printf("read stats   %" PRIu64 " reads, %" PRIu64 " retries, %" PRIu64
	       " bounded\n", rs.reads, rs.retries, rs.bounded);
	if (sc->n_events == 0)
		return 0;
	printf("event rings  %" PRIu32 " records per lcore slot, TSC %" PRIu64 " Hz\n",
	       info.event_ring, info.tsc_hz);
	print_events_table(seg);
	return 0;
}
