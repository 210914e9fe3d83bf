/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated schema, structs and update functions agree: schema offsets
 * and sizes equal offsetof/sizeof of the generated structs, row helpers are
 * row-major, and each update function changes exactly the struct member it
 * is named after (through the real inline primitives of fastmib.h), and
 * each event function logs its own index and arguments at its rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ep_stats.h"
#include "vt_stats.h"
#include "ev_stats.h"
#include "plain_areas.h"

static void
check_group(const struct fastmib_schema *s, unsigned id, const char *name,
	    uint64_t offset, uint32_t row_size, uint32_t n_rows)
{
	const struct fastmib_group_schema *g = &s->groups[id];
	uint32_t i, word = 0;

	assert_string_equal(g->name, name);
	assert_int_equal(g->offset, offset);
	assert_int_equal(g->row_size, row_size);
	assert_int_equal(g->n_rows, n_rows);
	assert_int_equal(g->offset % 64, 0);
	/* the counters' words one after the other, a histogram's all of its
	 * own, and nothing else in the row */
	for (i = 0; i < g->n_counters; i++) {
		assert_int_equal(g->counters[i].offset, 8 * word);
		word += fastmib_counter_words(&g->counters[i]);
	}
	assert_int_equal(g->row_size, 8 * word);
}

static void
test_ep_schema(void **state)
{
	const struct fastmib_schema *s = &ep_schema;
	static const uint32_t oid[] = { 1, 3, 6, 1, 4, 1, 8072, 9999, 42 };

	(void)state;
	assert_int_equal(s->version, FASTMIB_MODEL_VERSION);
	assert_string_equal(s->module, "EXAMPLE-DATAPLANE-MIB");
	assert_string_equal(s->prefix, "ep");
	assert_int_equal(s->oid_len, 9);
	assert_memory_equal(s->oid, oid, sizeof(oid));
	assert_int_equal(s->n_groups, 8);
	assert_int_equal(s->percore_size, sizeof(struct ep_percore));
	assert_int_equal(s->shared_size, sizeof(struct ep_shared));
	/* global 208 bytes (7 counters, a log2 histogram of 17 buckets, its
	 * count and sum) to 256; port 5 rows (4 and the scratch row) of 128
	 * (5 counters, 8 buckets, count, sum, a peak); portQueue 33 of 16, to
	 * 64; server 257 rows of 16, to 64 */
	assert_int_equal(s->percore_size, 1472 + 4160);
	assert_int_equal(s->shared_size, 1048768); /* rows + one scratch row per table */

	check_group(s, EP_GROUP_GLOBAL, "global", offsetof(struct ep_percore, global),
		    sizeof(struct ep_global_row), 1);
	check_group(s, EP_GROUP_PORT, "port", offsetof(struct ep_percore, port),
		    sizeof(struct ep_port_row), 4);
	check_group(s, EP_GROUP_PORT_QUEUE, "portQueue",
		    offsetof(struct ep_percore, port_queue),
		    sizeof(struct ep_port_queue_row), 32);
	check_group(s, EP_GROUP_FLOW, "flow", offsetof(struct ep_shared, flow),
		    sizeof(struct ep_flow_row), 65536);
	check_group(s, EP_GROUP_FLOW_STATE, "flowState",
		    offsetof(struct ep_shared, flow_state),
		    sizeof(struct ep_flow_state_row), 1);
	check_group(s, EP_GROUP_ERRORS, "errors", offsetof(struct ep_shared, errors),
		    sizeof(struct ep_errors_row), 1);
	check_group(s, EP_GROUP_SERVER, "server", offsetof(struct ep_percore, server),
		    sizeof(struct ep_server_row), 256);

	assert_int_equal(s->groups[EP_GROUP_PORT].storage, FASTMIB_STORAGE_PER_CORE);
	assert_int_equal(s->groups[EP_GROUP_FLOW].storage, FASTMIB_STORAGE_SHARED_BUFFERED);
	assert_int_equal(s->groups[EP_GROUP_ERRORS].storage, FASTMIB_STORAGE_SHARED_ATOMIC);
	assert_int_equal(s->groups[EP_GROUP_FLOW].all_rows, 0);
	assert_int_equal(s->groups[EP_GROUP_PORT].all_rows, 1);
	assert_int_equal(s->groups[EP_GROUP_PORT_QUEUE].n_indexes, 2);
	assert_string_equal(s->groups[EP_GROUP_PORT_QUEUE].indexes[1].name, "queueId");
	assert_int_equal(s->groups[EP_GROUP_PORT_QUEUE].indexes[1].max, 8);
	assert_int_equal(s->groups[EP_GROUP_GLOBAL].n_indexes, 0);
	assert_string_equal(s->groups[EP_GROUP_GLOBAL].counters[0].units, "packets");
	assert_string_equal(s->groups[EP_GROUP_GLOBAL].counters[5].units, "");
	assert_int_equal(s->groups[EP_GROUP_GLOBAL].counters[6].type, FASTMIB_COUNTER32);
	assert_int_equal(s->groups[EP_GROUP_FLOW_STATE].counters[0].type, FASTMIB_GAUGE32);
	/* states: beside the port and server counters, and a group of states
	 * only, which takes no room in either area */
	assert_int_equal(s->groups[EP_GROUP_PORT].n_states, 3);
	assert_int_equal(s->groups[EP_GROUP_PORT].state_size, sizeof(struct ep_port_state));
	assert_int_equal(s->groups[EP_GROUP_SERVER].n_states, 2);
	assert_int_equal(s->groups[EP_GROUP_SERVER].state_size, sizeof(struct ep_server_state));
	assert_string_equal(s->groups[EP_GROUP_APP].name, "app");
	assert_int_equal(s->groups[EP_GROUP_APP].n_counters, 0);
	assert_int_equal(s->groups[EP_GROUP_APP].n_states, 2);
	assert_int_equal(s->groups[EP_GROUP_APP].state_size, sizeof(struct ep_app_state));
}

