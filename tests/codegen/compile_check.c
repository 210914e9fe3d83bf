/* SPDX-License-Identifier: BSD-3-Clause */
/* Compiled (never run) as strict ISO C11 and C++17 with -pedantic: the
 * generated headers must stay clean in users' builds. Calls every kind of
 * generated function so each one is instantiated. */
#include "ep_stats.h"
#include "vt_stats.h"
#include "ev_stats.h"

void compile_check(struct fastmib_writer *w);

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
