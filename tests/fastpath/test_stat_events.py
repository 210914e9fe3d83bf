# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat --events / --follow / --info on a segment whose event log
is known exactly (written by mkevents: 40 records into 16-record rings).
Arguments c (int32) and d (uint64) of outer and inner hold the same word,
-i sign-extended: c shows signed, d unsigned."""
import json
import os
import signal
import subprocess

import pytest

MKEVENTS = os.environ["FASTMIB_MKEVENTS"]
STAT = os.environ["FASTMIB_STAT"]
RECORDS = 40
RING = 16
NAMES = ["top", "outer", "inner"]  # levels 0, 1, 2, cycling from record 1


@pytest.fixture(scope="module")
def seg(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("ev") / "seg")
    subprocess.run([MKEVENTS, path, str(RECORDS)], check=True, timeout=30)
    yield path
    os.unlink(path)


def stat(*args, check=True):
    p = subprocess.run([STAT, *args], capture_output=True, text=True, timeout=30)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def kept():
    """Record numbers still in the ring: the newest RING."""
    return list(range(RECORDS - RING + 1, RECORDS + 1))


def test_events_json_exact(seg):
    hz = json.loads(stat(seg, "--info", "--json").stdout)["events"]["tsc_hz"]
    doc = json.loads(stat(seg, "--events", "--json").stdout)
    ev = doc["events"]
    assert [e["seq"] for e in ev] == kept()
    assert doc["dropped"] == 0  # a new cursor starts at the oldest record kept
    for e in ev:
        i = e["seq"]
        assert e["event"] == NAMES[(i - 1) % 3]
        assert e["level"] == (i - 1) % 3
        if e["event"] == "top":
            assert e["args"] == {"a": i, "b": 10 * i}
        else:
            # beyond int64, unsigned values go as decimal strings
            assert e["args"] == {"a": i, "b": 10 * i, "c": -i, "d": str(2**64 - i)}
        assert e["lcore"] == 1
    # Lag: first record has no earlier one in the copy; then each record's
    # reference is the newest earlier record of level <= its own. The TSC
    # passes 2^53 after weeks of uptime: then it is a string, like time_ns.
    assert ev[0]["lag_cycles"] == 0
    for k in range(1, len(ev)):
        lvl = ev[k]["level"]
        ref = next((e for e in reversed(ev[:k]) if e["level"] <= lvl), None)
        want = int(ev[k]["tsc"]) - int(ref["tsc"]) if ref else 0
        assert ev[k]["lag_cycles"] == want
        assert ev[k]["lag_ns"] == want * 10**9 // hz
    # nanoseconds since 1970 are far above 2^53: decimal strings
    assert all(isinstance(e["time_ns"], str) for e in ev)
    times = [int(e["time_ns"]) for e in ev]
    assert times == sorted(times)


def test_json_strings(seg):
    """--json-strings: every 64-bit value a string, whatever its size;
    32-bit arguments stay integers."""
    doc = json.loads(stat(seg, "--events", "--json", "--json-strings").stdout)
    plain = json.loads(stat(seg, "--events", "--json").stdout)
    assert doc["dropped"] == "0"
    for e, p in zip(doc["events"], plain["events"]):
        for k in ("seq", "time_ns", "tsc", "lag_cycles", "lag_ns"):
            assert e[k] == str(p[k]), k
        assert (e["lcore"], e["id"], e["level"]) == (p["lcore"], p["id"], p["level"])
        i = p["seq"]
        if e["event"] == "top":  # its arguments load as uint64
            assert e["args"] == {"a": str(i), "b": str(10 * i)}
        else:
            assert e["args"] == {"a": i, "b": str(10 * i), "c": -i, "d": str(2**64 - i)}
    info = json.loads(stat(seg, "--info", "--json", "--json-strings").stdout)
    plain = json.loads(stat(seg, "--info", "--json").stdout)
    for k in ("generation", "created_ns", "file_size"):
        assert info[k] == str(plain[k]), k
    assert info["format"] == plain["format"] and info["lcore_slots"] == plain["lcore_slots"]
    assert info["events"]["tsc_hz"] == str(plain["events"]["tsc_hz"])
    assert [(e["logged"], e["dropped"]) for e in info["events"]["list"]] == \
        [(str(e["logged"]), str(e["dropped"])) for e in plain["events"]["list"]]


def test_filters(seg):
    ev = json.loads(stat(seg, "--events", "--json", "--event", "inner").stdout)["events"]
    assert [e["seq"] for e in ev] == [i for i in kept() if (i - 1) % 3 == 2]
    ev = json.loads(stat(seg, "--events", "--json", "--event", "tsOuter").stdout)["events"]
    assert {e["event"] for e in ev} == {"outer"}
    ev = json.loads(stat(seg, "--events", "--json", "--level", "1").stdout)["events"]
    assert [e["seq"] for e in ev] == [i for i in kept() if (i - 1) % 3 <= 1]
    ev = json.loads(stat(seg, "--events", "--json", "--level", "0").stdout)["events"]
    assert {e["event"] for e in ev} == {"top"}


def test_text(seg):
    out = stat(seg, "--events").stdout.splitlines()
    assert len(out) == RING
    last = out[-1]  # record 40: (40 - 1) % 3 == 0 -> top
    assert " top " in last and "a=40" in last and "b=400" in last and "lcore 1" in last
    assert " cyc " in last and " ns" in last
    inner = out[-2]  # record 39: (39 - 1) % 3 == 2 -> inner
    assert " inner " in inner
    assert inner.endswith("  a=39  b=390  c=-39  d=%d" % (2**64 - 39))


def test_info(seg):
    doc = json.loads(stat(seg, "--info", "--json").stdout)
    evs = {e["name"]: e for e in doc["events"]["list"]}
    assert doc["events"]["ring_records"] == RING
    # 40 records: top 14, outer 13, inner 13; 24 overwritten, the oldest first.
    assert [evs[n]["logged"] for n in NAMES] == [14, 13, 13]
    assert [evs[n]["dropped"] for n in NAMES] == [8, 8, 8]
    assert evs["sampled"]["logged"] == 0 and evs["top"]["notify"] is True
    assert evs["outer"]["args"] == [
        {"name": "a", "type": "uint32"}, {"name": "b", "type": "uint64"},
        {"name": "c", "type": "int32"}, {"name": "d", "type": "uint64"}]
    # types left out of a schema are stored as uint64
    assert evs["top"]["args"] == [{"name": "a", "type": "uint64"},
                                  {"name": "b", "type": "uint64"}]
    assert evs["sampled"]["args"] == []
    text = stat(seg, "--info").stdout
    assert "event rings  16 records per lcore slot" in text
    table = text[text.index("\n  EVENT "):]
    assert table == """
  EVENT   ID LEVEL RATE LOGGED DROPPED ARGS
  top      1     0    9     14       8 a:uint64 b:uint64
  outer    2     1    9     13       8 a:uint32 b:uint64 c:int32 d:uint64
  inner    7     2    9     13       8 a:uint32 b:uint64 c:int32 d:uint64
  sampled  9     3    5      0       0
"""


def test_usage_errors(seg):
    assert stat(seg, "--events", "--event", "nope", check=False).returncode == 2
    assert stat(seg, "--events", "--level", "10", check=False).returncode == 2
    assert stat(seg, "--follow", check=False).returncode == 2
    r = stat(seg, "--events", "--json-strings", check=False)
    assert (r.returncode, r.stderr) == (2, "fastmib-stat: --json-strings goes with --json\n")


def test_follow_json_lines(seg):
    p = subprocess.Popen([STAT, seg, "--events", "--follow", "--json"],
                         stdout=subprocess.PIPE, text=True)
    try:
        lines = [json.loads(p.stdout.readline()) for _ in range(RING)]
        assert [e["seq"] for e in lines] == kept()
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=10) == 0
    finally:
        if p.poll() is None:
            p.kill()
