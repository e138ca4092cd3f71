package bootstrap

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// nsSystemd stands in for systemd on a node that is a network namespace:
// starting wg-quick@IF runs the real wg-quick (userspace wireguard-go) on the
// file the agent wrote under the root, inside the namespace. Everything else
// is recorded. tamper, when set, rewrites the file first, as a stale or
// foreign configuration would.
type nsSystemd struct {
	systemdtest.Fake
	t      *testing.T
	ns     *netns.Netns
	root   rootfs.Root
	tamper func(conf []byte) []byte
	mu     sync.Mutex
	up     []string
}

func (s *nsSystemd) StartAndWait(ctx context.Context, unit string) error {
	_ = s.Fake.StartAndWait(ctx, unit)
	return s.wgQuick(unit)
}

func (s *nsSystemd) RestartAndWait(ctx context.Context, unit string) error {
	_ = s.Fake.RestartAndWait(ctx, unit)
	return s.wgQuick(unit)
}

func (s *nsSystemd) wgQuick(unit string) error {
	iface, ok := strings.CutPrefix(strings.TrimSuffix(unit, ".service"), "wg-quick@")
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.up {
		if u == iface {
			return nil // running; a start is a no-op, as with systemd
		}
	}
	conf, err := s.root.ReadFile(render.WireGuardConfPath(iface))
	if err != nil {
		return err
	}
	if s.tamper != nil {
		conf = s.tamper(conf)
	}
	// wg-quick names the interface after the file.
	path := filepath.Join(s.t.TempDir(), iface+".conf")
	if err := os.WriteFile(path, conf, 0o600); err != nil {
		return err
	}
	if out, err := s.ns.TryWgQuickUp(s.t, path); err != nil {
		return fmt.Errorf("starting %s: %v: %s", unit, err, out)
	}
	s.up = append(s.up, iface)
	return nil
}

