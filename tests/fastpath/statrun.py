# SPDX-License-Identifier: BSD-3-Clause
"""What the tests of fastmib-stat's output share: running it, the text it
is expected to print, and the test writers that make its segments
(mkkeyed, mkstates), once or held running."""
import os
import subprocess
import textwrap

STAT = os.environ["FASTMIB_STAT"]


def stat(*args, check=True, timeout=60, **kw):
    """fastmib-stat ARGS, run to its end; with `check` it must succeed. No
    terminal on stdin unless a test gives one: --reset would ask."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    p = subprocess.run([STAT, *args], capture_output=True, text=True, timeout=timeout, **kw)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def text(s):
    return textwrap.dedent(s).lstrip("\n")


def make(writer, path, args, hold=False):
    """A segment at `path` from test writer `writer` and its ARGs: its path
    once the writer is done, or with `hold` the writer's process, running
    and ready for tell()."""
    cmd = [writer, str(path)] + (["--hold"] if hold else []) + list(args)
    if hold:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        for line in p.stdout:
            if line.strip() == "ready":
                return p
        raise AssertionError("%s --hold: %s" % (writer, p.stderr.read()))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return str(path)


def tell(p, *args):
    """Send a held writer ARGs on one line (applied one right after the
    other); the lines it printed before its "ok"."""
    p.stdin.write("\t".join(args) + "\n")
    p.stdin.flush()
    said = []
    while True:
        line = p.stdout.readline().strip()
        if line in ("ok", "error"):
            break
        said.append(line)
    assert line == "ok", args
    return said
