# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-agentx under valgrind memcheck through a short request mix,
including re-attach and resets: no invalid access, no leak from our code."""
import os
import re
import shutil

import pytest

import snmpharness as h
from conftest import Served

OUR_FILES = re.compile(r"\((?:core|agentx_main)\.c:\d+\)")


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind not installed")
def test_request_mix_under_memcheck(tmp_path):
    vlog = str(tmp_path / "valgrind.log")
    s = Served("agentx", str(tmp_path))
    wrapper = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite,indirect",
               "--errors-for-leak-kinds=definite", "--error-exitcode=99",
               "--log-file=" + vlog]
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
    with open(vlog) as f:
        report = f.read()
    errors = re.search(r"ERROR SUMMARY: (\d+) errors", report)
    assert errors, report[-2000:]
    # Net-SNMP keeps some allocations for the life of the process; only
    # records with a frame in our own files count against us.
    records = re.split(r"\n==\d+== *\n", report)
    assert len(records) > 3  # the report really is a memcheck report
    ours = [blk for blk in records if OUR_FILES.search(blk) and
            ("definitely lost" in blk or "Invalid" in blk or "uninitialised" in blk)]
    assert not ours, "\n".join(ours)
    assert status in (0, 99), report[-2000:]
