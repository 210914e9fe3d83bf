/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The segment set of the serving core: configured paths, attach and
 * re-attach, one handler registration per attached segment, and the life
 * cycle of the set (create, reload, start, periodic check, destroy).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "confset.h"
#include "core_priv.h"

/* ---- attach / register ---- */

static void
fma_log_failure(struct fma_seg *s, int rc, const char *msg)
{
	if (!fma_said_news(&s->said, rc, msg))
		return;
	if (rc == -ENOENT)
		snmp_log(LOG_WARNING, "fastmib: %s: segment absent, waiting for it\n",
			 s->path);
	else
		snmp_log(LOG_ERR, "fastmib: %s: segment refused (%s), retrying\n",
			 s->path, msg);
}

static void
fma_unregister(struct fma_seg *s)
{
	fma_axreg_unregister(s->reg, false);
	s->reg = NULL;
	fma_said_forget(&s->refused);
}

/* Everything of an attached segment but its registration. */
static void
fma_release(struct fma_seg *s)
{
	fma_set_abort(s); /* a SET cut short by the detach */
	fma_ev_free(s);
	if (s->seg)
		fastmib_close(s->seg);
	s->seg = NULL;
	s->schema = NULL;
	fastmib_oidmap_free(s->map);
	s->map = NULL;
	fma_snaps_free(s);
}

static void
fma_detach(struct fma_seg *s)
{
	fma_unregister(s);
	fma_release(s);
}

/* Two registrations where one root is a prefix of the other would split
 * the OID space between two segments: only the first is served. */
static const struct fma_seg *
fma_root_owner(const struct fma_seg *s)
{
	const struct fma_agent *a = s->agent;

	for (unsigned int i = 0; i < a->n_segs; i++) {
		const struct fma_seg *o = a->segs[i];
		size_t n = o->root_len < s->root_len ? o->root_len : s->root_len;

		if (o == s || !o->reg)
			continue;
		if (netsnmp_oid_equals(o->root, n, s->root, n) == 0)
			return o;
	}
	return NULL;
}

static void
fma_log_serving(const struct fma_seg *s)
{
	struct fastmib_info info;

	fastmib_info(s->seg, &info);
	snmp_log(LOG_INFO, "fastmib: %s: serving %s (generation %" PRIu64 "%s)\n",
		 s->path, s->schema->module, info.generation,
		 s->writable ? "" : ", read-only: resets refused");
}

/* snmpd's answer to the root's registration (AgentX; axreg.h). */
static void
fma_answered(struct fma_axreg *reg, void *arg)
{
	struct fma_seg *s = arg;
	long error = fma_axreg_error(reg);

	if (fma_axreg_serving(reg)) {
		fma_said_forget(&s->refused);
		if (s->seg)
			fma_log_serving(s);
		return;
	}
	if (fma_said_news(&s->refused, (int)error, fma_axreg_error_name(error)))
		snmp_log(LOG_ERR, "fastmib: %s: snmpd refused %s: %s; not served, "
			 "retrying\n", s->path, fma_axreg_label(reg),
			 fma_axreg_error_name(error));
}

static int
fma_register(struct fma_seg *s)
{
	netsnmp_handler_registration *reg;
	char label[FMA_AXREG_LABEL_MAX];
	size_t at;

	reg = netsnmp_create_handler_registration(s->schema->module, fma_handler,
						  s->root, s->root_len,
						  HANDLER_CAN_RWRITE);
	if (!reg)
		return -ENOMEM;
	reg->handler->myvoid = s; /* no data_free: the core owns `s` */
	/* "module NAME (ROOT)": the messages and the status name it so */
	at = (size_t)snprintf(label, sizeof(label), "module %s (", s->schema->module);
	for (size_t i = 0; i < s->root_len && at < sizeof(label); i++)
		at += (size_t)snprintf(label + at, sizeof(label) - at, "%s%lu",
				       i ? "." : "", (unsigned long)s->root[i]);
	if (at < sizeof(label))
		snprintf(label + at, sizeof(label) - at, ")");
	return fma_axreg_register(reg, label, fma_answered, s, &s->reg);
}

/*
 * What serving the attached segment needs: its OID map (which also refuses
 * what the layout cannot express: a segment is data from another process
 * and is not trusted blindly), its root, event state and where its state
 * changes are to be sent from.
 */
