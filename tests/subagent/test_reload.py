# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-agentx as an operator runs it: SIGHUP (what logrotate and
`systemctl reload` send) reopens the log and applies a changed
configuration, or keeps the one in force when the new one has an error;
-A appends to the log; a failed AgentX connection says why; a daemon that
cannot reach snmpd does not pretend to have started; and the permissions
recipe of docs/operations.md: the unit's unprivileged user reaches a
stock snmpd's AgentX socket, and reads an application's segment through
the segment's group (fastmib_opts.group)."""
import grp
import os
import pwd
import shutil
import signal
import subprocess

import pytest

import snmpharness as h
from conftest import Expectations, Writer, writer_binary

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (users, groups)")


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def first(e):
    return e.oid(1, 1, 1, 0)  # <prefix>GlobalRxPkts.0: the first counter


def serves(client, e):
    r = client.get([first(e)])
    return r.rc == 0 and r.varbinds and r.varbinds[0].value == e.value(1, 1, 1, 0)


def absent(client, e):
    r = client.get([first(e)])
    return r.rc == 0 and r.varbinds and r.varbinds[0].type == "noSuchObject"


def hup_and_wait(agt, what):
    """SIGHUP, then wait for the log line that ends a reload: applied or
    refused."""
    before = agt.read_log().count(what)
    agt.proc.send_signal(signal.SIGHUP)
    h.wait_for(lambda: agt.read_log().count(what) > before, 20, what)


@pytest.fixture
def two_segments():
    d = h.make_tmpdir("hup")
    a = Writer(os.path.join(d, "a.seg"), d)
    b = Writer(os.path.join(d, "b.seg"), d, binary_var="FM_WRITER_SB")
    yield d, (a, a.fill()), (b, b.fill())
    shutil.rmtree(d, ignore_errors=True)


def test_sighup_applies_a_changed_configuration(two_segments):
    """Segments added and removed by a reload take effect; the segment
    named in both keeps being served, with its values, by the same
    process."""
    d, (a, ea), (b, eb) = two_segments
    agt = h.Agent([], standalone=True, extra_conf=["segment " + a.segment])
    try:
        agt.start(wait_oid=first(ea))
        pid = agt.proc.pid
        assert absent(agt.client, eb)

        write(agt.conf, h.access_lines() + ["segment " + a.segment,
                                            "segment " + b.segment])
        hup_and_wait(agt, "configuration reloaded")
        h.wait_for(lambda: serves(agt.client, eb), 20, "b served", interval=0.1)
        assert serves(agt.client, ea)
        assert "configuration reloaded: 2 segment(s) (0 no longer served)" in agt.read_log()

        write(agt.conf, h.access_lines() + ["segment " + b.segment])
        hup_and_wait(agt, "configuration reloaded: 1 segment(s)")
        h.wait_for(lambda: absent(agt.client, ea), 20, "a no longer served", interval=0.1)
        assert serves(agt.client, eb)
        assert agt.alive() and agt.proc.pid == pid
    finally:
        agt.stop()
        agt.cleanup()


def test_bad_configuration_on_reload_keeps_the_one_in_force(two_segments):
    d, (a, ea), (b, eb) = two_segments
    agt = h.Agent([], standalone=True, extra_conf=["segment " + a.segment])
    try:
        agt.start(wait_oid=first(ea))
        lines = h.access_lines() + ["segment " + b.segment, "pingInterval 0"]
        write(agt.conf, lines)
        hup_and_wait(agt, "the one in force is kept")
        log = agt.read_log()
        assert "%s: line %d: Error: bad pingInterval '0' (1..3600 s)" % (
            agt.conf, len(lines)) in log, log
        assert "1 error(s) in the configuration; the one in force is kept" in log
        # nothing of the bad file applied: a still served, b not
        assert serves(agt.client, ea) and absent(agt.client, eb)

        write(agt.conf, h.access_lines() + ["segment " + b.segment])
        hup_and_wait(agt, "configuration reloaded")
        h.wait_for(lambda: serves(agt.client, eb), 20, "b served", interval=0.1)
        h.wait_for(lambda: absent(agt.client, ea), 20, "a dropped", interval=0.1)

        # a configuration left with nothing to serve is an error too
        write(agt.conf, h.access_lines())
        hup_and_wait(agt, "the one in force is kept")
        assert "no segment and no --ports given" in agt.read_log()
        assert serves(agt.client, eb)
    finally:
        agt.stop()
        agt.cleanup()


