# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-exporter's push (--push.url): Prometheus remote write 1.0.

The example model filled by fm-writer is pushed every 200 ms:
  - to the real Prometheus (--web.enable-remote-write-receiver): PromQL
    gives every series of a scrape with the scrape's value, each counter
    fm-writer made exact, a histogram's buckets; every series of one table
    stamped with the one time of its reading;
  - to a receiver absent at the start: one line as the outage starts, one
    as it ends; batches older than --push.max-age dropped and counted, the
    counters consistent (read = sent + dropped + queued), samples stamped
    when read, before the receiver took them;
  - to a receiver answering 500 three times then 204: the same request
    sent four times, three failures counted; to one answering 400: each
    batch sent once, dropped and counted, one log line;
  - to a receiver that accepts and never answers: scrapes answer whole
    meanwhile, the queue stays within --push.queue-size and the memory
    bounded, the request timeout fires;
  - a read of the example model with every row (over 130,000 samples) as
    requests of FME_RW_MAX_SAMPLES samples: together the scrape's series,
    each once, with its value.
Request bodies are decoded with python3-snappy and python3-protobuf (the
messages of remote.proto, described here on their own)."""
import base64
import http.server
import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest
import snappy
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import promserver as ps  # noqa: E402
import snmpharness as h  # noqa: E402
from expomodel import (EXAMPLE, example_want, families, load_model, parse_text,  # noqa: E402
                       stored_names)
from segments import fill_example, tool  # noqa: E402

INTERVAL = "200ms"
SELF = "fastmib_exporter_push_"


def write_request_class():
    """WriteRequest of remote write 1.0, from its field numbers."""
    F = descriptor_pb2.FieldDescriptorProto
    fd = descriptor_pb2.FileDescriptorProto(name="rw_test.proto", package="rwtest",
                                            syntax="proto3")

    def msg(name, fields):
        m = fd.message_type.add(name=name)
        for fname, num, typ, label, tname in fields:
            f = m.field.add(name=fname, number=num, type=typ, label=label)
            if tname:
                f.type_name = ".rwtest." + tname
    rep, opt = F.LABEL_REPEATED, F.LABEL_OPTIONAL
    msg("WriteRequest", [("timeseries", 1, F.TYPE_MESSAGE, rep, "TimeSeries")])
    msg("TimeSeries", [("labels", 1, F.TYPE_MESSAGE, rep, "Label"),
                       ("samples", 2, F.TYPE_MESSAGE, rep, "Sample")])
    msg("Label", [("name", 1, F.TYPE_STRING, opt, None), ("value", 2, F.TYPE_STRING, opt, None)])
    msg("Sample", [("value", 1, F.TYPE_DOUBLE, opt, None),
                   ("timestamp", 2, F.TYPE_INT64, opt, None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return message_factory.MessageFactory(pool).GetPrototype(
        pool.FindMessageTypeByName("rwtest.WriteRequest"))


WriteRequest = write_request_class()


def decode(body):
    """[(labels as a list of (name, value) in their order, [(value, ts)])]"""
    wr = WriteRequest()
    wr.ParseFromString(snappy.uncompress(body))
    return [([(lb.name, lb.value) for lb in ts.labels],
             [(s.value, s.timestamp) for s in ts.samples]) for ts in wr.timeseries]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("push")


@pytest.fixture(scope="module")
def example_segment(workdir):
    """The example model filled by fm-writer; what SNMP must serve of it."""
    return fill_example(workdir, "ep")


class Running:
    """An exporter pushing to `url`, stopped at the end of a with block."""

    def __init__(self, workdir, seg, url, *args):
        self.e = ps.Exporter([seg], str(workdir), args=["--push.url", url,
                                                        "--push.interval", INTERVAL, *args])

    def __enter__(self):
        self.e.start()
        return self.e

    def __exit__(self, *exc):
        self.e.stop()


def metrics(e, timeout=30):
    """{(name, labels): value string} of one whole scrape (a hang guard)."""
    status, _, body = ps.get(e.url(), timeout=timeout)
    assert status == 200
    return parse_text(body)


def stat(m, name, reason=None):
    return int(m[(SELF + name, (("reason", reason),) if reason else ())])


def dropped(m):
    return sum(stat(m, "samples_dropped_total", r) for r in ("max_age", "queue_full", "rejected"))


def consistent(m):
    """Every sample read is sent, dropped or queued: one copy of the counters."""
    assert stat(m, "samples_read_total") == (stat(m, "samples_sent_total") + dropped(m) +
                                             stat(m, "queue_samples")), m


def log_lines(e, pattern):
    return [ln for ln in e.log_text().splitlines() if re.search(pattern, ln)]


OUTAGE_START = r'level=warn msg="push to \S+ failing: '
OUTAGE_END = r'level=info msg="push to \S+: receiver back after '


# ---- (a) the real Prometheus ----

def stored_series(prom):
    """{(name, labels sorted): float} of every latest series Prometheus has."""
    out = {}
    for r in prom.api("query", query='{__name__=~".+"}')["result"]:
        m = dict(r["metric"])
        name = m.pop("__name__")
        out[(name, tuple(sorted(m.items())))] = float(r["value"][1])
    return out


def samples_of(prom, q):
    """[(ts ms, value)] of a range query's only series."""
    res = prom.api("query", query=q)["result"]
    assert len(res) == 1, res
    return [(round(float(t) * 1000), float(v)) for t, v in res[0]["values"]]


