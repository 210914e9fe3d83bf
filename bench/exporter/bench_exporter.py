#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Scrape benchmark: one Prometheus scrape of a table of four Counter64
through fastmib-exporter, side by side with snmp_exporter walking the same
segment through the fastmib snmpd module and over AgentX.

Usage: bench_exporter.py --build BUILD_DIR [--rows N] [--runs N]
                         [--exporter-runs N] [--agentx-runs N] [--concurrent-runs N]
                         [--big-rows N] [--paths LIST] [--check]

The segment: fastmib-bench-scrape-writer fills ROWS rows (default all
65,536) of bench/exporter/small.yaml; row r (index r + 1) holds
k * 2^32 + r + 1 in counter k = 1..4. Every scrape's body is checked
sample by sample after it is timed: each row of each counter once, with
its value, and in OpenMetrics its _created once, the same time for all
rows, not in the future (a scrape that lost or garbled a row is an
error, not a figure).

Paths (--paths, comma-separated; default all):
  exporter   fastmib-exporter, GET /metrics in the text format 0.0.4
  openmetrics  the same with an OpenMetrics 1.0 Accept header
  module     prometheus-snmp-exporter 0.21 with the module fastmib-gen -x
             writes (--snmp-exporter-table flow), walking snmpd with the
             fastmib module loaded (dlmod)
  agentx     the same, walking snmpd + fastmib-agentx over AgentX

What is measured, each path RUNS times (fastmib-exporter: EXPORTER_RUNS,
AgentX: AGENTX_RUNS), the paths taking turns within a run, after one
unmeasured scrape each:
  wall       from sending the request to the last byte of the response,
             read by this process from the socket into one buffer (no
             client process start-up, no parsing while the clock runs)
  server CPU user + system time of the serving processes during the
             scrape, from /proc/PID/stat: the exporter; snmpd and
             snmp_exporter; snmpd, fastmib-agentx and snmp_exporter. The
             kernel counts it in clock ticks of 10 ms, as long as a whole
             fastmib-exporter scrape: its mean over many runs (their
             total, exact to a tick, over their number) is the figure
  4 at once  four scrapes started together, the wall time until the last
             one ends and the server CPU of the four (CONCURRENT_RUNS times,
             fastmib-exporter's three times as many, AgentX once)
  memory     a fresh fastmib-exporter per table size: the growth of its
             peak resident memory over what it held before each scrape
             (VmHWM reset through /proc/PID/clear_refs), less the mapped
             segment's pages (RssShmem, RssFile), for ROWS and BIG_ROWS rows
  big        fastmib-exporter scraping BIG_ROWS rows (default 1,048,576, of
             bench/exporter/big.yaml; 0: skipped), text and OpenMetrics
"""
import argparse
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
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
    names = {c.encode(): k for k, c in enumerate(COUNTERS)}
    _check(body, rx, names, rows, int)
    if not om:
        return
    if not body.endswith(b"\n# EOF\n"):
        raise H.HarnessError("OpenMetrics body does not end with # EOF")
    # each sample's _created: every row's counters were enabled by the
    # writer at its start, so one time for all, not later than now
    rx = re.compile(rb'^%s_flow_(\w+?)_created\{flow_id="(\d+)"\} (\S+)$' % prefix.encode(),
                    re.M)
    created = set()

    def once(v):
        created.add(v)
        return 0
    _check(body, rx, names, rows, once, lambda k, i: 0)
    if len(created) != 1:
        raise H.HarnessError("%d different _created times, expected one" % len(created))
    t = created.pop()
    if not 0 < float(t) <= time.time():
        raise H.HarnessError("_created %s is no past time" % t.decode())


def check_snmp(body, rows):
    """The same in snmp_exporter's text (float64 samples, exact below 2^53)."""
    rx = re.compile(rb'^sxFlow(\w+?)\{sxFlowFlowId="(\d+)"\} (\S+)$', re.M)
    _check(body, rx, {c.encode(): k for k, c in enumerate(SNMP_COUNTERS)}, rows, float)
    if b"snmp_scrape_duration_seconds" not in body:
        raise H.HarnessError("snmp_exporter's scrape is incomplete")


def _check(body, rx, names, rows, conv, want=None):
    """Each row of each counter once, its value conv(text) == want(k, index)
    (default expected())."""
    want = want or expected
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
        if conv(m.group(3)) != want(k, i):
            raise H.HarnessError("row %d of counter %d: %s, expected %d" % (
                i, k + 1, m.group(3).decode(), want(k, i)))
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
    """(status, body, wall seconds) of one GET over a new connection: from
    sending the request to the end of the response, read as it comes into
    one buffer (what a lean client does); the headers and the chunked
    encoding are taken apart after the clock stopped."""
    req = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s\r\n" %
           (path, port, "Accept: %s\r\n" % accept if accept else "")).encode()
    buf = bytearray(1 << 20)
    n = 0
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        t0 = time.monotonic()
        s.sendall(req)
        while True:
            if n == len(buf):
                buf.extend(bytes(len(buf)))
            with memoryview(buf) as mv, mv[n:] as tail:
                k = s.recv_into(tail)
            if not k:
                break
            n += k
        wall = time.monotonic() - t0
    del buf[n:]
    return response(buf) + (wall,)


