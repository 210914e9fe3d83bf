# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus snmp_exporter scrapes the DPDK ports like any interface: its
stock `if_mib` module (generated here from IF-MIB with
prometheus-snmp-generator, since Debian ships an empty snmp.yml) through
snmpd, which serves its own interfaces and, over AgentX, the ports of
dpdk-testpmd. Every port shows up with its ifName and ifDescr labels, its
counters between two telemetry reads around the scrape."""
import os

import pytest

import snmpexporter as px
from conftest import PortsServer, kernel_interfaces

# The if_mib module of snmp_exporter's own generator.yml (Debian:
# /usr/share/doc/prometheus-snmp-exporter/examples/generator.yml).
GENERATOR_YML = """\
modules:
  if_mib:
    walk: [sysUpTime, interfaces, ifXTable]
    lookups:
      - source_indexes: [ifIndex]
        lookup: ifAlias
      - source_indexes: [ifIndex]
        lookup: 1.3.6.1.2.1.2.2.1.2 # ifDescr
      - source_indexes: [ifIndex]
        lookup: 1.3.6.1.2.1.31.1.1.1.1 # ifName
    overrides:
      ifAlias:
        ignore: true
      ifDescr:
        ignore: true
      ifName:
        ignore: true
      ifType:
        type: EnumAsInfo
"""
# What IF-MIB imports, and nothing else: the generator's parser is strict
MIBS = ["SNMPv2-SMI", "SNMPv2-TC", "SNMPv2-CONF", "SNMPv2-MIB", "IANAifType-MIB", "IF-MIB"]
samples = px.samples


@pytest.fixture(scope="module")
def exporter(tmp_path_factory):
    d = tmp_path_factory.mktemp("exporter")
    mibdir = px.mib_dir(str(d / "mibs"), MIBS, [os.environ.get("FASTMIB_BASE_MIBS", "")])
    config, _ = px.generate(str(d), GENERATOR_YML, mibdir)
    e = px.Exporter(config, str(d)).start()
    try:
        yield e
    finally:
        e.stop()


@pytest.fixture(scope="module")
def served(testpmd):
    s = PortsServer("agentx", [testpmd.dir])
    try:
        yield s.start(wait_ifindex=1001)
    finally:
        s.close()


def test_if_mib_module_scrapes_the_ports(exporter, served, telemetry):
    target = "127.0.0.1:%d" % served.snmpd.port
    before = {p: telemetry.stats(p) for p in (0, 1)}
    text = exporter.scrape(target, "if_mib")
    after = {p: telemetry.stats(p) for p in (0, 1)}
    names = {int(lb["ifIndex"]): lb["ifName"] for lb, _ in samples(text, "ifHighSpeed")}
    # the kernel's interfaces, as snmpd serves them, and the two ports
    assert names == {**kernel_interfaces(), 1000: "net_null0", 1001: "net_null1"}
    for p in (0, 1):
        i = str(1000 + p)
        lbl = {"ifIndex": i, "ifName": "net_null%d" % p, "ifDescr": "net_null%d" % p,
               "ifAlias": ""}

        def one(metric):
            got = [v for lb, v in samples(text, metric) if lb.get("ifIndex") == i]
            assert len(got) == 1, (metric, got)
            assert [lb for lb, _ in samples(text, metric) if lb.get("ifIndex") == i][0] \
                == lbl, metric
            return got[0]
        # float64 holds these counts exactly (well below 2^53)
        assert before[p]["ipackets"] <= one("ifHCInUcastPkts") <= after[p]["ipackets"]
        assert before[p]["opackets"] <= one("ifHCOutUcastPkts") <= after[p]["opackets"]
        assert one("ifHCInOctets") == after[p]["ibytes"] == 0  # net_null counts none
        assert one("ifInErrors") == after[p]["ierrors"]
        assert one("ifOperStatus") == 1
        assert one("ifAdminStatus") == 1
        assert one("ifHighSpeed") == 10000
        assert one("ifMtu") == 1500
        types = [lb["ifType"] for lb, _ in samples(text, "ifType_info")
                 if lb.get("ifIndex") == i]
        assert types == ["ethernetCsmacd"]
        # a column nothing gives is simply absent, not zero
        assert not [lb for lb, _ in samples(text, "ifInUnknownProtos")
                    if lb.get("ifIndex") == i]
        assert [lb for lb, _ in samples(text, "ifInUnknownProtos")]  # the kernel's


# ---- fastmib-exporter --ports beside snmp_exporter's if_mib ----

import subprocess  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402

OPENMETRICS = "application/openmetrics-text; version=1.0.0"


@pytest.fixture(scope="module")
def fastmib_exporter(served, testpmd, tmp_path_factory):
    port = px.free_tcp_port()
    log = open(str(tmp_path_factory.mktemp("fexp") / "log"), "w")
    p = subprocess.Popen([os.environ["FASTMIB_EXPORTER"], "--ports", testpmd.dir,
                          "--ports.state-dir", served.state_dir,
                          "--web.listen-address", "127.0.0.1:%d" % port],
                         stdout=log, stderr=subprocess.STDOUT)
    url = "http://127.0.0.1:%d/metrics" % port
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=5).read()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        p.terminate()
        p.wait(timeout=10)
        log.close()


def fetch(url, accept=None):
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read().decode()


def port_series(text):
    """{(metric, frozenset(labels)): value} of the ports' series (ifIndex
    1000 and 1001), and {metric: type}, of if_mib's per-interface families."""
    out = {}
    for name in px.types(text):
        for lb, v in samples(text, name):
            if lb.get("ifIndex") in ("1000", "1001"):
                out[(name, frozenset(lb.items()))] = v
    return out


