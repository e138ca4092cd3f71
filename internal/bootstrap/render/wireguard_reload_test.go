package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

func TestReloadSuffices(t *testing.T) {
	base := func() schema.WireGuard { return twoInterfaceConfig(schema.RoleWorker).WireGuard[1] }
	intp := func(v int) *int { return &v }
	for _, c := range []struct {
		name   string
		edit   func(*schema.WireGuard)
		reload bool
	}{
		{"nothing", func(*schema.WireGuard) {}, true},
		{"endpoint", func(w *schema.WireGuard) { w.Peers[0].Endpoint = "192.0.2.99:51820" }, true},
		{"keepalive", func(w *schema.WireGuard) { w.Peers[0].PersistentKeepalive = intp(15) }, true},
		{"peer public key", func(w *schema.WireGuard) { w.Peers[0].PublicKey = testPubB }, true},
		{"preshared key source", func(w *schema.WireGuard) { w.Peers[0].PresharedKeyFrom = &secret.Source{File: "/run/other.psk"} }, true},
		{"private key source", func(w *schema.WireGuard) { w.PrivateKeyFrom = &secret.Source{File: "/run/other.key"} }, true},
		{"listen port", func(w *schema.WireGuard) { w.ListenPort = intp(51900) }, true},
		{"allowed IPs inside the address's subnet", func(w *schema.WireGuard) { w.Peers[0].AllowedIPs = []string{"10.20.0.2/32", "10.20.0.3/32"} }, true},
		{"another peer inside the subnet", func(w *schema.WireGuard) {
			w.Peers = append(w.Peers, schema.Peer{PublicKey: testPubB, AllowedIPs: []string{"fd20::2/128"}})
		}, true},
		{"addresses reordered", func(w *schema.WireGuard) { w.Address = schema.AddressList{"fd20::1/64", "10.20.0.1/24"} }, true},
		{"address", func(w *schema.WireGuard) { w.Address = schema.AddressList{"10.20.0.5/24", "fd20::1/64"} }, false},
		{"address prefix length", func(w *schema.WireGuard) { w.Address = schema.AddressList{"10.20.0.1/25", "fd20::1/64"} }, false},
		{"address dropped", func(w *schema.WireGuard) { w.Address = schema.AddressList{"10.20.0.1/24"} }, false},
		{"mtu set", func(w *schema.WireGuard) { w.MTU = intp(1380) }, false},
		// syncconf cannot clear these (setconf.c sync_conf, config.c
		// parse_endpoint; psk and keepalive only since v1.0.20260223).
		{"endpoint dropped", func(w *schema.WireGuard) { w.Peers[0].Endpoint = "" }, false},
		{"preshared key dropped", func(w *schema.WireGuard) { w.Peers[0].PresharedKeyFrom = nil }, false},
		{"the peer with them replaced by another", func(w *schema.WireGuard) {
			w.Peers[0] = schema.Peer{PublicKey: testPubB, AllowedIPs: w.Peers[0].AllowedIPs}
		}, true},
		{"allowed IPs beyond the addresses (a new route)", func(w *schema.WireGuard) { w.Peers[0].AllowedIPs = append(w.Peers[0].AllowedIPs, "10.99.0.0/16") }, false},
		{"default route", func(w *schema.WireGuard) { w.Peers[0].AllowedIPs = []string{"0.0.0.0/0"} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			old, next := base(), base()
			next.Peers = append([]schema.Peer(nil), old.Peers...)
			c.edit(&next)
			if got := ReloadSuffices(old, next); got != c.reload {
				t.Errorf("ReloadSuffices = %v, want %v", got, c.reload)
			}
		})
	}
	// From an interface with a listen port and a keepalive.
	for _, c := range []struct {
		name   string
		edit   func(*schema.WireGuard)
		reload bool
	}{
		{"keepalive dropped", func(w *schema.WireGuard) { w.Peers[0].PersistentKeepalive = nil }, false},
		{"keepalive changed", func(w *schema.WireGuard) { w.Peers[0].PersistentKeepalive = intp(30) }, true},
		// config.c config_read_init sets the listen port on every syncconf,
		// to 0 (a fresh one) when the file has none.
		{"listen port dropped", func(w *schema.WireGuard) { w.ListenPort = nil }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := base()
			old.ListenPort, old.Peers[0].PersistentKeepalive = intp(51821), intp(25)
			next := old
			next.Peers = []schema.Peer{old.Peers[0]}
			c.edit(&next)
			if got := ReloadSuffices(old, next); got != c.reload {
				t.Errorf("ReloadSuffices = %v, want %v", got, c.reload)
			}
		})
	}
	// A route wg-quick added that the new document drops would stay behind
	// after a reload.
	wide, narrow := base(), base()
	wide.Peers = []schema.Peer{{PublicKey: testPubC, AllowedIPs: []string{"10.20.0.0/24", "10.99.0.0/16"}}}
	if ReloadSuffices(wide, narrow) {
		t.Error("dropping a routed allowed IP reloads; its route would be left behind")
	}
}

