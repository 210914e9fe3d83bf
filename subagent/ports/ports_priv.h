/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the ports (ports.h): the state their files share, and what each
 * file offers the others. One role a file, from the top down:
 *
 *   sources.c        the ports as a whole: the configured applications and
 *                    their life cycle, the periodic check, what follows it
 *   register.c       registration with snmpd, by front end, and ifNumber
 *   answer_table.c   answers in the module and the standalone agent (the
 *                    tables' handler chain, ifNumber)
 *   answer_agentx.c  answers over AgentX (a registration per run of ports)
 *   set.c            SNMP SET of ifAlias and ifLinkUpDownTrapEnable
 *   request.c        the readings of a request: planned, read, or the last
 *                    ones when an answer is late; values into varbinds
 *   rows.c           the served rows in ifIndex order, and their instances
 *   app.c            one application: connection, sample, lateness, end
 *   port.c           one port and its readings, its history, its faults
 *   notify.c         linkUp/linkDown
 *   binding.c        ports bound to the port map; the map's file
 *   ifmib.c          the IF-MIB columns of a reading (ifmib.h, no Net-SNMP)
 *
 * A file calls only the files below it. Everything runs in the agent's
 * single thread.
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
#include "said.h"
#include "varbind.h"

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

/* ifEntry and ifXEntry as Net-SNMP OIDs (rows.c), by enum fmp_ifmib_table;
 * a table's own OID is its entry's without the last arc. */
extern const oid fmp_entry_oid[2][FMP_IFMIB_IFXENTRY_LEN];
extern const size_t fmp_entry_len[2];

struct fmp_src;
struct fmp_ports;

/* ---- one port ---- */

/* The device at a port id, as the application's last sample showed it. */
struct fmp_device {
	bool listed;                    /* in the application's last port list */
	char name[FME_PORT_NAME_MAX]; /* ethdev name: the device */
	bool mac_ok;
	uint8_t mac[6];
	int cast_have;                  /* breakdown its xstats give; -1: unknown */
};

/* The port's row: its entry in the port map, and whether it is served. */
struct fmp_row {
	struct fme_portmap_entry *entry; /* ifIndex, alias, traps: bound */
	char ifname[FME_IFNAME_MAX];
	bool served;                    /* in the rows */
	uint32_t known_ifindex;         /* served there once: AgentX keeps its
					 * registrations while the application is
					 * away (0: never served) */
	const char *refused;            /* why not served, logged once */
};

/* What turns readings into ifLastChange, ifCounterDiscontinuityTime and
 * linkUp/linkDown. */
struct fmp_history {
	struct fmp_ifmib_track track;
	bool tracked;                   /* a reading of this instance was taken */
};

/* The reading of the request being answered (one per PDU). */
struct fmp_request_reading {
	long transid;                   /* the PDU it is for */
	bool valid;                     /* rd is for transid */
	bool failed;                    /* no reading and none young enough */
	unsigned int asked;             /* parts asked for the PDU */
	struct fme_port_reading rd;
};

/* The last parts read, each with its time (CLOCK_MONOTONIC ns): what
 * serves while an answer is late. */
struct fmp_last {
	struct fme_port_reading rd;
	uint64_t ns[FME_PORT_PARTS];
};

/* Faulty counters already said in the log, and when. */
struct fmp_logged {
	unsigned int bad, big, cast_bad, cast_big;
	uint64_t ns;
};

struct fmp_port {
	struct fmp_src *src;            /* its application */
	uint16_t id;                    /* its port id there */
	struct fmp_device dev;
	struct fmp_row row;
	struct fmp_history hist;
	struct fmp_request_reading req;
	struct fmp_last last;
	struct fmp_logged logged;
};

/* ---- one application ---- */

struct fmp_src {
	struct fmp_ports *owner;
	char *path;                     /* as configured: identity across reloads */
	char *epath;                    /* the same, escaped for the log */
	uint32_t own_base;              /* 0: the owner's */
	const char *label;              /* for ifName; NULL with one source */
	struct fme_tel *tel;
	bool up;                        /* hello taken in, rows may be served */
	long pid;                       /* instance the histories belong to */
	bool there_at_start;            /* its socket accepted while the agent started */
	uint32_t epoch;                 /* TimeStamp: the instance's counters began */
	bool first_sample;              /* the instance's first port list is to come */
	struct fmp_port **ports;        /* ascending ids */
	unsigned int n_ports;
	uint64_t behind_ns;             /* when answers stopped coming, 0: they come */
	unsigned int late_next;         /* while late: the next port to read (index) */
	bool late_logged;               /* "answers late" said for this episode */
	bool hello_logged;              /* "no hello" said for this connection */
	const char *lost;               /* why a request lost the connection */
	uint16_t *sample_ids;           /* the port list of a sample under way */
	unsigned int sample_n, sample_at; /* its length (0: none), next port */
	bool sampled;                   /* a sample complete, its rows to follow */
	bool confirmed;
	struct fma_said said;           /* last connection failure, logged once */
	uint64_t req_exchanges, bg_exchanges, stale_served, gen_errs;
	uint64_t late_taken;            /* late replies taken as readings */
};

/* ---- the whole ---- */

/* One table's rows as a request sees them: ports in ifIndex order. */
struct fmp_rows {
	struct fmp_port **by_ifindex;
	unsigned int n, cap;
};

/* What a table's handler answers (its myvoid). */
struct fmp_tab {
	struct fmp_ports *ports;
	enum fmp_ifmib_table t;
};

/* An AgentX walk (answer_agentx.c): the request seen last, how many of
 * its instances were answered, how far a walk is read ahead. */
struct fmp_agentx_walk {
	long id;
	unsigned int count;
	unsigned int reach;
	bool in_walk;                   /* a GetNext came in the request */
};

/* How the rows reach snmpd (register.c). */
struct fmp_reg;

struct fmp_ports {
	enum fmp_ports_mode mode;
	/* configuration */
	uint32_t base;
	unsigned int timeout_ms;
	unsigned int trap_rate;
	char *state_dir;
	/* the port map */
	struct fme_portmap *map;
	bool map_unsaved_logged;
	/* the applications */
	struct fmp_src **srcs;
	unsigned int n_srcs;
	char (*labels)[FME_PORT_LABEL_MAX];
	unsigned int alarm;
	unsigned int continue_alarm;    /* the rest of a check that was cut */
	bool starting;                  /* inside fmp_ports_start() */
	/* the rows and how they reach snmpd */
	struct fmp_rows rows;
	bool rows_changed;              /* ports served changed since the last sync */
	struct fmp_reg *reg;
	/* the request being answered */
	struct fmp_agentx_walk ax;
	bool planned_valid;             /* the PDU planned_transid is planned */
	long planned_transid;
	/* linkUp/linkDown */
	struct fma_limit link_limit;
	struct fmp_trap *traps;         /* queued, sent by an alarm */
	unsigned int trap_alarm;
	/* SET in progress */
	struct fmp_set_txn *txn;
};

/* ---- app.c: one application (called by sources.c unless said) ---- */

/* A new application at `path`, its new devices' ifIndex from `own_base`
 * (0: the owner's), not connected. NULL when out of memory. */
struct fmp_src *fmp_src_new(struct fmp_ports *ports, const char *path, uint32_t own_base);
/* Withdraw its rows, log its telemetry traffic, free it. */
void fmp_src_free(struct fmp_src *s);
/* The periodic check of one application: connect, take the hello, notice
 * an exit or a stall (rows withdrawn), sample (until `until`, monotonic
 * ns; a sample cut there goes on with fmp_src_sample_step()). */
void fmp_src_check(struct fmp_src *s, uint64_t until);
/* The next part of a sample that was cut. */
void fmp_src_sample_step(struct fmp_src *s, uint64_t until);
/* After a complete sample: rows follow its port list (bound, served or
 * refused, logged). */
void fmp_src_follow(struct fmp_src *s);
/* A query for a request failed (request.c): lateness said once, a closed
 * or broken connection closed (the check withdraws its rows). */
void fmp_src_trouble(struct fmp_src *s, int rc);
/* Answers come again after a late episode (request.c): said if it was. */
void fmp_src_answers(struct fmp_src *s);
/* While the application is late (request.c, and its check): up to `max`
 * of its listed ports but those in `skip`, from the one after the last
 * returned, in turn, so that every port is read, however many there are,
 * one query's worth at a time. Returns how many are in `out`. */
unsigned int fmp_src_next_late(struct fmp_src *s, struct fmp_port **out, unsigned int max,
			       struct fmp_port *const *skip, unsigned int n_skip);

/* ---- port.c: one port ---- */

/* A TimeStamp now: the agent's uptime, 0 while it starts. */
uint32_t fmp_stamp(const struct fmp_ports *ports);
/* The port of `s` with id `id`; made (history from the instance's start,
 * or from now) when `create` and there is room, else NULL. */
struct fmp_port *fmp_port_of(struct fmp_src *s, uint16_t id, bool create);
/* The port's counters start afresh at `now_cs` (a new device at its id, a
 * new instance of its application): history, breakdown, readings and what
 * was logged forgotten. */
void fmp_port_forget(struct fmp_port *p, uint32_t now_cs);
/* A reading (any parts) taken in at `now`: the last parts, the history,
 * link notifications, faulty counters logged. Called by app.c (samples,
 * late replies) and request.c. */
void fmp_port_take(struct fmp_port *p, const struct fme_port_reading *r, uint64_t now);
/* Every part a reading of `p` has: xstats only where a breakdown is or
 * may be. */
unsigned int fmp_port_parts(const struct fmp_port *p);

/* ---- binding.c: the port map ---- */

/* Read the map from the state directory at start; errors said once. */
void fmp_map_load(struct fmp_ports *ports);
/* Write the map (after a new ifIndex or a SET); a failure said once. */
void fmp_map_save(struct fmp_ports *ports);
/* Bind the device of `p` to its map entry (new ones get an ifIndex; their
 * "name=ifIndex" appended to names[*used..size), *created set); a refusal
 * said once and kept in p->row.refused. */
void fmp_bind(struct fmp_port *p, bool *created, char *names, size_t *used, size_t size);
/* The port leaves its row and frees its entry. */
void fmp_unbind(struct fmp_port *p);
/* Why a bound port cannot be served now (its ifIndex is a kernel
 * interface's: its name in `kname`, IF_NAMESIZE octets), or NULL. */
const char *fmp_obstacle(const struct fmp_port *p, char *kname);

/* ---- rows.c: the served rows ---- */

/* The rows follow the ports served (sources.c, after a check). */
void fmp_rows_sync(struct fmp_ports *ports);
void fmp_rows_free(struct fmp_rows *rows);
/* The served port at `ifindex`, or NULL. */
struct fmp_port *fmp_rows_find(const struct fmp_ports *ports, uint32_t ifindex);
/* Position of the first served port with ifIndex >= ifindex (> when !incl). */
unsigned int fmp_rows_from(const struct fmp_ports *ports, uint64_t ifindex, bool incl);
/* The PDU's identity (a transaction id shared by the AgentX PDUs of one
 * SNMP request). */
long fmp_pdu_id(const netsnmp_agent_request_info *reqinfo);
/* Whether column `col` of port `p` has an instance, as far as is known
 * without a reading (a breakdown column of a port whose xstats lack it
 * has none). */
bool fmp_has_instance(enum fmp_ifmib_table t, unsigned int col, const struct fmp_port *p);
/* The (column, ifIndex) an OID names in table `t`, for a GET: false when
 * it is not exactly an instance of a served column. */
bool fmp_instance_of(enum fmp_ifmib_table t, const oid *name, size_t len, unsigned int *col,
		     uint32_t *ifindex);
/* The next instance of ours after `vb`'s OID (at it too when
 * `inclusive`): true with its column, port and position in the rows. */
bool fmp_table_next(const struct fmp_ports *ports, enum fmp_ifmib_table t,
		    const netsnmp_variable_list *vb, bool inclusive, unsigned int *col,
		    struct fmp_port **port, unsigned int *pos);

/* ---- request.c: the readings of a request (called by the answers) ---- */

/*
 * Fill `vb` with column `col` of table `t` of port `p` for this request:
 * 1 when it has a value, 0 when the column has no instance for the port,
 * -1 when no reading is to be had (the caller answers genErr).
 */
int fmp_fill(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	     struct fmp_port *p, netsnmp_agent_request_info *reqinfo,
	     netsnmp_variable_list *vb);
/*
 * Read ahead for a GETNEXT/GETBULK: the ports and parts the `reach`
 * instances from (col, position `from`) of table `t` need, in one query
 * per source.
 */
void fmp_plan_walk(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
		   unsigned int from, unsigned int reach, netsnmp_agent_request_info *reqinfo);
/* Read ahead for the whole PDU (module, standalone), once per PDU. */
void fmp_plan_pdu(struct fmp_ports *ports, netsnmp_agent_request_info *reqinfo);
/* A GET of a table's instance: 0 when the OID is not a port's (the caller
 * passes it on), 1 when answered (a value, noSuchInstance or genErr). */
int fmp_table_get(struct fmp_ports *ports, enum fmp_ifmib_table t,
		  netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r);

/* ---- set.c: SNMP SET (called by the answers) ---- */

/* One varbind of a SET, in the phase reqinfo->mode, of port `p`'s column
 * `col` of table `t`; errors set on `r`. Returns 0. */
int fmp_set(struct fmp_ports *ports, enum fmp_ifmib_table t, unsigned int col,
	    struct fmp_port *p, netsnmp_agent_request_info *reqinfo, netsnmp_request_info *r);
/* Forget a SET in progress (the ports stop). */
void fmp_set_free(struct fmp_ports *ports);

/* ---- the answers (registered by register.c) ---- */

/* answer_table.c: the handler of a table (module, standalone; myvoid: its
 * struct fmp_tab), and of ifNumber (myvoid: the ports). */
Netsnmp_Node_Handler fmp_table_handler;
Netsnmp_Node_Handler fmp_ifnumber_handler;
/* answer_agentx.c: the handler of a port instance's registration over
 * AgentX (myvoid: the ports). */
Netsnmp_Node_Handler fmp_instance_handler;

/* ---- register.c (called by sources.c) ---- */

int fmp_reg_start(struct fmp_ports *ports);
/* Bring snmpd's registrations in line with the served rows. */
void fmp_reg_sync(struct fmp_ports *ports);
/* `leaving`: the agent stops, and snmpd drops an AgentX subagent's
 * registrations with its session at once. */
void fmp_reg_stop(struct fmp_ports *ports, bool leaving);

/* ---- notify.c: linkUp/linkDown ---- */

/* Port `p`'s ifOperStatus became `oper` (port.c): queued if it is served
 * and its notifications are enabled; sent by an alarm, never inside a
 * request. */
void fmp_notify_oper(struct fmp_port *p, int oper);
/* Send what is queued, under the rate limit (sources.c, the alarm). */
void fmp_notify_flush(struct fmp_ports *ports);
void fmp_notify_free(struct fmp_ports *ports);

#endif
