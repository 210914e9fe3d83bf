# SPDX-License-Identifier: BSD-3-Clause
"""The model's MIB reaches Prometheus: `fastmib-gen -x` writes the
snmp_exporter generator module of the example model, the real
prometheus-snmp-generator turns it into snmp.yml with the generated MIB,
and the real prometheus-snmp-exporter scrapes fm-writer's segment through
a real snmpd and fastmib-agentx (AgentX).

Every sample is compared with what fm-writer says SNMP must report: exact
counter values, counters typed as counters, DiscontinuityTime as gauges,
index labels, the event's name on the event statistics, WriterStatus as
a state set, the example's states (numbers as gauges, strings as labels,
a date as seconds, enums as state sets); no reset object, no table that can hold more than 1024
rows (the flow table) and no event table, unless asked for
(`--snmp-exporter-table flow --snmp-exporter-events`, scraped as a second
module)."""
import calendar
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import Served

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpexporter as px  # noqa: E402
import snmpharness as h  # noqa: E402

MODEL = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "dataplane.yaml")
MODULE = "example_dataplane_mib"
EVENTS_MODULE = MODULE + "_events"
# the tests' stand-ins of IETF modules no Debian package ships: HCNUM-TC,
# which the example MIB imports for its histograms' bounds and its peak
STAND_INS = os.path.join(os.path.dirname(__file__), "..", "lib", "mibs")
RESETS = ["epResetAll", "epGlobalReset", "epPortReset", "epPortQueueReset",
          "epFlowReset", "epFlowStateReset", "epErrorsReset"]
EVENT_TABLE = ["epEventNumber", "epEventName", "epEventId", "epEventTime",
               "epEventLcore", "epEventLagCycles", "epEventLagNs", "epEventArg1",
               "epEventArg2", "epEventArg3", "epEventArg4"]
# what fm-writer's expectations call each SNMP type, as a Prometheus type
PROM_TYPE = {"Counter64": "counter", "Counter32": "counter", "Gauge32": "gauge",
             "Timeticks": "gauge"}
# a peak is a Counter64 on the wire (CounterBasedGauge64) and a gauge to
# Prometheus: the model's peaks by their MIB names, as fastmib-gen names them
PEAKS = {line.split("\t")[1] for line in subprocess.run(
    [os.environ["FASTMIB_GEN"], "--names", MODEL], check=True, capture_output=True,
    text=True, timeout=60).stdout.splitlines()
    if line.startswith("mib\t") and line.split("\t")[2].startswith("peak ")}
# snmp_exporter reports Counter64 values modulo 2^53 (what float64 holds
# exactly; its --snmp.wrap-large-counters, on by default)
WRAP = 2**53


def fastmib_gen(*args):
    return px.fastmib_gen(MODEL, *args)


# the MIB modules the generated file's header comment lists
needed_mibs = px.needed_mibs


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """fm-writer in events mode (counters filled, the writer still
    running), then its script of event records."""
    s = Served("agentx", str(tmp_path_factory.mktemp("agentx")))
    try:
        s.start(events=True)
        s.records = s.writer.command("script")
        yield s
    finally:
        s.close()


@pytest.fixture(scope="module")
def exporter(tmp_path_factory):
    """One snmp.yml with the module as written, and the same with the event
    table under another name (the generator reads one generator.yml)."""
    d = tmp_path_factory.mktemp("exporter")
    plain = fastmib_gen("-x", "-")
    events = fastmib_gen("-x", "-", "--snmp-exporter-events", "--snmp-exporter-table", "flow")
    assert plain == fastmib_gen("--snmp-exporter", "-")  # byte-identical runs
    second = events.split("modules:\n", 1)[1].replace("  %s:\n" % MODULE,
                                                      "  %s:\n" % EVENTS_MODULE, 1)
    mibdir = px.mib_dir(str(d / "mibs"), needed_mibs(plain),
                        [os.environ.get("FASTMIB_MIB_DIR", ""),
                         os.environ.get("FASTMIB_BASE_MIBS", ""), "/usr/share/snmp/mibs",
                         STAND_INS])
    e = px.started(str(d), plain + second, mibdir)
    try:
        yield e
    finally:
        e.stop()


def scrape(exporter, served, module):
    text = exporter.scrape("127.0.0.1:%d" % served.snmpd.port, module)
    assert "snmp_scrape_" in text  # the exporter's own metrics: a complete scrape
    return text


