package nft

import (
	"context"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// dualStackPatch turns dual stack on with the labs' IPv6 pod range beside
// their IPv4 one.
func dualStackPatch(ipv6Pods string) map[string]any {
	return map[string]any{"spec": map[string]any{"network": map[string]any{"dualStack": map[string]any{
		"enabled": true, "IPv6podCIDR": ipv6Pods, "IPv6serviceCIDR": "fd00:96::/108",
	}}}}
}

// TestGuardDualStackWithPackets: one guard for a dual-stack cluster holds
// in both families at once. The underlay reaches no guarded port at either
// of the node's addresses, the overlay reaches them at both, this node's
// pod reaches them from its address of each family on kube-bridge, and
// each family's pod address forged on the underlay is dropped by the
// forged-source rules. Control: the single-stack guard of the same node
// cuts the IPv6 pod off, since it trusts no IPv6 pod range.
func TestGuardDualStackWithPackets(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl", "bridge")
	l := newLab(t)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	dual := labGuard(t, func(cfg *schema.Config) {
		cfg.Firewall.PublicPorts = nil
		cfg.K0s.Patch = dualStackPatch(podCIDR6)
	})
	if dual.PodCIDR != podCIDR4 || dual.IPv6PodCIDR != podCIDR6 {
		t.Fatalf("the dual-stack guard's pod ranges are %q and %q, want %s and %s", dual.PodCIDR, dual.IPv6PodCIDR, podCIDR4, podCIDR6)
	}
	back, err := firewall.ParseFile(dual.File()) // as corium-firewall reads it every boot
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, conn, back)
	mustState(t, conn, dual, Current)

	for _, port := range []int{guardedPort, publicPort} {
		for _, to := range []string{srvPub4, srvPub6} {
			before := guardedDrops(t, conn, setTCP)
			l.expect(t, false, l.pub, "", to, port)
			if guardedDrops(t, conn, setTCP) == before {
				t.Errorf("underlay -> %s: not counted by the guarded-port rule", hostPort(to, port))
			}
		}
		l.expect(t, true, l.ovl, "", srvOvl4, port)
		l.expect(t, true, l.ovl, "", srvOvl6, port)
		l.expect(t, true, l.pod, "10.244.0.5", srvPub4, port)
		l.expect(t, true, l.pod, "fd00:10:244::5", srvPub6, port)
	}
	l.expect(t, true, l.pub, "", srvPub4, otherPort)
	l.expect(t, true, l.pub, "", srvPub6, otherPort)
	for _, f := range []struct{ from, to string }{{"10.244.0.99", srvPub4}, {"fd00:10:244::99", srvPub6}} {
		before := forgedDrops(t, conn)
		l.expect(t, false, l.pub, f.from, f.to, guardedPort)
		if forgedDrops(t, conn) == before {
			t.Errorf("the forged pod source %s was not dropped by the forged-source rules", f.from)
		}
	}

	single := labGuard(t, func(cfg *schema.Config) { cfg.Firewall.PublicPorts = nil })
	mustApply(t, conn, single)
	l.expect(t, true, l.pod, "10.244.0.5", srvPub4, guardedPort)
	l.expect(t, false, l.pod, "fd00:10:244::5", srvPub6, guardedPort)
}

// TestMasqueradeDualStack: in a dual-stack cluster B's one table
// masquerades its pod's connections to A's node address of each family,
// which arrive from B's node address of that family; A's dual-stack guard,
// on, admits both over the overlay and drops the underlay. Control: B's
// single-stack table masquerades the IPv4 pod range only, and the pod's
// IPv6 connection is lost in WireGuard.
func TestMasqueradeDualStack(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "wg", "wireguard-go", "ping", "sysctl")
	l := newMasqLab(t)
	connA, connB := l.a.Nftables(t), l.b.Nftables(t)
	t.Cleanup(func() {
		_ = Remove(context.Background(), connA)
		_ = Remove(context.Background(), connB)
	})
	fam := masqFamilies[0]
	fam.patch = `{spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd00:10:244::/104", IPv6serviceCIDR: "fd00:96::/108"}}}}`
	guardA := renderFile(t, masqConfig(t, schema.RoleControllerWorker, fam, l.wgA, l.wgB, "overlay"))
	guardB := renderFile(t, masqConfig(t, schema.RoleWorker, fam, l.wgB, l.wgA, "overlay"))
	if guardA.IPv6PodCIDR == "" || !guardB.Masquerade || guardB.IPv6PodCIDR == "" {
		t.Fatalf("dual-stack guards without the IPv6 pod range: A %+v, B %+v", guardA, guardB)
	}
	mustApply(t, connA, guardA)
	mustApply(t, connB, guardB)
	expectDropped(t, l.b, fam.aLAN, 6443)

	reach := func(t *testing.T, want bool, aAddr, bAddr string) {
		t.Helper()
		for _, p := range []struct {
			port int
			log  *peerLog
		}{{6443, l.api}, {10250, l.kub}} {
			seen := len(p.log.sources())
			err := dial(l.pod, "", hostPort(aAddr, p.port))
			switch {
			case want && err != nil:
				t.Errorf("pod -> %s: %v; want reachable", hostPort(aAddr, p.port), err)
			case want && p.log.after(seen) != bAddr:
				t.Errorf("A saw the pod's connection to %s from %q, want B's node address %s", hostPort(aAddr, p.port), p.log.after(seen), bAddr)
			case !want && err == nil:
				t.Errorf("pod -> %s connected; want it lost", hostPort(aAddr, p.port))
			}
		}
	}
	reach(t, true, "10.10.0.1", "10.10.0.2")
	reach(t, true, "fd10::1", "fd10::2")

	mustApply(t, connB, renderFile(t, masqConfig(t, schema.RoleWorker, masqFamilies[0], l.wgB, l.wgA, "overlay")))
	reach(t, true, "10.10.0.1", "10.10.0.2")
	reach(t, false, "fd10::1", "")
}
