#!/usr/bin/env bash
# The Debian packages as `make package` builds them (debhelper, Release,
# -Werror, dpkg-buildflags' hardening), checked without installing them on
# this machine: lintian clean of errors and warnings, the library packages
# named after their SONAMEs with shlibs that dpkg-shlibdeps resolves for
# an application linked against libfastmib-dev, stripped hardened
# binaries with -dbgsym packages, the conffile and the unit's maintainer
# scripts. tests/install/clean-root.sh installs them into a clean root.
# Usage: debian.sh SOURCE OUTDIR BASE_MIBS
set -euo pipefail
src=$1 out=$2 mibs=$3
ver=${FASTMIB_VERSION:?}
fail() { echo "FAIL: $*"; exit 1; }

"$src/packaging/build-debs.sh" "$out" "$mibs" >/dev/null
cd "$out"
for p in libfastmib0 libfastmib-reader0 libfastmib-dev fastmib fastmib-exporter; do
	[ -f "${p}_${ver}_amd64.deb" ] || [ -f "${p}_${ver}_$(dpkg --print-architecture).deb" ] ||
		fail "no package $p"
	ls "${p}-dbgsym_${ver}_"*.deb >/dev/null || fail "no $p-dbgsym"
done
arch=$(dpkg --print-architecture) ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