static void
test_vt_schema(void **state)
{
	const struct fastmib_schema *s = &vt_schema;

	(void)state;
	assert_int_equal(s->percore_size, sizeof(struct vt_percore));
	assert_int_equal(s->shared_size, sizeof(struct vt_shared));
	check_group(s, VT_GROUP_SCALARS, "scalars", offsetof(struct vt_percore, scalars),
		    sizeof(struct vt_scalars_row), 1);
	check_group(s, VT_GROUP_MATRIX, "matrix", offsetof(struct vt_percore, matrix),
		    sizeof(struct vt_matrix_row), 105);
	check_group(s, VT_GROUP_SESSIONS, "sessions", offsetof(struct vt_shared, sessions),
		    sizeof(struct vt_sessions_row), 1000);
	check_group(s, VT_GROUP_STATE, "state", offsetof(struct vt_shared, state),
		    sizeof(struct vt_state_row), 1);
	check_group(s, VT_GROUP_SLOTS, "slots", offsetof(struct vt_shared, slots),
		    sizeof(struct vt_slots_row), 6);
	/* model order, not arc order, decides the layout */
	assert_int_equal(s->groups[VT_GROUP_SCALARS].arc, 7);
	assert_int_equal(s->groups[VT_GROUP_SCALARS].counters[0].arc, 3);
	assert_string_equal(s->groups[VT_GROUP_SCALARS].counters[0].name, "big");
	assert_string_equal(s->groups[VT_GROUP_SCALARS].counters[0].units, "octets");
	assert_string_equal(s->groups[VT_GROUP_SCALARS].description,
			    "Per-core scalars of every type.");
	assert_int_equal(s->groups[VT_GROUP_SESSIONS].all_rows, 0);
	assert_int_equal(s->groups[VT_GROUP_MATRIX].all_rows, 1);
	assert_int_equal(s->groups[VT_GROUP_MATRIX].n_indexes, 3);
	assert_int_equal(s->oid_len, 7);
	assert_int_equal(s->oid[6], 99999);
}

