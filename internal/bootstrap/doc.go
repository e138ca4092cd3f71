// Package bootstrap turns a validated configuration, its resolved secrets and
// the host's facts into a Plan (render, pure) and carries the plan out with
// the Executor (apply, the only code here with side effects).
//
// Render decides what the node becomes: the wg-quick files and units, with
// the MTU each file states (InterfaceMTU, one decision the CNI's MTU is
// derived from), the node address (SelectNodeAddress, one Decision handed to
// every k0s file), the hostname, the k0s configuration, drop-ins and install
// command, the guard file (through package firewall), and on day two, from
// what was applied before (Previous), whether each interface is reloaded,
// restarted, or removed. Apply writes files under a root and performs the
// plan's live actions through the Live interface: LiveHost drives systemd,
// runs `k0s install`, checks a WireGuard device against what its file
// states with wgctrl and netlink (Verifier) and applies the guard;
// RecordingLive records them as text for tests. GatherFacts reads the host's
// links, default route and routes to the peers' endpoints over netlink;
// ReadPrevious, ReadHostnameFacts and ReadWgQuickLinks read from the root
// what render needs of it, so render itself reads nothing.
//
// It does not parse or validate configuration (schema), resolve secrets
// (secret), find the document or sequence a whole run (firstboot), or
// program nftables itself (firewall).
package bootstrap
