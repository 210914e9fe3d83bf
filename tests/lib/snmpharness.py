# SPDX-License-Identifier: BSD-3-Clause
"""Test harness: a real snmpd on loopback, fastmib-agentx, and the net-snmp
command-line clients, with their output parsed into Python values.

Everything runs in a private temporary directory on free loopback ports, so
tests can run side by side. Nothing here mocks SNMP: the clients talk to a
real snmpd, which talks AgentX to the real subagent.

Environment (set by ctest):
  FASTMIB_AGENTX     path of the fastmib-agentx binary
  FASTMIB_MODULE     path of the snmpd module fastmib_snmpd.so (module mode)
  FASTMIB_BASE_MIBS  directory with SNMPv2-SMI & co (scripts/install-deps.sh)
  FASTMIB_MIB_DIR    directory with the generated module MIB (optional)
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

SNMPD = shutil.which("snmpd") or "/usr/sbin/snmpd"
SNMPTRAPD = shutil.which("snmptrapd") or "/usr/sbin/snmptrapd"

# SNMPv3 users created in every configuration made here.
V3_RW = ("fmadmin", "fmadmin-pass-1")   # rwuser ... priv
V3_RO = ("fmreader", "fmreader-pass-1")  # rouser ... priv

SYS_UPTIME = "1.3.6.1.2.1.1.3.0"
SNMP_TRAP_OID = "1.3.6.1.6.3.1.1.4.1.0"


class HarnessError(RuntimeError):
    pass


def our_frames(*dirs):
    """A pattern of valgrind's "(file.c:LINE)" frames of the C files under
    `dirs` of the source tree (e.g. "subagent", "ethdev"): which records
    of a report are about our code, whatever the files are called now."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    names = set()
    for d in dirs:
        for _, _, files in os.walk(os.path.join(root, d)):
            names.update(f for f in files if f.endswith(".c"))
    assert names, dirs
    alt = "|".join(sorted(re.escape(n) for n in names))
    return re.compile(r"\((?:%s):\d+\)" % alt)


def wait_for(pred, timeout, what, interval=0.05):
    """Poll pred() until it returns a true value or timeout seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise HarnessError("timed out waiting for " + what)
        time.sleep(interval)


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_tmpdir(tag):
    """A short path (AgentX unix socket paths must fit in sun_path) in
    TMPDIR: the test run's temporary directory under ctest."""
    return tempfile.mkdtemp(prefix="fm%s-" % tag)


def access_lines():
    """Access control shared by snmpd and the standalone agent."""
    lines = [
        "rocommunity public 127.0.0.1",
        "rwcommunity private 127.0.0.1",
        "createUser %s SHA %s AES %s" % (V3_RW[0], V3_RW[1], V3_RW[1]),
        "createUser %s SHA %s AES %s" % (V3_RO[0], V3_RO[1], V3_RO[1]),
        "rwuser %s priv" % V3_RW[0],
        "rouser %s priv" % V3_RO[0],
    ]
    return lines


def _stop_process(proc, timeout=10):
    if proc is None or proc.poll() is not None:
        return proc.returncode if proc else None
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise HarnessError("process %d ignored SIGTERM" % proc.pid)


