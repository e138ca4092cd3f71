// Package bus is the live systemd.Manager: systemd's D-Bus API (daemon-reload,
// start/restart/reload/stop with their job results, a queued start, a unit's
// state). It is the only package that links D-Bus; the unit files and
// offline enablement (package systemd) are data and need none of it.
package bus
