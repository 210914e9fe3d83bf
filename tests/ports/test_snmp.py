# SPDX-License-Identifier: BSD-3-Clause
"""dpdk-testpmd's ports in IF-MIB, in every serving mode: names, ifIndex,
type, MTU, speed and addresses exactly as the application's telemetry
reports them; counters read at request time (each lies between two
telemetry reads taken just before and just after it); beside snmpd's own
interfaces in one walk, in OID order, nothing duplicated or shadowed, no
row with a column missing; ifNumber counting the ports where the agent
takes it over; one telemetry reading of a port per PDU at most."""
import re
import subprocess
import time

import pytest

import snmpharness as h
from conftest import (BESIDE_SNMPD, IF_ENTRY, IFX_ENTRY, MODES, PortsServer, if_oid,
                      ifx_oid, kernel_interfaces, oid_key)

BASE = 1000
# Columns a DPDK row answers (net_null: no multicast/broadcast breakdown)
IF_COLS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 16, 17, 20, 22]
IFX_COLS = [1, 6, 7, 10, 11, 14, 15, 16, 17, 18, 19]
# ... and those nothing in telemetry gives: no instance
IF_NONE = [12, 15, 18, 19, 21]
IFX_NONE = [2, 3, 4, 5, 8, 9, 12, 13]


@pytest.fixture(scope="module", params=MODES)
def served(request, testpmd):
    s = PortsServer(request.param, [testpmd.dir])
    try:
        yield s.start(wait_ifindex=BASE + 1)
    finally:
        s.close()


def by_oid(result):
    return {vb.oid: vb for vb in result.varbinds}


def test_rows_are_what_telemetry_reports(served, telemetry):
    ports = telemetry.ports()
    assert ports == [0, 1]
    for p in ports:
        i = BASE + p
        info, link = telemetry.info(p), telemetry.link(p)
        want = {
            if_oid(1, i): ("INTEGER", i),
            if_oid(2, i): ("STRING", '"%s"' % info["name"]),
            if_oid(3, i): ("INTEGER", 6),
            if_oid(4, i): ("INTEGER", info["mtu"]),
            if_oid(5, i): ("Gauge32", min(link["speed"] * 10**6, 2**32 - 1)),
            if_oid(7, i): ("INTEGER", 1),   # dev_started
            if_oid(8, i): ("INTEGER", 1),   # link UP
            if_oid(9, i): ("Timeticks", 0),  # up since before the agent
            if_oid(22, i): ("OID", ".0.0"),
            ifx_oid(1, i): ("STRING", '"%s"' % info["name"]),
            ifx_oid(14, i): ("INTEGER", 1),  # linkUp/linkDown enabled
            ifx_oid(15, i): ("Gauge32", link["speed"]),
            ifx_oid(16, i): ("INTEGER", 1 if info["promiscuous"] else 2),
            ifx_oid(17, i): ("INTEGER", 2),  # a vdev has no connector
            ifx_oid(18, i): ("", '""'),  # printed without a type: = ""
            ifx_oid(19, i): ("Timeticks", 0),
        }
        r = served.client.get(list(want))
        assert r.rc == 0, r
        got = {vb.oid: ("", vb.raw.split(" = ", 1)[1]) if vb.raw.endswith('= ""')
               else (vb.type, vb.value) for vb in r.varbinds}
        assert got == want
        assert info["name"] == "net_null%d" % p and link["speed"] == 10000
        # -Ox: in hexadecimal even when the (random) address is printable
        mac = served.client.get([if_oid(6, i)], fmt=("-On", "-Oe", "-Ox")).varbinds[0]
        assert mac.type == "Hex-STRING"
        assert h.parse_hex(mac.value) == bytes.fromhex(info["mac_addr"].replace(":", ""))
        # nothing in telemetry gives these: no instance, not an invented value
        r = served.client.get([if_oid(c, i) for c in IF_NONE] +
                              [ifx_oid(c, i) for c in IFX_NONE])
        assert [vb.type for vb in r.varbinds] == ["noSuchInstance"] * (
            len(IF_NONE) + len(IFX_NONE))


