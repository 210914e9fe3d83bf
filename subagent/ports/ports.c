/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IF-MIB rows for the ports of DPDK applications: the sources, their
 * connections and life cycle, the periodic check, the binding of ports to
 * the port map, and the log. See ports.h for the behaviour; the rows as
 * requests see them are port_rows.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "confset.h"
#include "ports_priv.h"

/* RFC 2863: events before the agent's start read 0. */
uint32_t
fmp_stamp(const struct fmp_ports *ports)
{
	return ports->starting ? 0 : (uint32_t)netsnmp_get_agent_uptime();
}

bool
fmp_kernel_ifindex(uint32_t ifindex, void *arg)
{
	char name[IF_NAMESIZE];

	(void)arg;
	return if_indextoname(ifindex, name) != NULL;
}

static bool
fmp_beside_kernel(const struct fmp_ports *ports)
{
	return ports->mode != FMP_PORTS_STANDALONE;
}

/* ---- the port map ---- */

void
fmp_map_save(struct fmp_ports *ports)
{
	int rc = fastmib_portmap_save(ports->map);

	if (rc == 0 || rc == -ENOENT) {
		ports->map_unsaved_logged = false;
		return;
	}
	if (ports->map_unsaved_logged)
		return;
	ports->map_unsaved_logged = true;
	if (rc == -EINVAL)
		snmp_log(LOG_WARNING, "fastmib: ports: %s is not rewritten while it has the "
			 "errors logged at start: new ifIndex values and ifAlias settings "
			 "last until the agent stops\n", fastmib_portmap_path(ports->map));
	else
		snmp_log(LOG_ERR, "fastmib: ports: %s", fastmib_portmap_errors(ports->map));
}

static uint32_t
fmp_base_of(const struct fmp_src *s)
{
	return s->own_base ? s->own_base : s->owner->base;
}

/* The device at this port id gets its entry in the map: its ifIndex. */
static void
fmp_bind(struct fmp_port *p, bool *created, char *names, size_t *used, size_t size)
{
	struct fmp_src *s = p->src;
	struct fmp_ports *ports = s->owner;
	struct fastmib_portmap_entry *e;
	bool made;
	int err;

	e = fastmib_port_ifindex(ports->map, s->path, fmp_base_of(s), p->name,
				 p->mac_ok ? p->mac : NULL,
				 fmp_beside_kernel(ports) ? fmp_kernel_ifindex : NULL, NULL, &made, &err);
	if (!e || e->in_use) {
		const char *why = !e ? (err == -ENOSPC ? "no ifIndex left above its base"
					: "out of memory")
				  : "its device is served for another port id";

		if (p->refused != why) {
			char name[4 * FASTMIB_PORT_NAME_MAX + 1];

			snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (%s) not served: %s\n",
				 s->epath, p->id, fastmib_escape_str(p->name, name, sizeof(name)),
				 why);
		}
		p->refused = why;
		return;
	}
	e->in_use = true;
	p->entry = e;
	fastmib_port_ifname(s->label, p->name, p->ifname, sizeof(p->ifname));
	*created |= made;
	if (made && *used + 8 < size) {
		char name[4 * FASTMIB_PORT_NAME_MAX + 1];
		int n = snprintf(names + *used, size - *used, "%s%s=%u", *used ? ", " : "",
				 fastmib_escape_str(p->name, name, sizeof(name)), e->ifindex);

		if (n > 0 && *used + (size_t)n < size - 4)
			*used += (size_t)n;
		else
			*used += (size_t)snprintf(names + *used, size - *used, "...");
	}
}

static void
fmp_unbind(struct fmp_port *p)
{
	if (p->served)
		p->src->owner->rows_changed = true;
	p->served = false;
	if (p->entry)
		p->entry->in_use = false;
	p->entry = NULL;
	p->pdu_valid = false;
}

/* Why a bound port cannot be served now, or NULL. */
static const char *
fmp_obstacle(const struct fmp_port *p, char *kname)
{
	if (fmp_beside_kernel(p->src->owner) && if_indextoname(p->entry->ifindex, kname))
		return "its ifIndex is a kernel interface's (choose another, see "
		       "\"ifIndex\" in docs/if-mib.md)";
	return NULL;
}

/* ---- faulty counters in the log ---- */

static void
fmp_log_big(const struct fmp_port *p, const char *name, const char *part,
	    const char *field, uint64_t v)
{
	snmp_log(LOG_NOTICE, "fastmib: ports %s: port %u (%s): %s.%s is %" PRIu64 ", 2^63 "
		 "or more (a driver counter that went below zero?); served as read\n",
		 p->src->epath, p->id, name, part, field, v);
}

/*
 * Counters a reading could not take, or took at 2^63 and more, said once
 * per port and field; the same again at most every FMP_FAULT_LOG_NS.
 */
