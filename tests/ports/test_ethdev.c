/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the ethdev library: telemetry replies (as DPDK 22.11's
 * dpdk-testpmd sends them, and as a driver with an underflowed counter
 * would) parsed into readings, exact to the last unsigned 64-bit value;
 * text escaped for the log; sources, labels and ifName; the port map's
 * ifIndex rule and its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"

#include "replies.h"

static void
test_parse_list(void **state)
{
	uint16_t ids[4];
	json_t *j;

	(void)state;
	j = js("[3,0,1]");
	assert_int_equal(fme_port_parse_list(j, ids, 4), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(ids[2], 3);
	json_decref(j);
	j = js("[0,70000]");
	assert_int_equal(fme_port_parse_list(j, ids, 4), -EPROTO);
	json_decref(j);
	j = js("{\"a\":1}");
	assert_int_equal(fme_port_parse_list(j, ids, 4), -EPROTO);
	json_decref(j);
	assert_int_equal(fme_port_parse_list(json_null(), ids, 4), -EPROTO);
}

static void
test_parse_info_link_stats(void **state)
{
	struct fme_port_reading r;
	static const uint8_t mac[6] = { 0x92, 0xF0, 0x4A, 0x1F, 0xA7, 0x53 };

	(void)state;
	memset(&r, 0, sizeof(r));
	parse(fme_port_parse_info, INFO_NULL0, &r, 0);
	parse(fme_port_parse_link, LINK_UP, &r, 0);
	parse(fme_port_parse_stats, STATS, &r, 0);
	assert_int_equal(r.parts, FME_PORT_INFO | FME_PORT_LINK | FME_PORT_STATS);
	assert_string_equal(r.name, "net_null0");
	assert_int_equal(r.mtu, 1500);
	assert_true(r.mac_ok);
	assert_memory_equal(r.mac, mac, 6);
	assert_true(r.promiscuous);
	assert_true(r.started);
	assert_true(r.link_up);
	assert_true(r.speed_known);
	assert_int_equal(r.speed_mbps, 10000);
	assert_int_equal(r.stats_have, (1u << FME_STAT_COUNT) - 1);
	assert_int_equal(r.stat[FME_STAT_IPACKETS], 45846496);
	assert_int_equal(r.stat[FME_STAT_OBYTES], 2907600896u);
	assert_int_equal(r.stat[FME_STAT_RX_NOMBUF], 5);
	assert_int_equal(r.stats_bad | r.stats_big, 0);

	/* a down link has no speed */
	parse(fme_port_parse_link, LINK_DOWN, &r, 0);
	assert_false(r.link_up);
	assert_false(r.speed_known);
	assert_int_equal(r.speed_mbps, 0);
	/* up with RTE_ETH_SPEED_NUM_UNKNOWN */
	parse(fme_port_parse_link, "{\"status\":\"UP\",\"speed\":4294967295}", &r, 0);
	assert_true(r.link_up);
	assert_false(r.speed_known);

	/* what the application answers for a port it does not have */
	memset(&r, 0, sizeof(r));
	assert_int_equal(fme_port_parse_info(json_null(), &r), -EPROTO);
	assert_int_equal(fme_port_parse_stats(json_null(), &r), -EPROTO);
	assert_int_equal(r.parts, 0);
	/* a name that does not fit is refused whole, not cut */
	parse(fme_port_parse_info, "{\"name\":\"a234567890123456789012345678901234567890"
	      "123456789012345678901234\",\"mtu\":1500}", &r, -EPROTO);
	/* a number is no name, however large; a MAC is exactly six octets */
	parse(fme_port_parse_info, "{\"name\":123456789012345678901,\"mtu\":1500}", &r,
	      -EPROTO);
	parse(fme_port_parse_info, "{\"name\":\"n\",\"mtu\":1500,"
	      "\"mac_addr\":\" 2:F0:4A:1F:A7:53\"}", &r, 0);
	assert_false(r.mac_ok);
	parse(fme_port_parse_info, "{\"name\":\"n\",\"mtu\":1500,"
	      "\"mac_addr\":\"92:F0:4A:1F:A7:53 \"}", &r, 0);
	assert_false(r.mac_ok);
	parse(fme_port_parse_link, "{\"status\":12345678901234567890123}", &r, -EPROTO);
}

/* A reply that comes late is parsed by its command alone: which port, which
 * part, the same values as a reply read in time. */
static void
test_parse_reply_by_command(void **state)
{
	struct fme_port_reading r;
	json_t *stats = js(STATS), *info = js(INFO_NULL0), *list = js("[0,1]");

	(void)state;
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(fme_port_parse_reply("/ethdev/stats,65535", stats, &r), 0);
	assert_int_equal(r.port, 65535);
	assert_int_equal(r.parts, FME_PORT_STATS);
	assert_int_equal(r.stat[FME_STAT_IPACKETS], 45846496);
	assert_int_equal(r.stat[FME_STAT_RX_NOMBUF], 5);
	assert_int_equal(r.stats_bad | r.cast_have, 0);
	assert_int_equal(fme_port_parse_reply("/ethdev/info,3", info, &r), 0);
	assert_int_equal(r.port, 3);
	assert_int_equal(r.parts, FME_PORT_INFO);
	assert_string_equal(r.name, "net_null0");
	/* a rejected command (null): no part */
	assert_int_equal(fme_port_parse_reply("/ethdev/link_status,1", json_null(), &r),
			 -EPROTO);
	assert_int_equal(r.parts, 0);
	/* not a port's part, or not a port id */
	assert_int_equal(fme_port_parse_reply("/ethdev/list", list, &r), -ENOENT);
	assert_int_equal(fme_port_parse_reply("/ethdev/stats,", stats, &r), -ENOENT);
	assert_int_equal(fme_port_parse_reply("/ethdev/stats,65536", stats, &r), -ENOENT);
	assert_int_equal(fme_port_parse_reply("/ethdev/stats,1x", stats, &r), -ENOENT);
	assert_int_equal(fme_port_parse_reply("/ethdev/stat,1", stats, &r), -ENOENT);
	assert_int_equal(fme_port_parse_reply("/ethdev/statsx,1", stats, &r), -ENOENT);
	json_decref(stats);
	json_decref(info);
	json_decref(list);
}

static void
test_counters_exact_and_alone(void **state)
{
	struct fme_port_reading r;

	(void)state;
	/* an underflowed driver counter: unsigned 64-bit, read exactly; the
	 * other counters of the reply are taken too */
	memset(&r, 0, sizeof(r));
	parse(fme_port_parse_stats,
	      "{\"ipackets\":18446744073709551615,\"opackets\":9223372036854775808,"
	      "\"ibytes\":9223372036854775807,\"obytes\":0,"
	      "\"imissed\":18446744073709551000,\"ierrors\":3,\"oerrors\":2,\"rx_nombuf\":5,"
	      "\"q_ipackets\":[18446744073709551615]}", &r, 0);
	assert_int_equal(r.stats_have, (1u << FME_STAT_COUNT) - 1);
	assert_true(r.stat[FME_STAT_IPACKETS] == UINT64_MAX);
	assert_true(r.stat[FME_STAT_OPACKETS] == (UINT64_C(1) << 63));
	assert_true(r.stat[FME_STAT_IBYTES] == INT64_MAX);
	assert_true(r.stat[FME_STAT_IMISSED] == UINT64_C(18446744073709551000));
	assert_int_equal(r.stat[FME_STAT_IERRORS], 3);
	/* 2^63 and more are flagged for the log */
	assert_int_equal(r.stats_big, 1u << FME_STAT_IPACKETS | 1u << FME_STAT_OPACKETS |
			 1u << FME_STAT_IMISSED);
	assert_int_equal(r.stats_bad, 0);

	/* faulty counters are left out, one by one, and the first is quoted;
	 * a string is not a counter, whatever its text */
	memset(&r, 0, sizeof(r));
	parse(fme_port_parse_stats,
	      "{\"ipackets\":-5,\"opackets\":18446744073709551616,\"ibytes\":1.5,"
	      "\"obytes\":\"12\",\"ierrors\":3,\"oerrors\":2,\"rx_nombuf\":5}", &r, 0);
	assert_int_equal(r.parts, FME_PORT_STATS);
	assert_int_equal(r.stats_bad, 1u << FME_STAT_IPACKETS | 1u << FME_STAT_OPACKETS |
			 1u << FME_STAT_IBYTES | 1u << FME_STAT_OBYTES | 1u << FME_STAT_IMISSED);
	assert_int_equal(r.stats_have, 1u << FME_STAT_IERRORS | 1u << FME_STAT_OERRORS |
			 1u << FME_STAT_RX_NOMBUF);
	assert_string_equal(r.bad_text, "-5");

	/* the same in xstats: the breakdown counter alone is dropped */
	memset(&r, 0, sizeof(r));
	parse(fme_port_parse_xstats,
	      "{\"rx_multicast_packets\":18446744073709551615,\"tx_multicast_packets\":-1,"
	      "\"rx_q0_broadcast_packets\":18446744073709551615,"
	      "\"rx_q1_broadcast_packets\":2,\"tx_broadcast_packets\":4,"
	      "\"rx_good_packets\":-3}", &r, 0);
	assert_true(r.cast[FME_CAST_IN_MCAST] == UINT64_MAX);
	assert_int_equal(r.cast_big, 1u << FME_CAST_IN_MCAST);
	/* a wrapped per-queue sum and a negative value: left out */
	assert_int_equal(r.cast_bad, 1u << FME_CAST_OUT_MCAST | 1u << FME_CAST_IN_BCAST);
	assert_int_equal(r.cast_have, 1u << FME_CAST_IN_MCAST | 1u << FME_CAST_OUT_BCAST);
	assert_int_equal(r.cast[FME_CAST_OUT_BCAST], 4);
}

static void
test_json_load(void **state)
{
	static const char *const good[] = {
		"{\"a\":18446744073709551615}", "[-9223372036854775809, 1]",
		"{\"s\":\"99999999999999999999\",\"n\":99999999999999999999}",
		"{\"x\":1e30,\"y\":-0.5,\"z\":\"\\\"1234567890123456789012\\\"\"}",
	};
	uint64_t v;
	json_t *j;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		j = fme_tel_json_load(good[i], strlen(good[i]));
		assert_non_null(j);
		json_decref(j);
	}
	j = fme_tel_json_load(good[0], strlen(good[0]));
	assert_int_equal(fme_json_u64(json_object_get(j, "a"), &v), 0);
	assert_true(v == UINT64_MAX);
	json_decref(j);
	/* a number inside a string stays that string */
	j = fme_tel_json_load(good[3], strlen(good[3]));
	assert_string_equal(json_string_value(json_object_get(j, "z")),
			    "\"1234567890123456789012\"");
	assert_true(json_is_real(json_object_get(j, "x")));
	json_decref(j);
	/* not JSON stays not JSON */
	assert_null(fme_tel_json_load("{\"a\":1", 6));
	assert_null(fme_tel_json_load("", 0));
	/* a number with a leading zero is not JSON, however long (it was
	 * once passed on as a string of digits, and read as a counter) */
	assert_null(fme_tel_json_load("{\"a\":000000000000000000001}", 26));
	assert_null(fme_tel_json_load("[-0123456789012345678901]", 25));
	assert_null(fme_tel_json_load("[01]", 4));
	j = fme_tel_json_load("[0, -0, 10000000000000000000]", 29);
	assert_non_null(j);
	assert_int_equal(fme_json_u64(json_array_get(j, 2), &v), 0);
	assert_true(v == UINT64_C(10000000000000000000));
	json_decref(j);
	/* what a counter may be: never a string, whatever its digits */
	j = json_string("18446744073709551616");
	assert_int_equal(fme_json_u64(j, &v), -ERANGE);
	json_decref(j);
	j = json_string("12");
	assert_int_equal(fme_json_u64(j, &v), -ERANGE);
	json_decref(j);
	j = json_string("\x01" "18446744073709551616");
	assert_int_equal(fme_json_u64(j, &v), -ERANGE);
	json_decref(j);
	j = json_string("1x");
	assert_int_equal(fme_json_u64(j, &v), -ERANGE);
	json_decref(j);
	assert_int_equal(fme_json_u64(NULL, &v), -ENOENT);
	/* and a large integer is never text */
	j = fme_tel_json_load(good[2], strlen(good[2]));
	assert_string_equal(fme_json_text(json_object_get(j, "s")), "99999999999999999999");
	assert_null(fme_json_text(json_object_get(j, "n")));
	json_decref(j);
}