/* The hash the generator wrote is what the library computes from the
 * compiled schema, and the schema struct carries it too. */
static void
test_schema_hashes(void **state)
{
	(void)state;
	assert_int_not_equal(EP_SCHEMA_HASH, 0);
	assert_int_equal(fastmib_schema_hash(&ep_schema), EP_SCHEMA_HASH);
	assert_int_equal(ep_schema.hash, EP_SCHEMA_HASH);
	assert_int_equal(fastmib_schema_hash(&vt_schema), VT_SCHEMA_HASH);
	assert_int_equal(vt_schema.hash, VT_SCHEMA_HASH);
	assert_int_equal(fastmib_schema_hash(&ev_schema), EV_SCHEMA_HASH);
	assert_int_equal(ev_schema.hash, EV_SCHEMA_HASH);
	assert_int_not_equal(EP_SCHEMA_HASH, VT_SCHEMA_HASH);
}

static void
test_row_helpers(void **state)
{
	uint32_t p, q, x, y, z, expect = 0;

	(void)state;
	for (p = 0; p < EP_PORT_QUEUE_PORT_ID_MAX; p++)
		for (q = 0; q < EP_PORT_QUEUE_QUEUE_ID_MAX; q++)
			assert_int_equal(ep_port_queue_row(p, q), expect++);
	assert_int_equal(expect, EP_PORT_QUEUE_ROWS);
	assert_int_equal(ep_flow_row(65535), 65535);
	assert_int_equal(ep_port_row(3), 3);

	expect = 0;
	for (x = 0; x < VT_MATRIX_X_MAX; x++)
		for (y = 0; y < VT_MATRIX_Y_MAX; y++)
			for (z = 0; z < VT_MATRIX_Z_MAX; z++)
				assert_int_equal(vt_matrix_row(x, y, z), expect++);
	assert_int_equal(expect, VT_MATRIX_ROWS);
	assert_int_equal(vt_slots_row(1, 2), 5);
}

/*
 * The row of 0-based index values i[0..n) of table `g` as the schema's one
 * owner of row arithmetic says (fastmib_row_of_index(), 1-based values),
 * checked against what the generated helper gave, back through
 * fastmib_index_of_row(), and from the text a user writes ("2.3").
 */
static void
same_row(const struct fastmib_group_schema *g, const uint32_t *i, size_t n,
	 uint32_t generated)
{
	uint64_t idx[FASTMIB_MAX_INDEXES];
	uint32_t back[FASTMIB_MAX_INDEXES];
	char text[64];
	size_t len = 0;

	for (size_t k = 0; k < n; k++) {
		idx[k] = i[k] + 1;
		len += (size_t)snprintf(text + len, sizeof(text) - len, k ? ".%u" : "%u",
					i[k] + 1);
	}
	assert_int_equal(fastmib_row_of_index(g, idx, n), generated);
	assert_int_equal(fastmib_row_of_text(g, text), generated);
	fastmib_index_of_row(g, generated, back);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(back[k], idx[k]);
}

/* Every generated row helper, for every row of its table, gives the row
 * of the schema's row arithmetic. */
