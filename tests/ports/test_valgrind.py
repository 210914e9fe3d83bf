# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-agentx with --ports, and snmpd with the module and fastmibPorts,
under valgrind memcheck while dpdk-testpmd's rows are registered,
withdrawn (killed, frozen, a line removed) and served again (restarted,
resumed, the line back), an alias set: no invalid access, no leak from our
code, Net-SNMP's registry included."""
import re
import shutil
import signal

import pytest

import dpdkapp
import snmpharness as h
from conftest import IFX_ENTRY, PortsServer, ifx_oid

OUR_FILES = h.our_frames("subagent", "ethdev")
MEMCHECK = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect",
            "--errors-for-leak-kinds=definite", "--error-exitcode=99"]
BASE = 1000
SLOW_MS = 500  # memcheck slows the agent: a generous wait for telemetry


def our_errors(vlog):
    with open(vlog) as f:
        report = f.read()
    assert re.search(r"ERROR SUMMARY: (\d+) errors", report), report[-2000:]
    records = re.split(r"\n==\d+== *\n", report)
    assert len(records) > 3
    return report, [blk for blk in records if OUR_FILES.search(blk) and
                    ("definitely lost" in blk or "Invalid" in blk or
                     "uninitialised" in blk)]


pytestmark = pytest.mark.skipif(not shutil.which("valgrind"),
                                reason="valgrind not installed")


def test_agent_rows_come_and_go_under_memcheck(tmp_path):
    vlog = str(tmp_path / "valgrind.log")
    app = dpdkapp.Testpmd(log_dir=str(tmp_path))
    again = None
    snmpd = h.Snmpd(if_mib=True).start()
    agent = h.Agent([], snmpd, extra_args=["--ports", app.dir, "--ports-timeout",
                                          str(SLOW_MS)],
                    wrapper=MEMCHECK + ["--log-file=" + vlog])
    try:
        agent.start()
        app.start()
        agent.wait_served(ifx_oid(1, BASE + 1), timeout=60)
        assert snmpd.client.bulkwalk(IFX_ENTRY, reps=10).rc == 0
        app.signal(signal.SIGSTOP)           # frozen: withdrawn
        h.wait_for(lambda: "sent nothing for" in agent.read_log(), 30, "withdrawal")
        app.signal(signal.SIGCONT)           # back
        agent.wait_served(ifx_oid(1, BASE + 1), timeout=60)
        app.kill()                           # killed: withdrawn
        h.wait_for(lambda: "exited" in agent.read_log(), 30, "withdrawal")
        again = dpdkapp.Testpmd(prefix=app.prefix, log_dir=str(tmp_path)).start()
        agent.wait_served(ifx_oid(1, BASE + 1), timeout=60)
        assert snmpd.client.walk(IFX_ENTRY + ".1").rc == 0
        status = agent.stop()
        agent.proc = None
    finally:
        h.shut_down(agent, snmpd)
        app.stop()
        if again:
            again.stop()
    report, ours = our_errors(vlog)
    assert not ours, "\n".join(ours)
    assert status in (0, 99), report[-2000:]


def test_module_reloads_under_memcheck(tmp_path):
    vlog = str(tmp_path / "valgrind.log")
    app = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    lines = ["fastmibPorts %s" % app.dir, "fastmibPortsTimeout %d" % SLOW_MS]
    a = h.ModuleAgent([], extra_lines=lines, if_mib=True,
                      wrapper=MEMCHECK + ["--log-file=" + vlog])
    srv = None
    try:
        a.start(timeout=90)
        srv = a.snmpd
        h.wait_for(lambda: a.client.get([ifx_oid(1, BASE + 1)]).varbinds[0].type ==
                   "STRING", 60, "rows")
        assert a.client.bulkwalk(IFX_ENTRY, reps=10).rc == 0
        assert a.client.set(ifx_oid(18, BASE), "s", "alias").rc == 0
        srv.set_extra_lines(h.module_lines([]))
        srv.reload(timeout=60)               # the line removed: withdrawn
        assert "no longer configured" in a.read_log()
        srv.set_extra_lines(h.module_lines([]) + lines)
        srv.reload(timeout=60)               # and back: served again
        h.wait_for(lambda: a.client.get([ifx_oid(1, BASE + 1)]).varbinds[0].type ==
                   "STRING", 60, "rows served again")
        assert a.client.bulkwalk(IFX_ENTRY, reps=10).rc == 0
        status = a.stop()
    finally:
        a.cleanup()
        app.stop()
    report, ours = our_errors(vlog)
    assert not ours, "\n".join(ours)
    assert status in (0, 99), report[-2000:]
