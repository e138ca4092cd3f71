package nft

import (
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

// endpointConfig is overlayConfig (wg0 at 10.10.0.1/24, wg-backup at
// 10.20.0.1/24) as role, with the endpoint and public ports given.
func endpointConfig(role schema.Role, endpoint string, public ...int) *schema.Config {
	cfg := overlayConfig()
	cfg.Role = role
	cfg.Cluster.Endpoint = endpoint
	cfg.WireGuard[0].Address = schema.AddressList{"10.10.0.1/24"}
	cfg.WireGuard[1].Address = schema.AddressList{"10.20.0.1/24", "fd20::1/64"}
	cfg.Firewall.PublicPorts = public
	return cfg
}

func TestRenderEndpoint(t *testing.T) {
	all := []firewall.Port{{Number: 6443, Proto: "tcp"}, {Number: 8132, Proto: "tcp"}, {Number: 9443, Proto: "tcp"}}
	for _, tc := range []struct {
		name     string
		role     schema.Role
		endpoint string
		public   []int
		want     *firewall.Endpoint
	}{
		{"no endpoint", schema.RoleController, "", nil, nil},
		{"on the first overlay", schema.RoleController, "10.10.0.100", nil, nil},
		{"on the second overlay, IPv6", schema.RoleControllerWorker, "fd20::100", nil, nil},
		{"underlay virtual IP", schema.RoleController, "192.0.2.100", nil, &firewall.Endpoint{Address: "192.0.2.100", Ports: all}},
		{"underlay virtual IP, API public", schema.RoleControllerWorker, "192.0.2.100", []int{6443}, &firewall.Endpoint{Address: "192.0.2.100", Ports: all[1:]}},
		{"single node's own LAN address", schema.RoleSingle, "192.0.2.5", nil, &firewall.Endpoint{Address: "192.0.2.5", Ports: all}},
		{"IPv6 load balancer", schema.RoleController, "2001:db8::100", []int{9443}, &firewall.Endpoint{Address: "2001:db8::100", Ports: all[:2]}},
		{"IPv4-mapped, as IPv4", schema.RoleController, "::ffff:192.0.2.100", nil, &firewall.Endpoint{Address: "192.0.2.100", Ports: all}},
		{"underlay, all three public", schema.RoleController, "192.0.2.100", []int{6443, 8132, 9443}, nil},
		{"name, all three public", schema.RoleControllerWorker, "api.example.com", []int{6443, 8132, 9443}, nil},
		{"worker, underlay", schema.RoleWorker, "192.0.2.100", nil, nil},
		{"worker, name", schema.RoleWorker, "api.example.com", nil, nil},
	} {
		g, err := renderGuard(endpointConfig(tc.role, tc.endpoint, tc.public...))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(g.Endpoint, tc.want) {
			t.Errorf("%s: endpoint %+v, want %+v", tc.name, g.Endpoint, tc.want)
		}
		rs, err := buildRuleset(g)
		if err != nil {
			t.Fatal(err)
		}
		if n, want := countComment(rs, commentEndpoint), map[bool]int{true: 2, false: 0}[tc.want != nil]; n != want {
			t.Errorf("%s: %d endpoint rules, want %d", tc.name, n, want)
		}
	}
}

// A name's address cannot be known: the guard refuses to leave the
// endpoint's ports guarded, naming those to open.
func TestRenderRefusesAGuardedEndpointName(t *testing.T) {
	_, err := renderGuard(endpointConfig(schema.RoleController, "api.example.com", 6443))
	if err == nil || !strings.Contains(err.Error(), "cluster.endpoint: api.example.com is a name") || !strings.Contains(err.Error(), "add 8132, 9443 to firewall.publicPorts, or give the endpoint as an IP") {
		t.Fatalf("Render = %v", err)
	}
}

// The endpoint is accepted after the forged pod sources are dropped (a pod
// address on the underlay is no more believed for being sent there) and
// before the guarded ports are.
func TestEndpointRuleOrder(t *testing.T) {
	g, err := renderGuard(endpointConfig(schema.RoleControllerWorker, "192.0.2.100"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := buildRuleset(g)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range rs.chains[0].rules {
		if len(order) == 0 || order[len(order)-1] != r.comment {
			order = append(order, r.comment)
		}
	}
	want := []string{commentTunnel, commentPod, commentForged, commentEndpoint, commentGuarded}
	if !reflect.DeepEqual(order[1:], want) {
		t.Errorf("input chain order %q, want the marker then %q", order, want)
	}
	if len(rs.sets) != 4 || rs.sets[3].set.Name != setEndpoint || len(rs.sets[3].elems) != 3 {
		t.Errorf("sets %+v, want the endpoint's last, with its three ports", rs.sets)
	}
	other := g
	other.Endpoint = &firewall.Endpoint{Address: "192.0.2.101", Ports: g.Endpoint.Ports}
	if b, _ := buildRuleset(other); b.hash == rs.hash {
		t.Error("another endpoint address did not change the hash")
	}
}

func TestParseFileRefusesABadEndpoint(t *testing.T) {
	base := `"version":2,"on":true,"ports":[{"port":6443,"proto":"tcp"},{"port":10250,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8","cni":"custom"`
	for name, tc := range map[string]struct{ endpoint, want string }{
		"a name":        {`{"address":"api.example.com","ports":[{"port":6443,"proto":"tcp"}]}`, `endpoint.address: "api.example.com" is not an IP address`},
		"not canonical": {`{"address":"2001:DB8::1","ports":[{"port":6443,"proto":"tcp"}]}`, `endpoint.address: "2001:DB8::1"`},
		"no ports":      {`{"address":"192.0.2.1","ports":[]}`, "endpoint.ports: empty"},
		"not tcp":       {`{"address":"192.0.2.1","ports":[{"port":10250,"proto":"udp"}]}`, "endpoint.ports[0]: 10250/udp is not a TCP port"},
		"not guarded":   {`{"address":"192.0.2.1","ports":[{"port":9443,"proto":"tcp"}]}`, "endpoint.ports[0]: 9443/tcp is not a guarded port"},
		"duplicate":     {`{"address":"192.0.2.1","ports":[{"port":6443,"proto":"tcp"},{"port":6443,"proto":"tcp"}]}`, "endpoint.ports[1]: duplicates endpoint.ports[0] (6443/tcp)"},
	} {
		_, err := firewall.ParseFile([]byte(`{` + base + `,"endpoint":` + tc.endpoint + `}`))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: firewall.ParseFile error = %v, want it to contain %q", name, err, tc.want)
		}
	}
	for name, data := range map[string]string{
		"guard off":  `{"version":2,"on":false,"endpoint":{"address":"192.0.2.1","ports":[{"port":6443,"proto":"tcp"}]}}`,
		"version 1":  `{"version":1,"on":true,"ports":[{"port":6443,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8","endpoint":{"address":"192.0.2.1","ports":[{"port":6443,"proto":"tcp"}]}}`,
		"masq, off ": `{"version":2,"on":false,"interfaces":["wg0"],"podCIDR":"10.0.0.0/8","cni":"kuberouter","masquerade":true,"endpoint":{"address":"192.0.2.1","ports":[{"port":6443,"proto":"tcp"}]}}`,
	} {
		if _, err := firewall.ParseFile([]byte(data)); err == nil {
			t.Errorf("%s: firewall.ParseFile accepted an endpoint where there can be none", name)
		}
	}
}
