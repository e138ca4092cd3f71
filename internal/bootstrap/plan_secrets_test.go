package bootstrap

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// Inline secrets, written in the document itself, must be masked in a plan
// like resolved ones: the plan holds the very text the files would.
func TestPlanMasksInlineSecrets(t *testing.T) {
	const (
		priv = "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9w="
		psk  = "YmFzZTY0IG9mIDMyIGJ5dGVzIG9mIHByZXNoYXJlZCE="
		pass = "Pw12345x"
	)
	token := fixture.ControllerJoinToken("fake00.inlineplantoken0")
	doc := `role: controller
cluster: {endpoint: 192.0.2.100}
join:
  token: ` + token + `
ha:
  enabled: true
  virtualIP: 192.0.2.100/24
  authPass: ` + pass + `
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    listenPort: 51820
    privateKey: ` + priv + `
    peers:
      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        allowedIPs: [10.10.0.2/32]
        presharedKey: ` + psk + `
`
	cfgPath := filepath.Join(t.TempDir(), "inline.yaml")
	if err := os.WriteFile(cfgPath, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, provisioned := range []bool{false, true} {
		root := rootfs.New(t.TempDir())
		if provisioned {
			// The same document on disk: the old side of every diff holds
			// the real values too.
			o := demoOptions(root, nil)
			o.ConfigFile = cfgPath
			if _, err := Run(context.Background(), o); err != nil {
				t.Fatalf("apply: %v", err)
			}
			edited := strings.Replace(doc, "listenPort: 51820", "listenPort: 51821", 1)
			if err := os.WriteFile(cfgPath, []byte(edited), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		o := demoOptions(root, nil)
		o.ConfigFile, o.Resolver = cfgPath, nil
		rep, err := Plan(context.Background(), o)
		if err != nil {
			t.Fatalf("plan: %v", err)
		}
		js, _ := json.Marshal(rep)
		for _, s := range []string{priv, psk, token, pass} {
			if strings.Contains(string(js), s) {
				t.Errorf("provisioned=%v: the plan shows an inline secret %.8s…:\n%s", provisioned, s, js)
			}
		}
		var sawKey bool
		for _, st := range rep.Steps {
			for _, f := range st.Files {
				if f.Path == "/etc/wireguard/wg0.conf" {
					sawKey = strings.Contains(f.Diff, "PrivateKey = [redacted]") || !provisioned
					if provisioned && !strings.Contains(f.Diff, "+ ListenPort = 51821") {
						t.Errorf("the real change is missing from the masked diff:\n%s", f.Diff)
					}
				}
			}
		}
		if !sawKey {
			t.Errorf("provisioned=%v: wg0.conf's key line is not shown masked", provisioned)
		}
	}
}

// A peer dropped from the config leaves its preshared key only in the file on
// disk; the diff's removed side must not show it.
func TestPlanAgainMasksSecretsOnlyOnDisk(t *testing.T) {
	root := provisionedDemo(t)
	psk, err := os.ReadFile(filepath.Join(demoDir, "root/run/corium/secrets/wg0-c2.psk"))
	if err != nil {
		t.Fatal(err)
	}
	config := editedDemoConfig(t,
		`      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32]
        presharedKeyFrom: {file: /run/corium/secrets/wg0-c2.psk}
        persistentKeepalive: 25
`, "")
	for _, withAgain := range []bool{false, true} {
		o := demoOptions(root, nil)
		o.ConfigFile, o.Again, o.Resolver = config, withAgain, nil
		rep, err := Plan(context.Background(), o)
		if err != nil {
			t.Fatalf("plan (again=%v): %v", withAgain, err)
		}
		js, _ := json.Marshal(rep)
		if strings.Contains(string(js), strings.TrimSpace(string(psk))) {
			t.Errorf("again=%v: the plan shows the dropped peer's preshared key from the file on disk", withAgain)
		}
		if !strings.Contains(string(js), `- PresharedKey = [redacted]`) {
			t.Errorf("again=%v: the dropped peer's key line is not shown masked:\n%s", withAgain, js)
		}
	}
	for _, s := range demoSecrets(t) {
		o := demoOptions(root, nil)
		o.ConfigFile, o.Again, o.Resolver = config, true, nil
		rep, _ := Plan(context.Background(), o)
		js, _ := json.Marshal(rep)
		if strings.Contains(string(js), s) {
			t.Errorf("plan --again shows a secret of the provisioned node (%.6s…)", s)
		}
	}
}

// A known secret value is masked wherever it shows, in a file no syntax
// reads and on a line with no key alike: only the value, the rest of the
// line shown.
func TestShownTextMasksKnownValues(t *testing.T) {
	values := []string{"INLINEVALUE"}
	for _, tc := range []struct{ in, want string }{
		{"Other = INLINEVALUE", "Other = [redacted]"},
		{"INLINEVALUE\n", "[redacted]\n"},
		{"ListenPort = 1", "ListenPort = 1"},
	} {
		got, whole := shownText(plan.File{Path: "/etc/x.conf"}, []byte(tc.in), values)
		if whole || got != tc.want {
			t.Errorf("shownText(%q) = %q, %v; want %q", tc.in, got, whole, tc.want)
		}
	}
}

// In a k0s.yaml a value spanning lines under a secret key is masked as its
// key's one line, however YAML spells it, a password in a block scalar's
// text (a helm chart's values) too; a known value elsewhere is masked
// where it stands.
func TestShownTextValuesSpanningLines(t *testing.T) {
	f := plan.File{Path: "/etc/k0s/k0s.yaml", Secret: true, SecretKeys: k0syaml.FreeTextSecretKeys, SecretSyntax: plan.SyntaxK0s}
	values := []string{"Qz7", "Xw9"}
	for _, tc := range []struct{ name, in, want string }{
		{"block scalar", "a:\n  - password: |-\n      Qz7\n\n      Xw9\n    interface: eth0\n", "a:\n  - password: [redacted]\n    interface: eth0\n"},
		{"plain scalar folded", "password: Qz7\n  Xw9\nnext: 1", "password: [redacted]\nnext: 1"},
		{"quoted scalar folded to the margin", "x:\n  Password: \"a\\\"\nb\"\ny: 1", "x:\n  Password: [redacted]\ny: 1"},
		{"single-quoted with a doubled quote", "password: 'it''s\nb'\ny: 1", "password: [redacted]\ny: 1"},
		{"list at the key's own indentation", "password:\n- p1\n- p2\ny: 1", "password: [redacted]\ny: 1"},
		{"a secret in a block of an unmasked key", "note: &n |-\n  Qz7\n  Xw9\nother: 1", "note: &n |-\n  [redacted]\n  [redacted]\nother: 1"},
		{"a list item holding a secret", "sans:\n  - ok\n  - Xw9\nnext: 1", "sans:\n  - ok\n  - [redacted]\nnext: 1"},
		{"a password in embedded text", "values: |\n  db:\n    password: |\n      s3cr\n      et\n  user: u\n", "values: |\n  db:\n    password: [redacted]\n  user: u\n"},
		{"embedded text that is not YAML", "values: |\n  note\n  password: s3cr\nuser: u\n", "values: [redacted]\nuser: u\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, whole := shownText(f, []byte(tc.in), values)
			if whole || got != tc.want {
				t.Errorf("shownText:\n%s\ngot (whole=%v):\n%s\nwant:\n%s", tc.in, whole, got, tc.want)
			}
		})
	}
}
