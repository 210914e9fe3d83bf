# SPDX-License-Identifier: BSD-3-Clause
"""What the agent keeps of each DPDK device in its state directory, with
dpdk-testpmd's net_null ports: the ifIndex follows the device, not its
port id (testpmd restarted with its vdevs in the other order); ifAlias set
over SNMP survives a restart of the agent and of testpmd; two testpmd
instances with the same device names give distinct ifIndex values and
ifName values in one walk; an operator pins an ifIndex by writing a line
and forgets one by deleting it; a line that is wrong is named with its
file and line, and the file is then left as the operator wrote it."""
import os
import time

import pytest

import dpdkapp
import snmpharness as h
from conftest import BESIDE_SNMPD, IFX_ENTRY, PortsServer, ifx_oid

BASE = 1000


@pytest.fixture(params=BESIDE_SNMPD)
def mode(request):
    return request.param


def state_file(server):
    return os.path.join(server.state_dir, "fastmib-ports.state")


def read_state(server):
    with open(state_file(server)) as f:
        return f.read()


def alias(server, ifindex):
    vb = server.client.get([ifx_oid(18, ifindex)]).varbinds[0]
    assert vb.type in ("STRING", "?"), vb  # "?": the empty string, printed bare
    return vb.value.strip('"') if vb.value else ""


def test_ifindex_follows_the_device_not_the_port_id(mode, tmp_path):
    prefix = dpdkapp.unique_prefix("fmst")
    app = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [app.dir])
    again = None
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        app.stop()
        srv.wait_gone(BASE)
        # the same devices probed in the other order: port 0 is net_null1
        again = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path),
                                vdevs=["net_null1", "net_null0"]).start()
        t = again.telemetry()
        try:
            assert t.info(0)["name"] == "net_null1"
        finally:
            t.close()
        srv.wait_row(BASE + 1)
        srv.wait_row(BASE)
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        # and across a restart of the agent, reading its state back
        srv.restart(wait_ifindex=BASE + 1)
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        assert "new ifIndex" not in srv.read_log().rsplit("serving 2 port(s)", 1)[1]
    finally:
        srv.close()
        app.stop()
        if again:
            again.stop()


def test_alias_survives_restarts(mode, tmp_path):
    prefix = dpdkapp.unique_prefix("fmal")
    app = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [app.dir])
    again = None
    try:
        srv.start(wait_ifindex=BASE + 1)
        assert alias(srv, BASE) == ""
        r = srv.client.set(ifx_oid(18, BASE + 1), "s", "uplink-A")
        assert r.rc == 0 and r.error is None, r
        assert alias(srv, BASE + 1) == "uplink-A"
        assert 'alias="uplink-A"' in read_state(srv)
        assert 'ifIndex 1001: ifAlias set to "uplink-A"' in srv.read_log()
        # the agent (or snmpd with the module) restarts
        srv.restart(wait_ifindex=BASE + 1)
        assert alias(srv, BASE + 1) == "uplink-A"
        # the application restarts
        app.stop()
        srv.wait_gone(BASE + 1)
        again = dpdkapp.Testpmd(prefix=prefix, log_dir=str(tmp_path)).start()
        srv.wait_row(BASE + 1)
        assert alias(srv, BASE + 1) == "uplink-A"
        assert alias(srv, BASE) == ""
        # back to nothing
        r = srv.client.set(ifx_oid(18, BASE + 1), "s", "")
        assert r.rc == 0, r
        assert "alias=" not in read_state(srv)
    finally:
        srv.close()
        app.stop()
        if again:
            again.stop()


