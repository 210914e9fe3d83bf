"""The example application's counters as an NMS sees them: its segment
served by fastmib-agentx behind a real snmpd, read with snmpget, compared
with the application's own totals."""

import datetime
import os
import sys

import pytest

from conftest import mib, stat, stat_json

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpharness as h  # noqa: E402

ROOT = "1.3.6.1.4.1.8072.9999.42"
# Arcs of examples/dataplane.yaml (group arc, {counter: (arc, SNMP type)}).
GROUPS = {
    "global": (1, {"rxPkts": (1, "Counter64"), "rxBytes": (2, "Counter64"),
                   "txPkts": (3, "Counter64"), "txBytes": (4, "Counter64"),
                   "drops": (5, "Counter64"), "polls": (6, "Counter64"),
                   "mbufAllocFails": (7, "Counter32")}),
    "port": (2, {"rxPkts": (1, "Counter64"), "rxBytes": (2, "Counter64"),
                 "txPkts": (3, "Counter64"), "txBytes": (4, "Counter64"),
                 "rxErrors": (5, "Counter32")}),
    "portQueue": (3, {"pkts": (1, "Counter64"), "bytes": (2, "Counter64")}),
    "flow": (4, {"pkts": (1, "Counter64"), "bytes": (2, "Counter64")}),
    "flowState": (5, {"activeFlows": (1, "Gauge32"),
                      "flowsCreated": (2, "Counter64"),
                      "flowsExpired": (3, "Counter64")}),
    "errors": (6, {"badHeaders": (1, "Counter64"),
                   "flowTableFull": (2, "Counter32")}),
    # keyed by (serverAddr ipv4, serverPort uint32): index 192.168.0.1.443
    "server": (7, {"pkts": (1, "Counter64"), "bytes": (2, "Counter64")}),
}
# Arcs of its states (group arc, {state: arc})
STATES = {"port": (2, {"name": 6, "link": 7, "speed": 8}),
          "server": (7, {"status": 3, "lastSeen": 4}),
          "app": (8, {"version": 1, "startTime": 2})}


def oid(group, counter, index=None):
    garc, counters = GROUPS[group]
    carc = counters[counter][0]
    if index is None:
        return f"{ROOT}.1.{garc}.{carc}.0"
    return f"{ROOT}.1.{garc}.1.{carc}." + ".".join(str(i) for i in index)


def expected_varbinds(summary, max_flows=20):
    """(oid, SNMP type, value) for every counter the summary has."""
    out = []
    for gname, content in summary["groups"].items():
        counters = GROUPS[gname][1]
        if isinstance(content, dict):
            for c, v in content.items():
                out.append((oid(gname, c), counters[c][1], v))
            continue
        rows = content[:max_flows] if gname == "flow" else content
        for row in rows:
            for c, v in row["counters"].items():
                out.append((oid(gname, c, row["index"]), counters[c][1], v))
    return out


@pytest.fixture
def served(app_factory):
    if not os.environ.get("FASTMIB_AGENTX"):
        pytest.fail("FASTMIB_AGENTX not set: run through ctest")
    app = app_factory(["--packets", "100000", "--flows", "50", "--flow-len", "40",
                       "--flow-timeout", "1", "--bad-every", "500", "--quiet"]).run()
    snmpd = h.Snmpd()
    agent = None
    try:
        snmpd.start()
        agent = h.Agent([str(app.segment)], snmpd=snmpd)
        agent.start(wait_oid=oid("global", "rxPkts"))
        yield app, snmpd.client
    finally:
        h.shut_down(agent, snmpd)


def get_all(client, oids):
    """snmpget in slices (one PDU stays well under the UDP size limit)."""
    vbs = []
    for i in range(0, len(oids), 20):
        r = client.get(oids[i:i + 20])
        assert r.rc == 0, r
        vbs += r.varbinds
    return vbs


def test_snmpget_equals_summary(served):
    app, client = served
    s = app.summary
    want = expected_varbinds(s)
    assert len(want) > 40
    got = get_all(client, [o for o, _, _ in want])
    assert [(v.oid, v.type, v.value) for v in got] == want
    assert s["groups"]["global"]["rxPkts"] == 100000


def state_oid(group, state, index=None):
    garc, arcs = STATES[group]
    if index is None:
        return f"{ROOT}.1.{garc}.{arcs[state]}.0"
    return f"{ROOT}.1.{garc}.1.{arcs[state]}." + ".".join(str(i) for i in index)


def test_states_equal_summary(served):
    """Every state the application set, as it last set it (its summary):
    names as octets, enums and numbers as such, a server's last packet,
    seen before the agent started, TimeStamp 0, the start time a
    DateAndTime to the deci-second in UTC."""
    app, client = served
    s = app.summary["states"]
    want = []
    for r in s["port"]:
        st, i = r["states"], r["index"]
        want += [(state_oid("port", "name", i), ("OCTET STRING", st["name"].encode().hex())),
                 (state_oid("port", "link", i), ("INTEGER", st["link"])),
                 (state_oid("port", "speed", i), ("Gauge32", st["speed"]))]
    for r in s["server"]:
        st, i = r["states"], r["index"]
        want += [(state_oid("server", "status", i), ("INTEGER", st["status"])),
                 (state_oid("server", "lastSeen", i), ("Timeticks", 0))]
    want.append((state_oid("app", "version"),
                 ("OCTET STRING", s["app"]["version"].encode().hex())))
    assert len(want) == 3 * 2 + 2 * len(s["server"]) + 1
    assert [r["states"]["name"] for r in s["port"]] == ["net_null0", "net_null1"]
    assert {r["states"]["status"] for r in s["server"]} == {1}  # active at the end
    got = get_all(client, [o for o, _ in want])
    assert [(v.oid, h.wire(v)) for v in got] == want
    start = client.get([state_oid("app", "startTime")]).varbinds[0]
    when = datetime.datetime.fromtimestamp(s["app"]["startTime"] // 10**9, datetime.timezone.utc)
    assert h.date_and_time(h.parse_hex(start.value)) == (
        when.year, when.month, when.day, when.hour, when.minute, when.second,
        s["app"]["startTime"] % 10**9 // 10**8, ("+", 0, 0))


def test_reset_by_stat_seen_by_snmp(served):
    """fastmib-stat --reset writes the same baseline the subagent reads."""
    app, client = served
    stat(app.segment, "--reset", "port.1")
    r = client.get([oid("port", "rxPkts", [1]), oid("port", "rxPkts", [2])])
    assert [v.value for v in r.varbinds] == [
        0, app.summary["groups"]["port"][1]["counters"]["rxPkts"]]
    # And the JSON view agrees with SNMP for the whole port table.
    doc = stat_json(app.segment)
    for row in doc["groups"]["port"]["rows"]:
        got = client.get([oid("port", c, row["index"]) for c in GROUPS["port"][1]])
        assert [v.value for v in got.varbinds] == [
            row["counters"][mib("ep", "port", c)] for c in GROUPS["port"][1]]
