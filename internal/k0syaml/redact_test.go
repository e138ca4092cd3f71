package k0syaml_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/k0syaml"
)

const vrrp = "spec:\n  network:\n    controlPlaneLoadBalancing:\n      keepalived:\n        vrrpInstances:\n"

// Redact hides the agent's secrets however a k0s.yaml k0s would read
// spells them, and Parse reads them there: keys in any case (encoding/json
// folds case, the Kelvin sign and long s included), quoted keys, values
// over several lines, aliases, merge keys, flow style. Every other line is
// left as it is.
func TestRedactSpellings(t *testing.T) {
	for name, tc := range map[string]struct{ text, want, secret string }{
		"canonical":        {vrrp + "        - authPass: Pw1\n          interface: eth0\n", vrrp + "        - authPass: [redacted]\n          interface: eth0\n", "Pw1"},
		"upper case":       {"SPEC:\n  STORAGE:\n    KINE:\n      DATASOURCE: postgres://u:Pw2@db/k\n", "SPEC:\n  STORAGE:\n    KINE:\n      DATASOURCE: [redacted]\n", "Pw2"},
		"long s":           {"spec:\n  storage:\n    kine:\n      dataſource: postgres://u:Pw3@db/k\n", "spec:\n  storage:\n    kine:\n      dataſource: [redacted]\n", "Pw3"},
		"quoted key":       {"spec:\n  storage:\n    kine:\n      \"data\\x53ource\" : 'postgres://u:Pw4@db/k'\n", "spec:\n  storage:\n    kine:\n      \"data\\x53ource\" : [redacted]\n", "Pw4"},
		"block scalar":     {vrrp + "        - authPass: |-\n            Pw5\n\n            Pw5b\n          interface: eth0\n", vrrp + "        - authPass: [redacted]\n          interface: eth0\n", "Pw5"},
		"folded plain":     {"spec:\n  storage:\n    kine:\n      dataSource: postgres://u:Pw6\n        @db/k\n  api: {}\n", "spec:\n  storage:\n    kine:\n      dataSource: [redacted]\n  api: {}\n", "Pw6"},
		"quoted to left":   {"spec:\n  storage:\n    kine:\n      dataSource: \"postgres://u:Pw7\n# still the value\"\n  api: {}\n", "spec:\n  storage:\n    kine:\n      dataSource: [redacted]\n  api: {}\n", "Pw7"},
		"alias":            {"x: &pw Pw8\n" + vrrp + "        - authPass: *pw\n", "x: [redacted]\n" + vrrp + "        - authPass: [redacted]\n", "Pw8"},
		"merge key":        {"base: &b\n  authPass: Pw9\n" + vrrp + "        - <<: *b\n          interface: eth0\n", "base: &b\n  authPass: [redacted]\n" + vrrp + "        - <<: *b\n          interface: eth0\n", "Pw9"},
		"flow, two":        {"spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: PwA}, {authPass: PwB}]}}}}\n", "spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: [redacted]\n", "PwA"},
		"# in block":       {vrrp + "        - authPass: |\n            PwD\n            # PwE\n          # interface\n          interface: eth0\n", vrrp + "        - authPass: [redacted]\n          # interface\n          interface: eth0\n", "PwE"},
		"trailing comment": {"spec:\n  storage:\n    kine:\n      dataSource: postgres://u:PwC@db/k\n# a comment\n\n", "spec:\n  storage:\n    kine:\n      dataSource: [redacted]\n# a comment\n\n", "PwC"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := k0syaml.Redact([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("redacted as\n%s\nnot\n%s", got, tc.want)
			}
			if strings.Contains(string(got), tc.secret) || strings.Contains(string(got), "PwB") {
				t.Errorf("the secret shows:\n%s", got)
			}
			n, err := k0syaml.Parse([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, s := range n.Secrets() {
				found = found || strings.Contains(s.Reveal(), tc.secret)
			}
			if !found {
				t.Errorf("Parse does not read the secret: %#v", n)
			}
		})
	}
}

// A file k0s or the redaction cannot read is an error quoting nothing of
// it: the plan hides it whole.
func TestRedactRefusals(t *testing.T) {
	for name, text := range map[string]string{
		"not yaml":            "spec:\n  storage: [PwX\n",
		"alias of a document": "&pw PwX\n---\n" + vrrp + "        - authPass: *pw\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := k0syaml.Redact([]byte(text))
			if err == nil {
				t.Fatal("redacted without error")
			}
			if strings.Contains(err.Error(), "PwX") {
				t.Errorf("the error quotes the secret: %v", err)
			}
		})
	}
	if _, err := k0syaml.Parse([]byte("spec:\n  storage:\n    kine:\n      dataSource: [PwX]\n")); err == nil || strings.Contains(err.Error(), "PwX") {
		t.Errorf("a datasource k0s cannot decode: %v", err)
	}
}

