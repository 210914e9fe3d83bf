# SPDX-License-Identifier: BSD-3-Clause
"""A DPDK application nobody here wrote, and its telemetry socket read
directly: dpdk-testpmd (Debian package dpdk-dev) forwarding between
net_null ports, started headless with its standard input held open (it
exits at end of input), and a small client of DPDK's telemetry protocol to
read what the application itself reports.

Each run gets its own --file-prefix, so its runtime directory (and
telemetry socket) is private; stop() removes that directory, also after
kill().
"""
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import time

from suiterun import tagged

TESTPMD = shutil.which("dpdk-testpmd") or "/usr/bin/dpdk-testpmd"
SOCKET_NAME = "dpdk_telemetry.v2"

_runs = itertools.count(1)


class DpdkAppError(RuntimeError):
    pass


def runtime_dir(prefix):
    """Where DPDK 22.11's EAL puts a process's runtime files (eal.c:
    /var/run for root, else $XDG_RUNTIME_DIR or /tmp), then dpdk/PREFIX."""
    if os.getuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR") or "/tmp"
    return os.path.join(base, "dpdk", prefix)


def unique_prefix(tag="tp"):
    """A --file-prefix of this test run (suiterun) and of no other EAL."""
    return tagged(tag, os.getpid(), "_", next(_runs))


class Telemetry:
    """A client of the telemetry socket: one connection, one command at a
    time. reply(cmd) returns the value of the answer."""

    def __init__(self, path, timeout=5.0):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.hello = json.loads(self.sock.recv(65536).decode())

    @property
    def pid(self):
        return self.hello["pid"]

    def reply(self, cmd):
        self.sock.send(cmd.encode())
        doc = json.loads(self.sock.recv(1 << 20).decode())
        return doc[cmd.split(",", 1)[0]]

    def ports(self):
        return sorted(self.reply("/ethdev/list"))

    def stats(self, port):
        return self.reply("/ethdev/stats,%d" % port)

    def info(self, port):
        return self.reply("/ethdev/info,%d" % port)

    def link(self, port):
        return self.reply("/ethdev/link_status,%d" % port)

    def close(self):
        self.sock.close()


class Testpmd:
    """dpdk-testpmd on `ports` net_null vdevs, io forwarding, started at
    once. `vdevs`: the devices' names in probe order (port id order),
    net_null0, net_null1, ... by default. `interactive`: its prompt reads
    commands from our pipe (command()) instead of waiting for a line to
    exit."""

    def __init__(self, ports=2, prefix=None, interactive=False, lcores="0-1",
                 log_dir=None, vdevs=None):
        self.vdevs = list(vdevs) if vdevs else ["net_null%d" % i for i in range(ports)]
        self.n_ports = len(self.vdevs)
        self.prefix = prefix or unique_prefix()
        self.dir = runtime_dir(self.prefix)
        self.socket = os.path.join(self.dir, SOCKET_NAME)
        self.interactive = interactive
        self.lcores = lcores
        self.log_path = os.path.join(log_dir, "testpmd-%s.log" % self.prefix) \
            if log_dir else os.devnull
        self.proc = None

    def command_line(self):
        cmd = [TESTPMD, "-l", self.lcores, "--no-huge", "-m", "512", "--no-pci",
               "--file-prefix", self.prefix, "--log-level", "*:warning"]
        for v in self.vdevs:
            cmd += ["--vdev", v]
        cmd += ["--"]
        if self.interactive:
            cmd += ["-i"]
        # 8192 mbufs are not enough for many ports' descriptor rings
        mbufs = max(8192, 2048 * self.n_ports + 4096)
        return cmd + ["--auto-start", "--forward-mode=io",
                      "--total-num-mbufs=%d" % mbufs]

    def start(self, timeout=30):
        log = open(self.log_path, "ab")
        # stdin is a pipe we hold: testpmd ends when we close it
        self.proc = subprocess.Popen(self.command_line(), stdin=subprocess.PIPE,
                                     stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.wait_ready(timeout)
        self.lower_forwarding_priority()
        return self

    def lower_forwarding_priority(self, nice=19):
        """The forwarding lcore polls its ports without a pause. At the
        lowest priority it only takes the CPU time nobody else wants, so
        that on a small machine running several tests at once snmpd, the
        agent and the application's own telemetry threads still answer in
        time. (Only that thread: the telemetry threads keep theirs.)"""
        task_dir = "/proc/%d/task" % self.proc.pid
        try:
            tids = os.listdir(task_dir)
        except OSError:
            return
        for tid in tids:
            try:
                with open(os.path.join(task_dir, tid, "comm")) as f:
                    if f.read().startswith("rte-worker"):
                        os.setpriority(os.PRIO_PROCESS, int(tid), nice)
            except OSError:
                pass

    def _normal_priority(self):
        # a thread that hardly runs also takes long to die: every thread
        # of a killed process must run once to exit
        if self.proc and self.proc.poll() is None and os.getuid() == 0:
            self.lower_forwarding_priority(0)

    def wait_ready(self, timeout=30):
        """Until its telemetry lists every port and forwarding has begun."""
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise DpdkAppError("dpdk-testpmd exited (%s); see %s" % (
                    self.proc.returncode, self.log_path))
            # as soon as its forwarding thread exists, before it spins
            self.lower_forwarding_priority()
            try:
                t = Telemetry(self.socket, timeout=2)
                try:
                    ports = t.ports()
                    if len(ports) == self.n_ports and all(
                            t.info(p)["dev_started"] == 1 for p in ports) and \
                            t.stats(ports[0])["ipackets"] > 0:
                        return
                finally:
                    t.close()
            except (OSError, ValueError, KeyError, TypeError):
                pass
            if time.monotonic() > deadline:
                raise DpdkAppError("dpdk-testpmd not ready after %ss" % timeout)
            time.sleep(0.05)

    @property
    def pid(self):
        return self.proc.pid

    def telemetry(self):
        return Telemetry(self.socket)

    def command(self, line, settle=0.3):
        """A line for the interactive prompt."""
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        time.sleep(settle)

    def signal(self, sig):
        """Send `sig`; for SIGSTOP, return once every thread is stopped."""
        self.proc.send_signal(sig)
        if sig == signal.SIGSTOP:
            deadline = time.monotonic() + 10
            while not self._all_stopped():
                if time.monotonic() > deadline:
                    raise DpdkAppError("dpdk-testpmd did not stop")
                time.sleep(0.01)

    def _all_stopped(self):
        task_dir = "/proc/%d/task" % self.proc.pid
        for tid in os.listdir(task_dir):
            with open(os.path.join(task_dir, tid, "stat")) as f:
                # the state follows the parenthesised command name
                if f.read().rsplit(")", 1)[1].split()[0] not in ("T", "t"):
                    return False
        return True

    def kill(self):
        """SIGKILL: the socket file stays behind, refusing connections."""
        if self.proc and self.proc.poll() is None:
            self._normal_priority()
            self.proc.kill()
            self.proc.wait()
        self._close_stdin()

    def _close_stdin(self):
        if self.proc and self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def stop(self, timeout=20):
        """End it as its user would (end of input, or `quit` at the
        prompt), then remove its runtime directory."""
        if self.proc and self.proc.poll() is None:
            self._normal_priority()
            try:
                if self.interactive:
                    self.proc.stdin.write(b"quit\n")
                    self.proc.stdin.flush()
                self._close_stdin()
                self.proc.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.send_signal(signal.SIGCONT)
                self.proc.kill()
                self.proc.wait()
        self._close_stdin()
        self.cleanup()

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)
