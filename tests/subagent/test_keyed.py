# SPDX-License-Identifier: BSD-3-Clause
"""Keyed tables end to end, in all three serving modes (AgentX behind
snmpd, standalone, snmpd module): rows found by their keys as SNMP
indexes of every index type (keyed.yaml), walks in OID order with exact
values, GETNEXT from anywhere inside a key, GET by key, keys removed and
inserted again, resets by key and by table, walks while keys come and go,
a segment whose keys a hostile hand rewrote, and the indexes as net-snmp
prints them with the generated MIB.

fm-writer (fm-writer-ks) inserts keys 0..47 of every keyed table before
the agent starts, and inserts and removes keys on command; key number n
is a fixed function of n (tests/subagent/fm-keys.c). The SNMP index of
each key is computed here again from the key in words, from the index
encoding docs/mib-layout.md gives, independently of the C code."""
import bisect
import ipaddress
import itertools
import os
import random
import shutil
import subprocess

import pytest

import snmpharness as h
from conftest import MODES, Served, Writer, oid_key

MODULE = "KEYED-SERVING-TEST-MIB"
STATIC_KEYS = 48            # fm-writer's default --keys
COL_RESET, COL_DISC = 1001, 1002
MAX_SUBID = 2 ** 32 - 1

_scales = itertools.count(2)


# ---- what the segment holds, as the test drove it ----

class Keys:
    """Every instance's expected (type, value) (value None where only the
    type is known: the TimeStamp of a row inserted while served) and, per
    keyed table, the keys present by number and every index ever present."""

    def __init__(self, expect):
        self.root = expect.root
        self.tables = expect.keyed
        self.objects = {o: (t, v) for o, t, v in expect.objects}
        self.present = {g: {k["number"]: k for k in t["keys"]}
                        for g, t in self.tables.items()}
        self.ever = {g: {tuple(k["index"]) for k in t["keys"]}
                     for g, t in self.tables.items()}
        self.columns = {}
        for g in self.tables:
            pre = self.entry(g) + "."
            self.columns[g] = sorted({int(o[len(pre):].split(".")[0])
                                      for o in self.objects if o.startswith(pre)})

    def entry(self, g):
        return "%s.1.%d.1" % (self.root, self.tables[g]["arc"])

    def instance(self, g, col, index):
        return "%s.%d.%s" % (self.entry(g), col, ".".join(map(str, index)))

    def row(self, g, number):
        """Instances of key `number` of table g, column by column."""
        index = self.present[g][number]["index"]
        return [self.instance(g, c, index) for c in self.columns[g]]

    def inserted(self, k):
        g = k["group"]
        if k["new"]:
            for o in k["objects"]:
                self.objects[o["oid"]] = (o["type"], None if o["type"] == "Timeticks"
                                          else int(o["value"]))
        self.present[g][k["number"]] = k
        self.ever[g].add(tuple(k["index"]))

    def removed(self, k):
        g = k["group"]
        for c in self.columns[g]:
            self.objects.pop(self.instance(g, c, k["index"]), None)
        self.present[g].pop(k["number"], None)   # a churn's key too

    def under(self, prefix):
        """(oid, type, value) of every instance below prefix, in OID order."""
        pre = prefix + "."
        return sorted(((o, t, v) for o, (t, v) in self.objects.items()
                       if o.startswith(pre)), key=lambda x: oid_key(x[0]))


