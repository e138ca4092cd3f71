package render

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// nsUnits stands in for systemd on a node that is a network namespace:
// wg-quick@IF's start, restart and reload run what the template's ExecStart,
// ExecStop and ExecReload run (wireguard-tools src/systemd/wg-quick@.service:
// `wg-quick up|down %i`, `wg syncconf %i <(wg-quick strip %i)`) with the
// real tools on the file under the root. Everything else is recorded.
type nsUnits struct {
	systemdtest.Fake
	t    *testing.T
	ns   *netns.Netns
	root rootfs.Root
	mu   sync.Mutex
	up   map[string]bool
}

func (u *nsUnits) conf(unit string) (iface, path string, ok bool) {
	iface, ok = strings.CutPrefix(strings.TrimSuffix(unit, ".service"), "wg-quick@")
	return iface, filepath.Join(u.root.Dir(), WireGuardConfPath(iface)), ok
}

func (u *nsUnits) wgQuick(verb, unit string) error {
	iface, path, _ := u.conf(unit)
	var out string
	var err error
	if verb == "up" {
		out, err = u.ns.TryWgQuickUp(u.t, path)
	} else {
		out, err = u.ns.WgQuick(verb, path)
	}
	if err != nil {
		return fmt.Errorf("wg-quick %s %s: %v: %s", verb, iface, err, out)
	}
	u.up[iface] = verb == "up"
	return nil
}

func (u *nsUnits) StartAndWait(ctx context.Context, unit string) error {
	_ = u.Fake.StartAndWait(ctx, unit)
	u.mu.Lock()
	defer u.mu.Unlock()
	if iface, _, ok := u.conf(unit); !ok || u.up[iface] {
		return nil // running: a start is a no-op, as with systemd
	}
	return u.wgQuick("up", unit)
}

func (u *nsUnits) RestartAndWait(ctx context.Context, unit string) error {
	_ = u.Fake.RestartAndWait(ctx, unit)
	u.mu.Lock()
	defer u.mu.Unlock()
	iface, _, ok := u.conf(unit)
	if !ok {
		return nil
	}
	if u.up[iface] {
		if err := u.wgQuick("down", unit); err != nil {
			return err
		}
	}
	return u.wgQuick("up", unit)
}

func (u *nsUnits) ReloadAndWait(ctx context.Context, unit string) error {
	if err := u.Fake.ReloadAndWait(ctx, unit); err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	iface, path, ok := u.conf(unit)
	if !ok || !u.up[iface] {
		return fmt.Errorf("reloading %s: the interface is not up, cannot reload", unit)
	}
	script := fmt.Sprintf("exec wg syncconf %s <(exec wg-quick strip %s)", iface, path)
	if out, err := u.ns.Try("bash", "-c", script); err != nil {
		return fmt.Errorf("reloading %s: %v: %s", unit, err, out)
	}
	return nil
}

