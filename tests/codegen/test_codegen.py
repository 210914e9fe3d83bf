# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-gen behaviour: model errors, byte-stable output, MIB validity.

Run by ctest with FASTMIB_GEN (the generator), FASTMIB_SOURCE_DIR and
FASTMIB_BASE_MIBS (unpacked IETF base MIBs) in the environment.
"""
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys

import pytest
import yaml

GEN = os.environ["FASTMIB_GEN"]
SRC = pathlib.Path(os.environ["FASTMIB_SOURCE_DIR"])
BASE_MIBS = os.environ["FASTMIB_BASE_MIBS"]
HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = SRC / "examples" / "dataplane.yaml"
GOLDEN = SRC / "mibs" / "EXAMPLE-DATAPLANE-MIB.txt"
BAD = sorted((HERE / "bad").glob("*.yaml"))
GOOD = [EXAMPLE] + sorted((HERE / "models").glob("*.yaml"))
# Models of keyed tables: in every test of the generator's own outputs
# and of the snmp_exporter module (EXPORTED).
KEYED = sorted((HERE / "keyed").glob("*.yaml"))
EXPORTED = GOOD + KEYED
KEYED_GOLDEN = HERE / "keyed" / "KEYED-TEST-MIB.txt"
WARN = sorted((HERE / "warn").glob("*.yaml"))
# NET-SNMP-MIB (parent of the example's root) ships with net-snmp.
NETSNMP_MIBS = "/usr/share/snmp/mibs"
# A stand-in INET-ADDRESS-MIB (what keyed tables' MIBs import), for the
# tests only: the real module is RFC 4001's, shipped by no Debian package.
TEST_MIBS = str(SRC / "tests" / "lib" / "mibs")


def gen(*args, cwd=None):
    return subprocess.run([GEN, *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=60)


# Good models that print notes (rate-0 events): exact stderr lines, with
# the model path as passed.
NOTES = {
    "events.yaml": ["{path}:68:11: note: event `disabled` has rate 0: it is "
                    "never logged and its function does nothing"],
}


def outputs(model, outdir):
    r = gen(model, "-o", outdir)
    assert r.returncode == 0, r.stderr
    expect = [n.format(path=model) for n in
              NOTES.get(pathlib.Path(model).name, [])]
    assert r.stderr.splitlines() == expect
    files = sorted(p.name for p in pathlib.Path(outdir).iterdir())
    assert len(files) == 3, files
    return {name: (pathlib.Path(outdir) / name).read_bytes() for name in files}


# ---- model errors ----

@pytest.mark.parametrize("model", BAD, ids=[p.stem for p in BAD])
def test_errors_bad_model(model, tmp_path):
    """Each bad model: exit 2, FILE:LINE:COL at the right place, a message
    naming the problem, and nothing written."""
    first = model.read_text(encoding="utf-8").splitlines()[0]
    m = re.match(r"# expect( exactly)?: (\d+):(\d+) (.*)$", first)
    assert m, "bad model lacks its '# expect:' line"
    exactly, line, col, text = m.groups()
    # run from the model's directory so FILE is exactly what was passed
    out = tmp_path / "out"
    r = gen(model.name, "-o", out, cwd=model.parent)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    errors = r.stderr.splitlines()
    assert errors, "no error message"
    for e in errors:
        assert re.match(r"^%s:\d+:\d+: error: \S" % re.escape(model.name), e), e
    assert errors[0].startswith(f"{model.name}:{line}:{col}: error: "), errors[0]
    assert text in errors[0]
    if exactly:     # the one error, word for word
        assert errors == [f"{model.name}:{line}:{col}: error: {text}"]
    assert not out.exists() or list(out.iterdir()) == []


def test_errors_check_mode_writes_nothing(tmp_path):
    bad = HERE / "bad" / "unknown-type.yaml"
    r = gen("--check", bad)
    assert r.returncode == 2
    assert "unknown type `counter16`" in r.stderr
    r = gen("--check", EXAMPLE, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert list(tmp_path.iterdir()) == []


def test_errors_failed_run_keeps_previous_outputs(tmp_path):
    """A model error leaves earlier outputs untouched and no temp file."""
    before = outputs(EXAMPLE, tmp_path)
    r = gen(HERE / "bad" / "duplicate-counter-oid.yaml", "-o", tmp_path)
    assert r.returncode == 2
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == before


def test_errors_several_reported_in_one_run(tmp_path):
    model = tmp_path / "two.yaml"
    text = (HERE / "bad" / "unknown-type.yaml").read_text()
    text = text.replace("storage: per-core", "storage: per-cpu")
    model.write_text(text)
    r = gen("--check", model)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 2, r.stderr
    assert "unknown storage `per-cpu`" in r.stderr
    assert "unknown type `counter16`" in r.stderr


def test_errors_hostile_nesting_refused_at_once(tmp_path):
    """200,000 nested brackets: refused at the ninth level, after reading
    a few bytes (the YAML loader alone would take minutes: its cost grows
    with the square of the depth). The subprocess timeout is the bound."""
    model = tmp_path / "deep.yaml"
    n = 200000
    model.write_text("fastmib: 1\nmodule: " + "[" * n + "]" * n + "\n")
    r = subprocess.run([GEN, "--check", str(model)], capture_output=True, text=True,
                       timeout=20)
    assert r.returncode == 2
    assert r.stderr == "%s:2:16: error: nested deeper than 8 levels: no part of " \
                       "a model goes that deep\n" % model


# ---- what a model file may cost: aliases ----

# The head of a one-group model, up to the group's counters (the group is
# anchored `g`).
ALIAS_HEAD = """fastmib: 1
module:
  name: BOMB-MIB
  prefix: bm
  oid: 1.3.6.1.4.1.8072.9999.7
  organization: Example Org
  contact: noc@example.org
  description: A model of aliases.
  revisions:
    - { date: 2026-01-01, description: First. }
groups:
  - &g
    name: g
    oid: 1
    storage: per-core
    description: One group.
    counters:
