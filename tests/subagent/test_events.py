# SPDX-License-Identifier: BSD-3-Clause
"""The event log over SNMP, in each serving mode: <p>EventTable and
<p>EventStatsTable against the exact records fm-writer logged, event
numbers, the history bound, and notifications caught by a private
snmptrapd, including the rate limit capping a flood.

One fixture per mode: fm-writer in events mode (it logs on command), the
agent with a 32-record history and a notification limit of 1/s with a
burst of 10, notifications going to a private snmptrapd."""
import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import MODES, Served

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpharness as h  # noqa: E402

HISTORY = 32
RATE, BURST = 1, 10
FLOOD = 100

# EventEntry / EventStatsEntry columns (docs/mib-layout.md)
NAME, ID, TIME, LCORE, LAG_CYCLES, LAG_NS, ARG1 = 2, 3, 4, 5, 6, 7, 8
ST_NAME, ST_LOGGED, ST_DROPPED = 2, 3, 4


class EventServed(Served):
    """A Served segment in events mode plus a trap receiver; `logged`
    accumulates every record fm-writer reported, in logging order."""

    def start_events(self):
        self.trapd = h.Snmptrapd().start()
        self.logged = []
        self.start(events=True, trap_port=self.trapd.port,
                   agent_args=["-E", str(HISTORY), "--notify-rate", str(RATE),
                               "--notify-burst", str(BURST)],
                   module_lines=["fastmibEventHistory %d" % HISTORY,
                                 "fastmibNotifyRate %d %d" % (RATE, BURST)])
        return self

    def log(self, cmd):
        recs = self.writer.command(cmd)
        self.logged += recs
        return recs

    def ev(self, *suffix):
        return self.expect.oid(4, *suffix)

    def close(self):
        super().close()
        h.shut_down(self.trapd)


@pytest.fixture(scope="module", params=MODES)
def evs(request, tmp_path_factory):
    s = EventServed(request.param, str(tmp_path_factory.mktemp(request.param)))
    try:
        yield s.start_events()
    finally:
        s.close()


def table(evs):
    """{number: {column: Varbind}} of the event table (one bulk walk)."""
    r = evs.client.bulkwalk(evs.ev(1))
    assert r.rc == 0, r
    rows = {}
    prefix = evs.ev(1, 1) + "."
    for vb in r.varbinds:
        assert vb.oid.startswith(prefix), vb
        col, num = (int(x) for x in vb.oid[len(prefix):].split("."))
        rows.setdefault(num, {})[col] = vb
    return rows


def check_row(row, rec, n_args):
    assert row[NAME].type == "STRING" and row[NAME].value == '"%s"' % rec["event"]
    assert (row[ID].type, row[ID].value) == ("Gauge32", rec["arc"])  # Unsigned32
    assert (row[LCORE].type, row[LCORE].value) == ("Gauge32", rec["slot"])
    assert row[LAG_CYCLES].type == "Counter64" and row[LAG_NS].type == "Counter64"
    # argument columns exist for the event's own arguments only
    assert sorted(c for c in row if c >= ARG1) == list(range(ARG1, ARG1 + n_args))
    for k, want in enumerate(rec["args"]):
        assert (row[ARG1 + k].type, row[ARG1 + k].value) == ("Counter64", int(want))


def test_empty_before_any_event(evs):
    """No record yet: the table is empty, GETNEXT from R.2's last object
    (NotificationsDropped: the model notifies) skips to the statistics
    table, whose counters are all zero."""
    r = evs.client.getnext([evs.expect.oid(2, 6, 0)])
    first = r.varbinds[0]
    assert first.oid == evs.ev(2, 1, ST_NAME, first.oid.rsplit(".", 1)[1])
    st = evs.client.walk(evs.ev(2))
    logged = [v.value for v in st.varbinds if v.oid.startswith(evs.ev(2, 1, ST_LOGGED) + ".")]
    assert logged and set(logged) == {0}


def test_table_matches_script(evs):
    recs = evs.log("script")
    assert len({r["slot"] for r in recs}) == 2
    n_args = {r["event"]: len(r["args"]) for r in recs}
    start = time.time()
    rows = table(evs)
    assert sorted(rows) == list(range(1, len(recs) + 1))
    for num, rec in zip(sorted(rows), recs):
        check_row(rows[num], rec, n_args[rec["event"]])
        dt = h.date_and_time(h.parse_hex(rows[num][TIME].value))
        assert dt[7] == ("+", 0, 0)
        t = time.mktime(time.struct_time(dt[:6] + (0, 0, 0))) - time.timezone
        assert abs(t - start) < 30, dt
    # lag in ns is the lag in cycles at one fixed TSC rate
    ratios = {round(rows[n][LAG_NS].value / rows[n][LAG_CYCLES].value, 3)
              for n in rows if rows[n][LAG_CYCLES].value > 10000}
    assert len(ratios) <= 2, ratios  # rounding of integer ns only


