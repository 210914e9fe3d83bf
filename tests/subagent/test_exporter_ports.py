# SPDX-License-Identifier: BSD-3-Clause
"""A table indexed by a DPDK port (`port: true` in the model) joined with
if_mib, as the module of `fastmib-gen -x` says in its comment: one snmpd
serves its own interfaces, and over AgentX fastmib-agentx serves
fm-writer's segment (the example model's port table) and the two ports
of a real dpdk-testpmd (`--ports`, ifIndex 1000 + port id). The real
snmp_exporter scrapes the generated module and the stock if_mib module
(from the generator.yml Debian ships as an example), and the real
PromQL engine (`promtool test rules`) evaluates the comment's expression
over those samples: every row of port id p that has an IF-MIB row gets
that row's ifIndex and ifName (net_null<p>), with its own value."""
import os
import re
import subprocess
import sys

import pytest
import yaml

from conftest import Writer
from test_exporter import MODULE, fastmib_gen, needed_mibs

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import dpdkapp  # noqa: E402
import snmpexporter as px  # noqa: E402
import snmpharness as h  # noqa: E402

PROMTOOL = "/usr/bin/promtool"
STOCK_GENERATOR = "/usr/share/doc/prometheus-snmp-exporter/examples/generator.yml"
IF_MIBS = ["SNMPv2-MIB", "IANAifType-MIB", "IF-MIB"]
PORTS = 2


def the_join(generated, metric):
    """The PromQL of the generated comment that joins `metric`'s table."""
    lines = [ln.strip()[1:].strip() for ln in generated.splitlines()
             if ln.strip().startswith("#")]
    start = next(i for i, ln in enumerate(lines) if ln.startswith(metric + " * on ("))
    return " ".join(lines[start:start + 3])


def series(name, labels, value):
    """promtool's notation of a series that keeps `value` for two steps."""
    text = ", ".join('%s="%s"' % kv for kv in sorted(labels.items()))
    return {"series": "%s{%s}" % (name, text), "values": "%r %r" % (value, value)}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    d = tmp_path_factory.mktemp("joined")
    pmd = dpdkapp.Testpmd(ports=PORTS, log_dir=str(d))
    parts = []
    try:
        pmd.start()
        w = Writer(str(d / "ep.seg"), str(d))
        e = w.fill()
        snmpd = h.Snmpd(if_mib=True).start()
        parts.append(snmpd)
        agt = h.Agent([w.segment], snmpd, extra_args=["--ports", pmd.dir])
        parts.append(agt)
        agt.start(wait_oid=e.oid(1, 1, 1, 0))
        # ifName of the last port: every port's row is there
        agt.wait_served("1.3.6.1.2.1.31.1.1.1.1.%d" % (1000 + PORTS - 1))
        yield snmpd, e
    finally:
        for p in reversed(parts):
            p.stop()
            p.cleanup()
        pmd.stop()
        pmd.cleanup()


@pytest.mark.skipif(not os.access(PROMTOOL, os.X_OK), reason="no promtool (prometheus)")
def test_port_rows_joined_with_if_mib(served, tmp_path):
    snmpd, e = served
    generated = fastmib_gen("-x", "-")
    with open(STOCK_GENERATOR) as f:
        if_mib = yaml.safe_load(f)["modules"]["if_mib"]
    both = generated + "".join("  %s\n" % ln for ln in
                               yaml.safe_dump({"if_mib": if_mib}).splitlines())
    mibdir = px.mib_dir(str(tmp_path / "mibs"), needed_mibs(generated) + IF_MIBS,
                        [os.environ.get("FASTMIB_MIB_DIR", ""),
                         os.environ.get("FASTMIB_BASE_MIBS", ""), "/usr/share/snmp/mibs",
                         # HCNUM-TC, which the example MIB imports: the tests' stand-in
                         os.path.join(os.path.dirname(__file__), "..", "lib", "mibs")])
    config, log = px.generate(str(tmp_path), both, mibdir)
    assert "level=warn" not in log, log
    exporter = px.Exporter(config, str(tmp_path)).start()
    try:
        target = "127.0.0.1:%d" % snmpd.port
        fm = exporter.scrape(target, MODULE)
        ifs = exporter.scrape(target, "if_mib")
    finally:
        exporter.stop()

    # as Prometheus stores them: instance = the target, a job per module
    rows = px.samples(fm, "epPortRxPkts")
    assert sorted(lb["epPortPortId"] for lb, _ in rows) == ["1", "2", "3", "4"]
    inputs = [series("epPortRxPkts", dict(lb, instance=target, job="dataplane"), v)
              for lb, v in rows]
    names = {}
    for lb, v in px.samples(ifs, "ifIndex"):
        assert float(lb["ifIndex"]) == v
        names[int(lb["ifIndex"])] = lb["ifName"]
        inputs.append(series("ifIndex", dict(lb, instance=target, job="if_mib"), v))
    assert {i: n for i, n in names.items() if i >= 1000} == {
        1000 + p: "net_null%d" % p for p in range(PORTS)}

    # port id p (SNMP index p + 1) gets ifIndex 1000 + p and its ifName;
    # the model's ports 2 and 3 have no IF-MIB row: no result
    want = []
    for lb, v in rows:
        p = int(lb["epPortPortId"]) - 1
        if p < PORTS:
            want.append({"labels": series("", dict(
                lb, instance=target, job="dataplane", ifIndex=str(1000 + p),
                ifName="net_null%d" % p), 0)["series"], "value": v})
    assert len(want) == PORTS
    expr = the_join(generated, "epPortRxPkts")
    assert re.fullmatch(r'epPortRxPkts \* on \(instance, epPortPortId\) .*- 999\)', expr), expr
    test = {"tests": [{"interval": "1m", "input_series": inputs,
                       "promql_expr_test": [{"expr": expr, "eval_time": "1m",
                                             "exp_samples": want}]}]}
    path = tmp_path / "join_test.yml"
    path.write_text(yaml.safe_dump(test))
    r = subprocess.run([PROMTOOL, "test", "rules", str(path)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
