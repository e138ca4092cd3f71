// Package apply carries a plan out, the only code of a run with side
// effects. The Executor writes files and links atomically under a root and
// hands each live action to a Live: LiveHost drives systemd (a reload only
// when a unit is loaded behind the disk, starts and restarts waited for),
// runs `k0s install` (and syncs the filesystem of the unit it wrote
// unsynced), sets the hostname, programs the guard, adds and removes whole
// WireGuard peers with wg (WgTool: `wg addconf` of the added peers' sections
// of the file on disk, `wg set peer KEY remove`) and checks each WireGuard
// device against what its file states, with wgctrl and netlink (Verifier);
// applytest.RecordingLive and RecordingPeers record the actions and the peer
// changes as text for tests. Under a root other than the host's "/", live
// actions are listed as skipped. The drivers it reaches through narrow
// interfaces are their own packages: systemd/bus (D-Bus), firewall/nft
// (nftables), hostfacts/gather (netlink), rootfs (the filesystem under a
// root).
//
// It does not decide what to write or do (render) or in which run (package
// bootstrap).
package apply
