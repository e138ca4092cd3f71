// Package guest is what the boot tests (systemd-nspawn) and the VM test
// share about a guest: its root file system staged as an overlayfs over a
// cached tree (scripts/rootfs.sh, scripts/vm-image.sh), the record the k0s
// stand-in (test/boot/k0sstandin) keeps in it, and systemd's unit
// properties as `systemctl show` reports them.
package guest
