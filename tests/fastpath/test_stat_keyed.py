# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat on keyed tables, exactly: segments of the keyed test model
(KEYED-TEST-MIB, prefix kt) that mkkeyed fills with the keys and values
given. Rows are named by their keys everywhere: text cells, JSON keys
(typed), --sort in SNMP order, --reset GROUP/KEY; --watch rates follow a
key, not a row; hostile key records are absent rows, never a crash; the
outputs without --sort stream (memory independent of the table's size)."""
import json
import os
import subprocess
import sys

import pytest

from statrun import STAT, stat, tell, text
import statrun

MKKEYED = os.environ["FASTMIB_MKKEYED"]

# inserted out of SNMP order on purpose
ROWS = [
    "tunnel/2001:db8::1,7", "pkts=9", "bytes=900",
    "tunnel/10.0.0.2,1", "pkts=20", "bytes=2000",
    "tunnel/10.0.0.1,3735928559", "pkts=5", "bytes=500",
    "tunnel/9.0.0.1,1", "pkts=1", "bytes=100",
    "tunnel/::1,2", "pkts=30", "bytes=3000",
    "host/192.168.1.9", "sessions=4", "drops=3",
    "station/02:ab:cd:ef:00:02", "frames=4",
    "station/02:00:00:00:00:01", "frames=3",
    "customer/a\\,b c,2", "octets=5",
    "customer/eth0,1", "octets=77",
    "customer/q\"\\\\x,3", "octets=2",
    "peerQueue/10.0.0.1,3", "pkts=6", "backlog=2",
    "global.pkts=11",
]


def make(path, args, hold=False):
    return statrun.make(MKKEYED, path, args, hold)


@pytest.fixture(scope="module")
def seg(tmp_path_factory):
    path = make(tmp_path_factory.mktemp("keyed") / "seg", ROWS)
    yield path
    os.unlink(path)


@pytest.fixture
def fresh(tmp_path):
    """A segment of its own, for a test that changes it."""
    return make(tmp_path / "seg", ROWS)


def test_text_rows_by_key_in_snmp_order(seg):
    assert stat(seg, "--match", "tunnel", "--match", "host", "--match", "station",
                "--match", "customer", "--match", "peerQueue").stdout == text(f"""
        KEYED-TEST-MIB  {seg}  generation 1  writer gone

        tunnel: 5 of 65536 rows present
          ktTunnelPeer ktTunnelTeid ktTunnelPkts[packets] ktTunnelBytes[octets]
               9.0.0.1            1                     1                   100
              10.0.0.1   3735928559                     5                   500
              10.0.0.2            1                    20                  2000
                   ::1            2                    30                  3000
           2001:db8::1            7                     9                   900

        peerQueue: 1 of 4096 rows present
          ktPeerQueuePeerAddr ktPeerQueueQueue ktPeerQueuePkts[packets] ktPeerQueueBacklog
                     10.0.0.1                3                        6                  2

        host: 1 of 1024 rows present
           ktHostAddr ktHostSessions ktHostDrops[packets]
          192.168.1.9              4                    3

        station: 2 of 256 rows present
               ktStationMac ktStationFrames[frames]
          02:00:00:00:00:01                       3
          02:ab:cd:ef:00:02                       4

        customer: 3 of 1000 rows present
          ktCustomerCustomerName ktCustomerVlan ktCustomerOctets[octets]
                            eth0              1                       77
                         q"\\x5cx              3                        2
                           a,b c              2                        5
        """)


def test_raw(seg):
    """--raw: a blank inside a cell \\x20, a backslash \\x5c, as libsmartcols
    writes them (the sorted output goes through it: the same bytes)."""
    want = text("""
        ktCustomerCustomerName ktCustomerVlan ktCustomerOctets[octets]
        eth0 1 77
        q"\\x5cx 3 2
        a,b\\x20c 2 5
        """)
    assert stat(seg, "--raw", "--match", "customer").stdout == want
    assert stat(seg, "--raw", "--match", "customer", "--sort", "+vlan").stdout != want
    assert stat(seg, "--raw", "--match", "customer", "--sort", "+customerName").stdout == want


def test_streamed_cells_as_libsmartcols_writes_them(tmp_path):
    """A table printed a range at a time (no --sort) escapes its cells as
    libsmartcols escapes the sorted output's: a backslash as it is, but
    before an 'x' as \\x5c; with --raw every backslash and blank."""
    seg = make(tmp_path / "seg", ["customer/a\\\\b,4", "octets=1",
                                  'customer/q"\\\\x y,3', "octets=2"])

    def rows(*args):
        return stat(seg, "--match", "customer", *args).stdout.splitlines()[3:]

    assert rows() == rows("--sort", "+customerName") == [
        "  ktCustomerCustomerName ktCustomerVlan ktCustomerOctets[octets]",
        "                     a\\b              4                        1",
        '               q"\\x5cx y              3                        2']
    raw = stat(seg, "--raw", "--match", "customer").stdout
    assert raw == stat(seg, "--raw", "--match", "customer", "--sort",
                       "+customerName").stdout
    assert raw.splitlines()[1:] == ["a\\x5cb 4 1", 'q"\\x5cx\\x20y 3 2']


def test_json_keys_typed(seg):
    doc = json.loads(stat(seg, "--json").stdout)
    t = doc["groups"]["tunnel"]
    assert t["indexes"] == ["ktTunnelPeerType", "ktTunnelPeer", "ktTunnelTeid"]
    assert t["rows_max"] == 65536 and t["rows_present"] == 5
    assert [r["key"] for r in t["rows"]] == [
        {"ktTunnelPeerType": "ipv4", "ktTunnelPeer": "9.0.0.1", "ktTunnelTeid": 1},
        {"ktTunnelPeerType": "ipv4", "ktTunnelPeer": "10.0.0.1", "ktTunnelTeid": 3735928559},
        {"ktTunnelPeerType": "ipv4", "ktTunnelPeer": "10.0.0.2", "ktTunnelTeid": 1},
        {"ktTunnelPeerType": "ipv6", "ktTunnelPeer": "::1", "ktTunnelTeid": 2},
        {"ktTunnelPeerType": "ipv6", "ktTunnelPeer": "2001:db8::1", "ktTunnelTeid": 7}]
    # the SNMP index: the instance OID's sub-identifiers after the column
    assert t["rows"][1]["index"] == [1, 4, 10, 0, 0, 1, 3735928559]
    assert t["rows"][4]["index"] == [2, 16, 32, 1, 13, 184] + [0] * 11 + [1, 7]
    assert [r["counters"] for r in t["rows"]][:2] == [
        {"ktTunnelPkts": 1, "ktTunnelBytes": 100}, {"ktTunnelPkts": 5, "ktTunnelBytes": 500}]
    # rows are the ones the keys were given, in insert order
    assert sorted(r["row"] for r in t["rows"]) == [0, 1, 2, 3, 4]
    assert t["rows"][4]["row"] == 0
    assert [r["key"] for r in doc["groups"]["customer"]["rows"]] == [
        {"ktCustomerCustomerName": "eth0", "ktCustomerVlan": 1},
        {"ktCustomerCustomerName": 'q"\\x', "ktCustomerVlan": 3},
        {"ktCustomerCustomerName": "a,b c", "ktCustomerVlan": 2}]
    assert doc["groups"]["station"]["rows"][1]["key"] == {"ktStationMac": "02:ab:cd:ef:00:02"}
    assert doc["groups"]["host"]["rows"][0]["key"] == {"ktHostAddr": "192.168.1.9"}
    assert doc["groups"]["host"]["rows"][0]["counters"] == {"ktHostSessions": 4,
                                                            "ktHostDrops": 3}
    assert doc["groups"]["peerQueue"]["indexes"] == [
        "ktPeerQueuePeerAddrType", "ktPeerQueuePeerAddr", "ktPeerQueueQueue"]
    assert doc["groups"]["peerQueue"]["rows"][0]["key"] == {
        "ktPeerQueuePeerAddrType": "ipv4", "ktPeerQueuePeerAddr": "10.0.0.1",
        "ktPeerQueueQueue": 3}
    # a table of integer indexes keeps its form
    assert doc["groups"]["port"]["rows"][0] == {"row": 0, "index": [1],
                                                "counters": {"ktPortPkts": 0}}


def test_json_streamed_is_the_whole_document(seg):
    """Streamed (no --sort) and built whole (--sort in the same order): the
    same bytes but the time."""
    def body(*args):
        return [ln for ln in stat(seg, "--json", *args).stdout.splitlines()
                if not ln.lstrip().startswith('"time"')]

    assert body("--match", "tunnel") == body("--match", "tunnel", "--sort", "+peer")
    assert body("--match", "customer") == body("--match", "customer", "--sort",
                                               "+customerName")


def test_sort_by_key_column(seg):
    def peers(*args):
        doc = json.loads(stat(seg, "--json", "--match", "tunnel", *args).stdout)
        return [(r["key"]["ktTunnelPeer"], r["key"]["ktTunnelTeid"])
                for r in doc["groups"]["tunnel"]["rows"]]

    snmp = [("9.0.0.1", 1), ("10.0.0.1", 3735928559), ("10.0.0.2", 1), ("::1", 2),
            ("2001:db8::1", 7)]
    assert peers() == snmp
    assert peers("--sort", "peer") == snmp         # indexes: smallest first
    assert peers("--sort", "-ktTunnelPeer") == snmp[::-1]
    # by teid: ties in SNMP order
    assert peers("--sort", "teid") == [("9.0.0.1", 1), ("10.0.0.2", 1), ("::1", 2),
                                       ("2001:db8::1", 7), ("10.0.0.1", 3735928559)]
    assert peers("--sort", "pkts") == [("::1", 2), ("10.0.0.2", 1), ("2001:db8::1", 7),
                                       ("10.0.0.1", 3735928559), ("9.0.0.1", 1)]
    assert peers("--top", "2") == [("::1", 2), ("10.0.0.2", 1)]
    assert peers("--rows", "2") == snmp[:2]
    # strings: the length first, as in the OIDs
    doc = json.loads(stat(seg, "--json", "--match", "customer", "--sort",
                          "-customer.customerName").stdout)
    assert [r["key"]["ktCustomerCustomerName"] for r in doc["groups"]["customer"]["rows"]] \
        == ["a,b c", 'q"\\x', "eth0"]


def test_output_columns(seg):
    assert stat(seg, "--output", "peer,pkts", "--rows", "3").stdout == text(f"""
        KEYED-TEST-MIB  {seg}  generation 1  writer gone

        tunnel: 5 of 65536 rows present, 3 shown
          ktTunnelPeer ktTunnelPkts[packets]
               9.0.0.1                     1
              10.0.0.1                     5
              10.0.0.2                    20

        peerQueue: 1 of 4096 rows present
          ktPeerQueuePeerAddr ktPeerQueueQueue ktPeerQueuePkts[packets]
                     10.0.0.1                3                        6

        port: 4 of 4 rows present, 3 shown
          ktPortPortId ktPortPkts[packets]
                     1                   0
                     2                   0
                     3                   0
        """)


def test_match_counters_of_keyed_tables(seg):
    """--match keeps counters of keyed tables as of any table: the key's
    columns stay, the other counters go, in text and in JSON."""
    assert stat(seg, "--match", "*bytes*", "--raw").stdout == text("""
        ktTunnelPeer ktTunnelTeid ktTunnelBytes[octets]
        9.0.0.1 1 100
        10.0.0.1 3735928559 500
        10.0.0.2 1 2000
        ::1 2 3000
        2001:db8::1 7 900
        """)
    doc = json.loads(stat(seg, "--json", "--match", "tunnel.bytes").stdout)
    assert list(doc["groups"]) == ["tunnel"]
    assert doc["groups"]["tunnel"]["rows"][0] == {
        "row": 3, "index": [1, 4, 9, 0, 0, 1, 1],
        "key": {"ktTunnelPeerType": "ipv4", "ktTunnelPeer": "9.0.0.1", "ktTunnelTeid": 1},
        "counters": {"ktTunnelBytes": 100}}


def test_watch_json(tmp_path):
    """--watch --json: one compact document per line, keyed rows with their
    keys, values as they change."""
    path = tmp_path / "seg"
    writer = make(path, ["tunnel/10.0.0.1,1", "pkts=100"], hold=True)
    watch = subprocess.Popen([STAT, str(path), "--watch", "0.2", "--json", "--match",
                              "tunnel"], stdout=subprocess.PIPE, text=True)
    try:
        first = json.loads(watch.stdout.readline())
        rows = first["groups"]["tunnel"]["rows"]
        assert [(r["key"]["ktTunnelPeer"], r["counters"]["ktTunnelPkts"]) for r in rows] \
            == [("10.0.0.1", 100)]
        tell(writer, "tunnel/2001:db8::5,5", "pkts=7")
        for line in watch.stdout:
            rows = json.loads(line)["groups"]["tunnel"]["rows"]
            if len(rows) == 2:
                break
        assert [(r["key"]["ktTunnelPeerType"], r["key"]["ktTunnelPeer"],
                 r["counters"]["ktTunnelPkts"]) for r in rows] == [
            ("ipv4", "10.0.0.1", 100), ("ipv6", "2001:db8::5", 7)]
    finally:
        watch.terminate()
        watch.wait(10)
        writer.stdin.close()
        writer.wait(30)


def values(path, group, counter):
    doc = json.loads(stat(path, "--json", "--match", group).stdout)
    return {tuple(r["key"].values()): r["counters"][counter]
            for r in doc["groups"][group]["rows"]}


def test_reset_by_key(fresh):
    r = stat(fresh, "--reset", "tunnel/10.0.0.1,3735928559")
    assert r.stdout == "reset %s: tunnel/10.0.0.1,3735928559\n" % fresh
    got = values(fresh, "tunnel", "ktTunnelPkts")
    assert got[("ipv4", "10.0.0.1", 3735928559)] == 0
    assert got[("ipv4", "10.0.0.2", 1)] == 20 and got[("ipv6", "2001:db8::1", 7)] == 9
    # an IPv6 key in any form; the separate-word form; -y
    stat("--reset", "tunnel/2001:0db8:0::1,7", "-y", fresh)
    assert values(fresh, "tunnel", "ktTunnelPkts")[("ipv6", "2001:db8::1", 7)] == 0
    # a string with an escaped comma; a MAC in capitals
    stat(fresh, "--reset=customer/a\\,b c,2")
    assert values(fresh, "customer", "ktCustomerOctets") == {
        ("eth0", 1): 77, ('q"\\x', 3): 2, ("a,b c", 2): 0}
    stat(fresh, "--reset", "station/02:AB:CD:EF:00:02")
    assert values(fresh, "station", "ktStationFrames") == {
        ("02:00:00:00:00:01",): 3, ("02:ab:cd:ef:00:02",): 0}
    # a table of integer indexes, by index as ever; a whole keyed table
    stat(fresh, "--reset", "port.2")
    stat(fresh, "--reset", "peerQueue")
    assert values(fresh, "peerQueue", "ktPeerQueuePkts") == {("ipv4", "10.0.0.1", 3): 0}


def untimed(out):
    return [ln for ln in out.splitlines() if not ln.lstrip().startswith('"time"')]


@pytest.mark.parametrize("target, status, message", [
    ("tunnel/10.0.0.300,7", 2,
     "fastmib-stat: group tunnel: '10.0.0.300' is not an IPv4 address for index peer\n"),
    ("tunnel/10.0.0.1", 2,
     "fastmib-stat: group tunnel: '10.0.0.1' is not a key: it takes 2 field(s), joined by "
     "',': peer (inet-address), teid (uint32)\n"),
    ("tunnel/2001:db8::g,1", 2,
     "fastmib-stat: group tunnel: '2001:db8::g' is not an IPv6 address for index peer\n"),
    ("tunnel/10.0.0.1,-7", 2,
     "fastmib-stat: group tunnel: '-7' is not an unsigned 32-bit integer (0..4294967295) "
     "for index teid\n"),
    ("station/02:00:00:00:01", 2,
     "fastmib-stat: group station: '02:00:00:00:01' is not a MAC address (six octets of two "
     "hexadecimal digits joined by ':') for index mac\n"),
    ("customer/a\\b,1", 2,
     "fastmib-stat: group customer: 'a\\b' has a backslash that escapes neither ',' nor "
     "'\\' (write '\\,' for a comma, '\\\\' for a backslash) for index customerName\n"),
    ("peerQueue/10.0.0.1,9", 2,
     "fastmib-stat: group peerQueue: '9' is not an integer 1..8 for index queue\n"),
    ("tunnel.1.4.10.0.0.1.7", 2,
     "fastmib-stat: 'tunnel' is a keyed table: name its row by key, tunnel/KEY, KEY its "
     "fields joined by ',': peer (inet-address), teid (uint32)\n"),
    ("port/1", 2, "fastmib-stat: 'port' is not a keyed table: name its row by index, "
                  "port.I1[.I2...]\n"),
    ("global/1", 2, "fastmib-stat: 'global' is a scalar group: no row index\n"),
    ("nosuch/1", 2, "fastmib-stat: no group 'nosuch' in KEYED-TEST-MIB\n"),
])
def test_reset_bad_targets(fresh, target, status, message):
    before = untimed(stat(fresh, "--json").stdout)
    r = stat(fresh, "--reset", target, check=False)
    assert (r.returncode, r.stderr, r.stdout) == (status, message, "")
    assert untimed(stat(fresh, "--json").stdout) == before


def test_reset_absent_key(fresh):
    r = stat(fresh, "--reset", "tunnel/10.0.0.9,1", check=False)
    assert (r.returncode, r.stderr) == (
        1, "fastmib-stat: %s: group tunnel holds no key '10.0.0.9,1'\n" % fresh)


def frames(proc):
    """The frames of a text --watch of the tunnel table, one at a time as
    each ends (when the next begins): {(peer, teid): counter cell}."""
    cur = None
    for line in proc.stdout:
        if line.startswith("KEYED-TEST-MIB"):
            if cur is not None:
                yield cur
            cur = {}
            continue
        parts = line.split()
        if cur is not None and len(parts) == 4 and not parts[0].startswith("kt") and \
                not parts[0].endswith(":"):
            cur[(parts[0], parts[1])] = parts[2]
    raise AssertionError("fastmib-stat --watch ended")


def test_watch_rates_follow_keys(tmp_path):
    """A key removed and another inserted into its row between two frames:
    the new key has no rate in its first frame (it was not in the last
    one), whatever its row had; a key counting on gets its rate. Matched by
    row number, the new key would show its row's jump as a rate."""
    path = tmp_path / "seg"
    writer = make(path, ["tunnel/10.0.0.1,1", "pkts=100", "tunnel/10.0.0.2,2", "pkts=5"],
                  hold=True)
    watch = subprocess.Popen([STAT, str(path), "--watch", "0.2", "--match", "tunnel"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        it = frames(watch)
        assert next(it) == {("10.0.0.1", "1"): "100", ("10.0.0.2", "2"): "5"}  # values
        assert next(it) == {("10.0.0.1", "1"): "0", ("10.0.0.2", "2"): "0"}    # rates
        # 10.0.0.1 leaves; 10.0.0.3 takes its row (row 0) with a larger value
        said = tell(writer, "-tunnel/10.0.0.1,1", "tunnel/10.0.0.3,3", "pkts=1000000")
        assert said == ["tunnel/10.0.0.3,3 row 0"]
        frame = next(f for f in it if ("10.0.0.1", "1") not in f)
        assert frame[("10.0.0.3", "3")] == "-"
        # then 10.0.0.3 counts on, 10.0.0.2 does not
        tell(writer, "pkts=50")
        frame = next(f for f in it if f[("10.0.0.3", "3")] != "0")
        assert float(frame[("10.0.0.3", "3")]) > 0
        assert frame[("10.0.0.2", "2")] == "0"
    finally:
        watch.terminate()
        watch.wait(10)
        writer.stdin.close()
        writer.wait(30)


def text_keys(out):
    """(first cell, second cell) of every line of a text output."""
    return {tuple(ln.split()[:2]) for ln in out.splitlines() if len(ln.split()) >= 2}


@pytest.mark.parametrize("how, target, gone", [
    ("len", "tunnel/10.0.0.2,1", ("10.0.0.2", 1)),
    ("type", "tunnel/9.0.0.1,1", ("9.0.0.1", 1)),
    ("torn", "tunnel/::1,2", ("::1", 2)),
])
def test_hostile_key_records(tmp_path, how, target, gone):
    """A key record rewritten by a hostile hand, a damaged change log: that
    row is absent from every output, every other row is there, nothing
    crashes, the JSON stays valid; resets by key and of the table work."""
    path = make(tmp_path / "seg", ROWS + ["!" + how, target, "!log", "tunnel",
                                          "!byte", "customer/eth0,1"])
    for args in ((), ("--json",), ("--sort", "peer"), ("--json", "--sort", "-pkts"),
                 ("--raw",), ("--top", "3"), ("--rows", "1")):
        out = stat(path, *args).stdout
        if "--json" in args:
            doc = json.loads(out)
            keys = [(r["key"]["ktTunnelPeer"], r["key"]["ktTunnelTeid"])
                    for r in doc["groups"]["tunnel"]["rows"]]
            assert gone not in keys and len(keys) == 4
            assert "eth0" not in [r["key"]["ktCustomerCustomerName"]
                                  for r in doc["groups"]["customer"]["rows"]]
        else:
            assert (gone[0], str(gone[1])) not in text_keys(out)
            if "--rows" not in args and "--top" not in args:
                assert ("10.0.0.1", "3735928559") in text_keys(out)
    r = stat(path, "--reset", target, check=False)
    assert r.returncode == 1 and "holds no key" in r.stderr
    stat(path, "--reset", "tunnel/10.0.0.1,3735928559")
    stat(path, "--reset", "tunnel", "-y")
    stat(path, "--info")


# Runs a program and prints its peak resident set in KiB. A child's peak
# counts the pages of the process it was forked from: this bare
# interpreter, not the test's.
PEAK = ("import os, sys\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    fd = os.open(os.devnull, os.O_WRONLY); os.dup2(fd, 1)\n"
        "    os.execv(sys.argv[1], sys.argv[1:])\n"
        "_, status, usage = os.wait4(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n")


def test_streaming_memory(tmp_path):
    """The outputs without --sort keep a range of rows at a time: from 4096
    to 65536 keys their peak grows by what the reader keeps of the keys and
    the segment's pages, a quarter of what a whole snapshot (--sort) grows
    by. The --sort runs are the negative control: what not streaming costs."""
    small = make(tmp_path / "small", ["@tunnel=4096"])
    path = make(tmp_path / "big", ["@tunnel=65536"])

    # in an AddressSanitizer build, memory freed is kept (quarantined)
    # and would count as used: not what is measured here
    asan = os.environ.get("ASAN_OPTIONS")
    env = dict(os.environ, ASAN_OPTIONS=(asan + ":" if asan else "") + "quarantine_size_mb=0")

    def peak_kib(seg, *args):
        r = subprocess.run([sys.executable, "-S", "-E", "-c", PEAK, STAT, seg,
                            "--match", "tunnel", *args],
                           capture_output=True, text=True, timeout=120, env=env)
        status, kib = map(int, r.stdout.split())
        assert status == 0
        return kib

    def growth(*args):
        return peak_kib(path, *args) - peak_kib(small, *args)

    for mode in ((), ("--json",)):
        streamed, whole = growth(*mode), growth(*mode, "--sort", "pkts")
        assert streamed * 4 < whole, (mode, streamed, whole)
    doc = json.loads(stat(path, "--json", "--match", "tunnel").stdout)
    rows = doc["groups"]["tunnel"]["rows"]
    assert len(rows) == 65536 == doc["groups"]["tunnel"]["rows_present"]
    # 10.0.0.0 .. 10.0.255.255 in SNMP order, each with its values
    assert rows[0]["key"] == {"ktTunnelPeerType": "ipv4", "ktTunnelPeer": "10.0.0.0",
                              "ktTunnelTeid": 0}
    assert rows[65535]["key"]["ktTunnelPeer"] == "10.0.255.255"
    assert all(r["counters"] == {"ktTunnelPkts": r["key"]["ktTunnelTeid"] + 1,
                                 "ktTunnelBytes": 2 * (r["key"]["ktTunnelTeid"] + 1)}
               for r in rows)
