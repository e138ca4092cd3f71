package render

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
)

func facts(t *testing.T, js string) *hostfacts.Facts {
	t.Helper()
	f, err := hostfacts.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSelectNodeAddressNoDefaultRoute(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard[0].NodeAddress = false
	d := SelectNodeAddress(cfg, schema.Effective(cfg), facts(t, `{"interfaces":[{"name":"eth0","addresses":["192.0.2.5/24"]}]}`))
	if d.Address.IsValid() || d.Source != SourceNone || !strings.Contains(d.Reason, "no default route") {
		t.Errorf("got %+v, want no address and a reason saying there is no default route", d)
	}
	if len(d.Candidates) != 1 || d.Candidates[0].Reason != "not the source address of the IPv4 default route" {
		t.Errorf("candidates %+v", d.Candidates)
	}
}

func TestSelectNodeAddressMarkedButMissing(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	d := SelectNodeAddress(cfg, schema.Effective(cfg), facts(t, `{"interfaces":[{"name":"eth0","addresses":["192.0.2.5/24"]},{"name":"wg0","addresses":[]}],
		"defaultRoute":{"interface":"eth0","source":"192.0.2.5"}}`))
	if d.Address.IsValid() || !strings.Contains(d.Reason, "does not carry 10.10.0.1") || !strings.Contains(d.Reason, "wg-quick@wg0.service") {
		t.Errorf("got %+v, want no address and a reason naming the missing address and the unit", d)
	}
	for _, c := range d.Candidates {
		if c.Taken {
			t.Errorf("%+v taken although wg0 is marked nodeAddress", c)
		}
	}
}

func TestSelectNodeAddressRejectsVIPAndContainerRoutes(t *testing.T) {
	cases := []struct {
		name, route, iface, want string
	}{
		{"virtual IP as route source", "192.0.2.100", "eth0", "the HA virtual IP moves between controllers"},
		{"route through a CNI bridge", "10.244.0.1", "kube-bridge", "kube-bridge is a CNI or container interface"},
		{"route through calico vxlan", "10.244.0.1", "vxlan.calico", "vxlan.calico is a CNI or container interface"},
		{"route through the non-node overlay", "10.20.0.1", "wg1", "overlay interface wg1 is not marked nodeAddress"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := twoInterfaceConfig(schema.RoleController)
			cfg.WireGuard[0].NodeAddress = false
			on := true
			cfg.HA = schema.HA{Enabled: &on, VirtualIP: "192.0.2.100/24"}
			d := SelectNodeAddress(cfg, schema.Effective(cfg), facts(t, `{"interfaces":[{"name":"eth0","addresses":["192.0.2.100/24","192.0.2.7/24"]}],
				"defaultRoute":{"interface":"`+c.iface+`","source":"`+c.route+`"}}`))
			if d.Address.IsValid() {
				t.Fatalf("took %s, want nothing", d.Address)
			}
			cand := candidate(d, c.iface, c.route)
			if cand == nil || cand.Reason != c.want {
				t.Errorf("route candidate %+v, want reason %q", cand, c.want)
			}
			if !strings.Contains(d.Reason, c.want) {
				t.Errorf("decision reason %q does not say why the route's source was refused", d.Reason)
			}
		})
	}
}

func TestSelectNodeAddressOfflineMarked(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	d := SelectNodeAddress(cfg, schema.Effective(cfg), nil)
	if d.Address != netip.MustParseAddr("10.10.0.1") || d.Source != "wireguard wg0 (nodeAddress)" {
		t.Errorf("got %+v, want 10.10.0.1 from the configuration", d)
	}
}

func TestParseFactsStrict(t *testing.T) {
	for _, bad := range []string{
		`{"interfaces":[{"name":"eth0","adresses":["192.0.2.5/24"]}]}`,
		`{"interfaces":[{"name":"eth0","addresses":["192.0.2.5"]}]}`,
		`{"interfaces":[{"addresses":["192.0.2.5/24"]}]}`,
		`{"defaultRoute":{"interface":"eth0","source":"not-an-ip"}}`,
	} {
		if _, err := hostfacts.Parse([]byte(bad)); err == nil {
			t.Errorf("ParseFacts(%s) accepted", bad)
		}
	}
}
