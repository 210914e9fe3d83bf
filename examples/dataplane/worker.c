/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fast path of the example data plane.
 *
 * Each worker lcore polls its own RX queue on every port, in bursts of 32,
 * and forwards what it receives to the paired port (0<->1, 2<->3), like
 * l2fwd. Virtual ports (net_null) deliver zero-filled packets, so the
 * worker first plays traffic generator and writes an Ethernet/IPv4/TCP or
 * UDP header from its own PRNG into each packet; the data-plane part then
 * parses that header, as it would parse real traffic, and looks the
 * 5-tuple up in its flow table.
 *
 * Counter updates: one fastmib transaction per burst. Everything a burst
 * changes (global, per-port, per-queue, per-flow counters) is published
 * together, and the per-burst cost of fastmib_begin()/fastmib_end() is
 * spread over up to 32 packets.
 *
 * Distributions: each burst with packets is observed twice, inside the
 * same transaction: its processing time (from the receive call's return
 * to the transaction, TSC cycles converted to nanoseconds) in the log2
 * histogram epGlobalBurstTime, its size in the port's epPortRxBurst
 * (bounds 1, 2, 4, 8, 16, 31, 32), and the size raises the port's peak
 * epPortRxBurstMax. Empty polls are not bursts: they count in polls only.
 *
 * Event log: each receive burst re-draws the lcore's event threshold
 * (fastmib_event_burst()) and is bracketed by burstStart/burstEnd, so the
 * lag of burstEnd is the cycles the burst took; flowCreated/flowExpired
 * (level 2) nest inside. These are sampled: most bursts log nothing. Every
 * malformed packet logs badHeader with a reason code, and every flow the
 * full table could not take logs flowTableFull (rate 9: always, and sent
 * as SNMP notifications by the agent, which limits their rate).
 *
 * Flush policy (shared-buffered flow counters): fastmib_end() attempts a
 * non-blocking flush every few transactions on its own; in addition the
 * worker calls fastmib_flush() on every empty poll (the queue is idle, so
 * there is time) and before it expires flows, so that a recycled flow row
 * never receives late updates of the flow that owned it before.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "app.h"

#define HDR_MIN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + 4)

/* Reason codes of the badHeader event (its `reason` argument). */
enum bad_reason {
	BAD_NONE = 0,
	BAD_SHORT = 1,     /* too short for Ethernet + IPv4 + ports */
	BAD_ETHERTYPE = 2, /* not IPv4 */
	BAD_VERSION = 3,   /* IPv4 ethertype, but not IP version 4 */
	BAD_IHL = 4,       /* header length field out of range */
};

/* xorshift64*: small, fast, and good enough to pick synthetic traffic. */
static inline uint64_t
rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static inline uint32_t
rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(((rng_next(s) >> 32) * n) >> 32);
}

/* RTE_IPV4() shifts an int: 192 << 24 overflows it. */
static inline uint32_t
ipv4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return a << 24 | (b & 0xff) << 16 | (c & 0xff) << 8 | (d & 0xff);
}

/* A new synthetic flow: a client of this lcore's subnet talking to one of
 * APP_SERVERS servers, on one of five services. */
static void
gen_new_flow(struct worker *wk, struct gen_flow *g)
{
	static const uint16_t services[] = { 80, 443, 53, 123, 8080 };
	uint64_t r = rng_next(&wk->rng);
	uint32_t mean = wk->app->cfg.flow_len;

	memset(&g->key, 0, sizeof(g->key));
	g->key.src_ip = ipv4(10, wk->index, (uint32_t)(r >> 8), (uint32_t)r);
	g->key.dst_ip = ipv4(192, 168, 0, 1 + (uint32_t)(r >> 16) % APP_SERVERS);
	g->key.src_port = (uint16_t)(1024 + ((r >> 32) % 64512));
	g->key.dst_port = services[(r >> 48) % RTE_DIM(services)];
	g->key.proto = g->key.dst_port == 53 || g->key.dst_port == 123 ?
		       IPPROTO_UDP : IPPROTO_TCP;
	/* Lengths uniform in 1..2*mean: the mean is what --flow-len asks. */
	g->remaining = 1 + rng_below(&wk->rng, 2 * mean);
}

