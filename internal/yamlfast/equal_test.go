package yamlfast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"gopkg.in/yaml.v3"
)

func init() { panicOnBug = true }

// equalTrees returns the first difference between two trees, with its
// path, or "" when they are equal. Comments are not compared.
func equalTrees(a, b *yaml.Node) string {
	return diffNode("$", a, b)
}

func diffNode(path string, a, b *yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%s: one node is nil (%v, %v)", path, a == nil, b == nil)
		}
		return ""
	}
	type field struct {
		name string
		x, y any
	}
	for _, f := range []field{
		{"Kind", a.Kind, b.Kind}, {"Style", a.Style, b.Style}, {"Tag", a.Tag, b.Tag},
		{"Value", a.Value, b.Value}, {"Anchor", a.Anchor, b.Anchor},
		{"Line", a.Line, b.Line}, {"Column", a.Column, b.Column},
		{"len(Content)", len(a.Content), len(b.Content)},
	} {
		if f.x != f.y {
			return fmt.Sprintf("%s: %s %#v != %#v", path, f.name, f.x, f.y)
		}
	}
	if d := diffNode(path+".Alias", a.Alias, b.Alias); d != "" {
		return d
	}
	for i := range a.Content {
		if d := diffNode(fmt.Sprintf("%s[%d]", path, i), a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// reference decodes data with yaml.v3 and reports whether the stream held
// exactly one document.
func reference(data []byte) (doc *yaml.Node, single bool, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, false, err
	}
	var second yaml.Node
	err = dec.Decode(&second)
	return &root, errors.Is(err, io.EOF), nil
}

// check fails t when Parse accepts data but disagrees with yaml.v3, and
// returns whether Parse accepted it.
func check(t testing.TB, name string, data []byte) bool {
	t.Helper()
	got, ok := Parse(data)
	if !ok {
		return false
	}
	want, single, err := reference(data)
	if err != nil {
		t.Fatalf("%s: Parse accepted what yaml.v3 rejects (%v):\n%s", name, err, data)
	}
	if !single {
		t.Fatalf("%s: Parse accepted a stream yaml.v3 reads as more than one document:\n%s", name, data)
	}
	if d := equalTrees(got, want); d != "" {
		t.Fatalf("%s: tree differs from yaml.v3's: %s\ninput:\n%s", name, d, data)
	}
	return true
}
