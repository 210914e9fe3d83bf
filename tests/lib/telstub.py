# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-telemetry-stub (bench/ports), an application of N ports that
answers telemetry from memory, and a client that keeps asking snmpd for
its own sysUpTime: what the thousand-port test and the ports benchmark
measure the agent's and snmpd's work with."""
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time

import snmpharness as h


class Stub:
    """The stub serving `n` ports in a runtime directory of its own."""

    def __init__(self, binary, n):
        self.dir = tempfile.mkdtemp(prefix="fmstub-")
        self.proc = subprocess.Popen([binary, self.dir, str(n)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def wait_connection(self):
        """The time.monotonic() at which a client connected: the stub says
        it on its output (CLOCK_MONOTONIC, the clock of time.monotonic())."""
        word, ns = self.proc.stdout.readline().split()
        assert word == "connected"
        return int(ns) / 1e9

    def exit(self):
        """End the application (its input closed), as an exit would."""
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(10)

    def stop(self):
        self.exit()
        shutil.rmtree(self.dir, ignore_errors=True)


def _run_delay(path):
    """Nanoseconds the thread of /proc/.../schedstat `path` has waited
    for a CPU while it could run."""
    with open(path) as f:
        return int(f.read().split()[1])


class Pinger(threading.Thread):
    """sysUpTime GETs to the snmpd at `port`, one every 5 ms: their round
    trips (`times`, seconds), and (`stalls`) each less the time snmpd (the
    process `pid`) and this thread waited for a CPU meanwhile, i.e. the
    time snmpd was busy with something else than the GET, whatever other
    processes on the machine do."""

    def __init__(self, port, pid):
        super().__init__(daemon=True)
        self.port = port
        self.snmpd = "/proc/%d/task/%d/schedstat" % (pid, pid)
        self.times = []
        self.stalls = []
        self.stopped = threading.Event()

    def run(self):
        me = "/proc/self/task/%d/schedstat" % threading.get_native_id()
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(5)
        reqid = 0
        while not self.stopped.is_set():
            reqid += 1
            msg = h.snmp_message(b"public", h.PDU_GET, reqid,
                                 [([int(x) for x in h.SYS_UPTIME.split(".")], h.NULL)])
            w0 = _run_delay(self.snmpd) + _run_delay(me)
            t0 = time.monotonic()
            s.sendto(msg, ("127.0.0.1", self.port))
            s.recv(65536)
            rtt = time.monotonic() - t0
            waited = (_run_delay(self.snmpd) + _run_delay(me) - w0) / 1e9
            self.times.append(rtt)
            self.stalls.append(max(0.0, rtt - waited))
            time.sleep(0.005)
        s.close()

    def finish(self):
        self.stopped.set()
        self.join()
        return self.times


def cpu_seconds(*procs):
    """User and system CPU time the processes (Popen objects) have used."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in procs:
        with open("/proc/%d/stat" % p.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def stub_binary(build=None):
    """The stub of the build at `build`, or the one ctest names."""
    if build:
        return os.path.join(build, "bench", "ports", "fastmib-telemetry-stub")
    return os.environ.get("FASTMIB_TELEMETRY_STUB", "")
