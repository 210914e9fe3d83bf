# SPDX-License-Identifier: BSD-3-Clause
"""What only the snmpd module does: the fastmibSegment directive and its
place after the dlmod line, configuration reloads (SIGHUP) that keep,
add and drop segments, unloading, and what the shared object links and
exports."""
import os
import re
import subprocess

import pytest

import snmpharness as h
from conftest import Writer


def as_tuples(varbinds):
    return [(vb.oid, vb.type, vb.value) for vb in varbinds]


def walk(client, root):
    r = client.walk(root)
    assert r.rc == 0, r
    return as_tuples(r.varbinds)


def assert_exact(client, expect):
    assert walk(client, expect.root) == expect.objects


def first_oid(expect):
    return expect.oid(1, 1, 1, 0)


def not_served(client, expect):
    r = client.get([first_oid(expect)])
    return r.varbinds and r.varbinds[0].type == "noSuchObject"


def serving_lines(log, segment):
    return [ln for ln in log.splitlines()
            if ln.startswith("fastmib: %s: serving " % segment)]


@pytest.fixture
def segs(tmp_path):
    """Two segments with different roots, filled: the example model and the
    second test model."""
    d = str(tmp_path)
    ep = Writer(os.path.join(d, "ep.seg"), d)
    sb = Writer(os.path.join(d, "sb.seg"), d, binary_var="FM_WRITER_SB")
    return ep, ep.fill(scale=3), sb, sb.fill(scale=4)


@pytest.fixture
def snmpd_with():
    started = []

    def start(lines, wait_expect=None):
        s = h.Snmpd(extra_lines=lines).start()
        started.append(s)
        if wait_expect:
            h.wait_for(lambda: not not_served(s.client, wait_expect) and
                       s.client.get([first_oid(wait_expect)]).varbinds[0].value
                       is not None, 20, "module serving")
        return s
    yield start
    h.shut_down(*started)


def test_shared_object_links_no_eal_and_exports_two_symbols():
    path = h.module_path()
    dyn = subprocess.run(["readelf", "-d", "-W", path], capture_output=True,
                         text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dyn)
    assert any(n.startswith("libnetsnmpagent") for n in needed), needed
    assert not [n for n in needed if "rte_" in n or "dpdk" in n], needed
    syms = subprocess.run(["nm", "-D", "--defined-only", path],
                          capture_output=True, text=True, check=True).stdout
    assert sorted(ln.split()[-1] for ln in syms.splitlines()) == \
        ["deinit_fastmib", "init_fastmib"]
    # position-independent code: no text relocations
    assert "TEXTREL" not in dyn


def test_directive_only_after_dlmod_and_bad_lines(segs, snmpd_with):
    ep, e_ep, sb, e_sb = segs
    s = snmpd_with(["fastmibSegment %s" % sb.segment] +
                   h.module_lines([ep.segment]) +
                   ["fastmibSegment relative.seg",
                    "fastmibSegment %s %s" % (sb.segment, ep.segment)],
                   wait_expect=e_ep)
    assert_exact(s.client, e_ep)
    # the line before dlmod never reached the module
    assert not_served(s.client, e_sb)
    log = s.read_log()
    assert re.search(r"line \d+: Warning: Unknown token: fastmibSegment", log), log
    assert "fastmibSegment needs an absolute path" in log
    assert "fastmibSegment takes one path per line" in log
    # moved after the dlmod line, a reload serves it
    s.set_extra_lines(h.module_lines([ep.segment, sb.segment]))
    s.reload()
    assert_exact(s.client, e_sb)
    assert_exact(s.client, e_ep)


def test_reload_keeps_registrations_values_and_resets(segs, snmpd_with):
    ep, e_ep, _, _ = segs
    s = snmpd_with(h.module_lines([ep.segment]), wait_expect=e_ep)
    c = s.client
    assert_exact(c, e_ep)
    row6 = [e_ep.oid(1, 4, 1, 1, 6), e_ep.oid(1, 4, 1, 2, 6)]
    disc6 = e_ep.oid(1, 4, 1, 1002, 6)
    h.wait_for(lambda: c.value(h.SYS_UPTIME) > 1, 10, "sysUpTime to advance")
    assert c.set(e_ep.oid(1, 4, 1, 1001, 6), "i", 1).rc == 0
    before = walk(c, e_ep.root)
    reset_at = c.value(disc6)
    assert reset_at > 0 and [c.value(o) for o in row6] == [0, 0]
    for _ in range(2):
        s.reload()
        # same values, same TimeStamps: the reset baseline lives in the
        # segment and the TimeStamp reference is snmpd's own start time
        assert walk(c, e_ep.root) == before
    assert c.value(disc6) == reset_at
    for (o, t, v), (o2, t2, v2) in zip(before, e_ep.objects):
        assert o == o2
        if o in row6:
            assert v == 0
        elif t != "Timeticks":
            assert (t, v) == (t2, v2), o
    # the registration was kept, not made again
    log = s.read_log()
    assert log.count(" restarted") == 2
    assert len(serving_lines(log, ep.segment)) == 1, log


def test_reload_adds_and_drops_segments(segs, snmpd_with):
    ep, e_ep, sb, e_sb = segs
    s = snmpd_with(h.module_lines([ep.segment]), wait_expect=e_ep)
    c = s.client
    assert not_served(c, e_sb)
    s.set_extra_lines(h.module_lines([ep.segment, sb.segment]))
    s.reload()
    assert_exact(c, e_sb)
    assert_exact(c, e_ep)
    s.set_extra_lines(h.module_lines([sb.segment]))
    s.reload()
    assert not_served(c, e_ep)
    assert walk(c, e_ep.root) == [] or \
        not walk(c, e_ep.root)[0][0].startswith(e_ep.root + ".")
    assert_exact(c, e_sb)
    log = s.read_log()
    assert "fastmib: %s: no longer configured, not served" % ep.segment in log
    assert len(serving_lines(log, sb.segment)) == 1, log


def test_unload_and_load_again(segs, snmpd_with):
    ep, e_ep, _, _ = segs
    s = snmpd_with(h.module_lines([ep.segment]), wait_expect=e_ep)
    # without the dlmod line the module is gone (its directive with it)
    s.set_extra_lines(["fastmibSegment %s" % ep.segment])
    s.reload()
    assert not_served(s.client, e_ep)
    assert "fastmib: snmpd module unloaded" in s.read_log()
    assert s.client.answers()
    s.set_extra_lines(h.module_lines([ep.segment]))
    s.reload()
    assert_exact(s.client, e_ep)
    assert s.proc.poll() is None


def test_recreated_segment_is_picked_up_after_a_reload(segs, snmpd_with):
    ep, e_ep, _, _ = segs
    s = snmpd_with(h.module_lines([ep.segment]), wait_expect=e_ep)
    s.reload()
    e2 = ep.fill(scale=9)
    assert e2.generation > e_ep.generation
    want = e2.by_oid[first_oid(e2)][1]
    h.wait_for(lambda: s.client.value(first_oid(e2)) == want, 20,
               "new generation served")
    got = walk(s.client, e2.root)
    assert [t for t in got if t[1] != "Timeticks"] == \
        [t for t in e2.objects if t[1] != "Timeticks"]
