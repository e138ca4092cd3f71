package lab

import (
	"net/netip"
	"testing"
)

// A Service's health-check node port (kube-proxy's HTTP listener for a
// LoadBalancer Service with externalTrafficPolicy: Local, on every address,
// docs/firewall.md) answers the underlay on a guarded worker: the guard
// leaves the service node-port range to Kubernetes, since the provider's
// load balancer probes it from there. The kubelet's port on the same node,
// which answers over the overlay, does not answer the underlay.
func TestHealthCheckNodePortAnswersUnderlay(t *testing.T) {
	t.Parallel()
	l := Up(t, smallPair())
	c1, w1 := l.Node("c1"), l.Node("w1")
	w1.standIn(t, Service{Name: "health-check-node-port", Port: 31234, Bind: Every})
	under := w1.underlayAddr(l.S.Underlay)

	hc := netip.AddrPortFrom(under, 31234)
	if name, err := dialFrom(l.u.attacker, hc, probeTimeout); err != nil || name != "w1" {
		t.Errorf("w1: the health-check node port at %s does not answer the underlay: %q, %v", hc, name, err)
	}
	overlay := netip.AddrPortFrom(w1.NodeAddress(t), 10250)
	if name, err := dialFrom(c1.NS, overlay, probeTimeout); err != nil || name != "w1" {
		t.Errorf("c1 -> w1 kubelet (%s): %q, %v; the control needs it to answer over the overlay", overlay, name, err)
	}
	kubelet := netip.AddrPortFrom(under, 10250)
	if _, err := dialFrom(l.u.attacker, kubelet, probeTimeout); err == nil {
		t.Errorf("w1: the kubelet's port answers the underlay at %s; the guard must drop it", kubelet)
	}
}
