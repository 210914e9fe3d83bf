# SPDX-License-Identifier: BSD-3-Clause
"""linkUp and linkDown (RFC 2863) for the DPDK ports, at a test snmptrapd
through snmpd's trap sinks (AgentX, module) or the agent's own
(standalone): `port stop` / `port start` at dpdk-testpmd's prompt give
linkDown / linkUp within 1 s of the port's change, with ifIndex,
ifAdminStatus and ifOperStatus; a port whose ifLinkUpDownTrapEnable is
disabled(2) sends none, nor does a rate of 0; the rate limit holds
notifications back and says so; an application that exits or starts
sends none."""
import time

import pytest

import dpdkapp
import faketel
from conftest import BESIDE_SNMPD, MODES, PortsServer, ifx_oid

BASE = 1000
LINK_DOWN = "1.3.6.1.6.3.1.1.5.3"
LINK_UP = "1.3.6.1.6.3.1.1.5.4"
IF_ENTRY = "1.3.6.1.2.1.2.2.1"


def link_traps(trapd):
    return [t for t in trapd.traps() if t.trap_oid in (LINK_DOWN, LINK_UP)]


def varbinds_of(trap):
    """{column: value} of ifEntry varbinds, and their ifIndex."""
    cols, idx = {}, set()
    for vb in trap.varbinds:
        if vb.oid.startswith(IF_ENTRY + "."):
            col, ifindex = (int(x) for x in vb.oid[len(IF_ENTRY) + 1:].split("."))
            cols[col] = vb.value
            idx.add(ifindex)
    return cols, idx


def wait_trap(trapd, n, timeout=10):
    """Until the n-th link notification arrived; its arrival time."""
    def got():
        return len(link_traps(trapd)) >= n
    deadline = time.monotonic() + timeout
    while not got():
        assert time.monotonic() < deadline, "no notification %d: %s" % (n, trapd.traps())
        time.sleep(0.01)
    return time.monotonic()


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_port_stop_and_start_at_the_prompt(mode, trapd, tmp_path):
    app = dpdkapp.Testpmd(interactive=True, log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [app.dir], trap_port=trapd.port)
    t = app.telemetry()
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert not link_traps(trapd)
        app.command("stop", settle=0)
        app.command("port stop 1", settle=0)
        # the moment the application's own telemetry shows the port down
        while t.link(1) != {"status": "DOWN"}:
            time.sleep(0.005)
        changed = time.monotonic()
        arrived = wait_trap(trapd, 1)
        assert arrived - changed <= 1.0, arrived - changed
        [down] = link_traps(trapd)
        assert down.trap_oid == LINK_DOWN
        assert varbinds_of(down) == ({1: BASE + 1, 7: 2, 8: 2}, {BASE + 1})
        # the varbinds in RFC 2863's order, after sysUpTime and snmpTrapOID
        assert [vb.oid.rsplit(".", 2)[1] for vb in down.varbinds[2:5]] == ["1", "7", "8"]

        app.command("port start 1", settle=0)
        while t.link(1).get("status") != "UP":
            time.sleep(0.005)
        changed = time.monotonic()
        arrived = wait_trap(trapd, 2)
        assert arrived - changed <= 1.0, arrived - changed
        up = link_traps(trapd)[1]
        assert up.trap_oid == LINK_UP
        assert varbinds_of(up) == ({1: BASE + 1, 7: 1, 8: 1}, {BASE + 1})
        app.command("start", settle=0)
        # nothing else: port 0 never changed
        time.sleep(0.6)
        assert len(link_traps(trapd)) == 2
    finally:
        t.close()
        srv.close()
        app.stop()


@pytest.mark.parametrize("mode", MODES)
def test_enable_rate_and_life_cycle(mode, trapd, fake_app):
    """ifLinkUpDownTrapEnable per port; an application that goes or comes
    sends nothing (its rows go and come); in every mode."""
    app = fake_app(faketel.null_ports(3))
    srv = PortsServer(mode, [app.dir], trap_port=trapd.port)
    try:
        srv.start(wait_ifindex=BASE + 2)
        r = srv.client.set(ifx_oid(14, BASE + 1), "i", 2)
        assert r.rc == 0, r
        app.ports[1]["up"] = False
        app.ports[2]["up"] = False
        wait_trap(trapd, 1)
        time.sleep(0.6)  # a check later: nothing for port 1
        traps = link_traps(trapd)
        assert [varbinds_of(x) for x in traps] == [({1: BASE + 2, 7: 1, 8: 2}, {BASE + 2})]
        # the application goes and comes back: rows go and come, silently
        app.stop(remove=False)
        srv.wait_gone(BASE)
        app.start()
        srv.wait_row(BASE + 2)
        time.sleep(0.6)
        assert len(link_traps(trapd)) == 1
    finally:
        srv.close()


def test_rate_limit(trapd, fake_app):
    """At most portsLinkTrapRate a second (and a burst as big); what is held
    back is counted in the log. 0: none at all."""
    app = fake_app(faketel.null_ports(6))
    srv = PortsServer("agentx", [app.dir], trap_port=trapd.port,
                      lines=["portsLinkTrapRate 2"])
    off = PortsServer("agentx", [app.dir], trap_port=trapd.port,
                      lines=["portsLinkTrapRate 0"])
    try:
        srv.start(wait_ifindex=BASE + 5)
        off.start(wait_ifindex=BASE + 5)
        for p in app.ports:
            p["up"] = False
        wait_trap(trapd, 2)
        srv.stop()
        time.sleep(0.6)
        assert len(link_traps(trapd)) == 2
        assert "fastmib: ports: 4 linkUp/linkDown notification(s) not sent: over the " \
               "limit of 2 per second, burst 2;" in srv.read_log()
        assert "notification" not in off.read_log()
    finally:
        srv.close()
        off.close()
