# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus snmp_exporter as the tests run it: prometheus-snmp-generator
turns a generator.yml into snmp.yml, reading a MIB directory that holds
only the modules it needs (its parser is strict, and some old MIBs of the
npm package fail it), then prometheus-snmp-exporter serves that snmp.yml
on a free loopback port, and a scrape's text is parsed into samples.

Debian ships an empty /etc/prometheus/snmp.yml, so every module a test
scrapes is generated here."""
import os
import re
import shutil
import socket
import subprocess
import urllib.request

import yaml

import snmpharness as h

EXPORTER = shutil.which("prometheus-snmp-exporter") or "/usr/bin/prometheus-snmp-exporter"
GENERATOR = shutil.which("prometheus-snmp-generator") or "/usr/bin/prometheus-snmp-generator"

_SAMPLE = re.compile(r'^(\w+)(?:\{([^}]*)\})? (\S+)$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
_TYPE = re.compile(r'^# TYPE (\w+) (\w+)$', re.M)


def free_tcp_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fastmib_gen(model, *args):
    """What `fastmib-gen MODEL ARGS...` (FASTMIB_GEN, set by ctest) writes
    to standard output; it must succeed without a word on standard error."""
    gen = os.environ.get("FASTMIB_GEN")
    assert gen, "FASTMIB_GEN not set: run through ctest"
    r = subprocess.run([gen, str(model), *map(str, args)], capture_output=True, text=True,
                       timeout=60)
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    return r.stdout


def mib_dir(dest, modules, search):
    """A directory `dest` holding each MIB module of `modules`, copied from
    the first directory of `search` that has it as MODULE or MODULE.txt,
    under its module name."""
    os.makedirs(dest, exist_ok=True)
    for m in modules:
        for d in search:
            found = [p for p in (os.path.join(d, m), os.path.join(d, m + ".txt"))
                     if d and os.path.isfile(p)]
            if found:
                shutil.copy(found[0], os.path.join(dest, m))
                break
        else:
            raise h.HarnessError("MIB module %s not found in %s" % (m, search))
    return dest


def needed_mibs(text):
    """The MIB modules the header comment of a generator.yml that
    `fastmib-gen -x` wrote lists."""
    comment = " ".join(ln[1:].strip() for ln in text.splitlines() if ln.startswith("#"))
    start = comment.index("MIB directory: ") + len("MIB directory: ")
    return comment[start:comment.index(".", start)].split(", ")


def generate(workdir, generator_yml, mibdir):
    """Run the generator on `generator_yml` (text) in `workdir`; the path
    of the snmp.yml it wrote. Parse errors of any MIB fail it."""
    with open(os.path.join(workdir, "generator.yml"), "w") as f:
        f.write(generator_yml)
    gen = subprocess.run([GENERATOR, "--fail-on-parse-errors", "generate"], cwd=workdir,
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, MIBDIRS=str(mibdir), MIBS=""))
    if gen.returncode != 0:
        raise h.HarnessError("prometheus-snmp-generator: %s" % gen.stderr)
    return os.path.join(workdir, "snmp.yml"), gen.stderr


def config_check(config):
    """What prometheus-snmp-exporter's own check of snmp.yml `config`
    (--dry-run: it parses every module as it would at start) reports:
    "" when it accepts the file, else its error line."""
    r = subprocess.run([EXPORTER, "--config.file=%s" % config, "--dry-run"],
                       capture_output=True, text=True, timeout=60)
    errors = [ln for ln in r.stderr.splitlines() if "level=error" in ln]
    if r.returncode == 0 and not errors:
        return ""
    return "\n".join(errors) or "exit %d: %s" % (r.returncode, r.stderr)


def started(workdir, generator_yml, mibdir):
    """An Exporter serving the snmp.yml the generator makes of
    `generator_yml` (without a warning), started, its modules (snmp.yml as
    data) in `.modules`; the caller stops it."""
    config, log = generate(workdir, generator_yml, mibdir)
    if "level=warn" in log:
        raise h.HarnessError("prometheus-snmp-generator warned: %s" % log)
    with open(config) as f:
        modules = yaml.safe_load(f)
    e = Exporter(config, workdir).start()
    e.modules = modules
    return e


class Exporter:
    """prometheus-snmp-exporter serving `config` on a free loopback port."""

    def __init__(self, config, workdir):
        self.config = config
        self.log = os.path.join(workdir, "exporter.log")
        self.port = free_tcp_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.proc = None

    def _up(self):
        try:
            return urllib.request.urlopen(self.url + "/metrics", timeout=2).status == 200
        except OSError:
            return False

    def start(self, timeout=15):
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [EXPORTER, "--config.file=%s" % self.config,
                 "--web.listen-address=127.0.0.1:%d" % self.port],
                stdout=log, stderr=subprocess.STDOUT)
        try:
            h.wait_for(lambda: self.proc.poll() is None and self._up(), timeout,
                       "snmp_exporter")
        except h.HarnessError:
            self.stop()
            raise h.HarnessError("snmp_exporter did not start: %s" %
                                 open(self.log).read())
        return self

    def scrape(self, target, module, timeout=30):
        """The exposition text of one scrape of `target` with `module`."""
        url = "%s/snmp?target=%s&module=%s" % (self.url, target, module)
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.read().decode()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def samples(text, name):
    """[(labels, value)] of metric `name` in exposition text."""
    out = []
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m and m.group(1) == name:
            out.append((dict(_LABEL.findall(m.group(2) or "")), float(m.group(3))))
    return out


def types(text):
    """{metric name: its # TYPE}."""
    return dict(_TYPE.findall(text))
