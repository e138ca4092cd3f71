package lab

import (
	"strings"
	"testing"
)

// The negative controls: each is a scenario that passes with one mistake
// put in, and the lab's verdict must fail on it, naming it.

// pair is the smallest set with both roles: a controller with a kubelet
// and a worker.
func smallPair() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
	}}
}

// The guard not loaded on c1: its kubelet answers the underlay.
func TestNegativeGuardNotLoaded(t *testing.T) {
	t.Parallel()
	s := smallPair()
	s.Node("c1").NoGuard = true
	l := Up(t, s)
	requireFail(t, l.Verdict(t), "c1: 10250/tcp answers from the underlay")
}

// The worker behind NAT dials c1 at w1's address: w1 cannot answer for c1's
// key, c1 cannot dial the worker, so that pair never connects.
func TestNegativeEndpointOfAnotherNode(t *testing.T) {
	t.Parallel()
	s := natDialOnly()
	Build(t, s)
	w2 := s.Node("w2")
	w2.Doc.Peer(s.Node("c1")).Endpoint = w2.Doc.Peer(s.Node("w1")).Endpoint
	l := Up(t, s)
	v := l.Verdict(t)
	requireFail(t, v, "w2: no handshake with its peer c1")
	requireFail(t, v, "w2 -> c1 kube-apiserver", "does not connect")
}

// c1's allowedIPs for w1 miss w1's address: what c1 sends w1 has no peer
// to go to, and what w1 sends c1 comes from an address c1 does not take
// from it.
func TestNegativeAllowedIPsMissPeer(t *testing.T) {
	t.Parallel()
	s := smallPair()
	Build(t, s)
	s.Node("c1").Doc.Peer(s.Node("w1")).AllowedIPs = []string{"10.10.0.99/32"}
	l := Up(t, s)
	v := l.Verdict(t)
	requireFail(t, v, "c1 -> w1 kubelet", "does not connect")
	requireFail(t, v, "w1 -> c1 kube-apiserver", "does not connect")
}

// w1 without nodeAddress and with clusterPorts open: it registers its
// underlay address, its kubelet answers there, and the controller reaches
// it across the open network instead of the overlay.
func TestNegativeNoNodeAddressPortsOpen(t *testing.T) {
	t.Parallel()
	s := smallPair()
	w1 := s.Node("w1")
	w1.NoNodeAddress, w1.ClusterPorts = true, "open"
	l := Up(t, s)
	requireFail(t, l.Verdict(t), "c1 -> w1 kubelet (192.0.2.12:10250): leaves by eth0, not the wireguard interface wg0")
}

// The hub without the image's forwarding sysctls: the spokes reach it but
// not each other.
func TestNegativeHubWithoutForwarding(t *testing.T) {
	t.Parallel()
	s := hubAndSpokes()
	s.Node("h1").NoSysctls = true
	l := Up(t, s)
	v := l.Verdict(t)
	requireFail(t, v, "s1 -> s2 kube-router-bgp", "does not connect")
	for _, p := range v.Problems {
		if p[:2] != "s1" && p[:2] != "s2" {
			t.Errorf("a problem not between the spokes: %s", p)
		}
	}
}

// w1 routes the virtual IP into c1's tunnel (c1's allowedIPs): while c1
// holds the address, w1 reaches it through the tunnel, and the verdict at
// that holder alone passes (the control: the lab without the failover
// does not see the mistake); once the address moves to c2 or c3, w1's
// packets still go to c1, and the cluster endpoint is lost on w1.
func TestNegativeVIPRoutedToOneController(t *testing.T) {
	t.Parallel()
	s := threeVIPControllers()
	Build(t, s)
	p := s.Node("w1").Doc.Peer(s.Node("c1"))
	p.AllowedIPs = append(p.AllowedIPs, "192.0.2.200/32")
	l := Up(t, s)
	l.noFailover = true
	requirePass(t, l, l.Verdict(t))
	l.noFailover = false
	v := l.Verdict(t)
	t.Logf("with the failover:\n%s", v)
	requireFail(t, v, "w1 -> the virtual IP (192.0.2.200:6443) while c2 holds it")
	requireFail(t, v, "w1 -> the virtual IP (192.0.2.200:6443) while c3 holds it")
	for _, p := range v.Problems {
		if !strings.HasPrefix(p, "w1 -> the virtual IP") {
			t.Errorf("a problem not of w1's route to the virtual IP: %s", p)
		}
	}
}
