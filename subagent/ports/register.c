/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Registration with snmpd: how the ports' rows reach the requests, by
 * front end (ports.h), and ifNumber. The answers are answer_table.c's and
 * answer_agentx.c's.
 *
 * In snmpd (module), snmpd serves ifTable and ifXTable itself: the ports'
 * handler is put into the handler chain of each of snmpd's two
 * registrations, below bulk_to_next, so that every request for the table
 * passes through it: a GET of a port's instance is answered here, the rest
 * goes on to snmpd's handlers; a GETNEXT is answered by whichever is
 * first, snmpd's next kernel instance or the next port's. No registration
 * per port: a thousand ports cost snmpd's registry nothing. The same is
 * done to ifNumber ("if number"), which then counts the ports too.
 * Without snmpd's own tables (excluded with -I), and in the standalone
 * agent, the handler is registered for the two tables itself.
 *
 * As an AgentX subagent, the tables are snmpd's and cannot be joined: each
 * column of each run of consecutive ifIndex values (at most FMP_RUN_MAX)
 * is one ranged registration, i.e. one AgentX Register PDU, which snmpd
 * expands into one subtree per instance and splits its own table around.
 * Net-SNMP inserts a subtree by a walk of its registry from the start, so
 * runs are registered from the last column and the last ifIndex down (each
 * new subtree lands before the ones registered already) and unregistered
 * from the first up: that keeps the work linear in the ports. Each run's
 * answer from snmpd is known (common/axreg.h): a run refused (another
 * subagent has those rows) is logged once per table and episode, and
 * tried again until snmpd accepts it; when snmpd comes back after a
 * restart, the runs are sent again whole, in the same cheap order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "axreg.h"
#include "ports_priv.h"

/* Consecutive ifIndex values one AgentX registration covers at most: the
 * registry work of inserting a run grows with its square. */
#define FMP_RUN_MAX 64u
/* Our own registrations of the tables, less preferred than snmpd's
 * (127): should snmpd register its own, it wins and is joined. */
#define FMP_OWN_PRIORITY 130
#define FMP_HANDLER_NAME "fastmib-ports"

static const oid fmp_ifnumber_oid[] = { FMP_IFMIB_IFNUMBER };

/* One AgentX registration: a column of a run of ifIndex values. */
struct fmp_run {
	uint8_t t;
	uint8_t col;
	uint32_t lo, hi;
	struct fma_axreg *ax;                  /* its registration and snmpd's answer */
};

struct fmp_reg {
	struct fmp_tab tab[2];                 /* what each table's handler answers */
	netsnmp_handler_registration *own[2];  /* our registrations of the tables */
	netsnmp_handler_registration *own_ifnumber;
	struct fmp_run *runs;                  /* AgentX: registered, sorted */
	unsigned int n_runs;
	struct fma_said refused[2];            /* per table: snmpd's refusal logged */
};

/* ---- AgentX: a registration per column of a run ---- */

static int
fmp_run_cmp(const struct fmp_run *a, const struct fmp_run *b)
{
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->hi > b->hi) - (a->hi < b->hi);
}

static size_t
fmp_run_name(const struct fmp_run *run, oid *name)
{
	size_t elen = fmp_entry_len[run->t];

	memcpy(name, fmp_entry_oid[run->t], elen * sizeof(oid));
	name[elen] = run->col;
	name[elen + 1] = run->lo;
	return elen + 2;
}

/* The run whose registration is `ax`, or NULL (not among the runs yet). */
static const struct fmp_run *
fmp_run_of(const struct fmp_reg *reg, const struct fma_axreg *ax)
{
	for (unsigned int k = 0; k < reg->n_runs; k++)
		if (reg->runs[k].ax == ax)
			return &reg->runs[k];
	return NULL;
}

/*
 * snmpd's answer to a run. A refusal is logged once per table until the
 * table has no run refused any more, which is said too: the rows are
 * then served.
 */
