# SPDX-License-Identifier: BSD-3-Clause
"""The real Prometheus server and fastmib-exporter as the tests run them:
each on a free loopback port, with a temporary directory for its
configuration and storage; Prometheus queried over its HTTP API."""
import json
import os
import shutil
import socket
import ssl
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import snmpharness as h

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"
OPENMETRICS = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"


def free_tcp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, headers=None, context=None, timeout=30):
    """(status, headers, body) of a GET; HTTP errors are answers too."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=context) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def _stop(proc, timeout=10):
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Exporter:
    """fastmib-exporter serving `segments` on a free loopback port."""

    def __init__(self, segments, workdir, args=(), scheme="http", context=None, cwd=None):
        self.binary = os.environ.get("FASTMIB_EXPORTER")
        assert self.binary, "FASTMIB_EXPORTER not set: run through ctest"
        self.segments = list(segments)
        self.args = list(args)
        self.port = free_tcp_port()
        self.scheme = scheme
        self.context = context
        self.cwd = cwd
        self.log = os.path.join(workdir, "exporter-%d.log" % self.port)
        self.proc = None

    @property
    def address(self):
        return "127.0.0.1:%d" % self.port

    def url(self, path="/metrics"):
        return "%s://%s%s" % (self.scheme, self.address, path)

    def start(self, headers=None):
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [self.binary, "--web.listen-address", self.address, *self.args,
                 *self.segments], stdout=log, stderr=subprocess.STDOUT, cwd=self.cwd)

        def answering():
            if self.proc.poll() is not None:
                raise h.HarnessError("fastmib-exporter exited: %s" % self.log_text())
            try:
                return get(self.url("/"), headers, self.context, timeout=5)[0] > 0
            except (OSError, urllib.error.URLError):
                return False
        h.wait_for(answering, 20, "fastmib-exporter to answer")
        return self

    def scrape(self, accept=None, headers=None):
        hd = dict(headers or {})
        if accept:
            hd["Accept"] = accept
        status, hdrs, body = get(self.url(), hd, self.context)
        assert status == 200, (status, body)
        return hdrs, body

    def log_text(self):
        with open(self.log) as f:
            return f.read()

    def stop(self):
        _stop(self.proc)


class Prometheus:
    """The real Prometheus server scraping `targets` every second (none:
    no scrape, or as `job_extra` says); with `remote_write`, a remote write
    receiver too (at /api/v1/write); `args` more command-line flags.
    `port`: its port, chosen before (default: a free one)."""

    def __init__(self, workdir, targets, job_extra=None, remote_write=False, port=None,
                 args=()):
        self.args = list(args)
        self.dir = os.path.join(workdir, "prometheus-%d" % free_tcp_port())
        os.makedirs(self.dir)
        self.port = port or free_tcp_port()
        self.proc = None
        self.remote_write = remote_write
        job = {"job_name": "fastmib", "scrape_interval": "1s", "scrape_timeout": "1s",
               "static_configs": [{"targets": list(targets)}]}
        job.update(job_extra or {})
        self.config = os.path.join(self.dir, "prometheus.yml")
        with open(self.config, "w") as f:  # JSON is YAML
            json.dump({"global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                       "scrape_configs": [job] if targets else []}, f)
        self.log = os.path.join(self.dir, "log")

    def start(self):
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [PROMETHEUS, "--config.file", self.config,
                 "--storage.tsdb.path", os.path.join(self.dir, "data"),
                 "--web.listen-address", "127.0.0.1:%d" % self.port,
                 *(["--web.enable-remote-write-receiver"] if self.remote_write else []),
                 *self.args],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)

        def ready():
            if self.proc.poll() is not None:
                raise h.HarnessError("prometheus exited: %s" % open(self.log).read())
            try:
                return get("http://127.0.0.1:%d/-/ready" % self.port, timeout=5)[0] == 200
            except (OSError, urllib.error.URLError):
                return False
        h.wait_for(ready, 60, "prometheus to be ready")
        return self

    def api(self, path, **params):
        url = "http://127.0.0.1:%d/api/v1/%s?%s" % (self.port, path,
                                                     urllib.parse.urlencode(params))
        status, _, body = get(url)
        d = json.loads(body)
        assert status == 200 and d["status"] == "success", body
        return d["data"]

    @property
    def write_url(self):
        return "http://127.0.0.1:%d/api/v1/write" % self.port

    def query(self, q):
        """{frozenset(labels without __name__ and job/instance): value string}"""
        out = {}
        for r in self.api("query", query=q)["result"]:
            m = {k: v for k, v in r["metric"].items()
                 if k not in ("__name__", "job", "instance")}
            out[frozenset(m.items())] = r["value"][1]
        return out

    def wait_scraped(self, q, timeout=60):
        """Wait until query `q` has a result (a scrape of it was stored)."""
        return h.wait_for(lambda: self.query(q), timeout, "prometheus to store " + q)

    def targets(self):
        return self.api("targets")["activeTargets"]

    def stop(self):
        _stop(self.proc)


def tls_context(cafile):
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.check_hostname = False
    return ctx
