package render

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestVRRPFromLiveRoutesInNamespaces puts a controller on two NICs: the
// default route leaves through ul1, the controllers' LAN is on ul0, and a
// third controller sits behind a static route on ul0 whose preferred source
// is ul0's second address. The live facts hold the kernel's route to each
// unicast peer, and the VRRP instance follows them: ul0, the static route's
// source, and the list without this node's own address.
func TestVRRPFromLiveRoutesInNamespaces(t *testing.T) {
	host.RequireRoot(t, "ip")
	node, lan, wan := netns.New(t, "cvn"), netns.New(t, "cvl"), netns.New(t, "cvw")
	netns.Veth(t, node, "ul0", "192.0.2.11/24", lan, "ul0", "192.0.2.1/24")
	netns.Veth(t, node, "ul1", "203.0.113.50/24", wan, "ul1", "203.0.113.1/24")
	node.Run(t, "ip", "addr", "add", "192.0.2.21/24", "dev", "ul0")
	node.Run(t, "ip", "route", "add", "default", "via", "203.0.113.1", "dev", "ul1")
	node.Run(t, "ip", "route", "add", "198.51.100.0/24", "via", "192.0.2.1", "dev", "ul0", "src", "192.0.2.21")

	cfg, _, err := schema.Load([]byte(`role: controller
cluster: {name: ha, endpoint: 192.0.2.100}
ha:
  enabled: true
  virtualIP: 192.0.2.100/24
  authPass: vrrp
  unicastPeers: [198.51.100.13, 192.0.2.21, 192.0.2.12]
`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := gather.Gather(node.Netlink(t), hostfacts.RouteTargets(cfg)...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ChooseVRRP(cfg, f)
	if err != nil {
		t.Fatal(err)
	}
	if v.Interface != "ul0" || v.Source.String() != "192.0.2.21" || strings.Join(v.Peers, " ") != "198.51.100.13 192.0.2.12" {
		t.Errorf("chose %s from %v to %v, want ul0 from 192.0.2.21 (the static route's source) to the two others; facts %+v", v.Interface, v.Source, v.Peers, f)
	}
}
