package gather_test

import (
	"net/netip"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestGatherBothDefaultRoutes: a host with a default route of each family
// has both in its facts, the IPv4 one as defaultRoute and the IPv6 one as
// defaultRoute6, so an IPv6 or dual-stack cluster can take its IPv6 node
// address; a host with only an IPv6 route has it as defaultRoute.
func TestGatherBothDefaultRoutes(t *testing.T) {
	host.RequireRoot(t, "ip")
	node, peer := netns.New(t, "hfn"), netns.New(t, "hfp")
	netns.Veth(t, node, "ul0", "192.0.2.1/24", peer, "ul0", "192.0.2.2/24")
	for _, ns := range []*netns.Netns{node, peer} {
		ns.Run(t, "sysctl", "-qw", "net.ipv6.conf.ul0.accept_dad=0")
	}
	node.Run(t, "ip", "-6", "addr", "add", "2001:db8::1/64", "dev", "ul0", "nodad")
	peer.Run(t, "ip", "-6", "addr", "add", "2001:db8::2/64", "dev", "ul0", "nodad")
	node.Run(t, "ip", "-6", "route", "add", "default", "via", "2001:db8::2", "dev", "ul0")
	h := node.Netlink(t)

	f, err := gather.Gather(h)
	if err != nil {
		t.Fatal(err)
	}
	if f.DefaultRoute == nil || f.DefaultRoute.Source != netip.MustParseAddr("2001:db8::1") || f.DefaultRoute6 != nil {
		t.Fatalf("IPv6 route only: defaultRoute %+v, defaultRoute6 %+v; want the IPv6 one as defaultRoute", f.DefaultRoute, f.DefaultRoute6)
	}

	node.Run(t, "ip", "route", "add", "default", "via", "192.0.2.2", "dev", "ul0")
	if f, err = gather.Gather(h); err != nil {
		t.Fatal(err)
	}
	if d := f.DefaultRoute; d == nil || d.Source != netip.MustParseAddr("192.0.2.1") || d.Interface != "ul0" {
		t.Errorf("defaultRoute %+v, want ul0 from 192.0.2.1", d)
	}
	if d := f.DefaultRoute6; d == nil || d.Source != netip.MustParseAddr("2001:db8::1") || d.Interface != "ul0" {
		t.Errorf("defaultRoute6 %+v, want ul0 from 2001:db8::1", d)
	}
	if f.DefaultRouteOf(true) != f.DefaultRoute6 || f.DefaultRouteOf(false) != f.DefaultRoute {
		t.Error("DefaultRouteOf does not pick each family's route")
	}
}