// Every k0s.yaml of the golden trees: Redact changes the lines of the
// agent's secrets alone, to the marker, and Parse reads them.
func TestGoldenRedact(t *testing.T) {
	files, err := filepath.Glob("../../testdata/render/k0s/*/expected/k0s.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden k0s.yaml: %v", err)
	}
	secrets := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n, err := k0syaml.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := k0syaml.Redact(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := strings.Split(string(data), "\n")
		for i, l := range want {
			if k, _, _ := strings.Cut(l, ":"); strings.HasSuffix(k, "authPass") || strings.HasSuffix(k, "dataSource") {
				want[i] = k + ": [redacted]"
			}
		}
		if string(got) != strings.Join(want, "\n") {
			t.Errorf("%s: redacted as\n%s", path, got)
		}
		secrets += len(n.Secrets())
	}
	if secrets < 2 {
		t.Errorf("the golden trees hold %d secrets; a VRRP password and a datasource at least", secrets)
	}
}

// Merge keys that name one mapping many ways cost one search of it: a
// file of 40 levels, each merging the one below twice, is redacted at once
// (searched once per way, it would take 2^40 searches).
func TestRedactMergesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0\n  authPass: PwM\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "l%d: &l%d\n  <<: [*l%d, *l%d]\n", i, i, i-1, i-1)
	}
	b.WriteString(vrrp + "        - <<: *l40\n")
	done := make(chan []byte)
	go func() {
		out, _ := k0syaml.Redact([]byte(b.String()))
		done <- out
	}()
	select {
	case out := <-done:
		if strings.Contains(string(out), "PwM") {
			t.Errorf("the secret shows:\n%s", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Redact takes more than 10s")
	}
}

// The text of a block scalar is YAML to whoever reads it (a helm chart's
// values): a password in it is hidden on the line it stands on, and a
// block that is not YAML is hidden whole, as no line of it can be told
// to be free of a secret.
func TestRedactBlockScalarText(t *testing.T) {
	const chart = "spec:\n  extensions:\n    helm:\n      charts:\n        - name: db\n"
	for name, tc := range map[string]struct{ text, want string }{
		"values":           {chart + "          values: |\n            db:\n              password: |\n                Pb1\n                Pb2\n            user: u\n", chart + "          values: |\n            db:\n              password: [redacted]\n            user: u\n"},
		"folded":           {chart + "          values: >\n            password: Pb1 Pb2\n\n            user: u\n", chart + "          values: >\n            password: [redacted]\n\n            user: u\n"},
		"block in block":   {"a: |\n  b: |-\n    c:\n      Password: Pb1 Pb2\n  d: 1\n", "a: |\n  b: |-\n    c:\n      Password: [redacted]\n  d: 1\n"},
		"not YAML":         {chart + "          values: |\n            note\n            password: Pb1 Pb2\n          version: 1\n", chart + "          values: [redacted]\n          version: 1\n"},
		"not YAML, no key": {"a:\n  - |\n    note\n    password: Pb1 Pb2\n  - b\n", "a:\n  - |\n    [redacted]\n    [redacted]\n  - b\n"},
		"plain text":       {"a: |\n  Pb0 is no secret\nb: 1\n", "a: |\n  Pb0 is no secret\nb: 1\n"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := k0syaml.Redact([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("redacted as\n%s\nnot\n%s", got, tc.want)
			}
			if strings.Contains(string(got), "Pb1") || strings.Contains(string(got), "Pb2") {
				t.Errorf("the secret shows:\n%s", got)
			}
		})
	}
}
