package nft

import (
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

func TestRenderFollowsTheCNI(t *testing.T) {
	for _, tc := range []struct {
		cni        schema.CNI
		interfaces []string
		tunnels    []string
		podRules   int
	}{
		{schema.CNIKubeRouter, []string{"kube-bridge", "tun-*"}, []string{"ipip", "ip6ip6"}, 2},
		{schema.CNICalico, []string{"cali*", "vxlan.calico", "vxlan-v6.calico"}, nil, 3},
		{schema.CNICustom, nil, nil, 0},
	} {
		cfg := overlayConfig()
		cfg.Network.CNI = tc.cni
		g, err := renderGuard(cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.cni, err)
		}
		if g.CNI != string(tc.cni) || !reflect.DeepEqual(g.PodInterfaces, tc.interfaces) || !reflect.DeepEqual(g.Tunnels, tc.tunnels) {
			t.Errorf("%s: firewall.Render = cni %q, pod interfaces %q, tunnels %q", tc.cni, g.CNI, g.PodInterfaces, g.Tunnels)
		}
		rs, err := buildRuleset(g)
		if err != nil {
			t.Fatal(err)
		}
		if n := countComment(rs, commentPod); n != tc.podRules {
			t.Errorf("%s: %d pod rules, want %d", tc.cni, n, tc.podRules)
		}
	}
}

func countComment(rs *ruleset, comment string) int {
	n := 0
	for _, c := range rs.chains {
		for _, r := range c.rules {
			if r.comment == comment {
				n++
			}
		}
	}
	return n
}

// calico's VXLAN comes out on an interface the guard trusts for pod
// sources: a guard with it public is refused.
func TestRenderRefusesCalicoVXLANPublic(t *testing.T) {
	cfg := overlayConfig()
	cfg.Network.CNI = schema.CNICalico
	cfg.Firewall.PublicPorts = []int{6443, 4789}
	_, err := renderGuard(cfg)
	if err == nil || !strings.Contains(err.Error(), "firewall.publicPorts: 4789/udp carries calico's pod tunnel") {
		t.Fatalf("Render with 4789 public = %v", err)
	}
}

// A file an older agent wrote still loads, so k0s boots guarded; its guard
// trusts pod sources nowhere but lo and the overlay, and says so.
func TestParseFileVersion1(t *testing.T) {
	v1 := `{"version": 1, "on": true, "ports": [{"port": 10250, "proto": "tcp"}], "interfaces": ["lo", "wg0"], "podCIDR": "10.244.0.0/16"}`
	g, err := firewall.ParseFile([]byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	if g.FileVersion != 1 || len(g.PodInterfaces)+len(g.Tunnels) != 0 || !strings.Contains(g.Outdated(), "run corium-agent apply --again") {
		t.Fatalf("version-1 guard = %+v, outdated %q", g, g.Outdated())
	}
	rs, err := buildRuleset(g)
	if err != nil {
		t.Fatal(err)
	}
	if n := countComment(rs, commentPod); n != 0 {
		t.Errorf("a version-1 guard accepts pod sources on %d interfaces, want none", n)
	}
	if n := countComment(rs, commentForged); n != 2 {
		t.Errorf("a version-1 guard has %d forged-source drops, want 2", n)
	}
	// Rewritten, it is a current file (what apply --again does is render
	// it again; this only checks that File never writes a version 1).
	if cur, _ := renderGuard(overlayConfig()); cur.Outdated() != "" || !strings.Contains(string(cur.File()), `"version": 2`) {
		t.Errorf("a rendered guard reads as outdated: %q", cur.Outdated())
	}
	if off, err := firewall.ParseFile([]byte(`{"version": 1, "on": false}`)); err != nil || off.Outdated() != "" {
		t.Errorf("a version-1 guard that is off = %+v, %v; want nothing to say", off, err)
	}
}

func TestParseFileRefusesPodFields(t *testing.T) {
	base := `"version":2,"on":true,"ports":[{"port":10250,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8"`
	for name, tc := range map[string]struct{ data, want string }{
		"no cni":              {`{` + base + `}`, `cni: "" is not kuberouter, calico or custom`},
		"unknown cni":         {`{` + base + `,"cni":"flannel"}`, `cni: "flannel" is not`},
		"bare star":           {`{` + base + `,"cni":"calico","podInterfaces":["*"]}`, `podInterfaces[0]: "*" is not an interface name`},
		"star inside":         {`{` + base + `,"cni":"calico","podInterfaces":["ca*li"]}`, `podInterfaces[0]: "ca*li" is not an interface name`},
		"too long":            {`{` + base + `,"cni":"calico","podInterfaces":["vxlan-v6.calico-x"]}`, `podInterfaces[0]: "vxlan-v6.calico-x" is not an interface name`},
		"duplicate interface": {`{` + base + `,"cni":"calico","podInterfaces":["cali*","cali*"]}`, `podInterfaces[1]: duplicates podInterfaces[0] (cali*)`},
		"unknown tunnel":      {`{` + base + `,"cni":"kuberouter","tunnels":["gre"]}`, `tunnels[0]: "gre" is not ipip or ip6ip6`},
		"duplicate tunnel":    {`{` + base + `,"cni":"kuberouter","tunnels":["ipip","ipip"]}`, `tunnels[1]: duplicates tunnels[0] (ipip)`},
		"version 1 with more": {`{"version":1,"on":true,"cni":"calico"}`, "version 1 has no cni, podInterfaces or tunnels"},
		"off with interfaces": {`{"version":2,"on":false,"podInterfaces":["cali*"]}`, "guard is off but lists"},
		"off with a cni":      {`{"version":2,"on":false,"cni":"calico"}`, "guard is off but lists"},
	} {
		_, err := firewall.ParseFile([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: firewall.ParseFile error = %v, want it to contain %q", name, err, tc.want)
		}
	}
}
