# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat's counter output, exactly, on segments of the test model
(FASTMIB-TEST-MIB, prefix ts) that mkvalues fills with the values given:
every other counter reads 0."""
import json
import os
import signal
import subprocess

import pytest

from statrun import STAT, text
import statrun

MKVALUES = os.environ["FASTMIB_MKVALUES"]

# Small values, values at the limits of JSON readers (2^53 - 1, 2^53) and
# of signed 64 bits (2^63 - 1, 2^63), the largest Counter64, a gauge below
# zero (reported 0) and a Counter32 past 2^32 (reported modulo 2^32).
VALUES = [
    "global.pkts=1500", "global.bytes=96000", "global.flows=7",
    "port.rxPkts.0=10", "port.rxBytes.0=640",
    "port.rxPkts.1=2500000", "port.rxBytes.1=160000000",
    "port.rxPkts.3=9007199254740991", "port.rxBytes.3=9007199254740992",
    "session.pkts.4=3", "session.bytes.4=192",
    "session.pkts.9=9223372036854775807", "session.bytes.9=9223372036854775808",
    "session.pkts.99=18446744073709551615", "session.bytes.99=1048576",
    "pool.allocs=12", "pool.inUse=-3", "pool.fails=4294967301",
    "flow.pkts.0=7", "flow.bytes.0=1023", "flow.pkts.7=5", "flow.bytes.7=1500",
    "flow.pkts.14=1", "flow.bytes.14=1024",
]


def make(path, values):
    subprocess.run([MKVALUES, str(path), *values], check=True, timeout=30,
                   capture_output=True)
    return str(path)


@pytest.fixture(scope="module")
def seg(tmp_path_factory):
    path = make(tmp_path_factory.mktemp("out") / "seg", VALUES)
    yield path
    os.unlink(path)


def stat(*args, check=True, **kw):
    return statrun.stat(*args, check=check, timeout=30, **kw)


def test_text_tables_with_units(seg):
    assert stat(seg).stdout == text(f"""
        FASTMIB-TEST-MIB  {seg}  generation 1  writer gone

        global
          NAME          VALUE UNITS
          tsGlobalPkts   1500 packets
          tsGlobalBytes 96000 octets
          tsGlobalFlows     7

        port: 4 of 4 rows present
          tsPortPortId tsPortRxPkts[packets] tsPortRxBytes[octets]
                     1                    10                   640
                     2               2500000             160000000
                     3                     0                     0
                     4      9007199254740991      9007199254740992

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
                          10    9223372036854775807    9223372036854775808
                         100   18446744073709551615                1048576

        pool
          NAME         VALUE UNITS
          tsPoolAllocs    12
          tsPoolInUse      0
          tsPoolFails      5

        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]
                  1           1                   7                1023
                  2           3                   5                1500
                  3           5                   1                1024
        """)


def test_rows_caps_tables(seg):
    out = stat(seg, "--rows", "1").stdout
    assert text("""
        session: 3 of 100 rows present, 1 shown
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
        """) in out
    # a table with no row shown has its title line only
    assert stat(seg, "--rows", "0").stdout.endswith("\nflow: 3 of 15 rows present, 0 shown\n")


def test_json_64_bit_values(seg):
    """A 64-bit value is a JSON integer up to 2^53 - 1, which every reader
    (a double) holds exactly, and a decimal string above; 32-bit values
    are always integers."""
    out = stat(seg, "--json").stdout
    doc = json.loads(out)
    g = doc["groups"]
    assert g["global"]["counters"] == {"tsGlobalPkts": 1500, "tsGlobalBytes": 96000,
                                       "tsGlobalFlows": 7}
    assert g["pool"]["counters"] == {"tsPoolAllocs": 12, "tsPoolInUse": 0,
                                     "tsPoolFails": 5}
    assert [r["counters"] for r in g["port"]["rows"]] == [
        {"tsPortRxPkts": 10, "tsPortRxBytes": 640},
        {"tsPortRxPkts": 2500000, "tsPortRxBytes": 160000000},
        {"tsPortRxPkts": 0, "tsPortRxBytes": 0},
        {"tsPortRxPkts": 2**53 - 1, "tsPortRxBytes": str(2**53)}]
    assert [(r["index"], r["counters"]) for r in g["session"]["rows"]] == [
        ([5], {"tsSessionPkts": 3, "tsSessionBytes": 192}),
        ([10], {"tsSessionPkts": str(2**63 - 1), "tsSessionBytes": str(2**63)}),
        ([100], {"tsSessionPkts": str(2**64 - 1), "tsSessionBytes": 1048576})]
    # the text itself: the largest exact integer as a number, no float
    assert '"tsPortRxPkts": 9007199254740991,' in out
    assert '"tsPortRxBytes": "9007199254740992"' in out
    assert doc["generation"] == 1


def test_json_strings(seg):
    """--json-strings: every Counter64 value (and every other 64-bit value)
    a decimal string, so a field's JSON type never depends on its value;
    Counter32 and Gauge32 stay integers."""
    doc = json.loads(stat(seg, "--json", "--json-strings").stdout)
    g = doc["groups"]
    assert doc["generation"] == "1"
    assert g["global"]["counters"] == {"tsGlobalPkts": "1500", "tsGlobalBytes": "96000",
                                       "tsGlobalFlows": 7}
    assert g["pool"]["counters"] == {"tsPoolAllocs": "12", "tsPoolInUse": 0,
                                     "tsPoolFails": 5}
    assert [r["counters"] for r in g["port"]["rows"]] == [
        {"tsPortRxPkts": "10", "tsPortRxBytes": "640"},
        {"tsPortRxPkts": "2500000", "tsPortRxBytes": "160000000"},
        {"tsPortRxPkts": "0", "tsPortRxBytes": "0"},
        {"tsPortRxPkts": str(2**53 - 1), "tsPortRxBytes": str(2**53)}]
    assert [r["counters"] for r in g["session"]["rows"]] == [
        {"tsSessionPkts": "3", "tsSessionBytes": "192"},
        {"tsSessionPkts": str(2**63 - 1), "tsSessionBytes": str(2**63)},
        {"tsSessionPkts": str(2**64 - 1), "tsSessionBytes": "1048576"}]
    # indexes, row numbers and row counts are 32-bit: integers
    s = g["session"]
    assert (s["rows_max"], s["rows_present"]) == (100, 3)
    assert [(r["row"], r["index"]) for r in s["rows"]] == [(4, [5]), (9, [10]), (99, [100])]
    r = stat(seg, "--json-strings", check=False)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", "fastmib-stat: --json-strings goes with --json\n")


def test_human(seg):
    """-H: SI prefixes for counts, IEC (powers of 1024, B) for octets."""
    assert stat(seg, "-H").stdout == text(f"""
        FASTMIB-TEST-MIB  {seg}  generation 1  writer gone

        global
          NAME            VALUE UNITS
          tsGlobalPkts     1.5k packets
          tsGlobalBytes 93.8KiB octets
          tsGlobalFlows       7

        port: 4 of 4 rows present
          tsPortPortId tsPortRxPkts[packets] tsPortRxBytes[octets]
                     1                    10                  640B
                     2                  2.5M                153MiB
                     3                     0                    0B
                     4                  9.0P                8.0PiB

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                   192B
                          10                   9.2E                 8.0EiB
                         100                  18.4E                 1.0MiB

        pool
          NAME         VALUE UNITS
          tsPoolAllocs    12
          tsPoolInUse      0
          tsPoolFails      5

        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]
                  1           1                   7               1023B
                  2           3                   5              1.5KiB
                  3           5                   1              1.0KiB
        """)


def test_human_rounding(tmp_path):
    """Where -H changes prefix: a number that rounds up to the next power
    takes the next prefix; one decimal below 100."""
    seg = make(tmp_path / "seg", [
        "global.pkts=999", "global.bytes=1023",
        "port.rxPkts.0=999499", "port.rxBytes.0=1024",
        "port.rxPkts.1=999500", "port.rxBytes.1=1048064",
        "port.rxPkts.2=99949", "port.rxBytes.2=1048063",
        "port.rxPkts.3=99950", "port.rxBytes.3=18446744073709551615",
        "pool.allocs=18446744073709551615"])
    out = stat(seg, "--human").stdout
    assert text("""
        global
          NAME          VALUE UNITS
          tsGlobalPkts    999 packets
          tsGlobalBytes 1023B octets
          tsGlobalFlows     0

        port: 4 of 4 rows present
          tsPortPortId tsPortRxPkts[packets] tsPortRxBytes[octets]
                     1                  999k                1.0KiB
                     2                  1.0M                1.0MiB
                     3                 99.9k               1023KiB
                     4                  100k               16.0EiB
        """) in out
    assert "  tsPoolAllocs 18.4E\n" in out


@pytest.mark.parametrize("args,other", [(["--json"], "--json"), (["--info"], "--info"),
                                        (["--events"], "--events")])
def test_human_is_for_text(seg, args, other):
    r = stat(seg, "-H", *args, check=False)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", f"fastmib-stat: -H (--human) is for the counters as text, not with {other}\n")


def test_match(seg):
    """--match: a group by its model or MIB name shows every counter of it;
    a counter by its model name, GROUP.NAME or MIB name; any case; several
    --match add up. Groups left without a counter are not shown."""
    head = f"FASTMIB-TEST-MIB  {seg}  generation 1  writer gone\n"
    assert stat(seg, "--match", "tsSessionTable", "--match", "*FLOWS").stdout == \
        head + "\n" + text("""
        global
          NAME          VALUE UNITS
          tsGlobalFlows     7

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
                          10    9223372036854775807    9223372036854775808
                         100   18446744073709551615                1048576
        """)
    # a counter name three groups share, and one of them by GROUP.NAME
    out = stat(seg, "--match", "bytes").stdout
    assert out == head + "\n" + text("""
        global
          NAME          VALUE UNITS
          tsGlobalBytes 96000 octets

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionBytes[octets]
                           5                    192
                          10    9223372036854775808
                         100                1048576

        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowBytes[octets]
                  1           1                1023
                  2           3                1500
                  3           5                1024
        """)
    assert stat(seg, "--match", "flow.bytes").stdout == head + "\n" + text("""
        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowBytes[octets]
                  1           1                1023
                  2           3                1500
                  3           5                1024
        """)
    doc = json.loads(stat(seg, "--json", "--match", "*rx*", "--match", "pool").stdout)
    assert list(doc["groups"]) == ["port", "pool"]
    assert doc["groups"]["port"]["types"] == {"tsPortRxPkts": "counter64",
                                              "tsPortRxBytes": "counter64"}
    assert doc["groups"]["pool"]["counters"] == {"tsPoolAllocs": 12, "tsPoolInUse": 0,
                                                 "tsPoolFails": 5}
    doc = json.loads(stat(seg, "--json", "--match", "tsGlobalP?ts").stdout)
    assert doc["groups"] == {"global": {
        "storage": "per-core", "table": False, "mib": "tsGlobal",
        "types": {"tsGlobalPkts": "counter64"}, "counters": {"tsGlobalPkts": 1500}}}


def test_sort_and_top(seg):
    head = f"FASTMIB-TEST-MIB  {seg}  generation 1  writer gone\n\n"
    # counters largest first; ties (two rows of 0) in row order
    assert stat(seg, "--match", "port", "--sort", "rxBytes").stdout == head + text("""
        port: 4 of 4 rows present, by tsPortRxBytes descending
          tsPortPortId tsPortRxPkts[packets] tsPortRxBytes[octets]
                     4      9007199254740991      9007199254740992
                     2               2500000             160000000
                     1                    10                   640
                     3                     0                     0
        """)
    # exact order beyond 2^53, where doubles could not tell values apart
    assert stat(seg, "--match", "session", "--sort", "+tsSessionPkts").stdout == head + text("""
        session: 3 of 100 rows present, by tsSessionPkts ascending
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
                          10    9223372036854775807    9223372036854775808
                         100   18446744073709551615                1048576
        """)
    # an index column: smallest first, '-' for largest first
    assert stat(seg, "--match", "flow", "--sort", "-queue").stdout == head + text("""
        flow: 3 of 15 rows present, by tsFlowQueue descending
          tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]
                  3           5                   1                1024
                  2           3                   5                1500
                  1           1                   7                1023
        """)
    # the top 2 flows by octets; --top alone sorts by the first counter shown
    assert stat(seg, "--match", "flow", "--sort", "bytes", "--top", "2").stdout == \
        head + text("""
        flow: 3 of 15 rows present, 2 shown, by tsFlowBytes descending
          tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]
                  2           3                   5                1500
                  3           5                   1                1024
        """)
    assert stat(seg, "--match", "flow.bytes", "--top", "1").stdout == head + text("""
        flow: 3 of 15 rows present, 1 shown, by tsFlowBytes descending
          tsFlowVrf tsFlowQueue tsFlowBytes[octets]
                  2           3                1500
        """)
    # --sort names a column of two tables: both sorted; others as they are
    out = stat(seg, "--sort", "pkts", "--top", "1").stdout
    assert "port: 4 of 4 rows present, 1 shown, by tsPortRxPkts descending\n" in out
    assert text("""
        session: 3 of 100 rows present, 1 shown, by tsSessionPkts descending
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                         100   18446744073709551615                1048576
        """) in out
    assert "flow: 3 of 15 rows present, 1 shown, by tsFlowPkts descending\n" in out
    # JSON: the same rows in the same order; rows_present stays the count
    doc = json.loads(stat(seg, "--json", "--sort", "bytes", "--top", "2").stdout)
    flow = doc["groups"]["flow"]
    assert flow["rows_present"] == 3
    assert [(r["row"], r["index"], r["counters"]) for r in flow["rows"]] == [
        (7, [2, 3], {"tsFlowPkts": 5, "tsFlowBytes": 1500}),
        (14, [3, 5], {"tsFlowPkts": 1, "tsFlowBytes": 1024})]
    assert [r["index"] for r in doc["groups"]["session"]["rows"]] == [[10], [100]]
    # port has no column 'bytes': --top takes its first counter, rxPkts
    assert [r["index"] for r in doc["groups"]["port"]["rows"]] == [[4], [2]]


@pytest.mark.parametrize("args,message", [
    (["--match", "nosuch*"], "--match: 'nosuch*' matches no group or counter of "
                             "FASTMIB-TEST-MIB"),
    (["--match", "flow", "--match", "x"], "--match: 'x' matches no group or counter of "
                                          "FASTMIB-TEST-MIB"),
    (["--sort", "pkts2"], "--sort: 'pkts2' is no index or counter of a table of "
                          "FASTMIB-TEST-MIB"),
    (["--sort", "global.pkts"], "--sort: 'global.pkts' is no index or counter of a "
                                "table of FASTMIB-TEST-MIB"),
    (["--top", "0"], "--top: '0' is not a row count of 1 or more"),
    (["--top", "x"], "--top: 'x' is not a row count of 1 or more"),
    (["--top", "3", "--rows", "2"], "--top N is --rows N after sorting: give one of them"),
    (["--match", "flow", "--info"], "--match chooses counters to show, not with --info"),
    (["--sort", "pkts", "--events"], "--sort chooses counters to show, not with --events"),
])
def test_view_errors(seg, args, message):
    r = stat(seg, *args, check=False)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"fastmib-stat: {message}\n")


def test_output_columns(seg):
    """--output: the lists' columns by keyword, the tables' by index and
    counter names, each in the order given; what has no column left is
    not shown; a table keeps its index columns unless some are named."""
    head = f"FASTMIB-TEST-MIB  {seg}  generation 1  writer gone\n\n"
    assert stat(seg, "--output", "NAME,TYPE,VALUE,DESCRIPTION").stdout == head + text("""
        global
          NAME          TYPE      VALUE DESCRIPTION
          tsGlobalPkts  counter64  1500 Packets seen.
          tsGlobalBytes counter64 96000 Octets seen.
          tsGlobalFlows gauge32       7 Flows now active.

        pool
          NAME         TYPE      VALUE DESCRIPTION
          tsPoolAllocs counter64    12 Buffers allocated.
          tsPoolInUse  gauge32       0 Buffers in use.
          tsPoolFails  counter32     5 Failed allocations.
        """)
    assert stat(seg, "--output", "tsFlowBytes,flow.pkts").stdout == head + text("""
        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowBytes[octets] tsFlowPkts[packets]
                  1           1                1023                   7
                  2           3                1500                   5
                  3           5                1024                   1
        """)
    assert stat(seg, "--output", "bytes,queue", "--match", "flow").stdout == head + text("""
        flow: 3 of 15 rows present
          tsFlowBytes[octets] tsFlowQueue
                         1023           1
                         1500           3
                         1024           5
        """)
    # a name several tables have: in each; --match still decides counters
    out = stat(seg, "--output", "VALUE,NAME,pkts", "--match", "global", "--match",
               "session").stdout
    assert out == head + text("""
        global
          VALUE NAME
           1500 tsGlobalPkts
          96000 tsGlobalBytes
              7 tsGlobalFlows

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionPkts[packets]
                           5                      3
                          10    9223372036854775807
                         100   18446744073709551615
        """)


def test_raw(seg):
    """--raw: the tables only, unaligned, one space between cells: no
    banner, titles or blank lines; an empty cell is an empty field."""
    assert stat(seg, "--raw", "--match", "pool", "--match", "flow",
                "--sort", "bytes").stdout == (
        "NAME VALUE UNITS\n"
        "tsPoolAllocs 12 \n"
        "tsPoolInUse 0 \n"
        "tsPoolFails 5 \n"
        "tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]\n"
        "2 3 5 1500\n"
        "3 5 1 1024\n"
        "1 1 7 1023\n")
    r = stat(seg, "--raw", "-H", "--output", "bytes", "--match", "session")
    assert r.stdout == text("""
        tsSessionSessionId tsSessionBytes[octets]
        5 192B
        10 8.0EiB
        100 1.0MiB
        """)
    # a table without rows: nothing at all
    empty = make(os.path.dirname(seg) + "/empty", ["global.pkts=1"])
    assert stat(empty, "--raw", "--match", "session", "--match", "global.pkts"
                ).stdout == "NAME VALUE UNITS\ntsGlobalPkts 1 packets\n"
    # descriptions keep their blanks, escaped as libsmartcols does
    assert stat(seg, "--raw", "--match", "global.pkts", "--output", "NAME,DESCRIPTION"
                ).stdout == "NAME DESCRIPTION\ntsGlobalPkts Packets\\x20seen.\n"


def test_watch_frames(seg):
    """--watch on a segment nobody writes: the first frame shows totals
    (and no rate yet), the next ones rates of 0; gauges keep their value."""
    p = subprocess.Popen([STAT, seg, "--watch", "0.2", "--match", "pool", "--match",
                          "flow.bytes", "--output", "NAME,VALUE,RATE,bytes",
                          "--sort", "bytes"], stdout=subprocess.PIPE, text=True)
    try:
        frames = []
        for _ in range(2):
            lines = [p.stdout.readline() for _ in range(14)]
            frames.append("".join(lines))
    finally:
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=10) == 0
    assert frames[0] == text(f"""
        FASTMIB-TEST-MIB  {seg}  generation 1  writer gone

        pool
          NAME         VALUE RATE
          tsPoolAllocs    12    -
          tsPoolInUse      0
          tsPoolFails      5    -

        flow: 3 of 15 rows present, by tsFlowBytes descending
          tsFlowVrf tsFlowQueue tsFlowBytes[octets]
                  2           3                1500
                  3           5                1024
                  1           1                1023
        """) + "\n"
    # by rate now: all 0, so in row order
    assert frames[1] == text(f"""
        FASTMIB-TEST-MIB  {seg}  generation 1  writer gone

        pool
          NAME         VALUE RATE
          tsPoolAllocs    12  0/s
          tsPoolInUse      0
          tsPoolFails      5  0/s

        flow: 3 of 15 rows present, by tsFlowBytes descending, counters per second
          tsFlowVrf tsFlowQueue tsFlowBytes[octets/s]
                  1           1                     0
                  2           3                     0
                  3           5                     0
        """) + "\n"


@pytest.mark.parametrize("args,message", [
    (["--output", "NAME,,VALUE"], "--output: an empty column name in 'NAME,,VALUE'"),
    (["--output", "name"], "--output: 'name' is neither a column of the lists (NAME, "
                           "VALUE, UNITS, RATE, TYPE, DESCRIPTION) nor an index or counter "
                           "of a table of FASTMIB-TEST-MIB"),
    (["--output", "NAME,RATE"], "--output: RATE goes with --watch"),
    (["--output", "NAME", "--json"], "--output is for the counters as text, not with --json"),
    (["--raw", "--json"], "--raw is for the counters as text, not with --json"),
    (["--raw", "--info"], "--raw is for the counters as text, not with --info"),
])
def test_output_errors(seg, args, message):
    r = stat(seg, *args, check=False)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"fastmib-stat: {message}\n")


def on_terminal(args, answer):
    """fastmib-stat ARGS with a terminal (a pty) as standard input, where
    `answer` is typed; None closes the terminal without an answer."""
    import pty
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([STAT, *args], stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        os.close(slave)
        slave = None
        if answer is not None:
            os.write(master, answer.encode())
        else:
            os.write(master, b"\x04")  # ^D: end of input
        out, err = p.communicate(timeout=30)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    return p.returncode, out, err


def counters(path, group):
    return json.loads(stat(path, "--json", "--match", group).stdout)["groups"][group]


@pytest.mark.parametrize("target,question", [
    (None, "every counter (FASTMIB-TEST-MIB)"),
    ("global", "group 'global'"),
    ("session", "every row of table 'session' (3 present)"),
    ("flow.2.3", "row 'flow.2.3'"),
])
def test_reset_asks_on_a_terminal(tmp_path, target, question):
    path = make(tmp_path / "seg", VALUES)
    args = [path, "--reset"] + ([target] if target else [])
    before = json.loads(stat(path, "--json").stdout)["groups"]
    prompt = f"fastmib-stat: reset {question} of {path}? [y/N] "
    for answer in ("\n", "n\n", "yess\n", None):
        rc, out, err = on_terminal(args, answer)
        assert (rc, out) == (1, ""), answer
        assert err == prompt + ("\n" if answer is None else "") + \
            "fastmib-stat: nothing reset\n", answer
        assert json.loads(stat(path, "--json").stdout)["groups"] == before
    rc, out, err = on_terminal(args, "Yes\n")
    assert (rc, err) == (0, prompt)
    assert out.startswith(f"reset {path}: ")
    assert json.loads(stat(path, "--json").stdout)["groups"] != before


def test_reset_yes_and_scripts(tmp_path):
    """-y does not ask; without a terminal nobody is asked, as scripts need."""
    path = make(tmp_path / "seg", VALUES)
    rc, out, err = on_terminal([path, "--reset", "global", "-y"], None)
    assert (rc, out, err) == (0, f"reset {path}: global\n", "")
    assert counters(path, "global")["counters"] == {
        "tsGlobalPkts": 0, "tsGlobalBytes": 0, "tsGlobalFlows": 7}  # gauges stay
    r = stat(path, "--reset", "pool", stdin=subprocess.DEVNULL)
    assert (r.stdout, r.stderr) == (f"reset {path}: pool\n", "")
    assert counters(path, "pool")["counters"] == {
        "tsPoolAllocs": 0, "tsPoolInUse": 0, "tsPoolFails": 0}
    rc, out, err = on_terminal([path, "--yes", "--reset=session"], None)
    assert (rc, out, err) == (0, f"reset {path}: session, 3 row(s)\n", "")
    r = stat(path, "-y", check=False)
    assert (r.returncode, r.stderr) == (2, "fastmib-stat: -y (--yes) goes with --reset\n")
