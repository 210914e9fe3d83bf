# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat shows state objects with their rows, exactly, on segments
of the state model (VIEWS-TEST-MIB, prefix vw: every state type in a
scalar group, a dense `rows: present` table, a keyed table and a group of
states only) that mkstates fills with the states given."""
import functools
import json
import os
import re
import subprocess
import time

import pytest

from statrun import STAT, stat, tell, text
import statrun

MKSTATES = os.environ["FASTMIB_MKSTATES"]

# One value of every type, each unlike its default: texts with quotes, a
# control character, a backslash before an 'x' and a blank; the largest
# gauge64; a DateAndTime with a fraction below its deci-seconds; an IPv6
# address written long (shown compressed) and a MAC in capitals (shown in
# lower case); addresses whose text order is not their numeric one; a
# text wider than any counter's cell.
NOTE = "0123456789" * 8
STATES = [
    "global", "operState=up", 'label=eth0 "uplink"', "version=42",
    "peak=18446744073709551615", "started=1795000000123456789", "enabled=false",
    "addr=192.168.1.9", "mac=02:AB:cd:00:00:01", "remote=2001:db8:0:0:0:0:0:1",
    "blob=00ff10", "uptime=8640123", "temp=-50",
    "port.0", "link=up", "speed=25000", "name=eth0", "peer=10.0.0.2",
    "port.2", "speed=100", "name=a\\x01b\\\\x", "peer=9.0.0.1",
    "port.3", "link=up", "speed=100000", "name=", "peer=2001:db8::1",
    "tunnel/7", "link=up", "speed=10", "name=gtp", "peer=::1", "note=" + NOTE,
    "tunnel/3", "name=t3",
    "info", "release=2.0 rc", "ready=true", "cert=0102",
]


make = functools.partial(statrun.make, MKSTATES)


@pytest.fixture(scope="module")
def seg(tmp_path_factory):
    path = make(tmp_path_factory.mktemp("states") / "seg", STATES)
    yield path
    os.unlink(path)


def test_text_every_type(seg):
    """The states after the counters, in their columns: each type as
    people read it (an enum's label, a TimeTicks as net-snmp prints it, a
    DateAndTime to its deci-seconds, a string in quotes with a quote
    doubled, an address as inet_ntop() writes it); a table's state
    columns after its counters, headed by name and units."""
    assert stat(seg).stdout == text(f"""
        VIEWS-TEST-MIB  {seg}  generation 1  writer gone

        global
          NAME                               VALUE UNITS
          vwGlobalPkts                           0 packets
          vwGlobalDrops                          0
          vwGlobalOperState                     up
          vwGlobalLabel          "eth0 ""uplink\"""
          vwGlobalVersion                       42
          vwGlobalPeak        18446744073709551615 packets
          vwGlobalSince                      never
          vwGlobalStarted   2026-11-18T11:06:40.1Z
          vwGlobalEnabled                    false
          vwGlobalAddr                 192.168.1.9
          vwGlobalMac            02:ab:cd:00:00:01
          vwGlobalRemote               2001:db8::1
          vwGlobalBlob                      00ff10
          vwGlobalUptime         1 day, 0:00:01.23
          vwGlobalTemp                         -50 celsius

        port: 3 of 4 rows present
          vwPortPortId vwPortPkts[packets] vwPortLink vwPortSpeed[Mbit/s]    vwPortName  vwPortPeer
                     1                   0         up               25000        "eth0"    10.0.0.2
                     3                   0       down                 100 "a\\x01b\\x5cx"     9.0.0.1
                     4                   0         up              100000            "" 2001:db8::1

        tunnel: 2 of 64 rows present
          vwTunnelTeid vwTunnelPkts[packets] vwTunnelLink vwTunnelSpeed[Mbit/s] vwTunnelName vwTunnelPeer {"vwTunnelNote":>82}
                     3                     0         down                     0         "t3"      unknown {'""':>82}
                     7                     0           up                    10        "gtp"          ::1 "{NOTE}"

        info
          NAME             VALUE UNITS
          vwInfoRelease "2.0 rc"
          vwInfoReady       true
          vwInfoMotd          ""
          vwInfoCert        0102
        """)


def test_types_and_defaults(tmp_path):
    """--output TYPE: a state's type word; a segment as created holds each
    state's default (an enum's first value when the model names none)."""
    seg = make(tmp_path / "seg", [])
    assert stat(seg, "--match", "global", "--output", "NAME,VALUE,TYPE,UNITS").stdout == \
        text(f"""
        VIEWS-TEST-MIB  {seg}  generation 1  writer gone

        global
          NAME                          VALUE TYPE           UNITS
          vwGlobalPkts                      0 counter64      packets
          vwGlobalDrops                     0 counter32
          vwGlobalOperState              down enum
          vwGlobalLabel                "none" display-string
          vwGlobalVersion                   7 unsigned32
          vwGlobalPeak                      0 gauge64        packets
          vwGlobalSince                 never timestamp
          vwGlobalStarted             unknown date-and-time
          vwGlobalEnabled                true truth-value
          vwGlobalAddr               10.0.0.1 ipv4
          vwGlobalMac       00:00:00:00:00:00 mac
          vwGlobalRemote              unknown inet-address
          vwGlobalBlob                        octet-string
          vwGlobalUptime           0:00:00.00 timeticks
          vwGlobalTemp                      0 integer32      celsius
        """)


def test_raw_and_streamed(seg):
    """--raw: a blank as \\x20, every backslash as \\x5c; the table read a
    range at a time is the same as the table read whole (sorted)."""
    want = text("""
        vwPortPortId vwPortPkts[packets] vwPortLink vwPortSpeed[Mbit/s] vwPortName vwPortPeer
        1 0 up 25000 "eth0" 10.0.0.2
        3 0 down 100 "a\\x01b\\x5cx" 9.0.0.1
        4 0 up 100000 "" 2001:db8::1
        """)
    assert stat(seg, "--raw", "--match", "port").stdout == want
    assert stat(seg, "--raw", "--match", "port", "--sort", "+portId").stdout == want
    assert stat(seg, "--match", "tunnel").stdout.splitlines()[3:] == \
        stat(seg, "--match", "tunnel", "--sort", "+teid").stdout.splitlines()[3:]
    assert stat(seg, "--raw", "--match", "info").stdout == text("""
        NAME VALUE UNITS
        vwInfoRelease "2.0\\x20rc" 
        vwInfoReady true 
        vwInfoMotd "" 
        vwInfoCert 0102 
        """)


def column(seg, col, *args):
    """Column `col` of the port table's raw rows, as --sort orders them."""
    lines = stat(seg, "--raw", "--match", "port", "--output", "portId," + col,
                 *args).stdout.splitlines()
    return [ln.split(" ")[1] for ln in lines[1:]]


