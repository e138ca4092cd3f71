package nft

import (
	"context"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// patchedGuard is the lab's guard with a k0s.patch merged into the
// effective ClusterConfig it is derived from.
func patchedGuard(t *testing.T, patch string, change func(*schema.Config)) firewall.Guard {
	t.Helper()
	return labGuard(t, func(cfg *schema.Config) {
		cfg.Firewall.PublicPorts = nil
		change(cfg)
		if err := yaml.Unmarshal([]byte(patch), &cfg.K0s.Patch); err != nil {
			t.Fatal(err)
		}
	})
}

// TestGuardFollowsAPatchedVXLANPort: calico's VXLAN moved by k0s.patch to
// 4790 is what the guard drops from the underlay, and what still arrives
// over the overlay; 4789, where calico no longer listens, is left alone.
func TestGuardFollowsAPatchedVXLANPort(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	t.Parallel()
	l := newBaseLab(t)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	moved, old := udpSink(t, l.srv, 4790), udpSink(t, l.srv, 4789)
	mustApply(t, conn, patchedGuard(t, `{spec: {network: {calico: {vxlanPort: 4790}}}}`, func(cfg *schema.Config) {
		cfg.Network.CNI = schema.CNICalico
	}))
	for _, to := range []string{srvPub4, srvPub6} {
		drops := guardedDrops(t, conn, setUDP)
		sendUDP(t, l.pub, "", hostPort(to, 4790), "underlay "+to)
		if moved.received("underlay " + to) {
			t.Errorf("VXLAN from the underlay reached the patched port %s", hostPort(to, 4790))
		}
		if guardedDrops(t, conn, setUDP) != drops+1 {
			t.Errorf("the datagram to %s was not counted as a guarded port's", hostPort(to, 4790))
		}
		sendUDP(t, l.pub, "", hostPort(to, 4789), "old "+to)
		if !old.received("old " + to) {
			t.Errorf("%s, no longer calico's, is still guarded", hostPort(to, 4789))
		}
	}
	sendUDP(t, l.ovl, "", hostPort(srvOvl4, 4790), "overlay")
	if !moved.received("overlay") {
		t.Error("VXLAN over the overlay did not reach the patched port")
	}
}

// TestGuardCoversTheLoadBalancersProxyAndKubeProxy: with the control-plane
// load balancer on, its proxy to the API (6444, here moved to 7445 by
// k0s.patch) and kube-proxy's metrics (10249) are guarded like the API:
// dropped from the underlay, reached over the overlay and by the node's own
// pods on kube-router's bridge.
func TestGuardCoversTheLoadBalancersProxyAndKubeProxy(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl", "bridge")
	t.Parallel()
	l := newLab(t)
	listen(t, l.srv, 7445)
	listen(t, l.srv, 10249)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	on := true
	mustApply(t, conn, patchedGuard(t, `{spec: {network: {controlPlaneLoadBalancing: {keepalived: {userSpaceProxyBindPort: 7445}}}}}`, func(cfg *schema.Config) {
		cfg.HA = schema.HA{Enabled: &on, VirtualIP: "192.0.2.100/24"}
	}))
	for _, port := range []int{7445, 10249} {
		l.expect(t, false, l.pub, "", srvPub4, port)
		l.expect(t, false, l.pub, "", srvPub6, port)
		l.expect(t, false, l.pub, "10.244.0.99", srvPub4, port) // a forged pod source
		l.expect(t, true, l.ovl, "", srvOvl4, port)
		l.expect(t, true, l.pod, "", "10.244.0.1", port)
	}
}
