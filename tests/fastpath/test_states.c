/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * State objects against a real EAL and segment: the C layout of a group's
 * states, their defaults in every kind of group (scalar, `rows: all`,
 * `rows: present`, keyed, states only), the setters and what they refuse,
 * the change log of `notify` states, values a hostile hand wrote into the
 * file, and a reader beside a setter that swaps whole rows: every read is
 * one publication or the other, never a mix.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastmib/fastmib.h"
#include "handle.h"
#include "tutil.h"

/* ---- a model: every state type, in every kind of group ---- */

/* The scalar group's states, as fastmib-gen would write their struct. */
struct gl_state {
	int32_t oper;              /* enum up(1) down(2) testing(3), notify, default down */
	char label[33];            /* display-string 32, default "none" */
	uint32_t version;          /* unsigned32 1..100, default 7 */
	uint64_t peak;             /* gauge64 */
	uint64_t since;            /* timestamp */
	int64_t started;           /* date-and-time */
	bool enabled;              /* truth-value, default true, notify */
	uint8_t addr[4];           /* ipv4, default 10.0.0.1 */
	uint8_t mac[6];            /* mac */
	struct fastmib_inet_address remote; /* inet-address, arcs 20 and 21 */
	struct {
		uint16_t len;
		uint8_t octets[5];
	} blob;                    /* octet-string 5 */
	uint32_t ticks;            /* timeticks */
	int32_t temp;              /* integer32 -50..150 */
};

/* A keyed table's (and the dense table's) states. */
struct tn_state {
	int32_t link;              /* enum up(1) down(2), notify, default down */
	struct fastmib_inet_address remote;
	char name[17];             /* display-string 16 */
};

static const struct fastmib_enum_value oper_values[] = {
	{ "up", 1 }, { "down", 2 }, { "testing", 3 },
};
static const struct fastmib_enum_value link_values[] = { { "up", 1 }, { "down", 2 } };
static const int32_t def_down = 2;
static const char def_label[33] = "none";
static const uint32_t def_version = 7;
static const bool def_true = true;
static const uint8_t def_addr[4] = { 10, 0, 0, 1 };

#define ST(n, a, t) .name = (n), .units = "", .description = "A state.", .arc = (a), .type = (t)
static struct fastmib_state_schema gl_states[] = {
	{ ST("oper", 10, FASTMIB_STATE_ENUM), .notify = 1, .n_values = 3, .values = oper_values,
	  .def = &def_down },
	{ ST("label", 11, FASTMIB_STATE_DISPLAY_STRING), .size = 32, .def = def_label },
	{ ST("version", 12, FASTMIB_STATE_UNSIGNED32), .has_range = 1, .lo = 1, .hi = 100,
	  .def = &def_version },
	{ ST("peak", 13, FASTMIB_STATE_GAUGE64) },
	{ ST("since", 14, FASTMIB_STATE_TIMESTAMP) },
	{ ST("started", 15, FASTMIB_STATE_DATE_AND_TIME) },
	{ ST("enabled", 16, FASTMIB_STATE_TRUTH_VALUE), .notify = 1, .def = &def_true },
	{ ST("addr", 17, FASTMIB_STATE_IPV4), .def = def_addr },
	{ ST("mac", 18, FASTMIB_STATE_MAC) },
	{ ST("remote", 20, FASTMIB_STATE_INET_ADDRESS) },
	{ ST("blob", 22, FASTMIB_STATE_OCTET_STRING), .size = 5 },
	{ ST("ticks", 23, FASTMIB_STATE_TIMETICKS) },
	{ ST("temp", 24, FASTMIB_STATE_INTEGER32), .has_range = 1, .lo = -50, .hi = 150 },
};
#define N_GL (sizeof(gl_states) / sizeof(gl_states[0]))
enum { GL_OPER, GL_LABEL, GL_VERSION, GL_PEAK, GL_SINCE, GL_STARTED, GL_ENABLED, GL_ADDR,
       GL_MAC, GL_REMOTE, GL_BLOB, GL_TICKS, GL_TEMP };

