#!/usr/bin/env bash
# The packages as a new user meets them: a clean Debian 12 root
# (debootstrap --variant=minbase), `apt install` of the four packages
# from `make package` (which pulls every dependency), lintian there,
# an application built against libfastmib-dev passing dpkg-shlibdeps,
# the user, the conffile and /run/fastmib after install, and nothing
# left after `apt purge` but the system user. Too slow for `make test`
# (it downloads a root of its own: several minutes); run as root:
#   make package && tests/install/clean-root.sh build-package [ROOT]
set -euo pipefail
debs=$(cd "$1" && pwd)
root=${2:-$(mktemp -d /var/tmp/fastmib-root.XXXXXX)}
mirror=${MIRROR:-http://deb.debian.org/debian}
fail() { echo "FAIL: $*"; exit 1; }
in_root() { chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive "$@"; }

[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" "$mirror"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
mkdir -p "$root/debs"
cp "$debs"/libfastmib0_*.deb "$debs"/libfastmib-reader0_*.deb \
	"$debs"/libfastmib-dev_*.deb "$debs"/fastmib_*.deb "$root/debs/"
mapfile -t inroot < <(cd "$root" && ls debs/*.deb | sed 's|^|/|')
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends "${inroot[@]}" snmp gcc \
	libc6-dev dpkg-dev lintian >/dev/null

in_root lintian --fail-on error,warning "${inroot[@]}" || fail "lintian in the root"
getent passwd fastmib >/dev/null || in_root getent passwd fastmib >/dev/null ||
	fail "no user fastmib"
[ -f "$root/etc/fastmib/agentx.conf" ] || fail "no /etc/fastmib/agentx.conf"
in_root dpkg-query -W -f='${Conffiles}\n' fastmib | grep -q /etc/fastmib/agentx.conf ||
	fail "agentx.conf is no conffile"
in_root /usr/sbin/fastmib-agentx -v

# an application packaged with debhelper's tools finds its dependencies
mkdir -p "$root/app/debian"
cat >"$root/app/app.c" <<'C'
#include <errno.h>
#include <fastmib/fastmib.h>
int main(void) { return fastmib_create(NULL, NULL, NULL, NULL) == -EINVAL ? 0 : 1; }
C
printf 'Source: app\n\nPackage: app\nArchitecture: any\n' >"$root/app/debian/control"
in_root sh -c 'cd /app && cc -o app app.c $(pkg-config --cflags --libs fastmib) &&
	./app && dpkg-shlibdeps -O app' | tee "$root/app/deps"
grep -q "libfastmib0 (>= " "$root/app/deps" || fail "dpkg-shlibdeps"

# purge: nothing left but the user
in_root apt-get purge -y -qq fastmib >/dev/null
for p in /etc/fastmib /var/lib/fastmib-agentx \
	/etc/systemd/system/multi-user.target.wants/fastmib-agentx.service; do
	[ ! -e "$root$p" ] || fail "$p left after purge"
done
echo "clean root $root: installed, lintian clean, dpkg-shlibdeps ok, purged clean"