static void
fmp_log_faults(struct fmp_port *p, const struct fastmib_port_reading *r, uint64_t now)
{
	unsigned int bad = r->stats_bad & ~p->logged_bad, big = r->stats_big & ~p->logged_big;
	unsigned int cbad = r->cast_bad & ~p->logged_cast_bad;
	unsigned int cbig = r->cast_big & ~p->logged_cast_big;
	char name[4 * FASTMIB_PORT_NAME_MAX + 1];
	char fields[256] = "";
	size_t used = 0;

	if (p->fault_log_ns && now - p->fault_log_ns >= FMP_FAULT_LOG_NS) {
		/* the period is over: what is still wrong is said again */
		p->logged_bad = p->logged_big = p->logged_cast_bad = p->logged_cast_big = 0;
		bad = r->stats_bad;
		big = r->stats_big;
		cbad = r->cast_bad;
		cbig = r->cast_big;
	}
	if (!(bad | big | cbad | cbig))
		return;
	fastmib_escape_str(p->name[0] ? p->name : r->name, name, sizeof(name));
	for (unsigned int k = 0; k < FASTMIB_STAT_COUNT; k++)
		if (bad & (1u << k))
			used += (size_t)snprintf(fields + used, sizeof(fields) - used, "%sstats.%s",
						 used ? ", " : "", fastmib_port_stat_name(k));
	for (unsigned int k = 0; k < FASTMIB_CAST_COUNT && used < sizeof(fields); k++)
		if (cbad & (1u << k))
			used += (size_t)snprintf(fields + used, sizeof(fields) - used,
						 "%sxstats.%s", used ? ", " : "",
						 fastmib_port_cast_name(k));
	if (bad | cbad)
		snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (%s): %s not an unsigned "
			 "64-bit integer (%s): not served; said again at most once a "
			 "minute\n", p->src->epath, p->id, name, fields, r->bad_text);
	for (unsigned int k = 0; k < FASTMIB_STAT_COUNT; k++)
		if (big & (1u << k))
			fmp_log_big(p, name, "stats", fastmib_port_stat_name(k), r->stat[k]);
	for (unsigned int k = 0; k < FASTMIB_CAST_COUNT; k++)
		if (cbig & (1u << k))
			fmp_log_big(p, name, "xstats", fastmib_port_cast_name(k), r->cast[k]);
	p->logged_bad |= bad;
	p->logged_big |= big;
	p->logged_cast_bad |= cbad;
	p->logged_cast_big |= cbig;
	p->fault_log_ns = now;
}

void
fmp_port_take(struct fmp_port *p, const struct fastmib_port_reading *r, uint64_t now)
{
	static const unsigned int bits[FMP_PARTS] = {
		FASTMIB_PORT_INFO, FASTMIB_PORT_LINK, FASTMIB_PORT_STATS, FASTMIB_PORT_XSTATS,
	};
	unsigned int seen;

	/* the last parts read, each with its time: what a late answer serves */
	for (unsigned int k = 0; k < FMP_PARTS; k++) {
		if (!(r->parts & bits[k]))
			continue;
		p->last_ns[k] = now;
		switch (bits[k]) {
		case FASTMIB_PORT_INFO:
			memcpy(p->last.name, r->name, sizeof(r->name));
			p->last.mtu = r->mtu;
			p->last.mac_ok = r->mac_ok;
			memcpy(p->last.mac, r->mac, sizeof(r->mac));
			p->last.promiscuous = r->promiscuous;
			p->last.started = r->started;
			break;
		case FASTMIB_PORT_LINK:
			p->last.link_up = r->link_up;
			p->last.speed_known = r->speed_known;
			p->last.speed_mbps = r->speed_mbps;
			break;
		case FASTMIB_PORT_STATS:
			memcpy(p->last.stat, r->stat, sizeof(r->stat));
			p->last.stats_have = r->stats_have;
			break;
		default:
			memcpy(p->last.cast, r->cast, sizeof(r->cast));
			p->last.cast_have = r->cast_have;
			break;
		}
		p->last.parts |= bits[k];
	}
	if (r->parts & FASTMIB_PORT_XSTATS)
		/* which counters a port's xstats has is fixed once it runs: a port
		 * without a breakdown is not asked for xstats again */
		p->cast_have = (int)r->cast_have;
	seen = fmp_ifmib_track(&p->track, r, fmp_stamp(p->src->owner));
	if ((seen & FMP_IFMIB_OPER) && p->tracked)
		fmp_notify_oper(p, p->track.oper);
	if (fmp_ifmib_oper(r))
		p->tracked = true;
	fmp_log_faults(p, r, now);
}

