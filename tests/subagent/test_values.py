# SPDX-License-Identifier: BSD-3-Clause
"""Exact values after the writer stopped, through every read operation, in
all three serving modes (AgentX behind snmpd, standalone, snmpd module)."""
import re
import subprocess

from conftest import MODULE, oid_key
import snmpharness as h  # noqa: E402  (tests/lib, on the path from conftest)


def as_tuples(varbinds):
    return [(vb.oid, vb.type, vb.value) for vb in varbinds]


def test_get_every_object(served):
    objs = served.expect.objects
    assert len(objs) > 100
    for i in range(0, len(objs), 20):
        chunk = objs[i:i + 20]
        r = served.client.get([o for o, _, _ in chunk])
        assert r.rc == 0, r
        assert as_tuples(r.varbinds) == chunk


def test_walk_is_exact_and_ends_at_module_end(served):
    r = served.client.walk(served.expect.root)
    assert r.rc == 0, r
    assert as_tuples(r.varbinds) == served.expect.objects
    # GETNEXT from the last object leaves the module
    last = served.expect.objects[-1][0]
    assert last == served.expect.oid(4, 2, 1, 4, 6)  # epEventStatsDropped.6
    nxt = served.client.getnext([last])
    assert len(nxt.varbinds) == 1
    vb = nxt.varbinds[0]
    assert vb.type == "endOfMibView" or not vb.oid.startswith(served.expect.root + ".")


def test_bulkwalk_is_exact(served):
    for reps in (1, 7, 50):
        r = served.client.bulkwalk(served.expect.root, reps=reps)
        assert r.rc == 0, r
        assert as_tuples(r.varbinds) == served.expect.objects, reps


def test_walk_from_inside_and_below_instances(served):
    e = served.expect
    # Walk of one column of the flow table: exactly its present rows.
    col = e.oid(1, 4, 1, 1)
    r = served.client.walk(col)
    want = [t for t in e.objects if t[0].startswith(col + ".")]
    assert [int(o.rsplit(".", 1)[1]) for o, _, _ in want] == \
        [1, 2, 3, 6, 7, 101, 1001, 4096, 65536]
    assert as_tuples(r.varbinds) == want
    # GETNEXT from odd places: between rows, under an instance, past a column
    cases = {
        e.oid(1, 4, 1, 1, 3): e.oid(1, 4, 1, 1, 6),        # skips absent rows 4, 5
        e.oid(1, 4, 1, 1, 3, 9, 9): e.oid(1, 4, 1, 1, 6),  # below an instance
        e.oid(1, 4, 1, 1, 0): e.oid(1, 4, 1, 1, 1),
        e.oid(1, 4, 1, 1, 70000): e.oid(1, 4, 1, 2, 1),    # past the last index
        e.oid(1, 4, 1, 3): e.oid(1, 4, 1, 1001, 1),       # between columns
        e.oid(1, 3, 1, 2, 4, 8): e.oid(1, 3, 1, 1001, 1, 1),  # two indexes
        e.oid(1, 3, 1, 1, 2): e.oid(1, 3, 1, 1, 2, 1),
        e.oid(1, 1, 7): e.oid(1, 1, 7, 0),
        e.oid(1, 1, 7, 0): e.oid(1, 1, 8, 0),             # a histogram's count
        e.oid(1, 1, 8): e.oid(1, 1, 8, 0),
        e.oid(1, 1, 9, 0): e.oid(1, 1, 1001, 0),          # from its sum
        e.oid(1, 1, 10): e.oid(1, 1, 1001, 0),
        e.oid(1, 6, 2000): e.oid(1, 7, 1, 1, 10, 0, 0, 1, 0),  # server's first key
        e.oid(1, 7, 1, 1, 10, 0, 0, 1): e.oid(1, 7, 1, 1, 10, 0, 0, 1, 0),
        e.oid(1, 7, 1, 2, 255): e.oid(1, 7, 1, 3, 10, 0, 0, 1, 0),  # to the states
        e.oid(1, 7, 2000): e.oid(1, 8, 1, 0),             # a group of states only
        e.oid(1, 8, 1, 0): e.oid(1, 8, 2, 0),
        e.oid(1, 8, 2000): e.oid(1, 1008, 1, 2, 1),       # past the last group:
        e.oid(1, 1008, 1, 1): e.oid(1, 1008, 1, 2, 1),    # a bucket table
        e.oid(1, 1008, 1, 3, 17): e.oid(1, 2009, 1, 2, 1, 1),  # the next one
        e.oid(1, 2009, 1, 2, 1, 8): e.oid(1, 2009, 1, 2, 2, 1),  # the next row
        e.oid(1, 2009, 1, 3, 4, 8): e.oid(2, 1, 0),       # past the last
        e.oid(1): e.oid(1, 1, 1, 0),
        e.root: e.oid(1, 1, 1, 0),
        e.oid(2): e.oid(2, 1, 0),
        e.oid(2, 1, 0): e.oid(2, 2, 0),
    }
    r = served.client.getnext(list(cases))
    assert [vb.oid for vb in r.varbinds] == list(cases.values())
    for vb in r.varbinds:
        assert (vb.type, vb.value) == e.by_oid[vb.oid]


