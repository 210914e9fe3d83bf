"""Shared helpers of the system tests: run the example DPDK application
and fastmib-stat as real processes."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))

import dpdkapp  # noqa: E402
from suiterun import tagged  # noqa: E402

EXAMPLE = os.environ.get("FASTMIB_EXAMPLE", "")
STAT = os.environ.get("FASTMIB_STAT", "")

# Packet length net_null delivers by default: bytes counters are exact
# multiples of it.
NULL_PKT_LEN = 64


def eal_prefix(tmp_path):
    """A --file-prefix of this test alone: its runtime directory too."""
    return tagged(os.getpid(), "_", tmp_path.name)


def eal_args(tmp_path, lcores="0-1", ports=2, telemetry=False, shconf=False,
             prefix=None):
    """EAL options for a hugepage-free run on virtual ports.

    `lcores` is passed to -l, or to --lcores when it contains '@' (more
    lcores than CPUs). `telemetry`: DPDK telemetry on (its socket in the
    runtime directory); `shconf`: shared configuration files there too,
    as an application run without --no-shconf has."""
    args = ["--lcores", lcores] if "@" in lcores else ["-l", lcores]
    args += ["--no-huge", "--no-pci", "-m", "256",
             f"--file-prefix={prefix or eal_prefix(tmp_path)}", "--log-level=*:warning"]
    if not shconf:
        args.append("--no-shconf")
    if not telemetry:
        args.append("--no-telemetry")
    args += [f"--vdev=net_null{i}" for i in range(ports)]
    return args


def need_binaries():
    if not (EXAMPLE and STAT and Path(EXAMPLE).exists() and Path(STAT).exists()):
        pytest.fail("FASTMIB_EXAMPLE / FASTMIB_STAT not set: run through ctest")


class App:
    """One run of fastmib-example; `summary` is its --summary JSON."""

    def __init__(self, tmp_path, app_args, lcores="0-1", ports=2, telemetry=False,
                 shconf=False, eal_extra=(), prefix=None, name="seg"):
        need_binaries()
        self.segment = tmp_path / name
        self.summary_path = tmp_path / f"{name}-summary.json"
        self.prefix = prefix or eal_prefix(tmp_path)
        # where the EAL keeps its runtime files (and telemetry socket)
        self.rundir = Path(dpdkapp.runtime_dir(self.prefix))
        self.telemetry_socket = self.rundir / dpdkapp.SOCKET_NAME
        self.cmd = ([EXAMPLE] + eal_args(tmp_path, lcores, ports, telemetry, shconf,
                                         self.prefix) + list(eal_extra) +
                    ["--", "--segment", str(self.segment),
                     "--summary", str(self.summary_path)] + app_args)
        self.proc = None
        self.stdout = self.stderr = ""

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        return self

    def wait(self, timeout=60):
        self.stdout, self.stderr = self.proc.communicate(timeout=timeout)
        return self.proc.returncode

    def run(self, timeout=60):
        self.start()
        rc = self.wait(timeout)
        assert rc == 0, f"app failed ({rc}):\n{self.stdout}\n{self.stderr}"
        return self

    def stop(self, sig=signal.SIGINT, timeout=30):
        self.proc.send_signal(sig)
        return self.wait(timeout)

    def kill(self):
        """SIGKILL if still running; what it could not clean up then is
        removed here (the application removes its own runtime directory
        when it exits by itself or on SIGINT/SIGTERM, not when it fails
        before its exit handler or crashes)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()
        shutil.rmtree(self.rundir, ignore_errors=True)

    def wait_for_segment(self, deadline_s=20):
        """Poll until the segment exists and fastmib-stat can read it."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            assert self.proc.poll() is None, self.proc.communicate()
            if self.segment.exists():
                r = stat(self.segment, "--json", check=False)
                if r.returncode == 0:
                    return json.loads(r.stdout)
            time.sleep(0.05)
        pytest.fail(f"segment {self.segment} did not appear")

    @property
    def summary(self):
        return json.loads(self.summary_path.read_text())


def stat(*args, check=True, timeout=30):
    need_binaries()
    # never a terminal on stdin, even under pytest -s: --reset would ask
    r = subprocess.run([STAT] + [str(a) for a in args], capture_output=True,
                       stdin=subprocess.DEVNULL, text=True, timeout=timeout)
    if check:
        assert r.returncode == 0, f"fastmib-stat {args}: {r.returncode}\n{r.stderr}"
    return r


def stat_json(segment, *args):
    return json.loads(stat(segment, "--json", *args).stdout)


def mib(prefix, *parts):
    """`ep`, `portQueue`, `pkts` -> `epPortQueuePkts` (docs/model.md, "Names")."""
    return prefix + "".join(p[0].upper() + p[1:] for p in parts)


@pytest.fixture
def app_factory(tmp_path):
    apps = []

    def make(app_args, **kw):
        a = App(tmp_path, app_args, **kw)
        apps.append(a)
        return a

    yield make
    for a in apps:
        a.kill()