// TestAgainDeviceEqualsFile applies a first boot and then a change by an again run
// with the executor, real wg-quick and wg in a namespace, and the verifier
// comparing the live device with the new file. Each change drops something
// the first file set: a reload would leave a dropped endpoint, preshared
// key or keepalive on the device (syncconf does not clear them), so those
// restart; a dropped listen port is cleared by syncconf itself, so it
// reloads and the device leaves the old port.
func TestAgainDeviceEqualsFile(t *testing.T) {
	host.RequireRoot(t, "wg-quick", "wg", "wireguard-go", "ip", "bash")
	ns, far := netns.New(t, "cdn"), netns.New(t, "cdf")
	// The far side runs no WireGuard: no handshake, no roaming, so the
	// endpoint on the device is the one the file set, or a leftover.
	netns.Veth(t, ns, "ul0", "192.0.2.1/24", far, "ul0", "192.0.2.2/24")
	h := ns.Netlink(t)
	wg := netns.WireGuardClient(t)
	peer := fixture.GenKey(t).PublicKey()

	// A port outside the kernel's ephemeral range, so the one bound once
	// it is dropped cannot be it by chance.
	const oldPort = 5182
	first := func(iface string) *schema.Config {
		port, keepalive := oldPort, 25
		key, psk := secret.NewValue(fixture.GenKey(t).String()), secret.NewValue(fixture.GenKey(t).String())
		return &schema.Config{Role: schema.RoleWorker, WireGuard: []schema.WireGuard{{
			Name: iface, Address: schema.AddressList{"10.82.0.1/24"}, ListenPort: &port, PrivateKey: &key,
			Peers: []schema.Peer{{PublicKey: peer.String(), Endpoint: "192.0.2.2:51820", AllowedIPs: []string{"10.82.0.2/32"},
				PersistentKeepalive: &keepalive, PresharedKey: &psk}},
		}}}
	}
	for _, c := range []struct {
		name   string
		edit   func(*schema.WireGuard)
		action plan.ActionKind
		check  func(*wgtypes.Device) string
	}{
		{"endpoint dropped", func(w *schema.WireGuard) { w.Peers[0].Endpoint = "" }, plan.ActionRestart, func(d *wgtypes.Device) string {
			if e := d.Peers[0].Endpoint; e != nil {
				return "the dropped endpoint is still on the device: " + e.String()
			}
			return ""
		}},
		{"preshared key dropped", func(w *schema.WireGuard) { w.Peers[0].PresharedKey = nil }, plan.ActionRestart, func(d *wgtypes.Device) string {
			if d.Peers[0].PresharedKey != (wgtypes.Key{}) {
				return "the dropped preshared key is still on the device"
			}
			return ""
		}},
		{"keepalive dropped", func(w *schema.WireGuard) { w.Peers[0].PersistentKeepalive = nil }, plan.ActionRestart, func(d *wgtypes.Device) string {
			if k := d.Peers[0].PersistentKeepaliveInterval; k != 0 {
				return "the dropped keepalive is still on the device: " + k.String()
			}
			return ""
		}},
		{"listen port dropped", func(w *schema.WireGuard) { w.ListenPort = nil }, plan.ActionReload, func(d *wgtypes.Device) string {
			if d.ListenPort == oldPort || d.ListenPort == 0 {
				return fmt.Sprintf("listen port %d after dropping %d, want a fresh one", d.ListenPort, oldPort)
			}
			return ""
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			iface := "cd" + fixture.RandHex(6)
			root := rootfs.New(t.TempDir())
			units := &nsUnits{t: t, ns: ns, root: root, up: map[string]bool{}}
			apply := func(in Inputs) {
				t.Helper()
				steps, err := RenderOverlay(in)
				if err != nil {
					t.Fatal(err)
				}
				live := &apply.LiveHost{Systemd: units, Verifier: apply.Verifier{Devices: wg, Links: h, AddressWait: 2 * time.Second}}
				if _, err := (&apply.Executor{Root: root, Live: live, LiveUnderRoot: true}).Apply(context.Background(), &plan.Plan{Steps: steps}); err != nil {
					t.Fatalf("the device does not equal its file: %v", err)
				}
			}
			old := first(iface)
			apply(Inputs{Config: old})

			next := first(iface)
			next.WireGuard[0].PrivateKey = old.WireGuard[0].PrivateKey
			next.WireGuard[0].Peers[0].PresharedKey = old.WireGuard[0].Peers[0].PresharedKey
			c.edit(&next.WireGuard[0])
			calls := len(units.Calls())
			apply(Inputs{Config: next, Previous: readPrevious(root, old)})
			if got := strings.Join(units.Calls()[calls:], "\n"); !strings.Contains(got, string(c.action)+" "+plan.WgQuickUnit(iface)) {
				t.Errorf("the again run asked systemd:\n%s\nwant a %s of %s", got, c.action, plan.WgQuickUnit(iface))
			}
			dev, err := wg.Device(iface)
			if err != nil {
				t.Fatal(err)
			}
			if msg := c.check(dev); msg != "" {
				t.Error(msg)
			}
		})
	}
}
