package lab

import (
	"testing"
)

// fullMesh is three controllers and two workers, every pair peered
// directly; the controllers keep the API public.
func fullMesh() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller+worker", PublicPorts: []int{6443}},
		{Name: "c2", Role: "controller+worker", PublicPorts: []int{6443}},
		{Name: "c3", Role: "controller"},
		{Name: "w1", Role: "worker"},
		{Name: "w2", Role: "worker"},
	}}
}

func TestFullMesh(t *testing.T) {
	t.Parallel()
	l := Up(t, fullMesh())
	requirePass(t, l, l.Verdict(t))
}

// natDialOnly is a worker behind the router's masquerade: nobody can dial
// it, it dials every peer and keeps its tunnels open.
func natDialOnly() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
		{Name: "w2", Role: "worker", Site: Masquerade},
	}}
}

func TestNATDialOnlyWorker(t *testing.T) {
	t.Parallel()
	l := Up(t, natDialOnly())
	requirePass(t, l, l.Verdict(t))
}

// oneToOne is a controller behind a 1:1 NAT (a public address on the
// router mapped to its private one), dialled at its public address from the
// underlay and at its private one by a worker at its own site, which only
// dials out.
func oneToOne() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "c2", Role: "controller+worker"},
		{Name: "n1", Role: "controller+worker", Site: OneToOne},
		{Name: "m1", Role: "worker", Site: Masquerade},
	}}
}

func TestOneToOneNAT(t *testing.T) {
	t.Parallel()
	s := oneToOne()
	l := Up(t, s)
	requirePass(t, l, l.Verdict(t))
	// Where the peers dial n1 from: its private address at its own site,
	// the router's public one from the underlay.
	if ep := s.Node("m1").Doc.Peer(s.Node("n1")).Endpoint; ep != "198.51.100.13:51820" {
		t.Errorf("m1 dials n1 at %s, not its private address", ep)
	}
	if ep := s.Node("c1").Doc.Peer(s.Node("n1")).Endpoint; ep != "192.0.2.103:51820" {
		t.Errorf("c1 dials n1 at %s, not its public address", ep)
	}
}

// hubAndSpokes is a hub every other node peers with alone: the spokes
// reach each other through it, which forwards (the image's sysctls).
func hubAndSpokes() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "h1", Role: "controller+worker", Hub: true},
		{Name: "s1", Role: "worker"},
		{Name: "s2", Role: "worker"},
	}}
}

func TestHubAndSpokes(t *testing.T) {
	t.Parallel()
	l := Up(t, hubAndSpokes())
	requirePass(t, l, l.Verdict(t))
}

// threeRoles is a node of each role, on the families given.
func threeRoles(underlay, overlay Family) *Scenario {
	return &Scenario{Underlay: underlay, Overlay: overlay, Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "c2", Role: "controller"},
		{Name: "w1", Role: "worker"},
	}}
}

func TestIPv6OverlayOverIPv4(t *testing.T) {
	t.Parallel()
	l := Up(t, threeRoles(IPv4, IPv6))
	requirePass(t, l, l.Verdict(t))
}

func TestIPv4OverlayOverIPv6(t *testing.T) {
	t.Parallel()
	l := Up(t, threeRoles(IPv6, IPv4))
	requirePass(t, l, l.Verdict(t))
}

// TestDayTwo adds a worker to a running set: apply --again on every node
// already up (its document gains the peer), the new wg-quick file handed
// to the running interface, and the new node brought up; the whole set
// passes again.
func TestDayTwo(t *testing.T) {
	t.Parallel()
	s := threeRoles(IPv4, IPv4)
	l := Up(t, s)
	requirePass(t, l, l.Verdict(t))
	s.Nodes = append(s.Nodes, &Node{Name: "w2", Role: "worker"})
	l.Again(t)
	requirePass(t, l, l.Verdict(t))
}

// TestVirtualIP is three controllers sharing a virtual IP on the underlay
// (cluster.endpoint), k0s's userspace load balancer behind it, and a
// worker: every node but the holder reaches the API through the virtual IP,
// and the holder answers the open network there on the endpoint's ports
// alone.
func TestVirtualIP(t *testing.T) {
	t.Parallel()
	s := threeVIPControllers()
	l := Up(t, s)
	requirePass(t, l, l.Verdict(t))
}
