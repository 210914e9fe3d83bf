# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-agentx, and snmpd with the fastmib module, under valgrind
memcheck through a short request mix, including re-attach, resets and (for
the module) configuration reloads and an unload: no invalid access, no
leak from our code."""
import os
import re
import shutil

import pytest

import snmpharness as h
from conftest import Served, Writer

OUR_FILES = h.our_frames("subagent")
MEMCHECK = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect",
            "--errors-for-leak-kinds=definite", "--error-exitcode=99"]


def our_errors(vlog):
    """(whole report, records with one of our frames that are errors)."""
    with open(vlog) as f:
        report = f.read()
    errors = re.search(r"ERROR SUMMARY: (\d+) errors", report)
    assert errors, report[-2000:]
    # Net-SNMP keeps some allocations for the life of the process; only
    # records with a frame in our own files count against us.
    records = re.split(r"\n==\d+== *\n", report)
    assert len(records) > 3  # the report really is a memcheck report
    return report, [blk for blk in records if OUR_FILES.search(blk) and
                    ("definitely lost" in blk or "Invalid" in blk or
                     "uninitialised" in blk)]


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind not installed")
def test_request_mix_under_memcheck(tmp_path):
    vlog = str(tmp_path / "valgrind.log")
    s = Served("agentx", str(tmp_path))
    wrapper = MEMCHECK + ["--log-file=" + vlog]
    try:
        s.start(wrapper=wrapper)
        e = s.expect
        c = s.client
        assert c.walk(e.root).rc == 0
        assert c.bulkwalk(e.root, reps=20).rc == 0
        assert c.get(e.absent + [e.oid(1, 9, 1, 0)]).rc == 0
        assert c.set(e.oid(1, 4, 1, 1001, 6), "i", 1).rc == 0
        assert c.set(e.oid(2, 1, 0), "i", 1, who="v3rw").rc == 0
        assert c.set(e.oid(1, 4, 1, 1001, 4), "i", 1).error == "noCreation"
        s.refill(scale=3)  # re-attach to a new generation
        os.unlink(s.segment)  # vanish ...
        s.agent.wait_absent(s.first_oid(), timeout=30)
        s.refill(scale=4)  # ... and come back
        assert c.walk(e.root).rc == 0
        status = s.agent.stop()
        s.agent.proc = None
    finally:
        s.close()
    report, ours = our_errors(vlog)
    assert not ours, "\n".join(ours)
    assert status in (0, 99), report[-2000:]


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind not installed")
def test_module_reloads_under_memcheck(tmp_path):
    vlog = str(tmp_path / "valgrind.log")
    d = str(tmp_path)
    ep = Writer(os.path.join(d, "ep.seg"), d)
    sb = Writer(os.path.join(d, "sb.seg"), d, binary_var="FM_WRITER_SB")
    e, e_sb = ep.fill(), sb.fill()
    a = h.ModuleAgent([ep.segment], wrapper=MEMCHECK + ["--log-file=" + vlog])
    try:
        a.start(wait_oid=e.oid(1, 1, 1, 0), timeout=90)
        c, snmpd = a.client, a.snmpd
        assert c.bulkwalk(e.root, reps=20).rc == 0
        assert c.set(e.oid(1, 4, 1, 1001, 6), "i", 1).rc == 0
        snmpd.reload(timeout=60)                  # kept
        snmpd.set_extra_lines(h.module_lines([ep.segment, sb.segment]))
        snmpd.reload(timeout=60)                  # one added
        assert c.walk(e_sb.root).varbinds[0].value == e_sb.objects[0][2]
        snmpd.set_extra_lines(h.module_lines([sb.segment]))
        snmpd.reload(timeout=60)                  # one dropped
        snmpd.set_extra_lines([])
        snmpd.reload(timeout=60)                  # unloaded
        assert "fastmib: snmpd module unloaded" in a.read_log()
        snmpd.set_extra_lines(h.module_lines([ep.segment]))
        snmpd.reload(timeout=60)                  # loaded again
        a.wait_served(e.oid(1, 1, 1, 0), timeout=30)
        ep.fill(scale=2)                          # re-attach
        a.wait_served(e.oid(1, 1, 1, 0), timeout=30)
        assert c.walk(e.root).rc == 0
        status = a.stop()
    finally:
        a.cleanup()
    report, ours = our_errors(vlog)
    assert not ours, "\n".join(ours)
    assert status in (0, 99), report[-2000:]
