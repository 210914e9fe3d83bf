#!/usr/bin/env bash
# fastmib end to end: a DPDK application counting packets on live lcores, a
# private snmpd on loopback, fastmib-agentx serving the segment over AgentX,
# and real net-snmp queries against it; the states the application sets
# (its version and start time, each port's name, link and speed, each
# server's status and last packet), a link set down and up again on a
# signal and its epPortLinkChange notifications caught by a private
# snmptrapd (the demo fails without them); the event log too, with its
# notifications caught by the same snmptrapd; the application's ports in
# IF-MIB, read over DPDK telemetry, beside the kernel's interfaces; and its
# counters from DPDK's own tool, dpdk-telemetry.py (libfastmib's telemetry
# commands); the distributions of burst processing times and burst sizes,
# as bucket tables over SNMP and as percentiles from fastmib-stat. Leaves
# no process or file behind.
# Usage: scripts/demo.sh [BUILD_DIR]
# FASTMIB_BASE_MIBS names the base MIB directory when it is not
# BUILD_DIR/base-mibs (the CMake cache variable of the same name);
# FASTMIB_DEMO_NAME the segment in /dev/shm and the application's EAL file
# prefix (default fastmib-demo-PID). Its other files go to a directory in
# $TMPDIR (default /tmp).
set -euo pipefail

build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
app=$build/examples/fastmib-example
agent=$build/subagent/agentx/fastmib-agentx
stat=$build/tools/fastmib-stat
exporter=$build/subagent/exporter/fastmib-exporter
# The example MIB imports HCNUM-TC (CounterBasedGauge64: a histogram's
# bucket bounds, a peak), an IETF module no Debian package ships
# (docs/nms.md says where it comes from); where the host has none, the
# tests' stand-in of it, last on the path, lets the tools read the MIB.
mibdirs=${FASTMIB_BASE_MIBS:-$build/base-mibs}:$src/mibs:/usr/share/snmp/mibs:$src/tests/lib/mibs
module=EXAMPLE-DATAPLANE-MIB

for bin in "$app" "$agent" "$stat" "$exporter"; do
	[ -x "$bin" ] || { echo "demo: $bin is missing; run 'make build'" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fastmib-demo.XXXXXX")
prefix=${FASTMIB_DEMO_NAME:-fastmib-demo-$$}
seg=/dev/shm/$prefix
# where DPDK's EAL puts the application's runtime directory (and its
# telemetry socket): /var/run for root, else $XDG_RUNTIME_DIR or /tmp
if [ "$(id -u)" = 0 ]; then
	rundir=/var/run/dpdk/$prefix
else
	rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix
fi
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	# the application removes its runtime directory itself when it exits;
	# this is for one that had to be killed
	rm -rf "$work" "$seg" "$rundir"
}
trap cleanup EXIT INT TERM

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
free_tcp_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
trapport=$(free_port)
sock=$work/agentx.sock
mkdir -p "$work/persist"
cat > "$work/snmpd.conf" <<CONF
agentAddress udp:127.0.0.1:$port
master agentx
agentXSocket $sock
agentXPerms 0600 0700
rocommunity public 127.0.0.1
rwcommunity private 127.0.0.1
trap2sink 127.0.0.1:$trapport public
[snmp] persistentDir $work/persist
CONF
mkdir -p "$work/trapd"
cat > "$work/snmptrapd.conf" <<CONF
disableAuthorization yes
[snmp] persistentDir $work/trapd
CONF

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; }
run() { show "$@"; "$@"; }

# Load just the example MIB (and what it imports) from these directories.
export MIBS= MIBDIRS=
snmp_opts=(-v2c -M "$mibdirs" -m "$module" 127.0.0.1:$port)
if_opts=(-v2c -M "$mibdirs" -m IF-MIB 127.0.0.1:$port)
both_opts=(-v2c -M "$mibdirs" -m "$module:IF-MIB" 127.0.0.1:$port)

