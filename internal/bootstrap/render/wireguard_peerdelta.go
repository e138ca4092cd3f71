package render

import (
	"reflect"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/wgquick"
)

// PeerDelta says whether a running interface whose change a reload carries
// (ReloadSuffices) takes the change from the file old to the file next by
// adding and removing whole peers alone, and which: the [Interface] the
// same, every peer in both files the same, and at least one peer added or
// removed. Both files are compared as wg and wg-quick read them
// (wgquick.Parse), so a rotated preshared key, which leaves the
// configuration as it was and changes the file, counts as a changed peer,
// and a file whose peers cannot be told apart (two sections of one key) or
// that does not parse takes a reload.
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
	was, err1 := wgquick.Parse(old)
	now, err2 := wgquick.Parse(next)
	if err1 != nil || err2 != nil || !sameInterface(was.Interface, now.Interface) || !distinctPeers(was) || !distinctPeers(now) {
		return nil, nil, false
	}
	for _, n := range now.Peers {
		o, found := peerOf(was, n.PublicKey)
		if !found {
			add = append(add, plan.Key(n.PublicKey))
			continue
		}
		if !reflect.DeepEqual(o, n) {
			return nil, nil, false
		}
	}
	for _, o := range was.Peers {
		if _, found := peerOf(now, o.PublicKey); !found {
			remove = append(remove, plan.Key(o.PublicKey))
		}
	}
	return add, remove, len(add)+len(remove) > 0
}

// sameInterface compares two [Interface] sections as the readers see them:
// the comment above the MTU line is not read.
func sameInterface(a, b wgquick.Interface) bool {
	a.MTUComment, b.MTUComment = "", ""
	return reflect.DeepEqual(a, b)
}

func distinctPeers(f wgquick.File) bool {
	seen := map[wgtypes.Key]bool{}
	for _, p := range f.Peers {
		if seen[p.PublicKey] {
			return false
		}
		seen[p.PublicKey] = true
	}
	return true
}

func peerOf(f wgquick.File, k wgtypes.Key) (wgquick.Peer, bool) {
	for _, p := range f.Peers {
		if p.PublicKey == k {
			return p, true
		}
	}
	return wgquick.Peer{}, false
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
