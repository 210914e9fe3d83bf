#!/usr/bin/env bash
# Configure and build SOURCE in DIR with the given CMake options; any
# compiler warning fails the build (-Werror). With --package, also make the
# Debian packages (CPack) and check them: control fields, file lists, and
# the programs run from an unpacked root.
# Usage: variant.sh SOURCE DIR [--package] CMAKE_OPTION...
set -euo pipefail
src=$1 dir=$2
shift 2
package=0
if [ "${1:-}" = --package ]; then
	package=1
	shift
fi
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
[ "$package" = 1 ] || exit 0

# The packages, checked without installing them on this machine.
(cd "$dir" && cpack -G DEB -B "$dir/packages" >"$dir.cpack.log" 2>&1) ||
	{ cat "$dir.cpack.log"; exit 1; }
shopt -s nullglob
debs=("$dir"/packages/*.deb)
[ ${#debs[@]} -eq 2 ] || { echo "expected 2 packages, got: ${debs[*]}"; exit 1; }
runtime=$(ls "$dir"/packages/fastmib_*.deb) dev=$(ls "$dir"/packages/fastmib-dev_*.deb)
ver=${FASTMIB_VERSION:?}
for deb in "$runtime" "$dev"; do
	dpkg-deb --info "$deb" >/dev/null
	[ "$(dpkg-deb -f "$deb" Version)" = "$ver" ] || { echo "$deb: bad Version"; exit 1; }
	[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || { echo "$deb: no Maintainer"; exit 1; }
done
[ "$(dpkg-deb -f "$runtime" Package)" = fastmib ] || exit 1
[ "$(dpkg-deb -f "$dev" Package)" = fastmib-dev ] || exit 1
depends=$(dpkg-deb -f "$runtime" Depends)
for want in libsnmp40 libc6; do
	grep -q "$want" <<<"$depends" || { echo "runtime Depends lacks $want: $depends"; exit 1; }
done
# The writer library needs EAL (lcore ids); no other DPDK library may leak in.
rte=$(tr ',' '\n' <<<"$depends" | grep -o 'librte-[a-z0-9-]*' | sort -u | tr '\n' ' ')
case "$rte" in
"" | "librte-eal"[0-9]*" ") ;;
*) echo "runtime package depends on DPDK libraries beyond EAL: $rte"; exit 1 ;;
esac
grep -q "libdpdk-dev" <<<"$(dpkg-deb -f "$dev" Depends)" || { echo "dev lacks libdpdk-dev"; exit 1; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
want_runtime=(./usr/bin/fastmib-stat ./usr/sbin/fastmib-agentx
	"./usr/lib/$multiarch/libfastmib.so.0" "./usr/lib/$multiarch/libfastmib_reader.so.0"
	"./usr/lib/$multiarch/fastmib/fastmib_snmpd.so"
	./usr/lib/systemd/system/fastmib-agentx.service
	./usr/share/man/man8/fastmib-agentx.8.gz ./usr/share/man/man1/fastmib-stat.1.gz
	./usr/share/snmp/mibs/EXAMPLE-DATAPLANE-MIB.txt)
want_dev=(./usr/bin/fastmib-gen ./usr/include/fastmib/fastmib.h
	"./usr/lib/$multiarch/libfastmib.a" "./usr/lib/$multiarch/libfastmib.so"
	"./usr/lib/$multiarch/pkgconfig/fastmib.pc"
	"./usr/lib/$multiarch/cmake/fastmib/fastmibConfig.cmake")
list() { dpkg-deb -c "$1" | awk '{ print $6 }'; }
for f in "${want_runtime[@]}"; do
	list "$runtime" | grep -qxF "$f" || { echo "fastmib lacks $f"; list "$runtime"; exit 1; }
done
for f in "${want_dev[@]}"; do
	list "$dev" | grep -qxF "$f" || { echo "fastmib-dev lacks $f"; list "$dev"; exit 1; }
done

# Unpacked into a throwaway root: the programs run from it.
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$runtime" "$root"
dpkg-deb -x "$dev" "$root"
grep -q "^ExecStart=/usr/sbin/fastmib-agentx " "$root/usr/lib/systemd/system/fastmib-agentx.service" ||
	{ echo "unit does not start /usr/sbin/fastmib-agentx"; exit 1; }
# The unit's user comes from the postinst (adduser), run by dpkg.
unit_user=$(sed -n 's/^User=//p' "$root/usr/lib/systemd/system/fastmib-agentx.service")
grep -q "adduser" <<<"$depends" || { echo "runtime Depends lacks adduser: $depends"; exit 1; }
mkdir "$root/DEBIAN"
dpkg-deb -e "$runtime" "$root/DEBIAN"
[ -x "$root/DEBIAN/postinst" ] || { echo "fastmib has no executable postinst"; exit 1; }
sh -n "$root/DEBIAN/postinst"
grep -Eq "adduser --system .*(--group|--ingroup $unit_user) $unit_user\$" "$root/DEBIAN/postinst" ||
	{ echo "the postinst does not create the unit's user $unit_user"; exit 1; }
export LD_LIBRARY_PATH="$root/usr/lib/$multiarch"
for p in usr/bin/fastmib-gen usr/bin/fastmib-stat usr/sbin/fastmib-agentx; do
	"$root/$p" --help >/dev/null
	"$root/$p" --version | grep -qF "$ver" || { echo "$p --version"; exit 1; }
done
"$root/usr/bin/fastmib-gen" --check "$root/usr/share/fastmib/examples/dataplane.yaml"
echo "packages: $(basename "$runtime") $(basename "$dev"), checked"
