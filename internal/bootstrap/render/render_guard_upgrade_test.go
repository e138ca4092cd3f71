package render

import (
	"context"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// A node an older agent provisioned holds a version-1 guard file and a k0s
// drop-in without the assertion. An again run renders both anew and programs
// the guard: `apply --again` is what status tells such a node to run.
func TestRenderGuardStepUpgradesAnOlderAgentsFiles(t *testing.T) {
	root := rootfs.New(t.TempDir())
	unit := "k0scontroller.service"
	v1 := `{
  "version": 1,
  "on": true,
  "ports": [{"port": 6443, "proto": "tcp"}, {"port": 8132, "proto": "tcp"}, {"port": 9443, "proto": "tcp"}, {"port": 2380, "proto": "tcp"}],
  "interfaces": ["lo", "wg0"],
  "podCIDR": "10.244.0.0/16"
}
`
	oldDropIn := plan.Managed("#") + "[Unit]\nAfter=corium-firewall.service\nRequires=corium-firewall.service\n"
	for p, content := range map[string]string{firewall.FilePath: v1, firewall.K0sDropInPath(unit): oldDropIn} {
		if _, err := root.WriteFile(p, []byte(content), 0o600, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _, err := schema.Load([]byte(guardDoc + "overlay\n"))
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := Render(Inputs{Config: cfg, K0s: schema.Effective(cfg), Decision: SelectNodeAddress(cfg, schema.Effective(cfg), nil), Again: true})
	if err != nil {
		t.Fatal(err)
	}
	var steps []plan.Step
	for _, s := range rendered.Steps {
		if s.Name == StepUnits || s.Name == StepReload || s.Name == StepGuard {
			steps = append(steps, s)
		}
	}
	live := &applytest.RecordingLive{}
	if _, err := (&apply.Executor{Root: root, Live: live, LiveUnderRoot: true}).Apply(context.Background(), &plan.Plan{Steps: steps}); err != nil {
		t.Fatal(err)
	}
	if want := "daemon-reload wg-quick@wg0.service k0scontroller.service\nfirewall\n"; live.Text() != want {
		t.Errorf("actions:\n%swant:\n%s", live.Text(), want)
	}
	data, _ := root.ReadFile(firewall.FilePath)
	g, err := firewall.ParseFile(data)
	if err != nil || g.Outdated() != "" || len(g.PodInterfaces) == 0 {
		t.Errorf("guard file after the again run = %+v, %v:\n%s", g, err, data)
	}
	dropIn, _ := root.ReadFile(firewall.K0sDropInPath(unit))
	if !firewall.DropInAssertsGuard(dropIn) || !strings.Contains(string(dropIn), "AssertPathExists="+firewall.FilePath) {
		t.Errorf("k0s drop-in after the again run:\n%s", dropIn)
	}
}
