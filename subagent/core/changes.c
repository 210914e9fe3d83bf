/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The changes of `notify` states of each served segment, sent as the
 * notifications `<p><G><S>Change`: taken from the segment's change log
 * on the event poll's alarm (every FMA_EVENT_PERIOD_MS), in the order of
 * the sets, each with the value it was set to and the row's index in the
 * state's instance OID. Changes made before the segment was attached are
 * not sent; those the rate limit drops, and those the log overwrote
 * before they were read, count in <p>NotificationsDropped.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core_priv.h"

/* Changes taken from the log per call, and per poll at most. */
#define FMA_CHANGE_CHUNK 64u
#define FMA_CHANGE_POLL_MAX 4096u

void
fma_changes_attach(struct fma_seg *s)
{
	s->change_next = fastmib_state_changes_head(s->seg);
}

/* The varbind of the instance `part` of state `ch->state` of the changed
 * row, with the change's value. */
static void
add_state(const struct fma_seg *s, netsnmp_variable_list **vars,
	  const struct fastmib_state_change *ch, uint32_t part)
{
	const struct fastmib_state_schema *st = &s->schema->groups[ch->group].states[ch->state];
	struct fastmib_oid_ref ref = {
		.kind = FASTMIB_OID_STATE, .group = (int)ch->group, .counter = ch->state,
		.part = part, .row = ch->row, .key_len = ch->key_len,
	};
	uint64_t x[FASTMIB_OID_MAX_SUFFIX];
	oid name[MAX_OID_LEN];
	netsnmp_variable_list *vb;
	size_t len;

	memcpy(ref.key, ch->key, ch->key_len);
	len = fma_full_oid(s, x, fastmib_oidmap_suffix(s->map, &ref, x), name);
	vb = snmp_varlist_add_variable(vars, name, len, ASN_NULL, NULL, 0);
	if (vb)
		fma_state_value(s->agent, st, part, ch->value, vb);
}

static void
send_change(struct fma_seg *s, const struct fastmib_state_change *ch)
{
	const struct fastmib_state_schema *st = &s->schema->groups[ch->group].states[ch->state];
	netsnmp_variable_list *vars = NULL;
	uint64_t x[FASTMIB_OID_MAX_SUFFIX];
	oid trap[MAX_OID_LEN];
	size_t n;

	if (!fma_limit_take(&s->agent->notify)) {
		s->notifs_dropped++;
		return;
	}
	n = fma_full_oid(s, x, fastmib_oidmap_state_notification(s->map, ch->group, ch->state,
								  x), trap);
	snmp_varlist_add_variable(&vars, fma_snmp_trap_oid, fma_snmp_trap_oid_len,
				  ASN_OBJECT_ID, trap, n * sizeof(oid));
	/* OBJECTS of the notification: an inet-address's type, then its address */
	if (st->type == FASTMIB_STATE_INET_ADDRESS)
		add_state(s, &vars, ch, 1);
	add_state(s, &vars, ch, 0);
	/* Net-SNMP puts sysUpTime first */
	send_v2trap(vars);
	snmp_free_varbind(vars);
	DEBUGMSGTL(("fastmib", "%s: %s.%s row %" PRIu32 " changed: sent\n", s->path,
		    s->schema->groups[ch->group].name, st->name, ch->row));
}

void
fma_changes_poll(struct fma_seg *s)
{
	struct fastmib_state_change ch[FMA_CHANGE_CHUNK];
	uint64_t lost = 0;
	unsigned int done = 0;
	int n;

	do {
		n = fastmib_state_changes(s->seg, &s->change_next, ch, FMA_CHANGE_CHUNK, &lost);
		for (int i = 0; i < n; i++)
			send_change(s, &ch[i]);
		done += n > 0 ? (unsigned int)n : 0;
	} while (n == (int)FMA_CHANGE_CHUNK && done < FMA_CHANGE_POLL_MAX);
	if (lost) {
		s->notifs_dropped += lost;
		snmp_log(LOG_WARNING, "fastmib: %s: %" PRIu64 " state change(s) overwritten in "
			 "the segment's log before they could be sent\n", s->path, lost);
	}
}
