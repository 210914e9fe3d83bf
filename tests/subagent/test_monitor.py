# SPDX-License-Identifier: BSD-3-Clause
"""The threshold recipe of docs/operations.md ("Threshold notifications"),
as written there: its snmpd.conf.d file and its systemd drop-in, read
from the document. A real snmpd started with the drop-in's options and
the recipe's lines (the interval cut from 60 s to 1 s, the sink moved to
a test snmptrapd) watches counters that fastmib-agentx serves over
AgentX from fm-writer's segment; fm-writer steps them by known amounts.

Exactly these notifications arrive: one mteTriggerFalling per watched
instance at start; then for each instance whose count in an interval
reaches the rising threshold (a Counter32 scalar, a Gauge32 scalar, one
row of a Counter32 column), one mteTriggerRising followed by one
mteTriggerFalling; nothing for those that stay below it (a Counter32
scalar, the other rows), and nothing for a Counter64 stepped far above
it (what Net-SNMP 5.9.3 does with Counter64). The negative control is
snmpd as Debian's own unit starts it: it refuses `monitor` and sends no
threshold notification at all."""
import os
import re
import shlex
import shutil

import pytest

import snmpharness as h
from conftest import Writer

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "operations.md")
DEBIAN_UNIT = "/lib/systemd/system/snmpd.service"
ROOT = "1.3.6.1.4.1.8072.9999.42"
RISING = "1.3.6.1.2.1.88.2.0.2"   # DISMAN-EVENT-MIB::mteTriggerRising
FALLING = "1.3.6.1.2.1.88.2.0.3"  # DISMAN-EVENT-MIB::mteTriggerFalling
HOT_TRIGGER = "1.3.6.1.2.1.88.2.1.1.0"  # mteHotTrigger.0
HOT_OID = "1.3.6.1.2.1.88.2.1.4.0"      # mteHotOID.0
AUTH_FAILURE = "1.3.6.1.6.3.1.1.5.5"    # SNMPv2-MIB::authenticationFailure
# not in the recipe: what `monitor` does with a Counter64 (epGlobalRxPkts.0)
COUNTER64 = ("rxPkts64", ROOT + ".1.1.1.0")
STEP = 100000  # far above the recipe's rising threshold (6000)
SMALL = 10     # below its falling threshold (600)


def doc_block(first_line):
    """The lines of the fenced block of docs/operations.md whose first line
    is `first_line`, without it."""
    with open(DOC) as f:
        text = f.read()
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S):
        lines = block.splitlines()
        if lines and lines[0] == first_line:
            return lines[1:]
    raise AssertionError("no block '%s' in %s" % (first_line, DOC))


def exec_start(lines):
    """The command of the last non-empty ExecStart= line."""
    cmds = [ln.split("=", 1)[1] for ln in lines if ln.startswith("ExecStart=")]
    return shlex.split([c for c in cmds if c][-1])


def i_option(argv):
    return argv[argv.index("-I") + 1]


def recipe(trap_port):
    """The recipe's snmpd.conf.d lines, for a test: its sink replaced by
    the test receiver, its interval by 1 s. The monitors, as
    (name, OID, instance or None for a column)."""
    lines, monitors = [], []
    for ln in doc_block("# /etc/snmp/snmpd.conf.d/fastmib-monitor.conf"):
        words = ln.split()
        if not words or ln.startswith("#"):
            continue
        if words[0] == "trap2sink":
            ln = h.trap_sink_line(trap_port)
        elif words[0] == "monitor":
            assert words[1:4] == ["-D", "-r", "60"], ln
            ln = ln.replace(" -r 60 ", " -r 1 ", 1)
            name, oid = words[-4], words[-3].lstrip(".")
            assert words[-2:] == ["600", "6000"], ln
            monitors.append((name, oid, "-I" in words))
        lines.append(ln)
    return lines, monitors


def served_lines(trap_port, with_counter64):
    lines, monitors = recipe(trap_port)
    if with_counter64:
        lines.append("monitor -D -r 1 -I -o %s.1.1.1002.0 %s %s 600 6000" % (
            ROOT, COUNTER64[0], COUNTER64[1]))
    # Debian's default view, opened to the root as the README says; an
    # authenticationFailure notification is the test's barrier (below)
    return lines + ["view systemonly included .1.3.6.1.2.1.1",
                    "view systemonly included .%s" % ROOT,
                    "authtrapenable 1"], monitors


def key(trap):
    """(notification, monitor name, instance) of a threshold notification."""
    return (trap.trap_oid, trap.by_oid[HOT_TRIGGER].value.strip('"'),
            trap.by_oid[HOT_OID].value.lstrip("."))


def threshold_traps(trapd):
    return [key(t) for t in trapd.traps() if t.trap_oid in (RISING, FALLING)]


def barrier(snmpd, trapd):
    """Everything snmpd sent so far has reached the receiver: snmpd sends
    notifications from its only thread, over one socket, and on loopback
    a datagram is queued at the receiver when sendto() returns, so once
    the authenticationFailure answering a wrong community (sent now) is
    logged, every earlier notification is."""
    n = sum(t.trap_oid == AUTH_FAILURE for t in trapd.traps())
    bad = h.Client(snmpd.port, timeout=0.5, retries=0)
    bad.auth = lambda who: ["-v2c", "-c", "not-a-community"]
    bad.get(["1.3.6.1.2.1.1.3.0"])
    trapd.wait_traps(n + 1, pred=lambda t: t.trap_oid == AUTH_FAILURE)


