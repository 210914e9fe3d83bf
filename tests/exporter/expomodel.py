# SPDX-License-Identifier: BSD-3-Clause
"""What the exporter's tests expect of a model, derived here on their own
(not through the exporter's code): metric names from the model's names,
and the series of every counter instance fm-writer says SNMP serves."""
import os
import re

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
EXAMPLE = os.path.join(TOP, "examples", "dataplane.yaml")
KEYED = os.path.join(TOP, "tests", "codegen", "keyed", "keyed.yaml")


def snake(name):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def load_model(path):
    with open(path) as f:
        return yaml.safe_load(f)


def prom_type(c):
    """The Prometheus type of a model's counter: a Gauge32 and a peak (a
    level) gauges, a histogram Prometheus' histogram, others counters."""
    return {"gauge32": "gauge", "peak": "gauge", "histogram": "histogram"}.get(
        c["type"], "counter")


def metric_name(model, g, c):
    """The name Prometheus stores a counter's samples under: the snake_case
    of <prefix><Group><Counter>, counters with _total; a histogram's
    family name (its samples _bucket, _count and _sum)."""
    return "%s_%s_%s%s" % (model["module"]["prefix"], snake(g["name"]), snake(c["name"]),
                           "_total" if prom_type(c) == "counter" else "")


def families(model):
    """{metric family as stored: (TYPE, HELP)} of every counter of a model,
    named independently of the exporter's code (metric_name())."""
    return {metric_name(model, g, c): (prom_type(c), c["description"])
            for g in model["groups"] for c in g.get("counters", [])}


def stored_names(metric, typ):
    """The series names Prometheus stores for a family of type `typ`."""
    if typ == "histogram":
        return [metric + "_bucket", metric + "_count", metric + "_sum"]
    return [metric]


def example_want(model, exp):
    """metric -> {labels: value} of every counter instance fm-writer says
    SNMP serves: its OID gives the group, counter and index, the index the
    labels (an integer index by its value, a keyed row by its key)."""
    want = {}
    buckets = {}
    for o in exp["objects"]:
        s = oid_series(model, exp, o["oid"])
        if s:
            want.setdefault(s[0], {})[s[1]] = int(o["value"])
        b = bucket_of_oid(model, exp, o["oid"])
        if b:
            name, labels, bucket, col = b
            buckets.setdefault((name, labels), {}).setdefault(bucket, {})[col] = int(o["value"])
    # buckets cumulative, as Prometheus has them: le the bound, +Inf last
    for (name, labels), rows in buckets.items():
        cum = 0
        for n in sorted(rows):
            cum += rows[n][3]
            le = "+Inf" if n == max(rows) else str(rows[n][2])
            want.setdefault(name + "_bucket", {})[labels + (("le", le),)] = cum
    return want


def bucket_of_oid(model, exp, oid):
    """(histogram family, row labels, bucket number, column) of a bucket
    table's instance: R.1.(1000 G + H).1.column.index.bucket; or None."""
    root = exp["root"] + ".1."
    if not oid.startswith(root):
        return None
    arcs = [int(x) for x in oid[len(root):].split(".")]
    if arcs[0] < 1000:
        return None
    g = next(g for g in model["groups"] if g["oid"] == arcs[0] // 1000)
    c = next(c for c in g["counters"] if c["oid"] == arcs[0] % 1000)
    return (metric_name(model, g, c), row_labels(model, exp, g, arcs[3:-1]), arcs[-1], arcs[2])


def oid_series(model, exp, oid):
    """(metric, labels) of the counter instance at `oid`, or None (not a
    counter: a state, a reset, a discontinuity, the control objects)."""
    root = exp["root"] + ".1."
    keys = {}
    for gname, k in exp["keyed"].items():
        names = [snake(i["name"]) for i in k["indexes"]]
        for key in k["keys"]:
            keys[(gname, tuple(key["index"]))] = tuple(
                zip(names, [str(v) for v in key["key"]]))
    if not oid.startswith(root):
        return None
    arcs = [int(x) for x in oid[len(root):].split(".")]
    if arcs[0] >= 1000:
        return None  # a bucket table: bucket_of_oid()
    g = next(g for g in model["groups"] if g["oid"] == arcs[0])
    table = "table" in g
    carc, index = (arcs[2], arcs[3:]) if table else (arcs[1], [])
    suffix = ""
    c = next((c for c in g.get("counters", []) if c["oid"] == carc), None)
    if c is None:
        # a histogram's sum, at the arc after its count's
        c = next((c for c in g.get("counters", []) if c["oid"] + 1 == carc and
                  c["type"] == "histogram"), None)
        suffix = "_sum"
    elif c["type"] == "histogram":
        suffix = "_count"
    if c is None:
        return None
    return metric_name(model, g, c) + suffix, row_labels(model, exp, g, index, keys)


def row_labels(model, exp, g, index, keys=None):
    """The labels of the row of group g at SNMP index `index`."""
    if "table" not in g:
        return ()
    if keys is None:
        return index_labels(model, exp, g, index)
    if (g["name"], tuple(index)) in keys:
        return keys[(g["name"], tuple(index))]
    return tuple((snake(i["name"]), str(v)) for i, v in zip(g["table"]["indexes"], index))


def parse_text(text):
    """{(metric, labels tuple sorted): value string} of a text-format
    exposition (label values without escapes: the example's keys)."""
    out = {}
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        m = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)', line)
        assert m, line
        labels = tuple(sorted(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"', m.group(2) or "")))
        out[(m.group(1), labels)] = m.group(3)
    return out


def index_labels(model, exp, g, index):
    """The labels of the row of group `g` at SNMP index `index`."""
    if "table" not in g:
        return ()
    k = exp["keyed"].get(g["name"])
    if k:
        names = [snake(i["name"]) for i in k["indexes"]]
        for key in k["keys"]:
            if key["index"] == list(index):
                return tuple(zip(names, [str(v) for v in key["key"]]))
        raise KeyError((g["name"], index))
    return tuple((snake(i["name"]), str(v)) for i, v in zip(g["table"]["indexes"], index))


def state_series(model, exp, st):
    """(family, labels, the state's model entry) of a state fm-writer set
    (an entry of its expectations' "states")."""
    arcs = [int(x) for x in st["oid"][len(exp["root"] + ".1."):].split(".")]
    g = next(g for g in model["groups"] if g["name"] == st["group"])
    s = next(s for s in g["states"] if s["name"] == st["state"])
    index = arcs[3:] if "table" in g else []
    family = "%s_%s_%s" % (model["module"]["prefix"], snake(g["name"]), snake(s["name"]))
    return family, index_labels(model, exp, g, index), s