class KeyedServed(Served):
    """The keyed model's segment (fm-writer-ks in events mode) served in
    `mode`, beside a segment of the second test model: other OIDs the
    agent must keep answering while the keyed one is damaged."""

    def __init__(self, mode, workdir):
        super().__init__(mode, workdir, binary_var="FM_WRITER_KS")
        self.other = Writer(os.path.join(workdir, "sb.seg"), workdir, "FM_WRITER_SB")
        self.other_expect = None
        self.keys = None

    def start(self):
        self.other_expect = self.other.fill()
        super().start(events=True, extra_segments=[self.other.segment])
        self.client.mib_module = MODULE
        self.client.mib_dirs = [os.environ.get("FASTMIB_BASE_MIBS", ""),
                                os.environ["FASTMIB_KS_MIB_DIR"],
                                os.environ["FASTMIB_TEST_MIBS"], "/usr/share/snmp/mibs"]
        self.keys = Keys(self.expect)
        return self

    def insert(self, g, n):
        answer = self.writer.command("insert %s %d" % (g, n))
        assert len(answer) == 1 and answer[0]["number"] == n, answer
        self.keys.inserted(answer[0])
        return answer[0]

    def remove(self, g, n):
        answer = self.writer.command("remove %s %d" % (g, n))
        if answer:
            self.keys.removed(answer[0])
        return answer

    def renew(self, g, numbers):
        """Remove and insert again: rows that start from zero and get their
        key's values, whatever happened to them before."""
        for n in numbers:
            assert self.remove(g, n), (g, n)
            assert self.insert(g, n)["new"]

    def fresh(self):
        """A new writer and segment (after a test that reset or damaged
        this one), served at once: the first counter's new value is read."""
        self.writer.stop_live()
        self.expect = self.writer.events(scale=next(_scales))
        self.keys = Keys(self.expect)
        want = self.expect.by_oid[self.first_oid()][1]
        h.wait_for(lambda: self.client.get([self.first_oid()]).varbinds[0].value == want,
                   20, "the new segment served", interval=0.1)
        # made while served: every row's discontinuity is its creation,
        # the module's DiscontinuityTime
        created = self.client.value(self.expect.oid(2, 2, 0))
        for o, (t, _) in self.keys.objects.items():
            if t == "Timeticks":
                self.keys.objects[o] = (t, created)

    def close(self):
        self.other.cleanup()
        super().close()


@pytest.fixture(scope="module", params=MODES)
def ks(request, tmp_path_factory):
    s = KeyedServed(request.param, str(tmp_path_factory.mktemp("keyed-" + request.param)))
    try:
        yield s.start()
    finally:
        s.close()


# ---- helpers ----

def triples(varbinds):
    return [(vb.oid, vb.type, vb.value) for vb in varbinds]


def mismatches(got, want):
    """Pairs that differ; a wanted value None takes any value of the type."""
    bad = [(g, w) for g, w in zip(got, want)
           if g[:2] != w[:2] or (w[2] is not None and g[2] != w[2])]
    if len(got) != len(want):
        bad.append(("%d instances" % len(got), "%d expected" % len(want)))
    return bad


def assert_increasing(oids):
    keys = [oid_key(o) for o in oids]
    back = [(a, b) for a, b in zip(oids, oids[1:]) if oid_key(a) >= oid_key(b)]
    assert not back, "walk not in strict OID order: %r" % back[:3]
    return keys


def walk_checked(ks, prefix, bulk=True):
    """A walk below prefix (snmpbulkwalk or snmpwalk, neither with -Cc: the
    client stops at an OID that does not increase); its triples, in strict
    OID order."""
    r = ks.client.bulkwalk(prefix, reps=20) if bulk else ks.client.walk(prefix)
    assert r.rc == 0 and "not increasing" not in r.err, r
    got = triples(r.varbinds)
    assert_increasing([t[0] for t in got])
    return got


def get_values(ks, oids, who="ro"):
    r = ks.client.get(oids, who)
    assert r.rc == 0, r
    return triples(r.varbinds)


def uptime(ks):
    """sysUpTime.0: snmpd's, or the standalone agent's own."""
    return ks.client.value(h.SYS_UPTIME)


