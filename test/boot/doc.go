// Package boot holds the boot test: the image's units booted with a real
// systemd (systemd-nspawn on a Debian trixie rootfs standing in for the bootc
// image, systemd 257 as on Fedora 44) in network namespaces the test makes,
// with the real agent, real wg-quick over wireguard-go, real cloud-init 25 on
// a layer of its own, and a recorded stand-in for k0s. It asserts the boot
// order from the journal, systemd's own unit timestamps and the files the
// units leave behind, never from how long something took.
//
// Each node is an overlayfs copy of the cached rootfs (scripts/rootfs.sh)
// running in cgroups of its own, so cleanup finds every process it left.
//
// It does not build or boot the OS image itself (that needs a container
// engine, the Fedora base and a VM), and it does not run k0s: the stand-in
// (test/boot/k0sstandin) refuses what k0s v1.36.3+k0s.0 refuses when it
// installs and starts (internal/k0s/rules), and otherwise only records how
// `k0s install` was called and when systemd started the unit it wrote.
package boot