# counters of the traffic testpmd forwards: they move between two scrapes
MOVING = {"ifHCInUcastPkts", "ifHCOutUcastPkts", "ifInUcastPkts", "ifOutUcastPkts",
          "ifLastChange", "ifCounterDiscontinuityTime"}


def test_same_names_labels_values_as_snmp_exporter(exporter, served, fastmib_exporter):
    target = "127.0.0.1:%d" % served.snmpd.port
    snmp = exporter.scrape(target, "if_mib")
    ours = fetch(fastmib_exporter)
    after = exporter.scrape(target, "if_mib")
    s, o, a = port_series(snmp), port_series(ours), port_series(after)
    # the same series: names and label sets
    assert (set(o) - set(s), set(s) - set(o)) == (set(), set())
    # the same types in the text format, for the ports' families
    st, ot = px.types(snmp), px.types(ours)
    assert {n: ot[n] for n, _ in o} == {n: st[n] for n, _ in s}
    for key, v in o.items():
        if key[0] in MOVING:
            if key[0].endswith("Pkts"):
                assert s[key] <= v <= a[key], key
        else:
            assert v == s[key] == a[key], key
    # promtool parses the text; its only complaints are the ones the IF-MIB
    # names themselves earn (camelCase, counters without _total), which it
    # makes of snmp_exporter's text as well
    def lint(text):
        chk = subprocess.run(["promtool", "check", "metrics"], input=text, text=True,
                             capture_output=True)
        return set((chk.stdout + chk.stderr).splitlines())
    mine, theirs = lint(ours), lint(snmp)
    assert mine and mine <= theirs, mine - theirs
    assert all("snake_case" in m or '"_total" suffix' in m for m in mine), mine


def test_openmetrics_keeps_the_names(fastmib_exporter):
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    text = fetch(fastmib_exporter, OPENMETRICS)
    assert text.endswith("# EOF\n")
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    # counters typed unknown: the sample is the family's own name
    assert fams["ifHCInOctets"].type == "unknown"
    assert {s.name for s in fams["ifHCInOctets"].samples} == {"ifHCInOctets"}
    assert fams["ifType"].type == "info"
    assert fams["ifOperStatus"].type == "gauge"
    lbl = [s.labels for s in fams["ifOperStatus"].samples]
    assert {"ifIndex": "1000", "ifName": "net_null0", "ifDescr": "net_null0",
            "ifAlias": ""} in lbl