# lintian, default profile: no error, no warning (overrides carry reasons).
# It leaves temporary files (mldbm-elf-*) behind: a directory of its own.
lintmp=$(mktemp -d) root=$(mktemp -d)
trap 'rm -rf "$lintmp" "$root"' EXIT
TMPDIR=$lintmp lintian --fail-on error,warning ./*.changes 2>&1 | grep -v "root privileges" || true
TMPDIR=$lintmp lintian --fail-on error,warning ./*.changes >/dev/null 2>&1 || fail "lintian"

for d in ./*.deb; do dpkg-deb -x "$d" "$root"; done
has() { dpkg-deb -c "$1_${ver}_${arch}.deb" | awk '{print $6}' | grep -qxF "$2" ||
	fail "$1 lacks $2"; }
has libfastmib0 "./usr/lib/$ma/libfastmib.so.0"
has libfastmib-reader0 "./usr/lib/$ma/libfastmib_reader.so.0"
has libfastmib-dev ./usr/include/fastmib/fastmib.h
has libfastmib-dev "./usr/lib/$ma/libfastmib.so"
has libfastmib-dev "./usr/lib/$ma/pkgconfig/fastmib.pc"
has libfastmib-dev ./usr/bin/fastmib-gen
has fastmib ./usr/sbin/fastmib-agentx
has fastmib ./etc/fastmib/agentx.conf
has fastmib ./lib/systemd/system/fastmib-agentx.service
has fastmib ./usr/lib/tmpfiles.d/fastmib.conf
has fastmib "./usr/lib/$ma/fastmib/fastmib_snmpd.so"
has fastmib-exporter ./usr/bin/fastmib-exporter
has fastmib-exporter ./etc/fastmib/exporter.conf
has fastmib-exporter ./etc/default/fastmib-exporter
has fastmib-exporter ./lib/systemd/system/fastmib-exporter.service
[ "$(dpkg-deb -f libfastmib0_${ver}_${arch}.deb Package)" = libfastmib0 ]
objdump -p "$root/usr/lib/$ma/libfastmib.so.0" | grep -q "SONAME *libfastmib.so.0$" ||
	fail "libfastmib0 does not hold SONAME libfastmib.so.0"

# hardening and stripping, on every ELF file shipped
for f in usr/sbin/fastmib-agentx usr/bin/fastmib-stat usr/bin/fastmib-gen \
	"usr/lib/$ma/libfastmib.so.0" "usr/lib/$ma/libfastmib_reader.so.0" \
	"usr/lib/$ma/fastmib/fastmib_snmpd.so"; do
	e="$root/$f"
	# whole outputs first: grep -q closing a pipe early fails it (pipefail)
	prog=$(readelf -lW "$e") dyn=$(readelf -dW "$e") sec=$(readelf -SW "$e")
	syms=$(readelf -sW --dyn-syms "$e")
	grep -q GNU_RELRO <<<"$prog" || fail "$f: no RELRO"
	grep -Eq "BIND_NOW|FLAGS.*NOW" <<<"$dyn" || fail "$f: no BIND_NOW"
	grep -q " .symtab " <<<"$sec" && fail "$f: not stripped"
	grep -q "__stack_chk_fail" <<<"$syms" || fail "$f: no stack protector"
	grep -Eq "__[a-z]+_chk@" <<<"$syms" || fail "$f: not fortified"
	id=$(readelf -nW "$e" | sed -n 's/.*Build ID: //p')
	[ -f "$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] ||
		fail "$f: no debug symbols in a -dbgsym package"
	case "$f" in
	*bin/*) [ "$(readelf -hW "$e" | awk '/Type:/ {print $2}')" = DYN ] ||
		fail "$f: not PIE" ;;
	esac
done

# maintainer scripts: user before the tmpfiles line, unit enabled and
# started, stopped on removal, forgotten on purge; the configuration is a
# conffile
ctl=$(mktemp -d -p "$root")
dpkg-deb -e "fastmib_${ver}_${arch}.deb" "$ctl"
grep -qx /etc/fastmib/agentx.conf "$ctl/conffiles" || fail "agentx.conf not a conffile"
sh -n "$ctl/postinst" && sh -n "$ctl/postrm" && sh -n "$ctl/prerm"
grep -q "adduser --system" "$ctl/postinst" || fail "postinst makes no user"
[ "$(grep -n 'adduser' "$ctl/postinst" | head -1 | cut -d: -f1)" -lt \
  "$(grep -n 'systemd-tmpfiles' "$ctl/postinst" | head -1 | cut -d: -f1)" ] ||
	fail "the tmpfiles line (group fastmib) is applied before the user exists"
grep -q "deb-systemd-helper enable 'fastmib-agentx.service'" "$ctl/postinst" ||
	fail "postinst does not enable the unit"
grep -q "_dh_action=.*start" "$ctl/postinst" &&
	grep -q "deb-systemd-invoke \$_dh_action 'fastmib-agentx.service'" "$ctl/postinst" ||
	fail "postinst does not start the unit"
grep -q "deb-systemd-invoke stop 'fastmib-agentx.service'" "$ctl/prerm" ||
	fail "prerm does not stop the unit"
grep -q "deb-systemd-helper purge 'fastmib-agentx.service'" "$ctl/postrm" ||
	fail "postrm does not forget the unit on purge"
grep -q "rm -rf /var/lib/fastmib-agentx" "$ctl/postrm" || fail "purge keeps the state"

# the exporter's package: its settings are conffiles, its unit enabled,
# started, stopped and forgotten as the agent's, its user made first
ctlx=$(mktemp -d -p "$root")
dpkg-deb -e "fastmib-exporter_${ver}_${arch}.deb" "$ctlx"
grep -qx /etc/fastmib/exporter.conf "$ctlx/conffiles" || fail "exporter.conf not a conffile"
grep -qx /etc/default/fastmib-exporter "$ctlx/conffiles" ||
	fail "/etc/default/fastmib-exporter not a conffile"
sh -n "$ctlx/postinst" && sh -n "$ctlx/postrm" && sh -n "$ctlx/prerm"
[ "$(grep -n 'adduser' "$ctlx/postinst" | head -1 | cut -d: -f1)" -lt \
  "$(grep -n 'deb-systemd-helper' "$ctlx/postinst" | head -1 | cut -d: -f1)" ] ||
	fail "the exporter's unit is enabled before its user exists"
grep -q "deb-systemd-helper enable 'fastmib-exporter.service'" "$ctlx/postinst" ||
	fail "postinst does not enable the exporter's unit"
grep -q "deb-systemd-invoke \$_dh_action 'fastmib-exporter.service'" "$ctlx/postinst" ||
	fail "postinst does not start the exporter's unit"
grep -q "deb-systemd-invoke stop 'fastmib-exporter.service'" "$ctlx/prerm" ||
	fail "prerm does not stop the exporter's unit"

# an application linked against libfastmib-dev: dpkg-shlibdeps finds its
# library package through the shlibs file libfastmib0 ships
app=$(mktemp -d -p "$root")
cat >"$app/app.c" <<'C'
#include <errno.h>
#include <fastmib/fastmib.h>
int main(void) { return fastmib_create(NULL, NULL, NULL, NULL) == -EINVAL ? 0 : 1; }
C
# fastmib.pc finds its prefix from its own place: the unpacked root
export PKG_CONFIG_PATH="$root/usr/lib/$ma/pkgconfig"
# shellcheck disable=SC2046
cc -o "$app/app" "$app/app.c" $(pkg-config --cflags --libs fastmib) ||
	fail "an application does not build against libfastmib-dev"
mkdir -p "$app/debian"
printf 'Source: app\n\nPackage: app\nArchitecture: any\n' >"$app/debian/control"
for p in libfastmib0 libfastmib-reader0; do
	mkdir -p "$app/debian/$p/DEBIAN" "$app/ctl-$p"
	dpkg-deb -e "${p}_${ver}_${arch}.deb" "$app/ctl-$p"
	cp "$app/ctl-$p/shlibs" "$app/debian/$p/DEBIAN/shlibs"
done
deps=$(cd "$app" && dpkg-shlibdeps -O -l"$root/usr/lib/$ma" app 2>"$app/warnings") ||
	fail "dpkg-shlibdeps: $deps"
grep -q "libfastmib0 (>= $ver)" <<<"$deps" || fail "dpkg-shlibdeps: $deps"
echo "packages of $ver: lintian clean, hardened, stripped with -dbgsym; $deps"
