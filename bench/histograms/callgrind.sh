#!/usr/bin/env bash
# Instructions per observation and per peak record of the histograms
# benchmark, against a counter update, counted by callgrind (repeatable
# where TSC cycles are not): each loop of fastmib-bench-histograms runs
# alone under valgrind with collection on only inside it (function
# loop_NAME), less the empty loop of as many iterations. One lcore and no
# reader: callgrind runs a program's threads one at a time, so a reader
# beside the loop would only take turns with it, and the writer's
# instructions do not depend on readers (it never waits for one); the
# program's native run times the loops beside a reader. Each row: the
# instructions per transaction of one operation, and their excess over
# the counter update of the same model in the same form.
# Usage: bench/histograms/callgrind.sh BUILD_DIR [ITERATIONS]
set -euo pipefail
. "$(dirname "$0")/../common/callgrind.sh"
bin="$1/bench/histograms/fastmib-bench-histograms"
n=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside loop_$1 with only that loop run, once.
count() {
	callgrind_count "loop_$1" "$bin" -l 0 --no-huge --no-pci --no-shconf --no-telemetry \
		-m 64 --file-prefix "fastmib-cg-hist-$$" -- --obs "$n" --runs 1 --only "$1"
}

base=$(count none)
printf "%-50s %12s %14s\n" "transaction of one operation" "instructions" "over counter"
for form in calls tx; do
	# loop name suffix|what it does
	while IFS='|' read -r name what; do
		c=$(count "${form}_$name")
		echo "$c" >"$tmp/${form}_$name"
		ref=$(cat "$tmp/${form}_octets" 2>/dev/null || echo "$c")
		awk -v c="$c" -v r="$ref" -v b="$base" -v n="$n" -v what="$form: $what" \
			-v name="$name" 'BEGIN { d = (c - r) / n;
			printf "%-50s %12.2f %14s\n", what, (c - b) / n,
			name == "octets" || name == "plain" ? "-" : sprintf("%+.2f", d) }'
	done <<'LIST'
octets|counter add
plain|counter add, model without histograms
lat|observe, log2 (16 bounds)
few|observe, 8 bounds
many|observe, 32 bounds
top|peak
LIST
done
