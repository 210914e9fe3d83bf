# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-exporter under a running writer: fm-writer `live` keeps adding
weight * k to every Counter64 of a group or row in one transaction, so
that in per-core and shared-buffered storage each such set stays
proportional to its weights in every consistent snapshot. Every scrape
must show each set proportional (a row's series come from one snapshot,
though each counter is a family of its own), no counter going backwards,
the counters moving, and the writer running."""
import os
import shutil
import signal
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dpdkapp  # noqa: E402
import promserver as ps  # noqa: E402
import snmpharness as h  # noqa: E402
from expomodel import EXAMPLE, load_model, oid_series, parse_text  # noqa: E402


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    wd = tmp_path_factory.mktemp("live")
    seg, exp = str(wd / "ep.seg"), str(wd / "ep.json")
    prefix = dpdkapp.unique_prefix("xl")
    w = subprocess.Popen([os.environ["FM_WRITER"], "live", seg, exp, "--file-prefix", prefix],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    e = None
    try:
        line = w.stdout.readline()
        if line.strip() != "ready":
            raise h.HarnessError("fm-writer live: %s" % w.stderr.read())
        import json
        with open(exp) as f:
            expect = json.load(f)
        e = ps.Exporter([seg], str(wd)).start()
        yield e, expect
    finally:
        if e:
            e.stop()
        w.send_signal(signal.SIGTERM)
        w.wait(timeout=60)
        shutil.rmtree(dpdkapp.runtime_dir(prefix), ignore_errors=True)


def series_sets(expect, key):
    model = load_model(EXAMPLE)
    return [[(oid_series(model, expect, o), w) for o, w in s] for s in expect[key]]


def test_each_scrape_consistent_per_row(live):
    exporter, expect = live
    inv = series_sets(expect, "invariants")
    mono = series_sets(expect, "monotonic")
    assert len(inv) >= 10 and mono
    assert all(s for st in inv + mono for s, _ in st), "a set member names no counter"
    prev = None
    grew = set()
    for _ in range(15):
        got = parse_text(exporter.scrape()[1])
        cur = []
        for st in inv + mono:
            cur.append([int(got[(m, tuple(sorted(lb)))]) for (m, lb), _ in st])
        for st, vals in zip(inv, cur):
            weights = [w for _, w in st]
            for v, w in zip(vals, weights):
                assert v * weights[0] == vals[0] * w, (st, vals)
        if prev:
            for i, (a, b) in enumerate(zip(prev, cur)):
                assert all(y >= x for x, y in zip(a, b)), (i, a, b)
                if b[0] > a[0]:
                    grew.add(i < len(inv))
        prev = cur
        assert got[("ep_writer_status", (("ep_writer_status", "running"),))] == "1"
    assert grew == {True, False}, "the writer's updates never became visible"
