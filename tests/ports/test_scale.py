# SPDX-License-Identifier: BSD-3-Clause
"""A DPDK application with 1,024 ports (an OVS-DPDK host with VF
representors), served over AgentX and in the snmpd module: every row is
there within 1 s of the agent's connection to it, and snmpd answers its
own GETs (sysUpTime) meanwhile, each within 100 ms; when the application
exits the rows go, and the agent stops at once. The application is
fastmib-telemetry-stub (bench/ports), which answers from memory: what is
measured is the agent's and snmpd's work."""
import os
import time

import pytest

import snmpharness as h
from conftest import BESIDE_SNMPD, PortsServer, if_oid, ifx_oid
from telstub import Pinger, Stub, stub_binary

N = 1024
BASE = 1000
# The bound is the product's; binaries instrumented by a sanitizer (whose
# runtime snmpd then preloads) run several times slower.
APPEAR_S = 3.0 if os.environ.get("FASTMIB_SNMPD_PRELOAD") else 1.0


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_a_thousand_ports(mode):
    if not stub_binary():
        pytest.fail("FASTMIB_TELEMETRY_STUB not set: run through ctest")
    stub = Stub(stub_binary(), N)
    srv = PortsServer(mode, [stub.dir])
    pinger = None
    try:
        srv.start()
        pinger = Pinger(srv.client.target_port())
        pinger.start()
        connected = stub.wait_connection()

        def served(oid):
            r = srv.client.get([oid])
            return r.varbinds and r.varbinds[0].value is not None
        # the first and last of the rows registered or served
        h.wait_for(lambda: served(if_oid(1, BASE)) and served(ifx_oid(19, BASE + N - 1)),
                   10, "%d ports served" % N, interval=0.01)
        took = time.monotonic() - connected
        times = pinger.finish()
        assert took <= APPEAR_S, took
        assert times and max(times) < 0.1, max(times)
        w = srv.client.bulkwalk(ifx_oid(1, 0)[:-2], reps=50)
        assert sum(1 for vb in w.varbinds if int(vb.oid.rsplit(".", 1)[1]) >= BASE) == N
        stub.exit()
        srv.wait_gone(BASE)
        srv.wait_gone(BASE + N - 1)
        t0 = time.monotonic()
        srv.stop()
        assert time.monotonic() - t0 < 5
    finally:
        if pinger:
            pinger.stopped.set()
        srv.close()
        stub.stop()
