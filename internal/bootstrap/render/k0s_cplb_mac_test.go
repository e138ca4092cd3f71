package render

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// bonded is a host whose bond0 shares its MAC with its port eth0, as a bond
// does, and whose VLAN bond0.100 holds the node's LAN address.
func bonded() *hostfacts.Facts {
	return &hostfacts.Facts{
		Interfaces: []hostfacts.InterfaceFacts{
			{Name: "eth0", MAC: "52:54:00:00:00:01"},
			{Name: "bond0", MAC: "52:54:00:00:00:01"},
			{Name: "bond0.100", MAC: "52:54:00:00:00:02", Addresses: []netip.Prefix{netip.MustParsePrefix("192.0.2.11/24")}},
			{Name: "wg0", Addresses: []netip.Prefix{netip.MustParsePrefix("10.10.0.1/24")}},
		},
		DefaultRoute: &hostfacts.RouteFacts{Interface: "bond0.100", Source: netip.MustParseAddr("192.0.2.11")},
	}
}

// ha.interface given as a MAC address is the link holding it, as k0s
// resolves it: the unicast source is that link's address, and k0s.yaml
// keeps the MAC for k0s to resolve.
func TestCPLBInterfaceByMAC(t *testing.T) {
	cfg := haConfig("192.0.2.11", "192.0.2.12")
	cfg.HA.Interface = "52:54:00:00:00:02"
	vrrp, err := checkCPLB(cfg, secret.NewValue("vrrp"), bonded())
	if err != nil || vrrp.Source.String() != "192.0.2.11" || vrrp.Interface != cfg.HA.Interface {
		t.Fatalf("%+v, %v; want the source 192.0.2.11, bond0.100's address, and the MAC kept", vrrp, err)
	}
	conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "192.0.2.11", Secrets: Secrets{schema.AuthPassPath: secret.NewValue("vrrp")}, VRRP: vrrp})
	if err != nil {
		t.Fatal(err)
	}
	// Quoted: k0s reads YAML 1.1, where 52:54:00:00:00:02 bare is a
	// base-60 integer.
	if !strings.Contains(string(conf), `interface: "52:54:00:00:00:02"`) {
		t.Errorf("k0s.yaml does not keep the MAC:\n%s", conf)
	}
	// Without unicast peers and without facts, k0s alone resolves it.
	cfg.HA.UnicastPeers = nil
	if vrrp, err := checkCPLB(cfg, secret.NewValue("vrrp"), nil); err != nil || vrrp.Source.IsValid() {
		t.Errorf("no facts, no unicast: %+v, %v; want it left to k0s", vrrp, err)
	}
}

// What k0s would fail on, or resolve to a link nobody meant, is refused
// before the first write, with what to do, never quoting the MAC.
func TestCPLBInterfaceByMACRefused(t *testing.T) {
	noMACs := bonded()
	for i := range noMACs.Interfaces {
		noMACs.Interfaces[i].MAC = ""
	}
	for _, tc := range []struct {
		name, mac string
		peers     []string
		facts     *hostfacts.Facts
		want      string
	}{
		{"no link holds it", "52:54:00:00:00:09", nil, bonded(), "no interface that is up holds it (k0s would fail at install"},
		{"a bond and its port hold it", "52:54:00:00:00:01", nil, bonded(), "2 interfaces hold it (eth0, bond0: a bond shares its address"},
		{"facts without MACs", "52:54:00:00:00:02", nil, noMACs, "the host facts hold no MAC addresses"},
		{"unicast, facts without MACs", "52:54:00:00:00:02", []string{"192.0.2.12"}, noMACs, "the host facts hold no MAC addresses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := haConfig(tc.peers...)
			cfg.HA.Interface = tc.mac
			_, err := checkCPLB(cfg, secret.NewValue("vrrp"), tc.facts)
			if err == nil || !strings.HasPrefix(err.Error(), "ha.interface: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ha.interface: ...%s", err, tc.want)
			}
			if strings.Contains(err.Error(), tc.mac) {
				t.Errorf("the error quotes the MAC: %v", err)
			}
		})
	}
}