def _kill_process(proc):
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _read_text(path):
    """The file's text, or "" while it does not exist yet."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def shut_down(*servers):
    """Stop, then clean up, each server that is not None, in order."""
    for s in servers:
        if s is not None:
            s.stop()
            s.cleanup()


# --------------------------------------------------------------------------
# net-snmp clients

class Varbind:
    __slots__ = ("oid", "type", "value", "raw")

    def __init__(self, oid, type_, value, raw):
        self.oid, self.type, self.value, self.raw = oid, type_, value, raw

    def __repr__(self):
        return "Varbind(%s, %s, %r)" % (self.oid, self.type, self.value)


# "No Such Object ...", "No Such Instance ...", "No more variables ..."
EXCEPTIONS = {
    "No Such Object available on this agent at this OID": "noSuchObject",
    "No Such Instance currently exists at this OID": "noSuchInstance",
    "No more variables left in this MIB View (It is past the end of the MIB tree)":
        "endOfMibView",
}

_LINE = re.compile(r"^(\S+) = (?:([A-Za-z0-9-]+): )?(.*)$")


def parse_value(type_, text):
    if type_ in ("Counter64", "Counter32", "Gauge32", "INTEGER", "Timeticks",
                 "Unsigned32"):
        m = re.search(r"-?\d+", text)
        return int(m.group(0)) if m else text
    if type_ == "Hex-STRING":
        # octets one space apart: net-snmp ends the line with one more
        return " ".join(text.split())
    return text


def parse_varbinds(out):
    """Parse `-On -Oe -Ot` style client output: `.1.3... = TYPE: value`; a
    Hex-STRING over 16 octets goes on over the lines that follow it."""
    vbs = []
    for line in out.splitlines():
        m = _LINE.match(line)
        if not m:
            if vbs and vbs[-1].type == "Hex-STRING" and re.fullmatch(r"([0-9A-F]{2} ?)+", line.strip()):
                vb = vbs[-1]
                vb.raw += " " + line.strip()
                vb.value = vb.value + " " + " ".join(line.split())
            continue
        oid, type_, text = m.group(1), m.group(2), m.group(3)
        if type_ is None and text.strip() == '""':  # an empty string, in -Ox
            vbs.append(Varbind(oid.lstrip("."), "STRING", '""', line))
            continue
        if type_ is None:
            exc = EXCEPTIONS.get(text.strip())
            vbs.append(Varbind(oid.lstrip("."), exc or "?", None, line))
            continue
        vbs.append(Varbind(oid.lstrip("."), type_, parse_value(type_, text), line))
    return vbs


class SnmpResult:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        m = re.search(r"Reason: \(?(\w+)\)?", self.out + self.err)
        self.error = m.group(1) if m else None
        self.varbinds = parse_varbinds(self.out)

    def __repr__(self):
        return "SnmpResult(rc=%s, error=%s, out=%r, err=%r)" % (
            self.rc, self.error, self.out[-400:], self.err[-400:])


class Client:
    """net-snmp command-line clients against one agent address."""

    def __init__(self, port, mib_module=None, mib_dirs=None, timeout=2.0,
                 retries=1):
        self.target = "udp:127.0.0.1:%d" % port
        self.mib_module = mib_module
        self.mib_dirs = mib_dirs or []
        self.timeout = timeout
        self.retries = retries

    def target_port(self):
        return int(self.target.rsplit(":", 1)[1])

    def auth(self, who):
        if who == "ro":
            return ["-v2c", "-c", "public"]
        if who == "rw":
            return ["-v2c", "-c", "private"]
        if who == "v1":
            return ["-v1", "-c", "public"]
        if who in ("v3rw", "v3ro"):
            user, pw = V3_RW if who == "v3rw" else V3_RO
            return ["-v3", "-l", "authPriv", "-u", user, "-a", "SHA", "-A", pw,
                    "-x", "AES", "-X", pw]
        raise ValueError(who)

    def mib_args(self, use_mib):
        if use_mib and self.mib_module:
            return ["-M", ":".join(self.mib_dirs), "-m", self.mib_module]
        return ["-m", ""]

    def run(self, tool, args, who="ro", use_mib=False, fmt=("-On", "-Oe"),
            timeout=60):
        cmd = [tool] + self.auth(who) + list(fmt) + self.mib_args(use_mib) + [
            "-t", str(self.timeout), "-r", str(self.retries), self.target] + list(args)
        env = dict(os.environ, MIBS="", MIBDIRS="")
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env=env)
        return SnmpResult(proc)

    def get(self, oids, who="ro", **kw):
        return self.run("snmpget", list(oids), who, **kw)

    def getnext(self, oids, who="ro", **kw):
        return self.run("snmpgetnext", list(oids), who, **kw)

    def walk(self, root, who="ro", **kw):
        return self.run("snmpwalk", [root], who, **kw)

    def bulkwalk(self, root, who="ro", reps=25, **kw):
        return self.run("snmpbulkwalk", ["-Cr%d" % reps, root], who, **kw)

    def set(self, oid, type_, value, who="rw", **kw):
        return self.run("snmpset", [oid, type_, str(value)], who, **kw)

    def table(self, table, who="ro", **kw):
        """snmptable -Ci -Cf '|': returns (columns, rows as lists)."""
        res = self.run("snmptable", ["-Ci", "-Cf", "|", table], who,
                       use_mib=True, fmt=("-Oe", "-OU"), **kw)
        lines = [ln for ln in res.out.splitlines() if "|" in ln]
        if not lines:
            return res, [], []
        cols = lines[0].split("|")
        return res, cols, [ln.split("|") for ln in lines[1:]]

    def value(self, oid, who="ro"):
        r = self.get([oid], who)
        if len(r.varbinds) != 1:
            raise HarnessError("GET %s: %r" % (oid, r))
        return r.varbinds[0].value

    def answers(self, oid=SYS_UPTIME):
        try:
            r = self.get([oid])
        except subprocess.TimeoutExpired:
            return False
        return r.rc == 0 and len(r.varbinds) == 1 and r.varbinds[0].value is not None


# --------------------------------------------------------------------------
# snmpd

def snmpd_env():
    """snmpd's environment. A sanitizer build of the fastmib module needs
    the sanitizer runtime loaded first: FASTMIB_SNMPD_PRELOAD names it
    (set by CMake for such builds); snmpd's own exit-time leaks are not ours."""
    env = dict(os.environ, MIBS="")
    preload = os.environ.get("FASTMIB_SNMPD_PRELOAD")
    if preload:
        env["LD_PRELOAD"] = preload
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    return env


