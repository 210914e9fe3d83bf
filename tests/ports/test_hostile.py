# SPDX-License-Identifier: BSD-3-Clause
"""Answers a driver or an application should not give, from a synthetic
application, end to end: a counter at 2^64-1 (DPDK prints counters as
unsigned 64-bit) is served exactly, as Counter64, the other port as
usual, and the log says it once; a port name with a newline reaches the
log escaped, never as a line of its own; an application that says hello
and then answers nothing is logged once, with the reason; a reply that is
not JSON is refused, the application's socket and the command named."""
import json
import os
import subprocess

import pytest

import faketel
import snmpharness as h
from conftest import BESIDE_SNMPD, PortsServer, if_oid, ifx_oid

BASE = 1000
MAX64 = 2**64 - 1


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_counter_at_2_64_minus_1(mode, fake_app):
    app = fake_app(faketel.null_ports(2))
    app.ports[0]["stats"]["ibytes"] = MAX64
    app.ports[1]["stats"]["ibytes"] = 4242
    srv = PortsServer(mode, [app.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        # ifHCInOctets of both ports, ifInOctets (Counter32: the low 32 bits)
        oids = [ifx_oid(6, BASE), ifx_oid(6, BASE + 1), if_oid(10, BASE), if_oid(10, BASE + 1)]
        for _ in range(16):
            r = srv.client.get(oids)
            assert r.rc == 0 and r.error is None, r
            assert [(vb.type, vb.value) for vb in r.varbinds] == [
                ("Counter64", MAX64), ("Counter64", 4242),
                ("Counter32", MAX64 & 0xFFFFFFFF), ("Counter32", 4242)], r
        # a walk has every row whole
        w = srv.client.bulkwalk(ifx_oid(6, 0)[:-2], reps=20)
        got = {int(vb.oid.rsplit(".", 1)[1]): vb.value for vb in w.varbinds}
        assert got[BASE] == MAX64 and got[BASE + 1] == 4242, w
        log = srv.read_log()
        said = [ln for ln in log.splitlines() if "2^63 or more" in ln]
        assert len(said) == 1, log
        assert "port 0 (net_null0): stats.ibytes is %d" % MAX64 in said[0], said
        assert "port(s) withdrawn" not in log and "closed its telemetry connection" not in log, log
        # fastmib-stat reads it exactly as well (above 2^53 - 1 its JSON
        # gives the decimal digits as a string)
        stat = os.environ.get("FASTMIB_STAT")
        out = subprocess.run([stat, "--ports", app.dir, "--json"], capture_output=True,
                             text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        [src] = json.loads(out.stdout)["sources"]
        assert [p["rx_octets"] for p in src["ports"]] == [str(MAX64), 4242], src
    finally:
        srv.close()


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_newline_in_a_port_name(mode, fake_app):
    app = fake_app([faketel.port("net_null0"),
                    faketel.port("evil\nfastmib: forged line", index=1)])
    srv = PortsServer(mode, [app.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        log = srv.read_log()
        assert "evil\\x0afastmib: forged line" in log, log
        assert not any(ln.startswith("fastmib: forged line") for ln in log.splitlines()), log
        assert "evil\n" not in log
    finally:
        srv.close()


@pytest.mark.parametrize("mode", BESIDE_SNMPD)
def test_hello_then_silence(mode, fake_app):
    app = fake_app(faketel.null_ports(2))
    app.silent = True
    srv = PortsServer(mode, [app.dir], timeout_ms=20)
    try:
        srv.start()
        said = "application (pid %d) does not answer (no answer within 20 ms); no rows " \
               "until it does" % app.pid
        # the agent gives up on the connection and connects again: the
        # silence goes on through several checks, said once
        h.wait_for(lambda: app.accepted >= 2, 20, "a second connection")
        h.wait_for(lambda: said in srv.read_log(), 10, "the silence said")
        assert srv.read_log().count("does not answer") == 1, srv.read_log()
        assert not srv.row_served(BASE)
        app.silent = False
        srv.wait_row(BASE + 1)
        log = srv.read_log()
        assert log.count("does not answer") == 1 and "answers late" not in log, log
        assert "application (pid %d) answers again" % app.pid in log, log
    finally:
        srv.close()


def test_reply_that_is_not_json(fake_app):
    """A reply that is not JSON is refused, however it looks like a number:
    an over-long integer with leading zeros was once read as one. The log
    names the application's socket and the command, and the connection,
    whose replies can no longer be trusted, is closed."""
    app = fake_app(faketel.null_ports(2))
    srv = PortsServer("agentx", [app.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        app.raw["/ethdev/stats,1"] = ('{"/ethdev/stats":{"ipackets":000000000000000000001,'
                                      '"ibytes":1}}')
        srv.client.get([ifx_oid(6, BASE + 1)])  # asks /ethdev/stats,1
        sock = os.path.join(app.dir, "dpdk_telemetry.v2")
        h.wait_for(lambda: "%s: reply: Protocol error (not JSON to /ethdev/stats,1: "
                   "\"{\"/ethdev/stats\":{\"ipackets\":0000000000000000000...\")" % sock
                   in srv.read_log(), 10, "the refusal", interval=0.1)
    finally:
        srv.close()
