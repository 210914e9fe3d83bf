# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat on segments with histograms and peaks (mkhist: the
histograms test model, prefix hg, known observations from the main lcore
and, with --lcores, from lcores 1 and 2): every bucket, count, sum and
peak exact in text and JSON, the percentiles those of the buckets as this
file estimates them on its own, resets of a row, a group and everything,
and under a writer observing at full speed (mkhist --spin) every read one
snapshot: each histogram's count the sum of its buckets."""
import json
import os
import signal
import subprocess
import time

import pytest

from statrun import STAT, make, stat, text

MKHIST = os.environ["FASTMIB_MKHIST"]
U64 = 2**64 - 1

# the model's bounds (tests/codegen/models/histograms.yaml)
LATENCY = [2**k for k in range(4, 13)]
BURST = [0, 1, 8, 32]
SIZE = [64 * k for k in range(1, 26)] + [2048, 4096, 8192, 9000, 9216, 16384, U64]
GAP = [2**k for k in range(0, 32)]

# what mkhist observes (its comment), by histogram and row
BASE = {"latency": [100, 5000], "burst": [3], "size 2.1": [1500], "gap": [1000]}
LCORES = {"latency": [100, 5000, 20, 20, 3000, 9000, 16], "burst": [3, 0, 1, 100],
          "size 2.1": [1500], "size 1.1": [64, 65, U64], "gap": [1000, 0]}


def buckets(bounds, values):
    """Each value in the first bucket whose bound it does not exceed, else
    in the last, unbounded one."""
    counts = [0] * (len(bounds) + 1)
    for v in values:
        counts[next((i for i, b in enumerate(bounds) if v <= b), len(bounds))] += 1
    return counts


def whole(bounds, values):
    """The JSON object of a histogram that observed `values`."""
    return {"bounds": [b if b < 2**53 else str(b) for b in bounds],
            "buckets": buckets(bounds, values), "count": len(values),
            "sum": sum(values) % 2**64}


def estimate(bounds, counts, q):
    """histogram_quantile()'s estimate, as docs/tools.md says: the rank
    q * count, linear within the bucket that holds it, from the bound
    before it (0 for the first); in the unbounded bucket "> last bound"."""
    total = sum(counts)
    if total == 0:
        return "-"
    rank, below = q * total, 0
    for i, b in enumerate(bounds):
        if counts[i] and below + counts[i] >= rank:
            lo = bounds[i - 1] if i else 0
            return "%.1f" % (lo + (b - lo) * (rank - below) / counts[i])
        below += counts[i]
    return "> %d" % bounds[-1]


def block(name, units, row, bounds, values):
    """The text block of a histogram that observed `values`."""
    counts = buckets(bounds, values)
    head = "  %s[%s]%s: count %d  sum %d" % (name, units, " of " + row if row else "",
                                            len(values), sum(values) % 2**64)
    if not values:
        return head + "\n"
    head += "".join("  %s %s" % (p, estimate(bounds, counts, q))
                    for p, q in (("p50", .5), ("p90", .9), ("p99", .99)))
    les = ["%d" % b for b in bounds] + ["> %d" % bounds[-1]]
    w1 = max(len(s) for s in les + ["LE"])
    w2 = max(len(str(c)) for c in counts + ["COUNT"])
    lines = ["    %*s %*s" % (w1, "LE", w2, "COUNT")]
    lines += ["    %*s %*d" % (w1, le, w2, c) for le, c in zip(les, counts)]
    return head + "\n" + "\n".join(lines) + "\n"


@pytest.fixture
def seg(tmp_path):
    path = make(MKHIST, tmp_path / "hg.seg", [])
    yield path
    os.unlink(path)


@pytest.fixture
def seg2(tmp_path):
    path = make(MKHIST, tmp_path / "hg2.seg", ["--lcores"])
    yield path
    os.unlink(path)


def test_estimates_of_this_file():
    """The estimate above on hand-worked cases: it is the oracle."""
    assert estimate(BURST, [0, 0, 1, 0, 0], .5) == "4.5"        # 1 + 7 * 0.5
    assert estimate(LATENCY, buckets(LATENCY, [100, 5000]), .5) == "128.0"
    assert estimate(LATENCY, buckets(LATENCY, [100, 5000]), .9) == "> 4096"
    assert estimate(BURST, [1, 1, 1, 0, 1], .5) == "1.0"         # rank 2: bucket (0, 1]
    assert estimate(BURST, [0, 0, 0, 0, 0], .5) == "-"