def by_instance(exporter, module, text):
    """{instance OID: (metric, labels, value)} of every sample of the
    module's metrics: the metric's OID, then its index labels in INDEX
    order (.0 for a scalar). A state set has a sample per state: left out."""
    out = {}
    for metric in exporter.modules[module]["metrics"]:
        if metric["type"] == "EnumAsStateSet":
            continue
        for labels, value in px.samples(text, metric["name"]):
            idx = [labels[i["labelname"]] for i in metric.get("indexes", [])]
            oid = ".".join([metric["oid"]] + (idx or ["0"]))
            assert oid not in out, (oid, metric["name"])
            out[oid] = (metric["name"], labels, value)
    return out


@pytest.fixture(scope="module")
def plain(exporter, served):
    return scrape(exporter, served, MODULE)


@pytest.mark.parametrize("module", [MODULE, EVENTS_MODULE])
def test_counters_exact_and_typed(exporter, served, plain, module):
    """Every counter, gauge and DiscontinuityTime fm-writer filled, exactly,
    with its Prometheus type, but the flow table's in the plain module; and
    nothing else from the groups: no reset, no absent row."""
    text = plain if module == MODULE else scrape(exporter, served, module)
    got = by_instance(exporter, module, text)
    types = px.types(text)
    objects = served.expect.root + ".1."
    flows = served.expect.oid(1, 4) + "."  # epFlowTable: 65536 rows at most
    want = {o: (t, v) for o, t, v in served.expect.objects
            if o.startswith(objects) and t in PROM_TYPE and
            o not in served.expect.levels and  # a bucket's bound: a label
            (module != MODULE or not o.startswith(flows))}
    assert (module == MODULE) != any(o.startswith(flows) for o in want)
    assert len(want) > 100
    for oid, (typ, value) in want.items():
        assert oid in got, oid
        name, _, v = got[oid]
        assert v == (value % WRAP if typ == "Counter64" else value), (name, oid)
        assert types[name] == ("gauge" if name in PEAKS else PROM_TYPE[typ]), name
    # the states of strings: test_states_as_samples
    strings = {st["oid"] for st in served.expect.states if st["syntax"] == "OCTET STRING"}
    assert sorted(o for o in got if o.startswith(objects) and o not in strings) == sorted(want)
    for oid in served.expect.absent:
        assert oid not in got
    # the module's own DiscontinuityTime, a gauge too
    disc = served.expect.oid(2, 2, 0)
    assert got[disc][0] == "epDiscontinuityTime" and types["epDiscontinuityTime"] == "gauge"
    assert got[disc][2] == served.expect.by_oid[disc][1]


def test_states_as_samples(served, plain):
    """The example's states as the module reads them (fm-writer's values):
    numbers as gauges (test_counters_exact_and_typed), a DisplayString as
    a label of a sample of 1, a DateAndTime as seconds since the epoch, an
    enum as a state set: a series per label, 1 for the row's label."""
    e = served.expect
    st = {(s["group"], s["state"], s["row"]): s for s in e.states}
    names = {lb["epPortPortId"]: (lb["epPortName"], v)
             for lb, v in px.samples(plain, "epPortName")}
    assert names == {str(r + 1): (bytes.fromhex(st["port", "name", r]["value"]).decode(), 1.0)
                     for r in range(4)}
    assert px.samples(plain, "epAppVersion") == [
        ({"epAppVersion": bytes.fromhex(st["app", "version", 0]["value"]).decode()}, 1.0)]
    y, mo, d, hh, mi, ss, ds, _ = h.date_and_time(
        bytes.fromhex(st["app", "startTime", 0]["value"]))
    # to the second: snmp_exporter leaves the deci-seconds (here 1) out
    assert ds == 1
    assert px.samples(plain, "epAppStartTime") == [({}, calendar.timegm((y, mo, d, hh, mi, ss)))]
    links = sorted((lb["epPortPortId"], lb["epPortLink"], v)
                   for lb, v in px.samples(plain, "epPortLink"))
    label = {1: "up", 2: "down"}
    assert links == sorted((str(r + 1), name, float(st["port", "link", r]["value"] == value))
                           for r in range(4) for value, name in label.items())
    status = {1: "active", 2: "idle"}
    rows = px.samples(plain, "epServerStatus")
    assert len(rows) == 2 * len(e.keyed["server"]["keys"])
    for key in e.keyed["server"]["keys"]:
        addr = ".".join(str(x) for x in key["index"][:4])
        want = status[st["server", "status", key["number"]]["value"]]
        got = {lb["epServerStatus"]: v for lb, v in rows
               if (lb["epServerServerAddr"], lb["epServerServerPort"]) ==
               (addr, str(key["index"][4]))}
        assert got == {name: float(name == want) for name in status.values()}, key


