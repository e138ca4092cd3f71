package report

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	provision1 "github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/secret/resolve"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// node is one lab node: its keys and the configuration they make.
type node struct {
	iface      string
	priv, peer wgtypes.Key // this node's private key, the peer's private key
	psk        wgtypes.Key
	address    string // this node's overlay address with prefix
	peerAddr   string // the peer's overlay address, /32
	port       int
	endpoint   string
	token      string
}

func newNode(t testing.TB, iface string) node {
	t.Helper()
	return node{
		iface: iface, priv: fixture.GenKey(t), peer: fixture.GenKey(t), psk: fixture.GenKey(t),
		address: "10.77.0.1/24", peerAddr: "10.77.0.2/32", port: 51820,
		endpoint: "192.0.2.2:51821", token: fixture.ControllerJoinToken("fake00.inlinestatus0000"),
	}
}

// config is a controller+worker on the overlay with every secret inline, so
// the no-secret tests have values to search for.
func (n node) config() string {
	return fmt.Sprintf(`role: controller+worker
cluster:
  name: lab
  endpoint: 10.77.0.1
join:
  token: %s
wireguard:
  - name: %s
    address: %s
    listenPort: %d
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: %s
        allowedIPs: [%s]
        persistentKeepalive: 5
        presharedKey: %s
firewall:
  clusterPorts: overlay
  publicPorts: [6443]
`, n.token, n.iface, n.address, n.port, n.priv, n.peer.PublicKey(), n.endpoint, n.peerAddr, n.psk)
}

func (n node) secrets() []string {
	return []string{n.priv.String(), n.peer.String(), n.psk.String(), n.token}
}

// provision runs the first boot offline into a fresh root and writes its
// status file, as apply does.
func provision(t testing.TB, n node) rootfs.Root {
	t.Helper()
	root := rootfs.New(t.TempDir())
	provisionWith(t, root, n.config(), "")
	return root
}

// provisionWith provisions root from a config, with host facts as JSON when
// facts is not "".
func provisionWith(t testing.TB, root rootfs.Root, config, facts string) {
	t.Helper()
	dir := t.TempDir()
	o := provision1.Options{Root: root, ConfigFile: filepath.Join(dir, "config.yaml"), Resolver: resolve.NewResolver(root)}
	if err := os.WriteFile(o.ConfigFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if facts != "" {
		o.FactsFile = filepath.Join(dir, "facts.json")
		if err := os.WriteFile(o.FactsFile, []byte(facts), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := provision1.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("provisioning the test root: %v", err)
	}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
}

// fakeDevices answers Device from a map; a name not in it does not exist.
type fakeDevices map[string]*wgtypes.Device

func (f fakeDevices) Device(name string) (*wgtypes.Device, error) {
	if d, ok := f[name]; ok {
		return d, nil
	}
	return nil, os.ErrNotExist
}

// fakeLinks answers RouteTo from the prefixes each link routes.
type fakeLinks struct {
	facts  *hostfacts.Facts
	err    error
	routes map[string]netip.Prefix // link name -> prefix it routes
}

func (f fakeLinks) Facts() (*hostfacts.Facts, error) { return f.facts, f.err }

func (f fakeLinks) RouteTo(dst netip.Addr) (string, error) {
	for name, p := range f.routes {
		if p.Contains(dst) {
			return name, nil
		}
	}
	return "", errors.New("network is unreachable")
}

type fakeGuard struct {
	status nft.Status
	err    error
}

func (f fakeGuard) State(firewall.Guard) (nft.Report, error) {
	return nft.Report{Status: f.status, Reason: "fake " + string(f.status)}, f.err
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// healthy is a live host on which everything matches n's configuration and
// the peer handshook age ago.
func healthy(t testing.TB, n node, age time.Duration) (Options, *wgtypes.Device) {
	t.Helper()
	_, allowed, _ := net.ParseCIDR(n.peerAddr)
	dev := &wgtypes.Device{
		Name: n.iface, Type: wgtypes.Userspace,
		PrivateKey: n.priv, PublicKey: n.priv.PublicKey(), ListenPort: n.port,
		Peers: []wgtypes.Peer{{
			PublicKey:         n.peer.PublicKey(),
			PresharedKey:      n.psk,
			Endpoint:          &net.UDPAddr{IP: net.ParseIP("192.0.2.2"), Port: 51821},
			AllowedIPs:        []net.IPNet{*allowed},
			LastHandshakeTime: t0.Add(-age),
			ReceiveBytes:      1234, TransmitBytes: 5678,
		}},
	}
	units := &systemdtest.Fake{States: map[string]systemd.State{
		plan.WgQuickUnit(n.iface): {Load: "loaded", Active: "active", Sub: "exited"},
		"k0scontroller.service":   {Load: "loaded", Active: "active", Sub: "running"},
	}}
	facts := &hostfacts.Facts{Interfaces: []hostfacts.InterfaceFacts{
		{Name: "eth0", Addresses: []netip.Prefix{netip.MustParsePrefix("192.0.2.1/24")}},
		{Name: n.iface, Addresses: []netip.Prefix{netip.MustParsePrefix(n.address)}},
	}, DefaultRoute: &hostfacts.RouteFacts{Interface: "eth0", Source: netip.MustParseAddr("192.0.2.1")}}
	return Options{
		Devices: fakeDevices{n.iface: dev},
		Links:   fakeLinks{facts: facts, routes: map[string]netip.Prefix{"eth0": netip.MustParsePrefix("192.0.2.0/24")}},
		Units:   units,
		Guard:   fakeGuard{status: nft.Current},
		Sockets: fakeSockets{},
		Now:     func() time.Time { return t0 },
	}, dev
}

func textOf(r *Report) string {
	var b strings.Builder
	Text(&b, r)
	return b.String()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
