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
//	  "peerRoutes": [
//	    {"to": "192.0.2.2", "interface": "eth0", "mtu": 1450}
//	  ]
//	}
//
// defaultRoute is omitted (or null) when the host has no default route.
// peerRoutes holds the route to each peer endpoint that is an IP address
// (`ip route get`); an endpoint with no route has no entry. A route's mtu is
// the route's own mtu metric when it has one, else its link's. Facts written
// before MTUs were gathered have neither peerRoutes nor an mtu: they still
// parse, and the overlay's MTU is then unknown (see InterfaceMTU). An
// interface's mac is its hardware address as ip link prints it, omitted for
// a link without one (a WireGuard interface); it finds the VRRP interface
// ha.interface names by its MAC.
type Facts struct {
	Interfaces   []InterfaceFacts `json:"interfaces"`
	DefaultRoute *RouteFacts      `json:"defaultRoute,omitempty"`
	PeerRoutes   []PeerRoute      `json:"peerRoutes,omitempty"`
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

// PeerRoute is the route to one peer endpoint's address.
type PeerRoute struct {
	To        netip.Addr `json:"to"`
	Interface string     `json:"interface"`
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
func (f *Facts) PeerRoute(addr netip.Addr) *PeerRoute {
	for i := range f.PeerRoutes {
		if f.PeerRoutes[i].To == addr.Unmap() {
			return &f.PeerRoutes[i]
		}
	}
	return nil
}
