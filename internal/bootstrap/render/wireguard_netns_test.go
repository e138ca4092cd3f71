package render

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vishvananda/netlink"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// overlayNode is one side of the two-namespace overlay test.
type overlayNode struct {
	ns     *netns.Netns
	iface  string
	cfg    *schema.Config
	step   plan.Step
	handle *netlink.Handle
}

// TestOverlayInNamespaces brings two rendered nodes up with the real wg-quick
// (userspace wireguard-go) in two namespaces joined by a veth, and then runs
// the agent's device verification and node-address selection against the
// live interfaces inside those namespaces.
func TestOverlayInNamespaces(t *testing.T) {
	host.RequireRoot(t, "wg-quick", "wg", "wireguard-go", "ip", "ping")

	keyA, keyB := fixture.GenKey(t), fixture.GenKey(t)
	// Distinct interface names: the userspace UAPI sockets under
	// /run/wireguard are shared by every namespace.
	suffix := fixture.RandHex(6)
	a := &overlayNode{iface: "cwa" + suffix, cfg: &schema.Config{Role: schema.RoleControllerWorker}}
	b := &overlayNode{iface: "cwb" + suffix, cfg: &schema.Config{Role: schema.RoleWorker}}
	a.cfg.WireGuard = []schema.WireGuard{overlayIface(a.iface, "10.77.0.1/24", 51820, true, keyA, keyB.PublicKey(), "192.0.2.2:51821", "10.77.0.2/32")}
	b.cfg.WireGuard = []schema.WireGuard{overlayIface(b.iface, "10.77.0.2/24", 51821, false, keyB, keyA.PublicKey(), "192.0.2.1:51820", "10.77.0.1/32")}

	a.ns = netns.New(t, "cwa")
	b.ns = netns.New(t, "cwb")
	netns.Veth(t, a.ns, "ul0", "192.0.2.1/24", b.ns, "ul0", "192.0.2.2/24")
	// b reaches "the internet" through a, so its default-route source is
	// its underlay address; a has no default route at all.
	b.ns.Run(t, "ip", "route", "add", "default", "via", "192.0.2.1", "dev", "ul0")

	dir := t.TempDir()
	for _, n := range []*overlayNode{a, b} {
		var err error
		if n.step, err = RenderWireGuard(n.cfg, nil); err != nil {
			t.Fatal(err)
		}
		conf := fileAt(t, n.step, WireGuardConfPath(n.iface))
		path := filepath.Join(dir, n.iface+".conf")
		if err := os.WriteFile(path, conf.Content, conf.Mode); err != nil {
			t.Fatal(err)
		}
		n.ns.WgQuickUp(t, path)
		n.handle = n.ns.Netlink(t)
	}

	// A ping across the overlay, which needs a handshake first.
	if out, err := a.ns.Try("ping", "-c", "1", "-W", "5", "10.77.0.2"); err != nil {
		t.Fatalf("ping across the overlay: %v\n%s", err, out)
	}
	wg := netns.WireGuardClient(t)
	for _, n := range []*overlayNode{a, b} {
		dev, err := wg.Device(n.iface)
		if err != nil {
			t.Fatalf("reading %s: %v", n.iface, err)
		}
		if len(dev.Peers) != 1 || dev.Peers[0].LastHandshakeTime.IsZero() {
			t.Fatalf("%s: no handshake with its peer: %+v", n.iface, dev.Peers)
		}
	}

	ctx := context.Background()
	t.Run("verify", func(t *testing.T) {
		for _, n := range []*overlayNode{a, b} {
			v := apply.Verifier{Devices: wg, Links: n.handle, AddressWait: 2 * time.Second}
			if err := v.Verify(ctx, applytest.DeviceOf(t, n.step)); err != nil {
				t.Errorf("%s: %v", n.iface, err)
			}
		}
	})

	t.Run("wrong peer key caught", func(t *testing.T) {
		wrong := fixture.GenKey(t).PublicKey()
		cfg := *a.cfg
		cfg.WireGuard = []schema.WireGuard{overlayIface(a.iface, "10.77.0.1/24", 51820, true, keyA, wrong, "192.0.2.2:51821", "10.77.0.2/32")}
		step, err := RenderWireGuard(&cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := apply.Verifier{Devices: wg, Links: a.handle, AddressWait: time.Second}
		err = v.Verify(ctx, applytest.DeviceOf(t, step))
		if err == nil {
			t.Fatal("verification passed against a device whose peer key differs from the configuration")
		}
		for _, want := range []string{
			"peer " + wrong.String() + " is configured but not on the device",
			"peer " + keyB.PublicKey().String() + " is on the device but not configured",
			"journalctl -u " + plan.WgQuickUnit(a.iface),
		} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if strings.Contains(err.Error(), keyA.String()) {
			t.Error("verification error shows the private key")
		}
	})

	t.Run("wrong private key caught", func(t *testing.T) {
		e := applytest.DeviceOf(t, a.step)
		e.PublicKey = plan.Key(fixture.GenKey(t).PublicKey())
		e.Addresses = append(e.Addresses, netip.MustParsePrefix("10.77.9.1/24"))
		v := apply.Verifier{Devices: wg, Links: a.handle, AddressWait: 300 * time.Millisecond}
		err := v.Verify(ctx, e)
		if err == nil || !strings.Contains(err.Error(), "public key is "+keyA.PublicKey().String()) ||
			!strings.Contains(err.Error(), "10.77.9.1/24") {
			t.Fatalf("got %v, want a public key mismatch and the missing address 10.77.9.1/24", err)
		}
	})

	t.Run("node address", func(t *testing.T) {
		factsA, err := gather.Gather(a.handle)
		if err != nil {
			t.Fatal(err)
		}
		if factsA.DefaultRoute != nil {
			t.Errorf("a has no default route, facts say %+v", factsA.DefaultRoute)
		}
		if factsA.Interface(a.iface) == nil {
			t.Fatalf("facts of a do not list the userspace device %s: %+v", a.iface, factsA.Interfaces)
		}
		d := SelectNodeAddress(a.cfg, schema.Effective(a.cfg), factsA)
		if d.Address != netip.MustParseAddr("10.77.0.1") || !candidateTaken(d, a.iface, "10.77.0.1") {
			t.Errorf("a (nodeAddress on %s): got %+v, want 10.77.0.1 taken from the overlay", a.iface, d)
		}

		factsB, err := gather.Gather(b.handle)
		if err != nil {
			t.Fatal(err)
		}
		if factsB.DefaultRoute == nil || factsB.DefaultRoute.Source != netip.MustParseAddr("192.0.2.2") {
			t.Fatalf("b: default route source = %+v, want 192.0.2.2", factsB.DefaultRoute)
		}
		d = SelectNodeAddress(b.cfg, schema.Effective(b.cfg), factsB)
		if d.Address != netip.MustParseAddr("192.0.2.2") || d.Source != SourceDefaultRoute {
			t.Errorf("b (nodeAddress off): got %+v, want 192.0.2.2 from the default route", d)
		}
		c := candidate(d, b.iface, "10.77.0.2")
		if c == nil || c.Taken || c.Reason != "overlay interface "+b.iface+" is not marked nodeAddress" {
			t.Errorf("b: overlay candidate = %+v, want it rejected as an overlay interface not marked nodeAddress", c)
		}

		marked := *b.cfg
		marked.WireGuard = []schema.WireGuard{b.cfg.WireGuard[0]}
		marked.WireGuard[0].NodeAddress = true
		if d := SelectNodeAddress(&marked, schema.Effective(&marked), factsB); d.Address != netip.MustParseAddr("10.77.0.2") {
			t.Errorf("b with nodeAddress on: got %+v, want 10.77.0.2", d)
		}
	})
}

func overlayIface(name, addr string, port int, nodeAddress bool, priv wgtypes.Key, peer wgtypes.Key, endpoint, allowed string) schema.WireGuard {
	key := secret.NewValue(priv.String())
	return schema.WireGuard{
		Name: name, Address: schema.AddressList{addr}, ListenPort: &port, NodeAddress: nodeAddress, PrivateKey: &key,
		Peers: []schema.Peer{{PublicKey: peer.String(), Endpoint: endpoint, AllowedIPs: []string{allowed}}},
	}
}

func fileAt(t *testing.T, s plan.Step, path string) plan.File {
	t.Helper()
	for _, f := range s.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("step %s renders no %s", s.Name, path)
	return plan.File{}
}

func candidate(d Decision, iface, addr string) *Candidate {
	for i, c := range d.Candidates {
		if c.Interface == iface && c.Address == netip.MustParseAddr(addr) {
			return &d.Candidates[i]
		}
	}
	return nil
}

func candidateTaken(d Decision, iface, addr string) bool {
	c := candidate(d, iface, addr)
	return c != nil && c.Taken
}