def test_text(seg):
    size = "".join("\n" + block("hgPortSize", "octets", "port." + r, SIZE,
                                BASE["size 2.1"] if r == "2.1" else [])
                   for r in ("1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2"))
    assert stat(seg).stdout == text(f"""
        HISTOGRAMS-TEST-MIB  {seg}  generation 1  writer gone

        system
          NAME               VALUE UNITS
          hgSystemPkts        1500 packets
          hgSystemQueueDepth    40 packets
        """) + "\n" + block("hgSystemLatency", "nanoseconds", None, LATENCY,
                             BASE["latency"]) + "\n" + block(
        "hgSystemBurst", "packets", None, BURST, BASE["burst"]) + "\n" + text("""
        port: 8 of 8 rows present
          hgPortPortId hgPortV hgPortRxPkts[packets] hgPortPeakBurst[packets]
                     1       1                     0                        0
                     1       2                     0                        0
                     2       1                    25                       32
                     2       2                     0                        0
                     3       1                     0                        0
                     3       2                     0                        0
                     4       1                     0                        0
                     4       2                     7                        0
        """) + size + "\n" + text("""
        flow: 1 of 16 rows present
          hgFlowPeer hgFlowTeid hgFlowPkts[packets] hgFlowMaxGap[microseconds]
            10.0.0.1          7                   9                       1000
        """) + "\n" + block("hgFlowGap", "microseconds", "flow/10.0.0.1,7", GAP,
                             BASE["gap"]) + "\n" + text("""
        pool
          NAME         VALUE UNITS
          hgPoolAllocs    12
        """)


def test_text_two_lcores(seg2):
    """Observations from lcores 0, 1 and 2 summed, peaks their maximum; a
    sum past 2^64 wraps; the percentiles those of the buckets."""
    out = stat(seg2).stdout
    assert "  hgSystemQueueDepth    70 packets\n" in out
    for name, units, row, bounds, key in (
            ("hgSystemLatency", "nanoseconds", None, LATENCY, "latency"),
            ("hgSystemBurst", "packets", None, BURST, "burst"),
            ("hgPortSize", "octets", "port.1.1", SIZE, "size 1.1"),
            ("hgPortSize", "octets", "port.2.1", SIZE, "size 2.1"),
            ("hgFlowGap", "microseconds", "flow/10.0.0.1,7", GAP, "gap")):
        assert "\n" + block(name, units, row, bounds, LCORES[key]) in out, name
    # the ones worked by hand: latency 16, 20, 20, 100, 3000, 5000, 9000
    assert ("hgSystemLatency[nanoseconds]: count 7  sum 17156  p50 96.0  p90 > 4096  "
            "p99 > 4096\n") in out
    # size 64, 65, 2^64 - 1: rank 1.5 is the second, in (64, 128]
    assert "hgPortSize[octets] of port.1.1: count 3  sum 128  p50 96.0" in out


def test_json(seg2):
    doc = json.loads(stat("--json", seg2).stdout)
    g = doc["groups"]
    assert g["system"]["types"] == {"hgSystemPkts": "counter64",
                                    "hgSystemLatency": "histogram",
                                    "hgSystemBurst": "histogram",
                                    "hgSystemQueueDepth": "peak"}
    assert g["system"]["counters"] == {"hgSystemPkts": 1500, "hgSystemQueueDepth": 70}
    assert g["system"]["histograms"] == {
        "hgSystemLatency": whole(LATENCY, LCORES["latency"]),
        "hgSystemBurst": whole(BURST, LCORES["burst"])}
    rows = g["port"]["rows"]
    assert [r["counters"] for r in rows] == [
        {"hgPortRxPkts": rx, "hgPortPeakBurst": pk}
        for rx, pk in ((0, 9), (0, 0), (25, 32), (0, 0), (0, 0), (0, 0), (0, 0), (7, 0))]
    assert [r["histograms"] for r in rows] == [
        {"hgPortSize": whole(SIZE, LCORES.get("size %d.%d" % tuple(r["index"]), []))}
        for r in rows]
    assert rows[0]["histograms"]["hgPortSize"]["sum"] == 128  # 64 + 65 + 2^64 - 1
    (flow,) = g["flow"]["rows"]
    assert flow["counters"] == {"hgFlowPkts": 9, "hgFlowMaxGap": 2000}
    assert flow["histograms"] == {"hgFlowGap": whole(GAP, LCORES["gap"])}
    assert "histograms" not in g["pool"]
    # every 64-bit number a string with --json-strings, as counters are
    s = json.loads(stat("--json", "--json-strings", seg2).stdout)["groups"]["system"]
    assert s["histograms"]["hgSystemBurst"] == {
        "bounds": ["0", "1", "8", "32"], "buckets": ["1", "1", "1", "0", "1"],
        "count": "4", "sum": "104"}
    assert s["counters"]["hgSystemQueueDepth"] == "70"


