"""The README's first command: scripts/demo.sh runs end to end, shows real
SNMP answers from live lcores, the application's states and a link change
caught as notifications, the application's ports in IF-MIB, and leaves no
process or file behind."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import tagged

ROOT = Path(__file__).resolve().parents[2]
BUILD = os.environ.get("FASTMIB_BUILD_DIR", "")


def processes_mentioning(text):
    hits = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path("/proc", pid, "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if text.encode() in cmd:
            hits.append((int(pid), cmd.decode(errors="replace")))
    return hits


def test_demo_runs_end_to_end_and_cleans_up():
    if not BUILD:
        pytest.fail("FASTMIB_BUILD_DIR not set: run through ctest")
    name = tagged("demo-", os.getpid())
    proc = subprocess.run([str(ROOT / "scripts" / "demo.sh"), BUILD],
                          capture_output=True, text=True, timeout=100,
                          stdin=subprocess.DEVNULL,
                          env=dict(os.environ, FASTMIB_DEMO_NAME=name))
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    # the first query waits for the agent; after it, every object is found
    assert "No Such Object" not in out
    # Step 4d: the distributions over SNMP. The burst time's bucket table:
    # 17 rows, bounds 64 ns .. 2^21 ns and the unbounded last, their counts
    # adding up to at most the count read before (traffic goes on).
    dist = out.partition("== 4d.")[2].partition("\n\x1b[1m== 5")[0]
    count = int(re.search(r"epGlobalBurstTimeCount\.0 = Counter64: (\d+)", dist).group(1))
    assert count > 0
    rows = re.findall(r"^\s+(\d+)\s+(\d+) nanoseconds\s+(\d+)$", dist, re.M)
    assert [int(i) for i, _, _ in rows] == list(range(1, 18))
    assert [int(le) for _, le, _ in rows] == [2 ** b for b in range(6, 22)] + [2 ** 64 - 1]
    assert sum(int(c) for _, _, c in rows) >= count
    # each port's receive bursts: net_null ports fill every burst (32
    # packets, bucket 7), the net_ring port has no traffic
    assert re.search(r"epPortRxBurstMax\.1 = Counter64: 32 packets", dist)
    assert re.search(r"epPortRxBurstMax\.3 = Counter64: 0 packets", dist)
    buckets = dict(re.findall(r"epPortRxBurstBucketCount\.(\d+\.\d+) = Counter64: (\d+)", dist))
    assert len(buckets) == 4 * 8
    assert int(buckets["1.7"]) > 0 and buckets["3.7"] == "0"
    # Step 6: fastmib-stat's percentiles of the same histogram
    assert re.search(r"epGlobalBurstTime\[nanoseconds\]: count \d+  sum \d+  "
                     r"p50 [\d.]+  p90 [\d.]+  p99 [\d.]+", out)
    # every module the example MIB imports is found (HCNUM-TC too)
    assert "Cannot find module" not in out + proc.stderr

    # What the demo started, as it printed it.
    work = re.search(r"-c (/\S+/fastmib-demo\.\w+)/snmpd\.conf", out).group(1)
    seg = re.search(r"--segment (/dev/shm/\S+)", out).group(1)
    assert seg == "/dev/shm/" + name

    # Live counters over SNMP, increasing between the two reads.
    def rx_values(text):
        return [int(v) for v in re.findall(r"epGlobalRxPkts\.0 = Counter64: (\d+)", text)]

    before, sep, after = out.partition("epGlobalReset.0 = INTEGER: true(1)")
    assert sep, "the demo's reset did not succeed"
    rx, rx_after = rx_values(before), rx_values(after)
    assert len(rx) >= 2 and rx == sorted(rx) and rx[0] > 0
    assert re.search(r"epPortTable", out)
    # After the reset the counter starts again below where it was, then grows.
    assert len(rx_after) == 2
    assert rx_after[0] < rx[-1] and rx_after[1] > rx_after[0]
    assert "noAccess" in out                       # read-only community refused
    assert re.search(r"epFlowStatsTable|epEventStatsTable", out)
    assert "badHeader" in out                      # the event log is shown

    # The application's ports in IF-MIB, after the kernel's interfaces.
    rundir = re.search(r"--ports (/\S+)", out).group(1)
    names = re.findall(r"IF-MIB::ifName\.(\d+) = STRING: (\S+)", before)
    kernel = {int(i): n for i, n in names if int(i) < 1000}
    assert "lo" in kernel.values()
    assert names[-3:] == [("1000", "net_null0"), ("1001", "net_null1"),
                          ("1002", "net_ring0")]
    assert [int(i) for i, _ in names] == sorted(int(i) for i, _ in names)
    # live: the ports' counters move like the application's own
    ports_rx = [int(v) for v in
                re.findall(r"IF-MIB::ifHCInUcastPkts\.1000 = Counter64: (\d+)", out)]
    assert len(ports_rx) == 2 and 0 < ports_rx[0] < ports_rx[1]
    assert "IF-MIB::ifHighSpeed.1000 = Gauge32: 10000" in out
    assert re.search(r"^ +1001 +1 net_null1 +up +10G", out, re.M)  # fastmib-stat --ports
    # once the application has exited, its rows are gone, the kernel's stay
    gone = out.partition("its ports have left IF-MIB")[2]
    gone = gone.partition("== 7.")[0]
    assert re.findall(r"IF-MIB::ifName\.(\d+) = STRING: (\S+)", gone) == \
        [(str(i), n) for i, n in sorted(kernel.items())]

    # The application's states, and the link of net_ring0 (port 3) set
    # down and up again: two epPortLinkChange, read back each time.
    version = os.environ.get("FASTMIB_VERSION", "")
    assert f"epAppVersion.0 = STRING: fastmib-example {version}\n" in out
    assert re.search(r"epAppStartTime\.0 = STRING: \d{4}-\d+-\d+,\d+:\d+:\d+\.\d,\+0:0\n", out)
    assert "epPortName.3 = STRING: net_ring0\n" in out
    assert "epServerStatus.192.168.0.1.443 = INTEGER: active(1)\n" in out
    link = ".1.3.6.1.4.1.8072.9999.42.1.2.1.7.3 = INTEGER: "
    changes = re.findall(r"^\.1\.3\.6\.1\.6\.3\.1\.1\.4\.1\.0 = OID: "
                         r"\.1\.3\.6\.1\.4\.1\.8072\.9999\.42\.5\.0\.2007\n(.*)$", out, re.M)
    assert changes == [link + "2", link + "1"]
    assert re.findall(r"epPortLink\.3 = INTEGER: (.*)", out) == ["up(1)", "down(2)", "up(1)"]
    assert out.count("port 2: link set down\n") == out.count("port 2: link set up\n") == 1

    # The application's own counters from dpdk-telemetry.py (one JSON line
    # per command), through libfastmib's telemetry commands.
    tel = [json.loads(x) for x in out.splitlines() if x.startswith('{"/fastmib/')]
    assert [list(t) for t in tel] == [["/fastmib/segments"], ["/fastmib/group"]]
    assert tel[0]["/fastmib/segments"]["0"]["path"] == seg
    assert tel[1]["/fastmib/group"]["counters"]["epGlobalRxPkts"] > 0
    # gone as the application exited, before the demo's own clean-up
    assert f"its EAL runtime directory {rundir} is gone with it" in out

    # The same segment from fastmib-exporter once the application stopped:
    # the writer gone, the counter at least what SNMP read last (after the
    # reset), a port's link as a stateset's labels, servers by their keys.
    scrape = out.partition("== 6a.")[2].partition("== 7.")[0]
    assert 'ep_writer_status{ep_writer_status="gone"} 1\n' in scrape
    rx_prom = int(re.search(r"^ep_global_rx_pkts_total (\d+)$", scrape, re.M).group(1))
    assert rx_prom >= rx_after[-1] > 0
    assert 'ep_port_link{port_id="3",ep_port_link="up"} 1\n' in scrape
    assert int(re.search(r'^ep_server_pkts_total\{server_addr="192\.168\.0\.1",'
                         r'server_port="443"\} (\d+)$', scrape, re.M).group(1)) > 0

    # Nothing left behind.
    assert processes_mentioning(work) == []
    assert processes_mentioning(seg) == []
    assert not Path(work).exists()
    assert not Path(seg).exists()
    assert not Path(rundir).exists()