def test_sort_by_state(seg):
    """Numbers by value, largest first (an enum by its number: up 1, down
    2); strings and addresses by their text, smallest first; + and -."""
    assert column(seg, "speed", "--sort", "speed") == ["100000", "25000", "100"]
    assert column(seg, "speed", "--sort", "+speed") == ["100", "25000", "100000"]
    assert column(seg, "link", "--sort", "link") == ["down", "up", "up"]
    assert column(seg, "link", "--sort", "+link") == ["up", "up", "down"]
    assert column(seg, "peer", "--sort", "peer") == ["10.0.0.2", "2001:db8::1", "9.0.0.1"]
    assert column(seg, "peer", "--sort", "-peer") == ["9.0.0.1", "2001:db8::1", "10.0.0.2"]
    assert column(seg, "name", "--sort", "vwPortName") == ['""', '"a\\x01b\\x5cx"', '"eth0"']
    out = stat(seg, "--match", "port", "--sort", "speed", "--top", "1").stdout
    assert "port: 3 of 4 rows present, 1 shown, by vwPortSpeed descending\n" in out
    assert out.splitlines()[-1].split() == ["4", "0", "up", "100000", '""', "2001:db8::1"]
    # a keyed table by a state
    rows = stat(seg, "--raw", "--match", "tunnel", "--sort", "name").stdout.splitlines()
    assert [r.split(" ")[0] for r in rows[1:]] == ["7", "3"]


