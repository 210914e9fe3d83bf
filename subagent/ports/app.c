/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One application (a ports source): its telemetry connection and hello,
 * the periodic sample of its port list and ports, lateness and how it
 * ends (answers again, or withdrawn: exited, stuck), replies that come
 * late, and its rows following its port list.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

/* The device a port's info reply names, taken as the port's: a new row
 * when another device took the port id (hotplug). */
static void
fmp_take_device(struct fmp_src *s, struct fmp_port *p, const struct fme_port_reading *rd)
{
	if (p->dev.name[0] && strcmp(p->dev.name, rd->name) != 0) {
		fmp_unbind(p);
		fmp_port_forget(p, fmp_stamp(s->owner));
	}
	memcpy(p->dev.name, rd->name, sizeof(p->dev.name));
	p->dev.mac_ok = rd->mac_ok;
	memcpy(p->dev.mac, rd->mac, sizeof(p->dev.mac));
}

/* The application's port list (`ids`, ascending): which ports are listed,
 * each listed one made if new. */
static void
fmp_take_list(struct fmp_src *s, const uint16_t *ids, unsigned int n)
{
	for (unsigned int i = 0; i < s->n_ports; i++)
		s->ports[i]->dev.listed = false;
	for (unsigned int i = 0; i < n; i++) {
		struct fmp_port *p = fmp_port_of(s, ids[i], true);

		if (p)
			p->dev.listed = true;
	}
	s->first_sample = false;
}

/* A port list that came after its query gave up: taken as if in time,
 * the rows following it at the next check. */
static void
fmp_src_late_list(struct fmp_src *s, const json_t *value)
{
	uint16_t *ids = malloc(FME_APP_PORTS_MAX * sizeof(*ids));
	int n = ids ? fme_port_parse_list(value, ids, FME_APP_PORTS_MAX) : -ENOMEM;

	if (n >= 0) {
		s->late_taken++;
		fmp_take_list(s, ids, (unsigned int)n);
		s->sampled = true;
	}
	free(ids);
}

/*
 * A reply that came after its query gave up (the telemetry client's late
 * callback): the port list, or a port's reading all the same, dated by
 * when its command was sent, so that the age rule never takes it for
 * younger than it is. Replies come in order, so it is never older than
 * the part it replaces. A port seen for the first time takes its device
 * from its info, and gets its row at the next check.
 */
static void
fmp_src_late(const char *cmd, uint64_t sent_ns, const json_t *value, void *arg)
{
	struct fmp_src *s = arg;
	struct fme_port_reading r;
	struct fmp_port *p;

	if (strcmp(cmd, "/ethdev/list") == 0) {
		fmp_src_late_list(s, value);
		return;
	}
	if (fme_port_parse_reply(cmd, value, &r) < 0)
		return; /* not a port's part, or the port is gone: the check sees it */
	p = fmp_port_of(s, r.port, false);
	if (!p)
		return;
	if (!p->dev.name[0] && p->dev.listed && (r.parts & FME_PORT_INFO)) {
		fmp_take_device(s, p, &r);
		s->sampled = true;
	}
	if (!p->dev.name[0])
		return;
	/* another device at this port id now: no values until the check
	 * sees it */
	if ((r.parts & FME_PORT_INFO) && strcmp(r.name, p->dev.name) != 0)
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
		n += s->ports[i]->row.served;
	return n;
}

/* The application's rows go: it exited, stalled, or the source was dropped. */
static void
fmp_src_withdraw(struct fmp_src *s, const char *why)
{
	unsigned int n = fmp_src_serving(s);

	for (unsigned int i = 0; i < s->n_ports; i++) {
		fmp_unbind(s->ports[i]);
		s->ports[i]->dev.listed = false;
		s->ports[i]->row.refused = NULL;
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
				 fme_tel_error(s->tel));
	}
	if (fme_tel_ready(s->tel))
		fme_tel_close(s->tel);
}

