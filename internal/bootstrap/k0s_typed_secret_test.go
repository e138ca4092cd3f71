package bootstrap

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0syaml"
)

// A k0s.yaml's own secrets are hidden by their place in the typed
// document, with no value known to the plan and no key list naming them:
// however the file on disk spells the key, as k0s reads it. Text the codec
// does not model (a helm repository's password in k0s.patch's values) is
// masked by its key, in any case.
func TestK0sYAMLSecretsHiddenByType(t *testing.T) {
	f := plan.File{Path: "/etc/k0s/k0s.yaml", Secret: true, SecretKeys: k0syaml.FreeTextSecretKeys, SecretSyntax: plan.SyntaxK0s}
	const vrrp = "spec:\n  network:\n    controlPlaneLoadBalancing:\n      keepalived:\n        vrrpInstances:\n"
	for name, text := range map[string]string{
		"authPass":               vrrp + "          - authPass: Tp1-a\n            interface: eth0\n",
		"authPass, upper case":   vrrp + "          - AUTHPASS: Tp1-a\n",
		"authPass, long s":       vrrp + "          - authPaſſ: Tp1-a\n",
		"authPass, quoted key":   vrrp + "          - 'AuthPass': \"Tp1-a\"\n",
		"dataSource":             "spec:\n  storage:\n    kine:\n      dataSource: postgres://u:Tp1-a@db/k\n    type: kine\n",
		"dataSource, lower case": "spec:\n  storage:\n    kine:\n      datasource: postgres://u:Tp1-a@db/k\n",
		"dataSource, folded":     "spec:\n  storage:\n    kine:\n      dataSource: postgres://u:Tp1-\n        a@db/k\n    type: kine\n",
		"helm password":          "spec:\n  extensions:\n    helm:\n      repositories:\n        - name: r\n          Password: Tp1-a\n",
	} {
		t.Run(name, func(t *testing.T) {
			shown, whole := shownText(f, []byte(text), nil)
			if whole {
				t.Fatalf("hidden whole:\n%s", shown)
			}
			if strings.Contains(shown, "Tp1") || !strings.Contains(shown, ": [redacted]") {
				t.Errorf("shown as\n%s", shown)
			}
		})
	}
	if shown, whole := shownText(f, []byte("spec: [Tp1-a\n"), nil); !whole || strings.Contains(shown, "Tp1") {
		t.Errorf("a k0s.yaml that does not parse is shown as\n%s", shown)
	}
}
