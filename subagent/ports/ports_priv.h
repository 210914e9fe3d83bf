/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the ports set (ports.h): what its files share. ports.c owns the
 * sources and their life cycle, port_rows.c the served rows and the values
 * of a request, port_reg.c how the rows reach snmpd (and ifNumber),
 * port_set.c SET, port_notify.c linkUp/linkDown.
 */
#ifndef FMP_PORTS_PRIV_H
#define FMP_PORTS_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "fastmib/reader.h"
#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"
#include "ifmib.h"
#include "ports.h"
#include "ratelimit.h"

/* Parts a reading keeps a time for (info, link, stats, xstats). */
#define FMP_PARTS 4u
/* Ports one sampling query reads at most (3 or 4 commands each). */
#define FMP_SAMPLE_CHUNK 64u
/* A check works at most this long before it lets requests in (ns). */
#define FMP_CHECK_SLICE_NS (20ull * 1000000u)
/* How many timeouts' worth of missed answers a request still waits
 * through (a hiccup); after that, requests do not wait at all until the
 * application answers again (the last readings serve meanwhile). */
#define FMP_HICCUP_TIMEOUTS 4u
/* Log a faulty counter again after this long at the earliest (ns). */
#define FMP_FAULT_LOG_NS (60ull * 1000000000u)

static const oid fmp_entry_oid[2][FMP_IFMIB_IFXENTRY_LEN] = {
	{ FMP_IFMIB_IFENTRY },
	{ FMP_IFMIB_IFXENTRY },
};
static const size_t fmp_entry_len[2] = { FMP_IFMIB_IFENTRY_LEN,
					 FMP_IFMIB_IFXENTRY_LEN };

struct fmp_src;
struct fmp_ports;

struct fmp_port {
	struct fmp_src *src;
	uint16_t id;
	bool listed;                    /* in the application's last port list */
	char name[FASTMIB_PORT_NAME_MAX]; /* ethdev name: the device */
	bool mac_ok;
	uint8_t mac[6];
	struct fastmib_portmap_entry *entry; /* ifIndex, alias, traps: bound */
	char ifname[FASTMIB_IFNAME_MAX];
	bool served;                    /* in the rows */
	uint32_t known_ifindex;         /* served there once: AgentX keeps its
					 * registrations while the application is
					 * away (0: never served) */
	const char *refused;            /* why not served, logged once */
	struct fmp_ifmib_track track;
	bool tracked;                   /* a reading of this instance was taken */
	int cast_have;                  /* breakdown its xstats give; -1: unknown */
	/* the reading of the request being answered */
	long pdu_transid;
	bool pdu_valid;                 /* pdu_rd is for pdu_transid */
	bool pdu_failed;                /* no reading and none young enough */
	unsigned int pdu_asked;         /* parts asked for the PDU */
	struct fastmib_port_reading pdu_rd;
	/* the last parts read, each with its time (CLOCK_MONOTONIC ns) */
	struct fastmib_port_reading last;
	uint64_t last_ns[FMP_PARTS];
	/* faulty counters already logged, and when */
	unsigned int logged_bad, logged_big, logged_cast_bad, logged_cast_big;
	uint64_t fault_log_ns;
	/* linkUp/linkDown: the operational status notified, 0: none yet */
	int notified_oper;
};

struct fmp_src {
	struct fmp_ports *owner;
	char *path;                     /* as configured: identity across reloads */
	char *epath;                    /* the same, escaped for the log */
	uint32_t own_base;              /* 0: the owner's */
	const char *label;              /* for ifName; NULL with one source */
	struct fastmib_tel *tel;
	bool up;                        /* hello taken in, rows may be served */
	long pid;                       /* instance the histories belong to */
	bool there_at_start;            /* its socket accepted while the agent started */
	uint32_t epoch;                 /* TimeStamp: the instance's counters began */
	bool first_sample;              /* the instance's first port list is to come */
	struct fmp_port **ports;        /* ascending ids */
	unsigned int n_ports;
	uint64_t behind_ns;             /* when answers stopped coming, 0: they come */
	bool late_logged;               /* "answers late" said for this episode */
	bool hello_logged;              /* "no hello" said for this connection */
	const char *lost;               /* why a request lost the connection */
	uint16_t *sample_ids;           /* the port list of a sample under way */
	unsigned int sample_n, sample_at; /* its length (0: none), next port */
	bool sampled;                   /* a sample complete, its rows to follow */
	bool confirmed;
	int last_rc;                    /* last connection failure, logged once */
	char last_msg[256];
	uint64_t req_exchanges, bg_exchanges, stale_served, gen_errs;
	uint64_t late_taken;            /* late replies taken as readings */
};

/* One table's rows as a request sees them: ports in ifIndex order. */
struct fmp_rows {
	struct fmp_port **by_ifindex;
	unsigned int n, cap;
};

/* How the rows reach snmpd: port_reg.c. */
struct fmp_reg;