static struct fastmib_state_schema tn_states[] = {
	{ ST("link", 5, FASTMIB_STATE_ENUM), .notify = 1, .n_values = 2, .values = link_values,
	  .def = &def_down },
	{ ST("remote", 6, FASTMIB_STATE_INET_ADDRESS) },
	{ ST("name", 8, FASTMIB_STATE_DISPLAY_STRING), .size = 16 },
};
enum { TN_LINK, TN_REMOTE, TN_NAME };
/* the same states, for the dense table (its own copy: layout writes offsets) */
static struct fastmib_state_schema pt_states[3];
static struct fastmib_state_schema info_states[] = {
	{ ST("release", 1, FASTMIB_STATE_DISPLAY_STRING), .size = 20 },
};

static struct fastmib_counter_schema counters[2] = {
	{ "pkts", "packets", "Packets.", 1, FASTMIB_COUNTER64, 0, 0, 0, NULL },
	{ "bytes", "octets", "Octets.", 2, FASTMIB_COUNTER64, 8, 0, 0, NULL },
};

struct tn_key {
	uint32_t teid;
};

static struct fastmib_group_schema groups[4];
static struct fastmib_schema ss;

enum { GL = 0, PT = 1, TN = 2, INFO = 3 };
#define PT_ROWS 4
#define TN_CAPACITY 16

static void
make_schema(void)
{
	memcpy(pt_states, tn_states, sizeof(pt_states));
	groups[GL] = (struct fastmib_group_schema){
		.name = "global", .description = "Whole.", .arc = 1, .n_rows = 1,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_counters = 2, .counters = counters,
		.n_states = N_GL, .states = gl_states };
	groups[PT] = (struct fastmib_group_schema){
		.name = "port", .description = "Ports.", .arc = 2,
		.storage = FASTMIB_STORAGE_PER_CORE, .n_indexes = 1,
		.indexes = { { .name = "portId", .max = PT_ROWS } }, .n_rows = PT_ROWS,
		.n_counters = 2, .counters = counters, .n_states = 3, .states = pt_states };
	groups[TN] = (struct fastmib_group_schema){
		.name = "tunnel", .description = "Tunnels.", .arc = 3,
		.storage = FASTMIB_STORAGE_SHARED_ATOMIC, .n_indexes = 1,
		.indexes = { { .name = "teid", .type = FASTMIB_INDEX_UINT32 } },
		.n_rows = TN_CAPACITY, .n_counters = 2, .counters = counters,
		.n_states = 3, .states = tn_states };
	groups[INFO] = (struct fastmib_group_schema){
		.name = "info", .description = "States only.", .arc = 4, .n_rows = 1,
		.n_states = 1, .states = info_states };
	ss = (struct fastmib_schema){ .version = FASTMIB_MODEL_VERSION,
				      .module = "FASTMIB-STATES-TEST-MIB", .prefix = "sv",
				      .oid_len = 9, .oid = { 1, 3, 6, 1, 4, 1, 8072, 9999, 80 },
				      .n_groups = 4, .groups = groups };
	fastmib_schema_lay_out(&ss);
}

static int
setup(void **state)
{
	return tu_setup(state, &ss, NULL, 0, "states");
}

/* ---- layout and schema ---- */

