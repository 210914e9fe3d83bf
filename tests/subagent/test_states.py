# SPDX-License-Identifier: BSD-3-Clause
"""State objects over SNMP, in each serving mode, for a model of every
state type in a scalar group, dense tables and keyed tables
(tests/codegen/models/states.yaml): exact values and wire types through
net-snmp's tools and pysnmp, rows read whole while a writer swaps them
(with the negative control of a writer that tears them), the defaults of
a row inserted again, TimeStamp in the agent's sysUpTime, read-only
objects, Reset leaving states alone, and `notify` states sent to a
private snmptrapd in order, with the row's index and the limit's drops
counted.

fm-states (tests/subagent/fm-states.c) writes the segment and says what
SNMP must report: every instance's OID, wire syntax and value in the two
variants A and B it switches between, and as a row starts."""
import json
import os
import subprocess
import sys

import pytest
from pysnmp.hlapi import (CommunityData, ContextData, ObjectIdentity, ObjectType,
                          SnmpEngine, UdpTransportTarget, getCmd)

from conftest import MODES, Served, Writer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import snmpharness as h  # noqa: E402

RATE, BURST = 1, 20

# schema positions in states.yaml: (group, state)
SYSTEM, INFO, PORT, LANE, TUNNEL, SESSION = range(6)
SYSTEM_MODE, SYSTEM_LAST_CHANGE, SYSTEM_PEER = 1, 6, 11
PORT_LINK = 2
TUNNEL_REMOTE = 2

SYS_UPTIME = "1.3.6.1.2.1.1.3.0"
AGENTX_UPTIME_LAG = 50  # centiseconds, test_timestamp_is_the_agents_sysuptime...

PYSNMP_SYNTAX = {"Integer": "INTEGER", "Integer32": "INTEGER", "Gauge32": "Gauge32",
                 "Unsigned32": "Gauge32", "Counter64": "Counter64",
                 "TimeTicks": "Timeticks", "OctetString": "OCTET STRING",
                 "IpAddress": "IpAddress"}
FMT = ("-On", "-Oe", "-Ox")  # numeric OIDs and enums, octets in hex


def oid_key(oid):
    return tuple(int(x) for x in oid.split("."))


class Instance:
    """One state instance: where, its wire syntax, its values in variant A
    and B and as its row starts (numbers, or octets in lower-case hex)."""

    def __init__(self, d):
        self.oid, self.column = d["oid"], d["column"]
        self.group, self.state, self.row = d["group"], d["state"], d["row"]
        self.type, self.syntax = d["type"], d["syntax"]
        num = self.syntax not in ("OCTET STRING", "IpAddress")
        conv = int if num else str
        self.a, self.b, self.d = conv(d["a"]), conv(d["b"]), conv(d["d"])

    def variant(self, value):
        """'a', 'b', 'ab' (both alike) or None for a value of neither."""
        return ("a" if value == self.a else "") + ("b" if value == self.b else "") or None


class StatesExpect:
    def __init__(self, path):
        with open(path) as f:
            d = json.load(f)
        self.root, self.module = d["root"], d["module"]
        self.instances = sorted((Instance(i) for i in d["instances"]),
                                key=lambda i: oid_key(i.oid))
        self.by_oid = {i.oid: i for i in self.instances}

    def oid(self, *suffix):
        return self.root + "." + ".".join(str(x) for x in suffix)

    def of(self, group, row=None, state=None):
        return [i for i in self.instances if i.group == group and
                (row is None or i.row == row) and (state is None or i.state == state)]

    def groups(self):
        return sorted({i.group for i in self.instances},
                      key=lambda g: oid_key(self.of(g)[0].oid))


