package clustergen

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strings"
)

// TopologyName is the file a set's topology is written to.
const TopologyName = "cluster.topology"

// The sites of a set are its networks: site A, site B, the cloud network
// where the workers behind a 1:1 NAT have their hosts' addresses, and the
// office behind a NAT that only dials out.

// dialPrivateInSite puts every worker dialled at site B behind a 1:1 NAT,
// its host in the cloud network, and makes those workers dial each other
// at their hosts' private addresses, as nodes of one cloud network do; it
// gives the set its topology. Every other node still dials them at their
// public address.
func (s *Set) dialPrivateInSite() {
	s.Sites = true
	for i, n := range s.Nodes {
		// Every worker dialled at site B is a cloud instance here.
		if n.Dialled && !s.IPv6 && siteB.Contains(n.Underlay.Addr()) && !n.Host.IsValid() {
			n.Host = netip.PrefixFrom(addrIn(cloud, 20+i), 24)
		}
	}
	for _, a := range s.Nodes {
		if !a.Host.IsValid() {
			continue
		}
		for _, p := range a.Peers {
			if b := s.node(p.Name); b != nil && b.Host.IsValid() && p.Endpoint != "" {
				p.Endpoint = b.privateEndpoint()
			}
		}
	}
}

// privateEndpoint is where n is dialled from its own site behind a 1:1 NAT.
func (n *Node) privateEndpoint() string {
	return netip.AddrPortFrom(n.Host.Addr(), uint16(n.ListenPort)).String()
}

// site names the network n's host is on.
func (n *Node) site() string {
	switch a := n.own().Addr(); {
	case cloud.Contains(a):
		return "cloud"
	case natted.Contains(a), v6Of[natted].Contains(a):
		return "office"
	case siteB.Contains(a), v6Of[siteB].Contains(a):
		return "b"
	}
	return "a"
}

// TopologyFile is the set's topology, as validate --cluster --topology
// reads it: each site's nodes, and each node behind a 1:1 NAT with its
// private and public address.
func (s *Set) TopologyFile() string {
	var b strings.Builder
	b.WriteString("sites:\n")
	for _, site := range []string{"a", "b", "cloud", "office"} {
		var names []string
		for _, n := range s.Nodes {
			if n.site() == site {
				names = append(names, n.Name)
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, "  - name: %s\n    nodes: [%s]\n", site, strings.Join(names, ", "))
		}
	}
	var nat []string
	for _, n := range s.Nodes {
		if n.Host.IsValid() {
			nat = append(nat, fmt.Sprintf("  - node: %s\n    private: %s\n    public: %s\n", n.Name, n.Host.Addr(), n.Underlay.Addr()))
		}
	}
	if len(nat) > 0 {
		b.WriteString("nat:\n" + strings.Join(nat, ""))
	}
	return b.String()
}

// natDialled are the entries of a set with sites that dial a node behind
// a 1:1 NAT from outside its site.
func (s *Set) natDialled() []at {
	if !s.Sites {
		return nil
	}
	var out []at
	for _, e := range s.dialling() {
		if t := s.node(e.n.Peers[e.j].Name); t.Host.IsValid() && e.n.site() != t.site() {
			out = append(out, e)
		}
	}
	return out
}

// natPrivateFromOutside: a node outside the site of a node behind a 1:1
// NAT dials it at its private address, which only its site reaches.
func natPrivateFromOutside(s *Set, r *rand.Rand) (Mistake, bool) {
	return s.natMisdial(r, "at its private address from another site", (*Node).privateEndpoint)
}

// natAddressWrong: a node dials a node behind a 1:1 NAT at an address
// that is neither of its own (an old one, a typo).
func natAddressWrong(s *Set, r *rand.Rand) (Mistake, bool) {
	return s.natMisdial(r, "at an address that is none of its own", func(*Node) string {
		return netip.AddrPortFrom(addrIn(siteB, 250), wgPort).String()
	})
}

// natMisdial makes an entry that dials a node behind a 1:1 NAT from
// outside its site dial it at endpoint(that node) instead.
func (s *Set) natMisdial(r *rand.Rand, what string, endpoint func(*Node) string) (Mistake, bool) {
	es := s.natDialled()
	if len(es) == 0 {
		return Mistake{}, false
	}
	e := pick(r, es)
	p := e.n.Peers[e.j]
	p.Endpoint = endpoint(s.node(p.Name))
	return Mistake{What: fmt.Sprintf("%s dials %s %s", e.n.Name, p.Name, what), File: e.n.File(), Path: entryPath(e.j, "endpoint"), Severity: "error", Names: TopologyName}, true
}
