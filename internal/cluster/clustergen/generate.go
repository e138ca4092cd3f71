package clustergen

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
)

// The networks a set is built on: site A, where the controllers are, site
// B across a router, the private network behind the NAT of the nodes that
// only dial out, and the overlay.
var (
	siteA   = netip.MustParsePrefix("192.0.2.0/24")
	siteB   = netip.MustParsePrefix("198.51.100.0/24")
	natted  = netip.MustParsePrefix("172.16.0.0/24")
	cloud   = netip.MustParsePrefix("10.99.0.0/24")
	overlay = netip.MustParsePrefix("10.50.0.0/24")
	vip     = netip.MustParsePrefix("192.0.2.100/24")
)

const (
	wgPort   = 51820
	routeMTU = 1500
)

// Generate builds a valid cluster from seed: 3 to 12 nodes, 1 to 3 of them
// controllers (the first starts the cluster), the rest workers, some at
// site A, some at site B, some behind NAT dialling out only. The overlay is
// a full mesh, a hub (the first controller) or a mesh with some pairs
// routed through the hub; keys are inline, in a file or a credential;
// every node guards its k0s ports or none does; with two or more
// controllers, HA on a virtual IP at site A and kine may be on.
func Generate(seed uint64) *Set {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &Set{Seed: seed, Topology: []string{"full", "hub", "partial"}[r.IntN(3)], Guarded: r.IntN(2) == 0}
	total := 3 + r.IntN(10)
	controllers := 1 + r.IntN(3)
	s.HA = controllers >= 2 && r.IntN(2) == 0
	s.Kine = controllers >= 2 && r.IntN(3) == 0
	mtu := 0
	if r.IntN(2) == 0 {
		mtu = 1420
	}
	var unicast []string
	for i := range total {
		n := &Node{Role: "worker", ListenPort: wgPort, Dialled: true, RouteMTU: routeMTU, MTU: mtu, ClusterName: "gen", ClusterPorts: "open"}
		if s.Guarded {
			n.ClusterPorts = "overlay"
		}
		n.Private = key(r)
		n.KeyFrom = []string{"inline", "file", "credential"}[r.IntN(3)]
		n.Credential = "corium.wg0"
		n.Overlay = overlay.Addr().Next()
		for range i {
			n.Overlay = n.Overlay.Next()
		}
		switch {
		case i < controllers:
			n.Name = fmt.Sprintf("c%d", i+1)
			n.Role = []string{"controller", "controller+worker"}[r.IntN(2)]
			n.Underlay = netip.PrefixFrom(addrIn(siteA, 11+i), 24)
			if i > 0 {
				n.Join = "{file: /etc/corium/controller-token}"
			}
			if s.Kine {
				n.DataSource = "{credential: corium.kine}"
			}
			unicast = append(unicast, n.Underlay.Addr().String())
		default:
			n.Name = fmt.Sprintf("w%d", i-controllers+1)
			n.Join = "{credential: corium.join-token}"
			switch r.IntN(3) {
			case 0:
				n.Underlay = netip.PrefixFrom(addrIn(siteA, 20+i), 24)
			case 1:
				n.Underlay = netip.PrefixFrom(addrIn(siteB, 20+i), 24)
			default:
				n.Underlay = netip.PrefixFrom(addrIn(natted, 20+i), 24)
				n.Dialled, n.ListenPort = false, 0
			}
		}
		s.Nodes = append(s.Nodes, n)
	}
	if s.HA {
		s.VIP = vip
		for _, n := range s.Nodes[:controllers] {
			n.VIP, n.Endpoint = vip.String(), vip.Addr().String()
			n.UnicastPeers = append([]string(nil), unicast...)
		}
	}
	s.wire(r)
	// Drawn last, so that a seed's IPv4 set is the same as before there
	// were IPv6 ones.
	if r.IntN(4) == 0 {
		s.toIPv6()
	}
	// Some workers at site B sit behind a 1:1 NAT, as cloud instances do:
	// dialled at the public address, which their host does not have.
	for i, n := range s.Nodes {
		if r.IntN(2) == 0 && n.Dialled && !s.IPv6 && siteB.Contains(n.Underlay.Addr()) {
			n.Host = netip.PrefixFrom(addrIn(cloud, 20+i), 24)
		}
	}
	// In some sets those workers share their cloud's network as a site,
	// and reach each other there at their private addresses; the set then
	// has a topology saying so (sites.go). Drawn last, as above.
	if r.IntN(2) == 0 {
		s.dialPrivateInSite()
	}
	return s
}