def stat_events(segment):
    """fastmib-stat --events --json: every record still in the rings."""
    stat = os.environ.get("FASTMIB_STAT")
    assert stat, "FASTMIB_STAT not set: run through ctest"
    r = subprocess.run([stat, segment, "--events", "--json"], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    return doc["events"] if isinstance(doc, dict) else doc


def test_table_matches_fastmib_stat(evs):
    """The agent and fastmib-stat read the same records: same order, lcore,
    arguments, lag (cycles and ns) and time (to the decisecond)."""
    rows = table(evs)
    recs = stat_events(evs.segment)
    assert len(recs) == len(evs.logged) == len(rows)
    for num, rec in zip(sorted(rows), recs):
        row = rows[num]
        assert row[NAME].value == '"%s"' % rec["event"]
        assert row[LCORE].value == rec["lcore"]
        # the MIB column is the 64-bit word; fastmib-stat shows int32 signed
        assert [row[c].value for c in sorted(row) if c >= ARG1] == \
            [int(v) % 2**64 for v in rec["args"].values()]
        assert (row[LAG_CYCLES].value, row[LAG_NS].value) == \
            (int(rec["lag_cycles"]), int(rec["lag_ns"]))
        ns = int(rec["time_ns"])
        t = time.gmtime(ns // 10**9)
        assert h.date_and_time(h.parse_hex(row[TIME].value)) == \
            tuple(t[:6]) + ((ns % 10**9) // 10**8, ("+", 0, 0))
    assert any(rows[n][LAG_CYCLES].value > 0 for n in rows)


def test_get_and_getnext_instances(evs):
    rows = table(evs)
    last = max(rows)
    r = evs.client.get([evs.ev(1, 1, NAME, last), evs.ev(1, 1, NAME, last + 1),
                        evs.ev(1, 1, 1, last), evs.ev(1, 1, 12, last)])
    assert [v.type for v in r.varbinds] == ["STRING", "noSuchInstance",
                                            "noSuchObject", "noSuchObject"]
    # the last number of a column is followed by the first of the next
    r = evs.client.getnext([evs.ev(1, 1, NAME, last)])
    assert r.varbinds[0].oid == evs.ev(1, 1, ID, min(rows))
    # an argument column skips records whose event has fewer arguments
    with_two = sorted(n for n in rows if ARG1 + 1 in rows[n])
    r = evs.client.getnext([evs.ev(1, 1, ARG1 + 1, 0)])
    assert r.varbinds[0].oid == evs.ev(1, 1, ARG1 + 1, with_two[0])


def test_stats_table(evs):
    counts = {}
    for rec in evs.logged:
        counts[(rec["arc"], rec["event"])] = counts.get((rec["arc"], rec["event"]), 0) + 1
    r = evs.client.walk(evs.ev(2))
    got = {}
    for vb in r.varbinds:
        col, arc = (int(x) for x in vb.oid[len(evs.ev(2, 1)) + 1:].split("."))
        got.setdefault(arc, {})[col] = vb
    assert sorted(got) == sorted(a for a, _ in counts)  # the script logs every event
    for (arc, name), n in counts.items():
        assert got[arc][ST_NAME].value == '"%s"' % name
        assert (got[arc][ST_LOGGED].type, got[arc][ST_LOGGED].value) == ("Counter64", n)
        assert got[arc][ST_DROPPED].value == 0


def is_event_trap(evs):
    prefix = evs.ev(0) + "."
    return lambda t: (t.trap_oid or "").startswith(prefix)


def test_notifications_of_script(evs):
    """Every notify event of the script arrives once, in order, with the
    OBJECTS of its NOTIFICATION-TYPE instantiated with its event number."""
    rows = table(evs)
    assert sorted(rows) == list(range(1, len(evs.logged) + 1))
    want = [(n, rows[n]) for n, rec in zip(sorted(rows), evs.logged) if rec["notify"]]
    assert want, "the model's script has notify events"
    traps = evs.trapd.wait_traps(len(want), pred=is_event_trap(evs))
    assert len(traps) == len(want)
    for t, (num, row) in zip(traps, want):
        assert t.trap_oid == evs.ev(0, row[ID].value)
        oids = [v.oid for v in t.varbinds[2:]]
        n_args = len([c for c in row if c >= ARG1])
        assert oids == [evs.ev(1, 1, c, num) for c in
                        [NAME, TIME, LCORE] + list(range(ARG1, ARG1 + n_args))]
        for v in t.varbinds[2:]:
            col = int(v.oid.split(".")[-2])
            assert (v.type, v.value) == (row[col].type, row[col].value)


def test_flood_is_rate_limited_and_history_bounded(evs):
    before = len([t for t in evs.trapd.traps() if is_event_trap(evs)(t)])
    notify_name = next(r["event"] for r in evs.logged if r["notify"])
    t0 = time.monotonic()
    evs.log("flood %d %s" % (FLOOD, notify_name))
    total = len(evs.logged)
    # the history keeps the last HISTORY records, numbered as logged
    rows = table(evs)
    assert sorted(rows) == list(range(total - HISTORY + 1, total + 1))
    for i, num in enumerate(sorted(rows)):
        assert rows[num][ARG1].value == FLOOD - HISTORY + 1 + i
    # the agent logs how many it suppressed; sent + suppressed == FLOOD
    log_re = re.compile(r"notification\(s\) not sent: over the limit of %d per "
                        r"second, burst %d; (\d+) in total" % (RATE, BURST))

    def suppressed():
        m = log_re.findall(evs.agent.read_log())
        return int(m[-1]) if m else None
    h.wait_for(lambda: suppressed() is not None and
               before + (FLOOD - suppressed()) <=
               len([t for t in evs.trapd.traps() if is_event_trap(evs)(t)]),
               20, "suppressed count and the notifications sent")
    elapsed = time.monotonic() - t0
    sent = len([t for t in evs.trapd.traps() if is_event_trap(evs)(t)]) - before
    assert sent + suppressed() == FLOOD
    # what was left of the burst, plus at most RATE per second since
    assert BURST - before <= sent <= BURST + RATE * (elapsed + 1)
    assert sent < FLOOD // 4
