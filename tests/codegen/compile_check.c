/* SPDX-License-Identifier: BSD-3-Clause */
/* Compiled (never run) as strict ISO C11 and C++17 with -pedantic: the
 * generated headers must stay clean in users' builds. Calls every kind of
 * generated function so each one is instantiated. */
#include <string.h>

#include "ep_stats.h"
#include "vt_stats.h"
#include "ev_stats.h"
#include "tf_stats.h"
#include "kt_stats.h"
#include "km_stats.h"
#include "ke_stats.h"
#include "st_stats.h"
#include "hg_stats.h"

void compile_check(struct fastmib_writer *w);
void compile_check_tx(struct fastmib_writer *w);
void compile_check_keyed(struct fastmib_segment *seg, struct fastmib_writer *w);
int compile_check_states(struct fastmib_segment *seg, struct fastmib_writer *w);
void compile_check_histograms(struct fastmib_segment *seg, struct fastmib_writer *w);

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
	tf_tx_cell_pkts_add(&ttx, 3, 1);             /* an index named row */
	tf_cell_pkts_add(ttx.t.w, 3, 1);
	tf_tx_end(&ttx);
	ev_tx_eventual_pkts_add(&etx, 1);
	ev_tx_end(&etx);
	fastmib_word_add(fastmib_tx_pc(&gtx, 0), 1); /* generic primitives */
	fastmib_word_atomic_add(fastmib_tx_shared(&gtx, 8), 1);
	fastmib_word_atomic_set(fastmib_tx_shared(&gtx, 16), 1);
	fastmib_tx_end(&gtx);
}

/* Keyed tables: a key of every index type, the key functions, and both
 * update forms on the row a key was given. */
void
compile_check_keyed(struct fastmib_segment *seg, struct fastmib_writer *w)
{
	struct kt_tunnel_key tk;
	struct kt_peer_queue_key pk;
	struct kt_host_key hk;
	struct kt_station_key sk;
	struct kt_customer_key ck;
	struct km_station_key mk;
	struct ke_session_key ek;
	struct ke_client_key ec;
	uint32_t row = 0;

	memset(&tk, 0, sizeof(tk));
	tk.peer.type = 2;                            /* inet-address */
	tk.peer.addr[15] = 1;
	tk.teid = 0xdeadbeefu;                       /* uint32 */
	memset(&pk, 0, sizeof(pk));
	pk.peer_addr = tk.peer;
	pk.queue = KT_PEER_QUEUE_QUEUE_MAX;          /* integer: the SNMP value */
	memcpy(hk.addr, "\xc0\xa8\x01\x09", 4);       /* ipv4 */
	memcpy(sk.mac, "\x00\x11\x22\x33\x44\x55", 6); /* mac */
	strcpy(ck.customer_name, "acme");            /* string */
	ck.vlan = 100;
	if (kt_tunnel_insert(seg, &tk, &row) == 0)
		kt_tunnel_pkts_add(w, row, 1);
	(void)kt_tunnel_find(seg, &tk, &row);
	(void)kt_tunnel_remove(seg, &tk);
	(void)kt_peer_queue_insert(seg, &pk, &row);
	kt_peer_queue_backlog_add(w, row, 2);        /* buffered gauge */
	kt_peer_queue_backlog_sub(w, row, 1);
	(void)kt_host_insert(seg, &hk, &row);
	kt_host_sessions_set(w, row, 3);             /* atomic, set */
	kt_host_drops_add(w, row, 1);
	(void)kt_station_find(seg, &sk, &row);
	kt_station_frames_add(w, row, 1);
	(void)kt_customer_insert(seg, &ck, &row);
	kt_customer_octets_add(w, row, 1500);
	(void)kt_tunnel_row_checked(w, row);
	kt_port_pkts_add(w, 3, 1);                   /* beside a dense table */
	memcpy(mk.mac, sk.mac, sizeof(mk.mac));
	(void)km_station_insert(seg, &mk, &row);
	km_station_frames_add(w, row, 1);
	strcpy(ek.user, "a-user-name-of-up-to-sixty-four-characters");
	(void)ke_session_insert(seg, &ek, &row);
	ke_session_logins_add(w, row, 1);
	memcpy(ec.ip, hk.addr, 4);
	memcpy(ec.hw, sk.mac, 6);
	(void)ke_client_remove(seg, &ec);

	{
		struct kt_tx tx = kt_tx_begin(w);
		struct kt_tunnel_ref tr = kt_tx_tunnel(&tx, row);
		struct kt_peer_queue_ref pr = kt_tx_peer_queue(&tx, row);
		struct km_tx mtx = km_tx_begin(w);

		kt_tunnel_ref_bytes_add(tr, 64);
		kt_tx_tunnel_pkts_add(&tx, row, 1);
		kt_peer_queue_ref_backlog_sub(pr, 1);
		kt_tx_host_sessions_set(&tx, row, 3);
		kt_tx_station_frames_add(&tx, row, 1);
		kt_tx_customer_octets_add(&tx, row, 1500);
		kt_tx_port_pkts_add(&tx, 3, 1);
		kt_tx_end(&tx);
		km_tx_station_frames_add(&mtx, row, 1);
		km_tx_end(&mtx);
	}
}

