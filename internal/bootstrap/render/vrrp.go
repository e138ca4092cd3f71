package render

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
)

// VRRP is where this node's keepalived instance runs, decided once from the
// document and the host's facts (ChooseVRRP) and rendered into k0s.yaml.
type VRRP struct {
	// Interface is the VRRP interface: ha.interface, or the one chosen when
	// it is unset; "" when it cannot be known here (no facts), which leaves
	// k0s its own default, the default route's interface (k0s v1.36.3+k0s.0
	// pkg/apis/k0s/v1beta1/cplb.go:146-151, cplb_linux.go:14-33).
	Interface string
	// Why says how an unset ha.interface was chosen; "" when it is set.
	Why string
	// Source is the unicast source address; invalid without unicast peers.
	Source netip.Addr
	// Peers are ha.unicastPeers less every address of this node, in the
	// document's order; nil without unicast peers.
	Peers []string
}

// ChooseVRRP decides the VRRP interface and the unicast source, or says
// what keepalived could not work with, naming the field.
//
// With ha.interface unset, k0s takes the default route's interface
// (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/cplb.go:92-96 and :146-151,
// cplb_linux.go getDefaultNIC) and keepalived runs there
// (pkg/component/controller/cplb/cplb_templates.go:17, "interface {{
// .Interface }}"), with a source from that interface: on a host with two
// NICs, not the address the other controllers list. The agent chooses as
// the kernel routes instead: the interface whose route reaches the unicast
// peers (`ip route get PEER`, dev and src), or, with multicast, the
// interface whose network holds the virtual IP. The interface chosen is
// written into the VRRP instance, so keepalived runs where the source is.
//
// The peers list one address per controller and every controller shares the
// list, so each drops itself from it: every address this node has or will
// have (its interfaces', its wireguard addresses), not just the source.
func ChooseVRRP(cfg *schema.Config, facts *hostfacts.Facts) (VRRP, error) {
	if !cfg.HA.On() {
		return VRRP{}, nil
	}
	var v VRRP
	var others []netip.Addr
	if len(cfg.HA.UnicastPeers) > 0 {
		own := ownAddrs(cfg, facts)
		v.Peers = []string{}
		for _, p := range cfg.HA.UnicastPeers {
			a, err := netip.ParseAddr(p)
			if err != nil {
				return VRRP{}, fmt.Errorf("ha.unicastPeers: an entry is not an IP address: validate the document first")
			}
			if !own[a.Unmap()] {
				v.Peers = append(v.Peers, p)
				others = append(others, a.Unmap())
			}
		}
	}
	v.Interface = cfg.HA.Interface
	var hint netip.Addr
	if v.Interface == "" {
		var err error
		if len(others) > 0 {
			v.Interface, hint, v.Why, err = interfaceToPeers(cfg, facts, others)
		} else {
			v.Interface, v.Why, err = interfaceOfVIP(cfg, facts)
		}
		if err != nil {
			return VRRP{}, err
		}
	}
	// A MAC stays in k0s.yaml, for k0s to resolve (see vrrpInterfaceByMAC);
	// the source is looked up on the link that holds it.
	link := v.Interface
	if schema.IsHostLinkMAC(link) && facts != nil {
		name, why := vrrpInterfaceByMAC(link, facts)
		if why != "" {
			return VRRP{}, fmt.Errorf("ha.interface: is a MAC address, which k0s looks up among the host's interfaces at install, and %s", why)
		}
		link = name
	}
	// k0s writes the name unquoted into keepalived's configuration
	// (cplb_templates.go:17), where "e#0" is read as "e": a name chosen
	// here or found behind a MAC is held to ha.interface's rule.
	if strings.ContainsAny(link, schema.KeepalivedBreaks) {
		return VRRP{}, fmt.Errorf("ha.interface: keepalived would run on %q, whose name holds one of # ! \" { } $ \\, which keepalived reads otherwise where k0s writes the name; name another interface in ha.interface, or rename this one", link)
	}
	if len(cfg.HA.UnicastPeers) == 0 {
		return v, nil
	}
	peer, _ := netip.ParseAddr(cfg.HA.UnicastPeers[0])
	if len(others) > 0 {
		peer = others[0]
	}
	src, why := sourceOn(cfg, facts, link, peer, hint)
	if !src.IsValid() {
		return VRRP{}, fmt.Errorf("ha.interface: keepalived sends unicast adverts to ha.unicastPeers from this node's own address on the VRRP interface, and %s", why)
	}
	v.Source = src
	return v, nil
}

