# SPDX-License-Identifier: BSD-3-Clause
"""The DPDK application's life as the agent sees it: started after the
agent, killed, restarted, stopped (SIGSTOP) and resumed, its counters
cleared and a port stopped and started at its prompt. Rows leave within
2 s of the application's exit and come back within 2 s of its restart;
no request waits on a dead or frozen application, no walk returns a row
with a column missing, and snmpd keeps the subagent."""
import os
import signal
import time

import pytest

import dpdkapp
import snmpharness as h
from conftest import (BESIDE_SNMPD, IF_ENTRY, IFX_ENTRY, SYS_UPTIME, PortsServer, if_oid,
                      ifx_oid, no_partial_row)

BASE = 1000


@pytest.fixture(params=BESIDE_SNMPD)
def mode(request):
    return request.param


def elapsed_until(pred, limit, what):
    """Seconds until pred() holds; fails beyond `limit` (plus the time of
    one poll)."""
    t0 = time.monotonic()
    h.wait_for(pred, limit + 1.0, what, interval=0.05)
    took = time.monotonic() - t0
    assert took <= limit, "%s took %.2f s" % (what, took)
    return took


def wait_log(server, texts, timeout):
    try:
        h.wait_for(lambda: all(t in server.read_log() for t in texts), timeout,
                   "%s in the log" % texts)
    except h.HarnessError:
        raise h.HarnessError("%s not in the log within %s s:\n%s" % (
            texts, timeout, server.read_log()))


def timeticks(server, oid):
    vb = server.client.get([oid]).varbinds[0]
    assert vb.type == "Timeticks", vb
    return vb.value


def test_application_starts_exits_and_restarts(mode, tmp_path):
    prefix = dpdkapp.unique_prefix("fmlc")
    app = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path))
    again = None
    # the agent first: nothing there yet
    srv = PortsServer(mode, [app.dir]).start()
    try:
        h.wait_for(lambda: "no DPDK application with telemetry there yet" in
                   srv.read_log(), 10, "the agent to report the missing socket")
        assert not srv.row_served(BASE)

        app.start()
        elapsed_until(lambda: srv.row_served(BASE) and srv.row_served(BASE + 1), 2.0,
                      "rows after the application started")
        # a port that appeared while the agent ran: its counters start now
        first = timeticks(srv, ifx_oid(19, BASE))
        assert first > 0
        # it came up then, or later if the agent saw it before it started
        assert timeticks(srv, if_oid(9, BASE)) >= first

        app.kill()
        # SIGKILL leaves the socket file: connect() is refused
        assert os.path.exists(app.socket)
        elapsed_until(lambda: not srv.row_served(BASE) and not srv.row_served(BASE + 1),
                      2.0, "rows gone after the application was killed")
        r = srv.client.get([if_oid(2, BASE), ifx_oid(6, BASE + 1)])
        assert {vb.type for vb in r.varbinds} <= {"noSuchObject", "noSuchInstance"}
        # withdrawn (not only unreadable) within the same 2 s
        wait_log(srv, ["exited; 2 port(s) withdrawn", "left over"], 2.0)

        time.sleep(0.2)  # let the agent's uptime move on
        again = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path)).start()
        elapsed_until(lambda: srv.row_served(BASE) and srv.row_served(BASE + 1), 2.0,
                      "rows after the application restarted")
        # a new instance (another pid): a discontinuity of every counter
        second = timeticks(srv, ifx_oid(19, BASE))
        assert second > first
        assert timeticks(srv, ifx_oid(19, BASE + 1)) == second
        t = again.telemetry()
        try:
            assert t.pid == again.pid != app.pid
            v = srv.client.value(ifx_oid(7, BASE))
            assert v <= t.stats(0)["ipackets"]
        finally:
            t.close()

        # a normal exit (end of its input)
        again.stop()
        elapsed_until(lambda: not srv.row_served(BASE), 2.0,
                      "rows gone after the application exited")
        assert srv.agent.alive()
    finally:
        srv.close()
        app.stop()
        if again:
            again.stop()


def test_frozen_application_never_blocks_a_request(mode, tmp_path):
    """SIGSTOP: the application's socket accepts but never answers. With
    the default wait (5 ms), every walk of both tables through snmpd
    finishes at once: the ports' last readings serve for 1 s, then their
    rows answer genErr, and they are withdrawn within 2 s; no walk has a
    row with a column missing. snmpd keeps the subagent, and the rows come
    back within 2 s of SIGCONT."""
    app = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [app.dir], timeout_ms=None)
    try:
        srv.start(wait_ifindex=BASE + 1)
        app.signal(signal.SIGSTOP)
        stopped = time.monotonic()
        seen = []
        while "sent nothing for 1500 ms (stopped or stuck); 2 port(s) withdrawn" not in srv.read_log():
            assert time.monotonic() - stopped < 5, srv.read_log()
            for table in (IF_ENTRY, IFX_ENTRY):
                t0 = time.monotonic()
                walk = srv.client.bulkwalk(table, reps=10)
                seen.append(no_partial_row(walk, table, server=srv))
                assert time.monotonic() - t0 < 1.5, "a walk waited on the frozen application"
        took = time.monotonic() - stopped
        assert took <= 2.0 + 0.3, took
        assert "answers late" in srv.read_log()
        for table in (IF_ENTRY, IFX_ENTRY):
            assert no_partial_row(srv.client.bulkwalk(table, reps=10), table, server=srv) == "none"
        assert srv.client.answers(SYS_UPTIME)
        app.signal(signal.SIGCONT)
        elapsed_until(lambda: srv.row_served(BASE) and srv.row_served(BASE + 1), 2.0,
                      "rows back after SIGCONT")
        assert srv.agent.alive()
        if mode == "agentx":
            # the same AgentX session all along: one connection logged
            assert srv.read_log().count("AgentX subagent connected") == 1
    finally:
        app.signal(signal.SIGCONT)
        srv.close()
        app.stop()


