package report

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// liveNode is a provisioned root whose rendered wg-quick file is up in a
// namespace the test made.
type liveNode struct {
	node
	ns   *netns.Netns
	root rootfs.Root
	conf string
}

// up provisions n into a fresh root and brings its rendered wg-quick file up
// with the real wg-quick and wireguard-go inside ns.
func up(t testing.TB, n node, ns *netns.Netns) *liveNode {
	t.Helper()
	l := &liveNode{node: n, ns: ns, root: provision(t, n)}
	l.conf = filepath.Join(l.root.Dir(), render.WireGuardConfPath(n.iface))
	ns.WgQuickUp(t, l.conf)
	return l
}

// options reads n's namespace live: wgctrl (userspace sockets in
// /run/wireguard are shared by every namespace, hence distinct names),
// netlink and nftables inside the namespace, no systemd.
func (l *liveNode) options(t testing.TB, wg *wgctrl.Client) Options {
	t.Helper()
	return Options{Root: l.root, Devices: wg, Links: LinkFacts{Netlink: l.ns.Netlink(t)}, Guard: NftGuard{Conn: l.ns.Nftables(t)}, Sockets: l.sockets(t), UnitsWhy: "no system bus"}
}

// liveLab is two nodes joined by an underlay veth (A 192.0.2.1, B
// 192.0.2.2) and a real userspace WireGuard overlay (10.77.0.1 and .2), A's
// guard applied and a ping across the overlay done, so the peers handshook.
type liveLab struct {
	nsA, nsB *netns.Netns
	na       node // A's keys and addresses; B's are their mirror
	a, b     *liveNode
}

// newLiveLab builds a lab; name (three letters) keeps its namespaces and
// interfaces apart from other tests'.
func newLiveLab(tb testing.TB, name string) liveLab {
	tb.Helper()
	sfx := fixture.RandHex(6)
	l := liveLab{nsA: netns.New(tb, name+"a"), nsB: netns.New(tb, name+"b")}
	netns.Veth(tb, l.nsA, "ul0", "192.0.2.1/24", l.nsB, "ul0", "192.0.2.2/24")
	l.na = newNode(tb, name+"a"+sfx)
	nb := node{iface: name + "b" + sfx, priv: l.na.peer, peer: l.na.priv, psk: l.na.psk,
		address: "10.77.0.2/24", peerAddr: "10.77.0.1/32", port: 51821, endpoint: "192.0.2.1:51820", token: l.na.token}
	l.a, l.b = up(tb, l.na, l.nsA), up(tb, nb, l.nsB)
	if err := l.nsA.Do(func() error { return nft.ApplyRendered(context.Background(), l.a.root) }); err != nil {
		tb.Fatalf("applying the guard in %s: %v", l.nsA.Name, err)
	}
	if out, err := l.nsA.Try("ping", "-c", "1", "-W", "5", "10.77.0.2"); err != nil {
		tb.Fatalf("ping across the overlay: %v\n%s", err, out)
	}
	return l
}

// inspectLive inspects and checks the verdict line both in the report and
// as the first line of the text output.
func inspectLive(t *testing.T, o Options, wantLine string) *Report {
	t.Helper()
	r := Inspect(context.Background(), o)
	text := textOf(r)
	if got := firstLine(text); got != wantLine {
		t.Errorf("verdict line\n got %q\nwant %q\n%s", got, wantLine, text)
	}
	return r
}

