package hostfacts

import (
	"os"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

func TestEndpointAddrs(t *testing.T) {
	peers := func(endpoints ...string) []schema.Peer {
		var out []schema.Peer
		for _, ep := range endpoints {
			out = append(out, schema.Peer{PublicKey: "rhkIITlu9hcHjc/dRBiXPUsgoARI49+OEpEVIxUF9A4=", Endpoint: ep})
		}
		return out
	}
	cfg := &schema.Config{WireGuard: []schema.WireGuard{
		{Name: "wg0", Peers: peers("192.0.2.2:51820", "peer.example.com:51820")},
		{Name: "wg1", Peers: peers("[2001:db8::2]:51820", "192.0.2.2:51821", "")},
	}}
	var got []string
	for _, a := range EndpointAddrs(cfg) {
		got = append(got, a.String())
	}
	if strings.Join(got, " ") != "192.0.2.2 2001:db8::2" {
		t.Errorf("EndpointAddrs = %v, want each IP endpoint once and no host name", got)
	}
}

func TestParseRouteMTUs(t *testing.T) {
	old := `{"interfaces":[{"name":"eth0","addresses":["192.0.2.10/24"]}],"defaultRoute":{"interface":"eth0","source":"192.0.2.10"}}`
	f, err := Parse([]byte(old))
	if err != nil {
		t.Fatalf("facts without MTUs no longer parse: %v", err)
	}
	if f.DefaultRoute.MTU != 0 || f.PeerRoutes != nil {
		t.Errorf("facts without MTUs: %+v, want MTUs unknown", f)
	}
	f, err = Parse([]byte(`{"interfaces":[],"defaultRoute":{"interface":"eth0","source":"192.0.2.10","mtu":1450},
		"peerRoutes":[{"to":"192.0.2.2","interface":"eth0","mtu":1400}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.DefaultRoute.MTU != 1450 || len(f.PeerRoutes) != 1 || f.PeerRoutes[0].MTU != 1400 || f.PeerRoutes[0].To.String() != "192.0.2.2" {
		t.Errorf("parsed %+v", f)
	}
	for _, bad := range []string{
		`{"peerRoutes":[{"interface":"eth0","mtu":1400}]}`,
		`{"peerRoutes":[{"to":"192.0.2.2","mtu":1400}]}`,
		`{"peerRoutes":[{"to":"192.0.2.2","interface":"eth0","mtu":-1}]}`,
		`{"peerRoutes":[{"to":"192.0.2.2","interface":"eth0","mtu":1400,"via":"x"}]}`,
		`{"defaultRoute":{"interface":"eth0","source":"192.0.2.10","mtu":-5}}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted", bad)
		}
	}
}

// TestDocumentedFactsParse: the three --facts examples in docs/overlay.md
// (an IPv4-only, an IPv6-only and a dual-stack host) are the JSON form
// Parse reads, MTUs included, each with the default routes its family has.
func TestDocumentedFactsParse(t *testing.T) {
	doc, err := os.ReadFile("../../docs/overlay.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### Host facts (`--facts`)")
	section, _, _ = strings.Cut(section, "\n## ")
	if !ok {
		t.Fatal("docs/overlay.md has no host facts section")
	}
	var examples []string
	for {
		_, rest, found := strings.Cut(section, "```json\n")
		example, after, closed := strings.Cut(rest, "```")
		if !found || !closed {
			break
		}
		examples = append(examples, example)
		section = after
	}
	if len(examples) != 3 {
		t.Fatalf("docs/overlay.md's host facts show %d examples; want IPv4-only, IPv6-only and dual stack", len(examples))
	}
	for i, want := range []struct{ v4, v6 bool }{{true, false}, {false, true}, {true, true}} {
		f, err := Parse([]byte(examples[i]))
		if err != nil {
			t.Fatalf("example %d does not parse: %v", i+1, err)
		}
		if (f.DefaultRouteOf(false) != nil) != want.v4 || (f.DefaultRouteOf(true) != nil) != want.v6 {
			t.Errorf("example %d: IPv4 default route %v, IPv6 %v; want %v, %v", i+1, f.DefaultRouteOf(false) != nil, f.DefaultRouteOf(true) != nil, want.v4, want.v6)
		}
		if f.DefaultRoute == nil || f.DefaultRoute.MTU == 0 || len(f.PeerRoutes) == 0 || f.PeerRoutes[0].MTU == 0 {
			t.Errorf("example %d shows no route MTUs: %+v", i+1, f)
		}
	}
}

// TestParseDefaultRoute6: defaultRoute6 is an IPv6 route beside an IPv4
// defaultRoute, nothing else.
func TestParseDefaultRoute6(t *testing.T) {
	const v4 = `"defaultRoute":{"interface":"eth0","source":"192.0.2.10"}`
	const v6 = `"defaultRoute6":{"interface":"eth0","source":"2001:db8::10"}`
	f, err := Parse([]byte(`{"interfaces":[],` + v4 + `,` + v6 + `}`))
	if err != nil || f.DefaultRouteOf(true) == nil || f.DefaultRouteOf(true).Source.String() != "2001:db8::10" || f.DefaultRouteOf(false).Source.String() != "192.0.2.10" {
		t.Fatalf("got %+v, %v", f, err)
	}
	for _, bad := range []string{
		`{"interfaces":[],` + v6 + `}`,
		`{"interfaces":[],"defaultRoute":{"interface":"eth0","source":"2001:db8::9"},` + v6 + `}`,
		`{"interfaces":[],` + v4 + `,"defaultRoute6":{"interface":"eth0","source":"192.0.2.11"}}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "defaultRoute6") {
			t.Errorf("%s: got %v, want a refusal naming defaultRoute6", bad, err)
		}
	}
}

// The unicast VRRP peers are looked up with the endpoints, each once: their
// routes decide the VRRP interface when ha.interface is unset.
func TestRouteTargets(t *testing.T) {
	on := true
	cfg := &schema.Config{
		WireGuard: []schema.WireGuard{{Name: "wg0", Peers: []schema.Peer{{Endpoint: "192.0.2.2:51820"}}}},
		HA:        schema.HA{Enabled: &on, UnicastPeers: []string{"192.0.2.2", "198.51.100.12", "2001:db8::12"}},
	}
	var got []string
	for _, a := range RouteTargets(cfg) {
		got = append(got, a.String())
	}
	if strings.Join(got, " ") != "192.0.2.2 198.51.100.12 2001:db8::12" {
		t.Errorf("RouteTargets = %v, want the endpoint, then each other unicast peer once", got)
	}
	cfg.HA.Enabled = nil
	if got := RouteTargets(cfg); len(got) != 1 {
		t.Errorf("RouteTargets with ha off = %v, want the endpoint alone", got)
	}
}

// A peer route's source is optional: facts written before it was gathered
// still parse, with the source unknown.
func TestParsePeerRouteSource(t *testing.T) {
	f, err := Parse([]byte(`{"interfaces":[],"peerRoutes":[{"to":"198.51.100.12","interface":"eth1","source":"192.0.2.21"},{"to":"192.0.2.2","interface":"eth0"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.PeerRoutes[0].Source.String() != "192.0.2.21" || f.PeerRoutes[1].Source.IsValid() {
		t.Errorf("parsed %+v, want the first route's source and none for the second", f.PeerRoutes)
	}
}
