/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A Prometheus snmp_exporter generator configuration (generator.yml) with
 * one module for the model: what prometheus-snmp-generator turns, with the
 * MIB, into the exporter's snmp.yml. snmp_exporter names metrics and
 * labels after MIB descriptors, so every name here is one of
 * <fastmib/names.h>. The choices, explained to operators in docs/nms.md:
 *
 *  - Scalars are listed one by one (each scalar group's counters and its
 *    DiscontinuityTime, the module's DiscontinuityTime and WriterStatus):
 *    the generator fetches named scalars with GET, many per PDU, so no
 *    reset object is read and nothing beyond the group is fetched.
 *  - Tables are walked whole. Every walk overruns its subtree by up to
 *    max_repetitions varbinds, and behind snmpd each varbind is one AgentX
 *    round trip, so one walk per table is cheaper than one per column; the
 *    reset column comes along and is ignored.
 *  - Large tables (more rows than exporter_opts.max_rows can be present)
 *    are left out, named in a comment, unless asked for: each row is a
 *    series per column, and a scrape walks them all every time.
 *  - A table indexed by a DPDK port id (`port: true` in the model) gets a
 *    comment with the PromQL that joins its rows with if_mib's: snmp_exporter
 *    cannot turn the SNMP index (port id + 1) into the port's ifIndex, so
 *    the join maps ifIndex values to port ids in PromQL.
 *  - Reset objects always read false(2): never metrics. Nor are index
 *    objects (not-accessible: labels only).
 *  - A keyed table's labels are its key: snmp_exporter reads each index as
 *    the MIB's syntax says (InetAddressType and InetAddress into one label
 *    holding the address, IpAddress, MacAddress, DisplayString, Unsigned32),
 *    so nothing more is needed than the module that defines the syntax
 *    (INET-ADDRESS-MIB) in the list of MIB modules.
 *  - DiscontinuityTime objects (TimeStamp) are gauges, said explicitly:
 *    their value changes when the counters restart.
 *  - WriterStatus is a state set: one series per state, 1 for the current
 *    one, so a rule names the state instead of a number.
 *  - States are metrics of their own, each as the generator reads its MIB
 *    type unless that type reads otherwise than it means: an enum and a
 *    truth-value are state sets (TruthValue's false is 2, which a sum or
 *    a comparison with 0 would get wrong), a gauge64 a gauge (its
 *    CounterBasedGauge64 is a Counter64), a date-and-time DateAndTime
 *    (seconds since the epoch), said explicitly. Strings and addresses
 *    are info metrics, as snmp_exporter makes every string: value 1, the
 *    text in a label named after the state; an inet-address's
 *    InetAddressType is read with its address (the object before it),
 *    never a metric. Numbers, timeticks and timestamps are gauges as
 *    their MIB types say.
 *  - A table's display-string states are also labels of every metric of
 *    their row (lookups): names people query by, as if_mib's ifName. Not
 *    the other strings: octet strings are opaque and may be long, an
 *    address changes more often than a name and each change would start
 *    new series of the row's counters, and snmp_exporter reads an
 *    InetAddress as a lookup without its type (0.21: garbled text).
 *  - A model with timestamp states walks sysUpTime too: a TimeStamp is
 *    sysUpTime at the moment, so the two give the time since in PromQL.
 *  - A histogram's Count and Sum are counters of its group (GET in a
 *    scalar group, columns of a walked table); its bucket table is walked
 *    with its group (not when the group is a large table left out), each
 *    bucket a series of BucketCount labelled with the group's indexes,
 *    the bucket number and, by a lookup, the bucket's bound (BucketLe,
 *    never a metric: a label, exact where a float is not). Buckets are
 *    not cumulative over SNMP; docs/nms.md gives the PromQL that makes
 *    them histogram_quantile() input.
 *  - A peak is a gauge (its CounterBasedGauge64 is a Counter64).
 *  - Event statistics are labelled with the event's name (a lookup).
 *  - The event table only on request: each logged record is a row, so its
 *    series come and go with every record.
 *
 * Only keys that every generator version since 0.21 reads (walk, lookups,
 * overrides with ignore and type) are written; SNMP version and
 * credentials are the user's (module or auth settings, by version).
 */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "single_names.h"
