package render

import (
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

// BenchmarkRenderNode renders everything after the overlay for an HA
// controller on the overlay: k0s.yaml, drop-ins, guard, install, record.
func BenchmarkRenderNode(b *testing.B) {
	dir := filepath.Join(k0sGoldenDir, "controller-ha-overlay")
	cfg := loadTestConfig(b, filepath.Join(dir, "config.yaml"))
	facts := loadTestFacts(b, dir)
	eff := schema.Effective(cfg)
	in := Inputs{Config: cfg, K0s: eff, Secrets: k0sTestSecrets, Facts: facts, Decision: SelectNodeAddress(cfg, eff, facts), Hostname: Hostname{Name: "c1", Source: "node.name"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RenderNode(in); err != nil {
			b.Fatal(err)
		}
	}
}
