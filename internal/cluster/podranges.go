package cluster

import (
	"net/netip"
)

// podRanges: the CNI carries pods between nodes in its own tunnels between
// the node addresses, and kube-proxy answers the service range on every
// node, so allowedIPs hold node addresses, never those ranges. wg-quick
// routes each allowed prefix to its one peer, so a prefix that is the pod or
// service range, or lies inside it, sends those pods or services to that
// peer whatever node they are on (an error); one wider than the range (a
// site's network that holds it) catches the pods' traffic no route of the
// CNI's catches (a warning). A full tunnel (0.0.0.0/0, ::/0) is the file's
// own warning. The ranges are the node's effective ones, its k0s.patch
// included.
func (c *check) podRanges() {
	for _, n := range c.set {
		net := n.k0s.Network
		if len(n.k0s.Problems) > 0 {
			continue // the file's own findings say why
		}
		var ranges []namedRange
		add := func(what string, list []string) {
			for _, s := range list {
				if p, err := netip.ParsePrefix(s); err == nil {
					name := what
					if net.DualStack && p.Addr().Is6() {
						name = "IPv6 " + what
					}
					ranges = append(ranges, namedRange{name, p.Masked()})
				}
			}
		}
		add("pod range", net.PodCIDRs(n.eff.Cluster.Endpoint))
		add("service range", net.ServiceCIDRs(n.eff.Cluster.Endpoint))
		for _, f := range n.ifaces {
			for _, e := range f.peers {
				c.holdsRange(n, e, ranges)
			}
		}
	}
}

type namedRange struct {
	what string
	p    netip.Prefix
}

func (c *check) holdsRange(n *node, e *entry, ranges []namedRange) {
	for k, s := range e.p.AllowedIPs {
		p, err := netip.ParsePrefix(s)
		if err != nil || p.Bits() == 0 {
			continue
		}
		p = p.Masked()
		path := ""
		for _, r := range ranges {
			if !p.Overlaps(r.p) {
				continue
			}
			if path == "" {
				path = e.path().Field("allowedIPs").Index(k).String()
			}
			switch {
			case n.bad[path]:
			case p.Bits() >= r.p.Bits():
				how := "inside"
				if p == r.p {
					how = "which is"
				}
				c.errorf(n, path, nil,
					"holds %s, %s the %s %s: wg-quick routes it to this one peer, so the traffic of every node's pods or services there goes to it; the CNI carries pods between the node addresses, so allowedIPs hold the peer's node addresses only: drop it",
					p, how, r.what, r.p)
			default:
				c.warnf(n, path, nil,
					"holds %s, which holds the %s %s: what of it no route of the CNI's or kube-proxy's catches goes to this one peer; keep the networks a peer routes outside the pod and service ranges",
					p, r.what, r.p)
			}
		}
	}
}