#include "state_names.h"

#define WIDTH 72
/* The agent's uptime, which a TimeStamp is a moment of, and its module. */
#define UPTIME_OBJECT "sysUpTime"
#define UPTIME_MODULE "SNMPv2-MIB"

struct ex {
	const struct model *m;
	const struct exporter_opts *opts;
	struct strbuf *o;
};

static void
put_walk(const struct ex *x, enum fastmib_name_role role, const char *a, const char *b)
{
	char *s = gen_name(role, x->m->prefix, a, b);

	sb_printf(x->o, "      - %s\n", s);
	free(s);
}

static void
put_override2(const struct ex *x, enum fastmib_name_role role, const char *a, const char *b,
	      const char *setting)
{
	char *s = gen_name(role, x->m->prefix, a, b);

	sb_printf(x->o, "      %s:\n        %s\n", s, setting);
	free(s);
}

static void
put_override(const struct ex *x, enum fastmib_name_role role, const char *a,
	     const char *setting)
{
	put_override2(x, role, a, NULL, setting);
}

static void
put_state_override(const struct ex *x, const struct m_group *g, const struct m_state *s,
		   enum state_name_role object, const char *setting)
{
	char *name = state_name(object, x->m->prefix, g->name, s->name, NULL);

	sb_printf(x->o, "      %s:\n        %s\n", name, setting);
	free(name);
}

static void
put_comment(const struct ex *x, const char *indent, const char *text)
{
	struct strbuf in;

	sb_init(&in);
	sb_printf(&in, "%s# ", indent);
	wrap_text(x->o, text, in.data, WIDTH, 1);
	sb_putc(x->o, '\n');
	sb_free(&in);
}

static void
emit_header_comment(const struct ex *x)
{
	const struct model *m = x->m;
	const char *parent = mib_parent_module(m);
	struct mib_tc_module tc[2];
	size_t n_tc = mib_tc_modules(m, tc);
	struct strbuf t;

	sb_init(&t);
	sb_printf(&t, "Prometheus snmp_exporter generator configuration for %s, "
		      "generated by fastmib-gen from %s. Edit the model and "
		      "regenerate, or copy the module into your own generator.yml.",
		  m->module, m->source);
	put_comment(x, "", t.data);
	sb_free(&t);
	sb_puts(x->o, "#\n");
	sb_init(&t);
	sb_printf(&t, "prometheus-snmp-generator needs these MIB modules in its "
		      "MIB directory: %s, SNMPv2-SMI, SNMPv2-TC, SNMPv2-CONF%s%s",
		  m->module, parent ? ", " : "", parent ? parent : "");
	for (size_t i = 0; i < n_tc; i++)
		sb_printf(&t, ", %s", tc[i].module);
	if (model_has_state_type(m, FASTMIB_STATE_TIMESTAMP))
		sb_puts(&t, ", " UPTIME_MODULE);
	sb_puts(&t, ". Metrics and labels are named after the MIB's objects.");
	put_comment(x, "", t.data);
	sb_free(&t);
}

/* Whether table `g` is walked: small, or named with --snmp-exporter-table. */
static bool
table_walked(const struct ex *x, const struct m_group *g)
{
	if (g->n_rows <= x->opts->max_rows)
		return true;
	for (size_t i = 0; i < x->opts->n_tables; i++)
		if (strcmp(x->opts->tables[i], g->name) == 0)
			return true;
	return false;
}

/* For each DPDK port index of table `g`: the PromQL that gives its rows
 * the ifIndex and ifName of the IF-MIB row that fastmib-agentx --ports
 * serves for that port, at the default ifIndex base (1000 + port id). */
