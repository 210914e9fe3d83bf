# SPDX-License-Identifier: BSD-3-Clause
"""Histograms and peaks over SNMP, in each serving mode (AgentX behind
snmpd, standalone, snmpd module), for the histograms test model
(tests/codegen/models/histograms.yaml, prefix hg: log2 and bounds
histograms and peaks in a scalar group, a dense table and a keyed table).

fm-hist (tests/subagent/fm-hist.c) writes from lcores 1 and 2 what a test
sends it. The test computes what SNMP must report from the model's bounds
(an observation v in the first bucket with v <= bound, else the last):
every bucket's bound and count, each histogram's count and sum (modulo
2^64) and every peak (the largest value of either lcore), through GET, a
walk and a bulk walk in OID order, GETNEXT across bucket rows and tables.
Under full-speed observation from both lcores every GET and GETBULK of
a row's count and buckets has the count equal to the sum of the buckets
and the sum what the buckets hold. Resets of a row, a group and the
module over SET zero buckets, count, sum and peaks, and count what comes
after them; a reset while both lcores observe counts nothing from before
it; a peak reset while values keep coming shows only values recorded
after it."""
import os
import shutil
import subprocess
import sys

import pytest
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import dpdkapp  # noqa: E402
import snmpharness as h  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "codegen", "models", "histograms.yaml")
ROOT = "1.3.6.1.4.1.8072.9999.63"
MODES = ["agentx", "standalone", "module"]
U64 = 2 ** 64

# the flows fm-hist inserts (keys 0 and 1), as InetAddressType,
# InetAddress (length, octets) and Unsigned32 index sub-identifiers
FLOW_INDEX = ["1.4.10.0.0.1.7",
              "2.16.32.1.13.184.0.0.0.0.0.0.0.0.0.0.0.1.9"]

# The full-speed cycle of fm-hist, and what it observes it into (30 times
# it for size): each value in a bucket of its own in each histogram.
CYCLE = [10, 20, 40, 100, 5000]

# A known multiset: (lcore, target, values), as fm-hist's `obs` takes it.
# Values at, below and above bounds, 0, 2^64 - 1 (a sum that wraps),
# several rows of each table, both lcores on one row.
KNOWN = [
    (1, "latency", [0, 16, 17, 100, 4096, 4097, 1 << 40]),
    (2, "latency", [5, 16, 300, U64 - 1]),
    (1, "burst", [0, 0, 1, 2, 8, 9, 32, 33, 1000]),
    (2, "burst", [1, 7]),
    (1, "size:1:1", [64, 65, 1500, 9000, 9001, U64 - 1]),
    (2, "size:1:1", [0, 16384, 16385]),
    (2, "size:4:2", [200]),
    (1, "gap:0", [0, 1, 2, 3, 1 << 31, (1 << 31) + 1, 1 << 40]),
    (2, "gap:1", [7]),
    (1, "queueDepth", [40, 7]),
    (2, "queueDepth", [39]),
    (1, "peakBurst:1:1", [3]),
    (2, "peakBurst:1:1", [32]),
    (2, "peakBurst:3:2", [5]),
    (1, "maxGap:0", [(1 << 63) + 5]),
    (2, "maxGap:0", [10]),
]


# ---- the model: where each object is, its bounds ----

class Hist:
    def __init__(self, group, garc, c, table):
        self.name, self.arc, self.group, self.garc = c["name"], c["oid"], group, garc
        if "log2" in c:
            lo, hi = c["log2"]
            self.bounds = [1 << k for k in range(lo, hi + 1)]
        else:
            self.bounds = list(c["bounds"])
        self.table = table

    def bucket(self, v):
        """0-based bucket of an observation."""
        for i, b in enumerate(self.bounds):
            if v <= b:
                return i
        return len(self.bounds)

    def le(self, b):
        return self.bounds[b] if b < len(self.bounds) else U64 - 1

    def n_buckets(self):
        return len(self.bounds) + 1