static void
fmp_src_log_failure(struct fmp_src *s, int rc, const char *msg)
{
	if (!fma_said_news(&s->said, rc, msg))
		return;
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

/* ---- the sample ---- */

unsigned int
fmp_src_next_late(struct fmp_src *s, struct fmp_port **out, unsigned int max,
		  struct fmp_port *const *skip, unsigned int n_skip)
{
	unsigned int n = 0, from = s->late_next;

	for (unsigned int k = 0; k < s->n_ports && n < max; k++) {
		unsigned int at = (from + k) % s->n_ports;
		struct fmp_port *p = s->ports[at];
		bool skipped = false;

		for (unsigned int i = 0; i < n_skip && !skipped; i++)
			skipped = skip[i] == p;
		if (!p->dev.listed || skipped)
			continue;
		out[n++] = p;
		s->late_next = (at + 1) % s->n_ports;
	}
	return n;
}

/*
 * A late application: the next ports of its last list in turn are read
 * straight away (fmp_src_next_late()), so that the round trip the check
 * costs it brings readings (a late list would bring none before its
 * turn); the list is read again once it answers in time, or taken when
 * it comes late.
 */
static void
fmp_sample_late(struct fmp_src *s)
{
	struct fmp_port *next[FMP_SAMPLE_CHUNK];

	s->sample_n = fmp_src_next_late(s, next, FMP_SAMPLE_CHUNK, NULL, 0);
	for (unsigned int i = 0; i < s->sample_n; i++)
		s->sample_ids[i] = next[i]->id;
	s->sample_at = 0;
}

/* Read the port list into the sample and mark which ports are listed:
 * 0, or the failure of the query. */
static int
fmp_sample_list(struct fmp_src *s)
{
	int rc;

	s->bg_exchanges++;
	rc = fme_tel_list_ports(s->tel, s->sample_ids, FME_APP_PORTS_MAX,
				    s->owner->timeout_ms);
	if (rc == -EPROTO && fme_tel_ready(s->tel)) {
		fmp_src_log_failure(s, -EPROTO, "/ethdev/list: not a list of port ids");
		return -EPROTO;
	}
	if (rc < 0)
		return rc;
	fmp_take_list(s, s->sample_ids, (unsigned int)rc);
	s->sample_n = (unsigned int)rc;
	s->sample_at = 0;
	return 0;
}

/* One port's part of a sample: the device at its id, and its reading. */
static void
fmp_sample_take(struct fmp_src *s, struct fmp_port *p, const struct fme_port_reading *rd,
		uint64_t now)
{
	if (!(rd->parts & FME_PORT_INFO)) {
		p->dev.listed = false; /* detached since the list */
		return;
	}
	fmp_take_device(s, p, rd);
	fmp_port_take(p, rd, now);
}

/* The next FMP_SAMPLE_CHUNK ports of the sample at most, in one query:
 * 0, or the failure of the query (the sample is then dropped). */
static int
fmp_sample_chunk(struct fmp_src *s)
{
	struct fme_port_ask asks[FMP_SAMPLE_CHUNK] = { { 0 } };
	struct fme_port_reading rd[FMP_SAMPLE_CHUNK];
	unsigned int at = s->sample_at;
	unsigned int n = s->sample_n - at < FMP_SAMPLE_CHUNK ? s->sample_n - at : FMP_SAMPLE_CHUNK;
	uint64_t now;
	int rc;

	for (unsigned int i = 0; i < n; i++) {
		struct fmp_port *p = fmp_port_of(s, s->sample_ids[at + i], false);

		asks[i].port = s->sample_ids[at + i];
		asks[i].parts = p ? fmp_port_parts(p) : FME_PORT_ALL & ~FME_PORT_XSTATS;
	}
	s->bg_exchanges++;
	rc = fme_tel_read_ports(s->tel, asks, n, rd, s->owner->timeout_ms);
	if (rc < 0) {
		s->sample_n = 0;
		return rc;
	}
	now = fastmib_monotonic_ns();
	for (unsigned int i = 0; i < n; i++) {
		struct fmp_port *p = fmp_port_of(s, s->sample_ids[at + i], false);

		if (p)
			fmp_sample_take(s, p, &rd[i], now);
	}
	s->sample_at = at + n;
	return 0;
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
	int rc;

	if (!s->sample_ids &&
	    !(s->sample_ids = malloc(FME_APP_PORTS_MAX * sizeof(*s->sample_ids))))
		return -ENOMEM;
	if (s->sample_n == 0 && s->behind_ns)
		fmp_sample_late(s);
	if (s->sample_n == 0) {
		rc = fmp_sample_list(s);
		if (rc < 0 || s->sample_n == 0)
			return rc;
	}
	while (s->sample_at < s->sample_n) {
		if (s->sample_at && fastmib_monotonic_ns() >= until)
			return -EINPROGRESS;
		rc = fmp_sample_chunk(s);
		if (rc < 0)
			return rc;
	}
	s->sample_n = 0;
	return 0;
}

/* Rows follow the port list; a kernel interface that took an ifIndex since
 * is left its row. */
void
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

		if (!p->dev.listed) {
			fmp_unbind(p);
			continue;
		}
		if (!p->row.entry && p->dev.name[0])
			fmp_bind(p, &created, names, &used, sizeof(names));
		if (!p->row.entry)
			continue;
		why = fmp_obstacle(p, kname);
		if (why) {
			if (p->row.served || p->row.refused != why)
				snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (ifIndex %u) "
					 "not served: %s: %s\n", s->epath, p->id, p->row.entry->ifindex,
					 why, kname);
			p->row.refused = why;
			if (p->row.served)
				ports->rows_changed = true;
			p->row.served = false;
			continue;
		}
		p->row.refused = NULL;
		if (!p->row.served) {
			p->row.served = true;
			p->row.known_ifindex = p->row.entry->ifindex;
			ports->rows_changed = true;
		}
	}
	if (created)
		fmp_map_save(ports);
	if (used || fmp_src_serving(s) != before)
		snmp_log(LOG_INFO, "fastmib: ports %s: serving %u port(s) of pid %ld "
			 "(%s)%s%s\n", s->epath, fmp_src_serving(s), s->pid,
			 fme_tel_version(s->tel), used ? ", new ifIndex: " : "", names);
}

