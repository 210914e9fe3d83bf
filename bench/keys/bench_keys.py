#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Keyed tables over SNMP: a walk of one column of a table keyed by
(peer inet-address, teid uint32) beside the same walk of an integer-indexed
table of as many rows, in the snmpd module and over AgentX, side by side in
one run; then, with --big, both at 1,048,576 rows in the module, to show
the per-row cost stays flat.

  bench_keys.py --build BUILD [--rows N] [--walks N] [--big] [--check]

Every walk is checked whole: the keyed column comes back in SNMP order (the
instances sorted as sub-identifier lists) with the exact value the writer
put in each key's row, the dense column as 1..N.

--check (what ctest runs): 3,000 rows, one walk per table and server, the
checks above and no table."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
import snmpharness as H  # noqa: E402
from suiterun import tagged  # noqa: E402

ROOT = "1.3.6.1.4.1.8072.9999.47"
KEYED_PKTS = ROOT + ".1.1.1.1"   # group arc 1, entry, column pkts
DENSE_PKTS = ROOT + ".1.2.1.1"   # group arc 2
EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "-m", "64"]


def key_suffix(i):
    """The SNMP index of key i as keys_bench.c makes it: (peer, teid)."""
    if i % 2 == 0:
        peer = [1, 4, 10, (i >> 17) & 255, (i >> 9) & 255, (i >> 1) & 255]
    else:
        peer = [2, 16, 0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0] + \
            [(i >> (8 * (7 - b))) & 255 for b in range(8)]
    return tuple(peer + [(i * 2654435761) & 0xFFFFFFFF])


def expected(rows):
    """{column: [(suffix, value)] in SNMP order}: row r holds key r, r + 1."""
    keyed = sorted((key_suffix(i), i + 1) for i in range(rows))
    dense = [((i + 1,), i + 1) for i in range(rows)]
    return {KEYED_PKTS: keyed, DENSE_PKTS: dense}


class Filler:
    def __init__(self, build, segment, rows):
        binary = os.path.join(build, "bench", "keys", "fastmib-bench-keys")
        self.proc = subprocess.Popen(
            [binary] + EAL + ["--file-prefix", tagged("bkeys-", os.getpid()),
                              "--", "fill", segment, "--rows", str(rows)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if line != "ready":
            raise H.HarnessError("fastmib-bench-keys fill did not start: %r" % line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)


def cpu_seconds(proc):
    tick = os.sysconf("SC_CLK_TCK")
    with open("/proc/%d/stat" % proc.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick


def walk(port, column, want, server_procs):
    """(wall s, server CPU s) of one snmpbulkwalk of `column`, checked."""
    cmd = ["snmpbulkwalk", "-v2c", "-c", "public", "-Cr50", "-On", "-Oq", "-m", "",
           "-t", "10", "-r", "1", "udp:127.0.0.1:%d" % port, column]
    c0 = sum(cpu_seconds(p) for p in server_procs)
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600,
                         env=dict(os.environ, MIBS="", MIBDIRS="")).stdout
    wall = time.monotonic() - t0
    cpu = sum(cpu_seconds(p) for p in server_procs) - c0
    got = []
    prefix = "." + column + "."
    for ln in out.splitlines():
        if not ln.startswith(prefix):
            continue
        oid, val = ln.split(" ", 1)
        got.append((tuple(int(a) for a in oid[len(prefix):].split(".")), int(val)))
    if got != want:
        n = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise H.HarnessError(
            "%s: %d instances, expected %d; first difference at #%d: got %r, expected %r" % (
                column, len(got), len(want), n, got[n] if n < len(got) else None,
                want[n] if n < len(want) else None))
    return wall, cpu


def start(mode, seg):
    if mode == "dlmod":
        srv = H.ModuleAgent([seg])
        try:
            srv.start(wait_oid=DENSE_PKTS + ".1")
        except H.HarnessError:
            srv.cleanup()
            raise
        return srv, [srv.snmpd.proc], lambda: srv.cleanup()
    snmpd = H.Snmpd().start()
    try:
        agent = H.Agent([seg], snmpd=snmpd).start(wait_oid=DENSE_PKTS + ".1")
    except H.HarnessError:
        snmpd.cleanup()
        raise
    return snmpd, [snmpd.proc, agent.proc], lambda: (agent.cleanup(), snmpd.cleanup())


def run(build, rows, walks, modes, tmp):
    seg = os.path.join(tmp, "keys.seg")
    want = expected(rows)
    filler = Filler(build, seg, rows)
    res = {}
    try:
        for mode in modes:
            srv, procs, stop = start(mode, seg)
            try:
                for col in (DENSE_PKTS, KEYED_PKTS):
                    res[mode, col] = [walk(srv.port, col, want[col], procs)
                                      for _ in range(walks)]
            finally:
                stop()
    finally:
        filler.close()
    return res


def show(res, rows, walks):
    print("\none column of %d rows, snmpbulkwalk -v2c -Cr50, %d walks: "
          "median (min..max)" % (rows, walks))
    print("%-7s %-6s %24s %12s %24s %10s" % ("server", "table", "wall s", "us/row",
                                            "server CPU s", "x dense"))
    for (mode, col), v in res.items():
        w = [a for a, _ in v]
        c = [b for _, b in v]
        dense = statistics.median(b for _, b in res[mode, DENSE_PKTS])
        print("%-7s %-6s %8.2f (%6.2f..%6.2f) %12.1f %8.2f (%6.2f..%6.2f) %10.2f" % (
            mode, "keyed" if col == KEYED_PKTS else "dense", statistics.median(w), min(w),
            max(w), statistics.median(w) / rows * 1e6, statistics.median(c), min(c), max(c),
            statistics.median(c) / dense if dense > 0 else float("nan")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--rows", type=int, default=65536)
    ap.add_argument("--walks", type=int, default=3)
    ap.add_argument("--big", action="store_true",
                    help="also walk both tables at 1,048,576 rows in the module")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    os.environ["FASTMIB_AGENTX"] = os.path.join(a.build, "subagent", "agentx", "fastmib-agentx")
    os.environ["FASTMIB_MODULE"] = os.path.join(a.build, "subagent", "module", "fastmib_snmpd.so")
    with tempfile.TemporaryDirectory(prefix=tagged("bench-keys-")) as tmp:
        if a.check:
            run(a.build, 3000, 1, ("dlmod", "agentx"), tmp)
            print("keyed and dense columns walked in SNMP order with exact values, "
                  "module and AgentX")
            return 0
        show(run(a.build, a.rows, a.walks, ("dlmod", "agentx"), tmp), a.rows, a.walks)
        if a.big:
            show(run(a.build, 1 << 20, 1, ("dlmod",), tmp), 1 << 20, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