def test_match_and_output(seg):
    """A state is a column by its model, qualified or MIB name; --match
    finds states as counters; a table whose indexes --output does not name
    shows them first."""
    assert stat(seg, "--raw", "--output", "name,portId,link").stdout == text("""
        vwPortName vwPortPortId vwPortLink
        "eth0" 1 up
        "a\\x01b\\x5cx" 3 down
        "" 4 up
        vwTunnelTeid vwTunnelName vwTunnelLink
        3 "t3" down
        7 "gtp" up
        """)
    assert stat(seg, "--raw", "--match", "port.peer").stdout == text("""
        vwPortPortId vwPortPeer
        1 10.0.0.2
        3 9.0.0.1
        4 2001:db8::1
        """)
    assert stat(seg, "--raw", "--match", "vwGlobalUptime", "--match", "ready").stdout == \
        text("""
        NAME VALUE UNITS
        vwGlobalUptime 1\\x20day,\\x200:00:01.23 
        NAME VALUE UNITS
        vwInfoReady true 
        """)
    r = stat(seg, "--match", "nosuch", check=False)
    assert (r.returncode, r.stderr) == (
        2, "fastmib-stat: --match: 'nosuch' matches no group, counter or state of "
           "VIEWS-TEST-MIB\n")
    r = stat(seg, "--sort", "nosuch", check=False)
    assert (r.returncode, r.stderr) == (
        2, "fastmib-stat: --sort: 'nosuch' is no index, counter or state of a table of "
           "VIEWS-TEST-MIB\n")


def test_timestamp_age(tmp_path):
    """A timestamp shows how long ago it was, from the monotonic clock the
    setter read (fastmib_monotonic_ns(), Python's time.monotonic_ns())."""
    before = time.monotonic_ns()
    seg = make(tmp_path / "seg", ["global", "since=%d" % (before - 12_300_000_000)])
    out = stat(seg, "--raw", "--match", "since").stdout
    elapsed = (time.monotonic_ns() - before) / 1e9
    age = float(re.fullmatch(r"NAME VALUE UNITS\nvwGlobalSince (\d+\.\d)\\x20s\\x20ago \n",
                             out).group(1))
    assert 12.3 <= age <= 12.3 + elapsed + 0.05


def test_states_left_out(tmp_path):
    """A value the model does not allow, written into the file by a hostile
    hand, is left out ("?"), the others shown; a row whose setter stayed
    inside its section has every state left out: never a torn one."""
    seg = make(tmp_path / "seg", ["global", "!operState=9", "!version=101", "temp=3",
                                  "port.1", "name=ok", "!link=0", "port.2", "!torn"])
    assert stat(seg, "--raw", "--match", "operState", "--match", "version",
                "--match", "temp").stdout == text("""
        NAME VALUE UNITS
        vwGlobalOperState ? 
        vwGlobalVersion ? 
        vwGlobalTemp 3 celsius
        """)
    assert stat(seg, "--raw", "--match", "port").stdout == text("""
        vwPortPortId vwPortPkts[packets] vwPortLink vwPortSpeed[Mbit/s] vwPortName vwPortPeer
        2 0 ? 0 "ok" unknown
        3 0 ? ? ? ?
        """)
    # left out sorts last, either way
    assert column(seg, "link", "--sort", "link") == ["?", "?"]
    assert stat(seg, "--raw", "--match", "port", "--sort", "name",
                "--output", "portId,name").stdout.splitlines()[1:] == ['2 "ok"', "3 ?"]
    assert stat(seg, "--raw", "--match", "port", "--sort", "-name",
                "--output", "portId,name").stdout.splitlines()[1:] == ['2 "ok"', "3 ?"]


def doc(seg, *args):
    return json.loads(stat(seg, "--json", *args).stdout)