static void
test_escape(void **state)
{
	char out[64];

	(void)state;
	assert_string_equal(fme_escape_str("net_null0", out, sizeof(out)), "net_null0");
	assert_string_equal(fme_escape_str("a\nfastmib: forged", out, sizeof(out)),
			    "a\\x0afastmib: forged");
	assert_string_equal(fme_escape_str("back\\slash\x1b[2J\xc3\xa9", out, sizeof(out)),
			    "back\\\\slash\\x1b[2J\\xc3\\xa9");
	assert_string_equal(fme_escape("a\0b", 3, out, sizeof(out)), "a\\x00b");
	/* cut at a whole piece */
	assert_string_equal(fme_escape_str("ab\ncd", out, 5), "ab");
	assert_string_equal(fme_escape_str(NULL, out, sizeof(out)), "");
}

static void
test_sources_and_names(void **state)
{
	const char *paths[] = { "/var/run/dpdk/rte", "/tmp/dpdk/fw/dpdk_telemetry.v2",
				"/run/other/rte/", "/x/rte" };
	char labels[4][FME_PORT_LABEL_MAX], name[FME_IFNAME_MAX];
	char path[64];
	uint32_t base;

	(void)state;
	assert_int_equal(fme_port_source_parse("/var/run/dpdk/rte", path, sizeof(path),
						   &base), 0);
	assert_string_equal(path, "/var/run/dpdk/rte");
	assert_int_equal(base, 0);
	assert_int_equal(fme_port_source_parse("/run/a,2000", path, sizeof(path), &base), 0);
	assert_string_equal(path, "/run/a");
	assert_int_equal(base, 2000);
	/* a comma not followed by digits only belongs to the path */
	assert_int_equal(fme_port_source_parse("/run/a,b", path, sizeof(path), &base), 0);
	assert_string_equal(path, "/run/a,b");
	assert_int_equal(fme_port_source_parse(",5", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fme_port_source_parse("/a,0", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fme_port_source_parse("/a,2147483648", path, sizeof(path), &base),
			 -EINVAL);
	assert_int_equal(fme_port_source_parse("/a,2147483647", path, sizeof(path), &base), 0);
	assert_int_equal(fme_port_source_parse("", path, sizeof(path), &base), -EINVAL);
	assert_int_equal(fme_port_source_parse(
		"/a/very/long/path/that/does/not/fit/into/sixty/four/octets/at/all", path,
		sizeof(path), &base), -ENAMETOOLONG);
	/* labels: the file prefix; equal ones numbered in order */
	fme_port_labels(paths, 4, labels);
	assert_string_equal(labels[0], "rte");
	assert_string_equal(labels[1], "fw");
	assert_string_equal(labels[2], "rte-2");
	assert_string_equal(labels[3], "rte-3");
	fme_port_ifname(NULL, "net_null0", name, sizeof(name));
	assert_string_equal(name, "net_null0");
	fme_port_ifname(labels[1], "0000:03:00.0", name, sizeof(name));
	assert_string_equal(name, "fw/0000:03:00.0");
}

static bool
taken_1001(uint32_t ifindex, void *arg)
{
	(void)arg;
	return ifindex == 1001;
}

/* A state directory of its own. */
static char *
temp_dir(void)
{
	char tmpl[] = "/tmp/fmportmap-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

/* The map's file in `dir`: `len` octets of `text`. */
static void
write_bytes(const char *dir, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" FME_PORTMAP_FILE, dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void
write_file(const char *dir, const char *text)
{
	write_bytes(dir, text, strlen(text));
}

static void
remove_dir(char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/" FME_PORTMAP_FILE, dir);
	unlink(path);
	rmdir(dir);
	free(dir);
}

static void
test_ifindex_rule(void **state)
{
	static const uint8_t burned[6] = { 0x00, 0x1b, 0x21, 0x0a, 0x0b, 0x0c };
	static const uint8_t made_up[6] = { 0x92, 0xf0, 0x4a, 0x1f, 0xa7, 0x53 };
	struct fme_portmap *m;
	struct fme_portmap_entry *e, *a, *b;
	bool created;
	int err;

	(void)state;
	assert_int_equal(fme_portmap_new(&m), 0);
	/* new devices: the first free ifIndex from the base, skipping taken ones */
	a = fme_port_ifindex(m, "/run/a", 1000, "net_null0", made_up, taken_1001, NULL,
				 &created, &err);
	assert_non_null(a);
	assert_true(created);
	assert_int_equal(a->ifindex, 1000);
	assert_false(a->mac_ok); /* a made-up address identifies nothing */
	a->in_use = true;
	b = fme_port_ifindex(m, "/run/a", 1000, "net_null1", NULL, taken_1001, NULL,
				 &created, &err);
	assert_int_equal(b->ifindex, 1002);
	b->in_use = true;
	/* the same names in another application: other entries */
	e = fme_port_ifindex(m, "/run/b", 1000, "net_null0", NULL, NULL, NULL, &created,
				 &err);
	assert_ptr_not_equal(e, a);
	assert_int_equal(e->ifindex, 1001);
	/* a source's own base */
	e = fme_port_ifindex(m, "/run/c", 5000, "net_null0", NULL, NULL, NULL, &created,
				 &err);
	assert_int_equal(e->ifindex, 5000);
	/* known devices keep theirs, whatever order they come in */
	e = fme_port_ifindex(m, "/run/a", 1000, "net_null1", NULL, NULL, NULL, &created,
				 &err);
	assert_ptr_equal(e, b);
	assert_false(created);
	/* a NIC with a burned-in address, moved to another slot: its entry */
	e = fme_port_ifindex(m, "/run/a", 1000, "0000:03:00.0", burned, NULL, NULL,
				 &created, &err);
	assert_int_equal(e->ifindex, 1003);
	assert_true(e->mac_ok);
	b = fme_port_ifindex(m, "/run/a", 1000, "0000:04:00.0", burned, NULL, NULL,
				 &created, &err);
	assert_ptr_equal(b, e);
	assert_true(created); /* renamed: to be saved */
	assert_string_equal(b->name, "0000:04:00.0");
	/* ... but not while the entry is in use by the other */
	b->in_use = true;
	e = fme_port_ifindex(m, "/run/a", 1000, "0000:05:00.0", burned, NULL, NULL,
				 &created, &err);
	assert_ptr_not_equal(e, b);
	assert_int_equal(e->ifindex, 1004);
	/* nothing left */
	e = fme_port_ifindex(m, "/run/z", FME_IFINDEX_MAX, "x", NULL, NULL, NULL,
				 &created, &err);
	assert_int_equal(e->ifindex, FME_IFINDEX_MAX);
	e = fme_port_ifindex(m, "/run/z", FME_IFINDEX_MAX, "y", NULL, NULL, NULL,
				 &created, &err);
	assert_null(e);
	assert_int_equal(err, -ENOSPC);
	/* a map without a file is not saved anywhere */
	assert_int_equal(fme_portmap_save(m), -ENOENT);
	fme_portmap_free(m);
}

static void
test_map_file(void **state)
{
	char *dir = temp_dir();
	struct fme_portmap *m;
	struct fme_portmap_entry *e;
	bool created;
	int err;
	char path[256], text[4096];
	FILE *f;
	size_t n;

	(void)state;
	/* no file: an empty map that saves there */
	assert_int_equal(fme_portmap_new(&m), 0);
	assert_int_equal(fme_portmap_load(m, dir), 0);
	e = fme_port_ifindex(m, "/var/run/dpdk/my \"app\"", 1000, "net_null0", NULL, NULL,
				 NULL, &created, &err);
	memcpy(e->alias, "uplink \"A\"\n\\\xc3\xa9", 14);
	e->alias_len = 14;
	e = fme_port_ifindex(m, "/var/run/dpdk/rte", 1000, "0000:03:00.0",
				 (const uint8_t *)"\x00\x1b\x21\x0a\x0b\x0c", NULL, NULL, &created,
				 &err);
	e->link_traps = FME_LINK_TRAPS_DISABLED;
	assert_int_equal(fme_portmap_save(m), 0);
	fme_portmap_free(m);
	snprintf(path, sizeof(path), "%s/" FME_PORTMAP_FILE, dir);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "port \"/var/run/dpdk/my \\\"app\\\"\" \"net_null0\" "
			       "ifIndex=1000 alias=\"uplink \\\"A\\\"\\x0a\\\\\\xc3\\xa9\"\n"));
	assert_non_null(strstr(text, "port \"/var/run/dpdk/rte\" \"0000:03:00.0\" ifIndex=1001 "
			       "mac=00:1b:21:0a:0b:0c linkTraps=disabled\n"));
	/* read back: the same entries */
	assert_int_equal(fme_portmap_new(&m), 0);
	assert_int_equal(fme_portmap_load(m, dir), 0);
	assert_int_equal(fme_portmap_count(m), 2);
	e = fme_portmap_by_ifindex(m, 1000);
	assert_non_null(e);
	assert_string_equal(e->source, "/var/run/dpdk/my \"app\"");
	assert_int_equal(e->alias_len, 14);
	assert_memory_equal(e->alias, "uplink \"A\"\n\\\xc3\xa9", 14);
	assert_int_equal(e->link_traps, FME_LINK_TRAPS_ENABLED);
	e = fme_portmap_by_ifindex(m, 1001);
	assert_true(e->mac_ok);
	assert_int_equal(e->link_traps, FME_LINK_TRAPS_DISABLED);
	fme_portmap_free(m);

	/* an operator's pin, and lines that are wrong: each named with its
	 * line and field, the good ones taken, and the file never rewritten */
	write_file(dir, "# pinned by hand\n"
		   "port /run/a eth0 ifIndex=7\n"
		   "  \n"
		   "port /run/a eth1 ifIndex=0\n"
		   "port /run/a eth2 ifIndex=7\n"
		   "port /run/a eth0 ifIndex=8\n"
		   "port /run/a eth3 ifIndex=9 alias=\"12345678901234567890123456789012345678901"
		   "234567890123456789012345\"\n"
		   "port /run/a eth4 ifIndex=10 speed=fast\n"
		   "port /run/a eth5 ifIndex=11 alias=\"open\n"
		   "port /run/a eth6 ifIndex=12 linkTraps=maybe mac=zz\n"
		   "port /run/a eth7\n"
		   "prot /run/a eth8 ifIndex=13\n"
		   "port /run/a eth9 ifIndex=14 alias=\"\\q\"\n"
		   "port /run/a eth10 ifIndex=15 mac=00:00:00:00:00:01\n");
	assert_int_equal(fme_portmap_new(&m), 0);
	assert_int_equal(fme_portmap_load(m, dir), -EINVAL);
	snprintf(text, sizeof(text),
		 "%1$s:4: ifIndex: not a number in 1..2147483647\n"
		 "%1$s:5: ifIndex: 7 is already line 2's\n"
		 "%1$s:6: device: already on line 2\n"
		 "%1$s:7: alias: longer than 64 octets\n"
		 "%1$s:8: speed: unknown field (ifIndex, mac, alias and linkTraps are known)\n"
		 "%1$s:9: alias: quote not closed\n"
		 "%1$s:10: linkTraps: enabled or disabled\n"
		 "%1$s:11: ifIndex: missing\n"
		 "%1$s:12: not a \"port\" line\n"
		 "%1$s:13: alias: unknown escape (\\\\, \\\" and \\xHH are known)\n", path);
	assert_string_equal(fme_portmap_errors(m), text);
	assert_int_equal(fme_portmap_count(m), 2);
	e = fme_port_ifindex(m, "/run/a", 1000, "eth0", NULL, NULL, NULL, &created, &err);
	assert_int_equal(e->ifindex, 7);
	assert_false(created);
	e = fme_port_ifindex(m, "/run/a", 1, "new", NULL, NULL, NULL, &created, &err);
	assert_int_equal(e->ifindex, 1);
	assert_int_equal(fme_portmap_save(m), -EINVAL);
	fme_portmap_free(m);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "# pinned by hand\n"));
	remove_dir(dir);
}

