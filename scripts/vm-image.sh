#!/usr/bin/env bash
# Builds (once) and caches the common part of the VM test's guest (test/vm):
# the cached Debian trixie rootfs (scripts/rootfs.sh) plus a kernel, its
# initramfs and the packages a Corium node carries (NetworkManager as the
# only network renderer, cloud-init, wireguard-tools, nftables), with
# wireguard-go removed: in a VM the overlay is the kernel's WireGuard.
# Prints the cache directory, which holds:
#
#   root/        the guest's tree; each VM's disk is made from it with
#                mke2fs -d, adding image/, the agent and the k0s stand-in
#   vmlinuz      the kernel and initramfs, booted directly by QEMU so the
#   initrd.img   test owns the kernel command line
#   stamp        the key of what it was built from
#
# The key covers this script (and so the package list) and the rootfs it
# started from; when either changes, the next call builds it again. image/,
# the agent and the stand-in are not part of it: they change with every
# commit and cost nothing to copy into a VM's disk at test time.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${CORIUM_ROOTFS_CACHE:-/var/cache/corium-test}
vm=$cache/vm-trixie

# What a Corium node carries, less k0s (the test's stand-in) and the agent.
# initramfs-tools and udev boot the kernel from a virtio disk; e2fsprogs and
# kmod are what the Fedora image has too. systemd loads the tpm2-tss
# libraries (esys, mu, rc and the device TCTI) only when it seals or
# decrypts a credential with the TPM, as Fedora's systemd does.
packages="linux-image-amd64 initramfs-tools udev kmod e2fsprogs network-manager cloud-init wireguard-tools nftables"
packages="$packages libtss2-esys-3.0.2-0t64 libtss2-mu-4.0.1-0t64 libtss2-rc0t64 libtss2-tcti-device0t64"

rootfs=$(bash scripts/rootfs.sh)
key=$( {
	sha256sum scripts/vm-image.sh | cut -d' ' -f1
	stat -c '%n %Y' "$rootfs"/.corium-rootfs-v*
} | sha256sum | cut -d' ' -f1)

mkdir -p "$cache"
# One test binary or script builds, the others wait for it (a separate lock
# from rootfs.sh's, which is taken above and released).
exec 9>"$cache/.vm-lock"
flock 9
if [ "$(cat "$vm/stamp" 2>/dev/null)" = "$key" ]; then
	echo "$vm"
	exit 0
fi

start=$(date +%s)
echo "vm-image: building the VM test's guest in $vm (once per change of its inputs)" >&2
rm -rf "$vm.partial"
mkdir -p "$vm.partial"
cp -a "$rootfs" "$vm.partial/root"
root=$vm.partial/root
rm -f "$root"/.corium-rootfs-v*

cleanup_cgroups() {
	# nspawn leaves its (now empty) cgroup behind; rmdir removes only empty ones.
	for d in /sys/fs/cgroup/systemd/payload /sys/fs/cgroup/unified/payload; do
		[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
	done
}
trap cleanup_cgroups EXIT
log=$cache/vm-image.log
# The initramfs only has to find a virtio disk: a short module list instead
# of Debian's "most" makes it a fraction of the size, and unpacking it under
# full emulation takes seconds less at every boot.
mkdir -p "$root/etc/initramfs-tools/conf.d"
echo MODULES=list >"$root/etc/initramfs-tools/conf.d/corium-vm.conf"
printf '%s\n' virtio_pci virtio_blk ext4 >>"$root/etc/initramfs-tools/modules"
SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=0 systemd-nspawn --quiet -D "$root" --register=no --keep-unit --pipe \
	sh -c "set -e
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages
		# The nspawn boot tests need wireguard-go; a Corium node has none.
		apt-get purge -y -qq wireguard-go
		apt-get clean
		rm -rf /var/lib/apt/lists/*" >"$log" 2>&1 || {
	tail -n 40 "$log" >&2
	exit 1
}

# A fresh image has no static hostname and no machine id: each VM gets its
# own machine id at test time (an empty file keeps first-boot semantics out).
rm -f "$root/etc/hostname"
: >"$root/etc/machine-id"

kernel=$(ls "$root"/boot/vmlinuz-* | sort -V | tail -n1)
initrd=$root/boot/initrd.img-${kernel##*/vmlinuz-}
if [ ! -f "$initrd" ]; then
	echo "vm-image: no initramfs for ${kernel##*/} in $root/boot; see $log" >&2
	exit 1
fi
cp "$kernel" "$vm.partial/vmlinuz"
cp "$initrd" "$vm.partial/initrd.img"
echo "$key" >"$vm.partial/stamp"
rm -rf "$vm"
mv "$vm.partial" "$vm"
echo "vm-image: built in $(($(date +%s) - start))s ($(du -sh "$vm/root" | cut -f1) tree, kernel ${kernel##*/vmlinuz-})" >&2
echo "$vm"