def test_absent_and_unknown_instances(served):
    e = served.expect
    r = served.client.get(e.absent)
    assert e.absent and [vb.type for vb in r.varbinds] == ["noSuchInstance"] * len(e.absent)
    odd = {
        e.oid(1, 1, 1): "noSuchInstance",          # scalar without .0
        e.oid(1, 1, 1, 1): "noSuchInstance",
        e.oid(1, 1, 99, 0): "noSuchObject",        # no such counter
        e.oid(1, 4, 1, 1, 0): "noSuchInstance",    # index 0
        e.oid(1, 4, 1, 1, 65537): "noSuchInstance",
        e.oid(1, 4, 1, 1011, 1): "noSuchObject",   # index column: not-accessible
        e.oid(1, 3, 1, 1, 1): "noSuchInstance",    # one index of two
        e.oid(1, 9, 1, 0): "noSuchObject",         # no such group
        e.oid(1, 8, 1001, 0): "noSuchObject",      # states only: no Reset
        e.oid(2, 7, 0): "noSuchObject",            # no such module object
        e.oid(2, 3, 1): "noSuchInstance",          # WriterStatus without .0
        e.oid(3, 1, 0): "noSuchObject",            # conformance: not served
    }
    r = served.client.get(list(odd))
    assert [vb.type for vb in r.varbinds] == list(odd.values())


def mib_syntax(served, name):
    c = served.client
    out = subprocess.run(
        ["snmptranslate", "-M", ":".join(c.mib_dirs), "-m", MODULE, "-Td",
         "%s::%s" % (MODULE, name)], capture_output=True, text=True,
        env={"MIBS": "", "PATH": "/usr/bin:/bin"}).stdout
    m = (re.search(r"TEXTUAL CONVENTION (\w+)", out) or
         re.search(r"SYNTAX\s+(\w+)", out))
    return m.group(1) if m else out


