#!/usr/bin/env bash
# Run inside the clean Debian 12 root booted with systemd (clean-root.sh):
# the README's quick start and the set-up of docs/operations.md as a new
# user types them, their code blocks taken from the documents as they are
# (/quickstart/*, cut out by clean-root.sh), and what they must show.
# Every command is echoed with its output; the first failure ends the run.
set -euo pipefail
cd /quickstart
fail() { echo "FAIL: $*"; exit 1; }
say() { printf '\n=== %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

say "README 1-3: the model, the generator, an application counting"
# the application of step 3: its lines in a main() that starts the EAL
# and one port (a net_null device) with the names the lines use, the
# packet's work being to free it; the segment path as argument
{
	echo '#include <unistd.h>'
	echo '#include <rte_eal.h>'
	echo '#include <rte_ethdev.h>'
	echo '#define BURST 32'
	sed -n '1,/^$/p' step3.c
	cat <<'C'
int main(int argc, char **argv) {
    int n = rte_eal_init(argc, argv);
    uint16_t port = 0, queue = 0, nb_rx, i;
    struct rte_mbuf *pkts[BURST];
    struct rte_eth_conf conf = { 0 };
    struct rte_mempool *mp = rte_pktmbuf_pool_create("mbufs", 4095, 256, 0,
        RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
    if (n < 0 || !mp || rte_eth_dev_configure(port, 1, 1, &conf) < 0 ||
        rte_eth_rx_queue_setup(port, queue, 512, rte_socket_id(), NULL, mp) < 0 ||
        rte_eth_tx_queue_setup(port, queue, 512, rte_socket_id(), NULL) < 0 ||
        rte_eth_dev_start(port) < 0)
        return 1;
C
	sed '1,/^$/d' step3.c | sed "s|\"/dev/shm/myapp\"|argv[n + 1]|" |
		sed 's|/\* \.\.\. the packet.s work \.\.\. \*/|rte_pktmbuf_free(pkts[i]); usleep(10);|'
	echo '}'
} >myapp.c
grep -q 'argv\[n + 1\]' myapp.c && grep -q rte_pktmbuf_free myapp.c ||
	fail "step 3 no longer has the segment path or the packet's work"
run fastmib-gen model.yaml -o gen/
run cc -O2 -o myapp myapp.c gen/ep_schema.c -Igen $(pkg-config --cflags --libs fastmib)
eal=(--no-huge --no-pci --no-telemetry -m 64 -l 0 --vdev net_null0 --log-level lib.eal:error)
./myapp "${eal[@]}" --file-prefix qs1 -- /dev/shm/myapp >/dev/null 2>&1 &
app=$!
trap 'kill "$app" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s /dev/shm/myapp ] && break; sleep 0.1; done
[ -s /dev/shm/myapp ] || fail "the application made no segment"

say "README 4, as written (the --watch line for 3 s)"
sed 's|^\(fastmib-stat [^#]*--watch[^#]*\)\(#.*\)\{0,1\}$|timeout -s INT 3 \1 \|\| [ $? = 124 ]|' \
	step4.sh >step4-run.sh
grep -q '^timeout -s INT 3 fastmib-stat' step4-run.sh || fail "no --watch line in step 4"
bash -ex step4-run.sh 2>&1 | tee step4.out
# the walk, line by line as the README shows it: OIDs and types, and
# every value but the counter's (which grows)
grep '^\.1\.3\.6\.1\.4\.1\.8072\.9999\.42\.' step4.out | sed 's/Counter64: [1-9][0-9]*$/Counter64: N/' >walk.got
sed 's/Counter64: [1-9][0-9]*$/Counter64: N/' step4-output.txt >walk.want
diff -u walk.want walk.got || fail "the walk is not what the README shows"
grep -Eq 'epGlobalRxPkts +[1-9]' step4.out || fail "fastmib-stat shows no rxPkts"
# the hand-started agent serves the same root as the service will: stop
# it (found by its command line: minbase has no pgrep), and wait until it
# is gone, its registration with it
for c in /proc/[0-9]*/cmdline; do
	[ "$(tr '\0' ' ' <"$c" 2>/dev/null)" = "fastmib-agentx -x /run/agentx/master /dev/shm/myapp " ] &&
		agent=$(basename "$(dirname "$c")")
done
[ -n "${agent:-}" ] || fail "no hand-started agent running"
kill "$agent"
for _ in $(seq 100); do [ -d "/proc/$agent" ] || break; sleep 0.1; done
[ ! -d "/proc/$agent" ] || fail "the hand-started agent does not stop"
kill "$app"
wait "$app" || true

say "operations.md: the package's directories and socket permissions"
run stat -c '%U:%G %a %F' /run/fastmib
[ "$(stat -c '%U:%G %a' /run/fastmib)" = "root:fastmib 2775" ] ||
	fail "/run/fastmib is not root:fastmib 2775"
run ls -l /run/agentx/master
[ "$(stat -c '%A %U %G' /run/agentx/master)" = "srw-rw---- root fastmib" ] ||
	fail "/run/agentx/master is not srw-rw---- root fastmib"
run cat /etc/fastmib/agentx.conf

say "operations.md: the service serves /run/fastmib/dataplane.seg"
./myapp "${eal[@]}" --file-prefix qs2 -- /run/fastmib/dataplane.seg >/dev/null 2>&1 &
app=$!
want='/run/fastmib/dataplane.seg: serving EXAMPLE-DATAPLANE-MIB (generation 1, read-only: resets refused)'
grep -qF "$want" service.sh || fail "operations.md no longer shows: $want"
bash -ex service.sh 2>&1 | tail -8
# (grep -q would leave journalctl writing to a closed pipe: pipefail)
served() { journalctl -u fastmib-agentx >journal.out; grep -qF "$want" journal.out; }
for _ in $(seq 100); do served && break; sleep 0.1; done
served || fail "the service does not serve the segment"
run stat -c '%U:%G %a' /run/fastmib/dataplane.seg
run snmpget -v2c -c public -On localhost .1.3.6.1.4.1.8072.9999.42.1.1.1.0 | tee get.out
grep -q ' = Counter64: [1-9]' get.out || fail "no value through the service"
run systemctl is-active fastmib-agentx

say "operations.md: threshold notifications (snmpd.conf.d file, then the drop-in)"
refused() { journalctl -u snmpd -b --no-pager | grep -c 'Unknown token: monitor' || true; }
cp monitor.conf /etc/snmp/snmpd.conf.d/fastmib-monitor.conf
run systemctl restart snmpd
before=$(refused)
echo "without the drop-in: $before line(s) 'Unknown token: monitor'"
[ "$before" -gt 0 ] || fail "Debian's snmpd unit took monitor without the drop-in"
mkdir -p /etc/systemd/system/snmpd.service.d
cp monitor-dropin.conf /etc/systemd/system/snmpd.service.d/fastmib-monitor.conf
run systemctl daemon-reload
run systemctl restart snmpd
systemctl show -p ExecStart snmpd | grep -o 'argv\[\]=[^;]*'
[ "$(refused)" = "$before" ] || fail "snmpd still refuses monitor with the drop-in"
run systemctl is-active snmpd
# the service registers again at its next AgentX ping (2 s)
for _ in $(seq 100); do
	snmpget -v2c -c public -On localhost .1.3.6.1.4.1.8072.9999.42.1.1.1.0 >get.out
	grep -q ' = Counter64: [1-9]' get.out && break
	sleep 0.1
done
cat get.out
grep -q ' = Counter64: [1-9]' get.out || fail "not served again after snmpd's restart"
kill "$app"
echo
echo "quick start replayed: every step as documented"