static void
put_port_joins(const struct ex *x, const struct m_group *g)
{
	/* a column of the table: its first counter, or state; a histogram's
	 * count */
	char *metric = !g->n_counters ? state_name(SN_MIB_STATE, x->m->prefix, g->name,
						   g->states[0].name, NULL)
		       : g->counters[0].type == FASTMIB_HISTOGRAM
		       ? gen_name(FASTMIB_MIB_HIST_COUNT, x->m->prefix, g->name, g->counters[0].name)
		       : gen_name(FASTMIB_MIB_COUNTER, x->m->prefix, g->name, g->counters[0].name);
	struct strbuf t;

	for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
		char *idx;

		if (!g->indexes[xi].port)
			continue;
		idx = gen_name(FASTMIB_MIB_INDEX, x->m->prefix, g->name, g->indexes[xi].name);
		sb_init(&t);
		sb_printf(&t, "%s is a DPDK port id + 1. With if_mib scraped from the "
			      "same target, its ports served by fastmib-agentx --ports at "
			      "ifIndex 1000 + port id, this adds their ifIndex and ifName "
			      "(docs/nms.md, \"Port tables and if_mib\"):", idx);
		put_comment(x, "      ", t.data);
		sb_free(&t);
		sb_printf(x->o,
			  "      #   %s * on (instance, %s) group_left (ifIndex, ifName)\n"
			  "      #     count_values by (instance, ifIndex, ifName) (\"%s\",\n"
			  "      #       ifIndex{ifIndex=~\"10[0-9][0-9]\"} - 999)\n",
			  metric, idx, idx);
		free(idx);
	}
	free(metric);
}

/* The objects of a scalar group's states, fetched with GET like its
 * counters (an inet-address: its type, then its address). */
static void
put_state_walks(const struct ex *x, const struct m_group *g)
{
	for (uint32_t si = 0; si < g->n_states; si++) {
		const struct m_state *s = &g->states[si];
		char *name;

		if (s->type == FASTMIB_STATE_INET_ADDRESS) {
			name = state_name(SN_MIB_STATE_TYPE, x->m->prefix, g->name, s->name, NULL);
			sb_printf(x->o, "      - %s\n", name);
			free(name);
		}
		name = state_name(SN_MIB_STATE, x->m->prefix, g->name, s->name, NULL);
		sb_printf(x->o, "      - %s\n", name);
		free(name);
	}
}

/* Is the bucket table of a histogram of group `g` walked: with its group,
 * a scalar group or a walked table. */
static bool
buckets_walked(const struct ex *x, const struct m_group *g)
{
	return !g->table || table_walked(x, g);
}

static bool
model_walks_buckets(const struct ex *x)
{
	for (uint32_t gi = 0; gi < x->m->n_groups; gi++)
		for (uint32_t ki = 0; ki < x->m->groups[gi].n_counters; ki++)
			if (x->m->groups[gi].counters[ki].type == FASTMIB_HISTOGRAM &&
			    buckets_walked(x, &x->m->groups[gi]))
				return true;
	return false;
}

/* The bucket tables of the histograms of walked groups. */
static void
put_bucket_walks(const struct ex *x)
{
	const struct model *m = x->m;

	if (!model_walks_buckets(x))
		return;
	put_comment(x, "      ", "histograms' buckets, a series each: the count of "
				  "observations in the bucket (not cumulative), labelled "
				  "with its row's indexes, its number and its bound "
				  "(a lookup of its BucketLe; the last bucket's "
				  "18446744073709551615); docs/nms.md turns them into "
				  "histogram_quantile() input");
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		if (!buckets_walked(x, g))
			continue;
		for (uint32_t ki = 0; ki < g->n_counters; ki++)
			if (g->counters[ki].type == FASTMIB_HISTOGRAM)
				put_walk(x, FASTMIB_MIB_BUCKET_TABLE, g->name,
					 g->counters[ki].name);
	}
}