class Snmpd:
    """A private snmpd: master agent with an AgentX socket in its own dir.
    `extra_lines` go to the end of its snmpd.conf (see set_extra_lines());
    `wrapper` is a command prefix (valgrind ...); `if_mib`: snmpd serves
    its own IF-MIB (the kernel's interfaces), as a system snmpd does;
    `extra_args` go to snmpd's command line (-Dtoken ...)."""

    # MIB modules a test snmpd leaves out: slow to load, or (IF-MIB) rows
    # that come and go with the host's interfaces
    EXCLUDED = ["ifTable", "ifXTable", "ipAddressTable", "inetCidrRouteTable",
                "ipCidrRouteTable", "hrSWRunTable", "hrSWInstalledTable"]

    def __init__(self, workdir=None, port=None, extra_lines=(), wrapper=(),
                 if_mib=False, extra_args=()):
        self.dir = workdir or make_tmpdir("snmpd")
        self.port = port or free_udp_port()
        self.sock = os.path.join(self.dir, "agentx.sock")
        self.conf = os.path.join(self.dir, "snmpd.conf")
        self.log = os.path.join(self.dir, "snmpd.log")
        self.pidfile = os.path.join(self.dir, "snmpd.pid")
        self.persist = os.path.join(self.dir, "persist")
        os.makedirs(self.persist, exist_ok=True)
        self.proc = None
        self.wrapper = list(wrapper)
        self.extra_args = list(extra_args)
        self.excluded = [m for m in self.EXCLUDED
                         if not (if_mib and m in ("ifTable", "ifXTable"))]
        self.set_extra_lines(extra_lines)
        self.client = Client(self.port)

    def set_extra_lines(self, extra_lines):
        """(Re)write snmpd.conf; a running snmpd reads it on reload()."""
        with open(self.conf, "w") as f:
            f.write("\n".join([
                "agentAddress udp:127.0.0.1:%d" % self.port,
                "master agentx",
                "agentXSocket %s" % self.sock,
                "agentXPerms 0660 0770",
                "agentXTimeout 2",
                "agentXRetries 1",
                "dontLogTCPWrappersConnects yes",
            ] + access_lines() + [
                "[snmp] persistentDir %s" % self.persist,
            ] + list(extra_lines) + [""]))

    def reload(self, timeout=15):
        """SIGHUP, then wait until snmpd has re-read its files. snmpd logs
        "restarted" just before it re-reads them, in its only thread, so
        the first request answered after that line sees the new
        configuration in effect."""
        before = self.read_log().count(" restarted")
        self.proc.send_signal(signal.SIGHUP)
        wait_for(lambda: self.read_log().count(" restarted") > before, timeout,
                 "snmpd to reload its configuration")
        wait_for(self.client.answers, timeout, "snmpd to answer after reload")

    def start(self, timeout=15):
        # A leftover socket file of a killed snmpd would not stop a new
        # one, but remove it so that its reappearance means "listening".
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        logf = open(self.log, "a")
        self.proc = subprocess.Popen(
            self.wrapper + [SNMPD, "-f", "-r", "-C", "-c", self.conf, "-p", self.pidfile,
             "-Lf", self.log, "-I", "-" + ",".join(self.excluded)] + self.extra_args,
            stdout=logf, stderr=subprocess.STDOUT, env=snmpd_env())
        logf.close()
        try:
            wait_for(lambda: self.proc.poll() is not None or
                     (os.path.exists(self.sock) and self.client.answers()),
                     timeout, "snmpd on port %d" % self.port)
        except HarnessError:
            self.kill()
            raise
        if self.proc.poll() is not None:
            raise HarnessError("snmpd exited: %s" % self.read_log())
        return self

    def stop(self):
        _stop_process(self.proc)

    def kill(self):
        _kill_process(self.proc)

    def read_log(self):
        return _read_text(self.log)

    def cleanup(self):
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


