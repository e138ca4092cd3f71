package cluster

import (
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/shown"
)

// WireGuard's overhead on the underlay: the outer IP header, UDP (8),
// WireGuard's header (16) and tag (16). An IPv6 outer header is 40 bytes,
// an IPv4 one 20.
const (
	overheadIPv6 = 80
	overheadIPv4 = 60
)

// routeMTUs: a stated mtu larger than the underlay can carry makes every
// full-sized packet through the tunnel two fragments, or none where a hop
// drops fragments: the agent derives a value that fits when mtu is unset,
// but takes a stated one as it is. With the node's host facts, each
// interface's stated mtu is held to the route MTU to each peer endpoint
// (the default route's when no endpoint has a route), less WireGuard's
// overhead for that route's family.
func (c *check) routeMTUs() {
	c.ifaces(func(f *iface) {
		facts := f.n.Facts
		if facts == nil || f.wg.MTU == nil || f.n.bad[f.path().Field("mtu").String()] {
			return
		}
		limit, why := routeLimit(f, facts)
		if limit == 0 || *f.wg.MTU <= limit {
			return
		}
		if c.overRoute == nil {
			c.overRoute = map[*iface]bool{}
		}
		c.overRoute[f] = true
		c.errorf(f.n, f.path().Field("mtu").String(), nil,
			"is %d, but %s, so the tunnel carries at most %d in one packet: larger ones leave as fragments or not at all; set mtu: %d, or leave it unset to have it derived at boot",
			*f.wg.MTU, why, limit, limit)
	})
}

// routeLimit is the largest MTU f's routes carry, and says which route
// limits it; 0 when the facts hold no route MTU for it. A route through f
// itself says nothing of the underlay.
func routeLimit(f *iface, facts *hostfacts.Facts) (int, string) {
	limit, why := 0, ""
	for j, p := range f.wg.Peers {
		ap, err := netip.ParseAddrPort(p.Endpoint)
		if err != nil {
			continue
		}
		a := ap.Addr().Unmap()
		r := facts.PeerRoute(a)
		if r == nil || r.MTU <= 0 || r.Interface == f.wg.Name {
			continue
		}
		if l := r.MTU - overhead(a); limit == 0 || l < limit {
			limit = l
			why = fmt.Sprintf("the route to %s (%s.endpoint) has MTU %d on %s, and WireGuard over %s takes %d of it", a, f.path().Field("peers").Index(j), r.MTU, shown.Text(r.Interface), family(a), overhead(a))
		}
	}
	if limit > 0 {
		return limit, why
	}
	for _, d := range []*hostfacts.RouteFacts{facts.DefaultRoute, facts.DefaultRoute6} {
		if d == nil || d.MTU <= 0 || d.Interface == f.wg.Name || !d.Source.IsValid() {
			continue
		}
		if l := d.MTU - overhead(d.Source.Unmap()); limit == 0 || l < limit {
			limit = l
			why = fmt.Sprintf("the default route has MTU %d on %s, and WireGuard over %s takes %d of it", d.MTU, shown.Text(d.Interface), family(d.Source.Unmap()), overhead(d.Source.Unmap()))
		}
	}
	return limit, why
}

func overhead(a netip.Addr) int {
	if a.Is4() {
		return overheadIPv4
	}
	return overheadIPv6
}

func family(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}