def test_no_row_beside_the_ports(served):
    r = served.client.get([if_oid(2, BASE - 1), if_oid(2, BASE + 2),
                           if_oid(2, BASE) + ".0", ifx_oid(1, BASE + 100)])
    # which of the two depends on who answers (snmpd's own table, or
    # nobody in the standalone agent): only that nothing is there matters
    assert len(r.varbinds) == 4
    assert {vb.type for vb in r.varbinds} <= {"noSuchInstance", "noSuchObject"}


# counter columns and the telemetry value each must equal
COUNTERS = [
    (IFX_ENTRY, 7, "Counter64", lambda s: s["ipackets"]),    # ifHCInUcastPkts
    (IFX_ENTRY, 11, "Counter64", lambda s: s["opackets"]),   # ifHCOutUcastPkts
    (IFX_ENTRY, 6, "Counter64", lambda s: s["ibytes"]),      # ifHCInOctets
    (IFX_ENTRY, 10, "Counter64", lambda s: s["obytes"]),     # ifHCOutOctets
    (IF_ENTRY, 11, "Counter32", lambda s: s["ipackets"]),    # ifInUcastPkts
    (IF_ENTRY, 17, "Counter32", lambda s: s["opackets"]),    # ifOutUcastPkts
    (IF_ENTRY, 10, "Counter32", lambda s: s["ibytes"]),      # ifInOctets
    (IF_ENTRY, 16, "Counter32", lambda s: s["obytes"]),      # ifOutOctets
    (IF_ENTRY, 13, "Counter32", lambda s: s["imissed"] + s["rx_nombuf"]),  # ifInDiscards
    (IF_ENTRY, 14, "Counter32", lambda s: s["ierrors"]),     # ifInErrors
    (IF_ENTRY, 20, "Counter32", lambda s: s["oerrors"]),     # ifOutErrors
]


def within(kind, value, lo, hi):
    """A Counter32 is the 64-bit count modulo 2^32."""
    if kind == "Counter32":
        return (value - lo) % 2**32 <= hi - lo
    return lo <= value <= hi


def test_counters_are_read_at_request_time(served, telemetry):
    oids = ["%s.%d.%d" % (e, c, BASE + p) for p in (0, 1) for e, c, _, _ in COUNTERS]
    seen, misses, samples = [], 0, 0
    # until the counters were seen at four different values (on a busy
    # machine the forwarding thread may not run between two samples)
    while len(set(seen)) < 4:
        samples += 1
        assert samples <= 40, "the counters hardly moved: %s" % seen
        before = {p: telemetry.stats(p) for p in (0, 1)}
        r = served.client.get(oids)
        after = {p: telemetry.stats(p) for p in (0, 1)}
        # no reading for a second on a very busy machine: genErr, tolerated
        # like a late one
        if r.error == "genError" and misses < 2:
            misses += 1
            continue
        assert r.rc == 0 and len(r.varbinds) == len(oids), r
        # an application that misses the agent's deadline (a busy machine)
        # has its last reading served, taken before this one: tolerated
        # once or twice (a copy refreshed every so often would be older
        # every time)
        stale = any(vb.value < field(before[p]) for vb, (p, (_, _, kind, field)) in zip(
            r.varbinds, [(p, c) for p in (0, 1) for c in COUNTERS]) if kind == "Counter64")
        if stale and misses < 2:
            misses += 1
            continue
        vbs = iter(r.varbinds)
        for p in (0, 1):
            for e, c, kind, field in COUNTERS:
                vb = next(vbs)
                assert vb.type == kind, vb
                assert within(kind, vb.value, field(before[p]), field(after[p])), \
                    (vb, field(before[p]), field(after[p]))
        # the application forwards: its counters move under our feet, and
        # the reads follow them (a copy refreshed every few seconds would not)
        seen.append(r.varbinds[0].value)
        time.sleep(0.1)


