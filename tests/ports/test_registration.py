# SPDX-License-Identifier: BSD-3-Clause
"""snmpd's answers to the ports' AgentX registrations: rows another
subagent already registered (here a first fastmib-agentx serving the same
application's ports at the same ifIndex values) are refused; the second
agent says so once per table, with the rows and the reason, in its log
and in its status, never takes them from the first, and serves them once
snmpd accepts them (the first gone, snmpd restarted)."""
import os
import re
import shutil
import time

import faketel
import snmpharness as h
from conftest import TIMEOUT_MS, PortsServer, ifx_oid

BASE = 1000
TAKEOVER_S = 40  # the delay between two tries is at most 30 s
REFUSED = re.compile(r"fastmib: ports: snmpd refused (ifTable|ifXTable) rows \(column "
                     r"(\d+), ifIndex 1000\.\.1001\): duplicateRegistration; not "
                     r"served, retrying")
STATUS_REFUSED = re.compile(r"snmpd accepted 0 of (\d+) registration\(s\), refused "
                            r"\1 \(ifTable: (\d+) x duplicateRegistration; ifXTable: "
                            r"(\d+) x duplicateRegistration\)")


def test_rows_of_another_subagent(fake_app):
    app = fake_app(faketel.null_ports(2))
    app.ports[1]["stats"]["ibytes"] = 4242
    first = PortsServer("agentx", [app.dir]).start(wait_ifindex=BASE + 1)
    notify = h.NotifySocket(h.make_tmpdir("notify"))
    second = h.Agent([], first.snmpd, env=notify.env(),
                     extra_conf=["ports %s" % app.dir, "portsTimeout %d" % TIMEOUT_MS])
    in_octets = ifx_oid(6, BASE + 1)
    try:
        second.start()
        t0 = time.monotonic()
        h.wait_for(lambda: sorted(m.group(1) for m in
                                  REFUSED.finditer(second.read_log())) ==
                   ["ifTable", "ifXTable"], 10, "both tables refused")
        assert time.monotonic() - t0 <= 10
        # the first agent's rows are served meanwhile
        assert first.client.value(in_octets) == 4242
        status = h.wait_for(lambda: STATUS_REFUSED.fullmatch(notify.status()), 10,
                            "the status", interval=0.1)
        total, n_if, n_ifx = (int(x) for x in status.groups())
        assert n_if + n_ifx == total and n_if > 0 and n_ifx > 0, status.group(0)

        first.stop()
        stopped = time.monotonic()
        app.ports[1]["stats"]["ibytes"] = 4343  # read by the second agent
        h.wait_for(lambda: first.client.value(in_octets) == 4343, TAKEOVER_S,
                   "the second agent serving the rows", interval=0.1)
        print("rows taken over %.1f s after the first agent stopped" %
              (time.monotonic() - stopped))
        h.wait_for(lambda: notify.status() == "snmpd accepted %d of %d registration(s)"
                   % (total, total), 10, "all accepted", interval=0.1)
        log = second.read_log()
        assert len(REFUSED.findall(log)) == 2, log
        for t in ("ifTable", "ifXTable"):
            assert log.count("fastmib: ports: snmpd accepted the %s rows it refused: "
                             "served" % t) == 1, log

        first.snmpd.kill()
        first.snmpd.start()
        h.wait_for(lambda: first.client.value(in_octets) == 4343, TAKEOVER_S,
                   "the rows served after snmpd restarted", interval=0.1)
        assert len(REFUSED.findall(second.read_log())) == 2
    finally:
        h.shut_down(second)
        first.close()
        notify.close()
        shutil.rmtree(os.path.dirname(notify.path), ignore_errors=True)
