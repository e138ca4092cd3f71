// Package systemd is what the agent knows of systemd, as data: the Manager
// interface the executor drives systemd through (whether a unit is loaded
// behind the disk, daemon-reload, start, restart, reload and stop waited for
// with the job result checked, a start queued and not waited for, a unit's
// state), the errors of a job, how a service's last start went (ServiceRun),
// and where unit files and drop-ins live (UnitDir, DropInPath).
//
// It performs no I/O: package bus implements Manager over D-Bus with
// go-systemd, and package offline reads and makes the enable links of a unit
// under a root. systemdtest's Fake records calls as text for tests. It does
// not decide which units to touch (render does) and does not write unit
// files.
package systemd
