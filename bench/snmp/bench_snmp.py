#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""SNMP serving benchmark: bulk walks of the example flow table, GET latency
and freshness, for every way fastmib serves a segment and for a polling
AgentX peer written with python3-pyagentx.

Usage: bench_snmp.py --build BUILD_DIR [--rows N] [--gets N] [--fresh N]
                     [--peer-period S] [--peer-fresh N] [--no-peer] [--walks N]

Servers (each on its own loopback port):
  agentx      snmpd + fastmib-agentx over AgentX
  standalone  fastmib-agentx --listen (its own UDP port)
  dlmod       snmpd with the fastmib module loaded (skipped if not built)
  pyagentx    snmpd + pyagentx_peer.py (copy refreshed by fastmib-stat --json)

What is measured:
  walk        `snmpbulkwalk -v2c -Cr50` of the whole table (every column the
              server has) and of one column; wall time of the client process,
              and the CPU time the server's processes (snmpd, fastmib-agentx)
              spent meanwhile; the whole-table walk WALKS times (default 3),
              median and min..max shown
  GET         one v2c GET of epGlobalRxPkts.0, sent from this process over
              a UDP socket (encoder of tests/lib/snmpharness.py), timed from
              send to reply: no client process start-up in the figure
  freshness   from the moment the writer is asked to add to a flow counter
              to the first GET that returns the new value (tight polling)
"""
import argparse
import glob
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
import snmpharness as H  # noqa: E402
from suiterun import tagged  # noqa: E402

ROOT = "1.3.6.1.4.1.8072.9999.42"
FLOW_TABLE = ROOT + ".1.4"
FLOW_PKTS = ROOT + ".1.4.1.1"
GLOBAL_RX = ROOT + ".1.1.1.0"
FRESH_ROW = 5  # 0-based row; SNMP index 6

EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "-m", "64"]


# ---------------------------------------------------------------- raw GET

def first_value(vbs):
    """Value (int, or None for an exception) of the first varbind."""
    _, tag, value = vbs[0]
    if tag in (0x80, 0x81, 0x82):
        return None
    return int.from_bytes(value, "big")


class RawClient:
    def __init__(self, port):
        self.addr = ("127.0.0.1", port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(2.0)
        self.reqid = 1000

    def get(self, oid):
        self.reqid += 1
        arcs = [int(a) for a in oid.split(".")]
        msg = H.snmp_message(b"public", H.PDU_GET, self.reqid, [(arcs, H.NULL)])
        self.sock.sendto(msg, self.addr)
        while True:
            reqid, vbs = H.ber_response(self.sock.recv(65536))
            if reqid == self.reqid:
                return first_value(vbs)

    def close(self):
        self.sock.close()


# ---------------------------------------------------------------- the writer

class Filler:
    def __init__(self, binary, segment, rows, tag):
        self.proc = subprocess.Popen(
            [binary] + EAL + ["--file-prefix", tagged("bsnmp-", tag, os.getpid()),
                              "--", segment, "--rows", str(rows)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1)
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            raise H.HarnessError("filler did not start: %r" % line)

    def flow_add(self, row, n):
        self.proc.stdin.write("flow %d %d\n" % (row, n))
        self.proc.stdin.flush()
        if self.proc.stdout.readline().strip() != "ok":
            raise H.HarnessError("filler failed")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(10)


# ---------------------------------------------------------------- servers

class Server:
    def __init__(self, name, port, procs, columns):
        self.name, self.port, self.procs, self.columns = name, port, procs, columns

    def cleanup(self):
        for p in self.procs:
            p.cleanup()


def start_agentx(seg):
    snmpd = H.Snmpd().start()
    try:
        agent = H.Agent([seg], snmpd=snmpd).start(wait_oid=GLOBAL_RX)
    except H.HarnessError:
        snmpd.cleanup()
        raise
    return Server("agentx", snmpd.port, [agent, snmpd], 3)


def start_standalone(seg):
    agent = H.Agent([seg], standalone=True).start(wait_oid=GLOBAL_RX)
    return Server("standalone", agent.port, [agent], 3)


def find_module(build):
    path = os.path.join(build, "subagent", "module", "fastmib_snmpd.so")
    return path if os.path.exists(path) else None


def start_dlmod(seg, module):
    snmpd = H.Snmpd()
    with open(snmpd.conf, "a") as f:
        f.write("dlmod fastmib %s\nfastmibSegment %s\n" % (module, seg))
    snmpd.start()
    try:
        H.wait_for(lambda: snmpd.client.get([GLOBAL_RX]).varbinds and
                   snmpd.client.get([GLOBAL_RX]).varbinds[0].value is not None,
                   20, "snmpd fastmib module serving")
    except H.HarnessError:
        snmpd.cleanup()
        raise
    return Server("dlmod", snmpd.port, [snmpd], 3)


class PeerProc:
    def __init__(self, proc):
        self.proc = proc

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_peer(seg, stat, period, rows):
    snmpd = H.Snmpd().start()
    proc = subprocess.Popen(
        ["/usr/bin/python3", os.path.join(HERE, "pyagentx_peer.py"), snmpd.sock, stat,
         seg, str(period)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    srv = Server("pyagentx", snmpd.port, [PeerProc(proc), snmpd], 2)
    last = "%s.%d" % (FLOW_PKTS, rows)
    try:
        H.wait_for(lambda: proc.poll() is None and
                   snmpd.client.get([last]).varbinds[0].value is not None,
                   30 + 2 * period, "pyagentx peer serving", interval=0.2)
    except Exception:
        srv.cleanup()
        raise
    return srv


# ---------------------------------------------------------------- measurements

def cpu_seconds(procs):
    """User + system CPU time so far of the server's processes."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in procs:
        proc = getattr(p, "proc", None)
        if proc is None or proc.poll() is not None:
            continue
        with open("/proc/%d/stat" % proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def bulkwalk(port, root, procs=()):
    """(wall seconds, lines, server CPU seconds) of one walk."""
    cmd = ["snmpbulkwalk", "-v2c", "-c", "public", "-Cr50", "-On", "-Oq", "-m", "",
           "-t", "5", "-r", "1", "udp:127.0.0.1:%d" % port, root]
    c0 = cpu_seconds(procs)
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800,
                         env=dict(os.environ, MIBS="", MIBDIRS="")).stdout
    dt = time.monotonic() - t0
    lines = [ln for ln in out.splitlines() if ln.startswith(".")]
    return dt, lines, cpu_seconds(procs) - c0


