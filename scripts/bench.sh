#!/usr/bin/env bash
# Run the benchmarks; docs/benchmarks.md says what each table means and
# holds the figures measured on the reference machine.
# Usage: scripts/bench.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
eal=(--no-huge --no-pci --no-shconf --no-telemetry -m 256 --file-prefix "fastmib-bench-$$")

# Benchmark-only dependency (the comparison peer of the SNMP benchmark);
# installed here rather than by scripts/install-deps.sh.
if ! dpkg-query -W -f='${Status}' python3-pyagentx 2>/dev/null | grep -q 'ok installed'; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	echo "fastmib bench: installing python3-pyagentx"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		python3-pyagentx >/dev/null
fi

echo "== fast path: cycles per counter update, 2 lcores on 2 CPUs"
"$build/bench/counters/fastmib-bench-counters" -l 0-1 "${eal[@]}" -- --runs 5
echo; echo "== fast path: cycles per counter update, 4 lcores on 2 CPUs"
"$build/bench/counters/fastmib-bench-counters" --lcores '0@0,1@0,2@1,3@1' "${eal[@]}" -- --runs 3

echo; echo "== flow churn with the reset lock free and held by a stopped resetter"
"$build/bench/churn/fastmib-bench-churn" -l 0-1 "${eal[@]}" -- --runs 7

echo; echo "== readers: snapshot cost"
"$build/bench/reader/fastmib-bench-reader" -l 0-1 "${eal[@]}"

echo; echo "== state objects: sets, a reader beside a setter, counter updates with states"
"$build/bench/states/fastmib-bench-states" -l 0-1 "${eal[@]}"

echo; echo "== histograms and peaks: observations beside a counter update, a reader beside them"
"$build/bench/histograms/fastmib-bench-histograms" -l 0-1 "${eal[@]}"

echo; echo "== SNMP serving"
/usr/bin/python3 "$here/bench/snmp/bench_snmp.py" --build "$build"

echo; echo "== IF-MIB of DPDK ports: ifXTable walks, 2 and 32 dpdk-testpmd ports"
/usr/bin/python3 "$here/bench/ports/bench_ports.py" --build "$build"
echo; echo "== IF-MIB of DPDK ports: 1,024 ports appearing, snmpd's own GETs meanwhile"
/usr/bin/python3 "$here/bench/ports/bench_ports.py" --build "$build" --appear 1024

echo; echo "== Prometheus scrapes: fastmib-exporter beside snmp_exporter (module, AgentX)"
/usr/bin/python3 "$here/bench/exporter/bench_exporter.py" --build "$build"
echo; echo "== Prometheus scrapes: fastmib-exporter's instructions per scrape"
"$here/bench/exporter/callgrind.sh" "$build"

if [ -f "$here/bench/gen/bench_gen.py" ]; then
	echo; echo "== code generator"
	/usr/bin/python3 "$here/bench/gen/bench_gen.py" "$build/codegen/fastmib-gen" \
		--counters 10000 --runs 5
fi