// TestFirstBootLiveOverlay runs the first boot's live branch against real
// parts in network namespaces: the agent's wg-quick file brought up by the
// real wg-quick, the device checked over wgctrl and netlink, the node address
// read from the live links once the overlay is up and carried into k0s.yaml
// and the install command; and a device that does not match its file stops
// the run before k0s is configured.
func TestFirstBootLiveOverlay(t *testing.T) {
	host.RequireRoot(t, "ip", "wg", "wg-quick", "wireguard-go", "ping")
	keyA, keyB := fixture.GenKey(t), fixture.GenKey(t)
	sfx := fixture.RandHex(6)
	// Distinct names: userspace UAPI sockets in /run/wireguard are shared
	// by every namespace, and a wireguard-go that was just stopped may
	// still hold its name for a moment.
	ifB := "cfb" + sfx

	a, b := netns.New(t, "cfa"), netns.New(t, "cfb")
	netns.Veth(t, a, "ul0", "192.0.2.1/24", b, "ul0", "192.0.2.2/24")
	a.Run(t, "ip", "route", "add", "default", "via", "192.0.2.2", "dev", "ul0")

	peerConf := filepath.Join(t.TempDir(), ifB+".conf")
	peer := fmt.Sprintf("[Interface]\nAddress = 10.78.0.2/24\nListenPort = 51821\nPrivateKey = %s\n\n[Peer]\nPublicKey = %s\nAllowedIPs = 10.78.0.1/32\n", keyB, keyA.PublicKey())
	if err := os.WriteFile(peerConf, []byte(peer), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := b.TryWgQuickUp(t, peerConf); err != nil {
		t.Fatalf("peer up: %v\n%s", err, out)
	}

	wg := netns.WireGuardClient(t)
	nl := a.Netlink(t)

	run := func(t *testing.T, ifA string, tamper func([]byte) []byte) (rootfs.Root, *status.Status, [][]string, error) {
		config := fmt.Sprintf(`role: controller+worker
node: {name: live-a}
wireguard:
  - name: %s
    address: 10.78.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom: {file: /run/corium/secrets/wg.key}
    peers:
      - publicKey: %s
        endpoint: 192.0.2.2:51821
        allowedIPs: [10.78.0.2/32]
        persistentKeepalive: 1
`, ifA, keyB.PublicKey())
		cfgPath := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		root := rootfs.New(t.TempDir())
		if _, err := root.WriteFile("/run/corium/secrets/wg.key", []byte(keyA.String()+"\n"), 0o600, 0o700); err != nil {
			t.Fatal(err)
		}
		var installs [][]string
		var hostnames []string
		live := &apply.LiveHost{
			Systemd:     &nsSystemd{t: t, ns: a, root: root, tamper: tamper},
			Verifier:    apply.Verifier{Devices: wg, Links: nl, AddressWait: 3 * time.Second},
			Guard:       func(context.Context) error { return nil },
			Exec:        func(_ context.Context, args []string) error { installs = append(installs, args); return nil },
			SetHostname: func(name string) error { hostnames = append(hostnames, name); return nil },
		}
		st, err := Run(context.Background(), Options{
			Root: root, ConfigFile: cfgPath, Resolver: fileResolver{root},
			Live: live, LiveUnderRoot: true,
			GatherFacts: func(eps []netip.Addr) (*hostfacts.Facts, error) { return gather.Gather(nl, eps...) },
		})
		if err == nil && (len(hostnames) != 1 || hostnames[0] != "live-a") {
			t.Errorf("hostname set to %v", hostnames)
		}
		return root, st, installs, err
	}

	t.Run("provisions over the live overlay", func(t *testing.T) {
		root, st, installs, err := run(t, "cfa"+sfx, nil)
		if err != nil {
			t.Fatalf("first boot: %v", err)
		}
		if out, err := a.Try("ping", "-c", "1", "-W", "5", "10.78.0.2"); err != nil {
			t.Errorf("no ping across the overlay the agent brought up: %v\n%s", err, out)
		}
		if st.NodeAddress == nil || st.NodeAddress.Address != "10.78.0.1" {
			t.Fatalf("node address %+v, want 10.78.0.1", st.NodeAddress)
		}
		var sawUnderlay bool
		for _, c := range st.NodeAddress.Candidates {
			if c.Address == "192.0.2.1" && !c.Taken {
				sawUnderlay = true
			}
		}
		if !sawUnderlay {
			t.Errorf("the live underlay address is not among the rejected candidates: %+v", st.NodeAddress.Candidates)
		}
		if len(installs) != 1 || !strings.Contains(strings.Join(installs[0], " "), "--kubelet-extra-args=--node-ip=10.78.0.1") {
			t.Errorf("k0s install: %v", installs)
		}
		k0s, _ := root.ReadFile(render.K0sConfigPath)
		if !strings.Contains(string(k0s), "address: 10.78.0.1") || !strings.Contains(string(k0s), "overlay-type: full") {
			t.Errorf("k0s.yaml:\n%s", k0s)
		}
		if !root.Exists(status.MarkerPath) {
			t.Error("no marker after a successful first boot")
		}
	})

	t.Run("a device that does not match stops before k0s", func(t *testing.T) {
		other := fixture.GenKey(t)
		root, st, installs, err := run(t, "cfc"+sfx, func(conf []byte) []byte {
			return []byte(strings.Replace(string(conf), keyA.String(), other.String(), 1))
		})
		if err == nil || !strings.Contains(err.Error(), "public key") {
			t.Fatalf("want a public key mismatch, got %v", err)
		}
		if strings.Contains(err.Error(), other.String()) || strings.Contains(err.Error(), keyA.String()) {
			t.Error("the error shows a private key")
		}
		if len(installs) != 0 || root.Exists(render.K0sConfigPath) || root.Exists(status.MarkerPath) {
			t.Errorf("k0s configured or installed (%v) after a failed overlay check", installs)
		}
		if st.Outcome != status.Failed {
			t.Errorf("outcome %s", st.Outcome)
		}
	})
}