def index_of(indexes, words):
    """The SNMP index of a key in words, per docs/mib-layout.md: integer
    and uint32 one sub-identifier, ipv4 its four octets, inet-address its
    InetAddressType, length and octets, mac six octets, string its length
    and octets."""
    out = []
    for x, w in zip(indexes, words):
        t = x["type"]
        if t in ("integer", "uint32"):
            out.append(w)
        elif t == "ipv4":
            out += list(ipaddress.IPv4Address(w).packed)
        elif t == "inet-address":
            a = ipaddress.ip_address(w)
            out += [1 if a.version == 4 else 2, len(a.packed)] + list(a.packed)
        elif t == "mac":
            out += [int(b, 16) for b in w.split(":")]
        else:
            out += [len(w)] + list(w.encode("ascii"))
    return out


def tunnel_done_when(ks):
    """pkts instances of 10.0.0.1/0xdeadbeef and 2001:db8::1/7: keys 0 and 3."""
    col = ks.keys.entry("tunnel") + ".1"
    return (col + ".1.4.10.0.0.1.3735928559",
            col + ".2.16.32.1.13.184.0.0.0.0.0.0.0.0.0.0.0.1.7")


# ---- the tests ----

def test_every_key_is_its_documented_index(ks):
    tables = ks.expect.keyed
    assert sorted(tables) == ["host", "session", "station", "tunnel", "user"]
    types = {g: [x["type"] for x in t["indexes"]] for g, t in tables.items()}
    assert types == {"tunnel": ["inet-address", "uint32"], "station": ["mac"],
                     "user": ["string", "integer"], "host": ["ipv4"],
                     "session": ["uint32"]}
    for g, t in tables.items():
        assert len(t["keys"]) == STATIC_KEYS, g
        for k in t["keys"]:
            assert k["index"] == index_of(t["indexes"], k["key"]), (g, k)
    tun = {k["number"]: k["key"] for k in tables["tunnel"]["keys"]}
    assert tun[0] == ["10.0.0.1", 3735928559] and tun[3] == ["2001:db8::1", 7]
    # a mix of IPv4 and IPv6 peers, strings of many lengths, both MAC kinds
    assert {len(k["index"]) for k in tables["tunnel"]["keys"]} == {7, 19}
    assert len({k["index"][0] for k in tables["user"]["keys"]}) >= 10
    assert {k["key"][0][:2] for k in tables["station"]["keys"]} == {"02", "0a"}


def test_done_when_tunnel_keys(ks):
    k = ks.keys
    v4, v6 = tunnel_done_when(ks)
    col = k.entry("tunnel") + ".1"
    # snmpbulkwalk without -Cc: net-snmp itself checks that OIDs increase
    got = walk_checked(ks, col)
    assert not mismatches(got, k.under(col))
    served = {o: (t, v) for o, t, v in got}
    assert served[v4] == k.objects[v4] and served[v6] == k.objects[v6]
    assert served[v4][0] == "Counter64" and served[v4][1] > 2 ** 32
    # GET by key, every column of both rows
    rows = k.row("tunnel", 0) + k.row("tunnel", 3)
    want = [(o,) + k.objects[o] for o in rows]
    assert not mismatches(get_values(ks, rows), want)
    # keys not present: next to the present ones, and one of a peer absent
    absent = [col + ".1.4.10.0.0.1.3735928558", col + ".1.4.10.0.0.2.3735928559",
              col + ".2.16.32.1.13.184.0.0.0.0.0.0.0.0.0.0.0.2.7"]
    assert [t for _, t, _ in get_values(ks, absent)] == ["noSuchInstance"] * 3
    # a known step, so that an insert after the remove shows a row from zero
    before = k.objects[v4][1]
    assert ks.writer.command("add tunnel pkts 0 1000") == []
    assert get_values(ks, [v4]) == [(v4, "Counter64", before + 1000)]
    disc = k.instance("tunnel", COL_DISC, k.present["tunnel"][0]["index"])
    ks.remove("tunnel", 0)
    assert {t for _, t, _ in get_values(ks, rows[:5])} == {"noSuchInstance"}
    got = walk_checked(ks, k.entry("tunnel"))
    assert not [t for t in got if ".1.4.10.0.0.1.3735928559" in t[0]]
    assert not mismatches(got, k.under(k.entry("tunnel")))
    # the re-inserted key restarts from zero, then counts what it is given
    h.wait_for(lambda: uptime(ks) > 1, 10, "sysUpTime to advance")
    ks.insert("tunnel", 0)
    want = [(o,) + k.objects[o] for o in rows]
    assert not mismatches(get_values(ks, rows), want)
    assert get_values(ks, [v4]) == [(v4, "Counter64", before)]
    _, typ, moved = get_values(ks, [disc])[0]
    assert typ == "Timeticks" and 0 < moved <= uptime(ks)