# --------------------------------------------------------------------------
# fastmib-agentx

def agentx_binary():
    path = os.environ.get("FASTMIB_AGENTX")
    if not path or not os.access(path, os.X_OK):
        raise HarnessError("FASTMIB_AGENTX does not name the fastmib-agentx binary")
    return path


class Agent:
    """fastmib-agentx in the foreground, as subagent of `snmpd` or, when
    `standalone` is true, as its own agent on a free UDP port."""

    def __init__(self, segments, snmpd=None, standalone=False, extra_args=(),
                 wrapper=(), workdir=None, extra_conf=()):
        self.dir = workdir or make_tmpdir("agent")
        self.segments = list(segments)
        self.snmpd = snmpd
        self.standalone = standalone
        self.extra_args = list(extra_args)
        self.wrapper = list(wrapper)
        self.log = os.path.join(self.dir, "agent.log")
        self.state = os.path.join(self.dir, "state")
        os.makedirs(self.state, exist_ok=True)
        self.proc = None
        # a settings file: access control for a standalone agent, and the
        # lines asked for (a subagent's access control is snmpd's)
        self.conf = os.path.join(self.dir, "agent.conf")
        self.has_conf = standalone or bool(extra_conf)
        if self.has_conf:
            with open(self.conf, "w") as f:
                f.write("\n".join((access_lines() if standalone else []) +
                                  list(extra_conf)) + "\n")
        if standalone:
            self.port = free_udp_port()
            self.client = Client(self.port)
        else:
            self.port = snmpd.port
            self.client = snmpd.client

    def command(self):
        # -C: only what the test gives, never the host's Net-SNMP files
        cmd = self.wrapper + [agentx_binary(), "-f", "-C", "-Lf", self.log,
                              "--state-dir", self.state]
        if self.standalone:
            cmd += ["--listen", "udp:127.0.0.1:%d" % self.port]
        else:
            cmd += ["-x", self.snmpd.sock]
        if self.has_conf:
            cmd += ["-c", self.conf]
        return cmd + self.extra_args + self.segments

    def start(self, wait_oid=None, timeout=20):
        out = open(os.path.join(self.dir, "agent.out"), "a")
        self.proc = subprocess.Popen(self.command(), stdout=out,
                                     stderr=subprocess.STDOUT)
        out.close()
        if wait_oid:
            self.wait_served(wait_oid, timeout)
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_served(self, oid, timeout=20):
        """Until a GET of `oid` (an instance of a served segment) answers."""
        def ok():
            if not self.alive():
                raise HarnessError("fastmib-agentx exited (%s): %s" % (
                    self.proc.returncode, self.read_log()))
            r = self.client.get([oid])
            return r.rc == 0 and r.varbinds and r.varbinds[0].value is not None
        wait_for(ok, timeout, "fastmib-agentx serving %s" % oid, interval=0.1)

    def wait_absent(self, oid, timeout=20):
        def gone():
            r = self.client.get([oid])
            return r.varbinds and r.varbinds[0].type in ("noSuchObject",
                                                         "noSuchInstance")
        wait_for(gone, timeout, "%s no longer served" % oid, interval=0.1)

    def stop(self):
        return _stop_process(self.proc, timeout=30)

    def read_log(self):
        return _read_text(self.log)

    def cleanup(self):
        _kill_process(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)


