package render

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

const guardDoc = `role: controller
wireguard:
  - name: wg0
    address: 10.30.0.2/24
    listenPort: 51820
    nodeAddress: true
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.11:51820
        allowedIPs: [10.30.0.1/32]
firewall:
  clusterPorts: `

// The k0s unit requires the guard exactly when the guard is on, and a guard
// turned off takes the requirement away; the rendered guard file is there
// either way, so the boot unit can remove a stale table.
func TestRenderGuardStep(t *testing.T) {
	dropIn := firewall.K0sDropInPath("k0scontroller.service")
	for _, tc := range []struct {
		clusterPorts string
		on           bool
	}{{"overlay", true}, {"open", false}} {
		cfg, _, err := schema.Load([]byte(guardDoc + tc.clusterPorts + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Render(Inputs{Config: cfg, K0s: schema.Effective(cfg), Decision: SelectNodeAddress(cfg, schema.Effective(cfg), nil), Hostname: DecideHostname(cfg, HostnameFacts{})})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		removed := false
		for _, s := range p.Steps {
			if s.Name != StepGuard && s.Name != StepUnits {
				continue
			}
			for _, f := range s.Files {
				files[f.Path] = f.Content
			}
			removed = removed || slices.Contains(s.Removes, dropIn)
		}
		guard, err := firewall.ParseFile(files[firewall.FilePath])
		if err != nil || guard.On != tc.on {
			t.Errorf("clusterPorts %s: rendered guard %+v, %v", tc.clusterPorts, guard, err)
		}
		content, ok := files[dropIn]
		if ok != tc.on || (ok && !bytes.Equal(content, firewall.K0sDropIn())) {
			t.Errorf("clusterPorts %s: drop-in present = %v, want %v", tc.clusterPorts, ok, tc.on)
		}
		if removed == tc.on {
			t.Errorf("clusterPorts %s: drop-in removed = %v, want %v", tc.clusterPorts, removed, !tc.on)
		}
	}
}

// On kube-router with the node address on the overlay, clusterPorts: open
// leaves the pod masquerade in the table: the guard step still programs it
// every boot, and k0s is not tied to it (no drop-in).
func TestRenderGuardStepMasqueradeAlone(t *testing.T) {
	doc := strings.Replace(guardDoc, "role: controller\n", "role: controller+worker\n", 1)
	cfg, _, err := schema.Load([]byte(doc + "open\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Render(Inputs{Config: cfg, K0s: schema.Effective(cfg), Decision: SelectNodeAddress(cfg, schema.Effective(cfg), nil), Hostname: DecideHostname(cfg, HostnameFacts{})})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Steps {
		if s.Name != StepGuard {
			continue
		}
		if len(s.Files) != 1 || s.Files[0].Path != firewall.FilePath || len(s.Actions) != 1 || s.Actions[0].Kind != plan.ActionFirewall {
			t.Fatalf("guard step %+v; want the file and the firewall action only", s)
		}
		g, err := firewall.ParseFile(s.Files[0].Content)
		if err != nil || g.On || !g.Masquerade || !reflect.DeepEqual(g.Interfaces, []string{"wg0"}) {
			t.Errorf("rendered guard %+v, %v; want the masquerade alone on wg0", g, err)
		}
		return
	}
	t.Fatal("no guard step")
}
