#!/usr/bin/env bash
# Instructions per event call, counted by callgrind (repeatable where TSC
# cycles are not): each loop runs under valgrind with collection on only
# inside it, minus the empty loop of the same length.
# Usage: bench/events/callgrind.sh BUILD_DIR [CALLS]
set -euo pipefail
. "$(dirname "$0")/../common/callgrind.sh"
bin="$1/bench/events/fastmib-bench-events"
calls=${2:-100000}

# Instructions executed inside function $1 while running pattern $2 once.
count() {
	callgrind_count "$1" "$bin" -l 0 --no-huge --no-pci --no-shconf --no-telemetry -m 64 \
		--file-prefix "fastmib-cg-ev-$$" -- --events "$calls" --runs 1 --only "$2"
}

printf "%-40s %s\n" "event call" "instructions/call"
while IFS='|' read -r fn name; do
	n=$(count "$fn" "$name")
	b=$(count run_base "$name")
	awk -v n="$n" -v b="$b" -v c="$calls" -v name="$name" \
		'BEGIN { printf "%-40s %6.2f\n", name, (n - b) / c }'
done <<'LIST'
run_filtered|filtered (rate 5, threshold 9)
run_logged|logged, 4 args (rate 9)
run_logged2|logged, 2 args (rate 5, threshold 1)
run_burst|fastmib_event_burst()
LIST
