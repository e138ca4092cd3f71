package schema_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// secretPairPaths are the tagged secret fields of t that have a
// SecretSource partner named as them with "From" after, found by
// reflection over the types, each as the names of its path.
func secretPairPaths(t reflect.Type) [][]string {
	all := secret.Paths(t, "yaml")
	var out [][]string
	for _, p := range all {
		if p.Type != valueType && p.Type != reflect.PointerTo(valueType) {
			continue
		}
		from := slices.Clone(p.Names)
		from[len(from)-1] += "From"
		if slices.ContainsFunc(all, func(q secret.TypePath) bool { return slices.Equal(q.Names, from) }) {
			out = append(out, p.Names)
		}
	}
	return out
}

// bothGiven is a document that gives the secret at names both inline and
// through a SecretSource, the lists on the way holding one item, and the
// path of the finding expected at its source.
func bothGiven(names []string) (doc []byte, fromPath string, err error) {
	last := names[len(names)-1]
	var v any = map[string]any{last: "x", last + "From": map[string]any{"file": "/run/x"}}
	for i := len(names) - 2; i >= 0; i-- {
		if names[i] == secret.AnyItem {
			v = []any{v}
		} else {
			v = map[string]any{names[i]: v}
		}
	}
	top := v.(map[string]any)
	top["role"] = "controller"
	var p finding.Path
	for _, n := range names[:len(names)-1] {
		if n == secret.AnyItem {
			p = p.Index(0)
		} else {
			p = p.Field(n)
		}
	}
	doc, err = yaml.Marshal(top)
	return doc, p.Field(last + "From").String(), err
}

// Every secret the contract takes both inline and from a SecretSource,
// found by its tags so that one added tomorrow is in it, is refused when a
// document gives both: the rule is derived from the tags, never written by
// hand for each field, so a new field cannot leave the fetched value
// silently winning over the inline one.
func TestEverySecretGivenBothWaysIsRefused(t *testing.T) {
	pairs := secretPairPaths(reflect.TypeFor[schema.Config]())
	if len(pairs) < 4 {
		t.Fatalf("found %d secrets with a SecretSource partner; the contract has four (token, authPass, privateKey, presharedKey)", len(pairs))
	}
	for _, names := range pairs {
		doc, at, err := bothGiven(names)
		if err != nil {
			t.Fatal(err)
		}
		_, fs, _ := schema.Load(doc)
		last := names[len(names)-1]
		want := finding.Finding{Path: at, Severity: finding.Error, Message: "give only one of " + last + " and " + last + "From"}
		if !slices.ContainsFunc(fs, func(f finding.Finding) bool {
			return f.Path == want.Path && f.Severity == want.Severity && f.Message == want.Message
		}) {
			t.Errorf("%s given both ways is not refused at %s with %q:\n%s\n%s", strings.Join(names, "."), at, want.Message, doc, fs)
		}
		for _, f := range fs {
			if f.Path == at && f.Message != want.Message && strings.Contains(f.Message, "only one of") {
				t.Errorf("%s given both ways is refused twice: %q and %q", at, f.Message, want.Message)
			}
		}
	}
}