def test_sorted_json_is_the_streamed_one(seg2):
    """A table with histograms is read whole, not streamed: --sort (a
    whole snapshot) gives the same rows, in its order."""
    plain = json.loads(stat("--json", seg2).stdout)["groups"]["port"]["rows"]
    top = json.loads(stat("--json", "--sort", "peakBurst", "--top", "2",
                          seg2).stdout)["groups"]["port"]["rows"]
    assert top == [plain[2], plain[0]]


def test_match_and_output(seg):
    out = stat("--match", "latency", seg).stdout
    assert out == text(f"""
        HISTOGRAMS-TEST-MIB  {seg}  generation 1  writer gone

        system
        """) + "\n" + block("hgSystemLatency", "nanoseconds", None, LATENCY, BASE["latency"])
    doc = json.loads(stat("--json", "--match", "hgPortSize", seg).stdout)
    assert list(doc["groups"]) == ["port"]
    assert doc["groups"]["port"]["rows"][2] == {
        "row": 2, "index": [2, 1], "counters": {},
        "histograms": {"hgPortSize": whole(SIZE, [1500])}}
    # --output: a histogram named is shown, one not named is not
    out = stat("--output", "NAME,VALUE,hgFlowGap", seg).stdout
    assert "hgFlowGap[microseconds] of flow/10.0.0.1,7: count 1  sum 1000" in out
    assert "hgSystemLatency" not in out and "hgPortSize" not in out
    assert "flow: 1 of 16 rows present\n\n  hgFlowGap" in out
    # a peak is a column: it sorts; a histogram is none
    r = stat("--sort", "hgPortSize", seg, check=False)
    assert r.returncode == 2 and "'hgPortSize' is no index" in r.stderr
    r = stat("--output", "hgPortSizeCount", seg, check=False)
    assert r.returncode == 2 and "nor a histogram" in r.stderr
    # --raw: the tables alone
    assert "LE" not in stat("--raw", seg).stdout


def test_reset(seg2):
    def groups():
        return json.loads(stat("--json", seg2).stdout)["groups"]

    assert stat("--reset", "port.1.1", "--yes", seg2).returncode == 0
    g = groups()
    assert g["port"]["rows"][0]["counters"] == {"hgPortRxPkts": 0, "hgPortPeakBurst": 0}
    assert g["port"]["rows"][0]["histograms"] == {"hgPortSize": whole(SIZE, [])}
    assert g["port"]["rows"][2]["histograms"] == {"hgPortSize": whole(SIZE, [1500])}
    assert g["port"]["rows"][2]["counters"]["hgPortPeakBurst"] == 32
    assert g["system"]["counters"]["hgSystemQueueDepth"] == 70
    assert stat("--reset", "system", "--yes", seg2).returncode == 0
    g = groups()
    assert g["system"]["counters"] == {"hgSystemPkts": 0, "hgSystemQueueDepth": 0}
    assert g["system"]["histograms"] == {"hgSystemLatency": whole(LATENCY, []),
                                         "hgSystemBurst": whole(BURST, [])}
    assert g["flow"]["rows"][0]["counters"]["hgFlowMaxGap"] == 2000
    assert stat("--reset", "--yes", seg2).returncode == 0
    g = groups()
    assert g["flow"]["rows"][0]["histograms"] == {"hgFlowGap": whole(GAP, [])}
    assert g["flow"]["rows"][0]["counters"] == {"hgFlowPkts": 0, "hgFlowMaxGap": 0}
    assert "hgSystemLatency[nanoseconds]: count 0  sum 0\n" in stat(seg2).stdout


