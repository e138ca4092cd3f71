package report

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestVerdicts drives every layer from healthy to broken through the fakes
// and checks the verdict line and the part of the report that caused it.
func TestVerdicts(t *testing.T) {
	n := newNode(t, "wg0")
	root := provision(t, n)
	// A peer is named by the overlay address its allowedIPs hold, with the
	// start of its key.
	peer := "10.77.0.2 (" + n.peer.PublicKey().String()[:8] + "...)"

	cases := []struct {
		name   string
		break_ func(o *Options, dev *wgtypes.Device)
		line   string
		check  func(t *testing.T, r *Report)
	}{
		{name: "healthy", line: "ok", check: func(t *testing.T, r *Report) {
			p := r.Interfaces[0].Peers[0]
			if p.Class != Reachable || p.HandshakeAgeSeconds != 10 || p.RxBytes != 1234 || p.TxBytes != 5678 || p.LiveEndpoint != "192.0.2.2:51821" {
				t.Errorf("peer %+v", p)
			}
			if len(r.Interfaces[0].Drift) != 0 || len(r.Unknown) != 0 {
				t.Errorf("drift %v, unknown %v", r.Interfaces[0].Drift, r.Unknown)
			}
			if r.K0s.InstalledAddress != "10.77.0.1" || r.Firewall.Status != "current" || r.NodeAddress.Address != "10.77.0.1" {
				t.Errorf("k0s %+v firewall %+v node address %+v", r.K0s, r.Firewall, r.NodeAddress)
			}
			if !r.Route.OK || len(r.Route.Endpoints) != 1 || r.Route.Endpoints[0] != (EndpointRoute{Interface: "wg0", Endpoint: "192.0.2.2:51821", Via: "eth0"}) {
				t.Errorf("route %+v", r.Route)
			}
		}},
		{name: "no route to a peer endpoint breaks the lowest layer",
			break_: func(o *Options, dev *wgtypes.Device) {
				o.Links = fakeLinks{facts: o.Links.(fakeLinks).facts}
				dev.Peers[0].LastHandshakeTime = time.Time{}
			},
			line: "degraded: route: no route to 192.0.2.2:51821, the endpoint of peer " + peer + " of wg0 (network is unreachable)"},
		{name: "handshake exactly at the threshold is reachable", line: "ok",
			break_: func(o *Options, dev *wgtypes.Device) { dev.Peers[0].LastHandshakeTime = t0.Add(-HandshakeFresh) }},
		{name: "stale handshake",
			break_: func(o *Options, dev *wgtypes.Device) {
				dev.Peers[0].LastHandshakeTime = t0.Add(-HandshakeFresh - time.Second)
			},
			line:  "degraded: tunnel: wg0: peer " + peer + " is stale: last handshake 3m1s ago",
			check: peerClass(Stale)},
		{name: "no handshake ever",
			break_: func(o *Options, dev *wgtypes.Device) { dev.Peers[0].LastHandshakeTime = time.Time{} },
			line:   "degraded: tunnel: wg0: peer " + peer + " never completed a handshake",
			check:  peerClass(Never)},
		{name: "peer removed from the device",
			break_: func(o *Options, dev *wgtypes.Device) { dev.Peers = nil },
			line:   "degraded: tunnel: wg0: peer " + peer + " is missing from the device (and 1 more)",
			check: func(t *testing.T, r *Report) {
				peerClass(Missing)(t, r)
				hasDrift(t, r, Drift{Field: "peers", Want: n.peer.PublicKey().String(), Have: "absent from the device"})
			}},
		{name: "foreign peer on the device",
			break_: func(o *Options, dev *wgtypes.Device) {
				dev.Peers = append(dev.Peers, wgtypes.Peer{PublicKey: fixture.GenKey(t).PublicKey()})
			},
			line: "degraded: tunnel: wg0: differs from the applied configuration in peers"},
		{name: "public key",
			break_: func(o *Options, dev *wgtypes.Device) { dev.PublicKey = fixture.GenKey(t).PublicKey() },
			line:   "degraded: tunnel: wg0: differs from the applied configuration in publicKey"},
		{name: "listen port",
			break_: func(o *Options, dev *wgtypes.Device) { dev.ListenPort = 40000 },
			line:   "degraded: tunnel: wg0: differs from the applied configuration in listenPort",
			check: func(t *testing.T, r *Report) {
				hasDrift(t, r, Drift{Field: "listenPort", Want: "51820", Have: "40000"})
			}},
		{name: "allowed IPs",
			break_: func(o *Options, dev *wgtypes.Device) {
				_, other, _ := net.ParseCIDR("10.77.0.9/32")
				dev.Peers[0].AllowedIPs = []net.IPNet{*other}
			},
			line: "degraded: tunnel: wg0: differs from the applied configuration in peers[" + n.peer.PublicKey().String() + "].allowedIPs"},
		{name: "address",
			break_: func(o *Options, dev *wgtypes.Device) {
				o.Links.(fakeLinks).facts.Interfaces[1].Addresses = []netip.Prefix{netip.MustParsePrefix("10.77.0.5/24"), netip.MustParsePrefix("fe80::1/64")}
			},
			line: "degraded: tunnel: wg0: differs from the applied configuration in addresses",
			check: func(t *testing.T, r *Report) {
				hasDrift(t, r, Drift{Field: "addresses", Want: "10.77.0.1/24", Have: "10.77.0.5/24"})
			}},
		{name: "link down",
			break_: func(o *Options, dev *wgtypes.Device) {
				f := o.Links.(fakeLinks).facts
				f.Interfaces = f.Interfaces[:1]
			},
			line: "degraded: tunnel: wg0: differs from the applied configuration in addresses"},
		{name: "device absent",
			break_: func(o *Options, dev *wgtypes.Device) { o.Devices = fakeDevices{} },
			line:   "degraded: tunnel: wg0: the device is absent; see journalctl -u wg-quick@wg0.service",
			check:  peerClass(Missing)},
		{name: "wg-quick unit failed",
			break_: func(o *Options, dev *wgtypes.Device) {
				o.Units.(*systemdtest.Fake).States["wg-quick@wg0.service"] = systemd.State{Load: "loaded", Active: "failed", Sub: "failed"}
			},
			line: "degraded: tunnel: wg-quick@wg0.service is failed; see journalctl -u wg-quick@wg0.service"},
		{name: "guard off by configuration", line: "ok",
			break_: func(o *Options, dev *wgtypes.Device) { o.Guard = fakeGuard{status: nft.Off} }},
		{name: "guard stale",
			break_: func(o *Options, dev *wgtypes.Device) { o.Guard = fakeGuard{status: nft.Stale} },
			line:   "degraded: firewall: guard stale: fake stale"},
		{name: "guard missing",
			break_: func(o *Options, dev *wgtypes.Device) { o.Guard = fakeGuard{status: nft.Missing} },
			line:   "degraded: firewall: guard missing: fake missing"},
		{name: "k0s not running",
			break_: func(o *Options, dev *wgtypes.Device) {
				delete(o.Units.(*systemdtest.Fake).States, "k0scontroller.service")
			},
			line: "degraded: k0s: k0scontroller.service is inactive; see journalctl -u k0scontroller.service"},
		{name: "k0s joined with an address the host lacks",
			break_: func(o *Options, dev *wgtypes.Device) {
				o.Root = provision(t, n) // a root of its own: this one is edited
				if _, err := o.Root.WriteFile(status.NodeAddressPath, []byte("10.77.0.9\n"), 0o644, 0o700); err != nil {
					t.Fatal(err)
				}
			},
			line: "degraded: k0s: joined with 10.77.0.9 (from /var/lib/corium/node-address), which no interface of this host carries: the cluster reaches the node at an address it does not have"},
		{name: "the lowest broken layer wins",
			break_: func(o *Options, dev *wgtypes.Device) {
				dev.Peers[0].LastHandshakeTime = time.Time{}
				o.Guard = fakeGuard{status: nft.Missing}
				delete(o.Units.(*systemdtest.Fake).States, "k0scontroller.service")
			},
			line: "degraded: tunnel: wg0: peer " + peer + " never completed a handshake"},
		{name: "no system bus",
			break_: func(o *Options, dev *wgtypes.Device) { o.Units, o.UnitsWhy = nil, "no system bus" },
			line:   "ok (could not check: unit states)",
			check: func(t *testing.T, r *Report) {
				if r.Interfaces[0].UnitState != "unknown: no system bus" || r.K0s.UnitState != "unknown: no system bus" {
					t.Errorf("unit states %q, %q", r.Interfaces[0].UnitState, r.K0s.UnitState)
				}
			}},
		{name: "guard unreadable is unknown, not current",
			break_: func(o *Options, dev *wgtypes.Device) {
				o.Guard = fakeGuard{err: errors.New("netlink: permission denied")}
			},
			line: "ok (could not check: firewall)",
			check: func(t *testing.T, r *Report) {
				if r.Firewall.Status != "unknown" {
					t.Errorf("firewall %+v", r.Firewall)
				}
			}},
		{name: "devices unreadable",
			break_: func(o *Options, dev *wgtypes.Device) { o.Devices, o.DevicesWhy = nil, "root is /x, not the host" },
			line:   "ok (could not check: wireguard devices)",
			check:  peerClass(Unknown)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, dev := healthy(t, n, 10*time.Second)
			o.Root = root
			if c.break_ != nil {
				c.break_(&o, dev)
			}
			r := Inspect(context.Background(), o)
			if r.Verdict.Line != c.line {
				t.Errorf("verdict\n got %q\nwant %q", r.Verdict.Line, c.line)
			}
			if got := firstLine(textOf(r)); got != c.line {
				t.Errorf("text starts with %q, want the verdict %q", got, c.line)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func peerClass(want Class) func(t *testing.T, r *Report) {
	return func(t *testing.T, r *Report) {
		t.Helper()
		if got := r.Interfaces[0].Peers[0].Class; got != want {
			t.Errorf("peer class %s, want %s", got, want)
		}
	}
}

func hasDrift(t *testing.T, r *Report, want Drift) {
	t.Helper()
	for _, d := range r.Interfaces[0].Drift {
		if d == want {
			return
		}
	}
	t.Errorf("drift %+v not in %+v", want, r.Interfaces[0].Drift)
}

// TestClockAgesHandshakes: the same device reads reachable, then stale, as
// only the injected clock moves.
func TestClockAgesHandshakes(t *testing.T) {
	n := newNode(t, "wg0")
	o, _ := healthy(t, n, 0)
	o.Root = provision(t, n)
	for _, c := range []struct {
		after time.Duration
		want  Class
	}{{0, Reachable}, {179 * time.Second, Reachable}, {181 * time.Second, Stale}, {time.Hour, Stale}} {
		o.Now = func() time.Time { return t0.Add(c.after) }
		r := Inspect(context.Background(), o)
		if got := r.Interfaces[0].Peers[0]; got.Class != c.want || got.HandshakeAgeSeconds != int64(c.after/time.Second) {
			t.Errorf("after %s: class %s age %d, want %s", c.after, got.Class, got.HandshakeAgeSeconds, c.want)
		}
	}
}

func TestUnprovisioned(t *testing.T) {
	root := rootfs.New(t.TempDir())
	r := Inspect(context.Background(), Options{Root: root})
	if r.Verdict.State != Unprovisioned || !strings.HasPrefix(r.Verdict.Line, "unprovisioned") {
		t.Fatalf("verdict %+v", r.Verdict)
	}
	if err := store.Write(root, &status.Status{Command: "apply", Outcome: status.Unconfigured, Provenance: &status.Provenance{Tried: []status.Attempt{{Source: "/etc/corium/config.yaml", Outcome: "absent"}}}}); err != nil {
		t.Fatal(err)
	}
	r = Inspect(context.Background(), Options{Root: root})
	if r.Verdict.Line != "unprovisioned (no marker at /var/lib/corium/provisioned; the last run was unconfigured)" {
		t.Errorf("verdict %q", r.Verdict.Line)
	}
	if text := textOf(r); !strings.Contains(text, "tried /etc/corium/config.yaml: absent") {
		t.Errorf("provenance missing from:\n%s", text)
	}
}

func TestFailedRunNamesTheStep(t *testing.T) {
	root := rootfs.New(t.TempDir())
	st := &status.Status{Command: "apply", Outcome: status.Failed,
		Error:      "verifying wireguard wg0: reading the device: file does not exist",
		Provenance: &status.Provenance{Source: "/etc/corium/config.yaml"},
		Steps: []status.Step{
			{Name: "secrets", Outcome: status.StepDone},
			{Name: "wireguard", Outcome: status.StepFailed, Error: "verifying wireguard wg0"},
		}}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	r := Inspect(context.Background(), Options{Root: root})
	want := "failed: wireguard: verifying wireguard wg0: reading the device: file does not exist"
	if r.Verdict.Line != want || firstLine(textOf(r)) != want {
		t.Errorf("verdict %q, want %q", r.Verdict.Line, want)
	}
	st.Steps, st.Validation = nil, &status.Validation{Valid: false}
	_ = store.Write(root, st)
	if r := Inspect(context.Background(), Options{Root: root}); r.Verdict.Layer != "validate" {
		t.Errorf("a validation failure is reported as step %q", r.Verdict.Layer)
	}
}

// A failed validation carries every finding, one per line; the verdict stays
// one line and the detail keeps them all.
func TestFailedRunVerdictIsOneLine(t *testing.T) {
	root := rootfs.New(t.TempDir())
	st := &status.Status{Command: "apply", Outcome: status.Failed,
		Error:      "role: is required\nwireguard[0].name: is required\nnetwork.podCIDR: is not a CIDR",
		Validation: &status.Validation{Valid: false}}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	r := Inspect(context.Background(), Options{Root: root})
	text := textOf(r)
	want := "failed: validate: role: is required (and 2 more)"
	if r.Verdict.Line != want || firstLine(text) != want {
		t.Errorf("verdict %q, want %q", r.Verdict.Line, want)
	}
	if !strings.Contains(text, "network.podCIDR: is not a CIDR") {
		t.Errorf("the detail lost a finding:\n%s", text)
	}
}

// TestAfterReboot: /run is gone, so the status file is absent; the public key
// comes from the rendered wg-quick file and the node-address decision is
// made again from the live links.
func TestAfterReboot(t *testing.T) {
	n := newNode(t, "wg0")
	root := provision(t, n)
	if removed, err := root.Remove(status.Path); err != nil || !removed {
		t.Fatal(removed, err)
	}
	o, dev := healthy(t, n, 10*time.Second)
	o.Root = root
	r := Inspect(context.Background(), o)
	if r.Verdict.Line != "ok" || r.LastRun != nil || !strings.Contains(textOf(r), "last run:     none recorded (/run/corium/status.json is gone after a reboot)") {
		t.Errorf("verdict %q", r.Verdict.Line)
	}
	if !r.NodeAddress.Recomputed || r.NodeAddress.Decision.Address != "10.77.0.1" || r.K0s.Via != status.NodeAddressPath {
		t.Errorf("node address %+v, k0s %+v", r.NodeAddress, r.K0s)
	}
	dev.PublicKey = fixture.GenKey(t).PublicKey()
	r = Inspect(context.Background(), o)
	hasDrift(t, r, Drift{Field: "publicKey", Want: n.priv.PublicKey().String() + " (from " + status.DevicesPath + ")", Have: dev.PublicKey.String()})
}

// TestRouteLayer: a node whose address is the default route's source is
// degraded at the route layer when that source moves, below a tunnel fault.
func TestRouteLayer(t *testing.T) {
	n := newNode(t, "wg0")
	n.token = "" // not used by this config
	root := rootfs.New(t.TempDir())
	cfg := strings.Replace(strings.Replace(n.config(), "    nodeAddress: true\n", "", 1), "clusterPorts: overlay", "clusterPorts: open", 1)
	cfg = strings.Replace(cfg, "  publicPorts: [6443]\n", "", 1)
	cfg = strings.Replace(cfg, "join:\n  token: \n", "", 1)
	provisionWith(t, root, cfg, `{"interfaces":[{"name":"eth0","addresses":["192.0.2.1/24"]}],"defaultRoute":{"interface":"eth0","source":"192.0.2.1"}}`)

	o, dev := healthy(t, n, 10*time.Second)
	o.Root = root
	if r := Inspect(context.Background(), o); r.Verdict.Line != "ok" || r.Route == nil || !r.Route.OK {
		t.Fatalf("verdict %q route %+v unknown %v", r.Verdict.Line, r.Route, r.Unknown)
	}
	dev.Peers[0].LastHandshakeTime = time.Time{}
	o.Links.(fakeLinks).facts.DefaultRoute.Source = netip.MustParseAddr("192.0.2.9")
	want := "degraded: route: the default route's source is now 192.0.2.9, the node registered with 192.0.2.1"
	if r := Inspect(context.Background(), o); r.Verdict.Line != want {
		t.Errorf("verdict\n got %q\nwant %q", r.Verdict.Line, want)
	}
	o.Links.(fakeLinks).facts.DefaultRoute = nil
	if r := Inspect(context.Background(), o); r.Verdict.Layer != LayerRoute {
		t.Errorf("no default route: verdict %q", r.Verdict.Line)
	}
}

func TestProvisionedWithoutAppliedConfig(t *testing.T) {
	n := newNode(t, "wg0")
	o, _ := healthy(t, n, time.Second)
	o.Root = provision(t, n)
	if removed, err := o.Root.Remove(status.AppliedPath); err != nil || !removed {
		t.Fatal(removed, err)
	}
	r := Inspect(context.Background(), o)
	if r.Verdict.State != Failed || r.Verdict.Layer != render.StepRecord || !strings.Contains(r.Verdict.Line, "reading "+status.AppliedPath) {
		t.Errorf("verdict %q", r.Verdict.Line)
	}
}

// TestRefusedRunKeepsTheVerdict: an again run that refused changed
// nothing, so the node is judged live, and the refusals are shown.
func TestRefusedRunKeepsTheVerdict(t *testing.T) {
	n := newNode(t, "wg0")
	o, _ := healthy(t, n, time.Second)
	o.Root = provision(t, n)
	st, err := store.Read(o.Root)
	if err != nil {
		t.Fatal(err)
	}
	st.Command, st.Outcome, st.Refusals = "apply --again", status.Refused, []string{"role: was controller+worker, now worker"}
	if err := store.Write(o.Root, st); err != nil {
		t.Fatal(err)
	}
	r := Inspect(context.Background(), o)
	text := textOf(r)
	if r.Verdict.Line != "ok" || !strings.Contains(text, "last run:     apply --again: refused") || !strings.Contains(text, "  refused: role: was controller+worker, now worker") {
		t.Errorf("verdict %q\n%s", r.Verdict.Line, text)
	}
}
