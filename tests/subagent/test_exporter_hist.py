# SPDX-License-Identifier: BSD-3-Clause
"""Histograms and peaks reach Prometheus: `fastmib-gen -x` writes the
snmp_exporter module of the histograms test model, the real
prometheus-snmp-generator turns it into snmp.yml with the generated MIB,
and the real prometheus-snmp-exporter scrapes a segment that fm-hist
filled from lcores 1 and 2 with a known multiset, through a real snmpd
and fastmib-agentx (AgentX).

Every bucket of every row (a scalar group, a dense table, a keyed table
with an IPv4 and an IPv6 key) is one BucketCount series labelled with the
row's indexes, the bucket number and its bound (the last bucket's
18446744073709551615), with its exact count; every histogram's Count and
Sum are counters, every peak a gauge, exact; the bucket number and bound
are never metrics. Values stay below 2^53, which a float holds exactly.
The recording rules docs/nms.md gives turn the buckets into
histogram_quantile() input (promtool)."""
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpexporter as px  # noqa: E402
import snmpharness as h  # noqa: E402
from test_histograms import (HISTS, MODEL, PEAKS, ROOT, ROWS, HistWriter,  # noqa: E402
                             State)

MODULE = "histograms_test_mib"
HERE = os.path.dirname(os.path.abspath(__file__))

# below 2^53 in every sum
KNOWN = [
    (1, "latency", [0, 16, 17, 100, 4096, 4097]),
    (2, "latency", [5, 16, 300]),
    (1, "burst", [0, 1, 2, 8, 9, 32, 33]),
    (2, "burst", [7]),
    (1, "size:1:1", [64, 65, 1500, 9000]),
    (2, "size:1:1", [16385]),
    (2, "size:4:2", [200]),
    (1, "gap:0", [0, 1, 3, 1 << 31]),
    (2, "gap:1", [7]),
    (1, "queueDepth", [40]),
    (2, "queueDepth", [39]),
    (2, "peakBurst:1:1", [32]),
    (1, "maxGap:0", [1 << 40]),
]

# the labels of each group's rows (ROWS order), as snmp_exporter writes them
LABELS = {
    "system": [()],
    "port": [(("hgPortPortId", str(p)), ("hgPortV", str(v)))
             for p in range(1, 5) for v in (1, 2)],
    "flow": [(("hgFlowPeer", "10.0.0.1"), ("hgFlowTeid", "7")),
             (("hgFlowPeer", "2001:0DB8:0000:0000:0000:0000:0000:0001"), ("hgFlowTeid", "9"))],
}
PREFIX = {"system": "hgSystem", "port": "hgPort", "flow": "hgFlow"}


def cap(name):
    return name[0].upper() + name[1:]


def want_samples(state):
    """{metric: {labels (sorted tuple): value}} the scrape must carry."""
    want = {}
    for n, hi in HISTS.items():
        base = PREFIX[hi.group] + cap(n)
        for row, labels in zip(ROWS[hi.group], LABELS[hi.group]):
            want.setdefault(base + "Count", {})[tuple(sorted(labels))] = state.count[n, row]
            want.setdefault(base + "Sum", {})[tuple(sorted(labels))] = state.sum[n, row]
            for b in range(hi.n_buckets()):
                lb = labels + ((base + "Bucket", str(b + 1)), (base + "BucketLe", str(hi.le(b))))
                want.setdefault(base + "BucketCount", {})[tuple(sorted(lb))] = \
                    state.buckets[n, row][b]
    for n, (g, _, _, _) in PEAKS.items():
        for row, labels in zip(ROWS[g], LABELS[g]):
            want.setdefault(PREFIX[g] + cap(n), {})[tuple(sorted(labels))] = state.peak[n, row]
    return want


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("hist")


@pytest.fixture(scope="module")
def exporter(workdir):
    text = px.fastmib_gen(MODEL, "-x", "-")
    px.fastmib_gen(MODEL, "-o", workdir / "gen")
    mibdir = px.mib_dir(str(workdir / "mibs"), px.needed_mibs(text),
                        [str(workdir / "gen"), os.environ.get("FASTMIB_BASE_MIBS", ""),
                         "/usr/share/snmp/mibs", os.environ.get("FASTMIB_TEST_MIBS", "")])
    e = px.started(str(workdir), text, mibdir)
    try:
        yield e
    finally:
        e.stop()


@pytest.fixture(scope="module")
def served(workdir):
    seg = str(workdir / "hg.seg")
    writer = HistWriter(seg)
    state = State()
    snmpd = agent = None
    try:
        writer.observe(state, KNOWN)
        snmpd = h.Snmpd().start()
        agent = h.Agent([seg], snmpd)
        agent.start(wait_oid=ROOT + ".1.1.1.0")  # hgSystemPkts.0
        yield snmpd, state
    finally:
        h.shut_down(agent, snmpd)
        writer.close()