def test_sighup_reopens_the_log_and_A_appends(tmp_path, two_segments):
    """logrotate moves the file and sends SIGHUP: the agent writes to a new
    file at the old name. -A keeps what a log file held at start; without
    it -Lf starts the file afresh, as snmpd does."""
    d, (a, ea), _ = two_segments
    log = tmp_path / "agent.log"
    log.write_text("older line\n")
    port = h.free_udp_port()
    conf = tmp_path / "agent.conf"
    write(conf, h.access_lines() + ["segment " + a.segment])
    base = [h.agentx_binary(), "-f", "-C", "--state-dir", str(tmp_path / "state"),
            "--listen", "udp:127.0.0.1:%d" % port, "-c", str(conf)]
    client = h.Client(port)
    proc = subprocess.Popen(base + ["-Lf", str(log), "-A"])  # -A after -Lf
    try:
        h.wait_for(lambda: serves(client, ea), 20, "served", interval=0.1)
        assert log.read_text().startswith("older line\n")
        os.rename(log, str(log) + ".1")
        proc.send_signal(signal.SIGHUP)
        h.wait_for(lambda: log.exists() and "configuration reloaded" in log.read_text(),
                   20, "a new log file")
        assert "SIGHUP: reading the configuration again" in log.read_text()
        assert serves(client, ea)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    proc = subprocess.Popen(base + ["-Lf", str(log)])
    try:
        h.wait_for(lambda: serves(client, ea), 20, "served", interval=0.1)
        assert "configuration reloaded" not in log.read_text()  # truncated
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0


def test_connect_failure_says_why(tmp_path):
    """Net-SNMP's own line has no reason ("Failed to connect ... (PATH): ");
    the agent's names the socket and connect()'s error, once per reason."""
    sock = tmp_path / "no-master"
    log = tmp_path / "log"
    proc = subprocess.Popen([h.agentx_binary(), "-f", "-C", "-Lf", str(log), "--ping",
                             "1", "-x", str(sock), str(tmp_path / "none.seg")])
    try:
        want = "%s: cannot connect to the AgentX master: No such file or directory; " \
               "retrying" % sock
        h.wait_for(lambda: want in h._read_text(str(log)), 20, "the reason")
        sock.mkdir()  # now a directory: another reason, logged again
        h.wait_for(lambda: "%s: cannot connect to the AgentX master: Connection "
                   "refused" % sock in h._read_text(str(log)), 20, "the new reason")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    text = h._read_text(str(log))
    assert text.count(want) == 1, text
    assert "Failed to connect" not in text and "[NIL]" not in text