"""


def alias_bomb(counters, groups):
    """One counter, `counters` aliases of it in its group, then `groups`
    aliases of the group: about counters x groups counters once expanded."""
    desc = "Packets counted in this group on every lcore since the start. " * 2
    return (ALIAS_HEAD + "      - &c { name: c, oid: 1, type: counter64, units: "
            "packets, description: %s }\n" % desc.strip() +
            "      - *c\n" * counters + "  - *g\n" * groups)


def first_alias_past_limit(text):
    """(line, column) of the alias that takes the model past its expansion
    limit (docs/model.md: one per node plus the bytes of each scalar, in
    file order, an alias counting what it stands for; the limit 16 times
    the file's size, at least 4 MiB), read with PyYAML's parser."""
    limit = max(16 * len(text.encode()), 4 << 20)
    total, size, starts = 0, {}, []
    for ev in yaml.parse(text):
        if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            starts.append((ev.anchor, total))
            total += 1
        elif isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, start = starts.pop()
            if anchor:
                size[anchor] = total - start
        elif isinstance(ev, yaml.ScalarEvent):
            if ev.anchor:
                size[ev.anchor] = 1 + len(ev.value.encode())
            total += 1 + len(ev.value.encode())
        elif isinstance(ev, yaml.AliasEvent):
            total += size[ev.anchor]
            if total > limit:
                return ev.start_mark.line + 1, ev.start_mark.column + 1
    return None


def sanitized(binary):
    """A sanitizer build reserves terabytes of address space: no RLIMIT_AS."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return any(rt in out for rt in ("libasan", "libtsan", "libubsan"))


def gen_within(mem, *args, cwd=None):
    """fastmib-gen with at most `mem` bytes of address space: a run that
    needs more fails to allocate and exits 1 (out of memory)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    return subprocess.run([GEN, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=60,
                          preexec_fn=None if sanitized(GEN) else limit)


@pytest.mark.parametrize("n,kb", [(800, 15), (2200, 40)])
def test_errors_alias_bomb_refused(tmp_path, n, kb):
    """800 aliases of a counter in a group and 800 aliases of the group:
    15 KB of YAML, 640,000 counters to load (a 40 KB one: 4.8 million).
    Refused at the alias that takes it past its expansion limit, before
    anything is loaded, within 64 MiB of address space, nothing written.
    (Time and memory, measured with /usr/bin/time -v: docs/model.md.)"""
    text = alias_bomb(n, n)
    assert round(len(text) / 1000) == kb
    model = tmp_path / "bomb.yaml"
    model.write_text(text)
    line, col = first_alias_past_limit(text)
    assert line > text.count("\n") - n           # at an alias of the group
    r = gen_within(64 << 20, model.name, "-o", "out", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr == (
        "bomb.yaml:%d:%d: error: alias `*g` expands the model past 4194304, the "
        "most a file of %d bytes may expand to (16 times its size, at least "
        "4194304; counting one per node and the bytes of each scalar)\n"
        % (line, col, len(text)))
    assert not (tmp_path / "out").exists()


def test_errors_aliases_within_the_limit_are_loaded(tmp_path):
    """The same shape, 255 counters in 60 groups (2,742,747 expanded, within
    the limit): loaded whole, then refused by the schema rules (the
    groups' names are all the same) in 64 MiB. The address-space limit
    of the test above bites: 8 MiB are not enough for this one."""
    if sanitized(GEN):
        pytest.skip("address space limits do not apply to a sanitizer build")
    text = alias_bomb(254, 59)
    model = tmp_path / "many.yaml"
    model.write_text(text)
    assert first_alias_past_limit(text) is None
    r = gen_within(64 << 20, "--check", model.name, cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-500:]
    # every group but the first, every counter but the first of each group
    assert r.stderr.count("error: duplicate group name `g` (first at line 13)") == 59
    assert r.stderr.count("error: duplicate counter name `c` in group") == 60 * 254
    r = gen_within(8 << 20, "--check", model.name, cwd=tmp_path)
    assert (r.returncode, r.stderr) == (1, "fastmib-gen: out of memory\n")


def test_errors_too_many_anchors(tmp_path):
    text = ALIAS_HEAD.replace("  - &g\n", "  -\n") + "".join(
        "      - { name: c%d, oid: %d, type: counter64, description: &d%d Count. }\n"
        % (i, i + 1, i) for i in range(257))
    model = tmp_path / "anchors.yaml"
    model.write_text(text)
    r = gen("--check", model.name, cwd=tmp_path)
    assert r.returncode == 2
    line = text.count("\n")
    col = text.splitlines()[-1].index("&") + 1
    assert r.stderr == ("anchors.yaml:%d:%d: error: anchor `&d256` is one more than "
                        "the 256 a model may define\n" % (line, col))


def test_golden_aliases_same_outputs_as_written_out(tmp_path):
    """Anchors and aliases within bounds are the model they stand for:
    the outputs are byte-identical to the same model written out."""
    aliased = ALIAS_HEAD.replace("  - &g\n", "  -\n") + """\
      - &pkts { name: pkts, oid: 1, type: counter64, units: packets, description: &d Packets. }
      - { name: bytes, oid: 2, type: counter64, units: octets, description: *d }
  - name: h
    oid: 2
    storage: per-core
    description: Another group.
    counters: [ *pkts ]
"""
    written = yaml.dump(yaml.safe_load(aliased), sort_keys=False,
                        Dumper=type("NoAliases", (yaml.SafeDumper,),
                                    {"ignore_aliases": lambda self, data: True}))
    assert "*" not in written and "&" not in written
    outs = []
    for name, text in (("a", aliased), ("w", written)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.yaml").write_text(text)
        outs.append(outputs(tmp_path / name / "m.yaml", tmp_path / name / "out"))
    assert outs[0] == outs[1]


def test_errors_schema_faults_all_reported(tmp_path):
    """The schema rules (fastmib_schema_check) report every independent
    fault of a model in one run, in file order, each at its node."""
    model = tmp_path / "three.yaml"
    text = (HERE / "bad" / "duplicate-group-oid.yaml").read_text()
    text = text.replace("{ name: d, oid: 1,", "{ name: d, oid: 1000,")
    text = text.replace("description: A counter. }",
                        "units: packets per second over the last minute, description: A counter. }")
    model.write_text(text)
    r = gen("--check", model.name, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "three.yaml:18:52: error: `units` is 39 characters long; the limit is 32",
        "three.yaml:19:5: error: duplicate group oid 1 (`g` at line 13 has it)",
        "three.yaml:24:25: error: `oid` must be in 1..999, not 1000",
    ]


# ---- golden and determinism ----

def test_golden_example_mib(tmp_path):
    """mibs/EXAMPLE-DATAPLANE-MIB.txt is exactly what the generator makes."""
    out = outputs(EXAMPLE, tmp_path)
    assert out["EXAMPLE-DATAPLANE-MIB.txt"] == GOLDEN.read_bytes(), (
        "regenerate mibs/EXAMPLE-DATAPLANE-MIB.txt from examples/dataplane.yaml")


def test_golden_example_model_in_the_docs():
    """docs/model.md's complete example is examples/dataplane.yaml as it is."""
    doc = (SRC / "docs" / "model.md").read_text()
    shown = doc.split("## Complete example", 1)[1].split("```yaml\n", 1)[1].split("```\n", 1)[0]
    assert shown == EXAMPLE.read_text(), "copy examples/dataplane.yaml into docs/model.md"


@pytest.mark.parametrize("model", GOOD + KEYED, ids=[p.stem for p in GOOD + KEYED])
def test_golden_byte_identical_runs(model, tmp_path):
    """Two runs (different directories, relative vs absolute model path)
    give the same bytes, with no absolute path inside."""
    a = outputs(model, tmp_path / "a")
    shutil.copy(model, tmp_path / model.name)
    r = gen(model.name, "-o", "b", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    b = {p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}
    assert a == b
    for data in a.values():
        assert str(tmp_path).encode() not in data
        assert str(SRC).encode() not in data


# ---- generated names ----

def listed_names(model):
    """`fastmib-gen --names`: {namespace: set of names}."""
    r = gen("--names", model)
    assert r.returncode == 0, r.stderr
    out = {}
    for line in r.stdout.splitlines():
        space, name, owner = line.split("\t")
        assert owner, line
        out.setdefault(space, set()).add(name)
    return out


def defined_names(files):
    """Names the generated files define, by namespace."""
    mib = next(v.decode() for k, v in files.items() if k.endswith(".txt"))
    c = "\n".join(v.decode() for k, v in files.items() if not k.endswith(".txt"))
    return {
        "mib": set(mib_objects(mib)),
        "mib-type": set(re.findall(r"^(\w+) ::= (?:SEQUENCE|TEXTUAL-CONVENTION)",
                                   mib, re.M)),
        "c-macro": set(re.findall(r"^#define (\w+)", c, re.M)),
        "c-tag": set(re.findall(r"^struct (\w+) \{", c, re.M)),
        "c-identifier": set(re.findall(r"^([a-z]\w*)\(", c, re.M)) |
                        set(re.findall(r"^(?:extern |static )?const struct "
                                       r"(?:fastmib_\w+|\w+_state) (\w+)(?:\[\])?(?: =|;)",
                                       c, re.M)) |
                        # a histogram's bounds (<p>_<g>_<h>_bounds, the schema's)
                        set(re.findall(r"^static const uint64_t (\w+)\[\d+\] =", c, re.M)),
    }


@pytest.mark.parametrize("model", GOOD + KEYED, ids=[p.stem for p in GOOD + KEYED])
def test_names_listed_cover_outputs(model, tmp_path):
    """Every name the outputs define is in `--names`, the list the
    collision check walks: a name emitted but not listed could clash
    unnoticed."""
    listed = listed_names(model)
    defined = defined_names(outputs(model, tmp_path))
    assert defined["mib"] and defined["c-macro"] and defined["c-identifier"]
    for space, names in defined.items():
        assert names <= listed.get(space, set()), (space, names - listed[space])


def test_names_example_exact(tmp_path):
    """The example uses every feature (tables, both areas, notifications):
    its outputs define exactly the listed names."""
    listed = listed_names(EXAMPLE)
    defined = defined_names(outputs(EXAMPLE, tmp_path))
    # the states of group app all start at zero: no defaults to write, its
    # <p>_<g>_state_default stays a listed name that nothing defines
    listed["c-identifier"].discard("ep_app_state_default")
    assert set(defined) == set(listed)
    for space in listed:
        assert defined[space] == listed[space], space


# ---- MIB tooling ----

def mib_objects(text):
    """Descriptors defined by the module (every assignment at column 0)."""
    return re.findall(r"^([a-z][A-Za-z0-9]*)\s+(?:OBJECT-TYPE|OBJECT IDENTIFIER|"
                      r"MODULE-IDENTITY|OBJECT-GROUP|MODULE-COMPLIANCE|"
                      r"NOTIFICATION-TYPE|NOTIFICATION-GROUP)",
                      text, re.M)


@pytest.mark.parametrize("model", GOOD + KEYED, ids=[p.stem for p in GOOD + KEYED])
def test_mib_smilint_clean(model, tmp_path):
    out = outputs(model, tmp_path)
    mib = next(n for n in out if n.endswith(".txt"))
    env = dict(os.environ, SMIPATH=f"{BASE_MIBS}:{NETSNMP_MIBS}:{TEST_MIBS}:{tmp_path}")
    r = subprocess.run(["smilint", "-l", "6", "-s", "-m", str(tmp_path / mib)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


@pytest.mark.parametrize("model", GOOD + KEYED, ids=[p.stem for p in GOOD + KEYED])
def test_mib_snmptranslate_resolves_all(model, tmp_path):
    out = outputs(model, tmp_path)
    mib = next(n for n in out if n.endswith(".txt"))
    module = mib[:-4]
    names = mib_objects(out[mib].decode())
    assert len(names) >= 10
    env = dict(os.environ, MIBS="")
    r = subprocess.run(["snmptranslate", "-M", f"+{BASE_MIBS}:{TEST_MIBS}:{tmp_path}",
                        "-m", module, "-IR", "-On", *names],
                       capture_output=True, text=True, env=env, timeout=60)
    oids = r.stdout.split()
    assert r.returncode == 0, r.stderr
    assert len(oids) == len(names), (names, r.stdout, r.stderr)
    assert len(set(oids)) == len(oids)
    assert all(re.match(r"^(\.\d+)+$", o) for o in oids), oids


def test_mib_example_oid_layout(tmp_path):
    """Spot-check the documented layout (docs/mib-layout.md)."""
    outputs(EXAMPLE, tmp_path)
    root = ".1.3.6.1.4.1.8072.9999.42"
    expect = {
        "epMib": root,
        "epGlobalRxPkts": root + ".1.1.1",
        "epGlobalMbufAllocFails": root + ".1.1.7",
        "epGlobalReset": root + ".1.1.1001",
        "epGlobalDiscontinuityTime": root + ".1.1.1002",
        "epPortTable": root + ".1.2",
        "epPortEntry": root + ".1.2.1",
        "epPortRxErrors": root + ".1.2.1.5",
        "epPortReset": root + ".1.2.1.1001",
        "epPortPortId": root + ".1.2.1.1011",
        "epPortQueueQueueId": root + ".1.3.1.1012",
        "epFlowStateActiveFlows": root + ".1.5.1",
        "epResetAll": root + ".2.1",
        "epDiscontinuityTime": root + ".2.2",
        "epCompliance": root + ".3.1.1",
        "epFlowGroup": root + ".3.2.4",
        "epControlGroup": root + ".3.2.1000",
        "epEventGroup": root + ".3.2.1001",
        "epEventNotificationGroup": root + ".3.2.1002",
        "epEvents": root + ".4",
        "epEventNotifications": root + ".4.0",
        "epBadHeaderNotification": root + ".4.0.5",
        "epFlowTableFullNotification": root + ".4.0.6",
        "epEventTable": root + ".4.1",
        "epEventEntry": root + ".4.1.1",
        "epEventNumber": root + ".4.1.1.1",
        "epEventName": root + ".4.1.1.2",
        "epEventId": root + ".4.1.1.3",
        "epEventTime": root + ".4.1.1.4",
        "epEventLcore": root + ".4.1.1.5",
        "epEventLagCycles": root + ".4.1.1.6",
        "epEventLagNs": root + ".4.1.1.7",
        "epEventArg1": root + ".4.1.1.8",
        "epEventArg4": root + ".4.1.1.11",
        "epEventStatsTable": root + ".4.2",
        "epEventStatsEntry": root + ".4.2.1",
        "epEventStatsId": root + ".4.2.1.1",
        "epEventStatsName": root + ".4.2.1.2",
        "epEventStatsLogged": root + ".4.2.1.3",
        "epEventStatsDropped": root + ".4.2.1.4",
    }
    names = list(expect)
    r = subprocess.run(["snmptranslate", "-M", f"+{BASE_MIBS}:{tmp_path}",
                        "-m", "EXAMPLE-DATAPLANE-MIB", "-IR", "-On", *names],
                       capture_output=True, text=True,
                       env=dict(os.environ, MIBS=""), timeout=60)
    assert dict(zip(names, r.stdout.split())) == expect, r.stderr


def translate(outdir, module, *args):
    r = subprocess.run(["snmptranslate", "-M", f"+{BASE_MIBS}:{TEST_MIBS}:{outdir}",
                        "-m", module, *args], capture_output=True, text=True,
                       env=dict(os.environ, MIBS=""), timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_mib_example_event_objects(tmp_path):
    """Types, access and notification varbinds of the event objects, as
    net-snmp's parser reads them."""
    outputs(EXAMPLE, tmp_path)
    mod = "EXAMPLE-DATAPLANE-MIB"
    expect = {
        "epEventNumber": ("Unsigned32", "not-accessible"),
        "epEventName": ("OCTET STRING", "read-only"),   # DisplayString
        "epEventId": ("Unsigned32", "read-only"),
        "epEventTime": ("OCTET STRING", "read-only"),   # DateAndTime
        "epEventLcore": ("Unsigned32", "read-only"),
        "epEventLagCycles": ("Counter64", "read-only"),
        "epEventLagNs": ("Counter64", "read-only"),
        "epEventArg3": ("Counter64", "read-only"),
        "epEventStatsId": ("Unsigned32", "not-accessible"),
        "epEventStatsLogged": ("Counter64", "read-only"),
        "epEventStatsDropped": ("Counter64", "read-only"),
    }
    for name, (syntax, access) in expect.items():
        text = translate(tmp_path, mod, "-IR", "-Td", name)
        assert re.search(r"SYNTAX\s+%s\b" % re.escape(syntax), text), (name, text)
        assert re.search(r"MAX-ACCESS\s+%s\b" % access, text), (name, text)
    assert "TEXTUAL CONVENTION EpUnsigned64" in translate(
        tmp_path, mod, "-IR", "-Td", "epEventArg1")
    assert "DateAndTime" in translate(tmp_path, mod, "-IR", "-Td", "epEventTime")
    text = translate(tmp_path, mod, "-IR", "-Td", "epBadHeaderNotification")
    objs = re.search(r"OBJECTS\s*\{([^}]*)\}", text).group(1).split(",")
    assert [o.strip() for o in objs] == [
        "epEventName", "epEventTime", "epEventLcore", "epEventArg1", "epEventArg2"]
    text = translate(tmp_path, mod, "-IR", "-Td", "epFlowTableFullNotification")
    objs = re.search(r"OBJECTS\s*\{([^}]*)\}", text).group(1).split(",")
    assert [o.strip() for o in objs] == [
        "epEventName", "epEventTime", "epEventLcore", "epEventArg1"]
    mib = (tmp_path / f"{mod}.txt").read_text()
    # only notify events and states get a NOTIFICATION-TYPE
    assert re.findall(r"^(\w+) NOTIFICATION-TYPE", mib, re.M) == [
        "epBadHeaderNotification", "epFlowTableFullNotification", "epPortLinkChange"]


def test_mib_events_only_when_declared(tmp_path):
    """Models without `events:` get none of the event log's output (so
    their files are what they were before the event log existed); states
    may bring some of its words, their notifications and types."""
    for model in GOOD:
        text = model.read_text()
        if re.search(r"^events:", text, re.M):
            continue
        words = ["EventTable", "EventStats", "_event_", "n_events", "Unsigned64",
                 "TEXTUAL-CONVENTION", "Mib 4 }"]
        if not re.search(r"^    states:", text, re.M):
            words += ["Notification", "NOTIFICATION", "DisplayString", "DateAndTime"]
        out = outputs(model, tmp_path / model.stem)
        for name, data in out.items():
            data = data.decode()
            for word in words:
                assert word not in data, (model.name, name, word)


def test_mib_events_model_without_notify(tmp_path):
    """Events but no `notify: true`: no notification node, group or import."""
    text = (HERE / "models" / "events.yaml").read_text()
    text = text.replace("notify: true", "notify: false")
    model = tmp_path / "events.yaml"
    model.write_text(text)
    out = outputs(model, tmp_path / "out")
    mib = out["EVENTS-TEST-MIB.txt"].decode()
    assert "NOTIFICATION" not in mib
    assert "evEventNotifications" not in mib
    assert "evEventGroup OBJECT-GROUP" in mib
    env = dict(os.environ, SMIPATH=f"{BASE_MIBS}:{NETSNMP_MIBS}:{tmp_path / 'out'}")
    r = subprocess.run(["smilint", "-l", "6", "-s", "-m",
                        str(tmp_path / "out" / "EVENTS-TEST-MIB.txt")],
                       capture_output=True, text=True, env=env, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


# ---- event header and schema ----

def test_mib_events_header_bodies(tmp_path):
    """Rate 9 logs unconditionally, rate 0 compiles to nothing, others test
    the threshold; int32 is sign-extended; unused words are zero."""
    out = outputs(HERE / "models" / "events.yaml", tmp_path)
    h = out["ev_stats.h"].decode()

    def body(fn):
        m = re.search(r"\n%s\(([^)]*)\)\n\{\n(.*?)\n\}\n" % fn, h, re.S)
        assert m, fn
        return " ".join(m.group(1).split()), " ".join(m.group(2).split())

    assert body("ev_event_cycle_start") == (
        "struct fastmib_writer *w, uint32_t port, uint32_t pkts",
        "if (fastmib_event_on(w, 5u)) fastmib_event_log(w, EV_EVENT_CYCLE_START, "
        "port, pkts, 0, 0);")
    assert body("ev_event_alarm") == (
        "struct fastmib_writer *w, int32_t code",
        "fastmib_event_log(w, EV_EVENT_ALARM, (uint64_t)(int64_t)code, 0, 0, 0);")
    assert body("ev_event_disabled") == (
        "struct fastmib_writer *w, uint32_t value", "(void)w; (void)value;")
    assert body("ev_event_step")[0] == (
        "struct fastmib_writer *w, uint64_t big, int32_t delta, uint32_t small, "
        "uint64_t last")
    assert "#define EV_N_EVENTS 7u" in h
    assert "#define EV_EVENT_RARE 6u" in h
    section = h[h.index("/* ---- event log ---- */"):]
    assert max(len(line) for line in section.splitlines()) <= 81


# ---- warnings ----

@pytest.mark.parametrize("model", WARN, ids=[p.stem for p in WARN])
def test_warn_model(model, tmp_path):
    """Warnings and notes: exactly the `# expect:` diagnostics, in order,
    exit 0, and all three outputs written."""
    expect = re.findall(r"^# expect: (\d+:\d+) (warning|note): (.*)$",
                        model.read_text(), re.M)
    assert expect
    r = gen(model.name, "-o", tmp_path, cwd=model.parent)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == len(expect), r.stderr
    for line, (pos, kind, text) in zip(lines, expect):
        assert line.startswith(f"{model.name}:{pos}: {kind}: {text}"), line
    assert len(list(tmp_path.iterdir())) == 3
    r2 = gen("--check", model.name, cwd=model.parent)
    assert (r2.returncode, r2.stderr) == (0, r.stderr)


def test_warn_example_has_none(tmp_path):
    """The example's levels and rates are consistent: no diagnostics."""
    r = gen("--check", EXAMPLE)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


# ---- keyed tables ----

KEYED_MODEL = HERE / "keyed" / "keyed.yaml"
KT_ROOT = ".1.3.6.1.4.1.8072.9999.77"


def test_golden_keyed_mib(tmp_path):
    """tests/codegen/keyed/KEYED-TEST-MIB.txt is exactly what the generator
    makes of keyed.yaml: every index type's objects, reviewed once."""
    out = outputs(KEYED_MODEL, tmp_path)
    assert out["KEYED-TEST-MIB.txt"] == KEYED_GOLDEN.read_bytes(), (
        "regenerate tests/codegen/keyed/KEYED-TEST-MIB.txt from keyed.yaml")


def test_errors_keyed_several_in_one_run(tmp_path):
    """Independent faults of keyed tables, in two groups, all in one run, in
    file order."""
    text = KEYED_MODEL.read_text()
    text = text.replace("{ name: teid, type: uint32 }", "{ name: teid, type: u32 }")
    text = text.replace("      indexes: [ { name: portId, max: 4 } ]\n      rows: all\n",
                        "      indexes: [ { name: portId, max: 4 } ]\n      capacity: 4\n")
    text = text.replace("{ name: customerName, type: string, size: 32 }",
                        "{ name: customerName, type: string }")
    model = tmp_path / "k.yaml"
    model.write_text(text)
    r = gen("--check", model.name, cwd=tmp_path)
    assert r.returncode == 2
    lines = text.splitlines()

    def at(needle, word):
        n = next(i for i, ln in enumerate(lines) if needle in ln and
                 not ln.split(needle, 1)[1][:1].isdigit())
        return "%d:%d" % (n + 1, lines[n].index(word, lines[n].index(needle)) + 1)
    assert r.stderr.splitlines() == [
        "k.yaml:%s: error: unknown index type `u32` (expected one of: uint32, ipv4, "
        "inet-address, mac, string)" % at("type: u32", "u32"),
        "k.yaml:%s: error: index `customerName` of `type: string` needs `size`: the "
        "most octets of its values, 1..64" % at("customerName, type: string", "string"),
        "k.yaml:%s: error: `capacity` is only for keyed tables (tables with an index "
        "of a `type`): this table has one row per value of its indexes, up to their "
        "`max`" % at("capacity: 4", "4"),
    ]


def test_mib_keyed_index_objects(tmp_path):
    """The index objects as net-snmp reads them: syntax per index type,
    not-accessible, at their arcs, listed by INDEX in model order (an
    address's type first), in no OBJECT-GROUP; and instances decoded
    through that INDEX clause as docs/mib-layout.md shows them."""
    outputs(KEYED_MODEL, tmp_path)
    mod = "KEYED-TEST-MIB"
    expect = {
        # name: (group arc, arc under the entry, SYNTAX)
        "ktTunnelPeer": (2, 1011, "InetAddress (SIZE (4 | 16))"),
        "ktTunnelTeid": (2, 1012, "Unsigned32"),
        "ktTunnelPeerType": (2, 1021, "InetAddressType"),
        "ktPeerQueuePeerAddr": (3, 1011, "InetAddress (SIZE (4 | 16))"),
        "ktPeerQueueQueue": (3, 1012, "Unsigned32 (1..8)"),
        "ktPeerQueuePeerAddrType": (3, 1021, "InetAddressType"),
        "ktHostAddr": (4, 1011, "IpAddress"),
        "ktStationMac": (5, 1011, "MacAddress"),
        "ktCustomerCustomerName": (6, 1011, "DisplayString (SIZE (1..32))"),
        "ktCustomerVlan": (6, 1012, "Unsigned32"),
        "ktPortPortId": (7, 1011, "Unsigned32 (1..4)"),
    }
    names = list(expect)
    oids = translate(tmp_path, mod, "-IR", "-On", *names).split()
    assert oids == ["%s.1.%d.1.%d" % (KT_ROOT, g, arc) for g, arc, _ in expect.values()]
    mib = (tmp_path / f"{mod}.txt").read_text()
    for name, (_, _, syntax) in expect.items():
        block = re.search(r"^%s OBJECT-TYPE\n(.*?)\n\n" % name, mib, re.M | re.S).group(1)
        assert "SYNTAX       %s\n" % syntax in block, (name, block)
        assert "MAX-ACCESS   not-accessible" in block, name
        text = translate(tmp_path, mod, "-IR", "-Td", name)
        assert re.search(r"MAX-ACCESS\s+not-accessible", text), (name, text)
    assert re.findall(r"INDEX\s+\{([^}]*)\}", mib, re.S)[:5] == [
        " ktTunnelPeerType, ktTunnelPeer, ktTunnelTeid ",
        "\n          ktPeerQueuePeerAddrType,\n          ktPeerQueuePeerAddr,"
        "\n          ktPeerQueueQueue\n    ",
        " ktHostAddr ", " ktStationMac ", " ktCustomerCustomerName, ktCustomerVlan "]
    for objs in re.findall(r"OBJECT-GROUP\n    OBJECTS \{([^}]*)\}", mib):
        assert not set(objs.replace(",", " ").split()) & set(expect), objs
    # instances, decoded by net-snmp from the INDEX clause and the syntaxes
    pkts = KT_ROOT + ".1.2.1.1"
    decoded = translate(tmp_path, mod, "-OX",
                        pkts + ".1.4.10.0.0.1.3735928559",
                        pkts + ".2.16.32.1.13.184.0.0.0.0.0.0.0.0.0.0.0.1.7",
                        KT_ROOT + ".1.3.1.1.1.4.10.0.0.2.8",
                        KT_ROOT + ".1.4.1.1.192.168.1.9",
                        KT_ROOT + ".1.5.1.1.0.17.34.51.68.85",
                        KT_ROOT + ".1.6.1.1.4.97.99.109.101.100").split("\n")
    decoded = [d for d in decoded if d]
    assert decoded[0] == 'KEYED-TEST-MIB::ktTunnelPkts[ipv4]["...."][3735928559]'
    assert re.fullmatch(r'KEYED-TEST-MIB::ktTunnelPkts\[ipv6\]\[".{16}"\]\[7\]',
                        decoded[1]), decoded[1]
    assert decoded[2] == 'KEYED-TEST-MIB::ktPeerQueuePkts[ipv4]["...."][8]'
    assert decoded[3] == "KEYED-TEST-MIB::ktHostSessions[192.168.1.9]"
    assert decoded[4] == "KEYED-TEST-MIB::ktStationFrames[STRING: 0:11:22:33:44:55]"
    assert decoded[5] == "KEYED-TEST-MIB::ktCustomerOctets[STRING: acme][100]"


def imports(mib):
    """{module: [names]} of a MIB's IMPORTS."""
    text = re.search(r"^IMPORTS\n(.*?);", mib, re.M | re.S).group(1)
    out = {}
    for names, module in re.findall(r"(.*?)FROM\s+(\S+)", text, re.S):
        out[module] = [n.strip() for n in names.split(",")]
    return out


def test_mib_keyed_imports(tmp_path):
    """Imports follow what the module uses: INET-ADDRESS-MIB only with an
    inet-address index, IpAddress, MacAddress, DisplayString and
    Unsigned32 only when an index (or the event log) needs them, each once."""
    got = {}
    for model in KEYED:
        out = outputs(model, tmp_path / model.stem)
        got[model.stem] = imports(next(v for k, v in out.items()
                                       if k.endswith(".txt")).decode())
    assert got["keyed"] == {
        "SNMPv2-SMI": ["MODULE-IDENTITY", "OBJECT-TYPE", "Counter64", "Counter32",
                       "Gauge32", "Unsigned32", "IpAddress"],
        "SNMPv2-TC": ["TruthValue", "TimeStamp", "DisplayString", "MacAddress"],
        "SNMPv2-CONF": ["MODULE-COMPLIANCE", "OBJECT-GROUP"],
        "INET-ADDRESS-MIB": ["InetAddressType", "InetAddress"],
        "NET-SNMP-MIB": ["netSnmpExperimental"],
    }
    assert got["keyed-mac"] == {
        "SNMPv2-SMI": ["MODULE-IDENTITY", "OBJECT-TYPE", "Counter64"],
        "SNMPv2-TC": ["TruthValue", "TimeStamp", "MacAddress"],
        "SNMPv2-CONF": ["MODULE-COMPLIANCE", "OBJECT-GROUP"],
        "NET-SNMP-MIB": ["netSnmpExperimental"],
    }
    assert got["keyed-events"]["SNMPv2-SMI"] == [
        "MODULE-IDENTITY", "OBJECT-TYPE", "Counter64", "Counter32", "Unsigned32",
        "IpAddress"]
    assert got["keyed-events"]["SNMPv2-TC"] == [
        "TEXTUAL-CONVENTION", "TruthValue", "TimeStamp", "DisplayString",
        "DateAndTime", "MacAddress"]
    assert "INET-ADDRESS-MIB" not in got["keyed-events"]


# ---- keyed tables: the generated C ----

def c_compile(incdir, code, obj, cc="cc"):
    """Compile `code` with the generated header as a user's build would
    (C11, -Wall -Wextra -pedantic -Werror, -O2): the CompletedProcess."""
    dpdk = subprocess.run(["pkg-config", "--cflags", "libdpdk"], capture_output=True,
                          text=True, check=True).stdout.split()
    return subprocess.run(
        [cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror",
         "-DALLOW_EXPERIMENTAL_API", "-I%s" % (SRC / "include"), "-I%s" % incdir,
         *dpdk, "-c", "-x", "c", "-", "-o", str(obj)],
        input=code, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("model", GOOD + KEYED, ids=[p.stem for p in GOOD + KEYED])
@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_ccode_outputs_compile_clean(model, cc, tmp_path):
    """The header and schema.c of every model compile without a warning
    under gcc and clang (-Wall -Wextra -pedantic: clang's
    -Wmissing-field-initializers wants every field of an index)."""
    out = outputs(model, tmp_path)
    schema = next(k for k in out if k.endswith("_schema.c"))
    r = c_compile(tmp_path, out[schema].decode(), tmp_path / "schema.o", cc=cc)
    assert (r.returncode, r.stderr) == (0, "")


def c_body(h, fn):
    """(parameters, body) of static inline function fn of header text h,
    white space folded."""
    m = re.search(r"\n%s\(([^)]*)\)\n\{\n(.*?)\n\}\n" % fn, h, re.S)
    assert m, fn
    return " ".join(m.group(1).split()), " ".join(m.group(2).split())


def test_ccode_keyed_header(tmp_path):
    """The key struct, its layout constants, the key functions calling the
    library, and update forms that take the row (docs/model.md)."""
    h = outputs(KEYED_MODEL, tmp_path)["kt_stats.h"].decode()
    struct = re.search(r"\nstruct kt_tunnel_key \{\n(.*?)\n\};\n", h, re.S).group(1)
    assert [ln.strip() for ln in struct.splitlines() if not ln.strip().startswith(
        ("/*", "*"))] == ["struct fastmib_inet_address peer;", "uint32_t teid;"]
    struct = re.search(r"\nstruct kt_customer_key \{\n(.*?)\n\};\n", h, re.S).group(1)
    assert [ln.strip() for ln in struct.splitlines() if not ln.strip().startswith(
        ("/*", "*"))] == ["char customer_name[32 + 1];", "uint32_t vlan;"]
    for decl in ("uint8_t addr[4];", "uint8_t mac[6];",
                 "struct fastmib_inet_address peer_addr;", "uint32_t queue;"):
        assert "\n\t%s\n" % decl in h, decl
    for define in ("KT_TUNNEL_ROWS 65536u", "KT_TUNNEL_KEY_PEER_OFFSET 0u",
                   "KT_TUNNEL_KEY_TEID_OFFSET 20u", "KT_TUNNEL_KEY_SIZE 24u",
                   "KT_PEER_QUEUE_QUEUE_MAX 8u", "KT_CUSTOMER_KEY_VLAN_OFFSET 36u",
                   "KT_CUSTOMER_KEY_SIZE 40u", "KT_STATION_KEY_SIZE 6u"):
        assert "\n#define %s\n" % define in h, define
    # no MAX for an index that is not an integer, no row number function
    assert "KT_TUNNEL_TEID_MAX" not in h and "KT_HOST_ADDR_MAX" not in h
    assert "\nkt_tunnel_row(" not in h and "\nkt_port_row(" in h
    assert "KT_STATIC_ASSERT(sizeof(struct kt_tunnel_key) == KT_TUNNEL_KEY_SIZE," in h
    assert c_body(h, "kt_tunnel_insert") == (
        "struct fastmib_segment *seg, const struct kt_tunnel_key *key, uint32_t *row",
        "return fastmib_key_insert(seg, KT_GROUP_TUNNEL, key, row);")
    assert c_body(h, "kt_tunnel_find") == (
        "struct fastmib_segment *seg, const struct kt_tunnel_key *key, uint32_t *row",
        "return fastmib_key_find(seg, KT_GROUP_TUNNEL, key, row);")
    assert c_body(h, "kt_tunnel_remove") == (
        "struct fastmib_segment *seg, const struct kt_tunnel_key *key",
        "return fastmib_key_remove(seg, KT_GROUP_TUNNEL, key);")
    assert c_body(h, "kt_tunnel_row_checked") == (
        "struct fastmib_writer *w, uint32_t row",
        "if (unlikely(row >= KT_TUNNEL_ROWS)) "
        "return fastmib_row_out_of_range(w, KT_GROUP_TUNNEL); return row;")
    assert c_body(h, "kt_tunnel_pkts_add") == (
        "struct fastmib_writer *w, uint32_t row, uint64_t n",
        "uint32_t row_ = kt_tunnel_row_checked(w, row); "
        "fastmib_pc_add(w, KT_TUNNEL_OFFSET + ((size_t)row_ << 4) + 0u, n);")
    assert c_body(h, "kt_tx_tunnel")[0] == "struct kt_tx *tx, uint32_t row"
    assert c_body(h, "kt_tx_tunnel_pkts_add") == (
        "struct kt_tx *tx, uint32_t row, uint64_t n",
        "kt_tunnel_ref_pkts_add(kt_tx_tunnel(tx, row), n);")
    assert c_body(h, "kt_tx_peer_queue_backlog_sub")[0] == (
        "struct kt_tx *tx, uint32_t row, uint64_t n")


def disassembly(obj, fn):
    """The instructions of function fn in object obj, without addresses."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel",
                          str(obj)], capture_output=True, text=True, check=True).stdout
    body = re.search(r"<%s>:\n(.*?)(?:\n\n|\Z)" % fn, out, re.S).group(1)
    ins = [ln.split("\t", 1)[1].split()[0] for ln in body.splitlines() if "\t" in ln]
    while ins and ins[-1] in ("nop", "data16", "cs", "xchg", "int3"):
        ins.pop()       # padding up to the next function
    return ins


def test_ccode_keyed_update_costs_as_dense(tmp_path):
    """An update of a keyed table's row is the same instructions as one of
    a table with one integer index, in both forms: one compare and a
    predicted branch, then the add (compiled, -O2, the mnemonics compared)."""
    outputs(KEYED_MODEL, tmp_path / "gen")
    code = """#include "kt_stats.h"
void keyed(struct fastmib_writer *w, uint32_t row, uint64_t n);
void dense(struct fastmib_writer *w, uint32_t i, uint64_t n);
void keyed_tx(struct kt_tx *tx, uint32_t row, uint64_t n);
void dense_tx(struct kt_tx *tx, uint32_t i, uint64_t n);
void keyed(struct fastmib_writer *w, uint32_t row, uint64_t n)
{ kt_station_frames_add(w, row, n); }
void dense(struct fastmib_writer *w, uint32_t i, uint64_t n)
{ kt_port_pkts_add(w, i, n); }
void keyed_tx(struct kt_tx *tx, uint32_t row, uint64_t n)
{ kt_tx_station_frames_add(tx, row, n); }
void dense_tx(struct kt_tx *tx, uint32_t i, uint64_t n)
{ kt_tx_port_pkts_add(tx, i, n); }
"""
    obj = tmp_path / "cost.o"
    r = c_compile(tmp_path / "gen", code, obj)
    assert r.returncode == 0, r.stderr
    for keyed, dense in (("keyed", "dense"), ("keyed_tx", "dense_tx")):
        k, d = disassembly(obj, keyed), disassembly(obj, dense)
        assert k == d, (keyed, k, d)
        assert k.count("cmp") == 1, k


def test_ccode_keyed_layout_asserts_bite(tmp_path):
    """The header's assertions tie the C key to fastmib_key_layout(): the
    header compiles as generated, and a layout constant that disagrees with
    the compiler's layout (as a library of another layout would give) stops
    the build with the assertion's message."""
    outputs(KEYED_MODEL, tmp_path / "gen")
    header = (tmp_path / "gen" / "kt_stats.h").read_text()
    code = '#include "kt_stats.h"\n'
    r = c_compile(tmp_path / "gen", code, tmp_path / "ok.o")
    assert r.returncode == 0, r.stderr
    for old, new, message in (
            ("#define KT_TUNNEL_KEY_TEID_OFFSET 20u", "#define KT_TUNNEL_KEY_TEID_OFFSET 24u",
             "tunnel key: teid offset"),
            ("#define KT_CUSTOMER_KEY_SIZE 40u", "#define KT_CUSTOMER_KEY_SIZE 37u",
             "customer key size")):
        bad = tmp_path / ("bad-" + message.replace(" ", "-").replace(":", ""))
        bad.mkdir()
        assert old in header
        (bad / "kt_stats.h").write_text(header.replace(old, new))
        r = c_compile(bad, code, bad / "x.o")
        assert r.returncode != 0
        assert message in r.stderr, r.stderr

# ---- command line ----

def test_cli_help_version_usage(tmp_path):
    r = gen("--help")
    assert r.returncode == 0 and "usage: fastmib-gen" in r.stdout
    r = gen("--version")
    assert r.returncode == 0 and re.match(r"fastmib-gen \d+\.\d+\.\d+", r.stdout)
    assert gen(EXAMPLE).returncode == 1             # no -o
    assert gen("--bogus").returncode == 1
    assert gen(EXAMPLE, EXAMPLE, "-o", tmp_path).returncode == 1


def test_cli_io_errors_exit_1(tmp_path):
    r = gen(tmp_path / "missing.yaml", "-o", tmp_path / "out")
    assert r.returncode == 1
    assert "missing.yaml" in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = gen(EXAMPLE, "-o", blocker / "sub")
    assert r.returncode == 1
    assert list(tmp_path.iterdir()) == [blocker]


def test_cli_creates_output_dir(tmp_path):
    out = outputs(EXAMPLE, tmp_path / "a" / "b")
    assert sorted(out) == ["EXAMPLE-DATAPLANE-MIB.txt", "ep_schema.c", "ep_stats.h"]
    mode = (tmp_path / "a" / "b" / "ep_stats.h").stat().st_mode & 0o777
    assert mode & 0o644 == 0o644


# ---- snmp_exporter generator module (-x) ----

sys.path.insert(0, str(HERE.parent / "lib"))
import snmpexporter as px  # noqa: E402


def exporter_module(model, *extra, cwd=None):
    """`fastmib-gen MODEL -x - [EXTRA]`: the text written."""
    r = gen(model, "-x", "-", *extra, cwd=cwd)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("model", EXPORTED, ids=[p.stem for p in EXPORTED])
def test_exporter_byte_identical_alone(model, tmp_path):
    """-x alone writes that one file; runs give the same bytes (relative or
    absolute model path, file or standard output), no absolute path."""
    out = tmp_path / "a" / "gen.yml"
    r = gen(model, "-x", out)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.parent.iterdir()) == ["gen.yml"]
    shutil.copy(model, tmp_path / model.name)
    assert exporter_module(model.name, cwd=tmp_path).encode() == out.read_bytes()
    ev = exporter_module(model, "--snmp-exporter-events")
    assert ev == exporter_module(model, "--snmp-exporter-events")
    for data in (out.read_text(), ev):
        assert str(tmp_path) not in data and str(SRC) not in data


def test_exporter_beside_outputs(tmp_path):
    """With -o, the three outputs are what they are without -x."""
    alone = outputs(EXAMPLE, tmp_path / "alone")
    r = gen(EXAMPLE, "-o", tmp_path / "both", "-x", tmp_path / "both" / "ep.yml")
    assert r.returncode == 0, r.stderr
    both = {p.name: p.read_bytes() for p in (tmp_path / "both").iterdir()}
    assert both.pop("ep.yml").decode() == exporter_module(EXAMPLE)
    assert both == alone


def test_exporter_usage_and_bad_model(tmp_path):
    assert gen(EXAMPLE, "--snmp-exporter-events", "-o", tmp_path).returncode == 1
    assert gen(EXAMPLE, "--snmp-exporter-table", "flow", "-o", tmp_path).returncode == 1
    assert gen("--check", EXAMPLE, "-x", tmp_path / "x.yml").returncode == 1
    assert gen("--names", EXAMPLE, "-x", tmp_path / "x.yml").returncode == 1
    assert gen(EXAMPLE, "-x", "").returncode == 1
    r = gen(BAD[0], "-x", tmp_path / "x.yml")
    assert r.returncode == 2
    assert list(tmp_path.iterdir()) == []


def walked_tables(text):
    mod = next(iter(yaml.safe_load(text)["modules"].values()))
    return [w for w in mod["walk"] if w.endswith("Table")]


def test_exporter_large_tables(tmp_path):
    """A table that can hold more rows than --snmp-exporter-max-rows (1024
    by default) is left out of the walk and named in a comment that says
    how to ask for it; --snmp-exporter-table walks it whatever its size. The
    bucket tables of histograms are walked with their group's (the scalar
    group global's always, port's with port), after the groups' tables."""
    buckets = ["epGlobalBurstTimeBucketTable", "epPortRxBurstBucketTable"]
    small = ["epPortTable", "epPortQueueTable", "epServerTable"] + buckets + ["epEventStatsTable"]
    text = exporter_module(EXAMPLE)
    assert walked_tables(text) == small
    assert re.search(r"# flow: table, labels epFlowFlowId; up to 65536 rows: more than\n"
                     r"\s+# 1024, so not walked .*\n(\s+# .*\n)*?.*--snmp-exporter-table flow",
                     text), text
    assert walked_tables(exporter_module(EXAMPLE, "--snmp-exporter-table", "flow")) == [
        "epPortTable", "epPortQueueTable", "epFlowTable", "epServerTable"] + buckets + [
        "epEventStatsTable"]
    # portQueue has 32 rows: more than 31, not more than 32; server 256 rows
    assert walked_tables(exporter_module(EXAMPLE, "--snmp-exporter-max-rows", "31")) == [
        "epPortTable"] + buckets + ["epEventStatsTable"]
    assert walked_tables(exporter_module(EXAMPLE, "--snmp-exporter-max-rows", "32")) == [
        "epPortTable", "epPortQueueTable"] + buckets + ["epEventStatsTable"]
    assert walked_tables(exporter_module(EXAMPLE, "--snmp-exporter-max-rows", "256")) == small
    assert "epFlowTable" in walked_tables(
        exporter_module(EXAMPLE, "--snmp-exporter-max-rows", "65536"))
    both = exporter_module(EXAMPLE, "--snmp-exporter-max-rows", "1",
                           "--snmp-exporter-table", "portQueue", "--snmp-exporter-table", "port")
    assert walked_tables(both) == ["epPortTable", "epPortQueueTable"] + buckets + [
        "epEventStatsTable"]


def test_exporter_histograms():
    """Histograms: a scalar group's Count and Sum fetched by name, peaks
    too and gauges; each bucket table walked with its group, its bound a
    label (a lookup over the group's indexes and the bucket), its number
    and bound no metrics; a table left out for its size leaves its bucket
    tables out too."""
    model = HERE / "models" / "histograms.yaml"
    mod = yaml.safe_load(exporter_module(model))["modules"]["histograms_test_mib"]
    walk = mod["walk"]
    for name in ("hgSystemLatencyCount", "hgSystemLatencySum", "hgSystemBurstCount",
                 "hgSystemBurstSum", "hgSystemQueueDepth"):
        assert name in walk, name
    buckets = ["hgSystemLatencyBucketTable", "hgSystemBurstBucketTable",
               "hgPortSizeBucketTable", "hgFlowGapBucketTable"]
    assert [w for w in walk if w.endswith("BucketTable")] == buckets
    assert walk.index(buckets[0]) > walk.index("hgPoolDiscontinuityTime")
    assert mod["lookups"] == [
        {"source_indexes": ["hgSystemLatencyBucket"], "lookup": "hgSystemLatencyBucketLe"},
        {"source_indexes": ["hgSystemBurstBucket"], "lookup": "hgSystemBurstBucketLe"},
        {"source_indexes": ["hgPortPortId", "hgPortV", "hgPortSizeBucket"],
         "lookup": "hgPortSizeBucketLe"},
        {"source_indexes": ["hgFlowPeer", "hgFlowTeid", "hgFlowGapBucket"],
         "lookup": "hgFlowGapBucketLe"}]
    for t in buckets:
        assert mod["overrides"][t.replace("Table", "")] == {"ignore": True}
        assert mod["overrides"][t.replace("Table", "Le")] == {"ignore": True}
    for peak in ("hgSystemQueueDepth", "hgPortPeakBurst", "hgFlowMaxGap"):
        assert mod["overrides"][peak] == {"type": "gauge"}
    # port has 8 rows, flow up to 16: with at most 8, flow and its
    # buckets are left out, port's stay
    mod = yaml.safe_load(exporter_module(model, "--snmp-exporter-max-rows", "8"))
    mod = mod["modules"]["histograms_test_mib"]
    assert "hgFlowTable" not in mod["walk"] and "hgFlowGapBucketTable" not in mod["walk"]
    assert "hgPortSizeBucketTable" in mod["walk"]
    assert "hgFlowGapBucketLe" not in mod["overrides"]
    assert [lk["lookup"] for lk in mod["lookups"]] == [
        "hgSystemLatencyBucketLe", "hgSystemBurstBucketLe", "hgPortSizeBucketLe"]


@pytest.mark.parametrize("args, message", [
    (["--snmp-exporter-max-rows", "0"], "--snmp-exporter-max-rows '0': not a number of rows"),
    (["--snmp-exporter-max-rows", "1k"], "--snmp-exporter-max-rows '1k': not a number"),
    (["--snmp-exporter-max-rows", "4294967296"], "not a number of rows (1 or more)"),
    (["--snmp-exporter-table", "global"],
     "--snmp-exporter-table global: dataplane.yaml has no table group of that name"),
    (["--snmp-exporter-table", "flows"],
     "--snmp-exporter-table flows: dataplane.yaml has no table group of that name"),
])
def test_exporter_table_options_refused(tmp_path, args, message):
    r = gen(EXAMPLE, "-x", tmp_path / "x.yml", *args)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []
    # only with -x
    assert gen(EXAMPLE, "-o", tmp_path / "o", *args[:2]).returncode == 1


def test_exporter_port_tables_get_their_join():
    """Each index declared `port: true` gets the PromQL that joins its rows
    with if_mib, naming its own label and a counter of its table; other
    tables and models get none."""
    text = exporter_module(EXAMPLE)
    joins = re.findall(r"#   (\w+) \* on \(instance, (\w+)\) group_left \(ifIndex, ifName\)\n"
                       r"\s+#     count_values by \(instance, ifIndex, ifName\) \(\"(\w+)\",\n"
                       r"\s+#       ifIndex\{ifIndex=~\"10\[0-9\]\[0-9\]\"\} - 999\)\n", text)
    assert joins == [("epPortRxPkts", "epPortPortId", "epPortPortId"),
                     ("epPortQueuePkts", "epPortQueuePortId", "epPortQueuePortId")]
    for model in EXPORTED[1:]:
        assert "count_values" not in exporter_module(model), model


@pytest.mark.parametrize("model", EXPORTED, ids=[p.stem for p in EXPORTED])
def test_exporter_objects_only(model, tmp_path):
    """Every name the module uses is an object of the model's MIB; the
    module is named after the MIB module; resets and DiscontinuityTimes are
    handled for every group, and the event table only on request."""
    files = outputs(model, tmp_path)
    mib_name = next(n for n in files if n.endswith(".txt"))
    objects = set(mib_objects(files[mib_name].decode()))
    for extra in ((), ("--snmp-exporter-events",)):
        doc = yaml.safe_load(exporter_module(model, *extra))
        assert list(doc["modules"]) == [mib_name[:-4].lower().replace("-", "_")]
        mod = next(iter(doc["modules"].values()))
        used = set(mod["walk"]) | set(mod["overrides"])
        for lk in mod.get("lookups", []):
            used |= set(lk["source_indexes"]) | {lk["lookup"]}
        # beside timestamp states: the uptime they are moments of (SNMPv2-MIB)
        assert used - objects == ({"sysUpTime"} if "type: timestamp" in model.read_text()
                                  else set()), used - objects
        resets = {o for o in objects if o.endswith("Reset") or o.endswith("ResetAll")}
        assert {o for o, v in mod["overrides"].items() if v == {"ignore": True}} >= resets
        assert not resets & set(mod["walk"])
        discs = {o for o in objects if o.endswith("DiscontinuityTime")}
        assert {o for o, v in mod["overrides"].items() if v == {"type": "gauge"}} >= discs
        assert any(o.endswith("EventTable") for o in mod["walk"]) == \
            (bool(extra) and any(o.endswith("EventTable") for o in objects))


def test_exporter_keyed_tables():
    """A keyed table's labels are its key: the walk comment names each one
    with its index type, INET-ADDRESS-MIB is among the modules needed, and
    every index object (an InetAddressType one too) is ignored: labels,
    never metrics."""
    keyed = HERE / "keyed" / "keyed.yaml"
    text = exporter_module(keyed)
    assert px.needed_mibs(text) == ["KEYED-TEST-MIB", "SNMPv2-SMI", "SNMPv2-TC", "SNMPv2-CONF",
                                   "NET-SNMP-MIB", "INET-ADDRESS-MIB"]
    assert "INET-ADDRESS-MIB" not in px.needed_mibs(exporter_module(
        HERE / "keyed" / "keyed-mac.yaml"))
    comments = " ".join(ln.strip(" #") for ln in text.splitlines() if ln.strip().startswith("#"))
    assert ("tunnel: keyed table, labels ktTunnelPeer (inet-address), ktTunnelTeid "
            "(uint32); up to 65536 rows") in comments
    assert "peerQueue: keyed table, labels ktPeerQueuePeerAddr (inet-address), " \
           "ktPeerQueueQueue (integer)" in comments
    assert "customer: keyed table, labels ktCustomerCustomerName (string), ktCustomerVlan " \
           "(uint32); up to 1000 rows" in comments
    assert "port: table, labels ktPortPortId; 4 rows" in comments
    mod = yaml.safe_load(text)["modules"]["keyed_test_mib"]
    ignored = {o for o, v in mod["overrides"].items() if v == {"ignore": True}}
    assert ignored - {o for o in ignored if o.endswith("Reset") or o == "ktResetAll"} == {
        "ktTunnelPeerType", "ktTunnelPeer", "ktTunnelTeid", "ktPeerQueuePeerAddrType",
        "ktPeerQueuePeerAddr", "ktPeerQueueQueue", "ktHostAddr", "ktStationMac",
        "ktCustomerCustomerName", "ktCustomerVlan", "ktPortPortId"}
    # the example model's indexes too
    ex = yaml.safe_load(exporter_module(EXAMPLE))["modules"]["example_dataplane_mib"]
    assert {"epPortPortId", "epPortQueuePortId", "epPortQueueQueueId", "epFlowFlowId"} <= {
        o for o, v in ex["overrides"].items() if v == {"ignore": True}}


@pytest.mark.parametrize("model", EXPORTED, ids=[p.stem for p in EXPORTED])
def test_exporter_prometheus_generator_accepts(model, tmp_path):
    """prometheus-snmp-generator turns each module into snmp.yml without a
    warning, given the MIB modules the header comment lists and no other."""
    outputs(model, tmp_path / "out")
    plain = exporter_module(model)
    events = exporter_module(model, "--snmp-exporter-events")
    name = next(iter(yaml.safe_load(plain)["modules"]))
    second = events.split("modules:\n", 1)[1].replace(
        "  %s:\n" % name, "  %s_events:\n" % name, 1)
    mibdir = px.mib_dir(str(tmp_path / "mibs"), px.needed_mibs(plain),
                        [str(tmp_path / "out"), BASE_MIBS, NETSNMP_MIBS, TEST_MIBS])
    config, log = px.generate(str(tmp_path), plain + second, mibdir)
    assert "level=warn" not in log, log
    snmp = yaml.safe_load(open(config))
    for mod in (name, name + "_events"):
        metrics = {m["name"]: m for m in snmp[mod]["metrics"]}
        assert not [n for n in metrics if n.endswith("Reset") or n.endswith("ResetAll")]
        for n, m in metrics.items():
            if n.endswith("DiscontinuityTime"):
                assert m["type"] == "gauge", n
            if n.endswith("WriterStatus"):
                assert m["type"] == "EnumAsStateSet", n
        assert any(n.endswith("EventArg1") for n in metrics) == \
            (mod.endswith("_events") and '\nevents:' in model.read_text())


# ---- states ----

STATES_MODEL = HERE / "models" / "states.yaml"
ST_ROOT = ".1.3.6.1.4.1.8072.9999.61"


def mib_clauses(mib):
    """{descriptor: (SYNTAX, UNITS or None, MAX-ACCESS, DEFVAL or None)} of
    every OBJECT-TYPE of a MIB's text, as written."""
    out = {}
    for name, body in re.findall(r"^(\w+) OBJECT-TYPE\n(.*?)\n    ::=", mib, re.M | re.S):
        syntax = re.search(r"    SYNTAX       (.*?)\n    (?:UNITS|MAX-ACCESS)", body, re.S)
        units = re.search(r'^    UNITS        "(.*)"$', body, re.M)
        access = re.search(r"^    MAX-ACCESS   (\S+)$", body, re.M)
        defval = re.search(r"^    DEFVAL       \{ (.*) \}$", body, re.M)
        out[name] = (syntax.group(1), units and units.group(1), access.group(1),
                     defval and defval.group(1))
    return out


def test_mib_states_syntax_units_defval(tmp_path):
    """Every state type's SYNTAX (ranges, sizes, an enum ascending by value
    and wrapped when long), UNITS where given, read-only, and the DEFVAL of
    the value it starts with (none for a CounterBasedGauge64); an
    inet-address is its InetAddressType then its InetAddress."""
    mib = outputs(STATES_MODEL, tmp_path)["STATES-TEST-MIB.txt"].decode()
    got = mib_clauses(mib)
    expect = {
        "stSystemForwarding": ("TruthValue", None, "true"),
        "stSystemMode": ("INTEGER { off(0), safe(1), fast(2) }", None, "fast"),
        "stSystemLevel": ("Integer32 (-10..10)", "dB", "-3"),
        "stSystemSpeed": ("Unsigned32", "Mb/s", "10000"),
        "stSystemOctetsQueued": ("CounterBasedGauge64", "octets", None),
        "stSystemUptime": ("TimeTicks", None, "0"),
        "stSystemLastChange": ("TimeStamp", None, "0"),
        "stSystemStarted": ("DateAndTime", None, "'0000000000000000'H"),
        "stSystemVersion": ("DisplayString (SIZE (0..32))", None, '"v1.0 (build 7)"'),
        "stSystemCookie": ("OCTET STRING (SIZE (0..16))", None, "'0a1bff'H"),
        "stSystemRouterId": ("IpAddress", None, "'c0000201'H"),
        "stSystemPeerType": ("InetAddressType", None, "ipv6"),
        "stSystemPeer": ("InetAddress (SIZE (0 | 4 | 16))", None,
                         "'20010db8000000000000000000000001'H"),
        "stSystemMac": ("MacAddress", None, "'020000000001'H"),
        "stInfoLabel": ("DisplayString (SIZE (0..64))", None, '""'),
        "stInfoFlags": ("OCTET STRING (SIZE (0..3))", None, "''H"),
        "stInfoWeight": ("Unsigned32 (1..100)", None, "50"),
        "stInfoPhase": ("INTEGER {\n" + "".join(
            " " * 21 + "%s,\n" % v for v in ("initializing(1)", "negotiatingKeys(2)",
                                              "establishing(3)", "established(4)")) +
            " " * 21 + "tearingDown(5)\n" + " " * 17 + "}", None, "established"),
        "stPortRemoteType": ("InetAddressType", None, "unknown"),
        "stPortRemote": ("InetAddress (SIZE (0 | 4 | 16))", None, "''H"),
        "stPortLink": ("INTEGER { up(1), down(2), testing(3) }", None, "down"),
        "stPortPromiscuous": ("TruthValue", None, "false"),
        "stPortTemperature": ("Integer32", None, "0"),
        "stPortQueued": ("CounterBasedGauge64", None, None),
        "stPortAddress": ("IpAddress", None, "'00000000'H"),
        "stPortMac": ("MacAddress", None, "'000000000000'H"),
        "stLanePower": ("Integer32 (-40..10)", "dBm", "0"),
        "stTunnelMtu": ("Unsigned32 (576..9000)", "octets", "1500"),
        "stTunnelKey": ("OCTET STRING (SIZE (0..1024))", None, "''H"),
        "stSessionStatus": ("INTEGER {\n" + "".join(
            " " * 21 + "%s,\n" % v for v in ("unknown(-2147483648)", "closing(-1)", "idle(0)")) +
            " " * 21 + "busy(1)\n" + " " * 17 + "}", None, "idle"),
    }
    for name, (syntax, units, defval) in expect.items():
        assert got[name] == (syntax, units, "read-only", defval), (name, got[name])
    states = [n for n in got if n.startswith("st") and got[n][2] == "read-only" and
              not re.search(r"(Pkts|Drops|DiscontinuityTime|Reads|Updates|Dropped|"
                            r"WriterStatus)$", n)]
    assert len(states) == 13 + 1 + 4 + 13 + 1 + 2 + 6 + 1 + 2, states


def test_mib_states_imports(tmp_path):
    """IMPORTS exactly what the states use: Integer32, TimeTicks,
    IpAddress; DisplayString, DateAndTime, MacAddress; the notification
    macros; INET-ADDRESS-MIB and HCNUM-TC."""
    mib = outputs(STATES_MODEL, tmp_path)["STATES-TEST-MIB.txt"].decode()
    assert imports(mib) == {
        "SNMPv2-SMI": ["MODULE-IDENTITY", "OBJECT-TYPE", "NOTIFICATION-TYPE", "Counter64",
                       "Counter32", "Integer32", "Unsigned32", "TimeTicks", "IpAddress"],
        "SNMPv2-TC": ["TruthValue", "TimeStamp", "DisplayString", "DateAndTime",
                      "MacAddress"],
        "SNMPv2-CONF": ["MODULE-COMPLIANCE", "OBJECT-GROUP", "NOTIFICATION-GROUP"],
        "INET-ADDRESS-MIB": ["InetAddressType", "InetAddress"],
        "HCNUM-TC": ["CounterBasedGauge64"],
        "NET-SNMP-MIB": ["netSnmpExperimental"],
    }
    # one state type alone imports only its own names
    text = STATES_MODEL.read_text()
    head = text[:text.index("groups:")]
    for state, module, names in (
            ("{ name: s, oid: 1, type: gauge64, description: A gauge. }",
             "HCNUM-TC", ["CounterBasedGauge64"]),
            ("{ name: s, oid: 1, type: inet-address, description: An address. }",
             "INET-ADDRESS-MIB", ["InetAddressType", "InetAddress"]),
            ("{ name: s, oid: 1, type: enum, values: { a: 1 }, description: An enum. }",
             None, None)):
        model = tmp_path / "one.yaml"
        model.write_text(head + "groups:\n  - name: g\n    oid: 1\n    description: G.\n"
                         "    states:\n      - %s\n" % state)
        out = outputs(model, tmp_path / "one")
        got = imports(out["STATES-TEST-MIB.txt"].decode())
        assert got["SNMPv2-SMI"] == ["MODULE-IDENTITY", "OBJECT-TYPE", "Counter64"]
        assert got["SNMPv2-TC"] == ["TruthValue", "TimeStamp"]
        assert got["SNMPv2-CONF"] == ["MODULE-COMPLIANCE", "OBJECT-GROUP"]
        assert set(got) - {"SNMPv2-SMI", "SNMPv2-TC", "SNMPv2-CONF", "NET-SNMP-MIB"} == (
            {module} if module else set())
        if module:
            assert got[module] == names
        shutil.rmtree(tmp_path / "one")


def test_mib_states_oid_layout(tmp_path):
    """States at their arcs among the counters' (an inet-address at its arc
    and the next), the notifications at R.5.0.(1000 G + S), the module's
    NotificationsDropped at R.2.6 and the groups at R.3.2 (<fastmib/oidmap.h>),
    as net-snmp reads the MIB."""
    outputs(STATES_MODEL, tmp_path)
    expect = {
        "stSystemPkts": ".1.1.1", "stSystemForwarding": ".1.1.2", "stSystemPeerType": ".1.1.13",
        "stSystemPeer": ".1.1.14", "stSystemMac": ".1.1.15", "stInfoLabel": ".1.2.1",
        "stInfoPhase": ".1.2.4", "stPortRxPkts": ".1.3.1.1", "stPortName": ".1.3.1.2",
        "stPortRemoteType": ".1.3.1.3", "stPortRemote": ".1.3.1.4", "stPortDrops": ".1.3.1.5",
        "stPortLink": ".1.3.1.6", "stLaneActive": ".1.4.1.1", "stTunnelOperState": ".1.5.1.20",
        "stTunnelRemoteType": ".1.5.1.22", "stTunnelRemote": ".1.5.1.23",
        "stSessionStatus": ".1.6.1.1", "stNotificationsDropped": ".2.6",
        "stNotifications": ".5", "stStateNotifications": ".5.0",
        "stSystemModeChange": ".5.0.1003", "stSystemPeerChange": ".5.0.1013",
        "stInfoPhaseChange": ".5.0.2004", "stPortLinkChange": ".5.0.3006",
        "stTunnelOperStateChange": ".5.0.5020", "stTunnelRemoteChange": ".5.0.5022",
        "stStateNotificationGroup": ".3.2.1003", "stInfoGroup": ".3.2.2",
    }
    oids = translate(tmp_path, "STATES-TEST-MIB", "-IR", "-On", *expect).split()
    assert dict(zip(expect, oids)) == {k: ST_ROOT + v for k, v in expect.items()}


def test_mib_states_notifications_and_groups(tmp_path):
    """A notification per notify state, in OID order, OBJECTS the state (an
    inet-address's type, then its address), all in the state notification
    group, which the compliance requires; a group of states only has no
    Reset or DiscontinuityTime; the control group holds
    NotificationsDropped."""
    outputs(STATES_MODEL, tmp_path)
    mod = "STATES-TEST-MIB"
    mib = (tmp_path / f"{mod}.txt").read_text()
    notifs = re.findall(r"^(\w+) NOTIFICATION-TYPE", mib, re.M)
    assert notifs == ["stSystemModeChange", "stSystemSpeedChange", "stSystemLastChangeChange",
                      "stSystemPeerChange", "stInfoPhaseChange", "stPortLinkChange",
                      "stTunnelOperStateChange", "stTunnelRemoteChange",
                      "stTunnelEstablishedChange"]
    for name, objects in (("stSystemModeChange", ["stSystemMode"]),
                          ("stTunnelRemoteChange", ["stTunnelRemoteType", "stTunnelRemote"]),
                          ("stPortLinkChange", ["stPortLink"])):
        text = translate(tmp_path, mod, "-IR", "-Td", name)
        objs = re.search(r"OBJECTS\s*\{([^}]*)\}", text).group(1).split(",")
        assert [o.strip() for o in objs] == objects, name

    def members(kind, name):
        body = re.search(r"^%s %s\n.*?\{\n(.*?)\n    \}" % (name, kind), mib,
                         re.M | re.S).group(1)
        return [ln.strip().rstrip(",") for ln in body.splitlines()]
    assert members("NOTIFICATION-GROUP", "stStateNotificationGroup") == notifs
    assert members("MODULE-COMPLIANCE", "stCompliance")[-1] == "stStateNotificationGroup"
    assert members("OBJECT-GROUP", "stControlGroup")[-1] == "stNotificationsDropped"
    assert members("OBJECT-GROUP", "stInfoGroup") == [
        "stInfoLabel", "stInfoFlags", "stInfoWeight", "stInfoPhase"]
    assert members("OBJECT-GROUP", "stPortGroup")[:6] == [
        "stPortRxPkts", "stPortName", "stPortRemoteType", "stPortRemote", "stPortDrops",
        "stPortLink"]
    assert members("OBJECT-GROUP", "stPortGroup")[-2:] == [
        "stPortReset", "stPortDiscontinuityTime"]
    for g in ("Info", "Lane", "Session"):
        assert "st%sReset" % g not in mib and "st%sDiscontinuity" % g not in mib
    # the entries' SEQUENCEs in arc order, counters and states together
    seq = re.search(r"^StPortEntry ::= SEQUENCE \{\n(.*?)\n\}", mib, re.M | re.S).group(1)
    assert [ln.split()[0] for ln in seq.splitlines()][:7] == [
        "stPortRxPkts", "stPortName", "stPortRemoteType", "stPortRemote", "stPortDrops",
        "stPortLink", "stPortSpeed"]
    seq = re.search(r"^StLaneEntry ::= SEQUENCE \{\n(.*?)\n\}", mib, re.M | re.S).group(1)
    assert [" ".join(ln.split()).rstrip(",") for ln in seq.splitlines()] == [
        "stLaneActive TruthValue", "stLanePower Integer32", "stLanePort Unsigned32",
        "stLaneLane Unsigned32"]
    assert "-- Group info (states only)\n" in mib
    assert "-- Group session (states only, keyed table)\n" in mib


def test_names_states(tmp_path):
    """`--names` lists what states bring, each with its owner."""
    r = gen("--names", STATES_MODEL)
    assert r.returncode == 0, r.stderr
    lines = set(r.stdout.splitlines())
    for line in (
            "mib\tstNotificationsDropped\tthe module",
            "mib\tstNotifications\tthe module",
            "mib\tstStateNotifications\tthe module",
            "mib\tstStateNotificationGroup\tthe module",
            "c-tag\tst_tunnel_state\tgroup `tunnel`",
            "c-macro\tST_TUNNEL_STATE_SIZE\tgroup `tunnel`",
            "c-identifier\tst_tunnel_state_set\tgroup `tunnel`",
            "c-identifier\tst_tunnel_state_get\tgroup `tunnel`",
            "c-identifier\tst_tunnel_states\tgroup `tunnel`",
            "c-identifier\tst_tunnel_state_default\tgroup `tunnel`",
            "mib\tstTunnelOperState\tstate `operState` of group `tunnel`",
            "mib\tstTunnelOperStateChange\tstate `operState` of group `tunnel`",
            "c-identifier\tst_tunnel_oper_state_set\tstate `operState` of group `tunnel`",
            "c-macro\tST_TUNNEL_STATE_OPER_STATE_OFFSET\tstate `operState` of group `tunnel`",
            "c-identifier\tst_tunnel_oper_state_values\tstate `operState` of group `tunnel`",
            "c-macro\tST_TUNNEL_OPER_STATE_UP\tstate `operState` of group `tunnel`",
            "mib\tstTunnelRemoteType\tstate `remote` of group `tunnel`",
            "c-identifier\tst_system_mode_set\tstate `mode` of group `system`",
            "c-identifier\tst_port_row\tgroup `port`",
            "c-identifier\tst_lane_row\tgroup `lane`"):
        assert line in lines, line
    # a group of states only: none of a counter group's names
    for name in ("stInfoReset", "stLaneDiscontinuityTime", "ST_SESSION_OFFSET",
                 "ST_LANE_ROW_SIZE", "st_lane_row_checked", "st_tx_session",
                 "st_info_row", "st_session_counters", "stNotificationsDroppedX"):
        assert not [ln for ln in lines if ln.split("\t")[1] == name], name
    # without a notify state, none of its notification names
    text = STATES_MODEL.read_text().replace("notify: true", "notify: false")
    model = tmp_path / "quiet.yaml"
    model.write_text(text)
    listed = listed_names(model)["mib"]
    assert not {"stNotifications", "stStateNotifications", "stStateNotificationGroup",
                "stNotificationsDropped", "stTunnelOperStateChange"} & listed


def test_ccode_states_header(tmp_path):
    """The state structs and the calls: a row parameter in tables only, one
    setter per state taking its C type (strings, octets and addresses by
    pointer), each one call of the library with the group, row and state."""
    h = outputs(STATES_MODEL, tmp_path)["st_stats.h"].decode()
    struct = re.search(r"\nstruct st_tunnel_state \{\n(.*?)\n\};\n", h, re.S).group(1)
    assert [ln.strip() for ln in struct.splitlines() if not ln.strip().startswith(
        ("/*", "*"))] == ["int32_t oper_state;", "char label[32 + 1];",
                          "struct fastmib_inet_address remote;", "int64_t established;",
                          "uint32_t mtu;", "struct {", "uint16_t len;",
                          "uint8_t octets[1024];", "} key;"]
    struct = re.search(r"\nstruct st_system_state \{\n(.*?)\n\};\n", h, re.S).group(1)
    decls = [ln.strip() for ln in struct.splitlines() if not ln.strip().startswith(("/*", "*"))]
    assert decls[:8] == ["bool forwarding;", "int32_t mode;", "int32_t level;",
                         "uint32_t speed;", "uint64_t octets_queued;", "uint32_t uptime;",
                         "uint64_t last_change;", "int64_t started;"]
    assert decls[-3:] == ["uint8_t router_id[4];", "struct fastmib_inet_address peer;",
                          "uint8_t mac[6];"]
    for define in ("ST_SYSTEM_MODE_FAST 2", "ST_SYSTEM_MODE_OFF 0",
                   "ST_SESSION_STATUS_CLOSING (-1)",
                   "ST_SESSION_STATUS_UNKNOWN (-2147483647 - 1)",
                   "ST_TUNNEL_STATE_OPER_STATE_OFFSET 0u", "ST_SYSTEM_STATE_SIZE 128u"):
        assert "\n#define %s\n" % define in h, define
    assert ("ST_STATIC_ASSERT(sizeof(struct st_tunnel_state) == ST_TUNNEL_STATE_SIZE,\n"
            "\t\"tunnel state size\");") in h
    assert c_body(h, "st_system_state_set") == (
        "struct fastmib_segment *seg, const struct st_system_state *st",
        "return fastmib_state_set(seg, ST_GROUP_SYSTEM, 0u, st);")
    assert c_body(h, "st_tunnel_state_get") == (
        "struct fastmib_segment *seg, uint32_t row, struct st_tunnel_state *out",
        "return fastmib_state_get(seg, ST_GROUP_TUNNEL, row, out);")
    assert c_body(h, "st_tunnel_oper_state_set") == (
        "struct fastmib_segment *seg, uint32_t row, int32_t value",
        "return fastmib_state_set_one(seg, ST_GROUP_TUNNEL, row, 0u, &value);")
    assert c_body(h, "st_tunnel_label_set") == (
        "struct fastmib_segment *seg, uint32_t row, const char *value",
        "return fastmib_state_set_text(seg, ST_GROUP_TUNNEL, row, 1u, value);")
    assert c_body(h, "st_tunnel_remote_set") == (
        "struct fastmib_segment *seg, uint32_t row, const struct fastmib_inet_address *value",
        "return fastmib_state_set_one(seg, ST_GROUP_TUNNEL, row, 2u, value);")
    assert c_body(h, "st_tunnel_key_set") == (
        "struct fastmib_segment *seg, uint32_t row, const void *octets, size_t len",
        "return fastmib_state_set_octets(seg, ST_GROUP_TUNNEL, row, 5u, octets, len);")
    assert c_body(h, "st_system_forwarding_set") == (
        "struct fastmib_segment *seg, bool value",
        "return fastmib_state_set_one(seg, ST_GROUP_SYSTEM, 0u, 0u, &value);")
    assert c_body(h, "st_port_address_set") == (
        "struct fastmib_segment *seg, uint32_t row, const uint8_t value[4]",
        "return fastmib_state_set_one(seg, ST_GROUP_PORT, row, 11u, value);")
    assert c_body(h, "st_port_mac_set")[0] == (
        "struct fastmib_segment *seg, uint32_t row, const uint8_t value[6]")
    assert c_body(h, "st_system_started_set")[0] == "struct fastmib_segment *seg, int64_t value"
    assert c_body(h, "st_system_last_change_set")[0] == (
        "struct fastmib_segment *seg, uint64_t value")
    # a dense table of states only keeps its row function; no update of it
    assert "\nst_lane_row(" in h and "\nst_lane_row_checked(" not in h
    assert "struct st_lane_row" not in h and "ST_LANE_OFFSET" not in h
    assert "st_session_insert(" in h and "st_tx_session" not in h
    section = h[h.index("/* ---- group system: states ---- */"):]
    assert max(len(line.expandtabs(8)) for line in section.splitlines()) <= 80


@pytest.mark.parametrize("cxx", ["g++", "clang++"])
def test_ccode_states_header_as_cpp(cxx, tmp_path):
    """The header with states compiles as C++17 without a warning (bool,
    the octet-string's struct, the layout assertions)."""
    outputs(STATES_MODEL, tmp_path / "gen")
    dpdk = subprocess.run(["pkg-config", "--cflags", "libdpdk"], capture_output=True,
                          text=True, check=True).stdout.split()
    code = ('#include "st_stats.h"\nint f(struct fastmib_segment *s);\n'
            'int f(struct fastmib_segment *s)\n{\n\tstruct st_system_state st;\n'
            '\treturn st_system_state_get(s, &st) | st_system_forwarding_set(s, true) |\n'
            '\t       st_system_cookie_set(s, "ab", 2) | st_tunnel_mtu_set(s, 1, 1500);\n}\n')
    r = subprocess.run([cxx, "-std=c++17", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror",
                        "-DALLOW_EXPERIMENTAL_API", "-I%s" % (SRC / "include"),
                        "-I%s" % (tmp_path / "gen"), *dpdk, "-c", "-x", "c++", "-", "-o",
                        str(tmp_path / "x.o")], input=code, capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode, r.stderr) == (0, "")


def test_ccode_states_layout_asserts_bite(tmp_path):
    """The header's assertions tie each state struct to
    fastmib_state_layout(): a layout constant that disagrees with the
    compiler's layout stops the build with the assertion's message."""
    outputs(STATES_MODEL, tmp_path / "gen")
    header = (tmp_path / "gen" / "st_stats.h").read_text()
    code = '#include "st_stats.h"\n'
    r = c_compile(tmp_path / "gen", code, tmp_path / "ok.o")
    assert r.returncode == 0, r.stderr
    mtu = re.search(r"#define ST_TUNNEL_STATE_MTU_OFFSET (\d+)u", header).group(1)
    for old, new, message in (
            ("#define ST_TUNNEL_STATE_MTU_OFFSET %su" % mtu,
             "#define ST_TUNNEL_STATE_MTU_OFFSET %du" % (int(mtu) + 4),
             "tunnel state: mtu offset"),
            ("#define ST_SYSTEM_STATE_SIZE 128u", "#define ST_SYSTEM_STATE_SIZE 124u",
             "system state size")):
        bad = tmp_path / ("bad-" + re.sub(r"\W", "-", message))
        bad.mkdir()
        assert old in header
        (bad / "st_stats.h").write_text(header.replace(old, new))
        r = c_compile(bad, code, bad / "x.o")
        assert r.returncode != 0
        assert message in r.stderr, r.stderr


def test_ccode_states_schema_defaults(tmp_path):
    """schema.c gives each default as a C value of the group's state struct
    (the bytes are the compiling machine's), NULL where it is zero, and
    enum values by their constants."""
    c = outputs(STATES_MODEL, tmp_path)["st_schema.c"].decode()
    defaults = re.search(r"\nstatic const struct st_system_state st_system_state_default = "
                         r"\{\n(.*?)\n\};\n", c, re.S).group(1)
    assert [ln.strip() for ln in defaults.splitlines()] == [
        ".forwarding = true,", ".mode = ST_SYSTEM_MODE_FAST,", ".level = -3,",
        ".speed = 10000u,", ".octets_queued = 5000000000ull,",
        '.version = "v1.0 (build 7)",', ".cookie = { 3u, { 0x0a, 0x1b, 0xff } },",
        ".router_id = { 192, 0, 2, 1 },", ".peer = { 2u, {",
        "0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,",
        "0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,", "} },",
        ".mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 },"]
    assert "\t\t.def = &st_system_state_default.mode,\n" in c
    assert "st_lane_state_default" not in c        # false and 0: NULL
    assert "\t{ \"closing\", ST_SESSION_STATUS_CLOSING },\n" in c
    assert ("\t\t.n_states = 6u,\n\t\t.states = st_tunnel_states,\n"
            "\t\t.state_size = ST_TUNNEL_STATE_SIZE,\n") in c
    # a group of states only: no storage, no counters, no place in an area
    info = re.search(r'\t\t\.name = "info",\n(.*?)\n\t\},', c, re.S).group(1)
    assert "storage" not in info and "counters" not in info and "row_size" not in info


def test_errors_states_several_in_one_run(tmp_path):
    """Independent faults of states in three groups, from the loader and
    from the schema rules, all in one run, in file order, each at its
    node."""
    text = STATES_MODEL.read_text()
    text = text.replace("type: timeticks, description: How long it has run.",
                        "type: timeticks, units: cs, default: -1, description: How long.")
    text = text.replace("{ name: flags, oid: 2, type: octet-string, size: 3,",
                        "{ name: flags, oid: 2, type: octet-string, size: 3, notify: true,")
    text = text.replace("{ name: mtu, oid: 25,", "{ name: mtu, oid: 23,")
    model = tmp_path / "s.yaml"
    model.write_text(text)
    r = gen("--check", model.name, cwd=tmp_path)
    assert r.returncode == 2
    lines = text.splitlines()

    def at(needle, word):
        n = next(i for i, ln in enumerate(lines) if needle in ln)
        return "%d:%d" % (n + 1, lines[n].index(word, lines[n].index(needle)) + 1)
    # the loader's error stops before the schema: fix it, then see those
    assert r.stderr.splitlines() == [
        "s.yaml:%s: error: `default` must be a decimal integer, not `-1`"
        % at("default: -1", "-1")]
    model.write_text(text.replace("default: -1, ", ""))
    r = gen("--check", model.name, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "s.yaml:%s: error: a state of type octet-string cannot `notify` (strings never do)"
        % at("flags, oid: 2", "true"),
        "s.yaml:%s: error: duplicate state oid 23 in group (the inet-address state `remote` "
        "at line %d takes oids 22 and 23)" % (at("{ name: mtu, oid: 23", "{"),
                                              1 + next(i for i, ln in enumerate(lines)
                                                       if "name: remote, oid: 22" in ln)),
    ]
    assert "timeticks" not in r.stderr    # units on a number are fine


def test_exporter_states():
    """The snmp_exporter module lists a scalar group's states beside its
    counters (an inet-address's type too), walks tables whole and
    sysUpTime beside timestamp states; reads enum and truth-value states
    as state sets, gauge64 states as gauges, date-and-time states as
    DateAndTime, ignores the InetAddressType of inet-address states; makes
    each walked table's display-string states labels of its rows; and
    names no Reset or DiscontinuityTime of a group of states only."""
    text = exporter_module(STATES_MODEL)
    mod = yaml.safe_load(text)["modules"]["states_test_mib"]
    walk = mod["walk"]
    assert walk[:walk.index("stSystemDiscontinuityTime") + 1] == [
        "stSystemPkts", "stSystemForwarding", "stSystemMode", "stSystemLevel", "stSystemSpeed",
        "stSystemOctetsQueued", "stSystemUptime", "stSystemLastChange", "stSystemStarted",
        "stSystemVersion", "stSystemCookie", "stSystemRouterId", "stSystemPeerType",
        "stSystemPeer", "stSystemMac", "stSystemDiscontinuityTime"]
    assert ["stInfoLabel", "stInfoFlags", "stInfoWeight", "stInfoPhase", "stPortTable"] == \
        walk[walk.index("stInfoLabel"):walk.index("stPortTable") + 1]
    assert walk[walk.index("stDiscontinuityTime"):] == [
        "stDiscontinuityTime", "stWriterStatus", "stBestEffortReads", "stOutOfRangeUpdates",
        "sysUpTime", "stNotificationsDropped"]
    over = mod["overrides"]
    states = {o: v for o, v in over.items() if not re.search(
        r"(Reset|ResetAll|DiscontinuityTime|WriterStatus|PortId|LanePort|LaneLane|"
        r"TunnelEndpoint|TunnelEndpointType|TunnelTeid|SessionUser)$", o)}
    assert states == {
        "stSystemForwarding": {"type": "EnumAsStateSet"},
        "stPortPromiscuous": {"type": "EnumAsStateSet"},
        "stLaneActive": {"type": "EnumAsStateSet"},
        "stSystemMode": {"type": "EnumAsStateSet"},
        "stInfoPhase": {"type": "EnumAsStateSet"},
        "stPortLink": {"type": "EnumAsStateSet"},
        "stTunnelOperState": {"type": "EnumAsStateSet"},
        "stSessionStatus": {"type": "EnumAsStateSet"},
        "stSystemOctetsQueued": {"type": "gauge"},
        "stPortQueued": {"type": "gauge"},
        "stSystemStarted": {"type": "DateAndTime"},
        "stPortSince": {"type": "DateAndTime"},
        "stTunnelEstablished": {"type": "DateAndTime"},
        "stSystemPeerType": {"ignore": True},
        "stPortRemoteType": {"ignore": True},
        "stTunnelRemoteType": {"ignore": True},
    }
    assert mod["lookups"] == [
        {"source_indexes": ["stPortPortId"], "lookup": "stPortName"},
        {"source_indexes": ["stTunnelEndpoint", "stTunnelTeid"], "lookup": "stTunnelLabel"}]
    for g in ("Info", "Lane", "Session"):
        assert not [o for o in list(over) + walk if o.startswith("st%sReset" % g) or
                    o.startswith("st%sDiscontinuity" % g)]
    assert px.needed_mibs(text)[-3:] == ["INET-ADDRESS-MIB", "HCNUM-TC", "SNMPv2-MIB"]
    # sysUpTime (SNMPv2-MIB) only for a model with a timestamp state: the
    # example's epServerLastSeen
    for model in EXPORTED:
        assert ("SNMPv2-MIB" in px.needed_mibs(exporter_module(model))) == \
            (model in (STATES_MODEL, EXAMPLE)), model


@pytest.mark.parametrize("max_rows, lookups", [
    ("1024", ["stPortName", "stTunnelLabel"]),
    ("1023", ["stPortName"]),   # tunnel: capacity 1024, not walked
    ("3", None),                # port: 4 rows, not walked either: no lookups at all
])
def test_exporter_states_lookups_only_for_walked_tables(max_rows, lookups):
    mod = yaml.safe_load(exporter_module(STATES_MODEL, "--snmp-exporter-max-rows", max_rows))
    mod = mod["modules"]["states_test_mib"]
    assert ([lk["lookup"] for lk in mod["lookups"]] if "lookups" in mod else None) == lookups


def test_exporter_states_snmp_yml_types(tmp_path):
    """What prometheus-snmp-generator makes of each state: its metric type
    in snmp.yml by the state's type, every state of the model a metric
    (an inet-address its address only), the labels of every metric of the
    port and tunnel rows looked up."""
    outputs(STATES_MODEL, tmp_path / "out")
    text = exporter_module(STATES_MODEL)
    mibdir = px.mib_dir(str(tmp_path / "mibs"), px.needed_mibs(text),
                        [str(tmp_path / "out"), BASE_MIBS, NETSNMP_MIBS, TEST_MIBS])
    config, log = px.generate(str(tmp_path), text, mibdir)
    assert "level=warn" not in log, log
    metrics = {m["name"]: m for m in yaml.safe_load(open(config))["states_test_mib"]["metrics"]}
    kind = {"truth-value": "EnumAsStateSet", "enum": "EnumAsStateSet", "integer32": "gauge",
            "unsigned32": "gauge", "gauge64": "gauge", "timeticks": "gauge",
            "timestamp": "gauge", "date-and-time": "DateAndTime",
            "display-string": "DisplayString", "octet-string": "OctetString",
            "ipv4": "InetAddressIPv4", "inet-address": "InetAddress", "mac": "PhysAddress48"}
    model = yaml.load(STATES_MODEL.read_text(), Loader=yaml.BaseLoader)
    seen = 0
    for g in model["groups"]:
        for st in g.get("states", []):
            name = "st" + "".join(n[0].upper() + n[1:] for n in (g["name"], st["name"]))
            assert metrics[name]["type"] == kind[st["type"]], name
            assert name + "Type" not in metrics, name
            looked_up = [lk["labelname"] for lk in metrics[name].get("lookups", [])]
            assert looked_up == {"port": ["stPortName"], "tunnel": ["stTunnelLabel"]}.get(
                g["name"], []), name
            seen += 1
    assert seen == 13 + 4 + 13 + 2 + 6 + 2
    assert metrics["sysUpTime"]["type"] == "gauge"
    for name in ("stPortRxPkts", "stPortDiscontinuityTime"):
        assert [lk["labelname"] for lk in metrics[name]["lookups"]] == ["stPortName"]
    assert [lk["labelname"] for lk in metrics["stTunnelPkts"]["lookups"]] == ["stTunnelLabel"]


# ---- histograms and peaks ----

HIST_MODEL = HERE / "models" / "histograms.yaml"
HG_ROOT = ".1.3.6.1.4.1.8072.9999.63"


def test_mib_histograms_oid_layout(tmp_path):
    """A histogram's count at its arc and its sum at the next, a peak at its
    arc, among the group's objects; its bucket table at R.1.(1000 G + H),
    entry .1, columns Bucket 1, BucketLe 2, BucketCount 3
    (<fastmib/oidmap.h>), as net-snmp reads the MIB."""
    outputs(HIST_MODEL, tmp_path)
    expect = {
        "hgSystemPkts": ".1.1.1", "hgSystemLatencyCount": ".1.1.2",
        "hgSystemLatencySum": ".1.1.3", "hgSystemBurstCount": ".1.1.4",
        "hgSystemBurstSum": ".1.1.5", "hgSystemQueueDepth": ".1.1.6",
        "hgSystemLatencyBucketTable": ".1.1002", "hgSystemLatencyBucketEntry": ".1.1002.1",
        "hgSystemLatencyBucket": ".1.1002.1.1", "hgSystemLatencyBucketLe": ".1.1002.1.2",
        "hgSystemLatencyBucketCount": ".1.1002.1.3", "hgSystemBurstBucketTable": ".1.1004",
        "hgPortSizeCount": ".1.2.1.2", "hgPortSizeSum": ".1.2.1.3",
        "hgPortPeakBurst": ".1.2.1.4", "hgPortSizeBucketTable": ".1.2002",
        "hgPortSizeBucketCount": ".1.2002.1.3", "hgFlowGapCount": ".1.3.1.3",
        "hgFlowGapSum": ".1.3.1.4", "hgFlowMaxGap": ".1.3.1.5",
        "hgFlowGapBucketTable": ".1.3003", "hgFlowGapBucketLe": ".1.3003.1.2",
        "hgSystemGroup": ".3.2.1",
    }
    oids = translate(tmp_path, "HISTOGRAMS-TEST-MIB", "-IR", "-On", *expect).split()
    assert dict(zip(expect, oids)) == {k: HG_ROOT + v for k, v in expect.items()}
    # instances: the group's index, then the bucket number
    decoded = translate(tmp_path, "HISTOGRAMS-TEST-MIB", "-OX",
                        HG_ROOT + ".1.2002.1.3.4.2.33", HG_ROOT + ".1.1002.1.2.10",
                        HG_ROOT + ".1.3003.1.3.1.4.10.0.0.1.7.33").split("\n")
    assert [d for d in decoded if d] == [
        "HISTOGRAMS-TEST-MIB::hgPortSizeBucketCount[4][2][33]",
        "HISTOGRAMS-TEST-MIB::hgSystemLatencyBucketLe[10]",
        'HISTOGRAMS-TEST-MIB::hgFlowGapBucketCount[ipv4]["...."][7][33]']


def test_mib_histograms_clauses(tmp_path):
    """SYNTAX, UNITS and access of every object of histograms and peaks;
    INDEX clauses of the bucket tables (the group's index objects, then
    the bucket number); the bucket tables' objects in their group's
    OBJECT-GROUP; CounterBasedGauge64 from HCNUM-TC."""
    mib = outputs(HIST_MODEL, tmp_path)["HISTOGRAMS-TEST-MIB.txt"].decode()
    got = mib_clauses(mib)
    expect = {
        "hgSystemLatencyCount": ("Counter64", None, "read-only"),
        "hgSystemLatencySum": ("Counter64", "nanoseconds", "read-only"),
        "hgSystemQueueDepth": ("CounterBasedGauge64", "packets", "read-only"),
        "hgSystemLatencyBucket": ("Unsigned32 (1..10)", None, "not-accessible"),
        "hgSystemLatencyBucketLe": ("CounterBasedGauge64", "nanoseconds", "read-only"),
        "hgSystemLatencyBucketCount": ("Counter64", None, "read-only"),
        "hgSystemBurstBucket": ("Unsigned32 (1..5)", None, "not-accessible"),
        "hgPortSizeBucket": ("Unsigned32 (1..33)", None, "not-accessible"),
        "hgPortPeakBurst": ("CounterBasedGauge64", "packets", "read-only"),
        "hgFlowGapBucket": ("Unsigned32 (1..33)", None, "not-accessible"),
        "hgFlowMaxGap": ("CounterBasedGauge64", "microseconds", "read-only"),
    }
    for name, (syntax, units, access) in expect.items():
        assert got[name] == (syntax, units, access, None), (name, got[name])
    indexes = dict(re.findall(r"^(\w+BucketEntry) OBJECT-TYPE\n.*?INDEX\s+\{([^}]*)\}",
                              mib, re.M | re.S))
    assert {k: " ".join(v.replace(",", " ").split()) for k, v in indexes.items()} == {
        "hgSystemLatencyBucketEntry": "hgSystemLatencyBucket",
        "hgSystemBurstBucketEntry": "hgSystemBurstBucket",
        "hgPortSizeBucketEntry": "hgPortPortId hgPortV hgPortSizeBucket",
        "hgFlowGapBucketEntry": "hgFlowPeerType hgFlowPeer hgFlowTeid hgFlowGapBucket"}
    assert imports(mib)["HCNUM-TC"] == ["CounterBasedGauge64"]
    assert "Unsigned32" in imports(mib)["SNMPv2-SMI"]
    group = re.search(r"^hgSystemGroup OBJECT-GROUP\n.*?\{\n(.*?)\n    \}", mib,
                      re.M | re.S).group(1)
    assert [ln.strip().rstrip(",") for ln in group.splitlines()] == [
        "hgSystemPkts", "hgSystemLatencyCount", "hgSystemLatencySum", "hgSystemBurstCount",
        "hgSystemBurstSum", "hgSystemQueueDepth", "hgSystemReset",
        "hgSystemDiscontinuityTime", "hgSystemLatencyBucketLe",
        "hgSystemLatencyBucketCount", "hgSystemBurstBucketLe", "hgSystemBurstBucketCount"]
    seq = re.search(r"^HgPortSizeBucketEntry ::= SEQUENCE \{\n(.*?)\n\}", mib,
                    re.M | re.S).group(1)
    assert [" ".join(ln.split()).rstrip(",") for ln in seq.splitlines()] == [
        "hgPortSizeBucket Unsigned32", "hgPortSizeBucketLe CounterBasedGauge64",
        "hgPortSizeBucketCount Counter64"]
    # the bounds in words, in the table's description
    assert "bounds are the powers of two 2^4 (16) to 2^12 (4096)" in " ".join(mib.split())
    assert "bounds are 0, 1, 8, 32." in " ".join(mib.split())


def test_names_histograms(tmp_path):
    """`--names` lists a histogram's and a peak's names with their owner;
    a histogram has no object or update function of its own name."""
    r = gen("--names", HIST_MODEL)
    assert r.returncode == 0, r.stderr
    lines = set(r.stdout.splitlines())
    own = "histogram `size` of group `port`"
    for line in (
            "mib\thgPortSizeCount\t" + own, "mib\thgPortSizeSum\t" + own,
            "mib\thgPortSizeBucketTable\t" + own, "mib\thgPortSizeBucketEntry\t" + own,
            "mib\thgPortSizeBucket\t" + own, "mib\thgPortSizeBucketLe\t" + own,
            "mib\thgPortSizeBucketCount\t" + own,
            "mib-type\tHgPortSizeBucketEntry\t" + own,
            "c-macro\tHG_PORT_SIZE_BUCKETS\t" + own,
            "c-identifier\thg_port_size_bucket\t" + own,
            "c-identifier\thg_port_size_bounds\t" + own,
            "c-identifier\thg_port_size_observe\t" + own,
            "c-identifier\thg_tx_port_size_observe\t" + own,
            "c-identifier\thg_port_ref_size_observe\t" + own,
            "mib\thgPortPeakBurst\tpeak `peakBurst` of group `port`",
            "c-identifier\thg_port_peak_burst_peak\tpeak `peakBurst` of group `port`",
            "c-identifier\thg_tx_port_peak_burst_peak\tpeak `peakBurst` of group `port`",
            "c-identifier\thg_port_ref_peak_burst_peak\tpeak `peakBurst` of group `port`",
            "c-identifier\thg_tx_system_latency_observe\thistogram `latency` of group `system`"):
        assert line in lines, line
    names = {ln.split("\t")[1] for ln in lines}
    for name in ("hgPortSize", "hg_port_size_add", "hg_port_peak_burst_add",
                 "hg_system_latency_add", "hg_system_ref_latency_observe"):
        assert name not in names, name


def bucket_of(bounds, v):
    """The bucket of v: the first bound it does not exceed, else the last."""
    return next((i for i, b in enumerate(bounds) if v <= b), len(bounds))


def check_buckets(model_path, prefix, tmp_path, cc="cc"):
    """Compile the bucket functions of every histogram of a model and
    compare them with the model's bounds at every bound, next to it, at 0
    and 2^64 - 1; returns the number of histograms."""
    outputs(model_path, tmp_path / "gen")
    model = yaml.load(model_path.read_text(), Loader=yaml.BaseLoader)
    hists = []
    for g in model["groups"]:
        for c in g["counters"]:
            if c["type"] != "histogram":
                continue
            if "log2" in c:
                lo, hi = (int(x) for x in c["log2"])
                bounds = [1 << e for e in range(lo, hi + 1)]
            else:
                bounds = [int(b) for b in c["bounds"]]
            fn = "%s_%s_%s_bucket" % (prefix, re.sub(r"([A-Z])", r"_\1", g["name"]).lower(),
                                      re.sub(r"([A-Z])", r"_\1", c["name"]).lower())
            hists.append((fn, bounds))
    values = {0, 1, 2, 3, 2**63, 2**63 + 1, 2**64 - 1, 123456789}
    for _, bounds in hists:
        for b in bounds:
            values |= {b, b + 1, max(b - 1, 0)} - {2**64}
    values = sorted(values)
    code = ['#include <inttypes.h>', '#include <stdio.h>', '#include "%s_stats.h"' % prefix,
            "static const uint64_t values[] = {",
            ",\n".join("\t%du" % v if v < 2**32 else "\t%dull" % v for v in values) + "\n};",
            "int main(void)\n{",
            "\tfor (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {"]
    code += ['\t\tprintf("%%u ", %s(values[i]));' % fn for fn, _ in hists]
    code += ['\t\tprintf("\\n");', "\t}", "\treturn 0;\n}"]
    dpdk = subprocess.run(["pkg-config", "--cflags", "libdpdk"], capture_output=True,
                          text=True, check=True).stdout.split()
    r = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror",
                        "-DALLOW_EXPERIMENTAL_API", "-I%s" % (SRC / "include"),
                        "-I%s" % (tmp_path / "gen"), *dpdk, "-x", "c", "-", "-o",
                        str(tmp_path / "buckets")], input="\n".join(code) + "\n",
                       capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stderr) == (0, "")
    out = subprocess.run([str(tmp_path / "buckets")], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert len(out) == len(values)
    for v, line in zip(values, out):
        assert [int(x) for x in line.split()] == [bucket_of(b, v) for _, b in hists], v
    return len(hists)


def test_ccode_histograms_buckets(tmp_path):
    """The generated bucket functions (log2: a count of leading zeros and a
    clamp; few bounds: a sum of compares; 32 bounds: a binary search) give
    each value the bucket the model's bounds say, at every bound, next to
    it, at 0 and 2^64 - 1."""
    assert check_buckets(HIST_MODEL, "hg", tmp_path) == 4


@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_ccode_log2_buckets_edges(cc, tmp_path):
    """log2 bounds at the ends of their range (lo 0, whose operand is
    doubled; lo 1, no low bits to set but one; hi 63, whose clamp is 2^63;
    two bounds; 32 bounds) give every value the bucket its bounds say."""
    pairs = [(0, 1), (0, 31), (1, 2), (1, 32), (2, 33), (31, 62), (32, 63), (62, 63),
             (4, 12), (40, 63)]
    counters = "\n".join(
        "      - { name: h%d, oid: %d, type: histogram, log2: [%d, %d], description: H. }"
        % (i, 2 * i + 1, lo, hi) for i, (lo, hi) in enumerate(pairs))
    model = tmp_path / "edges.yaml"
    model.write_text(HIST_MODEL.read_text().split("groups:")[0] + "groups:\n"
                     "  - name: sys\n    oid: 1\n    storage: per-core\n"
                     "    description: Edges.\n    counters:\n" + counters + "\n")
    assert check_buckets(model, "hg", tmp_path, cc=cc) == len(pairs)


@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_ccode_histograms_no_branch(cc, tmp_path):
    """The bucket of an observation is found without a branch or a loop,
    whatever the bounds (log2, a sum of compares, a binary search), and an
    observation in the transaction form is the bucket, then three adds:
    objdump shows no jump in any of them."""
    outputs(HIST_MODEL, tmp_path / "gen")
    code = ('#include "hg_stats.h"\n'
            "uint32_t f_log2(uint64_t v);\nuint32_t f_few(uint64_t v);\n"
            "uint32_t f_many(uint64_t v);\nvoid f_obs(struct hg_tx *tx, uint64_t v);\n"
            "uint32_t f_log2(uint64_t v)\n{\n\treturn hg_system_latency_bucket(v);\n}\n"
            "uint32_t f_few(uint64_t v)\n{\n\treturn hg_system_burst_bucket(v);\n}\n"
            "uint32_t f_many(uint64_t v)\n{\n\treturn hg_port_size_bucket(v);\n}\n"
            "void f_obs(struct hg_tx *tx, uint64_t v)\n{\n"
            "\thg_tx_system_latency_observe(tx, v);\n}\n")
    r = c_compile(tmp_path / "gen", code, tmp_path / "f.o", cc=cc)
    assert (r.returncode, r.stderr) == (0, "")
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(tmp_path / "f.o")],
                         capture_output=True, text=True, check=True).stdout
    for fn in ("f_log2", "f_few", "f_many", "f_obs"):
        body = re.search(r"<%s>:\n(.*?)(?:\n\n|\Z)" % fn, dis, re.S).group(1)
        assert "ret" in body, (fn, body)
        jumps = [ln for ln in body.splitlines() if re.search(r"\sj[a-z]+\s", ln)]
        assert not jumps, (fn, jumps)
