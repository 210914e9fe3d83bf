#!/usr/bin/env bash
# Install the Debian packages fastmib needs (idempotent, non-interactive)
# and unpack the IETF base MIBs (npm package net-snmp) into BUILD_DIR/base-mibs.
# Usage: scripts/install-deps.sh [BUILD_DIR]
set -euo pipefail

build_dir=${1:-build}
pkgs=(build-essential cmake pkg-config libdpdk-dev libyaml-dev libsnmp-dev
      snmpd snmp snmptrapd smitools libcmocka-dev libjansson-dev python3 python3-pytest
      clang libclang-rt-14-dev valgrind procps meson ninja-build dpkg-dev
      python3-pysnmp4 python3-yaml iproute2 dpdk-dev prometheus-snmp-exporter
      libsmartcols-dev libsystemd-dev debhelper lintian debootstrap systemd-container prometheus
      libmicrohttpd-dev libcrypt-dev python3-prometheus-client python3-bcrypt curl
      libprotobuf-c-dev protobuf-c-compiler libsnappy-dev libcurl4-openssl-dev
      python3-snappy python3-protobuf)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
# Node.js may come from elsewhere than Debian; only its npm command matters.
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	echo "fastmib: installing ${missing[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian ships no SNMPv2-SMI & co; take them from the npm package net-snmp.
mibdir="$build_dir/base-mibs"
if [ ! -f "$mibdir/SNMPv2-SMI" ]; then
	mkdir -p "$mibdir"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent net-snmp >/dev/null && tar xzf net-snmp-*.tgz)
	for f in "$tmp"/package/lib/mibs/*.mib; do
		cp "$f" "$mibdir/$(basename "$f" .mib)"
	done
	echo "fastmib: base MIBs in $mibdir"
fi
