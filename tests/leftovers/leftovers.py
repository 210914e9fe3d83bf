#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""A run of the test suite leaves the machine as it found it.

  leftovers.py begin|end --tag TAG --tmpdir DIR --state DIR

`begin` (ctest's suite.begin, the fixture setup every test requires)
makes the run's temporary directory and records what already carries
this build tree's tag. `end` (suite.leftovers, which ctest runs after the
last test) lists what carries the tag now and did not then, fails naming
each, and removes it: processes are killed (they carry the tag in their
environment and began during the run: this run started them), files and
directories deleted.

Looked at:
- the EAL runtime base (/var/run/dpdk as root; $XDG_RUNTIME_DIR/dpdk or
  /tmp/dpdk otherwise), /dev/shm and /tmp: entries whose name holds TAG;
- the run's temporary directory (TMPDIR of every test): every entry;
- the process table: processes whose environment holds FASTMIB_TEST_TAG=TAG
  (snmpd, snmptrapd, fastmib-*, dpdk-testpmd, fm-writer, ... whatever a
  test started inherits it), never another process.

Other developers' runs carry other tags (another build tree), so nothing
of theirs is looked at. Two runs of one build tree at once (two ctest
commands) share the tag: a run that ends while the other is still going
leaves the check to the last one, whose record then counts only what was
there before either began.
"""
import argparse
import fcntl
import json
import os
import shutil
import signal
import stat
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

import dpdkapp  # noqa: E402  (where the EAL puts runtime directories)

ENV_KEY = "FASTMIB_TEST_TAG"
TAGGED_DIRS = ["/dev/shm", "/tmp"]


# ---- processes ----

def proc_stat(pid):
    """(ppid, start time in clock ticks, comm) of `pid`, or None."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    # fields[0] is the state (field 3 of proc(5)): ppid is 4, starttime 22
    return int(fields[1]), int(fields[19]), comm


def ctest_of_this_run():
    """(pid, start time) of the ctest that runs this test: the run's identity."""
    pid = os.getppid()
    while pid > 1:
        st = proc_stat(pid)
        if st is None:
            break
        if st[2] == "ctest":
            return pid, st[1]
        pid = st[0]
    st = proc_stat(os.getppid())
    return os.getppid(), st[1] if st else 0


def alive(pid, start):
    st = proc_stat(pid)
    return st is not None and st[1] == start


def tagged_processes(tag):
    """{(pid, start): description} of processes carrying the tag."""
    want = ("%s=%s" % (ENV_KEY, tag)).encode()
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        pid = int(name)
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                env = f.read().split(b"\0")
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue  # gone, or not ours to read
        st = proc_stat(pid)
        if want in env and st is not None:
            found[(pid, st[1])] = "process %d (%s): %s" % (pid, st[2], cmd[:300])
    return found


# ---- files ----

def tagged_paths(tag, tmpdir):
    """{path: description} of what carries the tag, and of what is in the
    run's temporary directory."""
    found = {}
    rundir_base = os.path.dirname(dpdkapp.runtime_dir("x"))
    for where, what in [(rundir_base, "EAL runtime directory")] + \
            [(d, None) for d in TAGGED_DIRS]:
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for n in names:
            p = os.path.join(where, n)
            if tag in n and p != tmpdir:
                found[p] = "%s %s" % (what or kind(p), p)
    try:
        for n in os.listdir(tmpdir):
            p = os.path.join(tmpdir, n)
            found[p] = "%s %s (in the run's temporary directory)" % (kind(p), p)
    except OSError:
        pass
    return found


def kind(path):
    try:
        m = os.lstat(path).st_mode
    except OSError:
        return "entry"
    if stat.S_ISDIR(m):
        return "directory"
    if stat.S_ISSOCK(m):
        return "socket"
    return "file"


def remove(path):
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
        return None
    except OSError as e:
        return str(e)


# ---- the run's record ----