def test_every_table_walks_in_oid_order_with_exact_values(ks):
    k = ks.keys
    for g in k.tables:
        prefix = "%s.1.%d" % (k.root, k.tables[g]["arc"])
        got = walk_checked(ks, prefix)
        want = k.under(prefix)
        assert len(got) == len(k.columns[g]) * len(k.present[g])
        assert not mismatches(got, want), g
    # GETNEXT one by one (snmpwalk) over the whole module: every table, the
    # scalar group before them and the integer-indexed table after
    got = walk_checked(ks, k.root, bulk=False)
    assert not mismatches(got, k.under(k.root))


def getnext_cases(k, rng):
    """OIDs in the middle of keys, in every keyed table: prefixes of a
    key, keys just before and after present ones, below an instance, past
    a prefix, past the last, and odd values for each index type."""
    cases = []
    for g, t in k.tables.items():
        indexes = sorted((v["index"] for v in k.present[g].values()), key=tuple)
        picks = [indexes[0], indexes[-1]] + rng.sample(indexes, 6)
        for col in (k.columns[g][0], k.columns[g][-1]):
            base = [int(x) for x in ("%s.%d" % (k.entry(g), col)).split(".")]
            cases.append(base)
            for idx in picks:
                for i in range(1, len(idx)):
                    cases.append(base + idx[:i])
                    if idx[i - 1] < MAX_SUBID:
                        cases.append(base + idx[:i - 1] + [idx[i - 1] + 1])
                if idx[-1] > 0:
                    cases.append(base + idx[:-1] + [idx[-1] - 1])
                if idx[-1] < MAX_SUBID:
                    cases.append(base + idx[:-1] + [idx[-1] + 1])
                cases.append(base + idx + [0])
            cases.append(base + [MAX_SUBID])
            cases.append(base + [255] * 8)
            kinds = [x["type"] for x in t["indexes"]]
            if kinds[0] == "inet-address":
                cases += [base + [0], base + [1, 4, 255, 255, 255, 255, MAX_SUBID],
                          base + [1, 5], base + [2, 15], base + [2, 16, 32, 1, 13, 185],
                          base + [3]]
            if kinds[0] == "uint32":
                cases += [base + [2 ** 31 - 1], base + [2 ** 31], base + [2 ** 31 + 1],
                          base + [3735928559], base + [MAX_SUBID - 1]]
            if kinds[0] == "string":
                cases += [base + [0], base + [17], base + [2, 48], base + [1, 127]]
        cases.append([int(x) for x in k.entry(g).split(".")])
    return [".".join(map(str, c)) for c in cases]


def test_getnext_from_inside_keys(ks):
    k = ks.keys
    instances = sorted(k.objects, key=oid_key)
    ordered = [oid_key(o) for o in instances]
    cases = getnext_cases(k, random.Random(2026))
    assert len(cases) > 500
    bad = []
    for i in range(0, len(cases), 100):
        chunk = cases[i:i + 100]
        r = ks.client.getnext(chunk)
        assert r.rc == 0 and len(r.varbinds) == len(chunk), r
        for q, vb in zip(chunk, r.varbinds):
            at = bisect.bisect_right(ordered, oid_key(q))
            want = instances[at] if at < len(instances) else None
            if want is None:
                if vb.oid.startswith(k.root + "."):
                    bad.append((q, vb, "past the module"))
                continue
            typ, value = k.objects[want]
            if vb.oid != want or vb.type != typ or value not in (None, vb.value):
                bad.append((q, vb, want))
    assert not bad, bad[:5]


