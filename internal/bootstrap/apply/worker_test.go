package apply_test

import (
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/schema"
)

// The executor's and the verifier's tests run what render makes of
// rendertest's two-interface worker, so they check the files the agent
// writes, not hand-made ones.

// wireGuardDir is where render puts the wg-quick files.
var wireGuardDir = filepath.Dir(render.WireGuardConfPath("wg0"))

// workerStep renders the two-interface worker the verification tests use.
func workerStep(t *testing.T) plan.Step {
	t.Helper()
	step, err := render.RenderWireGuard(rendertest.TwoInterfaceConfig(schema.RoleWorker), rendertest.TwoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	return step
}

// overlaySteps are the unit files, their reload and the interfaces (with
// those an again run removes), as Render orders them, with the guard off.
func overlaySteps(t *testing.T, in render.Inputs) []plan.Step {
	t.Helper()
	units, err := render.RenderUnits(in, false)
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := render.RenderOverlay(in)
	if err != nil {
		t.Fatal(err)
	}
	return append(units, overlay...)
}
