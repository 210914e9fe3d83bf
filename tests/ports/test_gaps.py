# SPDX-License-Identifier: BSD-3-Clause
"""No silent gaps, with a synthetic application whose answers come late
on demand: while a port's answer is late, its last reading serves if it is
younger than 1 s, then its varbinds answer genErr, and after 1.5 s without
an answer in time its rows are withdrawn; never a row with a column
missing from a walk. The application's lateness is said once in the log,
and again when it answers in time."""
import time

import pytest

import faketel
from conftest import IF_ENTRY, IFX_ENTRY, MODES, PortsServer, ifx_oid, no_partial_row

BASE = 1000


@pytest.mark.parametrize("mode", MODES)
def test_late_answers(mode, fake_app):
    app = fake_app(faketel.null_ports(2))
    app.ports[0]["stats"]["ibytes"] = 4242
    srv = PortsServer(mode, [app.dir], timeout_ms=20)
    try:
        srv.start(wait_ifindex=BASE + 1)
        oid = ifx_oid(6, BASE)  # ifHCInOctets
        assert srv.client.value(oid) == 4242
        # from now on every answer is late (beyond the 20 ms wait, within
        # the 1.5 s after which the application counts as gone); the
        # counter moves, which a fresh reading would show
        app.delay = 0.4
        late = time.monotonic()
        app.ports[0]["stats"]["ibytes"] = 4343
        phases = []
        while True:
            r = srv.client.get([oid])
            phase = ("genErr" if r.error == "genError" else
                     r.varbinds[0].type if r.varbinds[0].value is None else
                     r.varbinds[0].value)
            if not phases or phases[-1] != phase:
                phases.append(phase)
            for table in (IF_ENTRY, IFX_ENTRY):
                no_partial_row(srv.client.bulkwalk(table, reps=10), table, server=srv)
            if phase in ("noSuchInstance", "noSuchObject"):
                break
            assert time.monotonic() - late < 5, phases
            time.sleep(0.02)
        # the last reading, then genErr, then gone: in that order, each seen
        assert phases[0] == 4242 and phases[1] == "genErr" and len(phases) == 3, phases
        log = srv.read_log()
        assert log.count("answers late (no answer within 20 ms)") == 1, log
        assert "does not answer in time; 2 port(s) withdrawn" in log
        # in time again: the rows come back, read afresh
        app.delay = 0
        srv.wait_row(BASE + 1, timeout=5)
        assert srv.client.value(oid) == 4343
        assert srv.read_log().count("answers late") == 1
    finally:
        srv.close()