/* States: every setter kind (each C type of a state), the whole-row set and
 * get, in a scalar group, a dense table and a keyed table; the counters
 * beside them. */
int
compile_check_states(struct fastmib_segment *seg, struct fastmib_writer *w)
{
	static const uint8_t ip[4] = { 192, 0, 2, 1 }, mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct fastmib_inet_address peer = { 1, { 10, 0, 0, 1 } };
	struct st_system_state s;
	struct st_port_state p;
	struct st_tunnel_state t;
	struct st_tunnel_key k;
	uint32_t row = 0;
	int rc = 0;

	st_system_pkts_add(w, 1);
	rc |= st_system_state_get(seg, &s);
	s.mode = ST_SYSTEM_MODE_SAFE;
	rc |= st_system_state_set(seg, &s);
	rc |= st_system_forwarding_set(seg, true);            /* bool */
	rc |= st_system_mode_set(seg, ST_SYSTEM_MODE_OFF);    /* enum */
	rc |= st_system_level_set(seg, -3);                   /* int32_t */
	rc |= st_system_speed_set(seg, 10000u);               /* uint32_t */
	rc |= st_system_octets_queued_set(seg, UINT64_MAX);   /* uint64_t */
	rc |= st_system_uptime_set(seg, 100u);                /* timeticks */
	rc |= st_system_last_change_set(seg, fastmib_monotonic_ns()); /* timestamp */
	rc |= st_system_started_set(seg, fastmib_time_ns());  /* date-and-time */
	rc |= st_system_version_set(seg, "v2");               /* text */
	rc |= st_system_cookie_set(seg, mac, sizeof(mac));    /* octets */
	rc |= st_system_router_id_set(seg, ip);               /* ipv4 */
	rc |= st_system_peer_set(seg, &peer);                 /* inet-address */
	rc |= st_system_mac_set(seg, mac);                    /* mac */
	rc |= st_info_weight_set(seg, 7u);                    /* states only */
	rc |= st_port_state_get(seg, st_port_row(1), &p);     /* dense table */
	rc |= st_port_link_set(seg, st_port_row(1), ST_PORT_LINK_UP);
	rc |= st_lane_power_set(seg, st_lane_row(1, 2), -4);
	memset(&k, 0, sizeof(k));
	k.endpoint = peer;
	if (st_tunnel_insert(seg, &k, &row) == 0) {           /* keyed table */
		rc |= st_tunnel_state_get(seg, row, &t);
		rc |= st_tunnel_key_set(seg, row, ip, 4);
		st_tunnel_pkts_add(w, row, 1);
	}
	return rc;
}

/* Histograms and peaks: every form of their functions, in a scalar group,
 * a dense table (an index named v: the operand is v_) and a keyed table. */
void
compile_check_histograms(struct fastmib_segment *seg, struct fastmib_writer *w)
{
	struct hg_flow_key k;
	uint32_t row = 0;

	fastmib_begin(w);
	hg_system_latency_observe(w, 100);           /* log2 */
	hg_system_burst_observe(w, 32);              /* bounds: a sum of compares */
	hg_system_queue_depth_peak(w, 7);
	hg_port_size_observe(w, 3, 1, 1500);         /* 32 bounds: a binary search */
	hg_port_peak_burst_peak(w, 3, 1, 32);
	memset(&k, 0, sizeof(k));
	k.peer.type = 1;
	k.teid = 7;
	if (hg_flow_insert(seg, &k, &row) == 0) {
		hg_flow_gap_observe(w, row, 10);
		hg_flow_max_gap_peak(w, row, 10);
	}
	fastmib_end(w);
	{
		struct hg_tx tx = hg_tx_begin(w);
		struct hg_port_ref p = hg_tx_port(&tx, 3, 1);
		struct hg_flow_ref f = hg_tx_flow(&tx, row);

		hg_tx_system_latency_observe(&tx, 100);
		hg_tx_system_queue_depth_peak(&tx, 8);
		hg_port_ref_size_observe(p, 64);
		hg_port_ref_peak_burst_peak(p, 16);
		hg_tx_port_size_observe(&tx, 0, 0, 9000);
		hg_tx_port_peak_burst_peak(&tx, 0, 0, 9);
		hg_flow_ref_gap_observe(f, 1u << 20);
		hg_flow_ref_max_gap_peak(f, 1u << 20);
		hg_tx_flow_gap_observe(&tx, row, 3);
		hg_tx_flow_max_gap_peak(&tx, row, 3);
		hg_tx_end(&tx);
	}
	(void)hg_system_burst_bucket(0);
	(void)hg_port_size_bucket(UINT64_MAX);
}
