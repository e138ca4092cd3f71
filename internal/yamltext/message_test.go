package yamltext

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Every parser error a hostile or broken document can give comes out without
// the document's text, and keeps its line.
func TestMessageHidesDocumentText(t *testing.T) {
	const secret = "Pw12345"
	for _, tc := range []struct {
		doc  string
		line int
		want string
	}{
		{"ha:\n  authPass: *" + secret + "\n", 0, "refers to an anchor that is not defined"},
		{"a: b\n  c: " + secret + "\n", 2, "mapping values are not allowed"},
		{"a: [" + secret + "\n", 1, "did not find expected ',' or ']'"},
		{"a: '" + secret + "\n", 2, "found unexpected end of stream"},
		{"a: \"" + secret + "\\q\"\n", 0, "found unknown escape character"},
		{"a:\n\t- " + secret + "\n", 2, "found character that cannot start any token"},
	} {
		var n yaml.Node
		err := yaml.Unmarshal([]byte(tc.doc), &n)
		if err == nil {
			t.Errorf("%q parsed", tc.doc)
			continue
		}
		line, msg := Message(err)
		if strings.Contains(msg, secret) || strings.Contains(msg, "Pw123") {
			t.Errorf("%q: message quotes the document: %s", tc.doc, msg)
		}
		if !strings.Contains(msg, tc.want) || line != tc.line {
			t.Errorf("%q: got line %d %q, want line %d and %q (raw: %v)", tc.doc, line, msg, tc.line, tc.want, err)
		}
	}
}

func TestCleanKeepsGrammarQuotes(t *testing.T) {
	for in, want := range map[string]string{
		"did not find expected ',' or ']'":            "did not find expected ',' or ']'",
		"mapping key \"K10SECRET\" already defined":   "mapping key " + Hidden + " already defined",
		"cannot unmarshal !!str `K10SEC...` into int": "cannot unmarshal !!str " + Hidden + " into int",
		"cannot decode !!binary `abc` as a !!str":     "cannot decode !!binary " + Hidden + " as a !!str",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
