package render

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

// Render takes the document's effective k0s configuration as the run
// computed it; without one it refuses rather than computing its own.
func TestRenderRefusesNoEffectiveConfiguration(t *testing.T) {
	cfg, _, err := schema.Load([]byte(guardDoc + "overlay\n"))
	if err != nil {
		t.Fatal(err)
	}
	eff := schema.Effective(cfg)
	in := Inputs{Config: cfg, Decision: SelectNodeAddress(cfg, eff, nil), Hostname: DecideHostname(cfg, HostnameFacts{})}
	if _, err := Render(in); err == nil || !strings.Contains(err.Error(), "no effective k0s configuration") {
		t.Fatalf("Render without K0s = %v, want the refusal", err)
	}
	in.K0s = eff
	if _, err := Render(in); err != nil {
		t.Fatalf("Render with K0s: %v", err)
	}
}
