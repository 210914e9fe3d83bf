"""The example application's event log as an NMS sees it: the application
runs on live lcores while fastmib-agentx (behind a real snmpd that forwards
notifications to a private snmptrapd) serves its segment. Afterwards the
event statistics over SNMP equal the application's own tallies, the event
table agrees with fastmib-stat --events, and badHeader notifications
arrived, capped by the agent's rate limit."""

import json
import os
import re
import sys
import time

import pytest

from conftest import stat

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpharness as h  # noqa: E402

ROOT = "1.3.6.1.4.1.8072.9999.42"
EV = ROOT + ".4"
# Event arcs of examples/dataplane.yaml
ARCS = {"burstStart": 1, "burstEnd": 2, "flowCreated": 3, "flowExpired": 4,
        "badHeader": 5, "flowTableFull": 6}
BAD_ETHERTYPE = 2   # reason code of the malformed packets the generator makes
RATE, BURST = 3, 5  # notification limit given to the agent
RX_PKTS = ROOT + ".1.1.1.0"


@pytest.fixture
def live(app_factory):
    if not os.environ.get("FASTMIB_AGENTX"):
        pytest.fail("FASTMIB_AGENTX not set: run through ctest")
    trapd = h.Snmptrapd().start()
    snmpd = h.Snmpd(extra_lines=[h.trap_sink_line(trapd.port)])
    agent = None
    app = app_factory(["--duration", "3", "--rate", "100000", "--flows", "50",
                       "--flow-len", "40", "--flow-timeout", "1",
                       "--bad-every", "1000", "--quiet"])
    try:
        snmpd.start()
        # the agent first: it waits for the segment, then sees every record
        # logged after it attached as new (and sends notifications for them)
        agent = h.Agent([str(app.segment)], snmpd=snmpd,
                        extra_args=["--notify-rate", str(RATE),
                                    "--notify-burst", str(BURST)]).start()
        t0 = time.monotonic()
        app.start()
        agent.wait_served(RX_PKTS)
        assert app.wait(60) == 0, app.stderr
        yield app, snmpd.client, agent, trapd, time.monotonic() - t0
    finally:
        h.shut_down(agent, snmpd, trapd)


def walk_table(client, sub):
    """{index: {column: value}} of table R.4.<sub>."""
    r = client.bulkwalk(f"{EV}.{sub}")
    assert r.rc == 0, r
    rows = {}
    for vb in r.varbinds:
        col, idx = (int(x) for x in vb.oid[len(f"{EV}.{sub}.1."):].split("."))
        rows.setdefault(idx, {})[col] = vb.value
    return rows


def test_event_log_over_snmp(live):
    app, client, agent, trapd, elapsed = live
    errors = app.summary["groups"]["errors"]
    assert errors["badHeaders"] > 100

    # statistics: rate-9 events are logged every time; burstStart and
    # burstEnd are drawn by the same burst threshold, so they pair up
    stats = walk_table(client, 2)
    assert sorted(stats) == sorted(ARCS.values())
    logged = {name: stats[arc][3] for name, arc in ARCS.items()}
    dropped = {name: stats[arc][4] for name, arc in ARCS.items()}
    assert {name: stats[arc][2] for name, arc in ARCS.items()} == \
        {name: '"%s"' % name for name in ARCS}
    assert logged["badHeader"] == errors["badHeaders"]
    assert logged["flowTableFull"] == errors["flowTableFull"]
    assert logged["burstStart"] == logged["burstEnd"] > 0

    # fastmib-stat shows what the rings still hold: logged - dropped each
    recs = json.loads(stat(app.segment, "--events", "--json").stdout)
    recs = recs["events"] if isinstance(recs, dict) else recs
    for name in ARCS:
        assert sum(r["event"] == name for r in recs) == logged[name] - dropped[name]

    # the table: the agent's last 256 records, numbered without gaps, each
    # one of the records fastmib-stat reads, badHeader with its reason
    rows = walk_table(client, 1)
    nums = sorted(rows)
    assert len(nums) == 256 and nums == list(range(nums[0], nums[0] + 256))
    by_key = {}
    for r in recs:
        key = ('"%s"' % r["event"], r["lcore"],
               tuple(int(v) for v in r["args"].values()))
        by_key.setdefault(key, []).append(r)
    for n in nums:
        row = rows[n]
        key = (row[2], row[5], tuple(row[c] for c in sorted(row) if c >= 8))
        assert key in by_key, (n, row)
        if row[2] == '"badHeader"':
            assert row[3] == 5 and row[9] == BAD_ETHERTYPE and row[8] in (0, 1)
        if sum(dropped.values()) == 0:  # every lag reference was seen by both
            assert (row[6], row[7]) in {(int(r["lag_cycles"]), int(r["lag_ns"]))
                                        for r in by_key[key]}

    # notifications: badHeader ones, capped by the limit; the agent logs
    # how many it held back, and the two add up to what it copied
    prefix = f"{EV}.0.5"
    log_re = re.compile(r"not sent: over the limit of %d per second, burst %d; "
                        r"(\d+) in total" % (RATE, BURST))
    agent.stop()  # its last log line has the final count
    traps = [t for t in trapd.traps() if t.trap_oid == prefix]
    assert 1 <= len(traps) <= BURST + RATE * (elapsed + 2)
    total_suppressed = int(log_re.findall(agent.read_log())[-1])
    assert len(traps) + total_suppressed <= logged["badHeader"]
    # (records logged before the agent attached notify nobody)
    assert len(traps) + total_suppressed > logged["badHeader"] // 3
    for t in traps:
        vals = [v.value for v in t.varbinds[2:]]
        num = int(t.varbinds[2].oid.rsplit(".", 1)[1])
        assert [v.oid for v in t.varbinds[2:]] == [
            f"{EV}.1.1.{c}.{num}" for c in (2, 4, 5, 8, 9)]
        assert vals[0] == '"badHeader"' and vals[3] in (0, 1)
        assert vals[4] == BAD_ETHERTYPE


def test_event_table_with_mib(live):
    """snmptable renders the table with the generated MIB: names of the
    columns, DateAndTime as a date."""
    app, client, agent, trapd, _ = live
    client.mib_module = "EXAMPLE-DATAPLANE-MIB"
    client.mib_dirs = [os.environ.get("FASTMIB_BASE_MIBS", ""),
                       os.environ.get("FASTMIB_MIB_DIR", ""), "/usr/share/snmp/mibs"]
    res, cols, rows = client.table("epEventTable")
    assert res.rc == 0, res
    assert cols[:4] == ["index", "epEventName", "epEventId", "epEventTime"]
    assert len(rows) == 256
    assert all(re.match(r"\d{4}-\d{1,2}-\d{1,2},\d{1,2}:\d{1,2}:\d{1,2}\.\d,\+0:0$",
                        r[3]) for r in rows), rows[:3]