static void
test_layout(void **state)
{
	uint32_t offs[FASTMIB_MAX_STATES], size;

	(void)state;
	fastmib_state_layout(&groups[GL], offs, &size);
	assert_int_equal(offs[GL_OPER], offsetof(struct gl_state, oper));
	assert_int_equal(offs[GL_LABEL], offsetof(struct gl_state, label));
	assert_int_equal(offs[GL_VERSION], offsetof(struct gl_state, version));
	assert_int_equal(offs[GL_PEAK], offsetof(struct gl_state, peak));
	assert_int_equal(offs[GL_SINCE], offsetof(struct gl_state, since));
	assert_int_equal(offs[GL_STARTED], offsetof(struct gl_state, started));
	assert_int_equal(offs[GL_ENABLED], offsetof(struct gl_state, enabled));
	assert_int_equal(offs[GL_ADDR], offsetof(struct gl_state, addr));
	assert_int_equal(offs[GL_MAC], offsetof(struct gl_state, mac));
	assert_int_equal(offs[GL_REMOTE], offsetof(struct gl_state, remote));
	assert_int_equal(offs[GL_BLOB], offsetof(struct gl_state, blob));
	assert_int_equal(offs[GL_TICKS], offsetof(struct gl_state, ticks));
	assert_int_equal(offs[GL_TEMP], offsetof(struct gl_state, temp));
	assert_int_equal(size, sizeof(struct gl_state));
	assert_int_equal(groups[GL].state_size, sizeof(struct gl_state));
	assert_int_equal(groups[TN].state_size, sizeof(struct tn_state));
	assert_int_equal(groups[INFO].row_size, 0);
	assert_int_equal(groups[INFO].storage, 0);
	assert_int_equal(fastmib_schema_check(&ss, NULL, NULL), 0);
}

/* A copy of the schema with one state changed by `edit`: the check's
 * message. */
static const char *
refused(void (*edit)(struct fastmib_state_schema *st, struct fastmib_group_schema *g))
{
	static struct fastmib_state_schema copy[N_GL];
	struct fastmib_group_schema gs[4];
	struct fastmib_schema s = ss;

	memcpy(copy, gl_states, sizeof(copy));
	memcpy(gs, groups, sizeof(gs));
	gs[GL].states = copy;
	s.groups = gs;
	edit(copy, &gs[GL]);
	fastmib_schema_lay_out(&s);
	assert_int_not_equal(fastmib_schema_check(&s, NULL, NULL), 0);
	return fastmib_last_error();
}

static void edit_arc(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	(void)g;
	st[GL_MAC].arc = 21; /* the address of `remote` */
}
static void edit_counter_arc(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	(void)g;
	st[GL_TEMP].arc = 2; /* counter bytes */
}
static void edit_range(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	(void)g;
	st[GL_VERSION].lo = 5;
	st[GL_VERSION].hi = 4;
}
static void edit_default(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	static const uint32_t zero = 0;

	(void)g;
	st[GL_VERSION].def = &zero; /* below its range */
}
static void edit_notify(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	(void)g;
	st[GL_LABEL].notify = 1;
}
static void edit_enum(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	static const struct fastmib_enum_value twice[] = { { "up", 1 }, { "on", 1 } };

	(void)g;
	st[GL_OPER].values = twice;
	st[GL_OPER].n_values = 2;
	st[GL_OPER].def = NULL;
}
static void edit_name(struct fastmib_state_schema *st, struct fastmib_group_schema *g)
{
	(void)g;
	st[GL_TICKS].name = "pkts";
}

static void
test_schema_rules(void **state)
{
	(void)state;
	assert_string_equal(refused(edit_arc),
			    "schema: group global: state mac and state remote share arc 21");
	assert_string_equal(refused(edit_counter_arc),
			    "schema: group global: counter bytes and state temp share arc 2");
	assert_string_equal(refused(edit_range), "schema: state global.version: range 5..4 "
						 "not within 0..4294967295, or inverted");
	assert_string_equal(refused(edit_default), "schema: state global.version: its default "
						   "is not one of its values");
	assert_string_equal(refused(edit_notify),
			    "schema: state global.label: notify (not for strings) 1 out of "
			    "range 0..0");
	assert_string_equal(refused(edit_enum), "schema: state global.oper: labels up and on "
						"share the value 1");
	assert_string_equal(refused(edit_name), "schema: group global: the name pkts is a "
						"counter's too");
}

/* ---- defaults, sets and gets ---- */

