# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-exporter scraped by the real Prometheus server.

Two segments served by one exporter: the example model filled by fm-writer
(integer-indexed and keyed tables, values above 2^32, every counter type),
and the keyed test model (tests/codegen/keyed/keyed.yaml) holding known
keys of every index type (mkkeyed). Prometheus scrapes the exporter every
second; PromQL must give every counter's series with the labels and exact
value expected, and the metadata API the model's description as HELP with
the right TYPE. The text format passes `promtool check metrics` without a
word, and the OpenMetrics form the strict parser of prometheus_client."""
import os
import re
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import promserver as ps  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expomodel import (EXAMPLE, KEYED, families, example_want, load_model,  # noqa: E402
                       snake, state_series, stored_names)

from prometheus_client.openmetrics.parser import text_string_to_metric_families  # noqa: E402
from segments import fill_example, tool  # noqa: E402


# the keyed segment: (key as mkkeyed takes it, counters)
KEYED_ROWS = [
    ("tunnel/10.0.0.1,3735928559", {"pkts": 5, "bytes": 500}),
    ("tunnel/2001:db8::1,7", {"pkts": 9, "bytes": 18446744073709551615}),
    ("tunnel/::ffff:10.1.2.3,8", {"pkts": 1}),
    ("peerQueue/10.0.0.1,3", {"pkts": 6, "backlog": 2}),
    ("host/192.168.1.9", {"sessions": 4, "drops": 3}),
    ("station/02:00:00:00:00:01", {"frames": 3}),
    ("station/02:AB:cd:EF:00:02", {"frames": 4}),
    ("customer/eth0,1", {"octets": 77}),
    ("customer/a\\,b \"c\" \\\\d,2", {"octets": 5}),
]

# what Prometheus must store: metric -> {labels: value as exported}
KEYED_WANT = {
    "kt_global_pkts_total": {(): 11},
    "kt_tunnel_pkts_total": {
        (("peer", "10.0.0.1"), ("teid", "3735928559")): 5,
        (("peer", "2001:db8::1"), ("teid", "7")): 9,
        (("peer", "::ffff:10.1.2.3"), ("teid", "8")): 1},
    "kt_tunnel_bytes_total": {
        (("peer", "10.0.0.1"), ("teid", "3735928559")): 500,
        (("peer", "2001:db8::1"), ("teid", "7")): 18446744073709551615,
        (("peer", "::ffff:10.1.2.3"), ("teid", "8")): 0},
    "kt_peer_queue_pkts_total": {(("peer_addr", "10.0.0.1"), ("queue", "3")): 6},
    "kt_peer_queue_backlog": {(("peer_addr", "10.0.0.1"), ("queue", "3")): 2},
    "kt_host_sessions": {(("addr", "192.168.1.9"),): 4},
    "kt_host_drops_total": {(("addr", "192.168.1.9"),): 3},
    "kt_station_frames_total": {(("mac", "02:00:00:00:00:01"),): 3,
                                (("mac", "02:ab:cd:ef:00:02"),): 4},
    "kt_customer_octets_total": {
        (("customer_name", "eth0"), ("vlan", "1")): 77,
        (("customer_name", 'a,b "c" \\d'), ("vlan", "2")): 5},
    "kt_port_pkts_total": {(("port_id", str(i)),): 0 for i in range(1, 5)},
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("expo")


@pytest.fixture(scope="module")
def keyed_segment(workdir):
    seg = str(workdir / "kt.seg")
    args = [seg, "global.pkts=11"]
    for key, counters in KEYED_ROWS:
        args += [key] + ["%s=%d" % kv for kv in counters.items()]
    r = subprocess.run([tool("MKKEYED"), *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return seg


@pytest.fixture(scope="module")
def example_segment(workdir):
    """The example model filled by fm-writer; what SNMP must serve of it."""
    return fill_example(workdir, "ep")


@pytest.fixture(scope="module")
def exporter(workdir, keyed_segment, example_segment):
    e = ps.Exporter([example_segment[0], keyed_segment], str(workdir)).start()
    try:
        yield e
    finally:
        e.stop()


@pytest.fixture(scope="module")
def prometheus(workdir, exporter):
    p = ps.Prometheus(str(workdir), [exporter.address]).start()
    try:
        p.wait_scraped('kt_global_pkts_total')
        p.wait_scraped('ep_global_rx_pkts_total')
        yield p
    finally:
        p.stop()


def stored(prometheus, metric):
    """{labels tuple (sorted): float} of a metric in Prometheus."""
    return {tuple(sorted(k)): float(v) for k, v in prometheus.query(metric).items()}


def test_keyed_rows_exact_in_prometheus(prometheus):
    """Every key type as its label text, each row's exact value, no other
    row; Prometheus stores float64: 2^64-1 arrives as its nearest double
    (the exposition carries it exactly: test_values_exact_in_exposition)."""
    for metric, rows in KEYED_WANT.items():
        assert stored(prometheus, metric) == {tuple(sorted(k)): float(v)
                                              for k, v in rows.items()}, metric


def test_example_counters_exact_in_prometheus(prometheus, example_segment):
    """Every counter instance fm-writer made, integer-indexed and keyed,
    with its exact value (below 2^53: exact in float64), and nothing else."""
    model = load_model(EXAMPLE)
    want = example_want(model, example_segment[1])
    assert len(want) >= 10
    fams = families(model)
    assert any(typ == "histogram" for typ, _ in fams.values())
    for family, (typ, _) in fams.items():
        for metric in stored_names(family, typ):
            got = stored(prometheus, metric)
            rows = want.get(metric, {})
            assert got == {tuple(sorted(k)): float(v) for k, v in rows.items()}, metric
            assert all(v < 2 ** 53 for v in rows.values())


def units_of(model):
    """{family: OpenMetrics unit} where the model's units name a base unit
    and the family's name ends in it."""
    out = {}
    p = model["module"]["prefix"]
    for g in model["groups"]:
        for c in g.get("counters", []):
            base = "%s_%s_%s" % (p, snake(g["name"]), snake(c["name"]))
            if c.get("units") in ("octets", "bytes") and base.endswith("_bytes"):
                out[base] = "bytes"
    return out