static void
emit_walk(const struct ex *x)
{
	const struct model *m = x->m;
	struct strbuf t;

	sb_puts(x->o, "    walk:\n");
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		sb_init(&t);
		if (!g->table) {
			sb_printf(&t, "%s: scalars, fetched with GET", g->name);
			put_comment(x, "      ", t.data);
			/* a histogram has no object of its own name: its count
			 * and sum; its buckets are a table (below) */
			for (uint32_t ki = 0; ki < g->n_counters; ki++) {
				const struct m_counter *k = &g->counters[ki];

				if (k->type == FASTMIB_HISTOGRAM) {
					put_walk(x, FASTMIB_MIB_HIST_COUNT, g->name, k->name);
					put_walk(x, FASTMIB_MIB_HIST_SUM, g->name, k->name);
				} else {
					put_walk(x, FASTMIB_MIB_COUNTER, g->name, k->name);
				}
			}
			put_state_walks(x, g);
			if (g->n_counters)
				put_walk(x, FASTMIB_MIB_GROUP_DISCONTINUITY, g->name, NULL);
		} else {
			sb_printf(&t, "%s: %stable, labels", g->name, g->keyed ? "keyed " : "");
			for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
				const struct m_index *ix = &g->indexes[xi];
				char *idx = gen_name(FASTMIB_MIB_INDEX, m->prefix, g->name,
						     ix->name);

				sb_printf(&t, "%s %s", xi ? "," : "", idx);
				/* a key's labels hold its values as the exporter
				 * writes them: say which kind (docs/nms.md) */
				if (g->keyed)
					sb_printf(&t, " (%s)", fastmib_index_type_word(ix->type) ?
							       fastmib_index_type_word(ix->type) :
							       "integer");
				free(idx);
			}
			sb_printf(&t, "; %s%u rows", g->all_rows ? "" : "up to ", g->n_rows);
			if (!table_walked(x, g)) {
				char *tn = gen_name(FASTMIB_MIB_TABLE, m->prefix, g->name, NULL);

				sb_printf(&t, ": more than %u, so not walked (a series per "
					      "row and column at every scrape); to walk it, "
					      "add \"- %s\" here or run fastmib-gen with "
					      "--snmp-exporter-table %s", x->opts->max_rows,
					  tn, g->name);
				free(tn);
			}
			put_comment(x, "      ", t.data);
			put_port_joins(x, g);
			if (table_walked(x, g))
				put_walk(x, FASTMIB_MIB_TABLE, g->name, NULL);
		}
		sb_free(&t);
	}
	put_bucket_walks(x);
	put_comment(x, "      ", "when the counters last restarted; whether the "
				  "process that writes them runs or is stalled; "
				  "values served best effort; updates out of range");
	put_walk(x, FASTMIB_MIB_DISCONTINUITY, NULL, NULL);
	put_walk(x, FASTMIB_MIB_WRITER_STATUS, NULL, NULL);
	put_walk(x, FASTMIB_MIB_BEST_EFFORT, NULL, NULL);
	put_walk(x, FASTMIB_MIB_OUT_OF_RANGE, NULL, NULL);
	if (model_has_state_type(m, FASTMIB_STATE_TIMESTAMP)) {
		put_comment(x, "      ", "the agent's uptime: a timestamp state is its value at "
					  "the moment (0: not since the agent started), so ("
					  UPTIME_OBJECT " - state) / 100 is the seconds since");
		sb_puts(x->o, "      - " UPTIME_OBJECT "\n");
	}
	if (model_notifies(m)) {
		char *dropped = state_name(SN_MIB_NOTIFICATIONS_DROPPED, m->prefix, NULL, NULL,
					   NULL);

		put_comment(x, "      ", "notifications the agent did not send");
		sb_printf(x->o, "      - %s\n", dropped);
		free(dropped);
	}
	if (m->n_events == 0)
		return;
	put_comment(x, "      ", "records logged and dropped per event");
	put_walk(x, FASTMIB_MIB_EVENT_STATS_TABLE, NULL, NULL);
	if (x->opts->event_table) {
		put_comment(x, "      ", "the last records of the event log: a row, "
					  "and new series, per record");
		put_walk(x, FASTMIB_MIB_EVENT_TABLE, NULL, NULL);
	}
}

