/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One port of an application and its readings: found or made by its port
 * id, each reading taken into its history (ifLastChange,
 * ifCounterDiscontinuityTime, linkUp/linkDown) and into the last parts
 * read (what serves while an answer is late), and its faulty counters
 * said in the log.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ports_priv.h"

/* RFC 2863: events before the agent's start read 0. */
uint32_t
fmp_stamp(const struct fmp_ports *ports)
{
	return ports->starting ? 0 : (uint32_t)netsnmp_get_agent_uptime();
}

struct fmp_port *
fmp_port_of(struct fmp_src *s, uint16_t id, bool create)
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
	if (!create || s->n_ports >= FME_APP_PORTS_MAX)
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
	/* a port of the instance's first list counts since the instance
	 * began; one that appears later, since now */
	fmp_port_forget(p, s->first_sample ? s->epoch : fmp_stamp(s->owner));
	memmove(&s->ports[lo + 1], &s->ports[lo], (s->n_ports - lo) * sizeof(*ports));
	s->ports[lo] = p;
	s->n_ports++;
	return p;
}

void
fmp_port_forget(struct fmp_port *p, uint32_t now_cs)
{
	fmp_ifmib_track_reset(&p->hist.track, now_cs);
	p->hist.tracked = false;
	p->dev.cast_have = -1;
	p->req.valid = false;
	p->last.rd.parts = 0;
	memset(&p->logged, 0, sizeof(p->logged));
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
fmp_log_faults(struct fmp_port *p, const struct fme_port_reading *r, uint64_t now)
{
	unsigned int bad = r->stats_bad & ~p->logged.bad, big = r->stats_big & ~p->logged.big;
	unsigned int cbad = r->cast_bad & ~p->logged.cast_bad;
	unsigned int cbig = r->cast_big & ~p->logged.cast_big;
	char name[4 * FME_PORT_NAME_MAX + 1];
	char fields[256] = "";
	size_t used = 0;

	if (p->logged.ns && now - p->logged.ns >= FMP_FAULT_LOG_NS) {
		/* the period is over: what is still wrong is said again */
		p->logged.bad = p->logged.big = p->logged.cast_bad = p->logged.cast_big = 0;
		bad = r->stats_bad;
		big = r->stats_big;
		cbad = r->cast_bad;
		cbig = r->cast_big;
	}
	if (!(bad | big | cbad | cbig))
		return;
	fme_escape_str(p->dev.name[0] ? p->dev.name : r->name, name, sizeof(name));
	for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
		if (bad & (1u << k))
			used += (size_t)snprintf(fields + used, sizeof(fields) - used, "%sstats.%s",
						 used ? ", " : "", fme_port_stat_name(k));
	for (unsigned int k = 0; k < FME_CAST_COUNT && used < sizeof(fields); k++)
		if (cbad & (1u << k))
			used += (size_t)snprintf(fields + used, sizeof(fields) - used,
						 "%sxstats.%s", used ? ", " : "",
						 fme_port_cast_name(k));
	if (bad | cbad)
		snmp_log(LOG_WARNING, "fastmib: ports %s: port %u (%s): %s not an unsigned "
			 "64-bit integer (%s): not served; said again at most once a "
			 "minute\n", p->src->epath, p->id, name, fields, r->bad_text);
	for (unsigned int k = 0; k < FME_STAT_COUNT; k++)
		if (big & (1u << k))
			fmp_log_big(p, name, "stats", fme_port_stat_name(k), r->stat[k]);
	for (unsigned int k = 0; k < FME_CAST_COUNT; k++)
		if (cbig & (1u << k))
			fmp_log_big(p, name, "xstats", fme_port_cast_name(k), r->cast[k]);
	p->logged.bad |= bad;
	p->logged.big |= big;
	p->logged.cast_bad |= cbad;
	p->logged.cast_big |= cbig;
	p->logged.ns = now;
}

/* ---- readings ---- */

void
fmp_port_take(struct fmp_port *p, const struct fme_port_reading *r, uint64_t now)
{
	unsigned int seen;

	/* the last parts read, each with its time: what a late answer serves */
	for (unsigned int k = 0; k < FME_PORT_PARTS; k++)
		if (r->parts & (1u << k))
			p->last.ns[k] = now;
	fme_port_merge(&p->last.rd, r, r->parts);
	if (r->parts & FME_PORT_XSTATS)
		/* which counters a port's xstats has is fixed once it runs: a port
		 * without a breakdown is not asked for xstats again */
		p->dev.cast_have = (int)r->cast_have;
	seen = fmp_ifmib_track(&p->hist.track, r, fmp_stamp(p->src->owner));
	if ((seen & FMP_IFMIB_OPER) && p->hist.tracked)
		fmp_notify_oper(p, p->hist.track.oper);
	if (fmp_ifmib_oper(r))
		p->hist.tracked = true;
	fmp_log_faults(p, r, now);
}

unsigned int
fmp_port_parts(const struct fmp_port *p)
{
	return p->dev.cast_have != 0 ? FME_PORT_ALL : FME_PORT_ALL & ~FME_PORT_XSTATS;
}
