#!/usr/bin/env bash
# Instructions fastmib-exporter executes to make one scrape of the scrape
# benchmark's table (fme_scrape_read() and what it calls: the snapshot of
# every row and the text), counted by callgrind, repeatable where wall
# and CPU time are not; text format and OpenMetrics, one exporter each.
# Usage: bench/exporter/callgrind.sh BUILD_DIR [ROWS]
set -euo pipefail
. "$(dirname "$0")/../common/callgrind.sh"
build=$(cd "$1" && pwd)
rows=${2:-65536}
dir=$(mktemp -d /dev/shm/fastmib-bench-cg-scrape-XXXXXX)
wpid=
cleanup() {
	[ -z "$wpid" ] || { exec 3>&-; wait "$wpid" || true; }
	rm -rf "$dir"
}
trap cleanup EXIT

# the writer keeps the segment open until its standard input closes
mkfifo "$dir/in"
"$build/bench/exporter/fastmib-bench-scrape-writer" -l 0 --no-huge --no-pci --no-shconf \
	--no-telemetry -m 64 --file-prefix "fastmib-cg-scrape-$$" -- "$dir/sx.seg" \
	--rows "$rows" <"$dir/in" >"$dir/writer.out" 2>/dev/null &
wpid=$!
exec 3>"$dir/in"
until grep -q ready "$dir/writer.out"; do
	kill -0 "$wpid"
	sleep 0.1
done

port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Instructions of one scrape with Accept header $1.
scrape_count() {
	local p out vpid
	p=$(port)
	out="$dir/cg.out"
	valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=fme_scrape_read \
		"$build/subagent/exporter/fastmib-exporter" --web.listen-address "127.0.0.1:$p" \
		"$dir/sx.seg" >/dev/null 2>&1 &
	vpid=$!
	until curl -s -o /dev/null "http://127.0.0.1:$p/"; do sleep 0.2; done
	curl -s -o "$dir/body" -H "Accept: $1" "http://127.0.0.1:$p/metrics"
	kill -TERM "$vpid"
	wait "$vpid" || true
	callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
	rm -f "$out"*
}

printf "%-12s %8s %14s %12s %12s\n" format rows instructions "per series" "per byte"
for f in "text/plain;version=0.0.4" "application/openmetrics-text;version=1.0.0"; do
	n=$(scrape_count "$f")
	series=$((rows * 4))
	bytes=$(stat -c %s "$dir/body")
	awk -v f="${f%%;*}" -v r="$rows" -v n="$n" -v s="$series" -v b="$bytes" \
		'BEGIN { printf "%-12s %8d %14d %12.0f %12.1f\n", f == "text/plain" ? "text" : "openmetrics", r, n, n / s, n / b }'
done
