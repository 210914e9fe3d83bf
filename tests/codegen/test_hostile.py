# SPDX-License-Identifier: BSD-3-Clause
"""Hostile models through the real fastmib-gen: every model of the model
fuzz target's corpus in the tree (tests/codegen/fuzz/model, among them
what long fuzzing runs found) ends cleanly: written out (status 0), or
refused (status 2) with each message at FILE:LINE:COL, nothing left in the
output directory; never a crash, a sanitizer's report (a sanitizer build
runs this under ASan and UBSan) or a hang."""
import os
import re
import subprocess

import pytest

GEN = os.environ.get("FASTMIB_GEN")
CORPUS = os.path.join(os.environ.get("FASTMIB_SOURCE_DIR", "."), "tests", "codegen",
                      "fuzz", "model")
MODELS = sorted(os.listdir(CORPUS)) if os.path.isdir(CORPUS) else []


@pytest.mark.parametrize("name", MODELS)
def test_hostile_model_ends_cleanly(name, tmp_path):
    model = os.path.join(CORPUS, name)
    out = tmp_path / "out"
    r = subprocess.run([GEN, model, "-o", str(out)], capture_output=True, timeout=60)
    err = r.stderr.decode(errors="replace")
    assert r.returncode in (0, 2), (r.returncode, err)
    assert "Sanitizer" not in err and "runtime error" not in err, err
    line = re.compile(r"^%s:\d+:\d+: (error|warning|note): " % re.escape(model))
    for ln in err.splitlines():
        assert line.match(ln), ln
    if r.returncode == 2:
        assert ": error: " in err
        assert not out.exists() or not os.listdir(out)
    else:
        assert len(os.listdir(out)) == 3


def test_hostile_value_in_a_message_stays_on_its_line(tmp_path):
    """A value an error quotes may hold newlines: they are written \\n,
    other control characters \\xHH, and no line is forged."""
    model = os.path.join(CORPUS, "message-with-a-newline.yaml")
    r = subprocess.run([GEN, "--check", model], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == ("%s:15:10: error: `oid` must be a decimal integer, not "
                        "`1\\nfastmib: forged line\\n2\\x09`\n" % model), r.stderr
