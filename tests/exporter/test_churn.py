# SPDX-License-Identifier: BSD-3-Clause
"""Keys come and go while four clients scrape: a running writer (mkkeyed
--hold) removes a tunnel's key and inserts another, which may take the
freed row, and adds to it, again and again. Every scrape must show each
key with its own value or, just inserted, zero: never another key's value
(each keyed row is read for the key it was found by)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import promserver as ps  # noqa: E402

KEYS = 200       # tunnels present at once
SCRAPES = 40     # each client's scrapes while keys are replaced, at least
ROUNDS = 200000  # keys replaced at most (a hang guard)


def key(j):
    return "tunnel/10.0.%d.%d,%d" % (j // 256 % 256, j % 256, j)


def test_keys_replaced_under_scrapes(tmp_path):
    seg = str(tmp_path / "churn.seg")
    w = subprocess.Popen([os.environ["MKKEYED"], seg, "--hold"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    e = None
    try:
        assert w.stdout.readline().strip() == "ready"

        def line(*args):
            w.stdin.write("\t".join(args) + "\n")
            w.stdin.flush()
            while True:  # an insert says its row first
                out = w.stdout.readline().strip()
                assert out and out != "error", args
                if out == "ok":
                    return
        for j in range(KEYS):
            line(key(j), "pkts=%d" % (j + 1))
        e = ps.Exporter([seg], str(tmp_path)).start()
        stop = threading.Event()
        row = re.compile(r'^kt_tunnel_pkts_total\{peer="([0-9.]+)",teid="(\d+)"\} (\d+)$', re.M)

        done = [0] * 4

        def scraper(k):
            n = 0
            while not stop.is_set():
                _, text = e.scrape()
                rows = row.findall(text)
                assert rows, "no tunnel"
                for peer, teid, v in rows:
                    j = int(teid)
                    assert peer == "10.0.%d.%d" % (j // 256 % 256, j % 256)
                    assert int(v) in (0, j + 1), (teid, v)
                n += 1
                done[k] = n
            return n
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            futs = [ex.submit(scraper, k) for k in range(4)]
            try:
                for r in range(ROUNDS):
                    if any(f.done() for f in futs) or min(done) >= SCRAPES:
                        break
                    j = KEYS + r
                    line("-" + key(r), key(j), "pkts=%d" % (j + 1))
            finally:
                stop.set()
            counts = [f.result() for f in futs]
            print("scrapes", counts, "rounds", r + 1)
            assert min(counts) >= SCRAPES
        assert e.proc.poll() is None
    finally:
        if e:
            e.stop()
        w.stdin.close()
        w.wait(timeout=60)