static void
fmp_answered(struct fma_axreg *ax, void *arg)
{
	struct fmp_ports *ports = arg;
	struct fmp_reg *reg = ports->reg;
	const struct fmp_run *run = fmp_run_of(reg, ax);
	long error = fma_axreg_error(ax);

	for (unsigned int t = 0; t < 2; t++) {
		const char *table = fmp_ifmib_table_name((enum fmp_ifmib_table)t);
		bool refused = false;

		if (strcmp(fma_axreg_label(ax), table) != 0)
			continue;
		if (!fma_axreg_serving(ax)) {
			if (!fma_said_news(&reg->refused[t], (int)error,
					   fma_axreg_error_name(error)))
				return;
			if (run)
				snmp_log(LOG_ERR, "fastmib: ports: snmpd refused %s rows (column "
					 "%u, ifIndex %u..%u): %s; not served, retrying\n", table,
					 run->col, run->lo, run->hi, fma_axreg_error_name(error));
			else
				snmp_log(LOG_ERR, "fastmib: ports: snmpd refused %s rows: %s; not "
					 "served, retrying\n", table, fma_axreg_error_name(error));
			return;
		}
		for (unsigned int k = 0; k < reg->n_runs && !refused; k++)
			refused = reg->runs[k].t == t && reg->runs[k].ax &&
				  fma_axreg_state(reg->runs[k].ax) == FMA_AXREG_REFUSED;
		if (!refused && reg->refused[t].rc) {
			snmp_log(LOG_INFO, "fastmib: ports: snmpd accepted the %s rows it "
				 "refused: served\n", table);
			fma_said_forget(&reg->refused[t]);
		}
	}
}

static int
fmp_run_register(struct fmp_ports *ports, struct fmp_run *run)
{
	oid name[FMP_IFMIB_IFXENTRY_LEN + 2];
	size_t len = fmp_run_name(run, name);
	netsnmp_handler_registration *reg;

	reg = netsnmp_create_handler_registration(
		FMP_HANDLER_NAME, fmp_instance_handler, name, len,
		fmp_ifmib_writable((enum fmp_ifmib_table)run->t, run->col)
		? HANDLER_CAN_RWRITE : HANDLER_CAN_RONLY);
	if (!reg)
		return -ENOMEM;
	reg->handler->myvoid = ports; /* no data_free: the ports outlives it */
	if (run->hi > run->lo) {
		reg->range_subid = (int)len;
		reg->range_ubound = run->hi;
	}
	/* on failure `reg` is freed */
	return fma_axreg_register(reg, fmp_ifmib_table_name((enum fmp_ifmib_table)run->t),
				  fmp_answered, ports, &run->ax);
}

/* Withdraw the run: from snmpd too (it was accepted), or only from the
 * agent's registry (`leaving`: snmpd drops it with the session). */
static void
fmp_run_unregister(struct fmp_run *run, bool leaving)
{
	fma_axreg_unregister(run->ax, leaving);
	run->ax = NULL;
}

static int
fmp_cmp_known(const void *a, const void *b)
{
	uint32_t x = (*(struct fmp_port *const *)a)->row.known_ifindex;
	uint32_t y = (*(struct fmp_port *const *)b)->row.known_ifindex;

	return (x > y) - (x < y);
}

/*
 * The runs the ports call for, sorted: every port served at some point
 * (known_ifindex), also while its application is away. snmpd keeps the
 * pieces of its own table that a registration split off when it is
 * withdrawn, and every later withdrawal walks past them: withdrawing and
 * registering again at each restart of a large application would cost
 * snmpd time quadratic in its ports. A port away answers noSuchInstance
 * (and a walk passes it) from the registration it keeps.
 */
