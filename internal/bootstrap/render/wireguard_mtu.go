package render

import (
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
)

const (
	// wgQuickOverhead is what wg-quick takes off the underlay's MTU when a
	// file sets none (wireguard-tools src/wg-quick/linux.bash set_mtu_up,
	// `mtu - 80`): the outer IPv6 header, UDP, and WireGuard's header and
	// tag, so one value serves both underlay families.
	wgQuickOverhead = 80
	// defaultOverlayMTU is wg-quick's value when no route tells it more
	// (set_mtu_up: `mtu=1500`, less 80).
	defaultOverlayMTU = 1500 - wgQuickOverhead
	// minIPv4MTU and minIPv6MTU bound a derived MTU as validation bounds a
	// configured one: IPv4 needs 576 (RFC 791), IPv6 1280 on a link that
	// carries it (RFC 8200).
	minIPv4MTU = 576
	minIPv6MTU = 1280
)

// MTU is the MTU an interface's wg-quick file states, decided once by
// InterfaceMTU and handed to the file, the verify step and the CNI.
type MTU struct {
	Value int
	// Why says where a derived value comes from, for the comment above the
	// file's MTU line; "" when the configuration sets it.
	Why string
}

// InterfaceMTU decides interface wg's MTU. A configured mtu is taken as it
// is. Otherwise it is derived as wg-quick would at `up`, so the file can
// state it and the CNI can be told the same number: the smallest route MTU
// to the peers' endpoints, or the default route's when no endpoint is an
// address with a route, less 80.
//
// wg-quick itself takes the largest endpoint route up to wireguard-tools
// v1.0.20250521 and the smallest from v1.0.20260223 on (set_mtu_up, `-gt`
// then `-lt`, commit "wg-quick: linux: use smallest mtu, not largest"); the
// smallest is the one that fits every path. Endpoints that are host names
// are left out: render does not resolve names, and the name of a peer
// reached through the default route is covered by its MTU.
//
// A route out through wg itself is left out too: wg-quick reads the routes
// before it adds its own (set_mtu_up runs before add_route in cmd_up), so on
// an again run a route the running interface added (allowed IPs over its own
// endpoints, or 0.0.0.0/0) says nothing of the underlay. When that leaves
// nothing, the MTU the last run's file states is kept.
//
// Without facts, or with facts that hold no route MTU, 1420 stands in, as
// wg-quick's value without a route, and Why says so. A derived value below
// what the interface's addresses need is an error: the operator sets mtu.
func InterfaceMTU(wg schema.WireGuard, facts *hostfacts.Facts, prev *Previous) (MTU, error) {
	if wg.MTU != nil {
		return MTU{Value: *wg.MTU}, nil
	}
	m := deriveMTU(wg, facts, prev)
	if least := leastMTU(wg); m.Value < least {
		return MTU{}, fmt.Errorf("mtu: unset, and %s is %d, below the %d its addresses need; set mtu, or raise the underlay's MTU", m.Why, m.Value, least)
	}
	return m, nil
}

func deriveMTU(wg schema.WireGuard, facts *hostfacts.Facts, prev *Previous) MTU {
	if facts == nil {
		return MTU{defaultOverlayMTU, "1420 stands in: no host facts to derive it from (apply reads the host's routes)"}
	}
	var smallest int
	throughSelf := false
	for _, ep := range hostfacts.PeerEndpoints(wg) {
		r := facts.PeerRoute(ep)
		switch {
		case r == nil || r.MTU <= 0:
		case r.Interface == wg.Name:
			throughSelf = true
		case smallest == 0 || r.MTU < smallest:
			smallest = r.MTU
		}
	}
	if smallest > 0 {
		return MTU{smallest - wgQuickOverhead, fmt.Sprintf("the smallest route MTU to the peers' endpoints, %d, less %d", smallest, wgQuickOverhead)}
	}
	if d := facts.DefaultRoute; d != nil && d.MTU > 0 {
		if d.Interface != wg.Name {
			return MTU{d.MTU - wgQuickOverhead, fmt.Sprintf("the default route's MTU, %d, less %d (no peer endpoint is an address with a route)", d.MTU, wgQuickOverhead)}
		}
		throughSelf = true
	}
	if throughSelf {
		if v := prev.confMTU(wg.Name); v > 0 {
			return MTU{v, "as the last run's file states it: the routes to the peers now run through " + wg.Name + " itself"}
		}
		return MTU{defaultOverlayMTU, "1420 stands in: the routes to the peers run through " + wg.Name + " itself, and no earlier file states an MTU"}
	}
	return MTU{defaultOverlayMTU, "1420 stands in: the facts hold no route MTU to the peers' endpoints nor of a default route"}
}

// leastMTU is the smallest MTU wg's addresses allow.
func leastMTU(wg schema.WireGuard) int {
	for _, a := range wg.Address {
		if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is6() && !p.Addr().Is4In6() {
			return minIPv6MTU
		}
	}
	return minIPv4MTU
}

// nodeAddressMTU is the MTU of the overlay carrying the node address, which
// the CNI's MTU is derived from; 0 when the node address is not on the
// overlay.
func nodeAddressMTU(in Inputs) (int, error) {
	for i, wg := range in.Config.WireGuard {
		if wg.NodeAddress {
			m, err := InterfaceMTU(wg, in.Facts, in.Previous)
			if err != nil {
				return 0, fmt.Errorf("wireguard[%d].%w", i, err)
			}
			return m.Value, nil
		}
	}
	return 0, nil
}

// confMTU is the MTU the last run's wg-quick file of name states; 0 when
// there is no such file, it states none (wg-quick then chose one at `up`),
// or it does not parse.
func (p *Previous) confMTU(name string) int {
	f, _, err := p.conf(name)
	if err != nil {
		return 0
	}
	return f.Interface.MTU
}
