#!/usr/bin/env bash
# Installs the Debian packages the tests use with real parts (see
# ../shared/design/testing.md; cloud-init for `cloud-init schema` on the
# examples; grub-emu for GRUB quoting; keepalived for the cluster lab's
# virtual IP; iPXE's EFI build, OVMF and binutils for the iPXE oracle
# (test/ipxe: iPXE itself boots each script); QEMU, swtpm for its
# emulated TPM2, and mke2fs, mkfs.vfat and mcopy
# for the VM test's disks, made without loop mounts; PostgreSQL for the
# cluster lab's kine). Without root it only reports what is missing.
set -euo pipefail
need=()
for pair in wg:wireguard-tools wireguard-go:wireguard-go ip:iproute2 ping:iputils-ping keepalived:keepalived \
	nft:nftables sysctl:procps systemd-nspawn:systemd-container debootstrap:debootstrap cloud-init:cloud-init grub-emu:grub-emu \
	qemu-system-x86_64:qemu-system-x86 mke2fs:e2fsprogs mkfs.vfat:dosfstools mcopy:mtools \
	swtpm:swtpm swtpm_setup:swtpm-tools as:binutils; do
	cmd=${pair%%:*} pkg=${pair#*:}
	command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
# PostgreSQL's server programs are not on PATH, nor are firmware files.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
[ -e /usr/share/ovmf/OVMF.fd ] || need+=(ovmf)
[ -e /usr/lib/ipxe/ipxe.efi ] || need+=(ipxe)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root, not installing: ${need[*]} (privileged tests will skip)" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Without --no-install-recommends wireguard-tools pulls in a kernel image.
apt-get install -y -qq --no-install-recommends "${need[@]}"
