// Package systemd drives systemd for the agent: live, over D-Bus with
// go-systemd (whether a unit is loaded behind the disk, daemon-reload, start,
// restart, reload and stop waited for with the job result checked, a start
// queued and not waited for, a unit's state), and offline under a root,
// where enabling a unit is the .wants/.requires symlinks `systemctl
// --root=DIR enable` makes, and disabling it is removing them.
//
// Manager is the small interface the executor uses; Fake records calls as
// text for tests. It does not decide which units to touch (render
// does) and does not write unit files.
package systemd
