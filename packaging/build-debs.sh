#!/usr/bin/env bash
# Build the Debian packages (libfastmib0, libfastmib-reader0,
# libfastmib-dev, fastmib and their -dbgsym) from this source tree with
# debhelper: a copy of the tree (the files git knows, as they are now)
# gets packaging/debian as its debian/, and dpkg-buildpackage builds it.
# Usage: packaging/build-debs.sh OUTDIR [BASE_MIBS_DIR]
# The .deb files end up in OUTDIR; OUTDIR/build.log has the build.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
mibs=${2:-}
work="$out/source"
rm -rf "$work" "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo "$out"/*.changes
mkdir -p "$work/fastmib"
git -C "$src" ls-files -z --cached --others --exclude-standard |
	(cd "$src" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$work/fastmib"
rm -rf "$work/fastmib/debian"
cp -a "$src/packaging/debian" "$work/fastmib/debian"
if ! (cd "$work/fastmib" && FASTMIB_BASE_MIBS=$mibs \
	dpkg-buildpackage -b -us -uc -j"$(nproc)") >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log"
	exit 1
fi
mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out"/
ls "$out"/*.deb
