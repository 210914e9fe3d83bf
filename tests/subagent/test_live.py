# SPDX-License-Identifier: BSD-3-Clause
"""Live reads while two lcores keep writing: values never go backwards, and
counters updated together in one transaction are always seen together, in
all three serving modes."""
import pytest

import snmpharness as h
from conftest import MODES, serve


@pytest.fixture(scope="module", params=MODES)
def live(request, tmp_path_factory):
    yield from serve(request.param, tmp_path_factory, live=True)


def read_sets(live, sets):
    """One GET per set of counters: one PDU, so one snapshot per row."""
    out = []
    for group in sets:
        r = live.client.get([o for o, _ in group])
        assert r.rc == 0, r
        out.append([vb.value for vb in r.varbinds])
    return out


def assert_set_proportional(group, vals):
    weights = [w for _, w in group]
    assert len(vals) == len(weights) >= 2
    # v_i / w_i is the same for every counter of the set
    for v, w in zip(vals, weights):
        assert v * weights[0] == vals[0] * w, (group, vals)


def test_reads_never_decrease_and_stay_consistent(live):
    e = live.expect
    assert len(e.invariants) >= 10
    # the example model has shared-atomic Counter64 sets too: they promise
    # per-counter atomicity only, so they are checked for order, not ratio
    assert e.monotonic
    sets = e.invariants + e.monotonic
    prev = read_sets(live, sets)
    grew = set()
    for _ in range(15):
        cur = read_sets(live, sets)
        for group, vals in zip(e.invariants, cur):
            assert_set_proportional(group, vals)
        for i, (a, b) in enumerate(zip(prev, cur)):
            assert all(y >= x for x, y in zip(a, b)), (sets[i], a, b)
            if b[0] > a[0]:
                grew.add(i < len(e.invariants))
        prev = cur
    assert grew == {True, False}, "the writer's updates never became visible"


def test_bulk_walk_under_load_is_complete(live):
    r = live.client.bulkwalk(live.expect.root, reps=30)
    assert r.rc == 0, r
    oids = [vb.oid for vb in r.varbinds]
    assert oids == sorted(oids, key=lambda o: tuple(map(int, o.split("."))))
    assert oids[-1] == live.expect.oid(4, 2, 1, 4, 6)  # epEventStatsDropped.6


def test_reset_under_load(live):
    e = live.expect
    group = next(g for g in e.invariants if g[0][0].startswith(e.oid(1, 4, 1) + "."))
    oids = [o for o, _ in group]
    idx = oids[0].rsplit(".", 1)[1]
    h.wait_for(lambda: live.client.get(oids[:1]).varbinds[0].value > 10000, 20,
               "the flow row to count")
    before = live.client.get(oids).varbinds[0].value
    r = live.client.set(e.oid(1, 4, 1, 1001, idx), "i", 1)
    assert r.rc == 0, r
    after = [vb.value for vb in live.client.get(oids).varbinds]
    assert after[0] < before
    # the baseline is a consistent snapshot, so the invariant survives
    assert_set_proportional(group, after)
    h.wait_for(lambda: live.client.get(oids[:1]).varbinds[0].value > after[0], 20,
               "counting to go on after the reset")
