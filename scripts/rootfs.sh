#!/usr/bin/env bash
# Builds (once) and caches the Debian trixie rootfs that stands in for the
# bootc image in the boot tests: systemd 257 like Fedora 44, plus the
# WireGuard userspace tools. Prints the rootfs path.
#
# With the argument "cloud-init" it also builds (once) an overlayfs layer on
# top of that rootfs with cloud-init installed, for the boot test of the
# image's ordering after cloud-init, and prints the layer's path instead.
# Mount it as lowerdir=LAYER:ROOTFS.
set -euo pipefail
cache=${CORIUM_ROOTFS_CACHE:-/var/cache/corium-test}
rootfs=$cache/rootfs-trixie
stamp=$rootfs/.corium-rootfs-v1
layer=$cache/layer-cloud-init
layer_stamp=$layer/.corium-layer-v1

# Test packages run in parallel and more than one asks for the layers: one
# builds, the others wait for it instead of building over it.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

build_cloud_init_layer() {
	[ -f "$layer_stamp" ] && return 0
	tmp=$(mktemp -d)
	rm -rf "$layer.partial"
	mkdir -p "$layer.partial" "$tmp/work" "$tmp/merged"
	mount -t overlay overlay -o "lowerdir=$rootfs,upperdir=$layer.partial,workdir=$tmp/work" "$tmp/merged"
	trap 'umount "$tmp/merged" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=0 systemd-nspawn --quiet -D "$tmp/merged" --register=no --keep-unit --pipe \
		sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cloud-init &&
			apt-get clean && rm -rf /var/lib/apt/lists/*' >"$cache/cloud-init-layer.log" 2>&1 || {
		tail -n 30 "$cache/cloud-init-layer.log" >&2
		exit 1
	}
	umount "$tmp/merged"
	# nspawn leaves its (now empty) cgroup behind; rmdir removes only empty ones.
	for d in /sys/fs/cgroup/systemd/payload /sys/fs/cgroup/unified/payload; do
		[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
	done
	trap - EXIT
	rm -rf "$tmp"
	touch "$layer.partial/.corium-layer-v1"
	mv "$layer.partial" "$layer"
}

if [ -f "$stamp" ]; then
	if [ "${1:-}" = cloud-init ]; then
		build_cloud_init_layer
		echo "$layer"
	else
		echo "$rootfs"
	fi
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
if [ "${1:-}" = cloud-init ]; then
	build_cloud_init_layer
	echo "$layer"
else
	echo "$rootfs"
fi
