# SPDX-License-Identifier: BSD-3-Clause
"""A DPDK application with 1,024 ports (an OVS-DPDK host with VF
representors), served over AgentX and in the snmpd module: every row
comes, at the cost of less than 0.5 s of CPU time in snmpd and the agent
together from their start (registrations one per port cost 0.8-0.9 s,
and grew quadratically before), and snmpd answers its own GETs
(sysUpTime) meanwhile, none kept waiting more than 100 ms by snmpd's
work; when the application exits the rows go, and the agent stops at
once. The application is fastmib-telemetry-stub (bench/ports), which
answers from memory: what is measured is the agent's and snmpd's work.
CPU time, and round trips less the time snmpd and the client waited for
a CPU, not the time on the clock alone, so that other processes on the
machine do not count: the time the rows take to appear on a quiet
machine (the goal: under 1 s) is `bench_ports.py --appear`'s figure."""
import os
import time

import pytest

import snmpharness as h
from conftest import BESIDE_SNMPD, PortsServer, if_oid, ifx_oid
from telstub import Pinger, Stub, cpu_seconds, stub_binary

N = 1024
BASE = 1000
# Binaries instrumented by a sanitizer (whose runtime snmpd then preloads)
# run several times slower.
CPU_S = 1.5 if os.environ.get("FASTMIB_SNMPD_PRELOAD") else 0.5


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_a_thousand_ports(mode):
    if not stub_binary():
        pytest.fail("FASTMIB_TELEMETRY_STUB not set: run through ctest")
    stub = Stub(stub_binary(), N)
    srv = PortsServer(mode, [stub.dir])
    pinger = None
    try:
        srv.start()
        pinger = Pinger(srv.client.target_port(), srv.snmpd.proc.pid)
        pinger.start()
        stub.wait_connection()

        def served(oid):
            r = srv.client.get([oid])
            return r.varbinds and r.varbinds[0].value is not None
        # the first and last of the rows registered or served
        h.wait_for(lambda: served(if_oid(1, BASE)) and served(ifx_oid(19, BASE + N - 1)),
                   10, "%d ports served" % N, interval=0.01)
        cpu = cpu_seconds(*([srv.snmpd.proc] + ([srv.agent.proc] if mode == "agentx" else [])))
        pinger.finish()
        assert cpu < CPU_S, cpu
        assert pinger.stalls and max(pinger.stalls) < 0.1, max(pinger.stalls)
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
