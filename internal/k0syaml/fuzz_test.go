package k0syaml_test

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0syaml"
)

// Whatever k0s reads a secret from, Redact leaves no line of the file
// holding it: each secret k0s would read (Parse) that the file spells
// once, verbatim, is gone from the redacted text, or Redact refuses the
// file and the plan hides it whole.
func FuzzRedact(f *testing.F) {
	f.Add(vrrp + "        - authPass: Pw1\n          interface: eth0\n")
	f.Add("SPEC:\n  STORAGE:\n    KINE:\n      DATASOURCE: postgres://u:Pw2@db/k\n")
	f.Add("x: &pw Pw8\n" + vrrp + "        - authPass: *pw\n")
	f.Add("base: &b\n  authPass: Pw9\n" + vrrp + "        - <<: *b\n          interface: eth0\n")
	f.Add("spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: PwA}, {authPass: PwB}]}}}}\n")
	f.Add("spec:\n  storage:\n    kine:\n      \"data\\x53ource\" : 'postgres://u:Pw4@db/k' # c\n  api: {}\n")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := k0syaml.Parse([]byte(text))
		if err != nil {
			return
		}
		shown, err := k0syaml.Redact([]byte(text))
		if err != nil {
			return
		}
		for _, s := range n.Secrets() {
			v := s.Reveal()
			if len(v) < 3 || strings.Count(text, v) != 1 {
				continue
			}
			if strings.Contains(string(shown), v) {
				t.Fatalf("the secret %q shows in\n%s\nredacted from\n%s", v, shown, text)
			}
		}
	})
}
