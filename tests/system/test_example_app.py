"""The example data plane against fastmib-stat: every counter the
application says it counted must be in the segment, exactly."""

import json
import os
import re
import signal
import subprocess
import time

import pytest

from conftest import NULL_PKT_LEN, STAT, mib, stat, stat_json

PREFIX = "ep"
# the model's peaks: fastmib-stat lists them among a row's counters
PEAK_NAMES = {mib(PREFIX, "port", "rxBurstMax")}
# Short flows with a 1 ms idle timeout so that flows expire within a run of
# a few hundred thousand packets; one packet in 1000 is malformed.
FLOW_ARGS = ["--flows", "200", "--flow-len", "50", "--flow-timeout", "1",
             "--bad-every", "1000", "--quiet"]


def rows_by_index(group):
    return {tuple(r["index"]): r["counters"] for r in group["rows"]}


def assert_segment_matches(doc, summary):
    """Compare fastmib-stat --json with the application's own totals."""
    groups = doc["groups"]
    for gname, expected in summary["groups"].items():
        g = groups[gname]
        if isinstance(expected, dict):  # scalar group
            got = g["counters"]
            want = {mib(PREFIX, gname, k): v for k, v in expected.items()}
            assert got == want, gname
            continue
        # peaks are levels, not totals the application keeps: their exact
        # values are test_example_histograms.py's
        got_rows = {i: {k: v for k, v in c.items() if k not in PEAK_NAMES}
                    for i, c in rows_by_index(g).items()}
        want_rows = {tuple(r["index"]): {mib(PREFIX, gname, k): v
                                         for k, v in r["counters"].items()}
                     for r in expected}
        if g["rows_max"] == g["rows_present"]:
            # `rows: all` table: rows the application never touched are zero.
            for idx, counters in got_rows.items():
                if idx not in want_rows:
                    assert set(counters.values()) == {0}, (gname, idx)
            got_rows = {i: c for i, c in got_rows.items() if i in want_rows}
        assert got_rows == want_rows, gname


def check_invariants(s, packets, workers):
    g = s["groups"]["global"]
    fs = s["groups"]["flowState"]
    assert g["rxPkts"] == packets
    assert g["rxBytes"] == packets * NULL_PKT_LEN
    # net_null transmits everything: only malformed packets are dropped.
    assert g["drops"] == s["groups"]["errors"]["badHeaders"] > 0
    assert g["txPkts"] == packets - g["drops"]
    assert g["txBytes"] == g["txPkts"] * NULL_PKT_LEN
    assert fs["flowsCreated"] - fs["flowsExpired"] == fs["activeFlows"] > 0
    assert fs["flowsExpired"] > 0
    assert len(s["groups"]["flow"]) == fs["activeFlows"]
    # Every packet of a flow is counted in its server's row, a row keyed by
    # the server's address and port: 16 addresses, 5 services.
    servers = s["groups"]["server"]
    assert sum(r["counters"]["pkts"] for r in servers) == \
        packets - s["groups"]["errors"]["badHeaders"] - s["groups"]["errors"]["flowTableFull"]
    assert sum(r["counters"]["bytes"] for r in servers) == \
        sum(r["counters"]["pkts"] for r in servers) * NULL_PKT_LEN
    assert 0 < len(servers) <= 80
    for r in servers:
        addr, port = r["key"]["serverAddr"], r["key"]["serverPort"]
        assert r["index"] == [int(b) for b in addr.split(".")] + [port]
        assert addr.startswith("192.168.0.") and 1 <= int(addr.split(".")[3]) <= 16
        assert port in (53, 80, 123, 443, 8080)
    # Port and queue rows add up to the totals; each worker took its
    # exact share of --packets on its own queue.
    assert sum(r["counters"]["rxPkts"] for r in s["groups"]["port"]) == packets
    assert sum(r["counters"]["txPkts"] for r in s["groups"]["port"]) == g["txPkts"]
    for q in range(workers):
        share = packets // workers + (1 if q < packets % workers else 0)
        got = sum(r["counters"]["pkts"] for r in s["groups"]["portQueue"]
                  if r["index"][1] == q + 1)
        assert got == share, q


