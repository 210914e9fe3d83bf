"""The example data plane's histograms and peak, read back through
fastmib_read() (fastmib-histread): each port's receive burst sizes
(epPortRxBurst) and largest burst (epPortRxBurstMax) exactly as the
traffic pattern makes them, and each burst's processing time
(epGlobalBurstTime) as the application observed it, one observation per
burst."""

import json
import os
import subprocess

import pytest

from conftest import stat_json

HISTREAD = os.environ.get("FASTMIB_HISTREAD", "")
BURST = 32                          # the application's receive burst
RX_BURST_BOUNDS = [1, 2, 4, 8, 16, 31, 32]
BURST_TIME_BOUNDS = [1 << e for e in range(6, 22)]   # log2: [6, 21]
PORT_ROWS = 4                       # epPortTable: portId 1..4, rows: all


def histread(segment):
    if not (HISTREAD and os.path.exists(HISTREAD)):
        pytest.fail("FASTMIB_HISTREAD not set: run through ctest")
    r = subprocess.run([HISTREAD, str(segment)], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def bucket_of(bounds, v):
    return next((i for i, b in enumerate(bounds) if v <= b), len(bounds))


def expected_ports(packets, workers, ports=2):
    """Bursts of an unpaced run on net_null ports, which always deliver
    what is asked: each worker takes its share of --packets in bursts of
    32 and a last, shorter one, polling the ports in turn from the first.
    Per port: the buckets, count, sum and largest burst."""
    want = [{"buckets": [0] * (len(RX_BURST_BOUNDS) + 1), "count": 0, "sum": 0, "max": 0}
            for _ in range(PORT_ROWS)]
    for q in range(workers):
        share = packets // workers + (1 if q < packets % workers else 0)
        sizes = [BURST] * (share // BURST) + ([share % BURST] if share % BURST else [])
        for j, n in enumerate(sizes):
            p = want[j % ports]
            p["buckets"][bucket_of(RX_BURST_BOUNDS, n)] += 1
            p["count"] += 1
            p["sum"] += n
            p["max"] = max(p["max"], n)
    return want


def check_consistent(h, bounds):
    assert h["bounds"] == bounds
    assert len(h["buckets"]) == len(bounds) + 1
    assert sum(h["buckets"]) == h["count"]


def check_against_summary(app):
    """What fastmib_read() gives is what the application observed (its
    summary), exactly; one observation per burst, and no empty polls on
    net_null ports: the burst time's count is the polls counted."""
    got = histread(app.segment)
    want = app.summary["histograms"]
    doc = stat_json(app.segment)["groups"]
    (g,) = got["global"]
    bt = g["histograms"]["burstTime"]
    check_consistent(bt, BURST_TIME_BOUNDS)
    assert {k: bt[k] for k in ("buckets", "count", "sum")} == want["burstTime"]
    assert bt["count"] == doc["global"]["counters"]["epGlobalPolls"]
    assert g["peaks"] == {}
    rows = {r["row"]: r for r in got["port"]}
    assert sorted(rows) == list(range(PORT_ROWS))
    rx_pkts = {tuple(r["index"]): r["counters"]["epPortRxPkts"]
               for r in doc["port"]["rows"]}
    for w in want["rxBurst"]:
        (port_id,) = w["index"]
        r = rows[port_id - 1]
        h = r["histograms"]["rxBurst"]
        check_consistent(h, RX_BURST_BOUNDS)
        assert (h["buckets"], h["count"], h["sum"], r["peaks"]["rxBurstMax"]) == \
            (w["buckets"], w["count"], w["sum"], w["max"]), port_id
        # every packet the port received came in a burst it observed
        assert h["sum"] == rx_pkts[(port_id,)]
    assert sum(rows[i]["histograms"]["rxBurst"]["count"] for i in rows) == bt["count"]
    return got


@pytest.mark.parametrize("packets,lcores,workers", [
    (40, "0-1", 1),            # one burst of 32 on port 1, one of 8 on port 2
    (1000, "0-1", 1),          # 31 bursts of 32 and one of 8
    (150001, "0@0,1@1,2@0,3@1", 3)])
def test_burst_sizes_exact(app_factory, packets, lcores, workers):
    app = app_factory(["--packets", str(packets), "--quiet"], lcores=lcores).run()
    got = check_against_summary(app)
    rows = {r["row"]: r for r in got["port"]}
    for i, w in enumerate(expected_ports(packets, workers)):
        h = rows[i]["histograms"]["rxBurst"]
        assert (h["buckets"], h["count"], h["sum"], rows[i]["peaks"]["rxBurstMax"]) == \
            (w["buckets"], w["count"], w["sum"], w["max"]), i
    assert got["global"][0]["histograms"]["burstTime"]["count"] == \
        sum(w["count"] for w in expected_ports(packets, workers))


def test_paced_bursts_match_summary(app_factory):
    """Paced by --rate, bursts take what tokens allow: sizes are not known
    beforehand, but every one is observed once, as the application says."""
    app = app_factory(["--packets", "20000", "--rate", "200000", "--quiet"]).run()
    got = check_against_summary(app)
    for r in got["port"][:2]:
        assert 1 <= r["peaks"]["rxBurstMax"] <= BURST
