package schema

import (
	"strings"
	"testing"
)

// maskedLine is line n of doc as Masked shows it, with the column col
// moved there.
func maskedLine(t *testing.T, doc string, n, col int) (string, int) {
	t.Helper()
	tree, err := ReadTree([]byte(doc), false)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := tree.Masked([]byte(doc))
	if !ok {
		t.Fatal("no masked text for a standalone document")
	}
	text, at, ok := m.Line(n, col)
	if !ok {
		t.Fatalf("no line %d", n)
	}
	return text, at
}

// Every value that could be a secret is masked where it stands, in a flow
// mapping as in a block, and the rest of the line is kept as written.
func TestMaskedHidesSecretsInTheirLine(t *testing.T) {
	for name, c := range map[string]struct {
		doc  string
		line int
		want string
	}{
		"plain in a flow mapping": {
			"wireguard:\n- {name: wg0, privateKey: S3CRET-plain, mtu: 100}\n", 2,
			"- {name: wg0, privateKey: [redacted], mtu: 100}"},
		"double-quoted with an escaped quote": {
			`ha: {authPass: "S3CRET \" quoted", enabled: true}` + "\n", 1,
			`ha: {authPass: [redacted], enabled: true}`},
		"single-quoted": {
			"ha: {authPass: 'S3CRET''s', enabled: true}\n", 1,
			"ha: {authPass: [redacted], enabled: true}"},
		"a key in another case, misplaced": {
			"wireguard:\n- {name: wg0, peers: [{PrivateKey: S3CRET-misplaced}]}\n", 2,
			"- {name: wg0, peers: [{PrivateKey: [redacted]}]}"},
		"a helm password inside k0s.patch": {
			"k0s: {patch: {spec: {extensions: {helm: {repositories: [{name: r, password: S3CRET-helm, url: https://c.example}]}}}}}\n", 1,
			"k0s: {patch: {spec: {extensions: {helm: {repositories: [{name: r, password: [redacted], url: https://c.example}]}}}}}"},
		"a URL with a query, as a plan shows it": {
			"join: {tokenFrom: {url: 'https://p.example/t?X-Amz-Signature=S3CRET-sig', waitFor: 2h}}\n", 1,
			"join: {tokenFrom: {url: https://p.example/t?[redacted], waitFor: 2h}}"},
		"a URL with userinfo": {
			"join: {tokenFrom: {url: https://u:S3CRET-pass@p.example/t}}\n", 1,
			"join: {tokenFrom: {url: https://p.example/t?[redacted]}}"},
		"a mapping under a secret key": {
			"ha: {authPass: {a: S3CRET-map}, enabled: true}\n", 1,
			"ha: {authPass: [redacted], enabled: true}"},
		"the anchored value an alias under a secret key names": {
			"node: {name: &k S3CRET-anchor}\njoin: {token: *k}\n", 1,
			"node: {name: [redacted]}"},
		"after a byte order mark": {
			"\ufeffha: {authPass: S3CRET-bom, enabled: true}\n", 1,
			"ha: {authPass: [redacted], enabled: true}"},
		"after characters of two bytes": {
			"node: {name: é-é, labels: {password: S3CRET-utf8, b: c}}\n", 1,
			"node: {name: é-é, labels: {password: [redacted], b: c}}"},
		"a key the contract does not know, shaped like a name": {
			"wireguard:\n- {name: wg0, privKey: S3CRET-typo, mtu: 1420}\n", 2,
			"- {name: wg0, privKey: [redacted], mtu: 1420}"},
		"a key not shaped like a name": {
			"wireguard:\n- {name: wg0, cGxhaW50ZXh0LXNlY3JldA==: x, mtu: 1420}\n", 2,
			"- {name: wg0, [redacted]: [redacted], mtu: 1420}"},
		"a word where a mapping goes": {
			"join: {tokenFrom: S3CRET-word}\nk0s: {patch: {spec: {a: b}}}\n", 1,
			"join: {tokenFrom: [redacted]}"},
		"free-form maps, as a plan shows them": {
			"node: {labels: {topology.kubernetes.io/region: site-b, app: w-1}}\n", 1,
			"node: {labels: {topology.kubernetes.io/region: site-b, app: w-1}}"},
		"a secret pasted as a label key": {
			"node: {labels: {k0s9x2.S3CRETa1b2c3d4e5f6: a, app: w-1}}\n", 1,
			"node: {labels: {[redacted]: a, app: w-1}}"},
		"a join token pasted as a label key": {
			"node:\n  labels:\n    s3cret.0123456789s3cret: a\n", 3,
			"    [redacted]: a"},
		"a merged mapping, where it stands": {
			"wireguard:\n- &w {name: wg0, privateKey: S3CRET-merged}\n- {<<: *w, name: wg1}\n", 2,
			"- &w {name: wg0, privateKey: [redacted]}"},
		"a tagged value": {
			"join:\n  token: !!str S3CRET-tagged\n", 2,
			"  token: [redacted]"},
	} {
		t.Run(name, func(t *testing.T) {
			got, _ := maskedLine(t, c.doc, c.line, 1)
			if got != c.want || strings.Contains(got, "S3CRET") {
				t.Errorf("line %d:\n got %s\nwant %s", c.line, got, c.want)
			}
		})
	}
}

