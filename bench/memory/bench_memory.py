#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What a table of 1,048,576 rows of eight Counter64 (per-core) costs on 2
lcores: the segment's file size and the memory it really takes (allocated
blocks), and fastmib-stat's time and private memory (peak RssAnon, the
mapped segment's file-backed pages not counted) for its outputs, streamed
(the default) and through a snapshot of every row (--sort, which needs
them all), side by side in one run.

  bench_memory.py --build BUILD [--check]

--check (what ctest runs): the memory bounds asserted instead of a table:
the segment takes at most 1.1 x the two lcores' 64 MiB plus its bitmaps,
a streamed --json takes under 32 MiB, and the streamed outputs are the
snapshot's, byte for byte, over more rows than one stream range."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROWS = 1 << 20
PER_LCORE = ROWS * 8 * 8          # 8 Counter64 per row
BITMAPS = 3 * ROWS // 8           # presence, its summary, stored baselines


def rss_anon(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(cmd):
    """(seconds, peak RssAnon bytes) of cmd, its output discarded."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        peak = max(peak, rss_anon(p.pid))
        time.sleep(0.005)
    if p.returncode != 0:
        sys.exit(f"{cmd}: exit status {p.returncode}")
    return time.monotonic() - start, peak


def output(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    # the snapshot's title line names its order; the time differs by run
    return [ln for ln in out.replace(", by bgConnConnId ascending", "").splitlines()
            if not ln.lstrip().startswith('"time"')]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    writer = os.path.join(a.build, "bench/memory/fastmib-bench-memory-writer")
    stat = os.path.join(a.build, "tools/fastmib-stat")
    if os.path.isdir(stat):
        stat = os.path.join(stat, "fastmib-stat")
    # names carry the test suite's tag, when run by it (what it may leave)
    tag = os.environ.get("FASTMIB_TEST_TAG", "fastmib")
    shm = tempfile.mkdtemp(prefix=tag + "-bench-memory-", dir="/dev/shm")
    seg = os.path.join(shm, "segment")
    prefix = "%s-bench-memory-%d" % (tag, os.getpid())
    w = subprocess.Popen([writer, "-l", "0-1", "--no-huge", "--no-pci", "--no-shconf",
                          "--no-telemetry", "-m", "64", "--file-prefix", prefix, "--", seg],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if w.stdout.readline().strip() != "ready":
            sys.exit("the writer did not start")
        st = os.stat(seg)
        allocated = st.st_blocks * 512
        bound = 1.1 * 2 * PER_LCORE + BITMAPS
        if a.check:
            assert allocated <= bound, (allocated, bound)
            for extra in ([], ["--raw"], ["-H"], ["--json"], ["--json", "--json-strings"]):
                args = [stat, seg, "--rows", "10000", *extra]
                assert output(args) == output(args + ["--sort", "connId"]), extra
            secs, peak = measure([stat, seg, "--json"])
            assert peak < 32 << 20, peak
            print(f"ok: segment {allocated >> 20} MiB allocated (bound {bound / 2**20:.0f}), "
                  f"fastmib-stat --json {peak >> 10} KiB RssAnon")
            return
        print(f"table of {ROWS} rows x 8 Counter64, per-core, on 2 lcores (both write every row)")
        print(f"  segment file size   {st.st_size / 2**20:8.1f} MiB")
        print(f"  allocated (du)      {allocated / 2**20:8.1f} MiB  "
              f"(2 lcores x {PER_LCORE >> 20} MiB = {2 * PER_LCORE >> 20} MiB)")
        print(f"{'fastmib-stat':<38} {'seconds':>8} {'RssAnon':>12}")
        for label, extra in (("--json (streamed)", ["--json"]),
                             ("--json --sort connId (snapshot)", ["--json", "--sort", "connId"]),
                             ("text (streamed)", []),
                             ("text --sort connId (snapshot)", ["--sort", "connId"])):
            secs, peak = measure([stat, seg, *extra])
            print(f"  {label:<36} {secs:8.2f} {peak / 2**20:9.1f} MiB")
    finally:
        w.stdin.close()
        w.wait(timeout=60)
        subprocess.run(["rm", "-rf", shm])


if __name__ == "__main__":
    main()
