package render

import (
	"slices"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// PeerDelta says whether a running interface whose change a reload carries
// (ReloadSuffices) takes the change from the file old to the file next by
// adding and removing whole peers alone, and which: the [Interface] the
// same, every peer in both files the same to the line, and at least one
// peer added or removed. Both files are compared as wg reads them
// (plan.ParseSections), so a rotated preshared key, which leaves the
// configuration as it was and changes the file, counts as a changed peer.
//
// A reload cannot do this without touching the peers that stay: `wg
// syncconf` sends every [Peer] of the file with WGPEER_F_REPLACE_ALLOWEDIPS
// (wireguard-tools src/config.c sets it on each [Peer] header and each
// AllowedIPs line), so the kernel (drivers/net/wireguard/netlink.c,
// set_peer) removes each unchanged peer's allowed IPs and inserts them
// again, and a packet routed between the two finds no peer and is dropped.
// `wg addconf` with only the added peers' sections sets no device field
// (config_read_init with append sets no WGDEVICE_ flag) and no other peer;
// `wg set IF peer KEY remove` sends that peer alone, with
// WGPEER_F_REMOVE_ME.
func PeerDelta(old, next []byte) (add, remove []plan.Key, ok bool) {
	was, ok1 := plan.ParseSections(old)
	now, ok2 := plan.ParseSections(next)
	if !ok1 || !ok2 || !slices.Equal(was.Interface, now.Interface) {
		return nil, nil, false
	}
	for _, n := range now.Peers {
		o, found := was.Peer(n.Key)
		if !found {
			add = append(add, n.Key)
			continue
		}
		if !slices.Equal(o.Lines, n.Lines) {
			return nil, nil, false
		}
	}
	for _, o := range was.Peers {
		if _, found := now.Peer(o.Key); !found {
			remove = append(remove, o.Key)
		}
	}
	return add, remove, len(add)+len(remove) > 0
}

// peerChange is the wireguard-peers change of interface name on an again run,
// from the file the last run left to conf, when PeerDelta finds one.
func peerChange(prev *Previous, name, confPath string, conf []byte) (*plan.PeerChange, bool) {
	if prev == nil {
		return nil, false
	}
	old, found := prev.Confs[name]
	if !found {
		return nil, false
	}
	add, remove, ok := PeerDelta(old, conf)
	if !ok {
		return nil, false
	}
	return &plan.PeerChange{Interface: name, Conf: confPath, Add: add, Remove: remove}, true
}