def test_prometheus_stores_the_if_mib_names(fastmib_exporter, tmp_path):
    """The real Prometheus scrapes with its own Accept header (OpenMetrics
    first): it stores ifHCInOctets, not ifHCInOctets_total, with the four
    labels, and its metadata shows the OpenMetrics types."""
    import promserver
    addr = fastmib_exporter.split("/")[2]
    p = promserver.Prometheus(str(tmp_path), [addr]).start()
    try:
        p.wait_scraped('ifHCInOctets{ifIndex="1000"}')
        names = {r["__name__"] for r in p.api("series", **{"match[]": '{ifIndex="1000"}'})}
        assert {"ifHCInOctets", "ifHCOutOctets", "ifHCInUcastPkts", "ifInErrors",
                "ifOperStatus", "ifAdminStatus", "ifMtu", "ifSpeed", "ifHighSpeed",
                "ifType_info", "ifPhysAddress", "ifSpecific"} <= names
        assert not [n for n in names if n.endswith(("_total", "_created"))], names
        # an empty label is no label in Prometheus (ifAlias "", as from
        # snmp_exporter)
        assert p.query('ifHCInOctets{ifIndex="1000"}') == {frozenset(
            {"ifIndex": "1000", "ifName": "net_null0", "ifDescr": "net_null0"}.items()): "0"}
        assert p.query('ifOperStatus{ifName="net_null1"}') == {frozenset(
            {"ifIndex": "1001", "ifName": "net_null1", "ifDescr": "net_null1"}.items()): "1"}
        # the scrape was OpenMetrics: counters stored as typed there
        meta = p.api("metadata", metric="ifHCInOctets")["ifHCInOctets"]
        assert [m["type"] for m in meta] == ["unknown"]
    finally:
        p.stop()


def test_pushed_under_the_if_mib_names(served, testpmd, fastmib_exporter, tmp_path):
    """--push.url sends the ports' series as a scrape gives them: the real
    Prometheus (its remote write receiver) stores every series of the
    ports' scrape, names and labels alike (an empty ifAlias no label),
    and the values of those that do not move."""
    import promserver
    p = promserver.Prometheus(str(tmp_path), [], remote_write=True).start()
    e = promserver.Exporter([], str(tmp_path), args=[
        "--ports", testpmd.dir, "--ports.state-dir", served.state_dir,
        "--push.url", p.write_url, "--push.interval", "200ms"])
    try:
        e.start()
        p.wait_scraped('ifOperStatus{ifIndex="1001"}')
        o = port_series(fetch(fastmib_exporter))
        got = {}
        for r in p.api("query", query='{ifIndex=~"1000|1001"}')["result"]:
            m = dict(r["metric"])
            got[(m.pop("__name__"), frozenset(m.items()))] = float(r["value"][1])
        want = {(n, frozenset((k, v) for k, v in lb if v)): v for (n, lb), v in o.items()}
        assert set(got) == set(want)
        for key, v in want.items():
            if key[0] not in MOVING:
                assert got[key] == float(v), key
    finally:
        e.stop()
        p.stop()


def test_alias_set_over_snmp_reaches_both(exporter, served, fastmib_exporter):
    """ifAlias set over SNMP is in the agent's map: fastmib-exporter reads
    the map again and labels the port as snmp_exporter does, quotes and
    backslashes escaped alike."""
    from conftest import ifx_oid
    alias = 'uplink "A" \\ 1'
    r = served.client.set(ifx_oid(18, 1001), "s", alias)
    assert r.rc == 0 and r.error is None, r
    try:
        target = "127.0.0.1:%d" % served.snmpd.port
        snmp = exporter.scrape(target, "if_mib")
        ours = fetch(fastmib_exporter)
        mine = [lb for lb, _ in samples(ours, "ifMtu") if lb["ifIndex"] == "1001"]
        theirs = [lb for lb, _ in samples(snmp, "ifMtu") if lb["ifIndex"] == "1001"]
        assert mine == theirs and len(mine) == 1
        line = [x for x in ours.splitlines() if x.startswith("ifMtu{") and "1001" in x]
        assert line == [x for x in snmp.splitlines()
                        if x.startswith("ifMtu{") and "1001" in x]
    finally:
        served.client.set(ifx_oid(18, 1001), "s", "")


