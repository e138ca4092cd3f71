package cluster

import (
	"net/netip"
	"slices"
)

// SharedVIPs are the virtual IPs the set's controllers share (ha on), for
// validating each document with schema.SharedVirtualIPs: a controller at
// another site, without ha, has one as its cluster.endpoint, which one
// document alone cannot tell from an address nobody holds. Whether such a
// controller is in fact at another site is the HA check's (ha.go: one on
// the virtual IP's network without ha is reported there).
func SharedVIPs(in []Node) []netip.Addr {
	var out []netip.Addr
	for _, n := range in {
		if n.Doc == nil || n.Doc.Config == nil {
			continue
		}
		cfg := n.Doc.Config
		if !cfg.Role.IsController() || !cfg.HA.On() {
			continue
		}
		if p, err := netip.ParsePrefix(cfg.HA.VirtualIP); err == nil && !slices.Contains(out, p.Addr().Unmap()) {
			out = append(out, p.Addr().Unmap())
		}
	}
	return out
}

// DialsSharedVIP reports whether the node is a controller without ha whose
// cluster.endpoint is one of vips: the one document the set's virtual IPs
// change the findings of.
func DialsSharedVIP(n Node, vips []netip.Addr) bool {
	if n.Doc == nil || n.Doc.Config == nil {
		return false
	}
	cfg := n.Doc.Config
	a, err := netip.ParseAddr(cfg.Cluster.Endpoint)
	return err == nil && cfg.Role.IsController() && !cfg.HA.On() && slices.Contains(vips, a.Unmap())
}
