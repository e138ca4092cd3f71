package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// peersDoc is a hub whose list of peers starts on line 11; bad replaces the
// line of the third peer's allowedIPs (line 22).
func peersDoc(bad string) string {
	lines := []string{
		"role: controller",
		"cluster:",
		"  name: edge",
		"  endpoint: 192.0.2.10",
		"wireguard:",
		"  - name: wg0",
		"    address: 10.10.0.1/24",
		"    listenPort: 51820",
		"    nodeAddress: true",
		"    privateKeyFrom: {credential: corium.wg0}",
		"    peers:",
		"      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=",
		"        allowedIPs: [10.10.0.2/32]",
		"        persistentKeepalive: 25",
		"      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=",
		"        allowedIPs: [10.10.0.3/32]",
		"        persistentKeepalive: 25",
		"      - publicKey: 8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc=",
		"        endpoint: 192.0.2.13:51820",
		"        persistentKeepalive: 25",
		"        presharedKeyFrom: {file: /run/psk}",
		bad,
		"      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=",
		"        allowedIPs: [10.10.0.5/32]",
		"firewall:",
		"  clusterPorts: overlay",
	}
	return strings.Join(lines, "\n") + "\n"
}

func syntaxErrorOf(t *testing.T, doc string) *SyntaxError {
	t.Helper()
	_, err := ReadTree([]byte(doc), false)
	var syn *SyntaxError
	if !errors.As(err, &syn) {
		t.Fatalf("ReadTree: %v, want a *SyntaxError", err)
	}
	return syn
}

// A syntax error is reported at the line and column of the text the parser
// could not read, not at the start of the block around it (yaml.v3 says
// line 11 for every one of these), with that line's shape shown.
func TestSyntaxErrorPointsAtTheOffendingText(t *testing.T) {
	for _, tc := range []struct {
		name, bad string
		line, col int
		near      bool
		shown     string
	}{
		{"indented one space too little", "       allowedIPs: [10.10.0.4/32]", 22, 8, false, `"       allowedIPs: […]"`},
		{"a second colon in a value", "        allowedIPs: 10.10.0.4/32: x", 22, 33, false, `"        allowedIPs: …: …"`},
		{"a tab for indentation", "\tallowedIPs: [10.10.0.4/32]", 22, 1, false, `"\tallowedIPs: […]"`},
		{"a quote left open", `        allowedIPs: ["10.10.0.4/32]`, 22, 22, false, `"        allowedIPs: [\"…"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := peersDoc(tc.bad)
			syn := syntaxErrorOf(t, doc)
			if syn.Line != tc.line || syn.Col != tc.col || syn.Near != tc.near {
				t.Errorf("at %d:%d near %v, want %d:%d near %v: %v", syn.Line, syn.Col, syn.Near, tc.line, tc.col, tc.near, syn)
			}
			if !strings.Contains(syn.Error(), "the line reads "+tc.shown) {
				t.Errorf("%q does not show the line as %s", syn.Error(), tc.shown)
			}
		})
	}
}

// The control for the test above: yaml.v3 itself names the block's line.
func TestYAMLNamesTheBlockNotTheLine(t *testing.T) {
	err := firstError([]byte(peersDoc("       allowedIPs: [10.10.0.4/32]")))
	if err == nil || !strings.HasPrefix(err.Error(), "yaml: line 11: ") {
		t.Fatalf("yaml.v3 says %v; the test's premise (line 11) no longer holds", err)
	}
}

// Where the line the parser stopped at lies inside a quote or bracket opened
// above, the mistake may be there: the error says "near".
func TestSyntaxErrorSaysNearInsideAnOpenQuote(t *testing.T) {
	doc := "role: worker\nnode:\n  name: \"w1\n  labels: {zone: \"a\"}\n"
	syn := syntaxErrorOf(t, doc)
	if syn.Line != 4 || !syn.Near {
		t.Fatalf("at line %d near %v, want near line 4: %v", syn.Line, syn.Near, syn)
	}
	if !strings.HasPrefix(syn.Error(), "near line 4: ") || !strings.HasPrefix(syn.Finding().Message, "yaml syntax, near here: ") {
		t.Errorf("the error does not say near: %q / %q", syn.Error(), syn.Finding().Message)
	}
}

// The shown line never holds a value: a syntax error on the line of an
// inline secret, whatever key the secret stands under, shows none of it.
func TestSyntaxErrorShowsNoValue(t *testing.T) {
	const key = "yAJsCz1e5l7Ubp5qRcMeTbCBJaTqc3Ho9wXEkHHjW0c="
	for _, bad := range []string{
		"       privateKey: " + key,
		"        token: " + key + ": x",
		"        role: " + key + ": x",
		"        authPass: \"" + key,
		"        name: [" + key + ", {a: *" + key[:10] + "}",
		"        name: x: y # " + key,
	} {
		syn := syntaxErrorOf(t, peersDoc(bad))
		for _, s := range []string{syn.Error(), syn.Finding().Message, syn.Text} {
			if strings.Contains(s, key[:8]) || strings.Contains(s, key[len(key)-8:]) {
				t.Errorf("%q: the error shows the value: %s", bad, s)
			}
		}
		if syn.Line != 22 {
			t.Errorf("%q: at line %d, want 22: %v", bad, syn.Line, syn)
		}
	}
}

// Placing a syntax error re-parses prefixes by binary search, so a huge
// document with its error on the last line costs a few dozen parses, not
// one per line.
func TestSyntaxErrorInAHugeDocumentIsPlacedQuickly(t *testing.T) {
	const n = 75_000 // about the 1 MiB a fetched document may hold
	var b strings.Builder
	b.WriteString("role: single\nnode:\n  labels:\n")
	for i := range n {
		fmt.Fprintf(&b, "    k%d: v\n", i)
	}
	b.WriteString("   bad: indent\n")
	start := time.Now()
	syn := syntaxErrorOf(t, b.String())
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("placing the error took %v", took)
	}
	if syn.Line != n+4 || syn.Col != 4 {
		t.Errorf("at %d:%d, want %d:4: %v", syn.Line, syn.Col, n+4, syn)
	}
}