say "1. a private snmptrapd on udp:127.0.0.1:$trapport, and a private snmpd on"
say "   udp:127.0.0.1:$port with its own AgentX socket, sending notifications to it"
trapd_cmd=(snmptrapd -f -X -On -C -c "$work/snmptrapd.conf" -Lf "$work/traps.log"
	udp:127.0.0.1:$trapport)
show "${trapd_cmd[@]}" "&"
"${trapd_cmd[@]}" </dev/null >/dev/null 2>&1 &
pids+=($!)
snmpd_cmd=(snmpd -f -r -C -c "$work/snmpd.conf" -p "$work/snmpd.pid" -Lf "$work/snmpd.log"
	-I -inetCidrRouteTable)
show "${snmpd_cmd[@]}" "&"
"${snmpd_cmd[@]}" </dev/null >/dev/null 2>&1 &
pids+=($!)

say "2. the example DPDK application: 2 lcores, 2 net_null ports, 8 s of traffic,"
say "   one malformed packet in a million (each logs a badHeader event, sent as a"
say "   notification: a few a second, under the agent's limit of 10, which the link's"
say "   notifications share); a net_ring port without traffic, whose link the"
say "   application sets down and up on SIGUSR1; DPDK telemetry on (the EAL"
say "   default), its socket in $rundir"
app_cmd=("$app" -l 0-1 --no-huge --no-pci --no-shconf -m 256
	--vdev=net_null0 --vdev=net_null1 --vdev=net_ring0 --file-prefix "$prefix" --
	--segment "$seg" --duration 8 --rate 2000000 --flows 200 --bad-every 1000000)
show "${app_cmd[@]}" "&"
"${app_cmd[@]}" </dev/null >"$work/app.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
for _ in $(seq 100); do [ -e "$seg" ] && break; sleep 0.1; done
[ -e "$seg" ] || { cat "$work/app.log"; echo "demo: no segment" >&2; exit 1; }

say "3. fastmib-agentx serving $seg over AgentX, and the application's ports"
say "   (IF-MIB rows from its telemetry socket, ifIndex 1000 + port id)"
agent_cmd=("$agent" -f -C -Lf "$work/agentx.log" -x "$sock" --state-dir "$work/persist"
	--ports "$rundir" "$seg")
show "${agent_cmd[@]}" "&"
"${agent_cmd[@]}" </dev/null >/dev/null 2>&1 &
pids+=($!)

# Until the agent has registered the segment's root and the first port's
# row (ifIndex.1000): before that, snmpd answers "No Such Object" or "No
# Such Instance" (answers all the same, so only values will do).
for _ in $(seq 150); do
	[ "$(snmpget -On -Oqv -v2c -c public 127.0.0.1:$port \
		1.3.6.1.4.1.8072.9999.42.2.1.0 1.3.6.1.2.1.2.2.1.1.1000 2>/dev/null |
		grep -cx '[0-9]\+')" = 2 ] && break
	sleep 0.1
done

say "4. live SNMP queries while the lcores count"
run snmpget -c public "${snmp_opts[@]}" epGlobalRxPkts.0 epGlobalRxBytes.0 epFlowStateActiveFlows.0
sleep 1
run snmpget -c public "${snmp_opts[@]}" epGlobalRxPkts.0 epGlobalRxBytes.0 epFlowStateActiveFlows.0
run snmptable -Cb -Ci -c public "${snmp_opts[@]}" epPortTable
show snmpbulkwalk -Cr50 -c public "${snmp_opts[@]}" epObjects "| head -n 12"
snmpbulkwalk -Cr50 -c public "${snmp_opts[@]}" epObjects | head -n 12 || true
show snmpbulkwalk -Cr50 -c public "${snmp_opts[@]}" epFlowPkts "| wc -l   # flows present now"
snmpbulkwalk -Cr50 -c public "${snmp_opts[@]}" epFlowPkts | wc -l
say "   traffic per server, keyed by address and port: index 192.168.0.1.443"
show snmptable -Cb -Ci -c public "${snmp_opts[@]}" epServerTable "| head -n 8"
snmptable -Cb -Ci -c public "${snmp_opts[@]}" epServerTable | head -n 8 || true
run snmpget -c public "${snmp_opts[@]}" epServerPkts.192.168.0.1.443 epServerBytes.192.168.0.1.443