def check_column(lines, rows, adds):
    """Column 1 of the flow table: row r holds r + 1 (+ the freshness adds)."""
    pk = [ln for ln in lines if ln.startswith("." + FLOW_PKTS + ".")]
    if len(pk) != rows:
        raise H.HarnessError("walk returned %d pkts varbinds, expected %d" % (len(pk), rows))
    for ln in pk:
        oid, val = ln.split(" ", 1)
        i = int(oid.rsplit(".", 1)[1])
        want = i + (adds if i == FRESH_ROW + 1 else 0)
        if int(val) != want:
            raise H.HarnessError("row %d: %s, expected %d" % (i, val, want))


def get_latency(port, n):
    c = RawClient(port)
    lat = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            if c.get(GLOBAL_RX) is None:
                raise H.HarnessError("GET %s: no value" % GLOBAL_RX)
            lat.append(time.perf_counter() - t0)
    finally:
        c.close()
    lat.sort()
    return statistics.median(lat) * 1e6, lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e6


def freshness(port, filler, samples, deadline, state, phase=0.0):
    """state['adds']: packets already added to the probed row (all servers
    read the same segment, so the expected value grows across servers).
    phase: for a polling server, wait a random 0..phase seconds before each
    update, so that updates do not all land just after a refresh (the time
    an update waits depends on where in the polling period it falls)."""
    c = RawClient(port)
    oid = "%s.%d" % (FLOW_PKTS, FRESH_ROW + 1)
    out = []
    try:
        for _ in range(samples):
            if phase:
                time.sleep(random.uniform(0, phase))
            state["adds"] += 1
            want = FRESH_ROW + 1 + state["adds"]
            t0 = time.perf_counter()
            filler.flow_add(FRESH_ROW, 1)
            while True:
                v = c.get(oid)
                if v == want:
                    break
                if time.perf_counter() - t0 > deadline:
                    raise H.HarnessError("value %s never reached %d" % (v, want))
            out.append(time.perf_counter() - t0)
    finally:
        c.close()
    return out


def fmt_ms(v):
    return "%.3f" % (v * 1e3) if v < 1 else "%.0f" % (v * 1e3)


def spread(v):
    return statistics.median(v), min(v), max(v)