static void
test_defaults_and_sets(void **state)
{
	struct tu_fixture *f = *state;
	struct gl_state st, rd;
	uint8_t v4[4] = { 192, 168, 0, 9 };
	struct fastmib_inet_address a = { .type = 2 };
	int32_t v;

	/* a new segment: every state its default, or zero */
	assert_int_equal(fastmib_state_get(f->seg, GL, 0, &st), 0);
	assert_int_equal(st.oper, 2);
	assert_string_equal(st.label, "none");
	assert_int_equal(st.version, 7);
	assert_true(st.enabled);
	assert_memory_equal(st.addr, def_addr, 4);
	assert_int_equal(st.peak, 0);
	assert_int_equal(st.remote.type, 0);
	assert_int_equal(st.blob.len, 0);
	/* a reader of its own attach reads the same */
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &rd, NULL), 0);
	assert_memory_equal(&rd, &st, sizeof(st));

	/* one state at a time, the others unchanged */
	v = 1;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	assert_int_equal(fastmib_state_set_text(f->seg, GL, 0, GL_LABEL, "uplink to core"), 0);
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_ADDR, v4), 0);
	inet_pton(AF_INET6, "2001:db8::7", a.addr);
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_REMOTE, &a), 0);
	assert_int_equal(fastmib_state_set_octets(f->seg, GL, 0, GL_BLOB, "\x01\x00\x03", 3), 0);
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &rd, NULL), 0);
	assert_int_equal(rd.oper, 1);
	assert_string_equal(rd.label, "uplink to core");
	assert_int_equal(rd.version, 7);
	assert_memory_equal(rd.addr, v4, 4);
	assert_int_equal(rd.remote.type, 2);
	assert_memory_equal(rd.remote.addr, a.addr, 16);
	assert_int_equal(rd.blob.len, 3);
	assert_memory_equal(rd.blob.octets, "\x01\x00\x03", 3);

	/* refused, with a message naming the state; nothing changes */
	v = 5;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), -EINVAL);
	assert_string_equal(fastmib_last_error(), "group global: state oper: 5 is not one of "
						  "its values");
	v = 151;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_TEMP, &v), -EINVAL);
	assert_string_equal(fastmib_last_error(),
			    "group global: state temp: 151 outside its range -50..150");
	assert_int_equal(fastmib_state_set_text(f->seg, GL, 0, GL_LABEL,
						"a label of thirty-three octets..."), -EINVAL);
	assert_string_equal(fastmib_last_error(),
			    "group global: state label: longer than 32 octets");
	assert_int_equal(fastmib_state_set_text(f->seg, GL, 0, GL_LABEL, "caf\xc3\xa9"),
			 -EINVAL);
	assert_string_equal(fastmib_last_error(), "group global: state label: octet 3 is 0xc3, "
						  "not ASCII (a DisplayString)");
	assert_int_equal(fastmib_state_set_octets(f->seg, GL, 0, GL_BLOB, "123456", 6),
			 -EINVAL);
	a.type = 3;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_REMOTE, &a), -EINVAL);
	memset(&rd.enabled, 7, 1); /* not a bool: what a careless cast leaves */
	assert_int_equal(fastmib_state_set(f->seg, GL, 0, &rd), -EINVAL);
	assert_int_equal(fastmib_state_set_text(f->seg, GL, 0, GL_OPER, "up"), -EINVAL);
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 1, GL_OPER, &v), -EINVAL);
	assert_int_equal(fastmib_state_set_one(f->rd, GL, 0, GL_OPER, &v), -EPERM);
	assert_int_equal(fastmib_state_get(f->seg, GL, 0, &st), 0);
	assert_int_equal(st.oper, 1);
	assert_string_equal(st.label, "uplink to core");
	assert_int_equal(st.remote.type, 2);
	assert_int_equal(st.blob.len, 3);

	/* the whole row at once */
	memset(&st, 0, sizeof(st));
	st.oper = 3;
	strcpy(st.label, "maintenance");
	st.version = 100;
	st.peak = UINT64_MAX;
	st.started = -1; /* a moment before the epoch */
	st.temp = -50;
	assert_int_equal(fastmib_state_set(f->seg, GL, 0, &st), 0);
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &rd, NULL), 0);
	assert_memory_equal(&rd, &st, sizeof(st));

	/* a group of states only */
	assert_int_equal(fastmib_state_set_text(f->seg, INFO, 0, 0, "fastmib 0.3"), 0);
	{
		char release[21];

		assert_int_equal(fastmib_state_read(f->rd, INFO, 0, release, NULL), 0);
		assert_string_equal(release, "fastmib 0.3");
	}
}

