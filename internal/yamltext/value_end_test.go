package yamltext

import (
	"errors"
	"io"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// End takes every line of a value and no line that is not one: a comment
// indented into a block scalar is its text, a comment as indented as the
// keys beside it is not; a quoted scalar's lines are its own up to its
// closing quote, # or not; blank lines, document markers and the next
// item's dash are the next node's.
func TestEnd(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"plain":                 {"pw: Pw1 # note\nnext: 1\n", "Pw1"},
		"block, # line inside":  {"pw: |\n  Pw1\n  # Pw2\nnext: 1\n", "|\n  Pw1\n  # Pw2"},
		"block, comment beside": {"pw: |\n  Pw1\n# note\nnext: 1\n", "|\n  Pw1"},
		"item's key, comment":   {"- pw: |\n    Pw1\n  # note\n  next: 1\n", "|\n    Pw1"},
		"item's key, # inside":  {"- pw: |\n    Pw1\n   # Pw2\n  next: 1\n", "|\n    Pw1\n   # Pw2"},
		"mapping, # inside":     {"pw:\n  a: Pw1\n  # b: Pw2\nnext: 1\n", "a: Pw1\n  # b: Pw2"},
		"mapping, comment":      {"pw:\n  a: Pw1\n# note\n\nnext: 1\n", "a: Pw1"},
		"quoted, # at left":     {"a:\n  pw: \"Pw1\n# Pw2\"\n# note\n  next: 1\n", "\"Pw1\n# Pw2\""},
		"quoted, escaped break": {"pw: \"Pw1\\\n  \\\" Pw2\"   \nnext: 1\n", "\"Pw1\\\n  \\\" Pw2\""},
		"document end":          {"pw: |\n  Pw1\n\n...\n---\nnext: 1\n", "|\n  Pw1"},
		"last, blank lines":     {"pw: >\n  Pw1\n\n\n", ">\n  Pw1"},
		"list item":             {"pw:\n- |\n  Pw1\n- next\n", "- |\n  Pw1\n- next"},
		"flow over lines":       {"{pw: [Pw1,\n Pw2], next: 1}\n", "[Pw1,\n Pw2],"}, // the comma too
	} {
		t.Run(name, func(t *testing.T) {
			docs := parse(t, tc.doc)
			v := valueOf(docs[0], "pw")
			if v == nil {
				t.Fatal("no pw")
			}
			text := secret.NewText(tc.doc)
			if got := between(text, start(v), Index(docs...).End(text, v)); got != tc.want {
				t.Errorf("End takes %q, want %q", got, tc.want)
			}
		})
	}
}

// The first item of a list ends before the next item's dash.
func TestEndOfAnItem(t *testing.T) {
	const doc = "pw:\n- |\n  Pw1\n\n- next\n"
	n := parse(t, doc)[0]
	item := valueOf(n, "pw").Content[0]
	text := secret.NewText(doc)
	if got := between(text, start(item), Index(n).End(text, item)); got != "|\n  Pw1" {
		t.Errorf("End takes %q", got)
	}
}

// parse is the documents of text.
func parse(t *testing.T, text string) []*yaml.Node {
	t.Helper()
	var docs []*yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			return docs
		} else if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, &doc)
	}
}

// A node the index does not hold is taken to the text's end: a masker
// given the wrong index hides too much, not nothing.
func TestEndOfAForeignNode(t *testing.T) {
	const doc = "pw: |\n  Pw1\nnext: 1\n"
	n := parse(t, doc)[0]
	text := secret.NewText(doc)
	v := valueOf(n, "pw")
	if got := between(text, start(v), Index(parse(t, doc)...).End(text, v)); got != "|\n  Pw1\nnext: 1" {
		t.Errorf("End takes %q", got)
	}
}

// valueOf is the value of the first key named key, depth first.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == key {
			return n.Content[i+1]
		}
		if v := valueOf(c, key); v != nil {
			return v
		}
	}
	return nil
}

// between is the text of t from from to to.
func between(t *secret.Text, from, to secret.Pos) string {
	var lines []string
	for l := from.Line; l <= to.Line; l++ {
		r := []rune(t.At(l))
		a, b := 0, len(r)
		if l == from.Line {
			a = from.Col
		}
		if l == to.Line {
			b = to.Col
		}
		lines = append(lines, string(r[a:b]))
	}
	return strings.Join(lines, "\n")
}