static struct fmp_run *
fmp_runs_wanted(const struct fmp_ports *ports, unsigned int *np)
{
	unsigned int cap = 64, n = 0, n_known = 0, total = 0;
	struct fmp_run *runs = malloc(cap * sizeof(*runs));
	struct fmp_port **known;

	for (unsigned int i = 0; i < ports->n_srcs; i++)
		total += ports->srcs[i]->n_ports;
	known = malloc((total ? total : 1) * sizeof(*known));
	if (!runs || !known) {
		free(runs);
		free(known);
		return NULL;
	}
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		for (unsigned int j = 0; j < ports->srcs[i]->n_ports; j++)
			if (ports->srcs[i]->ports[j]->row.known_ifindex)
				known[n_known++] = ports->srcs[i]->ports[j];
	qsort(known, n_known, sizeof(*known), fmp_cmp_known);
	for (unsigned int t = 0; t < 2; t++) {
		for (unsigned int col = 1; col <= fmp_ifmib_last_col(t); col++) {
			struct fmp_run *cur = NULL;

			for (unsigned int i = 0; i < n_known; i++) {
				const struct fmp_port *p = known[i];
				uint32_t ifindex = p->row.known_ifindex;

				if (!fmp_has_instance(t, col, p)) {
					cur = NULL;
					continue;
				}
				if (cur && cur->hi + 1 == ifindex && cur->hi - cur->lo + 1 < FMP_RUN_MAX) {
					cur->hi = ifindex;
					continue;
				}
				if (cur && cur->hi == ifindex)
					continue; /* two ports known at one ifIndex: one registration */
				if (n == cap) {
					struct fmp_run *grown = realloc(runs, 2 * cap * sizeof(*runs));

					if (!grown) {
						free(runs);
						free(known);
						return NULL;
					}
					runs = grown;
					cap *= 2;
				}
				cur = &runs[n++];
				*cur = (struct fmp_run){ (uint8_t)t, (uint8_t)col, ifindex, ifindex,
							 NULL };
			}
		}
	}
	free(known);
	*np = n;
	return runs;
}

/*
 * Registrations follow the rows: runs no longer wanted go first, from the
 * first up; new runs follow, from the last down (see the top).
 */
static void
fmp_runs_sync(struct fmp_ports *ports)
{
	struct fmp_reg *reg = ports->reg;
	unsigned int n_want, n_keep = 0, a = 0, b = 0;
	struct fmp_run *want = fmp_runs_wanted(ports, &n_want), *kept;
	uint64_t t0 = fastmib_monotonic_ns();
	unsigned int n_unreg = 0, n_reg = 0;

	if (!want)
		return;
	kept = malloc((reg->n_runs + n_want + 1) * sizeof(*kept));
	if (!kept) {
		free(want);
		return;
	}
	/* both lists are sorted: a merge tells old from new */
	while (a < reg->n_runs || b < n_want) {
		int cmp = a == reg->n_runs ? 1 : b == n_want ? -1
			  : fmp_run_cmp(&reg->runs[a], &want[b]);

		if (cmp < 0) {
			fmp_run_unregister(&reg->runs[a++], false);
			n_unreg++;
		} else if (cmp == 0) {
			kept[n_keep++] = reg->runs[a++];
			want[b++].col = 0; /* registered already */
		} else {
			b++;
		}
	}
	for (unsigned int k = n_want; k-- > 0;) {
		if (want[k].col == 0)
			continue;
		if (fmp_run_register(ports, &want[k]) == 0) {
			kept[n_keep++] = want[k];
			n_reg++;
		}
		else
			snmp_log(LOG_ERR, "fastmib: ports: cannot register ifIndex %u..%u in "
				 "%s column %u\n", want[k].lo, want[k].hi,
				 fmp_ifmib_table_name((enum fmp_ifmib_table)want[k].t), want[k].col);
	}
	qsort(kept, n_keep, sizeof(*kept), (int (*)(const void *, const void *))fmp_run_cmp);
	free(reg->runs);
	reg->runs = kept;
	reg->n_runs = n_keep;
	free(want);
	if (n_reg || n_unreg)
		snmp_log(LOG_INFO, "fastmib_ports: %u registration(s) sent, %u withdrawn, in %"
			    PRIu64 " us\n", n_reg, n_unreg, (fastmib_monotonic_ns() - t0) / 1000);
}