/* Write the header of a packet of one of this lcore's generated flows. */
static void
gen_fill(struct worker *wk, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	uint16_t *ports = (uint16_t *)(ip + 1);
	uint32_t bad = wk->app->cfg.bad_every;
	struct gen_flow *g;

	if (unlikely(rte_pktmbuf_data_len(m) < HDR_MIN))
		return; /* too short to carry a header: parsed as malformed */
	if (bad != 0 && rng_below(&wk->rng, bad) == 0) {
		eth->ether_type = 0; /* neither IPv4 nor anything else we know */
		return;
	}
	g = &wk->gen[rng_below(&wk->rng, wk->n_gen)];
	if (g->remaining == 0)
		gen_new_flow(wk, g);
	g->remaining--;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->next_proto_id = g->key.proto;
	ip->src_addr = rte_cpu_to_be_32(g->key.src_ip);
	ip->dst_addr = rte_cpu_to_be_32(g->key.dst_ip);
	ports[0] = rte_cpu_to_be_16(g->key.src_port);
	ports[1] = rte_cpu_to_be_16(g->key.dst_port);
}

/* Parse the 5-tuple; BAD_NONE, or why the packet cannot be classified. */
static inline enum bad_reason
parse_key(const struct rte_mbuf *m, struct flow_key *key)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	uint32_t ihl;
	const uint16_t *l4;

	if (rte_pktmbuf_data_len(m) < HDR_MIN)
		return BAD_SHORT;
	if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		return BAD_ETHERTYPE;
	if ((ip->version_ihl >> 4) != 4)
		return BAD_VERSION;
	ihl = (ip->version_ihl & 0xf) * 4u;
	if (ihl < sizeof(*ip) ||
	    rte_pktmbuf_data_len(m) < sizeof(*eth) + ihl + 4)
		return BAD_IHL;
	memset(key, 0, sizeof(*key));
	key->src_ip = rte_be_to_cpu_32(ip->src_addr);
	key->dst_ip = rte_be_to_cpu_32(ip->dst_addr);
	key->proto = ip->next_proto_id;
	if (key->proto == IPPROTO_TCP || key->proto == IPPROTO_UDP) {
		l4 = (const uint16_t *)((const uint8_t *)ip + ihl);
		key->src_port = rte_be_to_cpu_16(l4[0]);
		key->dst_port = rte_be_to_cpu_16(l4[1]);
	}
	return BAD_NONE;
}

int
worker_init(struct worker *wk)
{
	struct app *app = wk->app;
	int socket = (int)rte_lcore_to_socket_id(wk->lcore);
	uint32_t n = app->cfg.flows / app->n_workers +
		     (wk->index < app->cfg.flows % app->n_workers);

	wk->rng = app->cfg.seed * 0x9E3779B97F4A7C15ULL + wk->index + 1;
	wk->n_gen = n ? n : 1;
	wk->gen = rte_zmalloc_socket("gen", wk->n_gen * sizeof(*wk->gen), 0, socket);
	if (wk->gen == NULL)
		return -ENOMEM;
	return flow_table_init(&wk->ft, wk->index, app->n_workers, EP_FLOW_ROWS, socket);
}

void
worker_free(struct worker *wk)
{
	flow_table_free(&wk->ft);
	rte_free(wk->gen);
	wk->gen = NULL;
}

/* Per-packet results of the classify step, consumed by the counter step. */
struct burst {
	uint16_t n_rx, n_fwd, n_sent, n_bad, n_full, n_new;
	uint32_t flow[BURST_SIZE];      /* local flow slot per forwarded packet */
	uint32_t len[BURST_SIZE];       /* length per forwarded packet */
	struct rte_mbuf *fwd[BURST_SIZE];
	uint64_t rx_bytes, tx_bytes;
};