def test_reset_one_row_by_key(ks):
    k = ks.keys
    h.wait_for(lambda: uptime(ks) > 1, 10, "sysUpTime to advance")
    for g in k.tables:
        row, other = k.row(g, 5), k.row(g, 6)
        index = k.present[g][5]["index"]
        reset = k.instance(g, COL_RESET, index)
        disc = k.instance(g, COL_DISC, index)
        other_disc = k.instance(g, COL_DISC, k.present[g][6]["index"])
        before = dict((o, v) for o, _, v in get_values(ks, row + other))
        r = ks.client.set(reset, "i", 1)
        assert r.rc == 0 and r.error is None, (g, r)
        after = {o: (t, v) for o, t, v in get_values(ks, row + other)}
        for o in row:
            typ, value = after[o]
            if o == reset:
                assert value == 2, o        # reads false(2) always
            elif o == disc:
                assert before[o] < value <= uptime(ks), o
            elif typ == "Gauge32":
                assert value == before[o] and value > 0, o   # a level stays
            else:
                assert value == 0, (o, typ, value)
        assert after[other_disc][1] == before[other_disc]
        assert not mismatches([(o,) + after[o] for o in other],
                              [(o,) + k.objects[o] for o in other])
        ks.renew(g, [5])
        assert not mismatches(get_values(ks, row), [(o,) + k.objects[o] for o in row])


def test_sets_on_absent_or_malformed_keys(ks):
    k = ks.keys
    probes = ks.expect.absent
    assert len(probes) == 20
    assert {t for _, t, _ in get_values(ks, probes)} == {"noSuchInstance"}
    tun, usr, sta, ses = (k.entry(g) + ".%d" % COL_RESET for g in
                          ("tunnel", "user", "station", "session"))
    malformed = [
        tun + ".1.16.10.0.0.1.0.0.0.0.0.0.0.0.0.0.0.0.7",   # IPv4 of 16 octets
        tun + ".2.4.10.0.0.1.7",                           # IPv6 of 4
        tun + ".3.4.10.0.0.1.7",                           # ipv4z: not served
        tun + ".1.4.10.0.0.1",                             # teid missing
        tun + ".1.4.10.0.0.1.3735928559.0",                # one too many
        tun + ".1.4.10.0.0.256.3735928559",                # not an octet
        usr + ".0.1",                                      # empty string
        usr + ".17." + ".".join(["97"] * 17) + ".1",       # longer than its size
        usr + ".1.7.1",                                    # not printable
        usr + ".1.48.5",                                   # port out of 1..4
        sta + ".2.0.94.0.0",                               # five octets
        ses + ".3735928558",                               # absent uint32
    ]
    assert {t for _, t, _ in get_values(ks, malformed)} == {"noSuchInstance"}
    for oid in malformed:
        r = ks.client.set(oid, "i", 1)
        assert r.error == "noCreation", (oid, r)


