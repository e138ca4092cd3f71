// Package notify tells the service manager what the agent is doing, through
// sd_notify STATUS, so `systemctl status corium-agent` shows what a first boot
// waits for. Outside systemd (NOTIFY_SOCKET unset) it does nothing.
//
// It does not log; callers log the same line themselves.
package notify