def module_path():
    path = os.environ.get("FASTMIB_MODULE")
    if not path or not os.path.isfile(path):
        raise HarnessError("FASTMIB_MODULE does not name the snmpd module")
    return path


def module_lines(segments, module=None):
    """snmpd.conf lines that load the module and name the segments (the
    directive exists only once the dlmod line has been read)."""
    return ["dlmod fastmib %s" % (module or module_path())] + [
        "fastmibSegment %s" % seg for seg in segments]


class ModuleAgent:
    """The snmpd module serving `segments` inside a private snmpd: the same
    interface as Agent, with snmpd as the serving process."""

    def __init__(self, segments, extra_lines=(), wrapper=(), if_mib=False,
                 snmpd_args=()):
        self.segments = list(segments)
        self.snmpd = Snmpd(extra_lines=module_lines(self.segments) +
                           list(extra_lines), wrapper=wrapper, if_mib=if_mib,
                           extra_args=snmpd_args)
        self.port = self.snmpd.port
        self.client = self.snmpd.client
        self.log = self.snmpd.log

    def start(self, wait_oid=None, timeout=20):
        self.snmpd.start()
        if wait_oid:
            self.wait_served(wait_oid, timeout)
        return self

    def alive(self):
        return self.snmpd.proc is not None and self.snmpd.proc.poll() is None

    def wait_served(self, oid, timeout=20):
        def ok():
            if not self.alive():
                raise HarnessError("snmpd exited: %s" % self.read_log())
            r = self.client.get([oid])
            return r.rc == 0 and r.varbinds and r.varbinds[0].value is not None
        wait_for(ok, timeout, "snmpd module serving %s" % oid, interval=0.1)

    wait_absent = Agent.wait_absent

    def stop(self):
        return _stop_process(self.snmpd.proc, timeout=30)

    def read_log(self):
        return self.snmpd.read_log()

    def cleanup(self):
        self.snmpd.cleanup()


# --------------------------------------------------------------------------
# snmptrapd

class Trap:
    """One notification as snmptrapd logged it: varbinds in order."""

    def __init__(self, varbinds):
        self.varbinds = varbinds
        self.by_oid = {v.oid: v for v in varbinds}

    @property
    def trap_oid(self):
        vb = self.by_oid.get(SNMP_TRAP_OID)
        return vb.value.lstrip(".") if vb else None

    def __repr__(self):
        return "Trap(%s, %r)" % (self.trap_oid, self.varbinds[2:])


def trap_sink_line(port):
    """snmpd.conf / agent configuration line sending v2c notifications to a
    receiver on loopback `port`."""
    return "trap2sink 127.0.0.1:%d public" % port


