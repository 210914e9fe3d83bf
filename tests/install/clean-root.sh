#!/usr/bin/env bash
# The packages as a new user meets them: a clean Debian 12 root
# (debootstrap --variant=minbase), `apt install` of the four packages
# from `make package` (which pulls every dependency), lintian there,
# an application built against libfastmib-dev passing dpkg-shlibdeps,
# the user and the conffile after install, and nothing left after `apt
# purge` but the system user. Then the root gets systemd, as a stock
# Debian has it, and the packages again: /run/fastmib is there at once
# (tmpfiles.d, applied by the postinst); the root boots (systemd-nspawn,
# its own network), and quickstart.sh replays in it the
# README's quick start and the set-up of docs/operations.md, their code
# blocks cut out of the documents here. Too slow for `make test` (it
# downloads a root of its own: several minutes); run as root:
#   make package && tests/install/clean-root.sh build-package [ROOT]
# (debootstrap, systemd-nspawn from systemd-container: scripts/install-deps.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
debs=$(cd "$1" && pwd)
root=${2:-$(mktemp -d /var/tmp/fastmib-root.XXXXXX)}
mirror=${MIRROR:-http://deb.debian.org/debian}
fail() { echo "FAIL: $*"; exit 1; }
in_root() { chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive "$@"; }

[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" "$mirror"
mount -t proc proc "$root/proc"
trap 'mountpoint -q "$root/proc" && umount "$root/proc"' EXIT
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

# ---- the quick start, replayed in the booted root ----

# block FILE WANT: the fenced code block of FILE whose opening fence is
# WANT (e.g. ```yaml) or whose first line contains WANT, without its
# fences and its list indentation; the first such block.
block() {
	awk -v want="$1" '
	/^ *```/ {
		if (inb) { if (hit) exit; inb = 0; next }
		inb = 1; n = 0; ind = index($0, "`") - 1
		fence = substr($0, ind + 1); hit = fence == want; next
	}
	inb {
		line = substr($0, ind + 1)
		if (n++ == 0 && index(line, want)) hit = 1
		if (hit) print line
	}' "$2"
}
qs=$root/quickstart
rm -rf "$qs" && mkdir -p "$qs"
block '```yaml' "$top/README.md" >"$qs/model.yaml"
block '```c' "$top/README.md" >"$qs/step3.c"
block 'sudo tee /etc/snmp/snmpd.conf.d/fastmib.conf' "$top/README.md" >"$qs/step4.sh"
block '.1.3.6.1.4.1.8072.9999.42.1.1.1.0 = Counter64' "$top/README.md" >"$qs/step4-output.txt"
block 'sudo systemctl enable --now fastmib-agentx' "$top/docs/operations.md" >"$qs/service.sh"
block '# /etc/systemd/system/snmpd.service.d/fastmib-monitor.conf' \
	"$top/docs/operations.md" >"$qs/monitor-dropin.conf"
block '# /etc/snmp/snmpd.conf.d/fastmib-monitor.conf' "$top/docs/operations.md" \
	>"$qs/monitor.conf"
for f in "$qs"/*; do [ -s "$f" ] || fail "no block for $(basename "$f") in the documents"; done
cp "$here/quickstart.sh" "$qs/"

# a stock system: its host name in /etc/hosts (as the installer writes
# it: sudo resolves it), systemd as init, sudo (the documents type it),
# the packages again, and snmpd and snmp (README, step 4)
grep -qw "$(cat "$root/etc/hostname")" "$root/etc/hosts" 2>/dev/null ||
	printf '127.0.1.1\t%s\n' "$(cat "$root/etc/hostname")" >>"$root/etc/hosts"
in_root apt-get install -y -qq --no-install-recommends systemd-sysv dbus sudo >/dev/null
in_root apt-get install -y -qq --no-install-recommends "${inroot[@]}" snmpd snmp >/dev/null
mode=$(in_root stat -c '%U:%G %a' /run/fastmib) || fail "no /run/fastmib after install"
[ "$mode" = "root:fastmib 2775" ] || fail "/run/fastmib after install: $mode"
echo "/run/fastmib after install: $mode"
umount "$root/proc"
# /sys/module as a host has it: the EAL looks there for vfio
systemd-nspawn -q -D "$root" -b --register=no --keep-unit --private-network \
	--bind-ro=/sys/module -M fastmib-quickstart --console=pipe \
	</dev/null >"$root/boot.log" 2>&1 &
nspawn=$!
in_system() { nsenter -t "$init" -a "$@"; }
state=
for _ in $(seq 600); do
	init=$(pgrep -P "$nspawn" -x systemd || true)
	[ -n "$init" ] && state=$(in_system systemctl is-system-running 2>/dev/null || true)
	case $state in running | degraded) break ;; esac
	sleep 0.1
done
echo "booted: ${state:-no}"
[ -n "$state" ] || fail "the root does not boot: $(cat "$root/boot.log")"
in_system systemctl --failed --no-pager --no-legend || true
rc=0
in_system /bin/bash /quickstart/quickstart.sh || rc=$?
in_system systemctl poweroff || true
wait "$nspawn" || true
[ "$rc" = 0 ] || fail "the quick start, replayed (above)"