def measure(srv, args, filler, state, walk_all):
    res = {"name": srv.name}
    walls, cpus = [], []
    for _ in range(args.walks if srv.name != "pyagentx" else 1):
        dt, lines, cpu = bulkwalk(srv.port, FLOW_TABLE, srv.procs)
        check_column(lines, args.rows, state["adds"])
        walls.append(dt)
        cpus.append(cpu)
    res["all"] = (len(lines), statistics.median(walls))
    res["wall"], res["cpu"] = spread(walls), spread(cpus)
    dt, lines, _ = bulkwalk(srv.port, FLOW_PKTS)
    check_column(lines, args.rows, state["adds"])
    res["col"] = (len(lines), dt)
    res["get"] = get_latency(srv.port, args.gets)
    if srv.name == "pyagentx":
        f = freshness(srv.port, filler, args.peer_fresh, 3 * args.peer_period + 30, state,
                      phase=args.peer_period)
    else:
        f = freshness(srv.port, filler, args.fresh, 5.0, state)
    res["fresh"] = (statistics.median(f), max(f))
    return res


def report(results, args):
    ref = next((r for r in results if r["name"] == "agentx"), results[0])
    print("\nflow table: %d rows; snmpbulkwalk -v2c -Cr50; GET of epGlobalRxPkts.0 x %d"
          % (args.rows, args.gets))
    hdr = ("server", "walk vbs", "s", "vb/s", "x agentx", "col vbs", "s", "vb/s",
           "GET med us", "p99 us", "fresh med ms", "max ms")
    print("%-11s %9s %7s %8s %8s | %8s %7s %8s | %10s %8s | %12s %8s" % hdr)
    for r in results:
        na, ta = r["all"]
        nc, tc = r["col"]
        ra = na / ta
        print("%-11s %9d %7.2f %8.0f %8.2f | %8d %7.2f %8.0f | %10.0f %8.0f | %12s %8s" % (
            r["name"], na, ta, ra, ra / (ref["all"][0] / ref["all"][1]), nc, tc, nc / tc,
            r["get"][0], r["get"][1], fmt_ms(r["fresh"][0]), fmt_ms(r["fresh"][1])))
    print("\nwhole-table walk, %d times: wall and server CPU (snmpd + agent processes), "
          "median (min..max); ratios of medians to agentx" % args.walks)
    print("%-11s %24s %9s %26s %9s" % ("server", "wall s", "x agentx", "server CPU s",
                                       "x agentx"))
    for r in results:
        w, c = r["wall"], r["cpu"]
        print("%-11s %8.2f (%5.2f..%5.2f) %9.1f %10.2f (%5.2f..%5.2f) %9.1f" % (
            r["name"], w[0], w[1], w[2], ref["wall"][0] / w[0], c[0], c[1], c[2],
            ref["cpu"][0] / c[0] if c[0] > 0 else float("inf")))
    if args.no_peer:
        print("(pyagentx peer not run)")
    else:
        print("pyagentx peer: copy refreshed every %g s by fastmib-stat --json"
              % args.peer_period)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--rows", type=int, default=65536)
    ap.add_argument("--gets", type=int, default=500)
    ap.add_argument("--fresh", type=int, default=20)
    ap.add_argument("--peer-period", type=float, default=5.0)
    ap.add_argument("--peer-fresh", type=int, default=6)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--walks", type=int, default=3)
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.environ["FASTMIB_AGENTX"] = os.path.join(build, "subagent", "agentx", "fastmib-agentx")
    filler_bin = os.path.join(build, "bench", "snmp", "fastmib-bench-filler")
    stat = os.path.join(build, "tools", "fastmib-stat")
    if not args.no_peer:
        try:
            import pyagentx  # noqa: F401
        except ImportError:
            print("python3-pyagentx is not installed: peer skipped "
                  "(scripts/bench.sh installs it)")
            args.no_peer = True

    segdir = tempfile.mkdtemp(prefix=tagged("bsnmp-"), dir="/dev/shm")
    seg = os.path.join(segdir, "ep.seg")
    filler = Filler(filler_bin, seg, args.rows, "w")
    state = {"adds": 0}
    results = []
    starters = [("agentx", lambda: start_agentx(seg)),
                ("standalone", lambda: start_standalone(seg))]
    module = find_module(build)
    if module:
        starters.append(("dlmod", lambda: start_dlmod(seg, module)))
    else:
        print("snmpd fastmib module not built: dlmod skipped")
    if not args.no_peer:
        starters.append(("pyagentx", lambda: start_peer(seg, stat, args.peer_period,
                                                        args.rows)))
    try:
        for name, start in starters:
            srv = start()
            try:
                print("measuring %s ..." % name, flush=True)
                results.append(measure(srv, args, filler, state, True))
            finally:
                srv.cleanup()
    finally:
        filler.close()
        for f in glob.glob(os.path.join(segdir, "*")):
            os.unlink(f)
        os.rmdir(segdir)
    report(results, args)


if __name__ == "__main__":
    main()
