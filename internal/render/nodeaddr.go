package render

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/record"
	"github.com/corium/corium-agent/internal/runstatus"
	"github.com/corium/corium-agent/internal/schema"
)

// Decision is the address the node registers with k0s, with every address
// that was considered and why it was taken or not. It is made once and handed
// to the k0s step as one value; nothing else derives the node address.
type Decision struct {
	// Address is the chosen address; invalid when it is decided at boot or
	// nothing qualifies (Reason says which).
	Address netip.Addr `json:"address,omitzero"`
	// Source says where the address came from: "wireguard <name>
	// (nodeAddress)", "default route", "decided at boot" or "none".
	Source string `json:"source"`
	// Reason explains the outcome in a sentence for plans and status.
	Reason     string      `json:"reason"`
	Candidates []Candidate `json:"candidates,omitempty"`
}

// Candidate is one address seen on the host.
type Candidate struct {
	Interface string     `json:"interface"`
	Address   netip.Addr `json:"address"`
	Taken     bool       `json:"taken"`
	Reason    string     `json:"reason"`
}

// Decision sources.
const (
	SourceDefaultRoute  = "default route"
	SourceDecidedAtBoot = "decided at boot"
	SourceNone          = "none"
)

// Status is the decision as plans, the status file and status report it.
func (d Decision) Status() *runstatus.NodeAddress {
	n := &runstatus.NodeAddress{How: d.Source + ": " + d.Reason}
	if d.Address.IsValid() {
		n.Address = d.Address.String()
	}
	for _, c := range d.Candidates {
		n.Candidates = append(n.Candidates, runstatus.Candidate{Interface: c.Interface, Address: c.Address.String(), Taken: c.Taken, Reason: c.Reason})
	}
	return n
}

// containerPrefixes name links that CNIs and container runtimes create; an
// address on them is never the node's.
var containerPrefixes = []string{"cali", "veth"}

var containerNames = map[string]bool{
	"kube-bridge": true, "vxlan.calico": true, "dummyvip0": true,
	// kube-router's service and IPVS dummies, the IP-in-IP tunnel, and the
	// bridges of plain CNI and docker: never the node's own address.
	"kube-dummy-if": true, "kube-ipvs0": true, "tunl0": true, "cni0": true, "docker0": true,
}

// SelectNodeAddress picks the node address (pure). The first address of the
// interface marked nodeAddress wins; otherwise the source of the default
// route, unless that is the HA virtual IP, an overlay interface not marked
// nodeAddress, or a CNI or container interface. Without facts (offline, no
// --facts), a nodeAddress interface's address is still known from the
// configuration; anything else is decided at boot, which is not an error.
func SelectNodeAddress(cfg *schema.Config, facts *hostfacts.Facts) Decision {
	overlay := map[string]schema.WireGuard{}
	var marked *schema.WireGuard
	for i, wg := range cfg.WireGuard {
		overlay[wg.Name] = wg
		if wg.NodeAddress && marked == nil {
			marked = &cfg.WireGuard[i]
		}
	}
	vip := haVirtualIP(cfg)

	if marked != nil {
		return selectMarked(*marked, facts, overlay, vip)
	}
	if facts == nil {
		return Decision{Source: SourceDecidedAtBoot,
			Reason: "no interface is marked nodeAddress; the default route's source address is read on the node at boot"}
	}
	d := Decision{Source: SourceNone}
	var route netip.Addr
	if facts.DefaultRoute != nil {
		route = facts.DefaultRoute.Source.Unmap()
	}
	takenOn, routeRejected := "", ""
	for _, c := range candidates(facts, facts.DefaultRoute) {
		c.Reason = reject(c, overlay, vip)
		switch {
		case c.Reason != "":
			if c.Address == route {
				routeRejected = c.Reason
			}
		case c.Address != route:
			c.Reason = "not the default route's source address"
		case takenOn != "":
			c.Reason = "default route source already taken on " + takenOn
		default:
			c.Taken, c.Reason, takenOn = true, "source address of the default route", c.Interface
			d.Address, d.Source = c.Address, SourceDefaultRoute
			d.Reason = fmt.Sprintf("%s on %s is the default route's source address", c.Address, c.Interface)
		}
		d.Candidates = append(d.Candidates, c)
	}
	if !d.Address.IsValid() {
		switch {
		case facts.DefaultRoute == nil:
			d.Reason = "the host has no default route and no interface is marked nodeAddress; k0s picks the address"
		default:
			d.Reason = fmt.Sprintf("the default route's source %s is not usable (%s); k0s picks the address", route, routeRejected)
		}
	}
	return d
}

