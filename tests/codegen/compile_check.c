/* SPDX-License-Identifier: BSD-3-Clause */
/* Compiled (never run) as strict ISO C11 and C++17 with -pedantic: the
 * generated headers must stay clean in users' builds. Calls every kind of
 * generated function so each one is instantiated. */
#include "ep_stats.h"
#include "vt_stats.h"
#include "ev_stats.h"
#include "tf_stats.h"

void compile_check(struct fastmib_writer *w);
void compile_check_tx(struct fastmib_writer *w);

void
compile_check(struct fastmib_writer *w)
{
	ep_global_rx_pkts_add(w, 1);                 /* per-core scalar */
	ep_global_mbuf_alloc_fails_add(w, 1);        /* counter32 */
	ep_port_rx_errors_add(w, 0, 1);              /* per-core table */
	ep_port_queue_bytes_add(w, 3, 7, 1);         /* two indexes */
	ep_flow_pkts_add(w, ep_flow_row(5), 1);      /* shared-buffered */
	ep_flow_state_active_flows_add(w, 1);        /* shared-atomic gauge */
	ep_flow_state_active_flows_sub(w, 1);
	ep_flow_state_active_flows_set(w, 1);
	ep_errors_bad_headers_add(w, 1);
	vt_scalars_level_add(w, 2);                  /* per-core gauge */
	vt_scalars_level_sub(w, 1);
	vt_matrix_hits_add(w, 2, 4, 6, 1);           /* three indexes */
	vt_sessions_in_use_sub(w, 999, 1);           /* buffered gauge */
	vt_slots_level_set(w, 1, 2, 9);              /* atomic table, set */
	(void)vt_matrix_row(0, 0, 0);
	fastmib_event_burst(w);
	ev_event_cycle_start(w, 1, 2);               /* sampled, two args */
	ev_event_step(w, UINT64_MAX, -1, 3, 4);      /* every argument type */
	ev_event_alarm(w, INT32_MIN);                /* rate 9, notify */
	ev_event_tick(w);                            /* no arguments */
	ev_event_cycle_end(w, 1, 2, 3);              /* wrapped signature */
	ev_event_disabled(w, 5);                     /* rate 0 */
	ev_event_rare(w);
}

/* The transaction form, every kind of function of it. */
void
compile_check_tx(struct fastmib_writer *w)
{
	struct ep_tx tx = ep_tx_begin(w);            /* per-core + buffered model */
	struct ep_port_queue_ref pq = ep_tx_port_queue(&tx, 3, 7);
	struct ep_flow_ref fl = ep_tx_flow(&tx, 5);
	struct vt_tx vtx = vt_tx_begin(w);           /* every storage kind */
	struct vt_matrix_ref m = vt_tx_matrix(&vtx, 2, 4, 6);
	struct vt_slots_ref sl = vt_tx_slots(&vtx, 1, 2);
	struct vt_sessions_ref se = vt_tx_sessions(&vtx, 999);
	struct tf_tx ttx = tf_tx_begin(w);           /* per-core only */
	struct tf_lane_ref la = tf_tx_lane(&ttx, 2, 4);
	struct ev_tx etx = ev_tx_begin(w);
	struct fastmib_tx gtx = fastmib_tx_begin(w, FASTMIB_TX_ALL);

	ep_tx_global_rx_pkts_add(&tx, 1);            /* per-core scalar */
	ep_tx_port_rx_errors_add(&tx, 0, 1);         /* per-core table */
	ep_port_queue_ref_bytes_add(pq, 64);         /* row handle, two indexes */
	ep_tx_port_queue_pkts_add(&tx, 3, 7, 1);
	ep_flow_ref_pkts_add(fl, 1);                 /* shared-buffered handle */
	ep_tx_flow_bytes_add(&tx, 5, 64);
	ep_tx_flow_state_active_flows_add(&tx, 1);   /* shared-atomic gauge */
	ep_tx_flow_state_active_flows_sub(&tx, 1);
	ep_tx_flow_state_active_flows_set(&tx, 1);
	ep_event_flow_created(tx.t.w, 5);            /* events take the writer */
	ep_tx_end(&tx);
	vt_tx_scalars_level_add(&vtx, 2);            /* per-core gauge */
	vt_tx_scalars_level_sub(&vtx, 1);
	vt_matrix_ref_hits_add(m, 1);                /* three indexes */
	vt_tx_matrix_hits_add(&vtx, 2, 4, 6, 1);
	vt_sessions_ref_in_use_sub(se, 1);           /* buffered gauge */
	vt_tx_sessions_in_use_add(&vtx, 999, 1);
	vt_slots_ref_level_set(sl, 9);               /* atomic table, set */
	vt_tx_slots_level_sub(&vtx, 0, 0, 1);
	vt_tx_state_active_set(&vtx, 3);
	vt_tx_state_events_add(&vtx, 1);
	vt_tx_end(&vtx);
	tf_tx_totals_bytes_seen_on_every_queue_of_every_port_since_start_add(&ttx, 1);
	tf_lane_ref_depth_sub(la, 1);                /* indexes named tx and r */
	tf_tx_lane_depth_add(&ttx, 2, 4, 1);
	tf_tx_end(&ttx);
	ev_tx_eventual_pkts_add(&etx, 1);
	ev_tx_end(&etx);
	fastmib_word_add(fastmib_tx_pc(&gtx, 0), 1); /* generic primitives */
	fastmib_word_atomic_add(fastmib_tx_shared(&gtx, 8), 1);
	fastmib_word_atomic_set(fastmib_tx_shared(&gtx, 16), 1);
	fastmib_tx_end(&gtx);
}