@pytest.mark.parametrize("lcores,workers", [("0-1", 1), ("0@0,1@1,2@0,3@1", 3)])
def test_counters_match_summary(app_factory, lcores, workers):
    packets = 300000 if workers == 1 else 150001
    app = app_factory(["--packets", str(packets)] + FLOW_ARGS, lcores=lcores).run()
    s = app.summary
    assert s["workers"] == workers and s["ports"] == 2
    check_invariants(s, packets, workers)
    assert_segment_matches(stat_json(app.segment), s)
    # The machine-readable last line agrees with the JSON file.
    last = app.stdout.strip().splitlines()[-1]
    assert f"rx_pkts={packets} " in last
    assert f"active_flows={s['groups']['flowState']['activeFlows']} " in last


def test_states_match_summary(app_factory):
    """The states the application set (its summary) are the segment's,
    exactly: each port's name, link and speed as the device reports them
    (a port it does not have keeps the model's defaults), each server
    active with the moment its last packets were seen, the version and the
    start time."""
    t0, m0 = time.time_ns(), time.monotonic_ns()
    app = app_factory(["--packets", "100000"] + FLOW_ARGS,
                      eal_extra=["--vdev=net_ring0"]).run()
    t1, m1 = time.time_ns(), time.monotonic_ns()
    s, doc = app.summary["states"], stat_json(app.segment)["groups"]
    assert [(r["index"], r["states"]) for r in s["port"]] == [
        ([1], {"name": "net_null0", "link": 1, "speed": 10000}),
        ([2], {"name": "net_null1", "link": 1, "speed": 10000}),
        ([3], {"name": "net_ring0", "link": 1, "speed": 10000})]
    ports = {tuple(r["index"]): r["states"] for r in doc["port"]["rows"]}
    for r in s["port"] + [{"index": [4], "states": {"name": "", "link": 2, "speed": 0}}]:
        st = ports[tuple(r["index"])]
        assert st["epPortName"] == {"type": "display-string", "value": r["states"]["name"]}
        assert st["epPortLink"] == {"type": "enum", "value": r["states"]["link"],
                                    "label": {1: "up", 2: "down"}[r["states"]["link"]]}
        assert st["epPortSpeed"] == {"type": "unsigned32", "value": r["states"]["speed"]}
    # every server got packets until the end: the look after the last one
    # finds each active, seen (on the monotonic clock) during the run
    servers = {tuple(r["index"]): r["states"] for r in doc["server"]["rows"]}
    counted = {tuple(r["index"]) for r in app.summary["groups"]["server"]}
    assert sorted(tuple(r["index"]) for r in s["server"]) == sorted(servers) == sorted(counted)
    for r in s["server"]:
        st = servers[tuple(r["index"])]
        assert r["states"]["status"] == 1
        assert m0 < r["states"]["lastSeen"] < m1
        assert st["epServerStatus"] == {"type": "enum", "value": 1, "label": "active"}
        assert st["epServerLastSeen"]["value"] == r["states"]["lastSeen"]
    app_states = doc["app"]["states"]
    assert s["app"]["version"] == "fastmib-example " + os.environ["FASTMIB_VERSION"]
    assert app_states["epAppVersion"] == {"type": "display-string",
                                          "value": s["app"]["version"]}
    assert t0 <= s["app"]["startTime"] <= t1
    assert int(app_states["epAppStartTime"]["value"]) == s["app"]["startTime"]


def test_reset_whole_segment(app_factory):
    app = app_factory(["--packets", "100000"] + FLOW_ARGS).run()
    before = stat_json(app.segment)
    r = stat(app.segment, "--reset")
    assert "reset" in r.stdout
    doc = stat_json(app.segment)
    for name, g in doc["groups"].items():
        rows = [{"counters": g["counters"]}] if not g["table"] else g["rows"]
        for row in rows:
            for cname, v in row["counters"].items():
                if g["types"][cname] == "gauge32":
                    # Gauges are state, not totals: a reset leaves them.
                    assert v == before["groups"][name]["counters"][cname] > 0
                else:
                    assert v == 0, (name, cname)
    # Rows present stay present (flows are still in the table).
    assert doc["groups"]["flow"]["rows_present"] == \
        before["groups"]["flow"]["rows_present"] > 0
    info = json.loads(stat(app.segment, "--info", "--json").stdout)
    assert info["last_reset"] != "never"


