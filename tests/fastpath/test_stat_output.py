# SPDX-License-Identifier: BSD-3-Clause
"""fastmib-stat's counter output, exactly, on segments of the test model
(FASTMIB-TEST-MIB, prefix ts) that mkvalues fills with the values given:
every other counter reads 0."""
import json
import os
import subprocess
import textwrap

import pytest

MKVALUES = os.environ["FASTMIB_MKVALUES"]
STAT = os.environ["FASTMIB_STAT"]

# Small values, values at the limits of JSON readers (2^53 - 1, 2^53) and
# of signed 64 bits (2^63 - 1, 2^63), the largest Counter64, a gauge below
# zero (reported 0) and a Counter32 past 2^32 (reported modulo 2^32).
VALUES = [
    "global.pkts=1500", "global.bytes=96000", "global.flows=7",
    "port.rxPkts.0=10", "port.rxBytes.0=640",
    "port.rxPkts.1=2500000", "port.rxBytes.1=160000000",
    "port.rxPkts.3=9007199254740991", "port.rxBytes.3=9007199254740992",
    "session.pkts.4=3", "session.bytes.4=192",
    "session.pkts.9=9223372036854775807", "session.bytes.9=9223372036854775808",
    "session.pkts.99=18446744073709551615", "session.bytes.99=1048576",
    "pool.allocs=12", "pool.inUse=-3", "pool.fails=4294967301",
    "flow.pkts.0=7", "flow.bytes.0=1023", "flow.pkts.7=5", "flow.bytes.7=1500",
    "flow.pkts.14=1", "flow.bytes.14=1024",
]


def make(path, values):
    subprocess.run([MKVALUES, str(path), *values], check=True, timeout=30,
                   capture_output=True)
    return str(path)


@pytest.fixture(scope="module")
def seg(tmp_path_factory):
    path = make(tmp_path_factory.mktemp("out") / "seg", VALUES)
    yield path
    os.unlink(path)


def stat(*args, check=True, **kw):
    p = subprocess.run([STAT, *args], capture_output=True, text=True, timeout=30, **kw)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def text(s):
    return textwrap.dedent(s).lstrip("\n")


def test_text_tables_with_units(seg):
    assert stat(seg).stdout == text(f"""
        FASTMIB-TEST-MIB  {seg}  generation 1  writer gone

        global
          NAME          VALUE UNITS
          tsGlobalPkts   1500 packets
          tsGlobalBytes 96000 octets
          tsGlobalFlows     7

        port: 4 of 4 rows present
          tsPortPortId tsPortRxPkts[packets] tsPortRxBytes[octets]
                     1                    10                   640
                     2               2500000             160000000
                     3                     0                     0
                     4      9007199254740991      9007199254740992

        session: 3 of 100 rows present
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
                          10    9223372036854775807    9223372036854775808
                         100   18446744073709551615                1048576

        pool
          NAME         VALUE UNITS
          tsPoolAllocs    12
          tsPoolInUse      0
          tsPoolFails      5

        flow: 3 of 15 rows present
          tsFlowVrf tsFlowQueue tsFlowPkts[packets] tsFlowBytes[octets]
                  1           1                   7                1023
                  2           3                   5                1500
                  3           5                   1                1024
        """)


def test_rows_caps_tables(seg):
    out = stat(seg, "--rows", "1").stdout
    assert text("""
        session: 3 of 100 rows present, 1 shown
          tsSessionSessionId tsSessionPkts[packets] tsSessionBytes[octets]
                           5                      3                    192
        """) in out
    # a table with no row shown has its title line only
    assert stat(seg, "--rows", "0").stdout.endswith("\nflow: 3 of 15 rows present, 0 shown\n")
