package render

import (
	"context"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
)

// applyOverlay applies the overlay of cfg under root, as an again run after
// applied when applied is not nil, recording the live actions.
func applyOverlay(t *testing.T, root rootfs.Root, cfg, applied *schema.Config) (string, []status.Step) {
	t.Helper()
	var prev *Previous
	if applied != nil {
		prev = readPrevious(root, applied)
	}
	steps := overlaySteps(t, Inputs{Config: cfg, Secrets: twoInterfaceSecrets(), Previous: prev})
	live := &applytest.RecordingLive{}
	st, err := (&apply.Executor{Root: root, Live: live, LiveUnderRoot: true}).Apply(context.Background(), &plan.Plan{Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	return live.Text(), st
}

func withoutWg1(role schema.Role) *schema.Config {
	cfg := twoInterfaceConfig(role)
	cfg.WireGuard = cfg.WireGuard[:1]
	return cfg
}

func TestAgainRemovesADroppedInterface(t *testing.T) {
	root := rootfs.New(t.TempDir())
	applyOverlay(t, root, twoInterfaceConfig(schema.RoleWorker), nil)
	wants := wgQuickWantsLink("wg1").Path
	if !root.Exists("/etc/wireguard/wg1.conf") || !root.Exists(wants) {
		t.Fatal("first boot did not make wg1")
	}

	text, steps := applyOverlay(t, root, withoutWg1(schema.RoleWorker), twoInterfaceConfig(schema.RoleWorker))
	for _, gone := range []string{"/etc/wireguard/wg1.conf", wants} {
		if root.Exists(gone) {
			t.Errorf("%s is still there", gone)
		}
	}
	dropIn, _ := root.ReadFile(WireGuardDropInPath(schema.RoleWorker))
	if strings.Contains(string(dropIn), "wg1") || !strings.Contains(string(dropIn), "Requires=wg-quick@wg0.service") {
		t.Errorf("drop-in after removing wg1:\n%s", dropIn)
	}
	if !root.Exists("/etc/wireguard/wg0.conf") || !root.Exists(wgQuickWantsLink("wg0").Path) {
		t.Error("wg0 was touched")
	}
	// k0s must no longer require wg1 when wg1 stops, or it stops with it:
	// the reload for its rewritten drop-in comes first, and none after the
	// stop, which the removed links and drop-in need not.
	want := "daemon-reload wg-quick@wg0.service k0sworker.service\nstart wg-quick@wg0.service\nverify-wireguard"
	if !strings.HasPrefix(text, want) {
		t.Errorf("live actions:\n%s\nwant them to start with:\n%s", text, want)
	}
	if !strings.HasSuffix(text, "\nstop wg-quick@wg1.service\n") {
		t.Errorf("live actions:\n%s\nwant wg1 stopped last", text)
	}
	last := steps[len(steps)-1]
	if last.Name != StepWireGuardRemoved || len(last.Files) != 3 || last.Files[0].Change != plan.ChangeRemoved ||
		last.Files[2].Path != WgQuickK0sDropInPath("wg1") {
		t.Errorf("removal step %+v, want the file, the link and the interface's k0s drop-in reported removed", last)
	}

	// The record now lacks wg1: a second run has nothing to remove.
	text, steps = applyOverlay(t, root, withoutWg1(schema.RoleWorker), withoutWg1(schema.RoleWorker))
	if strings.Contains(text, "wg1") || steps[len(steps)-1].Name == StepWireGuardRemoved {
		t.Errorf("second run acted on wg1:\n%s", text)
	}
}

func TestAgainLeavesAForeignFileAlone(t *testing.T) {
	root := rootfs.New(t.TempDir())
	applyOverlay(t, root, twoInterfaceConfig(schema.RoleWorker), nil)
	foreign := "[Interface]\n# written by hand\nAddress = 10.20.0.1/24\n"
	if _, err := root.WriteFile("/etc/wireguard/wg1.conf", []byte(foreign), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	applied := twoInterfaceConfig(schema.RoleWorker)
	if got := readPrevious(root, applied).Foreign(withoutWg1(schema.RoleWorker)); len(got) != 1 || got[0] != "wg1" {
		t.Errorf("Foreign = %v, want [wg1]", got)
	}
	text, _ := applyOverlay(t, root, withoutWg1(schema.RoleWorker), applied)
	if strings.Contains(text, "wg1") {
		t.Errorf("acted on a wg1 whose file is not the agent's:\n%s", text)
	}
	if b, _ := root.ReadFile("/etc/wireguard/wg1.conf"); string(b) != foreign || !root.Exists(wgQuickWantsLink("wg1").Path) {
		t.Error("a file the agent did not write was removed or changed")
	}
}

func TestAgainRemovesTheLastInterface(t *testing.T) {
	root := rootfs.New(t.TempDir())
	applied := twoInterfaceConfig(schema.RoleController)
	applied.WireGuard[0].NodeAddress = false
	applyOverlay(t, root, applied, nil)
	none := &schema.Config{Role: schema.RoleController}
	text, _ := applyOverlay(t, root, none, applied)
	if root.Exists(WireGuardDropInPath(schema.RoleController)) {
		t.Error("the drop-in requiring the removed interfaces is still there")
	}
	want := "daemon-reload k0scontroller.service\nstop wg-quick@wg0.service\nstop wg-quick@wg1.service\n"
	if text != want {
		t.Errorf("live actions:\n%s\nwant:\n%s", text, want)
	}
	for _, name := range []string{"wg0", "wg1"} {
		if root.Exists(WireGuardConfPath(name)) || root.Exists(wgQuickWantsLink(name).Path) {
			t.Errorf("%s left behind", name)
		}
	}
}
