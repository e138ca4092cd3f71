package bootstrap

import (
	"context"
	"testing"
)

// The run and the plan enable each interface as the template under the root
// says: wireguard-tools since v1.0.20260223 wants it by wg-quick.target too.
func TestRunEnablesByTheTemplateUnderTheRoot(t *testing.T) {
	root := newDemoRoot(t)
	template := "[Service]\nExecStart=/usr/bin/wg-quick up %i\n\n[Install]\nWantedBy=multi-user.target wg-quick.target\n"
	if _, err := root.WriteFile("/usr/lib/systemd/system/wg-quick@.service", []byte(template), 0o644, 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := Plan(context.Background(), demoOptions(root, nil))
	if err != nil {
		t.Fatal(err)
	}
	planned := map[string]bool{}
	for _, s := range rep.Steps {
		for _, f := range s.Files {
			planned[f.Path] = f.Target == "/usr/lib/systemd/system/wg-quick@.service"
		}
	}
	if _, err := Run(context.Background(), demoOptions(root, nil)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"wg0", "wg1"} {
		for _, target := range []string{"multi-user.target", "wg-quick.target"} {
			link := "/etc/systemd/system/" + target + ".wants/wg-quick@" + name + ".service"
			if !planned[link] {
				t.Errorf("the plan has no %s to the template", link)
			}
			if got, err := root.Readlink(link); err != nil || got != "/usr/lib/systemd/system/wg-quick@.service" {
				t.Errorf("%s: %q, %v; want a link to the template", link, got, err)
			}
		}
	}
}
