/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-example: a small DPDK data plane whose statistics live in a
 * fastmib segment (model: examples/dataplane.yaml).
 *
 * Lcore roles: the main lcore is the control plane (progress lines, NIC
 * statistics, the model's states (states.c), links set down and up on
 * SIGUSR1, shutdown); every worker lcore runs the fast path of worker.c on
 * its own RX/TX queue of every port. At least one worker lcore is needed
 * (e.g. -l 0-1).
 *
 *   fastmib-example -l 0-1 --no-huge --no-pci --no-shconf --no-telemetry \
 *       -m 256 --vdev=net_null0 --vdev=net_null1 -- \
 *       --segment /dev/shm/fastmib-demo --duration 5
 *
 * It exits cleanly on SIGINT and SIGTERM as at the end of a run, and leaves
 * no runtime directory of its EAL behind (rundir.c). SIGUSR1 sets the link
 * of each port down where its driver can, the next one up again (net_ring
 * can, net_null cannot): a link change to see in epPortLink without
 * hardware.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "app.h"
#include "rundir.h"

#define RX_DESC 1024
#define TX_DESC 1024
#define MBUF_CACHE 256

/* Signal handlers cannot take an argument: these flags are their only
 * output. */
static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t link_toggles; /* SIGUSR1s not yet acted on */

static void
on_signal(int sig)
{
	quit_signal = sig;
}

static void
on_link_signal(int sig)
{
	(void)sig;
	link_toggles++;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [EAL options] -- [options]\n"
		"Example DPDK data plane with fast-path counters in a fastmib segment.\n"
		"\n"
		"  --segment PATH       counter segment to create (default /dev/shm/fastmib-example)\n"
		"  --duration SECONDS   stop after this time (default: until signal or --packets)\n"
		"  --packets N          stop after exactly N received packets in total\n"
		"  --hold               with --packets: once they are counted, keep running\n"
		"                       (segment open, counters still, telemetry answering)\n"
		"                       until a signal or --duration\n"
		"  --rate PPS           pace reception to PPS packets/s in total (0 = unpaced)\n"
		"  --flows N            concurrent synthetic flows to generate (default 1000)\n"
		"  --flow-len N         mean packets per synthetic flow (default 1000)\n"
		"  --flow-timeout MS    idle time after which a flow expires (default 100)\n"
		"  --bad-every N        make one packet in N malformed (default 10000, 0 = none)\n"
		"  --seed N             seed of the traffic generator (default 1)\n"
		"  --summary FILE       write final totals as JSON to FILE\n"
		"  --quiet              no per-second progress lines\n"
		"  --help               this text\n"
		"\n"
		"At least one worker lcore is required besides the main lcore.\n"
		"\n"
		"Besides its counters, the segment holds the states the main lcore sets:\n"
		"the application's version and start time, each port's name, link and\n"
		"speed (as the device reports them, looked at every 100 ms), and each\n"
		"server's status and last packet (from its packet counter, every 100 ms).\n"
		"\n"
		"Signals: SIGINT and SIGTERM end the run as its end would. SIGUSR1 sets\n"
		"the link of each port down where its driver can, the next SIGUSR1 up\n"
		"again (rte_eth_dev_set_link_down/up: net_ring can, net_null cannot);\n"
		"the next look sees the change, which the agent sends as epPortLinkChange.\n",
		prog);
}

static int
parse_u64(const char *opt, const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || *v > max) {
		fprintf(stderr, "%s: '%s' is not a number in 0..%" PRIu64 "\n", opt, s, max);
		return -EINVAL;
	}
	return 0;
}

