package render

import (
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
)

// ReloadSuffices says whether a running interface takes the change from old
// to next through wg-quick@'s ExecReload, `wg syncconf IF <(wg-quick strip
// IF)`, instead of a restart. A restart of wg-quick@IF is propagated by
// systemd to every unit that Requires= it, k0s among them; a reload is not.
// old and next carry the MTU their files state: render fills in a derived
// one (InterfaceMTU), and an old file that states none leaves old.MTU nil.
//
// syncconf sets what `wg-quick strip` keeps: the private key, the listen
// port and the peers. It does not touch what wg-quick itself does at `up`:
// the addresses, the MTU, and a route for each allowed IP the addresses do
// not already cover. So a change to the addresses, the MTU, or that set of
// routes needs a restart.
//
// Of the rest, syncconf can only set what the file states, so a value the
// old file set and the new one drops must be cleared by syncconf itself, or
// it stays on the device (wireguard-tools src/setconf.c, sync_conf and
// src/config.c):
//   - ListenPort: cleared. config_read_init sets WGDEVICE_HAS_LISTEN_PORT
//     for every setconf and syncconf, with port 0 when the file has none,
//     and the device binds a fresh port. Dropping it reloads.
//   - a peer's Endpoint: kept. parse_endpoint is the only writer and there is
//     no flag that clears an endpoint; only removing the peer would. Dropping
//     it restarts.
//   - a peer's PresharedKey and PersistentKeepalive: sync_conf clears them
//     only since wireguard-tools v1.0.20260223 (commits "syncconf: account
//     for psks removed from config file" and "... persistent keepalive
//     removed ..."); v1.0.20210914 and v1.0.20250521 keep them. The node's
//     version is not known at render time, so dropping either restarts.
//   - a peer's AllowedIPs: replaced (every [Peer] section sets
//     WGPEER_REPLACE_ALLOWEDIPS); a removed peer is removed
//     (WGPEER_REMOVE_ME). Both reload; a change of whole peers alone is
//     not reloaded but made peer by peer (PeerDelta), since the
//     replacement drops what is routed to the peers that stay meanwhile.
func ReloadSuffices(old, next schema.WireGuard) bool {
	oldAddrs, ok1 := plan.PrefixSet(old.Address, false)
	newAddrs, ok2 := plan.PrefixSet(next.Address, false)
	if !ok1 || !ok2 || !slices.Equal(oldAddrs, newAddrs) {
		return false
	}
	if !equalIntPtr(old.MTU, next.MTU) || dropsPeerField(old, next) {
		return false
	}
	oldRoutes, ok1 := wgQuickRoutes(old, oldAddrs)
	newRoutes, ok2 := wgQuickRoutes(next, newAddrs)
	return ok1 && ok2 && slices.Equal(oldRoutes, newRoutes)
}

// dropsPeerField says whether a peer in both old and next loses a field
// that syncconf leaves on the device when the file drops it.
func dropsPeerField(old, next schema.WireGuard) bool {
	for _, o := range old.Peers {
		for _, n := range next.Peers {
			if o.PublicKey != n.PublicKey {
				continue
			}
			if o.Endpoint != "" && n.Endpoint == "" ||
				o.PersistentKeepalive != nil && n.PersistentKeepalive == nil ||
				hasPresharedKey(o) && !hasPresharedKey(n) {
				return true
			}
		}
	}
	return false
}

func hasPresharedKey(p schema.Peer) bool {
	return p.PresharedKey != nil || p.PresharedKeyFrom != nil
}

// wgQuickRoutes is the set of routes `wg-quick up` adds for the peers'
// allowed IPs: one per prefix that no connected route of the interface's
// addresses already matches (wg-quick checks `ip route show dev IF match`).
func wgQuickRoutes(wg schema.WireGuard, addrs []netip.Prefix) ([]netip.Prefix, bool) {
	var allowed []string
	for _, p := range wg.Peers {
		allowed = append(allowed, p.AllowedIPs...)
	}
	all, ok := plan.PrefixSet(allowed, true)
	if !ok {
		return nil, false
	}
	var routes []netip.Prefix
	for _, p := range all {
		if !coveredBy(p, addrs) {
			routes = append(routes, p)
		}
	}
	return routes, true
}

func coveredBy(p netip.Prefix, connected []netip.Prefix) bool {
	for _, c := range connected {
		if c.Bits() <= p.Bits() && c.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

func equalIntPtr(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