// ownAddrs is every address of this node but the virtual IP, which moves
// between the controllers: the host's interfaces' and the wireguard
// interfaces' it brings up.
func ownAddrs(cfg *schema.Config, facts *hostfacts.Facts) map[netip.Addr]bool {
	own := map[netip.Addr]bool{}
	if facts != nil {
		for _, iface := range facts.Interfaces {
			for _, p := range iface.Addresses {
				own[p.Addr().Unmap()] = true
			}
		}
	}
	for _, wg := range cfg.WireGuard {
		for _, p := range wgPrefixes(wg.Address) {
			own[p.Addr().Unmap()] = true
		}
	}
	delete(own, haVirtualIP(cfg))
	return own
}

// interfaceToPeers is the interface the kernel routes every peer through,
// and the source address its route names (invalid when the route names
// none). One keepalived instance sends through one interface, so peers
// behind two are refused, as is a peer no route reaches; each is named by
// its field path.
func interfaceToPeers(cfg *schema.Config, facts *hostfacts.Facts, peers []netip.Addr) (string, netip.Addr, string, error) {
	var first hostRoute
	firstAt := 0
	for _, p := range peers {
		at := slices.IndexFunc(cfg.HA.UnicastPeers, func(s string) bool {
			a, err := netip.ParseAddr(s)
			return err == nil && a.Unmap() == p
		})
		r := routeTo(cfg, facts, p)
		switch {
		case r.iface == "" && facts == nil:
			return "", netip.Addr{}, "", fmt.Errorf("ha.interface: unset, and no wireguard interface's network holds ha.unicastPeers[%d], and the host's addresses and routes are not known here to find the interface that reaches it; pass --facts FILE, or name the VRRP interface", at)
		case r.iface == "":
			return "", netip.Addr{}, "", fmt.Errorf("ha.unicastPeers[%d]: no interface of this host reaches it (no interface's network holds it, the host reports no route to it, and there is no %s default route); correct the address, or name the VRRP interface in ha.interface", at, family(p))
		case first.iface == "":
			first, firstAt = r, at
		case r.iface != first.iface:
			return "", netip.Addr{}, "", fmt.Errorf("ha.unicastPeers[%d]: is reached through %s, and ha.unicastPeers[%d] through %s; keepalived sends every advert through one interface, so name it in ha.interface and make its routes reach every peer", at, r.iface, firstAt, first.iface)
		}
	}
	return first.iface, first.source, fmt.Sprintf("ha.interface is unset; %s reaches ha.unicastPeers (%s)", first.iface, first.why), nil
}

// hostRoute is the kernel's answer to `ip route get ADDR`, as far as the
// facts and the document tell it.
type hostRoute struct {
	iface  string
	source netip.Addr
	why    string
}

// routeTo models the kernel's route to a: the longest prefix of the
// networks the node has or will have once the overlay is up (its
// interfaces' networks, the wireguard interfaces' addresses and their
// peers' allowedIPs, for which wg-quick adds routes); else the route the
// host reported for a (a static route, the default); else the default
// route of a's family. A more specific static route inside a connected
// network is the one case this misses. A /0 in allowedIPs is left out:
// wg-quick routes it in a table of its own behind the main table's routes
// (its suppress_prefixlength 0 rule), so it never outranks one.
func routeTo(cfg *schema.Config, facts *hostfacts.Facts, a netip.Addr) hostRoute {
	best, bits := hostRoute{}, -1
	consider := func(iface string, p netip.Prefix, why string) {
		if p.Bits() > bits && p.Bits() > 0 && p.Masked().Contains(a) {
			best, bits = hostRoute{iface: iface, why: why}, p.Bits()
		}
	}
	if facts != nil {
		for _, iface := range facts.Interfaces {
			for _, p := range iface.Addresses {
				consider(iface.Name, p.Masked(), "its network holds them")
			}
		}
	}
	for _, wg := range cfg.WireGuard {
		for _, p := range wgPrefixes(wg.Address) {
			consider(wg.Name, p.Masked(), "its network holds them")
		}
		for _, peer := range wg.Peers {
			for _, p := range wgPrefixes(peer.AllowedIPs) {
				consider(wg.Name, p.Masked(), "a peer's allowedIPs hold them")
			}
		}
	}
	switch {
	case bits >= 0:
		return best
	case facts == nil:
		return hostRoute{}
	}
	if r := facts.PeerRoute(a); r != nil {
		return hostRoute{iface: r.Interface, source: r.Source, why: "the host's route to them"}
	}
	if d := facts.DefaultRoute; d != nil && d.Source.IsValid() && d.Source.Unmap().Is4() == a.Is4() {
		return hostRoute{iface: d.Interface, source: d.Source.Unmap(), why: "the default route"}
	}
	return hostRoute{}
}

