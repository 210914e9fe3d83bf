# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-agentx with snmpd's conventions, run as the real program: the
pid file of the daemon, serving as another user (-u), configuration files
(-c, the default ones, -C) with errors that name their file and line, and
the state it keeps: only in its state directory."""
import os
import pwd
import shutil
import signal
import socket
import subprocess

import pytest

import snmpharness as h
from conftest import Writer

VERSION = os.environ.get("FASTMIB_VERSION", "")


def agent(args, env=None, timeout=30):
    return subprocess.run([h.agentx_binary()] + list(args), capture_output=True,
                          text=True, timeout=timeout, env=env)


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return str(path)


def first(e):
    return e.oid(1, 1, 1, 0)  # epGlobalRxPkts.0


def serves(client, e):
    def ok():
        r = client.get([first(e)])
        return r.rc == 0 and r.varbinds and r.varbinds[0].value == e.value(1, 1, 1, 0)
    return ok


def gone(pid):
    return not os.path.exists("/proc/%d" % pid)


def test_version_and_help():
    for opt in ("-V", "--version"):
        r = agent([opt])
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("fastmib-agentx %s (net-snmp 5." % VERSION), r.stdout
    r = agent(["-h"])
    assert r.returncode == 0
    for opt in ("-p, --pid-file FILE", "--ping SECONDS", "-u, --user USER",
                "-g, --group GROUP", "-C ", "-c, --config FILE", "-Ls FACILITY"):
        assert opt in r.stdout, opt


def test_p_is_the_pid_file_not_the_ping_interval():
    r = agent(["-f", "-p", "2", "/nonexistent.seg"])
    assert r.returncode == 1
    assert "-p names the pid file; the AgentX ping interval is --ping 2" in r.stderr


def test_pid_file_of_the_daemon(tmp_path):
    """Written by the daemon (its own pid, not the command's), which keeps
    re-attaching after it detached, and removed when it stops."""
    d = str(tmp_path)
    w = Writer(os.path.join(d, "ep.seg"), d)
    e = w.fill()
    port = h.free_udp_port()
    pidf = os.path.join(d, "agent.pid")
    conf = write(tmp_path / "agent.conf", h.access_lines())
    cmd = [h.agentx_binary(), "-C", "-Lf", os.path.join(d, "agent.log"), "-p", pidf,
           "--state-dir", os.path.join(d, "state"),
           "--listen", "udp:127.0.0.1:%d" % port, "-c", conf, w.segment]
    starter = subprocess.Popen(cmd)
    assert starter.wait(30) == 0
    pid = int(h.wait_for(lambda: h._read_text(pidf), 10, "the pid file"))
    try:
        assert pid != starter.pid
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            assert f.read().split(b"\0")[0] == h.agentx_binary().encode()
        client = h.Client(port)
        h.wait_for(serves(client, e), 10, "the daemon serving", interval=0.1)
        e = w.fill(scale=3)   # re-created: the daemon's check re-attaches it
        h.wait_for(serves(client, e), 20, "the new segment served", interval=0.1)
    finally:
        os.kill(pid, signal.SIGTERM)
    h.wait_for(lambda: gone(pid), 20, "the daemon to stop")
    assert not os.path.exists(pidf)


def test_pid_file_in_the_foreground(tmp_path):
    pidf = str(tmp_path / "fg.pid")
    proc = subprocess.Popen([h.agentx_binary(), "-f", "-C", "-Lf",
                             str(tmp_path / "log"), "-p", pidf, "-x",
                             str(tmp_path / "no-master"), str(tmp_path / "none.seg")])
    try:
        h.wait_for(lambda: h._read_text(pidf), 10, "the pid file")
        assert h._read_text(pidf) == "%d\n" % proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    assert not os.path.exists(pidf)


def test_pid_file_where_it_cannot_be_written(tmp_path):
    r = agent(["-C", "-p", str(tmp_path / "no" / "such" / "x.pid"), "-x",
               str(tmp_path / "no-master"), str(tmp_path / "none.seg")])
    assert r.returncode == 1
    assert "%s: cannot write the pid file there: No such file or directory" % (
        tmp_path / "no" / "such" / "x.pid") in r.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="changing user needs root")
def test_serves_as_nobody():
    """-u nobody: everything opened as root, then served as nobody, which
    still re-attaches a re-created segment it may read and reconnects to a
    restarted snmpd whose socket it may use; what it cannot do is said at
    start."""
    nobody = pwd.getpwnam("nobody")
    d = h.make_tmpdir("uid")
    snmpd = agt = w = None
    try:
        os.chmod(d, 0o755)  # nobody can reach the segments
        w = Writer(os.path.join(d, "ep.seg"), d)
        e = w.fill()
        os.chmod(w.segment, 0o644)
        # a segment only root may read (fm-writer creates them 0640)
        hidden = os.path.join(d, "sb.seg")
        Writer(hidden, d, binary_var="FM_WRITER_SB").fill()
        snmpd = h.Snmpd(extra_lines=["agentXPerms 0666 0755"])
        os.chmod(snmpd.dir, 0o755)
        snmpd.start()
        agt = h.Agent([w.segment, hidden], snmpd, extra_args=["-u", "nobody"])
        agt.start(wait_oid=first(e))
        with open("/proc/%d/status" % agt.proc.pid) as f:
            ids = {ln.split(":")[0]: ln.split()[1:] for ln in f if ":" in ln}
        assert ids["Uid"] == [str(nobody.pw_uid)] * 4, ids["Uid"]
        assert ids["Gid"] == [str(nobody.pw_gid)] * 4, ids["Gid"]
        assert ids["Groups"] == [str(g) for g in sorted(
            os.getgrouplist("nobody", nobody.pw_gid))], ids["Groups"]
        assert h.Client(snmpd.port).value(first(e)) == e.value(1, 1, 1, 0)
        log = agt.read_log()
        assert "running as uid %d, gid %d" % (nobody.pw_uid, nobody.pw_gid) in log
        assert ("%s: nobody cannot read it: served as mapped at start, but not "
                "attached again once its application re-creates it" % hidden) in log
        assert ("%s: nobody cannot write to it: once it is attached again, resets "
                "answer resourceUnavailable" % w.segment) in log
        assert ("%s: nobody cannot write the state directory: Net-SNMP's "
                "persistent state is not saved" % agt.state) in log
        assert "AgentX socket" not in log  # 0666: nobody may connect

        e = w.fill(scale=4)  # re-created as root, made readable by nobody
        os.chmod(w.segment, 0o644)
        h.wait_for(serves(snmpd.client, e), 20, "re-attached as nobody", interval=0.1)
        r = snmpd.client.set(e.oid(2, 1, 0), "i", 1)  # epResetAll.0
        assert r.error == "resourceUnavailable", r

        snmpd.kill()
        snmpd.start()
        agt.wait_served(first(e), timeout=30)
        assert snmpd.client.value(first(e)) == e.value(1, 1, 1, 0)
        assert agt.alive()
    finally:
        h.shut_down(agt, snmpd)
        shutil.rmtree(d, ignore_errors=True)


# One bad line per directive, and Net-SNMP's own: (line, message). The
# agent reads the file as a standalone agent and must stop with the
# message at the file and line.
BAD_LINES = [
    ("segment /a /b", "Error: segment takes one value, not '/a /b'"),
    ("segment", "Error: segment needs a value"),
    # Net-SNMP's reader would join what follows a NUL to the next line
    ("segment /a.seg\x00junk", "Error: a NUL octet in the line"),
    ("ports /x,0", "Error: ports /x,0: needs PATH or PATH,BASE with BASE in "
     "1..2147483647"),
    ("pingInterval 0", "Error: bad pingInterval '0' (1..3600 s)"),
    ("checkPeriod 3601", "Error: bad checkPeriod '3601' (1..3600 s)"),
    ("eventHistory 65537", "Error: bad eventHistory '65537' (1..65536)"),
    ("notifyRate -1", "Error: bad notifyRate '-1' (0..1000000/s)"),
    ("notifyBurst many", "Error: bad notifyBurst 'many' (0..1000000)"),
    ("ifIndexBase 0", "Error: bad ifIndexBase '0' (1..2147483647)"),
    ("portsTimeout 1001", "Error: bad portsTimeout '1001' (1..1000 ms)"),
    ("agentxSocket /" + "s" * 120, "Error: bad agentxSocket '/%s': a unix socket "
     "path has at most 107 characters, not 121" % ("s" * 120)),
    ("listen udp:127.0.0.1:1 udp:127.0.0.1:2", "Error: listen takes one value"),
    ("persistentDir /tmp", "Error: persistentDir /tmp refused"),
    ("stateDir", "Error: stateDir needs a value"),
    ("rocommunity public 127.0.0.1/99", "Error: bad mask length"),
    ("view all included", "Error: missing SUBTREE parameter"),
]


@pytest.mark.parametrize("line, message", BAD_LINES, ids=[b[0].split()[0] + "-" + str(i)
                                                           for i, b in enumerate(BAD_LINES)])
def test_configuration_error_names_file_and_line(tmp_path, line, message):
    conf = write(tmp_path / "agent.conf", ["# line 1"] + [line] + h.access_lines())
    args = ["-f", "-C", "--listen", "udp:127.0.0.1:%d" % h.free_udp_port(), "-c", conf,
            str(tmp_path / "none.seg")]
    if not line.startswith(("listen", "persistentDir", "stateDir")):
        args[1:1] = ["--state-dir", str(tmp_path / "state")]
    r = agent(args)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "%s: line 2: %s" % (conf, message) in r.stderr, r.stderr
    assert "(null)" not in r.stderr


def test_listen_address_taken_names_its_line(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        conf = write(tmp_path / "agent.conf", h.access_lines() +
                     ["listen udp:127.0.0.1:%d" % port])
        r = agent(["-f", "-C", "--state-dir", str(tmp_path / "state"), "-c", conf,
                   str(tmp_path / "none.seg")])
    assert r.returncode == 1
    assert "%s: line %d: Error: cannot listen on udp:127.0.0.1:%d" % (
        conf, len(h.access_lines()) + 1, port) in r.stderr, r.stderr


def test_unknown_directive_is_a_warning_at_its_line(tmp_path):
    conf = write(tmp_path / "agent.conf", ["segmnet /x.seg", "pingInterval x"])
    r = agent(["-f", "-C", "-x", str(tmp_path / "no-master"), "-c", conf])
    assert r.returncode == 1
    assert "%s: line 1: Warning: Unknown token: segmnet." % conf in r.stderr
    assert "%s: line 2: Error: bad pingInterval 'x' (1..3600 s)" % conf in r.stderr
    assert "1 error(s) in the configuration; not started" in r.stderr


def test_command_line_errors(tmp_path):
    r = agent(["-f", "-c", str(tmp_path / "missing.conf"), "/x.seg"])
    assert r.returncode == 1
    assert "fastmib-agentx: %s: No such file or directory" % (
        tmp_path / "missing.conf") in r.stderr
    r = agent(["-f", "-u", "no-such-user-here", "/x.seg"])
    assert r.returncode == 1
    assert "-u no-such-user-here: no such user" in r.stderr
    r = agent(["-f", "-g", "no-such-group-here", "/x.seg"])
    assert r.returncode == 1
    assert "-g no-such-group-here: no such group" in r.stderr
    r = agent(["-f", "-x", "/" + "s" * 120, "/x.seg"])
    assert r.returncode == 1
    assert "a unix socket path has at most 107 characters, not 121" in r.stderr


def test_logging_options_as_snmpd(tmp_path):
    """-Lo logs to stdout; -Ls FACILITY takes the next argument, as in
    snmpd (a "d" left over would be a segment named d)."""
    conf = write(tmp_path / "agent.conf", ["pingInterval 0"])
    r = agent(["-f", "-C", "-Lo", "-x", str(tmp_path / "no-master"), "-c", conf,
               "/x.seg"])
    assert r.returncode == 1
    assert "%s: line 1: Error: bad pingInterval '0' (1..3600 s)" % conf in r.stdout
    assert r.stderr == ""
    r = agent(["-f", "-C", "-Ls", "d", "-Le", "-x", str(tmp_path / "no-master")])
    assert r.returncode == 1
    assert "no segment and no --ports given" in r.stderr


def test_default_files_unless_C(tmp_path):
    """Net-SNMP's search path ($HOME/.snmp here) holds fastmib-agentx.conf,
    read as snmpd reads snmpd.conf; -C leaves it out."""
    d = str(tmp_path)
    w = Writer(os.path.join(d, "ep.seg"), d)
    e = w.fill()
    home = tmp_path / "home"
    (home / ".snmp").mkdir(parents=True)
    write(home / ".snmp" / "fastmib-agentx.conf", ["segment %s" % w.segment])
    conf = write(tmp_path / "agent.conf", h.access_lines())
    env = dict(os.environ, HOME=str(home))
    env.pop("SNMPCONFPATH", None)
    port = h.free_udp_port()
    common = ["-f", "--state-dir", str(tmp_path / "state"), "--listen",
              "udp:127.0.0.1:%d" % port, "-c", conf]
    proc = subprocess.Popen([h.agentx_binary(), "-Lf", str(tmp_path / "log")] + common,
                            env=env)
    try:
        h.wait_for(serves(h.Client(port), e), 20, "a segment named in ~/.snmp",
                   interval=0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    r = agent(["-C"] + common, env=env)
    assert r.returncode == 1
    assert "no segment and no --ports given" in r.stderr


def run_and_stop(cmd, env, port, e):
    proc = subprocess.Popen(cmd, env=env)
    try:
        h.wait_for(serves(h.Client(port), e), 20, "served", interval=0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0


def listing(path):
    """Names and modification times under path (nothing if absent)."""
    out = {}
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            p = os.path.join(root, n)
            out[p] = os.lstat(p).st_mtime_ns
    return out


def test_state_only_in_the_state_directory(tmp_path):
    """Without a state directory nothing is written, not even where
    Net-SNMP keeps its state by default (SNMP_PERSISTENT_DIR, else
    /var/lib/snmp); under systemd, $STATE_DIRECTORY is the state
    directory."""
    d = str(tmp_path)
    w = Writer(os.path.join(d, "ep.seg"), d)
    e = w.fill()
    conf = write(tmp_path / "agent.conf", h.access_lines())
    libdir = tmp_path / "netsnmp-default"
    libdir.mkdir()
    env = dict(os.environ, SNMP_PERSISTENT_DIR=str(libdir))
    env.pop("STATE_DIRECTORY", None)
    port = h.free_udp_port()
    cmd = [h.agentx_binary(), "-f", "-C", "-Lf", str(tmp_path / "log"), "--listen",
           "udp:127.0.0.1:%d" % port, "-c", conf, w.segment]
    var_lib = listing("/var/lib/snmp")
    run_and_stop(cmd, env, port, e)
    assert os.listdir(libdir) == []
    assert listing("/var/lib/snmp") == var_lib

    state = tmp_path / "systemd-state"
    state.mkdir(mode=0o700)
    env["STATE_DIRECTORY"] = str(state)
    run_and_stop(cmd, env, port, e)
    assert "fastmib-agentx.conf" in os.listdir(state)
    assert os.listdir(libdir) == []
    assert listing("/var/lib/snmp") == var_lib


def test_snmpconfpath_and_the_state_directory(tmp_path):
    """$SNMPCONFPATH replaces Net-SNMP's search path; the state directory
    is still read, once, whether or not the path lists it."""
    d = str(tmp_path)
    w = Writer(os.path.join(d, "ep.seg"), d)
    e = w.fill()
    confdir = tmp_path / "confpath"
    confdir.mkdir()
    write(confdir / "fastmib-agentx.conf", ["segment %s" % w.segment])
    state = tmp_path / "state"
    conf = write(tmp_path / "agent.conf", h.access_lines())
    port = h.free_udp_port()
    log = str(tmp_path / "log")
    cmd = [h.agentx_binary(), "-f", "-Lf", log, "--state-dir", str(state), "--listen",
           "udp:127.0.0.1:%d" % port, "-c", conf]
    boots = []
    for path in (str(confdir), str(confdir), "%s:%s" % (confdir, state)):
        run_and_stop(cmd, dict(os.environ, SNMPCONFPATH=path), port, e)
        assert "buffer too small" not in h._read_text(log)
        with open(state / "fastmib-agentx.conf") as f:
            boots += [int(ln.split()[1]) for ln in f if ln.startswith("engineBoots ")]
    assert boots == [1, 2, 3]