// TestLiveOverlay produces every peer class and every guard state on live
// userspace WireGuard devices and a real nftables table in namespaces.
func TestLiveOverlay(t *testing.T) {
	host.RequireRoot(t, "ip", "wg", "wg-quick", "wireguard-go", "nft", "ping")
	lab := newLiveLab(t, "cst")
	nsA, nsB, na, a, b := lab.nsA, lab.nsB, lab.na, lab.a, lab.b
	wg := netns.WireGuardClient(t)
	o := a.options(t, wg)
	keyB := na.peer.PublicKey().String()
	peerB := "10.77.0.2 (" + keyB[:8] + "...)" // as status names it
	const okLine = "ok (could not check: unit states)"

	t.Run("reachable", func(t *testing.T) {
		r := inspectLive(t, o, okLine)
		it := r.Interfaces[0]
		p := it.Peers[0]
		if it.Device != DevicePresent || len(it.Drift) != 0 || p.Class != Reachable || p.RxBytes == 0 || p.TxBytes == 0 || p.LiveEndpoint != "192.0.2.2:51821" {
			t.Errorf("interface %+v", it)
		}
		if it.PublicKey != na.priv.PublicKey().String() || it.ListenPort != 51820 || !slices.Equal(ownAddresses(prefixes(t, it.Addresses)), []string{"10.77.0.1/24"}) {
			t.Errorf("device read back as %+v", it)
		}
		if r.Firewall.Status != string(nft.Current) {
			t.Errorf("guard %+v", r.Firewall)
		}
		if !r.Route.OK || len(r.Route.Endpoints) != 1 || r.Route.Endpoints[0].Via != "ul0" {
			t.Errorf("route %+v", r.Route)
		}
		if !strings.HasPrefix(it.UnitState, "unknown: no system bus") {
			t.Errorf("unit state %q", it.UnitState)
		}
	})

	t.Run("guard changed behind the agent's back is stale", func(t *testing.T) {
		nsA.Run(t, "nft", "add", "rule", "inet", "corium", "input", "tcp", "dport", "22", "accept")
		r := inspectLive(t, o, "degraded: firewall: guard stale: "+mustFirewall(t, o).Reason)
		if r.Firewall.Status != string(nft.Stale) {
			t.Errorf("guard %+v", r.Firewall)
		}
	})

	t.Run("guard removed is missing", func(t *testing.T) {
		nsA.Run(t, "nft", "delete", "table", "inet", "corium")
		r := inspectLive(t, o, "degraded: firewall: guard missing: "+mustFirewall(t, o).Reason)
		if r.Firewall.Status != string(nft.Missing) {
			t.Errorf("guard %+v", r.Firewall)
		}
		if err := nsA.Do(func() error { return nft.ApplyRendered(context.Background(), a.root) }); err != nil {
			t.Fatal(err)
		}
		inspectLive(t, o, okLine)
	})

	t.Run("wrong key never handshakes", func(t *testing.T) {
		nw := node{iface: "csn" + fixture.RandHex(6), priv: fixture.GenKey(t), peer: fixture.GenKey(t), psk: fixture.GenKey(t),
			address: "10.78.0.1/24", peerAddr: "10.78.0.2/32", port: 51822, endpoint: "192.0.2.2:51821", token: na.token}
		w := up(t, nw, nsA)
		ow := w.options(t, wg)
		// The keepalive and a ping make wireguard-go initiate; b answers no
		// key it does not know. A real handshake above took far less.
		_, _ = nsA.Try("ping", "-c", "1", "-W", "2", "10.78.0.2")
		r := inspectLive(t, ow, "degraded: tunnel: "+nw.iface+": peer 10.78.0.2 ("+nw.peer.PublicKey().String()[:8]+"...) never completed a handshake")
		if p := r.Interfaces[0].Peers[0]; p.Class != Never || p.TxBytes == 0 || p.HandshakeAgeSeconds != -1 {
			t.Errorf("peer %+v", p)
		}
	})

	t.Run("other side down, handshake aged by the clock is stale", func(t *testing.T) {
		if out, err := nsB.Try("wg-quick", "down", b.conf); err != nil {
			t.Fatalf("wg-quick down: %v\n%s", err, out)
		}
		aged := o
		aged.Now = func() time.Time { return time.Now().Add(HandshakeFresh + 10*time.Second) }
		r := Inspect(context.Background(), aged)
		p := r.Interfaces[0].Peers[0]
		if p.Class != Stale || p.HandshakeAgeSeconds <= int64(HandshakeFresh/time.Second) {
			t.Fatalf("peer %+v", p)
		}
		want := "degraded: tunnel: " + na.iface + ": peer " + peerB + " is stale: last handshake " + (time.Duration(p.HandshakeAgeSeconds) * time.Second).String() + " ago"
		if got := firstLine(textOf(r)); got != want {
			t.Errorf("verdict line\n got %q\nwant %q", got, want)
		}
	})

	t.Run("peer removed with wg set is missing and drift", func(t *testing.T) {
		nsA.Run(t, "wg", "set", na.iface, "peer", keyB, "remove")
		r := inspectLive(t, o, "degraded: tunnel: "+na.iface+": peer "+peerB+" is missing from the device (and 1 more)")
		it := r.Interfaces[0]
		if it.Peers[0].Class != Missing {
			t.Errorf("peer %+v", it.Peers[0])
		}
		if len(it.Drift) != 1 || it.Drift[0] != (Drift{Field: "peers", Want: keyB, Have: "absent from the device"}) {
			t.Errorf("drift %+v", it.Drift)
		}
	})

	t.Run("interface down is an absent device, not an unknown one", func(t *testing.T) {
		if out, err := nsA.Try("wg-quick", "down", a.conf); err != nil {
			t.Fatalf("wg-quick down: %v\n%s", err, out)
		}
		// wireguard-go answers on its socket until it has exited, which
		// wg-quick does not wait for.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, err := wg.Device(na.iface); errors.Is(err, os.ErrNotExist) {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("wireguard-go still serves %s 10 s after wg-quick down (%v)", na.iface, err)
			}
		}
		r := inspectLive(t, o, "degraded: tunnel: "+na.iface+": the device is absent; see journalctl -u wg-quick@"+na.iface+".service")
		if it := r.Interfaces[0]; it.Device != DeviceAbsent || it.Peers[0].Class != Missing {
			t.Errorf("interface %+v", it)
		}
	})

	t.Run("underlay gone is the route layer, below the tunnel", func(t *testing.T) {
		nsA.Run(t, "ip", "addr", "flush", "dev", "ul0")
		r := inspectLive(t, o, "degraded: route: no route to 192.0.2.2:51821, the endpoint of peer "+peerB+" of "+na.iface+" (network is unreachable)")
		if r.Route.OK || r.Route.Endpoints[0].Via != "" {
			t.Errorf("route %+v", r.Route)
		}
	})
}

func prefixes(t *testing.T, l []string) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, s := range l {
		out = append(out, netip.MustParsePrefix(s))
	}
	if len(out) == 0 {
		t.Fatal("no addresses")
	}
	return out
}

// mustFirewall is the guard's report as Inspect sees it, for the reason text.
func mustFirewall(t *testing.T, o Options) *Firewall {
	t.Helper()
	r := Inspect(context.Background(), o)
	if r.Firewall == nil {
		t.Fatal("no firewall report")
	}
	return r.Firewall
}
