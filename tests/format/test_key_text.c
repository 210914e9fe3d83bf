/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Keys as people write them (fastpath/format/key_text.c): text to order
 * key and back for every index type, each field on its own, and the
 * message of every kind of bad text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fastmib/reader.h"
#include "fastmib/schema.h"

static const struct fastmib_counter_schema pkts = { "pkts", "", "Packets.", 1,
						    FASTMIB_COUNTER64, 0, 0, 0, NULL };

/* tunnel (peer inet-address, teid uint32); every other type; an integer. */
static const struct fastmib_group_schema tunnel = {
	.name = "tunnel", .n_indexes = 2, .n_rows = 64, .n_counters = 1, .counters = &pkts,
	.indexes = { { .name = "peer", .type = FASTMIB_INDEX_INET_ADDRESS },
		     { .name = "teid", .type = FASTMIB_INDEX_UINT32 } },
};
static const struct fastmib_group_schema mixed = {
	.name = "mixed", .n_indexes = 4, .n_rows = 64, .n_counters = 1, .counters = &pkts,
	.indexes = { { .name = "host", .type = FASTMIB_INDEX_IPV4 },
		     { .name = "mac", .type = FASTMIB_INDEX_MAC },
		     { .name = "customer", .type = FASTMIB_INDEX_STRING, .size = 8 },
		     { .name = "queue", .max = 8 } },
};
static const struct fastmib_group_schema dense = {
	.name = "port", .n_indexes = 1, .n_rows = 4, .n_counters = 1, .counters = &pkts,
	.indexes = { { .name = "portId", .max = 4 } },
};

/* text -> key -> text, and the key's bytes. */
static void
round_trip(const struct fastmib_group_schema *g, const char *text, const char *back,
	   const uint8_t *want, size_t want_len)
{
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	char out[FASTMIB_MAX_KEY_TEXT];
	int n = fastmib_key_of_text(g, text, key);

	if (n < 0)
		fail_msg("'%s': %s", text, fastmib_last_error());
	assert_int_equal(n, want_len);
	assert_memory_equal(key, want, want_len);
	assert_true(fastmib_key_valid(g, key, (size_t)n));
	assert_int_equal(fastmib_key_text(g, key, (size_t)n, out, sizeof(out)), strlen(back));
	assert_string_equal(out, back);
}

static void
test_round_trips(void **state)
{
	static const uint8_t v4[] = { 1, 4, 10, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef };
	static const uint8_t v6[] = { 2, 16, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
				      0, 0, 0, 1, 0, 0, 0, 7 };
	static const uint8_t m[] = { 192, 168, 1, 9, 0x02, 0, 0x5e, 0xab, 0, 1,
				     4, 'a', ',', 'b', '\\', 0, 0, 0, 8 };
	static const uint8_t d[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				     1, ' ', 0, 0, 0, 1 };

	(void)state;
	round_trip(&tunnel, "10.0.0.1,3735928559", "10.0.0.1,3735928559", v4, sizeof(v4));
	/* IPv6 as given, or compressed back */
	round_trip(&tunnel, "2001:db8::1,7", "2001:db8::1,7", v6, sizeof(v6));
	round_trip(&tunnel, "2001:0DB8:0:0:0:0:0:1,0007", "2001:db8::1,7", v6, sizeof(v6));
	/* a MAC in capitals comes back in lower case; a string's ',' and '\' escaped */
	round_trip(&mixed, "192.168.1.9,02:00:5E:AB:00:01,a\\,b\\\\,8",
		   "192.168.1.9,02:00:5e:ab:00:01,a\\,b\\\\,8", m, sizeof(m));
	/* a blank is a character like any other */
	round_trip(&mixed, "0.0.0.0,00:00:00:00:00:00, ,1", "0.0.0.0,00:00:00:00:00:00, ,1", d,
		   sizeof(d));
}