unsigned int
fmp_port_parts(const struct fmp_port *p)
{
	return p->cast_have != 0 ? FASTMIB_PORT_ALL : FASTMIB_PORT_ALL & ~FASTMIB_PORT_XSTATS;
}

/* ---- sources ---- */

static struct fmp_port *
fmp_port(struct fmp_src *s, uint16_t id, bool create)
{
	struct fmp_port **ports, *p;
	unsigned int lo = 0, hi = s->n_ports;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (s->ports[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n_ports && s->ports[lo]->id == id)
		return s->ports[lo];
	if (!create || s->n_ports >= FMP_PORTS_MAX_PORTS)
		return NULL;
	ports = realloc(s->ports, (s->n_ports + 1) * sizeof(*ports));
	if (!ports)
		return NULL;
	s->ports = ports;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->src = s;
	p->id = id;
	p->cast_have = -1;
	/* a port of the instance's first list counts since the instance
	 * began; one that appears later, since now */
	fmp_ifmib_track_reset(&p->track, s->first_sample ? s->epoch : fmp_stamp(s->owner));
	memmove(&s->ports[lo + 1], &s->ports[lo], (s->n_ports - lo) * sizeof(*ports));
	s->ports[lo] = p;
	s->n_ports++;
	return p;
}

/*
 * A reply that came after its query gave up (the telemetry client's late
 * callback): the port's reading all the same, dated by when its command
 * was sent, so that the age rule never takes it for younger than it is.
 * Replies come in order, so it is never older than the part it replaces.
 */
static void
fmp_src_late(const char *cmd, uint64_t sent_ns, const json_t *value, void *arg)
{
	struct fmp_src *s = arg;
	struct fastmib_port_reading r;
	struct fmp_port *p;

	if (fastmib_port_parse_reply(cmd, value, &r) < 0)
		return; /* not a port's part, or the port is gone: the check sees it */
	p = fmp_port(s, r.port, false);
	if (!p || !p->name[0])
		return;
	/* another device at this port id now: no values until the check
	 * sees it */
	if ((r.parts & FASTMIB_PORT_INFO) && strcmp(r.name, p->name) != 0)
		return;
	s->late_taken++;
	DEBUGMSGTL(("fastmib_ports", "%s: %s: late reply taken, %" PRIu64 " ms after its "
		    "command\n", s->epath, cmd, (fastmib_monotonic_ns() - sent_ns) / 1000000u));
	fmp_port_take(p, &r, sent_ns);
}

static unsigned int
fmp_src_serving(const struct fmp_src *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->n_ports; i++)
		n += s->ports[i]->served;
	return n;
}

/* The application's rows go: it exited, stalled, or the source was dropped. */
static void
fmp_src_withdraw(struct fmp_src *s, const char *why)
{
	unsigned int n = fmp_src_serving(s);

	for (unsigned int i = 0; i < s->n_ports; i++) {
		fmp_unbind(s->ports[i]);
		s->ports[i]->listed = false;
		s->ports[i]->refused = NULL;
	}
	if (s->up && why && n)
		snmp_log(LOG_INFO, "fastmib: ports %s: application (pid %ld) %s; "
			 "%u port(s) withdrawn\n", s->epath, s->pid, why, n);
	s->up = false;
	s->behind_ns = 0;
	s->lost = NULL;
	s->sample_n = 0;
	s->sampled = false;
}

void
fmp_src_trouble(struct fmp_src *s, int rc)
{
	if (rc == -ETIMEDOUT || rc == -EBUSY) {
		if (!s->behind_ns)
			s->behind_ns = fastmib_monotonic_ns();
		if (!s->late_logged && !fmp_src_serving(s))
			/* said hello, then nothing: no rows to speak of yet */
			snmp_log(LOG_WARNING, "fastmib: ports %s: application (pid %ld) does "
				 "not answer (no answer within %u ms); no rows until it "
				 "does\n", s->epath, s->pid, s->owner->timeout_ms);
		else if (!s->late_logged)
			snmp_log(LOG_WARNING, "fastmib: ports %s: application (pid %ld) answers "
				 "late (no answer within %u ms): its late answers and last "
				 "readings serve while younger than %u ms, then its rows answer "
				 "genErr; withdrawn only if it sends nothing for %u ms\n",
				 s->epath, s->pid, s->owner->timeout_ms, FMP_PORTS_MAX_AGE_MS,
				 FMP_PORTS_STALL_MS);
		s->late_logged = true;
		return;
	}
	/* closed, or not speaking the protocol: the check withdraws the
	 * rows (not here, inside a request that uses them) */
	if (!s->lost && (rc == -ECONNRESET || rc == -EPROTO)) {
		s->lost = rc == -ECONNRESET ? "exited" : "broke the telemetry protocol";
		if (rc == -EPROTO)
			snmp_log(LOG_WARNING, "fastmib: ports %s: %s\n", s->epath,
				 fastmib_tel_error(s->tel));
	}
	if (fastmib_tel_ready(s->tel))
		fastmib_tel_close(s->tel);
}

