# SPDX-License-Identifier: BSD-3-Clause
"""Fixtures of the SNMP system tests: a segment filled by fm-writer, served
in each of the three modes: fastmib-agentx behind a real snmpd (AgentX),
fastmib-agentx standalone, or the fastmib module loaded into snmpd."""
import json
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))

import dpdkapp  # noqa: E402
import snmpharness as h  # noqa: E402

MODULE = "EXAMPLE-DATAPLANE-MIB"

MODES = ["agentx", "standalone", "module"]


def writer_binary(var="FM_WRITER"):
    path = os.environ.get(var)
    if not path or not os.access(path, os.X_OK):
        raise h.HarnessError("%s does not name an fm-writer binary" % var)
    return path


def oid_key(oid):
    return tuple(int(x) for x in oid.split("."))


class Expectations:
    """What fm-writer says SNMP must report."""

    def __init__(self, path):
        with open(path) as f:
            d = json.load(f)
        self.root = d["root"]
        self.module = d["module"]
        self.prefix = d["prefix"]
        self.generation = d["generation"]
        # the states' values on the wire, as net-snmp's tools print them
        self.states = d["states"]
        self.objects = sorted(
            [(o["oid"], o["type"],
              o["value"] if o["type"] == "STRING" else int(o["value"]))
             for o in d["objects"]] +
            [(o["oid"],) + h.printed(o["syntax"], o["value"]) for o in self.states],
            key=lambda t: oid_key(t[0]))
        self.by_oid = {o: (t, v) for o, t, v in self.objects}
        # what a reset leaves as it is: the bounds of histogram buckets
        self.levels = set(d["levels"])
        self.absent = d["absent"]
        # sets read as one snapshot: values stay proportional to the weights
        self.invariants = [[(o, w) for o, w in s] for s in d["invariants"]]
        # shared-atomic sets: each counter on its own, never going backwards
        self.monotonic = [[(o, w) for o, w in s] for s in d["monotonic"]]
        # keyed tables: their indexes and keys; where the file keeps keys
        self.keyed = d["keyed"]
        self.layout = d["layout"]

    def oid(self, *suffix):
        return self.root + "." + ".".join(str(x) for x in suffix)

    def value(self, *suffix):
        return self.by_oid[self.oid(*suffix)][1]


