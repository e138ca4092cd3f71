package render

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
)

// Decision is the address the node registers with k0s, with every address
// that was considered and why it was taken or not. It is made once and handed
// to the k0s step as one value; nothing else derives the node address.
type Decision struct {
	// Address is the chosen address, of the cluster's primary family
	// (config.Network.NodeFamilies); invalid when it is decided at boot or nothing
	// qualifies (Reason says which).
	Address netip.Addr `json:"address,omitzero"`
	// Second is the node's address of the other family in a dual-stack
	// cluster, which the kubelet registers beside Address; invalid in a
	// single-stack one.
	Second netip.Addr `json:"second,omitzero"`
	// Source says where the address came from: "wireguard <name>
	// (nodeAddress)", "default route", "decided at boot" or "none".
	Source string `json:"source"`
	// Reason explains the outcome in a sentence for plans and status.
	Reason string `json:"reason"`
	// Refused says the node cannot come up with what was found, and k0s
	// picking an address itself would not help: the nodeAddress interface
	// lacks its address, or the host has no address of a family the
	// cluster needs. Reason names what is missing.
	Refused    bool        `json:"refused,omitempty"`
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
func (d Decision) Status() *status.NodeAddress {
	n := &status.NodeAddress{How: d.Source + ": " + d.Reason}
	if d.Address.IsValid() {
		n.Address = d.Address.String()
	}
	if d.Second.IsValid() {
		n.Second = d.Second.String()
	}
	for _, c := range d.Candidates {
		n.Candidates = append(n.Candidates, status.Candidate{Interface: c.Interface, Address: c.Address.String(), Taken: c.Taken, Reason: c.Reason})
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
// route of the cluster's primary family (config.Network.NodeFamilies: the address
// kube-apiserver advertises must be of the service range's family), unless
// that is the HA virtual IP, an overlay interface not marked nodeAddress, or
// a CNI or container interface. In a dual-stack cluster the other family's
// default route gives the second address the kubelet registers. Without
// facts (offline, no --facts), a nodeAddress interface's address is still
// known from the configuration; anything else is decided at boot, which is
// not an error. eff is the document's effective k0s configuration, computed
// once by the caller (schema.Document.K0s).
func SelectNodeAddress(cfg *schema.Config, eff k0s.Effective, facts *hostfacts.Facts) Decision {
	overlay := map[string]schema.WireGuard{}
	var marked *schema.WireGuard
	for i, wg := range cfg.WireGuard {
		overlay[wg.Name] = wg
		if wg.NodeAddress && marked == nil {
			marked = &cfg.WireGuard[i]
		}
	}
	vip := haVirtualIP(cfg)
	fams := eff.Network.NodeFamilies(cfg.Cluster.Endpoint)

	if marked != nil {
		d := selectMarked(*marked, facts, overlay, vip)
		if len(fams) > 1 && d.Address.IsValid() {
			d.Second = firstOfFamily(marked.Address, fams[1])
		}
		return d
	}
	if facts == nil {
		return Decision{Source: SourceDecidedAtBoot,
			Reason: "no interface is marked nodeAddress; the source address of the " + fams[0] + " default route is read on the node at boot"}
	}
	d := Decision{Source: SourceNone}
	routes := make([]*hostfacts.RouteFacts, len(fams))
	taken := make([]netip.Addr, len(fams))
	rejected := make([]string, len(fams))
	for i, f := range fams {
		routes[i] = facts.DefaultRouteOf(f == config.FamilyIPv6)
	}
	takenOn := map[string]string{}
	for _, c := range candidates(facts, routes...) {
		c.Reason = reject(c, overlay, vip)
		i := slices.IndexFunc(routes, func(r *hostfacts.RouteFacts) bool { return r != nil && r.Source.Unmap() == c.Address })
		switch {
		case i < 0 && c.Reason == "":
			c.Reason = "not the source address of the " + strings.Join(fams, " or ") + " default route"
		case i < 0:
		case c.Reason != "":
			rejected[i] = c.Reason
		case takenOn[fams[i]] != "":
			c.Reason = "default route source already taken on " + takenOn[fams[i]]
		default:
			c.Taken, c.Reason, takenOn[fams[i]] = true, "source address of the "+fams[i]+" default route", c.Interface
			taken[i] = c.Address
		}
		d.Candidates = append(d.Candidates, c)
	}
	d.Address = taken[0]
	if len(fams) > 1 {
		d.Second = taken[1]
	}
	for i, f := range fams {
		if taken[i].IsValid() {
			continue
		}
		d.Address, d.Second = netip.Addr{}, netip.Addr{}
		why := familyWhy(cfg, fams, i)
		switch {
		case routes[i] == nil && facts.DefaultRoute == nil && fams[0] == config.FamilyIPv4:
			d.Reason = "the host has no default route and no interface is marked nodeAddress; k0s picks the address"
		case fams[0] == config.FamilyIPv4 && i == 0 && routes[i] != nil:
			d.Reason = fmt.Sprintf("the default route's source %s is not usable (%s); k0s picks the address", routes[i].Source, rejected[i])
		case fams[0] == config.FamilyIPv4 && i == 0:
			d.Reason = "the host has no IPv4 default route and no interface is marked nodeAddress; k0s picks the address, an IPv4 one first"
		case routes[i] != nil:
			d.Refused = true
			d.Reason = fmt.Sprintf("%s, and the source %s of the host's %s default route is not usable (%s); route the host's %s traffic through another interface, or mark a WireGuard interface nodeAddress",
				why, routes[i].Source, f, rejected[i], f)
		default:
			d.Refused = true
			d.Reason = fmt.Sprintf("%s, and the host has no %s default route to take the node's %s address from; give the host an %s default route, or mark a WireGuard interface nodeAddress",
				why, f, f, f)
		}
		return d
	}
	d.Source = SourceDefaultRoute
	d.Reason = fmt.Sprintf("%s on %s is the source address of the %s default route", d.Address, routes[0].Interface, fams[0])
	if d.Second.IsValid() {
		d.Reason += fmt.Sprintf(", and %s on %s of the %s one (dual stack)", d.Second, routes[1].Interface, fams[1])
	}
	return d
}

// familyWhy says why the cluster needs an address of fams[i]: kube-apiserver
// refuses to advertise an address of another family than the primary
// service range's, and in a dual-stack cluster the kubelet registers one
// address of each family.
func familyWhy(cfg *schema.Config, fams []string, i int) string {
	switch {
	case len(fams) == 1:
		return fmt.Sprintf("network.podCIDR and serviceCIDR are %s, so the node address must be one too (kube-apiserver refuses to advertise an address of another family than its service range's)", fams[0])
	case i == 0:
		return fmt.Sprintf("dual stack is on with %s the primary family (spec.network.primaryAddressFamily, else cluster.endpoint's family, else IPv4), so the node address must be %s", fams[0], fams[0])
	default:
		return fmt.Sprintf("dual stack is on, so the kubelet registers an %s address beside the %s one", fams[1], fams[0])
	}
}

// firstOfFamily is the first address of a list of CIDRs in family fam.
func firstOfFamily(list []string, fam string) netip.Addr {
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil && config.FamilyOf(p.Addr()) == fam {
			return p.Addr().Unmap()
		}
	}
	return netip.Addr{}
}

// selectMarked takes the first configured address of the nodeAddress
// interface. With facts, it must be on the link: the decision reports a
// missing address instead of registering one the node does not carry.
func selectMarked(wg schema.WireGuard, facts *hostfacts.Facts, overlay map[string]schema.WireGuard, vip netip.Addr) Decision {
	want, err := netip.ParsePrefix(firstOr(wg.Address))
	if err != nil {
		return Decision{Source: SourceNone, Refused: true, Reason: fmt.Sprintf("wireguard %s: address %q is not a CIDR", wg.Name, firstOr(wg.Address))}
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
	for _, c := range candidates(facts, facts.DefaultRoute, facts.DefaultRoute6) {
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
		d.Source, d.Refused = SourceNone, true
		d.Reason = fmt.Sprintf("%s is marked nodeAddress but does not carry %s; check that %s is up", wg.Name, want.Addr(), plan.WgQuickUnit(wg.Name))
	}
	return d
}

// candidates lists every address in the facts, in interface order, plus the
// source of each route when no listed interface carries it.
func candidates(facts *hostfacts.Facts, routes ...*hostfacts.RouteFacts) []Candidate {
	var out []Candidate
	seen := make([]bool, len(routes))
	for _, iface := range facts.Interfaces {
		for _, p := range iface.Addresses {
			a := p.Addr().Unmap()
			out = append(out, Candidate{Interface: iface.Name, Address: a})
			for i, r := range routes {
				if r != nil && iface.Name == r.Interface && a == r.Source.Unmap() {
					seen[i] = true
				}
			}
		}
	}
	for i, r := range routes {
		if r != nil && r.Source.IsValid() && !seen[i] {
			out = append(out, Candidate{Interface: r.Interface, Address: r.Source.Unmap()})
		}
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
