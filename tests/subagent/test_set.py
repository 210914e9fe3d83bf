# SPDX-License-Identifier: BSD-3-Clause
"""Resets over SNMP SET, access control, discontinuity times and SET errors,
in all three serving modes. Every test starts from a freshly written
segment."""
import itertools

import pytest

import snmpharness as h

_scales = itertools.count(2)


@pytest.fixture
def fresh(served):
    """Re-create the segment with new values; wait until they are served."""
    served.refill(next(_scales))
    return served


def values(served, oids, who="ro"):
    r = served.client.get(oids, who)
    assert r.rc == 0, r
    return [vb.value for vb in r.varbinds]


def flow(e, col, idx):
    return e.oid(1, 4, 1, col, idx)


def uptime(served):
    return values(served, [h.SYS_UPTIME])[0]


def walk(served):
    r = served.client.walk(served.expect.root)
    assert r.rc == 0, r
    return [(vb.oid, vb.type, vb.value) for vb in r.varbinds]


def checked_walk(served):
    """Walk, checking every counter against the writer's expectations.
    (TimeStamps of a re-created segment's rows are the time the writer
    enabled them, so they are compared between walks, not to the file.)"""
    got = walk(served)
    assert [t for t in got if t[1] != "Timeticks"] == \
        [t for t in served.expect.objects if t[1] != "Timeticks"]
    assert [t[0] for t in got] == [t[0] for t in served.expect.objects]
    return got


@pytest.mark.parametrize("who", ["rw", "v3rw"])
def test_reset_one_row(fresh, who):
    e = fresh.expect
    row6 = [flow(e, 1, 6), flow(e, 2, 6)]
    row7 = [flow(e, 1, 7), flow(e, 2, 7)]
    discs = [flow(e, 1002, 6), flow(e, 1002, 7), e.oid(2, 2, 0)]
    assert values(fresh, row6 + row7) == [e.by_oid[o][1] for o in row6 + row7]
    # Enabling a row is a discontinuity too, so a re-created segment's rows
    # may already carry one: compare with what they were.
    before = values(fresh, discs)
    h.wait_for(lambda: uptime(fresh) > max(before) + 1, 10, "sysUpTime to advance")
    r = fresh.client.set(flow(e, 1001, 6), "i", 1, who=who)
    assert r.rc == 0 and r.error is None, r
    assert values(fresh, row6) == [0, 0]
    assert values(fresh, row7) == [e.by_oid[o][1] for o in row7]
    disc6, disc7, disc_all, up = values(fresh, discs + [h.SYS_UPTIME])
    assert before[0] < disc6 <= up
    assert [disc7, disc_all] == before[1:]
    # the reset column still reads false(2)
    assert values(fresh, [flow(e, 1001, 6)]) == [2]


def test_reset_scalar_group_leaves_gauges(fresh):
    e = fresh.expect
    glob = [e.oid(1, 1, c, 0) for c in range(1, 8)]
    state = [e.oid(1, 5, c, 0) for c in (1, 2, 3)]
    gauge = e.by_oid[state[0]][1]
    assert gauge > 0
    r = fresh.client.set(e.oid(1, 1, 1001, 0), "i", 1, who="v3rw")
    assert r.rc == 0, r
    assert values(fresh, glob) == [0] * 7
    assert values(fresh, [e.oid(1, 1, 1002, 0)])[0] > 0
    r = fresh.client.set(e.oid(1, 5, 1001, 0), "i", 1)
    assert r.rc == 0, r
    # a gauge is a level, not an accumulation: reset leaves it alone
    assert values(fresh, state) == [gauge, 0, 0]
    # untouched groups keep their values
    port = [o for o, _, _ in e.objects if o.startswith(e.oid(1, 2, 1, 1) + ".")]
    assert values(fresh, port) == [e.by_oid[o][1] for o in port]


def test_reset_all(fresh):
    e = fresh.expect
    checked_walk(fresh)
    r = fresh.client.set(e.oid(2, 1, 0), "i", 1, who="rw")
    assert r.rc == 0, r
    after = walk(fresh)
    assert [t[0] for t in after] == [o for o, _, _ in e.objects]
    module_disc = values(fresh, [e.oid(2, 2, 0)])[0]
    assert module_disc > 0
    states = {st["oid"] for st in e.states}
    assert states
    for oid, type_, value in after:
        if oid in states or oid in e.levels:
            # a reset never changes a state, nor a bucket's bound
            assert (type_, value) == e.by_oid[oid], oid
        elif type_ in ("Counter64", "Counter32"):
            assert value == 0, oid
        elif type_ == "Gauge32":
            assert value == e.by_oid[oid][1]
        elif type_ == "Timeticks":
            # every group and row was reset at the same instant
            assert value == module_disc, oid


def test_discontinuity_time_moves_forward(fresh):
    e = fresh.expect
    reset, disc = e.oid(1, 6, 1001, 0), e.oid(1, 6, 1002, 0)
    assert fresh.client.set(reset, "i", 1).rc == 0
    first = values(fresh, [disc])[0]
    assert first > 0
    # let sysUpTime advance (polling, bounded) before resetting again
    h.wait_for(lambda: uptime(fresh) > first + 1, 10, "sysUpTime to advance")
    assert fresh.client.set(reset, "i", 1).rc == 0
    second = values(fresh, [disc])[0]
    assert second > first


@pytest.mark.parametrize("who", ["ro", "v3ro"])
def test_read_only_cannot_reset(fresh, who):
    e = fresh.expect
    before = checked_walk(fresh)
    for oid in (flow(e, 1001, 6), e.oid(1, 1, 1001, 0), e.oid(2, 1, 0)):
        r = fresh.client.set(oid, "i", 1, who=who)
        assert r.rc != 0, r
        assert r.error == "noAccess", r
    assert checked_walk(fresh) == before


def test_bad_sets_are_refused_and_change_nothing(fresh):
    e = fresh.expect
    c = fresh.client
    before = checked_walk(fresh)
    cases = [
        (flow(e, 1001, 6), "s", "yes", "wrongType"),
        (flow(e, 1001, 6), "u", 1, "wrongType"),
        (flow(e, 1001, 6), "i", 3, "wrongValue"),
        (flow(e, 1001, 6), "i", 0, "wrongValue"),
        (e.oid(2, 1, 0), "i", -1, "wrongValue"),
        (flow(e, 1, 6), "i", 0, "notWritable"),          # a counter
        (flow(e, 1002, 6), "t", 0, "notWritable"),       # a TimeStamp
        (flow(e, 1, 6), "s", "x", "notWritable"),        # before wrongType
        (e.oid(1, 1, 1, 0), "i", 1, "notWritable"),
        (e.oid(1, 9, 1, 0), "i", 1, "notWritable"),      # no such object
        (flow(e, 1001, 4), "i", 1, "noCreation"),        # absent row
        (flow(e, 1001, 70000), "i", 1, "noCreation"),    # index out of range
        (e.oid(1, 1, 1001, 1), "i", 1, "noCreation"),    # scalar, wrong instance
    ]
    for oid, t, v, err in cases:
        r = c.set(oid, t, v)
        assert r.rc != 0 and r.error == err, (oid, t, v, r)
    # false(2) is accepted and does nothing
    r = c.set(flow(e, 1001, 6), "i", 2)
    assert r.rc == 0, r
    # a PDU with one bad varbind applies none of its resets
    r = c.run("snmpset", [flow(e, 1001, 7), "i", "1", flow(e, 1001, 6), "i", "5"],
              who="rw")
    assert r.error == "wrongValue", r
    assert checked_walk(fresh) == before
