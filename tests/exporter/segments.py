# SPDX-License-Identifier: BSD-3-Clause
"""Segments for the exporter's tests, made by the test programs ctest
names in the environment (tests/exporter/CMakeLists.txt)."""
import json
import os
import shutil
import subprocess

import dpdkapp


def tool(var):
    """The path of test program `var` (FM_WRITER, MKKEYED, ...)."""
    path = os.environ.get(var)
    assert path, "%s not set: run through ctest" % var
    return path


def fill_example(workdir, name, rows="sparse"):
    """The example model filled by fm-writer (`rows`: sparse or all) at
    workdir/name.seg: its path, and what SNMP must serve of it (fm-writer's
    JSON)."""
    seg = str(workdir / (name + ".seg"))
    exp = str(workdir / (name + ".json"))
    prefix = dpdkapp.unique_prefix("xf")
    try:
        r = subprocess.run([tool("FM_WRITER"), "fill", seg, exp, "--scale", "1",
                            "--rows", rows, "--file-prefix", prefix],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(dpdkapp.runtime_dir(prefix), ignore_errors=True)
    assert r.returncode == 0, r.stdout + r.stderr
    with open(exp) as f:
        return seg, json.load(f)