/*
 * Classify a received burst: look flows up, create missing ones (their row
 * is enabled before any update lands in it), drop malformed packets.
 */
static void
classify(struct worker *wk, struct fastmib_writer *w, uint16_t rx_port,
	 struct rte_mbuf **pkts, struct burst *b, uint64_t now)
{
	struct fastmib_segment *seg = wk->app->seg;

	for (uint16_t i = 0; i < b->n_rx; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t len = rte_pktmbuf_pkt_len(m), slot;
		struct flow_key key;
		enum bad_reason why;

		b->rx_bytes += len;
		why = parse_key(m, &key);
		if (unlikely(why != BAD_NONE)) {
			b->n_bad++;
			ep_event_bad_header(w, rx_port, (int32_t)why);
			rte_pktmbuf_free(m);
			continue;
		}
		slot = flow_table_lookup(&wk->ft, &key);
		if (slot == FLOW_NONE) {
			slot = flow_table_insert(&wk->ft, &key, now);
			if (slot != FLOW_NONE) {
				uint32_t id = flow_table_id(&wk->ft, slot);

				b->n_new++;
				wk->ft.flows[slot].server_row =
					server_row(&wk->servers, seg, key.dst_ip, key.dst_port);
				fastmib_row_enable(seg, EP_GROUP_FLOW, ep_flow_row(id));
				ep_event_flow_created(w, id);
			} else {
				b->n_full++; /* forwarded, but not accounted to a flow */
				ep_event_flow_table_full(w, wk->ft.n_active);
			}
		} else {
			flow_table_touch(&wk->ft, slot, now);
		}
		b->flow[b->n_fwd] = slot;
		b->len[b->n_fwd] = len;
		b->fwd[b->n_fwd++] = m;
	}
}

/*
 * TSC cycles to nanoseconds: one multiply by the 32.32 fixed-point ratio
 * and a shift. Cycles are capped at 2^32 - 1 (1.6 s at 2.6 GHz) so that
 * the product fits 64 bits; a burst that long lands in the last bucket
 * (above 2^21 ns) either way.
 */
static inline uint64_t
cycles_to_ns(const struct app *app, uint64_t cycles)
{
	return (RTE_MIN(cycles, (uint64_t)UINT32_MAX) * app->ns_per_cycle_32) >> 32;
}

/*
 * Publish everything one burst did as one transaction, `ns` its
 * processing time: the counters, the burst time and size histograms and
 * the port's largest burst are read all from one burst or none.
 */
