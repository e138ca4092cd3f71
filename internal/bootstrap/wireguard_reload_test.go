package bootstrap

import (
	"strings"
	"testing"

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
	// A route wg-quick added that the new document drops would stay behind
	// after a reload.
	wide, narrow := base(), base()
	wide.Peers = []schema.Peer{{PublicKey: testPubC, AllowedIPs: []string{"10.20.0.0/24", "10.99.0.0/16"}}}
	if ReloadSuffices(wide, narrow) {
		t.Error("dropping a routed allowed IP reloads; its route would be left behind")
	}
}

func TestDayTwoRendersReloadOrRestart(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	applied := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard[0].Peers[0].Endpoint = "192.0.2.77:51820" // reload
	mtu := 1380
	cfg.WireGuard[1].MTU = &mtu // restart
	steps, err := RenderOverlay(cfg, twoInterfaceSecrets(), &Previous{Applied: applied})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 1 {
		t.Fatalf("%d steps, want only the overlay (nothing removed)", len(steps))
	}
	var got []string
	for _, a := range steps[0].Actions {
		if a.Kind != ActionVerifyDevice {
			got = append(got, a.String()+" "+strings.Join(a.OnChange, ","))
		}
	}
	want := []string{
		"daemon-reload " + WireGuardDropInPath(schema.RoleWorker) + "," + WgQuickK0sDropInPath("wg0") + "," + WgQuickK0sDropInPath("wg1"),
		"enable wg-quick@wg0.service ",
		"start wg-quick@wg0.service ",
		"reload wg-quick@wg0.service /etc/wireguard/wg0.conf",
		"enable wg-quick@wg1.service ",
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
		if a.Kind == ActionReload {
			t.Errorf("a first boot reloads: %s", a)
		}
	}
}
