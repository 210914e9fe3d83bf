# SPDX-License-Identifier: BSD-3-Clause
"""A writer lcore stuck inside a transaction: every scrape still ends,
with best-effort values for what the stuck lcore blocks (its +1 seen or
not), exact values elsewhere, and the writer status stalled; once the
transaction ends, exact again and running."""
import json
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dpdkapp  # noqa: E402
import promserver as ps  # noqa: E402
import snmpharness as h  # noqa: E402
from expomodel import parse_text  # noqa: E402


class Events:
    """fm-writer in events mode: filled, then commands on standard input."""

    def __init__(self, wd):
        self.seg, exp = str(wd / "ep.seg"), str(wd / "ep.json")
        self.prefix = dpdkapp.unique_prefix("xs")
        self.proc = subprocess.Popen(
            [os.environ["FM_WRITER"], "events", self.seg, exp, "--scale", "1",
             "--file-prefix", self.prefix],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise h.HarnessError("fm-writer events: %s" % self.proc.stderr.read())

    def command(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def stop(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(dpdkapp.runtime_dir(self.prefix), ignore_errors=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    wd = tmp_path_factory.mktemp("stalled")
    w = Events(wd)
    e = None
    try:
        e = ps.Exporter([w.seg], str(wd)).start()
        yield w, e
    finally:
        if e:
            e.stop()
        w.stop()


def status(got):
    return {s: got[("ep_writer_status", (("ep_writer_status", s),))]
            for s in ("running", "gone", "stalled")}


def test_stuck_writer_scrapes_end(served):
    w, e = served
    before = parse_text(e.scrape()[1])
    rx = ("ep_global_rx_pkts_total", ())
    tx = ("ep_global_tx_pkts_total", ())
    assert status(before) == {"running": "1", "gone": "0", "stalled": "0"}
    assert w.command("stall") == []
    try:
        for _ in range(3):
            got = parse_text(e.scrape()[1])
            assert set(got) == set(before)  # every series there
            assert int(got[rx]) in (int(before[rx]), int(before[rx]) + 1)
            assert got[tx] == before[tx]
            assert status(got) == {"running": "0", "gone": "0", "stalled": "1"}
    finally:
        assert w.command("release") == []
    got = parse_text(e.scrape()[1])
    assert int(got[rx]) == int(before[rx]) + 1 and got[tx] == before[tx]
    assert status(got) == {"running": "1", "gone": "0", "stalled": "0"}
