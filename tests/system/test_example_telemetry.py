"""The example application seen through DPDK's own tools: libfastmib's
telemetry commands over the application's telemetry socket (dpdk-telemetry.py,
the tool users run, and a socket client for exact JSON) give the values
fastmib-stat reads from the segment at the same quiet moment; and
libfastmib's log lines follow the lib.fastmib log level."""

import json
import shutil
import subprocess
import time

import pytest

from conftest import dpdkapp, stat, stat_json

PREFIX = "ep"
PACKETS = 60000
HOLD_ARGS = ["--packets", str(PACKETS), "--hold", "--flows", "600", "--flow-len", "40",
             "--flow-timeout", "5", "--bad-every", "500", "--quiet"]
TELEMETRY_PY = shutil.which("dpdk-telemetry.py") or "/usr/bin/dpdk-telemetry.py"


def wait_counted(app, deadline_s=30):
    """fastmib-stat's document once every packet is counted: with --hold
    nothing changes after that."""
    end = time.monotonic() + deadline_s
    doc = app.wait_for_segment()
    while doc["groups"]["global"]["counters"]["epGlobalRxPkts"] != PACKETS:
        assert time.monotonic() < end, doc["groups"]["global"]
        assert app.proc.poll() is None, app.proc.communicate()
        time.sleep(0.05)
        doc = stat_json(app.segment)
    return doc


