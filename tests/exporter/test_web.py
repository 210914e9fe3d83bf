# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-exporter's web side: TLS and basic authentication from an
exporter-toolkit web configuration (a real Prometheus scrapes through both;
bcrypt hashes made by python3-bcrypt, not by the library the exporter
checks them with), bad configurations refused, and clients that never
finish a request, never read an answer, send oversized headers or hold a
hundred connections at once, while another client's scrape completes.
Segments replaced, removed and truncated under the exporter."""
import http.client
import os
import socket
import subprocess
import sys
import re
import time

import bcrypt
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import promserver as ps  # noqa: E402
import snmpharness as h  # noqa: E402

import base64  # noqa: E402


def tool(var):
    path = os.environ.get(var)
    assert path, "%s not set: run through ctest" % var
    return path


def mkkeyed(path, *args):
    r = subprocess.run([tool("MKKEYED"), path, *args], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr


def basic(user, password):
    return {"Authorization": "Basic " + base64.b64encode(
        ("%s:%s" % (user, password)).encode()).decode()}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("web")


@pytest.fixture(scope="module")
def segment(workdir):
    seg = str(workdir / "kt.seg")
    mkkeyed(seg, "global.pkts=11", "station/02:00:00:00:00:01", "frames=3")
    return seg


@pytest.fixture(scope="module")
def webcfg(workdir):
    """A certificate for 127.0.0.1, its key, and a web configuration naming
    them relative to its own directory, with two users: a $2b$ and a $2y$
    hash (the toolkit's htpasswd form) of python3-bcrypt."""
    d = workdir / "tls"
    d.mkdir()
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-keyout", str(d / "key.pem"), "-out", str(d / "cert.pem"),
                        "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    alice = bcrypt.hashpw(b"wonder land", bcrypt.gensalt(rounds=6)).decode()
    bob = "$2y$" + bcrypt.hashpw(b"b0b", bcrypt.gensalt(rounds=6)).decode()[4:]
    cfg = d / "web.yml"
    cfg.write_text("tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
                   "basic_auth_users:\n  alice: %s\n  bob: '%s'\n" % (alice, bob))
    return str(cfg), str(d / "cert.pem")


@pytest.fixture(scope="module")
def secured(workdir, segment, webcfg):
    cfg, cert = webcfg
    e = ps.Exporter([segment], str(workdir), args=["--web.config.file", cfg],
                    scheme="https", context=ps.tls_context(cert)).start()
    try:
        yield e
    finally:
        e.stop()


def test_right_password(secured):
    for user, pw in (("alice", "wonder land"), ("bob", "b0b")):
        _, text = secured.scrape(headers=basic(user, pw))
        assert "kt_global_pkts_total 11\n" in text


def test_wrong_password_401(secured):
    for hd in (basic("alice", "wonder lan"), basic("bob", "wonder land"),
               basic("carol", "b0b"), {}):
        for path in ("/metrics", "/", "/nope"):
            status, hdrs, body = ps.get(secured.url(path), hd, secured.context)
            assert status == 401, (hd, path)
            assert hdrs.get("WWW-Authenticate", "").startswith("Basic realm="), hdrs
            assert "kt_" not in body


def test_plain_http_refused_on_tls(secured):
    """No answer in the clear: the request is no TLS handshake."""
    c = http.client.HTTPConnection("127.0.0.1", secured.port, timeout=30)
    with pytest.raises((OSError, http.client.HTTPException)):
        c.request("GET", "/metrics", headers=basic("alice", "wonder land"))
        c.getresponse().read()
    c.close()


def test_prometheus_scrapes_through_tls_and_auth(workdir, secured, webcfg):
    """A real Prometheus: with the CA and the password it stores the
    values; with a wrong password its target is down with a 401."""
    _, cert = webcfg
    tls = {"scheme": "https", "tls_config": {"ca_file": cert}}
    good = ps.Prometheus(str(workdir), [secured.address],
                         dict(tls, basic_auth={"username": "alice",
                                               "password": "wonder land"})).start()
    bad = ps.Prometheus(str(workdir), [secured.address],
                        dict(tls, basic_auth={"username": "alice", "password": "x"})).start()
    try:
        assert good.wait_scraped("kt_station_frames_total") == {
            frozenset({("mac", "02:00:00:00:00:01")}): "3"}

        def down():
            t = bad.targets()
            return t and t[0]["health"] == "down" and "401" in t[0]["lastError"] and t[0]
        h.wait_for(down, 60, "the target with a wrong password to be down")
        assert bad.query("up") == {frozenset(): "0"}
    finally:
        good.stop()
        bad.stop()


@pytest.mark.parametrize("text,why", [
    ("tls_server_config:\n  cert_file: c.pem\n", "needs cert_file and key_file"),
    ("tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n  client_ca_file: x\n",
     "client_ca_file is not supported"),
    ("basic_auth_users:\n  alice: plain\n", "alice: not a bcrypt hash"),
    ("http_server_config:\n  http2: true\n", "http_server_config is not supported"),
    ("tls_server_config:\n  cert_file: nothere.pem\n  key_file: k.pem\n", "nothere.pem"),
    ("basic_auth_users: [\n", "web.yml:"),
])
def test_bad_web_config_refused(workdir, segment, text, why):
    cfg = workdir / "web.yml"
    cfg.write_text(text)
    r = subprocess.run([tool("FASTMIB_EXPORTER"), "--web.config.file", str(cfg),
                        "--web.listen-address", "127.0.0.1:%d" % ps.free_tcp_port(), segment],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and why in r.stderr, r.stderr


# ---- clients that misbehave ----

@pytest.fixture(scope="module")
def big(workdir):
    """A segment whose exposition is megabytes: 20000 tunnels."""
    seg = str(workdir / "big.seg")
    mkkeyed(seg, "@tunnel=20000", "global.pkts=7")
    return seg


@pytest.fixture(scope="module")
def plain(workdir, big):
    e = ps.Exporter([big], str(workdir)).start()
    try:
        yield e
    finally:
        e.stop()


def full_scrape_ok(exporter):
    _, text = exporter.scrape()
    assert 'kt_tunnel_pkts_total{peer="10.0.78.31",teid="19999"} 20000\n' in text
    assert text.count("\nkt_tunnel_bytes_total{") == 20000
    return text


def test_misbehaving_clients_never_stall_a_scrape(plain):
    """A hundred connections held open (half with a request never
    finished), a client that asks for the metrics and never reads them,
    one that sends 64 KiB of headers: meanwhile a scrape completes whole."""
    held = []
    try:
        for i in range(100):
            s = socket.create_connection(("127.0.0.1", plain.port), timeout=30)
            if i % 2:
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            held.append(s)
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", plain.port))
        stuck.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        held.append(stuck)
        time.sleep(0.5)  # it has started answering the client that never reads
        huge = socket.create_connection(("127.0.0.1", plain.port), timeout=30)
        huge.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 +
                     b"\r\n\r\n")
        status = huge.recv(64)
        huge.close()
        assert status.startswith(b"HTTP/1.1 431 "), status
        for _ in range(3):
            full_scrape_ok(plain)
    finally:
        for s in held:
            s.close()
    full_scrape_ok(plain)


def test_concurrent_scrapes_agree(plain):
    """Four scrapes at once, each whole and each the same (no writer runs)."""
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        texts = list(ex.map(lambda _: full_scrape_ok(plain), range(4)))
    assert all(t == texts[0] for t in texts)


# ---- segments replaced, removed, truncated ----

def test_segment_replaced_removed_truncated(workdir):
    seg = str(workdir / "r.seg")
    mkkeyed(seg, "global.pkts=1")
    e = ps.Exporter([seg, str(workdir / "absent.seg")], str(workdir)).start()
    try:
        def value():
            _, text = e.scrape()
            for line in text.splitlines():
                if line.startswith("kt_global_pkts_total "):
                    return line.split()[1]
            return None
        assert value() == "1"
        _, text = e.scrape()
        assert 'fastmib_segment_served{segment="%s",module=""} 0\n' % (
            str(workdir / "absent.seg")) in text
        mkkeyed(seg + ".new", "global.pkts=2")
        os.rename(seg + ".new", seg)  # replaced atomically
        h.wait_for(lambda: value() == "2", 30, "the replacement to be exported")
        with open(seg, "r+b") as f:  # truncated in place: refused, never a crash
            f.truncate(4096)
        h.wait_for(lambda: value() is None, 30, "the truncated segment to be let go")
        os.unlink(seg)
        time.sleep(1.5)
        assert value() is None
        mkkeyed(seg, "global.pkts=3")
        h.wait_for(lambda: value() == "3", 30, "the new segment to be exported")
        assert e.proc.poll() is None
        log = e.log_text()
        assert "segment replaced, removed or truncated" in log
        assert log.count("absent.seg: segment absent, waiting for it") == 1
    finally:
        e.stop()


# ---- segments from -c files, as fastmib-agentx takes them ----

def test_segments_from_config_files(workdir):
    """The agent's own file: its segment lines (a quoted path with a space,
    a relative one), Net-SNMP's and the agent's other lines left alone; two
    files as one comma-separated -c; a ports line said to be not exported."""
    d = workdir / "conf"
    d.mkdir()
    spaced = str(d / "a b.seg")
    mkkeyed(spaced, "global.pkts=21")
    first = d / "agentx.conf"
    first.write_text("# the agent's file\n[snmp] persistentDir /nonexistent\n"
                     "rocommunity public 127.0.0.1\nagentxSocket /tmp/none.sock\n"
                     "segment \"%s\"\nports /var/run/dpdk/rte\n"
                     "checkPeriod 1\n" % spaced)
    second = d / "more.conf"
    second.write_text("segment   rel.seg\n")
    e = ps.Exporter([], str(workdir), args=["-c", "%s,%s" % (first, second)],
                    cwd=str(d)).start()
    try:
        _, text = e.scrape()
        assert 'fastmib_segment_served{segment="%s",module="KEYED-TEST-MIB"} 1\n' % spaced \
            in text
        assert 'fastmib_segment_served{segment="%s",module=""} 0\n' % (d / "rel.seg") in text
        assert "kt_global_pkts_total 21\n" in text
        # the ports line is taken: an application not running has no rows
        assert "and 1 ports source(s)" in e.log_text()
        assert "ifHCInOctets" not in text
    finally:
        e.stop()
    bad = d / "bad.conf"
    bad.write_text("\nsegment a b\n")
    r = subprocess.run([tool("FASTMIB_EXPORTER"), "-c", str(bad)], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 1
    assert "%s: line 2: segment takes one value, not 'a b'" % bad in r.stderr


def test_head_and_duplicate_prefix(workdir, segment):
    """HEAD answers the headers of a scrape; a second segment of the same
    model cannot be exported beside the first (its families would be the
    same): it is listed as not served, the first is exported."""
    second = str(workdir / "kt2.seg")
    mkkeyed(second, "global.pkts=99")
    e = ps.Exporter([segment, second], str(workdir)).start()
    try:
        c = http.client.HTTPConnection("127.0.0.1", e.port, timeout=30)
        c.request("HEAD", "/metrics", headers={"Accept": ps.OPENMETRICS})
        r = c.getresponse()
        assert r.status == 200 and r.read() == b""
        assert r.getheader("Content-Type").startswith("application/openmetrics-text")
        c.close()
        _, text = e.scrape()
        assert 'fastmib_segment_served{segment="%s",module="KEYED-TEST-MIB"} 1\n' % segment \
            in text
        assert 'fastmib_segment_served{segment="%s",module="KEYED-TEST-MIB"} 0\n' % second \
            in text
        assert "kt_global_pkts_total 11\n" in text and " 99\n" not in text
        assert text.count("# TYPE kt_global_pkts_total counter\n") == 1
    finally:
        e.stop()


def test_scrapes_while_the_segment_is_replaced(workdir):
    """Four clients scrape in a loop while the segment is replaced by
    rename() again and again: every scrape is whole and reads one
    generation (its scalar and its row agree), and the exporter lives."""
    import concurrent.futures
    import threading
    seg = str(workdir / "gen.seg")
    for k in range(6):
        mkkeyed("%s.%d" % (seg, k), "global.pkts=%d" % (k + 1),
                "station/02:00:00:00:00:01", "frames=%d" % (k + 1), "@tunnel=3000")
    os.rename(seg + ".0", seg)
    e = ps.Exporter([seg], str(workdir)).start()
    stop = threading.Event()
    seen = set()

    def scraper():
        n = 0
        while not stop.is_set() or n == 0:
            _, text = e.scrape()
            assert text.count("\nkt_tunnel_pkts_total{") == 3000, "a scrape cut short"
            pkts = re.search(r"^kt_global_pkts_total (\d+)$", text, re.M).group(1)
            frames = re.search(r'^kt_station_frames_total\{mac="02:00:00:00:00:01"\} (\d+)$',
                               text, re.M).group(1)
            assert pkts == frames, "two generations in one scrape"
            seen.add(pkts)
            n += 1
        return n
    try:
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            futs = [ex.submit(scraper) for _ in range(4)]
            for k in range(1, 6):
                h.wait_for(lambda: str(k) in seen or any(f.done() for f in futs), 60,
                           "generation %d to be scraped" % k)
                os.rename("%s.%d" % (seg, k), seg)
            h.wait_for(lambda: "6" in seen or any(f.done() for f in futs), 60,
                       "the last generation to be scraped")
            stop.set()
            assert all(f.result() > 0 for f in futs)
        assert seen == {str(k) for k in range(1, 7)}
        assert e.proc.poll() is None
    finally:
        stop.set()
        e.stop()
