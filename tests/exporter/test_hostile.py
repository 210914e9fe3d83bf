# SPDX-License-Identifier: BSD-3-Clause
"""Every state type, and segments a hostile hand wrote into.

The state model of the reader's tests (tests/fastpath/states_model.c,
prefix vw) filled by mkstates: each type in its family (gauge, stateset,
info) with its exact value; a value the model does not allow, or a row
whose setter died inside its section, is left out, never shown torn or
wrong. Key records rewritten (mkkeyed's `!len`, `!type`, `!torn`, `!byte`)
and a damaged change log: those rows are absent, the others there; both
formats still pass promtool and the strict OpenMetrics parser, and the
exporter lives."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import promserver as ps  # noqa: E402

from prometheus_client.openmetrics.parser import text_string_to_metric_families  # noqa: E402


def make(tool, path, args):
    r = subprocess.run([os.environ[tool], path, *args], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return path


def both(exporter):
    """The text scrape (promtool silent on it) and the OpenMetrics families."""
    _, text = exporter.scrape()
    r = subprocess.run([ps.PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    _, om = exporter.scrape(accept=ps.OPENMETRICS)
    return text, {f.name: f for f in text_string_to_metric_families(om)}


def samples(fam, **drop):
    return {tuple(sorted((k, v) for k, v in s.labels.items() if k not in drop)): s.value
            for s in fam.samples}


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    wd = tmp_path_factory.mktemp("states")
    seg = make("MKSTATES", str(wd / "vw.seg"), [
        "global", "operState=testing", "label=a \"quoted\"\\x5cword", "version=7",
        "peak=18446744073709551615", "started=-1500000000", "enabled=true",
        "addr=192.0.2.1", "mac=02:AB:00:00:00:01", "remote=2001:db8::7", "blob=00ff10",
        "uptime=12345", "temp=-40",
        "port.1", "name=ok", "!link=0", "port.2", "!torn",
        "tunnel/7", "link=down", "peer=unknown"])
    e = ps.Exporter([seg], str(wd)).start()
    try:
        yield both(e)
    finally:
        e.stop()


def test_every_state_type(states):
    _, f = states
    assert (f["vw_global_oper_state"].type, samples(f["vw_global_oper_state"])) == (
        "stateset", {(("vw_global_oper_state", "up"),): 0.0,
                     (("vw_global_oper_state", "down"),): 0.0,
                     (("vw_global_oper_state", "testing"),): 1.0})
    info = {"label": 'a "quoted"\\word', "addr": "192.0.2.1", "mac": "02:ab:00:00:00:01",
            "remote": "2001:db8::7", "blob": "00ff10"}
    for name, value in info.items():
        fam = f["vw_global_" + name]
        assert fam.type == "info"
        assert samples(fam) == {((name, value),): 1.0}, name
    gauges = {"version": 7, "peak": 18446744073709551615, "enabled": 1,
              "uptime": 123.45, "temp": -40, "started": -1.5}
    for name, value in gauges.items():
        fam = f["vw_global_" + name]
        assert fam.type == "gauge" and samples(fam) == {(): value}, name
    # a timestamp never set: 0
    assert samples(f["vw_global_since"]) == {(): 0.0}
    # a keyed row's states by its key; an unknown address an empty label
    assert samples(f["vw_tunnel_peer"]) == {(("peer", ""), ("teid", "7")): 1.0}
    assert samples(f["vw_tunnel_link"])[(("teid", "7"), ("vw_tunnel_link", "down"))] == 1.0


def test_exact_text(states):
    text, _ = states
    assert "vw_global_peak 18446744073709551615\n" in text
    assert "vw_global_started -1.5\n" in text
    assert "vw_global_uptime 123.45\n" in text
    assert 'vw_global_label_info{label="a \\"quoted\\"\\\\word"} 1\n' in text


def test_disallowed_and_torn_states_left_out(states):
    """mkstates rows are 0-based: port.1 is port_id 2, port.2 port_id 3."""
    _, f = states
    # port 2: its link 0 is no value of the enum: left out, its name shown
    assert samples(f["vw_port_name"])[(("name", "ok"), ("port_id", "2"))] == 1.0
    links = {dict(k)["port_id"] for k in samples(f["vw_port_link"])}
    assert "2" not in links and "3" not in links
    # port 3: its record torn: none of its states
    for fam in ("vw_port_speed", "vw_port_peer", "vw_port_name"):
        assert "3" not in {dict(k)["port_id"] for k in samples(f[fam])}, fam
    # its counters are there: a torn state record hides states only
    assert (("port_id", "3"),) in samples(f["vw_port_pkts"])


@pytest.mark.parametrize("how, target, gone", [
    ("len", "tunnel/10.0.0.2,1", ("10.0.0.2", "1")),
    ("type", "tunnel/9.0.0.1,1", ("9.0.0.1", "1")),
    ("torn", "tunnel/::1,2", ("::1", "2")),
])
def test_hostile_key_records(tmp_path, how, target, gone):
    rows = ["tunnel/2001:db8::1,7", "pkts=9", "tunnel/10.0.0.2,1", "pkts=20",
            "tunnel/10.0.0.1,3735928559", "pkts=5", "tunnel/9.0.0.1,1", "pkts=1",
            "tunnel/::1,2", "pkts=30", "customer/eth0,1", "octets=1",
            "customer/eth1,1", "octets=2"]
    seg = make("MKKEYED", str(tmp_path / "kt.seg"),
               rows + ["!" + how, target, "!log", "tunnel", "!byte", "customer/eth0,1"])
    e = ps.Exporter([seg], str(tmp_path)).start()
    try:
        _, f = both(e)
        tunnels = {(dict(k)["peer"], dict(k)["teid"]) for k in samples(f["kt_tunnel_pkts"])}
        assert gone not in tunnels and len(tunnels) == 4 and ("10.0.0.1", "3735928559") in tunnels
        customers = {dict(k)["customer_name"] for k in samples(f["kt_customer_octets"])}
        assert customers == {"eth1"}
        assert e.proc.poll() is None
    finally:
        e.stop()