static int
parse_args(int argc, char **argv, struct app_config *c)
{
	enum { O_SEGMENT = 256, O_DURATION, O_PACKETS, O_RATE, O_FLOWS, O_FLOW_LEN,
	       O_FLOW_TIMEOUT, O_BAD_EVERY, O_SEED, O_SUMMARY, O_QUIET, O_HOLD };
	static const struct option longopts[] = {
		{ "segment", required_argument, NULL, O_SEGMENT },
		{ "duration", required_argument, NULL, O_DURATION },
		{ "packets", required_argument, NULL, O_PACKETS },
		{ "hold", no_argument, NULL, O_HOLD },
		{ "rate", required_argument, NULL, O_RATE },
		{ "flows", required_argument, NULL, O_FLOWS },
		{ "flow-len", required_argument, NULL, O_FLOW_LEN },
		{ "flow-timeout", required_argument, NULL, O_FLOW_TIMEOUT },
		{ "bad-every", required_argument, NULL, O_BAD_EVERY },
		{ "seed", required_argument, NULL, O_SEED },
		{ "summary", required_argument, NULL, O_SUMMARY },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int opt;
	char *end;

	*c = (struct app_config){
		.segment = "/dev/shm/fastmib-example",
		.flows = 1000, .flow_len = 1000, .flow_timeout_ms = 100,
		.bad_every = 10000, .seed = 1,
	};
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		const char *name = argv[optind - 1];
		int rc = 0;

		switch (opt) {
		case O_SEGMENT:
			c->segment = optarg;
			break;
		case O_DURATION:
			errno = 0;
			c->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->duration >= 0)) {
				fprintf(stderr, "--duration: '%s' is not a number of seconds\n",
					optarg);
				rc = -EINVAL;
			}
			break;
		case O_PACKETS:
			rc = parse_u64(name, optarg, UINT64_MAX - 1, &c->packets);
			break;
		case O_RATE:
			rc = parse_u64(name, optarg, UINT64_MAX, &c->rate);
			break;
		case O_FLOWS:
			rc = parse_u64(name, optarg, EP_FLOW_ROWS, &v);
			c->flows = (uint32_t)v;
			if (rc == 0 && v == 0) {
				fprintf(stderr, "--flows: at least 1\n");
				rc = -EINVAL;
			}
			break;
		case O_FLOW_LEN:
			rc = parse_u64(name, optarg, UINT32_MAX / 2, &v);
			c->flow_len = v ? (uint32_t)v : 1;
			break;
		case O_FLOW_TIMEOUT:
			rc = parse_u64(name, optarg, 3600000, &v);
			c->flow_timeout_ms = (uint32_t)v;
			break;
		case O_BAD_EVERY:
			rc = parse_u64(name, optarg, UINT32_MAX, &v);
			c->bad_every = (uint32_t)v;
			break;
		case O_SEED:
			rc = parse_u64(name, optarg, UINT64_MAX, &c->seed);
			break;
		case O_SUMMARY:
			c->summary = optarg;
			break;
		case O_QUIET:
			c->quiet = true;
			break;
		case O_HOLD:
			c->hold = true;
			break;
		default:
			rc = -EINVAL;
			break;
		}
		if (rc < 0)
			return rc;
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (c->hold && c->packets == 0) {
		fprintf(stderr, "--hold needs --packets: the counting it waits for to end\n");
		return -EINVAL;
	}
	return 0;
}

/* --help after "--" is answered before the EAL starts. */
static bool
wants_help(int argc, char **argv)
{
	bool app = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			app = true;
		else if (app && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0))
			return true;
	}
	return false;
}

/* ---- ports ---- */

static struct rte_mempool *
pool_for_socket(struct rte_mempool **pools, int socket, unsigned int n_mbufs)
{
	unsigned int idx = socket < 0 ? 0 : (unsigned int)socket;
	char name[RTE_MEMPOOL_NAMESIZE];

	if (idx >= RTE_MAX_NUMA_NODES)
		return NULL;
	if (pools[idx] == NULL) {
		snprintf(name, sizeof(name), "mbufs_%u", idx);
		pools[idx] = rte_pktmbuf_pool_create(name, n_mbufs, MBUF_CACHE, 0,
						     RTE_MBUF_DEFAULT_BUF_SIZE,
						     socket < 0 ? SOCKET_ID_ANY : socket);
	}
	return pools[idx];
}