static void
fmp_src_log_failure(struct fmp_src *s, int rc, const char *msg)
{
	if (rc == s->last_rc && strcmp(msg, s->last_msg) == 0)
		return;
	s->last_rc = rc;
	snprintf(s->last_msg, sizeof(s->last_msg), "%s", msg);
	snmp_log(rc == -ENOENT || rc == -ECONNREFUSED ? LOG_INFO : LOG_WARNING,
		 "fastmib: ports %s: %s; retrying\n", s->epath, msg);
}

void
fmp_src_answers(struct fmp_src *s)
{
	if (s->late_logged)
		snmp_log(LOG_INFO, "fastmib: ports %s: application (pid %ld) answers "
			 "again\n", s->epath, s->pid);
	s->behind_ns = 0;
	s->late_logged = false;
}

/*
 * Read the port list and the state of every listed port (info, link,
 * stats, and xstats where a breakdown is or may be), take it in, and mark
 * which ports are listed: queries of FMP_SAMPLE_CHUNK ports. A sample that
 * takes longer than FMP_CHECK_SLICE_NS is cut there and carried on by the
 * next call (s->sample_n > 0), so that the serving process (snmpd itself,
 * in the module) answers requests in between however many ports there
 * are. Returns 0 when the sample is complete, -EINPROGRESS when cut, or
 * the failure of a query.
 */
static int
fmp_src_sample(struct fmp_src *s, uint64_t until)
{
	struct fastmib_port_ask asks[FMP_SAMPLE_CHUNK];
	struct fastmib_port_reading rd[FMP_SAMPLE_CHUNK];
	int rc;

	if (!s->sample_ids &&
	    !(s->sample_ids = malloc(FMP_PORTS_MAX_PORTS * sizeof(*s->sample_ids))))
		return -ENOMEM;
	if (s->sample_n == 0 && s->behind_ns) {
		/* a late application: the ports of its last list are read
		 * straight away, so that the round trip the check costs it
		 * brings readings (a late list would bring none); the list is
		 * read again once it answers in time */
		for (unsigned int i = 0; i < s->n_ports; i++)
			if (s->ports[i]->listed)
				s->sample_ids[s->sample_n++] = s->ports[i]->id;
		s->sample_at = 0;
	}
	if (s->sample_n == 0) {
		s->bg_exchanges++;
		rc = fastmib_tel_list_ports(s->tel, s->sample_ids, FMP_PORTS_MAX_PORTS,
					    s->owner->timeout_ms);
		if (rc == -EPROTO && fastmib_tel_ready(s->tel)) {
			fmp_src_log_failure(s, -EPROTO, "/ethdev/list: not a list of port ids");
			return -EPROTO;
		}
		if (rc < 0)
			return rc;
		for (unsigned int i = 0; i < s->n_ports; i++)
			s->ports[i]->listed = false;
		for (int i = 0; i < rc; i++) {
			struct fmp_port *p = fmp_port(s, s->sample_ids[i], true);

			if (p)
				p->listed = true;
		}
		s->first_sample = false;
		s->sample_n = (unsigned int)rc;
		s->sample_at = 0;
		if (rc == 0)
			return 0;
	}
	while (s->sample_at < s->sample_n) {
		unsigned int at = s->sample_at;
		unsigned int n = s->sample_n - at < FMP_SAMPLE_CHUNK ? s->sample_n - at
				 : FMP_SAMPLE_CHUNK;
		uint64_t now;

		if (at && fastmib_monotonic_ns() >= until)
			return -EINPROGRESS;
		for (unsigned int i = 0; i < n; i++) {
			struct fmp_port *p = fmp_port(s, s->sample_ids[at + i], false);

			asks[i].port = s->sample_ids[at + i];
			asks[i].parts = p ? fmp_port_parts(p)
				    : FASTMIB_PORT_ALL & ~FASTMIB_PORT_XSTATS;
		}
		s->bg_exchanges++;
		rc = fastmib_tel_read_ports(s->tel, asks, n, rd, s->owner->timeout_ms);
		if (rc < 0) {
			s->sample_n = 0;
			return rc;
		}
		now = fastmib_monotonic_ns();
		for (unsigned int i = 0; i < n; i++) {
			struct fmp_port *p = fmp_port(s, s->sample_ids[at + i], false);

			if (!p)
				continue;
			if (!(rd[i].parts & FASTMIB_PORT_INFO)) {
				p->listed = false; /* detached since the list */
				continue;
			}
			if (p->name[0] && strcmp(p->name, rd[i].name) != 0) {
				/* another device at this port id (hotplug): a new row */
				fmp_unbind(p);
				fmp_ifmib_track_reset(&p->track, fmp_stamp(s->owner));
				p->tracked = false;
				p->cast_have = -1;
				p->notified_oper = 0;
			}
			memcpy(p->name, rd[i].name, sizeof(p->name));
			p->mac_ok = rd[i].mac_ok;
			memcpy(p->mac, rd[i].mac, sizeof(p->mac));
			fmp_port_take(p, &rd[i], now);
		}
		s->sample_at = at + n;
	}
	s->sample_n = 0;
	return 0;
}