static int
fma_prepare(struct fma_seg *s, char *why, size_t whylen)
{
	const struct fastmib_schema *sc = s->schema;
	int rc;

	rc = fastmib_oidmap_new(sc, &s->map, why, whylen);
	if (rc < 0)
		return rc;
	fma_rows_init(s);
	s->root_len = sc->oid_len; /* at most FASTMIB_MAX_OID_LEN: the map checked */
	for (uint32_t i = 0; i < sc->oid_len; i++)
		s->root[i] = sc->oid[i];
	s->changes = false;
	for (uint32_t g = 0; g < sc->n_groups; g++)
		for (uint32_t k = 0; k < sc->groups[g].n_states; k++)
			s->changes |= sc->groups[g].states[k].notify != 0;
	if (s->changes)
		fma_changes_attach(s);
	return fma_ev_attach(s, why, whylen);
}

/*
 * Attach the segment at the path and serve it. A root still registered
 * from the segment served before (kept while the file was broken, see
 * fma_check()) is reused when the new segment has the same one.
 */
static void
fma_try_attach(struct fma_seg *s)
{
	struct fma_axreg *kept = s->reg;
	oid kept_root[MAX_OID_LEN];
	size_t kept_len = s->root_len;
	char why[256] = "";
	const struct fma_seg *owner;
	int rc;

	memcpy(kept_root, s->root, sizeof(kept_root));
	rc = fastmib_attach(s->path, 0, &s->seg);
	s->writable = true;
	if (rc == -EACCES || rc == -EPERM || rc == -EROFS) {
		rc = fastmib_attach(s->path, FASTMIB_ATTACH_RDONLY, &s->seg);
		s->writable = false;
	}
	if (rc < 0) {
		s->seg = NULL;
		fma_log_failure(s, rc, fastmib_last_error());
		/* gone from the path: nothing is served there any more */
		if (rc == -ENOENT)
			fma_unregister(s);
		return;
	}
	s->schema = fastmib_schema(s->seg);
	rc = fma_prepare(s, why, sizeof(why));
	if (kept && (rc < 0 || s->root_len != kept_len ||
		     netsnmp_oid_equals(s->root, s->root_len, kept_root, kept_len) != 0)) {
		/* another model now: the old root goes */
		s->reg = kept;
		fma_unregister(s);
		kept = NULL;
	}
	if (rc == 0 && !kept && (owner = fma_root_owner(s)) != NULL) {
		snprintf(why, sizeof(why), "module %s: its root is already served "
			 "for %s", s->schema->module, owner->path);
		rc = -EADDRINUSE;
	}
	if (rc == 0 && !kept) {
		rc = fma_register(s);
		if (rc < 0)
			snprintf(why, sizeof(why), "module %s: cannot register its root",
				 s->schema->module);
	}
	if (rc < 0) {
		fma_log_failure(s, rc, why[0] ? why : strerror(-rc));
		fma_detach(s);
		return;
	}
	fma_said_forget(&s->said);
	/* as an AgentX subagent, once snmpd said yes (fma_answered()) */
	if (fma_axreg_serving(s->reg))
		fma_log_serving(s);
	if (s->ev)
		snmp_log(LOG_INFO, "fastmib: %s: event log of %u event(s), history "
			 "of %u records, %u record(s) found\n", s->path,
			 s->schema->n_events, s->ev->hist.cap, s->ev->hist.n);
}

/*
 * Re-attach what changed. A segment replaced at its path is attached
 * again at once; one removed stops being served. One that is still there
 * but broken (truncated, corrupted: refused by attach) keeps its root
 * registered, unattached: GETNEXTs into it answer genErr rather than
 * walks silently skipping it, until a valid segment appears at the path
 * or the path is empty.
 */
/* The re-attach check (the alarm's): re-attach stale segments, attach
 * returning ones, unregister vanished ones. */
static void
fma_check(struct fma_agent *agent)
{
	for (unsigned int i = 0; i < agent->n_segs; i++) {
		struct fma_seg *s = agent->segs[i];

		if (s->seg && fastmib_stale(s->seg)) {
			snmp_log(LOG_INFO, "fastmib: %s: segment replaced, removed or "
				 "truncated\n", s->path);
			fma_release(s);
		}
	}
	/* after every release, so that a root freed this round can be taken */
	for (unsigned int i = 0; i < agent->n_segs; i++)
		if (!agent->segs[i]->seg)
			fma_try_attach(agent->segs[i]);
}

static void
fma_alarm(unsigned int reg, void *arg)
{
	(void)reg;
	fma_check(arg);
}

