# Sourced by the benchmarks' callgrind.sh scripts: how this project counts
# the instructions of one function of a benchmark program (repeatable on a
# virtual machine, where TSC cycles are not).
#
# callgrind_count FUNCTION COMMAND [ARG ...]: runs COMMAND under callgrind
# with collection on only while FUNCTION runs (what it calls included)
# and prints the instructions counted. COMMAND's output is discarded.
callgrind_count() {
	local fn=$1 out
	shift
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$fn" \
		"$@" >/dev/null 2>&1
	callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
	rm -f "$out"
}
