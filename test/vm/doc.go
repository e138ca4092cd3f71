// Package vm holds the VM test: two real virtual machines (QEMU, under TCG
// unless KVM is shown to make progress) booting a real Debian trixie kernel
// with its initramfs and systemd, joined by a private network of QEMU's own
// (unix datagram sockets: no host network, no traffic anywhere else), each
// carrying the image's files, the agent and the k0s stand-in.
//
// It proves what the other tests cannot: the kernel's WireGuard (the
// modules-load.d entry loads the module by itself, wg0 is a kernel device),
// a PXE boot by QEMU's iPXE ROM over TFTP, the configuration read from the
// real kernel command line the iPXE script carries and from a real
// NoCloud seed disk by cloud-init's own datasource, secrets handed over as
// SMBIOS type 11 credentials (w1's sealed to its emulated TPM2 and
// decrypted by systemd, another TPM or none refusing them), a join token fetched over https from a server
// on the other machine that comes up after the first attempts failed (and
// from one that never does), NetworkManager's network-online.target, the
// guard tested with packets from the other machine, a reboot, and a node
// whose overlay cannot come up keeping k0s from ever running.
//
// The guest's common part (kernel, initramfs, packages) is built once and
// cached by scripts/vm-image.sh; each VM's disk is made from it at test time
// with mke2fs -d from a staging tree, without loop mounts. The test talks to
// a guest over a virtio-serial port (guestd, package wire): test equipment,
// like the stand-in, not part of the image.
//
// The guest is Debian, not the Fedora bootc image: SELinux, composefs /usr,
// bootc itself and Fedora's package versions stay untested here, and so
// does k0s (the stand-in, test/boot/k0sstandin, refuses what k0s refuses and
// records how it was installed and started).
package vm
