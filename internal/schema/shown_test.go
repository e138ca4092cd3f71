package schema

import (
	"strings"
	"testing"
)

// A typo that turns a value into a key, a secret pasted into an enum, and a
// parser message about an anchor all point at text that may be a secret:
// the findings keep the position and never quote it.
func TestFindingsNeverQuoteValues(t *testing.T) {
	const (
		token = "K10SECRETdGhpc2lzYWpvaW50b2tlbmZvcnRlc3Rz"
		key   = "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9w="
		pass  = "Pw12345"
	)
	wg := func(extra string) string {
		return "wireguard:\n  - name: wg0\n    address: 10.10.0.1/24\n    listenPort: 51820\n" + extra +
			"    peers:\n      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=\n        allowedIPs: [10.10.0.2/32]\n"
	}
	for _, tc := range []struct {
		name, doc string
		line      int
		want      string // in the message
	}{
		{"space instead of colon in a flow mapping", "role: worker\njoin: {token " + token + "}\n", 2, `begins with "token"`},
		{"no space after the colon in a flow mapping", "role: worker\njoin: {token:" + token + "}\n", 2, `begins with "token"`},
		{"private key glued in a flow mapping", "role: worker\njoin: {token: x}\nwireguard: [{name: wg0, address: 10.10.0.1/24, listenPort: 1, privateKey:" + key + ", peers: [{publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=, allowedIPs: [10.10.0.2/32]}]}]\n", 3, `begins with "privateKey"`},
		{"equals sign in a block key", "role: worker\njoin:\n  token=" + token + ": x\n", 3, `begins with "token"`},
		{"a value with no key at all", "role: worker\njoin:\n  " + token + ": x\n", 3, "not shown"},
		{"token pasted into role", "role: " + token + "\n", 1, "must be one of single"},
		{"password pasted into role", "role: " + pass + "\n", 1, "must be one of single"},
		{"password pasted into cni", "role: single\nnetwork: {cni: " + pass + "}\n", 2, "must be one of kuberouter"},
		{"secret as a label key", "role: single\nnode:\n  labels:\n    " + key + ": x\n", 4, "qualified name"},
		{"secret as a duplicate label key", "role: single\nnode:\n  labels:\n    " + key[:40] + ": x\n    " + key[:40] + ": y\n", 5, "duplicate key"},
		{"secret as a wireguard name, twice", "role: single\n" + strings.ReplaceAll(wg("")+wg("")[len("wireguard:\n"):], "name: wg0", "name: "+key), 0, "duplicates wireguard[0].name"},
		{"alias to an undefined anchor", "role: controller\nha:\n  enabled: true\n  authPass: *" + pass + "\n", 4, "anchor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var text string
			doc, err := Parse([]byte(tc.doc))
			if err != nil {
				text = err.Error()
			} else {
				for _, f := range Validate(doc) {
					text += f.String() + "\n"
					if tc.line > 0 && strings.Contains(f.Message, tc.want) && f.Line != tc.line {
						t.Errorf("finding %q at line %d, want line %d", f, f.Line, tc.line)
					}
				}
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("findings lack %q:\n%s", tc.want, text)
			}
			for _, s := range []string{token, key, pass} {
				for i := 0; i+12 <= len(s); i++ {
					if strings.Contains(text, s[i:i+12]) || (len(s) < 12 && strings.Contains(text, s)) {
						t.Fatalf("findings quote the value (%.6s…):\n%s", s, text)
					}
				}
				if len(s) < 12 && strings.Contains(text, s) {
					t.Fatalf("findings quote the value %q:\n%s", s, text)
				}
			}
		})
	}
}

// What a finding still quotes, so an operator sees the typo itself.
func TestFindingsQuoteNamesAndEnumTypos(t *testing.T) {
	for doc, want := range map[string]string{
		"role: single\nnode: {nmae: x}\n":                   `node.nmae: unknown key; did you mean "name"?`,
		"role: contoller\n":                                 `(got "contoller")`,
		"role: single\nnode:\n  labels:\n    -bad/key: x\n": `node.labels["-bad/key"]`,
		"role: single\nk0s: {patch: 1}\n":                   `k0s.patch: must be a mapping`,
	} {
		d, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var text string
		for _, f := range Validate(d) {
			text += f.String() + "\n"
		}
		if !strings.Contains(text, want) {
			t.Errorf("%q: findings lack %q:\n%s", doc, want, text)
		}
	}
}

func TestShownPath(t *testing.T) {
	for in, want := range map[string]string{
		"wireguard[0].peers[1].allowedIPs[0]":    "wireguard[0].peers[1].allowedIPs[0]",
		"join.token K10SECRET":                   "join.<key>",
		`node.labels["app.kubernetes.io/name"]`:  `node.labels["app.kubernetes.io/name"]`,
		`node.labels["aB3dE5gH7jK9mN1pQ3sT5vX"]`: "node.labels[<key>]",
		`node.labels["a+b=="]`:                   "node.labels[<key>]",
		"k0s.patch":                              "k0s.patch",
		"node.labels#key":                        "node.labels",
	} {
		if got := shownPath(in); got != want {
			t.Errorf("shownPath(%q) = %q, want %q", in, got, want)
		}
	}
}
