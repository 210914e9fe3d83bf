#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Time fastmib-gen on a large synthetic model.

Usage: bench_gen.py FASTMIB_GEN [--counters N] [--runs R] [--keep DIR]

Writes a model of N counters (groups of 250, alternating storage kinds and
scalar/table shapes), runs the generator R times and prints the best and
median wall time and the size of each output. No pass/fail threshold:
the numbers are for docs/benchmarks, the exit status only reports errors.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

STORAGE = ["per-core", "shared-buffered", "shared-atomic"]
TYPES = ["counter64", "counter32", "gauge32"]


def model_text(n_counters, per_group=250):
    out = ["fastmib: 1", "module:", "  name: BENCH-GEN-MIB", "  prefix: bg",
           "  oid: 1.3.6.1.4.1.8072.9999.43", "  organization: Bench",
           "  contact: bench@example.org",
           "  description: A large synthetic model for generator timing.",
           "  revisions:", "    - { date: 2026-01-01, description: First. }",
           "groups:"]
    g = 0
    left = n_counters
    while left > 0:
        n = min(per_group, left)
        out += [f"  - name: group{g}", f"    oid: {g + 1}",
                f"    storage: {STORAGE[g % 3]}",
                f"    description: Synthetic group number {g}."]
        if g % 2:
            out += ["    table:", "      indexes:",
                    "        - { name: port, max: 4 }",
                    "        - { name: queue, max: 8 }",
                    "      rows: all" if g % 4 == 1 else "      rows: present"]
        out.append("    counters:")
        for i in range(n):
            t = TYPES[i % 3]
            extra = ", set: true" if t == "gauge32" and g % 3 == 2 else ""
            out.append(f"      - {{ name: c{i}, oid: {i + 1}, type: {t}, "
                       f"units: packets, description: Counter {i} of group {g}.{extra} }}")
        left -= n
        g += 1
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("--counters", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(a.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        model = work / "bench.yaml"
        model.write_text(model_text(a.counters))
        times = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            r = subprocess.run([a.gen, str(model), "-o", str(work / "out")],
                               capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            if r.returncode != 0:
                print(r.stderr)
                return 1
        print(f"model: {a.counters} counters, {model.stat().st_size} bytes")
        for f in sorted((work / "out").iterdir()):
            print(f"  {f.name}: {f.stat().st_size} bytes")
        print(f"fastmib-gen: best {min(times) * 1e3:.1f} ms, "
              f"median {statistics.median(times) * 1e3:.1f} ms over {a.runs} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