/* ---- snmpd's own tables (module) and ours (standalone) ---- */

/* Our handler in `reginfo`'s chain, or NULL. */
static netsnmp_mib_handler *
fmp_find_injected(netsnmp_handler_registration *reginfo)
{
	return netsnmp_find_handler_by_name(reginfo, FMP_HANDLER_NAME);
}

/*
 * Into every piece of snmpd's registration of `root` (other registrations
 * inside it split it; each piece has its own chain), our handler, before
 * the handler named `before`. Returns how many pieces have it now.
 */
static unsigned int
fmp_inject(const oid *root, size_t len, const char *reg_name, const char *before,
	   Netsnmp_Node_Handler *fn, void *arg)
{
	oid end[MAX_OID_LEN];
	netsnmp_subtree *st = netsnmp_subtree_find(root, len, NULL, "");
	unsigned int n = 0;

	memcpy(end, root, len * sizeof(oid));
	end[len - 1]++;
	for (; st && snmp_oid_compare(st->start_a, st->start_len, end, len) < 0; st = st->next) {
		for (netsnmp_subtree *c = st; c; c = c->children) {
			netsnmp_handler_registration *ri = c->reginfo;
			netsnmp_mib_handler *h;

			if (!ri || !ri->handlerName || strcmp(ri->handlerName, reg_name) != 0)
				continue;
			if (fmp_find_injected(ri)) {
				n++;
				continue;
			}
			h = netsnmp_create_handler(FMP_HANDLER_NAME, fn);
			if (!h)
				continue;
			h->myvoid = arg;
			if (netsnmp_inject_handler_before(ri, h, before) != SNMPERR_SUCCESS) {
				netsnmp_handler_free(h);
				continue;
			}
			n++;
		}
	}
	return n;
}

/* Take our handler out of every piece of snmpd's registration of `root`. */
static void
fmp_eject(const oid *root, size_t len)
{
	oid end[MAX_OID_LEN];
	netsnmp_subtree *st = netsnmp_subtree_find(root, len, NULL, "");

	memcpy(end, root, len * sizeof(oid));
	end[len - 1]++;
	for (; st && snmp_oid_compare(st->start_a, st->start_len, end, len) < 0; st = st->next) {
		for (netsnmp_subtree *c = st; c; c = c->children) {
			netsnmp_mib_handler *h = c->reginfo ? fmp_find_injected(c->reginfo) : NULL;

			if (!h)
				continue;
			if (h->prev)
				h->prev->next = h->next;
			else
				c->reginfo->handler = h->next;
			if (h->next)
				h->next->prev = h->prev;
			h->next = h->prev = NULL;
			netsnmp_handler_free(h);
		}
	}
}

static int
fmp_own_table(struct fmp_ports *ports, enum fmp_ifmib_table t, int priority)
{
	struct fmp_reg *reg = ports->reg;
	netsnmp_handler_registration *ri;

	ri = netsnmp_create_handler_registration("fastmib-ports-table", fmp_table_handler,
						 fmp_entry_oid[t], fmp_entry_len[t] - 1,
						 HANDLER_CAN_RWRITE);
	if (!ri)
		return -ENOMEM;
	ri->handler->myvoid = &reg->tab[t];
	ri->priority = priority;
	if (netsnmp_register_handler(ri) != MIB_REGISTERED_OK)
		return -EADDRINUSE;
	reg->own[t] = ri;
	return 0;
}

static int
fmp_own_ifnumber(struct fmp_ports *ports)
{
	netsnmp_handler_registration *ri;

	ri = netsnmp_create_handler_registration("fastmib-ports-ifNumber", fmp_ifnumber_handler,
						 fmp_ifnumber_oid, OID_LENGTH(fmp_ifnumber_oid),
						 HANDLER_CAN_RONLY);
	if (!ri)
		return -ENOMEM;
	ri->handler->myvoid = ports;
	if (netsnmp_register_scalar(ri) != MIB_REGISTERED_OK)
		return -EADDRINUSE;
	ports->reg->own_ifnumber = ri;
	return 0;
}