def test_types_match_the_generated_mib(served):
    e = served.expect
    server = e.oid(1, 7, 1, 4) + "."
    key = next(o for o, _, _ in e.objects if o.startswith(server))[len(server):]
    named = {  # name: (OID, its SYNTAX or TEXTUAL-CONVENTION in the MIB)
        "epGlobalRxPkts.0": (e.oid(1, 1, 1, 0), "Counter64"),
        "epGlobalMbufAllocFails.0": (e.oid(1, 1, 7, 0), "Counter32"),
        "epPortRxErrors.2": (e.oid(1, 2, 1, 5, 2), "Counter32"),
        "epPortName.1": (e.oid(1, 2, 1, 6, 1), "DisplayString"),
        "epPortLink.2": (e.oid(1, 2, 1, 7, 2), "INTEGER"),
        "epPortSpeed.3": (e.oid(1, 2, 1, 8, 3), "Unsigned32"),
        "epPortQueueBytes.4.8": (e.oid(1, 3, 1, 2, 4, 8), "Counter64"),
        "epFlowPkts.65536": (e.oid(1, 4, 1, 1, 65536), "Counter64"),
        "epFlowStateActiveFlows.0": (e.oid(1, 5, 1, 0), "Gauge32"),
        "epErrorsFlowTableFull.0": (e.oid(1, 6, 2, 0), "Counter32"),
        "epServerStatus." + key: (e.oid(1, 7, 1, 3) + "." + key, "INTEGER"),
        "epServerLastSeen." + key: (server + key, "TimeStamp"),
        "epAppVersion.0": (e.oid(1, 8, 1, 0), "DisplayString"),
        "epAppStartTime.0": (e.oid(1, 8, 2, 0), "DateAndTime"),
        "epResetAll.0": (e.oid(2, 1, 0), "TruthValue"),
        "epDiscontinuityTime.0": (e.oid(2, 2, 0), "TimeStamp"),
    }
    r = served.client.get(["%s::%s" % (MODULE, n) for n in named], use_mib=True)
    assert r.rc == 0, r
    assert [vb.oid for vb in r.varbinds] == [o for o, _ in named.values()]
    for (name, (oid, syntax)), vb in zip(named.items(), r.varbinds):
        assert syntax == mib_syntax(served, name.split(".")[0])
        want = e.by_oid[oid]
        # the MIB's DISPLAY-HINTs: a DisplayString's text, a DateAndTime's date
        if syntax == "DisplayString":
            want = ("STRING", want[1].strip('"'))
        elif syntax == "DateAndTime":
            y, mo, d, hh, mi, ss, ds, (sign, tzh, tzm) = h.date_and_time(h.parse_hex(want[1]))
            want = ("STRING", "%d-%d-%d,%d:%d:%d.%d,%s%d:%d" % (y, mo, d, hh, mi, ss, ds,
                                                              sign, tzh, tzm))
        assert (vb.type, vb.value) == want, name


def test_snmptable_of_the_flow_table(served):
    e = served.expect
    res, cols, rows = served.client.table("%s::epFlowTable" % MODULE)
    assert res.rc == 0, res
    assert cols[:3] == ["index", "epFlowPkts", "epFlowBytes"]
    want = []
    for idx in (1, 2, 3, 6, 7, 101, 1001, 4096, 65536):
        want.append([str(idx), str(e.value(1, 4, 1, 1, idx)),
                     str(e.value(1, 4, 1, 2, idx))])
    assert [row[:3] for row in rows] == want


def test_expectations_cover_what_the_writer_did(served):
    """Guard the guard: the writer's amounts exercise every conversion."""
    e = served.expect
    types = {t for _, t, _ in e.objects}
    assert types == {"Counter64", "Counter32", "Gauge32", "INTEGER", "Timeticks",
                     "STRING", "Hex-STRING"}
    # the states of every present row (their values: fm-state-wire.c)
    assert {(s["group"], s["state"]) for s in e.states} == {
        ("port", "name"), ("port", "link"), ("port", "speed"), ("server", "status"),
        ("server", "lastSeen"), ("app", "version"), ("app", "startTime")}
    assert len(e.states) == 4 * 3 + 2 * len(e.keyed["server"]["keys"]) + 2
    assert any(t == "Counter64" and v >= 1 << 32 for _, t, v in e.objects)
    # Counter32 sums crossed 2^32 and are reported modulo 2^32
    c32 = [v for _, t, v in e.objects if t == "Counter32"]
    assert c32 and all(v < 1 << 20 for v in c32)
    assert sorted(e.objects, key=lambda t: oid_key(t[0])) == e.objects