static void
put_lookup(const struct ex *x, enum fastmib_name_role index, enum fastmib_name_role name)
{
	char *i = gen_name(index, x->m->prefix, NULL, NULL);
	char *n = gen_name(name, x->m->prefix, NULL, NULL);

	sb_printf(x->o, "      - source_indexes: [%s]\n        lookup: %s\n", i, n);
	free(i);
	free(n);
}

/* Whether state `s` of group `g` labels every metric of its row (a
 * lookup): a display-string of a walked table. */
static bool
state_labels_row(const struct ex *x, const struct m_group *g, const struct m_state *s)
{
	return g->table && s->type == FASTMIB_STATE_DISPLAY_STRING && table_walked(x, g);
}

static bool
model_labels_rows(const struct ex *x)
{
	for (uint32_t gi = 0; gi < x->m->n_groups; gi++)
		for (uint32_t si = 0; si < x->m->groups[gi].n_states; si++)
			if (state_labels_row(x, &x->m->groups[gi], &x->m->groups[gi].states[si]))
				return true;
	return false;
}

/* The lookups of the states that label their rows. Their source indexes
 * are every label of the table's rows, as the generator names them: an
 * inet-address index (InetAddressType and InetAddress) is one label, the
 * address's. */
static void
put_state_lookups(const struct ex *x)
{
	const struct model *m = x->m;

	if (!model_labels_rows(x))
		return;
	put_comment(x, "      ", "display-string states of tables: a label of every metric "
				  "of their row too");
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		for (uint32_t si = 0; si < g->n_states; si++) {
			char *name;

			if (!state_labels_row(x, g, &g->states[si]))
				continue;
			sb_puts(x->o, "      - source_indexes: [");
			for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
				char *idx = gen_name(FASTMIB_MIB_INDEX, m->prefix, g->name,
						     g->indexes[xi].name);

				sb_printf(x->o, "%s%s", xi ? ", " : "", idx);
				free(idx);
			}
			name = state_name(SN_MIB_STATE, m->prefix, g->name, g->states[si].name, NULL);
			sb_printf(x->o, "]\n        lookup: %s\n", name);
			free(name);
		}
	}
}

/* Each walked bucket's bound as a label of its count: the lookup's
 * source indexes are the bucket table's labels (the group's indexes, as
 * the generator names them, then the bucket number). */
static void
put_bucket_lookups(const struct ex *x)
{
	const struct model *m = x->m;

	if (!model_walks_buckets(x))
		return;
	put_comment(x, "      ", "a histogram bucket's upper bound: a label of its count");
	for (uint32_t gi = 0; gi < m->n_groups; gi++) {
		const struct m_group *g = &m->groups[gi];

		if (!buckets_walked(x, g))
			continue;
		for (uint32_t ki = 0; ki < g->n_counters; ki++) {
			const struct m_counter *k = &g->counters[ki];
			char *name;

			if (k->type != FASTMIB_HISTOGRAM)
				continue;
			sb_puts(x->o, "      - source_indexes: [");
			for (uint32_t xi = 0; xi < g->n_indexes; xi++) {
				name = gen_name(FASTMIB_MIB_INDEX, m->prefix, g->name,
						g->indexes[xi].name);
				sb_printf(x->o, "%s, ", name);
				free(name);
			}
			name = gen_name(FASTMIB_MIB_BUCKET, m->prefix, g->name, k->name);
			sb_printf(x->o, "%s]\n", name);
			free(name);
			name = gen_name(FASTMIB_MIB_BUCKET_LE, m->prefix, g->name, k->name);
			sb_printf(x->o, "        lookup: %s\n", name);
			free(name);
		}
	}
}