class Record:
    """The state directory's record of the runs of this tree under way."""

    def __init__(self, state_dir, run):
        self.dir = state_dir
        self.run = run
        os.makedirs(state_dir, exist_ok=True)
        self.lock = open(os.path.join(state_dir, "runs.lock"), "w")
        fcntl.flock(self.lock, fcntl.LOCK_EX)

    def path(self, run):
        return os.path.join(self.dir, "run-%d-%d.json" % run)

    def runs(self):
        out = []
        for n in os.listdir(self.dir):
            if n.startswith("run-") and n.endswith(".json"):
                pid, start = n[4:-5].split("-")
                out.append((int(pid), int(start)))
        return out

    def load(self, run):
        try:
            with open(self.path(run)) as f:
                d = json.load(f)
        except (OSError, ValueError):
            return None
        return set(d["paths"]), {(p, s) for p, s in d["processes"]}

    def save(self, run, paths, procs):
        tmp = self.path(run) + ".new"
        with open(tmp, "w") as f:
            json.dump({"paths": sorted(paths), "processes": sorted(procs)}, f)
        os.replace(tmp, self.path(run))

    def drop(self, run):
        try:
            os.unlink(self.path(run))
        except OSError:
            pass


# ---- begin / end ----

def make_tmpdir(tmpdir):
    """The run's temporary directory: reachable by a test that drops its
    privileges (fastmib-agentx -u nobody), never someone else's."""
    try:
        os.mkdir(tmpdir, 0o755)
        os.chmod(tmpdir, 0o755)
    except FileExistsError:
        st = os.lstat(tmpdir)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            sys.exit("suite.begin: %s exists and is not a directory of this user" % tmpdir)


def begin(args, rec):
    for run in rec.runs():  # a run killed before its end: nothing to wait for
        if run != rec.run and not alive(*run):
            rec.drop(run)
    make_tmpdir(args.tmpdir)
    paths = tagged_paths(args.tag, args.tmpdir)
    procs = tagged_processes(args.tag)
    rec.save(rec.run, paths, procs)
    print("suite.begin: tag %s, temporary directory %s; %d entries and %d processes "
          "carry the tag already (not this run's)" % (args.tag, args.tmpdir,
                                                      len(paths), len(procs)))
    return 0


def end(args, rec):
    base = rec.load(rec.run)
    if base is None:
        print("suite.leftovers: no record of this run's beginning (suite.begin did "
              "not run): nothing to compare with")
        return 0
    rec.drop(rec.run)
    others = [r for r in rec.runs() if alive(*r)]
    if others:
        for r in others:  # the last run to end checks for both
            theirs = rec.load(r)
            if theirs is not None:
                rec.save(r, theirs[0] & base[0], theirs[1] & base[1])
        print("suite.leftovers: another run of this build tree (ctest %s) is under "
              "way; it checks what both leave" % ", ".join(str(p) for p, _ in others))
        return 0

    procs = {k: v for k, v in tagged_processes(args.tag).items() if k not in base[1]}
    paths = {k: v for k, v in tagged_paths(args.tag, args.tmpdir).items()
             if k not in base[0]}
    if procs or paths:
        print("suite.leftovers: this run of the suite left %d thing(s) behind:" %
              (len(procs) + len(paths)))
        for d in sorted(procs.values()) + sorted(paths.values()):
            print("  " + d)
    problems = kill(procs, args.tag) + [
        "cannot remove %s: %s" % (p, e) for p, e in
        ((p, remove(p)) for p in sorted(paths, key=len, reverse=True)) if e]
    if procs or paths:
        print("removed them%s" % (":" if problems else "."))
    for p in problems:
        print("  " + p)
    try:
        os.rmdir(args.tmpdir)  # made by suite.begin; empty now
    except OSError:
        pass
    if not (procs or paths):
        print("suite.leftovers: nothing left behind (tag %s)" % args.tag)
    return 1 if procs or paths else 0


def kill(procs, tag):
    """SIGKILL each leftover process still carrying the tag (the same
    process: same start time), then wait until each has gone."""
    problems = []
    for pid, start in procs:
        if alive(pid, start) and (pid, start) in tagged_processes(tag):
            try:
                os.kill(pid, signal.SIGCONT)  # a stopped one dies only when it runs
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    deadline = time.monotonic() + 10
    for pid, start in procs:
        while alive(pid, start) and not zombie(pid):
            if time.monotonic() > deadline:
                problems.append("process %d did not die" % pid)
                break
            time.sleep(0.02)
    return problems


def zombie(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=["begin", "end"])
    ap.add_argument("--tag", required=True)
    ap.add_argument("--tmpdir", required=True)
    ap.add_argument("--state", required=True)
    args = ap.parse_args()
    rec = Record(args.state, ctest_of_this_run())
    return begin(args, rec) if args.step == "begin" else end(args, rec)


if __name__ == "__main__":
    sys.exit(main())
