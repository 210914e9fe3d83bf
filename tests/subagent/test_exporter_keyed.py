# SPDX-License-Identifier: BSD-3-Clause
"""Keyed tables reach Prometheus labelled by their keys: `fastmib-gen -x`
writes the snmp_exporter module of the keyed test model, the real
prometheus-snmp-generator turns it into snmp.yml with the generated MIB
and the MIB modules the module's header lists (INET-ADDRESS-MIB among
them: a stand-in for the tests), and the real prometheus-snmp-exporter
scrapes a segment of known keys and values (mkkeyed) through a real snmpd
and fastmib-agentx (AgentX).

Every keyed row is one series per counter whose labels are its key as
snmp_exporter writes each index type (an InetAddressType and its address
one label; IPv6 as eight groups of four hexadecimal digits, a MAC in
capitals), with the exact value; nothing else of the tables, no index
object as a metric."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpexporter as px  # noqa: E402
import snmpharness as h  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "codegen", "keyed", "keyed.yaml")
STAND_INS = os.path.join(HERE, "..", "lib", "mibs")
MODULE = "keyed_test_mib"
ROOT = "1.3.6.1.4.1.8072.9999.77"

# (key as mkkeyed and fastmib-stat take it, counters) of each table
ROWS = [
    ("tunnel/10.0.0.1,3735928559", {"pkts": 5, "bytes": 500}),
    ("tunnel/2001:db8::1,7", {"pkts": 9, "bytes": 900}),
    ("peerQueue/10.0.0.1,3", {"pkts": 6, "backlog": 2}),
    ("host/192.168.1.9", {"sessions": 4, "drops": 3}),
    ("station/02:00:00:00:00:01", {"frames": 3}),
    ("station/02:ab:cd:ef:00:02", {"frames": 4}),
    ("customer/eth0,1", {"octets": 77}),
    ("customer/a\\,b c,2", {"octets": 5}),
]

# what the scrape must carry: metric -> {frozenset(labels): value}
WANT = {
    "ktTunnelPkts": {
        (("ktTunnelPeer", "10.0.0.1"), ("ktTunnelTeid", "3735928559")): 5,
        (("ktTunnelPeer", "2001:0DB8:0000:0000:0000:0000:0000:0001"),
         ("ktTunnelTeid", "7")): 9},
    "ktTunnelBytes": {
        (("ktTunnelPeer", "10.0.0.1"), ("ktTunnelTeid", "3735928559")): 500,
        (("ktTunnelPeer", "2001:0DB8:0000:0000:0000:0000:0000:0001"),
         ("ktTunnelTeid", "7")): 900},
    "ktPeerQueuePkts": {
        (("ktPeerQueuePeerAddr", "10.0.0.1"), ("ktPeerQueueQueue", "3")): 6},
    "ktPeerQueueBacklog": {
        (("ktPeerQueuePeerAddr", "10.0.0.1"), ("ktPeerQueueQueue", "3")): 2},
    "ktHostSessions": {(("ktHostAddr", "192.168.1.9"),): 4},
    "ktHostDrops": {(("ktHostAddr", "192.168.1.9"),): 3},
    "ktStationFrames": {(("ktStationMac", "02:00:00:00:00:01"),): 3,
                        (("ktStationMac", "02:AB:CD:EF:00:02"),): 4},
    "ktCustomerOctets": {
        (("ktCustomerCustomerName", "eth0"), ("ktCustomerVlan", "1")): 77,
        (("ktCustomerCustomerName", "a,b c"), ("ktCustomerVlan", "2")): 5},
    "ktPortPkts": {(("ktPortPortId", str(i)),): 0 for i in range(1, 5)},
}
INDEX_OBJECTS = ["ktTunnelPeerType", "ktTunnelPeer", "ktTunnelTeid", "ktPeerQueuePeerAddrType",
                 "ktPeerQueuePeerAddr", "ktPeerQueueQueue", "ktHostAddr", "ktStationMac",
                 "ktCustomerCustomerName", "ktCustomerVlan", "ktPortPortId"]


def tool(var):
    path = os.environ.get(var)
    assert path, "%s not set: run through ctest" % var
    return path


def fastmib_gen(*args):
    return px.fastmib_gen(MODEL, *args)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("keyed")


@pytest.fixture(scope="module")
def config(workdir):
    """generator.yml with the two large keyed tables asked for, and the
    MIB directory holding the modules its header lists, and no other."""
    text = fastmib_gen("-x", "-", "--snmp-exporter-table", "tunnel",
                       "--snmp-exporter-table", "peerQueue")
    fastmib_gen("-o", workdir / "gen")
    mibs = px.needed_mibs(text)
    assert "INET-ADDRESS-MIB" in mibs
    mibdir = px.mib_dir(str(workdir / "mibs"), mibs,
                        [str(workdir / "gen"), os.environ.get("FASTMIB_BASE_MIBS", ""),
                         "/usr/share/snmp/mibs", STAND_INS])
    return text, mibdir


@pytest.fixture(scope="module")
def exporter(workdir, config):
    text, mibdir = config
    e = px.started(str(workdir), text, mibdir)
    try:
        yield e
    finally:
        e.stop()


@pytest.fixture(scope="module")
def served(workdir):
    seg = str(workdir / "kt.seg")
    args = [seg, "global.pkts=11"]
    for key, counters in ROWS:
        args += [key] + ["%s=%d" % kv for kv in counters.items()]
    r = subprocess.run([tool("MKKEYED"), *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    snmpd = h.Snmpd().start()
    agent = h.Agent([seg], snmpd)
    try:
        agent.start(wait_oid=ROOT + ".1.1.1.0")  # ktGlobalPkts.0
        yield snmpd
    finally:
        h.shut_down(agent, snmpd)


@pytest.fixture(scope="module")
def scraped(exporter, served):
    text = exporter.scrape("127.0.0.1:%d" % served.port, MODULE)
    assert "snmp_scrape_" in text  # the exporter's own metrics: a complete scrape
    return text


def test_keys_are_labels_with_exact_values(scraped):
    """Each row of each table: its key as labels, its exact values; no other
    row (the port table's four rows of zeros are rows too)."""
    types = px.types(scraped)
    for metric, rows in WANT.items():
        got = {tuple(sorted(lb.items())): v for lb, v in px.samples(scraped, metric)}
        assert got == {tuple(sorted(k)): float(v) for k, v in rows.items()}, metric
        assert types[metric] == ("gauge" if metric in ("ktHostSessions", "ktPeerQueueBacklog")
                                 else "counter"), metric
    assert px.samples(scraped, "ktGlobalPkts") == [({}, 11.0)]


def test_discontinuity_per_key(scraped):
    """A keyed row's DiscontinuityTime carries the same key labels."""
    for metric, label_sets in (("ktTunnelDiscontinuityTime", WANT["ktTunnelPkts"]),
                               ("ktStationDiscontinuityTime", WANT["ktStationFrames"]),
                               ("ktCustomerDiscontinuityTime", WANT["ktCustomerOctets"])):
        got = {tuple(sorted(lb.items())) for lb, _ in px.samples(scraped, metric)}
        assert got == {tuple(sorted(k)) for k in label_sets}, metric


def test_index_objects_are_no_metrics(exporter, scraped):
    metrics = {m["name"] for m in exporter.modules[MODULE]["metrics"]}
    for name in INDEX_OBJECTS:
        assert name not in metrics, name
        assert not px.samples(scraped, name), name
    assert "ktTunnelPeerType=" not in scraped


def test_generator_needs_inet_address_mib(workdir, config):
    """The negative control of the module's list of MIBs: without
    INET-ADDRESS-MIB the generator cannot read the MIB."""
    text, mibdir = config
    bare = workdir / "no-inet"
    bare.mkdir()
    mibs = px.mib_dir(str(bare / "mibs"), [m for m in px.needed_mibs(text)
                                           if m != "INET-ADDRESS-MIB"], [mibdir])
    with pytest.raises(h.HarnessError):
        px.generate(str(bare), text, mibs)
