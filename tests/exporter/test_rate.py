# SPDX-License-Identifier: BSD-3-Clause
"""rate() in the real Prometheus over a counter written at a known rate.

ratewriter keeps kt_global_pkts_total at floor(R * (c - t0)), c the
CLOCK_REALTIME reading made before each update, so that a value read at
instant t was floor(R * (c - t0)) for a c in (t - gap, t], gap the time
from c to the reading two updates later; it lists every such pair further
apart than 1 ms (ratewriter.c), and a read's gap is the longest pair
around it. Prometheus scrapes fastmib-exporter every 200 ms, its
alignment of timestamps to the schedule (which would move one back by up
to 2 ms) off. A sample's timestamp is then Prometheus' clock reading made
right before the scrape starts (the statement before the duration's own
start), in milliseconds rounded down, and scrape_duration_seconds of that
scrape runs from its start to the samples stored: the exporter read the
counter at an instant t in [ts, ts + 1 ms + duration]. No tolerance is
fixed beforehand: each sample's bounds come from its own timestamp and
duration and the writer's pauses around it.

  - every stored sample lies within its bounds, none is below the one
    before, and resets() is 0;
  - rate() over windows of many samples, each window from 1 ms before its
    first sample to its last (no extrapolation beyond the samples: Prometheus
    then gives the samples' own slope), is R within the bound the end
    samples' bounds imply, printed for each window."""
import bisect
import math
import os
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import promserver as ps  # noqa: E402
import snmpharness as h  # noqa: E402

RATE = 1000003       # counts per second
SAMPLES = 50         # stored samples to check, at least
METRIC = "kt_global_pkts_total"
NS = 10 ** 9


def count(ns):
    """The counter at `ns` nanoseconds after t0."""
    return RATE * ns // NS


def matrix(prom, q, at):
    """[(timestamp in ms, value string)] of range query `q` evaluated at `at`."""
    res = prom.api("query", query=q, time=at)["result"]
    assert len(res) <= 1, res
    return [(round(float(t) * 1000), v) for t, v in res[0]["values"]] if res else []


def exact(v):
    """A stored value as the integer it is (below 2^53: exact in a float)."""
    f = float(v)
    assert f.is_integer() and f < 2 ** 53, v
    return int(f)


def instant(prom, q, at):
    res = prom.api("query", query=q, time=at)["result"]
    assert len(res) == 1, (q, res)
    return float(res[0]["value"][1])


def at_ms(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)


class Stored:
    """What Prometheus stored while the writer ran, and the writer's pauses."""

    def __init__(self, prom, t0):
        self.prom, self.t0 = prom, t0
        self.samples = self.durations = None
        self.short = self.starts = self.ends = None

    def read_pauses(self, out):
        """ratewriter's last words: every pair of readings two updates apart
        further apart than `short`, in the order it made them (both ends
        increase)."""
        lines = out.splitlines()
        w = lines[0].split()
        assert w[0::2] == ["gap", "updates", "short", "pauses"], out[:200]
        gap, updates, self.short, n = (int(x) for x in w[1::2])
        pauses = [tuple(int(x) for x in ln.split()[1:]) for ln in lines[1:]]
        assert len(pauses) == n and all(ln.startswith("pause ") for ln in lines[1:])
        self.starts = [a for a, _ in pauses]
        self.ends = [b for _, b in pauses]
        assert max([self.short] + [b - a for a, b in pauses]) == gap
        print("writer: %d updates, %d pauses over %.3f ms, the longest %.3f ms"
              % (updates, n, self.short / 1e6, gap / 1e6))

    def gap(self, t1, t2):
        """The bound c_k+2 - c_k for a read at an instant in [t1, t2] (ns):
        of the pairs with c_k <= t2 and c_k+2 > t1."""
        lo = bisect.bisect_right(self.ends, t1)
        hi = bisect.bisect_right(self.starts, t2)
        return max([self.short] + [self.ends[k] - self.starts[k] for k in range(lo, hi)])


