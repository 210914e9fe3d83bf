# SPDX-License-Identifier: BSD-3-Clause
"""The systemd unit as `cmake --install` writes it, checked by systemd's
own tools where they exist (Debian 12: systemd 252): `systemd-analyze
verify` finds nothing to say, and `systemd-analyze security --offline`
rates its exposure 2.5 or lower."""
import os
import re
import shutil
import subprocess

import pytest

BUILD = os.environ["FASTMIB_BUILD"]
CMAKE = os.environ.get("CMAKE", "cmake")
ANALYZE = shutil.which("systemd-analyze")
# The figure recorded in docs/operations.md; a change of the unit that
# moves it must move the document too.
EXPOSURE_MAX = 2.5

pytestmark = pytest.mark.skipif(ANALYZE is None, reason="no systemd-analyze here")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


# each unit, and the command line it starts (after the prefix)
UNITS = {"fastmib-agentx.service": "/sbin/fastmib-agentx -f -Lsd -c /etc/fastmib/agentx.conf",
         "fastmib-exporter.service": "/bin/fastmib-exporter -c /etc/fastmib/exporter.conf $ARGS"}


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("unit") / "prefix"
    r = run([CMAKE, "--install", BUILD, "--prefix", str(prefix), "--component",
             "runtime"])
    assert r.returncode == 0, r.stdout + r.stderr
    return str(prefix)


@pytest.fixture(scope="module", params=sorted(UNITS))
def installed(request, prefix):
    return prefix, os.path.join(prefix, "lib", "systemd", "system", request.param)


def test_unit_starts_the_installed_program(installed):
    prefix, unit = installed
    with open(unit) as f:
        text = f.read()
    assert not re.search(r"@[A-Z_]+@", text)  # every placeholder filled
    exec_start = [ln for ln in text.splitlines() if ln.startswith("ExecStart=")]
    assert exec_start == ["ExecStart=%s%s" % (prefix, UNITS[os.path.basename(unit)])]


def test_verify_has_nothing_to_say(installed):
    """verify parses every line (an unknown or misspelt setting is only a
    warning, so the output must be empty), checks that ExecStart's program
    exists and that `man` finds the page named by Documentation=."""
    prefix, unit = installed
    env = dict(os.environ, MANPATH=os.path.join(prefix, "share", "man"))
    r = run([ANALYZE, "verify", unit], env=env)
    assert r.returncode == 0 and r.stdout == "" and r.stderr == "", r.stdout + r.stderr


def test_security_exposure(installed):
    prefix, unit = installed
    r = run([ANALYZE, "security", "--offline=yes", unit])
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"Overall exposure level for %s: (\d+\.\d+)" %
                  re.escape(os.path.basename(unit)), r.stdout)
    assert m, r.stdout
    assert float(m.group(1)) <= EXPOSURE_MAX, r.stdout