// A value spanning lines is masked on each: the first shows [redacted],
// the lines it goes on in show [redacted] after their indentation, and the
// next key is kept.
func TestMaskedHidesEveryLineOfAValue(t *testing.T) {
	for name, doc := range map[string]string{
		"literal block": "ha:\n  authPass: |\n    S3CRET-one\n    S3CRET-two\n  enabled: true\n",
		"plain scalar":  "ha:\n  authPass: S3CRET-one\n    S3CRET-two\n  enabled: true\n",
		"double quoted": "ha:\n  authPass: \"S3CRET-one\n    S3CRET-two\"\n  enabled: true\n",
	} {
		t.Run(name, func(t *testing.T) {
			for n := 1; n <= 5; n++ {
				if got, _ := maskedLine(t, doc, n, 1); strings.Contains(got, "S3CRET") {
					t.Errorf("line %d shows %q", n, got)
				}
			}
			if got, _ := maskedLine(t, doc, 4, 1); got != "  enabled: true" && got != "    [redacted]" {
				t.Errorf("line 4 is %q", got)
			}
			if got, _ := maskedLine(t, doc, 5, 1); got != "  enabled: true" && got != "" {
				t.Errorf("line 5 is %q", got)
			}
		})
	}
}

// A line indented into a secret block scalar is the value's text, # or
// not, and is masked; a comment as indented as the keys beside the value
// is not the value's, and shows.
func TestMaskedCommentsAfterAValue(t *testing.T) {
	doc := "ha:\n  authPass: |\n    S3CRET-one\n    # S3CRET-two\n  # about enabled\n  enabled: true\n"
	for n, want := range map[int]string{3: "    [redacted]", 4: "    [redacted]", 5: "  # about enabled", 6: "  enabled: true"} {
		if got, _ := maskedLine(t, doc, n, 1); got != want {
			t.Errorf("line %d is %q, want %q", n, got, want)
		}
	}
}

// A column keeps pointing at what it pointed at: after a masked value it
// moves by the difference, inside one it points at [redacted].
func TestMaskedMovesTheColumn(t *testing.T) {
	doc := "wireguard:\n- {name: wg0, privateKey: S3CRET-0123456789, mtu: 100}\n"
	line := strings.Split(doc, "\n")[1]
	mtu := strings.Index(line, "100") + 1
	inside := strings.Index(line, "S3CRET") + 4
	before := strings.Index(line, "wg0") + 1
	for _, c := range []struct {
		col  int
		want string
	}{{mtu, "100}"}, {inside, "[redacted], mtu"}, {before, "wg0,"}} {
		got, at := maskedLine(t, doc, 2, c.col)
		if !strings.HasPrefix(got[at-1:], c.want) {
			t.Errorf("column %d moved to %d, at %q; want %q", c.col, at, got[at-1:], c.want)
		}
	}
	// Past the line's end, as a parser points at a missing value.
	got, at := maskedLine(t, doc, 2, len(line)+2)
	if at != len([]rune(got))+2 {
		t.Errorf("past the end: column %d of %q", at, got)
	}
}

// A cloud-config's other keys hold secrets the contract does not know
// (chpasswd's, users'): nothing of it is shown.
func TestMaskedRefusesACloudConfig(t *testing.T) {
	doc := "#cloud-config\nchpasswd: {list: 'root:S3CRET'}\ncorium: {role: worker}\n"
	tree, err := ReadTree([]byte(doc), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tree.Masked([]byte(doc)); ok {
		t.Error("a cloud-config is shown")
	}
}

// A flow mapping under a secret key whose line ends in a comment holding
// a bracket is masked up to the next key, not up to that bracket.
func TestMaskedFlowValueOverLines(t *testing.T) {
	doc := "ha:\n  authPass: {a: b # }\n    , c: S3CRET-flow}\n  enabled: true\n"
	for n := 1; n <= 4; n++ {
		if got, _ := maskedLine(t, doc, n, 1); strings.Contains(got, "S3CRET") {
			t.Errorf("line %d shows %q", n, got)
		}
	}
	if got, _ := maskedLine(t, doc, 4, 1); got != "  enabled: true" {
		t.Errorf("line 4 is %q", got)
	}
}

// A value a finding points at is masked whatever its field, and so is one
// whose key it points at: a value the rules refuse may be a secret in the
// wrong field, and a window under another finding on the same line would
// show it. A mapping pointed at is left to its own values.
func TestMaskedHidesFlaggedValues(t *testing.T) {
	doc := "cluster: {name: S3CRET-as-name}\nwireguard:\n- {name: wg0, publicKey: S3CRET-as-pub, mtu: 100}\nnode: {name: n1, labels: {a: b}}\n"
	tree, err := ReadTree([]byte(doc), false)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(doc, "\n")
	name := [2]int{1, strings.Index(lines[0], "S3CRET") + 1}
	pubKey := [2]int{3, strings.Index(lines[2], "publicKey") + 1}
	labels := [2]int{4, strings.Index(lines[3], "{a") + 1}
	m, ok := tree.Masked([]byte(doc), name, pubKey, labels)
	if !ok {
		t.Fatal("no masked text")
	}
	for n, want := range []string{
		"cluster: {name: [redacted]}",
		"wireguard:",
		"- {name: wg0, publicKey: [redacted], mtu: 100}",
		"node: {name: n1, labels: {a: b}}",
	} {
		if got, _, _ := m.Line(n+1, 1); got != want {
			t.Errorf("line %d:\n got %s\nwant %s", n+1, got, want)
		}
	}
	// Without the findings' places, only what a plan masks is.
	plain, _ := tree.Masked([]byte(doc))
	if got, _, _ := plain.Line(1, 1); got != lines[0] {
		t.Errorf("line 1 without findings is %q", got)
	}
}
