package lab

import (
	"testing"
	"time"
)

// TestEtcdIPv6: three controllers of a single-stack IPv6 cluster over an
// IPv6 underlay form one etcd cluster, each a voter at the IPv6 overlay
// address the agent put in spec.storage.etcd.peerAddress, bare as k0s
// expects it: k0s brackets it in the peer URL itself (storage.go:204,
// net.JoinHostPort) and names the peer certificate for it as it is
// (etcd.go:417-423), so a bracketed address would make neither.
func TestEtcdIPv6(t *testing.T) {
	t.Parallel()
	s := threeControllers()
	s.Underlay, s.Overlay = IPv6, IPv6
	l, v := etcdVerdict(t, s, 60*time.Second, nil)
	requirePass(t, l, v)
	for _, n := range []string{"c1", "c2", "c3"} {
		if got := l.Node(n).k0sPeerAddress(t); got != l.Node(n).OverlayAddr().String() {
			t.Errorf("%s: k0s.yaml spec.storage.etcd.peerAddress is %q, not the bare overlay address", n, got)
		}
	}
}

// c1 without its guard in the IPv6 scenario: a neighbour on the IPv6
// underlay reaches etcd's peer port by sending to c1's overlay address
// through c1, so the listener check's probe works for IPv6 too.
func TestNegativeEtcdIPv6GuardNotLoaded(t *testing.T) {
	t.Parallel()
	s := threeControllers()
	s.Underlay, s.Overlay = IPv6, IPv6
	s.Node("c1").NoGuard = true
	l, ec := etcdUp(t, s, 60*time.Second, nil)
	requireFail(t, etcdChecks(t, l, ec), "c1: the underlay reaches etcd's peer port at [fd10::1]:2380")
}
