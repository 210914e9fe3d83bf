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


class Pinger(threading.Thread):
    """sysUpTime GETs to the snmpd at `port`, one every 5 ms, and their
    round trips (`times`, seconds)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.times = []
        self.stopped = threading.Event()

    def run(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(5)
        reqid = 0
        while not self.stopped.is_set():
            reqid += 1
            msg = h.snmp_message(b"public", h.PDU_GET, reqid,
                                 [([int(x) for x in h.SYS_UPTIME.split(".")], h.NULL)])
            t0 = time.monotonic()
            s.sendto(msg, ("127.0.0.1", self.port))
            s.recv(65536)
            self.times.append(time.monotonic() - t0)
            time.sleep(0.005)
        s.close()

    def finish(self):
        self.stopped.set()
        self.join()
        return self.times


def stub_binary(build=None):
    """The stub of the build at `build`, or the one ctest names."""
    if build:
        return os.path.join(build, "bench", "ports", "fastmib-telemetry-stub")
    return os.environ.get("FASTMIB_TELEMETRY_STUB", "")
