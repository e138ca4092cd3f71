package gather

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/vishvananda/netlink"

	"github.com/corium/corium-agent/internal/hostfacts"
)

// Netlink is the part of *netlink.Handle that gathering facts uses; a handle
// from netlink.NewHandleAt reads another network namespace.
type Netlink interface {
	LinkList() ([]netlink.Link, error)
	LinkByIndex(index int) (netlink.Link, error)
	AddrList(link netlink.Link, family int) ([]netlink.Addr, error)
	RouteGet(destination net.IP) ([]netlink.Route, error)
}

// Well-known public resolvers stand in for "the internet", IPv4 then IPv6:
// RouteGet only looks the route up, no packet is sent.
var internetProbes = []net.IP{net.ParseIP("1.1.1.1"), net.ParseIP("2606:4700:4700::1111")}

// Gather reads the live host's links that are up, their addresses, the
// route to the internet, and the route to each of endpoints (the peers'
// endpoint addresses and the unicast VRRP peers, see RouteTargets), each
// with its MTU. Overlay
// interfaces are listed by name like any other link (a userspace WireGuard
// device is a tuntap link). A host with no route to the internet has a nil
// DefaultRoute, and an endpoint with no route has no PeerRoute; those are
// facts, not errors.
func Gather(nl Netlink, endpoints ...netip.Addr) (*hostfacts.Facts, error) {
	links, err := nl.LinkList()
	if err != nil {
		return nil, fmt.Errorf("listing links: %w", err)
	}
	f := &hostfacts.Facts{Interfaces: []hostfacts.InterfaceFacts{}}
	for _, link := range links {
		attrs := link.Attrs()
		if attrs.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := nl.AddrList(link, netlink.FAMILY_ALL)
		if err != nil {
			return nil, fmt.Errorf("listing addresses of %s: %w", attrs.Name, err)
		}
		iface := hostfacts.InterfaceFacts{Name: attrs.Name, Addresses: []netip.Prefix{}}
		if len(attrs.HardwareAddr) > 0 {
			iface.MAC = attrs.HardwareAddr.String()
		}
		for _, a := range addrs {
			if p, ok := LinkPrefix(a); ok {
				iface.Addresses = append(iface.Addresses, p)
			}
		}
		f.Interfaces = append(f.Interfaces, iface)
	}
	if f.DefaultRoute, err = defaultRoute(nl, internetProbes[0]); err != nil {
		return nil, err
	}
	v6, err := defaultRoute(nl, internetProbes[1])
	switch {
	case err != nil:
		return nil, err
	case f.DefaultRoute == nil:
		f.DefaultRoute = v6
	default:
		f.DefaultRoute6 = v6
	}
	if f.PeerRoutes, err = peerRoutes(nl, endpoints); err != nil {
		return nil, err
	}
	return f, nil
}

// defaultRoute is the route to probe, the default route of its family; nil
// when that family has none.
func defaultRoute(nl Netlink, probe net.IP) (*hostfacts.RouteFacts, error) {
	routes, err := nl.RouteGet(probe)
	if err != nil {
		// ENETUNREACH: no route in this family.
		return nil, nil
	}
	for _, r := range routes {
		src, ok := netip.AddrFromSlice(r.Src)
		if !ok {
			continue
		}
		name, mtu, err := routeLink(nl, r)
		if err != nil {
			return nil, fmt.Errorf("finding the default route's link %d: %w", r.LinkIndex, err)
		}
		return &hostfacts.RouteFacts{Interface: name, Source: src.Unmap(), MTU: mtu}, nil
	}
	return nil, nil
}

// peerRoutes looks up the route to each endpoint address, as wg-quick's
// set_mtu_up runs `ip route get` for each (wireguard-tools
// src/wg-quick/linux.bash).
func peerRoutes(nl Netlink, endpoints []netip.Addr) ([]hostfacts.PeerRoute, error) {
	var out []hostfacts.PeerRoute
	seen := map[netip.Addr]bool{}
	for _, ep := range endpoints {
		ep = ep.Unmap()
		if !ep.IsValid() || seen[ep] {
			continue
		}
		seen[ep] = true
		routes, err := nl.RouteGet(ep.AsSlice())
		if err != nil || len(routes) == 0 {
			// Unreachable (ENETUNREACH, a blackhole): the endpoint has no
			// route, so it has no say in the MTU, as with wg-quick.
			continue
		}
		name, mtu, err := routeLink(nl, routes[0])
		if err != nil {
			return nil, fmt.Errorf("finding the link of the route to %s: %w", ep, err)
		}
		src, _ := netip.AddrFromSlice(routes[0].Src)
		out = append(out, hostfacts.PeerRoute{To: ep, Interface: name, Source: src.Unmap(), MTU: mtu})
	}
	return out, nil
}

// routeLink is the name of a route's outgoing link and the route's MTU: its
// RTAX_MTU metric when set (what `ip route get` prints as "mtu N"), else the
// link's, the two places wg-quick's set_mtu_up reads in that order.
func routeLink(nl Netlink, r netlink.Route) (string, int, error) {
	link, err := nl.LinkByIndex(r.LinkIndex)
	if err != nil {
		return "", 0, err
	}
	mtu := r.MTU
	if mtu <= 0 {
		mtu = link.Attrs().MTU
	}
	return link.Attrs().Name, mtu, nil
}

// LinkPrefix is a netlink address as a prefix: the address, unmapped, with
// its mask's length.
func LinkPrefix(a netlink.Addr) (netip.Prefix, bool) {
	if a.IPNet == nil {
		return netip.Prefix{}, false
	}
	ip, ok := netip.AddrFromSlice(a.IP)
	if !ok {
		return netip.Prefix{}, false
	}
	ones, _ := a.Mask.Size()
	return netip.PrefixFrom(ip.Unmap(), ones), true
}
