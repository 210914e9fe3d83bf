# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus snmp_exporter scrapes the DPDK ports like any interface: its
stock `if_mib` module (generated here from IF-MIB with
prometheus-snmp-generator, since Debian ships an empty snmp.yml) through
snmpd, which serves its own interfaces and, over AgentX, the ports of
dpdk-testpmd. Every port shows up with its ifName and ifDescr labels, its
counters between two telemetry reads around the scrape."""
import os
import re
import shutil
import socket
import subprocess
import urllib.request

import pytest

import snmpharness as h
from conftest import PortsServer, kernel_interfaces

EXPORTER = shutil.which("prometheus-snmp-exporter") or "/usr/bin/prometheus-snmp-exporter"
GENERATOR = shutil.which("prometheus-snmp-generator") or "/usr/bin/prometheus-snmp-generator"

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

_SAMPLE = re.compile(r'^(\w+)\{([^}]*)\} (\S+)$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def free_tcp_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def samples(text, name):
    """{labels as a frozen dict: value} of metric `name`."""
    out = []
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m and m.group(1) == name:
            out.append((dict(_LABEL.findall(m.group(2))), float(m.group(3))))
    return out


@pytest.fixture(scope="module")
def exporter(tmp_path_factory):
    d = tmp_path_factory.mktemp("exporter")
    mibdir = d / "mibs"
    mibdir.mkdir()
    base = os.environ.get("FASTMIB_BASE_MIBS", "")
    for m in MIBS:
        shutil.copy(os.path.join(base, m), mibdir / m)
    (d / "generator.yml").write_text(GENERATOR_YML)
    gen = subprocess.run([GENERATOR, "--fail-on-parse-errors", "generate"], cwd=d,
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, MIBDIRS=str(mibdir), MIBS=""))
    assert gen.returncode == 0, gen.stderr
    port = free_tcp_port()
    log = open(d / "exporter.log", "w")
    proc = subprocess.Popen([EXPORTER, "--config.file=%s" % (d / "snmp.yml"),
                             "--web.listen-address=127.0.0.1:%d" % port],
                            stdout=log, stderr=subprocess.STDOUT)
    log.close()
    url = "http://127.0.0.1:%d" % port

    def up():
        try:
            return urllib.request.urlopen(url + "/metrics", timeout=2).status == 200
        except OSError:
            return False
    try:
        h.wait_for(lambda: proc.poll() is None and up(), 15, "snmp_exporter")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


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
    with urllib.request.urlopen("%s/snmp?target=%s&module=if_mib" % (exporter, target),
                                timeout=30) as resp:
        text = resp.read().decode()
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