say "4a. the states the application sets from its main lcore: its version and start"
say "    time once, each port's name, link and speed from the device, each server's"
say "    status and last packet from its packet counter (every 100 ms)"
run snmpget -c public "${snmp_opts[@]}" epAppVersion.0 epAppStartTime.0
run snmpget -c public "${snmp_opts[@]}" epPortName.3 epPortLink.3 epPortSpeed.3 \
	epServerStatus.192.168.0.1.443 epServerLastSeen.192.168.0.1.443
say "    SIGUSR1: the application sets the link of each port down where its driver"
say "    can (net_ring0, port 3; net_null cannot), the next SIGUSR1 up again; it sees"
say "    the change in the device's link status, the agent sends it as epPortLinkChange"
linkchange='\.1\.3\.6\.1\.4\.1\.8072\.9999\.42\.5\.0\.2007'   # epPortLinkChange
link_count() { grep -c "$linkchange" "$work/traps.log" || true; }
# Until n epPortLinkChange more than at the start are in snmptrapd's log,
# at most 5 s.
link_traps() {
	for _ in $(seq 50); do
		[ "$(link_count)" -ge "$((link_start + $1))" ] && return 0
		sleep 0.1
	done
	echo "demo: epPortLinkChange number $1 did not arrive" >&2
	return 1
}
link_start=$(link_count)
for n in 1 2; do
	run kill -USR1 "$app_pid"
	link_traps "$n"
	show grep "'$linkchange'" "$work/traps.log" "| tail -n 1 | tr '\t' '\n'"
	grep "$linkchange" "$work/traps.log" | tail -n 1 | tr '\t' '\n'
	run snmpget -c public "${snmp_opts[@]}" epPortLink.3
done
say "    (.5.0.2007 is epPortLinkChange, .1.2.1.7.3 epPortLink.3: down(2), then up(1))"
show grep "'link '" "$work/app.log"
grep 'link ' "$work/app.log"

say "4b. the application's ports in IF-MIB, after the kernel's interfaces in one walk"
say "    (read live over DPDK telemetry: no change in the application)"
run snmpbulkwalk -Cr20 -c public "${if_opts[@]}" ifName
run snmpget -c public "${if_opts[@]}" ifHighSpeed.1000 ifOperStatus.1000 ifPhysAddress.1000
say "    its own counter (received packets, all ports) next to its ports' counters"
run snmpget -c public "${both_opts[@]}" epGlobalRxPkts.0 IF-MIB::ifHCInUcastPkts.1000 \
	IF-MIB::ifHCInUcastPkts.1001
sleep 1
run snmpget -c public "${both_opts[@]}" epGlobalRxPkts.0 IF-MIB::ifHCInUcastPkts.1000 \
	IF-MIB::ifHCInUcastPkts.1001
run "$stat" --ports "$rundir"

say "4c. the same counters from DPDK's own telemetry client: libfastmib answers"
say "    /fastmib/segments and /fastmib/group,GROUP inside the application"
show "printf '/fastmib/segments\\n/fastmib/group,global\\n' | dpdk-telemetry.py -f $prefix"
printf '/fastmib/segments\n/fastmib/group,global\n' | dpdk-telemetry.py -f "$prefix"

say "4d. distributions: each burst's processing time (ns, log2 buckets) and each"
say "    port's receive burst sizes (bounds 1, 2, 4, 8, 16, 31, 32), as bucket tables"
say "    indexed by the row's index and the bucket number: BucketLe its upper bound,"
say "    BucketCount the bursts in it; Count and Sum beside the row's counters, and"
say "    the port's largest burst (a peak)"
run snmpget -c public "${snmp_opts[@]}" epGlobalBurstTimeCount.0 epGlobalBurstTimeSum.0 \
	epPortRxBurstCount.1 epPortRxBurstSum.1 epPortRxBurstMax.1 epPortRxBurstMax.3
