"""The example application leaves no EAL runtime directory behind, whether
it ends by itself or on SIGINT/SIGTERM, with or without shared
configuration files and telemetry, and removes only what is its own."""

import os
import signal
import time

import pytest

from conftest import dpdkapp, stat_json, tagged


def wait_socket(app, deadline_s=20):
    end = time.monotonic() + deadline_s
    while not app.telemetry_socket.exists():
        assert app.proc.poll() is None, app.proc.communicate()
        assert time.monotonic() < end, "no telemetry socket"
        time.sleep(0.05)


@pytest.mark.parametrize("shconf,telemetry", [(False, False), (True, True)])
def test_gone_after_a_run(app_factory, shconf, telemetry):
    # --hold until --duration: running long enough to be seen, then
    # ending by itself
    app = app_factory(["--packets", "5000", "--hold", "--duration", "2", "--quiet"],
                      shconf=shconf, telemetry=telemetry).start()
    app.wait_for_segment()
    # while it runs, the directory holds what the EAL made
    assert app.rundir.is_dir()
    if shconf:
        assert (app.rundir / "config").exists()
    assert app.wait() == 0, app.stderr
    assert not app.rundir.exists(), sorted(p.name for p in app.rundir.iterdir())


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_gone_after_a_signal(app_factory, sig):
    app = app_factory(["--rate", "100000", "--quiet"], shconf=True, telemetry=True).start()
    app.wait_for_segment()
    wait_socket(app)
    # counting, before the signal: on a busy machine the lcores may not
    # have been scheduled yet when the segment and the socket appear
    end = time.monotonic() + 20
    while stat_json(app.segment)["groups"]["global"]["counters"]["epGlobalRxPkts"] == 0:
        assert app.proc.poll() is None and time.monotonic() < end, "nothing counted"
        time.sleep(0.05)
    assert app.stop(sig) == 0, app.stderr
    assert not app.rundir.exists(), sorted(p.name for p in app.rundir.iterdir())
    # the counters stay for readers
    assert app.segment.exists() and app.summary["groups"]["global"]["rxPkts"] > 0


def own_socket(app, deadline_s=20):
    """The telemetry socket of `app` in its runtime directory: its hello
    names its pid (a second process on a prefix binds
    dpdk_telemetry.v2:1)."""
    end = time.monotonic() + deadline_s
    while True:
        for path in sorted(app.rundir.glob(dpdkapp.SOCKET_NAME + "*")):
            try:
                t = dpdkapp.Telemetry(str(path))
            except OSError:
                continue
            t.close()
            if t.pid == app.proc.pid:
                return path
        assert app.proc.poll() is None, app.proc.communicate()
        assert time.monotonic() < end, "no telemetry socket of pid %d" % app.proc.pid
        time.sleep(0.05)


def test_leaves_the_socket_of_another_process(app_factory, tmp_path):
    """Two processes on one prefix with --no-shconf, each with its own
    telemetry socket. The first one's exit leaves the second one's socket
    (and so the directory); the second one's exit removes the directory."""
    prefix = tagged(os.getpid(), "_two_", tmp_path.name)
    args = ["--packets", "1000", "--hold", "--quiet"]
    first = app_factory(args, telemetry=True, prefix=prefix, name="first").start()
    first.wait_for_segment()
    assert own_socket(first) == first.telemetry_socket
    second = app_factory(args, telemetry=True, prefix=prefix, name="second").start()
    second.wait_for_segment()
    theirs = own_socket(second)
    assert theirs != first.telemetry_socket

    assert first.stop(signal.SIGTERM) == 0, first.stderr
    assert not first.telemetry_socket.exists()
    tel = dpdkapp.Telemetry(str(theirs))
    try:
        assert tel.pid == second.proc.pid
        assert tel.reply("/fastmib/segments")["0"]["path"] == str(second.segment)
    finally:
        tel.close()
    assert second.stop(signal.SIGTERM) == 0, second.stderr
    assert not second.rundir.exists()
