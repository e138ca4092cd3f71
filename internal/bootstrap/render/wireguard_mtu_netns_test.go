package render

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestDerivedMTUInNamespaces puts a node on two underlays, one of MTU 1450
// and one of 1500 (with the default route), with a peer endpoint on each and
// no mtu configured. The facts read from the live namespace give the file
// MTU = 1370 (the smallest route, less 80; wireguard-tools v1.0.20210914's
// wg-quick would have taken the largest, 1420), the real wg-quick brings the
// device up at 1370, the verifier agrees, and k0s.yaml's CNI MTU is 1370 less
// the encapsulation.
func TestDerivedMTUInNamespaces(t *testing.T) {
	host.RequireRoot(t, "wg-quick", "wg", "wireguard-go", "ip")
	node, small, big := netns.New(t, "cmn"), netns.New(t, "cms"), netns.New(t, "cmb")
	netns.Veth(t, node, "ul0", "192.0.2.1/24", small, "ul0", "192.0.2.2/24")
	netns.Veth(t, node, "ul1", "198.51.100.1/24", big, "ul1", "198.51.100.2/24")
	for _, ns := range []*netns.Netns{node, small} {
		ns.Run(t, "ip", "link", "set", "ul0", "mtu", "1450")
	}
	node.Run(t, "ip", "route", "add", "default", "via", "198.51.100.2", "dev", "ul1")
	h := node.Netlink(t)

	iface := "cm" + fixture.RandHex(6)
	doc := func(cni string) string {
		return fmt.Sprintf(`role: controller+worker
network: {cni: %s}
wireguard:
  - name: %s
    address: 10.81.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: 192.0.2.2:51820
        allowedIPs: [10.81.0.2/32]
      - publicKey: %s
        endpoint: 198.51.100.2:51820
        allowedIPs: [10.81.0.3/32]
`, cni, iface, fixture.GenKey(t), fixture.GenKey(t).PublicKey(), fixture.GenKey(t).PublicKey())
	}
	cfg, _, err := schema.Load([]byte(doc("kuberouter")))
	if err != nil {
		t.Fatal(err)
	}
	f, err := gather.Gather(h, hostfacts.EndpointAddrs(cfg)...)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.PeerRoute(netip.MustParseAddr("192.0.2.2")); r == nil || r.Interface != "ul0" || r.MTU != 1450 {
		t.Fatalf("route to 192.0.2.2: %+v, want ul0 with the link's MTU 1450", r)
	}
	if d := f.DefaultRoute; d == nil || d.Interface != "ul1" || d.MTU != 1500 {
		t.Fatalf("default route: %+v, want ul1 at 1500", d)
	}

	conf, verify, cniMTU := renderedNode(t, doc("kuberouter"), f, iface)
	if !strings.Contains(conf, "\nMTU = 1370\n") {
		t.Fatalf("the rendered file does not say MTU = 1370:\n%s", conf)
	}
	if cniMTU != 1370-20 {
		t.Errorf("kube-router mtu %d, want %d", cniMTU, 1370-20)
	}
	if _, _, calico := renderedNode(t, doc("calico"), f, iface); calico != 1370-50 {
		t.Errorf("calico mtu %d, want %d", calico, 1370-50)
	}

	path := filepath.Join(t.TempDir(), iface+".conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	node.WgQuickUp(t, path)
	link, err := h.LinkByName(iface)
	if err != nil {
		t.Fatal(err)
	}
	if link.Attrs().MTU != 1370 {
		t.Errorf("the live device has MTU %d, want 1370", link.Attrs().MTU)
	}
	wg := netns.WireGuardClient(t)
	e := verify
	v := apply.Verifier{Devices: wg, Links: h, AddressWait: 2 * time.Second}
	if err := v.Verify(context.Background(), e); err != nil {
		t.Errorf("verifying the device against the plan: %v", err)
	}
	e.MTU = 1420
	if err := (apply.Verifier{Devices: wg, Links: h, AddressWait: 200 * time.Millisecond}).Verify(context.Background(), e); err == nil || !strings.Contains(err.Error(), "link MTU is 1370, want 1420") {
		t.Errorf("negative control: got %v, want the MTU mismatch named", err)
	}

	t.Run("a route's own mtu wins over its link's", func(t *testing.T) {
		node.Run(t, "ip", "route", "add", "203.0.113.0/24", "via", "198.51.100.2", "dev", "ul1", "mtu", "1400")
		f, err := gather.Gather(h, netip.MustParseAddr("203.0.113.5"), netip.MustParseAddr("2001:db8::5"))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.PeerRoutes) != 1 || f.PeerRoutes[0].MTU != 1400 || f.PeerRoutes[0].Interface != "ul1" {
			t.Errorf("peer routes %+v, want 203.0.113.5 via ul1 at the route's 1400, and none for the unreachable IPv6 endpoint", f.PeerRoutes)
		}
	})
}
