package render

import (
	"net/netip"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// haConfig is a controller with the VIP on eth0 and unicast peers on the
// underlay, its password read from a file.
func haConfig(peers ...string) *schema.Config {
	on, id := true, 51
	return &schema.Config{
		Role:    schema.RoleController,
		Cluster: schema.Cluster{Name: "ha", Endpoint: "192.0.2.100"},
		HA: schema.HA{Enabled: &on, VirtualIP: "192.0.2.100/24", Interface: "eth0", VirtualRouterID: &id,
			AuthPassFrom: &secret.Source{File: "/run/corium/vrrp"}, UnicastPeers: peers},
	}
}

func eth0(addrs ...string) *hostfacts.Facts {
	f := &hostfacts.Facts{Interfaces: []hostfacts.InterfaceFacts{{Name: "eth0"}}}
	for _, a := range addrs {
		f.Interfaces[0].Addresses = append(f.Interfaces[0].Addresses, netip.MustParsePrefix(a))
	}
	if len(addrs) > 0 {
		f.DefaultRoute = &hostfacts.RouteFacts{Interface: "eth0", Source: f.Interfaces[0].Addresses[0].Addr()}
	}
	return f
}

// What k0s refuses at `k0s install` (cplb.go) is refused at render, before
// the first write, naming the field and never the password.
func TestCheckCPLBRefusesWhatK0sRefuses(t *testing.T) {
	const long = "ten-chars!"
	for _, tc := range []struct {
		name  string
		cfg   *schema.Config
		pass  string
		facts *hostfacts.Facts
		want  string
	}{
		{"resolved password over 8 characters", haConfig(), long, eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is 10 bytes; keepalived takes at most 8"},
		{"resolved password with a line break", haConfig(), "Qz7\nXw9", eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is not one word of printable characters, without whitespace, a control character (a line break, a tab)"},
		{"resolved password with a tab and an escape", haConfig(), "Qz7\tX\x1b9", eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is not one word of printable characters"},
		{"resolved password of two words", haConfig(), "Qz7 Xw9", eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is not one word of printable characters"},
		{"resolved password with a comment", haConfig(), "Qz7!Xw9", eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is not one word of printable characters"},
		{"resolved password that is a keepalived variable", haConfig(), "$_RANDOM", eth0("192.0.2.11/24"),
			"ha.authPassFrom: the password read from /run/corium/vrrp is not one word of printable characters"},
		{"unicast peers, facts unknown", haConfig("192.0.2.12"), "vrrp", nil,
			"ha.interface: keepalived sends unicast adverts to ha.unicastPeers from this node's own address on the VRRP interface, and the host's addresses are not known here"},
		{"unicast peers, interface not up", haConfig("192.0.2.12"), "vrrp", &hostfacts.Facts{DefaultRoute: &hostfacts.RouteFacts{Interface: "eth1"}},
			"eth0 is not up on this host"},
		{"unicast peers, no address of their family", haConfig("2001:db8::12"), "vrrp", eth0("192.0.2.11/24"),
			"eth0 has no IPv6 address of its own"},
		{"unicast peers, only the virtual IP", haConfig("192.0.2.12"), "vrrp", eth0("192.0.2.100/24"),
			"eth0 has no IPv4 address of its own"},
		{"no interface, no default route", func() *schema.Config { c := haConfig(); c.HA.Interface = ""; return c }(), "vrrp", &hostfacts.Facts{},
			"ha.interface: unset, and the host has no default route"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checkCPLB(tc.cfg, secret.NewValue(tc.pass), tc.facts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			for _, part := range append(strings.FieldsFunc(tc.pass, func(r rune) bool { return r < ' ' }), tc.pass) {
				if strings.Contains(err.Error(), part) {
					t.Errorf("the error shows the password: %v", err)
				}
			}
		})
	}
}

// With the source known, k0s gets it, and the one peer list every
// controller shares loses this node's own address (cplb.go:201-203).
func TestCPLBUnicastSourceAndPeers(t *testing.T) {
	cfg := haConfig("192.0.2.11", "192.0.2.12", "192.0.2.13")
	vrrp, err := checkCPLB(cfg, secret.NewValue("vrrp"), eth0("192.0.2.100/24", "192.0.2.11/24"))
	if err != nil || vrrp.Source.String() != "192.0.2.11" {
		t.Fatalf("source %v, %v; want 192.0.2.11 (the virtual IP is not this node's)", vrrp.Source, err)
	}
	got := renderedVRRP(t, cfg, vrrp)
	if got.UnicastSourceIP != "192.0.2.11" || strings.Join(got.UnicastPeers, " ") != "192.0.2.12 192.0.2.13" || got.Interface != "eth0" {
		t.Errorf("vrrp instance %+v, want eth0, source 192.0.2.11 and the other two peers", got)
	}
}

// renderedInstance is the VRRP instance of a rendered k0s.yaml.
type renderedInstance struct {
	Interface       string   `yaml:"interface"`
	UnicastSourceIP string   `yaml:"unicastSourceIP"`
	UnicastPeers    []string `yaml:"unicastPeers"`
}

// renderedVRRP renders cfg's k0s.yaml with vrrp and reads its one VRRP
// instance back.
func renderedVRRP(t *testing.T, cfg *schema.Config, vrrp VRRP) renderedInstance {
	t.Helper()
	conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "192.0.2.11", Secrets: Secrets{schema.AuthPassPath: secret.NewValue("vrrp")}, VRRP: vrrp})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Spec struct {
			Network struct {
				CPLB struct {
					Keepalived struct {
						VRRP []renderedInstance `yaml:"vrrpInstances"`
					} `yaml:"keepalived"`
				} `yaml:"controlPlaneLoadBalancing"`
			} `yaml:"network"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(conf, &doc); err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Spec.Network.CPLB.Keepalived.VRRP); n != 1 {
		t.Fatalf("%d vrrp instances, want 1:\n%s", n, conf)
	}
	return doc.Spec.Network.CPLB.Keepalived.VRRP[0]
}
