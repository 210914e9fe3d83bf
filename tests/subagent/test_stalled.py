# SPDX-License-Identifier: BSD-3-Clause
"""A writer lcore preempted, or stuck, inside a transaction, in each
serving mode. Preempted (back within milliseconds): the agent waits for
it, so every answer is still one consistent snapshot. Stuck: the agent
still answers every request (bounded reads, best-effort values for
the rows the stuck lcore blocks), a reset it cannot take consistently is
refused with commitFailed and changes nothing, not even the other resets
of its PDU, rows the lcore does not block reset as usual, and everything
is exact again once the transaction ends."""
import json
import os
import subprocess
import time

import pytest

from conftest import MODES, serve


@pytest.fixture(scope="module", params=MODES)
def served(request, tmp_path_factory):
    yield from serve(request.param, tmp_path_factory, events=True)


def get(served, oids):
    r = served.client.get(oids)
    assert r.rc == 0, r
    return [vb.value for vb in r.varbinds]


def test_preempted_writer_is_waited_for(served):
    # First in the file: a stuck writer (below) makes the agent stop
    # waiting for a second.
    e = served.expect
    pkts, octets = e.oid(1, 1, 1, 0), e.oid(1, 1, 2, 0)
    p0, o0 = get(served, [pkts, octets])
    # lcore 1 spends 2/3 of its time inside a transaction that adds 1 to
    # rxPkts, waits 200 us, then adds 2 to rxBytes
    assert served.writer.command("blink 2500") == []
    # At least 1.5 s and 20 reads, however slow a loaded machine makes
    # each one (a count of reads, not a rate, is what the check needs).
    reads = 0
    try:
        start = time.monotonic()
        while reads < 20 or time.monotonic() < start + 1.5:
            assert time.monotonic() < start + 60, "20 reads took a minute"
            p, o = get(served, [pkts, octets])
            assert o - o0 == 2 * (p - p0), (p - p0, o - o0, served.agent.read_log())
            reads += 1
    finally:
        assert served.writer.command("join") == []
    p, o = get(served, [pkts, octets])
    assert p - p0 > 10 and o - o0 == 2 * (p - p0)


def test_stuck_writer_is_answered_and_refuses_only_what_it_blocks(served):
    e = served.expect
    rx = e.oid(1, 1, 1, 0)                      # epGlobalRxPkts.0 (per-core)
    tx = e.oid(1, 1, 3, 0)
    created = e.oid(1, 5, 2, 0)                 # epFlowStateFlowsCreated.0 (atomic)
    global_reset, global_disc = e.oid(1, 1, 1001, 0), e.oid(1, 1, 1002, 0)
    state_reset = e.oid(1, 5, 1001, 0)
    walk = served.client.bulkwalk(e.root, reps=50)
    assert walk.rc == 0, walk
    rx0 = get(served, [rx])[0]  # the test above added to it
    assert served.writer.command("stall") == []

    # Reads: answered, the stuck transaction's +1 seen or not (best effort).
    assert get(served, [rx])[0] in (rx0, rx0 + 1)
    assert get(served, [tx, created]) == [e.value(1, 1, 3, 0), e.value(1, 5, 2, 0)]
    stalled_walk = served.client.bulkwalk(e.root, reps=50)
    assert stalled_walk.rc == 0, stalled_walk
    assert [vb.oid for vb in stalled_walk.varbinds] == [vb.oid for vb in walk.varbinds]

    # The per-core scalar group cannot be snapshotted: refused, unchanged,
    # and so is a PDU with another reset that alone would succeed.
    r = served.client.set(global_reset, "i", 1)
    assert r.rc != 0 and r.error == "commitFailed", r
    r = served.client.run("snmpset", [state_reset, "i", "1", global_reset, "i", "1"],
                          who="rw")
    assert r.error == "commitFailed", r
    r = served.client.set(e.oid(2, 1, 0), "i", 1)  # epResetAll.0
    assert r.rc != 0 and r.error == "commitFailed", r
    assert get(served, [tx, global_disc, created, e.oid(2, 2, 0)]) == \
        [e.value(1, 1, 3, 0), 0, e.value(1, 5, 2, 0), 0]
    # A shared-atomic group does not depend on the stuck lcore.
    r = served.client.set(state_reset, "i", 1)
    assert r.rc == 0, r
    assert get(served, [created]) == [0]

    # Transaction over: exact again, and the reset goes through.
    assert served.writer.command("release") == []
    assert get(served, [rx, tx]) == [rx0 + 1, e.value(1, 1, 3, 0)]
    r = served.client.set(global_reset, "i", 1)
    assert r.rc == 0, r
    assert get(served, [rx, tx]) == [0, 0]
    assert get(served, [global_disc])[0] > 0


def stat(served, *args):
    return subprocess.run([os.environ["FASTMIB_STAT"], served.segment, *args],
                          capture_output=True, text=True, timeout=60)


def test_stat_table_reset_is_all_or_nothing(served):
    before = json.loads(stat(served, "--json").stdout)["groups"]["portQueue"]
    assert before["rows"]
    assert served.writer.command("stall") == []
    try:
        # every portQueue row (per-core) is blocked: none is reset
        r = stat(served, "--reset", "portQueue")
        assert r.returncode == 1 and "stayed inside a transaction" in r.stderr, r
        after = json.loads(stat(served, "--json").stdout)["groups"]["portQueue"]
        # read best effort meanwhile, and said so row by row
        assert all(q.pop("best_effort") is True for q in after["rows"])
        assert after == before
        # flow rows (shared-buffered) do not depend on the stuck lcore
        r = stat(served, "--reset", "flow")
        assert r.returncode == 0 and " row(s)" in r.stdout, r
        flows = json.loads(stat(served, "--json").stdout)["groups"]["flow"]["rows"]
        assert flows and all(set(f["counters"].values()) == {0} for f in flows)
    finally:
        assert served.writer.command("release") == []
    r = stat(served, "--reset", "portQueue")
    assert r.returncode == 0, r
    rows = json.loads(stat(served, "--json").stdout)["groups"]["portQueue"]["rows"]
    assert all(set(q["counters"].values()) == {0} for q in rows)


def test_writer_status_follows_a_stalled_lcore(served):
    """WriterStatus: running(1), stalled(3) as soon as a lcore stays inside
    one transaction for the read patience (the agent watches it that long
    within the GET), running(1) again once it leaves; the values served
    meanwhile are counted in BestEffortReads; fastmib-stat --info names the
    slot and lcore."""
    e = served.expect
    status, best, oor = e.oid(2, 3, 0), e.oid(2, 4, 0), e.oid(2, 5, 0)
    rx = e.oid(1, 1, 1, 0)
    assert get(served, [status, oor]) == [1, 0]
    best0 = get(served, [best])[0]
    assert served.writer.command("stall") == []
    try:
        assert get(served, [status]) == [3]
        get(served, [rx])                       # served best effort
        assert get(served, [best])[0] > best0
        info = json.loads(stat(served, "--info", "--json").stdout)
        assert info["writer"] == "stalled"
        stuck = [s for s in info["slots"] if s["slot"] == info["stalled_slot"]]
        assert stuck and stuck[0]["in_transaction"] and stuck[0]["lcore"] == 0, info
        assert stuck[0]["in_transaction_ns"] >= 50_000_000, info
        text = stat(served, "--info").stdout
        assert "stalled      slot %d (lcore 0) inside one transaction for" % \
            info["stalled_slot"] in text, text
    finally:
        assert served.writer.command("release") == []
    assert get(served, [status]) == [1]
    assert json.loads(stat(served, "--info", "--json").stdout)["writer"] == "running"
