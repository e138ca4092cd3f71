package bootstrap

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
)

func TestPlanResolvesNoSecretAndWritesNothing(t *testing.T) {
	root := newDemoRoot(t)
	if err := os.RemoveAll(filepath.Join(root.Dir(), "run/corium/secrets")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	o := demoOptions(root, nil)
	o.Resolver = nil // a plan that tried to resolve would panic here
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatalf("plan without any secret present: %v", err)
	}
	sameTree(t, before, snapshot(t, root))
	js, _ := json.Marshal(rep)
	for _, leak := range []string{dummyKey, "(secret)", "(join.tokenFrom)"} {
		if strings.Contains(string(js), leak) {
			t.Errorf("plan shows the placeholder %q", leak)
		}
	}
	var install, k0s bool
	for _, s := range rep.Steps {
		for _, f := range s.Files {
			if f.Path == "/etc/k0s/k0s.yaml" {
				k0s = f.Secret && strings.Contains(f.Diff, "authPass: [redacted]")
			}
		}
		for _, a := range s.Actions {
			if a.Kind == "k0s-install" && strings.Contains(strings.Join(a.Args, " "), "--node-ip=10.10.0.1") {
				install = true
			}
		}
	}
	if !k0s || !install {
		t.Errorf("plan lacks the masked k0s.yaml (%v) or the install command (%v)", k0s, install)
	}
}

// verifyArgs is the plan's verify-wireguard arguments for iface.
func verifyArgs(t *testing.T, rep *PlanReport, iface string) string {
	t.Helper()
	for _, s := range rep.Steps {
		for _, a := range s.Actions {
			if a.Kind == string(plan.ActionVerifyDevice) && len(a.Args) > 0 && a.Args[0] == iface {
				return strings.Join(a.Args, " ")
			}
		}
	}
	t.Fatalf("plan has no verify action for %s", iface)
	return ""
}

func TestPlanNamesTheSourceOfAnUnresolvedPublicKey(t *testing.T) {
	o := demoOptions(newDemoRoot(t), nil)
	o.Resolver = nil
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	dummy, _ := wgtypes.ParseKey(dummyKey)
	for i, iface := range []string{"wg0", "wg1"} {
		args := verifyArgs(t, rep, iface)
		want := fmt.Sprintf("publicKey=(derived at boot from wireguard[%d].privateKeyFrom)", i)
		if !strings.Contains(args, want) {
			t.Errorf("%s: verify args %q lack %q", iface, args, want)
		}
		if strings.Contains(args, dummy.PublicKey().String()) {
			t.Errorf("%s: verify args show the placeholder's public key: %q", iface, args)
		}
	}
	// The live path still verifies the key derived from the resolved one.
	root := newDemoRoot(t)
	live := &applytest.RecordingLive{}
	ro := demoOptions(root, nil)
	ro.Live, ro.LiveUnderRoot = live, true
	if _, err := Run(context.Background(), ro); err != nil {
		t.Fatal(err)
	}
	keyFile, _ := root.ReadFile("/run/corium/secrets/wg0.key")
	priv, err := wgtypes.ParseKey(strings.TrimSpace(string(keyFile)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(live.Text(), "verify-wireguard wg-quick@wg0.service wg0 publicKey="+priv.PublicKey().String()) {
		t.Errorf("apply did not verify the derived public key:\n%s", live.Text())
	}
}

func TestPlanShowsTheRealPublicKeyOfAnInlineKey(t *testing.T) {
	o := Options{Root: rootfs.New(t.TempDir()), ConfigFile: "../../testdata/valid/worker-inline-secrets.yaml"}
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	priv, _ := wgtypes.ParseKey("0KN+NwcPsLKOTod2ZB3SSUqhYlVMxMRjAXaz9vmcnHU=")
	if args := verifyArgs(t, rep, "wg0"); !strings.Contains(args, "publicKey="+priv.PublicKey().String()) {
		t.Errorf("verify args %q lack the public key derived from the inline key", args)
	}
}

func TestPlanAgainShowsTheRefusals(t *testing.T) {
	root := provisionedDemo(t)
	o := demoOptions(root, nil)
	o.Again, o.Resolver = true, nil
	o.ConfigFile = editedDemoConfig(t, "role: controller+worker", "role: controller")
	rep, err := Plan(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "role") {
		t.Fatalf("plan --again with a changed role: %v, want the refusal named", err)
	}
	if len(rep.Refusals) != 1 || !strings.HasPrefix(rep.Refusals[0], "role: was controller+worker, now controller") {
		t.Errorf("refusals %q", rep.Refusals)
	}
	if len(rep.Steps) != 0 {
		t.Errorf("a refused again run shows steps: %+v", rep.Steps)
	}
}