def test_help_and_type_from_the_model(prometheus):
    """Prometheus's metadata of each family (it scrapes OpenMetrics, its
    first choice: families are named without _total): the model's
    description as HELP, counter or gauge as TYPE, bytes as UNIT where the
    model says octets of a family named so."""
    for path in (EXAMPLE, KEYED):
        model = load_model(path)
        units = units_of(model)
        assert units or path == EXAMPLE
        for metric, (typ, help_) in families(model).items():
            base = metric[:-len("_total")] if typ == "counter" else metric
            md = prometheus.api("metadata", metric=base)
            assert md.get(base) == [{"type": typ, "help": help_,
                                     "unit": units.get(base, "")}], base


def test_segment_metrics(prometheus, example_segment, keyed_segment):
    served = stored(prometheus, "fastmib_segment_served")
    assert served == {
        (("module", "EXAMPLE-DATAPLANE-MIB"), ("segment", example_segment[0])): 1.0,
        (("module", "KEYED-TEST-MIB"), ("segment", keyed_segment)): 1.0}
    # both writers exited: gone
    assert stored(prometheus, "kt_writer_status") == {
        (("kt_writer_status", s),): float(s == "gone") for s in ("running", "gone", "stalled")}
    assert stored(prometheus, "kt_best_effort_reads_total") == {(): 0.0}
    assert stored(prometheus, "kt_out_of_range_updates_total") == {(): 0.0}


def test_values_exact_in_exposition(exporter):
    """The text carries each value as an exact decimal integer, never a float."""
    _, text = exporter.scrape()
    assert ('kt_tunnel_bytes_total{peer="2001:db8::1",teid="7"} 18446744073709551615\n'
            in text)
    assert 'kt_customer_octets_total{customer_name="a,b \\"c\\" \\\\d",vlan="2"} 5\n' in text
    counters = re.findall(r"^[a-z_]+_total(?:\{.*\})? (.*)$", text, re.M)
    assert len(counters) > 100
    assert all(re.fullmatch(r"0|[1-9][0-9]*", v) for v in counters), "a float value"


