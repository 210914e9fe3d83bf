#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""IF-MIB of DPDK ports: bulk walks of ifXTable for dpdk-testpmd with N
net_null ports, in every serving mode, beside the same walk of snmpd's own
ifXTable (the kernel's interfaces) on this machine, and beside the same
servers fed by an application that answers telemetry at no cost.

Usage: bench_ports.py --build BUILD_DIR [--ports 2,32] [--walks N] [--reps R]
                      [--modes kernel,agentx,module,standalone,agentx-stub,...]
                      [--table OID]
       bench_ports.py --build BUILD_DIR --appear N [--rounds R]

For each port count, one dpdk-testpmd forwards between N net_null ports
(its forwarding lcore at the lowest priority, so that it takes only idle
CPU time), and each server in turn is walked:

  kernel       snmpd serving its own IF-MIB only (no fastmib): the reference
  agentx       the same snmpd + fastmib-agentx --ports over AgentX
  module       the same snmpd with fastmib_snmpd.so and fastmibPorts
  standalone   fastmib-agentx --listen --ports (no kernel rows)
  agentx-stub, module-stub, standalone-stub
               the same, the ports those of fastmib-telemetry-stub (N ports
               answered from memory): the ceiling of each mode, what the
               walk costs without the application's telemetry

A walk is a sequence of GETBULK requests (max-repetitions R) for ifXTable,
sent from this process over a UDP socket until the answer leaves the table:
no client process start-up in the figure. Reported per server: varbinds per
walk (of them, the DPDK ports'), median wall time of a walk, varbinds/s,
the ratio to the reference (kernel, or the mode's stub), and telemetry
queries and port readings per walk (counted from the agent's
-Dfastmib_ports log lines in a separate run, so that logging does not slow
the timed walks). First, per port count: the cost of telemetry commands
to the application, timed from this process.

--appear N: an application of N ports (the stub) instead, over AgentX and
in the module: seconds from the agent's connection to it until its first
and last rows answer, and the round trips of sysUpTime GETs sent to snmpd
every 5 ms meanwhile; median and maximum of R rounds.
"""
import argparse
import os
import re
import socket
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "lib"))
import dpdkapp  # noqa: E402
import snmpharness as H  # noqa: E402
from telstub import Pinger, Stub, stub_binary  # noqa: E402

IFX_TABLE = "1.3.6.1.2.1.31.1.1"
BASE = 1000
# ifXTable columns a net_null port answers (no multicast/broadcast counts)
NULL_PORT_COLUMNS = 11


def response_varbinds(resp):
    """[(oid arcs, value tag)] of a response PDU."""
    return [(H.ber_oid_arcs(name), tag) for name, tag, _ in H.ber_response(resp)[1]]


class Walker:
    def __init__(self, port, reps):
        self.addr = ("127.0.0.1", port)
        self.reps = reps
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(2.0)
        self.reqid = 1

    def walk(self, root):
        """OIDs of one bulk walk of `root`, as tuples."""
        root = [int(a) for a in root.split(".")]
        cur, got = root, []
        while True:
            self.reqid += 1
            msg = H.snmp_message(b"public", H.PDU_GETBULK, self.reqid, [(cur, H.NULL)],
                                 0, self.reps)
            self.sock.sendto(msg, self.addr)
            vbs = response_varbinds(self.sock.recv(1 << 16))
            for arcs, tag in vbs:
                if tag == 0x82 or arcs[:len(root)] != root:  # endOfMibView, or out
                    return got
                got.append(tuple(arcs))
            if not vbs:
                return got
            cur = list(got[-1])

    def close(self):
        self.sock.close()


def server(mode, path, debug):
    """A started server of `mode` for the ports of the application at
    `path` (None: kernel)."""
    dbg = ["-Dfastmib_ports"] if debug else []
    mode = mode.split("-")[0]
    if mode == "kernel":
        return H.Snmpd(if_mib=True).start(), None
    if mode == "module":
        m = H.ModuleAgent([], extra_lines=["fastmibPorts %s" % path], if_mib=True,
                          snmpd_args=dbg)
        return m.start(), m
    snmpd = H.Snmpd(if_mib=True).start() if mode == "agentx" else None
    agent = H.Agent([], snmpd, standalone=mode == "standalone",
                    extra_args=["--ports", path] + dbg)
    return agent.start(), (snmpd if mode == "agentx" else None)


def port_of(srv):
    return srv.port


def wait_ports(walker, n, timeout=20):
    last = BASE + n - 1

    def served():
        try:
            return any(o[-1] == last for o in walker.walk(IFX_TABLE + ".1"))
        except OSError:  # not listening yet: the request went unanswered
            return False
    H.wait_for(served, timeout, "%d ports served" % n, interval=0.1)


def readings(log):
    """Telemetry queries made for requests, and ports they read."""
    found = re.findall(r"(\d+) port\(s\) from port \d+: query for a request", log)
    return len(found), sum(int(x) for x in found)


def run_mode(mode, path, n, args):
    """(varbinds, DPDK varbinds, median s, (queries, port readings) per
    walk or None)."""
    srv, extra = server(mode, path, debug=False)
    try:
        w = Walker(port_of(srv), args.reps)
        if mode != "kernel":
            wait_ports(w, n)
        oids = w.walk(args.table)     # also a warm-up
        times, missing = [], 0
        for _ in range(args.walks):
            t0 = time.perf_counter()
            got = w.walk(args.table)
            times.append(time.perf_counter() - t0)
            # a port whose application missed the agent's deadline has no
            # values in that request: its varbinds are missing from the walk
            missing += len(oids) - len(got)
        w.close()
        if args.verbose and mode != "kernel":
            srv.stop()
            print(srv.read_log())
    finally:
        H.shut_down(srv, extra)
    if missing:
        print("       %s: %d varbind(s) missing in %d walks" % (mode, missing, args.walks))
    if args.check:
        # each walk as the first: every port's row, in OID order, once
        assert oids == sorted(oids) and len(set(oids)) == len(oids), mode
        assert args.table != IFX_TABLE or sum(1 for o in oids if o[-1] >= BASE) == (
            0 if mode == "kernel" else n * NULL_PORT_COLUMNS), mode
        assert not missing, mode
    queries = None
    if mode != "kernel":
        srv, extra = server(mode, path, debug=True)
        try:
            w = Walker(port_of(srv), args.reps)
            wait_ports(w, n)
            time.sleep(0.01)
            before = len(srv.read_log())
            for _ in range(args.walks):
                w.walk(args.table)
            q, r = readings(srv.read_log()[before:])
            queries = (q / args.walks, r / args.walks)
            w.close()
        finally:
            H.shut_down(srv, extra)
    dpdk = sum(1 for o in oids if o[-1] >= BASE)
    return len(oids), dpdk, statistics.median(times), queries


def query_latency(app, ports, kinds, n=500):
    """Median time of one query of `kinds` for each of `ports`, all sent
    before the answers are read, from a Python client: the application's
    side of the cost."""
    t = app.telemetry()
    cmds = [("%s,%d" % (k, p)).encode() for p in ports for k in kinds]
    times = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            for c in cmds:
                t.sock.send(c)
            for _ in cmds:
                t.sock.recv(1 << 16)
            times.append(time.perf_counter() - t0)
    finally:
        t.close()
    times.sort()
    return times[len(times) // 2]


def appear(mode, n, build, rounds):
    """Seconds from the agent's connection to an application of n ports
    (the stub) until the first and the last row answer, and snmpd's
    sysUpTime round trips meanwhile (median, max): `rounds` times."""
    out = []
    for _ in range(rounds):
        stub = Stub(stub_binary(build), n)
        srv, extra = server(mode, stub.dir, debug=False)
        pinger = Pinger(port_of(srv), extra.proc.pid if mode == "agentx"
                        else srv.snmpd.proc.pid)
        try:
            pinger.start()
            connected = stub.wait_connection()

            def served(oid):
                r = srv.client.get([oid])
                return r.varbinds and r.varbinds[0].value is not None
            H.wait_for(lambda: served("1.3.6.1.2.1.2.2.1.1.%d" % BASE) and
                       served("%s.1.19.%d" % (IFX_TABLE, BASE + n - 1)), 60,
                       "%d ports served" % n, interval=0.01)
            took = time.monotonic() - connected
            times = pinger.finish()
            out.append((took, statistics.median(times), max(times)))
        finally:
            pinger.stopped.set()
            H.shut_down(srv, extra)
            stub.stop()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--ports", default="2,32")
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--reps", type=int, default=25)
    ap.add_argument("--modes", default="kernel,agentx-stub,agentx,module-stub,module,"
                                       "standalone-stub,standalone")
    ap.add_argument("--verbose", action="store_true", help="print the agent's log")
    ap.add_argument("--table", default=IFX_TABLE,
                    help="subtree to walk (default ifXTable, %s)" % IFX_TABLE)
    ap.add_argument("--check", action="store_true",
                    help="fail unless every walk has every port's row, in order")
    ap.add_argument("--appear", type=int, metavar="N",
                    help="instead of walks: how long N ports of the stub take to "
                         "appear over AgentX and in the module, snmpd's own GETs "
                         "meanwhile")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of --appear")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.environ.setdefault("FASTMIB_AGENTX", os.path.join(build, "subagent", "agentx", "fastmib-agentx"))
    os.environ.setdefault("FASTMIB_MODULE", os.path.join(build, "subagent", "module", "fastmib_snmpd.so"))
    if args.appear:
        print("%5s  %-8s  %12s  %12s  %12s  %12s" % (
            "ports", "server", "appear s", "(max)", "GET ms", "(max)"))
        for mode in ("agentx", "module"):
            r = appear(mode, args.appear, build, args.rounds)
            print("%5d  %-8s  %12.3f  %12.3f  %12.1f  %12.1f" % (
                args.appear, mode, statistics.median(x[0] for x in r), max(x[0] for x in r),
                1e3 * statistics.median(x[1] for x in r), 1e3 * max(x[2] for x in r)),
                flush=True)
        return
    modes = args.modes.split(",")
    print("%5s  %-16s  %8s  %6s  %9s  %12s  %8s  %17s" % (
        "ports", "server", "varbinds", "(DPDK)", "walk ms", "varbinds/s", "ratio",
        "queries/readings"))
    for n in [int(x) for x in args.ports.split(",")]:
        app = dpdkapp.Testpmd(ports=n).start()
        stub = Stub(stub_binary(build), n) if any(m.endswith("-stub") for m in modes) \
            else None
        rate = {}
        try:
            k3 = ("/ethdev/info", "/ethdev/link_status", "/ethdev/stats")
            reps = 100 if args.check else 500
            print("%5d  telemetry: stats of 1 port %.0f us, of %d ports %.0f us; info, "
                  "link, stats of 1 port %.0f us, of %d ports %.0f us" % (
                      n, 1e6 * query_latency(app, [0], ("/ethdev/stats",), reps), n,
                      1e6 * query_latency(app, range(n), ("/ethdev/stats",), reps),
                      1e6 * query_latency(app, [0], k3, reps), n,
                      1e6 * query_latency(app, range(n), k3, reps)), flush=True)
            for mode in modes:
                path = stub.dir if mode.endswith("-stub") else app.dir
                vbs, dpdk, t, q = run_mode(mode, path, n, args)
                rate[mode] = vbs / t
                ref = "kernel" if mode.startswith("module") else mode.split("-")[0] + "-stub"
                ratio = "-" if mode == ref or ref not in rate else "%.2f" % (
                    rate[mode] / rate[ref])
                print("%5d  %-16s  %8d  %6d  %9.2f  %12.0f  %8s  %17s" % (
                    n, mode, vbs, dpdk, t * 1e3, vbs / t, ratio,
                    "-" if q is None else "%.1f / %.1f" % q), flush=True)
        finally:
            app.stop()
            if stub:
                stub.stop()


if __name__ == "__main__":
    main()
