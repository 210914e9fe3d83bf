# SPDX-License-Identifier: BSD-3-Clause
"""States reach Prometheus: `fastmib-gen -x` writes the snmp_exporter
module of the states test model (every state type in a scalar group,
dense tables and keyed tables, tests/codegen/models/states.yaml), the real
prometheus-snmp-generator turns it into snmp.yml with the generated MIB,
the real prometheus-snmp-exporter accepts it (its configuration check)
and scrapes fm-states' segment through a real snmpd and fastmib-agentx
(AgentX).

Every state instance of every present row is one metric's sample (a state
set: one per label), typed gauge, with its exact value in variant A, in
variant B and, for a keyed row inserted again, as it starts: numbers as
gauges, enums and truth-values as state sets, a date-and-time in seconds
since the epoch, strings and addresses as info samples with their text
in a label, the row's display-string state as a label of every metric of
its row; no InetAddressType object as a metric; sysUpTime beside the
timestamps, their difference the time since."""
import calendar
import os
import sys
import time

import pytest
import yaml

from test_states import AGENTX_UPTIME_LAG, StatesServed

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpexporter as px  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "codegen", "models", "states.yaml")
STAND_INS = os.path.join(HERE, "..", "lib", "mibs")
MODULE = "states_test_mib"
# schema positions in states.yaml (fm-states' commands take them)
SYSTEM, TUNNEL = 0, 4
SYSTEM_LAST_CHANGE = 6
# the display-string state of each table that labels every metric of its rows
ROW_LABELS = {"port": "name", "tunnel": "label"}
# snmp_exporter reports Counter64 values modulo 2^53 (its
# --snmp.wrap-large-counters, on by default): a gauge64's too
WRAP = 2**53
# 400 years of the Gregorian calendar, in seconds (a whole number of
# days): moves a date into the years Python's calendar takes and back
CYCLE = 146097 * 86400


def cap(name):
    return name[0].upper() + name[1:]


class Model:
    """What states.yaml says: each group's indexes and an enum state's
    labels. Read as strings: YAML 1.1 would take a label such as `off` for
    a boolean."""

    def __init__(self, path):
        with open(path) as f:
            d = yaml.load(f, Loader=yaml.BaseLoader)
        self.prefix = d["module"]["prefix"]
        self.groups = {g["name"]: g for g in d["groups"]}

    def indexes(self, group):
        return self.groups[group].get("table", {}).get("indexes", [])

    def labels(self, group, state):
        """{value: label} of an enum state."""
        st = next(s for s in self.groups[group]["states"] if s["name"] == state)
        return {int(v): k for k, v in st["values"].items()}

    def name(self, group, *parts):
        return self.prefix + cap(group) + "".join(cap(p) for p in parts)


def index_labels(model, group, suffix):
    """The labels of a row's instance suffix, as snmp_exporter writes each
    index type (docs/nms.md): an inet-address's type and address one label."""
    if not model.indexes(group):
        assert suffix == "0"  # a scalar
        return {}
    sub = [int(x) for x in suffix.split(".")]
    out = {}
    for ix in model.indexes(group):
        kind = ix.get("type", "integer")
        if kind == "inet-address":
            octets, sub = sub[2:2 + sub[1]], sub[2 + sub[1]:]
            text = address(bytes(octets))
        elif kind == "string":
            text, sub = bytes(sub[1:1 + sub[0]]).decode(), sub[1 + sub[0]:]
        else:
            text, sub = str(sub[0]), sub[1:]
        out[model.name(group, ix["name"])] = text
    assert not sub, suffix
    return out


def address(raw):
    """An InetAddress as the exporter writes it: IPv4 dotted, IPv6 eight
    groups of four capital hexadecimal digits, unknown empty."""
    if len(raw) == 16:
        return ":".join(raw[k:k + 2].hex().upper() for k in range(0, 16, 2))
    return ".".join(str(b) for b in raw)


def go_date_seconds(hexval):
    """A DateAndTime as seconds since the epoch, the way snmp_exporter
    reads it: Go's time.Date() of its fields, which normalises month 0 and
    day 0 to the ones before (the unknown date, all zero, is 30 November of
    year -1), then whole seconds (deci-seconds dropped, towards the past)."""
    raw = bytes.fromhex(hexval)
    year, month, day, hour, minute, sec = (raw[0] << 8 | raw[1]), *raw[2:7]
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    t = calendar.timegm((year + 400, month, 1, hour, minute, sec)) - CYCLE
    t += (day - 1) * 86400
    if len(raw) == 11:
        sign = -1 if raw[8] == ord("-") else 1
        t -= sign * (raw[9] * 3600 + raw[10] * 60)
    return t