def response(buf):
    """(status, body) of a whole HTTP/1.1 response."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        raise H.HarnessError("no complete response header")
    head = bytes(buf[:end]).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    fields = {ln.split(":", 1)[0].strip().lower(): ln.split(":", 1)[1].strip()
              for ln in head[1:] if ":" in ln}
    pos = end + 4
    if fields.get("transfer-encoding", "").lower() != "chunked":
        return status, bytes(buf[pos:])
    parts = []
    while True:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            raise H.HarnessError("chunked body cut short")
        size = int(bytes(buf[pos:eol]).split(b";")[0], 16)
        if size == 0:
            break
        if eol + 2 + size + 2 > len(buf):
            raise H.HarnessError("chunked body cut short")
        parts.append(buf[eol + 2:eol + 2 + size])
        pos = eol + 2 + size + 2
    return status, b"".join(parts)


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
        """(wall s until the last ends, server CPU s) of n scrapes at once,
        each by a process of its own (this one's threads would share one
        interpreter lock): each says when its response ended, then hands
        its body over for the check, once the clock has stopped."""
        ctx = multiprocessing.get_context("fork")
        go = ctx.Event()

        def one(conn):
            go.wait()
            try:
                status, body, _ = get(self.port, self.url, self.accept)
                conn.send((time.monotonic(), status))
                conn.send_bytes(body)
            except Exception as e:  # reported by the parent
                conn.send((None, repr(e)))
            conn.close()
        pipes = [ctx.Pipe() for _ in range(n)]
        procs = [ctx.Process(target=one, args=(w,)) for _, w in pipes]
        for p in procs:
            p.start()
        c0 = cpu_seconds(self.pids)
        t0 = time.monotonic()
        go.set()
        ends = [r.recv() for r, _ in pipes]
        cpu = cpu_seconds(self.pids) - c0
        bodies = [r.recv_bytes() if end is not None else None for (r, _), (end, _) in
                  zip(pipes, ends)]
        for p in procs:
            p.join()
        for (end, status), body in zip(ends, bodies):
            if end is None:
                raise H.HarnessError("%s: %s" % (self.name, status))
            if status != 200:
                raise H.HarnessError("%s: HTTP %d" % (self.name, status))
            self.check(body)
        wall = max(end for end, _ in ends) - t0
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
    ap.add_argument("--exporter-runs", type=int, default=50)
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
        args.runs = args.agentx_runs = args.exporter_runs = 1
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
        limit = {"agentx": args.agentx_runs, "module": args.runs}
        for run in range(max([args.exporter_runs] + list(limit.values()))):
            for p in paths:
                if run >= limit.get(p.name, args.exporter_runs):
                    continue
                wall, cpu, _ = p.scrape()
                res[p.name][0].append(wall)
                res[p.name][1].append(cpu)
            if run < args.runs or run % 10 == 9:
                print("run %d done" % (run + 1), flush=True)
        conc = {p.name: ([], []) for p in paths}
        # the exporter's four scrapes take a few clock ticks: more runs
        climit = {"agentx": 1, "module": args.concurrent_runs}
        crun = max([3 * args.concurrent_runs] + list(climit.values()))
        for run in range(crun if args.concurrent_runs else 0):
            for p in paths:
                if run >= climit.get(p.name, 3 * args.concurrent_runs):
                    continue
                wall, cpu = p.concurrent(4)
                conc[p.name][0].append(wall)
                conc[p.name][1].append(cpu)
            if run < args.concurrent_runs:
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
    mean = statistics.mean
    print("\none scrape of %d rows x 4 Counter64: wall median (min..max); server CPU in "
          "clock ticks of 10 ms, per scrape min..max and the mean over the runs (their "
          "total, exact to a tick, over their number); %d runs, the exporter's %d, AgentX %d"
          % (args.rows, args.runs, args.exporter_runs, args.agentx_runs))
    print("%-12s %5s %8s %28s %12s %10s %10s %10s" % (
        "path", "runs", "body MiB", "wall s", "CPU s", "CPU mean s", "module/x", "module/x"))
    print("%-12s %5s %8s %28s %12s %10s %10s %10s" % ("", "", "", "", "", "", "wall", "CPU"))
    for p in paths:
        w, c = res[p.name]
        rw = rc = ""
        if ref:
            rw = "%.1f" % (statistics.median(ref[0]) / statistics.median(w))
            rc = "%.1f" % (mean(ref[1]) / mean(c)) if mean(c) > 0 else "inf"
        print("%-12s %5d %8s %28s %12s %10.4f %10s %10s" % (
            p.name, len(w), mib(size[p.name]), fmt(w), "%.2f..%.2f" % (min(c), max(c)),
            mean(c), rw, rc))
    for p in paths:
        w, c = res[p.name]
        print("  %s: wall %s; CPU %s" % (p.name, " ".join("%.3f" % x for x in w[:10]),
                                         " ".join("%.2f" % x for x in c[:10])))
        if len(p.procs) > 1:
            print("    CPU means: %s" % ", ".join(
                "%s %.2f" % (n, mean(e)) for n, e in zip(p.procs, p.each)))
    if args.concurrent_runs:
        print("\nfour scrapes at once: wall until the last ends, median (min..max); server "
              "CPU of the four, min..max and mean; %d runs, the exporter's %d, AgentX 1"
              % (args.concurrent_runs, 3 * args.concurrent_runs))
        cref = conc.get("module")
        for p in paths:
            w, c = conc[p.name]
            ratio = ""
            if cref and mean(c) > 0:
                ratio = "module/x wall %.1f, CPU %.1f" % (
                    statistics.median(cref[0]) / statistics.median(w), mean(cref[1]) / mean(c))
            print("%-12s %5d %28s %12s %10.4f  %s" % (p.name, len(w), fmt(w),
                                                     "%.2f..%.2f" % (min(c), max(c)),
                                                     mean(c), ratio))
    for rows, idle, runs in mem:
        print("\nfastmib-exporter memory, %d rows: RssAnon idle %s MiB; per scrape: "
              "peak growth MiB, RssAnon after MiB, body MiB:" % (rows, mib(idle)))
        for g, anon, n in runs:
            print("  %8s %8s %8s" % (mib(g), mib(anon), mib(n)))
    if big:
        print("\n%d rows through fastmib-exporter, 3 runs: wall median (min..max), CPU "
              "min..max and mean" % args.big_rows)
        for name, (w, c, n) in big.items():
            print("%-12s body %s MiB  wall %s  CPU %.2f..%.2f %.3f" % (
                name, mib(n), fmt(w), min(c), max(c), mean(c)))


if __name__ == "__main__":
    main()
