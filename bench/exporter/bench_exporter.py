#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Scrape benchmark: one Prometheus scrape of a table of four Counter64
through fastmib-exporter, side by side with snmp_exporter walking the same
segment through the fastmib snmpd module and over AgentX.

Usage: bench_exporter.py --build BUILD_DIR [--rows N] [--runs N]
                         [--agentx-runs N] [--concurrent-runs N]
                         [--big-rows N] [--paths LIST] [--check]

The segment: fastmib-bench-scrape-writer fills ROWS rows (default all
65,536) of bench/exporter/small.yaml; row r (index r + 1) holds
k * 2^32 + r + 1 in counter k = 1..4. Every scrape's body is checked
sample by sample after it is timed: each row of each counter once, with
its value (a scrape that lost or garbled a row is an error, not a figure).

Paths (--paths, comma-separated; default all):
  exporter   fastmib-exporter, GET /metrics in the text format 0.0.4
  openmetrics  the same with an OpenMetrics 1.0 Accept header
  module     prometheus-snmp-exporter 0.21 with the module fastmib-gen -x
             writes (--snmp-exporter-table flow), walking snmpd with the
             fastmib module loaded (dlmod)
  agentx     the same, walking snmpd + fastmib-agentx over AgentX

What is measured, each path RUNS times (AgentX: --agentx-runs), the
paths taking turns within a run, after one unmeasured scrape each:
  wall       from sending the request to the last byte of the body, read
             by this process over a socket (no client process start-up)
  server CPU user + system time of the serving processes during the
             scrape, from /proc/PID/stat (clock ticks, 10 ms): the exporter;
             snmpd and snmp_exporter; snmpd, fastmib-agentx and
             snmp_exporter
  4 at once  four scrapes started together, the wall time until the last
             one ends and the server CPU of the four (--concurrent-runs)
  memory     a fresh fastmib-exporter per table size: the growth of its
             peak resident memory over what it held before each scrape
             (VmHWM reset through /proc/PID/clear_refs), less the mapped
             segment's pages (RssShmem, RssFile), for ROWS and BIG_ROWS rows
  big        fastmib-exporter scraping BIG_ROWS rows (default 1,048,576, of
             bench/exporter/big.yaml; 0: skipped), text and OpenMetrics
"""
import argparse
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
import snmpharness as H  # noqa: E402
import snmpexporter as PX  # noqa: E402
from suiterun import tagged  # noqa: E402

EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "-m", "64"]
OPENMETRICS = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
MODULE = "fastmib_bench_scrape_small_mib"
COUNTERS = ["rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes"]
SNMP_COUNTERS = ["RxPkts", "RxBytes", "TxPkts", "TxBytes"]
TICK = os.sysconf("SC_CLK_TCK")


def expected(k, index):
    """Counter k (0-based) of the row with index `index` (1-based)."""
    return ((k + 1) << 32) + index


# ---------------------------------------------------------------- checks

def check_exporter(body, prefix, rows, om):
    """Every row of every counter once, exact, in fastmib-exporter's text
    (integers; OpenMetrics ends with # EOF)."""
    rx = re.compile(rb'^%s_flow_(\w+?)_total\{flow_id="(\d+)"\} (\d+)$' % prefix.encode(),
                    re.M)
    _check(body, rx, {c.encode(): k for k, c in enumerate(COUNTERS)}, rows, int)
    if om and not body.endswith(b"\n# EOF\n"):
        raise H.HarnessError("OpenMetrics body does not end with # EOF")


def check_snmp(body, rows):
    """The same in snmp_exporter's text (float64 samples, exact below 2^53)."""
    rx = re.compile(rb'^sxFlow(\w+?)\{sxFlowFlowId="(\d+)"\} (\S+)$', re.M)
    _check(body, rx, {c.encode(): k for k, c in enumerate(SNMP_COUNTERS)}, rows, float)
    if b"snmp_scrape_duration_seconds" not in body:
        raise H.HarnessError("snmp_exporter's scrape is incomplete")


def _check(body, rx, names, rows, conv):
    seen = [bytearray(rows + 1) for _ in names]
    count = [0] * len(names)
    for m in rx.finditer(body):
        k = names.get(m.group(1))
        if k is None:
            continue
        i = int(m.group(2))
        if not 1 <= i <= rows or seen[k][i]:
            raise H.HarnessError("row %d of counter %d out of range or twice" % (i, k + 1))
        seen[k][i] = 1
        count[k] += 1
        if conv(m.group(3)) != expected(k, i):
            raise H.HarnessError("row %d of counter %d: %s, expected %d" % (
                i, k + 1, m.group(3).decode(), expected(k, i)))
    if count != [rows] * len(names):
        raise H.HarnessError("rows per counter %s, expected %d" % (count, rows))


# ---------------------------------------------------------------- processes

class Writer:
    def __init__(self, binary, segment, rows, tag):
        self.proc = subprocess.Popen(
            [binary] + EAL + ["--file-prefix", tagged("bscrape-", tag, os.getpid()),
                              "--", segment, "--rows", str(rows)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True)
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            raise H.HarnessError("%s did not start: %r" % (binary, line))

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)


class Exporter:
    """fastmib-exporter serving one segment on a free loopback port."""

    def __init__(self, binary, segment, workdir):
        self.port = PX.free_tcp_port()
        self.log = os.path.join(workdir, "fastmib-exporter-%d.log" % self.port)
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [binary, "--web.listen-address", "127.0.0.1:%d" % self.port, segment],
                stdout=log, stderr=subprocess.STDOUT)
        H.wait_for(lambda: self._up(), 20, "fastmib-exporter answering")

    def _up(self):
        if self.proc.poll() is not None:
            raise H.HarnessError("fastmib-exporter exited: %s" % open(self.log).read())
        try:
            return get(self.port, "/")[0] == 200
        except OSError:
            return False

    def cleanup(self):
        H._stop_process(self.proc)


