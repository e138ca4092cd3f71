package nft

import (
	"context"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// podPath is a pod reaching the node: from a namespace, from a pod
// address, to one of the node's addresses.
type podPath struct {
	what     string
	ns       *netns.Netns
	from, to string
}

// cniGuard is the lab's guard for cni with the given pod network and no
// public port, so 6443 is guarded too.
func cniGuard(t *testing.T, cni schema.CNI, podCIDR string) firewall.Guard {
	t.Helper()
	return labGuard(t, func(cfg *schema.Config) {
		cfg.Network.CNI = cni
		cfg.Network.PodCIDR = podCIDR
		cfg.Firewall.PublicPorts = nil
	})
}

// TestGuardAdmitsPodsOnTheCNIInterfaces sets each CNI's pods up the way that
// CNI does (as far as this kernel allows) and checks that a pod of this node
// and a pod of another node, arriving through the CNI's tunnel, reach the
// kubelet and the API with the guard on, over IPv4 and IPv6; and that the
// same packets are dropped under a guard for the other CNI, whose
// interfaces these are not.
func TestGuardAdmitsPodsOnTheCNIInterfaces(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl", "bridge")
	t.Parallel() // the drops wait out their timeouts; the labs share nothing
	for _, tc := range []struct {
		cni, other schema.CNI
		setup      func(t *testing.T, l *lab) (v4, v6 []podPath)
	}{
		{schema.CNIKubeRouter, schema.CNICalico, kubeRouterPods},
		{schema.CNICalico, schema.CNIKubeRouter, calicoPods},
	} {
		t.Run(string(tc.cni), func(t *testing.T) {
			t.Parallel()
			l := newBaseLab(t)
			conn := l.srv.Nftables(t)
			t.Cleanup(func() { _ = Remove(context.Background(), conn) })
			v4, v6 := tc.setup(t, l)
			for _, fam := range []struct {
				podCIDR string
				paths   []podPath
			}{{podCIDR4, v4}, {podCIDR6, v6}} {
				g := cniGuard(t, tc.cni, fam.podCIDR)
				if err := Apply(context.Background(), conn, g); err != nil {
					t.Fatal(err)
				}
				l.expect(t, false, l.pub, "", srvPub4, publicPort) // 6443 is guarded here
				for _, p := range fam.paths {
					for _, port := range []int{guardedPort, publicPort} {
						if err := dial(p.ns, p.from, hostPort(p.to, port)); err != nil {
							t.Errorf("%s guard, %s (%s -> %s): %v; want reachable", tc.cni, p.what, p.from, hostPort(p.to, port), err)
						}
					}
				}
				if err := Apply(context.Background(), conn, cniGuard(t, tc.other, fam.podCIDR)); err != nil {
					t.Fatal(err)
				}
				for _, p := range fam.paths {
					l.expect(t, false, p.ns, p.from, p.to, guardedPort)
				}
			}
		})
	}
}

// kubeRouterPods: this node's pod on kube-bridge; another node's pod out of
// the tunnel kube-router names for that node.
func kubeRouterPods(t *testing.T, l *lab) (v4, v6 []podPath) {
	local := netns.New(t, "fw-krpod")
	kubeBridge(t, l.srv, local, "10.244.0.1/24 fd00:10:244::1/64", "10.244.0.5/24 fd00:10:244::5/64")
	local.Run(t, "ip", "route", "add", "default", "via", "10.244.0.1")
	local.Run(t, "ip", "-6", "route", "add", "default", "via", "fd00:10:244::1")
	remote4, remote6 := netns.New(t, "fw-krrem4"), netns.New(t, "fw-krrem6")
	kubeRouterTunnel(t, l.srv, remote4, "198.51.100.2", "10.244.9.5/24", "10.244.9.0/24")
	kubeRouterTunnel(t, l.srv, remote6, "2001:db8:2::2", "fd00:10:244:9::5/64", "fd00:10:244:9::/64")
	return []podPath{
			{"this node's pod on kube-bridge", local, "10.244.0.5", srvOvl4},
			{"another node's pod out of " + kubeRouterTunnelName("198.51.100.2"), remote4, "10.244.9.5", srvOvl4},
		}, []podPath{
			{"this node's pod on kube-bridge", local, "fd00:10:244::5", srvOvl6},
			{"another node's pod out of " + kubeRouterTunnelName("2001:db8:2::2"), remote6, "fd00:10:244:9::5", srvOvl6},
		}
}

// calicoPods: this node's pod on a cali veth with its /32 and /128 routes;
// another node's pod through real VXLAN devices over the overlay.
func calicoPods(t *testing.T, l *lab) (v4, v6 []podPath) {
	local := netns.New(t, "fw-capod")
	caliVeth(t, l.srv, local, "cali0a1b2c3d4e5", "10.244.0.7", "fd00:10:244::7")
	calicoVXLAN(t, l)
	return []podPath{
			{"this node's pod on cali0a1b2c3d4e5", local, "10.244.0.7", srvOvl4},
			{"another node's pod out of vxlan.calico", l.ovl, "10.244.9.5", "10.244.0.1"},
		}, []podPath{
			{"this node's pod on cali0a1b2c3d4e5", local, "fd00:10:244::7", srvOvl6},
			{"another node's pod out of vxlan-v6.calico", l.ovl, "fd00:10:244:9::5", "fd00:10:244::1"},
		}
}