@pytest.fixture(scope="module")
def scraped(exporter, served):
    snmpd, state = served
    text = exporter.scrape("127.0.0.1:%d" % snmpd.port, MODULE)
    assert "snmp_scrape_" in text  # the exporter's own metrics: a complete scrape
    return text, state


def test_buckets_counts_sums_and_peaks_exact(scraped):
    text, state = scraped
    want = want_samples(state)
    # 10 + 5 + 8 * 33 + 2 * 33 buckets
    assert sum(len(v) for k, v in want.items() if k.endswith("BucketCount")) == 345
    assert max(v for rows in want.values() for v in rows.values()) < 2 ** 53
    types = px.types(text)
    for metric, rows in want.items():
        got = {tuple(sorted(lb.items())): v for lb, v in px.samples(text, metric)}
        assert got == {k: float(v) for k, v in rows.items()}, metric
        is_peak = metric in ("hgSystemQueueDepth", "hgPortPeakBurst", "hgFlowMaxGap")
        assert types[metric] == ("gauge" if is_peak else "counter"), metric
    # by hand: the unbounded bucket's bound, exact as a label
    assert ({"hgSystemLatencyBucket": "10", "hgSystemLatencyBucketLe": "18446744073709551615"},
            1.0) in px.samples(text, "hgSystemLatencyBucketCount")


def test_bucket_number_and_bound_are_no_metrics(exporter, scraped):
    text, _ = scraped
    metrics = {m["name"] for m in exporter.modules[MODULE]["metrics"]}
    for n, hi in HISTS.items():
        base = PREFIX[hi.group] + cap(n)
        for name in (base + "Bucket", base + "BucketLe"):
            assert name not in metrics, name
            assert not px.samples(text, name), name


def test_nms_md_rules_make_quantile_input(workdir, scraped):
    """The recording rules of docs/nms.md (the burst histogram's), run by
    promtool on series that grow, per minute, by 60 times what the scrape
    read in each bucket: each rule gives the cumulative count per second
    up to its bound, the last one at le="+Inf", and histogram_quantile()
    reads them."""
    text, state = scraped
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed")
    with open(os.path.join(HERE, "..", "..", "docs", "nms.md")) as f:
        doc = f.read()
    sec = doc[doc.index("### Histograms and peaks"):doc.index("### Port tables and if_mib")]
    rules = re.search(r"```yaml\n(.*?)```", sec, re.S).group(1)
    counts = {lb["hgSystemBurstBucket"]: (lb["hgSystemBurstBucketLe"], int(v))
              for lb, v in px.samples(text, "hgSystemBurstBucketCount")}
    assert [counts[str(b)][1] for b in range(1, 6)] == [1, 1, 3, 2, 1]
    series, cum, samples = [], 0, []
    for b in range(1, 6):
        le, c = counts[str(b)]
        series.append({"series": 'hgSystemBurstBucketCount{instance="a",hgSystemBurstBucket='
                                 '"%d",hgSystemBurstBucketLe="%s"}' % (b, le),
                       "values": "0+%dx20" % (60 * c)})
        cum += c
        samples.append({"labels": 'hg_system_burst_bucket:rate5m{instance="a",le="%s"}' %
                                  ("+Inf" if b == 5 else le), "value": cum})
    test = {"rule_files": ["rules.yml"], "evaluation_interval": "1m",
            "tests": [{"interval": "1m", "input_series": series, "promql_expr_test": [
                {"expr": "hg_system_burst_bucket:rate5m", "eval_time": "10m",
                 "exp_samples": samples},
                # rank 2 of 8: the end of the bucket up to 1
                {"expr": 'histogram_quantile(0.25, sum by (instance, le) '
                         '(hg_system_burst_bucket:rate5m))', "eval_time": "10m",
                 "exp_samples": [{"labels": '{instance="a"}', "value": 1}]}]}]}
    d = workdir / "promtool"
    d.mkdir()
    (d / "rules.yml").write_text(rules)
    (d / "test.yml").write_text(yaml.safe_dump(test))
    for args in (["check", "rules", "rules.yml"], ["test", "rules", "test.yml"]):
        # its rules' storage in a directory of the test's
        r = subprocess.run([promtool, *args], cwd=d, capture_output=True, text=True,
                           timeout=60, env=dict(os.environ, TMPDIR=str(d)))
        assert r.returncode == 0, r.stdout + r.stderr