@pytest.mark.parametrize("oid, type_, value, error", [
    (ifx_oid(18, BASE), "s", "x" * 65, "wrongLength"),
    (ifx_oid(18, BASE), "i", 1, "wrongType"),
    (ifx_oid(14, BASE), "i", 3, "wrongValue"),
    (ifx_oid(14, BASE), "s", "enabled", "wrongType"),
    (ifx_oid(16, BASE), "i", 1, "notWritable"),
])
def test_bad_sets(testpmd, oid, type_, value, error):
    """RFC 2863's errors for bad values, and nothing stored; a read-only
    community is refused by snmpd before the agent sees it."""
    srv = PortsServer("agentx", [testpmd.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        r = srv.client.set(oid, type_, value)
        assert r.error == error, r
        r = srv.client.set(ifx_oid(18, BASE), "s", "ro", who="ro")
        assert r.error in ("noAccess", "authorizationError"), r
        assert alias(srv, BASE) == ""
        assert srv.client.value(ifx_oid(14, BASE)) == 1
        assert not os.path.exists(state_file(srv)) or "alias=" not in read_state(srv)
    finally:
        srv.close()


def test_one_pdu_sets_several_and_fails_whole(testpmd):
    """A PDU with two good values and a bad one changes nothing; two good
    values go together; a 64-octet alias with any octets is kept as set."""
    srv = PortsServer("agentx", [testpmd.dir])
    try:
        srv.start(wait_ifindex=BASE + 1)
        r = srv.client.run("snmpset", [ifx_oid(18, BASE), "s", "a",
                                       ifx_oid(14, BASE + 1), "i", "2",
                                       ifx_oid(18, BASE + 1), "s", "x" * 65], who="rw")
        assert r.error == "wrongLength", r
        assert alias(srv, BASE) == "" and srv.client.value(ifx_oid(14, BASE + 1)) == 1
        r = srv.client.run("snmpset", [ifx_oid(18, BASE), "x", "00" + "41" * 62 + "0a",
                                       ifx_oid(14, BASE + 1), "i", "2"], who="rw")
        assert r.rc == 0, r
        # printed over several lines: all of them
        out = srv.client.get([ifx_oid(18, BASE)]).out
        assert bytes.fromhex("".join(out.split("Hex-STRING:", 1)[1].split())) == \
            b"\0" + b"A" * 62 + b"\n"
        assert srv.client.value(ifx_oid(14, BASE + 1)) == 2
        assert r'alias="\x00' + "A" * 62 + r'\x0a"' in read_state(srv)
        assert "linkTraps=disabled" in read_state(srv)
        # the log shows the alias escaped: no line of its own
        assert r'ifAlias set to "\x00' + "A" * 62 + r'\x0a"' in srv.read_log()
    finally:
        srv.close()


def test_two_applications_with_the_same_names(mode, tmp_path):
    a = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    b = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    srv = PortsServer(mode, [a.dir, b.dir])
    try:
        srv.start(wait_ifindex=BASE + 3)
        names = srv.names()
        assert names == {BASE: "%s/net_null0" % a.prefix, BASE + 1: "%s/net_null1" % a.prefix,
                         BASE + 2: "%s/net_null0" % b.prefix,
                         BASE + 3: "%s/net_null1" % b.prefix}
        # ifDescr too, in one walk with the kernel's interfaces
        w = srv.client.bulkwalk("1.3.6.1.2.1.2.2.1.2", reps=30)
        descr = [vb.value for vb in w.varbinds]
        assert len(descr) == len(set(descr))
        assert set('"%s"' % n for n in names.values()) <= set(descr)
    finally:
        srv.close()
        a.stop()
        b.stop()


def test_pin_and_forget(testpmd):
    """A line written while the agent is stopped pins an ifIndex; a line
    deleted forgets one; a wrong line is reported with its file, line and
    field, the others are taken, and the file is not rewritten."""
    srv = PortsServer("agentx", [testpmd.dir])
    try:
        os.makedirs(srv.state_dir, exist_ok=True)
        with open(state_file(srv), "w") as f:
            f.write('port "%s" "net_null1" ifIndex=7000 alias="pinned"\n' % testpmd.dir)
        srv.start(wait_ifindex=7000)
        assert srv.names() == {BASE: "net_null0", 7000: "net_null1"}
        assert alias(srv, 7000) == "pinned"
        srv.stop()
        with open(state_file(srv)) as f:
            lines = f.read().splitlines()
        with open(state_file(srv), "w") as f:
            f.write("\n".join(ln for ln in lines if "net_null1" not in ln) + "\n")
        srv.agent.start()
        srv.wait_row(BASE + 1)
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        srv.stop()
        with open(state_file(srv), "a") as f:
            f.write("port %s net_null9 ifIndex=0\n" % testpmd.dir)
        before = read_state(srv)
        srv.agent.start()
        srv.wait_row(BASE + 1)
        assert "%s:%d: ifIndex: not a number in 1..2147483647" % (
            state_file(srv), len(before.splitlines())) in srv.read_log()
        assert srv.names() == {BASE: "net_null0", BASE + 1: "net_null1"}
        r = srv.client.set(ifx_oid(18, BASE), "s", "kept in memory")
        assert r.rc == 0, r
        assert read_state(srv) == before
        assert "is not rewritten while it has the errors" in srv.read_log()
    finally:
        srv.close()
