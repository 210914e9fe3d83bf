# SPDX-License-Identifier: BSD-3-Clause
"""snmpd's answers to fastmib-agentx's AgentX registrations, with two
agents on one module root under a real snmpd: the second is refused
(duplicateRegistration), says so once naming the module and its root,
never claims to serve it, and tries again with backoff, so that it serves
its own segment as soon as snmpd accepts it (the first agent gone, snmpd
restarted); its status for the service manager (sd_notify STATUS=) says
the same; and the refused agent never takes the root from its owner, not
even when it stops."""
import os
import re
import shutil
import time

import pytest

import snmpharness as h
from conftest import Writer

ROOT = "1.3.6.1.4.1.8072.9999.42"
REFUSED = ("snmpd refused module EXAMPLE-DATAPLANE-MIB (%s): duplicateRegistration; "
           "not served, retrying" % ROOT)
SERVING = "serving EXAMPLE-DATAPLANE-MIB (generation 1)"
# a -Dfastmib/axreg line per answer snmpd gives
ANSWER = "fastmib/axreg: module EXAMPLE-DATAPLANE-MIB (%s): " % ROOT
STATUS_REFUSED = ("snmpd accepted 0 of 1 registration(s), refused 1 (module "
                  "EXAMPLE-DATAPLANE-MIB (%s): duplicateRegistration)" % ROOT)
STATUS_SERVED = "snmpd accepted 1 of 1 registration(s)"
# the delay between two tries is at most 30 s (common/axreg.h)
TAKEOVER_S = 40


def wait_status(agent, line, timeout=10):
    """Until the agent's last status line is `line` (sent at most once a
    second)."""
    h.wait_for(lambda: agent.notify.status() == line, timeout,
               "status %r (got %r)" % (line, agent.notify.statuses()[-3:]), interval=0.1)


class Two:
    """Two segments of the example model (one root), A's values apart
    from B's, and a snmpd for the agents serving them."""

    def __init__(self, d):
        self.dir = d
        self.wa = Writer(os.path.join(d, "a.seg"), d)
        self.wb = Writer(os.path.join(d, "b.seg"), d)
        ea, eb = self.wa.fill(scale=1), self.wb.fill(scale=3)
        # an instance whose value tells whose segment is served
        self.oid, _, self.va = next(o for o in ea.objects if o[1] == "Counter64" and
                                    eb.by_oid[o[0]][1] != o[2])
        self.vb = eb.by_oid[self.oid][1]
        self.snmpd = h.Snmpd().start()
        self.agents = []
        self.notify = []

    def agent(self, seg):
        """An agent of `seg` with -Dfastmib/axreg and a NOTIFY_SOCKET."""
        n = h.NotifySocket(h.make_tmpdir("notify"))
        self.notify.append(n)
        a = h.Agent([seg], self.snmpd, extra_args=["-Dfastmib/axreg"], env=n.env())
        a.notify = n
        self.agents.append(a)
        return a

    def served(self):
        """The value SNMP gives for the instance, None if none."""
        r = self.snmpd.client.get([self.oid])
        return r.varbinds[0].value if r.rc == 0 and r.varbinds else None

    def close(self):
        h.shut_down(*self.agents, self.snmpd)
        for n in self.notify:
            n.close()
            shutil.rmtree(os.path.dirname(n.path), ignore_errors=True)
        for w in (self.wa, self.wb):
            w.cleanup()


@pytest.fixture
def two(tmp_path):
    t = Two(str(tmp_path))
    try:
        yield t
    finally:
        t.close()