def test_ports_line_of_a_config_file(served, testpmd, fastmib_exporter, tmp_path):
    """`ports PATH` in a -c file (the agent's syntax) is --ports PATH."""
    conf = tmp_path / "agentx.conf"
    conf.write_text("rocommunity public 127.0.0.1\nports %s\n" % testpmd.dir)
    port = px.free_tcp_port()
    p = subprocess.Popen([os.environ["FASTMIB_EXPORTER"], "-c", str(conf),
                          "--ports.state-dir", served.state_dir,
                          "--web.listen-address", "127.0.0.1:%d" % port],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = "http://127.0.0.1:%d/metrics" % port
        for _ in range(200):
            try:
                text = fetch(url)
                break
            except OSError:
                time.sleep(0.05)
        ref = fetch(fastmib_exporter)
        still = {k: v for k, v in port_series(ref).items() if k[0] not in MOVING}
        mine = port_series(text)
        assert set(mine) == set(port_series(ref))
        assert {k: mine[k] for k in still} == still
    finally:
        p.terminate()
        p.wait(timeout=10)


def test_concurrent_scrapes_each_get_every_port(fastmib_exporter):
    """Four clients scrape at once, 25 times each: every answer has both
    ports in every family (one telemetry connection per application, taken
    in turn; shared without the lock, replies go to the wrong scrape)."""
    import threading
    bad = []

    def client(accept):
        for _ in range(25):
            text = fetch(fastmib_exporter, accept)
            for name in ("ifHCInOctets", "ifOperStatus", "ifMtu", "ifHCInUcastPkts"):
                got = sorted(lb["ifIndex"] for lb, _ in samples(text, name))
                if got != ["1000", "1001"]:
                    bad.append((name, got))
    ts = [threading.Thread(target=client, args=(OPENMETRICS if i % 2 else None,))
          for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=120)
    assert not bad, bad[:5]


def test_exact_values_with_traffic_stopped(exporter, tmp_path):
    """testpmd's forwarding stopped at its prompt (`stop`) and one port
    stopped (`port stop 1`): every series of the ports is equal in value
    between snmp_exporter and fastmib-exporter, the moving ones included,
    except the two TimeStamps (ifLastChange, ifCounterDiscontinuityTime),
    which count from the start of the process that serves them (the
    agent's sysUpTime there, the exporter's here)."""
    import dpdkapp
    app = dpdkapp.Testpmd(interactive=True, log_dir=str(tmp_path)).start()
    srv = PortsServer("agentx", [app.dir])
    port = px.free_tcp_port()
    p = None
    try:
        srv.start(wait_ifindex=1001)
        time.sleep(0.5)  # some packets forwarded first: counters not zero
        app.command("stop")
        app.command("port stop 1", settle=1.0)
        p = subprocess.Popen([os.environ["FASTMIB_EXPORTER"], "--ports", app.dir,
                              "--ports.state-dir", srv.state_dir,
                              "--web.listen-address", "127.0.0.1:%d" % port],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = "http://127.0.0.1:%d/metrics" % port
        for _ in range(200):
            try:
                ours = fetch(url)
                break
            except OSError:
                time.sleep(0.05)
        snmp = exporter.scrape("127.0.0.1:%d" % srv.snmpd.port, "if_mib")
        o, s = port_series(ours), port_series(snmp)
        assert set(o) == set(s)
        stamps = ("ifLastChange", "ifCounterDiscontinuityTime")
        o = {k: v for k, v in o.items() if k[0] not in stamps}
        s = {k: v for k, v in s.items() if k[0] not in stamps}
        assert o == s
        pk = [v for (n, lb), v in o.items() if n == "ifHCInUcastPkts"]
        assert len(pk) == 2 and all(v > 0 for v in pk)
        assert [v for (n, lb), v in o.items() if n == "ifOperStatus"
                and ("ifIndex", "1001") in lb] == [2]
    finally:
        if p:
            p.terminate()
            p.wait(timeout=10)
        srv.close()
        app.stop()