def text_of(inst, value):
    """A string or address state's value (hexadecimal octets) as the label
    text the exporter gives it."""
    raw = bytes.fromhex(value)
    if inst.type == "display-string":
        return raw.decode()
    if inst.type == "octet-string":
        return "0x" + raw.hex().upper() if raw else ""
    if inst.type == "mac":
        return ":".join("%02X" % b for b in raw)
    return address(raw)  # ipv4, inet-address


def want_samples(model, expect, variant, rows=None):
    """{metric: {frozenset(labels): value}} of every state instance in
    `variant` ("a", "b", or "d" for the rows of `rows`, {group: row},
    "a" elsewhere), as the scrape must show them."""
    def value(inst):
        return getattr(inst, "d" if rows and rows.get(inst.group) == inst.row else variant)

    out = {}
    for inst in expect.instances:
        if inst.type == "inet-address" and inst.syntax == "INTEGER":
            continue  # the InetAddressType: read with its address, no metric
        name = model.name(inst.group, inst.state)
        labels = index_labels(model, inst.group, inst.oid[len(inst.column) + 1:])
        if inst.group in ROW_LABELS:
            label = expect.of(inst.group, row=inst.row, state=ROW_LABELS[inst.group])[0]
            labels[model.name(inst.group, label.state)] = text_of(label, value(label))
        v = value(inst)
        samples = out.setdefault(name, {})
        if inst.type in ("enum", "truth-value"):
            states = {1: "true", 2: "false"} if inst.type == "truth-value" else \
                model.labels(inst.group, inst.state)
            for number, text in states.items():
                samples[frozenset(dict(labels, **{name: text}).items())] = \
                    1.0 if number == v else 0.0
        elif inst.syntax in ("OCTET STRING", "IpAddress") and inst.type != "date-and-time":
            samples[frozenset(dict(labels, **{name: text_of(inst, v)}).items())] = 1.0
        else:
            number = go_date_seconds(v) if inst.type == "date-and-time" else int(v)
            if inst.type == "gauge64":
                number %= WRAP
            samples[frozenset(labels.items())] = float(number)
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("states")


@pytest.fixture(scope="module")
def exporter(workdir):
    """The exporter serving snmp.yml of the module as written, made from
    the MIB modules its header lists and no other."""
    text = px.fastmib_gen(MODEL, "-x", "-")
    mibdir = px.mib_dir(str(workdir / "mibs"), px.needed_mibs(text),
                        [os.environ.get("FASTMIB_ST_MIB_DIR", ""),
                         os.environ.get("FASTMIB_BASE_MIBS", ""), "/usr/share/snmp/mibs",
                         STAND_INS])
    with px.started(str(workdir), text, mibdir) as e:
        yield e


@pytest.fixture(scope="module")
def st(tmp_path_factory):
    s = StatesServed("agentx", str(tmp_path_factory.mktemp("agentx")))
    try:
        yield s.start_states()
    finally:
        s.close()


@pytest.fixture(scope="module")
def model():
    return Model(MODEL)


def scrape(exporter, st):
    text = exporter.scrape("127.0.0.1:%d" % st.snmpd.port, MODULE)
    assert "snmp_scrape_" in text  # the exporter's own metrics: a complete scrape
    return text


def check_states(text, want):
    types = px.types(text)
    for name, samples in want.items():
        got = {frozenset(lb.items()): v for lb, v in px.samples(text, name)}
        assert got == samples, name
        assert types[name] == "gauge", name


def test_module_passes_the_exporters_check(exporter, workdir):
    """snmp_exporter's own check of the file takes it; the negative
    control: a key it does not know fails it."""
    assert px.config_check(exporter.config) == ""
    with open(exporter.config) as f:
        broken = yaml.safe_load(f)
    broken[MODULE]["retry"] = 3
    with open(workdir / "broken.yml", "w") as f:
        yaml.safe_dump(broken, f)
    assert "field retry not found" in px.config_check(str(workdir / "broken.yml"))


@pytest.mark.parametrize("variant", ["a", "b"])
def test_every_state_exact_and_typed(exporter, st, model, variant):
    """Every state instance of every present row, in variant A, then B:
    each metric's samples exactly, no other sample of it, every one a
    gauge (gauge64 too: no counter)."""
    assert st.writer.command("set %s" % variant.upper()) == []
    try:
        text = scrape(exporter, st)
    finally:
        st.writer.command("set A")
    want = want_samples(model, st.expect, variant)
    assert len(want) == 13 + 4 + 13 + 2 + 6 + 2
    check_states(text, want)