def test_json_typed(seg):
    """Each state an object {"type", "value", ...}: typed values, 64-bit
    ones by the rule of every 64-bit value (strings above 2^53 - 1)."""
    d = doc(seg)
    g = d["groups"]["global"]
    assert g["counters"] == {"vwGlobalPkts": 0, "vwGlobalDrops": 0}
    assert g["states"] == {
        "vwGlobalOperState": {"type": "enum", "value": 1, "label": "up"},
        "vwGlobalLabel": {"type": "display-string", "value": 'eth0 "uplink"'},
        "vwGlobalVersion": {"type": "unsigned32", "value": 42},
        "vwGlobalPeak": {"type": "gauge64", "value": "18446744073709551615"},
        "vwGlobalSince": {"type": "timestamp", "value": 0, "ago": None},
        "vwGlobalStarted": {"type": "date-and-time", "value": "1795000000123456789",
                            "text": "2026-11-18T11:06:40.1Z"},
        "vwGlobalEnabled": {"type": "truth-value", "value": False},
        "vwGlobalAddr": {"type": "ipv4", "value": "192.168.1.9"},
        "vwGlobalMac": {"type": "mac", "value": "02:ab:cd:00:00:01"},
        "vwGlobalRemote": {"type": "inet-address", "value": "2001:db8::1",
                           "addressType": "ipv6"},
        "vwGlobalBlob": {"type": "octet-string", "value": "00ff10"},
        "vwGlobalUptime": {"type": "timeticks", "value": 8640123, "text": "1 day, 0:00:01.23"},
        "vwGlobalTemp": {"type": "integer32", "value": -50},
    }
    assert list(g["states"]) == [  # in model order, after the counters
        "vwGlobalOperState", "vwGlobalLabel", "vwGlobalVersion", "vwGlobalPeak",
        "vwGlobalSince", "vwGlobalStarted", "vwGlobalEnabled", "vwGlobalAddr", "vwGlobalMac",
        "vwGlobalRemote", "vwGlobalBlob", "vwGlobalUptime", "vwGlobalTemp"]
    assert g["types"] == {"vwGlobalPkts": "counter64", "vwGlobalDrops": "counter32"}

    def row(link, label, speed, name, peer, kind):
        return {"vwPortLink": {"type": "enum", "value": link, "label": label},
                "vwPortSpeed": {"type": "unsigned32", "value": speed},
                "vwPortName": {"type": "display-string", "value": name},
                "vwPortPeer": {"type": "inet-address", "value": peer, "addressType": kind}}
    assert [(r["row"], r["index"], r["counters"], r["states"])
            for r in d["groups"]["port"]["rows"]] == [
        (0, [1], {"vwPortPkts": 0}, row(1, "up", 25000, "eth0", "10.0.0.2", "ipv4")),
        (2, [3], {"vwPortPkts": 0}, row(2, "down", 100, "a\x01b\\x", "9.0.0.1", "ipv4")),
        (3, [4], {"vwPortPkts": 0}, row(1, "up", 100000, "", "2001:db8::1", "ipv6"))]
    tunnel = d["groups"]["tunnel"]["rows"]
    assert [(r["row"], r["key"], r["states"]["vwTunnelName"]["value"],
             r["states"]["vwTunnelPeer"]) for r in tunnel] == [
        (1, {"vwTunnelTeid": 3}, "t3", {"type": "inet-address", "value": "",
                                         "addressType": "unknown"}),
        (0, {"vwTunnelTeid": 7}, "gtp", {"type": "inet-address", "value": "::1",
                                          "addressType": "ipv6"})]
    # a group of states only: no storage, no counters
    assert d["groups"]["info"] == {
        "storage": None, "table": False, "types": {}, "mib": "vwInfo", "counters": {},
        "states": {"vwInfoRelease": {"type": "display-string", "value": "2.0 rc"},
                   "vwInfoReady": {"type": "truth-value", "value": True},
                   "vwInfoMotd": {"type": "display-string", "value": ""},
                   "vwInfoCert": {"type": "octet-string", "value": "0102"}}}


def test_json_strings_and_match(seg):
    """--json-strings: every 64-bit value a string, 32-bit ones numbers;
    --match shows the states it names, a group's "states" stays."""
    g = doc(seg, "--json-strings", "--match", "global")["groups"]["global"]["states"]
    assert g["vwGlobalPeak"]["value"] == "18446744073709551615"
    assert g["vwGlobalSince"]["value"] == "0"
    assert g["vwGlobalStarted"]["value"] == "1795000000123456789"
    assert g["vwGlobalVersion"]["value"] == 42 and g["vwGlobalUptime"]["value"] == 8640123
    d = doc(seg, "--match", "port.speed", "--match", "pkts")
    assert list(d["groups"]) == ["global", "port", "tunnel"]
    assert d["groups"]["global"]["states"] == {}
    assert [r["states"] for r in d["groups"]["port"]["rows"]] == [
        {"vwPortSpeed": {"type": "unsigned32", "value": v}} for v in (25000, 100, 100000)]