class Writer:
    """fm-writer for the example model, or (binary_var="FM_WRITER_SB") for
    the second test model, whose root differs."""

    def __init__(self, segment, workdir, binary_var="FM_WRITER"):
        self.segment = segment
        self.dir = workdir
        self.binary = writer_binary(binary_var)
        self.n = 0
        self.live_proc = None
        self.prefixes = []

    def _eal_prefix(self):
        """Unique per run: writers of one test process never share it."""
        self.prefixes.append(dpdkapp.unique_prefix("w"))
        return self.prefixes[-1]

    def _expect_path(self):
        self.n += 1
        return os.path.join(self.dir, "expect-%s-%d.json" % (
            os.path.basename(self.segment), self.n))

    def fill(self, scale=1, rows="sparse"):
        exp = self._expect_path()
        prefix = self._eal_prefix()
        try:
            r = subprocess.run([self.binary, "fill", self.segment, exp,
                                "--scale", str(scale), "--rows", rows,
                                "--file-prefix", prefix],
                               capture_output=True, text=True, timeout=120)
        finally:  # it has ended, whichever way
            shutil.rmtree(dpdkapp.runtime_dir(prefix), ignore_errors=True)
        if r.returncode != 0:
            raise h.HarnessError("fm-writer fill: %s %s" % (r.stdout, r.stderr))
        return Expectations(exp)

    def live(self):
        exp = self._expect_path()
        self.live_proc = subprocess.Popen(
            [self.binary, "live", self.segment, exp,
             "--file-prefix", self._eal_prefix()],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.live_proc.stdout.readline()  # blocks until ready or exit
        if line.strip() != "ready":
            raise h.HarnessError("fm-writer live: %s" % self.live_proc.stderr.read())
        return Expectations(exp)

    def events(self, scale=1):
        """Events mode: counters filled, then records logged (and keys
        inserted and removed) on command()."""
        exp = self._expect_path()
        self.live_proc = subprocess.Popen(
            [self.binary, "events", self.segment, exp, "--scale", str(scale),
             "--file-prefix", self._eal_prefix()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        line = self.live_proc.stdout.readline()
        if line.strip() != "ready":
            raise h.HarnessError("fm-writer events: %s" % self.live_proc.stderr.read())
        return Expectations(exp)

    def command(self, cmd):
        """Run one events-mode command; the records it logged, in order."""
        self.live_proc.stdin.write(cmd + "\n")
        self.live_proc.stdin.flush()
        line = self.live_proc.stdout.readline()
        if not line:
            raise h.HarnessError("fm-writer %s: %s" % (cmd, self.live_proc.stderr.read()))
        return json.loads(line)

    def stop_live(self):
        if self.live_proc and self.live_proc.poll() is None:
            if self.live_proc.stdin:
                self.live_proc.stdin.close()  # events mode ends at end of input
                try:
                    self.live_proc.wait(30)
                except subprocess.TimeoutExpired:
                    pass
            if self.live_proc.poll() is None:
                self.live_proc.terminate()
                try:
                    self.live_proc.wait(30)
                except subprocess.TimeoutExpired:
                    self.live_proc.kill()
                    self.live_proc.wait()
        self.live_proc = None

    def cleanup(self):
        """After the last run: the runtime directories of runs that could
        not remove their own (killed, or failed before their exit handler)."""
        self.stop_live()
        for p in self.prefixes:
            shutil.rmtree(dpdkapp.runtime_dir(p), ignore_errors=True)


class Served:
    """One segment served by one agent, reached through `client`; written
    by fm-writer for the example model, or by another fm-writer
    (`binary_var`, Writer)."""

    def __init__(self, mode, workdir, binary_var="FM_WRITER"):
        self.mode = mode
        self.dir = workdir
        self.segment = os.path.join(workdir, "ep.seg")
        self.writer = Writer(self.segment, workdir, binary_var)
        self.snmpd = None
        self.agent = None
        self.expect = None

    def start(self, live=False, extra_segments=(), agent_args=(), wrapper=(),
              events=False, trap_port=None, module_lines=(), rows="sparse",
              snmpd_lines=()):
        """`events`: fm-writer in events mode (see Writer.events());
        `trap_port`: where the serving agent sends notifications;
        `rows`: fm-writer's `--rows` (sparse, or all rows of every table);
        `snmpd_lines`: more snmpd.conf lines in AgentX mode;
        `agent_args` (fastmib-agentx) and `module_lines` (snmpd.conf) are
        the same settings for the two kinds of front end."""
        if events:
            self.expect = self.writer.events()
        else:
            self.expect = self.writer.live() if live else self.writer.fill(rows=rows)
        segments = [self.segment] + list(extra_segments)
        sink = [h.trap_sink_line(trap_port)] if trap_port else []
        if self.mode == "module":
            self.agent = h.ModuleAgent(segments, extra_lines=list(module_lines) + sink)
            self.snmpd = self.agent.snmpd
        else:
            if self.mode == "agentx":
                self.snmpd = h.Snmpd(extra_lines=list(snmpd_lines) + sink).start()
            self.agent = h.Agent(segments, self.snmpd,
                                 standalone=self.mode == "standalone",
                                 extra_args=agent_args, wrapper=wrapper,
                                 extra_conf=sink if self.mode == "standalone" else ())
        self.agent.start(wait_oid=self.first_oid())
        self.client = self.agent.client
        # NET-SNMP-MIB (netSnmpExperimental) comes with Debian's snmp package
        mib_dirs = [os.environ.get("FASTMIB_BASE_MIBS", ""),
                    os.environ.get("FASTMIB_MIB_DIR", ""), "/usr/share/snmp/mibs"]
        self.client.mib_module = MODULE
        self.client.mib_dirs = mib_dirs
        return self

    def first_oid(self):
        return self.expect.oid(1, 1, 1, 0)  # epGlobalRxPkts.0

    def refill(self, scale):
        """Re-create the segment with new values; wait until served."""
        self.expect = self.writer.fill(scale=scale)
        want = self.expect.by_oid[self.first_oid()][1]
        def served_now():
            r = self.client.get([self.first_oid()])
            return r.varbinds and r.varbinds[0].value == want  # errors meanwhile

        h.wait_for(served_now, 20, "new generation served", interval=0.1)
        return self.expect

    def close(self):
        self.writer.cleanup()
        # in module mode the agent is the snmpd
        h.shut_down(self.agent, self.snmpd if self.mode != "module" else None)


def serve(mode, tmp_path_factory, **start_args):
    """Body of a fixture: one segment served in `mode` (Served.start())."""
    s = Served(mode, str(tmp_path_factory.mktemp(mode)))
    try:
        yield s.start(**start_args)
    finally:
        s.close()


@pytest.fixture(scope="module", params=MODES)
def served(request, tmp_path_factory):
    yield from serve(request.param, tmp_path_factory)


@pytest.fixture(scope="module")
def served_agentx(tmp_path_factory):
    yield from serve("agentx", tmp_path_factory)