def test_watch(seg):
    """--watch: a peak is a level (no rate, as a gauge), a histogram's
    block is in every frame."""
    w = subprocess.Popen([STAT, "--watch", "0.05", seg], stdout=subprocess.PIPE, text=True)
    frames = []
    try:
        while len(frames) < 3:
            out = ""
            for line in w.stdout:
                out += line
                if line.startswith("  hgPoolAllocs"):
                    break
            frames.append(out)
    finally:
        w.send_signal(signal.SIGINT)
        assert w.wait(timeout=30) == 0
    assert "  hgSystemPkts        1500 packets    -\n" in frames[0]
    assert "  hgSystemPkts        1500 packets  0/s\n" in frames[2]
    for f in frames:
        assert "  hgSystemQueueDepth    40 packets\n" in f
        assert "\n" + block("hgSystemLatency", "nanoseconds", None, LATENCY,
                            BASE["latency"]) in f
    assert "hgPortPeakBurst[packets]\n" in frames[2]  # a level: no /s


# ---- one snapshot per read, under a writer at full speed ----

def check_frame(doc):
    """What every consistent read of mkhist --spin's segment shows (its
    comment): a histogram's count is the sum of its buckets and its sum
    the values they hold; the latency count and the peak go with pkts,
    updated in the same transactions. Returns the latency count, or None
    for a frame that says a row was read best effort (its writer stayed
    inside its transaction past the read patience: a busy host), whose
    values the read does not vouch for."""
    s = doc["groups"]["system"]
    rows = (s, doc["groups"]["port"]["rows"][2], doc["groups"]["flow"]["rows"][0])
    if any(r.get("best_effort") for r in rows):
        return None
    pkts = s["counters"]["hgSystemPkts"]
    lat, burst = s["histograms"]["hgSystemLatency"], s["histograms"]["hgSystemBurst"]
    size = doc["groups"]["port"]["rows"][2]["histograms"]["hgPortSize"]
    gap = doc["groups"]["flow"]["rows"][0]["histograms"]["hgFlowGap"]
    for h in (lat, burst, size, gap):
        assert h["count"] == sum(h["buckets"]), h
    assert lat["sum"] == 100 * lat["buckets"][3] + 5000 * lat["buckets"][9], lat
    assert burst["sum"] == 3 * burst["count"] == 3 * burst["buckets"][2], burst
    assert size["sum"] == 1500 * size["count"], size
    assert gap["sum"] == 1000 * gap["count"], gap
    assert lat["count"] == 2 * pkts - 2998, (pkts, lat)
    assert s["counters"]["hgSystemQueueDepth"] == max(40, pkts - 1500), s["counters"]
    return lat["count"]


def text_frame(out):
    """The same of a text read: each block's count is the sum of its
    COUNT lines, and its percentiles those of the buckets shown."""
    n = 0
    for part in out.split("\n\n"):
        head, *rows = part.strip("\n").split("\n")
        if ": count " not in head or not rows:
            continue
        count = int(head.split(": count ")[1].split()[0])
        les = [r.rsplit(None, 1) for r in rows[1:]]
        counts = [int(c) for _, c in les]
        bounds = [int(le) for le, _ in les[:-1]]
        assert count == sum(counts), part
        for p, q in (("p50", .5), ("p90", .9), ("p99", .99)):
            assert "  %s %s" % (p, estimate(bounds, counts, q)) in head, (p, part)
        n += 1
    return n


@pytest.fixture
def spinning(tmp_path):
    path = tmp_path / "spin.seg"
    p = subprocess.Popen([MKHIST, str(path), "--spin"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready", p.stderr.read()
    yield str(path)
    p.stdin.close()
    assert p.wait(timeout=60) == 0, p.stderr.read()
    os.unlink(path)


def test_consistent_under_full_speed(spinning):
    """--watch --json, a read of every row a frame, while lcore 1 observes
    as fast as its transactions go: every frame consistent, until a
    hundred frames saw the count move (hang guard: 120 s)."""
    w = subprocess.Popen([STAT, "--watch", "0.001", "--json", spinning],
                         stdout=subprocess.PIPE, text=True)
    moved, last, frames, skipped, end = 0, None, 0, 0, time.monotonic() + 120
    try:
        for line in w.stdout:
            n = check_frame(json.loads(line))
            frames += 1
            if n is None:
                skipped += 1
                continue
            moved += last is not None and n != last
            last = n
            if moved >= 100:
                break
            assert time.monotonic() < end, (frames, moved, skipped)
    finally:
        w.terminate()
        w.wait(timeout=30)
    assert moved >= 100, (frames, moved, skipped)
    print("frames %d, count moved in %d, best effort %d" % (frames, moved, skipped))
    # and the text: each block's count the sum of its lines, percentiles theirs
    for _ in range(20):
        assert text_frame(stat(spinning).stdout) == 4