/* Each field alone, typed. */
static void
test_fields(void **state)
{
	uint8_t key[FASTMIB_MAX_KEY_BYTES];
	char t[FASTMIB_MAX_KEY_FIELD_TEXT];
	struct fastmib_key_field f;
	int n = fastmib_key_of_text(&mixed, "10.1.2.3,02:00:00:00:00:0a,eth,\\\\x,3", key);
	int n6;

	(void)state;
	assert_true(n < 0); /* a string of the fourth field: 'eth' ends at ',' */
	n = fastmib_key_of_text(&mixed, "10.1.2.3,02:00:00:00:00:0a,eth\\,0,3", key);
	assert_int_equal(n, 4 + 6 + 1 + 5 + 4);
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n, 0, &f), 0);
	assert_int_equal(f.type, FASTMIB_INDEX_IPV4);
	assert_int_equal(f.n_octets, 4);
	assert_int_equal(fastmib_key_field_text(&f, t, sizeof(t)), 8);
	assert_string_equal(t, "10.1.2.3");
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n, 1, &f), 0);
	assert_int_equal(fastmib_key_field_text(&f, t, sizeof(t)), 17);
	assert_string_equal(t, "02:00:00:00:00:0a");
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n, 2, &f), 0);
	assert_int_equal(f.type, FASTMIB_INDEX_STRING);
	assert_int_equal(f.n_octets, 5);
	assert_int_equal(f.part_len, 6);
	fastmib_key_field_text(&f, t, sizeof(t));
	assert_string_equal(t, "eth,0"); /* unescaped */
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n, 3, &f), 0);
	assert_int_equal(f.number, 3);
	assert_null(f.octets);
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n, 4, &f), -EINVAL);
	assert_int_equal(fastmib_key_field(&mixed, key, (size_t)n - 1, 0, &f), -EINVAL);

	n6 = fastmib_key_of_text(&tunnel, "fe80::1,0", key);
	assert_int_equal(fastmib_key_field(&tunnel, key, (size_t)n6, 0, &f), 0);
	assert_int_equal(f.number, 2);
	assert_string_equal(fastmib_inet_type_word(f.number), "ipv6");
	assert_string_equal(fastmib_inet_type_word(1), "ipv4");
	assert_null(fastmib_inet_type_word(0));
	assert_null(fastmib_inet_type_word(3));
	/* a small buffer: cut and terminated, the length it needed returned */
	assert_int_equal(fastmib_key_field_text(&f, t, 4), 7);
	assert_string_equal(t, "fe8");
	assert_int_equal(fastmib_key_text(&tunnel, key, (size_t)n6, t, 5), 9);
	assert_string_equal(t, "fe80");
}

/* The parts of two keys order as the SNMP sub-identifiers of that index. */
static void
test_parts_order(void **state)
{
	static const char *const in_order[] = { "9.0.0.0,1", "10.0.0.1,9", "10.0.0.2,1",
						"::1,0", "2001:db8::1,0" };
	uint8_t a[FASTMIB_MAX_KEY_BYTES], b[FASTMIB_MAX_KEY_BYTES];
	struct fastmib_key_field fa, fb;

	(void)state;
	/* in SNMP order: type, length, then octets (9 before 10, IPv4 first) */
	for (size_t i = 0; i + 1 < sizeof(in_order) / sizeof(in_order[0]); i++) {
		int na = fastmib_key_of_text(&tunnel, in_order[i], a);
		int nb = fastmib_key_of_text(&tunnel, in_order[i + 1], b);

		assert_true(na > 0 && nb > 0);
		assert_int_equal(fastmib_key_field(&tunnel, a, (size_t)na, 0, &fa), 0);
		assert_int_equal(fastmib_key_field(&tunnel, b, (size_t)nb, 0, &fb), 0);
		assert_true(fastmib_key_cmp(fa.part, fa.part_len, fb.part, fb.part_len) < 0);
		assert_true(fastmib_key_cmp(fb.part, fb.part_len, fa.part, fa.part_len) > 0);
	}
}

