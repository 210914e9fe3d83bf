/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A row's state objects in a /fastmib/group answer, typed as fastmib-stat
 * --json types them as far as DPDK telemetry's data model goes (dicts,
 * strings, int, u64; no boolean, no null, no fraction, no signed 64-bit
 * number):
 *
 *   {"NAME": {"type": WORD, "value": V, ...}, ...}, NAME the MIB name
 *
 *   truth-value     "value" 1 or 0
 *   enum            "value" its number, "label" its label
 *   integer32       "value" an int; unsigned32, timeticks (hundredths),
 *                   gauge64 a u64 (every digit, as counters)
 *   timestamp       "value" its fastmib_monotonic_ns() (0: never), and
 *                   "ago_ns" how long ago, when set
 *   date-and-time   "value" ns since the epoch: a u64, or before the epoch
 *                   its signed digits as a string
 *   display-string  "value" the string; octet-string its octets in
 *                   hexadecimal; ipv4, mac, inet-address the address's
 *                   text (fastmib_key_field_text(), "" for an
 *                   inet-address of type 0, whose "addressType" says
 *                   "ipv4", "ipv6" or "unknown")
 *   left out        "bad" 1 and no "value"
 *
 * A text longer than DPDK keeps (TEL_MAX_STR) is cut there, with "cut" 1
 * (and an octet string's "length", its octets). DPDK escapes a string's
 * quotes, backslashes, tabs and line ends, and leaves its other control
 * characters out: a display-string that had some says how many in
 * "dropped".
 * The texts fastmib-stat adds to a number (a TimeTicks', a DateAndTime's,
 * a timestamp's age in seconds) are fastmib-stat's: here the numbers.
 *
 * And the row that holds them: a table row's dict with its counters, its
 * states and (keyed tables) its key. Called by telemetry_commands.c and
 * telemetry_keyed.c; calls telemetry_reply.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "telemetry_answer.h"

/* One entry of a state's dict: a string, an int or a u64. */
struct entry {
	const char *name;
	enum { E_STR, E_INT, E_U64 } kind;
	const char *s;
	int64_t i;
	uint64_t u;
};

/* A state's dict before it is made: its entries, and the text one of
 * them may point to. */
struct state_dict {
	uint32_t n;
	struct entry e[6];
	char text[TEL_MAX_STR + 1];
};

static void
add(struct state_dict *d, const char *name, int kind, const char *s, int64_t i, uint64_t u)
{
	d->e[d->n++] = (struct entry){ .name = name, .kind = kind, .s = s, .i = i, .u = u };
}

/* An address state's text as a key field of its type reads
 * (fastmib_key_field_text(), the owner of an address's and a MAC's text). */
static void
address_text(const struct fastmib_state_schema *st, const uint8_t *v, char *buf, size_t len)
{
	const struct fastmib_inet_address *a = (const void *)v;
	bool inet = st->type == FASTMIB_STATE_INET_ADDRESS, mac = st->type == FASTMIB_STATE_MAC;
	struct fastmib_key_field f = {
		.type = mac ? FASTMIB_INDEX_MAC : FASTMIB_INDEX_INET_ADDRESS,
		.octets = inet ? a->addr : v,
		.n_octets = mac ? 6 : inet && a->type == 2 ? 16 : 4,
	};

	buf[0] = '\0';
	if (!inet || a->type != 0)
		fastmib_key_field_text(&f, buf, len);
}

/* The characters of `s` DPDK 22.11 leaves out of its JSON string: the
 * control characters but a tab, a newline and a carriage return, which it
 * escapes. */
static int64_t
dropped(const char *s)
{
	int64_t n = 0;

	for (; *s; s++)
		n += (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r';
	return n;
}

/* The entries of state `st`, value v (its C form), read at `now_ns`;
 * `text` holds the one they may point to. */
static void
state_entries(const struct fastmib_state_schema *st, const uint8_t *v, bool bad,
	      uint64_t now_ns, struct state_dict *d)
{
	const char *word = fastmib_state_type_word(st->type);
	uint32_t size = fastmib_state_value_size(st, NULL);
	union {
		uint16_t len; /* an octet string's, its octets after it */
		int32_t i32;
		uint32_t u32;
		uint64_t u64;
		int64_t s64;
	} x = { 0 };

	/* the C form is not aligned in the row's bytes */
	memcpy(&x, v, size < sizeof(x) ? size : sizeof(x));
	d->n = 0;
	add(d, "type", E_STR, word ? word : "unknown", 0, 0);
	if (bad) {
		add(d, "bad", E_INT, NULL, 1, 0);
		return;
	}
	switch (st->type) {
	case FASTMIB_STATE_TRUTH_VALUE:
		add(d, "value", E_INT, NULL, v[0], 0);
		break;
	case FASTMIB_STATE_ENUM:
		add(d, "value", E_INT, NULL, x.i32, 0);
		word = fastmib_enum_label(st, x.i32);
		if (word) /* always: the reader checked the value */
			add(d, "label", E_STR, word, 0, 0);
		break;
	case FASTMIB_STATE_INTEGER32:
		add(d, "value", E_INT, NULL, x.i32, 0);
		break;
	case FASTMIB_STATE_UNSIGNED32:
	case FASTMIB_STATE_TIMETICKS:
		add(d, "value", E_U64, NULL, 0, x.u32);
		break;
	case FASTMIB_STATE_GAUGE64:
		add(d, "value", E_U64, NULL, 0, x.u64);
		break;
	case FASTMIB_STATE_TIMESTAMP:
		add(d, "value", E_U64, NULL, 0, x.u64);
		if (x.u64 != 0 && now_ns >= x.u64)
			add(d, "ago_ns", E_U64, NULL, 0, now_ns - x.u64);
		break;
	case FASTMIB_STATE_DATE_AND_TIME:
		if (x.s64 >= 0) {
			add(d, "value", E_U64, NULL, 0, x.u64);
			break;
		}
		snprintf(d->text, sizeof(d->text), "%" PRId64, x.s64);
		add(d, "value", E_STR, d->text, 0, 0);
		break;
	case FASTMIB_STATE_DISPLAY_STRING:
		snprintf(d->text, sizeof(d->text), "%s", (const char *)v);
		add(d, "value", E_STR, d->text, 0, 0);
		if (strlen((const char *)v) > TEL_MAX_STR)
			add(d, "cut", E_INT, NULL, 1, 0);
		if ((x.s64 = dropped(d->text)) > 0)
			add(d, "dropped", E_INT, NULL, x.s64, 0);
		break;
	case FASTMIB_STATE_OCTET_STRING:
		d->text[0] = '\0';
		for (size_t k = 0; k < x.len && 2 * k + 2 <= TEL_MAX_STR; k++)
			snprintf(d->text + 2 * k, 3, "%02x", v[2 + k]);
		add(d, "value", E_STR, d->text, 0, 0);
		if (2 * (size_t)x.len > TEL_MAX_STR) {
			add(d, "cut", E_INT, NULL, 1, 0);
			add(d, "length", E_U64, NULL, 0, x.len);
		}
		break;
	case FASTMIB_STATE_IPV4:
	case FASTMIB_STATE_MAC:
	case FASTMIB_STATE_INET_ADDRESS:
		address_text(st, v, d->text, sizeof(d->text));
		add(d, "value", E_STR, d->text, 0, 0);
		if (st->type == FASTMIB_STATE_INET_ADDRESS) {
			word = fastmib_inet_type_word(((const struct fastmib_inet_address *)
							       (const void *)v)->type);
			add(d, "addressType", E_STR, word ? word : "unknown", 0, 0);
		}
		break;
	}
}

/* The JSON text of an int: its digits and sign. */
static size_t
int_size(int64_t v)
{
	return v < 0 ? 1 + fms_telcmd_u64_size(0 - (uint64_t)v) : fms_telcmd_u64_size((uint64_t)v);
}

/* What the dict of `d` costs in an answer, its braces included. */
static size_t
dict_size(const struct state_dict *d)
{
	size_t size = 2;

	for (uint32_t k = 0; k < d->n; k++) {
		const struct entry *e = &d->e[k];

		size += fms_telcmd_entry_size(e->name, e->kind == E_STR ? fms_telcmd_str_size(e->s) :
						     e->kind == E_INT ? int_size(e->i) :
						     fms_telcmd_u64_size(e->u));
	}
	return size;
}

static struct rte_tel_data *
dict_of(const struct state_dict *d)
{
	struct rte_tel_data *t = fms_telcmd_dict();

	for (uint32_t k = 0; t != NULL && k < d->n; k++) {
		const struct entry *e = &d->e[k];

		if (e->kind == E_STR)
			rte_tel_data_add_dict_string(t, e->name, e->s);
		else if (e->kind == E_INT)
			rte_tel_data_add_dict_int(t, e->name, (int)e->i);
		else
			rte_tel_data_add_dict_u64(t, e->name, e->u);
	}
	return t;
}

int
fms_telcmd_read_row(struct fastmib_segment *seg, unsigned int gi, uint32_t row,
		    const uint8_t *key, size_t len, uint64_t *raw, uint8_t *states, uint64_t *bad)
{
	const struct fastmib_group_schema *g = &fastmib_schema(seg)->groups[gi];
	int rc = 0, src;

	if (g->n_counters) /* a group of states only has none */
		rc = key ? fastmib_keyed_read(seg, gi, row, key, len, raw) :
			   fastmib_read(seg, gi, row, raw);
	if ((rc < 0 && rc != -EBUSY) || g->n_states == 0)
		return rc;
	src = key ? fastmib_keyed_state_read(seg, gi, row, key, len, states, bad) :
		    fastmib_state_read(seg, gi, row, states, bad);
	if (src == -EBUSY) {
		/* a setter stayed inside its section: no value is one publication */
		memset(bad, 0, FASTMIB_STATE_MASK_WORDS * sizeof(*bad));
		for (uint32_t s = 0; s < g->n_states; s++)
			bad[s / 64] |= 1ull << (s % 64);
		src = 0;
	}
	return src < 0 ? src : rc;
}

/* What fms_telcmd_states() walks: a row's states as read. */
struct row_states {
	const struct fastmib_group_schema *g;
	const struct fms_telcmd_names *sn;
	const uint8_t *vals;
	const uint64_t *bad;
	uint64_t now_ns;
};

/* State k's dict entries, into `d`. */
static void
entries_of(const struct row_states *rs, uint32_t k, struct state_dict *d)
{
	const struct fastmib_state_schema *st = &rs->g->states[k];

	state_entries(st, rs->vals + st->offset, rs->bad[k / 64] >> (k % 64) & 1, rs->now_ns, d);
}

/* State k's cost in an answer, its name included. Its entries are made
 * again for the dict: a state's are a few hundred bytes, 128 of them too
 * many to keep on a telemetry thread's stack. */
static size_t
state_cost(const void *ctx, uint32_t k)
{
	const struct row_states *rs = ctx;
	struct state_dict d;

	entries_of(rs, k, &d);
	return rs->sn->size[k] + dict_size(&d);
}

struct rte_tel_data *
fms_telcmd_states(const struct fastmib_group_schema *g, const struct fms_telcmd_names *sn,
		  const uint8_t *vals, const uint64_t *bad, uint64_t now_ns, size_t *left,
		  bool partial, bool *cut)
{
	const struct row_states rs = { g, sn, vals, bad, now_ns };
	int64_t n = fms_telcmd_fit(sn->n, state_cost, &rs, left, partial, cut);
	struct rte_tel_data *t;
	struct state_dict d;

	if (n < 0 || (t = fms_telcmd_dict()) == NULL)
		return NULL;
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		struct rte_tel_data *one;

		entries_of(&rs, k, &d);
		if ((one = dict_of(&d)) != NULL)
			rte_tel_data_add_dict_container(t, sn->name[k], one, 0);
	}
	return t;
}

struct rte_tel_data *
fms_telcmd_row(const struct fastmib_group_schema *g, const struct fms_telcmd_cols *cols,
	       struct rte_tel_data *key, const uint64_t *raw, const uint8_t *states,
	       const uint64_t *bad, uint64_t now_ns, size_t *left)
{
	size_t room = *left, frame = 2 + fms_telcmd_entry_size("counters", 0) +
				      (key ? fms_telcmd_entry_size("key", 0) : 0) +
				      (cols->hists.n ? fms_telcmd_entry_size("histograms", 0) : 0) +
				      (g->n_states ? fms_telcmd_entry_size("states", 0) : 0);
	struct rte_tel_data *row = NULL, *c = NULL, *s = NULL, *h = NULL;
	bool ignored = false;

	if (key == NULL && g->n_states == 0 && cols->hists.n == 0) /* counters alone, as ever */
		return fms_telcmd_counters(g, &cols->counters, raw, left, false, &ignored);
	if (!fms_telcmd_fits(&room, frame) ||
	    (c = fms_telcmd_counters(g, &cols->counters, raw, &room, false, &ignored)) == NULL ||
	    (cols->hists.n &&
	     (h = fms_telcmd_hists(g, &cols->hists, raw, &room, false, &ignored)) == NULL) ||
	    (g->n_states && (s = fms_telcmd_states(g, &cols->states, states, bad, now_ns, &room,
						   false, &ignored)) == NULL) ||
	    (row = fms_telcmd_dict()) == NULL) {
		rte_tel_data_free(key);
		rte_tel_data_free(c);
		rte_tel_data_free(h);
		rte_tel_data_free(s);
		return NULL;
	}
	if (key)
		rte_tel_data_add_dict_container(row, "key", key, 0);
	rte_tel_data_add_dict_container(row, "counters", c, 0);
	if (h)
		rte_tel_data_add_dict_container(row, "histograms", h, 0);
	if (s)
		rte_tel_data_add_dict_container(row, "states", s, 0);
	*left = room;
	return row;
}