def test_reset_group_and_rows(app_factory):
    app = app_factory(["--packets", "100000"] + FLOW_ARGS).run()
    s = app.summary
    seg = app.segment

    stat(seg, "--reset", "global")
    doc = stat_json(seg)
    assert set(doc["groups"]["global"]["counters"].values()) == {0}
    port = rows_by_index(doc["groups"]["port"])
    assert port[(1,)]["epPortRxPkts"] == s["groups"]["port"][0]["counters"]["rxPkts"] > 0

    # One row by its SNMP index, with the MIB-style group name.
    stat(seg, "--reset", "epPort.2")
    port = rows_by_index(stat_json(seg)["groups"]["port"])
    assert set(port[(2,)].values()) == {0}
    assert port[(1,)]["epPortRxPkts"] > 0

    # Two-index row, written as --reset=GROUP.I.J.
    stat(seg, "--reset=portQueue.1.1")
    pq = rows_by_index(stat_json(seg)["groups"]["portQueue"])
    assert set(pq[(1, 1)].values()) == {0}
    assert pq[(2, 1)]["epPortQueuePkts"] > 0

    # A whole table: every present flow row.
    flows = stat_json(seg)["groups"]["flow"]
    assert flows["rows_present"] > 0
    r = stat(seg, "--reset", "flow")
    assert f"{flows['rows_present']} row(s)" in r.stdout
    flows = stat_json(seg)["groups"]["flow"]
    assert all(set(row["counters"].values()) == {0} for row in flows["rows"])
    assert stat_json(seg)["groups"]["errors"]["counters"]["epErrorsBadHeaders"] == \
        s["groups"]["errors"]["badHeaders"]


def test_text_output(app_factory):
    app = app_factory(["--packets", "50000"] + FLOW_ARGS).run()
    s = app.summary
    out = stat(app.segment).stdout
    # Scalar groups: NAME, VALUE and the model's UNITS (none for activeFlows).
    assert re.search(r"^  epGlobalRxPkts +50000 packets$", out, re.M), out
    assert re.search(rf"^  epFlowStateActiveFlows +"
                     rf"{s['groups']['flowState']['activeFlows']}$", out, re.M)
    # Tables: a header line with index and counter columns (units in
    # brackets), one line per row.
    m = re.search(r"^port: 4 of 4 rows present\n +epPortPortId +epPortRxPkts\[packets\] "
                  r".*\n((?: +\d+.*\n){4})", out, re.M)
    assert m, out
    first = m.group(1).split("\n")[0].split()
    assert first[:2] == ["1", str(s["groups"]["port"][0]["counters"]["rxPkts"])]
    limited = stat(app.segment, "--rows", "1").stdout
    n = s["groups"]["flowState"]["activeFlows"]
    assert f"flow: {n} of 65536 rows present, 1 shown" in limited


def test_top_flows(app_factory):
    """--sort and --top: the flows with the most octets, exactly the rows
    the JSON output holds, largest first, ties in row order."""
    app = app_factory(["--packets", "50000"] + FLOW_ARGS).run()
    flows = stat_json(app.segment)["groups"]["flow"]
    assert flows["rows_present"] >= 5
    want = sorted(flows["rows"], key=lambda r: (-r["counters"]["epFlowBytes"], r["row"]))
    out = stat(app.segment, "--match", "flow", "--sort", "bytes", "--top", "5").stdout
    lines = out.splitlines()
    assert lines[2] == (f"flow: {flows['rows_present']} of 65536 rows present, 5 shown, "
                        "by epFlowBytes descending")
    assert lines[3].split() == ["epFlowFlowId", "epFlowPkts[packets]", "epFlowBytes[octets]"]
    assert [ln.split() for ln in lines[4:]] == [
        [str(r["index"][0]), str(r["counters"]["epFlowPkts"]),
         str(r["counters"]["epFlowBytes"])] for r in want[:5]]
    top = stat_json(app.segment, "--match", "flow", "--sort", "bytes", "--top", "5")
    assert top["groups"]["flow"]["rows"] == want[:5]
    assert list(top["groups"]) == ["flow"]