def test_state_values_as_prometheus_has_them(exporter, st):
    """Samples of variant A written out by hand, as docs/nms.md shows
    them: what the computed expectations above must agree with."""
    text = scrape(exporter, st)

    def sorted_samples(name):
        return sorted((sorted(lb.items()), v) for lb, v in px.samples(text, name))

    assert sorted_samples("stSystemMode") == [([("stSystemMode", "fast")], 1.0),
                                              ([("stSystemMode", "off")], 0.0),
                                              ([("stSystemMode", "safe")], 0.0)]
    assert sorted_samples("stSystemForwarding") == [([("stSystemForwarding", "false")], 1.0),
                                                    ([("stSystemForwarding", "true")], 0.0)]
    assert sorted_samples("stSystemLevel") == [([], -10.0)]
    assert sorted_samples("stSystemStarted") == [([], 1795832962.0)]  # 2026-11-28T02:29:22Z
    assert sorted_samples("stSystemVersion") == [([("stSystemVersion", "a-0-0")], 1.0)]
    assert sorted_samples("stSystemPeer") == [([("stSystemPeer", "192.168.0.0")], 1.0)]
    assert sorted_samples("stSystemMac") == [([("stSystemMac", "02:00:00:00:00:01")], 1.0)]
    assert ([("stPortName", "a-2-1"), ("stPortPortId", "2")], 0.0) in \
        sorted_samples("stPortRxPkts")
    assert ([("stPortName", "a-2-3"), ("stPortPortId", "4"),
             ("stPortSerial", "0x03040506")], 1.0) in sorted_samples("stPortSerial")


def test_a_row_inserted_again_reads_its_defaults(exporter, st, model):
    """A keyed row removed and inserted again starts with the model's
    defaults: an unknown date-and-time (year 0, as Go takes it), an empty
    label on every metric of the row, an unknown address as empty text."""
    assert "row" in st.writer.command("reinsert %d 3" % TUNNEL)
    try:
        text = scrape(exporter, st)
    finally:
        st.writer.command("set A")
    want = want_samples(model, st.expect, "a", rows={"tunnel": 3})
    check_states(text, want)
    row = [s for s in want["stTunnelEstablished"].items()
           if ("stTunnelLabel", "") in s[0]]
    assert [v for _, v in row] == [-62169984000.0]
    assert any(dict(k).get("stTunnelRemote") == "" for k in want["stTunnelRemote"])


def test_inet_address_type_is_no_metric(exporter, st):
    text = scrape(exporter, st)
    metrics = {m["name"] for m in exporter.modules[MODULE]["metrics"]}
    for name in ("stSystemPeerType", "stPortRemoteType", "stTunnelRemoteType"):
        assert name not in metrics and not px.samples(text, name), name
        assert name + "=" not in text


def test_row_label_on_every_metric_of_the_row(exporter, st):
    """Counters and DiscontinuityTime of a row carry its display-string
    state too; tables without one (lane, session) get no extra label."""
    text = scrape(exporter, st)
    for metric, index, label in (("stPortRxPkts", "stPortPortId", "stPortName"),
                                 ("stPortDrops", "stPortPortId", "stPortName"),
                                 ("stPortDiscontinuityTime", "stPortPortId", "stPortName"),
                                 ("stTunnelPkts", "stTunnelTeid", "stTunnelLabel"),
                                 ("stTunnelDiscontinuityTime", "stTunnelTeid",
                                  "stTunnelLabel")):
        samples = px.samples(text, metric)
        assert samples, metric
        names = {lb[index]: lb[label] for lb, _ in samples}
        assert len(names) == len(samples) and all(names.values()), (metric, samples)
    for lb, _ in px.samples(text, "stLanePower"):
        assert set(lb) == {"stLanePort", "stLaneLane"}
    for lb, _ in px.samples(text, "stSessionStarted"):
        assert set(lb) == {"stSessionUser"}


def test_timestamp_against_sysuptime(exporter, st):
    """A timestamp state is sysUpTime at the moment: in one scrape,
    sysUpTime less the state is the time since, in hundredths of a second."""
    start = time.monotonic()
    assert "ns" in st.writer.command("stamp %d %d 0" % (SYSTEM, SYSTEM_LAST_CHANGE))
    try:
        text = scrape(exporter, st)
    finally:
        st.writer.command("set A")
    elapsed = (time.monotonic() - start) * 100
    [(_, uptime)] = px.samples(text, "sysUpTime")
    [(_, stamp)] = px.samples(text, "stSystemLastChange")
    assert px.types(text)["sysUpTime"] == "gauge"
    assert stamp > 0
    # the subagent's uptime runs behind the master's by up to the lag
    assert -1 <= uptime - stamp <= elapsed + AGENTX_UPTIME_LAG + 1, (uptime, stamp, elapsed)