def test_prometheus_stores_the_scrape(workdir, example_segment):
    seg, exp = example_segment
    prom = ps.Prometheus(str(workdir), [], remote_write=True).start()
    try:
        t0 = int(time.time() * 1000)
        with Running(workdir, seg, prom.write_url) as e:
            h.wait_for(lambda: len(prom.query("count_over_time(ep_global_rx_pkts_total[1h])"))
                       and int(list(prom.query(
                           "count_over_time(ep_global_rx_pkts_total[1h])").values())[0]) >= 3,
                       60, "three pushes stored")
            scraped = metrics(e)
            got = stored_series(prom)
            m = metrics(e)
            t1 = int(time.time() * 1000)
            # every series of a scrape, with its value; the push's own
            # counters move between reads: there, names and labels only
            want = {k: float(v) for k, v in scraped.items()}
            assert {k for k in got} == set(want)
            assert {k: v for k, v in got.items() if not k[0].startswith(SELF)} == \
                {k: v for k, v in want.items() if not k[0].startswith(SELF)}
            # each counter fm-writer made, exact (below 2^53), histograms too
            model = load_model(EXAMPLE)
            ex = example_want(model, exp)
            hist = 0
            for family, (typ, _) in families(model).items():
                for metric in stored_names(family, typ):
                    have = {k[1]: v for k, v in got.items() if k[0] == metric}
                    rows = ex.get(metric, {})
                    assert have == {tuple(sorted(k)): float(v) for k, v in rows.items()}, metric
                    assert all(v < 2 ** 53 for v in rows.values())
                    hist += metric.endswith("_bucket") and len(rows) > 0
            assert hist >= 1
            assert stat(m, "failures_total") == 0 and stat(m, "samples_sent_total") > 0
            consistent(m)
            # one stamp per reading of a table: every row of a table has the
            # same times; each within the run, increasing
            rows = [k for k in got if k[0] == "ep_port_rx_pkts_total"]
            assert len(rows) >= 2
            stamps = []
            for name, labels in rows:
                sel = ",".join('%s="%s"' % kv for kv in labels)
                stamps.append([t for t, _ in samples_of(prom, "%s{%s}[1h]" % (name, sel))])
            assert all(s == stamps[0] for s in stamps), stamps
            assert stamps[0] == sorted(set(stamps[0])) and len(stamps[0]) >= 3
            assert t0 <= stamps[0][0] and stamps[0][-1] <= t1
    finally:
        prom.stop()


# ---- (b) a receiver absent at first ----