static void
test_rows_come_and_go(void **state)
{
	struct tu_fixture *f = *state;
	struct tn_key k = { 0xdeadbeef };
	struct tn_state st;
	int32_t up = 1;
	uint32_t row, again;

	/* a `rows: present` row: none before it is enabled, defaults after */
	assert_int_equal(fastmib_state_set_one(f->seg, PT, 2, TN_LINK, &up), -ENOENT);
	assert_int_equal(fastmib_state_read(f->rd, PT, 2, &st, NULL), -ENOENT);
	assert_int_equal(fastmib_row_enable(f->seg, PT, 2), 0);
	assert_int_equal(fastmib_state_read(f->rd, PT, 2, &st, NULL), 0);
	assert_int_equal(st.link, 2);
	assert_int_equal(fastmib_state_set_one(f->seg, PT, 2, TN_LINK, &up), 0);
	assert_int_equal(fastmib_state_set_text(f->seg, PT, 2, TN_NAME, "eth2"), 0);
	assert_int_equal(fastmib_row_disable(f->seg, PT, 2), 0);
	assert_int_equal(fastmib_state_read(f->rd, PT, 2, &st, NULL), -ENOENT);
	assert_int_equal(fastmib_row_enable(f->seg, PT, 2), 0);
	assert_int_equal(fastmib_state_read(f->rd, PT, 2, &st, NULL), 0);
	assert_int_equal(st.link, 2);        /* a new life: the defaults */
	assert_string_equal(st.name, "");

	/* a keyed row: the defaults at insert, gone with the key */
	assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &row), 0);
	assert_int_equal(fastmib_state_read(f->rd, TN, row, &st, NULL), 0);
	assert_int_equal(st.link, 2);
	assert_int_equal(fastmib_state_set_one(f->seg, TN, row, TN_LINK, &up), 0);
	assert_int_equal(fastmib_state_set_text(f->seg, TN, row, TN_NAME, "to pgw-3"), 0);
	assert_int_equal(fastmib_keyed_state_read(f->rd, TN, row, (const uint8_t *)"\xde\xad\xbe\xef",
						  4, &st, NULL), 0);
	assert_string_equal(st.name, "to pgw-3");
	/* the key another row would have: not this row's states */
	assert_int_equal(fastmib_keyed_state_read(f->rd, TN, row, (const uint8_t *)"\0\0\0\1",
						  4, &st, NULL), -ENOENT);
	assert_int_equal(fastmib_key_remove(f->seg, TN, &k), 0);
	assert_int_equal(fastmib_state_read(f->rd, TN, row, &st, NULL), -ENOENT);
	assert_int_equal(fastmib_state_set_one(f->seg, TN, row, TN_LINK, &up), -ENOENT);
	assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &again), 0);
	assert_int_equal(fastmib_state_read(f->rd, TN, again, &st, NULL), 0);
	assert_int_equal(st.link, 2);
	assert_string_equal(st.name, "");
}

/* ---- the change log ---- */