static void
count_burst(struct worker *wk, struct fastmib_writer *w, uint16_t rx_port,
	    uint16_t tx_port, const struct burst *b, uint64_t ns)
{
	struct worker_tally *t = &wk->tally;
	uint16_t q = wk->index;
	uint64_t drops = b->n_bad + (uint64_t)(b->n_fwd - b->n_sent);

	fastmib_begin(w);
	ep_global_polls_add(w, 1);
	ep_global_burst_time_observe(w, ns);
	ep_port_rx_burst_observe(w, rx_port, b->n_rx);
	ep_port_rx_burst_max_peak(w, rx_port, b->n_rx);
	ep_global_rx_pkts_add(w, b->n_rx);
	ep_global_rx_bytes_add(w, b->rx_bytes);
	ep_global_tx_pkts_add(w, b->n_sent);
	ep_global_tx_bytes_add(w, b->tx_bytes);
	if (drops)
		ep_global_drops_add(w, drops);
	ep_port_rx_pkts_add(w, rx_port, b->n_rx);
	ep_port_rx_bytes_add(w, rx_port, b->rx_bytes);
	ep_port_tx_pkts_add(w, tx_port, b->n_sent);
	ep_port_tx_bytes_add(w, tx_port, b->tx_bytes);
	ep_port_queue_pkts_add(w, rx_port, q, b->n_rx);
	ep_port_queue_bytes_add(w, rx_port, q, b->rx_bytes);
	for (uint16_t i = 0; i < b->n_fwd; i++) {
		uint32_t slot = b->flow[i];
		struct flow *f;

		if (slot == FLOW_NONE)
			continue;
		f = &wk->ft.flows[slot];
		f->pkts++;
		f->bytes += b->len[i];
		ep_flow_pkts_add(w, flow_table_id(&wk->ft, slot), 1);
		ep_flow_bytes_add(w, flow_table_id(&wk->ft, slot), b->len[i]);
		if (f->server_row == SERVER_NONE)
			continue;
		/* a keyed table's row is counted like any other row */
		ep_server_pkts_add(w, f->server_row, 1);
		ep_server_bytes_add(w, f->server_row, b->len[i]);
		t->server_pkts[f->server_row]++;
		t->server_bytes[f->server_row] += b->len[i];
	}
	if (b->n_new) {
		ep_flow_state_flows_created_add(w, b->n_new);
		ep_flow_state_active_flows_add(w, b->n_new);
	}
	if (unlikely(b->n_bad))
		ep_errors_bad_headers_add(w, b->n_bad);
	if (unlikely(b->n_full))
		ep_errors_flow_table_full_add(w, b->n_full);
	fastmib_end(w);

	t->polls++;
	__atomic_store_n(&t->rx_pkts, t->rx_pkts + b->n_rx, __ATOMIC_RELAXED);
	t->rx_bytes += b->rx_bytes;
	t->tx_pkts += b->n_sent;
	t->tx_bytes += b->tx_bytes;
	t->drops += drops;
	t->bad_headers += b->n_bad;
	t->table_full += b->n_full;
	t->flows_created += b->n_new;
	t->port_rx_pkts[rx_port] += b->n_rx;
	t->port_rx_bytes[rx_port] += b->rx_bytes;
	t->port_tx_pkts[tx_port] += b->n_sent;
	t->port_tx_bytes[tx_port] += b->tx_bytes;
	t->burst_time_bucket[ep_global_burst_time_bucket(ns)]++;
	t->burst_time_count++;
	t->burst_time_sum += ns;
	t->port_burst_bucket[rx_port][ep_port_rx_burst_bucket(b->n_rx)]++;
	t->port_burst_count[rx_port]++;
	t->port_burst_max[rx_port] = RTE_MAX(t->port_burst_max[rx_port], (uint64_t)b->n_rx);
}

/* An empty poll is still a poll; the idle moment is used to flush. */
static void
count_empty_poll(struct worker *wk, struct fastmib_writer *w)
{
	fastmib_begin(w);
	ep_global_polls_add(w, 1);
	fastmib_end(w);
	wk->tally.polls++;
	if (w->n_ops)
		fastmib_flush(w);
}

/*
 * Remove flows idle for longer than the timeout. Their last updates are
 * flushed first: once the row is disabled, the id may be handed to a new
 * flow, and fastmib_row_enable() takes the row's value at that moment as
 * the new flow's zero.
 */
static void
expire_flows(struct worker *wk, struct fastmib_writer *w, uint64_t now)
{
	uint64_t timeout = wk->app->flow_timeout_tsc;
	uint32_t slot, n = 0;

	if (now < timeout ||
	    flow_table_oldest_idle(&wk->ft, now - timeout) == FLOW_NONE)
		return;
	fastmib_flush(w);
	while ((slot = flow_table_oldest_idle(&wk->ft, now - timeout)) != FLOW_NONE) {
		uint32_t id = flow_table_id(&wk->ft, slot);

		fastmib_row_disable(wk->app->seg, EP_GROUP_FLOW, ep_flow_row(id));
		ep_event_flow_expired(w, id, wk->ft.flows[slot].pkts);
		flow_table_remove(&wk->ft, slot);
		n++;
	}
	ep_flow_state_flows_expired_add(w, n);
	ep_flow_state_active_flows_sub(w, n);
	wk->tally.flows_expired += n;
}

