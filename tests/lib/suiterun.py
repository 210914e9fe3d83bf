# SPDX-License-Identifier: BSD-3-Clause
"""The test suite's run, as its tests see it: the tag their names carry.

ctest gives every test FASTMIB_TEST_TAG (a tag of the build tree) and
TMPDIR (the run's temporary directory): cmake/SuiteRun.cmake. Whatever a
test makes outside TMPDIR carries the tag in its name (an EAL
--file-prefix, a segment in /dev/shm), and every process it starts
inherits the tag in its environment, so that the last test,
suite.leftovers (tests/leftovers/leftovers.py), can tell what this run
left behind from what other runs on the machine are using.
"""
import os

# Outside ctest (a test file run by hand): a tag of its own all the same.
TAG = os.environ.get("FASTMIB_TEST_TAG") or "fmt"


def tagged(*parts):
    """A name of this run: the tag, a dash, then `parts` (text or numbers)."""
    return TAG + "-" + "".join(str(p) for p in parts)
