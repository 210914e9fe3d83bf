/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The example data plane: shared definitions of the control part (main.c)
 * and the fast path (worker.c).
 */
#ifndef EXAMPLE_APP_H
#define EXAMPLE_APP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "ep_stats.h"
#include "fastmib/fastmib.h"
#include "flow_table.h"
#include "servers.h"
#include "states.h"

#define BURST_SIZE 32
/* Ports and queues the counter model has rows for. */
#define APP_MAX_PORTS EP_PORT_PORT_ID_MAX
#define APP_MAX_QUEUES EP_PORT_QUEUE_QUEUE_ID_MAX
/* Servers the generated flows go to (192.168.0.1 ..), each on five
 * services: 80 rows of the server table at most. */
#define APP_SERVERS 16

struct app_config {
	const char *segment;
	const char *summary;     /* JSON summary file, or NULL */
	double duration;         /* seconds, 0 = until signal or --packets */
	uint64_t packets;        /* total packets to process, 0 = unbounded */
	bool hold;               /* after `packets`, run on without counting */
	uint64_t rate;           /* total packets per second, 0 = unpaced */
	uint32_t flows;          /* concurrent flows the generator keeps */
	uint32_t flow_len;       /* mean packets per generated flow */
	uint32_t flow_timeout_ms;/* idle time after which a flow expires */
	uint32_t bad_every;      /* one malformed packet in N, 0 = none */
	uint64_t seed;
	bool quiet;
};

/*
 * What one worker did, counted by the worker itself independently of the
 * segment, so that tests can compare the two exactly. Written only by its
 * worker; `rx_pkts` is also read by the main lcore for progress lines,
 * hence relaxed atomic accesses on it.
 */
struct worker_tally {
	uint64_t rx_pkts, rx_bytes, tx_pkts, tx_bytes;
	uint64_t drops, polls, bad_headers, table_full;
	uint64_t flows_created, flows_expired;
	uint64_t port_rx_pkts[APP_MAX_PORTS], port_rx_bytes[APP_MAX_PORTS];
	uint64_t port_tx_pkts[APP_MAX_PORTS], port_tx_bytes[APP_MAX_PORTS];
	uint64_t server_pkts[EP_SERVER_ROWS], server_bytes[EP_SERVER_ROWS]; /* by row */
	/* the histograms and the peak, as the worker observed them: bursts
	 * with packets, their processing times (ns) and sizes by port */
	uint64_t burst_time_bucket[EP_GLOBAL_BURST_TIME_BUCKETS];
	uint64_t burst_time_count, burst_time_sum;
	uint64_t port_burst_bucket[APP_MAX_PORTS][EP_PORT_RX_BURST_BUCKETS];
	uint64_t port_burst_count[APP_MAX_PORTS], port_burst_max[APP_MAX_PORTS];
};

/* One generated flow: its tuple and the packets it still has to send. */
struct gen_flow {
	struct flow_key key;
	uint32_t remaining;
};

/* Per worker lcore state; one cache-aligned element per worker. */
struct worker {
	struct app *app;
	unsigned int lcore;
	uint16_t index;          /* worker number, also the RX/TX queue id */
	uint64_t quota;          /* packets this worker processes; UINT64_MAX = unbounded */
	double rate;             /* this worker's share of --rate, packets/s */
	uint64_t rng;            /* xorshift64* state */
	uint32_t n_gen;          /* generator flows of this worker */
	struct gen_flow *gen;
	struct flow_table ft;
	struct server_cache servers;
	struct worker_tally tally;
	uint32_t done;           /* set (release) when the worker has returned */
} __rte_cache_aligned;

struct app {
	struct app_config cfg;
	struct fastmib_segment *seg;
	uint16_t n_ports;
	uint16_t ports[APP_MAX_PORTS];
	bool link_set_down[APP_MAX_PORTS]; /* by port id: by SIGUSR1 (main.c) */
	struct app_states states;          /* main lcore only */
	uint16_t n_workers;
	struct worker *workers;
	uint32_t stop;           /* set (relaxed) by the main lcore: workers return */
	uint64_t tsc_hz;
	uint64_t ns_per_cycle_32;  /* nanoseconds per TSC cycle, times 2^32 */
	uint64_t flow_timeout_tsc;
};

/* Fast-path loop of one worker lcore (rte_eal_remote_launch entry). */
int worker_main(void *arg);

/* Set up the generator and flow table of a worker; negative errno on error. */
int worker_init(struct worker *wk);
void worker_free(struct worker *wk);

#endif /* EXAMPLE_APP_H */
