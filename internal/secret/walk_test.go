package secret

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type walkInner struct {
	Key  Value   `yaml:"key" secret:"k"`
	From *Source `yaml:"keyFrom" secret:"k"`
	Name string  `yaml:"name"`
}

type walkOuter struct {
	Pass   *Value            `yaml:"pass" secret:"p"`
	Items  []walkInner       `yaml:"items"`
	Ptr    *walkInner        `yaml:"ptr"`
	ByName map[string]Value  `yaml:"-"`
	Free   map[string]any    `yaml:"free"`
	Labels map[string]string `yaml:"labels"`
}

func sample() walkOuter {
	p := NewValue("P1")
	return walkOuter{
		Pass:   &p,
		Items:  []walkInner{{Name: "none"}, {Key: NewValue("K2"), From: &Source{File: "/f"}}},
		Ptr:    &walkInner{Key: NewValue("K3")},
		ByName: map[string]Value{"m": NewValue("M4")},
		Free:   map[string]any{"x": NewValue("not walked: any is free text")},
	}
}

// In finds every Value by type, through pointers, lists and maps' values,
// in field order; RedactedIn hides each of them in a copy and leaves the
// original as it was.
func TestInAndRedactedIn(t *testing.T) {
	v := sample()
	var got []string
	for _, s := range In(v) {
		got = append(got, s.Reveal())
	}
	if want := []string{"P1", "K2", "K3", "M4"}; !slices.Equal(got, want) {
		t.Errorf("In = %v, want %v", got, want)
	}
	r := RedactedIn(v)
	if left := In(r); len(left) != 4 || slices.ContainsFunc(left, func(s Value) bool { return s.Reveal() != Redacted }) {
		t.Errorf("RedactedIn left %d values, some not redacted", len(left))
	}
	if again := In(v); len(again) != 4 || again[0].Reveal() != "P1" || v.Items[1].Key.Reveal() != "K2" || v.Ptr.Key.Reveal() != "K3" || v.ByName["m"].Reveal() != "M4" {
		t.Error("RedactedIn changed the value it was given")
	}
	if r.Items[0].Name != "none" || r.Items[1].From.File != "/f" {
		t.Error("RedactedIn changed what is not a secret")
	}
}

// Fields visits the tagged fields that are set, with paths spelled from
// the name tag and the tag's kind; Paths names where the type holds them.
func TestFieldsAndPaths(t *testing.T) {
	var got []string
	Fields(sample(), "yaml", func(f Field) { got = append(got, f.Path+" "+f.Kind) })
	want := []string{"pass p", "items[1].key k", "items[1].keyFrom k", "ptr.key k"}
	if !slices.Equal(got, want) {
		t.Errorf("Fields = %v, want %v", got, want)
	}
	var paths []string
	for _, p := range Paths(reflect.TypeFor[walkOuter](), "yaml") {
		paths = append(paths, strings.Join(p.Names, ".")+" "+p.Kind)
	}
	if want := []string{"pass p", "items.[].key k", "items.[].keyFrom k", "ptr.key k", "ptr.keyFrom k"}; !slices.Equal(paths, want) {
		t.Errorf("Paths = %v, want %v", paths, want)
	}
}

// Untagged names a secret field without its tag, a secret in a map, and a
// tag on a field that holds no secret; a type tagged throughout has none.
func TestUntagged(t *testing.T) {
	type bad struct {
		Key    Value            `yaml:"key"`
		Inner  []walkInner      `yaml:"inner"`
		ByName map[string]Value `yaml:"byName"`
		Name   string           `yaml:"name" secret:"k"`
		Keys   []Value          `yaml:"keys"`
		More   []*Source        `yaml:"more"`
	}
	got := fmt.Sprint(Untagged(reflect.TypeFor[bad]()))
	for _, want := range []string{"bad.Key: a secret.Value without", "bad.ByName: a secret inside a map", "bad.Name: tagged secret, but a string", "bad.Keys: a list of secrets", "bad.More[]: a list of secrets"} {
		if !strings.Contains(got, want) {
			t.Errorf("Untagged = %s; %q missing", got, want)
		}
	}
	// A forgotten tag is a failing test, not a secret lost: the field is
	// still found, of no kind.
	var found []string
	Fields(bad{Key: NewValue("x")}, "yaml", func(f Field) { found = append(found, f.Path+" "+f.Kind) })
	if !slices.Equal(found, []string{"key "}) {
		t.Errorf("Fields of an untagged secret = %q", found)
	}
	if u := Untagged(reflect.TypeFor[walkInner]()); len(u) != 0 {
		t.Errorf("Untagged(walkInner) = %v", u)
	}
}

type cycleA struct {
	B *cycleB `yaml:"b"`
	S Value   `yaml:"s" secret:"k"`
}

type cycleB struct {
	A *cycleA `yaml:"a"`
}

// A type that holds a secret only through a cycle back to one that holds
// it directly is found to hold it, whichever of the two is asked first.
func TestCyclicTypes(t *testing.T) {
	if !holdsSecret(reflect.TypeFor[cycleA]()) || !holdsSecret(reflect.TypeFor[cycleB]()) {
		t.Error("a type of the cycle is said to hold no secret")
	}
	b := cycleB{A: &cycleA{B: &cycleB{A: &cycleA{S: NewValue("deep")}}}}
	if got := In(b); len(got) != 1 || got[0].Reveal() != "deep" {
		t.Errorf("In = %v", got)
	}
}