def test_reset_whole_table_scalar_group_and_all(ks):
    k = ks.keys
    stat = os.environ["FASTMIB_STAT"]
    # a whole keyed table, by fastmib-stat --reset GROUP: every row, one
    # instant; the other tables keep their values
    before = {o: v for o, t, v in walk_checked(ks, k.entry("station")) if t == "Timeticks"}
    r = subprocess.run([stat, ks.segment, "--reset", "station", "-y"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "%d row(s)" % STATIC_KEYS in r.stdout, r
    got = walk_checked(ks, k.entry("station"))
    assert [o for o, _, _ in got] == [o for o, _, _ in k.under(k.entry("station"))]
    assert {v for o, t, v in got if t == "Counter64"} == {0}
    # every row's discontinuity moved: it was 0 (inserted before the agent
    # started) or the time of a renew a moment ago
    stale = [(o, before[o], v) for o, t, v in got
             if t == "Timeticks" and (v == 0 or v < before[o])]
    assert not stale, stale[:3]
    for g in ("tunnel", "user", "host", "session"):
        assert not mismatches(walk_checked(ks, k.entry(g)), k.under(k.entry(g))), g
    ks.renew("station", sorted(k.present["station"]))
    assert not mismatches(walk_checked(ks, k.entry("station")), k.under(k.entry("station")))
    # the scalar group's reset leaves every keyed row alone
    glob = ["%s.1.1.%d.0" % (k.root, c) for c in (1, 2)]
    assert ks.client.set("%s.1.1.%d.0" % (k.root, COL_RESET), "i", 1).rc == 0
    assert [v for _, _, v in get_values(ks, glob)] == [0, 0]
    for g in k.tables:
        assert not mismatches(walk_checked(ks, k.entry(g)), k.under(k.entry(g))), g
    # ResetAll: every counter of every row, gauges kept, every row's
    # discontinuity the module's
    assert ks.client.set(k.root + ".2.1.0", "i", 1).rc == 0
    module_disc = ks.client.value(k.root + ".2.2.0")
    assert module_disc > 0
    for g in k.tables:
        got = walk_checked(ks, k.entry(g))
        assert len(got) == len(k.under(k.entry(g)))
        for (o, t, v), (wo, wt, wv) in zip(got, k.under(k.entry(g))):
            assert (o, t) == (wo, wt)
            if t in ("Counter64", "Counter32"):
                assert v == 0, o
            elif t == "Gauge32":
                assert v == wv, o
            elif t == "Timeticks":
                assert v == module_disc, o
    ks.fresh()
    for g in k.tables:
        g_entry = ks.keys.entry(g)
        assert not mismatches(walk_checked(ks, g_entry), ks.keys.under(g_entry)), g


def test_mib_shows_decoded_indexes(ks):
    """snmpget -OX and snmptable with the generated MIB (and the test
    stand-in INET-ADDRESS-MIB): indexes as net-snmp decodes them from the
    INDEX clause. InetAddress has no DISPLAY-HINT, so net-snmp shows its
    octets as text, non-printable ones as dots."""
    k = ks.keys
    v4, v6 = tunnel_done_when(ks)
    pkts4, pkts6 = k.objects[v4][1], k.objects[v6][1]
    r = ks.client.run("snmpget", [v4, v6], use_mib=True, fmt=("-OX",))
    assert r.rc == 0, r
    assert r.out.splitlines() == [
        'KEYED-SERVING-TEST-MIB::ksTunnelPkts[ipv4]["...."][3735928559] = '
        'Counter64: %d packets' % pkts4,
        'KEYED-SERVING-TEST-MIB::ksTunnelPkts[ipv6][" ..............."][7] = '
        'Counter64: %d packets' % pkts6]
    # one key of each other index type, printed as its syntax says
    others = [("host", 0, "ksHostPkts[10.0.0.1]", " packets"),
              ("station", 0, "ksStationFrames[STRING: 2:0:5e:0:0:0]", " frames"),
              ("user", 2, "ksUserLogins[STRING: 1bcdefgh][3]", ""),
              ("session", 2, "ksSessionPkts[4294967295]", " packets")]
    oids = [k.row(g, n)[0] for g, n, _, _ in others]
    r = ks.client.run("snmpget", oids, use_mib=True, fmt=("-OX",))
    assert r.rc == 0, r
    assert r.out.splitlines() == ["%s::%s = Counter64: %d%s" % (
        MODULE, name, k.objects[o][1], units) for o, (_, _, name, units) in zip(oids, others)]
    res, cols, rows = ks.client.table(MODULE + "::ksTunnelTable")
    assert res.rc == 0, res
    assert cols == ["index", "ksTunnelPkts", "ksTunnelBytes", "ksTunnelDrops",
                    "ksTunnelReset", "ksTunnelDiscontinuityTime"]
    assert len(rows) == len(k.present["tunnel"])
    by_index = {row[0]: row for row in rows}
    assert by_index['ipv4."....".3735928559'][1:4] == [
        str(k.objects[o][1]) for o in k.row("tunnel", 0)[:3]]
    assert by_index['ipv6." ...............".7'][1:4] == [
        str(k.objects[o][1]) for o in k.row("tunnel", 3)[:3]]


def test_walks_during_churn(ks):
    """While fm-writer inserts and removes keys of every table without a
    pause (churn), walks (GETBULK and GETNEXT) never go backwards or repeat
    an OID, show only keys that were present at some point with their own
    values (0 for a key caught between its insert and its first counts),
    and every key that stays is there with its exact values. A value read
    without a consistent snapshot is the one exception the contract allows,
    counted in BestEffortReads (the writer preempted inside a row enable,
    on a busy machine): a value of no key is tolerated only as often as
    that counter grew."""
    k = ks.keys
    tables = sorted(k.tables)
    churned = (STATIC_KEYS, STATIC_KEYS + 80)
    best_effort = k.root + ".2.4.0"
    counted = ks.client.value(best_effort)
    values = {}              # (table, index) -> {column: (type, value)}
    walks = []
    try:
        for c in ks.writer.command("churn 60000 %d %d" % churned):
            k.ever[c["group"]].add(tuple(c["index"]))
            values[c["group"], tuple(c["index"])] = {
                int(o["oid"][len(k.entry(c["group"])) + 1:].split(".")[0]):
                (o["type"], int(o["value"])) for o in c["objects"]}
        for _ in range(2):
            for g in tables:
                walks.append((g, ks.client.bulkwalk(k.entry(g), reps=10)))
            walks.append(("tunnel", ks.client.walk(k.entry("tunnel"))))
    finally:
        assert ks.writer.command("join") == []
    odd, seen = [], 0
    for g, r in walks:
        assert r.rc == 0 and "not increasing" not in r.err, r
        got = triples(r.varbinds)
        assert_increasing([o for o, _, _ in got])
        pre = k.entry(g) + "."
        for o, typ, v in got:
            col, *index = [int(x) for x in o[len(pre):].split(".")]
            assert o.startswith(pre) and tuple(index) in k.ever[g], (g, o)
            if (g, tuple(index)) not in values:      # a key present all along
                want = k.objects[o]
                assert typ == want[0] and want[1] in (None, v), (o, typ, v, want)
                continue
            seen += 1
            want_t, want_v = values[g, tuple(index)][col]
            # its own values, or 0 between its insert and its first counts
            allowed = {COL_RESET: (2,), COL_DISC: (v,)}.get(col, (0, want_v))
            assert typ == want_t, (o, typ, want_t)
            if v not in allowed:
                odd.append((o, v, want_v))
        stayed = {o for o in k.objects if o.startswith(pre)}
        assert stayed <= {o for o, _, _ in got}, sorted(stayed - {o for o, _, _ in got})[:3]
    assert seen > 0, "no churned key was seen by the walks"
    assert len(odd) <= ks.client.value(best_effort) - counted, odd
    # the churned keys leave; what stays is exact
    for g in tables:
        for n in range(*churned):
            ks.remove(g, n)
        assert not mismatches(walk_checked(ks, k.entry(g)), k.under(k.entry(g))), g


def damage(path, offset, data):
    """Write bytes into the file at offset, as a hostile hand would."""
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def word(v, n=4):
    return v.to_bytes(n, "little")


def test_hostile_key_records_logs_and_header(ks):
    """Key records, change logs and the header's keys area rewritten with
    garbage while the segment is served: the damaged keys are absent, no
    garbage key is served, walks stay in order and end, every other row
    keeps its exact values, the agent keeps answering; a replaced file whose
    header is damaged is refused with a log line naming it and the field."""
    k, lay, seg = ks.keys, ks.expect.layout, ks.segment
    rng = random.Random(11)
    rec = {}
    for g, n in (("tunnel", 5), ("tunnel", 6), ("tunnel", 9), ("user", 4), ("user", 7),
                 ("station", 3), ("host", 2), ("session", 1)):
        rec[g, n] = k.present[g][n]["record"]
    damage(seg, rec["tunnel", 5]["len"], word(0xffff))          # past its record
    damage(seg, rec["tunnel", 6]["key"], bytes([7]))           # an address type never served
    damage(seg, rec["tunnel", 9]["key"] + 1, bytes([16]))      # IPv4 of 16 octets
    damage(seg, rec["user", 4]["key"], bytes([200]))           # longer than the string's size
    damage(seg, rec["user", 7]["key"] + 1, b"\x01")            # not printable
    damage(seg, rec["station", 3]["seq"], word(3))             # rewritten forever (odd)
    size = lay["tables"]["host"]["record_size"]                # garbage, length and all
    junk = bytearray(rng.getrandbits(8) for _ in range(size))
    junk[4:8] = word(0x10000 + rng.getrandbits(16))
    damage(seg, rec["host", 2]["seq"], bytes(junk))
    damage(seg, rec["session", 1]["len"], word(3))             # shorter than a uint32
    for g, n in rec:
        for o in k.row(g, n):
            k.objects.pop(o)

    def all_exact():
        for g in k.tables:
            assert not mismatches(walk_checked(ks, k.entry(g)), k.under(k.entry(g))), g
        gone = [k.instance(g, 1, k.present[g][n]["index"]) for g, n in rec]
        assert {t for _, t, _ in get_values(ks, gone)} == {"noSuchInstance"}

    all_exact()
    # change logs: rows out of the table, absent, present and damaged ones;
    # then a head that ran far ahead (a rebuild from the records)
    tun, usr = lay["tables"]["tunnel"], lay["tables"]["user"]
    with open(seg, "rb") as f:
        f.seek(tun["head"])
        head = int.from_bytes(f.read(8), "little")
    rows = [1 << 30, 0xffffffff, 1000, 1023] + [k.present["tunnel"][n]["row"]
                                                for n in (0, 5, 6, 7, 8)]
    for i in range(50):
        at = tun["entries"] + 4 * ((head + i) % tun["n_entries"])
        damage(seg, at, word(rows[i % len(rows)]))
    damage(seg, tun["head"], word(head + 50, 8))
    damage(seg, usr["entries"], bytes(rng.getrandbits(8) for _ in range(4 * usr["n_entries"])))
    damage(seg, usr["head"], word(2 ** 64 - 2, 8))
    all_exact()
    # the tables still take keys, logged after the garbage
    for g in ("tunnel", "user"):
        ks.insert(g, 200)
        all_exact()
        ks.remove(g, 200)
    all_exact()
    # the header's keys area, in place: the agent checked it at attach and
    # keeps its own layout; a reader attaching now refuses the file
    hdr = lay["header_keys"]
    damage(seg, hdr["offset"], bytes(rng.getrandbits(8) for _ in range(hdr["size"])))
    all_exact()
    r = subprocess.run([os.environ["FASTMIB_STAT"], seg], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode != 0 and seg in r.stderr and "keys area" in r.stderr, r
    # ... and a file with that header put in its place: refused, named
    copy = seg + ".damaged"
    shutil.copyfile(seg, copy)
    os.chmod(copy, os.stat(seg).st_mode & 0o777)
    os.rename(copy, seg)
    h.wait_for(lambda: [ln for ln in ks.agent.read_log().splitlines()
                        if "segment refused" in ln and seg in ln and "keys area" in ln],
               20, "the damaged segment refused")
    assert ks.agent.alive()
    other = ks.other_expect
    assert get_values(ks, [other.objects[0][0]]) == [other.objects[0]]
    assert ks.client.answers()                # sysUpTime.0
    r = ks.client.getnext([k.root])
    assert r.error == "genError", r     # a walk into it does not end silently
    ks.fresh()
    all_oids = ks.keys.under(ks.keys.root)
    assert not mismatches(walk_checked(ks, ks.keys.root, bulk=True), all_oids)
