package report

import "net/netip"

// A peer is known to WireGuard by its key, and to an operator by its node's
// overlay address: the one its allowedIPs hold. The node has only its own
// document (apply never reads another node's), so the address is the one
// the document routes to that peer.

// overlayAddress is the address a peer is named by: the first host route
// of its allowedIPs on one of the interface's own networks, else the first
// route on them (a hub's), else its first host route; "" when none.
func overlayAddress(own, allowed []string) string {
	var nets []netip.Prefix
	for _, a := range own {
		if p, err := netip.ParsePrefix(a); err == nil {
			nets = append(nets, p.Masked())
		}
	}
	onOwn := func(p netip.Prefix) bool {
		for _, n := range nets {
			if n.Contains(p.Addr()) && n.Bits() <= p.Bits() {
				return true
			}
		}
		return false
	}
	var route, host string
	for _, a := range allowed {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			continue
		}
		switch {
		case p.IsSingleIP() && onOwn(p):
			return p.Addr().String()
		case onOwn(p) && route == "":
			route = p.String()
		case p.IsSingleIP() && host == "":
			host = p.Addr().String()
		}
	}
	if route != "" {
		return route
	}
	return host
}

// Name is how status names the peer: its overlay address with the start of
// its key ("10.30.0.2 (U4KrOLxW...)"), or its key when it has none.
func (p Peer) Name() string {
	if p.Address == "" {
		return p.PublicKey
	}
	k := p.PublicKey
	if len(k) > 8 {
		k = k[:8] + "..."
	}
	return p.Address + " (" + k + ")"
}
