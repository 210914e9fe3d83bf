# SPDX-License-Identifier: BSD-3-Clause
"""A synthetic DPDK application for the tests that need what dpdk-testpmd
cannot give: a thousand ports, counters of 2^63 and more, a name with a
newline, answers that come late or never. It speaks DPDK 22.11's telemetry
protocol (telemetry v2) on a SOCK_SEQPACKET socket: a JSON hello on
connect, then one JSON answer per command, `/ethdev/list`, `/ethdev/info`,
`/ethdev/link_status`, `/ethdev/stats` and `/ethdev/xstats`, with the
fields and shapes testpmd's answers have (tests/ports/test_ethdev.c quotes
them).

A server runs in a thread of the test process, in a runtime directory of
its own; its ports and its behaviour can be changed while it runs:

    app = FakeApp(ports=[port("net_null0"), port("net_null1")]).start()
    app.ports[1]["stats"]["imissed"] = 2**64 - 1
    app.delay = 0.02        # every answer 20 ms late
    app.silent = True       # answers nothing
    app.hello = False       # new connections get no hello
    app.restart()           # a new instance: another pid
    app.stop()
"""
import itertools
import json
import os
import select
import shutil
import socket
import tempfile
import threading
import time

SOCKET_NAME = "dpdk_telemetry.v2"
_pids = itertools.count(400000)

STAT_FIELDS = ("ipackets", "opackets", "ibytes", "obytes", "imissed", "ierrors",
               "oerrors", "rx_nombuf")


def port(name, mac="92:F0:4A:1F:A7:%02X", mtu=1500, up=True, started=True,
         speed=10000, stats=None, xstats=None, index=0):
    """A port as the fake application reports it."""
    return {
        "name": name,
        "mac": mac % (index & 0xFF) if "%" in mac else mac,
        "mtu": mtu,
        "up": up,
        "started": started,
        "speed": speed,
        "stats": dict(stats or {f: 0 for f in STAT_FIELDS}),
        "xstats": dict(xstats or {"rx_good_packets": 0, "tx_good_packets": 0}),
    }


def null_ports(n, prefix="net_null"):
    return [port("%s%d" % (prefix, i), index=i) for i in range(n)]


class FakeApp:
    def __init__(self, ports, workdir=None, version="DPDK 22.11.11 (fake)"):
        self.dir = workdir or tempfile.mkdtemp(prefix="fmfake-")
        self.socket = os.path.join(self.dir, SOCKET_NAME)
        self.ports = list(ports)
        self.ids = None          # port ids listed; None: 0..len-1
        self.version = version
        self.pid = next(_pids)
        self.delay = 0.0         # seconds every answer waits
        self.silent = False      # no answers at all
        self.hello = True        # new connections get a hello
        self.raw = {}            # command -> answer text, as sent
        self.commands = 0        # answered so far
        self.last_sent = None    # time.monotonic() of the last answer sent
        self.accepted = 0        # connections accepted so far
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._listen = None

    # ---- control ----

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        self._listen = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._listen.bind(self.socket)
        self._listen.listen(16)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        return self

    def stop(self, remove=True):
        """End the application: connections close, the socket goes (or
        stays, as after a SIGKILL, when remove is False)."""
        self._stop.set()
        if self._thread:
            self._thread.join(10)
        self._thread = None
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)

    def restart(self):
        """Exit and start again: a new instance, another pid."""
        self.stop(remove=False)
        self.pid = next(_pids)
        return self.start()

    def port_ids(self):
        return list(self.ids) if self.ids is not None else list(range(len(self.ports)))

    # ---- the protocol ----

    def _port(self, arg):
        try:
            pid = int(arg)
        except (TypeError, ValueError):
            return None
        ids = self.port_ids()
        if pid not in ids:
            return None
        return self.ports[ids.index(pid)]

    def answer(self, cmd):
        """The text of the answer to `cmd`."""
        with self._lock:
            if cmd in self.raw:
                return self.raw[cmd]
            name, _, arg = cmd.partition(",")
            p = self._port(arg) if arg else None
            if name == "/ethdev/list":
                val = self.port_ids()
            elif name == "/ethdev/info" and p:
                val = {"name": p["name"], "state": 1, "nb_rx_queues": 1,
                       "nb_tx_queues": 1, "port_id": int(arg), "mtu": p["mtu"],
                       "rx_mbuf_size_min": 2176, "mac_addr": p["mac"], "promiscuous": 1,
                       "scattered_rx": 0, "all_multicast": 1,
                       "dev_started": 1 if p["started"] else 0, "lro": 0,
                       "dev_configured": 1, "numa_node": 0}
            elif name == "/ethdev/link_status" and p:
                val = {"status": "UP", "speed": p["speed"], "duplex": "full-duplex"} \
                    if p["up"] and p["started"] else {"status": "DOWN"}
            elif name == "/ethdev/stats" and p:
                val = dict(p["stats"])
                val["q_ipackets"] = [p["stats"].get("ipackets", 0)]
            elif name == "/ethdev/xstats" and p:
                val = dict(p["xstats"])
            else:
                val = None
            return json.dumps({name: val})

    def _serve(self):
        clients = []
        pending = {}  # socket -> [(due, text)]
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                due = [t for q in pending.values() for t, _ in q]
                wait = 0.05 if not due else max(0.0, min(min(due) - now, 0.05))
                ready, _, _ = select.select([self._listen] + clients, [], [], wait)
                for s in ready:
                    if s is self._listen:
                        c, _ = self._listen.accept()
                        clients.append(c)
                        self.accepted += 1
                        pending[c] = []
                        if self.hello:
                            c.send(json.dumps({"version": self.version, "pid": self.pid,
                                               "max_output_len": 16384}).encode())
                        continue
                    try:
                        data = s.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        clients.remove(s)
                        pending.pop(s, None)
                        s.close()
                        continue
                    if self.silent or not self.hello:
                        continue
                    pending[s].append((time.monotonic() + self.delay,
                                       self.answer(data.decode(errors="replace"))))
                now = time.monotonic()
                for s, q in pending.items():
                    while q and q[0][0] <= now and not self.silent:
                        _, text = q.pop(0)
                        try:
                            s.send(text.encode())
                            self.last_sent = time.monotonic()
                            self.commands += 1
                        except OSError:
                            q.clear()
        finally:
            for c in clients:
                c.close()
            self._listen.close()