class StatesWriter(Writer):
    """fm-states on the segment, taking commands (Writer.command())."""

    def events(self, scale=1):
        exp = self._expect_path()
        self.live_proc = subprocess.Popen(
            [self.binary, self.segment, exp, "--file-prefix", self._eal_prefix()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        if self.live_proc.stdout.readline().strip() != "ready":
            raise h.HarnessError("fm-states: %s" % self.live_proc.stderr.read())
        return StatesExpect(exp)


class StatesServed(Served):
    def start_states(self, notify=False):
        """`notify`: notifications to a private snmptrapd, RATE/s, BURST."""
        self.writer = StatesWriter(self.segment, self.dir, "FM_STATES")
        self.trapd = h.Snmptrapd().start() if notify else None
        self.start(events=True, trap_port=self.trapd.port if notify else None,
                   agent_args=["--notify-rate", str(RATE), "--notify-burst", str(BURST)],
                   module_lines=["fastmibNotifyRate %d %d" % (RATE, BURST)])
        self.client.mib_module = None
        return self

    def close(self):
        super().close()
        h.shut_down(self.trapd)


def serve_states(mode, tmp_path_factory, notify=False):
    s = StatesServed(mode, str(tmp_path_factory.mktemp(mode)))
    try:
        yield s.start_states(notify)
    finally:
        s.close()


@pytest.fixture(scope="module", params=MODES)
def st(request, tmp_path_factory):
    yield from serve_states(request.param, tmp_path_factory)


@pytest.fixture(scope="module", params=MODES)
def nst(request, tmp_path_factory):
    """With a notification receiver; its tests run in file order, the
    first with the limit's whole burst to spend."""
    yield from serve_states(request.param, tmp_path_factory, notify=True)


def get(st, oids):
    r = st.client.run("snmpget", oids, fmt=FMT)
    assert r.rc == 0 and len(r.varbinds) == len(oids), r
    return r.varbinds


def read_group(st, group, variant):
    """Every instance of `group` in one GET: each is `variant`'s value."""
    want = st.expect.of(group)
    for inst, vb in zip(want, get(st, [i.oid for i in want])):
        assert vb.oid == inst.oid
        assert h.wire(vb) == (inst.syntax, getattr(inst, variant)), (inst.state, inst.row, vb)


def test_every_instance_exact_with_its_wire_type(st):
    for group in st.expect.groups():
        read_group(st, group, "a")
    assert st.writer.command("set B") == []
    for group in st.expect.groups():
        read_group(st, group, "b")
    assert st.writer.command("set A") == []


def test_bulkwalk_serves_every_instance_and_no_other(st):
    """snmpbulkwalk (without -Cc) of the module: the state instances are
    exactly those of present rows, in OID order, with variant A's values;
    keyed rows that were never inserted serve nothing."""
    r = st.client.run("snmpbulkwalk", ["-Cr10", st.expect.oid(1)], fmt=FMT)
    assert r.rc == 0, r
    states = {i.column for i in st.expect.instances}
    seen = [vb for vb in r.varbinds
            if any(vb.oid.startswith(c + ".") for c in states)]
    assert [vb.oid for vb in seen] == [i.oid for i in st.expect.instances]
    for vb in seen:
        inst = st.expect.by_oid[vb.oid]
        assert h.wire(vb) == (inst.syntax, inst.a), (inst.state, inst.row, vb)


def pysnmp_get(port, oids):
    ind, status, index, vbs = next(getCmd(
        SnmpEngine(), CommunityData("public", mpModel=1),
        UdpTransportTarget(("127.0.0.1", port), timeout=5, retries=0),
        ContextData(), *[ObjectType(ObjectIdentity(o)) for o in oids]))
    assert ind is None and not status, (ind, status, index)
    return vbs


def test_pysnmp_reads_the_same(st):
    for group in st.expect.groups():
        want = st.expect.of(group)
        for inst, (name, val) in zip(want, pysnmp_get(st.agent.port,
                                                     [i.oid for i in want])):
            assert str(name) == inst.oid
            syntax = PYSNMP_SYNTAX.get(type(val).__name__, type(val).__name__)
            value = int(val) if syntax not in ("OCTET STRING", "IpAddress") \
                else val.asOctets().hex()
            assert (syntax, value) == (inst.syntax, inst.a), (inst.state, inst.row)


def rows_of(st, varbinds):
    """{(group, row): set of variants} of the state varbinds of one answer;
    a value of neither variant fails at once."""
    rows = {}
    for vb in varbinds:
        inst = st.expect.by_oid.get(vb.oid)
        if inst is None:
            continue  # past the table, or a counter
        syntax, value = h.wire(vb)
        v = inst.variant(value)
        assert syntax == inst.syntax and v, (inst.state, inst.row, vb)
        if v != "ab":
            rows.setdefault((inst.group, inst.row), set()).add(v)
    return rows


def requests(st):
    """One round: each group's rows in one GET, and in one GETBULK over its
    columns (a repetition a row)."""
    for group in st.expect.groups():
        insts = st.expect.of(group)
        yield "snmpget", [i.oid for i in insts]
        columns = sorted({i.column for i in insts}, key=oid_key)
        n_rows = len({i.row for i in insts})
        yield "snmpbulkget", ["-Cn0", "-Cr%d" % n_rows] + columns


def torn_rows(st, rounds, stop_at_first=False):
    """Requests while the writer swaps: (rows seen all A, all B, torn)."""
    seen = {"a": 0, "b": 0}
    torn = []
    for _ in range(rounds):
        for tool, args in requests(st):
            r = st.client.run(tool, args, fmt=FMT)
            assert r.rc == 0 and r.varbinds, r
            for row, variants in rows_of(st, r.varbinds).items():
                if len(variants) == 1:
                    seen[variants.pop()] += 1
                else:
                    torn.append((tool, row))
            if torn and stop_at_first:
                return seen, torn
    return seen, torn


def test_a_row_is_read_whole_while_a_writer_swaps_it(st):
    """Every row of every group alternates between A and B, whole rows, as
    fast as lcore 1 can set them; every row of every GET and GETBULK is
    all A or all B."""
    assert st.writer.command("swap") == []
    try:
        seen, torn = torn_rows(st, 15)
    finally:
        sets = st.writer.command("join")["sets"]
        st.writer.command("set A")
    print("rows read whole: %s, sets: %d" % (seen, sets))
    assert torn == []
    assert seen["a"] > 0 and seen["b"] > 0 and sets > 0, (seen, sets)


def test_negative_control_a_torn_row_is_caught(st):
    """The same with a writer that sets one state at a time: the check
    above sees rows half A, half B."""
    assert st.writer.command("swap torn") == []
    try:
        _, torn = torn_rows(st, 50, stop_at_first=True)
    finally:
        st.writer.command("join")
        st.writer.command("set A")
    assert torn, "no torn row seen"


def test_a_row_inserted_again_starts_with_the_defaults(st):
    """A keyed row removed and inserted again: its states are the model's
    defaults (the DEFVALs), while its neighbours keep theirs."""
    assert "row" in st.writer.command("reinsert %d 3" % TUNNEL)
    for inst, vb in zip(st.expect.of("tunnel"),
                        get(st, [i.oid for i in st.expect.of("tunnel")])):
        want = inst.d if inst.row == 3 else inst.a
        assert h.wire(vb) == (inst.syntax, want), (inst.state, inst.row, vb)
    st.writer.command("set A")
    read_group(st, "tunnel", "a")


def test_absent_keyed_row_serves_no_state(st):
    inst = st.expect.of("session", row=0)[0]
    index = inst.oid[len(inst.column) + 1:].split(".")
    index[-1] = str(int(index[-1]) ^ 1)  # a user name nobody inserted
    r = st.client.run("snmpget", [inst.column + "." + ".".join(index)], fmt=FMT)
    assert r.varbinds and r.varbinds[0].type == "noSuchInstance", r


def uptime(st):
    return get(st, [SYS_UPTIME])[0].value


def test_timestamp_is_the_agents_sysuptime_of_the_moment(st):
    inst = st.expect.of("system", state="lastChange")[0]
    assert get(st, [inst.oid])[0].value == 0  # never
    before = uptime(st)
    assert "ns" in st.writer.command("stamp %d %d 0" % (SYSTEM, SYSTEM_LAST_CHANGE))
    after = uptime(st)
    stamp = get(st, [inst.oid])[0]
    assert stamp.type == "Timeticks"
    # centiseconds, rounded once on each side; a subagent's uptime is the
    # master's as its last synchronous AgentX answer said it (net-snmp sets
    # it from the answer's sysUpTime, in whole centiseconds, on arrival), so
    # it runs behind by that answer's way over loopback
    lag = AGENTX_UPTIME_LAG if st.mode == "agentx" else 1
    assert before - lag <= stamp.value <= after + 1, (before, stamp, after)
    assert get(st, [inst.oid])[0].value == stamp.value  # a moment, not a clock
    st.writer.command("set A")


def test_states_are_read_only(st):
    for inst, type_, value in ((st.expect.of("system", state="mode")[0], "i", 1),
                               (st.expect.of("port", row=1, state="name")[0], "s", "x"),
                               (st.expect.of("lane", row=0, state="active")[0], "i", 1)):
        r = st.client.set(inst.oid, type_, value)
        assert r.rc != 0 and r.error == "notWritable", r
        assert h.wire(get(st, [inst.oid])[0]) == (inst.syntax, inst.a)


def test_reset_leaves_states_alone(st):
    reset_all = st.expect.oid(2, 1, 0)
    port_reset = st.expect.of("port", row=0)[0].column.rsplit(".", 1)[0] + ".1001.1"
    for oid in (port_reset, reset_all):
        r = st.client.set(oid, "i", 1)
        assert r.rc == 0, r
        for group in st.expect.groups():
            read_group(st, group, "a")


def dropped(s):
    return get(s, [s.expect.oid(2, 6, 0)])[0].value


def state_change(s, group_arc, state_arc):
    """The OID of <p><G><S>Change."""
    return s.expect.oid(5, 0, 1000 * group_arc + state_arc)


def received(s, note):
    return [t for t in s.trapd.traps() if t.trap_oid == note]


def test_a_notify_state_changed_ten_times_gives_ten_notifications(nst):
    """port.link of the third port: ten changes, ten stPortLinkChange in
    order, each carrying stPortLink.3 and the value set."""
    inst = nst.expect.of("port", row=2, state="link")[0]
    note = state_change(nst, 3, 6)
    before = len(received(nst, note))
    set_ = nst.writer.command("toggle %d %d 2 10" % (PORT, PORT_LINK))
    assert len(set_) == 10
    traps = nst.trapd.wait_traps(before + 10, pred=lambda t: t.trap_oid == note)[before:]
    assert len(traps) == 10
    for t, v in zip(traps, set_):
        assert [(vb.oid, vb.value) for vb in t.varbinds[2:]] == \
            [(inst.oid, getattr(inst, v))], t
    assert dropped(nst) == 0


def test_an_address_change_carries_type_and_address(nst):
    """A keyed row's inet-address: the notification names the row by its
    key, the InetAddressType first, then the InetAddress."""
    typ, addr = nst.expect.of("tunnel", row=1, state="remote")
    note = state_change(nst, 5, 22)
    before = len(received(nst, note))
    set_ = nst.writer.command("toggle %d %d 1 2" % (TUNNEL, TUNNEL_REMOTE))
    assert set_ == ["b", "a"]
    traps = nst.trapd.wait_traps(before + 2, pred=lambda t: t.trap_oid == note)[before:]
    for t, v in zip(traps, set_):
        vbs = t.varbinds[2:]
        assert [vb.oid for vb in vbs] == [typ.oid, addr.oid], t
        assert vbs[0].value == getattr(typ, v)
        assert h.parse_hex(vbs[1].value).hex() == getattr(addr, v)


def test_a_set_to_the_same_value_sends_nothing(nst):
    """Every row set again to the values it holds, then one change as a
    marker: the marker is the only notification (they go in order)."""
    note = state_change(nst, 1, 3)
    n0, marks = len(nst.trapd.traps()), len(received(nst, note))
    assert nst.writer.command("set A") == []
    assert len(nst.writer.command("toggle %d %d 0 1" % (SYSTEM, SYSTEM_MODE))) == 1
    nst.trapd.wait_traps(marks + 1, pred=lambda t: t.trap_oid == note)
    assert [t.trap_oid for t in nst.trapd.traps()[n0:]] == [note]


def test_over_the_limit_changes_are_counted_not_sent(nst):
    """40 changes at once against a limit of RATE/s with a burst of BURST:
    every one is sent or counted in stNotificationsDropped, none lost,
    none twice."""
    note = state_change(nst, 1, 3)  # stSystemModeChange
    sent0, dropped0 = len(received(nst, note)), dropped(nst)
    assert len(nst.writer.command("toggle %d %d 0 40" % (SYSTEM, SYSTEM_MODE))) == 40

    def accounted():
        sent = len(received(nst, note)) - sent0
        return (sent, dropped(nst) - dropped0) if sent + dropped(nst) - dropped0 >= 40 else None

    sent, lost = h.wait_for(accounted, 20, "40 changes sent or dropped", interval=0.2)
    assert sent + lost == 40 and BURST - 13 <= sent < 40, (sent, lost)
