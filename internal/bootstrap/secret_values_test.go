package bootstrap

import (
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// The values under the secret keys are read whole, as the strings YAML
// makes of them, however the file spells them.
func TestSecretsInReadsValuesWhole(t *testing.T) {
	yamlFile := plan.File{Secret: true, SecretKeys: []string{"authPass", "password"}, SecretSyntax: plan.SyntaxYAML}
	iniFile := plan.File{Secret: true, SecretKeys: []string{"PrivateKey"}, SecretSyntax: plan.SyntaxINI}
	for _, tc := range []struct {
		name string
		f    plan.File
		text string
		want []string
	}{
		{"block scalar", yamlFile, "spec:\n  - authPass: |-\n      Qz7\n      Xw9\n", []string{"Qz7\nXw9"}},
		{"escaped", yamlFile, `authPass: "Qz7\nXw9\t\x01"`, []string{"Qz7\nXw9\t\x01"}},
		{"folded", yamlFile, "authPass: Qz7\n  Xw9\n", []string{"Qz7 Xw9"}},
		{"alias", yamlFile, "a: &p |-\n  Qz7\n  Xw9\nauthPass: *p\nb: *p\n", []string{"Qz7\nXw9"}},
		{"a mapping under a secret key", yamlFile, "password: {user: u1, pass: p1}\n", []string{"user", "u1", "pass", "p1"}},
		{"a key in another case", yamlFile, "spec:\n  Password: p1\n  AUTHPASS: p2\n", []string{"p1", "p2"}},
		{"every document", yamlFile, "authPass: a1\n---\npassword: a2\n", []string{"a1", "a2"}},
		{"wg-quick", iniFile, "[Interface]\nprivate key = " + dummyKey + "\nListenPort = 1\n", []string{dummyKey}},
		{"secret as a whole", plan.File{Secret: true}, "tok\n", []string{"tok\n"}},
		{"not secret", plan.File{}, "authPass: x\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := secretsIn(tc.f, tc.text)
			if !ok || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
	if _, ok := secretsIn(yamlFile, "authPass: \"open\n"); ok {
		t.Error("a file that does not parse gave its values as known")
	}
	// A wg-quick file that does not parse gives what wg would read under
	// its secret keys, and says it could not be read.
	if got, ok := secretsIn(iniFile, "[Interface]\nPrivateKey = k 1\n[Peers]\n"); ok || !slices.Equal(got, []string{"k1"}) {
		t.Errorf("a wg-quick file that does not parse: got %q, %v", got, ok)
	}
}

// Every line of a value, and its escaped spellings, are masked.
func TestSecretForms(t *testing.T) {
	got := secretForms("Qz7\nXw9\t\x01")
	for _, want := range []string{"Qz7", "Xw9\t\x01", `Qz7\nXw9\t\x01`, `Qz7\nXw9\t\u0001`} {
		if !slices.Contains(got, want) {
			t.Errorf("the forms %q lack %q", got, want)
		}
	}
	for _, f := range got {
		if strings.TrimSpace(f) == "" || f == "|-" {
			t.Errorf("the forms %q hold one that masks everything or nothing of the value", got)
		}
	}
}