def runs(snmpd, name, since):
    """How many times trigger `name` started sampling after log offset
    `since` (-Ddisman:event:trigger:monitor)."""
    return snmpd.read_log()[since:].count("Running trigger (%s)\n" % name)


@pytest.fixture
def watched():
    """fm-writer's segment served by fastmib-agentx to two snmpds with
    the recipe's lines: one started with the drop-in's options, one as
    Debian's unit starts it; each sends to its own receiver."""
    d = h.make_tmpdir("mon")
    parts = []
    try:
        w = Writer(os.path.join(d, "ep.seg"), d)
        w.events()
        parts.append(w)
        drop_in = exec_start(doc_block(
            "# /etc/systemd/system/snmpd.service.d/fastmib-monitor.conf"))
        out = {}
        for which, argv in (("drop-in", drop_in), ("debian", exec_start(open(
                DEBIAN_UNIT).read().splitlines()))):
            trapd = h.Snmptrapd().start()
            parts.append(trapd)
            lines, monitors = served_lines(trapd.port, which == "drop-in")
            # the unit's -I; the test's own -I (before it) leaves out slow modules
            snmpd = h.Snmpd(extra_lines=lines, extra_args=[
                "-I", i_option(argv), "-Ddisman:event:trigger:monitor"])
            parts.append(snmpd)
            snmpd.start()
            agent = h.Agent([w.segment], snmpd).start(wait_oid=ROOT + ".1.1.1.0")
            parts.append(agent)
            out[which] = (snmpd, trapd, monitors)
        yield w, out, drop_in
    finally:
        for p in reversed(parts):
            if isinstance(p, Writer):
                p.stop_live()
            else:
                p.stop()
                p.cleanup()
        shutil.rmtree(d, ignore_errors=True)


@pytest.mark.skipif(not os.path.isfile(DEBIAN_UNIT), reason="no Debian snmpd unit")
def test_threshold_recipe(watched):
    w, out, drop_in = watched
    snmpd, trapd, monitors = out["drop-in"]
    stock_snmpd, stock_trapd, _ = out["debian"]

    # the drop-in is Debian's command with mteTrigger and mteTriggerConf no
    # longer left out, nothing else changed
    debian = exec_start(open(DEBIAN_UNIT).read().splitlines())
    assert i_option(debian) == "-smux,mteTrigger,mteTriggerConf"
    assert i_option(drop_in) == "-smux"
    assert [a for a in drop_in if a != "-smux"] == [
        a for a in debian if a != "-smux,mteTrigger,mteTriggerConf"]

    names = [m[0] for m in monitors] + [COUNTER64[0]]
    assert names == ["mbufAllocFails", "flowTableFull", "activeFlowsGrowth",
                     "portRxErrors", COUNTER64[0]]
    scalar = {m[0]: m[1] for m in monitors if m[2]}
    column = [m[1] for m in monitors if not m[2]][0]
    rows = ["%s.%d" % (column, i) for i in (1, 2, 3, 4)]  # epPortTable: rows all
    instances = [("mbufAllocFails", scalar["mbufAllocFails"]),
                 ("flowTableFull", scalar["flowTableFull"]),
                 ("activeFlowsGrowth", scalar["activeFlowsGrowth"]),
                 COUNTER64] + [("portRxErrors", r) for r in rows]

    # start: every instance falls once (its first count is 0)
    start = sorted((FALLING, n, o) for n, o in instances)
    h.wait_for(lambda: sorted(threshold_traps(trapd)) == start or
               len(threshold_traps(trapd)) > len(start), 30, "start-up notifications")
    assert sorted(threshold_traps(trapd)) == start

    # the cold ones first, so that the sample that sees the last hot step
    # has seen them too
    for cmd in ("errors flowTableFull 0 %d" % SMALL, "port rxErrors 0 %d" % SMALL,
                "global rxPkts 0 %d" % STEP,
                "global mbufAllocFails 0 %d" % STEP, "flowState activeFlows 0 %d" % STEP,
                "port rxErrors 2 %d" % STEP):
        assert w.command("add " + cmd) == []
    mark = len(snmpd.read_log())
    # two samples of every monitor after the steps: the first counts them,
    # the second counts nothing
    h.wait_for(lambda: all(runs(snmpd, n, mark) >= 2 for n in names), 30,
               "two samples after the steps")
    barrier(snmpd, trapd)
    hot = [("mbufAllocFails", scalar["mbufAllocFails"]),
           ("activeFlowsGrowth", scalar["activeFlowsGrowth"]),
           ("portRxErrors", rows[2])]
    after = threshold_traps(trapd)[len(start):]
    assert sorted(after) == sorted(
        [(RISING, n, o) for n, o in hot] + [(FALLING, n, o) for n, o in hot])
    for n, o in hot:  # in that order
        assert after.index((RISING, n, o)) < after.index((FALLING, n, o))
    assert "empty variable list" not in snmpd.read_log()  # -o keeps it quiet

    # Debian's own options: monitor is refused, nothing is sent, while the
    # other snmpd sampled the same steps (checked after its barrier)
    log = stock_snmpd.read_log()
    assert log.count("Warning: Unknown token: monitor.") == len(monitors), log
    assert "Running trigger" not in log
    barrier(stock_snmpd, stock_trapd)
    assert threshold_traps(stock_trapd) == []