/* ---- set life cycle ---- */

int
fma_create(struct fma_agent **agentp)
{
	struct fma_agent *a = calloc(1, sizeof(*a));

	if (a)
		a->evbuf = calloc(FMA_EV_CHUNK, sizeof(*a->evbuf));
	if (!a || !a->evbuf) {
		free(a);
		*agentp = NULL;
		return -ENOMEM;
	}
	a->ev_history = FMA_EVENT_HISTORY;
	fma_limit_init(&a->notify, "fastmib: ", "notification(s)", FMA_NOTIFY_RATE,
		       FMA_NOTIFY_BURST);
	*agentp = a;
	return 0;
}

static void
fma_seg_free(struct fma_seg *s)
{
	fma_detach(s);
	free(s->targets);
	free(s->path);
	free(s);
}

/* The segments as a configured set (confset.h). */
static const char *
fma_seg_path(const void *elem)
{
	return (*(struct fma_seg *const *)elem)->path;
}

static bool *
fma_seg_confirmed(void *elem)
{
	return &(*(struct fma_seg **)elem)->confirmed;
}

static void
fma_seg_drop(void *elem)
{
	struct fma_seg *s = *(struct fma_seg **)elem;

	snmp_log(LOG_INFO, "fastmib: %s: no longer configured, not served\n", s->path);
	fma_seg_free(s);
}

static const struct fma_confset_ops fma_segs_conf = {
	.size = sizeof(struct fma_seg *),
	.path = fma_seg_path,
	.confirmed = fma_seg_confirmed,
	.drop = fma_seg_drop,
	.max = FMA_MAX_SEGMENTS,
};

int
fma_add(struct fma_agent *agent, const char *path)
{
	struct fma_seg **segs, *s;
	void *named;
	int rc = fma_confset_add(&fma_segs_conf, agent->segs, agent->n_segs, path, &named);

	if (rc < 0 || named)
		return rc;
	segs = realloc(agent->segs, (agent->n_segs + 1) * sizeof(*segs));
	if (!segs)
		return -ENOMEM;
	agent->segs = segs;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return -ENOMEM;
	}
	s->agent = agent;
	s->confirmed = true;
	agent->segs[agent->n_segs++] = s;
	return 0;
}

void
fma_reload_begin(struct fma_agent *agent)
{
	fma_confset_begin(&fma_segs_conf, agent->segs, agent->n_segs);
}

unsigned int
fma_reload_end(struct fma_agent *agent)
{
	unsigned int dropped = fma_confset_end(&fma_segs_conf, agent->segs, &agent->n_segs);

	/* a root given up just now may be taken by a segment that waited */
	if (agent->alarm)
		fma_check(agent);
	return dropped;
}

unsigned int
fma_count(const struct fma_agent *agent)
{
	return agent->n_segs;
}

const char *
fma_path(const struct fma_agent *agent, unsigned int i)
{
	return i < agent->n_segs ? agent->segs[i]->path : NULL;
}

int
fma_start(struct fma_agent *agent, unsigned int period_s)
{
	struct timeval ev_period = { 0, FMA_EVENT_PERIOD_MS * 1000 };

	if (agent->alarm)
		return -EALREADY;
	/* TimeStamps are agent uptimes: taken relative to the agent's start */
	agent->start_ns = fma_agent_start_ns();
	agent->start_mono_ns = fma_monotonic_of(agent->start_ns);
	fma_check(agent);
	agent->alarm = snmp_alarm_register(period_s ? period_s
					   : FMA_CHECK_PERIOD,
					   SA_REPEAT, fma_alarm, agent);
	if (!agent->alarm)
		return -ENOMEM;
	agent->ev_alarm = snmp_alarm_register_hr(ev_period, SA_REPEAT, fma_ev_alarm, agent);
	return agent->ev_alarm ? 0 : -ENOMEM;
}

void
fma_destroy(struct fma_agent *agent)
{
	if (!agent)
		return;
	if (agent->alarm)
		snmp_alarm_unregister(agent->alarm);
	if (agent->ev_alarm)
		snmp_alarm_unregister(agent->ev_alarm);
	fma_limit_log(&agent->notify, true); /* the last count, whenever the one before */
	for (unsigned int i = 0; i < agent->n_segs; i++)
		fma_seg_free(agent->segs[i]);
	free(agent->segs);
	free(agent->evbuf);
	free(agent);
}