def test_promtool_check_metrics_silent(exporter):
    hdrs, text = exporter.scrape()
    assert hdrs["Content-Type"].startswith("text/plain; version=0.0.4")
    r = subprocess.run([ps.PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_openmetrics_strictly_parsed(exporter):
    """OpenMetrics by the Accept header: prometheus_client's strict parser
    takes it whole; counters have _total and _created (the discontinuity),
    octets the unit bytes where the name says so, the writer status a
    stateset; values exact."""
    hdrs, text = exporter.scrape(accept=ps.OPENMETRICS)
    assert hdrs["Content-Type"].startswith("application/openmetrics-text; version=1.0.0")
    assert text.endswith("# EOF\n")
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    f = fams["kt_tunnel_bytes"]
    assert (f.type, f.unit) == ("counter", "bytes")
    names = {s.name for s in f.samples}
    assert names == {"kt_tunnel_bytes_total", "kt_tunnel_bytes_created"}
    got = {tuple(sorted(s.labels.items())): s.value for s in f.samples
           if s.name.endswith("_total")}
    assert got == {tuple(sorted(k)): v for k, v in KEYED_WANT["kt_tunnel_bytes_total"].items()}
    assert fams["kt_writer_status"].type == "stateset"
    assert fams["kt_host_sessions"].type == "gauge"
    assert (fams["kt_global_pkts"].type, fams["kt_global_pkts"].unit) == ("counter", "")
    assert fams["ep_global_rx_bytes"].unit == "bytes"
    # a histogram in Prometheus' own type: cumulative buckets up to +Inf,
    # which is the count (the parser checks that), and a peak a gauge
    h = fams["ep_global_burst_time"]
    assert h.type == "histogram"
    les = [s.labels["le"] for s in h.samples if s.name.endswith("_bucket")]
    assert les == [str(2 ** b) for b in range(6, 22)] + ["+Inf"]
    assert fams["ep_port_rx_burst_max"].type == "gauge"
    for name in families(load_model(KEYED)):
        base = name[:-len("_total")] if name.endswith("_total") else name
        assert base in fams, base


def test_text_when_openmetrics_not_asked(exporter):
    for accept in (None, "text/plain", "*/*", "application/openmetrics-text;q=0,text/plain"):
        hdrs, text = exporter.scrape(accept=accept)
        assert hdrs["Content-Type"].startswith("text/plain; version=0.0.4"), accept
        assert "# EOF" not in text


def test_landing_page_404_and_405(exporter):
    status, hdrs, body = ps.get(exporter.url("/"))
    assert status == 200 and 'href="/metrics"' in body
    assert ps.get(exporter.url("/nope"))[0] == 404
    assert ps.get(exporter.url("/metrics/"))[0] == 404
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
                        exporter.url()], capture_output=True, text=True, timeout=30)
    assert r.stdout == "405"


def test_version_and_help():
    exe = tool("FASTMIB_EXPORTER")
    r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 0 and r.stdout == "fastmib-exporter %s\n" % tool("FASTMIB_VERSION")
    r = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 0
    for opt in ("--web.listen-address", "--web.telemetry-path", "--web.config.file",
                "--log.level", "-c, --config"):
        assert opt in r.stdout, opt
    r = subprocess.run([exe], capture_output=True, text=True, timeout=10)
    assert r.returncode == 1 and "no segment" in r.stderr


def test_states_in_natural_types(exporter, example_segment):
    """Every state fm-writer set, in OpenMetrics: an enum a stateset (its
    label 1, the others 0), a string an info family, a number a gauge, a
    date seconds since the epoch, a timestamp never set 0."""
    import datetime
    model = load_model(EXAMPLE)
    _, text = exporter.scrape(accept=ps.OPENMETRICS)
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    exp = example_segment[1]
    checked = set()
    for st in exp["states"]:
        family, labels, s = state_series(model, exp, st)
        f = fams[family]
        samples = [x for x in f.samples
                   if {k: v for k, v in x.labels.items() if k != family and
                       k != snake(s["name"])} == dict(labels)]
        if s["type"] == "enum":
            assert f.type == "stateset"
            want = {lb: float(v == st["value"]) for lb, v in s["values"].items()}
            assert {x.labels[family]: x.value for x in samples} == want, family
        elif s["type"] == "display-string":
            assert f.type == "info"
            assert [(x.labels[snake(s["name"])], x.value) for x in samples] == [
                (bytes.fromhex(st["value"]).decode(), 1.0)], family
        elif s["type"] == "unsigned32":
            assert f.type == "gauge" and [x.value for x in samples] == [st["value"]]
        elif s["type"] == "timestamp":
            assert f.type == "gauge" and st["value"] == 0
            assert [x.value for x in samples] == [0.0]
        elif s["type"] == "date-and-time":
            b = bytes.fromhex(st["value"])
            when = datetime.datetime(b[0] * 256 + b[1], b[2], b[3], b[4], b[5], b[6],
                                     tzinfo=datetime.timezone.utc).timestamp() + b[7] / 10
            assert f.type == "gauge" and len(samples) == 1
            assert when <= samples[0].value < when + 0.1
        else:
            raise AssertionError("a state type this test does not know: %s" % s["type"])
        checked.add(s["type"])
    assert checked == {"enum", "display-string", "unsigned32", "timestamp", "date-and-time"}