func TestAgainRendersReloadOrRestart(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	applied := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard[0].Peers[0].Endpoint = "192.0.2.77:51820" // reload
	mtu := 1380
	cfg.WireGuard[1].MTU = &mtu // restart
	steps, err := RenderOverlay(Inputs{Config: cfg, Secrets: twoInterfaceSecrets(), Previous: previousOf(t, applied)})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 1 {
		t.Fatalf("%d steps, want only the overlay (nothing removed)", len(steps))
	}
	var got []string
	for _, a := range steps[0].Actions {
		if a.Kind != plan.ActionVerifyDevice {
			got = append(got, a.String()+" "+strings.Join(a.OnChange, ","))
		}
	}
	want := []string{
		"start wg-quick@wg0.service ",
		"reload wg-quick@wg0.service /etc/wireguard/wg0.conf",
		"restart wg-quick@wg1.service /etc/wireguard/wg1.conf",
		"start wg-quick@wg1.service ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A first boot always restarts on change.
	first, err := RenderWireGuard(cfg, twoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range first.Actions {
		if a.Kind == plan.ActionReload {
			t.Errorf("a first boot reloads: %s", a)
		}
	}
}

// previousOf is what ondisk.ReadPrevious finds after a first boot applied cfg: the
// configuration and the wg-quick files it rendered.
func previousOf(t *testing.T, applied *schema.Config) *Previous {
	t.Helper()
	step, err := RenderWireGuard(applied, twoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	prev := &Previous{Applied: applied, Confs: map[string][]byte{}}
	for _, wg := range applied.WireGuard {
		prev.Confs[wg.Name] = fileAt(t, step, WireGuardConfPath(wg.Name)).Content
	}
	return prev
}

// TestAgainDerivedMTU: an MTU derived from the routes is compared as the
// files state it. The same routes reload a change syncconf carries; a new
// underlay MTU changes the file's MTU and restarts; a file from before the
// MTU was stated restarts too, since syncconf would not set it.
func TestAgainDerivedMTU(t *testing.T) {
	underlay := func(mtu int) *hostfacts.Facts {
		return facts(t, fmt.Sprintf(`{"interfaces":[],"peerRoutes":[{"to":"192.0.2.2","interface":"eth0","mtu":%d},{"to":"192.0.2.3","interface":"eth0","mtu":%d}]}`, mtu, mtu))
	}
	applied := twoInterfaceConfig(schema.RoleWorker)
	first, err := renderWireGuard(Inputs{Config: applied, Secrets: twoInterfaceSecrets(), Facts: underlay(1450)})
	if err != nil {
		t.Fatal(err)
	}
	prev := &Previous{Applied: applied, Confs: map[string][]byte{}}
	for _, wg := range applied.WireGuard {
		prev.Confs[wg.Name] = fileAt(t, first, WireGuardConfPath(wg.Name)).Content
	}
	cfg := twoInterfaceConfig(schema.RoleWorker)
	keepalive := 10
	cfg.WireGuard[0].Peers[0].PersistentKeepalive = &keepalive // a change syncconf carries

	wg0 := func(t *testing.T, f *hostfacts.Facts, prev *Previous) string {
		t.Helper()
		step, err := renderWireGuard(Inputs{Config: cfg, Secrets: twoInterfaceSecrets(), Facts: f, Previous: prev})
		if err != nil {
			t.Fatal(err)
		}
		if conf := fileAt(t, step, WireGuardConfPath("wg0")).Content; !bytes.Contains(conf, []byte(fmt.Sprintf("\nMTU = %d\n", f.PeerRoutes[0].MTU-80))) {
			t.Errorf("wg0.conf does not state the MTU of its routes:\n%s", conf)
		}
		for _, a := range step.Actions {
			if a.Unit == plan.WgQuickUnit("wg0") && (a.Kind == plan.ActionReload || a.Kind == plan.ActionRestart) {
				return string(a.Kind)
			}
		}
		return ""
	}
	if got := wg0(t, underlay(1450), prev); got != "reload" {
		t.Errorf("same routes: wg0 is %s, want reload", got)
	}
	if got := wg0(t, underlay(1500), prev); got != "restart" {
		t.Errorf("the underlay's MTU changed from 1450 to 1500: wg0 is %s, want restart", got)
	}
	before := &Previous{Applied: applied, Confs: map[string][]byte{
		"wg0": bytes.ReplaceAll(prev.Confs["wg0"], []byte("MTU = 1370\n"), nil),
	}}
	if bytes.Contains(before.Confs["wg0"], []byte("\nMTU")) {
		t.Fatal("the stand-in for an older file still states an MTU")
	}
	if got := wg0(t, underlay(1450), before); got != "restart" {
		t.Errorf("the last file stated no MTU: wg0 is %s, want restart", got)
	}
}