def test_walk_beside_snmpd_own_interfaces(served):
    """One walk of ifTable and one of ifXTable through snmpd: the kernel's
    interfaces as snmpd serves them, then the DPDK ports, column by column,
    every OID once and in order."""
    if served.mode not in BESIDE_SNMPD:
        pytest.skip("the standalone agent serves no kernel interface")
    kernel = kernel_interfaces()
    assert kernel and max(kernel) < BASE, "a kernel ifIndex reaches the ports' base"
    ours = {BASE: "net_null0", BASE + 1: "net_null1"}
    for table, name_col, cols in ((IF_ENTRY, 2, IF_COLS), (IFX_ENTRY, 1, IFX_COLS)):
        for walk in (served.client.walk(table), served.client.bulkwalk(table, reps=7)):
            assert walk.rc == 0, walk
            oids = [vb.oid for vb in walk.varbinds]
            keys = [oid_key(o) for o in oids]
            assert keys == sorted(keys) and len(set(keys)) == len(keys)
            assert all(o.startswith(table + ".") for o in oids)
            names = {int(vb.oid.rsplit(".", 1)[1]): vb.value.strip('"')
                     for vb in walk.varbinds
                     if vb.oid.startswith("%s.%d." % (table, name_col))}
            assert names == {**kernel, **ours}
            # every column of a DPDK row that has a value, nothing else:
            # never a row with a column missing
            for i in ours:
                have = sorted(int(o.split(".")[-2]) for o in oids
                              if o.endswith(".%d" % i))
                assert have == cols, (table, i)


def test_getnext_across_the_rows(served):
    c = served.client
    kernel = sorted(kernel_interfaces())
    after_ours = if_oid(3, kernel[0]) if served.mode in BESIDE_SNMPD else if_oid(3, BASE)
    cases = {
        if_oid(2, BASE - 1): if_oid(2, BASE),
        if_oid(2, BASE): if_oid(2, BASE + 1),
        if_oid(2, BASE) + ".7": if_oid(2, BASE + 1),
        if_oid(2, BASE + 1): after_ours,
        ifx_oid(1, BASE + 1): ifx_oid(2, kernel[0]) if served.mode in BESIDE_SNMPD
        else ifx_oid(6, BASE),
    }
    r = c.getnext(list(cases))
    assert [vb.oid for vb in r.varbinds] == list(cases.values())


def test_read_only_columns(served):
    """ifAdminStatus and ifPromiscuousMode (and everything but ifAlias and
    ifLinkUpDownTrapEnable) are read-only: notWritable, nothing changed."""
    for oid, t, v in ((if_oid(7, BASE), "i", 2), (ifx_oid(16, BASE), "i", 2),
                      (if_oid(2, BASE), "s", "x"), (ifx_oid(15, BASE), "u", 1)):
        r = served.client.set(oid, t, v)
        assert r.error in ("notWritable", "noAccess"), r
    assert served.client.value(if_oid(7, BASE)) == 1


def pdu_readings(server, before):
    """The telemetry queries made for requests since log offset `before`:
    [(ports read, first port id)] (needs debug)."""
    log = server.read_log()[before:]
    return [(int(m.group(1)), int(m.group(2))) for m in
            re.finditer(r"(\d+) port\(s\) from port (\d+): query for a request", log)]


