#!/usr/bin/env bash
# Instructions per state set and per counter update of the states
# benchmark, counted by callgrind (repeatable where TSC cycles are not):
# each loop of fastmib-bench-states runs alone under valgrind with
# collection on only inside it (function loop_NAME, the library calls it
# makes included), less the empty loop of as many iterations. One lcore;
# the counter updates of plain.yaml (no states) and states.yaml (the same
# group with states) side by side, with their difference, and whether
# their loops compiled to the same code (objdump).
# Usage: bench/states/callgrind.sh BUILD_DIR [ITERATIONS]
set -euo pipefail
. "$(dirname "$0")/../common/callgrind.sh"
bin="$1/bench/states/fastmib-bench-states"
n=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions executed inside loop_$1 with only that loop run, once.
count() {
	callgrind_count "loop_$1" "$bin" -l 0 --no-huge --no-pci --no-shconf --no-telemetry \
		-m 64 --file-prefix "fastmib-cg-st-$$" -- --sets "$n" --updates "$n" --reads 1 \
		--runs 1 --only "$1"
}

base=$(count none)
printf "%-52s %s\n" "loop" "instructions per set or update"
# loop name|operations per iteration|what it does
while IFS='|' read -r name per what; do
	c=$(count "$name")
	echo "$c" >"$tmp/$name"
	awk -v c="$c" -v b="$base" -v n="$n" -v per="$per" -v what="$what" \
		'BEGIN { printf "%-52s %9.2f\n", what, (c - b) / n / per }'
done <<'LIST'
set_enum|1|one state: enum operState (notify, changes logged)
set_mtu|1|one state: unsigned32 mtu
set_label|1|one state: display-string label, 32 characters
set_row|1|whole row: 5 states, 32-character label
upd_calls_bno|2|update, calls, model without states
upd_calls_bst|2|update, calls, model with states
upd_tx_bno|2|update, tx form, model without states
upd_tx_bst|2|update, tx form, model with states
LIST
# The code of the two models' loops (and of their parts gcc moves out of
# line, .cold), without addresses and padding:
# the same code is the same instructions, whatever the counts.
code() {
	for sym in "loop_upd_$1" "loop_upd_$1.cold"; do
		objdump -d --no-show-raw-insn --disassemble="$sym" "$bin"
	done | awk -F'\t' 'NF >= 2 && $2 !~ /^(nop|data16|cs nop|xchg +%ax,%ax|int3)/ { print $2 }' |
		sed -E 's/[0-9a-f]+ <loop_upd_[a-z]+_b(no|st)(\.cold)?(\+0x[0-9a-f]+)?>$/(loop\2\3)/;
			s/ [0-9a-f]+ </ </'
}
for form in calls tx; do
	same="different code"
	[ "$(code "${form}_bno")" = "$(code "${form}_bst")" ] && same="the same code"
	awk -v a="$(cat "$tmp/upd_${form}_bst")" -v b="$(cat "$tmp/upd_${form}_bno")" \
		-v form="$form" -v same="$same" 'BEGIN { printf "%s form, with states - without: " \
		"%d instructions over the whole loop; %s\n", form, a - b, same }'
done
