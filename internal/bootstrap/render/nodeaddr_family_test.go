package render

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
)

// bothFamilies is a host with an address and a default route of each
// family; v4Only the same host without its IPv6 default route.
const (
	bothFamilies = `{"interfaces":[{"name":"eth0","addresses":["192.0.2.11/24","2001:db8::11/64"]}],
		"defaultRoute":{"interface":"eth0","source":"192.0.2.11"},
		"defaultRoute6":{"interface":"eth0","source":"2001:db8::11"}}`
	v4Only = `{"interfaces":[{"name":"eth0","addresses":["192.0.2.11/24","2001:db8::11/64"]}],
		"defaultRoute":{"interface":"eth0","source":"192.0.2.11"}}`
	ipv6Cluster = "role: single\nnetwork: {podCIDR: \"fd00:244::/108\", serviceCIDR: \"fd00:96::/108\"}\n"
	dualStack   = "role: single\nk0s:\n  patch:\n    spec:\n      network:\n        dualStack: {enabled: true, IPv6podCIDR: \"fd00:244::/108\", IPv6serviceCIDR: \"fd00:96::/108\"}\n"
)

// renderedAddresses renders a validated document on the facts and returns
// the decision, k0s.yaml's spec.api.address and the kubelet's --node-ip of
// the install line (which render has held to k0s's and the kubelet's rules).
func renderedAddresses(t *testing.T, doc, factsJSON string) (Decision, string, string) {
	t.Helper()
	cfg, _, err := schema.Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	f := facts(t, factsJSON)
	d := SelectNodeAddress(cfg, schema.Effective(cfg), f)
	if d.Refused {
		return d, "", ""
	}
	p, err := Render(Inputs{Config: cfg, K0s: schema.Effective(cfg), Decision: d, Facts: f, Hostname: DecideHostname(cfg, HostnameFacts{Current: "n1"})})
	if err != nil {
		t.Fatal(err)
	}
	var api, nodeIP string
	for _, s := range p.Steps {
		for _, file := range s.Files {
			if file.Path == K0sConfigPath {
				var doc struct {
					Spec struct {
						API struct{ Address string } `yaml:"api"`
					} `yaml:"spec"`
				}
				if err := yaml.Unmarshal(file.Content, &doc); err != nil {
					t.Fatal(err)
				}
				api = doc.Spec.API.Address
			}
		}
		for _, a := range s.Actions {
			if a.Kind != plan.ActionK0sInstall {
				continue
			}
			i := slices.IndexFunc(a.Args, func(s string) bool { return strings.HasPrefix(s, "--kubelet-extra-args=") })
			if i < 0 {
				t.Fatalf("no --kubelet-extra-args in %q", a.Args)
			}
			nodeIP = strings.TrimPrefix(a.Args[i], "--kubelet-extra-args=--node-ip=")
		}
	}
	return d, api, nodeIP
}

// An IPv6 single-stack cluster on a host that also has IPv4 registers the
// IPv6 default route's source: kube-apiserver refuses an advertise address
// of another family than the service range's (Kubernetes v1.36.3
// cmd/kube-apiserver/app/options/validation.go, "service IP family %q must
// match public address family %q"), and k0s advertises spec.api.address.
func TestNodeAddressFollowsAnIPv6Cluster(t *testing.T) {
	d, api, nodeIP := renderedAddresses(t, ipv6Cluster, bothFamilies)
	if d.Address != netip.MustParseAddr("2001:db8::11") || d.Source != SourceDefaultRoute {
		t.Fatalf("decision %+v, want 2001:db8::11 from the IPv6 default route", d)
	}
	if api != "2001:db8::11" || nodeIP != "2001:db8::11" {
		t.Errorf("api.address %q, --node-ip %q; want both 2001:db8::11", api, nodeIP)
	}
	for _, c := range d.Candidates {
		if c.Address.Is4() && c.Taken {
			t.Errorf("the IPv4 address was taken: %+v", c)
		}
	}
}

// Without an IPv6 default route the IPv6 cluster's node refuses, naming the
// missing address: k0s's own pick prefers IPv4 (internal/pkg/iface/iface.go
// FirstPublicAddress), which kube-apiserver would refuse at boot.
func TestNodeAddressOfAnIPv6ClusterWithoutAnIPv6Route(t *testing.T) {
	d, _, _ := renderedAddresses(t, ipv6Cluster, v4Only)
	if !d.Refused || d.Address.IsValid() {
		t.Fatalf("decision %+v, want a refusal", d)
	}
	for _, w := range []string{"network.podCIDR", "IPv6", "no IPv6 default route", "give the host an IPv6 default route"} {
		if !strings.Contains(d.Reason, w) {
			t.Errorf("reason %q does not say %q", d.Reason, w)
		}
	}
}

// Dual stack through k0s.patch: the kubelet is given both addresses, the
// primary family's first as k0s orders them (pkg/component/worker/
// kubelet.go:117-137), since k0s detects both only without --node-ip.
func TestNodeAddressDualStackGivesTheKubeletBoth(t *testing.T) {
	const ipv6First = "\n        primaryAddressFamily: IPv6\n"
	for _, tc := range []struct {
		name, doc, api, nodeIP string
	}{
		{"IPv4 primary, k0s's default", dualStack, "192.0.2.11", "192.0.2.11,2001:db8::11"},
		{"IPv6 primary through the patch", strings.TrimSuffix(dualStack, "\n") + ipv6First, "2001:db8::11", "2001:db8::11,192.0.2.11"},
		{"IPv6 primary from cluster.endpoint", dualStack + "cluster: {endpoint: \"2001:db8::100\"}\n", "2001:db8::11", "2001:db8::11,192.0.2.11"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, api, nodeIP := renderedAddresses(t, tc.doc, bothFamilies)
			if d.Refused || api != tc.api || nodeIP != tc.nodeIP {
				t.Errorf("decision %+v: api.address %q, --node-ip %q; want %q and %q", d, api, nodeIP, tc.api, tc.nodeIP)
			}
		})
	}
	d, _, _ := renderedAddresses(t, dualStack, v4Only)
	if !d.Refused || !strings.Contains(d.Reason, "dual stack") || !strings.Contains(d.Reason, "no IPv6 default route") {
		t.Errorf("without an IPv6 route: %+v, want a refusal naming the missing IPv6 default route", d)
	}
}

// On the overlay the node address is the nodeAddress interface's first
// address, which validation holds to the cluster's family: an IPv4 address
// listed first in an IPv6 cluster is refused before any node decides.
func TestOverlayNodeAddressOfAnIPv6Cluster(t *testing.T) {
	doc := ipv6Cluster + `wireguard:
  - name: wg0
    address: [%s]
    nodeAddress: true
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32, "fd10::2/128"]
`
	_, findings, err := schema.Load([]byte(strings.Replace(doc, "%s", `10.10.0.1/24, "fd10::1/64"`, 1)))
	if err == nil || !strings.Contains(fmt.Sprint(findings), "wireguard[0].address[0]") || !strings.Contains(fmt.Sprint(findings), "list an IPv6 address first") {
		t.Errorf("IPv4 first in an IPv6 cluster: %v, want it refused at wireguard[0].address[0]", findings)
	}
	d, api, nodeIP := renderedAddresses(t, strings.Replace(doc, "%s", `"fd10::1/64", 10.10.0.1/24`, 1), bothFamilies)
	if d.Address != netip.MustParseAddr("fd10::1") || api != "fd10::1" || nodeIP != "fd10::1" {
		t.Errorf("decision %+v, api.address %q, --node-ip %q; want fd10::1 throughout", d, api, nodeIP)
	}
}
