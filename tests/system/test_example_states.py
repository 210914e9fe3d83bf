"""The example application's link states as an NMS sees them: a port
whose driver can set its link (net_ring) goes down on SIGUSR1 and up on
the next one; the main lcore sees each change in the device's link
status and sets epPortLink, and fastmib-agentx (behind a real snmpd that
forwards notifications to a private snmptrapd) sends each change as
epPortLinkChange, in order, with the port's row as the instance; ports
whose driver cannot (net_null) stay up and send nothing."""

import os
import signal
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpharness as h  # noqa: E402

ROOT = "1.3.6.1.4.1.8072.9999.42"
LINK = ROOT + ".1.2.1.7"                # epPortLink
LINK_CHANGE = ROOT + ".5.0.2007"        # epPortLinkChange: 1000 * port + link
DROPPED = ROOT + ".2.6.0"               # epNotificationsDropped
UP, DOWN = 1, 2


@pytest.fixture
def live(app_factory):
    """Two net_null ports and a net_ring one, counting done, held: the
    application waits for signals with its states still looked at."""
    if not os.environ.get("FASTMIB_AGENTX"):
        pytest.fail("FASTMIB_AGENTX not set: run through ctest")
    trapd = h.Snmptrapd().start()
    snmpd = h.Snmpd(extra_lines=[h.trap_sink_line(trapd.port)])
    agent = None
    # no malformed packets: their badHeader notifications would share the
    # agent's notification limit with the link's
    app = app_factory(["--packets", "20000", "--hold", "--bad-every", "0"],
                      eal_extra=["--vdev=net_ring0"])
    try:
        snmpd.start()
        app.start()
        # the agent once the links are set at start: it sends no change
        # made before it attached, so every notification is the test's
        h.wait_for(lambda: [r["states"]["epPortLink"]["label"] for r in
                            app.wait_for_segment()["groups"]["port"]["rows"]] ==
                   ["up", "up", "up", "down"], 20, "the links set at start")
        agent = h.Agent([str(app.segment)], snmpd=snmpd).start()
        agent.wait_served(LINK + ".3")
        yield app, snmpd.client, trapd
    finally:
        h.shut_down(agent, snmpd, trapd)


def links(client):
    r = client.get([f"{LINK}.{i}" for i in (1, 2, 3, 4)])
    assert r.rc == 0, r
    return [vb.value for vb in r.varbinds]


def changes(trapd):
    """(instance, value) of every epPortLinkChange received, in order."""
    return [[(vb.oid, vb.value) for vb in t.varbinds[2:]]
            for t in trapd.traps() if t.trap_oid == LINK_CHANGE]


def toggle(app, trapd, n):
    """SIGUSR1, then the n-th epPortLinkChange."""
    app.proc.send_signal(signal.SIGUSR1)
    return trapd.wait_traps(n, pred=lambda t: t.trap_oid == LINK_CHANGE)


def test_link_down_and_up_by_signal(live):
    app, client, trapd = live
    assert links(client) == [UP, UP, UP, DOWN]  # port 4: none, the default
    toggle(app, trapd, 1)
    assert links(client) == [UP, UP, DOWN, DOWN]
    toggle(app, trapd, 2)
    assert links(client) == [UP, UP, UP, DOWN]
    assert changes(trapd) == [[(f"{LINK}.3", DOWN)], [(f"{LINK}.3", UP)]]
    assert client.get([DROPPED]).varbinds[0].value == 0
    assert app.stop() == 0, app.stderr
    out = app.stdout
    assert out.count("port 2: link set down\n") == out.count("port 2: link set up\n") == 1
    # net_null cannot: its ports are left as they are, each signal says so
    assert out.count("port 0: link not set down: its driver cannot\n") == 2
    assert [r["states"]["link"] for r in app.summary["states"]["port"]] == [UP, UP, UP]