run snmptable -Cb -Ci -c public "${snmp_opts[@]}" epGlobalBurstTimeBucketTable
run snmpbulkwalk -Cr40 -c public "${snmp_opts[@]}" epPortRxBurstBucketCount

say "5. reset the global counters over SNMP SET, then watch them count again"
run snmpset -c private "${snmp_opts[@]}" epGlobalReset.0 i 1
run snmpget -c public "${snmp_opts[@]}" epGlobalRxPkts.0 epGlobalDiscontinuityTime.0
sleep 1
run snmpget -c public "${snmp_opts[@]}" epGlobalRxPkts.0
say "   one server's row, by its key"
run snmpset -c private "${snmp_opts[@]}" epServerReset.192.168.0.1.443 i 1
run snmpget -c public "${snmp_opts[@]}" epServerPkts.192.168.0.1.443 epServerPkts.192.168.0.1.80
say "   a read-only community cannot reset"
run snmpset -c public "${snmp_opts[@]}" epResetAll.0 i 1 2>&1 || true

say "6. the same segment from the shell, once the application has stopped"
wait "$app_pid" || true
tail -n 2 "$work/app.log"
[ -e "$rundir" ] || echo "(its EAL runtime directory $rundir is gone with it)"
run "$stat" --rows 4 "$seg"
say "   the distributions: each bucket, and percentiles estimated from the buckets"
run "$stat" --match burstTime --match rxBurst "$seg"
say "   its ports have left IF-MIB (within 2 s of its exit); the kernel's stay"
sleep 1
run snmpbulkwalk -Cr20 -c public "${if_opts[@]}" ifName

say "6a. the same segment straight to Prometheus, no SNMP on the way:"
say "    fastmib-exporter answers GET /metrics (the text format here, OpenMetrics"
say "    when the scrape asks, as Prometheus does), a family per counter, rows as labels"
httpport=$(free_tcp_port)
exporter_cmd=("$exporter" --web.listen-address "127.0.0.1:$httpport" "$seg")
show "${exporter_cmd[@]}" "&"
"${exporter_cmd[@]}" </dev/null >/dev/null 2>"$work/exporter.log" &
exporter_pid=$!
pids+=($exporter_pid)
for _ in $(seq 100); do
	curl -sf "http://127.0.0.1:$httpport/" >/dev/null && break
	sleep 0.1
done
want='^(# TYPE )?ep_(writer_status|global_rx_pkts|port_link)[_{ ]|^# TYPE ep_server_pkts'
want+='|^ep_server_pkts_total\{server_addr="192\.168\.0\.1",'
show curl -s "http://127.0.0.1:$httpport/metrics" "| grep -E '$want'"
curl -s "http://127.0.0.1:$httpport/metrics" | grep -E "$want"
kill "$exporter_pid"
wait "$exporter_pid" 2>/dev/null || true

say "7. the event log: the last records the agent copied, numbered in time order"
say "   (read now that the log is still; during traffic rows come and go as a walk proceeds)"
show snmptable -Cb -Ci -c public "${snmp_opts[@]}" epEventTable "| tail -n 8"
snmptable -Cb -Ci -c public "${snmp_opts[@]}" epEventTable | tail -n 8
run snmptable -Cb -Ci -c public "${snmp_opts[@]}" epEventStatsTable
say "   badHeader notifications (at most 10/s: the agent's limit) caught by snmptrapd"
badhdr='\.1\.3\.6\.1\.4\.1\.8072\.9999\.42\.4\.0\.5'   # epBadHeaderNotification
show grep -c "'$badhdr'" "$work/traps.log"
grep -c "$badhdr" "$work/traps.log" || true
show grep "'$badhdr'" "$work/traps.log" "| tail -n 1 | tr '\t' '\n'"
grep "$badhdr" "$work/traps.log" | tail -n 1 | tr '\t' '\n'

show "$stat" --events "$seg" "| tail -n 6"
"$stat" --events "$seg" | tail -n 6

say "done: everything started here is stopped"