// interfaceOfVIP is the interface for multicast VRRP with ha.interface
// unset: the one whose network holds the virtual IP, so the adverts reach
// the other controllers on it, else the default route's, as k0s would take
// (cplb.go:146-151). Overlay interfaces are left out (multicast does not
// cross a tunnel), and so are the links CNIs and k0s make (k0s's VIP dummy
// holds the VIP itself).
func interfaceOfVIP(cfg *schema.Config, facts *hostfacts.Facts) (string, string, error) {
	if facts == nil {
		return "", "", nil // k0s takes the default route's at boot
	}
	vip := haVirtualIP(cfg)
	name, bits := "", -1
	for _, iface := range facts.Interfaces {
		if isWireGuardName(cfg, iface.Name) || isContainerLink(iface.Name) {
			continue
		}
		for _, p := range iface.Addresses {
			if a := p.Addr().Unmap(); a != vip && p.Bits() > bits && p.Masked().Contains(vip) {
				name, bits = iface.Name, p.Bits()
			}
		}
	}
	switch {
	case name != "":
		return name, fmt.Sprintf("ha.interface is unset; %s's network holds the virtual IP", name), nil
	case facts.DefaultRoute == nil:
		// k0s puts the VIP on the default route's interface and fails at
		// install without one (cplb.go:146-150).
		return "", "", errors.New("ha.interface: unset, and the host has no default route for k0s to put the virtual IP on, nor an interface whose network holds it; name the VRRP interface")
	}
	return facts.DefaultRoute.Interface, fmt.Sprintf("ha.interface is unset and no interface's network holds the virtual IP; %s carries the default route, as k0s would take", facts.DefaultRoute.Interface), nil
}

// sourceOn finds this node's address on iface in peer's family: the one
// whose network holds peer (the kernel's source for a connected route),
// else the source the route names, else the interface's first. The peers
// list one address per controller, so the source must be the one the others
// list, which is not the node address when the VIP lives on the underlay
// and the node address on the overlay. why says what was missing.
func sourceOn(cfg *schema.Config, facts *hostfacts.Facts, iface string, peer, hint netip.Addr) (netip.Addr, string) {
	vip := haVirtualIP(cfg)
	var addrs []netip.Prefix
	switch {
	case isWireGuardName(cfg, iface):
		for _, wg := range cfg.WireGuard {
			if wg.Name == iface {
				addrs = wgPrefixes(wg.Address)
			}
		}
	case facts == nil:
		return netip.Addr{}, "the host's addresses are not known here; pass --facts FILE with the VRRP interface's addresses"
	case facts.Interface(iface) == nil:
		return netip.Addr{}, fmt.Sprintf("%s is not up on this host", iface)
	default:
		addrs = facts.Interface(iface).Addresses
	}
	usable := func(a netip.Addr) bool {
		return a.IsValid() && a.Is4() == peer.Is4() && !a.IsLinkLocalUnicast() && a != vip
	}
	var holding, first netip.Addr
	bits := -1
	for _, p := range addrs {
		a := p.Addr().Unmap()
		if !usable(a) {
			continue
		}
		if !first.IsValid() {
			first = a
		}
		if p.Bits() > bits && p.Masked().Contains(peer) {
			holding, bits = a, p.Bits()
		}
	}
	switch {
	case holding.IsValid():
		return holding, ""
	case usable(hint):
		return hint, ""
	case first.IsValid():
		return first, ""
	case isWireGuardName(cfg, iface):
		return netip.Addr{}, fmt.Sprintf("wireguard interface %s has no %s address (the peers' family)", iface, family(peer))
	}
	return netip.Addr{}, fmt.Sprintf("%s has no %s address of its own (the peers' family, the virtual IP aside)", iface, family(peer))
}

// wgPrefixes are the CIDRs of list that parse; validation reports the
// others.
func wgPrefixes(list []string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func family(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

func isWireGuardName(cfg *schema.Config, name string) bool {
	for _, wg := range cfg.WireGuard {
		if wg.Name == name {
			return true
		}
	}
	return false
}
