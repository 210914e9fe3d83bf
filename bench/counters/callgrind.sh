#!/usr/bin/env bash
# Instructions per counter update, per pattern, counted by callgrind
# (repeatable where TSC cycles are not): each pattern's packet loop is run
# under valgrind with collection on only inside that loop, and compared
# with the no-statistics loop. One lcore, so no contention is involved.
# Usage: bench/counters/callgrind.sh BUILD_DIR [PACKETS]
set -euo pipefail
bin="$1/bench/counters/fastmib-bench-counters"
packets=${2:-6400}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside function $1 with only pattern $2 selected.
count() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect="$1" \
		"$bin" -l 0 --no-huge --no-pci --no-shconf --no-telemetry -m 256 \
		--file-prefix "fastmib-cg-$$" -- --packets "$packets" --runs 1 --work 250 \
		--only "$2" >/dev/null 2>&1
	callgrind_annotate "$tmp/out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

base=$(count run_none "per core seqcount")
printf "%-34s %s\n" "pattern" "instructions/update"
while IFS='|' read -r fn name; do
	n=$(count "$fn" "$name")
	awk -v n="$n" -v b="$base" -v p="$packets" -v name="$name" \
		'BEGIN { printf "%-34s %6.2f\n", name, (n - b) / p / 4 }'
done <<'LIST'
run_nosync|shared non-synchronized
run_spinlock|shared spinlock
run_atomic|shared atomics
run_buffered|shared buffered (chapter)
run_percore|per core
run_percore_sl|per core spinlock
run_percore_sc|per core seqcount
run_fm_pc|fastmib per-core
run_fm_sb|fastmib shared-buffered
run_fm_at|fastmib shared-atomic
run_fm_pc_b|fastmib per-core, tx/burst
run_fm_sb_b|fastmib shared-buffered, tx/burst
LIST
