#!/usr/bin/env bash
# Instructions per counter update, per pattern, counted by callgrind
# (repeatable where TSC cycles are not): each pattern's packet loop is run
# under valgrind with collection on only inside that loop, and compared
# with the no-statistics loop. One lcore, so no contention is involved.
# Then, unless CYCLES_RUNS=0, the same patterns natively on 2 lcores
# (CYCLES_LCORES: one worker, and the main lcore reading its counters
# meanwhile), CYCLES_RUNS runs of 1,000,000 packets each: TSC cycles per
# update, median and min..max, the share of the reader's reads that got a
# consistent snapshot (worst run) and its median and 99th-percentile
# latency, in the same table.
# Usage: bench/counters/callgrind.sh BUILD_DIR [PACKETS]
set -euo pipefail
. "$(dirname "$0")/../common/callgrind.sh"
bin="$1/bench/counters/fastmib-bench-counters"
packets=${2:-6400}
cycles_runs=${CYCLES_RUNS:-5}
cycles_lcores=${CYCLES_LCORES:-0-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
eal=(--no-huge --no-pci --no-shconf --no-telemetry -m 256 --file-prefix "fastmib-cg-$$")

# Instructions executed inside function $1 with only pattern $2 selected.
count() {
	callgrind_count "$1" "$bin" -l 0 "${eal[@]}" -- --packets "$packets" --runs 1 --work 250 \
		--only "$2"
}

# function|pattern name, in the program's order
cat >"$tmp/list" <<'LIST'
run_nosync|shared non-synchronized
run_spinlock|shared spinlock
run_atomic|shared atomics
run_buffered|shared buffered (chapter)
run_percore|per core
run_percore_sl|per core spinlock
run_percore_sl_b|per core spinlock, lock/burst
run_percore_sc|per core seqcount
run_percore_sc_b|per core seqcount, tx/burst
run_fm_pc_calls_x86|fastmib per-core, calls
run_fm_pc_calls_b_x86|fastmib per-core, calls, tx/burst
run_fm_pc_tx_x86|fastmib per-core, tx form
run_fm_mixed_tx_x86|fastmib per-core in mixed model, tx form
run_fm_pc_tx_b_x86|fastmib per-core, tx form, tx/burst
run_fm_mixed_tx_b_x86|fastmib per-core in mixed model, tx form, tx/burst
run_fm_pc_tx_p_x86|fastmib per-core, tx form, prepared, tx/packet
run_fm_mixed_tx_p_x86|fastmib per-core in mixed model, tx form, prepared, tx/packet
run_fm_pc_tx_a_x86|fastmib per-core, tx form, burst counted after its work
run_fm_mixed_tx_a_x86|fastmib per-core in mixed model, tx form, burst counted after its work
run_fm_sb_calls_x86|fastmib shared-buffered, calls
run_fm_sb_calls_b_x86|fastmib shared-buffered, calls, tx/burst
run_fm_sb_tx_x86|fastmib shared-buffered, tx form
run_fm_sb_tx_b_x86|fastmib shared-buffered, tx form, tx/burst
run_fm_at_calls_x86|fastmib shared-atomic, calls
run_fm_at_tx_x86|fastmib shared-atomic, tx form
run_fm_at_tx_b_x86|fastmib shared-atomic, tx form, tx/burst
run_fm_pc_calls_portable|fastmib per-core, calls, portable
run_fm_pc_calls_b_portable|fastmib per-core, calls, portable, tx/burst
run_fm_pc_tx_portable|fastmib per-core, tx form, portable
run_fm_pc_tx_b_portable|fastmib per-core, tx form, portable, tx/burst
run_fm_pc_tx_p_portable|fastmib per-core, tx form, portable, prepared, tx/packet
run_fm_pc_tx_a_portable|fastmib per-core, tx form, portable, burst counted after its work
LIST

if [ "$cycles_runs" != 0 ]; then
	"$bin" -l "$cycles_lcores" "${eal[@]}" -- --runs "$cycles_runs" --tsv >"$tmp/cycles" 2>&1 ||
		{ cat "$tmp/cycles" >&2; exit 1; }
	grep -E '^  (worker|domain|baseline)' "$tmp/cycles" || true
fi

base=$(count run_none "per core seqcount")
printf "%-72s %9s  %-26s %11s %9s %9s\n" "pattern" "instr/upd" "cycles/upd (min..max)" \
	"consistent" "read p50" "read p99"
while IFS='|' read -r fn name; do
	n=$(count "$fn" "$name")
	cyc=$(awk -F'\t' -v name="$name" '$1 == name {
		c = sprintf("%.1f (%.1f..%.1f)", $2, $3, $4)
		if ($6 > 0) c = c sprintf(", %.1f %% lost", $6)
		printf "%-26s %11s %7sns %7sns", c, $8, $9, $10 }' "$tmp/cycles" 2>/dev/null || true)
	awk -v n="$n" -v b="$base" -v p="$packets" -v name="$name" -v cyc="$cyc" \
		'BEGIN { printf "%-72s %9.2f  %s\n", name, (n - b) / p / 4, cyc }'
done <"$tmp/list"