/* Rows follow the port list; a kernel interface that took an ifIndex since
 * is left its row. */
static void
fmp_src_follow(struct fmp_src *s)
{
	struct fmp_ports *ports = s->owner;
	unsigned int before = fmp_src_serving(s);
	char names[256] = "";
	size_t used = 0;
	bool created = false;

	for (unsigned int i = 0; i < s->n_ports; i++) {
		struct fmp_port *p = s->ports[i];
		char kname[IF_NAMESIZE] = "";
		const char *why;

		if (!p->listed) {
			fmp_unbind(p);
			continue;
		}
		if (!p->entry && p->name[0])
			fmp_bind(p, &created, names, &used, sizeof(names));
		if (!p->entry)
			continue;
		why = fmp_obstacle(p, kname);
		if (why) {
			if (p->served || p->refused != why)
				snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (ifIndex %u) "
					 "not served: %s: %s\n", s->epath, p->id, p->entry->ifindex,
					 why, kname);
			p->refused = why;
			if (p->served)
				ports->rows_changed = true;
			p->served = false;
			continue;
		}
		p->refused = NULL;
		if (!p->served) {
			p->served = true;
			p->known_ifindex = p->entry->ifindex;
			ports->rows_changed = true;
		}
	}
	if (created)
		fmp_map_save(ports);
	if (used || fmp_src_serving(s) != before)
		snmp_log(LOG_INFO, "fastmib: ports %s: serving %u port(s) of pid %ld "
			 "(%s)%s%s\n", s->epath, fmp_src_serving(s), s->pid,
			 fastmib_tel_version(s->tel), used ? ", new ifIndex: " : "", names);
}

/* The hello came: a new instance of the application, or the same one. */
static void
fmp_src_came_up(struct fmp_src *s)
{
	long pid = fastmib_tel_pid(s->tel);

	if (pid != s->pid) {
		/* counters start afresh: every port's discontinuity is now, or
		 * 0 when the application ran before the agent (its socket
		 * accepted then, even if its hello came later) */
		uint32_t now_cs = s->pid == 0 && s->there_at_start ? 0 : fmp_stamp(s->owner);

		s->epoch = now_cs;
		s->first_sample = true;
		for (unsigned int i = 0; i < s->n_ports; i++) {
			struct fmp_port *p = s->ports[i];

			fmp_ifmib_track_reset(&p->track, now_cs);
			p->tracked = false;
			p->cast_have = -1;
			p->pdu_valid = false;
			p->notified_oper = 0;
			p->last.parts = 0;
			p->logged_bad = p->logged_big = 0;
			p->logged_cast_bad = p->logged_cast_big = 0;
		}
		s->pid = pid;
		s->late_logged = false;
	}
	s->up = true;
	s->behind_ns = 0;
	s->hello_logged = false;
	s->last_rc = 0;
	s->last_msg[0] = '\0';
}

/* A part of the source's sample (see fmp_src_sample()); the rows follow
 * the port list once the sample is complete (fmp_ports_follow()). */
static void
fmp_src_sample_step(struct fmp_src *s, uint64_t until)
{
	int rc = fmp_src_sample(s, until);

	if (rc == -EINPROGRESS)
		return;
	if (rc < 0) {
		fmp_src_trouble(s, rc);
		if (!fastmib_tel_ready(s->tel))
			fmp_src_withdraw(s, s->lost ? s->lost : "closed its telemetry connection");
		return;
	}
	fmp_src_answers(s);
	s->sampled = true;
}

/*
 * Rows follow the samples complete, in the order of the sources: while an
 * application's sample is still cut in slices, those configured after it
 * wait for it, so that applications sampled together take their new
 * ifIndex values in blocks in that order (as fastmib-stat gives them from
 * an empty state), however their samples were sliced.
 */
static void
fmp_ports_follow(struct fmp_ports *ports)
{
	for (unsigned int i = 0; i < ports->n_srcs; i++) {
		struct fmp_src *s = ports->srcs[i];

		if (s->sample_n)
			return;
		if (s->sampled) {
			s->sampled = false;
			if (s->up)
				fmp_src_follow(s);
		}
	}
}