class Snmptrapd:
    """A private notification receiver: snmptrapd in the foreground on a free
    loopback port, accepting everything (disableAuthorization), logging each
    notification as one line of tab-separated numeric varbinds."""

    def __init__(self, workdir=None):
        self.dir = workdir or make_tmpdir("trapd")
        self.port = free_udp_port()
        self.conf = os.path.join(self.dir, "snmptrapd.conf")
        self.log = os.path.join(self.dir, "snmptrapd.log")
        persist = os.path.join(self.dir, "persist")
        os.makedirs(persist, exist_ok=True)
        with open(self.conf, "w") as f:
            f.write("disableAuthorization yes\n[snmp] persistentDir %s\n" % persist)
        self.proc = None

    def start(self, timeout=15):
        logf = open(os.path.join(self.dir, "snmptrapd.out"), "a")
        # -X: not an AgentX subagent; -On: numeric OIDs
        self.proc = subprocess.Popen(
            [SNMPTRAPD, "-f", "-X", "-On", "-Lf", self.log, "-C", "-c", self.conf,
             "udp:127.0.0.1:%d" % self.port],
            stdout=logf, stderr=subprocess.STDOUT, env=dict(os.environ, MIBS=""))
        logf.close()
        # It logs its version line once it listens.
        wait_for(lambda: self.proc.poll() is not None or
                 "NET-SNMP version" in self._read(), timeout, "snmptrapd")
        if self.proc.poll() is not None:
            raise HarnessError("snmptrapd exited: %s" % self._read())
        return self

    def _read(self):
        return _read_text(self.log)

    def traps(self):
        """Every notification received so far, oldest first."""
        out = []
        for line in self._read().splitlines():
            if " = " not in line or not line.startswith("."):
                continue
            vbs = parse_varbinds("\n".join(line.split("\t")))
            if vbs:
                out.append(Trap(vbs))
        return out

    def wait_traps(self, n, timeout=20, pred=lambda t: True):
        """Until at least n notifications matching pred arrived; returns them."""
        def enough():
            got = [t for t in self.traps() if pred(t)]
            return got if len(got) >= n else None
        return wait_for(enough, timeout, "%d notifications" % n, interval=0.1)

    def stop(self):
        _stop_process(self.proc)

    def cleanup(self):
        _kill_process(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)


def parse_hex(text):
    """`Hex-STRING: 07 EA 0B` (or a quoted STRING) -> bytes."""
    text = text.strip()
    if text.startswith('"') and text.endswith('"'):
        return text[1:-1].encode()
    return bytes(int(b, 16) for b in text.split())


# What net-snmp's tools print for each wire syntax, as the test writers
# name it (tests/subagent/fm-state-wire.c)
TOOL_SYNTAX = {"INTEGER": "INTEGER", "Gauge32": "Gauge32", "Counter64": "Counter64",
               "Timeticks": "Timeticks", "Hex-STRING": "OCTET STRING",
               "STRING": "OCTET STRING", "IpAddress": "IpAddress"}


def wire(vb):
    """(syntax, value) of a net-snmp varbind as the test writers give a
    value on the wire: a number, or octets in lower-case hexadecimal."""
    syntax = TOOL_SYNTAX.get(vb.type, vb.type)
    if vb.type == "IpAddress":
        return syntax, bytes(int(x) for x in vb.value.split(".")).hex()
    if syntax == "OCTET STRING":
        return syntax, parse_hex(vb.value).hex()
    return syntax, vb.value


def printed(syntax, value):
    """The inverse of wire(): (type, value) of a value on the wire as
    parse_varbinds() reads net-snmp's tools printing it with -On -Oe and no
    MIB. Octets are a quoted STRING when each is a printable character, a
    Hex-STRING when one is neither printable nor blank; text net-snmp
    would escape or print over lines (quotes, backslashes, blanks other
    than spaces) is refused: a test's expectation would be a guess."""
    if syntax == "IpAddress":
        return syntax, ".".join(str(b) for b in bytes.fromhex(value))
    if syntax != "OCTET STRING":
        return syntax, int(value)
    octets = bytes.fromhex(value)
    if not octets:
        return "STRING", '""'
    # as net-snmp guesses: text when each octet is printable or blank (C's
    # isprint(), isspace())
    blank = b"\t\n\v\f\r"
    if any(not 0x20 <= b < 0x7f and b not in blank for b in octets):
        return "Hex-STRING", " ".join("%02X" % b for b in octets)
    if any(b in blank or b in b'"\\' for b in octets):
        raise HarnessError("net-snmp escapes or spreads %r: no exact expectation" % octets)
    return "STRING", '"%s"' % octets.decode()