/*
 * What the file's format forbids is refused, each line named: an escape
 * with a blank inside, a field name that is not bare (a NUL inside it
 * made "ifIndex\x00junk" read as ifIndex), a NUL in a value other than an
 * alias, numbers with a sign or a leading zero, a field twice, a MAC that
 * a scanf() reading would take, quotes half a word, a lone CR or a NUL
 * octet in the line (the rest of the line unread). CR LF ends a line.
 */
static void
test_map_file_strict(void **state)
{
	static const char text[] =
		"port /run/a eth0 ifIndex=1 alias=\"\\x 41\"\n"
		"port /run/a eth1 \"ifIndex\\x00junk\"=5\n"
		"port /run/a eth2 ifIndex=\"5\\x00x\"\n"
		"port /run/a eth3 ifIndex=+5\n"
		"port /run/a eth4 ifIndex=05\n"
		"port /run/a eth5 ifIndex=5 ifIndex=6\n"
		"port /run/a eth6 ifIndex=16 mac=0x:0x:0x:0x:0x:0x\n"
		"port /run/a \"eth7\"x ifIndex=17\n"
		"port /run/a eth\"8\" ifIndex=18\n"
		"port /run/a eth9 ifIndex=19\rjunk\n"
		"port /run/a eth10 ifIndex=20\0junk\n"
		"\"port\" /run/a eth11 ifIndex=21\n"
		"port /run/a eth12 ifIndex=22\r\n"
		"port /run/a eth13 ifIndex=23 alias=\"a\\x00b\" mac=00:1B:21:0a:0b:0c\n"
		"port /run/a eth14 ifIndex=24 alias=\"\\x4\"\n";
	char *dir = temp_dir(), path[256], want[4096];
	struct fme_portmap *m;
	struct fme_portmap_entry *e;

	(void)state;
	snprintf(path, sizeof(path), "%s/" FME_PORTMAP_FILE, dir);
	write_bytes(dir, text, sizeof(text) - 1);
	assert_int_equal(fme_portmap_new(&m), 0);
	assert_int_equal(fme_portmap_load(m, dir), -EINVAL);
	snprintf(want, sizeof(want),
		 "%1$s:1: alias: a \\x escape needs two hexadecimal digits\n"
		 "%1$s:2: \"ifIndex\\x00junk\"=5: not KEY=VALUE\n"
		 "%1$s:3: ifIndex: a NUL octet in the value\n"
		 "%1$s:4: ifIndex: not a number in 1..2147483647\n"
		 "%1$s:5: ifIndex: not a number in 1..2147483647\n"
		 "%1$s:6: ifIndex: given twice\n"
		 "%1$s:7: mac: not XX:XX:XX:XX:XX:XX\n"
		 "%1$s:8: device: text after a closing quote\n"
		 "%1$s:9: device: a quote inside a word (a quoted word is quoted whole)\n"
		 "%1$s:10: ifIndex: a carriage return inside the line\n"
		 "%1$s:11: a NUL octet in the line (\\x00 in a quoted word)\n"
		 "%1$s:12: not a \"port\" line\n"
		 "%1$s:15: alias: a \\x escape needs two hexadecimal digits\n", path);
	assert_string_equal(fme_portmap_errors(m), want);
	assert_int_equal(fme_portmap_count(m), 2);
	e = fme_portmap_by_ifindex(m, 22);
	assert_non_null(e);
	assert_string_equal(e->name, "eth12");
	e = fme_portmap_by_ifindex(m, 23);
	assert_non_null(e);
	assert_int_equal(e->alias_len, 3);
	assert_memory_equal(e->alias, "a\0b", 3);
	assert_true(e->mac_ok);
	assert_memory_equal(e->mac, "\x00\x1b\x21\x0a\x0b\x0c", 6);
	fme_portmap_free(m);
	remove_dir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_info_link_stats),
		cmocka_unit_test(test_parse_reply_by_command),
		cmocka_unit_test(test_counters_exact_and_alone),
		cmocka_unit_test(test_json_load),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_sources_and_names),
		cmocka_unit_test(test_ifindex_rule),
		cmocka_unit_test(test_map_file),
		cmocka_unit_test(test_map_file_strict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
