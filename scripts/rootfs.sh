#!/usr/bin/env bash
# Builds (once) and caches the Debian trixie rootfs that stands in for the
# bootc image in the boot tests: systemd 257 like Fedora 44, plus the
# WireGuard userspace tools. Prints the rootfs path.
set -euo pipefail
cache=${CORIUM_ROOTFS_CACHE:-/var/cache/corium-test}
rootfs=$cache/rootfs-trixie
stamp=$rootfs/.corium-rootfs-v1
if [ -f "$stamp" ]; then
	echo "$rootfs"
	exit 0
fi
mirror=$(grep -rhE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
	grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
rm -rf "$rootfs.partial"
mkdir -p "$cache"
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,iproute2,iputils-ping,nftables,wireguard-tools,wireguard-go \
	trixie "$rootfs.partial" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
	tail -n 30 "$cache/debootstrap.log" >&2
	exit 1
}
# A machine-id is written per boot test; an empty one here keeps first-boot
# semantics (ConditionFirstBoot) out of the picture.
: >"$rootfs.partial/etc/machine-id"
touch "$rootfs.partial/.corium-rootfs-v1"
mv "$rootfs.partial" "$rootfs"
echo "$rootfs"
