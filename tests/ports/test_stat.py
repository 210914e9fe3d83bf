# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat --ports: dpdk-testpmd's ports as its telemetry reports
them, at the ifIndex values the agent serves them, as text, JSON and with
per-second rates; clear errors naming the path and the reason."""
import json
import os
import re
import signal
import subprocess

import pytest

import faketel

STAT = os.environ.get("FASTMIB_STAT", "")


def stat(*args, timeout=30):
    if not STAT:
        pytest.fail("FASTMIB_STAT not set: run through ctest")
    return subprocess.run([STAT] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=timeout)


def test_json_is_what_telemetry_reports(testpmd, telemetry):
    before = {p: telemetry.stats(p) for p in (0, 1)}
    r = stat("--ports", testpmd.dir, "--json")
    after = {p: telemetry.stats(p) for p in (0, 1)}
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    [src] = doc["sources"]
    assert src["path"] == testpmd.dir
    assert src["socket"] == testpmd.socket
    assert src["pid"] == telemetry.pid == testpmd.pid
    assert src["version"].startswith("DPDK ")
    assert [p["port"] for p in src["ports"]] == [0, 1]
    for p in src["ports"]:
        i = p["port"]
        info, link = telemetry.info(i), telemetry.link(i)
        assert p["ifindex"] == 1000 + i
        assert (p["name"], p["mtu"], p["mac"], p["promiscuous"]) == (
            info["name"], info["mtu"], info["mac_addr"], bool(info["promiscuous"]))
        assert (p["state"], p["started"], p["link_up"], p["speed_mbps"]) == (
            "up", True, True, link["speed"])
        for mine, theirs in (("rx_packets", "ipackets"), ("tx_packets", "opackets"),
                             ("rx_octets", "ibytes"), ("tx_octets", "obytes"),
                             ("rx_errors", "ierrors"), ("tx_errors", "oerrors"),
                             ("rx_missed", "imissed"), ("rx_nombuf", "rx_nombuf")):
            assert before[i][theirs] <= p[mine] <= after[i][theirs], mine
        assert "rates" not in p


def test_json_strings(testpmd):
    """--json-strings: the 64-bit counters (and the speed) as decimal
    strings whatever their value; port ids, ifIndex and MTU stay integers."""
    r = stat("--ports", testpmd.dir, "--json", "--json-strings")
    assert r.returncode == 0, r.stderr
    [src] = json.loads(r.stdout)["sources"]
    for p in src["ports"]:
        for k in ("rx_packets", "tx_packets", "rx_octets", "tx_octets", "rx_errors",
                  "rx_missed", "rx_nombuf", "tx_errors", "speed_mbps"):
            assert isinstance(p[k], str) and p[k] == str(int(p[k])), k
        assert p["speed_mbps"] == "10000"
        assert (p["ifindex"], p["mtu"]) == (1000 + p["port"], 1500)
    r = stat("--ports", testpmd.dir, "--json-strings")
    assert (r.returncode, r.stderr) == (2, "fastmib-stat: --json-strings goes with --json\n")


def test_text_table_and_bases(testpmd, tmp_path):
    # the socket itself, the runtime directory, and an explicit base
    for spec, base in ((testpmd.socket, 1000), (testpmd.dir + ",5000", 5000)):
        r = stat("--ports", spec)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[0].startswith(spec.split(",")[0] + ": pid %d, DPDK " % testpmd.pid)
        assert lines[1].split()[:5] == ["IFINDEX", "PORT", "NAME", "STATE", "SPEED"]
        rows = [ln.split() for ln in lines[2:]]
        assert [row[:5] for row in rows] == [
            [str(base), "0", "net_null0", "up", "10G"],
            [str(base + 1), "1", "net_null1", "up", "10G"]]
    # two sources: the next free ifIndex values, and names LABEL/NAME,
    # like the agent's
    r = stat("--ports", testpmd.dir, "--ports", testpmd.socket, "--ifindex-base", 300,
             "--state-dir", tmp_path, "--json")
    assert r.returncode == 0, r.stderr
    sources = json.loads(r.stdout)["sources"]
    assert [[p["ifindex"] for p in s["ports"]] for s in sources] == [[300, 301], [302, 303]]
    assert [[p["ifname"] for p in s["ports"]] for s in sources] == [
        ["%s/net_null0" % testpmd.prefix, "%s/net_null1" % testpmd.prefix],
        ["%s-2/net_null0" % testpmd.prefix, "%s-2/net_null1" % testpmd.prefix]]


def test_raw_and_human(testpmd):
    """--raw: the table alone, one space between cells; -H: packets with an
    SI prefix, octets in powers of 1024 (net_null counts no octets)."""
    r = stat("--ports", testpmd.socket, "--raw", "-H")
    assert r.returncode == 0, r.stderr
    header, *rows = r.stdout.splitlines()
    assert header == ("IFINDEX PORT NAME STATE SPEED RX-PACKETS TX-PACKETS RX-OCTETS "
                      "TX-OCTETS RX-ERRORS RX-MISSED RX-NOMBUF TX-ERRORS")
    assert [row.split(" ")[:5] for row in rows] == [
        ["1000", "0", "net_null0", "up", "10G"], ["1001", "1", "net_null1", "up", "10G"]]
    for row in rows:
        cells = row.split(" ")
        assert len(cells) == 13, row
        assert all(re.fullmatch(r"\d+|\d+\.\d[kMGTPE]|\d+[kMGTPE]", c) for c in cells[5:7]), row
        assert cells[7:9] == ["0B", "0B"], row
    r = stat("--ports", testpmd.socket, "--raw", "--json")
    assert (r.returncode, r.stderr) == (
        2, "fastmib-stat: --raw is for the ports as text, not with --json\n")


def test_watch_shows_rates(testpmd):
    p = subprocess.Popen([STAT, "--ports", testpmd.dir, "--json", "--watch", "0.3"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(p.stdout.readline())["sources"][0]
        assert all("rates" not in port for port in first["ports"])
        # forwarding between the two ports: packets in and out (on a busy
        # machine the forwarding thread may sit out a period: a few tries)
        for _ in range(20):
            later = json.loads(p.stdout.readline())["sources"][0]
            rates = [port["rates"] for port in later["ports"]]
            assert all(r["rx_bits"] == 0 == r["tx_bits"] for r in rates)  # no octets
            if all(r["rx_packets"] > 0 and r["tx_packets"] > 0 for r in rates):
                break
        else:
            pytest.fail("no traffic seen in 20 periods: %s" % rates)
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err


def test_errors_name_the_path_and_the_reason(tmp_path, testpmd):
    missing = tmp_path / "no-such-app"
    r = stat("--ports", missing)
    assert r.returncode == 1
    assert r.stderr.strip() == (
        "fastmib-stat: %s/dpdk_telemetry.v2: connect: No such file or directory "
        "(no DPDK application with telemetry there yet)" % missing)
    plain = tmp_path / "dpdk_telemetry.v2"
    plain.write_text("not a socket")
    r = stat("--ports", plain)
    assert r.returncode == 1
    assert r.stderr.strip() == (
        "fastmib-stat: %s: connect: Socket operation on non-socket (neither a "
        "telemetry socket nor a runtime directory)" % plain)
    # one good source and one bad: both reported, status 1
    r = stat("--ports", testpmd.dir, "--ports", missing)
    assert r.returncode == 1
    assert "net_null1" in r.stdout and str(missing) in r.stderr
    for args in (["--ports"], ["--ports", "x,0"], ["--ports", "x", "SEGMENT"],
                 ["--ports", "x", "--ifindex-base", "0"], ["--ports", "x", "--watch", "-1"]):
        r = stat(*args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("fastmib-stat: "), args


def test_a_list_that_is_no_list_of_ports(fake_app):
    """/ethdev/list answered with something else than port ids: the
    command is named, the application's other answers are not mistaken for
    it, and a list that becomes right again is read at once."""
    app = fake_app(faketel.null_ports(2))
    app.raw["/ethdev/list"] = json.dumps({"/ethdev/list": ["zero", "one"]})
    r = stat("--ports", app.dir, "--json")
    assert r.returncode == 1
    assert r.stderr.strip() == (
        "fastmib-stat: %s: /ethdev/list: not a list of port ids" % app.socket)
    del app.raw["/ethdev/list"]
    r = stat("--ports", app.dir, "--json")
    assert r.returncode == 0, r.stderr
    ports = json.loads(r.stdout)["sources"][0]["ports"]
    assert [p["name"] for p in ports] == ["net_null0", "net_null1"]


def test_a_killed_application_is_reported(tmp_path):
    import dpdkapp
    app = dpdkapp.Testpmd(log_dir=str(tmp_path)).start()
    try:
        app.kill()
        r = stat("--ports", app.dir)
        assert r.returncode == 1
        assert r.stderr.strip() == (
            "fastmib-stat: %s: connect: Connection refused (the socket is left over: "
            "the application is not running)" % app.socket)
    finally:
        app.stop()
    assert not os.path.exists(app.dir)


def test_same_ifindex_as_the_agent(tmp_path, fake_app):
    """Two synthetic applications with 101 and 60 ports: fastmib-stat --ports
    shows every port at the ifIndex and ifName the agent serves it, both
    from the agent's state directory and, with none, as a fresh agent would
    give them."""
    from conftest import PortsServer

    a = fake_app(faketel.null_ports(101))
    b = fake_app(faketel.null_ports(60, prefix="net_tap"))
    # the synthetic applications answer from Python: a wait of 1 s for each
    srv = PortsServer("agentx", [a.dir, b.dir], timeout_ms=1000)
    try:
        srv.start(wait_ifindex=1160, timeout=30)
        served = srv.names()
        assert len(served) == 161 and sorted(served) == list(range(1000, 1161))
        for state in (srv.state_dir, str(tmp_path)):
            r = stat("--ports", a.dir, "--ports", b.dir, "--state-dir", state, "--json")
            assert r.returncode == 0, r.stderr
            shown = {p["ifindex"]: p["ifname"] for s in json.loads(r.stdout)["sources"]
                     for p in s["ports"]}
            assert shown == served
        # both applications were there when the agent started: each took a
        # block, in the order of the sources
        la, lb = (os.path.basename(x) for x in (a.dir, b.dir))
        assert served == dict([(1000 + i, "%s/net_null%d" % (la, i)) for i in range(101)] +
                              [(1101 + i, "%s/net_tap%d" % (lb, i)) for i in range(60)])
        # fastmib-stat never writes the state
        assert os.listdir(tmp_path) == []
    finally:
        srv.close()
