package report

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestEveryFieldIsDocumented: docs/status.md names every JSON field of the
// report, so the documented shape cannot fall behind the types.
func TestEveryFieldIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/status.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty.PkgPath() == "time" {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				t.Errorf("%s.%s has no JSON name", ty.Name(), f.Name)
				continue
			}
			if !strings.Contains(string(doc), "`"+name+"`") && !strings.Contains(string(doc), `"`+name+`"`) {
				t.Errorf("docs/status.md does not document %s (%s.%s)", name, ty.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Report{}))
}

// TestDocumentedExampleDecodes: the JSON example in docs/status.md is the
// report's shape, field for field.
func TestDocumentedExampleDecodes(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/status.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/status.md has no json example")
	}
	dec := json.NewDecoder(strings.NewReader(example))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("the documented example is not a report: %v", err)
	}
	if r.Verdict.State != Degraded || r.Interfaces[0].Peers[0].Class != Stale {
		t.Errorf("example decoded as %+v", r)
	}
}
