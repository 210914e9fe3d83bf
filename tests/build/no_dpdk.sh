#!/usr/bin/env bash
# The segment format library and fastmib-gen compile with no DPDK header
# in reach: each of their sources alone, with the project's headers and
# libyaml's only (DPDK's headers live in a directory of their own,
# /usr/include/dpdk, which this does not name). A source that includes a
# DPDK header, directly or through a header of the writer, fails here.
# Usage: no_dpdk.sh SOURCE_DIR [CC]
set -euo pipefail
src=$1
cc=${2:-cc}
yaml=$(pkg-config --cflags yaml-0.1 2>/dev/null || true)
status=0
for f in "$src"/fastpath/format/*.c "$src"/codegen/*.c; do
	# shellcheck disable=SC2086
	if ! "$cc" -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $yaml \
		-I"$src/include" -I"$src/fastpath/format" -I"$src/codegen" "$f"; then
		echo "no_dpdk: $f does not compile without DPDK's headers" >&2
		status=1
	fi
done
# the check can fail: a writer header in the same compile is refused
if echo '#include "fastmib/fastmib.h"' |
	"$cc" -std=gnu11 -fsyntax-only -x c -I"$src/include" - 2>/dev/null; then
	echo "no_dpdk: DPDK's headers are reachable without an include path: the check proves nothing" >&2
	status=1
fi
exit $status
