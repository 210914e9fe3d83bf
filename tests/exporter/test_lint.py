# SPDX-License-Identifier: BSD-3-Clause
"""Every model the exporter's tests serve, each segment served alone:
`promtool check metrics` says not a word on the text format, and the
strict OpenMetrics parser of prometheus_client takes the OpenMetrics form
whole. The example model with sparse rows, with every row, and under a
running writer (values moving between and during scrapes); the keyed test
model with keys of every type, strings to escape among them, and many
rows; the state model of the reader's tests with every state type; the
histograms test model (histograms and peaks in a scalar group, a dense
and a keyed table, a sum that wrapped). Where the model is YAML, every
counter of it is a family of the type it must have (a histogram
Prometheus' histogram, a peak or Gauge32 a gauge, others counters)."""
import contextlib
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
from expomodel import EXAMPLE, KEYED, TOP, families, load_model  # noqa: E402

from prometheus_client.openmetrics.parser import text_string_to_metric_families  # noqa: E402

HISTOGRAMS = os.path.join(TOP, "tests", "codegen", "models", "histograms.yaml")


def run(var, *args):
    r = subprocess.run([os.environ[var], *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


@contextlib.contextmanager
def filled(wd, rows):
    seg, prefix = str(wd / "ep.seg"), dpdkapp.unique_prefix("xn")
    try:
        run("FM_WRITER", "fill", seg, str(wd / "ep.json"), "--scale", "1", "--rows", rows,
            "--file-prefix", prefix)
    finally:
        shutil.rmtree(dpdkapp.runtime_dir(prefix), ignore_errors=True)
    yield seg


@contextlib.contextmanager
def live(wd):
    seg, prefix = str(wd / "ep.seg"), dpdkapp.unique_prefix("xn")
    w = subprocess.Popen([os.environ["FM_WRITER"], "live", seg, str(wd / "ep.json"),
                          "--file-prefix", prefix],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if w.stdout.readline().strip() != "ready":
            raise h.HarnessError("fm-writer live: %s" % w.stderr.read())
        yield seg
    finally:
        w.send_signal(signal.SIGTERM)
        w.communicate(timeout=60)
        shutil.rmtree(dpdkapp.runtime_dir(prefix), ignore_errors=True)


@contextlib.contextmanager
def made(wd, var, name, *args):
    seg = str(wd / name)
    run(var, seg, *args)
    yield seg


KEYED_ARGS = [
    "global.pkts=11", "tunnel/2001:db8::1,7", "pkts=9", "bytes=18446744073709551615",
    "tunnel/::ffff:10.1.2.3,8", "pkts=1", "peerQueue/10.0.0.1,3", "pkts=6", "backlog=2",
    "host/192.168.1.9", "sessions=4", "drops=3", "station/02:AB:cd:EF:00:02", "frames=4",
    "customer/a\\,b \"c\" \\\\d,2", "octets=5", "customer/{x=\"y\"} #,3", "octets=1",
    "@tunnel=100", "@peerQueue=20", "@host=20", "@station=20"]

STATES_ARGS = [
    "global", "operState=testing", "label=a \"quoted\"\\x5cword", "version=7",
    "peak=18446744073709551615", "started=-1500000000", "enabled=true", "addr=192.0.2.1",
    "mac=02:AB:00:00:00:01", "remote=2001:db8::7", "blob=00ff10", "uptime=12345", "temp=-40",
    "port.1", "name=ok", "!link=0", "port.2", "!torn", "tunnel/7", "link=down", "peer=unknown"]

SEGMENTS = {
    "example-sparse": (lambda wd: filled(wd, "sparse"), EXAMPLE),
    "example-all-rows": (lambda wd: filled(wd, "all"), EXAMPLE),
    "example-live": (live, EXAMPLE),
    "keyed": (lambda wd: made(wd, "MKKEYED", "kt.seg", *KEYED_ARGS), KEYED),
    "states": (lambda wd: made(wd, "MKSTATES", "vw.seg", *STATES_ARGS), None),
    "histograms": (lambda wd: made(wd, "MKHIST", "hg.seg", "--lcores"), HISTOGRAMS),
}


@pytest.mark.parametrize("name", sorted(SEGMENTS))
def test_promtool_silent_and_openmetrics_strict(tmp_path, name):
    make, model = SEGMENTS[name]
    with make(tmp_path) as seg:
        e = ps.Exporter([seg], str(tmp_path)).start()
        try:
            for _ in range(2 if name == "example-live" else 1):
                hdrs, text = e.scrape()
                assert hdrs["Content-Type"].startswith("text/plain; version=0.0.4")
                r = subprocess.run([ps.PROMTOOL, "check", "metrics"], input=text,
                                   capture_output=True, text=True, timeout=120)
                assert (r.returncode, r.stdout, r.stderr) == (0, "", ""), name
                hdrs, om = e.scrape(accept=ps.OPENMETRICS)
                assert hdrs["Content-Type"].startswith("application/openmetrics-text")
                fams = {f.name: f for f in text_string_to_metric_families(om)}
        finally:
            e.stop()
    assert e.proc.returncode == 0, e.log_text()
    print("%s: %d bytes of text, %d families" % (name, len(text), len(fams)))
    if model is None:
        return
    for metric, (typ, _) in families(load_model(model)).items():
        base = metric[:-len("_total")] if typ == "counter" else metric
        assert base in fams and fams[base].type == typ, (base, fams.get(base))