def test_rate_of_a_counter_at_a_known_rate(tmp_path):
    seg = str(tmp_path / "rate.seg")
    w = subprocess.Popen([os.environ["RATEWRITER"], seg, str(RATE)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    e = p = None
    try:
        first = w.stdout.readline().split()
        if len(first) != 2 or first[0] != "t0" or w.stdout.readline().strip() != "ready":
            raise h.HarnessError("ratewriter: %s %s" % (first, w.stderr.read()))
        e = ps.Exporter([seg], str(tmp_path)).start()
        p = ps.Prometheus(str(tmp_path), [e.address],
                          job_extra={"scrape_interval": "200ms", "scrape_timeout": "200ms"},
                          args=["--no-scrape.adjust-timestamps"]).start()
        st = Stored(p, int(first[1]))
        # a hang guard, not a measure: the count of samples is what matters
        h.wait_for(lambda: len(matrix(p, METRIC + "[1h]", "%.3f" % time.time())) >= SAMPLES,
                   240, "prometheus to store %d samples" % SAMPLES, interval=0.5)
        # what is stored now, while the writer still runs, is what is checked
        now = "%.3f" % time.time()
        st.samples = [(t, exact(v)) for t, v in matrix(p, METRIC + "[1h]", now)]
        st.durations = {t: float(v) for t, v in
                        matrix(p, 'scrape_duration_seconds{job="fastmib"}[1h]', now)}
        w.send_signal(signal.SIGTERM)
        out, err = w.communicate(timeout=60)
        assert w.returncode == 0, err
        st.read_pauses(out)
        check_samples(st)
        check_rates(st)
    finally:
        if w.poll() is None:
            w.kill()
            w.wait()
        if p:
            p.stop()
        if e:
            e.stop()


def bounds(st, ts):
    """The lowest and highest value the sample at `ts` (ms) could have: read
    at t in [ts, ts + 1 ms + its scrape's duration], of an update whose
    clock reading c was in (t - gap, t], gap that of the writer's readings
    around that interval."""
    t1 = ts * 10 ** 6
    t2 = t1 + 10 ** 6 + math.ceil(st.durations[ts] * NS)
    return count(max(t1 - st.gap(t1, t2) - st.t0, 0)), count(t2 - st.t0)


def check_samples(st):
    """Every sample within its bounds, none below the one before, no reset."""
    s = st.samples
    assert len(s) >= SAMPLES
    worst = 0
    for ts, v in s:
        lo, hi = bounds(st, ts)
        assert lo <= v <= hi, (ts, v, lo, hi, v - count(ts * 10 ** 6 - st.t0))
        worst = max(worst, hi - lo)
    # never down; two equal when the writer paused longer than a scrape
    # interval (its gap says so, and each one's bounds allow it)
    assert all(a[1] <= b[1] for a, b in zip(s, s[1:])), "a sample below the one before"
    end = s[-1][0]
    assert instant(st.prom, "resets(%s[%dms])" % (METRIC, end - s[0][0] + 1), at_ms(end)) == 0
    print("%d samples over %.3f s within their bounds; widest %d counts (%.3f ms), "
          "longest scrape %.3f ms" % (len(s), (end - s[0][0]) / 1000, worst,
                                      worst / RATE * 1000, max(st.durations.values()) * 1000))


def check_rates(st):
    """rate() over the whole run and over windows of 40 samples every 10:
    R within the bound of each window's end samples."""
    s = st.samples
    windows = [(0, len(s) - 1)] + [(i, i + 40) for i in range(0, len(s) - 40, 10)]
    for i, j in windows:
        (ti, vi), (tj, vj) = s[i], s[j]
        rng = "%s[%dms]" % (METRIC, tj - ti + 1)
        # the window holds exactly samples i..j
        assert [(t, exact(v)) for t, v in matrix(st.prom, rng, at_ms(tj))] == s[i:j + 1]
        got = instant(st.prom, "rate(%s)" % rng, at_ms(tj))
        span = (tj - ti) / 1000
        # no extrapolation: the samples' own slope (float arithmetic apart)
        assert got == pytest.approx((vj - vi) / span, rel=1e-12)
        (loi, hii), (loj, hij) = bounds(st, ti), bounds(st, tj)
        low, high = (loj - hii) / span, (hij - loi) / span
        bound = max(RATE - low, high - RATE)
        print("rate over samples %d..%d (%.3f s): %.3f, R %d, bound +-%.3f (%.2e of R)"
              % (i, j, span, got, RATE, bound, bound / RATE))
        assert low <= got <= high, (i, j, got, low, high)
        assert abs(got - RATE) <= bound