def test_daemon_without_master_exits_non_zero(tmp_path):
    r = subprocess.run([h.agentx_binary(), "-C", "-x", str(tmp_path / "no-master"),
                        str(tmp_path / "none.seg")], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 1, r
    assert ("%s: cannot connect to the AgentX master: No such file or directory; not "
            "started (with -f the agent keeps retrying)" % (tmp_path / "no-master")
            ) in r.stderr, r.stderr


def test_version_and_directives_as_snmpd():
    r = subprocess.run([h.agentx_binary(), "-v"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("fastmib-agentx ")
    r = subprocess.run([h.agentx_binary(), "-C", "-H"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for d in ("segment", "ports", "agentxSocket", "pingInterval", "notifyRate",
              "portsTimeout"):
        assert "\n    %s " % d in r.stdout, d


# ---- the permissions recipe (docs/operations.md, "Permissions") ----

def fill_with_group(seg, workdir, group):
    """A segment created by the application (root) for `group`, 0640."""
    exp = os.path.join(workdir, "expect-%s.json" % group)
    cmd = [writer_binary(), "fill", seg, exp, "--file-prefix",
           "fmwg%d" % os.getpid(), "--mode", "640"]
    if group:
        cmd += ["--group", group]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return Expectations(exp)


def stock_snmpd(recipe):
    """snmpd started as Debian's unit starts it: as root, then
    Debian-snmp, its AgentX socket in a directory made like systemd's
    RuntimeDirectory=agentx (root, 0755). With the recipe, the agentXPerms
    line of docs/operations.md, for the group the agent runs as."""
    snmpd = h.Snmpd(extra_lines=["agentXSocket %s" % "PLACEHOLDER"])
    rundir = os.path.join(snmpd.dir, "agentx")
    os.mkdir(rundir, 0o755)
    os.chmod(snmpd.dir, 0o755)
    snmpd.sock = os.path.join(rundir, "master")
    lines = ["agentXSocket %s" % snmpd.sock]
    if recipe:
        lines.append("agentXPerms 0660 0755 root nogroup")
    snmpd.set_extra_lines(lines)
    snmpd.extra_args = ["-u", "Debian-snmp", "-g", "Debian-snmp"]
    return snmpd


def unit_user_agent(snmpd, segment, workdir):
    """fastmib-agentx as the unit runs it: as its own unprivileged user
    from the first instruction on (here nobody:nogroup), not root."""
    os.chown(workdir, pwd.getpwnam("nobody").pw_uid, -1)
    log = os.path.join(workdir, "agent.log")
    proc = subprocess.Popen(
        [h.runnable_by_anyone(h.agentx_binary(), workdir), "-f", "-C", "-Lf", log,
         "--ping", "1", "-x", snmpd.sock, segment],
        user="nobody", group="nogroup", extra_groups=[], cwd=workdir)
    return proc, log


@as_root
@pytest.mark.parametrize("recipe", [True, False], ids=["recipe", "stock"])
def test_unit_user_reaches_a_stock_snmpd(recipe):
    """With the recipe the agent, as an unprivileged user, registers and
    serves, also after snmpd restarts; without it (the negative control)
    the same agent says why it cannot connect and serves nothing."""
    if not any(u.pw_name == "Debian-snmp" for u in pwd.getpwall()):
        pytest.skip("no Debian-snmp user (snmpd package)")
    d = h.make_tmpdir("perm")
    os.chmod(d, 0o755)
    snmpd = proc = None
    try:
        e = fill_with_group(os.path.join(d, "ep.seg"), d, "nogroup")
        snmpd = stock_snmpd(recipe).start()
        proc, log = unit_user_agent(snmpd, os.path.join(d, "ep.seg"), d)
        if recipe:
            h.wait_for(lambda: serves(snmpd.client, e), 30, "served", interval=0.1)
            snmpd.kill()
            snmpd.start()
            h.wait_for(lambda: serves(snmpd.client, e), 30, "served again",
                       interval=0.1)
            # only while snmpd was away (its socket gone), never refused
            assert "Permission denied" not in h._read_text(log)
        else:
            h.wait_for(lambda: "%s: cannot connect to the AgentX master: Permission "
                       "denied" % snmpd.sock in h._read_text(log), 30, "the reason")
            assert absent(snmpd.client, e)
        assert proc.poll() is None
    finally:
        if proc:
            proc.send_signal(signal.SIGTERM)
            proc.wait(20)
        h.shut_down(snmpd)
        shutil.rmtree(d, ignore_errors=True)


@as_root
@pytest.mark.parametrize("group", ["nogroup", None], ids=["group", "no-group"])
def test_segment_read_by_the_unit_user_through_its_group(group):
    """fastmib_opts.group gives the agent's user read access to a 0640
    segment of a root application; without it (negative control) the
    file is root's group and the agent refuses it with the reason."""
    d = h.make_tmpdir("grp")
    os.chmod(d, 0o755)
    seg = os.path.join(d, "ep.seg")
    agt = None
    try:
        e = fill_with_group(seg, d, group)
        st = os.stat(seg)
        assert (st.st_mode & 0o777, st.st_gid) == (
            0o640, grp.getgrnam(group).gr_gid if group else os.getgid())
        agt = h.Agent([seg], standalone=True)
        os.chmod(agt.dir, 0o777)
        binary = h.runnable_by_anyone(h.agentx_binary(), agt.dir)
        agt.command = lambda: [binary, "-f", "-C", "-Lf", agt.log,
                               "--listen", "udp:127.0.0.1:%d" % agt.port,
                               "-c", agt.conf, seg]
        out = open(os.path.join(agt.dir, "agent.out"), "a")
        agt.proc = subprocess.Popen(agt.command(), stdout=out, stderr=out,
                                    user="nobody", group="nogroup", extra_groups=[])
        if group:
            agt.wait_served(first(e))
        else:
            h.wait_for(lambda: "Permission denied" in agt.read_log(), 20, "refusal")
            assert absent(agt.client, e)
    finally:
        if agt:
            agt.stop()
            agt.cleanup()
        shutil.rmtree(d, ignore_errors=True)


def test_agentx_timestamps_follow_snmpd_sysuptime():
    """In AgentX mode a TimeStamp is on snmpd's clock: Net-SNMP sets the
    subagent's uptime from the master's at every response (the open, the
    registrations, each ping). An agent started 3 s after snmpd stamps a
    reset with snmpd's sysUpTime, not with its own uptime (3 s less)."""
    d = h.make_tmpdir("ts")
    snmpd = agt = None
    try:
        w = Writer(os.path.join(d, "ep.seg"), d)
        e = w.fill()
        snmpd = h.Snmpd().start()
        up0 = snmpd.client.value("1.3.6.1.2.1.1.3.0")
        h.wait_for(lambda: snmpd.client.value("1.3.6.1.2.1.1.3.0") >= up0 + 300, 20,
                   "snmpd up 3 s longer", interval=0.2)
        agt = h.Agent([w.segment], snmpd).start(wait_oid=first(e))
        before = snmpd.client.value("1.3.6.1.2.1.1.3.0")
        r = snmpd.client.set(e.oid(1, 1, 1001, 0), "i", 1)  # epGlobalReset.0
        assert r.rc == 0 and not r.error, r
        after = snmpd.client.value("1.3.6.1.2.1.1.3.0")
        stamp = snmpd.client.value(e.oid(1, 1, 1002, 0))  # epGlobalDiscontinuityTime
        print("sysUpTime %d..%d cs, DiscontinuityTime %d cs" % (before, after, stamp))
        # within the clocks' resync (one ping, 2 s) of snmpd's uptime
        assert before - 200 <= stamp <= after + 200, (before, stamp, after)
        assert stamp >= 300
    finally:
        h.shut_down(agt, snmpd)
        shutil.rmtree(d, ignore_errors=True)