/*
 * Replies are owed and nothing at all came back for FMP_PORTS_STALL_MS
 * (since the oldest owed command was sent, or since the last reply): a
 * stuck application (stopped, in a loop), taken as gone; its rows come
 * back when it answers again. One that keeps replying, however late, is
 * alive and keeps its rows (its late replies are its readings).
 */
static bool
fmp_src_stuck(const struct fmp_src *s, uint64_t now)
{
	uint64_t owed = fastmib_tel_owed_since(s->tel);
	uint64_t heard = fastmib_tel_last_reply_ns(s->tel);
	uint64_t since = heard > owed ? heard : owed;

	return owed && now - since >= FMP_PORTS_STALL_MS * 1000000ull;
}

static void
fmp_src_check(struct fmp_src *s, uint64_t until)
{
	int rc;

	if (s->sample_n) {
		/* a sample under way: its next part (a check found it cut) */
		fmp_src_sample_step(s, until);
		return;
	}
	rc = fastmib_tel_poll(s->tel);
	if (rc == -EPROTO) {
		fmp_src_trouble(s, rc); /* said, and the rows withdrawn below */
		rc = -ENOTCONN;
	}
	if (rc == -ECONNRESET || (rc == -ENOTCONN && s->up)) {
		fmp_src_withdraw(s, rc == -ECONNRESET ? "exited"
				 : s->lost ? s->lost : "closed its telemetry connection");
		rc = -ENOTCONN;
	}
	if (rc == -EBUSY) {
		uint64_t now = fastmib_monotonic_ns(), since = fastmib_tel_waiting_since(s->tel);

		if (since) {
			/* connected, and no hello: not DPDK's socket, or a stuck
			 * application; said once per connection */
			if (!s->hello_logged && now - since >= FMP_PORTS_HELLO_MS * 1000000ull) {
				s->hello_logged = true;
				snmp_log(LOG_WARNING, "fastmib: ports %s: connected, but no "
					 "hello within %u ms (not a DPDK telemetry socket, or "
					 "the application is stuck); waiting\n", s->epath,
					 FMP_PORTS_HELLO_MS);
			}
			return;
		}
		if (!s->behind_ns)
			s->behind_ns = now;
	}
	if (s->up && fmp_src_stuck(s, fastmib_monotonic_ns())) {
		char why[80];

		snprintf(why, sizeof(why), "sent nothing for %u ms (stopped or stuck)",
			 FMP_PORTS_STALL_MS);
		fmp_src_withdraw(s, why);
		fastmib_tel_close(s->tel);
		return;
	}
	if (rc == -EBUSY)
		return;
	if (rc == -ENOTCONN) {
		rc = fastmib_tel_connect(s->tel, s->owner->timeout_ms);
		if (s->owner->starting && (rc == 0 || rc == -EINPROGRESS))
			s->there_at_start = true;
		if (rc == -EINPROGRESS)
			return;
		if (rc < 0) {
			fmp_src_log_failure(s, rc, fastmib_tel_error(s->tel));
			return;
		}
	}
	if (!s->up)
		fmp_src_came_up(s);
	fmp_src_sample_step(s, until);
}

static void fmp_continue(unsigned int reg, void *arg);

/* After a check or a part of one: rows, registrations, notifications, and
 * the next part of a sample that was cut. */
static void
fmp_ports_settle(struct fmp_ports *ports)
{
	bool more = false;

	fmp_ports_follow(ports);
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		more |= ports->srcs[i]->sample_n > 0;
	if (more && !ports->continue_alarm)
		ports->continue_alarm = snmp_alarm_register(0, 0, fmp_continue, ports);
	if (ports->rows_changed) {
		fmp_rows_sync(ports);
		ports->rows_changed = false;
	}
	fmp_reg_sync(ports);
	fmp_notify_flush(ports);
}

void
fmp_ports_check(struct fmp_ports *ports)
{
	uint64_t until = fastmib_monotonic_ns() + FMP_CHECK_SLICE_NS;

	for (unsigned int i = 0; i < ports->n_srcs; i++)
		fmp_src_check(ports->srcs[i], until);
	fmp_ports_settle(ports);
}

static void
fmp_continue(unsigned int reg, void *arg)
{
	struct fmp_ports *ports = arg;
	uint64_t until = fastmib_monotonic_ns() + FMP_CHECK_SLICE_NS;

	(void)reg;
	ports->continue_alarm = 0;
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		if (ports->srcs[i]->sample_n)
			fmp_src_sample_step(ports->srcs[i], until);
	fmp_ports_settle(ports);
}

static void
fmp_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fmp_ports_check(arg);
}

/* ---- configuration ---- */

