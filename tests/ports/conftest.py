# SPDX-License-Identifier: BSD-3-Clause
"""Fixtures of the IF-MIB tests: dpdk-testpmd's net_null ports served by
fastmib-agentx over AgentX (snmpd serving its own IF-MIB as well), by the
standalone agent, or by the module inside snmpd; and what the application
itself says over its telemetry socket, to compare with."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))

import dpdkapp  # noqa: E402
import faketel  # noqa: E402
import snmpharness as h  # noqa: E402

IF_ENTRY = "1.3.6.1.2.1.2.2.1"
IFX_ENTRY = "1.3.6.1.2.1.31.1.1.1"
SYS_UPTIME = "1.3.6.1.2.1.1.3.0"

MODES = ["agentx", "standalone", "module"]
BESIDE_SNMPD = ["agentx", "module"]

# Wait for telemetry answers on a machine other builds keep busy; the
# default (5 ms) is what test_lifecycle's stopped application exercises.
TIMEOUT_MS = 100


# Columns a net_null row answers, by table
NULL_COLS = {IF_ENTRY: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 16, 17, 20, 22],
             IFX_ENTRY: [1, 6, 7, 10, 11, 14, 15, 16, 17, 18, 19]}


def no_partial_row(walk, table, base=1000, server=None):
    """A walk either completed, every DPDK row (ifIndex >= base) in it whole,
    or stopped at an error it says (genErr); never a row with a column
    silently missing. A row withdrawn while the walk crossed it (its
    application gone, `server` no longer serving it afterwards) may end
    early. Returns "genError", "rows" or "none"."""
    if walk.error:
        assert walk.error == "genError", walk
        return "genError"
    assert walk.rc == 0, walk
    rows = {}
    for vb in walk.varbinds:
        col, ifindex = (int(x) for x in vb.oid.rsplit(".", 2)[1:])
        if ifindex >= base:
            rows.setdefault(ifindex, []).append(col)
    for ifindex, cols in rows.items():
        if cols != NULL_COLS[table] and server is not None and \
                cols == NULL_COLS[table][:len(cols)] and not server.row_served(ifindex):
            continue
        assert cols == NULL_COLS[table], (ifindex, cols)
    return "rows" if rows else "none"


def if_oid(col, ifindex):
    return "%s.%d.%d" % (IF_ENTRY, col, ifindex)


def ifx_oid(col, ifindex):
    return "%s.%d.%d" % (IFX_ENTRY, col, ifindex)


def oid_key(oid):
    return tuple(int(x) for x in oid.split("."))


def kernel_interfaces():
    """{ifIndex: name} of this network namespace, as snmpd serves them."""
    out = {}
    for name in os.listdir("/sys/class/net"):
        with open(os.path.join("/sys/class/net", name, "ifindex")) as f:
            out[int(f.read())] = name
    return out


class PortsServer:
    """The ports of one or more applications (`specs`: PATH[,BASE]) served
    in `mode`, reached through `client`. `lines`: more settings, as
    directives without the module's "fastmib" prefix (ifIndexBase 300, ...);
    `trap_port`: where notifications go (a test snmptrapd)."""

    def __init__(self, mode, specs, base=None, timeout_ms=TIMEOUT_MS, if_mib=True,
                 debug=False, lines=(), trap_port=None):
        self.mode = mode
        self.specs = list(specs)
        self.snmpd = self.agent = None
        conf = ["ports %s" % s for s in self.specs]
        if base is not None:
            conf.append("ifIndexBase %d" % base)
        if timeout_ms is not None:
            conf.append("portsTimeout %d" % timeout_ms)
        conf += list(lines)
        # -Dfastmib_ports: a log line per telemetry query made for a request
        debug_args = ["-Dfastmib_ports"] if debug else []
        sinks = [h.trap_sink_line(trap_port)] if trap_port else []
        if mode == "module":
            self.agent = h.ModuleAgent([], extra_lines=["fastmib" + c[0].upper() + c[1:]
                                                        for c in conf] + sinks,
                                       if_mib=if_mib, snmpd_args=debug_args)
            self.snmpd = self.agent.snmpd
        else:
            if mode == "agentx":
                self.snmpd = h.Snmpd(if_mib=if_mib, extra_lines=sinks).start()
            self.agent = h.Agent([], self.snmpd, standalone=mode == "standalone",
                                 extra_args=debug_args,
                                 extra_conf=conf + (sinks if mode == "standalone" else []))
        self.client = self.agent.client

    @property
    def state_dir(self):
        """Where the port map is kept."""
        return self.snmpd.persist if self.mode == "module" else self.agent.state

    def start(self, wait_ifindex=None, timeout=20):
        self.agent.start()
        if wait_ifindex is not None:
            self.wait_row(wait_ifindex, timeout)
        return self

    def restart(self, wait_ifindex=None):
        """Stop the serving process and start it again, state kept."""
        self.agent.stop()
        self.agent.start()
        if wait_ifindex is not None:
            self.wait_row(wait_ifindex)

    def row_served(self, ifindex):
        r = self.client.get([ifx_oid(1, ifindex)])
        return bool(r.varbinds) and r.varbinds[0].type == "STRING"

    def wait_row(self, ifindex, timeout=20):
        h.wait_for(lambda: self._alive() and self.row_served(ifindex), timeout,
                   "ifIndex %d served" % ifindex, interval=0.05)

    def wait_gone(self, ifindex, timeout=20):
        h.wait_for(lambda: not self.row_served(ifindex), timeout,
                   "ifIndex %d withdrawn" % ifindex, interval=0.05)

    def _alive(self):
        if not self.agent.alive():
            raise h.HarnessError("the serving process exited: %s" %
                                 self.agent.read_log())
        return True

    def names(self):
        """{ifIndex: ifName} of the DPDK rows (ifIndex >= 1000)."""
        w = self.client.bulkwalk(IFX_ENTRY + ".1", reps=50)
        assert w.rc == 0, w
        return {int(vb.oid.rsplit(".", 1)[1]): vb.value.strip('"') for vb in w.varbinds
                if int(vb.oid.rsplit(".", 1)[1]) >= 1000}

    def read_log(self):
        return self.agent.read_log()

    def queries_for_requests(self):
        """Telemetry queries made for requests so far (needs debug)."""
        return self.read_log().count("query for a request")

    def stop(self):
        """Stop the serving process (its log then has the traffic line)."""
        return self.agent.stop()

    def close(self, keep=False):
        if keep:
            self.agent.stop()
            if self.mode == "agentx":
                self.snmpd.stop()
            return
        h.shut_down(self.agent, self.snmpd if self.mode != "module" else None)


@pytest.fixture(scope="module")
def testpmd(tmp_path_factory):
    """One dpdk-testpmd with two forwarding net_null ports for a test file."""
    app = dpdkapp.Testpmd(ports=2, log_dir=str(tmp_path_factory.mktemp("testpmd")))
    try:
        yield app.start()
    finally:
        app.stop()


@pytest.fixture(scope="module")
def telemetry(testpmd):
    t = testpmd.telemetry()
    yield t
    t.close()


@pytest.fixture
def trapd():
    """A test snmptrapd: where the notifications go."""
    t = h.Snmptrapd().start()
    try:
        yield t
    finally:
        t.stop()
        t.cleanup()


@pytest.fixture
def fake_app():
    """Synthetic DPDK applications (tests/lib/faketel.py), stopped after."""
    apps = []

    def make(ports):
        app = faketel.FakeApp(ports).start()
        apps.append(app)
        return app
    try:
        yield make
    finally:
        for a in apps:
            a.stop()