static void
bad(const struct fastmib_group_schema *g, const char *text, const char *message)
{
	uint8_t key[FASTMIB_MAX_KEY_BYTES];

	if (fastmib_key_of_text(g, text, key) != -EINVAL)
		fail_msg("'%s' read as a key", text);
	if (strcmp(fastmib_last_error(), message) != 0)
		fail_msg("'%s':\n  got  %s\n  want %s", text, fastmib_last_error(), message);
}

static void
test_errors(void **state)
{
	(void)state;
	bad(&tunnel, "10.0.0.300,7", "group tunnel: '10.0.0.300' is not an IPv4 address for index peer");
	bad(&tunnel, "2001:db8::g,7", "group tunnel: '2001:db8::g' is not an IPv6 address for index peer");
	bad(&tunnel, ",7", "group tunnel: '' is not an IPv4 address for index peer");
	bad(&tunnel, "10.0.0.1,4294967296",
	    "group tunnel: '4294967296' is not an unsigned 32-bit integer (0..4294967295) for index teid");
	bad(&tunnel, "10.0.0.1,-1",
	    "group tunnel: '-1' is not an unsigned 32-bit integer (0..4294967295) for index teid");
	bad(&tunnel, "10.0.0.1, 7",
	    "group tunnel: ' 7' is not an unsigned 32-bit integer (0..4294967295) for index teid");
	bad(&tunnel, "10.0.0.1",
	    "group tunnel: '10.0.0.1' is not a key: it takes 2 field(s), joined by "
	    "',': peer (inet-address), teid (uint32)");
	bad(&tunnel, "10.0.0.1,7,8",
	    "group tunnel: '10.0.0.1,7,8' is not a key: it takes 2 field(s), joined "
	    "by ',': peer (inet-address), teid (uint32)");
	bad(&tunnel, "10.0.0.1,7,",
	    "group tunnel: '10.0.0.1,7,' is not a key: it takes 2 field(s), joined "
	    "by ',': peer (inet-address), teid (uint32)");
	bad(&mixed, "10.0.0.1.5,02:00:00:00:00:01,a,1",
	    "group mixed: '10.0.0.1.5' is not an IPv4 address for index host");
	bad(&mixed, "::1,02:00:00:00:00:01,a,1",
	    "group mixed: '::1' is not an IPv4 address for index host");
	bad(&mixed, "10.0.0.1,02:00:00:00:00,a,1",
	    "group mixed: '02:00:00:00:00' is not a MAC address (six octets of two hexadecimal "
	    "digits joined by ':') for index mac");
	bad(&mixed, "10.0.0.1,2:0:0:0:0:1,a,1",
	    "group mixed: '2:0:0:0:0:1' is not a MAC address (six octets of two hexadecimal "
	    "digits joined by ':') for index mac");
	bad(&mixed, "10.0.0.1,02-00-00-00-00-01,a,1",
	    "group mixed: '02-00-00-00-00-01' is not a MAC address (six octets of two "
	    "hexadecimal digits joined by ':') for index mac");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,,1",
	    "group mixed: '' is empty (1 or more characters) for index customer");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,123456789,1",
	    "group mixed: '123456789' is longer than 8 characters for index customer");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,a\\b,1",
	    "group mixed: 'a\\b' has a backslash that escapes neither ',' nor '\\' (write '\\,' "
	    "for a comma, '\\\\' for a backslash) for index customer");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,a\tb,1",
	    "group mixed: 'a\tb' has a character outside printable ASCII for index customer");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,caf\xc3\xa9,1",
	    "group mixed: 'caf\xc3\xa9' has a character outside printable ASCII for index customer");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,a,9",
	    "group mixed: '9' is not an integer 1..8 for index queue");
	bad(&mixed, "10.0.0.1,02:00:00:00:00:01,a,0",
	    "group mixed: '0' is not an integer 1..8 for index queue");
	bad(&dense, "1", "group port is not a keyed table");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_parts_order),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