/*
 * How many packets to ask for now: at most a burst, within the quota, and
 * within what --rate allows since `start` (token bucket without a backlog
 * cap, so short stalls are caught up). Paced polls wait until a burst, or
 * one millisecond's worth of packets when that is less, is due: bursts
 * stay as large as the rate allows.
 */
static uint16_t
burst_budget(const struct worker *wk, uint64_t start, uint64_t now)
{
	uint64_t done = wk->tally.rx_pkts;
	uint64_t want = RTE_MIN((uint64_t)BURST_SIZE, wk->quota - done);
	double tokens, min_burst;

	if (wk->app->cfg.rate == 0 || want == 0)
		return (uint16_t)want;
	tokens = (double)(now - start) * wk->rate / (double)wk->app->tsc_hz -
		 (double)done;
	min_burst = RTE_MIN((double)want, RTE_MAX(1.0, wk->rate / 1000.0));
	if (tokens < min_burst)
		return 0;
	return (uint16_t)RTE_MIN((double)want, tokens);
}

static uint16_t
peer_port(const struct app *app, uint16_t i)
{
	uint16_t j = i ^ 1;

	return j < app->n_ports ? app->ports[j] : app->ports[i];
}

int
worker_main(void *arg)
{
	struct worker *wk = arg;
	struct app *app = wk->app;
	struct fastmib_writer *w = fastmib_writer(app->seg);
	struct rte_mbuf *pkts[BURST_SIZE];
	uint64_t start = rte_get_tsc_cycles();
	uint16_t pi = 0;

	if (w == NULL) {
		RTE_LOG(ERR, USER1, "lcore %u: no counter writer: %s\n", wk->lcore,
			fastmib_last_error());
		__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
		return -1;
	}
	while (!__atomic_load_n(&app->stop, __ATOMIC_RELAXED)) {
		uint64_t now = rte_get_tsc_cycles();
		uint16_t want = burst_budget(wk, start, now);
		uint16_t rx_port = app->ports[pi], tx_port = peer_port(app, pi);
		uint64_t t_rx;
		struct burst b;

		if (want == 0) {
			if (wk->tally.rx_pkts >= wk->quota)
				break;
			if (w->n_ops)
				fastmib_flush(w); /* pacing: idle until the next token */
			expire_flows(wk, w, now);
			rte_pause();
			continue;
		}
		pi = (uint16_t)((pi + 1) % app->n_ports);
		b.n_rx = rte_eth_rx_burst(rx_port, wk->index, pkts, want);
		if (b.n_rx == 0) {
			count_empty_poll(wk, w);
			expire_flows(wk, w, now);
			continue;
		}
		t_rx = rte_get_tsc_cycles(); /* the burst's processing starts */
		fastmib_event_burst(w);
		ep_event_burst_start(w, rx_port, b.n_rx);
		for (uint16_t i = 0; i < b.n_rx; i++)
			gen_fill(wk, pkts[i]);
		b.n_fwd = b.n_bad = b.n_full = b.n_new = 0;
		b.rx_bytes = b.tx_bytes = 0;
		classify(wk, w, rx_port, pkts, &b, now);
		b.n_sent = rte_eth_tx_burst(tx_port, wk->index, b.fwd, b.n_fwd);
		for (uint16_t i = 0; i < b.n_sent; i++)
			b.tx_bytes += b.len[i];
		if (unlikely(b.n_sent < b.n_fwd))
			rte_pktmbuf_free_bulk(&b.fwd[b.n_sent], b.n_fwd - b.n_sent);
		count_burst(wk, w, rx_port, tx_port, &b,
			    cycles_to_ns(app, rte_get_tsc_cycles() - t_rx));
		ep_event_burst_end(w, b.n_rx, b.rx_bytes);
		expire_flows(wk, w, now);
	}
	fastmib_flush(w);
	__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
	return 0;
}