static void
emit_lookups(const struct ex *x)
{
	bool event_table = x->opts->event_table;

	if (x->m->n_events == 0 && !model_labels_rows(x) && !model_walks_buckets(x))
		return;
	sb_puts(x->o, "    lookups:\n");
	put_state_lookups(x);
	put_bucket_lookups(x);
	if (x->m->n_events == 0)
		return;
	put_comment(x, "      ", "the event's name as a label beside its id");
	put_lookup(x, FASTMIB_MIB_EVENT_STATS_ID, FASTMIB_MIB_EVENT_STATS_NAME);
	if (event_table)
		put_lookup(x, FASTMIB_MIB_EVENT_NUMBER, FASTMIB_MIB_EVENT_NAME);
}

/* The states whose MIB type the generator reads otherwise than they mean,
 * by type: the object overridden (an inet-address: its InetAddressType),
 * the override, and why. */
static const struct {
	uint32_t type;
	enum state_name_role object;
	const char *setting;
	const char *why;
} state_overrides[] = {
	{ FASTMIB_STATE_TRUTH_VALUE, SN_MIB_STATE, "type: EnumAsStateSet",
	  "truth-value states: a series for true and one for false, 1 for the current "
	  "one (TruthValue's false is 2, not 0)" },
	{ FASTMIB_STATE_ENUM, SN_MIB_STATE, "type: EnumAsStateSet",
	  "enum states: a series per label, 1 for the current one" },
	{ FASTMIB_STATE_GAUGE64, SN_MIB_STATE, "type: gauge",
	  "gauge64 states go up and down: gauges, whatever their Counter64 syntax says" },
	{ FASTMIB_STATE_DATE_AND_TIME, SN_MIB_STATE, "type: DateAndTime",
	  "date-and-time states: seconds since the epoch (whole seconds; unknown, "
	  "'0000000000000000'H, reads -62169984000)" },
	{ FASTMIB_STATE_INET_ADDRESS, SN_MIB_STATE_TYPE, "ignore: true",
	  "an inet-address state's InetAddressType is read with its address, which "
	  "it says how to write: no metric of its own" },
};

static void
put_state_overrides(const struct ex *x)
{
	const struct model *m = x->m;

	for (size_t k = 0; k < sizeof(state_overrides) / sizeof(state_overrides[0]); k++) {
		if (!model_has_state_type(m, state_overrides[k].type))
			continue;
		put_comment(x, "      ", state_overrides[k].why);
		for (uint32_t gi = 0; gi < m->n_groups; gi++)
			for (uint32_t si = 0; si < m->groups[gi].n_states; si++)
				if (m->groups[gi].states[si].type == state_overrides[k].type)
					put_state_override(x, &m->groups[gi],
							   &m->groups[gi].states[si],
							   state_overrides[k].object,
							   state_overrides[k].setting);
	}
}

/* A walked bucket table's number (an index) and bound (a label) are no
 * metrics; a peak goes up and down with its resets: a gauge. */
static void
put_hist_overrides(const struct ex *x)
{
	const struct model *m = x->m;
	bool peaks = false;

	if (model_walks_buckets(x)) {
		put_comment(x, "      ", "a histogram bucket's number and bound are labels");
		for (uint32_t gi = 0; gi < m->n_groups; gi++) {
			const struct m_group *g = &m->groups[gi];

			if (!buckets_walked(x, g))
				continue;
			for (uint32_t ki = 0; ki < g->n_counters; ki++) {
				if (g->counters[ki].type != FASTMIB_HISTOGRAM)
					continue;
				put_override2(x, FASTMIB_MIB_BUCKET, g->name,
					      g->counters[ki].name, "ignore: true");
				put_override2(x, FASTMIB_MIB_BUCKET_LE, g->name,
					      g->counters[ki].name, "ignore: true");
			}
		}
	}
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t ki = 0; ki < m->groups[gi].n_counters; ki++) {
			if (m->groups[gi].counters[ki].type != FASTMIB_PEAK)
				continue;
			if (!peaks)
				put_comment(x, "      ", "peaks: the largest value since the last "
							  "reset, gauges whatever their Counter64 "
							  "syntax says");
			peaks = true;
			put_override2(x, FASTMIB_MIB_COUNTER, m->groups[gi].name,
				      m->groups[gi].counters[ki].name, "type: gauge");
		}
}

