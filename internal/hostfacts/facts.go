package hostfacts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
)

// Facts is what the host's network looks like, as node-address selection
// and the overlay's MTU need it. On a live host Gather reads it over
// netlink; under another root it comes from --facts FILE, so the same
// decisions run in tests.
//
// The JSON form:
//
//	{
//	  "interfaces": [
//	    {"name": "eth0", "mac": "52:54:00:12:34:56", "addresses": ["192.0.2.10/24", "2001:db8::10/64"]},
//	    {"name": "wg0", "addresses": ["10.10.0.1/24"]}
//	  ],
//	  "defaultRoute": {"interface": "eth0", "source": "192.0.2.10", "mtu": 1450},
//	  "defaultRoute6": {"interface": "eth0", "source": "2001:db8::10", "mtu": 1450},
//	  "peerRoutes": [
//	    {"to": "192.0.2.2", "interface": "eth0", "source": "192.0.2.10", "mtu": 1450}
//	  ]
//	}
//
// defaultRoute is omitted (or null) when the host has no default route; it
// is the IPv4 one when the host has one, else the IPv6 one. defaultRoute6 is
// the IPv6 default route of a host that has both: a cluster whose addresses
// are IPv6, or dual stack, takes the node's IPv6 address from it.
// peerRoutes holds the route to each peer endpoint and each ha.unicastPeers
// address that is an IP address (`ip route get`: the link, the source
// address the kernel would pick, the MTU); an address with no route has no
// entry. A route's mtu is the route's own mtu metric when it has one, else
// its link's. Facts written before MTUs were gathered have neither
// peerRoutes nor an mtu, and those written before sources were gathered no
// source: they still parse, and what they lack is then unknown (see
// InterfaceMTU, and ChooseVRRP in render, which then models the route from
// the interfaces' networks).
// An interface's mac is its hardware address as ip link prints it, omitted
// for a link without one (a WireGuard interface); it finds the VRRP
// interface ha.interface names by its MAC.
type Facts struct {
	Interfaces   []InterfaceFacts `json:"interfaces"`
	DefaultRoute *RouteFacts      `json:"defaultRoute,omitempty"`
	// DefaultRoute6 is set only beside an IPv4 DefaultRoute.
	DefaultRoute6 *RouteFacts `json:"defaultRoute6,omitempty"`
	PeerRoutes    []PeerRoute `json:"peerRoutes,omitempty"`
}

// InterfaceFacts is one link that is up, with its addresses in kernel order.
type InterfaceFacts struct {
	Name string `json:"name"`
	// MAC is "" when the link has none, or facts were written without.
	MAC       string         `json:"mac,omitempty"`
	Addresses []netip.Prefix `json:"addresses"`
}

// RouteFacts is the route the host uses to reach the internet.
type RouteFacts struct {
	Interface string     `json:"interface"`
	Source    netip.Addr `json:"source"`
	// MTU is 0 when unknown.
	MTU int `json:"mtu,omitempty"`
}

// PeerRoute is the route to one address the node must reach: a peer
// endpoint, a unicast VRRP peer.
type PeerRoute struct {
	To        netip.Addr `json:"to"`
	Interface string     `json:"interface"`
	// Source is the address the kernel would send from; invalid when
	// unknown.
	Source netip.Addr `json:"source,omitzero"`
	// MTU is 0 when unknown.
	MTU int `json:"mtu,omitempty"`
}

// Parse reads the JSON form of Facts; unknown keys are errors, as in the
// configuration, so a misspelled key is not silently ignored.
func Parse(data []byte) (*Facts, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f Facts
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parsing facts: %w", err)
	}
	for i, iface := range f.Interfaces {
		if iface.Name == "" {
			return nil, fmt.Errorf("parsing facts: interfaces[%d].name: required", i)
		}
		if mac, err := net.ParseMAC(iface.MAC); iface.MAC != "" && (err != nil || mac.String() != iface.MAC) {
			return nil, fmt.Errorf("parsing facts: interfaces[%d].mac: not a MAC address as ip link prints it (lowercase hex pairs joined by ':')", i)
		}
	}
	for i, r := range f.PeerRoutes {
		switch {
		case !r.To.IsValid():
			return nil, fmt.Errorf("parsing facts: peerRoutes[%d].to: required, the endpoint's address", i)
		case r.Interface == "":
			return nil, fmt.Errorf("parsing facts: peerRoutes[%d].interface: required", i)
		case r.MTU < 0:
			return nil, fmt.Errorf("parsing facts: peerRoutes[%d].mtu: %d is negative", i, r.MTU)
		}
	}
	if d := f.DefaultRoute; d != nil && d.MTU < 0 {
		return nil, fmt.Errorf("parsing facts: defaultRoute.mtu: %d is negative", d.MTU)
	}
	if d := f.DefaultRoute6; d != nil {
		switch {
		case !isIPv6(d.Source):
			return nil, fmt.Errorf("parsing facts: defaultRoute6.source: required, an IPv6 address")
		case f.DefaultRoute == nil || isIPv6(f.DefaultRoute.Source):
			return nil, fmt.Errorf("parsing facts: defaultRoute6: only beside an IPv4 defaultRoute; a host with one IPv6 default route lists it as defaultRoute")
		case d.MTU < 0:
			return nil, fmt.Errorf("parsing facts: defaultRoute6.mtu: %d is negative", d.MTU)
		}
	}
	return &f, nil
}

// Interface returns the facts of the named link, or nil.
func (f *Facts) Interface(name string) *InterfaceFacts {
	for i := range f.Interfaces {
		if f.Interfaces[i].Name == name {
			return &f.Interfaces[i]
		}
	}
	return nil
}

// InterfacesWithMAC are the links that are up holding the MAC address mac,
// in the kernel's order.
func (f *Facts) InterfacesWithMAC(mac string) []*InterfaceFacts {
	var out []*InterfaceFacts
	for i := range f.Interfaces {
		if mac != "" && f.Interfaces[i].MAC == mac {
			out = append(out, &f.Interfaces[i])
		}
	}
	return out
}

// HasMACs says the facts hold hardware addresses at all: facts files
// written before they were gathered have none.
func (f *Facts) HasMACs() bool {
	for _, i := range f.Interfaces {
		if i.MAC != "" {
			return true
		}
	}
	return false
}

// peerRoute returns the route to addr, or nil.

// PeerRoute returns the route to addr, or nil.
func (f *Facts) PeerRoute(addr netip.Addr) *PeerRoute {
	for i := range f.PeerRoutes {
		if f.PeerRoutes[i].To == addr.Unmap() {
			return &f.PeerRoutes[i]
		}
	}
	return nil
}

// DefaultRouteOf is the host's default route of one family (IPv6 when
// ipv6), or nil when it has none.
func (f *Facts) DefaultRouteOf(ipv6 bool) *RouteFacts {
	for _, r := range []*RouteFacts{f.DefaultRoute, f.DefaultRoute6} {
		if r != nil && isIPv6(r.Source) == ipv6 {
			return r
		}
	}
	return nil
}

func isIPv6(a netip.Addr) bool { return a.Is6() && !a.Is4In6() }
