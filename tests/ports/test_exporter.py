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