struct fmp_ports {
	enum fmp_ports_mode mode;
	uint32_t base;
	unsigned int timeout_ms;
	unsigned int trap_rate;
	char *state_dir;
	struct fastmib_portmap *map;
	bool map_unsaved_logged;
	struct fmp_src **srcs;
	unsigned int n_srcs;
	char (*labels)[FASTMIB_PORT_LABEL_MAX];
	unsigned int alarm;
	unsigned int continue_alarm;    /* the rest of a check that was cut */
	bool starting;                  /* inside fmp_ports_start() */
	struct fmp_rows rows;
	bool rows_changed;              /* served ports changed since last sync */
	struct fmp_reg *reg;
	bool agentx_walk;               /* the AgentX request answered is a walk's */
	bool planned_valid;             /* the PDU planned_transid is planned */
	long planned_transid;
	/* linkUp/linkDown */
	struct fma_limit link_limit;
	struct fmp_trap *traps;         /* queued, sent by an alarm */
	unsigned int trap_alarm;
	/* SET in progress */
	struct fmp_set_txn *txn;
};

/* A TimeStamp now: the agent's uptime, 0 while it starts. */
uint32_t fmp_stamp(const struct fmp_ports *ports);

/* ports.c */
/* A query failed: lateness said once, a closed or broken connection
 * closed (the check withdraws its rows). */
void fmp_src_trouble(struct fmp_src *s, int rc);
/* Answers are coming again after a late episode: said if it was. */
void fmp_src_answers(struct fmp_src *s);
/* A reading (any parts) taken in: history, link notifications, faulty
 * counters logged. */
void fmp_port_take(struct fmp_port *p, const struct fastmib_port_reading *r, uint64_t now);
/* Every part a reading of `p` has: xstats only where a breakdown is or
 * may be. */
unsigned int fmp_port_parts(const struct fmp_port *p);
/* Save the port map (logged once when it cannot be). */
void fmp_map_save(struct fmp_ports *ports);
/* ifIndex values of kernel interfaces, when the rows sit beside them. */
bool fmp_kernel_ifindex(uint32_t ifindex, void *arg);

/* port_rows.c */
void fmp_rows_sync(struct fmp_ports *ports);
void fmp_rows_free(struct fmp_rows *rows);
/* The served port at `ifindex`, or NULL. */
struct fmp_port *fmp_rows_find(const struct fmp_ports *ports, uint32_t ifindex);
/* Position of the first served port with ifIndex >= ifindex (> when !incl). */
unsigned int fmp_rows_from(const struct fmp_ports *ports, uint64_t ifindex, bool incl);
/* The PDU's identity (a transaction id shared by the AgentX PDUs of one
 * SNMP request). */
long fmp_pdu_id(const netsnmp_agent_request_info *reqinfo);
/*
 * Fill `vb` with column `col` of table `t` of port `p` for this request:
 * 1 when it has a value, 0 when the column has no instance for the port,
 * -1 when no reading is to be had (the caller answers genErr).
 */
int fmp_fill(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	     struct fmp_port *p, netsnmp_agent_request_info *reqinfo,
	     netsnmp_variable_list *vb);
/* Whether column `col` of port `p` has an instance, as far as is known
 * without a reading (a breakdown column of a port whose xstats lack it
 * has none). */
bool fmp_has_instance(enum fmp_ifmib_table t, unsigned int col, const struct fmp_port *p);
/*
 * Read ahead for a GETNEXT/GETBULK: the ports and parts the `reach`
 * instances from (col, position `from`) of table `t` need, in one query
 * per source.
 */
void fmp_plan_walk(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
		   unsigned int from, unsigned int reach, netsnmp_agent_request_info *reqinfo);
/* Read ahead for the whole PDU (module, standalone), once per PDU. */
void fmp_plan_pdu(struct fmp_ports *ports, netsnmp_agent_request_info *reqinfo);
/* The value of a table's instance: GET / GETNEXT of the table handler. */
int fmp_table_get(struct fmp_ports *ports, enum fmp_ifmib_table t,
		  netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r);
/* The next instance of ours after the request's OID: true and its OID in
 * `out` (column, ifIndex), or false. */
bool fmp_table_next(const struct fmp_ports *ports, enum fmp_ifmib_table t,
		    const netsnmp_variable_list *vb, bool inclusive, unsigned int *col,
		    struct fmp_port **port, unsigned int *pos);

/* port_reg.c */
int fmp_reg_start(struct fmp_ports *ports);
/* Bring snmpd's registrations in line with the served rows. */
void fmp_reg_sync(struct fmp_ports *ports);
/* `leaving`: the agent stops, and snmpd drops an AgentX subagent's
 * registrations with its session at once. */
void fmp_reg_stop(struct fmp_ports *ports, bool leaving);
/* The table handler (module, standalone): one per table. */
Netsnmp_Node_Handler fmp_table_handler;

/* port_set.c */
int fmp_set(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	    struct fmp_port *p, netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r);
void fmp_set_free(struct fmp_ports *ports);

/* port_notify.c */
void fmp_notify_oper(struct fmp_port *p, int oper);
void fmp_notify_flush(struct fmp_ports *ports);
void fmp_notify_free(struct fmp_ports *ports);

#endif