/* The hello came: a new instance of the application, or the same one. */
static void
fmp_src_came_up(struct fmp_src *s)
{
	long pid = fme_tel_pid(s->tel);

	if (pid != s->pid) {
		/* counters start afresh: every port's discontinuity is now, or
		 * 0 when the application ran before the agent (its socket
		 * accepted then, even if its hello came later) */
		uint32_t now_cs = s->pid == 0 && s->there_at_start ? 0 : fmp_stamp(s->owner);

		s->epoch = now_cs;
		s->first_sample = true;
		for (unsigned int i = 0; i < s->n_ports; i++)
			fmp_port_forget(s->ports[i], now_cs);
		s->pid = pid;
		s->late_logged = false;
	}
	s->up = true;
	s->behind_ns = 0;
	s->hello_logged = false;
	fma_said_forget(&s->said);
}

/* A part of the source's sample (see fmp_src_sample()); the rows follow
 * the port list once the sample is complete (fmp_ports_follow()). */
void
fmp_src_sample_step(struct fmp_src *s, uint64_t until)
{
	int rc = fmp_src_sample(s, until);

	if (rc == -EINPROGRESS)
		return;
	if (rc < 0) {
		fmp_src_trouble(s, rc);
		if (!fme_tel_ready(s->tel))
			fmp_src_withdraw(s, s->lost ? s->lost : "closed its telemetry connection");
		return;
	}
	fmp_src_answers(s);
	s->sampled = true;
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
	uint64_t owed = fme_tel_owed_since(s->tel);
	uint64_t heard = fme_tel_last_reply_ns(s->tel);
	uint64_t since = heard > owed ? heard : owed;

	return owed && now - since >= FMP_PORTS_STALL_MS * 1000000ull;
}

void
fmp_src_check(struct fmp_src *s, uint64_t until)
{
	int rc;

	if (s->sample_n) {
		/* a sample under way: its next part (a check found it cut) */
		fmp_src_sample_step(s, until);
		return;
	}
	rc = fme_tel_poll(s->tel);
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
		uint64_t now = fastmib_monotonic_ns(), since = fme_tel_waiting_since(s->tel);

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
		fme_tel_close(s->tel);
		return;
	}
	if (rc == -EBUSY)
		return;
	if (rc == -ENOTCONN) {
		rc = fme_tel_connect(s->tel, s->owner->timeout_ms);
		if (s->owner->starting && (rc == 0 || rc == -EINPROGRESS))
			s->there_at_start = true;
		if (rc == -EINPROGRESS)
			return;
		if (rc < 0) {
			fmp_src_log_failure(s, rc, fme_tel_error(s->tel));
			return;
		}
	}
	if (!s->up)
		fmp_src_came_up(s);
	fmp_src_sample_step(s, until);
}

/* ---- made and freed ---- */

struct fmp_src *
fmp_src_new(struct fmp_ports *ports, const char *path, uint32_t own_base)
{
	struct fmp_src *s = calloc(1, sizeof(*s));

	if (!s || !(s->path = strdup(path)) || !(s->epath = malloc(4 * strlen(path) + 1)) ||
	    fme_tel_new(path, &s->tel) < 0) {
		if (s) {
			free(s->path);
			free(s->epath);
		}
		free(s);
		return NULL;
	}
	fme_escape_str(path, s->epath, 4 * strlen(path) + 1);
	fme_tel_on_late(s->tel, fmp_src_late, s);
	s->owner = ports;
	s->own_base = own_base;
	return s;
}

void
fmp_src_free(struct fmp_src *s)
{
	struct fme_tel_counts c;

	fmp_src_withdraw(s, NULL);
	fme_tel_counts(s->tel, &c);
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
	fme_tel_free(s->tel);
	free(s->path);
	free(s->epath);
	free(s);
}