def test_one_reading_per_port_per_pdu(served, testpmd):
    """A GET of every counter of both ports, and more, reads each port once
    for the PDU, both in one query in snmpd or standalone; over AgentX
    snmpd splits the PDU by registration, and the pieces share the
    readings by the request's transaction id. A bulk walk of one column
    reads each port once too."""
    s = PortsServer(served.mode, [testpmd.dir], debug=True)
    try:
        s.start(wait_ifindex=BASE + 1)
        oids = ["%s.%d.%d" % (e, c, BASE + p) for p in (0, 1) for e, c, _, _ in COUNTERS]
        oids += [if_oid(2, BASE), ifx_oid(1, BASE + 1), if_oid(8, BASE + 1)]
        before = len(s.read_log())
        r = s.client.get(oids)
        assert r.rc == 0 and all(vb.value is not None for vb in r.varbinds), r
        reads = pdu_readings(s, before)
        if served.mode == "agentx":
            assert sorted(p for _, p in reads) == [0, 1] and all(n == 1 for n, _ in reads)
        else:
            assert reads == [(2, 0)]
        before = len(s.read_log())
        w = s.client.bulkwalk(ifx_oid(6, BASE)[:-5], reps=10)
        assert [vb.oid for vb in w.varbinds if oid_key(vb.oid)[-1] >= BASE] == \
            [ifx_oid(6, BASE), ifx_oid(6, BASE + 1)]
        reads = pdu_readings(s, before)
        assert sum(n for n, _ in reads) == 2 and len({p for _, p in reads}) == len(reads)
    finally:
        s.close()


def test_ifnumber(served):
    """ifNumber counts the ports where the agent can take it over: in snmpd
    (the module) snmpd's own count and the ports, standalone the ports;
    over AgentX it stays snmpd's (docs/if-mib.md says why)."""
    n = served.client.value("1.3.6.1.2.1.2.1.0")
    kernel = len(kernel_interfaces())
    assert n == {"module": kernel + 2, "standalone": 2, "agentx": kernel}[served.mode]


def test_snmpnetstat_lists_the_ports(served):
    if served.mode not in BESIDE_SNMPD:
        pytest.skip("snmpnetstat reads ipAddrTable too, which the standalone agent lacks")
    r = subprocess.run(["snmpnetstat", "-v2c", "-c", "public", "-m", "", "-Ci",
                        served.client.target], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    names = [ln.split()[0] for ln in r.stdout.splitlines()[1:] if ln.strip()]
    assert "net_null0" in names and "net_null1" in names, r.stdout
    assert set(kernel_interfaces().values()) <= set(names), r.stdout


def test_settings_file_sources_and_bases(testpmd):
    """`ports` and `ifIndexBase` lines of the settings file: a source of its
    own base, one from ifIndexBase; several sources: ifName is
    LABEL/NAME, the label the runtime directory's name, numbered where two
    are the same."""
    conf = ["ports %s,5000" % testpmd.dir, "ports %s" % testpmd.socket,
            "ifIndexBase 300", "portsTimeout 100"]
    agent = h.Agent([], None, standalone=True, extra_conf=conf)
    try:
        agent.start(wait_oid=ifx_oid(1, 301))
        r = agent.client.get([ifx_oid(1, i) for i in (5000, 5001, 300, 301)])
        label = testpmd.prefix
        assert [vb.value for vb in r.varbinds] == [
            '"%s/net_null0"' % label, '"%s/net_null1"' % label,
            '"%s-2/net_null0"' % label, '"%s-2/net_null1"' % label]
        r = agent.client.get([ifx_oid(1, i) for i in (302, 1000, 5002)])
        assert {vb.type for vb in r.varbinds} <= {"noSuchInstance", "noSuchObject"}
    finally:
        h.shut_down(agent)


@pytest.mark.parametrize("args, message", [
    (["--ports", "/x,0"], "needs PATH or PATH,BASE with BASE in 1..2147483647"),
    (["--ifindex-base", "0", "--ports", "/x"], "bad ifIndex base '0'"),
    (["--ports-timeout", "5000", "--ports", "/x"], "bad timeout '5000' (1..1000 ms)"),
    (["--ports-link-trap-rate", "-1", "--ports", "/x"],
     "bad linkUp/linkDown rate '-1' (0..1000000/s)"),
    ([], "no segment and no --ports given"),
])
def test_bad_options_are_refused(args, message):
    r = subprocess.run([h.agentx_binary(), "-f"] + args, capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 1
    assert message in r.stderr