// selectMarked takes the first configured address of the nodeAddress
// interface. With facts, it must be on the link: the decision reports a
// missing address instead of registering one the node does not carry.
func selectMarked(wg schema.WireGuard, facts *hostfacts.Facts, overlay map[string]schema.WireGuard, vip netip.Addr) Decision {
	want, err := netip.ParsePrefix(firstOr(wg.Address))
	if err != nil {
		return Decision{Source: SourceNone, Reason: fmt.Sprintf("wireguard %s: address %q is not a CIDR", wg.Name, firstOr(wg.Address))}
	}
	source := "wireguard " + wg.Name + " (nodeAddress)"
	d := Decision{Source: source}
	if facts == nil {
		d.Address = want.Addr()
		d.Reason = fmt.Sprintf("%s is the first address of %s, the interface marked nodeAddress (from the configuration)", want.Addr(), wg.Name)
		return d
	}
	if facts.Interface(wg.Name) == nil {
		// A first boot, before the interface is up: the address is the
		// configured one, and the verify step checks that the device
		// carries it once wg-quick has brought it up.
		d.Address = want.Addr()
		d.Reason = fmt.Sprintf("%s is the first address of %s, the interface marked nodeAddress (from the configuration; checked on the device once it is up)", want.Addr(), wg.Name)
	}
	for _, c := range candidates(facts, facts.DefaultRoute) {
		switch {
		case c.Interface == wg.Name && c.Address == want.Addr() && !d.Address.IsValid():
			c.Taken, c.Reason = true, "first address of "+wg.Name+", the interface marked nodeAddress"
			d.Address = c.Address
		case c.Interface == wg.Name:
			c.Reason = "not the first configured address of " + wg.Name
		default:
			if c.Reason = reject(c, overlay, vip); c.Reason == "" {
				c.Reason = wg.Name + " is marked nodeAddress"
			}
		}
		d.Candidates = append(d.Candidates, c)
	}
	switch {
	case d.Reason != "":
	case d.Address.IsValid():
		d.Reason = fmt.Sprintf("%s is the first address of %s, the interface marked nodeAddress", want.Addr(), wg.Name)
	default:
		d.Source = SourceNone
		d.Reason = fmt.Sprintf("%s is marked nodeAddress but does not carry %s; check that %s is up", wg.Name, want.Addr(), record.WgQuickUnit(wg.Name))
	}
	return d
}

// candidates lists every address in the facts, in interface order, plus the
// default route's source when no listed interface carries it.
func candidates(facts *hostfacts.Facts, route *hostfacts.RouteFacts) []Candidate {
	var out []Candidate
	seen := false
	for _, iface := range facts.Interfaces {
		for _, p := range iface.Addresses {
			a := p.Addr().Unmap()
			out = append(out, Candidate{Interface: iface.Name, Address: a})
			if route != nil && iface.Name == route.Interface && a == route.Source.Unmap() {
				seen = true
			}
		}
	}
	if route != nil && route.Source.IsValid() && !seen {
		out = append(out, Candidate{Interface: route.Interface, Address: route.Source.Unmap()})
	}
	return out
}

// reject says why an address can never be the node address, or "".
func reject(c Candidate, overlay map[string]schema.WireGuard, vip netip.Addr) string {
	switch {
	case vip.IsValid() && c.Address == vip:
		return "the HA virtual IP moves between controllers"
	case isOverlay(c.Interface, overlay):
		return "overlay interface " + c.Interface + " is not marked nodeAddress"
	case isContainerLink(c.Interface):
		return c.Interface + " is a CNI or container interface"
	case c.Address.IsLoopback():
		return "loopback address"
	case c.Address.IsLinkLocalUnicast():
		return "link-local address"
	}
	return ""
}

func isOverlay(name string, overlay map[string]schema.WireGuard) bool {
	_, ok := overlay[name]
	return ok
}

func isContainerLink(name string) bool {
	if containerNames[name] {
		return true
	}
	for _, p := range containerPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func haVirtualIP(cfg *schema.Config) netip.Addr {
	if !cfg.HA.On() || cfg.HA.VirtualIP == "" {
		return netip.Addr{}
	}
	if p, err := netip.ParsePrefix(cfg.HA.VirtualIP); err == nil {
		return p.Addr().Unmap()
	}
	if a, err := netip.ParseAddr(cfg.HA.VirtualIP); err == nil {
		return a.Unmap()
	}
	return netip.Addr{}
}

func firstOr(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}