def test_counter_reset_and_port_stop_at_the_prompt(tmp_path):
    """testpmd's own commands: `clear port stats all` makes the counters go
    back (ifCounterDiscontinuityTime moves on); `port stop 1` takes the port
    down (admin and oper down, no speed, ifLastChange moves on). Values
    come from the same code in every mode: checked through AgentX."""
    mode = "agentx"
    app = dpdkapp.Testpmd(interactive=True, log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [app.dir])
    t = app.telemetry()
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert timeticks(srv, ifx_oid(19, BASE)) == 0  # running before the agent
        time.sleep(0.5)  # counters well above what the next moments add
        before = srv.client.value(ifx_oid(7, BASE))
        app.command("clear port stats all", settle=0)
        h.wait_for(lambda: timeticks(srv, ifx_oid(19, BASE)) > 0, 2.0,
                   "ifCounterDiscontinuityTime after the reset")
        after = srv.client.value(ifx_oid(7, BASE))
        assert after < before
        assert timeticks(srv, ifx_oid(19, BASE + 1)) > 0

        assert srv.client.value(if_oid(9, BASE + 1)) == 0
        app.command("stop")
        app.command("port stop 1", settle=1.0)
        assert t.info(1)["dev_started"] == 0 and t.link(1) == {"status": "DOWN"}
        want_down = {
            if_oid(7, BASE + 1): 2,   # ifAdminStatus
            if_oid(8, BASE + 1): 2,   # ifOperStatus
            if_oid(5, BASE + 1): 0,   # ifSpeed: a down link has none
            ifx_oid(15, BASE + 1): 0,  # ifHighSpeed
            if_oid(8, BASE): 1,       # the other port is still up
        }
        r = srv.client.get(list(want_down))
        assert {vb.oid: vb.value for vb in r.varbinds} == want_down
        down_at = timeticks(srv, if_oid(9, BASE + 1))
        assert down_at > 0
        assert timeticks(srv, if_oid(9, BASE)) == 0

        time.sleep(0.2)
        app.command("port start 1", settle=1.0)
        app.command("start")
        # (a GET may meet a moment when testpmd's telemetry is slower than
        # the wait: genErr then, and the next GET reads again)
        h.wait_for(lambda: srv.client.get([if_oid(8, BASE + 1)]).varbinds[:1] and
                   srv.client.get([if_oid(8, BASE + 1)]).varbinds[0].value == 1, 5,
                   "port 1 up again")
        assert srv.client.value(if_oid(7, BASE + 1)) == 1
        assert srv.client.value(ifx_oid(15, BASE + 1)) == 10000
        assert timeticks(srv, if_oid(9, BASE + 1)) > down_at
    finally:
        t.close()
        srv.close()
        app.stop()


def test_module_follows_snmpd_reloads(tmp_path):
    """snmpd re-reads its configuration (SIGHUP): an application named
    again keeps its rows; a new base is for devices not seen yet, the
    known ones keep their ifIndex; a removed line withdraws the rows, a
    line put back serves them again at the same ifIndex."""
    app = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    srv = PortsServer("module", [app.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        snmpd = srv.snmpd
        lines = ["dlmod fastmib %s" % h.module_path(), "fastmibPorts %s" % app.dir,
                 "fastmibPortsTimeout 100"]
        snmpd.set_extra_lines(lines)
        snmpd.reload()
        assert srv.row_served(BASE) and srv.row_served(BASE + 1)
        assert srv.read_log().count("serving 2 port(s)") == 1  # not served again

        snmpd.set_extra_lines(lines + ["fastmibIfIndexBase 3000"])
        snmpd.reload()
        assert srv.row_served(BASE) and srv.row_served(BASE + 1)
        assert not srv.row_served(3000)

        snmpd.set_extra_lines([lines[0]])
        snmpd.reload()
        assert not srv.row_served(BASE)
        assert "no longer configured" in srv.read_log()

        snmpd.set_extra_lines(lines)
        snmpd.reload()
        h.wait_for(lambda: srv.row_served(BASE + 1), 2.0, "rows served again")
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
    finally:
        srv.close()
        app.stop()


def test_snmpd_restart(tmp_path):
    """The AgentX master restarts: the subagent registers the rows again,
    a registration per column of the run, without a refused one."""
    app = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    srv = PortsServer("agentx", [app.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        srv.snmpd.stop()
        srv.snmpd.start()
        srv.wait_row(BASE + 1, timeout=20)
        w = srv.client.walk(IFX_ENTRY + ".1")
        assert [vb.value for vb in w.varbinds if vb.oid.endswith((".1000", ".1001"))] \
            == ['"net_null0"', '"net_null1"']
        walk = srv.client.bulkwalk(IF_ENTRY, reps=20)
        assert len([vb for vb in walk.varbinds if vb.oid.endswith(".%d" % BASE)]) == 17
        assert "registering pdu failed" not in srv.read_log()
        assert "duplicate registration" not in srv.snmpd.read_log()
    finally:
        srv.close()
        app.stop()