// The IPv6 underlay: each IPv4 network's node k is k of the matching one.
var v6Of = map[netip.Prefix]netip.Prefix{
	siteA:  netip.MustParsePrefix("2001:db8:a::/64"),
	siteB:  netip.MustParsePrefix("2001:db8:b::/64"),
	natted: netip.MustParsePrefix("fd00:16::/64"),
}

// v6 is a's address in the IPv6 underlay.
func v6(a netip.Addr) netip.Addr {
	for v4, six := range v6Of {
		if v4.Contains(a) {
			b := six.Addr().As16()
			b[15] = a.As4()[3]
			return netip.AddrFrom16(b)
		}
	}
	return a
}

func v6Prefix(p netip.Prefix) netip.Prefix { return netip.PrefixFrom(v6(p.Addr()), 64) }

// toIPv6 moves the underlay to IPv6, as at a site without IPv4: the
// hosts' addresses, the endpoints, the unicast peers and the virtual IP.
// The overlay stays as it is.
func (s *Set) toIPv6() {
	s.IPv6 = true
	if s.VIP.IsValid() {
		s.VIP = v6Prefix(s.VIP)
	}
	for _, n := range s.Nodes {
		n.Underlay = v6Prefix(n.Underlay)
		for _, p := range n.Peers {
			if ap, err := netip.ParseAddrPort(p.Endpoint); err == nil {
				p.Endpoint = netip.AddrPortFrom(v6(ap.Addr()), ap.Port()).String()
			}
		}
		for i, u := range n.UnicastPeers {
			n.UnicastPeers[i] = v6(netip.MustParseAddr(u)).String()
		}
		if n.VIP != "" {
			n.VIP, n.Endpoint = s.VIP.String(), s.VIP.Addr().String()
		}
	}
}

func addrIn(p netip.Prefix, k int) netip.Addr {
	a := p.Addr()
	for range k {
		a = a.Next()
	}
	return a
}

// wire gives every node its peers for the topology. A pair talks directly
// when the topology has it and one end can dial the other; else both ends
// reach each other through the hub (the first controller), which forwards:
// each routes the other's address to the hub.
func (s *Set) wire(r *rand.Rand) {
	hub := s.Nodes[0]
	direct := func(a, b *Node) bool {
		if a == hub || b == hub {
			return true
		}
		if !a.Dialled && !b.Dialled {
			return false
		}
		switch s.Topology {
		case "hub":
			return false
		case "partial":
			return r.IntN(3) != 0
		}
		return true
	}
	for i, a := range s.Nodes {
		for _, b := range s.Nodes[i+1:] {
			if direct(a, b) {
				link(a, b)
				link(b, a)
				continue
			}
			via(a, hub, b)
			via(b, hub, a)
		}
	}
}

// link gives a an entry for b: b's endpoint where b is dialled, and a
// keepalive where a is not (its NAT's mapping must stay open).
func link(a, b *Node) {
	p := &Peer{Name: b.Name, PublicKey: b.Private.PublicKey().String(), AllowedIPs: []string{host(b.Overlay)}}
	if b.Dialled {
		p.Endpoint = b.endpoint()
	}
	if !a.Dialled {
		p.Keepalive = 25
	}
	a.Peers = append(a.Peers, p)
}

// via routes b's address from a to the hub.
func via(a, hub, b *Node) {
	p, _ := a.peer(hub.Name)
	if p == nil {
		link(a, hub)
		p, _ = a.peer(hub.Name)
	}
	p.AllowedIPs = append(p.AllowedIPs, host(b.Overlay))
}
