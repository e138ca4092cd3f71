package render

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

func TestK0sUnit(t *testing.T) {
	for role, want := range map[schema.Role]string{
		schema.RoleSingle:           "k0scontroller.service",
		schema.RoleController:       "k0scontroller.service",
		schema.RoleControllerWorker: "k0scontroller.service",
		schema.RoleWorker:           "k0sworker.service",
	} {
		if got := K0sUnit(role); got != want {
			t.Errorf("K0sUnit(%s) = %s, want %s", role, got, want)
		}
	}
}

// TestDropInPassesSystemdAnalyze checks the rendered drop-in with the real
// systemd-analyze against a stand-in k0s unit of the same name, on the
// host's unit path (which has the wg-quick@.service template). An unknown
// key only warns, so stderr must be empty too; the negative controls show
// that both channels do catch a broken drop-in.
func TestDropInPassesSystemdAnalyze(t *testing.T) {
	host.RequireRoot(t, "systemd-analyze", "wg-quick")
	for _, role := range []schema.Role{schema.RoleControllerWorker, schema.RoleWorker} {
		t.Run(string(role), func(t *testing.T) {
			step := unitsStep(t, Inputs{Config: twoInterfaceConfig(role)})
			dropIn := fileAt(t, step, WireGuardDropInPath(role)).Content

			stderr, err := analyzeDropIn(t, K0sUnit(role), dropIn)
			if err != nil || stderr != "" {
				t.Fatalf("systemd-analyze verify: %v\n%s", err, stderr)
			}

			stderr, err = analyzeDropIn(t, K0sUnit(role), append(bytes.Clone(dropIn), "Bogus=1\n"...))
			if err != nil || !strings.Contains(stderr, "Unknown key 'Bogus'") {
				t.Errorf("negative control (unknown key): err=%v stderr=%q; want rc 0 with a warning", err, stderr)
			}
			broken := bytes.ReplaceAll(dropIn, []byte("wg-quick@"), []byte("wg-quack@"))
			stderr, err = analyzeDropIn(t, K0sUnit(role), broken)
			if err == nil || !strings.Contains(stderr, "wg-quack@") || !strings.Contains(stderr, "not found") {
				t.Errorf("negative control (missing required unit): err=%v stderr=%q; want a failure", err, stderr)
			}
		})
	}
}

// analyzeDropIn runs systemd-analyze verify on a stand-in k0s unit carrying
// the drop-in, and returns its stderr.
func analyzeDropIn(t *testing.T, unit string, dropIn []byte) (string, error) {
	t.Helper()
	dir := t.TempDir()
	standIn := "[Unit]\nDescription=stand-in for " + unit + " in a drop-in test\n\n[Service]\nExecStart=/usr/bin/true\n"
	if err := os.WriteFile(filepath.Join(dir, unit), []byte(standIn), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, unit+".d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, unit+".d", wireGuardDropInName), dropIn, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("systemd-analyze", "verify", unit)
	// The trailing colon appends the default search path after dir.
	cmd.Env = append(os.Environ(), "SYSTEMD_UNIT_PATH="+dir+":")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	return strings.TrimSpace(stderr.String()), err
}

// TestWantsLinkMatchesSystemctl compares the rendered .wants link with what
// the real `systemctl --root=DIR enable` makes in a root laid out like the
// Fedora image (the template under /usr/lib/systemd/system).
func TestWantsLinkMatchesSystemctl(t *testing.T) {
	host.RequireRoot(t, "systemctl", "wg-quick")
	template, err := os.ReadFile("/usr/lib/systemd/system/wg-quick@.service")
	if err != nil {
		t.Fatalf("reading the host's wg-quick@.service (wireguard-tools): %v", err)
	}
	root := t.TempDir()
	p := filepath.Join(root, wgQuickTemplate)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, template, 0o644); err != nil {
		t.Fatal(err)
	}
	step := unitsStep(t, Inputs{Config: twoInterfaceConfig(schema.RoleWorker)})
	for _, l := range step.Links {
		unit := filepath.Base(l.Path)
		if out, err := exec.Command("systemctl", "--root="+root, "enable", unit).CombinedOutput(); err != nil {
			t.Fatalf("systemctl --root enable %s: %v\n%s", unit, err, out)
		}
		got, err := os.Readlink(filepath.Join(root, l.Path))
		if err != nil {
			t.Fatalf("systemctl made no %s: %v", l.Path, err)
		}
		if got != l.Target {
			t.Errorf("%s: systemctl links to %s, render to %s", l.Path, got, l.Target)
		}
	}
	if len(step.Links) != 2 {
		t.Fatalf("rendered %d links for two interfaces", len(step.Links))
	}
}

// unitsStep renders the unit files of in, with the guard off.
func unitsStep(t *testing.T, in Inputs) plan.Step {
	t.Helper()
	steps, err := RenderUnits(in, false)
	if err != nil {
		t.Fatal(err)
	}
	return steps[0]
}

// overlaySteps are the unit files, their reload and the interfaces (with
// those an again run removes), as Render orders them, with the guard off.
func overlaySteps(t *testing.T, in Inputs) []plan.Step {
	t.Helper()
	units, err := RenderUnits(in, false)
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := RenderOverlay(in)
	if err != nil {
		t.Fatal(err)
	}
	return append(units, overlay...)
}

// workerStep renders the two-interface worker the verification tests use.
func workerStep(t *testing.T) plan.Step {
	t.Helper()
	step, err := RenderWireGuard(twoInterfaceConfig(schema.RoleWorker), twoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	return step
}