static void
test_row_helpers_are_the_schema_rows(void **state)
{
	const struct fastmib_group_schema *g;
	uint32_t i[3];

	(void)state;
	g = &ep_schema.groups[EP_GROUP_PORT];
	for (i[0] = 0; i[0] < EP_PORT_PORT_ID_MAX; i[0]++)
		same_row(g, i, 1, ep_port_row(i[0]));
	g = &ep_schema.groups[EP_GROUP_PORT_QUEUE];
	for (i[0] = 0; i[0] < EP_PORT_QUEUE_PORT_ID_MAX; i[0]++)
		for (i[1] = 0; i[1] < EP_PORT_QUEUE_QUEUE_ID_MAX; i[1]++)
			same_row(g, i, 2, ep_port_queue_row(i[0], i[1]));
	g = &ep_schema.groups[EP_GROUP_FLOW];
	for (i[0] = 0; i[0] < EP_FLOW_FLOW_ID_MAX; i[0]++)
		same_row(g, i, 1, ep_flow_row(i[0]));
	g = &vt_schema.groups[VT_GROUP_MATRIX];
	for (i[0] = 0; i[0] < VT_MATRIX_X_MAX; i[0]++)
		for (i[1] = 0; i[1] < VT_MATRIX_Y_MAX; i[1]++)
			for (i[2] = 0; i[2] < VT_MATRIX_Z_MAX; i[2]++)
				same_row(g, i, 3, vt_matrix_row(i[0], i[1], i[2]));
	g = &vt_schema.groups[VT_GROUP_SESSIONS];
	for (i[0] = 0; i[0] < VT_SESSIONS_SESSION_ID_MAX; i[0]++)
		same_row(g, i, 1, vt_sessions_row(i[0]));
	g = &vt_schema.groups[VT_GROUP_SLOTS];
	for (i[0] = 0; i[0] < VT_SLOTS_SLOT_MAX; i[0]++)
		for (i[1] = 0; i[1] < VT_SLOTS_LANE_MAX; i[1]++)
			same_row(g, i, 2, vt_slots_row(i[0], i[1]));
}

PLAIN_AREAS_FIXTURES(ep)

static void
test_updates_hit_their_member(void **state)
{
	struct plain_areas *a = *state;
	struct fastmib_writer *w = a->w;
	struct ep_percore *pc_expect = a->pc_expect;
	struct ep_shared *sh_expect = a->sh_expect;

	ep_global_rx_bytes_add(w, 1500);
	pc_expect->global.rx_bytes = 1500;
	ep_global_mbuf_alloc_fails_add(w, 2);
	pc_expect->global.mbuf_alloc_fails = 2;
	ep_port_rx_errors_add(w, 2, 5);
	pc_expect->port[2].rx_errors = 5;
	ep_port_queue_bytes_add(w, 3, 7, 64);
	pc_expect->port_queue[3 * 8 + 7].bytes = 64;
	ep_port_queue_pkts_add(w, 1, 0, 1);
	ep_port_queue_pkts_add(w, 1, 0, 1);
	pc_expect->port_queue[8].pkts = 2;
	assert_memory_equal(a->pc, pc_expect, a->pc_size);

	ep_flow_state_active_flows_add(w, 3);
	ep_flow_state_active_flows_sub(w, 5);
	sh_expect->flow_state.active_flows = (uint64_t)0 - 2;
	ep_errors_flow_table_full_add(w, 9);
	sh_expect->errors.flow_table_full = 9;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
	ep_flow_state_active_flows_set(w, 7);
	sh_expect->flow_state.active_flows = 7;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
}

static void
test_buffered_offsets(void **state)
{
	struct plain_areas *a = *state;
	struct fastmib_writer *w = a->w;
	struct ep_shared *sh_expect = a->sh_expect;
	uint32_t seq = 4;

	/* a buffered call reads the sequence number: the write buffer's mark */
	w->sn = &seq;
	ep_flow_bytes_add(w, 9, 100);
	ep_flow_pkts_add(w, 65535, 1);
	assert_int_equal(w->n_ops, 2);
	assert_int_equal(w->tx_sn, 4);
	assert_int_equal(w->tx_start, 0);
	assert_int_equal(w->ops[0].offset, offsetof(struct ep_shared, flow[9].bytes));
	assert_int_equal(w->ops[0].operand, 100);
	assert_int_equal(w->ops[1].offset, offsetof(struct ep_shared, flow[65535].pkts));
	assert_int_equal(w->ops[1].operand, 1);
	/* nothing reaches the shared area before a flush */
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
}

/* The transaction form changes the same members as the calls on the
 * writer: through the transaction, row handles, and the write buffer. */