static void
emit_overrides(const struct ex *x)
{
	bool event_table = x->opts->event_table;
	static const enum fastmib_name_role u64[] = {
		FASTMIB_MIB_EVENT_LAG_CYCLES, FASTMIB_MIB_EVENT_LAG_NS,
		FASTMIB_MIB_EVENT_ARG1, FASTMIB_MIB_EVENT_ARG2,
		FASTMIB_MIB_EVENT_ARG3, FASTMIB_MIB_EVENT_ARG4,
	};
	const struct model *m = x->m;

	sb_puts(x->o, "    overrides:\n");
	put_comment(x, "      ", "reset objects are for SET: they always read "
				  "false(2)");
	put_override(x, FASTMIB_MIB_RESET_ALL, NULL, "ignore: true");
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		if (m->groups[gi].n_counters)
			put_override(x, FASTMIB_MIB_RESET, m->groups[gi].name, "ignore: true");
	put_comment(x, "      ", "index objects are labels, never values (not "
				  "accessible; an InetAddressType is read with its "
				  "address, into one label)");
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		for (uint32_t xi = 0; xi < m->groups[gi].n_indexes; xi++) {
			const struct m_index *ix = &m->groups[gi].indexes[xi];

			if (ix->type == FASTMIB_INDEX_INET_ADDRESS)
				put_override2(x, FASTMIB_MIB_INDEX_TYPE, m->groups[gi].name,
					      ix->name, "ignore: true");
			put_override2(x, FASTMIB_MIB_INDEX, m->groups[gi].name, ix->name,
				      "ignore: true");
		}
	put_hist_overrides(x);
	put_comment(x, "      ", "TimeStamps (the agent's uptime in hundredths "
				  "of a second at the last reset or re-created "
				  "segment): a new value means the counters restarted");
	put_override(x, FASTMIB_MIB_DISCONTINUITY, NULL, "type: gauge");
	for (uint32_t gi = 0; gi < m->n_groups; gi++)
		if (m->groups[gi].n_counters)
			put_override(x, FASTMIB_MIB_GROUP_DISCONTINUITY, m->groups[gi].name,
				     "type: gauge");
	put_comment(x, "      ", "running(1), gone(2) or stalled(3): a series per "
				  "state, 1 for the current one");
	put_override(x, FASTMIB_MIB_WRITER_STATUS, NULL, "type: EnumAsStateSet");
	put_state_overrides(x);
	if (m->n_events == 0)
		return;
	put_comment(x, "      ", "event names are labels (lookups)");
	put_override(x, FASTMIB_MIB_EVENT_STATS_NAME, NULL, "ignore: true");
	if (!event_table)
		return;
	put_override(x, FASTMIB_MIB_EVENT_NAME, NULL, "ignore: true");
	put_comment(x, "      ", "lags and arguments are values, not counters "
				  "(SMIv2 has no 64-bit gauge: the MIB's type is based "
				  "on Counter64)");
	for (size_t i = 0; i < sizeof(u64) / sizeof(u64[0]); i++)
		put_override(x, u64[i], NULL, "type: gauge");
}

void
emit_exporter(const struct model *m, const struct exporter_opts *o, struct strbuf *out)
{
	struct ex x = { m, o, out };
	char *name = gen_exporter_module(m->module);

	emit_header_comment(&x);
	sb_printf(out, "modules:\n  %s:\n", name);
	emit_walk(&x);
	emit_lookups(&x);
	emit_overrides(&x);
	free(name);
}