static void
test_change_log(void **state)
{
	struct tu_fixture *f = *state;
	struct fastmib_state_change ch[16];
	uint64_t next = fastmib_state_changes_head(f->rd), lost = 0;
	struct tn_key k = { 7 };
	struct gl_state st;
	bool no = false;
	int32_t v;
	uint32_t row;
	int n;

	/* up, the same again (nothing), down, up: three changes, in order */
	v = 1;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	v = 2;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	v = 1;
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	/* a state without notify changes: nothing */
	assert_int_equal(fastmib_state_set_text(f->seg, GL, 0, GL_LABEL, "x"), 0);
	/* the whole row: two notify states change at once */
	assert_int_equal(fastmib_state_get(f->seg, GL, 0, &st), 0);
	st.oper = 3;
	st.enabled = false;
	assert_int_equal(fastmib_state_set(f->seg, GL, 0, &st), 0);
	assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_ENABLED, &no), 0);
	/* a keyed row's change carries its key */
	assert_int_equal(fastmib_key_insert(f->seg, TN, &k, &row), 0);
	v = 1;
	assert_int_equal(fastmib_state_set_one(f->seg, TN, row, TN_LINK, &v), 0);

	n = fastmib_state_changes(f->rd, &next, ch, 16, &lost);
	assert_int_equal(n, 6);
	assert_int_equal(lost, 0);
	for (int i = 0; i < 4; i++) {
		int32_t want[] = { 1, 2, 1, 3 };

		assert_int_equal(ch[i].group, GL);
		assert_int_equal(ch[i].state, GL_OPER);
		memcpy(&v, ch[i].value, 4);
		assert_int_equal(v, want[i]);
		if (i)
			assert_true(ch[i].number == ch[i - 1].number + 1 ||
				    (i == 3 && ch[i].number == ch[2].number + 1));
	}
	assert_int_equal(ch[4].state, GL_ENABLED);
	assert_int_equal(ch[4].value[0], 0);
	assert_int_equal(ch[5].group, TN);
	assert_int_equal(ch[5].row, row);
	assert_int_equal(ch[5].key_len, 4);
	assert_memory_equal(ch[5].key, "\0\0\0\7", 4);
	assert_int_equal(fastmib_state_changes(f->rd, &next, ch, 16, &lost), 0);

	/* more changes than the log keeps: the oldest are lost, and counted */
	for (int i = 0; i < 1100; i++) {
		v = 1 + i % 2;
		assert_int_equal(fastmib_state_set_one(f->seg, GL, 0, GL_OPER, &v), 0);
	}
	n = 0;
	for (int got; (got = fastmib_state_changes(f->rd, &next, ch, 16, &lost)) > 0;)
		n += got;
	assert_int_equal(n, 1024);
	assert_int_equal(lost, 1100 - 1024);
}

/* ---- untrusted ---- */

static void
test_hostile_values(void **state)
{
	struct tu_fixture *f = *state;
	struct fms_state_rec *rec = fms_state_rec(f->seg, GL, 0);
	uint64_t bad[FASTMIB_STATE_MASK_WORDS];
	struct gl_state st;
	int32_t nine = 9;

	/* what a hand writing into the file could leave: an enum value not
	 * listed, a string without its NUL, an octet string too long */
	memcpy(rec->data + gl_states[GL_OPER].offset, &nine, 4);
	memset(rec->data + gl_states[GL_LABEL].offset, 'x', 33);
	memcpy(rec->data + gl_states[GL_BLOB].offset, "\xff\x00", 2);
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &st, bad), 0);
	assert_int_equal(bad[0], (1ull << GL_OPER) | (1ull << GL_LABEL) | (1ull << GL_BLOB));
	assert_int_equal(st.oper, 0);
	assert_int_equal(st.label[0], '\0');
	assert_int_equal(st.blob.len, 0);
	assert_int_equal(st.version, 7); /* the others as they are */
	/* a setter's sequence left odd (a crash inside a set): no answer,
	 * never a half-written one */
	fastmib_set_read_patience(f->rd, 1000000);
	rec->lock.count.sn |= 1;
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &st, NULL), -EBUSY);
	rec->lock.count.sn++;
	assert_int_equal(fastmib_state_read(f->rd, GL, 0, &st, NULL), 0);
}