static int
port_init(struct app *app, uint16_t port, struct rte_mempool **pools)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	uint16_t nq = app->n_workers, nrx = RX_DESC, ntx = TX_DESC;
	int socket = rte_eth_dev_socket_id(port);
	unsigned int n_mbufs = RTE_MAX(8191u, nq * (RX_DESC + TX_DESC) * 2u +
				       app->n_workers * (BURST_SIZE + MBUF_CACHE));
	struct rte_mempool *mp;
	int rc;

	rc = rte_eth_dev_info_get(port, &info);
	if (rc < 0)
		return rc;
	if (nq > info.max_rx_queues || nq > info.max_tx_queues) {
		fprintf(stderr, "port %u: %u queues needed, device has %u RX / %u TX\n",
			port, nq, info.max_rx_queues, info.max_tx_queues);
		return -EINVAL;
	}
	mp = pool_for_socket(pools, socket, n_mbufs);
	if (mp == NULL) {
		fprintf(stderr, "port %u: no mbuf pool: %s\n", port, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	rc = rte_eth_dev_configure(port, nq, nq, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nrx, &ntx);
	for (uint16_t q = 0; rc == 0 && q < nq; q++) {
		rc = rte_eth_rx_queue_setup(port, q, nrx, socket, NULL, mp);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(port, q, ntx, socket, NULL);
	}
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	if (rc < 0)
		fprintf(stderr, "port %u: set-up failed: %s\n", port, rte_strerror(-rc));
	return rc;
}

static int
ports_init(struct app *app, struct rte_mempool **pools)
{
	uint16_t port;

	RTE_ETH_FOREACH_DEV(port) {
		if (port >= APP_MAX_PORTS) {
			fprintf(stderr, "port %u: the counter model has rows for ports "
				"0..%u only\n", port, APP_MAX_PORTS - 1);
			return -EINVAL;
		}
		app->ports[app->n_ports++] = port;
	}
	if (app->n_ports == 0) {
		fprintf(stderr, "no ports: give devices, e.g. --vdev=net_null0 "
			"--vdev=net_null1\n");
		return -ENODEV;
	}
	for (uint16_t i = 0; i < app->n_ports; i++) {
		int rc = port_init(app, app->ports[i], pools);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * SIGUSR1: the link of each port goes down where its driver can set it, at
 * the next signal up again. The states follow at the next look, from the
 * device's link status, as for a link that changed on its own.
 */
static void
ports_toggle_links(struct app *app)
{
	for (uint16_t i = 0; i < app->n_ports; i++) {
		uint16_t p = app->ports[i];
		bool down = !app->link_set_down[p];
		int rc = down ? rte_eth_dev_set_link_down(p) : rte_eth_dev_set_link_up(p);

		if (rc == 0)
			app->link_set_down[p] = down;
		if (app->cfg.quiet && rc == 0)
			continue;
		if (rc == 0)
			printf("port %u: link set %s\n", p, down ? "down" : "up");
		else
			printf("port %u: link not set %s: %s\n", p, down ? "down" : "up",
			       rc == -ENOTSUP ? "its driver cannot" : rte_strerror(-rc));
	}
	fflush(stdout);
}

static void
ports_stop(struct app *app)
{
	for (uint16_t i = 0; i < app->n_ports; i++) {
		rte_eth_dev_stop(app->ports[i]);
		rte_eth_dev_close(app->ports[i]);
	}
}

/* ---- control plane ---- */

/*
 * NIC-level counters the fast path cannot see (receive errors, mbuf
 * allocation failures) are merged by the main lcore through its own
 * writer, as deltas since the last merge.
 */
struct nic_state {
	uint64_t ierrors[APP_MAX_PORTS], nombuf[APP_MAX_PORTS];
	uint64_t rx_errors[APP_MAX_PORTS], alloc_fails; /* merged so far */
};

static void
merge_nic_stats(struct app *app, struct fastmib_writer *w, struct nic_state *ns)
{
	fastmib_begin(w);
	for (uint16_t i = 0; i < app->n_ports; i++) {
		uint16_t p = app->ports[i];
		struct rte_eth_stats st;

		if (rte_eth_stats_get(p, &st) != 0)
			continue;
		if (st.ierrors > ns->ierrors[p]) {
			ep_port_rx_errors_add(w, p, st.ierrors - ns->ierrors[p]);
			ns->rx_errors[p] += st.ierrors - ns->ierrors[p];
			ns->ierrors[p] = st.ierrors;
		}
		if (st.rx_nombuf > ns->nombuf[p]) {
			ep_global_mbuf_alloc_fails_add(w, st.rx_nombuf - ns->nombuf[p]);
			ns->alloc_fails += st.rx_nombuf - ns->nombuf[p];
			ns->nombuf[p] = st.rx_nombuf;
		}
	}
	fastmib_end(w);
}

static uint64_t
total_rx(const struct app *app)
{
	uint64_t n = 0;

	for (uint16_t i = 0; i < app->n_workers; i++)
		n += __atomic_load_n(&app->workers[i].tally.rx_pkts, __ATOMIC_RELAXED);
	return n;
}

static uint32_t
total_active_flows(const struct app *app)
{
	uint32_t n = 0;

	for (uint16_t i = 0; i < app->n_workers; i++)
		n += __atomic_load_n(&app->workers[i].ft.n_active, __ATOMIC_RELAXED);
	return n;
}

static bool
workers_done(const struct app *app)
{
	for (uint16_t i = 0; i < app->n_workers; i++)
		if (!__atomic_load_n(&app->workers[i].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* Run until a signal, --duration, or every worker used up its quota (with
 * --hold, that last one only stops the counting). */
static double
control_loop(struct app *app, struct fastmib_writer *w, struct nic_state *ns)
{
	uint64_t hz = app->tsc_hz, start = rte_get_tsc_cycles();
	uint64_t next = start + hz, last_pkts = 0, last_tsc = start;
	uint64_t end = app->cfg.duration > 0 ?
		       start + (uint64_t)(app->cfg.duration * (double)hz) : UINT64_MAX;
	uint64_t look = 0; /* fastmib_monotonic_ns() of the next look at the states */
	sig_atomic_t toggles = 0;
	bool held = false;

	for (;;) {
		uint64_t now = rte_get_tsc_cycles(), mono = fastmib_monotonic_ns();

		if (quit_signal || now >= end)
			break;
		if (toggles != link_toggles) {
			toggles++;
			ports_toggle_links(app);
			look = 0; /* the new link now, not in up to 100 ms */
		}
		if (mono >= look) {
			states_look(app, mono);
			look = mono + STATES_LOOK_NS;
		}
		if (!held && workers_done(app)) {
			if (!app->cfg.hold)
				break;
			/* Workers flushed before they returned; merge the NIC
			 * counters now so that nothing changes from here on. */
			merge_nic_stats(app, w, ns);
			fastmib_flush(w);
			held = true;
			if (!app->cfg.quiet)
				printf("%" PRIu64 " packets counted; holding until a signal\n",
				       total_rx(app));
			fflush(stdout);
		}
		if (now >= next) {
			uint64_t pkts = total_rx(app);
			double dt = (double)(now - last_tsc) / (double)hz;

			merge_nic_stats(app, w, ns);
			if (!app->cfg.quiet)
				printf("%6.1fs  %14" PRIu64 " pkts  %8.3f Mpps  %8u active flows\n",
				       (double)(now - start) / (double)hz, pkts,
				       (double)(pkts - last_pkts) / dt / 1e6,
				       total_active_flows(app));
			fflush(stdout);
			last_pkts = pkts;
			last_tsc = now;
			next += hz;
		}
		rte_delay_us_sleep(10000);
	}
	__atomic_store_n(&app->stop, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	merge_nic_stats(app, w, ns);
	fastmib_flush(w);
	/* the states of the last packets, which the summary reports */
	states_look(app, fastmib_monotonic_ns());
	return (double)(rte_get_tsc_cycles() - start) / (double)hz;
}

/* ---- summary ---- */

static json_t *
row_json(json_t *index, json_t *counters)
{
	return json_pack("{s:o, s:o}", "index", index, "counters", counters);
}

/*
 * The server table's rows: each row's key from the workers' caches (every
 * server a worker met is in its cache), its totals summed over workers.
 */
static json_t *
servers_json(const struct app *app, const struct worker_tally *t)
{
	json_t *rows = json_array();
	bool seen[EP_SERVER_ROWS] = { false };

	for (uint16_t i = 0; i < app->n_workers; i++) {
		const struct server_cache *c = &app->workers[i].servers;

		for (uint32_t j = 0; j < SERVER_CACHE_SLOTS; j++) {
			const struct server_entry *e = &c->slot[j];
			uint64_t index[FASTMIB_MAX_INSTANCE_OID];
			size_t n;
			json_t *jx;
			char addr[INET_ADDRSTRLEN];
			struct in_addr in = { .s_addr = htonl(e->ip) };

			if (e->ip == 0 || e->row == SERVER_NONE || seen[e->row])
				continue;
			seen[e->row] = true;
			n = server_index(e->ip, e->port, index);
			jx = json_array();
			for (size_t k = 0; k < n; k++)
				json_array_append_new(jx, json_integer((json_int_t)index[k]));
			inet_ntop(AF_INET, &in, addr, sizeof(addr));
			json_array_append_new(rows, json_pack(
				"{s:o, s:{s:s, s:i}, s:{s:I, s:I}}", "index", jx,
				"key", "serverAddr", addr, "serverPort", (int)e->port,
				"counters", "pkts", (json_int_t)t->server_pkts[e->row],
				"bytes", (json_int_t)t->server_bytes[e->row]));
		}
	}
	return rows;
}

/* A histogram's buckets as a JSON array of counts. */
static json_t *
buckets_json(const uint64_t *bucket, uint32_t n)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)bucket[i]));
	return a;
}

/*
 * The histograms and the peak as the workers observed them (summed, the
 * peak their maximum): epGlobalBurstTime, and per port epPortRxBurst
 * (whose sum is the port's received packets: every received packet came
 * in a burst with packets) and epPortRxBurstMax.
 */
static json_t *
histograms_json(const struct app *app, const struct worker_tally *t)
{
	json_t *ports = json_array();

	for (uint16_t j = 0; j < app->n_ports; j++) {
		uint16_t p = app->ports[j];

		json_array_append_new(ports, json_pack(
			"{s:[i], s:o, s:I, s:I, s:I}", "index", p + 1,
			"buckets", buckets_json(t->port_burst_bucket[p], EP_PORT_RX_BURST_BUCKETS),
			"count", (json_int_t)t->port_burst_count[p],
			"sum", (json_int_t)t->port_rx_pkts[p],
			"max", (json_int_t)t->port_burst_max[p]));
	}
	return json_pack("{s:{s:o, s:I, s:I}, s:o}", "burstTime",
			 "buckets", buckets_json(t->burst_time_bucket, EP_GLOBAL_BURST_TIME_BUCKETS),
			 "count", (json_int_t)t->burst_time_count,
			 "sum", (json_int_t)t->burst_time_sum, "rxBurst", ports);
}

/*
 * Final totals, counted by the application itself, in the shape of the
 * counter model: groups by model name, table rows by SNMP index (1-based
 * integers; a keyed table's rows also give their key); the states as
 * the main lcore last set them (states_json()); the histograms and the
 * peak (histograms_json()).
 */
static json_t *
summary_json(const struct app *app, const struct nic_state *ns, double elapsed)
{
	struct worker_tally t = { 0 };
	json_t *ports = json_array(), *queues = json_array(), *flows = json_array();
	uint32_t active = 0;

	for (uint16_t i = 0; i < app->n_workers; i++) {
		const struct worker *wk = &app->workers[i];
		const struct worker_tally *x = &wk->tally;

		t.rx_pkts += x->rx_pkts;
		t.rx_bytes += x->rx_bytes;
		t.tx_pkts += x->tx_pkts;
		t.tx_bytes += x->tx_bytes;
		t.drops += x->drops;
		t.polls += x->polls;
		t.bad_headers += x->bad_headers;
		t.table_full += x->table_full;
		t.flows_created += x->flows_created;
		t.flows_expired += x->flows_expired;
		for (uint32_t r = 0; r < EP_SERVER_ROWS; r++) {
			t.server_pkts[r] += x->server_pkts[r];
			t.server_bytes[r] += x->server_bytes[r];
		}
		for (uint32_t k = 0; k < EP_GLOBAL_BURST_TIME_BUCKETS; k++)
			t.burst_time_bucket[k] += x->burst_time_bucket[k];
		t.burst_time_count += x->burst_time_count;
		t.burst_time_sum += x->burst_time_sum;
		for (uint16_t j = 0; j < app->n_ports; j++) {
			uint16_t p = app->ports[j];

			t.port_rx_pkts[p] += x->port_rx_pkts[p];
			t.port_rx_bytes[p] += x->port_rx_bytes[p];
			t.port_tx_pkts[p] += x->port_tx_pkts[p];
			t.port_tx_bytes[p] += x->port_tx_bytes[p];
			for (uint32_t k = 0; k < EP_PORT_RX_BURST_BUCKETS; k++)
				t.port_burst_bucket[p][k] += x->port_burst_bucket[p][k];
			t.port_burst_count[p] += x->port_burst_count[p];
			t.port_burst_max[p] = RTE_MAX(t.port_burst_max[p], x->port_burst_max[p]);
			json_array_append_new(queues, row_json(
				json_pack("[i, i]", p + 1, wk->index + 1),
				json_pack("{s:I, s:I}",
					  "pkts", (json_int_t)x->port_rx_pkts[p],
					  "bytes", (json_int_t)x->port_rx_bytes[p])));
		}
		for (uint32_t s = wk->ft.lru_head; s != FLOW_NONE;
		     s = wk->ft.flows[s].lru_next) {
			const struct flow *f = &wk->ft.flows[s];

			active++;
			json_array_append_new(flows, row_json(
				json_pack("[I]", (json_int_t)flow_table_id(&wk->ft, s) + 1),
				json_pack("{s:I, s:I}", "pkts", (json_int_t)f->pkts,
					  "bytes", (json_int_t)f->bytes)));
		}
	}
	for (uint16_t j = 0; j < app->n_ports; j++) {
		uint16_t p = app->ports[j];

		json_array_append_new(ports, row_json(
			json_pack("[i]", p + 1),
			json_pack("{s:I, s:I, s:I, s:I, s:I}",
				  "rxPkts", (json_int_t)t.port_rx_pkts[p],
				  "rxBytes", (json_int_t)t.port_rx_bytes[p],
				  "txPkts", (json_int_t)t.port_tx_pkts[p],
				  "txBytes", (json_int_t)t.port_tx_bytes[p],
				  "rxErrors", (json_int_t)ns->rx_errors[p])));
	}
	return json_pack(
		"{s:s, s:i, s:i, s:f, s:{s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}, "
		"s:o, s:o, s:o, s:{s:I, s:I, s:I}, s:{s:I, s:I}, s:o}, s:o, s:o}",
		"segment", app->cfg.segment, "workers", app->n_workers,
		"ports", app->n_ports, "elapsed_s", elapsed,
		"groups",
		"global",
		"rxPkts", (json_int_t)t.rx_pkts, "rxBytes", (json_int_t)t.rx_bytes,
		"txPkts", (json_int_t)t.tx_pkts, "txBytes", (json_int_t)t.tx_bytes,
		"drops", (json_int_t)t.drops, "polls", (json_int_t)t.polls,
		"mbufAllocFails", (json_int_t)ns->alloc_fails,
		"port", ports, "portQueue", queues, "flow", flows,
		"flowState",
		"activeFlows", (json_int_t)active,
		"flowsCreated", (json_int_t)t.flows_created,
		"flowsExpired", (json_int_t)t.flows_expired,
		"errors",
		"badHeaders", (json_int_t)t.bad_headers,
		"flowTableFull", (json_int_t)t.table_full,
		"server", servers_json(app, &t),
		"states", states_json(app), "histograms", histograms_json(app, &t));
}

static int
write_summary(const struct app *app, const struct nic_state *ns, double elapsed)
{
	json_t *doc = summary_json(app, ns, elapsed);
	json_t *g = json_object_get(json_object_get(doc, "groups"), "global");
	json_t *fs = json_object_get(json_object_get(doc, "groups"), "flowState");
	int rc = 0;

	if (doc == NULL)
		return -ENOMEM;
	printf("summary: rx_pkts=%" JSON_INTEGER_FORMAT " rx_bytes=%" JSON_INTEGER_FORMAT
	       " tx_pkts=%" JSON_INTEGER_FORMAT " drops=%" JSON_INTEGER_FORMAT
	       " flows_created=%" JSON_INTEGER_FORMAT " flows_expired=%" JSON_INTEGER_FORMAT
	       " active_flows=%" JSON_INTEGER_FORMAT " elapsed_s=%.3f\n",
	       json_integer_value(json_object_get(g, "rxPkts")),
	       json_integer_value(json_object_get(g, "rxBytes")),
	       json_integer_value(json_object_get(g, "txPkts")),
	       json_integer_value(json_object_get(g, "drops")),
	       json_integer_value(json_object_get(fs, "flowsCreated")),
	       json_integer_value(json_object_get(fs, "flowsExpired")),
	       json_integer_value(json_object_get(fs, "activeFlows")), elapsed);
	if (app->cfg.summary != NULL &&
	    json_dump_file(doc, app->cfg.summary, JSON_INDENT(2)) != 0) {
		fprintf(stderr, "%s: cannot write summary\n", app->cfg.summary);
		rc = -EIO;
	}
	json_decref(doc);
	return rc;
}

/* ---- main ---- */

static int
workers_setup(struct app *app)
{
	unsigned int lcore;
	uint16_t i = 0;

	app->n_workers = (uint16_t)rte_lcore_count() - 1;
	if (app->n_workers == 0 || app->n_workers > APP_MAX_QUEUES) {
		fprintf(stderr, "need 1..%u worker lcores besides the main lcore "
			"(e.g. -l 0-1), have %u\n", APP_MAX_QUEUES, app->n_workers);
		return -EINVAL;
	}
	app->workers = rte_zmalloc("workers", app->n_workers * sizeof(*app->workers),
				   RTE_CACHE_LINE_SIZE);
	if (app->workers == NULL)
		return -ENOMEM;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct worker *wk = &app->workers[i];
		uint64_t n = app->cfg.packets, nw = app->n_workers;
		int rc;

		wk->app = app;
		wk->lcore = lcore;
		wk->index = i;
		wk->quota = n ? n / nw + (i < n % nw) : UINT64_MAX;
		wk->rate = (double)app->cfg.rate / (double)nw;
		rc = worker_init(wk);
		if (rc < 0) {
			fprintf(stderr, "lcore %u: set-up failed: %s\n", lcore, strerror(-rc));
			return rc;
		}
		i++;
	}
	return 0;
}

static void
workers_free(struct app *app)
{
	for (uint16_t i = 0; app->workers && i < app->n_workers; i++)
		worker_free(&app->workers[i]);
	rte_free(app->workers);
	app->workers = NULL;
}

static int
run(struct app *app, uint64_t start_ns)
{
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES] = { 0 };
	struct nic_state ns = { 0 };
	struct fastmib_writer *w;
	double elapsed;
	int rc;

	rc = workers_setup(app);
	if (rc == 0)
		rc = ports_init(app, pools);
	if (rc < 0)
		return rc;
	/* ep_create(): fastmib_create() that refuses an ep_schema of another
	 * version of the model than the ep_stats.h this code was built with. */
	rc = ep_create(app->cfg.segment, NULL, &app->seg);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", app->cfg.segment, fastmib_last_error());
		return rc;
	}
	w = fastmib_writer(app->seg);
	if (w == NULL) {
		fprintf(stderr, "main lcore: %s\n", fastmib_last_error());
		return -ENOSPC;
	}
	rc = states_start(app, start_ns);
	if (rc < 0)
		return rc;
	if (!app->cfg.quiet)
		printf("%u worker lcore(s), %u port(s), counters in %s\n",
		       app->n_workers, app->n_ports, app->cfg.segment);
	for (uint16_t i = 0; i < app->n_workers; i++)
		rte_eal_remote_launch(worker_main, &app->workers[i],
				      app->workers[i].lcore);
	elapsed = control_loop(app, w, &ns);
	return write_summary(app, &ns, elapsed);
}

