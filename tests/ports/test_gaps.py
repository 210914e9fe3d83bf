# SPDX-License-Identifier: BSD-3-Clause
"""No silent gaps, with a synthetic application whose answers come late
or never, on demand. An application that answers later than the agent
waits is alive: its late answers are its readings (dated by when their
command was sent) and its rows stay, whole, with the values it answered.
One that sends nothing at all: its last reading serves while younger than
1 s, then its varbinds answer genErr, and once it has sent nothing for
1.5 s its rows are withdrawn; they come back when it answers. Never a row
with a column missing from a walk. Lateness is said once in the log, and
again when the application answers in time."""
import re
import time

import pytest

import faketel
import snmpharness as h
from conftest import IF_ENTRY, IFX_ENTRY, MODES, PortsServer, ifx_oid, no_partial_row

BASE = 1000
STALL_S = 1.5     # FMP_PORTS_STALL_MS
IN_OCTETS = 6     # ifHCInOctets


def in_octets(walk):
    """{ifIndex: ifHCInOctets} of the DPDK rows of an ifXTable walk."""
    out = {}
    for vb in walk.varbinds:
        col, ifindex = (int(x) for x in vb.oid.rsplit(".", 2)[1:])
        if col == IN_OCTETS and ifindex >= BASE:
            out[ifindex] = vb.value
    return out


def phase_of(r):
    if r.error == "genError":
        return "genErr"
    return r.varbinds[0].type if r.varbinds[0].value is None else r.varbinds[0].value


def late_episode(log, before):
    """One late episode since `before` (a length of the log), said once and
    not ended; a busy machine may have begun it a moment earlier."""
    assert "answers late (no answer within 20 ms)" in log, log
    assert log[before:].count("answers late") <= 1, log
    assert "answers again" not in log[before:], log


@pytest.mark.parametrize("mode", MODES)
def test_late_answers(mode, fake_app):
    app = fake_app(faketel.null_ports(2))
    app.ports[0]["stats"]["ibytes"] = 4242
    app.ports[1]["stats"]["ibytes"] = 5252
    srv = PortsServer(mode, [app.dir], timeout_ms=20)
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert in_octets(srv.client.bulkwalk(IFX_ENTRY, reps=10)) == \
            {BASE: 4242, BASE + 1: 5252}
        # from now on every answer comes 250 ms after its command: beyond
        # the 20 ms wait, so no query gets an answer in time, and within
        # the 1 s a reading serves; the counters move, which only a late
        # answer can show
        before = len(srv.read_log())
        app.delay = 0.25
        app.ports[0]["stats"]["ibytes"] = 4343
        app.ports[1]["stats"]["ibytes"] = 5353
        late = time.monotonic()
        seen = []
        # full walks for twice the time after which an application without
        # an answer in time used to be withdrawn: every walk has both
        # rows, whole, no genErr, and the late values once they came
        while time.monotonic() - late < 2 * STALL_S or seen[-1] != {BASE: 4343,
                                                                  BASE + 1: 5353}:
            assert time.monotonic() - late < 15, seen
            for table in (IF_ENTRY, IFX_ENTRY):
                walk = srv.client.bulkwalk(table, reps=10)
                assert no_partial_row(walk, table) == "rows", walk
                assert {BASE, BASE + 1} <= {int(vb.oid.rsplit(".", 1)[1])
                                            for vb in walk.varbinds}, walk
            values = in_octets(walk)
            assert values[BASE] in (4242, 4343) and values[BASE + 1] in (5252, 5353), values
            if not seen or seen[-1] != values:
                seen.append(values)
        log = srv.read_log()
        late_episode(log, before)
        assert "port(s) withdrawn" not in log, log
        # in time again: said once, values read afresh
        app.delay = 0
        app.ports[0]["stats"]["ibytes"] = 4444
        h.wait_for(lambda: srv.client.value(ifx_oid(IN_OCTETS, BASE)) == 4444, 10,
                   "the value read afresh", interval=0.05)
        log = srv.read_log()
        assert log[before:].count("answers late") <= 1, log
        assert log[before:].count("answers again") == 1, log
        if mode != "module":
            # the traffic line at the agent's exit (snmpd does not unload
            # its modules, so the module has none) counts them
            srv.stop()
            taken = re.search(r"(\d+) late replies taken as readings", srv.read_log())
            assert taken and int(taken.group(1)) > 0, srv.read_log()
    finally:
        srv.close()


