package firstboot

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestPlanResolvesNoSecretAndWritesNothing(t *testing.T) {
	root := newDemoRoot(t)
	if err := os.RemoveAll(root.Path("/run/corium/secrets")); err != nil {
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
	for _, leak := range []string{dummyKey, PlaceholderFor("ha.authPassFrom"), PlaceholderFor("join.tokenFrom")} {
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
