// Package offline enables a unit under a root without systemd running, the
// way `systemctl --root=DIR enable` does: OfflineLinks reads the unit's
// [Install] section from its file (an instance through its template's) and
// says which .wants/.requires and alias links enabling it makes;
// EnableOffline makes them.
//
// It reads and writes under a root only (package rootfs), never the live
// systemd (package bus does). It does not decide which units to enable
// (render does).
package offline