int
fmp_ports_create(struct fmp_ports **portsp)
{
	struct fmp_ports *ports = calloc(1, sizeof(*ports));

	*portsp = ports;
	if (!ports)
		return -ENOMEM;
	ports->mode = FMP_PORTS_AGENTX;
	ports->base = FASTMIB_IFINDEX_BASE;
	ports->timeout_ms = FMP_PORTS_TIMEOUT_MS;
	ports->trap_rate = FMP_PORTS_TRAP_RATE;
	if (fastmib_portmap_new(&ports->map) < 0) {
		free(ports);
		*portsp = NULL;
		return -ENOMEM;
	}
	return 0;
}

void
fmp_ports_config_mode(struct fmp_ports *ports, enum fmp_ports_mode mode)
{
	ports->mode = mode;
}

static void
fmp_src_free(struct fmp_src *s)
{
	struct fastmib_tel_counts c;

	fmp_src_withdraw(s, NULL);
	fastmib_tel_counts(s->tel, &c);
	if (c.exchanges)
		snmp_log(LOG_INFO, "fastmib: ports %s: %" PRIu64 " telemetry queries "
			 "(%" PRIu64 " for requests, %" PRIu64 " checks), %" PRIu64
			 " commands, %" PRIu64 " timed out; %" PRIu64 " late answers served "
			 "the last reading, %" PRIu64 " genErr; %" PRIu64 " late replies "
			 "taken as readings\n", s->epath, c.exchanges, s->req_exchanges,
			 s->bg_exchanges, c.commands, c.timeouts, s->stale_served, s->gen_errs,
			 s->late_taken);
	for (unsigned int i = 0; i < s->n_ports; i++)
		free(s->ports[i]);
	free(s->ports);
	free(s->sample_ids);
	fastmib_tel_free(s->tel);
	free(s->path);
	free(s->epath);
	free(s);
}

/* The applications as a configured set (confset.h). */
static const char *
fmp_src_path(const void *elem)
{
	return (*(struct fmp_src *const *)elem)->path;
}

static bool *
fmp_src_confirmed(void *elem)
{
	return &(*(struct fmp_src **)elem)->confirmed;
}

static void
fmp_src_drop(void *elem)
{
	struct fmp_src *s = *(struct fmp_src **)elem;

	snmp_log(LOG_INFO, "fastmib: ports %s: no longer configured, not served\n", s->epath);
	fmp_src_free(s);
}

static const struct fma_confset_ops fmp_srcs_conf = {
	.size = sizeof(struct fmp_src *),
	.path = fmp_src_path,
	.confirmed = fmp_src_confirmed,
	.drop = fmp_src_drop,
	.max = FMP_PORTS_MAX_SOURCES,
};

int
fmp_ports_add(struct fmp_ports *ports, const char *spec)
{
	char path[4096];
	uint32_t base;
	struct fmp_src **srcs, *s;
	void *named;
	int rc = fastmib_port_source_parse(spec, path, sizeof(path), &base);

	if (rc < 0)
		return rc;
	rc = fma_confset_add(&fmp_srcs_conf, ports->srcs, ports->n_srcs, path, &named);
	if (rc < 0)
		return rc;
	if (named) {
		(*(struct fmp_src **)named)->own_base = base;
		return 0;
	}
	srcs = realloc(ports->srcs, (ports->n_srcs + 1) * sizeof(*srcs));
	if (!srcs)
		return -ENOMEM;
	ports->srcs = srcs;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path)) || !(s->epath = malloc(4 * strlen(path) + 1)) ||
	    fastmib_tel_new(path, &s->tel) < 0) {
		if (s) {
			free(s->path);
			free(s->epath);
		}
		free(s);
		return -ENOMEM;
	}
	fastmib_escape_str(path, s->epath, 4 * strlen(path) + 1);
	fastmib_tel_on_late(s->tel, fmp_src_late, s);
	s->owner = ports;
	s->own_base = base;
	s->confirmed = true;
	ports->srcs[ports->n_srcs++] = s;
	return 0;
}

int
fmp_ports_config_base(struct fmp_ports *ports, uint32_t base)
{
	if (base < 1 || base > FASTMIB_IFINDEX_MAX)
		return -EINVAL;
	ports->base = base;
	return 0;
}

int
fmp_ports_config_timeout(struct fmp_ports *ports, unsigned int ms)
{
	if (ms < 1 || ms > FMP_PORTS_TIMEOUT_MAX)
		return -EINVAL;
	ports->timeout_ms = ms;
	return 0;
}

int
fmp_ports_config_link_trap_rate(struct fmp_ports *ports, unsigned int per_s)
{
	if (per_s > FMP_PORTS_TRAP_RATE_MAX)
		return -EINVAL;
	ports->trap_rate = per_s;
	fma_limit_init(&ports->link_limit, "fastmib: ports: ", "linkUp/linkDown notification(s)",
		       per_s, per_s);
	return 0;
}

