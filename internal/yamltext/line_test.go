package yamltext

import "testing"

// A shown line keeps indentation, name-shaped keys and punctuation, and
// elides every value, quoted or not, anchors', aliases' and tags' names and
// comments.
func TestShownLine(t *testing.T) {
	for in, want := range map[string]string{
		"       endpoint: 192.0.2.1:51820\n": "       endpoint: …",
		"  - publicKey: abc=\r\n":            "  - publicKey: …",
		"  name: x: y":                       "  name: x: …",
		"\ttoken: K10abc":                    "\ttoken: …",
		`  authPass: "Pw1%ab7`:               `  authPass: "…`,
		`  authPass: "a \" b" # note`:        `  authPass: "…" #…`,
		`  name: 'it''s': x`:                 `  name: '…': …`,
		"  labels: {a: b, c: [d, e]}":        "  labels: {a: …, c: […, …]}",
		"  K10secret: v":                     "  …: …",
		"  authPass: *Pw12345":               "  authPass: *…",
		"  token: !!str K10abc":              "  token: !… …",
		"  - &anchor {a: 1}":                 "  - &… {a: …}",
		"ciphertext#notacomment":             "…",
		"\ufeff#cloud-config":                "#…",
		"  script: |-":                       "  script: |-",
		"  -bad0: v":                         "  …: …",
	} {
		if got := ShownLine(in); got != want {
			t.Errorf("ShownLine(%q) = %q, want %q", in, got, want)
		}
	}
}