static void
test_tx_form_hits_its_member(void **state)
{
	struct plain_areas *a = *state;
	struct fastmib_writer *w = a->w;
	struct ep_percore *pc_expect = a->pc_expect;
	struct ep_shared *sh_expect = a->sh_expect;
	uint32_t seq = 0;
	struct ep_tx tx;
	struct ep_port_queue_ref pq;
	struct ep_flow_ref fl;

	w->sn = &seq;
	w->hint_limit = 1000; /* no flush: this writer has no segment */
	tx = ep_tx_begin(w);
	assert_int_equal(seq, 1);
	/* the open leaves the write buffer alone: its first buffered update
	 * marks it */
	assert_int_equal(w->in_tx, 0);
	ep_tx_global_rx_bytes_add(&tx, 1500);
	pc_expect->global.rx_bytes = 1500;
	ep_tx_global_mbuf_alloc_fails_add(&tx, 2);
	pc_expect->global.mbuf_alloc_fails = 2;
	ep_tx_port_rx_errors_add(&tx, 2, 5);
	pc_expect->port[2].rx_errors = 5;
	pq = ep_tx_port_queue(&tx, 3, 7);
	ep_port_queue_ref_bytes_add(pq, 64);
	ep_port_queue_ref_pkts_add(pq, 1);
	pc_expect->port_queue[3 * 8 + 7].bytes = 64;
	pc_expect->port_queue[3 * 8 + 7].pkts = 1;
	ep_tx_port_queue_pkts_add(&tx, 1, 0, 1);
	ep_tx_port_queue_pkts_add(&tx, 1, 0, 1);
	pc_expect->port_queue[8].pkts = 2;
	assert_memory_equal(a->pc, pc_expect, a->pc_size);

	ep_tx_flow_state_active_flows_add(&tx, 3);
	ep_tx_flow_state_active_flows_sub(&tx, 5);
	sh_expect->flow_state.active_flows = (uint64_t)0 - 2;
	ep_tx_errors_flow_table_full_add(&tx, 9);
	sh_expect->errors.flow_table_full = 9;
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
	ep_tx_flow_state_active_flows_set(&tx, 7);
	sh_expect->flow_state.active_flows = 7;

	fl = ep_tx_flow(&tx, 9);
	ep_flow_ref_bytes_add(fl, 100);
	ep_tx_flow_pkts_add(&tx, 65535, 1);
	assert_int_equal(w->n_ops, 2);
	assert_int_equal(w->ops[0].offset, offsetof(struct ep_shared, flow[9].bytes));
	assert_int_equal(w->ops[0].operand, 100);
	assert_int_equal(w->ops[1].offset, offsetof(struct ep_shared, flow[65535].pkts));
	assert_int_equal(w->ops[1].operand, 1);
	assert_int_equal(w->tx_sn, 1);
	assert_int_equal(w->tx_start, 0);
	ep_tx_end(&tx);
	assert_int_equal(seq, 2);
	assert_int_equal(w->in_tx, 0);
	/* nothing buffered reaches the shared area before a flush */
	assert_memory_equal(a->sh, sh_expect, a->sh_size);
}

static void
check_event(const struct fastmib_event_schema *e, const char *name, uint32_t arc,
	    uint32_t level, uint32_t rate, uint32_t notify, uint32_t n_args)
{
	assert_string_equal(e->name, name);
	assert_int_equal(e->arc, arc);
	assert_int_equal(e->level, level);
	assert_int_equal(e->rate, rate);
	assert_int_equal(e->notify, notify);
	assert_int_equal(e->n_args, n_args);
}

