#!/usr/bin/env python3
"""No call cycle between the product's .c files.

File A calls file B when A calls a function that B defines and no other
file does (comments, strings and character constants left out; a static
function is its own file's). The product is every .c file of the source
tree outside tests/, bench/, examples/ and build trees. A cycle (files
that call each other, directly or around a circle) means no file of it
is below the others: the test names each cycle and fails.

    call_cycles.py SOURCE_DIR [BUILD_DIR...]
"""
import collections
import os
import re
import sys

NOT_PRODUCT = {"tests", "bench", "examples", ".git"}


def product_files(root, skip):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        top = rel.split(os.sep)[0]
        if top in NOT_PRODUCT or os.path.realpath(d) in skip or \
                os.path.exists(os.path.join(d, "CMakeCache.txt")):
            dirs[:] = []
            continue
        for f in files:
            if f.endswith(".c"):
                yield os.path.normpath(os.path.join(rel, f))


def code_of(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", text)


def call_graph(root, skip=()):
    src = {f: code_of(open(os.path.join(root, f), errors="replace").read())
           for f in product_files(root, {os.path.realpath(s) for s in skip})}
    defined = collections.defaultdict(set)
    for f, text in src.items():
        for m in re.finditer(r"^(static\s+)?[A-Za-z_][\w \*]*\n(\w+)\(", text, re.M):
            if not m.group(1):
                defined[m.group(2)].add(f)
    owner = {name: next(iter(fs)) for name, fs in defined.items() if len(fs) == 1}
    calls = collections.defaultdict(set)
    for f, text in src.items():
        for m in re.finditer(r"\b(\w+)\s*\(", text):
            g = owner.get(m.group(1))
            if g and g != f:
                calls[f].add(g)
    return src, calls


def cycles(nodes, calls):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    root = sys.argv[1]
    src, calls = call_graph(root, sys.argv[2:])
    found = cycles(src, calls)
    print("%d product .c files, %d calls between files" %
          (len(src), sum(len(v) for v in calls.values())))
    assert len(src) > 50, "too few files found: is %s the source tree?" % root
    for comp in found:
        print("call cycle: " + " ".join(comp))
        for f in comp:
            print("  %s calls %s" % (f, ", ".join(sorted(set(comp) & calls[f]))))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
