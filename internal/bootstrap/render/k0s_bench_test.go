package render

import (
	"path/filepath"
	"testing"
)

// BenchmarkRenderNode renders everything after the overlay for an HA
// controller on the overlay: k0s.yaml, drop-ins, guard, install, record.
func BenchmarkRenderNode(b *testing.B) {
	dir := filepath.Join(k0sGoldenDir, "controller-ha-overlay")
	cfg := loadTestConfig(b, filepath.Join(dir, "config.yaml"))
	facts := loadTestFacts(b, dir)
	in := Inputs{Config: cfg, Secrets: k0sTestSecrets, Facts: facts, Decision: SelectNodeAddress(cfg, facts), Hostname: Hostname{Name: "c1", Source: "node.name"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RenderNode(in); err != nil {
			b.Fatal(err)
		}
	}
}