static void
test_ev_schema(void **state)
{
	const struct fastmib_schema *s = &ev_schema;
	const struct fastmib_event_schema *e = s->events;

	(void)state;
	assert_int_equal(s->n_events, 7);
	assert_int_equal(EV_N_EVENTS, 7);
	/* model order is the index, whatever the arcs */
	assert_int_equal(EV_EVENT_CYCLE_START, 0);
	assert_int_equal(EV_EVENT_STEP, 1);
	assert_int_equal(EV_EVENT_ALARM, 2);
	assert_int_equal(EV_EVENT_TICK, 3);
	assert_int_equal(EV_EVENT_CYCLE_END, 4);
	assert_int_equal(EV_EVENT_DISABLED, 5);
	assert_int_equal(EV_EVENT_RARE, 6);
	check_event(&e[EV_EVENT_CYCLE_START], "cycleStart", 7, 1, 5, 0, 2);
	check_event(&e[EV_EVENT_STEP], "step", 3, 2, 3, 0, 4);
	check_event(&e[EV_EVENT_ALARM], "alarm", 999, 0, 9, 1, 1);
	check_event(&e[EV_EVENT_TICK], "tick", 1, 1, 9, 1, 0);
	check_event(&e[EV_EVENT_CYCLE_END], "cycleEnd", 8, 1, 5, 0, 3);
	check_event(&e[EV_EVENT_DISABLED], "disabled", 4, 3, 0, 0, 1);
	check_event(&e[EV_EVENT_RARE], "rare", 2, 2, 1, 0, 0);
	assert_string_equal(e[EV_EVENT_CYCLE_START].args[0], "port");
	assert_string_equal(e[EV_EVENT_CYCLE_START].args[1], "pkts");
	assert_null(e[EV_EVENT_CYCLE_START].args[2]);
	assert_string_equal(e[EV_EVENT_STEP].args[1], "delta");
	assert_string_equal(e[EV_EVENT_STEP].args[3], "last");
	assert_string_equal(e[EV_EVENT_CYCLE_END].args[2], "elapsedCyclesMeasured");
	assert_string_equal(e[EV_EVENT_ALARM].description, "Something went wrong.");
	/* argument types in model order, zero past the last argument */
	assert_int_equal(e[EV_EVENT_STEP].arg_types[0], FASTMIB_ARG_UINT64);
	assert_int_equal(e[EV_EVENT_STEP].arg_types[1], FASTMIB_ARG_INT32);
	assert_int_equal(e[EV_EVENT_STEP].arg_types[2], FASTMIB_ARG_UINT32);
	assert_int_equal(e[EV_EVENT_ALARM].arg_types[0], FASTMIB_ARG_INT32);
	assert_int_equal(e[EV_EVENT_ALARM].arg_types[1], 0);
	assert_int_equal(e[EV_EVENT_CYCLE_START].arg_types[1], FASTMIB_ARG_UINT32);
	assert_int_equal(e[EV_EVENT_TICK].arg_types[0], 0);
	/* models without events leave the fields zero */
	assert_int_equal(ep_schema.n_events, 6);
	assert_int_equal(vt_schema.n_events, 0);
	assert_null(vt_schema.events);
}

/* A writer with only its event ring, as libfastmib sets it up. */
#define TEST_RING 8u

struct ev_areas {
	struct fastmib_writer *w;
	struct fastmib_event_slotrec *ring;
	uint64_t head_pub;
	uint64_t logged[EV_N_EVENTS];
	uint64_t dropped[EV_N_EVENTS];
};

static int
ev_setup(void **state)
{
	struct ev_areas *a = calloc(1, sizeof(*a));

	a->w = calloc(1, sizeof(*a->w));
	a->ring = calloc(TEST_RING, sizeof(*a->ring));
	a->w->ev_ring = a->ring;
	a->w->ev_head_pub = &a->head_pub;
	a->w->ev_logged = a->logged;
	a->w->ev_dropped = a->dropped;
	a->w->ev_mask = TEST_RING - 1;
	*state = a;
	return 0;
}

static int
ev_teardown(void **state)
{
	struct ev_areas *a = *state;

	free(a->ring);
	free(a->w);
	free(a);
	return 0;
}

/* The record numbered `n` holds `event` and `args`. */
static void
check_rec(const struct ev_areas *a, uint64_t n, uint32_t event, uint64_t a0,
	  uint64_t a1, uint64_t a2, uint64_t a3)
{
	const struct fastmib_event_slotrec *r = &a->ring[n % TEST_RING];

	assert_int_equal(r->seq, n);
	assert_int_equal(r->event, event);
	assert_int_equal(r->args[0], a0);
	assert_int_equal(r->args[1], a1);
	assert_int_equal(r->args[2], a2);
	assert_int_equal(r->args[3], a3);
}