def untimed(out):
    return [ln for ln in out.splitlines() if not ln.lstrip().startswith('"time"')]


def test_json_streamed_is_the_whole_document(seg):
    """Rows written a range at a time (no --sort) are the bytes of the
    document built whole (sorted by index: the same order)."""
    for extra in ([], ["--json-strings"]):
        assert untimed(stat(seg, "--json", *extra).stdout) == untimed(
            stat(seg, "--json", "--sort", "+portId", "--sort", "+teid", *extra).stdout)


def test_json_left_out_and_age(tmp_path):
    before = time.monotonic_ns()
    seg = make(tmp_path / "seg", ["global", "!operState=9", "since=%d" % (before - 5_000_000_000),
                                  "port.1", "!torn"])
    d = doc(seg)
    elapsed = (time.monotonic_ns() - before) / 1e9
    g = d["groups"]["global"]["states"]
    assert g["vwGlobalOperState"] == {"type": "enum", "value": None, "bad": True}
    # a 64-bit value: a string past 2^53 - 1 ns (104 days up)
    assert int(g["vwGlobalSince"]["value"]) == before - 5_000_000_000
    assert 5.0 <= g["vwGlobalSince"]["ago"] <= 5.0 + elapsed
    assert d["groups"]["port"]["rows"][0]["states"] == {
        "vwPortLink": {"type": "enum", "value": None, "bad": True},
        "vwPortSpeed": {"type": "unsigned32", "value": None, "bad": True},
        "vwPortName": {"type": "display-string", "value": None, "bad": True},
        "vwPortPeer": {"type": "inet-address", "value": None, "bad": True}}


def frames(proc, banner="VIEWS-TEST-MIB"):
    """The frames of a text --watch, one at a time as each ends (when the
    next begins): {first cell: the other cells} of every list and table
    line."""
    cur = None
    for line in proc.stdout:
        if line.startswith(banner):
            if cur is not None:
                yield cur
            cur = {}
            continue
        parts = line.split()
        if cur is not None and line.startswith("  ") and parts:
            cur[parts[0]] = parts[1:]
    raise AssertionError("fastmib-stat --watch ended")


