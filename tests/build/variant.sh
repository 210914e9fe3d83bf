#!/usr/bin/env bash
# Configure and build SOURCE in DIR with the given CMake options; any
# compiler warning fails the build (-Werror). The Debian packages are
# built and checked by debian.sh.
# Usage: variant.sh SOURCE DIR CMAKE_OPTION...
set -euo pipefail
src=$1 dir=$2
shift 2
cmake=${CMAKE:-cmake}
mkdir -p "$(dirname "$dir")"
"$cmake" -S "$src" -B "$dir" -DFASTMIB_WERROR=ON "$@" >"$dir.configure.log" 2>&1 ||
	{ cat "$dir.configure.log"; exit 1; }
"$cmake" --build "$dir" -j"$(nproc)" >"$dir.build.log" 2>&1 ||
	{ grep -E "error|warning" -A3 "$dir.build.log" | head -60; exit 1; }
if grep -q "warning:" "$dir.build.log"; then
	grep "warning:" -A3 "$dir.build.log" | head -40
	exit 1
fi
echo "built $dir: $(grep -c 'Building' "$dir.build.log") translation units, no warning"