def get(port, path, accept=None, timeout=1800):
    """(status, body, wall seconds) of one GET over a new connection."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": accept} if accept else {}
    try:
        t0 = time.monotonic()
        c.request("GET", path, headers=headers)
        r = c.getresponse()
        body = r.read()
        return r.status, body, time.monotonic() - t0
    finally:
        c.close()


def cpu_each(pids):
    """User + system CPU seconds so far of each process."""
    out = []
    for pid in pids:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        out.append((int(fields[11]) + int(fields[12])) / TICK)  # utime, stime
    return out


def cpu_seconds(pids):
    return sum(cpu_each(pids))


def mem_status(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                out[key] = int(rest.split()[0]) * 1024
    return out


# ---------------------------------------------------------------- paths

class Path:
    """One way to scrape the table: how to ask, which processes serve it,
    how to check the answer."""

    def __init__(self, name, port, url, procs, check, accept=None):
        """procs: [(name, pid)] of the serving processes."""
        self.name, self.port, self.url = name, port, url
        self.procs = [n for n, _ in procs]
        self.pids = [p for _, p in procs]
        self.check, self.accept = check, accept
        self.each = [[] for _ in procs]  # CPU of each process, per scrape

    def scrape(self):
        """(wall s, server CPU s, body bytes) of one checked scrape."""
        c0 = cpu_each(self.pids)
        status, body, wall = get(self.port, self.url, self.accept)
        each = [b - a for a, b in zip(c0, cpu_each(self.pids))]
        if status != 200:
            raise H.HarnessError("%s: HTTP %d" % (self.name, status))
        self.check(body)
        for lst, c in zip(self.each, each):
            lst.append(c)
        return wall, sum(each), len(body)

    def concurrent(self, n):
        """(wall s until the last ends, server CPU s) of n scrapes at once."""
        results = [None] * n
        go = threading.Barrier(n + 1)

        def one(i):
            go.wait()
            try:
                results[i] = get(self.port, self.url, self.accept)
            except Exception as e:  # reported below
                results[i] = e
        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        c0 = cpu_seconds(self.pids)
        t0 = time.monotonic()
        go.wait()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        cpu = cpu_seconds(self.pids) - c0
        for r in results:
            if isinstance(r, Exception):
                raise r
            if r[0] != 200:
                raise H.HarnessError("%s: HTTP %d" % (self.name, r[0]))
            self.check(r[1])
        return wall, cpu


def spread(v):
    return statistics.median(v), min(v), max(v)


def fmt(t):
    m, lo, hi = spread(t)
    return "%8.3f (%.3f..%.3f)" % (m, lo, hi)


# ---------------------------------------------------------------- memory

def memory_run(exporter, prefix, rows, scrapes, accept=None):
    """[(peak growth, RssAnon after, body bytes)] of `scrapes` scrapes of a
    fresh exporter, and its RssAnon before the first."""
    pid = exporter.proc.pid
    idle = mem_status(pid)["RssAnon"]
    out = []
    for _ in range(scrapes):
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")  # VmHWM := VmRSS
        before = mem_status(pid)
        status, body, _ = get(exporter.port, "/metrics", accept)
        after = mem_status(pid)
        if status != 200:
            raise H.HarnessError("HTTP %d" % status)
        check_exporter(body, prefix, rows, accept is not None)
        mapped = (after["RssShmem"] - before["RssShmem"]) + (after["RssFile"] - before["RssFile"])
        out.append((after["VmHWM"] - before["VmRSS"] - mapped, after["RssAnon"], len(body)))
        del body
    return idle, out


def mib(n):
    return "%.1f" % (n / 1048576)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--rows", type=int, default=65536)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--agentx-runs", type=int, default=3)
    ap.add_argument("--concurrent-runs", type=int, default=3)
    ap.add_argument("--big-rows", type=int, default=1048576)
    ap.add_argument("--paths", default="exporter,openmetrics,module,agentx")
    ap.add_argument("--check", action="store_true",
                    help="smoke run: every path once, checked, no figures")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    paths_wanted = args.paths.split(",")
    if args.check:
        args.runs = args.agentx_runs = 1
        args.concurrent_runs = 0
    exporter_bin = os.path.join(build, "subagent", "exporter", "fastmib-exporter")
    os.environ["FASTMIB_AGENTX"] = os.path.join(build, "subagent", "agentx", "fastmib-agentx")
    os.environ["FASTMIB_MODULE"] = os.path.join(build, "subagent", "module", "fastmib_snmpd.so")
    gen = os.path.join(build, "codegen", "fastmib-gen")

    segdir = tempfile.mkdtemp(prefix=tagged("bscrape-"), dir="/dev/shm")
    workdir = tempfile.mkdtemp(prefix="fmbscrape-")
    cleanups = []
    print("load average at start: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    try:
        seg = os.path.join(segdir, "sx.seg")
        w = Writer(os.path.join(build, "bench", "exporter", "fastmib-bench-scrape-writer"),
                   seg, args.rows, "s")
        cleanups.append(w.close)
        paths = []
        if {"exporter", "openmetrics"} & set(paths_wanted):
            e = Exporter(exporter_bin, seg, workdir)
            cleanups.append(e.cleanup)
            if "exporter" in paths_wanted:
                paths.append(Path("exporter", e.port, "/metrics", [("fastmib-exporter", e.proc.pid)],
                                  lambda b: check_exporter(b, "sx", args.rows, False)))
            if "openmetrics" in paths_wanted:
                paths.append(Path("openmetrics", e.port, "/metrics",
                                  [("fastmib-exporter", e.proc.pid)],
                                  lambda b: check_exporter(b, "sx", args.rows, True),
                                  OPENMETRICS))
        if {"module", "agentx"} & set(paths_wanted):
            yml = subprocess.run([gen, os.path.join(HERE, "small.yaml"), "-x", "-",
                                  "--snmp-exporter-table", "flow"], check=True,
                                 capture_output=True, text=True).stdout
            mibdir = PX.mib_dir(os.path.join(workdir, "mibs"), PX.needed_mibs(yml),
                                [os.path.join(build, "bench", "exporter", "gen"),
                                 os.environ.get("FASTMIB_BASE_MIBS",
                                                os.path.join(build, "base-mibs")),
                                 "/usr/share/snmp/mibs"])
            px = PX.started(workdir, yml, mibdir)
            cleanups.append(px.stop)
            xport = px.port
            url = "/snmp?target=127.0.0.1:%d&module=" + MODULE
            first = "1.3.6.1.4.1.8072.9999.51.1.1.1.1.1"  # sxFlowRxPkts.1
            if "module" in paths_wanted:
                m = H.ModuleAgent([seg])
                cleanups.append(m.cleanup)
                m.start(wait_oid=first)
                paths.append(Path("module", xport, url % m.port,
                                  [("snmpd", m.snmpd.proc.pid),
                                   ("snmp_exporter", px.proc.pid)],
                                  lambda b: check_snmp(b, args.rows)))
            if "agentx" in paths_wanted:
                snmpd = H.Snmpd().start()
                cleanups.append(snmpd.cleanup)
                a = H.Agent([seg], snmpd=snmpd)
                cleanups.append(a.cleanup)
                a.start(wait_oid=first)
                paths.append(Path("agentx", xport, url % snmpd.port,
                                  [("snmpd", snmpd.proc.pid),
                                   ("fastmib-agentx", a.proc.pid),
                                   ("snmp_exporter", px.proc.pid)],
                                  lambda b: check_snmp(b, args.rows)))

        # one scrape each first (segments mapped, caches warm), not counted
        size = {}
        for p in paths:
            print("warming %s ..." % p.name, flush=True)
            size[p.name] = p.scrape()[2]
        res = {p.name: ([], []) for p in paths}
        for run in range(max(args.runs, args.agentx_runs)):
            for p in paths:
                if run >= (args.agentx_runs if p.name == "agentx" else args.runs):
                    continue
                wall, cpu, _ = p.scrape()
                res[p.name][0].append(wall)
                res[p.name][1].append(cpu)
            print("run %d done" % (run + 1), flush=True)
        conc = {p.name: ([], []) for p in paths}
        for run in range(args.concurrent_runs):
            for p in paths:
                if p.name == "agentx" and run >= 1:
                    continue
                wall, cpu = p.concurrent(4)
                conc[p.name][0].append(wall)
                conc[p.name][1].append(cpu)
            print("4 at once, run %d done" % (run + 1), flush=True)

        # memory, and the big table, through fresh exporters
        mem = []
        big = None
        if "exporter" in paths_wanted and not args.check:
            e = Exporter(exporter_bin, seg, workdir)
            try:
                mem.append((args.rows,) + memory_run(e, "sx", args.rows, 3))
            finally:
                e.cleanup()
        if args.big_rows and "exporter" in paths_wanted:
            bseg = os.path.join(segdir, "sy.seg")
            print("filling %d rows ..." % args.big_rows, flush=True)
            bw = Writer(os.path.join(build, "bench", "exporter",
                                     "fastmib-bench-scrape-writer-big"),
                        bseg, args.big_rows, "b")
            cleanups.append(bw.close)
            e = Exporter(exporter_bin, bseg, workdir)
            cleanups.append(e.cleanup)
            if not args.check:
                mem.append((args.big_rows,) + memory_run(e, "sy", args.big_rows, 3))
            big = {}
            for name, accept in (("exporter", None), ("openmetrics", OPENMETRICS)):
                p = Path(name, e.port, "/metrics", [("fastmib-exporter", e.proc.pid)],
                         lambda b, om=accept is not None:
                         check_exporter(b, "sy", args.big_rows, om), accept)
                runs = [p.scrape() for _ in range(1 if args.check else 3)]
                big[name] = ([r[0] for r in runs], [r[1] for r in runs], runs[0][2])
    finally:
        for c in reversed(cleanups):
            try:
                c()
            except Exception as ex:  # keep cleaning up
                print("cleanup: %s" % ex, file=sys.stderr)
        shutil.rmtree(segdir, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    print("load average at end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    if args.check:
        print("check: every scrape had every row of every counter, exact")
        return
    report(args, paths, size, res, conc, mem, big)


def report(args, paths, size, res, conc, mem, big):
    ref = res.get("module")
    print("\none scrape of %d rows x 4 Counter64; median (min..max) of %d runs "
          "(AgentX %d); server CPU in clock ticks of 10 ms" %
          (args.rows, args.runs, args.agentx_runs))
    print("%-12s %10s %28s %28s %10s %10s" % ("path", "body MiB", "wall s", "server CPU s",
                                               "module/x wall", "module/x CPU"))
    for p in paths:
        w, c = res[p.name]
        rw = rc = ""
        if ref:
            rw = "%.1f" % (statistics.median(ref[0]) / statistics.median(w))
            rc = ("%.1f" % (statistics.median(ref[1]) / statistics.median(c))
                  if statistics.median(c) > 0 else "inf")
        print("%-12s %10s %28s %28s %10s %10s" % (p.name, mib(size[p.name]), fmt(w), fmt(c),
                                                  rw, rc))
    for p in paths:
        w, c = res[p.name]
        print("  %s: wall %s; CPU %s" % (p.name, " ".join("%.3f" % x for x in w),
                                         " ".join("%.2f" % x for x in c)))
        if len(p.procs) > 1:
            print("    CPU medians: %s" % ", ".join(
                "%s %.2f" % (n, statistics.median(e)) for n, e in zip(p.procs, p.each)))
    if args.concurrent_runs:
        print("\nfour scrapes at once: wall until the last ends, server CPU of the four; "
              "median (min..max) of %d runs (AgentX 1)" % args.concurrent_runs)
        for p in paths:
            w, c = conc[p.name]
            print("%-12s %28s %28s" % (p.name, fmt(w), fmt(c)))
    for rows, idle, runs in mem:
        print("\nfastmib-exporter memory, %d rows: RssAnon idle %s MiB; per scrape: "
              "peak growth MiB, RssAnon after MiB, body MiB:" % (rows, mib(idle)))
        for g, anon, n in runs:
            print("  %8s %8s %8s" % (mib(g), mib(anon), mib(n)))
    if big:
        print("\n%d rows through fastmib-exporter, 3 runs:" % args.big_rows)
        for name, (w, c, n) in big.items():
            print("%-12s body %s MiB  wall %s  CPU %s" % (name, mib(n), fmt(w), fmt(c)))


if __name__ == "__main__":
    main()