static void
test_event_functions_log_their_record(void **state)
{
	struct ev_areas *a = *state;
	struct fastmib_writer *w = a->w;

	w->ev_threshold = 1; /* a burst that logs every rate from 1 */
	ev_event_cycle_start(w, 7, 32);
	check_rec(a, 1, EV_EVENT_CYCLE_START, 7, 32, 0, 0);
	ev_event_step(w, UINT64_MAX, -2, UINT32_MAX, 1ull << 40);
	check_rec(a, 2, EV_EVENT_STEP, UINT64_MAX, (uint64_t)-2, UINT32_MAX, 1ull << 40);
	ev_event_alarm(w, INT32_MIN);
	check_rec(a, 3, EV_EVENT_ALARM, (uint64_t)(int64_t)INT32_MIN, 0, 0, 0);
	ev_event_tick(w);
	check_rec(a, 4, EV_EVENT_TICK, 0, 0, 0, 0);
	ev_event_cycle_end(w, 1, 2, 3);
	check_rec(a, 5, EV_EVENT_CYCLE_END, 1, 2, 3, 0);
	ev_event_rare(w);
	check_rec(a, 6, EV_EVENT_RARE, 0, 0, 0, 0);
	ev_event_disabled(w, 5);  /* rate 0: never, even at threshold 1 */
	assert_int_equal(a->head_pub, 6);
	assert_int_equal(a->logged[EV_EVENT_DISABLED], 0);
	assert_int_equal(a->logged[EV_EVENT_STEP], 1);
	/* uint32 arguments are zero-extended, int32 ones sign-extended */
	ev_event_cycle_start(w, UINT32_MAX, 0);
	check_rec(a, 7, EV_EVENT_CYCLE_START, UINT32_MAX, 0, 0, 0);
}

static void
test_event_rates_filter(void **state)
{
	struct ev_areas *a = *state;
	struct fastmib_writer *w = a->w;
	unsigned t;

	/* for each threshold, an event is logged iff its rate >= threshold;
	 * rate 9 always, rate 0 never */
	for (t = 1; t <= 9; t++) {
		uint64_t before = a->head_pub;

		w->ev_threshold = t;
		ev_event_rare(w);          /* rate 1 */
		ev_event_step(w, 0, 0, 0, 0); /* rate 3 */
		ev_event_cycle_start(w, 0, 0); /* rate 5 */
		ev_event_tick(w);          /* rate 9 */
		ev_event_disabled(w, 0);   /* rate 0 */
		assert_int_equal(a->head_pub - before,
				 (t <= 1) + (t <= 3) + (t <= 5) + 1);
	}
	assert_int_equal(a->logged[EV_EVENT_RARE], 1);
	assert_int_equal(a->logged[EV_EVENT_STEP], 3);
	assert_int_equal(a->logged[EV_EVENT_CYCLE_START], 5);
	assert_int_equal(a->logged[EV_EVENT_TICK], 9);
	assert_int_equal(a->logged[EV_EVENT_DISABLED], 0);
	/* 18 records in a ring of 8: the 10 oldest were overwritten */
	assert_int_equal(a->dropped[EV_EVENT_RARE] + a->dropped[EV_EVENT_STEP] +
			 a->dropped[EV_EVENT_CYCLE_START] + a->dropped[EV_EVENT_TICK],
			 18 - TEST_RING);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ep_schema),
		cmocka_unit_test(test_vt_schema),
		cmocka_unit_test(test_ev_schema),
		cmocka_unit_test(test_schema_hashes),
		cmocka_unit_test(test_row_helpers),
		cmocka_unit_test(test_row_helpers_are_the_schema_rows),
		cmocka_unit_test_setup_teardown(test_updates_hit_their_member, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buffered_offsets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_form_hits_its_member, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_functions_log_their_record,
						ev_setup, ev_teardown),
		cmocka_unit_test_setup_teardown(test_event_rates_filter, ev_setup,
						ev_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
