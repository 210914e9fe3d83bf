/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The states the test writers (fm-writer, fm-states) give a segment, and
 * what SNMP must report for them: one owner of the values a row's states
 * take in the tests and of the rule that turns a state's C value into its
 * value on the wire, so that every writer's expectations agree with the
 * agent's encoding in one place.
 *
 * Each state has two variants, A and B, a function of the state, its
 * group and the row's number (a keyed row: its key's number, fm-keys.c),
 * that differ wherever the state's syntax can tell them apart, within
 * what the model allows (range, enum labels, size).
 */
#ifndef FM_STATE_WIRE_H
#define FM_STATE_WIRE_H

#include <stdint.h>

#include <jansson.h>

#include "fastmib/fastmib.h"

enum fsw_variant {
	FSW_A = 0,
	FSW_B = 1,
	FSW_DEFAULT = 2, /* the model's defaults: what a new row starts with */
};

/* Bytes of the states of any row (every state at its largest). */
#define FSW_ROW_BYTES (FASTMIB_MAX_STATES * 1032)

/* Variant `v` (FSW_A or FSW_B) of state `st` of row number `row` of group `g`
 * into `out`, its C form (fastmib_state_value_size() bytes). */
void fsw_state(const struct fastmib_state_schema *st, uint32_t g, uint32_t row,
	       enum fsw_variant v, uint8_t *out);

/* Every state of row number `n` of group `g` in variant `v` into `data`,
 * laid out as fastmib_state_set() takes them (gs->state_size bytes). */
void fsw_row(const struct fastmib_group_schema *gs, uint32_t g, uint32_t n,
	     enum fsw_variant v, uint8_t *data);

/* The wire syntax of instance `part` of state `st` (an inet-address: 1 its
 * InetAddressType, 0 its InetAddress; else 0): INTEGER, Gauge32,
 * Counter64, Timeticks, OCTET STRING or IpAddress. */
const char *fsw_syntax(const struct fastmib_state_schema *st, uint32_t part);

/*
 * The value on the wire of instance `part` of state `st` whose C form is
 * at `p`: a JSON integer, a gauge64 as a string of its decimal digits (JSON
 * readers may hold integers exactly only up to 2^53), octets (strings,
 * DateAndTime, addresses) as a string of lower-case hexadecimal digits. A
 * timestamp is 0 here: the writers leave it at never, since a moment's
 * TimeTicks depend on when the agent started.
 */
json_t *fsw_value(const struct fastmib_state_schema *st, uint32_t part, const uint8_t *p);

#endif /* FM_STATE_WIRE_H */
