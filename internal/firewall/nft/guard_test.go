package nft

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

// renderGuard renders the guard of a test's config, its effective k0s
// configuration computed here as the run computes it once for the document.
func renderGuard(cfg *schema.Config) (firewall.Guard, error) {
	return firewall.Render(cfg, schema.Effective(cfg))
}

// overlayConfig is a controller+worker with etcd on kube-router, guarded, with
// the API left public: what a defaulted config of that shape holds.
func overlayConfig() *schema.Config {
	return &schema.Config{
		Role:      schema.RoleControllerWorker,
		Network:   schema.Network{PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12", CNI: schema.CNIKubeRouter},
		Storage:   schema.Storage{Type: schema.StorageEtcd},
		WireGuard: []schema.WireGuard{{Name: "wg0", NodeAddress: true}, {Name: "wg-backup"}},
		Firewall:  schema.Firewall{ClusterPorts: schema.ClusterPortsOverlay, PublicPorts: []int{6443}},
	}
}

func TestRenderOverlay(t *testing.T) {
	g, err := renderGuard(overlayConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := firewall.Guard{
		On: true,
		Ports: []firewall.Port{
			{Number: 179, Proto: "tcp"}, {Number: 2380, Proto: "tcp"}, {Number: 8080, Proto: "tcp"}, {Number: 8132, Proto: "tcp"}, {Number: 9443, Proto: "tcp"}, {Number: 10249, Proto: "tcp"}, {Number: 10250, Proto: "tcp"}, {Number: 10256, Proto: "tcp"}, {Number: 20244, Proto: "tcp"},
		},
		Interfaces:    []string{"lo", "wg0", "wg-backup"},
		PublicPorts:   []firewall.Port{{Number: 6443, Proto: "tcp"}},
		PodCIDR:       "10.244.0.0/16",
		CNI:           "kuberouter",
		PodInterfaces: []string{"kube-bridge", "tun-*"},
		Tunnels:       []string{"ipip", "ip6ip6"},
		Masquerade:    true, // kube-router, the node address on wg0
	}
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("Render =\n%+v\nwant\n%+v", g, want)
	}
}

// With clusterPorts open the guard is off; on calico nothing else is left,
// on kube-router with the node address on the overlay the masquerade is.
func TestRenderOpenIsOff(t *testing.T) {
	for _, cp := range []schema.ClusterPorts{"", schema.ClusterPortsOpen} {
		cfg := overlayConfig()
		cfg.Firewall.ClusterPorts = cp
		cfg.Network.CNI = schema.CNICalico
		g, err := renderGuard(cfg)
		if err != nil || g.On || !reflect.DeepEqual(g, firewall.Guard{}) {
			t.Errorf("clusterPorts %q on calico: firewall.Render = %+v, %v; want the zero (off) guard", cp, g, err)
		}
		cfg.Network.CNI = schema.CNIKubeRouter
		g, err = renderGuard(cfg)
		want := firewall.Guard{Interfaces: []string{"wg0", "wg-backup"}, PodCIDR: "10.244.0.0/16", CNI: "kuberouter", Masquerade: true}
		if err != nil || g.On || !reflect.DeepEqual(g, want) {
			t.Errorf("clusterPorts %q on kube-router: firewall.Render = %+v, %v; want the masquerade alone %+v", cp, g, err, want)
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(*schema.Config)
		want string
	}{
		"no overlay": {func(c *schema.Config) { c.WireGuard = nil }, "firewall.clusterPorts: overlay needs at least one wireguard interface"},
		"all public": {func(c *schema.Config) {
			c.Role = schema.RoleController
			c.Firewall.PublicPorts = []int{6443, 8132, 9443, 2380}
		}, "firewall.publicPorts: exempts every port of the role"},
		"bad pod network": {func(c *schema.Config) { c.Network.PodCIDR = "10.244.0.0" }, "network.podCIDR:"},
	} {
		cfg := overlayConfig()
		tc.edit(cfg)
		_, err := renderGuard(cfg)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: firewall.Render error = %v, want prefix %q", name, err, tc.want)
		}
	}
}

func TestRenderIPv6PodNetworkIsMasked(t *testing.T) {
	cfg := overlayConfig()
	cfg.Network.PodCIDR = "fd00:10:244::1/56"
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if g.PodCIDR != "fd00:10:244::/56" {
		t.Fatalf("PodCIDR = %q, want the masked prefix", g.PodCIDR)
	}
}

func TestFileRoundTripsAndIsStable(t *testing.T) {
	g, err := renderGuard(overlayConfig())
	if err != nil {
		t.Fatal(err)
	}
	data := g.File()
	if !bytes.Equal(data, g.File()) {
		t.Fatal("File is not deterministic")
	}
	back, err := firewall.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("ParseFile(File()) = %+v, want %+v", back, g)
	}
	if !bytes.Contains(data, []byte(`"version": 2`)) || !bytes.Contains(data, []byte(`"port": 9443`)) {
		t.Fatalf("file does not look as documented:\n%s", data)
	}
	off, err := firewall.ParseFile(firewall.Guard{}.File())
	if err != nil || off.On {
		t.Fatalf("off guard round trip = %+v, %v", off, err)
	}
}

func TestParseFileRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, want string }{
		"unknown field":       {`{"version":1,"on":true,"portz":[]}`, "unknown field"},
		"other version":       {`{"version":3,"on":false}`, "version 3 is not 2"},
		"empty guard":         {`{"version":1,"on":true,"interfaces":["lo"],"podCIDR":"10.0.0.0/8"}`, "ports: empty"},
		"no loopback":         {`{"version":1,"on":true,"ports":[{"port":6443,"proto":"tcp"}],"interfaces":["wg0"],"podCIDR":"10.0.0.0/8"}`, "interfaces: lo is missing"},
		"bad proto":           {`{"version":1,"on":true,"ports":[{"port":6443,"proto":"sctp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8"}`, "ports[0]: 6443/sctp"},
		"not json":            {`ports: [6443]`, "decoding the guard"},
		"duplicate port":      {`{"version":1,"on":true,"ports":[{"port":6443,"proto":"tcp"},{"port":6443,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8"}`, "ports[1]: duplicates ports[0] (6443/tcp)"},
		"duplicate interface": {`{"version":1,"on":true,"ports":[{"port":6443,"proto":"tcp"}],"interfaces":["lo","lo"],"podCIDR":"10.0.0.0/8"}`, "interfaces[1]: duplicates interfaces[0] (lo)"},
	} {
		_, err := firewall.ParseFile([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: firewall.ParseFile error = %v, want it to contain %q", name, err, tc.want)
		}
	}
}

func TestHashFollowsTheRuleSet(t *testing.T) {
	g, _ := renderGuard(overlayConfig())
	a, err := buildRuleset(g)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := buildRuleset(g)
	if a.hash != b.hash || len(a.hash) != 64 {
		t.Fatalf("hash not stable: %q vs %q", a.hash, b.hash)
	}
	g.Ports = append(g.Ports, firewall.Port{Number: 6443, Proto: "tcp"})
	c, _ := buildRuleset(g)
	if c.hash == a.hash {
		t.Fatal("adding a guarded port did not change the hash")
	}
}

func BenchmarkRenderAndBuild(b *testing.B) {
	cfg := overlayConfig()
	for b.Loop() {
		g, err := renderGuard(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := buildRuleset(g); err != nil {
			b.Fatal(err)
		}
	}
}
