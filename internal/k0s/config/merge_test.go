package config

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func TestMerge(t *testing.T) {
	base := map[string]any{"a": map[string]any{"b": 1, "c": []any{1, 2}, "d": map[string]any{"e": "x"}}, "keep": true}
	patch := map[string]any{"a": map[string]any{"c": []any{9}, "d": map[string]any{"f": "y"}, "b": "s"}}
	got := Merge(base, patch)
	want := "a:\n    b: s\n    c:\n        - 9\n    d:\n        e: x\n        f: \"y\"\nkeep: true\n"
	b, _ := yaml.Marshal(got)
	if string(b) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", b, want)
	}
	if base["a"].(map[string]any)["b"] != 1 {
		t.Error("Merge modified its base")
	}
}
