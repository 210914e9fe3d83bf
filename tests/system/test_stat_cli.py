"""Command-line behaviour of fastmib-stat and fastmib-example: errors,
usage, exit statuses."""

import json
import os
import subprocess

import pytest

from conftest import EXAMPLE, App, eal_args, need_binaries, stat


def test_missing_segment(tmp_path):
    path = tmp_path / "absent"
    r = stat(path, check=False)
    assert r.returncode == 1
    assert r.stdout == ""
    assert str(path) in r.stderr and "No such file" in r.stderr


@pytest.mark.parametrize("size", [0, 100, 65536])
def test_foreign_file(tmp_path, size):
    path = tmp_path / "random.bin"
    path.write_bytes(os.urandom(size))
    for args in ([], ["--json"], ["--info"], ["--reset"]):
        r = stat(path, *args, check=False)
        assert r.returncode == 1, (args, r.stderr)
        assert r.stdout == ""
        assert r.stderr.startswith(f"fastmib-stat: {path}"), r.stderr


def test_help_and_version():
    r = stat("--help")
    for opt in ("--json", "--json-strings", "--human", "--watch", "--rows", "--match",
                "--sort", "--top", "--output", "--raw", "--reset", "--info", "--version"):
        assert opt in r.stdout
    assert r.stderr == ""
    assert stat("--version").stdout.startswith("fastmib-stat ")


@pytest.mark.parametrize("args", [
    [],                                  # no segment
    ["a", "b"],                          # two segments
    ["seg", "--bogus"],
    ["seg", "--watch", "0"],
    ["seg", "--watch", "soon"],
    ["seg", "--rows", "-1"],
    ["seg", "--rows"],
])
def test_usage_errors(args):
    r = stat(*args, check=False)
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and "fastmib-stat:" in r.stderr


@pytest.fixture(scope="module")
def segment(tmp_path_factory):
    """A small segment written by the example application."""
    tmp = tmp_path_factory.mktemp("cli")
    app = App(tmp, ["--packets", "3200", "--quiet"]).run()
    return app.segment


@pytest.mark.parametrize("target,message", [
    ("nosuch", "no group 'nosuch'"),
    ("global.1", "scalar group"),
    ("port.5", "bad row 'port.5'"),          # portId runs 1..4
    ("port.0", "bad row"),
    ("portQueue.1", "takes 2 index value(s)"),
    ("portQueue.1.2.3", "bad row"),
    ("flow.x", "bad row"),
])
def test_bad_reset_targets(segment, target, message):
    def counters():
        # counters alone: a timestamp state's age moves between two reads
        doc = json.loads(stat(segment, "--json").stdout)
        return {name: [r["counters"] for r in g["rows"]] if "rows" in g else g["counters"]
                for name, g in doc["groups"].items()}

    before = counters()
    r = stat(segment, f"--reset={target}", check=False)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert counters() == before  # nothing was reset


def test_reset_absent_row_fails(segment):
    # Flow rows exist only while their flow does: pick one that is absent.
    doc = json.loads(stat(segment, "--json").stdout)
    present = {r["index"][0] for r in doc["groups"]["flow"]["rows"]}
    absent = next(i for i in range(65536, 0, -1) if i not in present)
    r = stat(segment, "--reset", f"flow.{absent}", check=False)
    assert r.returncode == 1
    assert str(segment) in r.stderr


def test_example_help_needs_no_eal():
    need_binaries()
    r = subprocess.run([EXAMPLE, "--", "--help"], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 0
    for opt in ("--segment", "--duration", "--packets", "--rate", "--flows",
                "--summary", "--quiet"):
        assert opt in r.stdout


def test_example_rejects_bad_options(tmp_path):
    need_binaries()
    base = [EXAMPLE] + eal_args(tmp_path) + ["--", "--segment", str(tmp_path / "s")]
    r = subprocess.run(base + ["--packets", "many"], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 2 and "--packets" in r.stderr
    assert not (tmp_path / "s").exists()


def test_example_needs_a_worker_lcore(tmp_path):
    need_binaries()
    r = subprocess.run([EXAMPLE] + eal_args(tmp_path, lcores="0") +
                       ["--", "--segment", str(tmp_path / "s"), "--packets", "10"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "worker lcore" in r.stderr
    assert not (tmp_path / "s").exists()


def test_rows_limits_tables_only(segment):
    """--rows N caps the rows shown of each table; scalar groups are not
    tables and keep every counter, whatever N is."""
    full = json.loads(stat(segment, "--json").stdout)["groups"]
    scalars = {n: g["counters"] for n, g in full.items() if not g["table"]}
    # every scalar group counts, but app, a group of states only
    assert scalars and all(c for n, c in scalars.items() if n != "app")
    assert scalars["app"] == {} and full["app"]["states"]
    for n in (0, 1):
        doc = json.loads(stat(segment, "--json", "--rows", str(n)).stdout)["groups"]
        for name, g in doc.items():
            if g["table"]:
                assert len(g["rows"]) == min(n, full[name]["rows_present"]), name
                assert g["rows_present"] == full[name]["rows_present"], name
            else:
                assert g["counters"] == scalars[name], (n, name)
                assert g.get("states") == full[name].get("states"), (n, name)
        words = " ".join(stat(segment, "--rows", str(n)).stdout.split()) + " "
        for counters in scalars.values():
            for mibname, value in counters.items():
                assert f" {mibname} {value} " in words, (n, mibname)