def test_info_and_recreate(app_factory):
    first = app_factory(["--packets", "1000", "--quiet"]).run()
    info = json.loads(stat(first.segment, "--info", "--json").stdout)
    assert info["module"] == "EXAMPLE-DATAPLANE-MIB"
    assert info["writer_pid"] == first.proc.pid
    assert info["writer"] == "gone"
    assert info["generation"] >= 1 and info["lcore_slots"] >= 2
    assert info["file_size"] == first.segment.stat().st_size
    assert info["read_stats"]["reads"] > 0
    gen = info["generation"]

    second = app_factory(["--packets", "2000", "--quiet"]).run()
    info2 = json.loads(stat(second.segment, "--info", "--json").stdout)
    assert info2["generation"] == gen + 1
    assert info2["writer_pid"] == second.proc.pid
    assert stat_json(second.segment)["groups"]["global"]["counters"][
        "epGlobalRxPkts"] == 2000
    text = stat(second.segment, "--info").stdout
    assert re.search(rf"^writer pid +{second.proc.pid} \(gone\)$", text, re.M)


def test_live_watch_and_signal_shutdown(app_factory):
    """While the application runs, --watch shows growing counters and rates;
    SIGINT stops it cleanly and the segment keeps the exact final totals."""
    app = app_factory(["--rate", "200000", "--flows", "100", "--flow-timeout",
                       "50", "--quiet"]).start()
    app.wait_for_segment()
    info = json.loads(stat(app.segment, "--info", "--json").stdout)
    assert info["writer"] == "running" and info["writer_pid"] == app.proc.pid

    w = subprocess.Popen([STAT, str(app.segment), "--watch",
                          "0.2", "--json"], stdout=subprocess.PIPE, text=True)
    try:
        seen = [json.loads(w.stdout.readline()) for _ in range(3)]
    finally:
        w.send_signal(signal.SIGINT)
        assert w.wait(timeout=10) == 0
    rx = [d["groups"]["global"]["counters"]["epGlobalRxPkts"] for d in seen]
    assert rx[0] < rx[1] < rx[2], rx

    def watch_until(args, pattern, more=0):
        """The first line of `fastmib-stat --watch 0.2 ARGS` that matches,
        and the `more` lines after it."""
        t = subprocess.Popen([STAT, str(app.segment), "--watch", "0.2", *args],
                             stdout=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                line = t.stdout.readline()
                if re.match(pattern, line):
                    return [line] + [t.stdout.readline() for _ in range(more)]
        finally:
            t.send_signal(signal.SIGINT)
            assert t.wait(timeout=10) == 0
        pytest.fail(f"no line matching {pattern}")

    # The second frame carries per-second rates.
    watch_until(["--rows", "2"], r"^  epGlobalRxPkts +\d+ packets +\d+/s$")
    # -H: 200k packets/s of 64 octets are 12.2MiB/s
    watch_until(["-H"], r"^  epGlobalRxBytes +\d+(\.\d)?[KMG]iB octets +1[12]\.\dMiB/s$")
    # --sort under --watch orders by the rate shown: the busiest flows now;
    # a flow new since the last frame has no rate ("-") and comes last
    title, header, *rows = watch_until(
        ["--match", "flow", "--sort", "bytes", "--top", "5"],
        r"^flow: \d+ of 65536 rows present, 5 shown, by epFlowBytes descending, "
        r"counters per second$", more=6)
    assert header.split() == ["epFlowFlowId", "epFlowPkts[packets/s]",
                              "epFlowBytes[octets/s]"]
    rates = [row.split()[2] for row in rows]
    known = [int(r) for r in rates if r != "-"]
    assert rates == [str(r) for r in known] + ["-"] * (5 - len(known)), rows
    assert known == sorted(known, reverse=True) and known, rows

    assert app.stop(signal.SIGINT) == 0, app.stderr
    s = app.summary
    assert s["groups"]["global"]["rxPkts"] > rx[2]
    assert_segment_matches(stat_json(app.segment), s)
    fs = s["groups"]["flowState"]
    assert fs["flowsCreated"] - fs["flowsExpired"] == fs["activeFlows"]


def test_recycled_flow_rows_start_from_zero(app_factory):
    """Many more flows than flow rows: every row id is reused several times,
    and a reused row must show only its current flow's traffic."""
    packets = 400000
    app = app_factory(["--packets", str(packets), "--flows", "64", "--flow-len", "1",
                       "--flow-timeout", "0", "--bad-every", "0", "--quiet"]).run()
    s = app.summary
    fs = s["groups"]["flowState"]
    assert fs["flowsCreated"] > 2 * 65536, fs  # ids went round the FIFO twice
    assert fs["flowsCreated"] - fs["flowsExpired"] == fs["activeFlows"]
    assert_segment_matches(stat_json(app.segment), s)
