// Package boot holds the boot test: the image's units booted with a real
// systemd (systemd-nspawn on a Debian trixie rootfs standing in for the bootc
// image) in network namespaces the test makes, with the real agent, real
// wg-quick over wireguard-go, and a recorded stand-in for k0s. It asserts the
// boot order from the journal and the files the units leave behind.
//
// It does not build or boot the OS image itself (that needs a container
// engine and a VM), and it does not run k0s: the stand-in only records when
// systemd started it and what it was given.
package boot
