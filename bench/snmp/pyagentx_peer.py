#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The comparison peer of the SNMP benchmark: an AgentX subagent written
with python3-pyagentx that serves the example flow table (pkts and bytes
columns) and epGlobalRxPkts from a copy refreshed every PERIOD seconds by
running `fastmib-stat SEGMENT --json`, the way cache-and-poll subagents
work.

Usage: pyagentx_peer.py AGENTX_SOCKET FASTMIB_STAT SEGMENT PERIOD

pyagentx 0.4.1 answers GetNext with list.index() over every served OID
(O(n) per request, hours for a 131,072-varbind walk); the Network class
below replaces that lookup with a binary search and changes nothing else.
"""
import bisect
import json
import logging
import subprocess
import sys

import pyagentx
from pyagentx.network import Network

ROOT = "1.3.6.1.4.1.8072.9999.42.1"
FLOW_ENTRY = ROOT + ".4.1"
GLOBAL = ROOT + ".1"


def oid_key(oid):
    return tuple(int(p) for p in oid.split("."))


class FastNetwork(Network):
    """pyagentx's Network with an O(log n) next-OID lookup."""

    def _get_updates(self):
        before = getattr(self, "_idx_src", None)
        super()._get_updates()
        if self.data_idx is not before:
            self._idx_src = self.data_idx
            self._keys = [oid_key(o) for o in self.data_idx]

    def _get_next_oid(self, oid, endoid):
        keys = getattr(self, "_keys", [])
        i = bisect.bisect_right(keys, oid_key(oid))
        if i >= len(keys):
            return None
        if endoid and keys[i] >= oid_key(endoid):
            return None
        return self.data_idx[i]


pyagentx.network.Network = FastNetwork
pyagentx.agent.Network = FastNetwork


def make_updater(stat, segment, what):
    class Poll(pyagentx.Updater):
        def update(self):
            out = subprocess.run([stat, segment, "--json"], capture_output=True,
                                 text=True, check=True).stdout
            groups = json.loads(out)["groups"]
            if what == "flow":
                # Register under the entry; names are "column.index".
                for row in groups["flow"]["rows"]:
                    i = row["index"][0]
                    c = row["counters"]
                    self.set_COUNTER64("1.%d" % i, c["epFlowPkts"])
                    self.set_COUNTER64("2.%d" % i, c["epFlowBytes"])
            else:
                self.set_COUNTER64("1.0", groups["global"]["counters"]["epGlobalRxPkts"])
    return Poll


class Peer(pyagentx.Agent):
    def __init__(self, stat, segment, period):
        super().__init__()
        self.args = (stat, segment, period)

    def setup(self):
        stat, segment, period = self.args
        self.register(FLOW_ENTRY, make_updater(stat, segment, "flow"), freq=period)
        self.register(GLOBAL, make_updater(stat, segment, "global"), freq=period)


def main():
    sock, stat, segment, period = sys.argv[1:5]
    pyagentx.SOCKET_PATH = sock
    logging.basicConfig(level=logging.WARNING)
    Peer(stat, segment, float(period)).start()


if __name__ == "__main__":
    main()