def date_and_time(octets):
    """DateAndTime (RFC 2579), 8 or 11 octets -> (y, mo, d, h, mi, s, ds, tz)."""
    y = octets[0] << 8 | octets[1]
    fields = (y,) + tuple(octets[2:8])
    tz = None
    if len(octets) == 11:
        tz = (chr(octets[8]), octets[9], octets[10])
    return fields + (tz,)


# --------------------------------------------------------------------------
# raw SNMP messages (for malformed and odd requests)

def ber_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def ber_tlv(tag, payload):
    return bytes([tag]) + ber_len(len(payload)) + payload


def ber_int(v, tag=0x02):
    n = max(1, (v.bit_length() + 8) // 8)
    return ber_tlv(tag, v.to_bytes(n, "big", signed=True))


def ber_uint(v, tag):
    n = max(1, (v.bit_length() + 8) // 8)
    return ber_tlv(tag, v.to_bytes(n, "big", signed=False))


def ber_oid(arcs):
    arcs = list(arcs)
    if len(arcs) < 2:
        arcs = arcs + [0] * (2 - len(arcs))
    body = bytearray()
    first = arcs[0] * 40 + arcs[1]
    for a in [first] + arcs[2:]:
        chunk = [a & 0x7F]
        a >>= 7
        while a:
            chunk.append(0x80 | (a & 0x7F))
            a >>= 7
        body += bytes(reversed(chunk))
    return ber_tlv(0x06, bytes(body))


def ber_read(buf, pos):
    """(tag, start of value, end of value) of the BER TLV at pos: the
    decoding side, for clients that parse answers themselves (benchmarks
    that must not pay for a general SNMP library per request)."""
    tag, n = buf[pos], buf[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        n = int.from_bytes(buf[pos:pos + k], "big")
        pos += k
    return tag, pos, pos + n


def ber_oid_arcs(b):
    """The arcs of an OID's BER value bytes."""
    arcs = [b[0] // 40, b[0] % 40]
    v = 0
    for c in b[1:]:
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            arcs.append(v)
            v = 0
    return arcs


def ber_response(resp):
    """(request-id, [(name value bytes, value tag, value bytes)]) of an
    SNMP response message, parsed with ber_read()."""
    _, p, _ = ber_read(resp, 0)              # message
    for _ in range(2):                       # version, community
        _, _, p = ber_read(resp, p)
    _, p, _ = ber_read(resp, p)              # response PDU
    _, s, e = ber_read(resp, p)              # request-id
    reqid = int.from_bytes(resp[s:e], "big", signed=True)
    p = e
    for _ in range(2):                       # error-status, error-index
        _, _, p = ber_read(resp, p)
    _, p, end = ber_read(resp, p)            # varbind list
    vbs = []
    while p < end:
        _, s, e = ber_read(resp, p)          # varbind
        _, ns, ne = ber_read(resp, s)        # name
        tag, vs, ve = ber_read(resp, ne)     # value
        vbs.append((resp[ns:ne], tag, resp[vs:ve]))
        p = e
    return reqid, vbs


def snmp_message(community, pdu_tag, request_id, varbinds, f1=0, f2=0):
    """A v2c message. varbinds: [(arcs, encoded value bytes)]. For GETBULK,
    f1/f2 are non-repeaters/max-repetitions, else error-status/index."""
    vbl = b"".join(ber_tlv(0x30, ber_oid(o) + v) for o, v in varbinds)
    pdu = ber_tlv(pdu_tag, ber_int(request_id) + ber_int(f1) + ber_int(f2) +
                  ber_tlv(0x30, vbl))
    return ber_tlv(0x30, ber_int(1) + ber_tlv(0x04, community) + pdu)


NULL = b"\x05\x00"
PDU_GET, PDU_GETNEXT, PDU_SET, PDU_GETBULK = 0xA0, 0xA1, 0xA3, 0xA5