def test_outage_then_receiver(workdir, example_segment):
    seg, _ = example_segment
    port = ps.free_tcp_port()
    url = "http://127.0.0.1:%d/api/v1/write" % port
    with Running(workdir, seg, url, "--push.max-age", "2s") as e:
        # nobody listens: batches queue, the older than 2 s dropped
        h.wait_for(lambda: stat(metrics(e), "samples_dropped_total", "max_age") > 0, 60,
                   "batches older than max-age dropped")
        m = metrics(e)
        consistent(m)
        assert stat(m, "failures_total") >= 2 and stat(m, "samples_sent_total") == 0
        start = log_lines(e, OUTAGE_START)
        assert len(start) == 1 and "onnect" in start[0], e.log_text()
        prom = ps.Prometheus(str(workdir), [], remote_write=True, port=port).start()
        try:
            h.wait_for(lambda: log_lines(e, OUTAGE_END), 60, "the outage to end")
            h.wait_for(lambda: prom.query("ep_global_rx_pkts_total"), 60, "samples stored")
            m = metrics(e)
            consistent(m)
            assert len(log_lines(e, OUTAGE_START)) == 1
            end = log_lines(e, OUTAGE_END)
            assert len(end) == 1
            # the line says what the outage dropped: all there is
            mm = re.search(r"(\d+) batches \((\d+) samples\) dropped", end[0])
            assert int(mm.group(2)) == dropped(m) > 0
            assert int(mm.group(1)) == sum(stat(m, "batches_dropped_total", r)
                                          for r in ("max_age", "queue_full", "rejected"))
            assert stat(m, "samples_dropped_total", "max_age") == dropped(m)
            # batches queued in the outage were sent after it, stamped when
            # they were read: before the line that says it ended
            ts = re.match(r"ts=(\S+)Z", end[0]).group(1)
            end_ms = int(time.mktime(time.strptime(ts[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 -
                         time.timezone * 1000 + int(ts[20:23]))
            got = samples_of(prom, "ep_global_rx_pkts_total[1h]")
            assert len([t for t, _ in got if t < end_ms]) >= 2, (got, end_ms)
        finally:
            prom.stop()


# ---- (c) receivers in Python: 500 then 204; 400 ----

class Receiver:
    """An HTTP receiver answering each POST with the next status of
    `statuses` (the last one from then on), keeping what it was sent."""

    def __init__(self, statuses):
        self.statuses = list(statuses)
        self.got = []  # (headers, body)
        self.lock = threading.Lock()
        rcv = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with rcv.lock:
                    n = len(rcv.got)
                    rcv.got.append((dict(self.headers), body))
                code = rcv.statuses[min(n, len(rcv.statuses) - 1)]
                text = b"" if code == 204 else b"no thanks\n"
                self.send_response(code)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/api/v1/write" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def count(self):
        with self.lock:
            return len(self.got)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def test_500_then_204(workdir, example_segment):
    seg, _ = example_segment
    r = Receiver([500, 500, 500, 204])
    # a user and password in the URL: sent (basic), never logged
    url = r.url.replace("http://", "http://pusher:s3cret@")
    try:
        with Running(workdir, seg, url) as e:
            h.wait_for(lambda: r.count() >= 6, 60, "six requests")
            m = metrics(e)
            consistent(m)
            assert stat(m, "failures_total") == 3
            assert dropped(m) == 0
            bodies = [b for _, b in r.got]
            # the first batch sent four times, the same bytes; then others
            assert bodies[0] == bodies[1] == bodies[2] == bodies[3] != bodies[4]
            start, end = log_lines(e, OUTAGE_START), log_lines(e, OUTAGE_END)
            assert len(start) == 1 and "HTTP 500: no thanks" in start[0]
            assert len(end) == 1 and "0 batches (0 samples) dropped" in end[0]
            hd = r.got[3][0]
            assert hd["Authorization"] == "Basic " + base64.b64encode(b"pusher:s3cret").decode()
            assert "s3cret" not in e.log_text() and "pusher" not in e.log_text()
            assert r.url in start[0]
            assert hd["Content-Encoding"] == "snappy"
            assert hd["Content-Type"] == "application/x-protobuf"
            assert hd["X-Prometheus-Remote-Write-Version"] == "0.1.0"
            series = decode(bodies[3])
            # labels sorted by name, __name__ among them; one sample each
            for labels, samples in series:
                names = [n for n, _ in labels]
                assert names == sorted(names) and "__name__" in names, labels
                assert len(samples) == 1
            names = {dict(lb)["__name__"] for lb, _ in series}
            assert {"ep_global_rx_pkts_total", "ep_global_burst_time_bucket",
                    "fastmib_segment_served", SELF + "samples_sent_total"} <= names
    finally:
        r.stop()


def test_400_dropped_not_retried(workdir, example_segment):
    seg, _ = example_segment
    r = Receiver([400])
    try:
        with Running(workdir, seg, r.url) as e:
            h.wait_for(lambda: r.count() >= 8, 60, "eight requests")
            m1 = metrics(e)
            n = r.count()
            m2 = metrics(e)
            for m in (m1, m2):
                consistent(m)
                assert stat(m, "failures_total") == 0
                assert stat(m, "samples_sent_total") == 0
            # each batch sent once: every request another read, each refused
            # request a batch dropped, counted
            bodies = [b for _, b in r.got[:n]]
            assert len(set(bodies)) == len(bodies)
            assert (stat(m1, "batches_dropped_total", "rejected") <= n <=
                    stat(m2, "batches_dropped_total", "rejected") + 1)
            assert stat(m2, "samples_dropped_total", "rejected") == dropped(m2)
            refused = log_lines(e, "refused")
            assert len(refused) == 1 and "HTTP 400: no thanks" in refused[0]
            assert not log_lines(e, OUTAGE_START)
    finally:
        r.stop()


def test_queue_smaller_than_a_batch(workdir, example_segment):
    """--push.queue-size below one batch: nothing can be sent, and the log
    says so once (not only the queue_full counter)."""
    seg, _ = example_segment
    r = Receiver([204])
    try:
        with Running(workdir, seg, r.url, "--push.queue-size", "100") as e:
            h.wait_for(lambda: stat(metrics(e), "batches_dropped_total", "queue_full") >= 5,
                       60, "five batches dropped")
            m = metrics(e)
            consistent(m)
            assert stat(m, "samples_sent_total") == 0 and r.count() == 0
            lines = log_lines(e, "larger than --push.queue-size")
            assert len(lines) == 1 and "(100 bytes)" in lines[0], lines
            assert "level=warn" in lines[0]
    finally:
        r.stop()


# ---- (d) a receiver that accepts and never answers ----

def sanitized(binary):
    """A sanitizer build: freed memory is held back, RSS is no measure."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return any(rt in out for rt in ("libasan", "libtsan"))


class Silent:
    """A receiver that accepts connections and never reads nor answers."""

    def __enter__(self):
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(16)
        self.held = []
        self.stop = threading.Event()
        self.t = threading.Thread(target=self.accept, daemon=True)
        self.t.start()
        return self

    def accept(self):
        self.lsock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                self.held.append(self.lsock.accept()[0])
            except socket.timeout:
                pass

    def url(self):
        return "http://127.0.0.1:%d/api/v1/write" % self.lsock.getsockname()[1]

    def __exit__(self, *exc):
        self.stop.set()
        self.t.join()
        for c in self.held:
            c.close()
        self.lsock.close()


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def test_silent_receiver(workdir, example_segment):
    seg, _ = example_segment
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(16)
    held = []
    stop = threading.Event()

    def accept():
        lsock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(lsock.accept()[0])  # never read, never answered
            except socket.timeout:
                pass
    t = threading.Thread(target=accept, daemon=True)
    t.start()
    url = "http://127.0.0.1:%d/api/v1/write" % lsock.getsockname()[1]
    queue = 64 * 1024
    try:
        with Running(workdir, seg, url, "--push.timeout", "4s", "--push.queue-size", "64KiB",
                     "--push.interval", "100ms") as e:
            h.wait_for(lambda: held, 30, "the push to connect")
            # while the request hangs, scrapes answer, whole (each within a
            # hang guard shorter than the request's timeout)
            for _ in range(10):
                m = metrics(e, timeout=2)
                assert (SELF + "queue_bytes", ()) in m and ("fastmib_segment_served" in
                                                            {k[0] for k in m})
                assert stat(m, "queue_bytes") <= queue
                consistent(m)
                time.sleep(0.1)
            h.wait_for(lambda: stat(metrics(e, timeout=2), "failures_total") >= 1, 60,
                       "the request timeout")
            rss1 = rss_kib(e.proc.pid)
            h.wait_for(lambda: stat(metrics(e, timeout=2), "failures_total") >= 2, 90,
                       "a second timeout")
            m = metrics(e, timeout=2)
            rss2 = rss_kib(e.proc.pid)
            consistent(m)
            assert stat(m, "queue_bytes") <= queue
            assert stat(m, "samples_dropped_total", "queue_full") > 0
            assert stat(m, "samples_sent_total") == 0
            start = log_lines(e, OUTAGE_START)
            assert len(start) == 1 and "imeout" in start[0], start
            print("rss %d -> %d KiB; queue %d bytes; dropped queue_full %d samples; "
                  "read %d" % (rss1, rss2, stat(m, "queue_bytes"),
                               stat(m, "samples_dropped_total", "queue_full"),
                               stat(m, "samples_read_total")))
            # the queue full from the first timeout on: memory stays (not
            # under AddressSanitizer, whose quarantine keeps what is freed)
            if not sanitized(e.binary):
                assert rss2 - rss1 < 4096, (rss1, rss2)
    finally:
        stop.set()
        t.join()
        for s in held:
            s.close()
        lsock.close()


def test_full_queue_holds_its_size(workdir, example_segment):
    """A batch waits in as many bytes as the queue counts for it (its
    compressed length): a full queue of 2 MiB is about 2 MiB of memory
    (with the room snappy asks for kept, five times as much)."""
    seg, _ = example_segment
    queue = 2 << 20
    with Silent() as r, Running(workdir, seg, r.url(), "--push.timeout", "1h",
                                "--push.queue-size", "2MiB", "--push.interval", "20ms") as e:
        h.wait_for(lambda: r.held and stat(metrics(e), "samples_read_total") > 0, 30,
                   "the push to connect and read")
        rss0 = rss_kib(e.proc.pid)
        h.wait_for(lambda: stat(metrics(e), "samples_dropped_total", "queue_full") > 0, 300,
                   "the queue to fill")
        m = metrics(e)
        rss1 = rss_kib(e.proc.pid)
        consistent(m)
        assert stat(m, "queue_bytes") <= queue
        print("rss %d -> %d KiB with a full queue of %d bytes" %
              (rss0, rss1, stat(m, "queue_bytes")))
        if not sanitized(e.binary):
            assert (rss1 - rss0) * 1024 < 2 * queue, (rss0, rss1)


def test_stop_cuts_a_hanging_request(workdir, example_segment):
    """SIGTERM while a request hangs: the exporter stops at once, not at
    the end of --push.timeout (systemd's stop would wait that long)."""
    seg, _ = example_segment
    with Silent() as r:
        e = ps.Exporter([seg], str(workdir), args=["--push.url", r.url(), "--push.timeout",
                                                   "1h"]).start()
        try:
            h.wait_for(lambda: r.held, 30, "the push to connect")
            e.proc.terminate()
            # a hang guard, far below the request's timeout
            assert e.proc.wait(timeout=60) == 0
            assert not log_lines(e, OUTAGE_START)
            assert log_lines(e, r'msg="signal 15: stopping"')
        finally:
            e.stop()


def test_stop_during_an_outage(workdir, example_segment):
    """Stopped while the receiver fails: the outage's end is logged too
    (one line as it starts, one as it ends, whatever ends it)."""
    seg, _ = example_segment
    with Silent() as r:
        e = ps.Exporter([seg], str(workdir), args=["--push.url", r.url(), "--push.timeout",
                                                   "300ms", "--push.interval", INTERVAL]).start()
        try:
            h.wait_for(lambda: log_lines(e, OUTAGE_START), 60, "the outage to start")
            e.proc.terminate()
            assert e.proc.wait(timeout=60) == 0
            end = log_lines(e, r'msg="push to \S+: stopping, the receiver still failing after ')
            assert len(log_lines(e, OUTAGE_START)) == 1 and len(end) == 1, e.log_text()
            assert not log_lines(e, OUTAGE_END)
        finally:
            e.stop()


def test_bad_push_options():
    exe = tool("FASTMIB_EXPORTER")
    for args, msg in ((["--push.url", "ftp://x"], "--push.url"),
                      (["--push.url", "http://x", "--push.interval", "15"], "--push.interval"),
                      (["--push.url", "http://x", "--push.interval", "0"], "--push.interval"),
                      (["--push.url", "http://x", "--push.max-age", "5x"], "--push.max-age"),
                      (["--push.url", "http://x", "--push.timeout", "s"], "--push.timeout"),
                      (["--push.url", "http://x", "--push.queue-size", "1PB"],
                       "--push.queue-size")):
        r = subprocess.run([exe, *args, "/nonexistent"], capture_output=True, text=True,
                           timeout=10)
        assert r.returncode == 1 and msg in r.stderr, (args, r.stderr)
    # a URL libcurl cannot use, a duration no clock can take: refused at
    # the start, naming the option, the password not shown
    for args, msg in ((["--push.url", "http://"], "--push.url 'http://': No host"),
                      (["--push.url", "http://a b/w"], "--push.url 'http://a b/w': Bad host"),
                      (["--push.url", "http://127.0.0.1:99999/w"], "--push.url"),
                      (["--push.url", "ftp://u:secret@h/"], "--push.url 'ftp://h/'"),
                      (["--push.url", "http://u:secret@h:x/"], "--push.url 'http://h:x/'"),
                      (["--push.url", "http://x", "--push.interval", "300y"], "--push.interval"),
                      (["--push.url", "http://x", "--push.max-age", "300000000y"],
                       "--push.max-age"),
                      (["--push.url", "http://x", "--push.timeout", "300y"], "--push.timeout")):
        r = subprocess.run([exe, *args, "/nonexistent"], capture_output=True, text=True,
                           timeout=10)
        assert r.returncode == 1 and msg in r.stderr, (args, r.stderr)
        assert "secret" not in r.stderr
    for args in (["--push.url", "https://u:p%40ss@[::1]:9090/api/v1/write"],
                 ["--push.interval", "292y"]):
        r = subprocess.run([exe, *args, "--help"], capture_output=True, text=True, timeout=10)
        assert r.returncode == 0, (args, r.stderr)
    # Prometheus' durations, largest unit first; sizes in powers of 1024
    for args in (["--push.interval", "1m30s"], ["--push.interval", "200ms"],
                 ["--push.max-age", "1h"], ["--push.timeout", "5m0s"],
                 ["--push.queue-size", "64MiB"], ["--push.queue-size", "100"]):
        r = subprocess.run([exe, *args, "--help"], capture_output=True, text=True, timeout=10)
        assert r.returncode == 0, (args, r.stderr)
    for args in (["--push.interval", "30s1m"], ["--push.interval", "1.5s"]):
        r = subprocess.run([exe, *args, "--help"], capture_output=True, text=True, timeout=10)
        assert r.returncode == 1, args
    r = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=10)
    for opt in ("--push.url", "--push.interval", "--push.timeout", "--push.max-age",
                "--push.queue-size"):
        assert opt in r.stdout
    assert "[OPTIONS] --ports PATH[,BASE] [SEGMENT...]" in r.stdout


# ---- a read larger than one request ----

MAX_SAMPLES = 10000  # FME_RW_MAX_SAMPLES (rwrite.h)


@pytest.fixture(scope="module")
def full_segment(workdir):
    """The example model with every row of every table enabled: a read of
    more than three requests."""
    return fill_example(workdir, "epall", rows="all")[0]


def test_a_read_cut_into_requests(workdir, full_segment):
    """One read (--push.interval 1h: the one at the start) of more than
    3 x FME_RW_MAX_SAMPLES samples arrives as requests of that many, the
    last one fewer; together exactly the series of a scrape, each once,
    with its value."""
    r = Receiver([204])
    try:
        e = ps.Exporter([full_segment], str(workdir),
                        args=["--push.url", r.url, "--push.interval", "1h"])
        e.start()
        try:
            h.wait_for(lambda: stat(metrics(e), "samples_sent_total") > 0 and
                       stat(metrics(e), "queue_samples") == 0, 60, "the read sent")
            m = metrics(e)
            scraped = metrics(e)
            with open("/proc/%d/status" % e.proc.pid) as f:
                hwm = [ln for ln in f if ln.startswith("VmHWM")][0].split()[1]
            print("exporter VmHWM after a read of %d samples: %s KiB" %
                  (stat(m, "samples_read_total"), hwm))
        finally:
            e.stop()
        consistent(m)
        read = stat(m, "samples_read_total")
        assert read > 3 * MAX_SAMPLES
        assert stat(m, "samples_sent_total") == read and dropped(m) == 0
        requests = [decode(b) for _, b in r.got]
        sizes = [len(q) for q in requests]
        assert sum(sizes) == read and len(sizes) == -(-read // MAX_SAMPLES)
        assert all(n == MAX_SAMPLES for n in sizes[:-1]) and 0 < sizes[-1] <= MAX_SAMPLES
        assert stat(m, "batches_sent_total") == len(sizes)
        pushed = {}
        for q in requests:
            for labels, samples in q:
                d = dict(labels)
                key = (d.pop("__name__"), tuple(sorted(d.items())))
                assert key not in pushed, key
                pushed[key] = samples[0][0]
        assert set(pushed) == set(scraped)
        assert {k: v for k, v in pushed.items() if not k[0].startswith(SELF)} == \
            {k: float(v) for k, v in scraped.items() if not k[0].startswith(SELF)}
    finally:
        r.stop()
