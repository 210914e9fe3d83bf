# SPDX-License-Identifier: BSD-3-Clause
"""The agent keeps serving through malformed requests, snmpd restarts,
re-created, deleted and refused segments, in all three serving modes (for
the module, "snmpd restart" restarts the process serving the segment)."""
import os
import random
import signal
import socket
import subprocess
import time

import pytest

import snmpharness as h
from conftest import MODES, Served, Writer


@pytest.fixture(scope="module", params=MODES)
def served(request, tmp_path_factory):
    d = str(tmp_path_factory.mktemp("robust"))
    s = Served(request.param, d)
    # A file that is not a segment, and a second segment with the same root
    bad = os.path.join(d, "garbage.seg")
    with open(bad, "wb") as f:
        f.write(os.urandom(8192))
    dup = os.path.join(d, "dup.seg")
    try:
        s.start(extra_segments=[bad, dup])
        s.bad, s.dup = bad, dup
        yield s
    finally:
        s.close()


def all_values_exact(served):
    r = served.client.bulkwalk(served.expect.root, reps=40)
    assert r.rc == 0, r
    got = [(vb.oid, vb.type, vb.value) for vb in r.varbinds]
    assert [t for t in got if t[1] != "Timeticks"] == \
        [t for t in served.expect.objects if t[1] != "Timeticks"]


def random_oid(rng, root):
    r = rng.random()
    if r < 0.6:  # under the module root, biased to plausible shapes
        tail = [rng.choice([0, 1, 2, 3, rng.randrange(1, 8), rng.randrange(1000, 1013),
                            rng.randrange(0, 70000), rng.getrandbits(32)])
                for _ in range(rng.randrange(0, 12))]
        return root + tail
    if r < 0.8:
        return [1, 3, 6, 1] + [rng.getrandbits(rng.choice([3, 8, 31])) for _ in
                               range(rng.randrange(0, 20))]
    return [rng.randrange(3), rng.randrange(40)] + [rng.getrandbits(32) for _ in
                                                     range(rng.randrange(0, 128))]


def random_value(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return h.NULL
    if kind == 1:  # INTEGER, never true(1), so no reset really happens
        v = rng.choice([0, 2, 3, -1, 2 ** 31 - 1, -2 ** 31, rng.getrandbits(40)])
        return h.ber_int(v)
    if kind == 2:
        return h.ber_tlv(0x04, os.urandom(rng.randrange(0, 40)))
    if kind == 3:
        return h.ber_uint(rng.getrandbits(64), 0x46)  # Counter64
    if kind == 4:
        return h.ber_uint(rng.getrandbits(32), rng.choice([0x41, 0x42, 0x43]))
    if kind == 5:
        return h.ber_oid([1, 3, rng.getrandbits(16)])
    if kind == 6:
        return bytes([rng.randrange(256)]) + h.ber_len(3) + os.urandom(3)
    return h.ber_tlv(0x40, bytes(4))  # IpAddress


def random_message(rng, root):
    tag = rng.choice([h.PDU_GET, h.PDU_GETNEXT, h.PDU_GETBULK, h.PDU_SET])
    n = rng.randrange(0, 12)
    vbs = [(random_oid(rng, root), h.NULL if tag != h.PDU_SET else random_value(rng))
           for _ in range(n)]
    f1 = f2 = 0
    if tag == h.PDU_GETBULK:
        f1 = rng.choice([0, 1, -1, n, n + 5, 2 ** 31 - 1])
        f2 = rng.choice([0, 1, -5, 3, 50, 10000, 2 ** 31 - 1])
    community = b"private" if tag == h.PDU_SET else rng.choice([b"public", b"private"])
    msg = h.snmp_message(community, tag, rng.getrandbits(31), vbs, f1, f2)
    if rng.random() < 0.15:  # damage it: truncate or flip bytes
        msg = bytearray(msg)
        if rng.random() < 0.5:
            msg = msg[:rng.randrange(1, len(msg))]
        else:
            for _ in range(rng.randrange(1, 4)):
                msg[rng.randrange(len(msg))] = rng.randrange(256)
        msg = bytes(msg)
    return msg


def test_segments_refused_with_a_clear_message(served):
    log = served.agent.read_log()
    assert served.bad in log and "refused" in log
    assert "%s: segment absent" % served.dup in log
    served.writer.__class__(served.dup, served.dir).fill(scale=9)
    h.wait_for(lambda: "already served" in served.agent.read_log(), 10,
               "duplicate root refused")
    assert served.dup in [ln.split(":")[1].strip() for ln in
                          served.agent.read_log().splitlines()
                          if "already served" in ln]
    all_values_exact(served)
    # once gone, it is no contender for the root when the first one goes
    os.unlink(served.dup)


def test_malformed_and_random_requests(served):
    rng = random.Random(20261122)
    root = [int(x) for x in served.expect.root.split(".")]
    answered = 0
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("127.0.0.1", served.client.target_port()))
        s.settimeout(0.1)
        for burst in range(30):
            for _ in range(100):
                s.send(random_message(rng, root))
            # drain what came back; the agent answers well-formed requests
            try:
                while True:
                    s.recv(65536)
                    answered += 1
            except socket.timeout:
                pass
    assert answered > 500
    assert served.agent.alive()
    if served.snmpd:
        assert served.snmpd.proc.poll() is None
    all_values_exact(served)


def test_segment_recreated_serves_new_values(served):
    e = served.refill(scale=5)
    assert e.generation > 1
    all_values_exact(served)


def test_segment_deleted_then_back(served):
    first = served.first_oid()
    os.unlink(served.segment)
    served.agent.wait_absent(first)
    r = served.client.walk(served.expect.root)
    assert r.varbinds == [] or all(not vb.oid.startswith(served.expect.root + ".")
                                   for vb in r.varbinds)
    served.refill(scale=6)
    all_values_exact(served)


def test_snmpd_restart(served):
    if not served.snmpd:
        pytest.skip("standalone: no master agent")
    served.snmpd.kill()
    served.snmpd.start()
    # the subagent's AgentX ping (2 s) notices and reconnects
    served.agent.wait_served(served.first_oid(), timeout=30)
    all_values_exact(served)
    assert served.agent.alive()
    assert "buffer too small" not in served.agent.read_log()


def test_agent_restart_reads_its_state_once(served):
    """The state directory is read once at start: Net-SNMP's persistent
    file read a second time made it log "buffer too small to read octet
    string (17 < 17)" (the engine ID it had already read) at every start
    after the first."""
    if served.mode == "module":
        pytest.skip("the module's state is snmpd's")
    state = os.path.join(served.agent.state, "fastmib-agentx.conf")
    logs, saved = [], []
    for _ in range(2):
        served.agent.stop()                   # saves the state
        logs.append(served.agent.read_log())  # -Lf starts the file anew
        with open(state) as f:
            saved.append(dict(ln.split(" ", 1) for ln in f.read().splitlines()
                              if ln.startswith(("engineBoots ", "oldEngineID "))))
        served.agent.start(wait_oid=served.first_oid())
        all_values_exact(served)
    logs.append(served.agent.read_log())
    for log in logs:
        assert "buffer too small" not in log, log
        assert "Error" not in log, log
    # one more boot of the same SNMP engine: its state read once, and read
    assert int(saved[1]["engineBoots"]) == int(saved[0]["engineBoots"]) + 1, saved
    assert saved[1]["oldEngineID"] == saved[0]["oldEngineID"], saved