def refused_while_a_serves(two, b, tries):
    """B's refusal said once within 10 s of its start, A's values served
    all along, until B has had `tries` answers; B claims nothing."""
    t0 = time.monotonic()
    h.wait_for(lambda: REFUSED in b.read_log(), 10, "the refusal in the log")
    assert time.monotonic() - t0 <= 10
    while b.read_log().count(ANSWER) < tries:
        assert two.served() == two.va
        assert b.alive()
        time.sleep(0.1)
    log = b.read_log()
    assert log.count(REFUSED) == 1, log
    assert log.count(ANSWER + "duplicateRegistration") == tries, log
    assert SERVING not in log, log
    assert "registering pdu failed" not in log, log
    wait_status(b, STATUS_REFUSED)


def test_second_agent_on_a_root_takes_over(two):
    a = two.agent(two.wa.segment).start(wait_oid=two.oid)
    assert two.served() == two.va
    wait_status(a, STATUS_SERVED)
    b = two.agent(two.wb.segment).start()
    # tries at 0, 1, 3, 7 s: the next one 8 s after the fourth
    refused_while_a_serves(two, b, 4)

    a.stop()
    stopped = time.monotonic()
    h.wait_for(lambda: two.served() == two.vb, TAKEOVER_S, "B serving its own")
    took = time.monotonic() - stopped
    log = b.read_log()
    assert log.index(SERVING) > log.index(REFUSED), log
    assert log.count(REFUSED) == 1, log
    wait_status(b, STATUS_SERVED)
    print("takeover %.1f s after the first agent stopped" % took)

    two.snmpd.kill()
    killed = time.monotonic()
    two.snmpd.start()
    h.wait_for(lambda: two.served() == two.vb, TAKEOVER_S, "B serving after a restart")
    print("served %.1f s after snmpd was killed" % (time.monotonic() - killed))
    assert b.read_log().count(REFUSED) == 1
    wait_status(b, STATUS_SERVED)


def test_refused_agent_leaves_the_root_to_its_owner(two):
    """snmpd 5.9 removes a subtree on an Unregister from any session: the
    refused agent withdraws its copy from its own registry only, so that
    stopping it leaves the owner served."""
    two.agent(two.wa.segment).start(wait_oid=two.oid)
    b = two.agent(two.wb.segment).start()
    refused_while_a_serves(two, b, 2)
    b.stop()
    assert "stopping" in b.read_log()
    # the owner still answers, well after snmpd has seen B's session end
    for _ in range(20):
        assert two.served() == two.va
        time.sleep(0.05)


def test_both_agents_across_snmpd_restarts(two):
    """After snmpd restarts, whichever agent registers first serves; the
    other is refused again, says so in its status, and serves nothing."""
    a = two.agent(two.wa.segment).start(wait_oid=two.oid)
    b = two.agent(two.wb.segment).start()
    h.wait_for(lambda: REFUSED in b.read_log(), 10, "the refusal in the log")
    for _ in range(2):
        two.snmpd.kill()
        two.snmpd.start()
        h.wait_for(lambda: two.served() in (two.va, two.vb), TAKEOVER_S,
                   "one of them serving")
        owner, other = (a, b) if two.served() == two.va else (b, a)
        wait_status(other, STATUS_REFUSED, TAKEOVER_S)
        wait_status(owner, STATUS_SERVED)
        # the one refused said so, the first time it was refused (B) or
        # since it last served (A)
        assert REFUSED in other.read_log().rsplit(SERVING, 1)[-1]
        assert two.served() == (two.va if owner is a else two.vb)


def test_status_without_a_master(tmp_path):
    """No snmpd: the status says the registration waits for a session."""
    d = str(tmp_path)
    w = Writer(os.path.join(d, "a.seg"), d)
    w.fill()
    n = h.NotifySocket(d)
    a = h.Agent([w.segment], h.Snmpd(), env=n.env())
    try:
        a.start()
        h.wait_for(lambda: n.status() == "no session to snmpd: 1 registration(s) "
                   "to send", 10, "the status", interval=0.1)
        assert SERVING not in a.read_log()
        assert re.search(r"cannot connect to the AgentX master", a.read_log())
    finally:
        h.shut_down(a, a.snmpd)
        n.close()
        w.cleanup()
