package firewall

import (
	"bytes"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

const dualStackNode = `k0s:
  patch: {spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd00:244::/104", IPv6serviceCIDR: "fd00:96::/108"}}}}
`

// A dual-stack cluster's guard and masquerade hold both pod ranges, and
// its file reads back as written; a single-stack guard's file has no
// ipv6PodCIDR, so it is the very bytes an agent before dual stack wrote.
func TestGuardOfADualStackNode(t *testing.T) {
	doc := strings.Replace(guardedNode("kuberouter"), "address: 10.10.0.1/24", `address: [10.10.0.1/24, "fd10::1/64"]`, 1)
	doc = strings.Replace(doc, "allowedIPs: [10.10.0.2/32]", `allowedIPs: [10.10.0.2/32, "fd10::2/128"]`, 1)
	single := render(t, doc)
	if single.IPv6PodCIDR != "" || bytes.Contains(single.File(), []byte("ipv6PodCIDR")) {
		t.Errorf("a single-stack guard names an IPv6 pod range:\n%s", single.File())
	}
	dual := render(t, doc+dualStackNode)
	if dual.PodCIDR != "10.244.0.0/16" || dual.IPv6PodCIDR != "fd00:244::/104" || !dual.Masquerade {
		t.Fatalf("dual-stack guard: pod ranges %q %q, masquerade %v", dual.PodCIDR, dual.IPv6PodCIDR, dual.Masquerade)
	}
	back, err := ParseFile(dual.File())
	if err != nil || back.IPv6PodCIDR != dual.IPv6PodCIDR {
		t.Fatalf("the file reads back as %+v, %v", back, err)
	}
	if got := dual.PodNetworks(); len(got) != 2 || got[1].String() != "fd00:244::/104" {
		t.Errorf("pod networks %v", got)
	}
	// The guard follows the IPv6 pod range where k0s.patch moves it.
	moved := render(t, doc+strings.Replace(dualStackNode, "fd00:244::/104", "fd00:245::/104", 1))
	if moved.IPv6PodCIDR != "fd00:245::/104" {
		t.Errorf("the patch moved the IPv6 pod range, the guard has %q", moved.IPv6PodCIDR)
	}
}

func render(t *testing.T, doc string) Guard {
	t.Helper()
	cfg, findings, err := schema.Load([]byte(doc))
	if err != nil {
		t.Fatalf("%v: %v", err, findings)
	}
	g, err := Render(cfg, schema.Effective(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Check refuses pod ranges the table cannot match as written.
func TestCheckDualStackPodRanges(t *testing.T) {
	base := Guard{On: true, Ports: []Port{{10250, "tcp"}}, Interfaces: []string{"lo", "wg0"}, PodCIDR: "10.244.0.0/16", CNI: "kuberouter"}
	for _, tc := range []struct{ v4, v6, words string }{
		{"10.244.0.0/16", "fd00::/104", ""},
		{"10.244.0.0/16", "fd00::/1040", "ipv6PodCIDR:"},
		{"10.244.0.0/16", "10.245.0.0/16", "ipv6PodCIDR: 10.245.0.0/16 is not an IPv6 range"},
		{"fd01::/104", "fd00::/104", "podCIDR: fd01::/104 is not IPv4"},
	} {
		g := base
		g.PodCIDR, g.IPv6PodCIDR = tc.v4, tc.v6
		err := g.Check()
		switch {
		case tc.words == "" && err != nil:
			t.Errorf("%s %s: %v", tc.v4, tc.v6, err)
		case tc.words != "" && (err == nil || !strings.Contains(err.Error(), tc.words)):
			t.Errorf("%s %s: %v, want %q", tc.v4, tc.v6, err, tc.words)
		}
	}
	off := Guard{IPv6PodCIDR: "fd00::/104"}
	if off.Check() == nil {
		t.Error("an off guard with an IPv6 pod range is accepted")
	}
}