def load_model():
    with open(MODEL) as f:
        m = yaml.safe_load(f)
    hists, peaks = {}, {}
    for g in m["groups"]:
        for c in g["counters"]:
            if c["type"] == "histogram":
                hists[c["name"]] = Hist(g["name"], g["oid"], c, "table" in g)
            elif c["type"] == "peak":
                peaks[c["name"]] = (g["name"], g["oid"], c["oid"], "table" in g)
    return hists, peaks


HISTS, PEAKS = load_model()
# the rows of each group, as index sub-identifiers after the column ("0"
# for a scalar group), in OID order
ROWS = {"system": ["0"], "port": ["%d.%d" % (p, v) for p in range(1, 5) for v in (1, 2)],
        "flow": FLOW_INDEX}


def row_of(target):
    """(name, row index string) of an fm-hist target."""
    name, _, arg = target.partition(":")
    if not arg:
        return name, "0"
    if name in ("gap", "maxGap"):
        return name, FLOW_INDEX[int(arg)]
    return name, arg.replace(":", ".")


def oid(*arcs):
    return ".".join([ROOT] + [str(a) for a in arcs])


def object_oid(garc, arc, row):
    """A scalar (row "0") or a table column's instance."""
    return oid(1, garc, arc, 0) if row == "0" else oid(1, garc, 1, arc, row)


def bucket_oid(hist, col, row, b):
    """Column col of bucket b (1-based) of row `row` of `hist`."""
    parts = [1, 1000 * hist.garc + hist.arc, 1, col]
    if row != "0":
        parts.append(row)
    return oid(*parts, b)


class State:
    """What SNMP must report: per (histogram, row) the bucket counts, the
    count and the sum; per (peak, row) the largest value."""

    def __init__(self):
        self.buckets, self.count, self.sum, self.peak = {}, {}, {}, {}
        self.clear()

    def clear(self):
        for n, hi in HISTS.items():
            for row in ROWS[hi.group]:
                self.buckets[n, row] = [0] * hi.n_buckets()
                self.count[n, row] = 0
                self.sum[n, row] = 0
        for n, (g, _, _, _) in PEAKS.items():
            for row in ROWS[g]:
                self.peak[n, row] = 0

    def observe(self, target, values):
        name, row = row_of(target)
        for v in values:
            if name in HISTS:
                self.buckets[name, row][HISTS[name].bucket(v)] += 1
                self.count[name, row] += 1
                self.sum[name, row] = (self.sum[name, row] + v) % U64
            else:
                self.peak[name, row] = max(self.peak[name, row], v)

    def objects(self):
        """[(oid, type, value)] of every histogram and peak instance."""
        out = []
        for n, hi in HISTS.items():
            for row in ROWS[hi.group]:
                out.append((object_oid(hi.garc, hi.arc, row), "Counter64",
                            self.count[n, row]))
                out.append((object_oid(hi.garc, hi.arc + 1, row), "Counter64",
                            self.sum[n, row]))
                for b in range(hi.n_buckets()):
                    out.append((bucket_oid(hi, 2, row, b + 1), "Counter64", hi.le(b)))
                    out.append((bucket_oid(hi, 3, row, b + 1), "Counter64",
                                self.buckets[n, row][b]))
        for n, (g, garc, arc, _) in PEAKS.items():
            for row in ROWS[g]:
                out.append((object_oid(garc, arc, row), "Counter64", self.peak[n, row]))
        return sorted(out, key=lambda t: oid_key(t[0]))


def oid_key(o):
    return tuple(int(x) for x in o.split("."))


# ---- the writer and the agent ----