def test_table_labels(exporter, served, plain):
    """A table row's labels are its indexes, named after the index objects;
    the flow table only in the module that asked for it, and not walked at
    all in the other (the generator's snmp.yml)."""
    s = px.samples(plain, "epPortQueuePkts")
    assert len(s) == 32
    assert {"epPortQueuePortId": "4", "epPortQueueQueueId": "8"} in [lb for lb, _ in s]
    assert all(set(lb) == {"epPortQueuePortId", "epPortQueueQueueId"} for lb, _ in s)
    assert not px.samples(plain, "epFlowPkts")
    table = served.expect.oid(1, 4)
    walked = exporter.modules[MODULE]["walk"] + exporter.modules[MODULE].get("get", [])
    assert not [o for o in walked if o.startswith(table)], walked
    flows = px.samples(scrape(exporter, served, EVENTS_MODULE), "epFlowPkts")
    assert all(set(lb) == {"epFlowFlowId"} for lb, _ in flows)
    assert "65536" in {lb["epFlowFlowId"] for lb, _ in flows}


def test_no_reset_objects(plain):
    for name in RESETS:
        assert not re.search(r"^(# \w+ )?%s[ {]" % name, plain, re.M), name


def test_writer_status_state_set(served, plain):
    assert served.expect.by_oid[served.expect.oid(2, 3, 0)][1] == 1  # running
    assert sorted(px.samples(plain, "epWriterStatus"), key=str) == sorted(
        [({"epWriterStatus": "running"}, 1.0), ({"epWriterStatus": "gone"}, 0.0),
         ({"epWriterStatus": "stalled"}, 0.0)], key=str)


def test_event_stats_labelled_with_names(served, plain):
    counts = {}
    for rec in served.records:
        key = (str(rec["arc"]), rec["event"])
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6  # the script logs every event of the model
    logged = {(lb["epEventStatsId"], lb["epEventStatsName"]): v
              for lb, v in px.samples(plain, "epEventStatsLogged")}
    assert logged == counts
    dropped = px.samples(plain, "epEventStatsDropped")
    assert sorted(set(lb) for lb, _ in dropped)[0] == {"epEventStatsId", "epEventStatsName"}
    assert {v for _, v in dropped} == {0}
    assert px.types(plain)["epEventStatsLogged"] == "counter"
    # the name is a label, not a metric of its own
    assert not px.samples(plain, "epEventStatsName")


def test_event_table_only_on_request(exporter, served, plain):
    for name in EVENT_TABLE:
        assert not px.samples(plain, name), name
    assert "epEventNumber=" not in plain
    text = scrape(exporter, served, EVENTS_MODULE)
    recs = served.records
    rows = {int(lb["epEventNumber"]): (lb["epEventName"], v)
            for lb, v in px.samples(text, "epEventId")}
    assert sorted(rows) == list(range(1, len(recs) + 1))
    assert [rows[n] for n in sorted(rows)] == [(r["event"], float(r["arc"])) for r in recs]
    types = px.types(text)
    for k in range(4):
        args = {int(lb["epEventNumber"]): v
                for lb, v in px.samples(text, "epEventArg%d" % (k + 1))}
        # Counter64-based in the MIB: a negative int32 (2^64 - 5) reads 2^53 - 5
        want = {n: float(int(r["args"][k]) % WRAP)
                for n, r in zip(sorted(rows), recs) if len(r["args"]) > k}
        assert args == want, k
    for name in ("epEventArg1", "epEventLagCycles", "epEventLagNs", "epEventTime"):
        assert types[name] == "gauge", name
    # DateAndTime as seconds since the epoch
    for _, v in px.samples(text, "epEventTime"):
        assert abs(v - time.time()) < 300
    # the counters of the plain module are there too, the same
    assert px.samples(text, "epGlobalRxPkts") == px.samples(plain, "epGlobalRxPkts")