@pytest.mark.parametrize("mode", MODES)
def test_stuck_application(mode, fake_app):
    app = fake_app(faketel.null_ports(2))
    app.ports[0]["stats"]["ibytes"] = 4242
    srv = PortsServer(mode, [app.dir], timeout_ms=20)
    try:
        srv.start(wait_ifindex=BASE + 1)
        oid = ifx_oid(IN_OCTETS, BASE)
        assert srv.client.value(oid) == 4242
        # nothing comes back from now on, not even the answers under way
        before = len(srv.read_log())
        app.silent = True
        stuck = time.monotonic()
        app.ports[0]["stats"]["ibytes"] = 4343
        phases = []
        while True:
            phase = phase_of(srv.client.get([oid]))
            if not phases or phases[-1] != phase:
                phases.append(phase)
            for table in (IF_ENTRY, IFX_ENTRY):
                no_partial_row(srv.client.bulkwalk(table, reps=10), table, server=srv)
            if phase in ("noSuchInstance", "noSuchObject"):
                gone = time.monotonic()
                break
            assert time.monotonic() - stuck < 10, phases
        # the last reading, then genErr, then gone: in that order, each seen
        assert phases[0] == 4242 and phases[1] == "genErr" and len(phases) == 3, phases
        # withdrawn only after 1.5 s in which the application sent nothing
        assert gone - app.last_sent >= STALL_S, (gone - app.last_sent, phases)
        log = srv.read_log()
        late_episode(log, before)
        assert "sent nothing for 1500 ms (stopped or stuck); 2 port(s) withdrawn" in log
        # answering again: the rows come back, read afresh
        app.silent = False
        srv.wait_row(BASE + 1, timeout=10)
        assert srv.client.value(oid) == 4343
    finally:
        srv.close()


@pytest.mark.parametrize("mode", MODES)
def test_late_application_with_many_ports(mode, fake_app):
    """A late application's ports are all read, however many: each query
    (a check's, or a request's beside the ports it needs) takes the next
    64 ports in turn, so that the checks alone read every port, and a walk
    sees every port's new value; not the first 64 ports again and again,
    the others' readings aging into genErr."""
    n = 130
    app = fake_app(faketel.null_ports(n))
    srv = PortsServer(mode, [app.dir], timeout_ms=20, debug=True)
    column = "%s.%d" % (IFX_ENTRY, IN_OCTETS)
    try:
        srv.start(wait_ifindex=BASE + n - 1)
        walk = srv.client.bulkwalk(column, reps=50)
        assert in_octets(walk) == {BASE + i: 0 for i in range(n)}, walk
        before = len(srv.read_log())
        app.delay = 0.1  # beyond the 20 ms wait: every answer late
        for i, p in enumerate(app.ports):
            p["stats"]["ibytes"] = 7000 + i

        def all_read_late():
            log = srv.read_log()[before:]
            return all("/ethdev/stats,%d: late reply taken" % i in log for i in range(n))
        # no request meanwhile: the checks read them all, in turn
        h.wait_for(all_read_late, 10, "every port read late by the checks", interval=0.1)
        want = {BASE + i: 7000 + i for i in range(n)}
        start = time.monotonic()
        while True:
            walk = srv.client.bulkwalk(column, reps=50)
            if not walk.error and in_octets(walk) == want:
                break
            assert time.monotonic() - start < 20, (walk.error, in_octets(walk))
        late_episode(srv.read_log(), before)
    finally:
        srv.close()


@pytest.mark.parametrize("mode", MODES)
def test_port_list_that_comes_late(mode, fake_app):
    """An application late from its hello on: its port list and its ports'
    readings all come late, and are taken: its rows come, with its
    values, without an answer in time."""
    app = fake_app(faketel.null_ports(2))
    app.ports[1]["stats"]["ibytes"] = 4242
    app.delay = 0.1
    srv = PortsServer(mode, [app.dir], timeout_ms=20)
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert srv.client.value(ifx_oid(IN_OCTETS, BASE + 1)) == 4242
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        log = srv.read_log()
        assert log.count("application (pid %d) does not answer (no answer within "
                         "20 ms)" % app.pid) == 1, log
        assert "answers again" not in log, log
        assert app.delay == 0.1  # still late
    finally:
        srv.close()