int
fmp_ports_config_state_dir(struct fmp_ports *ports, const char *dir)
{
	char *copy = dir ? strdup(dir) : NULL;

	if (dir && !copy)
		return -ENOMEM;
	free(ports->state_dir);
	ports->state_dir = copy;
	return 0;
}

/* Labels (ifName) follow the list of sources: a prefix only with several. */
static void
fmp_relabel(struct fmp_ports *ports)
{
	const char **paths = calloc(ports->n_srcs ? ports->n_srcs : 1, sizeof(*paths));
	char (*labels)[FASTMIB_PORT_LABEL_MAX] = calloc(ports->n_srcs ? ports->n_srcs : 1,
							 sizeof(*labels));

	if (!paths || !labels) {
		free(paths);
		free(labels);
		return;
	}
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		paths[i] = ports->srcs[i]->path;
	fastmib_port_labels(paths, ports->n_srcs, labels);
	free(paths);
	free(ports->labels);
	ports->labels = labels;
	for (unsigned int i = 0; i < ports->n_srcs; i++) {
		struct fmp_src *s = ports->srcs[i];

		s->label = ports->n_srcs > 1 ? ports->labels[i] : NULL;
		for (unsigned int j = 0; j < s->n_ports; j++)
			if (s->ports[j]->entry)
				fastmib_port_ifname(s->label, s->ports[j]->name,
						    s->ports[j]->ifname,
						    sizeof(s->ports[j]->ifname));
	}
}

void
fmp_ports_reload_begin(struct fmp_ports *ports)
{
	fma_confset_begin(&fmp_srcs_conf, ports->srcs, ports->n_srcs);
	ports->base = FASTMIB_IFINDEX_BASE; /* unless the configuration says again */
}

unsigned int
fmp_ports_reload_end(struct fmp_ports *ports)
{
	unsigned int dropped = fma_confset_end(&fmp_srcs_conf, ports->srcs, &ports->n_srcs);

	if (dropped)
		ports->rows_changed = true;
	fmp_relabel(ports);
	if (ports->alarm)
		fmp_ports_check(ports);
	return dropped;
}

unsigned int
fmp_ports_count(const struct fmp_ports *ports)
{
	return ports ? ports->n_srcs : 0;
}

/* The port map from the state directory; its errors said once, at start. */
static void
fmp_map_load(struct fmp_ports *ports)
{
	int rc;

	if (!ports->state_dir) {
		snmp_log(LOG_INFO, "fastmib: ports: no state directory: ifIndex values and "
			 "ifAlias settings last until the agent stops\n");
		return;
	}
	rc = fastmib_portmap_load(ports->map, ports->state_dir);
	if (rc < 0)
		snmp_log(LOG_ERR, "fastmib: ports: %s", fastmib_portmap_errors(ports->map));
	else
		DEBUGMSGTL(("fastmib_ports", "port map %s: %u device(s)\n",
			    fastmib_portmap_path(ports->map), fastmib_portmap_count(ports->map)));
}

int
fmp_ports_start(struct fmp_ports *ports)
{
	struct timeval tv = { 0, FMP_PORTS_CHECK_MS * 1000 };
	int rc;

	if (ports->alarm)
		return -EALREADY;
	if (ports->n_srcs == 0)
		return 0;
	fmp_map_load(ports);
	fma_limit_init(&ports->link_limit, "fastmib: ports: ", "linkUp/linkDown notification(s)",
		       ports->trap_rate, ports->trap_rate);
	fmp_relabel(ports);
	rc = fmp_reg_start(ports);
	if (rc < 0)
		return rc;
	ports->starting = true;
	fmp_ports_check(ports);
	ports->starting = false;
	ports->alarm = snmp_alarm_register_hr(tv, SA_REPEAT, fmp_alarm, ports);
	return ports->alarm ? 0 : -ENOMEM;
}

void
fmp_ports_destroy(struct fmp_ports *ports)
{
	if (!ports)
		return;
	if (ports->alarm)
		snmp_alarm_unregister(ports->alarm);
	if (ports->continue_alarm)
		snmp_alarm_unregister(ports->continue_alarm);
	for (unsigned int i = 0; i < ports->n_srcs; i++)
		fmp_src_free(ports->srcs[i]);
	ports->n_srcs = 0;
	fmp_rows_sync(ports);
	fmp_reg_stop(ports, true);
	fmp_notify_free(ports);
	fmp_set_free(ports);
	fmp_rows_free(&ports->rows);
	fastmib_portmap_free(ports->map);
	free(ports->srcs);
	free(ports->labels);
	free(ports->state_dir);
	free(ports);
}
