// Package notifytest is a stand-in for the service manager's end of
// sd_notify: a notify socket that keeps every datagram sent to it, for tests
// of what the agent tells systemd (package notify, the resolver's waiting
// status). No production code imports it.
package notifytest