/* In snmpd: join its tables and its ifNumber, or (tables excluded with -I)
 * stand in for them until they appear. */
static void
fmp_module_sync(struct fmp_ports *ports)
{
	struct fmp_reg *reg = ports->reg;

	for (unsigned int t = 0; t < 2; t++) {
		unsigned int n = fmp_inject(fmp_entry_oid[t], fmp_entry_len[t] - 1,
					    fmp_ifmib_table_name(t), "table", fmp_table_handler,
					    &reg->tab[t]);

		if (n && reg->own[t]) {
			netsnmp_unregister_handler(reg->own[t]);
			reg->own[t] = NULL;
		} else if (!n && !reg->own[t] &&
			   fmp_own_table(ports, t, FMP_OWN_PRIORITY) == 0) {
			snmp_log(LOG_INFO, "fastmib: ports: snmpd serves no %s (excluded "
				 "with -I?): the ports' rows are served alone\n", fmp_ifmib_table_name(t));
		}
	}
	fmp_inject(fmp_ifnumber_oid, OID_LENGTH(fmp_ifnumber_oid), "if number", "if number",
		   fmp_ifnumber_handler, ports);
}

/* ---- entry points ---- */

int
fmp_reg_start(struct fmp_ports *ports)
{
	struct fmp_reg *reg = calloc(1, sizeof(*reg));
	int rc = 0;

	if (!reg)
		return -ENOMEM;
	ports->reg = reg;
	for (unsigned int t = 0; t < 2; t++)
		reg->tab[t] = (struct fmp_tab){ ports, (enum fmp_ifmib_table)t };
	switch (ports->mode) {
	case FMP_PORTS_AGENTX:
		break; /* runs registered as ports are served (fmp_reg_sync()) */
	case FMP_PORTS_MODULE:
		fmp_module_sync(ports);
		break;
	case FMP_PORTS_STANDALONE:
		for (unsigned int t = 0; t < 2 && rc == 0; t++)
			rc = fmp_own_table(ports, t, DEFAULT_MIB_PRIORITY);
		if (rc == 0)
			rc = fmp_own_ifnumber(ports);
		break;
	}
	return rc;
}

void
fmp_reg_sync(struct fmp_ports *ports)
{
	if (!ports->reg)
		return;
	if (ports->mode == FMP_PORTS_AGENTX)
		fmp_runs_sync(ports);
	else if (ports->mode == FMP_PORTS_MODULE)
		fmp_module_sync(ports);
}

void
fmp_reg_stop(struct fmp_ports *ports, bool leaving)
{
	struct fmp_reg *reg = ports->reg;

	if (!reg)
		return;
	/* snmpd drops a leaving subagent's registrations with its session, in
	 * one pass over its registry; one by one they would cost it time
	 * quadratic in the ports (see fmp_runs_wanted()) */
	for (unsigned int k = 0; k < reg->n_runs; k++)
		fmp_run_unregister(&reg->runs[k], leaving);
	free(reg->runs);
	for (unsigned int t = 0; t < 2; t++) {
		if (reg->own[t])
			netsnmp_unregister_handler(reg->own[t]);
		if (ports->mode == FMP_PORTS_MODULE)
			fmp_eject(fmp_entry_oid[t], fmp_entry_len[t] - 1);
	}
	if (reg->own_ifnumber)
		netsnmp_unregister_handler(reg->own_ifnumber);
	if (ports->mode == FMP_PORTS_MODULE)
		fmp_eject(fmp_ifnumber_oid, OID_LENGTH(fmp_ifnumber_oid));
	free(reg);
	ports->reg = NULL;
}