int
main(int argc, char **argv)
{
	struct app app = { 0 };
	uint64_t start_ns = fastmib_time_ns(); /* the application's start time */
	int n, rc;

	if (wants_help(argc, argv)) {
		usage(stdout, argv[0]);
		return EXIT_SUCCESS;
	}
	/* Before the EAL starts: a signal during its set-up must also end in
	 * the clean exit below, not in a runtime directory left behind; and
	 * the exit handler that removes the directory must run after those
	 * the EAL registers (rundir.c). */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_link_signal);
	rundir_remove_at_exit();
	n = rte_eal_init(argc, argv);
	if (n < 0) {
		/* Nothing is removed: the directory may be another process's
		 * (a primary already running on this prefix). */
		fprintf(stderr, "EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	rundir_remember();
	argv[n] = argv[0];
	if (parse_args(argc - n, argv + n, &app.cfg) < 0) {
		usage(stderr, argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	app.tsc_hz = rte_get_tsc_hz();
	/* 32.32 fixed point: a burst's cycles become nanoseconds in one
	 * multiply and a shift on the fast path (worker.c, cycles_to_ns()) */
	app.ns_per_cycle_32 = (UINT64_C(1000000000) << 32) / app.tsc_hz;
	app.flow_timeout_tsc = app.tsc_hz / 1000 * app.cfg.flow_timeout_ms;

	rc = run(&app, start_ns);

	__atomic_store_n(&app.stop, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	if (app.seg != NULL)
		fastmib_close(app.seg); /* the file stays for readers */
	ports_stop(&app);
	workers_free(&app);
	rte_eal_cleanup(); /* the runtime directory goes at exit */
	if (quit_signal && !app.cfg.quiet)
		fprintf(stderr, "stopped by signal %d\n", (int)quit_signal);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