/* ---- a reader beside a setter ---- */

#define MIN_READS 20000

static struct fastmib_segment *swap_seg;
static int swap_stop;
static uint64_t swaps;

/* Row A and row B differ in every state: a read that mixes them shows. */
static void
swap_row(struct gl_state *st, int which)
{
	memset(st, 0, sizeof(*st));
	st->oper = which ? 3 : 1;
	memset(st->label, which ? 'b' : 'a', 32);
	st->version = which ? 99 : 11;
	st->peak = which ? UINT64_MAX : 1;
	st->since = which ? 2 : 1;
	st->started = which ? -2 : 1;
	st->enabled = which;
	memset(st->addr, which ? 2 : 1, 4);
	memset(st->mac, which ? 2 : 1, 6);
	st->remote.type = which ? 2 : 1;
	memset(st->remote.addr, which ? 2 : 1, which ? 16 : 4);
	st->blob.len = which ? 5 : 1;
	memset(st->blob.octets, which ? 2 : 1, st->blob.len);
	st->ticks = which ? 2 : 1;
	st->temp = which ? 150 : -50;
}

static int
swapper(void *arg)
{
	struct gl_state rows[2];

	(void)arg;
	swap_row(&rows[0], 0);
	swap_row(&rows[1], 1);
	for (uint64_t i = 0; !__atomic_load_n(&swap_stop, __ATOMIC_ACQUIRE); i++) {
		if (fastmib_state_set(swap_seg, GL, 0, &rows[i % 2]) != 0)
			return -1;
		__atomic_store_n(&swaps, i + 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static void
test_reads_are_whole(void **state)
{
	struct tu_fixture *f = *state;
	struct gl_state rows[2], st;
	unsigned lcore = rte_get_next_lcore(rte_lcore_id(), 1, 0);
	uint64_t reads = 0, seen[2] = { 0, 0 };
	uint64_t give_up = fastmib_monotonic_ns() + 120ull * 1000000000u;

	swap_row(&rows[0], 0);
	swap_row(&rows[1], 1);
	assert_int_equal(fastmib_state_set(f->seg, GL, 0, &rows[0]), 0);
	swap_seg = f->seg;
	__atomic_store_n(&swap_stop, 0, __ATOMIC_RELEASE);
	assert_int_equal(tu_launch(swapper, NULL, lcore), 0);
	/* until both rows were seen many times: the setter runs beside */
	while (reads < MIN_READS || seen[0] < 100 || seen[1] < 100) {
		int rc = fastmib_state_read(f->rd, GL, 0, &st, NULL);

		assert_int_equal(rc, 0);
		/* all of A or all of B: never a state of one beside another's */
		if (memcmp(&st, &rows[0], sizeof(st)) == 0)
			seen[0]++;
		else if (memcmp(&st, &rows[1], sizeof(st)) == 0)
			seen[1]++;
		else
			fail_msg("read %llu mixes the two rows", (unsigned long long)reads);
		reads++;
		if (fastmib_monotonic_ns() > give_up)
			fail_msg("the setter never ran: %llu A, %llu B",
				 (unsigned long long)seen[0], (unsigned long long)seen[1]);
	}
	__atomic_store_n(&swap_stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(tu_wait(lcore), 0);
	print_message("%llu reads beside %llu sets: %llu A, %llu B\n", (unsigned long long)reads,
		      (unsigned long long)__atomic_load_n(&swaps, __ATOMIC_RELAXED),
		      (unsigned long long)seen[0], (unsigned long long)seen[1]);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_schema_rules),
		cmocka_unit_test_setup_teardown(test_defaults_and_sets, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_rows_come_and_go, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_change_log, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_hostile_values, setup, tu_teardown),
		cmocka_unit_test_setup_teardown(test_reads_are_whole, setup, tu_teardown),
	};

	(void)argc;
	make_schema();
	return tu_run_tests(argv[0], tests);
}
