package lab

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/corium/corium-agent/internal/status"
)

// dualStack turns a built IPv4-overlay scenario into a dual-stack cluster
// over an overlay of both families: each wg0 gains an IPv6 address, each
// peer entry the peer's IPv6 address, and each document k0s.patch's dual
// stack, as examples/dual-stack-overlay does. IPv4 stays k0s's primary
// family, so the node address the agent picks and the etcd peer address
// are IPv4, and the kubelet registers both.
func dualStack(t testing.TB, s *Scenario) {
	t.Helper()
	if s.Overlay != IPv4 {
		t.Fatal("dualStack adds IPv6 to an IPv4 overlay")
	}
	Build(t, s)
	byKey := map[string]*Node{}
	for _, n := range s.Nodes {
		n.overlay = append(n.overlay, overlayPrefix(IPv6, n.index))
		byKey[n.pubKey] = n
	}
	for _, n := range s.Nodes {
		wg := &n.Doc.Wireguard[0]
		wg.Address = prefixStrings(n.overlay)
		for i := range wg.Peers {
			wg.Peers[i].AllowedIPs = hostPrefixes(byKey[wg.Peers[i].PublicKey].overlay)
		}
		if n.Doc.Extra == nil {
			n.Doc.Extra = map[string]any{}
		}
		n.Doc.Extra["k0s"] = map[string]any{"patch": map[string]any{"spec": map[string]any{"network": map[string]any{
			"dualStack": map[string]any{"enabled": true, "IPv6podCIDR": "fd00:244::/104", "IPv6serviceCIDR": "fd00:96::/108"},
		}}}}
	}
}

// checkIPv6Pairs connects every pair that must talk at the other node's
// IPv6 overlay address, as checkPairs does at the node address: the
// connection must reach the right node and leave by wg0. etcd's peers
// talk at spec.storage.etcd.peerAddress alone, the primary family's
// address (k0s v1.36.3+k0s.0 pkg/component/controller/etcd.go:176-177),
// which checkPairs covers.
func (l *Lab) checkIPv6Pairs(t testing.TB, v *Verdict) {
	t.Helper()
	var wg sync.WaitGroup
	for _, p := range l.pairs() {
		if p.svc.Bind != Every {
			continue
		}
		target := p.to.overlay[1].Addr()
		ap := netip.AddrPortFrom(target, uint16(p.svc.Port))
		via := routeDevice(p.from.NS.Netlink(t), target)
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.count()
			what := p.from.Name + " -> " + p.to.Name + " " + p.svc.Name + " (" + ap.String() + ")"
			if via != "wg0" {
				v.fail("%s: leaves by %s, not the wireguard interface wg0", what, via)
			}
			if got, err := dialFrom(p.from.NS, ap, pairTimeout); err != nil {
				v.fail("%s: does not connect: %v", what, err)
			} else if got != p.to.Name {
				v.fail("%s: answered by %q, not %s", what, got, p.to.Name)
			}
		}()
	}
	wg.Wait()
}

// TestDualStackOverlay is a node of each role in a dual-stack cluster over
// an overlay of both families, on an underlay of each family: every
// required pair connects at the IPv4 node addresses (the verdict) and at
// the IPv6 ones, and the underlay scan, in the underlay's family, finds
// only what may answer.
func TestDualStackOverlay(t *testing.T) {
	t.Parallel()
	for _, underlay := range []struct {
		name string
		f    Family
	}{{"IPv4 underlay", IPv4}, {"IPv6 underlay", IPv6}} {
		t.Run(underlay.name, func(t *testing.T) {
			t.Parallel()
			s := threeRoles(underlay.f, IPv4)
			dualStack(t, s)
			l := Up(t, s)
			rendersDualStack(t, l)
			v := l.Verdict(t)
			l.checkIPv6Pairs(t, v)
			requirePass(t, l, v)
		})
	}
	// Control: allowedIPs without the peers' IPv6 addresses (each
	// document valid on its own) cut every IPv6 pair off.
	t.Run("control: allowedIPs without the IPv6 addresses", func(t *testing.T) {
		t.Parallel()
		s := threeRoles(IPv4, IPv4)
		dualStack(t, s)
		for _, n := range s.Nodes {
			for i, p := range n.Doc.Wireguard[0].Peers {
				n.Doc.Wireguard[0].Peers[i].AllowedIPs = p.AllowedIPs[:1]
			}
		}
		l := Up(t, s)
		v := &Verdict{}
		l.checkIPv6Pairs(t, v)
		requireFail(t, v, "c1 -> w1 kubelet ([fd10::3]:10250)", "does not connect")
	})
}

// rendersDualStack: what each node's agent wrote is dual stack: the guard
// follows the IPv6 pod range, and the node address decided is the IPv4
// one with the IPv6 one beside it (the kubelet's --node-ip, IPv4 first).
func rendersDualStack(t testing.TB, l *Lab) {
	t.Helper()
	for _, ln := range l.Nodes {
		guard, err := os.ReadFile(filepath.Join(ln.Root, "var/lib/corium/firewall.json"))
		if err != nil || !strings.Contains(string(guard), `"ipv6PodCIDR": "fd00:244::/104"`) {
			t.Errorf("%s: the guard file does not follow the IPv6 pod range (%v):\n%s", ln.Name, err, guard)
		}
		data, err := os.ReadFile(filepath.Join(ln.Root, status.Path))
		var st status.Status
		if err == nil {
			err = json.Unmarshal(data, &st)
		}
		if err != nil || st.NodeAddress == nil || st.NodeAddress.Address != ln.overlay[0].Addr().String() || st.NodeAddress.Second != ln.overlay[1].Addr().String() {
			t.Errorf("%s: the node address decided is not %s with %s beside it (%v):\n%s", ln.Name, ln.overlay[0].Addr(), ln.overlay[1].Addr(), err, data)
		}
	}
}