def telemetry_py(prefix, *cmds):
    """dpdk-telemetry.py as a user runs it, commands on its input: one JSON
    answer per line."""
    r = subprocess.run(["/usr/bin/python3", TELEMETRY_PY, "-f", prefix],
                       input="".join(c + "\n" for c in cmds), capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == len(cmds), r.stdout
    return lines


def all_rows(tel, group):
    """Every row of a table, page by page, from the socket client."""
    rows, first, cmd = {}, None, f"/fastmib/group,{group}"
    while True:
        ans = tel.reply(cmd)
        first = first or ans
        rows.update(ans["rows"])
        assert ans["rows_shown"] == len(ans["rows"])
        if not ans["cut"]:
            return first, rows
        assert "next" in ans
        cmd = f"/fastmib/group,{ans['segment']},{group},{ans['next']}"


def states(sts):
    """States as both readers give them: fastmib-stat's texts and ages (a
    TimeTicks', a DateAndTime's, a timestamp's "ago"; telemetry's "ago_ns")
    are the reader's own; a 64-bit value above 2^53 fastmib-stat writes as
    digits (its 64-bit rule), telemetry as a number."""
    out = {}
    for name, st in sts.items():
        st = {k: v for k, v in st.items() if k not in ("text", "ago", "ago_ns")}
        if isinstance(st.get("value"), str) and st["type"] in (
                "gauge64", "timestamp", "date-and-time"):
            st["value"] = int(st["value"])
        out[name] = st
    return out


def tel_row(r):
    """A telemetry row: its counters, and its states where the table has them."""
    return r if "counters" not in r else {"counters": r["counters"],
                                          "states": states(r["states"])}


def stat_row(r):
    return r["counters"] if "states" not in r else {"counters": r["counters"],
                                                    "states": states(r["states"])}


def stat_rows(g):
    return {"_".join(str(i) for i in r["index"]): stat_row(r) for r in g["rows"]}


def keyed_rows(rows, row):
    """A keyed table's rows as (key, row) in the order given: the telemetry
    names them by row number, fastmib-stat by SNMP index."""
    return [(r["key"], row(r)) for r in rows]


def without_time(doc):
    return {k: v for k, v in doc.items() if k != "time"}


def settled(app, doc, deadline_s=30):
    """fastmib-stat's document once the states stopped moving too: every
    server's last packet dated (the main lcore looks every 100 ms: the
    counting may end before its first look) and the server idle, a second
    after that packet (the application's rule)."""
    end = time.monotonic() + deadline_s
    while any(r["states"]["epServerStatus"]["label"] != "idle" or
              not int(r["states"]["epServerLastSeen"]["value"])
              for r in doc["groups"]["server"]["rows"]):
        assert time.monotonic() < end, doc["groups"]["server"]
        time.sleep(0.1)
        doc = stat_json(app.segment)
    return doc


def without_ages(doc):
    """The document without what moves on its own: the time of the reading
    and a timestamp's age."""
    doc = without_time(doc)
    for g in doc["groups"].values():
        for holder in g.get("rows", []) + [g]:
            if "states" in holder:
                holder["states"] = states(holder["states"])
    return doc


def test_telemetry_equals_stat(app_factory):
    app = app_factory(HOLD_ARGS, telemetry=True).start()
    before = settled(app, wait_counted(app))
    tel = dpdkapp.Telemetry(str(app.telemetry_socket))
    try:
        assert tel.pid == app.proc.pid
        commands = tel.reply("/")
        assert "/fastmib/segments" in commands and "/fastmib/group" in commands

        segs = tel.reply("/fastmib/segments")
        assert list(segs) == ["0"]
        s = segs["0"]
        assert s["path"] == str(app.segment)
        assert s["module"] == before["module"] == "EXAMPLE-DATAPLANE-MIB"
        assert s["prefix"] == PREFIX
        assert s["generation"] == before["generation"]
        assert s["groups"] == list(before["groups"]) and s["n_groups"] == len(s["groups"])

        answers = {}
        for name, g in before["groups"].items():
            if g["table"]:
                ans, rows = all_rows(tel, name)
                answers[name] = (ans, rows)
            else:
                answers[name] = (tel.reply(f"/fastmib/group,{name}"), None)
    finally:
        tel.close()
    # dpdk-telemetry.py, the tool users run, for the global group and the list
    by_tool = telemetry_py(app.prefix, "/fastmib/group,global", "/fastmib/segments")
    after = stat_json(app.segment)
    assert without_ages(after) == without_ages(before), "the counters moved"

    for name, g in before["groups"].items():
        ans, rows = answers[name]
        assert ans["segment"] == 0 and ans["path"] == str(app.segment)
        assert ans["group"] == name and ans["mib"] == g["mib"]
        # a group of states only: no "storage" (fastmib-stat: null)
        assert ans.get("storage") == g["storage"]
        assert ("storage" in ans) == (g["storage"] is not None)
        assert ans["best_effort"] == 0
        if not g["table"]:
            assert ans["cut"] == 0
            assert ans["counters"] == g["counters"], name
            assert states(ans.get("states", {})) == states(g.get("states", {})), name
            continue
        assert ans["indexes"] == g["indexes"]
        assert ans["rows_max"] == g["rows_max"]
        assert ans["rows_present"] == g["rows_present"] == len(rows)
        if "key" in g["rows"][0]:
            assert keyed_rows(rows.values(), tel_row) == keyed_rows(g["rows"], stat_row), name
        else:
            assert {i: tel_row(r) for i, r in rows.items()} == stat_rows(g), name
    # the flow table has more rows than one answer holds (DPDK: 256 entries)
    assert before["groups"]["flow"]["rows_present"] > 256
    assert before["groups"]["global"]["counters"]["epGlobalDrops"] > 0

    assert by_tool[0] == {"/fastmib/group": answers["global"][0]}
    assert by_tool[0]["/fastmib/group"]["counters"] == \
        before["groups"]["global"]["counters"]
    assert by_tool[1] == {"/fastmib/segments": segs}

    # A reset by fastmib-stat is subtracted by the telemetry answer too.
    stat(app.segment, "--reset", "global")
    ans = telemetry_py(app.prefix, "/fastmib/group,epGlobal")[0]["/fastmib/group"]
    assert set(ans["counters"].values()) == {0}
    assert ans["counters"] == stat_json(app.segment)["groups"]["global"]["counters"]

    assert app.stop() == 0, app.stderr
    assert not app.rundir.exists()


def test_error_answers_name_the_problem(app_factory):
    app = app_factory(HOLD_ARGS, telemetry=True).start()
    wait_counted(app)
    out = telemetry_py(app.prefix, "/fastmib/group,nosuch", "/fastmib/group,port,9",
                       "/fastmib/group,7,global")
    assert "no group 'nosuch'" in out[0]["/fastmib/group"]["error"]
    assert "bad row '9'" in out[1]["/fastmib/group"]["error"]
    assert "no segment 7" in out[2]["/fastmib/group"]["error"]
    assert app.stop() == 0


@pytest.mark.parametrize("level", ["debug", None])
def test_log_level(app_factory, level):
    """libfastmib logs through lib.fastmib: its debug lines appear with
    --log-level lib.fastmib:debug and not at the default level."""
    extra = ["--log-level", f"lib.fastmib:{level}"] if level else []
    app = app_factory(["--packets", "1000", "--quiet"], telemetry=True,
                      eal_extra=extra).run()
    out = app.stdout + app.stderr
    created = f"fastmib: created {app.segment}: EXAMPLE-DATAPLANE-MIB generation"
    registered = "fastmib: telemetry command /fastmib/group registered"
    if level:
        assert created in out and registered in out, out
    else:
        assert "fastmib:" not in out, out