def test_watch_marks_changes(tmp_path):
    """--watch: a state whose value changed since the previous frame is
    marked "*" in the frame that first shows the new value, and in that
    frame only; states have no rates, counters do."""
    writer = make(tmp_path / "seg", ["global", "operState=up", "temp=20", "port.1", "speed=100",
                                     "port.2", "speed=7"], hold=True)
    watch = subprocess.Popen([STAT, str(tmp_path / "seg"), "--watch", "0.2", "--match", "global",
                              "--match", "port", "--output", "NAME,VALUE,RATE,portId,speed,pkts"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        it = frames(watch)
        first = next(it)
        assert first["vwGlobalOperState"] == ["up"] and first["vwGlobalTemp"] == ["20"]
        assert first["vwGlobalPkts"] == ["0", "-"]          # a counter: no rate yet
        assert first["2"] == ["100", "0"] and first["3"] == ["7", "0"]
        second = next(it)
        assert second["vwGlobalOperState"] == ["up"]         # unchanged: no mark, no rate
        assert second["vwGlobalPkts"] == ["0", "0/s"]
        assert second["2"] == ["100", "0"]                   # a rate of 0 for the counter
        tell(writer, "global", "operState=testing", "port.1", "speed=40000")
        changed = next(f for f in it if f["vwGlobalOperState"] != ["up"])
        assert changed["vwGlobalOperState"] == ["testing*"]
        assert changed["vwGlobalTemp"] == ["20"]
        # one set after the other: the frame that shows the first shows
        # the second, or the next one does
        if changed["2"] == ["100", "0"]:
            changed = next(it)
        assert changed["2"] == ["40000*", "0"] and changed["3"] == ["7", "0"]
        after = next(it)
        assert after["vwGlobalOperState"] == ["testing"] and after["2"] == ["40000", "0"]
    finally:
        watch.terminate()
        watch.wait(10)
        writer.stdin.close()
        writer.wait(30)


def test_watch_json_marks_changes(tmp_path):
    """--watch --json: a state that changed since the previous document has
    "changed": true there, and in no other document."""
    writer = make(tmp_path / "seg", ["tunnel/7", "link=up", "name=a"], hold=True)
    watch = subprocess.Popen([STAT, str(tmp_path / "seg"), "--watch", "0.2", "--json",
                              "--match", "tunnel"], stdout=subprocess.PIPE, text=True)

    def states():
        return json.loads(watch.stdout.readline())["groups"]["tunnel"]["rows"][0]["states"]
    try:
        assert states()["vwTunnelLink"] == {"type": "enum", "value": 1, "label": "up"}
        tell(writer, "tunnel/7", "name=b")
        while (s := states())["vwTunnelName"]["value"] == "a":
            assert "changed" not in s["vwTunnelName"]
        assert s["vwTunnelName"] == {"type": "display-string", "value": "b", "changed": True}
        assert "changed" not in s["vwTunnelLink"]
        assert states()["vwTunnelName"] == {"type": "display-string", "value": "b"}
    finally:
        watch.terminate()
        watch.wait(10)
        writer.stdin.close()
        writer.wait(30)


def test_info_lists_states(seg):
    out = stat(seg, "--info").stdout
    assert out[out.index("states "):] == text("""
        states       26 in 4 group(s)
          GROUP  STATE     TYPE             ARC NOTIFY UNITS
          global operState enum              10 yes
          global label     display-string    11 no
          global version   unsigned32        12 no
          global peak      gauge64           13 no     packets
          global since     timestamp         14 no
          global started   date-and-time     15 no
          global enabled   truth-value       16 yes
          global addr      ipv4              17 no
          global mac       mac               18 no
          global remote    inet-address   20,21 no
          global blob      octet-string      22 no
          global uptime    timeticks         23 no
          global temp      integer32         24 no     celsius
          port   link      enum               5 yes
          port   speed     unsigned32         6 no     Mbit/s
          port   name      display-string     7 no
          port   peer      inet-address     8,9 no
          tunnel link      enum               5 yes
          tunnel speed     unsigned32         6 no     Mbit/s
          tunnel name      display-string     7 no
          tunnel peer      inet-address     8,9 no
          tunnel note      display-string    10 no
          info   release   display-string     1 no
          info   ready     truth-value        2 no
          info   motd      display-string     3 no
          info   cert      octet-string       4 no
        """)
    st = json.loads(stat(seg, "--info", "--json").stdout)["states"]
    assert list(st) == ["global", "port", "tunnel", "info"]
    assert [s["name"] for s in st["port"]] == ["link", "speed", "name", "peer"]
    g = {s["name"]: s for s in st["global"]}
    assert g["operState"] == {"name": "operState", "mib": "vwGlobalOperState", "type": "enum",
                              "arc": 10, "notify": True, "units": "",
                              "values": {"up": 1, "down": 2, "testing": 3}}
    assert g["remote"] == {"name": "remote", "mib": "vwGlobalRemote", "type": "inet-address",
                           "arc": 20, "notify": False, "units": "", "address_arc": 21}
    assert g["temp"] == {"name": "temp", "mib": "vwGlobalTemp", "type": "integer32",
                         "arc": 24, "notify": False, "units": "celsius", "range": [-50, 150]}
    assert g["label"]["size"] == 32 and st["info"][0]["size"] == 20
    assert st["info"][3] == {"name": "cert", "mib": "vwInfoCert", "type": "octet-string",
                             "arc": 4, "notify": False, "units": "", "size": 100}


@pytest.mark.parametrize("target", ["info", "info.1", "info/x"])
def test_reset_states_only(tmp_path, target):
    """A group of states only has nothing to reset: a usage error, and the
    segment as it was; the whole segment's reset resets its counters."""
    seg = make(tmp_path / "seg", ["info", "ready=true"])
    r = stat(seg, "--reset", target, "-y", check=False)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", "fastmib-stat: 'info' is a group of states only: it has no counters to reset\n")
    assert stat(seg, "--reset", "-y").stdout == "reset %s: all counters\n" % seg
    assert json.loads(stat(seg, "--json", "--match", "info").stdout)["groups"]["info"][
        "states"]["vwInfoReady"]["value"] is True