class HistWriter:
    def __init__(self, segment):
        binary = os.environ.get("FM_HIST")
        assert binary, "FM_HIST not set: run through ctest"
        self.proc = subprocess.Popen([binary, segment], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise h.HarnessError("fm-hist: %s" % self.proc.stderr.read())

    def command(self, *words):
        self.proc.stdin.write("\t".join(str(w) for w in words) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().strip()
        if line != "ok":
            raise h.HarnessError("fm-hist %s: %r %s" % (words, line, self.proc.stderr.read()))

    def stop(self):
        """End a `run`: the transactions made, one observation into each
        histogram each."""
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().split()
        if line[:1] != ["observed"] or self.proc.stdout.readline().strip() != "ok":
            raise h.HarnessError("fm-hist stop: %r %s" % (line, self.proc.stderr.read()))
        return int(line[1])

    def observe(self, state, known):
        for lcore, target, values in known:
            self.command("obs", lcore, target, *values)
            state.observe(target, values)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # the EAL's runtime directory, which a writer killed leaves behind
        tag = os.environ.get("FASTMIB_TEST_TAG") or "fmt"
        shutil.rmtree(dpdkapp.runtime_dir("%s-%d" % (tag, self.proc.pid)), ignore_errors=True)


class Served:
    def __init__(self, mode, work):
        self.mode = mode
        self.segment = os.path.join(work, "hg.seg")
        self.writer = HistWriter(self.segment)
        self.state = State()
        self.snmpd = None
        if mode == "module":
            self.agent = h.ModuleAgent([self.segment])
            self.snmpd = self.agent.snmpd
        else:
            if mode == "agentx":
                self.snmpd = h.Snmpd().start()
            self.agent = h.Agent([self.segment], self.snmpd, standalone=mode == "standalone")
        self.agent.start(wait_oid=oid(1, 1, 1, 0))  # hgSystemPkts.0
        self.client = self.agent.client

    def close(self):
        h.shut_down(self.agent, self.snmpd if self.mode != "module" else None)
        self.writer.close()
        if os.path.exists(self.segment):
            os.unlink(self.segment)

    def reset(self, *arcs):
        r = self.client.set(oid(*arcs), "i", 1)
        assert r.rc == 0 and r.error is None, r


@pytest.fixture(scope="module", params=MODES)
def served(request, tmp_path_factory):
    s = Served(request.param, str(tmp_path_factory.mktemp(request.param)))
    try:
        s.writer.observe(s.state, KNOWN)
        yield s
    finally:
        s.close()


def tuples(varbinds):
    return [(vb.oid, vb.type, vb.value) for vb in varbinds]


def get_all(client, oids, chunk=40):
    out = []
    for i in range(0, len(oids), chunk):
        r = client.get(oids[i:i + chunk])
        assert r.rc == 0 and r.error is None, r
        out += tuples(r.varbinds)
    return out


def hist_part(varbinds):
    """The varbinds of a walk that are histogram or peak instances."""
    want = {o for o, _, _ in State().objects()}
    return [t for t in tuples(varbinds) if t[0] in want]


# ---- exact values ----

def test_known_values_exact_by_get(served):
    want = served.state.objects()
    # bound and count of every bucket of every row, count and sum of every
    # histogram, every peak: the system group 2 * (10 + 5) + 4 + 1, the
    # port table 8 * (2 * 33 + 2 + 1), the flow table 2 * (2 * 33 + 2 + 1)
    assert len(want) == 35 + 552 + 138
    assert get_all(served.client, [o for o, _, _ in want]) == want
    # a few by hand, against the model read by eye
    v = dict((o, val) for o, _, val in want)
    assert v[oid(1, 1, 2, 0)] == 11                       # hgSystemLatencyCount
    assert v[oid(1, 1, 3, 0)] == (0 + 16 + 17 + 100 + 4096 + 4097 + (1 << 40) + 5 + 16 + 300
                                  + U64 - 1) % U64        # hgSystemLatencySum, wrapped
    assert v[oid(1, 1002, 1, 3, 1)] == 4                  # 0, 16, 5, 16 <= 16
    assert v[oid(1, 1002, 1, 2, 10)] == U64 - 1           # the unbounded bucket's bound
    assert v[oid(1, 1002, 1, 3, 10)] == 3                 # 4097, 2^40, 2^64 - 1
    assert v[oid(1, 1004, 1, 2, 1)] == 0                  # burst's bound 0
    assert v[oid(1, 1004, 1, 3, 1)] == 2                  # two 0s
    assert v[oid(1, 1, 6, 0)] == 40                       # hgSystemQueueDepth
    assert v[oid(1, 2, 1, 4, "1.1")] == 32                # lcore 2's is larger
    assert v[oid(1, 3, 1, 5, FLOW_INDEX[0])] == (1 << 63) + 5
    assert v[oid(1, 2002, 1, 3, "1.1", 32)] == 2          # 16385 and 2^64 - 1 <= 2^64 - 1
    assert v[oid(1, 2002, 1, 3, "1.1", 33)] == 0          # above 2^64 - 1: nothing
    assert v[oid(1, 3003, 1, 3, FLOW_INDEX[1], 4)] == 1   # 7 <= 8


@pytest.mark.parametrize("how", ["walk", "bulk1", "bulk25"])
def test_walk_in_oid_order(served, how):
    c = served.client
    r = c.walk(ROOT) if how == "walk" else c.bulkwalk(ROOT, reps=int(how[4:]))
    assert r.rc == 0 and r.error is None, r
    oids = [oid_key(vb.oid) for vb in r.varbinds]
    assert oids == sorted(oids) and len(set(oids)) == len(oids)
    assert hist_part(r.varbinds) == served.state.objects()
    # the bucket tables come after every group, before R.2
    got = [vb.oid for vb in r.varbinds]
    first_bucket = got.index(bucket_oid(HISTS["latency"], 2, "0", 1))
    assert got[first_bucket - 1] == oid(1, 4, 1002, 0)    # hgPoolDiscontinuityTime
    last_bucket = got.index(bucket_oid(HISTS["gap"], 3, FLOW_INDEX[1], 33))
    assert got[last_bucket + 1] == oid(2, 1, 0)           # hgResetAll


def test_getnext_across_bucket_rows(served):
    lat, size, gap = HISTS["latency"], HISTS["size"], HISTS["gap"]
    cases = [
        (oid(1, 1002), bucket_oid(lat, 2, "0", 1)),               # table -> first bound
        (oid(1, 1002, 1, 1), bucket_oid(lat, 2, "0", 1)),         # the index column
        (bucket_oid(lat, 2, "0", 10), bucket_oid(lat, 3, "0", 1)),  # next column
        (bucket_oid(lat, 3, "0", 10), bucket_oid(HISTS["burst"], 2, "0", 1)),  # next table
        (bucket_oid(lat, 3, "0", 4) + ".7", bucket_oid(lat, 3, "0", 5)),  # below an instance
        (oid(1, 2002, 1, 3, 1, 1), bucket_oid(size, 3, "1.1", 1)),  # part of an index
        (bucket_oid(size, 3, "1.1", 33), bucket_oid(size, 3, "1.2", 1)),  # next row
        (bucket_oid(size, 3, "4.2", 33), bucket_oid(gap, 2, FLOW_INDEX[0], 1)),
        (bucket_oid(gap, 2, FLOW_INDEX[0], 33), bucket_oid(gap, 2, FLOW_INDEX[1], 1)),
        (oid(1, 3003, 1, 2, 1, 4, 10, 0, 0, 2), bucket_oid(gap, 2, FLOW_INDEX[1], 1)),
        (bucket_oid(gap, 3, FLOW_INDEX[1], 33), oid(2, 1, 0)),    # past the last bucket
        (oid(1, 1, 2, 0), oid(1, 1, 3, 0)),                       # count -> sum
        (oid(1, 1, 5, 0), oid(1, 1, 6, 0)),                       # burst sum -> peak
    ]
    r = served.client.getnext([a for a, _ in cases])
    assert r.rc == 0, r
    assert [vb.oid for vb in r.varbinds] == [b for _, b in cases]
    want = dict((o, (t, v)) for o, t, v in served.state.objects())
    for vb in r.varbinds:
        if vb.oid in want:
            assert (vb.type, vb.value) == want[vb.oid], vb.oid


def test_get_missing_instances(served):
    cases = {
        oid(1, 1002, 1, 3, 11): "noSuchInstance",              # bucket past n + 1
        oid(1, 1002, 1, 3, 0): "noSuchInstance",               # bucket 0
        oid(1, 1002, 1, 1, 1): "noSuchObject",                 # the index: not-accessible
        oid(1, 2002, 1, 3, "5.1", 1): "noSuchInstance",        # no such port row
        oid(1, 3003, 1, 3, "1.4.10.0.0.9.7", 1): "noSuchInstance",  # no such key
        oid(1, 1003, 1, 3, 1): "noSuchObject",                 # no histogram at arc 3
    }
    r = served.client.get(list(cases))
    assert r.rc == 0, r
    assert [vb.type for vb in r.varbinds] == list(cases.values())


# ---- resets ----

def test_resets(served):
    s, c = served, served.client
    before = s.state
    # a row: port (1, 1), whose size histogram and peak both lcores wrote
    s.reset(1, 2, 1, 1001, "1.1")
    after = State()
    after.buckets, after.count, after.sum, after.peak = (
        dict(before.buckets), dict(before.count), dict(before.sum), dict(before.peak))
    after.buckets["size", "1.1"] = [0] * HISTS["size"].n_buckets()
    after.count["size", "1.1"] = after.sum["size", "1.1"] = after.peak["peakBurst", "1.1"] = 0
    want = after.objects()
    assert get_all(c, [o for o, _, _ in want]) == want
    # what comes after it counts, and only that
    s.writer.observe(after, [(2, "size:1:1", [100, 100, 7000]), (1, "peakBurst:1:1", [4])])
    assert get_all(c, [o for o, _, _ in want]) == after.objects()
    # a group: the system scalars, peaks too
    s.reset(1, 1, 1001, 0)
    for n in ("latency", "burst"):
        after.buckets[n, "0"] = [0] * HISTS[n].n_buckets()
        after.count[n, "0"] = after.sum[n, "0"] = 0
    after.peak["queueDepth", "0"] = 0
    assert get_all(c, [o for o, _, _ in want]) == after.objects()
    # the module: everything
    s.reset(2, 1, 0)
    s.state = State()
    assert get_all(c, [o for o, _, _ in want]) == s.state.objects()
    # lcore 1 records peaks and observes again; lcore 2, idle since the
    # reset, had the larger peaks before it: they stay hidden
    s.writer.observe(s.state, [(1, "queueDepth", [3]), (1, "maxGap:0", [2]),
                               (1, "latency", [50])])
    assert get_all(c, [o for o, _, _ in want]) == s.state.objects()
    # and the known values again, for the tests that follow
    s.reset(2, 1, 0)
    s.state = State()
    s.writer.observe(s.state, KNOWN)
    assert get_all(c, [o for o, _, _ in want]) == s.state.objects()


# ---- one snapshot per request under full-speed observation ----

def test_reset_while_observing(served):
    """A module reset over SNMP while lcores 1 and 2 observe at full speed:
    nothing read before it is counted after it (the count read before
    the reset plus the count at the end is at most what the writer
    made), the count stays the sum of the buckets, and what comes after
    the writer stopped is counted exactly."""
    s, c = served, served.client
    lat = HISTS["latency"]
    count_oid = object_oid(1, lat.arc, "0")
    oids = [count_oid] + [bucket_oid(lat, 3, "0", b + 1) for b in range(lat.n_buckets())]
    s.reset(2, 1, 0)
    s.writer.command("run", PAUSES, 1, 2)
    try:
        before = None
        for _ in range(20 * READS):
            r = c.get([count_oid])
            if r.rc == 0 and r.error is None and r.varbinds[0].value:
                before = r.varbinds[0].value
                break
        assert before, "the writer does not move"
        s.reset(2, 1, 0)
        # the writer observes after the reset before it stops (on a busy
        # machine it may not have run at all in between)
        moved = False
        for _ in range(20 * READS):
            r = c.get([count_oid])
            if r.rc == 0 and r.error is None and r.varbinds[0].value:
                moved = True
                break
        assert moved, "the writer does not move after the reset"
    finally:
        made = s.writer.stop()
    vals = [vb.value for vb in c.get(oids).varbinds]
    assert vals[0] == sum(vals[1:]) and 0 < vals[0] and before + vals[0] <= made, \
        (before, vals, made)
    s.writer.command("obs", 1, "latency", 10, 5000)
    after = [vb.value for vb in c.get(oids).varbinds]
    assert after[0] == vals[0] + 2 and after[1] == vals[1] + 1 and after[-1] == vals[-1] + 1
    s.reset(2, 1, 0)
    s.state = State()
    s.writer.observe(s.state, KNOWN)

def cycle_sums():
    """{histogram: [(0-based bucket, value)]} of the full-speed cycle."""
    out = {}
    for n, scale in (("latency", 1), ("size", 30), ("gap", 1)):
        bs = [(HISTS[n].bucket(scale * v), scale * v) for v in CYCLE]
        assert len({b for b, _ in bs}) == len(bs), n  # a bucket each
        out[n] = bs
    return out


ROW_OF = {"latency": "0", "size": "1.1", "gap": FLOW_INDEX[0]}


def best_effort_reads(c):
    """hgBestEffortReads.0: the reads this segment's readers answered best
    effort, so far."""
    r = c.get([oid(2, 4, 0)])
    assert r.rc == 0 and r.error is None, r
    return r.varbinds[0].value


def read_rows(c):
    """One GET of count, sum and every bucket count of each histogram the
    full-speed writer observes into, and their peaks: (its varbinds by
    name, or None for an answer that may be best effort: one during which
    hgBestEffortReads moved, a writer having stayed inside its transaction
    past the read patience)."""
    oids = []
    for n, row in ROW_OF.items():
        hi = HISTS[n]
        oids += [object_oid(hi.garc, hi.arc, row), object_oid(hi.garc, hi.arc + 1, row)]
        oids += [bucket_oid(hi, 3, row, b + 1) for b in range(hi.n_buckets())]
    for n, row in (("queueDepth", "0"), ("peakBurst", "1.1"), ("maxGap", FLOW_INDEX[0])):
        g, garc, arc, _ = PEAKS[n]
        oids.append(object_oid(garc, arc, row))
    before = best_effort_reads(c)
    r = c.get(oids)
    assert r.rc == 0 and r.error is None, r
    if best_effort_reads(c) != before:
        return None
    vals = [vb.value for vb in r.varbinds]
    assert len(vals) == len(oids), r
    out, i = {}, 0
    for n in ROW_OF:
        nb = HISTS[n].n_buckets()
        out[n] = (vals[i], vals[i + 1], vals[i + 2:i + 2 + nb])
        i += 2 + nb
    out["peaks"] = vals[i:]
    return out


def read_bulk(c):
    """One GETBULK of the latency histogram: its count and sum as
    non-repeaters, its ten bucket counts as repetitions (over AgentX, one
    PDU per repetition, all of one transaction id): like read_rows()."""
    hi = HISTS["latency"]
    before = best_effort_reads(c)
    r = c.run("snmpbulkget", ["-Cn2", "-Cr%d" % hi.n_buckets(), oid(1, 1, hi.arc),
                              oid(1, 1, hi.arc + 1), oid(1, 1000 + hi.arc, 1, 3)])
    assert r.rc == 0 and r.error is None, r
    if best_effort_reads(c) != before:
        return None
    want = [object_oid(1, hi.arc, "0"), object_oid(1, hi.arc + 1, "0")] + \
        [bucket_oid(hi, 3, "0", b + 1) for b in range(hi.n_buckets())]
    assert [vb.oid for vb in r.varbinds] == want, r
    vals = [vb.value for vb in r.varbinds]
    return {"latency": (vals[0], vals[1], vals[2:])}


def consistent(reading, sums):
    """Names of the histograms read torn: a count that is not the sum of
    the buckets, or a sum that is not what the buckets hold."""
    torn = []
    for n, (count, total, buckets) in reading.items():
        if n == "peaks":
            continue
        if count != sum(buckets) or total != sum(buckets[b] * v for b, v in sums[n]) % U64:
            torn.append(n)
    return torn


READS = 60
# Pauses of the full-speed writer between two transactions (fm-hist `run`):
# a few hundred nanoseconds. Back to back, a transaction opens again the
# moment the last one closed, and a reader never finds its row even long
# enough to copy it: its reads wait out their patience and then answer
# best effort (counted, and left out of the check).
PAUSES = 16


def test_one_snapshot_under_full_speed(served):
    """Every GET of a row's count, sum and buckets, and every GETBULK of
    them, has them from one snapshot while lcores 1 and 2 observe at full
    speed. Negative control:
    taking a new snapshot for every varbind (snaps.c reading afresh in
    fma_snap_counters()) fails this test at its first reads."""
    s, c = served, served.client
    sums = cycle_sums()
    s.reset(2, 1, 0)
    s.writer.command("run", PAUSES, 1, 2)
    try:
        readings, last, moved, tries = 0, None, 0, 0
        while moved < READS:
            tries += 1
            assert tries < 20 * READS, "%d answers in %d reads" % (readings, tries)
            rd = read_bulk(c) if tries % 2 else read_rows(c)
            if rd is None:
                continue
            readings += 1
            assert consistent(rd, sums) == [], rd
            # peaks: the cycle's largest value at most, from the cycle only
            assert all(p in CYCLE or p == 0 for p in rd.get("peaks", [])), rd
            moved += rd["latency"][0] != last
            last = rd["latency"][0]
    finally:
        s.writer.stop()
    s.reset(2, 1, 0)
    s.state = State()
    s.writer.observe(s.state, KNOWN)


def test_peak_reset_while_values_keep_coming(served):
    """Peaks of 2^40 and more from both lcores, then both observe the
    cycle (at most 5000) at full speed; a reset of the module: from then
    on no read shows a value recorded before it, and the peaks come back
    to the cycle's largest."""
    s, c = served, served.client
    big = [(1, "queueDepth", [1 << 40]), (2, "queueDepth", [(1 << 40) + 1]),
           (1, "peakBurst:1:1", [1 << 41]), (2, "maxGap:0", [1 << 42])]
    s.reset(2, 1, 0)
    for lcore, target, values in big:
        s.writer.command("obs", lcore, target, *values)
    s.writer.command("run", PAUSES, 1, 2)
    try:
        rd = None
        for _ in range(20 * READS):
            rd = read_rows(c)
            if rd is not None:
                break
        assert rd["peaks"] == [(1 << 40) + 1, 1 << 41, 1 << 42]
        s.reset(2, 1, 0)
        seen = set()
        for _ in range(2 * READS):
            rd = read_rows(c)
            if rd is None:
                continue
            assert all(p in CYCLE or p == 0 for p in rd["peaks"]), rd["peaks"]
            seen.update(rd["peaks"])
        assert max(CYCLE) in seen
    finally:
        s.writer.stop()
    s.reset(2, 1, 0)
    s.state = State()
    s.writer.observe(s.state, KNOWN)
