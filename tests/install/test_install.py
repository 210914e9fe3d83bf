# SPDX-License-Identifier: BSD-3-Clause
"""The installed tree is all a user needs: programs run from the prefix,
pkg-config and the CMake package carry no flags of ours, and three
out-of-tree consumers (CMake, make + pkg-config, meson) build against the
prefix only, count on EAL, and the installed fastmib-stat reads their
exact values back; the CMake consumer's own install puts its generated MIB
in share/snmp/mibs."""
import json
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))

import dpdkapp  # noqa: E402
from suiterun import tagged  # noqa: E402

BUILD = os.environ["FASTMIB_BUILD"]
SOURCE = os.environ["FASTMIB_SOURCE"]
VERSION = os.environ["FASTMIB_VERSION"]
CMAKE = os.environ.get("CMAKE", "cmake")
CONSUMERS = os.path.join(SOURCE, "examples", "consumer")
PACKETS = 1000
PORTS = 4
EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry", "-m", "64"]


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kw)
    assert p.returncode == 0, f"{cmd}: {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """This build installed into a prefix of its own, then moved: nothing
    may point back into the build tree or the first location."""
    first = tmp_path_factory.mktemp("first") / "prefix"
    run([CMAKE, "--install", BUILD, "--prefix", str(first)])
    moved = tmp_path_factory.mktemp("inst") / "prefix"
    shutil.move(str(first), str(moved))
    return str(moved)


def libdir(prefix):
    for d in ("lib", "lib64", "lib/x86_64-linux-gnu"):
        if os.path.exists(os.path.join(prefix, d, "pkgconfig", "fastmib.pc")):
            return os.path.join(prefix, d)
    raise AssertionError("no fastmib.pc under " + prefix)


def env_for(prefix):
    env = dict(os.environ)
    lib = libdir(prefix)
    env["PKG_CONFIG_PATH"] = os.path.join(lib, "pkgconfig")
    env["LD_LIBRARY_PATH"] = lib
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env["PATH"]
    return env


PROGRAMS = ["bin/fastmib-gen", "bin/fastmib-stat", "sbin/fastmib-agentx", "bin/fastmib-exporter"]


@pytest.mark.parametrize("prog", PROGRAMS)
def test_installed_program_runs_from_prefix(prefix, prog):
    path = os.path.join(prefix, prog)
    assert "Usage" in run([path, "--help"]).stdout.replace("usage", "Usage")
    assert VERSION in run([path, "--version"]).stdout
    dyn = run(["readelf", "-d", path]).stdout
    assert BUILD not in dyn, "RPATH/RUNPATH into the build tree"
    ldd = run(["ldd", path]).stdout
    assert "not found" not in ldd
    assert "librte_" not in ldd, f"{prog} loads a DPDK library:\n{ldd}"


def test_module_and_libraries_installed(prefix):
    lib = libdir(prefix)
    module = os.path.join(lib, "fastmib", "fastmib_snmpd.so")
    assert "librte_" not in run(["ldd", module]).stdout
    for name in ("libfastmib.so", "libfastmib_reader.so"):
        soname = run(["readelf", "-d", os.path.join(lib, name)]).stdout
        major = VERSION.split(".")[0]
        assert f"Library soname: [{name}.{major}]" in soname
    for name in ("libfastmib.a", "libfastmib_reader.a"):
        assert os.path.exists(os.path.join(lib, name))
    assert "librte_" not in run(["ldd", os.path.join(lib, "libfastmib_reader.so")]).stdout
    for f in ("include/fastmib/fastmib.h", "include/fastmib/reader.h",
              "include/fastmib/schema.h", "share/man/man1/fastmib-gen.1.gz",
              "share/man/man1/fastmib-stat.1.gz", "share/man/man8/fastmib-agentx.8.gz",
              "share/man/man1/fastmib-exporter.1.gz",
              "share/snmp/mibs/EXAMPLE-DATAPLANE-MIB.txt",
              "share/fastmib/examples/dataplane.yaml",
              "lib/systemd/system/fastmib-agentx.service"):
        assert os.path.exists(os.path.join(prefix, f)), f


def test_pkgconfig_carries_no_flags_of_ours(prefix):
    env = env_for(prefix)
    for pc in ("fastmib.pc", "fastmib-reader.pc"):
        text = open(os.path.join(libdir(prefix), "pkgconfig", pc)).read()
        for bad in ("-Werror", "-march", "-O", "-g ", "-Wall"):
            assert bad not in text, f"{pc} carries {bad}"
    mod = run(["pkg-config", "--modversion", "fastmib"], env=env).stdout.strip()
    assert mod == VERSION
    flags = run(["pkg-config", "--cflags", "--libs", "fastmib-reader"], env=env).stdout
    assert "dpdk" not in flags and "-Werror" not in flags
    gen = run(["pkg-config", "--variable=fastmib_gen", "fastmib"], env=env).stdout.strip()
    assert os.path.samefile(gen, os.path.join(prefix, "bin", "fastmib-gen"))


def test_cmake_package_carries_no_flags_of_ours(prefix):
    cmdir = os.path.join(libdir(prefix), "cmake", "fastmib")
    for f in os.listdir(cmdir):
        text = open(os.path.join(cmdir, f)).read()
        assert "-Werror" not in text and "-march" not in text, f
        assert BUILD not in text, f"{f} points into the build tree"


def read_back(prefix, seg):
    doc = json.loads(run([os.path.join(prefix, "bin", "fastmib-stat"), seg,
                          "--json"]).stdout)
    assert doc["module"] == "CONSUMER-EXAMPLE-MIB"
    totals = doc["groups"]["totals"]["counters"]
    assert totals == {"cxTotalsPkts": PACKETS, "cxTotalsBytes": 64 * PACKETS}
    rows = doc["groups"]["port"]["rows"]
    assert [r["index"] for r in rows] == [[p] for p in range(1, PORTS + 1)]
    assert [r["counters"]["cxPortPkts"] for r in rows] == [PACKETS // PORTS] * PORTS


def count_and_read(prefix, writer, tmp_path, name):
    seg = str(tmp_path / f"{name}.seg")
    env = env_for(prefix)
    eal_prefix = tagged("cx-", name, "-", os.getpid())
    try:
        p = run([writer, *EAL, "--file-prefix", eal_prefix, "--", seg, str(PACKETS)],
                env=env)
    finally:
        # the consumer example is kept minimal: its EAL runtime directory
        # (empty with these options) is removed here
        shutil.rmtree(dpdkapp.runtime_dir(eal_prefix), ignore_errors=True)
    assert f"counted {PACKETS} packets" in p.stdout
    read_back(prefix, seg)
    os.unlink(seg)


def test_consumer_cmake(prefix, tmp_path):
    out = tmp_path / "build"
    env = env_for(prefix)
    run([CMAKE, "-S", os.path.join(CONSUMERS, "cmake"), "-B", str(out),
         f"-DCMAKE_PREFIX_PATH={prefix}"], env=env)
    run([CMAKE, "--build", str(out), "-j2"], env=env)
    count_and_read(prefix, str(out / "cx-writer"), tmp_path, "cmake")
    # fastmib_generate(... INSTALL_MIB): the consumer's own install puts
    # its MIB where Net-SNMP looks, and net-snmp's tools read it there
    dest = tmp_path / "cx-prefix"
    run([CMAKE, "--install", str(out), "--prefix", str(dest)], env=env)
    mib = dest / "share" / "snmp" / "mibs" / "CONSUMER-EXAMPLE-MIB.txt"
    assert mib.read_bytes() == (out / "gen" / "CONSUMER-EXAMPLE-MIB.txt").read_bytes()
    assert os.access(dest / "bin" / "cx-writer", os.X_OK)
    tr = run(["snmptranslate", "-M", f"+{os.environ['FASTMIB_BASE_MIBS']}:{mib.parent}",
              "-m", "CONSUMER-EXAMPLE-MIB", "-IR", "-On", "cxPortPkts"],
             env=dict(env, MIBS=""))
    assert tr.stdout.split() == [".1.3.6.1.4.1.8072.9999.44.1.2.1.1"]


def test_consumer_make(prefix, tmp_path):
    env = env_for(prefix)
    run(["make", "-C", os.path.join(CONSUMERS, "make"), f"O={tmp_path}"], env=env)
    count_and_read(prefix, str(tmp_path / "cx-writer"), tmp_path, "make")


def test_consumer_meson(prefix, tmp_path):
    out = tmp_path / "build"
    env = env_for(prefix)
    run(["meson", "setup", str(out), os.path.join(CONSUMERS, "meson")], env=env)
    run(["ninja", "-C", str(out)], env=env)
    count_and_read(prefix, str(out / "cx-writer"), tmp_path, "meson")
