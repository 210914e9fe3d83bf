# SPDX-License-Identifier: BSD-3-Clause
"""Faults over SNMP, with real snmpd, real clients and the three serving
modes: a SET naming the same reset a thousand times, a reset while another
process holds the reset lock, listeners nobody configured."""
import os
import subprocess

import pytest
from pysnmp.hlapi import (CommunityData, ContextData, Integer, ObjectIdentity,
                          ObjectType, SnmpEngine, UdpTransportTarget, getCmd, setCmd)

from conftest import serving

import snmpharness as h

LOCKHOLDER = os.environ["FM_LOCKHOLDER"]


@pytest.fixture(scope="module", params=serving.MODES)
def served_all_rows(request, tmp_path_factory):
    """The example model with every one of its 65,536 flow rows present."""
    yield from serving.serve(request.param, tmp_path_factory, rows="all")


def pysnmp_set(port, varbinds, timeout=5):
    """One SET PDU of any size (net-snmp's tools stop at 128 varbinds);
    no retry, so a slow answer is a failure."""
    ind, status, index, vbs = next(setCmd(
        SnmpEngine(), CommunityData("private", mpModel=1),
        UdpTransportTarget(("127.0.0.1", port), timeout=timeout, retries=0),
        ContextData(), *[ObjectType(ObjectIdentity(o), v) for o, v in varbinds]))
    return ind, status.prettyPrint() if status else "noError", int(index or 0), vbs


def pysnmp_get(port, oids, timeout=5):
    ind, status, index, vbs = next(getCmd(
        SnmpEngine(), CommunityData("public", mpModel=1),
        UdpTransportTarget(("127.0.0.1", port), timeout=timeout, retries=0),
        ContextData(), *[ObjectType(ObjectIdentity(o)) for o in oids]))
    return ind, status.prettyPrint() if status else "noError", int(index or 0), vbs


def read(served, oids):
    r = served.client.get(oids)
    assert r.rc == 0, r
    return [vb.value for vb in r.varbinds]


def test_reply_too_big_for_the_master_is_toobig(served_all_rows):
    """1,400 Counter64 varbinds: through AgentX the reply would exceed the
    64 KiB snmpd accepts. Every mode answers at once, with every value or
    with tooBig, and serves the next request at once."""
    s = served_all_rows
    e = s.expect
    oids = [e.oid(1, 4, 1, 1, i) for i in range(1, 1401)]
    ind, status, index, vbs = pysnmp_get(s.agent.port, oids)
    assert ind is None, ind
    if s.mode == "agentx":  # 1,400 x 52 bytes of AgentX varbinds: 72.8 kB
        assert status == "tooBig" and index >= 1, (status, index)
        assert "answered tooBig" in s.agent.read_log()
    else:  # in-process: snmpd's own SNMP message, about 42 kB, fits UDP
        assert status == "noError", (status, index)
        assert [int(v[1]) for v in vbs] == [e.by_oid[o][1] for o in oids]
    ind, status, _, vbs = pysnmp_get(s.agent.port, oids[:100], timeout=2)
    assert ind is None and status == "noError", (ind, status)
    assert [int(v[1]) for v in vbs] == [e.by_oid[o][1] for o in oids[:100]]


def test_thousand_resetall_varbinds_are_one_reset(served_all_rows):
    s = served_all_rows
    e = s.expect
    last_flow = e.oid(1, 4, 1, 1, 65536)               # epFlowPkts.65536
    counters = [e.oid(1, 1, 1, 0), e.oid(1, 4, 1, 1, 1), last_flow]
    assert all(v > 0 for v in read(s, counters))
    disc0 = read(s, [e.oid(2, 2, 0)])[0]
    ind, status, index, vbs = pysnmp_set(
        s.agent.port, [(e.oid(2, 1, 0), Integer(1))] * 1000)
    assert ind is None, ind                       # answered within the timeout
    assert status == "noError", (status, index)
    assert len(vbs) == 1000
    assert read(s, counters) == [0, 0, 0]          # the fill writer is idle
    assert read(s, [e.oid(2, 2, 0)])[0] >= disc0


def test_reset_while_the_lock_is_held_fails_and_changes_nothing(served):
    e = served.expect
    rx, disc = e.oid(1, 1, 1, 0), e.oid(1, 1, 1002, 0)
    before = read(served, [rx, disc])
    holder = subprocess.Popen([LOCKHOLDER, served.segment], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        r = served.client.set(e.oid(1, 1, 1001, 0), "i", 1)
        assert r.rc != 0 and r.error in ("commitFailed", "resourceUnavailable"), r
        r = served.client.set(e.oid(2, 1, 0), "i", 1)
        assert r.rc != 0 and r.error in ("commitFailed", "resourceUnavailable"), r
        assert read(served, [rx, disc]) == before
        assert "reset lock is held" in served.agent.read_log()
    finally:
        holder.stdin.close()
        assert holder.wait(10) == 0
    r = served.client.set(e.oid(1, 1, 1001, 0), "i", 1)
    assert r.rc == 0, r
    assert read(served, [rx])[0] == 0


@pytest.fixture(scope="module")
def standalone(tmp_path_factory):
    yield from serving.serve("standalone", tmp_path_factory)


def test_standalone_listens_only_where_configured(standalone):
    pid = standalone.agent.proc.pid
    out = subprocess.run(["ss", "-H", "-l", "-n", "-p", "-t", "-u"], capture_output=True,
                         text=True, timeout=10).stdout
    mine = [line for line in out.splitlines() if "pid=%d," % pid in line]
    assert len(mine) == 1, mine
    assert mine[0].split()[0] == "udp"
    assert "127.0.0.1:%d" % standalone.agent.port in mine[0]


@pytest.fixture(scope="module", params=serving.MODES)
def served_live(request, tmp_path_factory):
    """A writer that keeps counting until it is stopped."""
    yield from serving.serve(request.param, tmp_path_factory, live=True)


def test_writer_status_follows_the_writer(served_live):
    s = served_live
    e = s.expect
    status, rx = e.oid(2, 3, 0), e.oid(1, 1, 1, 0)
    assert read(s, [status]) == [1]                           # running(1)
    s.writer.live_proc.kill()                                 # SIGKILL: no goodbye
    s.writer.live_proc.wait(10)
    h.wait_for(lambda: read(s, [status]) == [2], 2, "gone(2) within 2 s")
    last = read(s, [rx])[0]
    assert last > 0 and read(s, [rx]) == [last]               # history, not an error


def test_recreated_segment_advances_every_discontinuity(served):
    e = served.expect
    discs = [e.oid(2, 2, 0), e.oid(1, 1, 1002, 0), e.oid(1, 5, 1002, 0),
             e.oid(1, 4, 1, 1002, 1)]
    status = e.oid(2, 3, 0)
    assert read(served, [status]) == [2]        # the fill writer has exited
    before = read(served, discs)
    served.refill(97)                           # a new writer, a new segment
    after = read(served, discs)
    assert all(a > b for a, b in zip(after, before)), (before, after)
